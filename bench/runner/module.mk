# bench/runner: the experiment runner build/bin/bnb-run and its unit tests.

# bench/runner in rooms by job: experiment/ (reading and checking an
# experiment file), run/ (one run and the schedule of them), extract/ (a
# run's figures from its files), report/ (statistics, summary, verdicts,
# compare), plot/ (gnuplot), html/ (the report as one page), account/ (the
# account of balancing: per run, in the verdict, its plot), reference/ (the
# reference suite), slurm/ (the runs as a Slurm job array), bisect/ (which
# commit of a kernel range moved a metric).
RUNNER_SRCS := \
	experiment/keys.c experiment/knobs.c experiment/experiment.c experiment/sweep.c \
	experiment/dilation.c experiment/scale.c \
	run/fsio.c run/paths.c run/plan.c run/guestcmd.c run/proc.c run/job.c run/schedule.c \
	run/latency.c run/hostrun.c run/provenance.c run/runsummary.c run/outcome.c run/resume.c \
	run/bootcheck.c \
	extract/csv.c extract/wlout.c extract/extract.c extract/extract_perf.c \
	extract/extract_stressng.c extract/extract_redis.c extract/extract_memaslap.c \
	extract/extract_pgbench.c extract/extract_sysbench.c extract/monitors.c extract/modelrun.c extract/numawork.c \
	extract/wlcheck.c extract/scalerun.c extract/locrise.c extract/tieringrun.c \
	account/account_run.c account/account_report.c account/account_plot.c \
	report/fmt.c report/variant_info.c report/stats.c report/results.c report/report.c \
	report/versus.c report/verdict.c report/sweep_report.c report/compare.c \
	plot/plot_gp.c plot/plot.c plot/plot_data.c plot/plot_sweep.c plot/plot_monitors.c \
	plot/plot_tiering.c \
	html/page.c html/markdown.c html/svg.c html/guide.c \
	reference/reference.c reference/reference_eval.c reference/reference_calib.c \
	slurm/cmd.c slurm/queue.c slurm/record.c slurm/tasklist.c slurm/submit.c slurm/wait.c \
	slurm/folder.c \
	bisect/proc.c bisect/git.c bisect/worktree.c bisect/build.c bisect/state.c bisect/call.c \
	bisect/metrics.c bisect/step.c bisect/output.c bisect/bisect.c
RUNNER_OBJS := $(addprefix $(BUILD)/obj/bench/runner/,$(RUNNER_SRCS:.c=.o)) \
	$(BUILD)/obj/bench/collector/account.o
# plugin_opts are checked with the plugin's own argument parser
RUNNER_ARCHIVES := $(LIBPLUGIN_ARGS) $(LIBMODEL) $(LIBPKG) $(LIBBNB)
# summary.html: libcmark-gfm (no .pc for its extensions) and libxml2
RUNNER_LIBS := $(shell pkg-config --libs inih json-c gsl libcrypto libxml-2.0) -lnuma \
	-lcmark-gfm-extensions -lcmark-gfm
RUNNER_CFLAGS := $(shell pkg-config --cflags inih json-c gsl libxml-2.0)

$(RUNNER_OBJS) $(BUILD)/obj/bench/runner/main.o: CFLAGS += $(RUNNER_CFLAGS) -Ibench/runner

BNB_RUN := $(HOST_BIN)/bnb-run
HOST_PROGS += $(BNB_RUN)
$(BNB_RUN): $(BUILD)/obj/bench/runner/main.o $(RUNNER_OBJS) $(RUNNER_ARCHIVES)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(RUNNER_LIBS) -lm

RUNNER_TESTS := experiment keys knobs bootcheck stats report dilation extract monitors provenance \
	compare reference modelrun hostile scale locrise html faults slurm
# the account of balancing's (a line of its own: rooms add theirs apart)
RUNNER_TESTS += account
# the bisection's
RUNNER_TESTS += bisect
UNIT_TESTS += $(addprefix $(TEST_BIN)/test_runner_,$(RUNNER_TESTS))
$(BUILD)/obj/tests/unit/test_runner_%.o: CFLAGS += $(RUNNER_CFLAGS) -Ibench/runner
$(TEST_BIN)/test_runner_%: $(BUILD)/obj/tests/unit/test_runner_%.o \
		$(BUILD)/obj/tests/unit/docblock.o $(RUNNER_OBJS) $(RUNNER_ARCHIVES)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(RUNNER_LIBS) $(CRITERION_LIBS) -lm -ldl
