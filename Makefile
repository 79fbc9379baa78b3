# balancenuma-bench: top-level, non-recursive Makefile.
#
# Every directory that builds something has a module.mk fragment, included
# below; a fragment appends to HOST_PROGS (tools run on the host),
# GUEST_PROGS (programs of the static binary shipped in the guest's base
# initramfs, see multicall below) and
# UNIT_TESTS (Criterion binaries run by `make test`), and adds its own link
# rules. Objects are built by the pattern rules here.

SHELL := /bin/bash
CC ?= gcc
OBJCOPY ?= objcopy
BUILD := build
OPT ?= -O2
WARN := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2 -Werror=implicit-function-declaration
CFLAGS := $(OPT) -g -std=gnu11 -D_GNU_SOURCE $(WARN) -Ibench/include -Ibench -Iworkloads
GUEST_LDFLAGS := -static -pthread
CRITERION_LIBS := -lcriterion

HOST_BIN := $(BUILD)/bin
GUEST_BIN := $(BUILD)/guest/bin
GPROG := $(BUILD)/gprog
TEST_BIN := $(BUILD)/tests
# The project's QEMU (bench/qemu): a link into the cache.
QEMU_DIR := $(BUILD)/qemu
QEMU_PLUGIN_H := $(QEMU_DIR)/include/qemu-plugin.h

HOST_PROGS :=
GUEST_PROGS :=
GUEST_LIBS :=
UNIT_TESTS :=

.PHONY: all tools guest-bins deps kernel qemu kernel-check kernel-stress guest test \
	unit-test unit-tests list-unit-tests clean distclean
all: tools guest

# bench/lib and bench/model first: the other fragments link their archives.
FIRST_MODULES := bench/lib/module.mk bench/model/module.mk
include $(FIRST_MODULES)
include $(filter-out $(FIRST_MODULES),$(sort $(wildcard */module.mk */*/module.mk)))

tools: $(HOST_PROGS)
guest-bins: $(GUEST_PROGS) $(KT_PROGS)

# Host objects and guest objects are kept apart: guest binaries are linked
# statically, and their debug information names the tree relative to its
# top, since a path in it changes the build ID the guest gets in every
# binary: what the guest boots must not depend on where the tree is
# (bench/guest/mkinitramfs.sh says why).
GOBJ_CFLAGS := -ffile-prefix-map=$(CURDIR)=.
$(BUILD)/gobj/%.o $(GPROG)/multicall.o: CFLAGS += $(GOBJ_CFLAGS)

# Each object flavour depends on a file holding the compiler and the flags
# all its objects share, rewritten only when they change: a new flag in
# this Makefile rebuilds what it concerns (flags a module.mk adds to single
# objects are not tracked).
flags_stamp = $(shell mkdir -p $(BUILD)/$(1) && \
	printf '%s\n' '$(CC) $(CFLAGS) $(2)' | cmp -s - $(BUILD)/$(1)/.flags || \
	printf '%s\n' '$(CC) $(CFLAGS) $(2)' > $(BUILD)/$(1)/.flags)
$(call flags_stamp,obj,)
$(call flags_stamp,gobj,$(GOBJ_CFLAGS))

$(BUILD)/obj/%.o: %.c $(BUILD)/obj/.flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/gobj/%.o: %.c $(BUILD)/gobj/.flags
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

# The plugin's flavour (bench/plugin/bnb-plugin.so and the libraries it
# links): position independent, exporting nothing but what QEMU_PLUGIN_EXPORT
# marks, compiled against the project QEMU's plugin header, and with
# link-time optimisation: a line's miss goes through three files
# (plugin.c, timing.c, bench/model/model.c), and inlining across them is
# 3-4 % of its speed with the model on (docs/profiling.md).  Fat
# objects: plain code beside the optimiser's, so that the 7.2 build, linked
# without it, can link the libraries too.
PLUGIN_LTO := -flto=auto
$(BUILD)/pobj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(PLUGIN_LTO) -ffat-lto-objects -I$(QEMU_DIR)/include -fPIC -fvisibility=hidden -MMD -MP -c -o $@ $<

# Tests that compare documents with the code find the tree here.
$(BUILD)/obj/tests/unit/%.o: CFLAGS += -DBNB_SRC_DIR=\"$(CURDIR)\"

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# Keep objects that pattern rules chain through (kernel/tests' kt_%.o):
# make would delete them after linking and compile them again next time.
.PRECIOUS: $(BUILD)/obj/%.o $(BUILD)/gobj/%.o

deps:
	@bench/deps.sh

# The kernel lives in the cache outside the repository. K=NAME picks a
# named kernel (patched, the default; debian-6.1; debian-6.12), KSRC=DIR
# a tree of your own. build/kernel/bzImage links to the default kernel's
# build alone (bnb-vm and the tests boot it); another named kernel gets
# build/kernel-NAME, and any build prints its key, its path and the
# `kernel =` value that boots it (kernel/build.sh --link-in).
kernel:
	@BNB_RETRY='make kernel$(if $(K), K=$(K))$(if $(KSRC), KSRC=$(KSRC))$(if $(PATCHES), PATCHES=$(PATCHES))$(if $(DEBUG), DEBUG=$(DEBUG))' \
		kernel/build.sh $(if $(K),--kernel $(K)) $(if $(KSRC),--ksrc $(KSRC)) \
		$(if $(PATCHES),--patches $(PATCHES)) $(if $(DEBUG),--debug) --link-in $(BUILD)

kernel-check:
	@kernel/check.sh

kernel-stress: tools guest
	@kernel/stress.sh

# Every static guest binary links bench/guest/noaffinity.o before libnuma.a
# (that file says why).
$(GUEST_BIN)/multicall $(KT_PROGS): $(BUILD)/gobj/bench/guest/noaffinity.o

# The guest programs are one static binary, $(GUEST_BIN)/multicall, which
# runs the program its argv[0] names; $(GUEST_BIN)/NAME are links to it
# (bench/guest/multicall.c says why). A fragment adds $(GUEST_BIN)/NAME to
# GUEST_PROGS and gives $(GPROG)/NAME.o the program's own objects, and the
# objects or archives that programs share to GUEST_LIBS. A program object
# is its objects linked into one, with main renamed and every other symbol
# they define made local.
GUEST_NAMES := $(notdir $(GUEST_PROGS))
gprog_main = bnb_main_$(subst -,_,$(1))

$(GPROG)/%.o:
	@mkdir -p $(@D)
	$(LD) -r -o $@.tmp $^
	$(OBJCOPY) --redefine-sym main=$(call gprog_main,$*) \
		--keep-global-symbol=$(call gprog_main,$*) $@.tmp $@
	@rm -f $@.tmp

$(GPROG)/multicall.o: CFLAGS += \
	-DBNB_PROGS='$(foreach p,$(GUEST_NAMES),X($(call gprog_main,$p),"$p"))'
# the program list lives in the fragments
$(GPROG)/multicall.o: bench/guest/multicall.c Makefile $(wildcard */module.mk */*/module.mk)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(GUEST_BIN)/multicall: $(GPROG)/multicall.o $(GUEST_NAMES:%=$(GPROG)/%.o) \
		$(GUEST_LIBS) $(LIBBNB_GUEST)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(GUEST_LDFLAGS) -lnuma -lm

$(GUEST_PROGS): $(GUEST_BIN)/multicall
	@ln -sf multicall $@

# The guest boots the base archive; a run that uses perf, stress-ng, numactl
# or lstopo boots initramfs-tools.cpio, the base with the tools archive
# appended (bnb-vm --tools); the kernel tests boot initramfs-kt.cpio, the
# base with the kt-* programs appended.
GUEST_DIR := $(BUILD)/guest
guest: $(GUEST_DIR)/initramfs.cpio $(GUEST_DIR)/initramfs-tools.cpio \
	$(GUEST_DIR)/initramfs-kt.cpio

$(GUEST_DIR)/initramfs.cpio: bench/guest/mkinitramfs.sh bench/guest/init \
		bench/guest/fstab.boot bench/guest/fstab.dev $(GUEST_PROGS)
	@bench/guest/mkinitramfs.sh base $@ $(GUEST_BIN)/multicall $(GUEST_PROGS)

$(GUEST_DIR)/tools.cpio: bench/guest/mkinitramfs.sh
	@bench/guest/mkinitramfs.sh tools $@

$(GUEST_DIR)/kt.cpio: bench/guest/mkinitramfs.sh $(GUEST_DIR)/initramfs.cpio $(KT_PROGS)
	@bench/guest/mkinitramfs.sh extra $@ $(GUEST_DIR)/initramfs.cpio $(KT_PROGS)

$(GUEST_DIR)/initramfs-tools.cpio: $(GUEST_DIR)/initramfs.cpio $(GUEST_DIR)/tools.cpio
	@cat $^ > $@.tmp && mv $@.tmp $@

$(GUEST_DIR)/initramfs-kt.cpio: $(GUEST_DIR)/initramfs.cpio $(GUEST_DIR)/kt.cpio
	@cat $^ > $@.tmp && mv $@.tmp $@

unit-tests: $(UNIT_TESTS)

# The unit suites tests/run-tests must find; a missing one is a failure.
list-unit-tests:
	@echo $(UNIT_TESTS)

unit-test: unit-tests
	@tests/run-tests --unit-only

test: deps
	@$(MAKE) --no-print-directory qemu all kernel unit-tests
	@tests/run-tests

clean:
	rm -rf $(BUILD)

# Also drops the kernel and QEMU caches (sources, objects, ccache).
distclean: clean
	rm -rf "$${BNB_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/balancenuma-bench}"
