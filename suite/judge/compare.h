/*
 * compare: regression verdicts between two runs (perf-regression CI), read from two
 * databases. Cases are matched by variant and axes and judged phase by phase on the raw
 * timed samples of each (CUPTI's per-sample GPU time and its parts H2D, kernel, D2H and
 * memset; e2e is the host clock). It must tell a real change in one phase from the phases'
 * own noise: two runs of the same binary on an H200 agree on kernel time within 0.5%, while
 * pageable copies spread 5-40% (IQR/median) inside a run and move their medians +-17%
 * between runs, and a pinned -> pageable D2H is +266%.
 *
 * Per judged phase: ratio = median(cand) / median(base); spread = the larger IQR/median of the
 * two sides (quartiles linearly interpolated); limit = max(threshold, 3 x spread). A change
 * must exceed both the threshold and the phase's own noise (the trackers' rule) and 0.5 us,
 * then have evidence: the Mann-Whitney U test at alpha (with min_samples or more on both
 * sides), or sample ranges that do not overlap with 3 or more a side (nvbench's rule). No
 * evidence: noisy. Identical sample sets are always the same.
 *
 * Under the default metric "gpu" a GPU case is judged on its GPU time, on every phase
 * holding a material share of it, VB_CMP_SHARE of the base's GPU median or more, so a D2H
 * regression is named even where the kernel dominates, and on its end-to-end time against the
 * host's noise (VB_CMP_E2E_FLOOR below), so a move to the host is named even where the GPU time
 * stayed. The case takes the worst verdict of
 * its phases (broken > slower > noisy > faster > same); a case throttled in either run (SM
 * clock under 75% of peak on some sample) is noisy, never slower or faster. CPU-only cases,
 * and cases without CUPTI records, are judged on e2e.
 *
 * A pooled baseline (baseline_runs N > 1, the trackers' answer to single-run baselines that
 * false-alarm on a lucky base run): the base side of a case is the timed samples of the base
 * run's case and of its matches (same variant and axes, ok, not throttled) in the N - 1
 * complete suite runs before the base run (the newest rule) on its GPU model, concatenated;
 * the base run is the newest complete one or --base-run's. Its median and spread are then the
 * pool's, so the run-to-run noise of the base database counts as noise. Fewer such runs: the
 * pool holds those there are (npool says how many). N = 1 is the base run alone.
 *
 * Boards: a run of `run --device all` holds each GPU case once per device. A side is judged on
 * one device: the one --base-device/--cand-device names (its CPU-only cases are kept), or the
 * run's only one. A side with GPU cases on several devices and none named is refused, since its
 * cases would otherwise match whichever device's came first; under across_devices it is judged
 * on its lowest device instead and the result says so (the board table shows them all). The
 * GPU model compared is that of the device judged; a pooled baseline takes the same device of
 * each pooled run.
 *
 * Traced runs (varbench trace: every case of family "trace" on both sides): each process is on
 * its own device, and cases match by their axes (the range or kernel, the rank), so no device is
 * picked; a whole process is one sample and is listed not-compared (store.h's
 * vb_store_whole_process), its ranges' and kernels' cases judged as above. `filter` (a variant
 * glob) keeps the matching cases of both sides and of a pooled baseline.
 */
#ifndef VB_COMPARE_H
#define VB_COMPARE_H

#include "store.h"

/* Under metric "gpu", a phase is judged on its own when its base median is at least this
 * share of the base's GPU median: smaller phases move the GPU time by less than the noise. */
#define VB_CMP_SHARE 0.05
/* The effective threshold of a phase is at least this many times its spread (IQR/median): two
 * default whole-catalog runs of one binary on an H100 moved unsettled phases' medians by
 * up to 3.8x their spread between runs; 2x false-alarmed on 11 cases, 3x with the floor below
 * on none. */
#define VB_CMP_NOISE_FACTOR 3.0
/* A phase that does not settle within a run (spread at least VB_CMP_UNSTABLE_SPREAD: pageable
 * copies, 5-40%; kernels and pinned copies stay under 4%) and every host-clock (e2e) phase
 * moves between runs by more than its spread says: identical H100 runs moved pageable copies'
 * medians by up to 3.8x their spread (+70%). Such a phase must change by at least
 * VB_CMP_UNSTABLE_FLOOR (a doubling; pinned -> pageable is +266%). */
#define VB_CMP_UNSTABLE_SPREAD 0.05
#define VB_CMP_UNSTABLE_FLOOR  1.0
/* A copy phase that moves pageable memory (CUPTI's record says so) is unsettled whatever its
 * spread: a 128 MB pageable D2H spread 2.6% inside a run and moved +14.6% between runs. The GPU
 * time must move further than its judged parts' limits allow it, each weighted by its share of
 * the base's GPU time (each part is judged on its own), and is unsettled when one of them is. A
 * part the base does not have (a memset or copy the candidate added) is judged when it is
 * VB_CMP_SHARE of the candidate's GPU time: slower, "new". Host-clock phases (e2e:
 * the CPU-only references) must move by VB_CMP_HOST_FLOOR: the lent H100 host ran the same
 * single-core reference 2.04x slower in one run than in the other (gufunc cpu-reference,
 * minimum 7.75 ms -> 15.71 ms), so a CPU regression under 2.5x is not gated on such a host. */
#define VB_CMP_HOST_FLOOR 1.5
/* A copy crosses the host's bus, which the host shares: between identical runs on one lent H100
 * an 8 MB pinned H2D (calx/tiled-pinned at 10^6) ran at 148 us in one run and 168 us in the
 * next (+13.3%; -11.8% against a run on another H100 host), its spread inside each run under
 * 4% (tests/fixtures/calx-h100-*). So a pinned copy must move VB_CMP_COPY_FLOOR; pinned ->
 * pageable (+160% to +480%) stays caught. */
#define VB_CMP_COPY_FLOOR 0.25
/* The end-to-end time of a GPU case is judged beside its GPU phases, so that work moved to the
 * host (pageable staging, a synchronisation, more launches, a CPU-side step) is seen when the
 * GPU time is not: pinned -> pageable on mesh/device-mesh-overlap at nx=1000 left its GPU time
 * +0.4% and its e2e +668%. Between identical H100 runs (tests/fixtures/mesh-h100-a, -b) a GPU
 * case's e2e moved with its copies: pageable ones +14% to +31%, pinned ones under 1%. So an e2e
 * that holds a pageable copy, or spreads VB_CMP_UNSTABLE_SPREAD or more, is unsettled and must
 * double like the copies; a settled one must move VB_CMP_E2E_FLOOR (and its noise, and the
 * threshold) and VB_CMP_E2E_FLOOR_NS, the host's scheduling jitter around a launch (3.5-4.6
 * us). CPU-only cases, and cases without records, keep VB_CMP_HOST_FLOOR. */
#define VB_CMP_E2E_FLOOR    0.25
#define VB_CMP_E2E_FLOOR_NS 5000.0
/* A change of a phase's median smaller than this is the timer and launch jitter, never slower or
 * faster: a 3.6 us kernel's median moved 0.29 us (+8%) between those two runs. */
#define VB_CMP_FLOOR_NS 500.0
/* Ranges apart count as evidence only with at least this many samples a side: two single
 * samples are always apart. */
#define VB_CMP_MIN_APART 3
/* The phases a case can be judged on: gpu, its four parts, and e2e. */
#define VB_CMP_MAX_PHASES 6
/* The most runs a pooled baseline takes. */
#define VB_CMP_MAX_POOL 100

#define VB_VERDICTS(X)                                                                             \
    X(SAME, "same")                                                                                \
    X(FASTER, "faster")                                                                            \
    X(SLOWER, "slower")                                                                            \
    X(NOISY, "noisy")                                                                              \
    X(BROKEN, "broken")             /* verified in base, wrong or failed in the candidate */       \
    X(NOT_COMPARED, "not-compared") /* not ok in the base, or skipped */                           \
    X(ONLY_BASE, "only-in-base")                                                                   \
    X(ONLY_CAND, "only-in-candidate")

enum vb_verdict {
#define X(id, name) VB_VERDICT_##id,
    VB_VERDICTS(X)
#undef X
        VB_VERDICT_COUNT
};
const char *vb_verdict_name(enum vb_verdict v);

struct vb_cmp_opts {
    double threshold;   /* relative change that matters (0.05) */
    double alpha;       /* significance of the rank test (0.001) */
    int min_samples;    /* samples a side for the rank test; fewer: ranges only (5) */
    const char *metric; /* "gpu" (default: gpu and its material phases), "kernel", "h2d", "d2h",
                         * "e2e" (that phase alone) */
    int across_devices; /* allow different GPU models (a hardware comparison) */
    int baseline_runs;  /* runs pooled on the base side, 1 to VB_CMP_MAX_POOL (default 1) */
    const char *filter; /* the cases of variants this glob matches only (glob.h); NULL: all */
    int base_device;    /* the CUDA device of each side judged; -1 (default): its only one */
    int cand_device;
};
void vb_cmp_opts_default(struct vb_cmp_opts *o);
/* vb_cmp_pageable: does phase ("h2d", "d2h", "e2e", ...) move pageable host memory, given
 * whether a copy each way did (h2d, d2h)? e2e holds both copies. 1 or 0. */
int vb_cmp_pageable(int h2d, int d2h, const char *phase);
/* vb_cmp_metric_ok: is name a metric of --metric? */
int vb_cmp_metric_ok(const char *name);

/* One judged phase of a case. */
struct vb_cmp_phase {
    char name[8]; /* "gpu", "kernel", "h2d", "d2h", "memset", "e2e" */
    int n_base, n_cand;
    double med_base, med_cand; /* ns */
    double ratio;              /* med_cand / med_base */
    double spread;             /* max of the sides' IQR/median */
    double limit;              /* effective threshold: max(threshold, 3 x spread) */
    double p;                  /* Mann-Whitney two-sided p-value; NaN when not computed */
    enum vb_verdict verdict;   /* same, faster, slower or noisy */
    char why[48];              /* a noisy verdict's reason: "ranges overlap", "p 0.02" */
    int unstable;              /* held to the floor of unsettled phases (pageable, noisy, e2e) */
};

struct vb_cmp_row {
    char variant[160], axes[256], status_base[16], status_cand[16];
    int needs_gpu;
    /* the deciding phase (the worst verdict; the largest change among equals), copied from
     * phases[]; phase is "" when no phase was judged */
    char phase[8];
    int n_base, n_cand;
    double med_base, med_cand, ratio, p, spread, limit;
    double e2e_ratio; /* end-to-end median ratio, shown whatever the metric */
    enum vb_verdict verdict;
    char why[192];  /* the verdict's reason when it is not the deciding phase's ("throttled"),
                       and what the ledger saw of a noisy one (environ.h) */
    char basis[48]; /* why e2e stands in for the metric ("CPU-only", "no D2H records"), or "" */
    struct vb_cmp_phase phases[VB_CMP_MAX_PHASES];
    int nphases;
    /* the case's GPU code on both sides (vb_code_hold): 1 the same machine code launched the
     * same way, 0 changed, -1 unknown (no kernels, a run without code hashes) */
    int code_same;
    /* stored samples of the case left out as missing, on either side: not a duration (negative
     * or infinite: a corrupt or hand-edited database); dropped_col names the samples column of
     * the first ("kernel_ns"), "" when none was. What is left is judged. */
    int dropped;
    char dropped_col[16];
};

struct vb_cmp_result {
    char gpu_base[256], gpu_cand[256];
    int64_t run_base, run_cand;
    int64_t pool[VB_CMP_MAX_POOL]; /* the base side's runs: run_base, then older, newest first */
    int npool;                     /* how many: baseline_runs, or fewer when the base has fewer */
    struct vb_cmp_row *rows;
    int nrows;
    int count[VB_VERDICT_COUNT];
    /* cases that got a verdict (same, faster, slower, noisy, broken); only GPU cases count
     * when either run has one. 0: nothing was compared, and why[] says why. */
    int compared;
    char why[512];
    /* the device each side was judged on (-1: no GPU case), and the devices its run holds */
    int dev_base, dev_cand, ndev_base, ndev_cand;
    /* per side (0 base, 1 candidate): "", or when across_devices chose its device, the
     * sentence that says so */
    char dev_note[2][256];
};

/* vb_compare_runs compares run_cand of cand with run_base of base (run ids <= 0: the latest
 * complete run), pooled with the o->baseline_runs - 1 complete runs before it (see above).
 * Refuses (VB_E_USAGE) a run that is not complete (running, interrupted, failed), saying which
 * and why, runs on different GPU models unless across_devices, baseline_runs outside 1 to
 * VB_CMP_MAX_POOL, a device a side has no GPU case on, and a side of several devices with none
 * named (see Boards above). Fills *res (free with vb_cmp_result_free); on failure *res is empty. */
int vb_compare_runs(struct vb_store *base, int64_t run_base, struct vb_store *cand,
                    int64_t run_cand, const struct vb_cmp_opts *o, struct vb_cmp_result *res,
                    struct vb_err *err);
void vb_cmp_result_free(struct vb_cmp_result *res);

/* vb_cmp_phase_label: how text names a phase: "GPU", "H2D", "D2H", "kernel", "memset", "e2e". */
const char *vb_cmp_phase_label(const char *phase);

/* vb_cmp_fmt_change writes a ratio as a signed percentage change with that many decimals
 * ("+266%", "-12.5%"), "+inf%" or "-"; returns buf. */
char *vb_cmp_fmt_change(double ratio, int decimals, char *buf, size_t n);

/* vb_cmp_row_text writes the row's verdict as people read it: "slower (D2H +266%)",
 * "faster (kernel -31%)", "noisy (H2D: ranges overlap)", "noisy (throttled: candidate)",
 * "broken (ok -> wrong-result)", "same". Returns buf. */
char *vb_cmp_row_text(const struct vb_cmp_row *r, char *buf, size_t n);

/* vb_cmp_severity orders verdicts for the worst-of rule: broken 4 > slower 3 > noisy 2 >
 * faster 1 > same (and the rest) 0. */
int vb_cmp_severity(enum vb_verdict v);

/* vb_cmp_decide copies r's deciding phase into the row: of r->phases[0..nphases) (at least
 * one) the worst verdict, the largest change among equals, the first phase among "same"; a
 * noisy one's why as "PHASE: why". */
void vb_cmp_decide(struct vb_cmp_row *r);

/* vb_cmp_exit: 1 if a case is slower or broken; else 7 (VB_E_INCONCLUSIVE's exit code) if one
 * is noisy or nothing was compared (res->compared == 0); else 0. */
int vb_cmp_exit(const struct vb_cmp_result *res);

#endif
