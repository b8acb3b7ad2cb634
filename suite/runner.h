/*
 * runner: runs one case (a variant at one point of its family's axes) the nvbench way:
 * poison the outputs, one verified sample, warm-up, then timed samples until the relative
 * noise of the end-to-end time is under a bound with a minimum count and time, or a
 * timeout. Every sample's window on CUPTI's clock is kept, and the CUPTI records are then
 * attributed to the samples they fall in. A variant never aborts the run: what goes wrong
 * is recorded in the case's status and reason.
 */
#ifndef VB_RUNNER_H
#define VB_RUNNER_H

#include <signal.h>

#include "profiler.h"
#include "result.h"

struct vb_sampling {
    double max_noise;  /* stop when stdev/mean of e2e <= this ... */
    int min_samples;   /* ... and at least this many timed samples ... */
    double min_time_s; /* ... and this much time in timed samples; */
    double timeout_s;  /* or when this much wall-clock time has passed since the first timed one; */
    int max_samples;   /* or at this many timed samples (bounds memory and database size) */
    int warmups;
    /* The metrics pass of GPU cases: one more sample under this profiler, before the verified
     * one. Without a profiler, GPU cases record no_metrics (VB_METRICS_OFF for --no-metrics,
     * VB_METRICS_UNAVAILABLE with no_metrics_reason when counters cannot be read here). */
    struct vb_profiler *profiler;
    enum vb_metrics_status no_metrics;
    const char *no_metrics_reason;
};

/* nvbench's defaults (0.5% noise, 10 samples, 0.5 s, 15 s timeout) and a --quick variant. */
void vb_sampling_default(struct vb_sampling *s);
void vb_sampling_quick(struct vb_sampling *s);

/* Set asynchronously (SIGINT/SIGTERM): the runner stops after the current sample. */
extern volatile sig_atomic_t vb_interrupted;

/* vb_runner_case runs variant v of family f at point p on CUDA device `device` (ignored for
 * CPU variants; -1 means no device: GPU variants are recorded as skipped with nodev_reason).
 * ref holds the family's reference answer for p (out_len doubles). Fills *r, which the caller
 * releases with vb_case_result_free. */
void vb_runner_case(const struct vb_family *f, const struct vb_variant *v,
                    const struct vb_point *p, int device, const char *nodev_reason,
                    const double *ref, const struct vb_sampling *cfg, struct vb_case_result *r);

void vb_case_result_free(struct vb_case_result *r);

/* vb_compare checks got against ref with the family's tolerance; sets the maximum absolute and
 * relative errors and returns the number of elements out of tolerance (NaN counts). */
size_t vb_compare(const double *got, const double *ref, size_t n, double atol, double rtol,
                  double *max_abs, double *max_rel);

#endif
