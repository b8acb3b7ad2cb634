/* compare with a pooled baseline (--baseline-runs): the base side of a case concatenates the
 * samples of the base run and of the complete runs before it on its GPU model, so a lucky base
 * run (10% fast) no longer makes a candidate at the usual level slower. */
#include <stdlib.h>

#include "compare.h"
#include "fixtures.h"
#include "test.h"
#include "tests.h"

/* The base database: runs 1, 3 and 4 on an H200 (device-mesh's median 0.6 ms, 0.6, then 0.54:
 * the newest was lucky), run 2 on an H100 (not pooled with them); device-mesh-pinned wrong in
 * run 3 (not pooled). 50 samples a case, +-1% around its median. */
static int write_base(struct vb_store *s, struct vb_err *err)
{
    static const struct {
        const char *gpu;
        double ms;
        const char *pinned;
    } runs[] = {{"NVIDIA H200", 0.6, "ok"},
                {"NVIDIA H100 80GB HBM3", 0.6, "ok"},
                {"NVIDIA H200", 0.6, "wrong-result"},
                {"NVIDIA H200", 0.54, "ok"}};
    size_t i;
    int64_t r;
    for (i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        struct fx_case c[2] = {{"device-mesh", 1000, 50, runs[i].ms, "ok"},
                               {"device-mesh-pinned", 1000, 50, 0.18, runs[i].pinned}};
        if (fx_write_run(s, runs[i].gpu, c, 2, &r, err)) return -1;
    }
    return 0;
}

int test_compare_pooled(const char *arg)
{
    const struct fx_case cand[2] = {{"device-mesh", 1000, 50, 0.6, "ok"},
                                    {"device-mesh-pinned", 1000, 50, 0.18, "ok"}};
    struct vb_store *b, *c;
    struct vb_cmp_result res;
    struct vb_cmp_opts o;
    struct vb_err err;
    int64_t r;
    ASSERT_OK(vb_store_open(":memory:", &b, &err));
    ASSERT_OK(vb_store_open(":memory:", &c, &err));
    ASSERT_OK(write_base(b, &err));
    ASSERT_OK(fx_write_run(c, "NVIDIA H200", cand, 2, &r, &err));
    vb_cmp_opts_default(&o);
    ASSERT_INT_EQ(o.baseline_runs, 1);
    /* the newest base run alone: the usual level looks 11% slower */
    ASSERT_OK(vb_compare_runs(b, 0, c, 0, &o, &res, &err));
    ASSERT_INT_EQ(res.run_base, 4);
    ASSERT_INT_EQ(res.npool, 1);
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "slower");
    ASSERT_NEAR(res.rows[0].ratio, 0.6 / 0.54, 0.005);
    ASSERT_INT_EQ(res.rows[0].n_base, 50);
    ASSERT_INT_EQ(res.rows[0].n_cand, 50);
    ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
    vb_cmp_result_free(&res);
    /* pooled over 3 runs: runs 4, 3 and 1 (run 2 is another GPU model), 150 base samples, the
     * same; the pinned case has 100 (wrong in run 3) */
    o.baseline_runs = 3;
    ASSERT_OK(vb_compare_runs(b, 0, c, 0, &o, &res, &err));
    ASSERT_INT_EQ(res.npool, 3);
    ASSERT_INT_EQ(res.pool[0], 4);
    ASSERT_INT_EQ(res.pool[1], 3);
    ASSERT_INT_EQ(res.pool[2], 1);
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same");
    ASSERT_INT_EQ(res.rows[0].n_base, 150);
    ASSERT_INT_EQ(res.rows[0].n_cand, 50);
    ASSERT_NEAR(res.rows[0].med_base, 0.6e6 / 2, 0.01 * 0.6e6 / 2); /* gpu: half the e2e */
    ASSERT_STR_EQ(res.rows[1].variant, "mesh/device-mesh-pinned");
    ASSERT_INT_EQ(res.rows[1].n_base, 100);
    ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
    vb_cmp_result_free(&res);
    /* more than there are: the 3 H200 runs */
    o.baseline_runs = 5;
    ASSERT_OK(vb_compare_runs(b, 0, c, 0, &o, &res, &err));
    ASSERT_INT_EQ(res.npool, 3);
    ASSERT_INT_EQ(res.rows[0].n_base, 150);
    vb_cmp_result_free(&res);
    /* from a named base run: it and the run before it on its GPU model */
    o.baseline_runs = 2;
    ASSERT_OK(vb_compare_runs(b, 3, c, 0, &o, &res, &err));
    ASSERT_INT_EQ(res.npool, 2);
    ASSERT_INT_EQ(res.pool[1], 1);
    ASSERT_INT_EQ(res.rows[0].n_base, 100);
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same");
    ASSERT_STR_EQ(vb_verdict_name(res.rows[1].verdict), "not-compared"); /* wrong in run 3 */
    vb_cmp_result_free(&res);
    /* out of range: refused as usage */
    o.baseline_runs = 0;
    ASSERT_INT_EQ(vb_compare_runs(b, 0, c, 0, &o, &res, &err), -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    o.baseline_runs = VB_CMP_MAX_POOL + 1;
    ASSERT_INT_EQ(vb_compare_runs(b, 0, c, 0, &o, &res, &err), -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    vb_store_close(b);
    vb_store_close(c);
    return 0;
}
