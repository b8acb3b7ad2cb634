/*
 * paired: the verdict on one phase of a paired A/B comparison (varbench ab). A round is a few
 * samples of build A and as many of build B, back to back on the same GPU, in ABBA order; its
 * value a side's median. The round ratios d_i = b_i / a_i cancel what drifts between rounds
 * (the clocks, the host's load, a co-tenant), which a comparison of two runs minutes apart
 * cannot: identical code false-alarmed at +121% on a pageable copy that way (issue 43).
 *
 * On log d_i: the estimate is their median; its interval the sign test's (vb_stats_sign_ci,
 * coverage at least 1 - alpha whatever the rounds' distribution; none with fewer than 6 rounds
 * at alpha 0.05); p the Wilcoxon signed-rank test's, shown beside it. The rule, with the
 * phase's limit: the larger of the relative change asked for and floor_ns (the timer's and the
 * launch's jitter) over A's median:
 *   same     the interval lies inside [1/(1+limit), 1+limit]: any change it admits is within
 *            the limit
 *   slower   the interval lies above 1+limit: every change it admits is past the limit
 *   faster   the interval lies below 1/(1+limit)
 *   noisy    neither yet: more rounds decide it, or none are left (why says so)
 */
#ifndef VB_PAIRED_H
#define VB_PAIRED_H

#include "compare.h"

struct vb_paired {
    int n;                   /* rounds */
    double med_a, med_b;     /* the median of each side's round values, ns */
    double ratio, lo, hi;    /* the estimate of b / a and its interval */
    double p;                /* signed-rank p-value; NaN when not computed */
    double limit;            /* the limit applied: max(limit, floor_ns / med_a) */
    enum vb_verdict verdict; /* same, slower, faster or noisy (undecided) */
};

/* vb_paired_judge judges rounds a[i], b[i] (ns, i < n; a pair with a value that is not a
 * positive number is left out) under limit, floor_ns and alpha into *out. Returns 0, or -1
 * when memory runs out. */
int vb_paired_judge(const double *a, const double *b, int n, double limit, double floor_ns,
                    double alpha, struct vb_paired *out);

#endif
