/*
 * stats: summary statistics of a sample set (median, min, max, mean, sample standard
 * deviation, relative noise). Used by the runner's stopping rule after every sample, so
 * it must stay cheap for a few thousand samples; it never modifies its input.
 */
#ifndef VB_STATS_H
#define VB_STATS_H

#include <stddef.h>

struct vb_stats {
    size_t n;
    double median, min, max, mean, stdev; /* stdev: sample (n-1) standard deviation */
    double noise;                         /* stdev / mean; INFINITY when n < 2 or mean == 0 */
};

/* vb_stats_compute summarises x[0..n). n == 0 gives all-NaN statistics. Returns 0, or -1 if
 * the scratch copy for the median cannot be allocated. */
int vb_stats_compute(const double *x, size_t n, struct vb_stats *out);

/* vb_stats_median returns the median of x[0..n) (NaN for n == 0) without changing x, or NaN if
 * memory runs out. */
double vb_stats_median(const double *x, size_t n);

/* vb_stats_sort sorts x[0..n) in place, ascending. */
void vb_stats_sort(double *x, size_t n);

/* vb_stats_median_sorted returns the median of x[0..n), already sorted (NaN for n == 0). */
double vb_stats_median_sorted(const double *x, size_t n);

/* vb_stats_median_ci sets [*lo, *hi] to the distribution-free 95% confidence interval of the
 * median of x[0..n) (order statistics n/2 -+ 0.98 sqrt(n), rounded outwards; [min, max] for
 * n < 6). Returns the half-width over the median (INFINITY for n < 2 or a zero median), or NaN
 * when memory runs out. */
double vb_stats_median_ci(const double *x, size_t n, double *lo, double *hi);

/* vb_stats_loglog returns y at `at` on the curve (x[i], y[i]), i < n, taken as a straight line
 * in log-log between the two points around it (at x[i] exactly, y[i]); NaN when `at` lies
 * outside [x[0], x[n-1]], or when the curve has fewer than two points, an x not rising or an x
 * or y not positive (a point not measured). */
double vb_stats_loglog(const double *x, const double *y, size_t n, double at);

/* vb_stats_iqr_ratio returns the interquartile range over the median (linear-interpolated
 * quartiles) of x[0..n): nvbench's spread. NaN for n == 0 or out of memory. */
double vb_stats_iqr_ratio(const double *x, size_t n);

/* vb_stats_mann_whitney returns the two-sided p-value of the Mann-Whitney U test that samples a
 * and b come from the same distribution (normal approximation with tie and continuity
 * corrections; fit for n >= 5 a side). Returns NaN for an empty side or out of memory. */
double vb_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb);

/* vb_stats_signed_rank returns the two-sided p-value of the Wilcoxon signed-rank test that the
 * differences d[0..n) are centred on zero: zeros left out, tied magnitudes sharing their mean
 * rank; exact (the distribution of the positive ranks' sum) for up to VB_STATS_EXACT_RANKS
 * non-zero differences without ties, else the normal approximation with tie and continuity
 * corrections. 1 when every difference is zero; NaN for n == 0 or out of memory. */
#define VB_STATS_EXACT_RANKS 30
double vb_stats_signed_rank(const double *d, size_t n);

/* vb_stats_sign_ci sets [*lo, *hi] to the sign test's confidence interval of the median of
 * x[0..n): the order statistics x(k) and x(n+1-k), k the largest for which the binomial(n,
 * 1/2) tail below k is at most alpha / 2, so that it holds the median with probability at
 * least 1 - alpha whatever x's distribution. Returns 0, or -1 (both set to -+INFINITY) when n
 * is too small for that coverage (at alpha 0.05: fewer than 6) or memory runs out. */
int vb_stats_sign_ci(const double *x, size_t n, double alpha, double *lo, double *hi);

#endif
