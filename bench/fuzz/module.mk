# bench/fuzz: libFuzzer target for the collector's reply parser and the series it feeds.
#   make fuzz-reply           build it (clang, ASan + UBSan)
#   make fuzz FUZZ_SECONDS=600   run it on the seed corpus, niced
# Crashes land in bench/fuzz/regressions/ and are replayed by the unit
# test test_collector_fuzz (so `make test` keeps them fixed).
FUZZ_CC ?= clang
FUZZ_REPLY := $(BUILD)/fuzz/fuzz-reply
FUZZ_SECONDS ?= 600

.PHONY: fuzz fuzz-reply
fuzz-reply: $(FUZZ_REPLY)

FUZZ_SERIES_SRCS := series.c window.c cost.c plugin.c tiering.c
FUZZ_REPLY_SRCS := bench/fuzz/fuzz_reply.c bench/collector/reply.c bench/lib/err.c \
	$(addprefix bench/collector/,$(FUZZ_SERIES_SRCS))

$(FUZZ_REPLY): $(FUZZ_REPLY_SRCS) $(wildcard bench/collector/*.h) bench/include/bnb_wire.h \
		bench/lib/err.h
	@mkdir -p $(@D)
	$(FUZZ_CC) -g -O1 -std=gnu11 -D_GNU_SOURCE -Ibench/include -Ibench -Ibench/collector \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-o $@ $(FUZZ_REPLY_SRCS)

fuzz: $(FUZZ_REPLY)
	@bench/fuzz/run.sh $(FUZZ_REPLY) $(FUZZ_SECONDS)

UNIT_TESTS += $(TEST_BIN)/test_collector_fuzz
$(BUILD)/obj/tests/unit/test_collector_fuzz.o: CFLAGS += -DBNB_FUZZ_DIR=\"$(CURDIR)/bench/fuzz\"
$(TEST_BIN)/test_collector_fuzz: $(BUILD)/obj/tests/unit/test_collector_fuzz.o \
		$(BUILD)/obj/bench/fuzz/fuzz_reply.o $(BUILD)/obj/bench/collector/reply.o \
		$(addprefix $(BUILD)/obj/bench/collector/,$(FUZZ_SERIES_SRCS:.c=.o)) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS) -lm
