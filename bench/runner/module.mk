# bench/runner: the experiment runner build/bin/bnb-run and its unit tests.

RUNNER_SRCS := fmt.c variant_info.c keys.c knobs.c experiment.c fsio.c sweep.c stats.c csv.c wlout.c results.c \
	report.c versus.c verdict.c sweep_report.c plot_gp.c plot.c plot_data.c plot_sweep.c paths.c plan.c \
	guestcmd.c proc.c job.c schedule.c latency.c dilation.c hostrun.c \
	extract.c extract_perf.c extract_stressng.c monitors.c provenance.c runsummary.c compare.c plot_monitors.c outcome.c resume.c modelrun.c \
	reference.c reference_eval.c reference_calib.c numawork.c wlcheck.c scale.c scalerun.c \
	tieringrun.c plot_tiering.c bootcheck.c
RUNNER_OBJS := $(addprefix $(BUILD)/obj/bench/runner/,$(RUNNER_SRCS:.c=.o))
# plugin_opts are checked with the plugin's own argument parser
RUNNER_ARCHIVES := $(LIBPLUGIN_ARGS) $(LIBMODEL) $(LIBBNB)
RUNNER_LIBS := $(shell pkg-config --libs inih json-c gsl libcrypto) -lnuma
RUNNER_CFLAGS := $(shell pkg-config --cflags inih json-c gsl)

$(RUNNER_OBJS) $(BUILD)/obj/bench/runner/main.o: CFLAGS += $(RUNNER_CFLAGS)

BNB_RUN := $(HOST_BIN)/bnb-run
HOST_PROGS += $(BNB_RUN)
$(BNB_RUN): $(BUILD)/obj/bench/runner/main.o $(RUNNER_OBJS) $(RUNNER_ARCHIVES)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(RUNNER_LIBS) -lm

RUNNER_TESTS := experiment keys knobs bootcheck stats report dilation extract monitors provenance compare reference modelrun hostile scale
UNIT_TESTS += $(addprefix $(TEST_BIN)/test_runner_,$(RUNNER_TESTS))
$(BUILD)/obj/tests/unit/test_runner_%.o: CFLAGS += $(RUNNER_CFLAGS) -Ibench/runner
$(TEST_BIN)/test_runner_%: $(BUILD)/obj/tests/unit/test_runner_%.o \
		$(BUILD)/obj/tests/unit/docblock.o $(RUNNER_OBJS) $(RUNNER_ARCHIVES)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(RUNNER_LIBS) $(CRITERION_LIBS) -lm -ldl
