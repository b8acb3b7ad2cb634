/*
 * run_metrics: what `varbench run` does about the metrics pass: the --metrics / --no-metrics
 * choice, the one check before any case (the GPU knows every metric, its counters can be
 * read), the one message when they cannot (with the fix), and the pass's total at the end.
 * The runner does the per-case work (runner.c, profiler.c).
 */
#ifndef VB_RUN_METRICS_H
#define VB_RUN_METRICS_H

#include <stdio.h>

#include "metric_set.h"
#include "profiler.h"
#include "runner.h"
#include "store.h"

/* A stored GPU case the second metrics sweep comes back to. */
struct vb_deferred_case {
    const struct vb_family *f;
    const struct vb_variant *v;
    struct vb_point p;
    int device;
    int64_t case_id;
};

struct vb_run_metrics {
    struct vb_metric_set set;
    int off;                        /* --no-metrics */
    int given;                      /* --metrics was given */
    struct vb_profiler *prof;       /* owned: kernel replay, the metrics not in prof_cache */
    struct vb_profiler *prof_cache; /* owned: user replay, DRAM and L2 (vb_metric_set_split) */
    char why[768];                  /* why metrics are unavailable in this run, "" if they are */
    int cases;                      /* GPU cases profiled */
    double total_ns;                /* their metrics passes, replays included */
    int samples;                    /* samples profiled (one per kernel-replay pass or user pass) */
    /* the GPU cases stored with metrics, for the second sweep (prof_cache's counters) */
    struct vb_deferred_case *later;
    size_t nlater, cap_later;
    int swept, sweep_failed; /* cases the second sweep profiled; of them, failed */
    int unrolled;            /* of them, graph rungs profiled on their calls (runner.h) */
    double sweep_ns;
    FILE *timing; /* VARBENCH_TIMING: each swept case's time and its profiler's parts; NULL */
};

/* A graph rung's note (the case's metrics_reason, its metrics ok): where its counters come
 * from. */
#define VB_METRICS_UNROLLED                                                                        \
    "measured on the graph's calls issued one by one outside the graph (CUPTI's range profiler "   \
    "fails a graph launch under user replay and reads its kernels' SASS counters as 0 under "      \
    "kernel replay)"

/* vb_run_metrics_init: the default set, pass on. */
void vb_run_metrics_init(struct vb_run_metrics *m);

/* vb_run_metrics_option takes --metrics LIST (list) or --no-metrics (list NULL). Returns 0, or
 * -1 with err (VB_E_USAGE) for a bad list or both options given. */
int vb_run_metrics_option(struct vb_run_metrics *m, const char *list, struct vb_err *err);

/* vb_run_metrics_start readies the pass on CUDA device `device` (current) and sets s's metrics
 * fields. activity_err is the CUPTI activity collector's failure, or NULL when it runs: without
 * it (another CUPTI client such as ncu) the profiler is not touched either. Counters that
 * cannot be read are not an error: the run goes on, each GPU case records why, and the reason
 * is printed once to err_out. Returns -1 with err only for a metric the GPU does not know
 * (VB_E_USAGE) or no memory. */
int vb_run_metrics_start(struct vb_run_metrics *m, int device, const struct vb_err *activity_err,
                         struct vb_sampling *s, FILE *err_out, struct vb_err *err);

/* vb_run_metrics_add counts a finished case's metrics pass. */
/* vb_run_metrics_defer remembers stored case case_id (variant v at p on device) for the second
 * sweep, when there is one (DRAM or L2 counters asked for) and r's first pass went well.
 * Returns 0, or -1 with err when out of memory. */
int vb_run_metrics_defer(struct vb_run_metrics *m, const struct vb_case_result *r, int64_t case_id,
                         struct vb_err *err);

/* vb_run_metrics_sweep runs the second sweep (vb_runner_metrics_again) over the remembered
 * cases, in order, storing each case's values into st as it goes (a case whose sweep fails is
 * stored with metrics 'failed' and the reason). Stops early when interrupted. Returns 0, or -1
 * with err for a database error. */
int vb_run_metrics_sweep(struct vb_run_metrics *m, const struct vb_sampling *s, struct vb_store *st,
                         struct vb_err *err);

void vb_run_metrics_add(struct vb_run_metrics *m, const struct vb_case_result *r);

/* vb_run_metrics_finish prints the pass's total to out and releases the profiler. */
void vb_run_metrics_finish(struct vb_run_metrics *m, FILE *out);

#endif
