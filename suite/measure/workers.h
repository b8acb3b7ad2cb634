/*
 * workers: `varbench run --device all` on a node of several GPUs runs one worker process per
 * device at once (nvbench runs devices one after another; 8 boards took 8x the wall time). Each
 * worker is this program started afresh (/proc/self/exe, so no CUDA state crosses a fork) as
 * `varbench run ARGS --worker RUN:DEVICE`: its own CUDA context and CUPTI session, writing its
 * device's cases into the parent's run through the store's many-writer path (WAL, busy
 * timeout). The parent relays each worker's stdout and stderr line by line, prefixed
 * "[gpu N] ", forwards SIGINT/SIGTERM to them, and collects each one's tally (a last line in
 * VB_WORKER_TALLY's format) and exit status. A worker dies with its parent
 * (PR_SET_PDEATHSIG): a job killed by its scheduler leaves no orphan on a GPU.
 * Workload: up to 64 workers, each some thousand lines over minutes; nothing here is hot.
 */
#ifndef VB_WORKERS_H
#define VB_WORKERS_H

#include <stdint.h>
#include <sys/types.h>

#include "err.h"
#include "sweep.h"

#define VB_WORKERS_MAX 64
/* The tally line a worker prints last on stdout; the relay takes it and prints nothing. */
#define VB_WORKER_TALLY "varbench-worker-tally:"

struct vb_worker {
    int device;
    pid_t pid;
    int status;        /* waitpid's status once it ended */
    int have_tally;    /* its tally line arrived (a worker that died before has none) */
    struct vb_tally t; /* its cases (family_s left zero) */
    double seconds;    /* from its start to its end, wall */
};

/* vb_worker_tally_print prints t as the worker's tally line on stdout. */
void vb_worker_tally_print(const struct vb_tally *t);

/* vb_workers_run starts `EXE argv[0..argc) --worker RUN:D` for each device D of first..last
 * (at most VB_WORKERS_MAX), relays their output until every one has ended, and fills w[] (in
 * device order; *n of them). While vb_interrupted is set (the caller's signal handler) every
 * worker still running is sent SIGTERM once. 0 when all were started and waited for (whatever
 * they exited with: see w[]), or -1 with err (VB_E_SYS: a pipe, a fork, /proc/self/exe; the
 * workers already started are stopped and waited for). */
int vb_workers_run(int argc, char **argv, int64_t run_id, int first, int last, struct vb_worker *w,
                   int *n, struct vb_err *err);

/* vb_worker_exit_ok: did the worker end as a run's worker may (exit 0, 1 for a wrong result,
 * or 130 when interrupted)? Otherwise why[] says how it ended ("exited with 5", "killed by
 * signal 9"). */
int vb_worker_exit_ok(const struct vb_worker *w, char *why, size_t n);

#endif
