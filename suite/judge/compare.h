/*
 * compare: regression verdicts between two runs (perf-regression CI), read from two
 * databases. Cases are matched by variant and axes and judged phase by phase on the raw
 * timed samples of each (CUPTI's per-sample GPU time and its parts H2D, kernel, D2H and
 * memset; e2e is the host clock). It must tell a real change in one phase from the phases'
 * own noise and from the machine's: two runs of the same binary on an H200 agree on kernel
 * time within 0.5%, while a pageable copy and a CPU reference moved +100% to +153% between two
 * runs minutes apart as the host slowed, with no change of code.
 *
 * Per judged series: ratio = median(cand) / median(base); spread = the larger IQR/median of the
 * two sides (quartiles linearly interpolated); limit = max(threshold, 3 x spread). A change
 * must exceed its limit and 0.5 us (5 us for e2e: the timer's and the launch's jitter), then
 * have evidence: the Mann-Whitney U test at alpha (with min_samples or more on both sides), or
 * sample ranges that do not overlap with 3 or more a side (nvbench's rule). No evidence: noisy.
 * Identical sample sets are always the same. A phase the host moves (a copy, a CPU reference,
 * the host's share of e2e) is judged on its time and on its time against the controls measured
 * beside each sample (norm.h): slower only when both are; no limit is a constant that fitted
 * another run's noise. A traced program's ranges and kernels, tens to thousands of instances
 * each, are judged at the threshold alone (no noise factor) with the rank test.
 *
 * Under the default metric "gpu" a GPU case is judged on its GPU time, on every phase
 * holding a material share of it, VB_CMP_SHARE of the base's GPU median or more, so a D2H
 * regression is named even where the kernel dominates, and on its end-to-end time, so a move to
 * the host is named even where the GPU time stayed. The case takes the worst verdict of its
 * phases (broken > slower > noisy > faster > same); a case throttled in either run (SM clock
 * under 75% of peak on some sample) is noisy, never slower or faster, and so is a move the
 * board's ledger explains (environ.h: a co-tenant, clock events, a lower SM clock). The same
 * SASS launched the same way explains nothing by itself: such a move stays slower or faster and
 * says so (code_diff.h). CPU-only cases, and cases without CUPTI records, are judged on e2e.
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
 * vb_store_whole_process), its ranges' and kernels' cases judged as above. A range that two or
 * more ranks of a program sampled is judged per rank on the rank's own time (its e2e less its
 * collectives) and compute (its kernels less them), its e2e and collectives shown, not judged (a
 * rank that waits for a straggler is not slower), and once for the job: each step as its slowest
 * rank lived it (the row "range=NAME,ranks=N"). `filter` (a variant glob) keeps the matching
 * cases of both sides and of a pooled baseline.
 */
#ifndef VB_COMPARE_H
#define VB_COMPARE_H

#include "store.h"

/* Under metric "gpu", a phase is judged on its own when its base median is at least this
 * share of the base's GPU median: smaller phases move the GPU time by less than the noise. */
#define VB_CMP_SHARE 0.05
/* The effective threshold of a series is at least this many times its spread (IQR/median), its
 * own noise measured in the two runs judged. */
#define VB_CMP_NOISE_FACTOR 3.0
/* A change of a phase's median smaller than this is the timer and launch jitter, never slower or
 * faster: a 3.6 us kernel's median moved 0.29 us (+8%) between two H100 runs; an e2e's, the
 * host's scheduling jitter around a launch (3.5-4.6 us). */
#define VB_CMP_FLOOR_NS     500.0
#define VB_CMP_E2E_FLOOR_NS 5000.0
/* Ranges apart count as evidence only with at least this many samples a side: two single
 * samples are always apart. */
#define VB_CMP_MIN_APART 3
/* The phases a case can be judged on: gpu, its four parts, e2e; a rank's own time, compute and
 * collectives. */
#define VB_CMP_MAX_PHASES 9
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
/* The words of a verdict and a row's deciding phase below (vb_verdict_name, vb_cmp_phase_label,
 * vb_cmp_fmt_change, vb_cmp_row_text, vb_cmp_severity, vb_cmp_decide, vb_cmp_explain) live in
 * verdict.c, which compare.c, judge_case.c and ab share. */
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
/* vb_cmp_metric_ok: is name a metric of --metric? */
int vb_cmp_metric_ok(const char *name);
/* vb_cmp_gpu_part: is phase one of the GPU time's parts ("h2d", "kernel", "d2h", "memset")? */
int vb_cmp_gpu_part(const char *phase);

/* One judged phase of a case. */
struct vb_cmp_phase {
    char name[8]; /* "gpu", "kernel", "h2d", "d2h", "memset", "e2e", "own", "compute", "comm" */
    int n_base, n_cand;
    double med_base, med_cand; /* ns, as measured */
    double ratio;              /* med_cand / med_base, as measured */
    /* what decided (norm.h): the series' ratio, spread (max of the sides' IQR/median), limit
     * (max(threshold, 3 x spread)) and Mann-Whitney two-sided p-value (NaN when not computed) */
    double judged_ratio, spread, limit, p;
    enum vb_verdict verdict;     /* same, faster, slower or noisy */
    enum vb_verdict raw_verdict; /* its time's own, before its controls */
    char by[8];   /* the deciding series when it is not its time ("host", "cpu", "mem"), or "" */
    char why[96]; /* a noisy verdict's reason ("ranges overlap", "p 0.02"); a slower or faster
                     one's note (the same SASS and launch) */
    int info;     /* shown, never the row's verdict: what holds a rank's wait for the others */
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
    char why[256];  /* the verdict's reason when it is not the deciding phase's ("throttled"),
                       what the ledger saw of a noisy one (environ.h), what a control explained
                       of a same one, the note of a slower one */
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
    /* a GPU case slower or faster with counters on both sides: the counters that moved, ranked
     * (moved.h's text); a whole traced process with counters on both sides: the kernels that
     * moved and theirs; "" when none or not asked */
    char moved[1536];
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
 * one) that are not info, the worst verdict, the largest change among equals, the first phase
 * among "same"; a noisy one's why as "PHASE: why", a slower or faster one's note, a same one's
 * explanation (vb_cmp_explain). */
void vb_cmp_decide(struct vb_cmp_row *r);

/* vb_cmp_explain sets a same row's why to what its phases say of it: the phases whose time moved
 * past their limit and that a control explained ("D2H +118%: +1.2% against its control"), and a
 * rank's waiting ("waits for the others: e2e +60%, comm +363%"); "" when nothing moved. */
void vb_cmp_explain(struct vb_cmp_row *r);

/* vb_cmp_exit: 1 if a case is slower or broken; else 7 (VB_E_INCONCLUSIVE's exit code) if one
 * is noisy or nothing was compared (res->compared == 0); else 0. */
int vb_cmp_exit(const struct vb_cmp_result *res);

#endif
