/* Tests of suite/crossover.c: where the GPU starts to beat the CPU reference on a sweep. */
#include <math.h>

#include "crossover.h"
#include "test.h"
#include "tests.h"

int test_crossover(const char *arg)
{
    /* calx on the lent H100 (2026-11-25, default run): the CPU reference's e2e and the best GPU
     * rung's (tiled-pinned) at model_size 960 .. 10^7, in us */
    static const struct vb_cross_point calx[] = {{960, 15.6, 33.4},
                                                 {1e4, 167.3, 48.2},
                                                 {1e5, 3136.7, 73.6},
                                                 {1e6, 17032.0, 342.4},
                                                 {1e7, 171890.6, 3049.4}};
    /* mesh there: the GPU wins at both sizes */
    static const struct vb_cross_point mesh[] = {{1000, 27553.9, 182.2}, {4000, 454923.1, 2402.3}};
    struct vb_cross_point p[4];
    struct vb_crossover c;
    (void)arg;
    /* ln(33.4/15.6) / (ln(33.4/15.6) - ln(48.2/167.3)) = 0.37956 of the way from ln 960 to
     * ln 10^4: 2336.46 */
    vb_crossover_find(calx, 5, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_AT);
    ASSERT_NEAR(c.at, 2336.46, 0.01);
    ASSERT_NEAR(c.lo, 960, 0);
    ASSERT_NEAR(c.hi, 1e4, 0);
    vb_crossover_find(mesh, 2, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_ALWAYS);
    ASSERT_NEAR(c.lo, 1000, 0);
    ASSERT_NEAR(c.hi, 4000, 0);
    /* the GPU slower everywhere: never, up to the largest size */
    p[0] = (struct vb_cross_point){10, 1, 5};
    p[1] = (struct vb_cross_point){100, 2, 5};
    vb_crossover_find(p, 2, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_NEVER);
    ASSERT_NEAR(c.hi, 100, 0);
    /* a tie loses: the crossover is at it (ratio 1); mirrored ratios cross half-way in log size */
    p[0] = (struct vb_cross_point){10, 4, 4};
    p[1] = (struct vb_cross_point){1000, 4, 1};
    vb_crossover_find(p, 2, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_AT);
    ASSERT_NEAR(c.at, 10, 1e-9);
    p[0] = (struct vb_cross_point){10, 1, 2};
    p[1] = (struct vb_cross_point){1000, 2, 1};
    vb_crossover_find(p, 2, &c);
    ASSERT_NEAR(c.at, 100, 1e-9);
    /* wins, loses, wins: the last change counts; a point without a time is left out */
    p[0] = (struct vb_cross_point){10, 2, 1};
    p[1] = (struct vb_cross_point){100, 1, 2};
    p[2] = (struct vb_cross_point){1000, NAN, 1};
    p[3] = (struct vb_cross_point){10000, 2, 1};
    vb_crossover_find(p, 4, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_AT);
    ASSERT_NEAR(c.lo, 100, 0);
    ASSERT_NEAR(c.hi, 10000, 0);
    ASSERT_NEAR(c.at, 1000, 1e-9);
    /* nothing usable */
    vb_crossover_find(p + 2, 1, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_UNKNOWN);
    vb_crossover_find(p, 0, &c);
    ASSERT_INT_EQ(c.kind, VB_CROSS_UNKNOWN);
    return 0;
}
