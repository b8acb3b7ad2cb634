/* Tests of suite/judge/paired.c (varbench ab's verdict on paired rounds) and the two tests it
 * stands on, vb_stats_signed_rank and vb_stats_sign_ci (suite/base/stats.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "paired.h"
#include "stats.h"
#include "test.h"
#include "tests.h"

/* rounds fills a[i], b[i] (ns) for n rounds: a at base with a drift shared by both sides of a
 * round (what pairing cancels) and each side's own jitter of +-jit, b at ratio times a */
static void rounds(double *a, double *b, int n, double base, double ratio, double drift, double jit)
{
    int i;
    for (i = 0; i < n; i++) {
        double d = 1 + drift * sin(1.7 * i), ja = jit * sin(2.3 * i + 1), jb = jit * cos(3.1 * i);
        a[i] = base * d * (1 + ja);
        b[i] = base * ratio * d * (1 + jb);
    }
}

int test_paired(const char *arg)
{
    static const double six[] = {1, 2, 3, 4, 5, 6}, mixed[] = {-1, 2, 3, -4, 5, 6},
                        half[] = {0.5, -1.5, 2.5, 3.5, -4.5, 5.5, 6.5, 7.5}, zeros[] = {0, 0, 0};
    double x[20], a[40], b[40], lo, hi;
    struct vb_paired r;
    int i;
    (void)arg;
    /* exact signed-rank p-values, checked by enumerating the 2^n sign patterns: every one of 6
     * positive, 2/64; W+ = 16 of 21, 20/64; W+ = 29 of 36, 38/256 */
    ASSERT_NEAR(vb_stats_signed_rank(six, 6), 0.03125, 1e-12);
    ASSERT_NEAR(vb_stats_signed_rank(mixed, 6), 0.3125, 1e-12);
    ASSERT_NEAR(vb_stats_signed_rank(half, 8), 0.1484375, 1e-12);
    ASSERT_NEAR(vb_stats_signed_rank(zeros, 3), 1.0, 0);
    ASSERT(isnan(vb_stats_signed_rank(six, 0)));
    /* the sign test's interval: 6 values at alpha 0.05 hold the median between the extremes
     * (2/64 <= 0.05); 5 do not (2/32 > 0.05); of 20, x(6) and x(15) (P(X <= 5) = 0.0207 <= 0.025,
     * P(X <= 6) = 0.0577) */
    ASSERT_INT_EQ(vb_stats_sign_ci(mixed, 6, 0.05, &lo, &hi), 0);
    ASSERT_NEAR(lo, -4, 0);
    ASSERT_NEAR(hi, 6, 0);
    ASSERT_INT_EQ(vb_stats_sign_ci(mixed, 5, 0.05, &lo, &hi), -1);
    ASSERT(isinf(lo) && isinf(hi));
    for (i = 0; i < 20; i++)
        x[i] = 19 - i; /* 19 .. 0: sorted, x(6) = 5 and x(15) = 14 */
    ASSERT_INT_EQ(vb_stats_sign_ci(x, 20, 0.05, &lo, &hi), 0);
    ASSERT_NEAR(lo, 5, 0);
    ASSERT_NEAR(hi, 14, 0);
    /* a kernel (100 us) slowed 5%, rounds drifting +-10% together (a clock), each side's own
     * jitter 0.3%: slower at a 2% limit after 6 rounds, the estimate 1.05 */
    rounds(a, b, 6, 100e3, 1.05, 0.10, 0.003);
    ASSERT_INT_EQ(vb_paired_judge(a, b, 6, 0.02, 500, 0.05, &r), 0);
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_SLOWER);
    ASSERT_NEAR(r.ratio, 1.05, 0.005);
    ASSERT(r.lo > 1.02 && r.hi < 1.08);
    /* the same drift with no change: same; with 5 rounds no interval yet: noisy */
    rounds(a, b, 6, 100e3, 1.0, 0.10, 0.003);
    ASSERT_INT_EQ(vb_paired_judge(a, b, 6, 0.02, 500, 0.05, &r), 0);
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_SAME);
    ASSERT_INT_EQ(vb_paired_judge(a, b, 5, 0.02, 500, 0.05, &r), 0);
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_NOISY);
    /* a pageable copy (3 ms), +-40% drift and +-15% jitter a side, unchanged: same at a 25% limit
     * after 20 rounds, undecided (noisy) at 2% */
    rounds(a, b, 20, 3e6, 1.0, 0.40, 0.15);
    ASSERT_INT_EQ(vb_paired_judge(a, b, 20, 0.25, 500, 0.05, &r), 0);
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_SAME);
    ASSERT_INT_EQ(vb_paired_judge(a, b, 20, 0.02, 500, 0.05, &r), 0);
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_NOISY);
    /* faster: b at 0.8 of a */
    rounds(a, b, 8, 50e3, 0.8, 0.05, 0.01);
    ASSERT_INT_EQ(vb_paired_judge(a, b, 8, 0.02, 500, 0.05, &r), 0);
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_FASTER);
    /* a 2 us kernel moved 0.2 us (10%): under the 0.5 us floor, same */
    rounds(a, b, 8, 2e3, 1.1, 0.0, 0.001);
    ASSERT_INT_EQ(vb_paired_judge(a, b, 8, 0.02, 500, 0.05, &r), 0);
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_SAME);
    /* a pair with an unknown side is left out: 6 of 7 judged */
    rounds(a, b, 7, 100e3, 1.05, 0.0, 0.001);
    b[3] = NAN;
    ASSERT_INT_EQ(vb_paired_judge(a, b, 7, 0.02, 500, 0.05, &r), 0);
    ASSERT_INT_EQ(r.n, 6);
    ASSERT_INT_EQ(r.verdict, VB_VERDICT_SLOWER);
    return 0;
}
