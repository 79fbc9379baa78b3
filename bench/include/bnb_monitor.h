/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest-side monitor (bench/monitor, bnb-monitor) prints into the
 * run's output for the runner (bench/runner) to read back: one line with
 * the command's elapsed guest time and exit status, the provenance lines,
 * and each monitor's file, every line of it prefixed with the file's name.
 */
#ifndef BNB_MONITOR_H
#define BNB_MONITOR_H

/* "# bnb-monitor: elapsed_s=12.345678 exit=0" */
#define BNB_MON_DONE "# bnb-monitor: "
/* "# bnb-prov: key=value", one per provenance item known in the guest */
#define BNB_MON_PROV "# bnb-prov: "
/* "# bnb-mon:FILE: line" for every line of the monitor file FILE */
#define BNB_MON_FILE "# bnb-mon:"

/* The monitors, by the names experiment files use. */
#define BNB_MON_TRACE "trace"		/* NUMA tracepoints via tracefs */
#define BNB_MON_SCHED "sched"		/* /proc/PID/sched of the workload's tasks */
#define BNB_MON_PERFSTAT "perfstat"	/* perf stat -I */

/* The files they leave (FILE above). */
#define BNB_MON_TRACE_FILE "trace.csv"
#define BNB_MON_EVENTS_FILE "trace-events.csv"
#define BNB_MON_SCHED_FILE "sched.csv"
#define BNB_MON_PERFSTAT_FILE "perfstat.csv"

/* mm_migrate_pages reasons (include/trace/events/migrate.h, 6.1) */
#define BNB_MIGRATE_REASONS \
	"compaction", "memory_failure", "memory_hotplug", "syscall_or_cpuset", \
	"mempolicy_mbind", "numa_misplaced", "contig_range", "longterm_pin", "demotion"

#endif
