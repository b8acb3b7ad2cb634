/*
 * changepoint: where a series of per-run medians (one case, oldest run first) changes level,
 * for `varbench history`. Workload: tens to a few hundred runs per series, a few hundred series
 * per database; the search is PELT, O(n) to O(n^2) per series.
 *
 * Method (PELT: Killick, Fearnhead & Eckley 2012, with the Gaussian mean-shift cost):
 * - on log(x): timing noise is multiplicative, so a 1.3x step is one size at 0.2 ms and 200 ms;
 * - an isolated run out of line with both neighbours (another tenant, a cold host) is an
 *   outlier, not a change: a value more than VB_CP_OUTLIER robust sigmas (the MAD of the
 *   successive differences) off its 3-run running median (Tukey's end rule at the ends) takes
 *   that median before the search; a step of 2 or more runs is its own running median and stays;
 * - cost of a segment: the squared deviations from its mean; VB_CP_MIN_SEGMENT (2) runs a
 *   segment at least, so the newest (or oldest) run alone is never a segment: one slow newest
 *   run is an outlier until the next run agrees with it;
 * - noise: sigma from the successive differences (robust to the steps, each one difference),
 *   at least VB_CP_SIGMA_FLOOR (0.2%: identical medians must not make every wiggle a change):
 *   the root mean square of the differences less the largest VB_CP_TRIM of them (or less every
 *   one touching an outlier, when more), over the truncated normal's; then, while larger, the
 *   noise left around the found segments' means (all n runs), and the search again;
 * - penalty per change point: K x sigma^2 x log(n), K = VB_CP_PENALTY (10);
 * - a change whose neighbouring segments' medians differ by less than min_change (the larger
 *   over the smaller, minus 1) is none: the closest such pair merges, again until none is left.
 *
 * Why not the plain recipe (MAD sigma, K = 3, no outlier step): on tests/test_history.c's series
 * (lognormal noise of 0.5%, 2% and 5%, n = 20, 30, 60; `vbtest changepoint_noise 10000`) it put
 * a change point in 10.7% of 5%-noise series of 20 runs without any step (8.3% at 30, 2.3% at
 * 60), and in every series holding two isolated 3x runs. The MAD has 37% efficiency: from 19
 * differences it is under half the noise in 1% of series. Measured with this method, 10,000
 * series per configuration: K = 3: 1,143 of 180,000 step-free series with a change point (4.5%
 * of 5%-noise series of 20 runs); K = 8: 19; K = 10: 5 (2 of 10,000 at 2% and at 5% noise with 20
 * runs, 1 at 5% with 30, none elsewhere, none with outliers). Single steps at K = 10 (`vbtest
 * changepoint_steps 2000`): x1.85 and x0.7 at runs 5, 10 and n - 3 are found exactly at their run
 * in 99.75% or more at every noise level (x0.7 under 5% noise is 7.1 sigma: a few one run off);
 * x1.3 under 5% noise (5.2 sigma) in 96.7%: its boundary run lies nearer the other level in about
 * 1%, and a newest segment of only 3 runs goes unseen in 5-7.5% (the next runs show it).
 */
#ifndef VB_CHANGEPOINT_H
#define VB_CHANGEPOINT_H

#define VB_CP_PENALTY     10.0  /* K of the penalty K * sigma^2 * log(n) */
#define VB_CP_MIN_SEGMENT 2     /* runs a segment at least */
#define VB_CP_SIGMA_FLOOR 0.002 /* the noise (of log x) is at least 0.2% */
#define VB_CP_TRIM        0.2   /* share of the largest differences the noise estimate leaves out */
#define VB_CP_OUTLIER     5.0 /* an isolated run this many sigmas off its neighbours is an outlier */

struct vb_cp_opts {
    double penalty;    /* K in K * sigma^2 * log(n); VB_CP_PENALTY default */
    double min_change; /* relative, 0.05: smaller shifts of the segment median are not changes */
};
#define VB_CP_OPTS_DEFAULT                                                                         \
    {                                                                                              \
        VB_CP_PENALTY, 0.05                                                                        \
    }

/* vb_changepoints' two failures, told apart so that a caller never calls a bad value memory. */
#define VB_CP_EVALUE (-1) /* a value of x is not positive and finite */
#define VB_CP_ENOMEM (-2) /* out of memory */

/* vb_changepoints finds change points of x[0..n) (positive values, per-run medians in time
 * order). Writes at most cap indexes into cp (cp[k] = index of the first point of the new
 * segment, ascending) and returns how many were found (may exceed cap: only cap written). n < 4:
 * none. o NULL: VB_CP_OPTS_DEFAULT. Returns VB_CP_EVALUE for a value that is not positive and
 * finite (any n: a series is checked whole), VB_CP_ENOMEM when out of memory (nothing written
 * either way). A history read from the store has no such value (store.h's vb_store_history
 * leaves them out as missing). */
int vb_changepoints(const double *x, int n, const struct vb_cp_opts *o, int *cp, int cap);

/* vb_cp_step sets *before and *after to the medians of the segments of x[0..n) either side of
 * change point k of cp[0..ncp) (as vb_changepoints wrote them): what `history` and the report
 * say a change moved; NaN when out of memory. */
void vb_cp_step(const double *x, int n, const int *cp, int ncp, int k, double *before,
                double *after);

/* vb_cp_sigma returns the noise estimate of log(x[0..n)) the search starts from (before the
 * segments' own noise may raise it), floored; VB_CP_SIGMA_FLOOR for n < 3, NaN when out of
 * memory. x positive. */
double vb_cp_sigma(const double *x, int n);

#endif
