/* History tests: change points of per-run medians (changepoint.h) on seeded series of known
 * truth: no step (none found, outliers included), one step (found at its run), two steps, and
 * the edges (constant, short, invalid, the newest runs); the store's history of a case across
 * runs (store.h); and the 10-run database cli.sh reads. Every series comes from the suite's
 * splitmix64 (vb_data_uniform) through Box-Muller, so a failure is reproducible by its seed. */
#include <stdlib.h>
#include <unistd.h>

#include "changepoint.h"
#include "data.h"
#include "fixtures.h"
#include "test.h"
#include "tests.h"

#define MAX_N 64

static const double noises[] = {0.005, 0.02, 0.05}; /* sigma of log x: 0.5%, 2%, 5% */
static const int lengths[] = {20, 30, 60};

/* gauss returns the i-th standard normal value of stream seed (Box-Muller). */
static double gauss(uint64_t seed, int i)
{
    double u = 1 - vb_data_uniform(seed, 2 * (uint64_t)i, 0, 1); /* (0, 1]: log is finite */
    double v = vb_data_uniform(seed, 2 * (uint64_t)i + 1, 0, 1);
    return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* series fills x[0..n) with a median of 0.171 ms times level(i) times lognormal noise: level is
 * 1, then step1 from run k1 (k1 > 0), then step1 * step2 from run k2 (k2 > 0). */
static void series(uint64_t seed, int n, double noise, int k1, double step1, int k2, double step2,
                   double *x)
{
    int i;
    for (i = 0; i < n; i++) {
        double level = (k1 > 0 && i >= k1 ? step1 : 1) * (k2 > 0 && i >= k2 ? step2 : 1);
        x[i] = 0.171e6 * level * exp(noise * gauss(seed, i));
    }
}

/* outliers makes two isolated runs 3x slower: one in the first half (runs 2 and on), one 3 to
 * n/2 runs later (isolated: normal runs on both sides of each). */
static void outliers(uint64_t seed, int n, double *x)
{
    int a = 2 + (int)vb_data_uniform(seed, 1000, 0, n / 2 - 3);
    int b = a + 3 + (int)vb_data_uniform(seed, 1001, 0, n / 2 - 3);
    x[a] *= 3;
    x[b] *= 3;
}

/* Without an argument: 500 series per noise level, length and outlier choice (9,000 in all),
 * none with a change point. `vbtest changepoint_noise N` runs N per configuration and prints
 * how many had one (changepoint.h quotes N = 10,000). */
int test_changepoint_noise(const char *arg)
{
    const struct vb_cp_opts o = VB_CP_OPTS_DEFAULT;
    int nseeds = arg ? atoi(arg) : 500, a, b, out, s, total = 0;
    double x[MAX_N];
    int cp[MAX_N];
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++)
            for (out = 0; out < 2; out++) {
                int hits = 0, n = lengths[b];
                for (s = 0; s < nseeds; s++) {
                    uint64_t seed = 1000000 * (uint64_t)(1 + a * 6 + b * 2 + out) + (uint64_t)s;
                    int k;
                    series(seed, n, noises[a], 0, 1, 0, 1, x);
                    if (out) outliers(seed, n, x);
                    k = vb_changepoints(x, n, &o, cp, MAX_N);
                    ASSERT(k >= 0);
                    if (k && !arg)
                        TEST_FAIL_("noise %g%%, n %d%s, seed %llu: %d change points, first at %d",
                                   noises[a] * 100, n, out ? ", outliers" : "",
                                   (unsigned long long)seed, k, cp[0]);
                    hits += k > 0;
                }
                if (arg)
                    printf("noise %.1f%% n %d%s: %d of %d series with a change point\n",
                           noises[a] * 100, n, out ? " outliers" : "", hits, nseeds);
                total += hits;
            }
    if (arg) printf("total: %d of %d series\n", total, 18 * nseeds);
    return 0;
}

/* One step of x1.3, x1.85 or x0.7 at run 5, 10 or n - 3, at each noise level and length: 20
 * series each. Exactly one change point, at the step's run; but a x1.3 step under 5% noise is
 * 5.2 sigma: its boundary run lies nearer the other level in about 1% of series, and a newest
 * segment of 3 runs goes unseen in some; there 90% or more exactly, none elsewhere. `vbtest
 * changepoint_steps N` runs N series each and prints the counts instead (changepoint.h quotes
 * N = 2,000). */
int test_changepoint_steps(const char *arg)
{
    static const double steps[] = {1.3, 1.85, 0.7};
    const struct vb_cp_opts o = VB_CP_OPTS_DEFAULT;
    int nseeds = arg ? atoi(arg) : 20, a, b, st, kk, s, hard = 0, hard_exact = 0;
    double x[MAX_N];
    int cp[MAX_N];
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++)
            for (st = 0; st < 3; st++)
                for (kk = 0; kk < 3; kk++) {
                    int n = lengths[b], k = kk == 0 ? 5 : kk == 1 ? 10 : n - 3;
                    int is_hard = st == 0 && a == 2, exact = 0, near = 0, none = 0, more = 0;
                    for (s = 0; s < nseeds; s++) {
                        uint64_t seed = 100000 * (uint64_t)(1 + ((a * 3 + b) * 3 + st) * 3 + kk) +
                                        (uint64_t)s + 50000000;
                        int found;
                        series(seed, n, noises[a], k, steps[st], 0, 1, x);
                        found = vb_changepoints(x, n, &o, cp, MAX_N);
                        exact += found == 1 && cp[0] == k;
                        near += found == 1 && abs(cp[0] - k) == 1;
                        none += found == 0;
                        more += found > 1 || (found == 1 && abs(cp[0] - k) > 1);
                        if (arg || (is_hard && found <= 1 && (!found || abs(cp[0] - k) <= 1)) ||
                            (found == 1 && cp[0] == k))
                            continue;
                        TEST_FAIL_("x%.2f at %d, noise %g%%, n %d, seed %llu: %d change points, "
                                   "first at %d",
                                   steps[st], k, noises[a] * 100, n, (unsigned long long)seed,
                                   found, found ? cp[0] : -1);
                    }
                    if (arg && exact < nseeds)
                        printf("x%.2f at %d, noise %.1f%%, n %d: %d exact, %d one run off, %d "
                               "none, %d other, of %d\n",
                               steps[st], k, noises[a] * 100, n, exact, near, none, more, nseeds);
                    if (is_hard) hard += nseeds, hard_exact += exact;
                }
    if (arg) printf("x1.3 at 5%% noise: %d of %d exactly at the step\n", hard_exact, hard);
    ASSERT(hard_exact >= 0.9 * hard);
    return 0;
}

/* Two steps (x1.5 at run 8, then x0.6 of that at run 20 of 30; at runs 10 and 40 of 60): both
 * found at their runs, at every noise level, 20 series each. */
int test_changepoint_two_steps(const char *arg)
{
    const struct vb_cp_opts o = VB_CP_OPTS_DEFAULT;
    int a, b, s;
    double x[MAX_N];
    int cp[MAX_N];
    for (a = 0; a < 3; a++)
        for (b = 1; b < 3; b++)
            for (s = 0; s < 20; s++) {
                int n = lengths[b], k1 = n == 30 ? 8 : 10, k2 = n == 30 ? 20 : 40, found;
                uint64_t seed = 90000000 + 1000 * (uint64_t)(a * 3 + b) + (uint64_t)s;
                series(seed, n, noises[a], k1, 1.5, k2, 0.6, x);
                found = vb_changepoints(x, n, &o, cp, MAX_N);
                if (found != 2 || cp[0] != k1 || cp[1] != k2)
                    TEST_FAIL_("steps at %d and %d, noise %g%%, n %d, seed %llu: %d change "
                               "points (%d, %d)",
                               k1, k2, noises[a] * 100, n, (unsigned long long)seed, found,
                               found > 0 ? cp[0] : -1, found > 1 ? cp[1] : -1);
            }
    return 0;
}

/* The edges: identical medians, too few runs, values that are no medians, the cap, and the
 * newest runs (one slow newest run is an outlier; two are a change). */
int test_changepoint_edges(const char *arg)
{
    const struct vb_cp_opts o = VB_CP_OPTS_DEFAULT;
    struct vb_cp_opts loose = VB_CP_OPTS_DEFAULT;
    double x[MAX_N];
    int cp[MAX_N], i;
    /* (d) constant: no change, the noise at its floor */
    for (i = 0; i < 30; i++)
        x[i] = 0.171e6;
    ASSERT_INT_EQ(vb_changepoints(x, 30, &o, cp, MAX_N), 0);
    ASSERT_NEAR(vb_cp_sigma(x, 30), VB_CP_SIGMA_FLOOR, 1e-15);
    /* a 1% step between identical medians: found by the search, dropped under min change */
    for (i = 15; i < 30; i++)
        x[i] = 0.171e6 * 1.01;
    ASSERT_INT_EQ(vb_changepoints(x, 30, &o, cp, MAX_N), 0);
    loose.min_change = 0.005;
    ASSERT_INT_EQ(vb_changepoints(x, 30, &loose, cp, MAX_N), 1);
    ASSERT_INT_EQ(cp[0], 15);
    loose.min_change = 0; /* none: every change the search finds */
    ASSERT_INT_EQ(vb_changepoints(x, 30, &loose, cp, MAX_N), 1);
    /* fewer than 4 runs: none, whatever they hold */
    x[0] = 1, x[1] = 1, x[2] = 100;
    ASSERT_INT_EQ(vb_changepoints(x, 3, &o, cp, MAX_N), 0);
    ASSERT_INT_EQ(vb_changepoints(x, 0, &o, cp, MAX_N), 0);
    /* not a median: refused */
    series(7, 20, 0.02, 0, 1, 0, 1, x);
    x[4] = 0;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), -1);
    x[4] = NAN;
    ASSERT_INT_EQ(vb_changepoints(x, 20, NULL, cp, MAX_N), -1);
    x[4] = INFINITY;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), -1);
    /* the count beyond the cap, the cap respected; NULL options are the defaults */
    series(8, 30, 0.005, 8, 1.5, 20, 0.6, x);
    cp[1] = -7;
    ASSERT_INT_EQ(vb_changepoints(x, 30, NULL, cp, 1), 2);
    ASSERT_INT_EQ(cp[0], 8);
    ASSERT_INT_EQ(cp[1], -7);
    ASSERT_INT_EQ(vb_changepoints(x, 30, &o, NULL, 0), 2);
    /* the newest run alone 3x slower: an outlier, no change; the newest two 1.85x: a change at
     * the first of them (a segment has 2 runs at least); likewise the oldest */
    series(9, 20, 0.02, 0, 1, 0, 1, x);
    x[19] *= 3;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), 0);
    x[19] /= 3;
    x[18] *= 1.85, x[19] *= 1.85;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), 1);
    ASSERT_INT_EQ(cp[0], 18);
    series(9, 20, 0.02, 0, 1, 0, 1, x);
    x[0] *= 3;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), 0);
    x[0] /= 3;
    x[0] /= 1.85, x[1] /= 1.85;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), 1);
    ASSERT_INT_EQ(cp[0], 2);
    /* two outliers one run apart are two outliers, not a segment */
    series(10, 30, 0.02, 0, 1, 0, 1, x);
    x[10] *= 3, x[12] *= 3;
    ASSERT_INT_EQ(vb_changepoints(x, 30, &o, cp, MAX_N), 0);
    /* a 2% noise estimate from 60 runs is 2% within a fifth */
    series(11, 60, 0.02, 0, 1, 0, 1, x);
    ASSERT_NEAR(vb_cp_sigma(x, 60), 0.02, 0.004);
    return 0;
}
