/*
 * timing: where a run's time goes (VARBENCH_TIMING=1, on stderr): each case's stages as it ends
 * (result.h's VB_CASE_STAGES, the metrics stage with its profiler's parts) and its database
 * write, and at the end their sums beside the run's own stages: the devices' environment and
 * ceilings, the cases (with what the sweep does between them: the points' references on all
 * cores) and the second metrics sweep (whose cases run_metrics.c prints); and, always, the
 * time per family that ends a run's output. Workload: one line a case; nothing here is hot.
 */
#ifndef VB_TIMING_H
#define VB_TIMING_H

#include "result.h"
#include "sweep.h"

struct vb_timing {
    int on; /* VARBENCH_TIMING is set, not empty and not 0 */
    int cases;
    double stage_ns[VB_STAGE_COUNT], case_ns, store_ns;
};

/* vb_timing_init zeroes t and reads VARBENCH_TIMING. */
void vb_timing_init(struct vb_timing *t);

/* vb_timing_case prints case r's stages and its store_ns (its database write), and adds them to
 * the run's; nothing when off or for a skipped case. */
void vb_timing_case(struct vb_timing *t, const struct vb_case_result *r, double store_ns);

/* vb_timing_run prints the cases' sums and the run's own stages: env_ns before the first case,
 * sweep_ns the cases (the sweep's whole loop), again_ns the second metrics sweep. */
void vb_timing_run(const struct vb_timing *t, double env_ns, double sweep_ns, double again_ns);

/* vb_timing_families prints the run's time per family on stdout, always: the wall time of each
 * family's cases and of all of them ("time per family: calx 20.9 s, ..., all cases 126.8 s"). */
void vb_timing_families(const struct vb_tally *t);

#endif
