/* gufunc: the seed's printed tables reproduced by the shared row functions, and the family's
 * tolerance checked against the float32 instantiation of the same code on the CPU. */
#include <stdlib.h>

#include "fixtures.h"
#include "gufunc_math.h"
#include "registry.h"
#include "runner.h"
#include "test.h"
#include "tests.h"

/* seed 000, t2.py output: rows for x = 1..4, cols = 4 */
int test_gufunc_seed_powsum(const char *arg)
{
    static const float want[4][4] = {
        {1, 2, 3, 4}, {2, 6, 14, 30}, {3, 12, 39, 120}, {4, 20, 84, 340}};
    float out[4];
    int x, i;
    for (x = 1; x <= 4; x++) {
        vb_powsum_f((float)x, 4, out, 1);
        for (i = 0; i < 4; i++)
            ASSERT_NEAR(out[i], want[x - 1][i], 0);
    }
    return 0;
}

/* seed 000, t3.py "gpu result": the 5 x 4 Hermite table for x = 0..4 (float32, as printed) */
int test_gufunc_seed_hermite(const char *arg)
{
    static const double want[5][4] = {{1, 0, -0.70710677, -0.0},
                                      {1, 1, 0, -0.8164966},
                                      {1, 2, 2.1213202, 0.8164966},
                                      {1, 3, 5.656854, 7.3484693},
                                      {1, 4, 10.606602, 21.22891}};
    float f[4];
    double d[4];
    int x, i;
    for (x = 0; x <= 4; x++) {
        vb_hermite_f((float)x, 4, f, 1);
        vb_hermite_d((double)x, 4, d, 1);
        for (i = 0; i < 4; i++) {
            ASSERT_NEAR(f[i], want[x][i], 1e-6 * (1 + fabs(want[x][i])));
            ASSERT_NEAR(d[i], want[x][i], 1e-6 * (1 + fabs(want[x][i])));
        }
    }
    /* the column stride walks a transposed layout */
    vb_hermite_d(2.0, 4, d, 1);
    {
        double t[8] = {0};
        vb_hermite_d(2.0, 4, t, 2);
        for (i = 0; i < 4; i++)
            ASSERT_NEAR(t[2 * i], d[i], 0);
    }
    return 0;
}

/* float32 arithmetic (what the kernels do) stays within the problem's tolerance of the double
 * reference over the input range and every cols up to 64, for both functions. */
int test_gufunc_float_within_tolerance(const char *arg)
{
    const struct vb_problem *pb = fx_problem("gufunc", NULL);
    float fo[64];
    double got[64], ref[64], ma, mr, worst = 0;
    int i, func, cols, k;
    ASSERT(pb);
    for (func = 0; func < 2; func++)
        for (cols = 2; cols <= 64; cols *= 2)
            for (k = 0; k <= 3000; k++) {
                float x = (float)(-1.5 + 3.0 * k / 3000.0);
                if (func == VB_GUFUNC_POWSUM) {
                    vb_powsum_f(x, cols, fo, 1);
                    vb_powsum_d(x, cols, ref, 1);
                } else {
                    vb_hermite_f(x, cols, fo, 1);
                    vb_hermite_d(x, cols, ref, 1);
                }
                for (i = 0; i < cols; i++)
                    got[i] = fo[i];
                if (vb_compare(got, ref, (size_t)cols, pb->atol, pb->rtol, &ma, &mr))
                    TEST_FAIL_("func %d cols %d x %.9g: max abs %g rel %g", func, cols, x, ma, mr);
                if (mr > worst) worst = mr;
            }
    printf("worst relative error of float32 over the range: %g (rtol %g)\n", worst, pb->rtol);
    return 0;
}
