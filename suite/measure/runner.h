/*
 * runner: runs one case (a variant at one point of its problem's axes) the nvbench way, on GPU
 * time: poison the outputs, one verified sample, warm-up until two samples agree, then timed
 * samples, each after an L2 flush and a reading of the SM clock (outside its window), until the
 * 95% confidence interval of the median GPU time (CUPTI: H2D + kernel + D2H + memset), and of
 * every phase holding a material share of it, is within the precision it needs (a copy of
 * pageable host memory, 5%: vb_runner_precision), or the
 * case's budget is spent (a phase that never settles ends there, and the case says which phase
 * and how precise it got). Samples whose SM clock is under 75% of the run's peak are kept but
 * dropped from the statistics and counted (nvbench's throttle rule). CPU-only cases (the
 * references) have a budget of their own. Every sample's window on CUPTI's clock is kept; records
 * are collected at checkpoints (n = 10, then as many more as the precision reached says are
 * needed), attributed to the samples they fall in, and kept for the first --keep-records timed
 * samples only. A variant never aborts the run: what goes wrong is recorded in the case's
 * status and reason.
 */
#ifndef VB_RUNNER_H
#define VB_RUNNER_H

#include <signal.h>

#include "profiler.h"
#include "result.h"

/* A CPU case takes cpu_min_samples samples however long they are, up to this: three are what
 * compare needs to tell a change from the host's noise (CPU references moved -23% to +74%
 * between two runs on a shared H100 host); the slowest reference (cos at 10^8) takes 4 s. */
#define VB_RUNNER_CPU_CAP_S 20.0

/* A CPU case's verified sample this long or longer counts as its first timed sample (outside
 * paired rounds): what its first run pays alone (cold caches and TLB, the clock's ramp) is lost
 * in it. Measured (the CPU cases of the default catalog, 2-core CI machine, 2026-11-28): the
 * verified sample against the timed median 0.91-1.04 for the 11 cases from 88 ms to 3.1 s
 * (0.76 for calx's 10^7 reference, whose timed samples spread 205-271 ms); the cases of the
 * default catalog over it run one single-core reference fewer, ~7 s of an H200 run's 31 s of
 * CPU cases (cos at 10^8 alone 3 s; on the CI machine the 22 CPU cases' timed samples went
 * from 24.1 to 17.0 s, the run from 47.8 to 40.9 s). google benchmark likewise times a long
 * function's first run. */
#define VB_RUNNER_CPU_FIRST_S 0.1

/* A GPU case takes at least this many timed samples whatever its budget: compare needs three a
 * side for any evidence (its ranges apart), and a case of one 0.35 s sample (mesh/host-mesh at
 * 4000^2) was noisy in every comparison, "too few samples (1/1)". */
#define VB_RUNNER_MIN_TIMED 3

struct vb_sampling {
    double precision; /* stop when the 95% CI of the median of gpu and of each material phase is
                         within this fraction of it (0.005) ... */
    /* ... a copy phase moving pageable host memory within this one (0.05): compare's threshold,
     * where such a copy, spreading 5-40% inside a run, is judged at 3x its spread anyway and
     * against the control copied beside each sample (test_precision_pageable holds the two
     * together); another copy within precision_copy (0.0125), 4x inside the threshold; the
     * gpu phase within its copies' shares of it times theirs, at
     * least precision (compare's settle_gpu weighs the parts' limits so); and no phase closer
     * than floor_ns (25 ns), 20x inside VB_CMP_FLOOR_NS, the change compare never calls
     * material (a 2 us pinned copy of calx at 960 elements spread +-0.75% after 5,000 samples
     * and 0.5 s) ... */
    double precision_pageable, precision_copy, floor_ns;
    double material; /* (a phase is material from this share of the gpu median: 0.05) */
    int min_samples; /* ... with at least this many timed samples (10); */
    double budget_s; /* or when this much wall time has gone into timed samples (0.5); */
    /* ... and, where the ledger measures, not before the timed samples have lasted this long:
     * the energy counter's window (ledger.h's LEDGER_MIN_WINDOW_S; --quick: 0). A short case
     * pools samples for its energy rather than going without it */
    double energy_min_s;
    /* --energy: each GPU case's timed samples last energy_updates updates of its board's energy
     * counter as the run's probe measured them (VB_ENERGY_MARGIN more, for the window's ends),
     * VB_ENERGY_UNPROBED_S where it was not measured; its budget and sample cap grow to let
     * them (up to VB_ENERGY_MAX_SAMPLES). 0: off (the default: energy only where the case's own
     * samples span enough updates) */
    int energy_updates;
    int max_samples; /* or at this many timed samples (bounds memory and database size) */
    int max_warmups; /* warm-up samples at most, until two in a row agree within 5% (e2e) */
    /* CPU-only cases: timed samples until cpu_min_samples and cpu_min_time_s are both reached,
     * or cpu_budget_s has gone (at least one sample); their verified sample warms them, and
     * from VB_RUNNER_CPU_FIRST_S on is their first timed sample */
    int cpu_min_samples;
    double cpu_min_time_s, cpu_budget_s;
    int cold;              /* flush L2 before each sample (the default; --cache warm: 0) */
    int keep_records;      /* store the CUPTI records of the first N timed samples (-1: all) */
    double peak_clock_mhz; /* the device's measured SM clock; 0: the case's highest reading */
    /* --quiet-gpu C: before a GPU case's timed samples, wait at most VB_QUIET_WAIT_S for no
     * other process on its board and at most C degrees (ledger.h's vb_ledger_quiet); 0: off */
    double quiet_c;
    /* The metrics pass of GPU cases: one more sample under profiler (kernel replay: every
     * metric but the DRAM and L2 counters) before the verified one, and, in a second sweep after
     * the run's cases (vb_runner_metrics_again), one more per pass under profiler_cache (user
     * replay: the DRAM and L2 counters, L2 flushed before every launch of every pass when cold).
     * Each keeps its session open from case to case, and one context holds one session at a
     * time: hence two sweeps. Without either profiler, GPU cases record no_metrics
     * (VB_METRICS_OFF for --no-metrics, VB_METRICS_UNAVAILABLE with no_metrics_reason when
     * counters cannot be read here). */
    struct vb_profiler *profiler, *profiler_cache;
    enum vb_metrics_status no_metrics;
    const char *no_metrics_reason;
    /* Paired rounds (varbench ab's workers, ab_worker.h); NULL: the stopping rule above. */
    const struct vb_rounds *rounds;
};

#define VB_QUIET_WAIT_S 60.0

/* --energy's window: 1.25x the updates asked for (a margin: the loop stops on its own clock,
 * and the ledger's window, from its start to its stop around the loop, must span the updates
 * however the counter's updates fall against it); without a measured period,
 * 1 s (ten updates of a 100 ms counter: nvidia-smi's power.draw repeats each reading ~5 times at
 * 20 ms on an H200); and at most this many timed samples (a 20 us sample for 1.25 s: 62,500) */
#define VB_ENERGY_MARGIN      1.25
#define VB_ENERGY_UNPROBED_S  1.0
#define VB_ENERGY_MAX_SAMPLES 200000

/* Rounds: a case's timed samples taken in rounds another process paces. After the case's
 * warm-up (a GPU case's; a CPU case's verified sample warms it), round(ctx, r, -1) says how
 * many samples the first round takes: VB_ROUNDS_SOLO for the stopping rule instead (the case is
 * not paired), 0 for none. After each round of K, with its records collected, round(ctx, r,
 * from) is called with the round's samples r->samples[from..r->nsamples) and says the next
 * round's count, 0 to end the case (stop reason "rounds"). A callback that loses its pacer sets
 * vb_interrupted and returns 0. */
#define VB_ROUNDS_SOLO (-1)
struct vb_rounds {
    void *ctx;
    int (*round)(void *ctx, const struct vb_case_result *r, int from);
};

/* The default budget (0.5% precision, a pageable copy 5%, 10 samples, 0.5 s a GPU case and,
 * where NVML measures, at least 0.1 s of them; CPU cases 3 samples and
 * 0.2 s, past 1 s only to reach 3 samples, never past 20 s) and --quick (2%, 5 samples, 0.15 s,
 * 2 warm-ups; CPU cases one sample within 0.3 s, none after a verified sample that took longer). */
void vb_sampling_default(struct vb_sampling *s);
void vb_sampling_quick(struct vb_sampling *s);

/* Set asynchronously (SIGINT/SIGTERM): the runner stops after the current sample. */
extern volatile sig_atomic_t vb_interrupted;

/* vb_runner_case runs variant v of family f (its hooks: f->ops and v->run) at point p of the
 * problem v computes, on CUDA device `device` (ignored for CPU variants; -1 means no device: GPU
 * variants are recorded as skipped with nodev_reason; a CPU variant given a nodev_reason is
 * recorded as skipped with it too).
 * ref holds the problem's reference answer for p (out_len doubles). A reference variant may
 * instead be given oracle (out_len doubles, ref NULL): its verified sample's answer is written
 * there, to verify the point's other variants (the oracle is computed once per point, and that
 * computation is the reference case's first sample); r->status is then ok only if it ran. Fills
 * *r, which the caller releases with vb_case_result_free. */
void vb_runner_case(const struct vb_family *f, const struct vb_variant *v, const struct vb_point *p,
                    int device, const char *nodev_reason, const double *ref, double *oracle,
                    const struct vb_sampling *cfg, struct vb_case_result *r);

/* vb_runner_precision: how far r's timed samples (not dropped) are from cfg's precision: the
 * largest ratio of a phase's relative 95% CI of the median to the precision it needs, over the
 * gpu time and every phase holding cfg->material of it (the e2e time alone without records);
 * 1 or less is precise. A copy phase needs cfg->precision_pageable where r's kept records show
 * it moving pageable host memory (either direction as compare's h2d_pageable and d2h_pageable
 * read them), else the larger of cfg->precision and cfg->precision_copy; the gpu time the
 * larger of cfg->precision and the sum of its copies' shares of it times what each needs;
 * every other phase cfg->precision; and none a CI under cfg->floor_ns. *worst names the phase that
 * decides, *ci its relative CI, *n the samples that count. INFINITY with fewer than 2; NaN
 * when out of memory. */
double vb_runner_precision(const struct vb_case_result *r, const struct vb_sampling *cfg,
                           const char **worst, double *ci, int *n);

/* vb_runner_metrics_again is the second metrics sweep for one GPU case run before (variant v
 * of family f at point p on device `device`): set-up, the DRAM and L2 counters under
 * cfg->profiler_cache (one run per pass, the L2 flushed before every launch when cfg->cold),
 * teardown. Values are appended to *vals (launches numbered from 0, as the first sweep numbered
 * them); *passes is the profiled runs, *ns the time taken, *graphs the graph launches that were
 * issued as their calls instead (vb_phase_replay under vb_phase_unroll_graphs: CUPTI's user
 * replay fails a graph launch). The first sweep's session must have ended
 * (vb_profiler_release(cfg->profiler)): a context holds one session at a time. 0 (nothing to
 * do without profiler_cache), or -1 with err. */
int vb_runner_metrics_again(const struct vb_family *f, const struct vb_variant *v,
                            const struct vb_point *p, int device, const struct vb_sampling *cfg,
                            struct vb_metric_value **vals, size_t *n, int *passes, double *ns,
                            int *graphs, struct vb_err *err);

/* vb_runner_release ends what the runner keeps from case to case: the cold cache's buffers, the
 * profiling sessions and the buffer of the verified answers. */
void vb_runner_release(const struct vb_sampling *cfg);

void vb_case_result_free(struct vb_case_result *r);

/* vb_compare checks got against ref with the problem's tolerance; sets the maximum absolute and
 * relative errors and returns the number of elements out of tolerance (NaN counts). */
size_t vb_compare(const double *got, const double *ref, size_t n, double atol, double rtol,
                  double *max_abs, double *max_rel);

#endif
