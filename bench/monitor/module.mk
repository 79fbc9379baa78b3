# bench/monitor: bnb-monitor, the guest side of a run's workload (elapsed
# time, NUMA tracepoints, /proc/PID/sched, perf stat -I, provenance).
MON_SRCS := main.c util.c trace.c sched.c tasks.c perfstat.c prov.c
BNB_MONITOR := $(GUEST_BIN)/bnb-monitor
GUEST_PROGS += $(BNB_MONITOR)

$(GPROG)/bnb-monitor.o: $(addprefix $(BUILD)/gobj/bench/monitor/,$(MON_SRCS:.c=.o))

# The parsers, built for the host and tested against guest captures.
MON_TEST := $(TEST_BIN)/test_monitor
UNIT_TESTS += $(MON_TEST)
$(BUILD)/obj/tests/unit/test_monitor.o: CFLAGS += -Ibench/monitor
$(MON_TEST): $(BUILD)/obj/tests/unit/test_monitor.o \
		$(addprefix $(BUILD)/obj/bench/monitor/,trace.o sched.o tasks.o util.o)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS) -pthread

# the runner's guest-command test runs the command on the host, bnb-monitor included
$(TEST_BIN)/test_runner_experiment: | $(BNB_MONITOR)
