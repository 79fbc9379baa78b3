# bench/lib: parsing and small helpers shared by the host tools and the
# static guest programs, built twice into archives so that a program links
# only the objects it uses. The Makefile includes this fragment first, so
# every other fragment can name $(LIBBNB) and $(LIBBNB_GUEST).

LIB_SRCS := err.c parse.c argv.c path.c topology.c topo_opt.c opt.c vm_status.c host_numa.c signals.c
LIBBNB := $(BUILD)/lib/libbnb.a
LIBBNB_GUEST := $(BUILD)/lib/libbnb-guest.a

$(LIBBNB): $(addprefix $(BUILD)/obj/bench/lib/,$(LIB_SRCS:.c=.o))
$(LIBBNB_GUEST): $(addprefix $(BUILD)/gobj/bench/lib/,$(LIB_SRCS:.c=.o))
$(LIBBNB) $(LIBBNB_GUEST):
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $^

UNIT_TESTS += $(TEST_BIN)/test_lib
$(TEST_BIN)/test_lib: $(BUILD)/obj/tests/unit/test_lib.o $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS) -lm -lnuma
