/* SPDX-License-Identifier: GPL-2.0 */
/* The run path: paths, jobs, one run, the schedule. */
#ifndef BNB_RUNNER_H
#define BNB_RUNNER_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

#include "experiment/dilation.h"
#include "experiment/experiment.h"
#include "experiment/scale.h"
#include "experiment/knobs.h"
#include "lib/host_numa.h"
#include "lib/path.h"
#include "slurm/slurm.h"

int copy_file(const char *from, const char *to);

/*
 * Whether --out DIR may become a results folder without overwriting what
 * is not the runner's: not inside another results folder (its runs/ or
 * plots/, which that folder's runner and reports write), and, when it
 * exists, empty or a results folder (whose runner then checks, under its
 * lock, that it holds no runs). Says why not on stderr.
 */
bool out_dir_usable(const char *dir);

struct job {
	int id;			/* 1-based line of jobs.tsv */
	int total;
	char variant[EXP_NAME_MAX * 2];
	int rep;
};

/* Settings of one run, resolved against the machine. */
struct run_plan {
	char kernel[PATH_MAX];
	char initrd[PATH_MAX];
	char vm[PATH_MAX];
	char collect[PATH_MAX];
	char plugin[PATH_MAX];	/* empty: latency not emulated */
	const char *latency;	/* emulated | uniform | real | uniform (KVM) */
	char latency_why[256];	/* why uniform */
	int time_limit;		/* seconds */
	unsigned start_delay_us;	/* start_jitter: guest wait before the workload */
};

/*
 * The latency of a KVM run of topology T on host H (NULL: unknown): "real"
 * only when every guest node gets its own host node, which bnb-vm then
 * binds (memory and vCPU threads); else LATENCY_UNIFORM_KVM with why.
 */
#define LATENCY_UNIFORM_KVM "uniform (KVM)"
const char *kvm_latency(const struct host_numa *h, const struct bnb_topology *t,
			char *why, size_t whylen);

/* How a run scales the scan periods (scale_scan) and what auto needs. */
struct scan_plan {
	struct scan_scale scale;
	double host_rate;	/* the workload's native rate, for auto */
	const char *free_line;	/* the workload with free placement, for auto */
	struct scale_plan hw;	/* scale_scan=hardware: what to write */
};

/* Build the guest shell command of V: the sysctls, the scan scaling of SP
 * (NULL: none), then the workload (the plugin's map check runs before it,
 * from the guest's /init). NULL when out of memory. */
/*
 * start_jitter's wait for repetition REP (from 1), in microseconds: a
 * golden-ratio step over one timer tick, so any number of repetitions
 * spreads evenly over the tick's phase and the same REP always waits alike.
 */
#define START_JITTER_SPAN_US 4000	/* the guest kernel's tick, HZ=250 */
#define START_JITTER_STEP_US 2472	/* 0.618 of the span */
unsigned start_delay_us(int rep);

/* DELAY_US: the guest waits this long (guest time) before the workload. */
char *guest_command(const struct variant *v, const struct scan_plan *sp,
		    unsigned delay_us);

/* After a run with the plugin: "emulated", or "uniform" and why not. */
const char *latency_verdict(const char *shm_path, char *why, size_t whylen);

/*
 * The latency of a run of V with the plugin, as far as it is known before
 * the run: "uniform" with why, or "emulated", which the plugin's verdict
 * may still turn into "uniform" (latency_verdict()).
 */
const char *plugin_latency(const struct variant *v, char *why, size_t whylen);

/*
 * The state of a run of V that bnb-vm's result file RESULT says the kernel
 * reported stalls in (stalls=, stall=): STATE, or "failed" with REASON.
 * An ok run under wall timing stays ok with REASON saying it was flagged.
 * *STALLS gets the count.
 */
const char *stall_verdict(const char *result, const struct variant *v, const char *state,
			  int *stalls, char *reason, size_t len);

/*
 * On stderr, when the guest kernel of job J (run folder RUNDIR) reported
 * WARNINGS warnings (bnb-vm's result, vm_warnings()); nothing for 0 or -1.
 */
void job_warnings(const char *rundir, const struct job *j, int warnings);

/*
 * A `kernel =` value, located: the directory of its build (bzImage,
 * System.map, .config), its cache key (none for a bzImage path), whether
 * it is built, and the command that builds it.
 */
struct kernel_loc {
	struct kernel_spec spec;
	char dir[PATH_MAX];
	char image[PATH_MAX];
	char key[32];
	char make[PATH_MAX + 64];
	bool built;
};
/* VALUE relative to BASEDIR; a named kernel or ksrc: tree by its key. */
int kernel_locate(const char *value, const char *basedir, struct kernel_loc *k, char *why,
		  size_t whylen);
/* The System.map of K's build, or "" (plan.c says where it looks). */
void kernel_map(const struct kernel_loc *k, char *map, size_t len);
/* Build K through kernel/build.sh, its progress lines on stdout; 0 when built. */
int kernel_build(const struct kernel_loc *k);

/* Build V's kernel when it is a named or ksrc: one not built yet. */
int prepare_kernel(const struct variant *v, const char *basedir, char *why, size_t whylen);

/* Resolve V's kernel, tools and latency mode; on error writes why. */
int plan_run(const struct variant *v, const char *basedir, struct run_plan *p,
	     char *why, size_t whylen);

/* The command lines of the launcher and the collector for one run of V;
 * vm_args() fails (-1) only when out of memory. */
int vm_args(struct argv *a, const struct variant *v, const struct run_plan *p,
	     const struct scan_plan *sp, const char *tmp, const char *rundir);
void collect_args(struct argv *a, const struct variant *v, const struct run_plan *p,
		  const struct scan_plan *sp, const char *tmp, const char *rundir);

/*
 * Start ARGV (NULL-terminated) in its own process group, output to LOG.
 * It gets SIGTERM when the runner dies, however it dies (PR_SET_PDEATHSIG),
 * so that no launcher, QEMU or collector outlives a runner killed outright.
 */
pid_t runner_spawn(char *const argv[], const char *log);

/* Why runner_wait() stopped a process group before it ended by itself. */
enum stop_cause {
	STOP_NONE,
	STOP_DEADLINE,		/* the deadline passed, or an interrupt */
	STOP_DISK_FULL,		/* RUNDIR's filesystem ran out of space */
};
/*
 * Wait for PID; stop its group after DEADLINE, on interrupt, or (with
 * RUNDIR) when RUNDIR's filesystem has less than SPACE_LOW_WATER left:
 * *STOPPED says which. With J, a progress line every 10 s.
 */
#define SPACE_LOW_WATER (64 * 1024)
int runner_wait(pid_t pid, double start, double deadline, const struct job *j,
		const char *rundir, enum stop_cause *stopped);
double runner_now(void);

/*
 * The native host rate of V's workload (placement free), measured once per
 * distinct command under DIR/host/; NAN with WHY when it cannot be. LINE
 * gets that command as the guest would run it.
 */
double host_rate(const char *dir, const struct variant *v, int time_limit,
		 char *line, size_t linelen, char *why, size_t whylen);

/* Set by SIGINT/SIGTERM; the run in progress is stopped and marked. */
extern volatile sig_atomic_t runner_interrupted;
void runner_catch_signals(void);

/*
 * Run job J of the results folder DIR in a fresh guest; writes
 * DIR/runs/VARIANT/repN/. Returns 0 ok, 1 failed, 130 interrupted.
 */
int run_job(const char *dir, const struct experiment *exp, const char *basedir,
	    const struct job *j);

/* Job list files of DIR: jobs.tsv (id, variant, rep) and jobs.txt (commands). */
int jobs_write(const char *dir, const struct experiment *exp, const char *only,
	       int reps_override, int *n_jobs, char *err, size_t errlen);
int jobs_read(const char *dir, int id, struct job *j);

/* `bnb-run [EXPERIMENT] ...` and `bnb-run job DIR ID`. */
struct run_opts {
	const char *experiment;
	char *only;
	char *out;
	int reps;		/* 0: as in the file */
	int jobs;
	bool no_plots;
	char *resume;		/* --resume DIR */
	bool slurm;		/* --slurm: the runs as a Slurm job array */
	struct slurm_opts sl;	/* --wait, sbatch's options after -- */
	struct slurm_batch *batch;	/* the suite's: prepare and add to it, run nothing */
};
int cmd_run(const struct run_opts *o);
/* run_opts.jobs, cmd_resume's jobs: the runner chooses (jobs_for). */
#define JOBS_AUTO	(-1)
/* Guests at once for JOBS: JOBS itself unless JOBS_AUTO, then the host's
 * CPUs when every variant is deterministic, else 1. */
int jobs_for(const struct experiment *exp, int jobs);
/* `bnb-run --resume DIR` (O->resume): rerun the runs of DIR that did not finish ok. */
int cmd_resume(const struct run_opts *o);
/*
 * Jobs IDS[0..N) of DIR (TOTAL in its jobs.tsv) through Slurm: added to
 * O->batch when there is one, else submitted as an array of their own,
 * followed and reported with --wait. 0, 1 (a run not ok), 2 (not
 * submitted: said why) or 130.
 */
int slurm_runs(const char *dir, const int *ids, int n, int total, const struct experiment *exp,
	       const struct run_opts *o);

/* Run jobs IDS[0..N) of DIR (IDS NULL: 1..N) one after another, the
 * summary rewritten after each; 0, 1 (a run failed) or 130. */
int run_sequential(const char *dir, const struct experiment *exp, const char *basedir,
		   const int *ids, int n);
/* Run DIR/JOBS_FILE (one command per line) through GNU parallel. */
int run_parallel(const char *dir, const char *jobs_file, int jobs);
int cmd_job(const char *dir, const char *id);
int cmd_report(const char *dir, bool plots);
/* cmd_report(), *WRITTEN saying whether summary.md and summary.json were. */
int report_folder(const char *dir, bool plots, bool *written);
/* "summary in DIR/summary.md" when WRITTEN, else that there is none; NOTE after. */
void report_where(const char *dir, bool written, const char *note);
/*
 * Lock the results folder DIR (DIR/lock) for this process's life; the
 * descriptor, or -1 after saying on stderr which pid holds it.
 */
int folder_lock(const char *dir);

#endif
