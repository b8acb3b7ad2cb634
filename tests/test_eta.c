/* The time-left estimate (no GPU): a family not yet reached is priced by its own calibrated
 * reference, not by the cases so far; GPU cases by their group; the CPU sampling rule. */
#include <math.h>

#include "eta.h"
#include "test.h"
#include "tests.h"

/* The default sampling's CPU rule: 3 samples, 0.2 s, past 1 s only to reach 3, 20 s cap. */
static const struct vb_eta_rule rule = {3, 10000, 0.2, 1.0, 20.0};

/* what a CPU case of n elements at `ns` per element costs in this test's world */
static double truth(const struct vb_eta *e, double ns, double n)
{
    return 0.05 + vb_eta_samples_time(e, ns * 1e-9 * n) + 30e-9 * n;
}

int test_eta(const char *arg)
{
    struct vb_eta e = {0};
    double left, real = 0;
    int i;
    (void)arg;
    e.rule = rule;
    /* the rule: a 1 ms sample runs 200 times after its verified one; a 1 s one 3 times; a
     * 30 s one once (the cap); --quick (no minimum) a 2 s one not at all (skipped) */
    ASSERT_NEAR(vb_eta_samples_time(&e, 0.001), 201 * 0.001, 1e-9);
    ASSERT_NEAR(vb_eta_samples_time(&e, 1.0), 4.0, 1e-9);
    ASSERT_NEAR(vb_eta_samples_time(&e, 30.0), 60.0, 1e-9);
    e.rule.min_samples = 0;
    ASSERT_NEAR(vb_eta_samples_time(&e, 2.0), 0.0, 1e-9);
    ASSERT_NEAR(vb_eta_samples_time(&e, 0.001), 201 * 0.001, 1e-9);
    e.rule = rule;

    /* the plan: group 0, a cheap reference (10 ns an element) at 1e4..1e7, each with two GPU
     * cases skipped (no device: nothing); then group 1, an expensive one (120 ns) at 1e6..1e8 */
    for (i = 4; i <= 7; i++) {
        ASSERT(vb_eta_add(&e, 0, 0, pow(10, i), 10e-9 * pow(10, i)) == 0);
        ASSERT(vb_eta_add(&e, 0, 1, pow(10, i), 0) == 0);
        ASSERT(vb_eta_add(&e, 0, 1, pow(10, i), 0) == 0);
    }
    for (i = 6; i <= 8; i++)
        ASSERT(vb_eta_add(&e, 1, 0, pow(10, i), 120e-9 * pow(10, i)) == 0);
    ASSERT_INT_EQ(e.n, 15);
    ASSERT(vb_eta_left(&e, 0, 0) < 0); /* nothing done: nothing known */

    /* group 0 done: what is left is group 1, which the cases so far say nothing about but its
     * calibration does; the old rule (elapsed over cases) would say about 1.6 s */
    for (i = 0; i < 12; i++)
        vb_eta_done(&e, i, e.c[i].gpu ? 0 : truth(&e, 10, e.c[i].work));
    for (i = 12; i < 15; i++)
        real += truth(&e, 120, e.c[i].work);
    left = vb_eta_left(&e, 12, 0);
    printf("eta: group 1 estimated %.2f s, takes %.2f s\n", left, real);
    ASSERT(left > real / 1.25 && left < real * 1.25);
    /* the running case's elapsed time comes off its own estimate */
    ASSERT_NEAR(vb_eta_left(&e, 12, 0.01), left - 0.01, 1e-9);

    /* GPU cases of one group: linear in their elements once two are done */
    vb_eta_free(&e);
    e.rule = rule;
    for (i = 0; i < 3; i++)
        ASSERT(vb_eta_add(&e, 2, 1, 1e6 * (i + 1), 0) == 0);
    vb_eta_done(&e, 0, 0.5 + 1e-7 * 1e6);
    vb_eta_done(&e, 1, 0.5 + 1e-7 * 2e6);
    ASSERT_NEAR(vb_eta_case_estimate(&e, 2), 0.5 + 1e-7 * 3e6, 1e-6);
    vb_eta_free(&e);
    return 0;
}
