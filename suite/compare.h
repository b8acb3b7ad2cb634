/*
 * compare: regression verdicts between two runs (perf-regression CI), read from two
 * databases. Cases are matched by variant and axes; per case the ratio of medians of the
 * raw samples, a Mann-Whitney U test on them, and a verdict. A change counts only when it
 * is both larger than the threshold and significant at alpha; too few samples or a large
 * but insignificant change is "noisy". The default metric is the summed kernel time of a
 * sample (CUPTI), the GPU's own work: two runs of the same binary on an H200 agreed on it
 * within 0.5% for every GPU case, while end-to-end times (host work, pageable copies)
 * moved 5-40% between them, more than any within-run test can know about. --metric e2e
 * gates end-to-end time; CPU-only cases have no kernel time and are compared only then.
 */
#ifndef VB_COMPARE_H
#define VB_COMPARE_H

#include "store.h"

#define VB_VERDICTS(X)                                                                   \
    X(SAME, "same")                                                                      \
    X(FASTER, "faster")                                                                  \
    X(SLOWER, "slower")                                                                  \
    X(NOISY, "noisy")                                                                    \
    X(BROKEN, "broken")       /* verified in base, wrong or failed in the candidate */   \
    X(NOT_COMPARED, "not-compared") /* not ok in the base, or skipped */                 \
    X(ONLY_BASE, "only-in-base")                                                         \
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
    int min_samples;    /* fewer timed samples on a side: noisy (5) */
    const char *metric; /* "kernel" (default) or "e2e" */
    int across_devices; /* allow different GPU models (a hardware comparison) */
};
void vb_cmp_opts_default(struct vb_cmp_opts *o);

struct vb_cmp_row {
    char variant[160], axes[256], status_base[16], status_cand[16];
    int n_base, n_cand;
    double med_base, med_cand; /* ns */
    double ratio;              /* med_cand / med_base */
    double p;                  /* Mann-Whitney two-sided p-value */
    double e2e_ratio;          /* end-to-end median ratio, shown whatever the metric */
    enum vb_verdict verdict;
};

struct vb_cmp_result {
    char gpu_base[256], gpu_cand[256];
    int64_t run_base, run_cand;
    struct vb_cmp_row *rows;
    int nrows;
    int count[VB_VERDICT_COUNT];
};

/* vb_compare_runs compares run_cand of cand with run_base of base (run ids <= 0: the latest
 * complete run). Refuses (VB_E_USAGE) runs on different GPU models unless across_devices.
 * Fills *res (free with vb_cmp_result_free). */
int vb_compare_runs(struct vb_store *base, int64_t run_base, struct vb_store *cand,
                    int64_t run_cand, const struct vb_cmp_opts *o, struct vb_cmp_result *res,
                    struct vb_err *err);
void vb_cmp_result_free(struct vb_cmp_result *res);

/* vb_cmp_exit: 1 if a case is slower or broken, else 3 if one is noisy, else 0. */
int vb_cmp_exit(const struct vb_cmp_result *res);

#endif
