# Guest workload generators: programs of the guest's static binary.
# Each has its own main object and shares the library objects below;
# the unit tests link the same sources built as host objects.

WL_LIB_SRCS := common.c opts.c topo.c place.c locality.c csvout.c hist.c smaps.c
WL_GUEST_LIB := $(addprefix $(BUILD)/gobj/workloads/,$(WL_LIB_SRCS:.c=.o))
WL_HOST_LIB := $(addprefix $(BUILD)/obj/workloads/,$(WL_LIB_SRCS:.c=.o))
# the programs: workloads/registry.def's rows, one per line
WL_NAMES := $(shell sed -n 's/^WORKLOAD(\([a-z0-9_]*\))$$/\1/p' workloads/registry.def)

WL_BINS := $(addprefix $(GUEST_BIN)/,$(WL_NAMES))
GUEST_PROGS += $(WL_BINS)
GUEST_LIBS += $(WL_GUEST_LIB)

# numa01 and numa02 are one program built twice, told apart at compile time
$(BUILD)/gobj/workloads/numa01.o: workloads/numa0x.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DNUMA0X=1 -MMD -MP -c -o $@ $<
$(BUILD)/gobj/workloads/numa02.o: workloads/numa0x.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DNUMA0X=2 -MMD -MP -c -o $@ $<

$(WL_NAMES:%=$(GPROG)/%.o): $(GPROG)/%.o: $(BUILD)/gobj/workloads/%.o
# multicall's program list follows the registry
$(GPROG)/multicall.o: workloads/registry.def

WL_TESTS := $(TEST_BIN)/test_workloads_opts $(TEST_BIN)/test_workloads_output
UNIT_TESTS += $(WL_TESTS)

$(WL_TESTS): $(TEST_BIN)/%: $(BUILD)/obj/tests/unit/%.o $(WL_HOST_LIB) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS) -lnuma -lm -pthread

# autonuma: the autonuma-benchmark programs, their plan in its own file
$(GPROG)/autonuma.o: $(BUILD)/gobj/workloads/autonuma_plan.o

AN_TEST := $(TEST_BIN)/test_workloads_autonuma
UNIT_TESTS += $(AN_TEST)
$(AN_TEST): $(BUILD)/obj/tests/unit/test_workloads_autonuma.o $(BUILD)/obj/workloads/autonuma_plan.o \
		$(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS)

# phases: the plan (options, checks, schedule, the buffer's check) in its own file
$(GPROG)/phases.o: $(BUILD)/gobj/workloads/phases_plan.o

PH_TEST := $(TEST_BIN)/test_workloads_phases
UNIT_TESTS += $(PH_TEST)
$(PH_TEST): $(BUILD)/obj/tests/unit/test_workloads_phases.o $(BUILD)/obj/workloads/phases_plan.o \
		$(WL_HOST_LIB) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS) -lnuma -lm -pthread

# the registry against the docs and the runner's list of project workloads;
# it runs the programs (static x86_64 binaries) for their --help=markdown
REG_TEST := $(TEST_BIN)/test_workloads_registry
UNIT_TESTS += $(REG_TEST)
$(BUILD)/obj/tests/unit/test_workloads_registry.o: CFLAGS += $(RUNNER_CFLAGS) -Ibench/runner \
	-DBNB_GUEST_BIN=\"$(CURDIR)/$(GUEST_BIN)\"
$(REG_TEST): $(BUILD)/obj/tests/unit/test_workloads_registry.o $(BUILD)/obj/tests/unit/docblock.o \
		$(RUNNER_OBJS) $(RUNNER_ARCHIVES) | $(WL_BINS)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(RUNNER_LIBS) $(CRITERION_LIBS) -lm -ldl

# the runner's check of a workload before anything boots (bench/runner/extract/wlcheck.c),
# against the built guest programs and the archives' command lists
CHK_TEST := $(TEST_BIN)/test_workloads_check
UNIT_TESTS += $(CHK_TEST)
$(BUILD)/obj/tests/unit/test_workloads_check.o: CFLAGS += $(RUNNER_CFLAGS) -Ibench/runner
$(CHK_TEST): $(BUILD)/obj/tests/unit/test_workloads_check.o $(RUNNER_OBJS) $(RUNNER_ARCHIVES) \
		| $(WL_BINS) $(BUILD)/guest/initramfs.cpio $(BUILD)/guest/tools.cpio $(BUILD)/guest/kt.cpio
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(RUNNER_LIBS) $(CRITERION_LIBS) -lm -ldl

# hotcold: the plan (options, checks, layout, the choice of each access) in its own file
$(GPROG)/hotcold.o: $(BUILD)/gobj/workloads/hotcold_plan.o

HC_TEST := $(TEST_BIN)/test_workloads_hotcold
UNIT_TESTS += $(HC_TEST)
$(HC_TEST): $(BUILD)/obj/tests/unit/test_workloads_hotcold.o $(BUILD)/obj/workloads/hotcold_plan.o \
		$(WL_HOST_LIB) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS) -lnuma -lm -pthread
