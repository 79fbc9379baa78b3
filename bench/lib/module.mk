# bench/lib: parsing and small helpers shared by the host tools and the
# static guest programs, built into archives (host, guest, and the plugin's
# parsing part) so that a program links only the objects it uses. The Makefile includes this fragment first, so
# every other fragment can name $(LIBBNB) and $(LIBBNB_GUEST).

LIB_SRCS := err.c parse.c argv.c path.c topology.c topo_opt.c opt.c vm_status.c host_numa.c signals.c
LIBBNB := $(BUILD)/lib/libbnb.a
LIBBNB_GUEST := $(BUILD)/lib/libbnb-guest.a

# The parsing part, of the plugin's flavour (the Makefile's pobj rule):
# bnb-plugin.so parses its arguments with the option engine.  Nothing that
# starts processes or handles signals: the plugin lives in QEMU's process.
LIB_PIC_SRCS := err.c parse.c opt.c
LIBBNB_PIC := $(BUILD)/lib/libbnb-pic.a

$(LIBBNB): $(addprefix $(BUILD)/obj/bench/lib/,$(LIB_SRCS:.c=.o))
$(LIBBNB_GUEST): $(addprefix $(BUILD)/gobj/bench/lib/,$(LIB_SRCS:.c=.o))
$(LIBBNB_PIC): $(addprefix $(BUILD)/pobj/bench/lib/,$(LIB_PIC_SRCS:.c=.o))
$(LIBBNB) $(LIBBNB_GUEST) $(LIBBNB_PIC):
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $^

UNIT_TESTS += $(TEST_BIN)/test_lib
$(TEST_BIN)/test_lib: $(BUILD)/obj/tests/unit/test_lib.o $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS) -lm -lnuma
