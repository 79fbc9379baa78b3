# bench/guest: the guest's /init and archives (the Makefile's `guest`
# target), and the archives of Debian packages a run names
# (bench/guest/packages: a library bnb-vm and bnb-run link, and bnb-pkg).
PKG_SRCS := dpkg.c closure.c plan.c cpio.c archive.c
LIBPKG := $(BUILD)/lib/libbnb-pkg.a
$(LIBPKG): $(addprefix $(BUILD)/obj/bench/guest/packages/,$(PKG_SRCS:.c=.o))
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $^

BNB_PKG := $(HOST_BIN)/bnb-pkg
HOST_PROGS += $(BNB_PKG)
$(BNB_PKG): $(BUILD)/obj/bench/guest/packages/main.o $(LIBPKG) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^

UNIT_TESTS += $(TEST_BIN)/test_guest_packages
$(TEST_BIN)/test_guest_packages: $(BUILD)/obj/tests/unit/test_guest_packages.o $(LIBPKG) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS)

# bnb-rngseed: the guest's random number generator ready before the
# command (rngseed.c says why).
GUEST_PROGS += $(GUEST_BIN)/bnb-rngseed
$(GPROG)/bnb-rngseed.o: $(BUILD)/gobj/bench/guest/rngseed.o
