# bench/collector: the host collector, bnb-collect (FORMAT.md lists its output).
COLLECT_LIB_SRCS := options.c reply.c cost.c window.c csv.c series.c plugin.c tiering.c \
	timeseries.c summary.c conn.c sampler.c
COLLECT_OBJS := $(addprefix $(BUILD)/obj/bench/collector/,$(COLLECT_LIB_SRCS:.c=.o)) \
	$(LIBBNB)
BNB_COLLECT := $(HOST_BIN)/bnb-collect
HOST_PROGS += $(BNB_COLLECT)

$(BNB_COLLECT): $(BUILD)/obj/bench/collector/main.o $(COLLECT_OBJS)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ -ljson-c -lm

COLLECT_TESTS := test_collector_reply test_collector_cost test_collector_window \
	test_collector_output test_collector_plugin test_collector_agent test_collector_account
UNIT_TESTS += $(addprefix $(TEST_BIN)/,$(COLLECT_TESTS))

# The end-to-end test runs the real agent, built for the host.
$(TEST_BIN)/test_collector_agent: | $(BNB_AGENT_HOST) $(BNB_COLLECT)

$(addprefix $(TEST_BIN)/,$(COLLECT_TESTS)): $(TEST_BIN)/%: $(BUILD)/obj/tests/unit/%.o \
		$(BUILD)/obj/tests/unit/docblock.o $(COLLECT_OBJS) $(BUILD)/obj/bench/collector/account.o
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS) -ljson-c -lm

$(BUILD)/obj/tests/unit/test_collector_%.o: CFLAGS += -Ibench/collector
$(BUILD)/obj/tests/unit/test_collector_agent.o: CFLAGS += -DBNB_BUILD_DIR=\"$(abspath $(BUILD))\"
$(BUILD)/obj/bench/fuzz/%.o: CFLAGS += -Ibench/collector
