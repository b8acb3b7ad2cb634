/*
 * sweep: the run's case loop, which belongs to the runner and not to the command (nvbench's
 * measure loop over its states): device -> family -> problem -> point -> variant. For each
 * point it computes the problem's reference once (on all cores when element-wise, or as the
 * reference case's own verified sample), runs each selected case with vb_runner_case, and
 * hands it to the caller's callbacks, which print and store it; it keeps the tallies the
 * run's exit code and last line come from. The command owns options, the database and the
 * output; the sweep owns the iteration. Workload: a few hundred cases, each seconds long, so
 * nothing here is on a hot path.
 */
#ifndef VB_SWEEP_H
#define VB_SWEEP_H

#include "axes.h"
#include "floor.h"
#include "registry.h"
#include "runner.h"

#define VB_SWEEP_MAX_POINTS 4096
#define VB_SWEEP_MAX_RUNGS  32

/* One verified GPU case of a point, for the ladder line. */
struct vb_rung {
    const char *name;
    double kernel_ms, e2e_ms; /* NaN when unknown */
};

/* What the sweep tells its caller. case_done may stop the sweep by returning -1 with err
 * filled (a database write that failed); the other two cannot fail. */
struct vb_sweep_events {
    void *ctx;
    void (*case_begin)(void *ctx, const char *label); /* "mesh/device-mesh nx=1000,ny=1000" */
    int (*case_done)(void *ctx, const struct vb_family *f, int device,
                     const struct vb_case_result *r, struct vb_err *err);
    /* after each point: its verified GPU cases in catalog order (the first is the ladder's
     * first rung) */
    void (*point_done)(void *ctx, const struct vb_family *f, const struct vb_rung *rungs, int n);
};

struct vb_tally {
    int cases, ok, wrong, expected_wrong, failed, skipped, interrupted, throttled;
    int gpu_skipped;     /* skipped GPU cases (with no device: all of them, for want of one) */
    double family_s[64]; /* wall time per family, in vb_families order */
};

/* Which variants a sweep runs (a `--device all` run's workers take the GPU ones, the parent then
 * the CPU ones, alone on the host). */
enum vb_sweep_only { VB_SWEEP_BOTH, VB_SWEEP_GPU, VB_SWEEP_CPU };

struct vb_sweep {
    const char *filter;                 /* family/variant glob (NULL: all) */
    enum vb_sweep_only only;            /* VB_SWEEP_BOTH unless a worker or the CPU pass */
    struct vb_overrides *axes;          /* --axis values */
    int all_devices;                    /* CPU variants then run on the first device's pass only */
    int first, last;                    /* devices to run on; -1, -1: none (GPU variants skipped) */
    const char *nodev;                  /* why GPU variants are skipped when there is no device */
    const double *peak_mhz;             /* each device's measured SM clock (NULL: unknown) */
    const struct vb_floor_ceil *floors; /* each device's ceilings for the case's floor (NULL) */
    struct vb_sampling *sampling;
    struct vb_tally tally; /* filled by vb_sweep_run */
};

/* vb_sweep_check: something matches s->filter, and every --axis names an axis of a selected
 * family's selected problem, with values in range. 0, or -1 with a VB_E_USAGE err. */
int vb_sweep_check(struct vb_sweep *s, struct vb_err *err);

/* vb_sweep_count: the cases vb_sweep_run will make (for the progress line). */
int vb_sweep_count(struct vb_sweep *s);

/* vb_sweep_plan calls fn for each case vb_sweep_run will make, in the order it makes them
 * (device -1 when there is none), without running anything; stops at fn's first nonzero
 * return. Returns the count of cases, or -1 when fn stopped it. fn may be NULL. */
typedef int (*vb_sweep_plan_fn)(void *arg, const struct vb_family *f, const struct vb_problem *pb,
                                const struct vb_variant *v, const struct vb_point *p, int dev);
int vb_sweep_plan(struct vb_sweep *s, vb_sweep_plan_fn fn, void *arg);

/* vb_sweep_reference_rate times pb's reference on one core at point p, on a slice of it where
 * the reference is element-wise, and returns its seconds per output element (0 when it
 * failed): what a CPU case of pb costs on this machine, relative to the others (eta.h). */
double vb_sweep_reference_rate(const struct vb_problem *pb, const struct vb_point *p);

/* vb_sweep_run runs every selected case on devices first..last (once with -1 when there is
 * none), until vb_interrupted. 0, or -1 with err (out of memory, a reference that failed, or
 * case_done's error). */
int vb_sweep_run(struct vb_sweep *s, const struct vb_sweep_events *ev, struct vb_err *err);

#endif
