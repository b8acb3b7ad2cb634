/* changepoint: PELT on the cleaned log of a series of medians (see changepoint.h). */
#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* med3 is the median of three values. */
static double med3(double a, double b, double c)
{
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    return c < a ? a : c > b ? b : c;
}

/* mad_sigma estimates the noise of y[0..n) (n >= 2) from the MAD of its successive differences
 * (a step is one large difference among many, an isolated outlier two), with d (n - 1 slots) as
 * scratch; floored. Robust, but of 37% efficiency: what finds the outliers, not the estimate
 * the penalty uses. */
static double mad_sigma(const double *y, int n, double *d)
{
    double m, s;
    int i;
    for (i = 0; i + 1 < n; i++)
        d[i] = y[i + 1] - y[i];
    vb_stats_sort(d, (size_t)(n - 1));
    m = vb_stats_median_sorted(d, (size_t)(n - 1));
    for (i = 0; i + 1 < n; i++)
        d[i] = fabs(d[i] - m);
    vb_stats_sort(d, (size_t)(n - 1));
    /* a difference of two values has twice a value's variance */
    s = 1.4826 * vb_stats_median_sorted(d, (size_t)(n - 1)) / sqrt(2.0);
    return s > VB_CP_SIGMA_FLOOR ? s : VB_CP_SIGMA_FLOOR;
}

/* trimmed_sigma estimates the noise of y[0..n) (n >= 2) from the mean square of its successive
 * differences less the largest `out` of them (out < n - 1), over the second moment of the
 * normal truncated there; d (n - 1 slots) is scratch. Floored. */
static double trimmed_sigma(const double *y, int n, int out, double *d)
{
    int i, m = n - 1, keep = m - out;
    double ss = 0, p, c, lo = 0, hi = 10, f, s;
    for (i = 0; i < m; i++)
        d[i] = fabs(y[i + 1] - y[i]);
    vb_stats_sort(d, (size_t)m);
    for (i = 0; i < keep; i++)
        ss += d[i] * d[i];
    /* the share p of |N(0, 1)| kept lies under c = sqrt(2) erfinv(p) (bisection); its mean
     * square is 1 - 2 c phi(c) / p */
    p = (double)keep / m;
    for (i = 0; i < 60; i++) {
        double mid = (lo + hi) / 2;
        if (erf(mid / sqrt(2.0)) < p)
            lo = mid;
        else
            hi = mid;
    }
    c = (lo + hi) / 2;
    f = 1 - 2 * c * exp(-c * c / 2) / sqrt(2 * M_PI) / p;
    s = sqrt(ss / keep / f / 2); /* a difference has twice a value's variance */
    return s > VB_CP_SIGMA_FLOOR ? s : VB_CP_SIGMA_FLOOR;
}

/* clean copies y[0..n) (n >= 3) into z with its isolated outliers replaced: a value further
 * than VB_CP_OUTLIER x sigma from the 3-run running median (at the ends Tukey's rule: the end
 * value against the line through its two neighbours) is out of line with both neighbours and
 * becomes that median, the nearer neighbour; again until none moves (two outliers one run
 * apart leave one isolated after the first pass). A step of two or more runs is its own
 * running median: it stays where it is. m (n slots) is scratch; hit[i] is set for each value
 * replaced. */
static void clean(const double *y, int n, double sigma, double *z, double *m, char *hit)
{
    int i, moved = 1, pass;
    memcpy(z, y, sizeof *z * (size_t)n);
    memset(hit, 0, (size_t)n);
    for (pass = 0; moved && pass < n; pass++) {
        for (i = 1; i + 1 < n; i++)
            m[i] = med3(z[i - 1], z[i], z[i + 1]);
        m[0] = med3(z[0], m[1], 3 * m[1] - 2 * m[2]);
        m[n - 1] = med3(z[n - 1], m[n - 2], 3 * m[n - 2] - 2 * m[n - 3]);
        for (moved = 0, i = 0; i < n; i++)
            if (fabs(z[i] - m[i]) > VB_CP_OUTLIER * sigma) z[i] = m[i], hit[i] = moved = 1;
    }
}

/* noise cleans y[0..n) (n >= 3) into z and returns the noise estimate the search starts from:
 * the trimmed one of the raw y (the cleaned values are smoother than the noise), leaving out
 * VB_CP_TRIM of the differences or, when more touch an outlier, those. scratch: n slots; hit:
 * n bytes. */
static double noise(const double *y, int n, double *z, double *scratch, char *hit)
{
    int i, out = (int)floor(VB_CP_TRIM * (n - 1)), touched = 0;
    clean(y, n, mad_sigma(y, n, scratch), z, scratch, hit);
    for (i = 0; i + 1 < n; i++)
        touched += hit[i] || hit[i + 1];
    if (touched > out) out = touched < n - 2 ? touched : n - 2;
    return trimmed_sigma(y, n, out, scratch);
}

double vb_cp_sigma(const double *x, int n)
{
    double *y, s;
    int i;
    if (n < 3) return VB_CP_SIGMA_FLOOR;
    if (!(y = malloc(sizeof *y * (size_t)(4 * n)))) return NAN;
    for (i = 0; i < n; i++)
        y[i] = log(x[i]);
    s = noise(y, n, y + n, y + 2 * n, (char *)(y + 3 * n));
    free(y);
    return s;
}

/* The search's working arrays, one allocation (n + 1 slots each). */
struct pelt {
    double *s1, *s2, *f; /* prefix sums of z and z^2; F(t), the best penalised cost of z[0..t) */
    int *last, *cand, *dead; /* the best last segment's start; the candidates; when one is dead */
};

/* cost is the squared deviation of z[s..t) from its mean, from the prefix sums. */
static double cost(const struct pelt *p, int s, int t)
{
    double a = p->s1[t] - p->s1[s];
    double c = p->s2[t] - p->s2[s] - a * a / (t - s);
    return c > 0 ? c : 0;
}

/* pelt finds the optimal segmentation of z[0..n) under penalty beta per change point with
 * segments of VB_CP_MIN_SEGMENT or more, writing its change points ascending into cp (n slots);
 * returns their count. A candidate start s is dropped once F(s) + C(s, t) > F(t) for some t:
 * from t + VB_CP_MIN_SEGMENT on, starting the last segment at t instead is never worse (a cost
 * only falls when its segment is split), so the result is the exact optimum. */
static int pelt(const double *z, int n, double beta, struct pelt *p, int *cp)
{
    const int m = VB_CP_MIN_SEGMENT;
    int t, k, ncand = 1, ncp = 0;
    p->s1[0] = p->s2[0] = 0;
    for (t = 0; t < n; t++) {
        p->s1[t + 1] = p->s1[t] + z[t];
        p->s2[t + 1] = p->s2[t] + z[t] * z[t];
    }
    p->f[0] = -beta;
    p->cand[0] = 0;
    p->dead[0] = n + 1;
    for (t = 1; t <= n; t++) {
        int best = -1, kept = 0;
        double fbest = INFINITY;
        for (k = 0; k < ncand; k++) {
            int s = p->cand[k];
            double v;
            if (t - s < m) continue;
            v = p->f[s] + cost(p, s, t) + beta;
            if (v < fbest) fbest = v, best = s;
        }
        p->f[t] = fbest;
        p->last[t] = best;
        for (k = 0; k < ncand; k++) { /* prune, keeping the starts in ascending order */
            int s = p->cand[k];
            if (t >= p->dead[s]) continue;
            if (best >= 0 && t - s >= m && p->f[s] + cost(p, s, t) > fbest && p->dead[s] > t + m)
                p->dead[s] = t + m;
            p->cand[kept++] = s;
        }
        ncand = kept;
        if (best >= 0) { /* z[0..t) has a segmentation: t can start the last segment */
            p->cand[ncand++] = t;
            p->dead[t] = n + 1;
        }
    }
    for (t = n; t > 0; t = p->last[t])
        if (p->last[t] > 0) cp[ncp++] = p->last[t];
    for (k = 0; k < ncp / 2; k++) {
        int tmp = cp[k];
        cp[k] = cp[ncp - 1 - k];
        cp[ncp - 1 - k] = tmp;
    }
    return ncp;
}

/* refine runs the search on z[0..n) from noise sigma, then again while the noise left around
 * the segments' means (an estimate from all n values, n - segments degrees of freedom) is
 * larger than the noise it ran with: a first estimate that came out low (few runs) shows there,
 * and too low a noise finds changes in the noise. Returns the change points' count. */
static int refine(const double *z, int n, double sigma, double k, struct pelt *p, int *cp)
{
    int ncp = pelt(z, n, k * sigma * sigma * log((double)n), p, cp), i, j;
    for (i = 0; i < 8; i++) {
        double rss = 0, s;
        for (j = 0; j <= ncp; j++)
            rss += cost(p, j ? cp[j - 1] : 0, j < ncp ? cp[j] : n);
        s = sqrt(rss / (n - ncp - 1));
        if (!(s > sigma * (1 + 1e-9))) break;
        sigma = s;
        ncp = pelt(z, n, k * sigma * sigma * log((double)n), p, cp);
    }
    return ncp;
}

/* seg_median is the median of z[a..b), with scratch (b - a slots). */
static double seg_median(const double *z, int a, int b, double *scratch)
{
    memcpy(scratch, z + a, sizeof *z * (size_t)(b - a));
    vb_stats_sort(scratch, (size_t)(b - a));
    return vb_stats_median_sorted(scratch, (size_t)(b - a));
}

/* merge_small removes, closest pair first, the change points of cp[0..ncp) whose neighbouring
 * segments' medians differ by less than min_change; returns how many are left. z is the cleaned
 * log series (an outlier is no evidence of a level); med has ncp + 1 slots, scratch n. */
static int merge_small(const double *z, int n, double min_change, int *cp, int ncp, double *med,
                       double *scratch)
{
    double limit = log1p(min_change);
    int k;
    if (!(min_change > 0)) return ncp;
    for (k = 0; k <= ncp; k++)
        med[k] = seg_median(z, k ? cp[k - 1] : 0, k < ncp ? cp[k] : n, scratch);
    while (ncp > 0) {
        int j = 0;
        double dj = INFINITY;
        for (k = 0; k < ncp; k++) {
            double d = fabs(med[k + 1] - med[k]);
            if (d < dj) dj = d, j = k;
        }
        if (!(dj < limit)) break;
        /* segments j and j + 1 become one: drop cp[j] and med[j + 1] */
        memmove(cp + j, cp + j + 1, sizeof *cp * (size_t)(ncp - j - 1));
        memmove(med + j + 1, med + j + 2, sizeof *med * (size_t)(ncp - j - 1));
        ncp--;
        med[j] = seg_median(z, j ? cp[j - 1] : 0, j < ncp ? cp[j] : n, scratch);
    }
    return ncp;
}

int vb_changepoints(const double *x, int n, const struct vb_cp_opts *o, int *cp, int cap)
{
    static const struct vb_cp_opts defaults = VB_CP_OPTS_DEFAULT;
    struct pelt p;
    double *y, *z, *scratch, *med, mean = 0, sigma;
    int *ints, *found, i, ncp;
    if (!o) o = &defaults;
    for (i = 0; i < n; i++)
        if (!(x[i] > 0) || !isfinite(x[i])) return VB_CP_EVALUE;
    if (n < 4) return 0;
    y = malloc(sizeof *y * (size_t)(7 * (n + 1)));
    ints = malloc(sizeof *ints * (size_t)(4 * (n + 1)));
    if (!y || !ints) {
        free(y);
        free(ints);
        return VB_CP_ENOMEM;
    }
    z = y + (n + 1);
    scratch = z + (n + 1);
    med = scratch + (n + 1);
    p.s1 = med + (n + 1);
    p.s2 = p.s1 + (n + 1);
    p.f = p.s2 + (n + 1);
    p.last = ints;
    p.cand = ints + (n + 1);
    p.dead = p.cand + (n + 1);
    found = p.dead + (n + 1);
    for (i = 0; i < n; i++)
        mean += (y[i] = log(x[i])) / n;
    for (i = 0; i < n; i++) /* centred: the prefix sums then lose no precision */
        y[i] -= mean;
    sigma = noise(y, n, z, scratch, (char *)med);
    ncp = refine(z, n, sigma, o->penalty, &p, found);
    ncp = merge_small(z, n, o->min_change, found, ncp, med, scratch);
    for (i = 0; i < ncp && i < cap; i++)
        cp[i] = found[i];
    free(y);
    free(ints);
    return ncp;
}

void vb_cp_step(const double *x, int n, const int *cp, int ncp, int k, double *before,
                double *after)
{
    int lo = k ? cp[k - 1] : 0, at = cp[k], hi = k + 1 < ncp ? cp[k + 1] : n;
    *before = vb_stats_median(x + lo, (size_t)(at - lo));
    *after = vb_stats_median(x + at, (size_t)(hi - at));
}
