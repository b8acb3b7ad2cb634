/*
 * stats: summary statistics over raw samples. Mean and variance use Welford's update so
 * that samples of large magnitude (nanoseconds since epoch differences) do not lose
 * precision; the median sorts a private copy.
 */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void vb_stats_sort(double *x, size_t n)
{
    qsort(x, n, sizeof *x, cmp_double);
}

/* sorted_median: the median of sorted t[0..n), n > 0. */
static double sorted_median(const double *t, size_t n)
{
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

double vb_stats_median(const double *x, size_t n)
{
    double *t, m;
    if (n == 0) return NAN;
    t = malloc(n * sizeof *t);
    if (!t) return NAN;
    memcpy(t, x, n * sizeof *t);
    vb_stats_sort(t, n);
    m = sorted_median(t, n);
    free(t);
    return m;
}

double vb_stats_median_sorted(const double *x, size_t n)
{
    return n ? sorted_median(x, n) : NAN;
}

int vb_stats_compute(const double *x, size_t n, struct vb_stats *out)
{
    double mean = 0, m2 = 0;
    size_t i;
    out->n = n;
    if (n == 0) {
        out->median = out->min = out->max = out->mean = out->stdev = NAN;
        out->noise = INFINITY;
        return 0;
    }
    out->min = out->max = x[0];
    for (i = 0; i < n; i++) {
        double d = x[i] - mean;
        mean += d / (double)(i + 1);
        m2 += d * (x[i] - mean);
        if (x[i] < out->min) out->min = x[i];
        if (x[i] > out->max) out->max = x[i];
    }
    out->mean = mean;
    out->stdev = n > 1 ? sqrt(m2 / (double)(n - 1)) : NAN;
    out->noise = (n > 1 && mean != 0) ? out->stdev / fabs(mean) : INFINITY;
    out->median = vb_stats_median(x, n);
    return isnan(out->median) ? -1 : 0;
}

/* sorted returns a sorted malloc'd copy of x[0..n), or NULL. */
static double *sorted(const double *x, size_t n)
{
    double *t = malloc((n ? n : 1) * sizeof *t);
    if (!t) return NULL;
    memcpy(t, x, n * sizeof *t);
    vb_stats_sort(t, n);
    return t;
}

static double quantile(const double *t, size_t n, double q)
{
    double pos = q * (double)(n - 1), f = floor(pos);
    size_t i = (size_t)f;
    return i + 1 < n ? t[i] + (pos - f) * (t[i + 1] - t[i]) : t[n - 1];
}

double vb_stats_median_ci(const double *x, size_t n, double *lo, double *hi)
{
    double *t, med, half;
    long j, k;
    *lo = *hi = NAN;
    if (n == 0) return INFINITY;
    if (!(t = sorted(x, n))) return NAN;
    /* ranks (1-based) n/2 -+ 1.96 sqrt(n)/2: the binomial(n, 1/2) normal approximation */
    j = (long)floor((double)n / 2.0 - 0.98 * sqrt((double)n));
    k = (long)ceil((double)n / 2.0 + 1.0 + 0.98 * sqrt((double)n));
    if (j < 1) j = 1;
    if (k > (long)n) k = (long)n;
    *lo = t[j - 1];
    *hi = t[k - 1];
    med = quantile(t, n, 0.5);
    free(t);
    half = (*hi - *lo) / 2.0;
    if (n < 2 || med == 0) return INFINITY;
    return half / fabs(med);
}

double vb_stats_iqr_ratio(const double *x, size_t n)
{
    double *t, r, med;
    if (n == 0 || !(t = sorted(x, n))) return NAN;
    med = quantile(t, n, 0.5);
    r = med != 0 ? (quantile(t, n, 0.75) - quantile(t, n, 0.25)) / fabs(med) : NAN;
    free(t);
    return r;
}

struct tagged {
    double v;
    int from_a;
};

static int cmp_tagged(const void *x, const void *y)
{
    double a = ((const struct tagged *)x)->v, b = ((const struct tagged *)y)->v;
    return (a > b) - (a < b);
}

double vb_stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb)
{
    size_t n = na + nb, i, j;
    struct tagged *t;
    double ra = 0, ties = 0, u, mu, sigma2, z, nn = (double)n;
    if (!na || !nb) return NAN;
    t = malloc(n * sizeof *t);
    if (!t) return NAN;
    for (i = 0; i < na; i++)
        t[i].v = a[i], t[i].from_a = 1;
    for (i = 0; i < nb; i++)
        t[na + i].v = b[i], t[na + i].from_a = 0;
    qsort(t, n, sizeof *t, cmp_tagged);
    /* ranks 1..n, tied values sharing their mean rank */
    for (i = 0; i < n; i = j) {
        double rank, k;
        for (j = i + 1; j < n && t[j].v == t[i].v; j++) {
        }
        k = (double)(j - i);
        rank = (double)(i + 1 + j) / 2.0;
        for (size_t m = i; m < j; m++)
            if (t[m].from_a) ra += rank;
        ties += k * k * k - k;
    }
    free(t);
    u = ra - (double)na * (double)(na + 1) / 2.0;
    mu = (double)na * (double)nb / 2.0;
    sigma2 = (double)na * (double)nb / 12.0 * ((nn + 1) - ties / (nn * (nn - 1)));
    if (sigma2 <= 0) return 1.0; /* every value equal */
    z = (fabs(u - mu) - 0.5) / sqrt(sigma2);
    if (z < 0) z = 0;
    return erfc(z / sqrt(2.0));
}

double vb_stats_loglog(const double *x, const double *y, size_t n, double at)
{
    size_t k;
    if (n < 2) return NAN;
    for (k = 0; k + 1 < n; k++) /* all of it measured, or none used */
        if (!(x[k] > 0 && x[k + 1] > x[k] && y[k] > 0 && y[k + 1] > 0)) return NAN;
    for (k = 0; k + 1 < n; k++)
        if (at >= x[k] && at <= x[k + 1])
            return y[k] * pow(y[k + 1] / y[k], log(at / x[k]) / log(x[k + 1] / x[k]));
    return NAN;
}

/* abs_cmp orders by magnitude */
static int abs_cmp(const void *x, const void *y)
{
    double a = fabs(*(const double *)x), b = fabs(*(const double *)y);
    return (a > b) - (a < b);
}

double vb_stats_signed_rank(const double *d, size_t n)
{
    double *v, wplus = 0, ties = 0, mu, sigma2, z, nn;
    size_t m = 0, i, j;
    if (!n) return NAN;
    if (!(v = malloc(n * sizeof *v))) return NAN;
    for (i = 0; i < n; i++)
        if (d[i] != 0) v[m++] = d[i];
    if (!m) {
        free(v);
        return 1.0;
    }
    qsort(v, m, sizeof *v, abs_cmp);
    for (i = 0; i < m; i = j) { /* ranks 1..m by magnitude, ties sharing their mean */
        double k;
        for (j = i + 1; j < m && fabs(v[j]) == fabs(v[i]); j++) {
        }
        k = (double)(j - i);
        for (size_t r = i; r < j; r++)
            if (v[r] > 0) wplus += (double)(i + 1 + j) / 2.0;
        ties += k * k * k - k;
    }
    free(v);
    nn = (double)m;
    if (ties == 0 && m <= VB_STATS_EXACT_RANKS) {
        /* exact: ways[s] counts the subsets of 1..m summing to s; P(W+ <= w) and P(W+ >= w) */
        double ways[VB_STATS_EXACT_RANKS * (VB_STATS_EXACT_RANKS + 1) / 2 + 1] = {0}, lo = 0,
                                                                            hi = 0,
                                                                            total =
                                                                                ldexp(1.0, (int)m);
        int top = (int)(m * (m + 1) / 2), w = (int)lround(wplus), s;
        ways[0] = 1;
        for (i = 1; i <= m; i++)
            for (s = top; s >= (int)i; s--)
                ways[s] += ways[s - (int)i];
        for (s = 0; s <= top; s++) {
            if (s <= w) lo += ways[s];
            if (s >= w) hi += ways[s];
        }
        return fmin(1.0, 2 * fmin(lo, hi) / total);
    }
    mu = nn * (nn + 1) / 4;
    sigma2 = nn * (nn + 1) * (2 * nn + 1) / 24 - ties / 48;
    if (sigma2 <= 0) return 1.0;
    z = (fabs(wplus - mu) - 0.5) / sqrt(sigma2);
    if (z < 0) z = 0;
    return erfc(z / sqrt(2.0));
}

int vb_stats_sign_ci(const double *x, size_t n, double alpha, double *lo, double *hi)
{
    double *v, tail = 0, term;
    size_t k = 0, i;
    *lo = -INFINITY;
    *hi = INFINITY;
    /* the binomial(n, 1/2) tail P(X <= i), i = 0, 1, ...: k - 1 is the last i it stays under
     * alpha / 2 at (pmf by the recurrence C(n, i + 1) = C(n, i) (n - i) / (i + 1)) */
    term = ldexp(1.0, -(int)n);
    for (i = 0; i < n; i++) {
        tail += term;
        if (tail > alpha / 2) break;
        k = i + 1;
        term = term * (double)(n - i) / (double)(i + 1);
    }
    if (!k || !(v = malloc(n * sizeof *v))) return -1;
    memcpy(v, x, n * sizeof *v);
    vb_stats_sort(v, n);
    *lo = v[k - 1];
    *hi = v[n - k];
    free(v);
    return 0;
}
