# bench/model: the machine model, the time keeper, the model cache and the
# machine classes, one library without QEMU calls (README.md); it parses
# with bench/lib, so a program links $(LIBBNB) after it.  Built twice,
# as bench/lib is: $(LIBMODEL) for the launcher, the runner and the unit
# tests, $(LIBMODEL_PIC) of the plugin's flavour (the Makefile's pobj rule)
# for bnb-plugin.so.  The Makefile reads this fragment right after
# bench/lib's, so every other fragment can name both archives.

MODEL_SRCS := model.c timekeeper.c machine.c cache.c
LIBMODEL := $(BUILD)/lib/libbnb-model.a
LIBMODEL_PIC := $(BUILD)/lib/libbnb-model-pic.a

$(LIBMODEL): $(addprefix $(BUILD)/obj/bench/model/,$(MODEL_SRCS:.c=.o))
$(LIBMODEL_PIC): $(addprefix $(BUILD)/pobj/bench/model/,$(MODEL_SRCS:.c=.o))
$(LIBMODEL) $(LIBMODEL_PIC):
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $^

MODEL_TEST := $(TEST_BIN)/test_model
UNIT_TESTS += $(MODEL_TEST)
$(MODEL_TEST): $(patsubst %,$(BUILD)/obj/tests/unit/test_model_%.o,miss timekeeper machine cache) \
		$(LIBMODEL) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS)
