/*
 * result: what one case produced, as the runner measures it and the store keeps it: data
 * shared by runner.c, store.c and table.c, and the two lookups they share.
 */
#ifndef VB_RESULT_H
#define VB_RESULT_H

#include <stdint.h>

#include "activity.h"
#include "case_ctx.h" /* struct vb_summary_value */
#include "control.h"
#include "ledger.h"
#include "registry.h"
#include "stats.h"

/* X(id, name): case statuses as stored in cases.status. */
#define VB_STATUSES(X)                                                                             \
    X(OK, "ok")                                                                                    \
    X(WRONG, "wrong-result")                                                                       \
    X(SKIPPED, "skipped")                                                                          \
    X(FAILED, "failed")                                                                            \
    X(INTERRUPTED, "interrupted")

enum vb_status {
#define X(id, name) VB_STATUS_##id,
    VB_STATUSES(X)
#undef X
        VB_STATUS_COUNT
};
const char *vb_status_name(enum vb_status s);

/* How a wrong-result case of a variant wrong on purpose (VB_EXPECT_WRONG) begins its reason:
 * the runner writes it, and the store counts such cases apart by it (varbench runs). */
#define VB_REASON_ON_PURPOSE "expected (wrong on purpose): "
/* The start of the reason of a GPU case skipped because the run has no usable GPU (the rest
 * says why: no driver, no device): the run says it once rather than under every row. */
#define VB_NODEV_REASON "no CUDA device"

enum vb_sample_kind { VB_SAMPLE_VERIFY, VB_SAMPLE_WARMUP, VB_SAMPLE_TIMED };

/* One sample: its window on the records' clock and what the records inside it add up to. */
struct vb_sample {
    enum vb_sample_kind kind;
    uint64_t start, end; /* CUPTI clock (CLOCK_REALTIME ns) */
    double e2e_ns;       /* host monotonic clock around the variant's run() */
    uint64_t h2d_bytes, d2h_bytes, memset_bytes;
    int h2d_count, d2h_count, kernel_count, memset_count;
    double h2d_ns, d2h_ns, kernel_ns, memset_ns; /* sums of record durations */
    double gpu_ns;       /* h2d + d2h + kernel + memset: the sample's GPU time (NaN unknown) */
    double comm_ns;      /* of kernel_ns, collective kernels' (NCCL's); 0 without, NaN unknown */
    double sm_clock_mhz; /* SM clock just before the sample (NaN when not measured) */
    int dropped;         /* a timed sample whose clock was under 75% of the peak: kept, not used */
    int records_dropped; /* its CUPTI records are not stored (timed samples past --keep-records);
                            its sums above still count them */
    /* what the host and the board could do just before it (control.h), ns; NaN not measured.
     * A copy control is the sum of its CUPTI records (attribute.h): 0 until they come */
    double ctl[VB_CTL_COUNT];
};

/* One metric of one kernel launch, from the metrics pass (CUPTI range profiler). */
struct vb_metric_value {
    int launch;   /* index of the launch within the profiled sample, from 0 */
    char *kernel; /* the range's name as the profiler reports it (the kernel); owned */
    char *metric; /* the Hopper metric name; owned */
    double value; /* NaN when the profiler gave no value */
};

/* X(id, name): outcomes of a case's metrics pass, as stored in cases.metrics_status. */
#define VB_METRICS_STATUSES(X)                                                                     \
    X(NONE, NULL) /* not attempted: a CPU variant, or the case failed */                           \
    X(OK, "ok")                                                                                    \
    X(OFF, "off")                 /* --no-metrics */                                               \
    X(UNAVAILABLE, "unavailable") /* no counters here: the reason says why and the fix */          \
    X(FAILED, "failed")           /* the profiler failed on this case */

enum vb_metrics_status {
#define X(id, name) VB_METRICS_##id,
    VB_METRICS_STATUSES(X)
#undef X
};
const char *vb_metrics_status_name(enum vb_metrics_status s);

/* vb_metric_values_gst: store efficiency (%) over all launches, weighted by the sectors each
 * stored (a launch that stores nothing has none); the plain mean when sector counts were not
 * collected. NaN when no launch has a value. */
double vb_metric_values_gst(const struct vb_metric_value *m, size_t n);

/* vb_metric_values_name names the launches: the range profiler's auto ranges are called "0",
 * "1", ... in launch order, and the kernel records of the same launches (CUPTI activity, one
 * or more per launch under replay, sharing a correlation id) give their names in the same
 * order. Renames only when the counts agree; returns 0 then, -1 otherwise (names kept). */
int vb_metric_values_name(struct vb_metric_value *m, size_t n, const struct vb_kernel_rec *k,
                          size_t nk);

/* vb_metric_values_free frees n values and their names, and the array. */
void vb_metric_values_free(struct vb_metric_value *m, size_t n);

/* Where a case's wall time goes, stage by stage, in the order vb_runner_case runs them: its
 * set-up hook, the metrics pass (kernel replay), the verified sample (poison, run, fetch,
 * compare), warm-up, the timed samples, the teardown hook, the records' collection and the
 * statistics at the end. VARBENCH_TIMING=1 prints them (cmd_run.c); the run's own stages
 * (ceilings, the second metrics sweep) are printed there. */
#define VB_CASE_STAGES(X)                                                                          \
    X(SETUP, "setup")                                                                              \
    X(METRICS, "metrics")                                                                          \
    X(VERIFY, "verify")                                                                            \
    X(WARMUP, "warm-up")                                                                           \
    X(SAMPLES, "samples")                                                                          \
    X(TEARDOWN, "teardown")                                                                        \
    X(FINISH, "records")
enum vb_case_stage {
#define X(id, name) VB_STAGE_##id,
    VB_CASE_STAGES(X)
#undef X
        VB_STAGE_COUNT
};
extern const char *const vb_case_stage_names[VB_STAGE_COUNT];

/* The metrics stage's parts (the profiler's last collect, VARBENCH_TIMING): the session opened
 * (when it was not) and the counter image and configuration set, the passes (each a start, the
 * workload and a stop), and the decoding with each range's metrics evaluated. */
enum { VB_PROF_CONFIGURE, VB_PROF_PASSES, VB_PROF_DECODE, VB_PROF_PARTS };

struct vb_case_result {
    const struct vb_family *family;
    const struct vb_variant *variant; /* variant->problem: what it computes, the point's axes */
    struct vb_point point;
    char axes[256];
    int device;              /* CUDA device index, -1 for CPU-only variants */
    struct vb_ledger ledger; /* the board over the timed samples (ledger.h); a GPU case's */
    enum vb_status status;
    char reason[1024];
    double max_abs_err, max_rel_err; /* NaN when not verified */
    uint64_t start_ns, end_ns;
    /* samples: verify and warm-up first, then the timed ones */
    struct vb_sample *samples;
    int nsamples, ntimed;
    const char *stop_reason; /* "converged", "timeout", "min-samples", ... */
    int have_records;        /* CUPTI records were collected for this case */
    /* statistics over the timed samples that were not dropped (milliseconds) */
    struct vb_stats e2e_ms, kernel_ms, h2d_ms, d2h_ms, memset_ms, gpu_ms;
    double gpu_ci_pct; /* 95% CI half-width of gpu's median, % of it (e2e's for CPU cases) */
    int cold;          /* 1: L2 flushed before every sample (the default); 0 warm; -1 unknown */
    double clock_min_mhz, clock_median_mhz; /* SM clock over the timed samples; NaN unknown */
    int dropped;          /* timed samples dropped for a clock under 75% of the run's peak */
    char stop_detail[64]; /* what the stop reason refers to ("d2h +-1.8%"), or "" */
    /* traffic of the median-e2e timed sample; traffic_varies when samples disagree */
    uint64_t h2d_bytes, d2h_bytes;
    int h2d_count, d2h_count, kernel_count, traffic_varies;
    struct vb_activity activity; /* raw records, owned */
    /* the metrics pass (a separate sample: the timing samples above never run under it) */
    enum vb_metrics_status metrics_status;
    char metrics_reason[512];
    struct vb_metric_value *metrics; /* owned */
    size_t nmetrics;
    double gst_efficiency; /* store efficiency (%), sector-weighted over launches; NaN if none */
    double metrics_ns;     /* wall time of the metrics pass (replays included) */
    int metrics_passes;    /* samples the metrics pass ran (the profiler's passes) */
    double stage_ns[VB_STAGE_COUNT];       /* wall time of each stage (VB_CASE_STAGES) */
    double metrics_part_ns[VB_PROF_PARTS]; /* the metrics stage's (profiler.h's
                                              vb_profiler_last_ns) */
    /* the floor (floor.h): the least time the case's bytes allow at the run's measured
     * ceilings, what bounds it, and the measured time (floor_of) over it; NaN when unknown */
    double floor_ns, floor_ratio;
    char floor_bound[8]; /* "dram", "pcie", "launch", "latency", or "" */
    char floor_of[8];    /* "kernel" (device-resident) or "e2e" (the sample moves its data) */
    /* the work one sample declares (varbench.h's struct vb_traffic): global-memory bytes its
     * kernels must read and write, elements and floating-point operations; 0 undeclared */
    uint64_t gmem_read_bytes, gmem_write_bytes;
    double elements, flops;
    /* the user's named numbers (varbench.h's vb_summary), stored by name with the case */
    struct vb_summary_value summaries[VB_MAX_SUMMARIES];
    int nsummaries;
};

/* The phases of a sample, in the order of a case's statistics: the GPU time, its parts, and
 * the host's end to end. */
enum vb_phase_id {
    VB_PH_GPU,
    VB_PH_H2D,
    VB_PH_KERNEL,
    VB_PH_D2H,
    VB_PH_MEMSET,
    VB_PH_E2E,
    VB_PH_COUNT
};

/* Each phase's name as the stopping rule, the store and compare say it ("gpu", "h2d", ...). */
extern const char *const vb_phase_names[VB_PH_COUNT];

/* vb_sample_phase returns phase ph of s in ns (NaN: unknown). */
double vb_sample_phase(const struct vb_sample *s, int ph);

/* vb_result_stats sets r's statistics of each phase (ms) over its timed samples that are not
 * dropped, a value that is no number left out (a sample whose GPU times are unknown), the GPU
 * phases only with records; gpu_ci_pct, the 95% CI half-width of the GPU time's median (e2e's
 * without records); the traffic of the sample nearest that median, and traffic_varies when the
 * samples' traffic differs. The runner's and a traced range's. 0, or -1 when out of memory. */
int vb_result_stats(struct vb_case_result *r);

/* vb_result_pageable: did r copy from (*h2d) or to (*d2h) pageable host memory, by its kept
 * copy records (as compare's h2d_pageable and d2h_pageable read them)? Each 0 or 1. */
void vb_result_pageable(const struct vb_case_result *r, int *h2d, int *d2h);

/* vb_sample_find returns the index of the sample whose [start, end] window holds t, or -1.
 * Samples are sequential and synchronous, so their windows are sorted and disjoint. */
int vb_sample_find(const struct vb_case_result *r, uint64_t t);

#endif
