/*
 * runner_int: what runner.c and runner_metrics.c share and nothing else includes (SQLite's
 * sqliteInt.h pattern, for the runner's two files).
 */
#ifndef VB_RUNNER_INT_H
#define VB_RUNNER_INT_H

#include "runner.h"

/* vb_runner_metrics_pass profiles one sample of variant v of family f under kernel replay
 * (cfg->profiler: every metric but the DRAM and L2 counters, which the run's second sweep
 * collects with vb_runner_metrics_again), or records why there are no metrics. Values are kept
 * in r; what goes wrong is recorded in r->metrics_status/reason, never in the case's status. */
void vb_runner_metrics_pass(const struct vb_family *f, const struct vb_variant *v, void *state,
                            int device, const struct vb_sampling *cfg, struct vb_case_result *r);

#endif
