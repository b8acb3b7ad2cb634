/* compare, merge and export over fixture databases. compare: an injected 10% slowdown of one
 * case is a regression naming it, a 2% change is not; different GPU models are refused unless
 * asked for (the phase rules are in test_compare_phases.c). Merging twice duplicates nothing. */
#include <stdlib.h>
#include <unistd.h>

#include "compare.h"
#include "varbench.h"
#include "fixtures.h"
#include "test.h"
#include "tests.h"

/* run_pair writes base (as above) and a candidate whose case `which` is scaled and has `n`
 * samples, then compares them. */
static int run_pair(int which, double scale, int n, const char *gpu_cand, int across,
                    struct vb_cmp_result *res, struct vb_err *err)
{
    struct fx_case cand[3];
    struct vb_store *b, *c;
    struct vb_cmp_opts o;
    int64_t rb, rc;
    int k, rcode;
    memcpy(cand, fx_mesh_cases, sizeof cand);
    for (k = 0; k < 3; k++)
        cand[k].median_ms *= which < 0 ? scale : 1;
    if (which >= 0) {
        cand[which].median_ms *= scale;
        cand[which].samples = n;
    }
    if (vb_store_open(":memory:", &b, err)) return -1;
    if (vb_store_open(":memory:", &c, err)) return -1;
    if (fx_write_run(b, "NVIDIA H200", fx_mesh_cases, 3, &rb, err) ||
        fx_write_run(c, gpu_cand, cand, 3, &rc, err))
        return -1;
    vb_cmp_opts_default(&o);
    o.across_devices = across;
    rcode = vb_compare_runs(b, 0, c, 0, &o, res, err);
    vb_store_close(b);
    vb_store_close(c);
    return rcode;
}

int test_compare_verdicts(const char *arg)
{
    struct vb_cmp_result res;
    struct vb_err err;
    /* 10% slower on one case: exit 1, that case named slower, the others same */
    ASSERT_OK(run_pair(1, 1.10, 50, "NVIDIA H200", 0, &res, &err));
    ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
    ASSERT_INT_EQ(res.count[VB_VERDICT_SLOWER], 1);
    ASSERT_STR_EQ(res.rows[1].variant, "mesh/device-mesh");
    ASSERT_STR_EQ(vb_verdict_name(res.rows[1].verdict), "slower");
    ASSERT_NEAR(res.rows[1].ratio, 1.10, 0.01);
    ASSERT(res.rows[1].p < 1e-6);
    ASSERT_INT_EQ(res.count[VB_VERDICT_SAME], 2);
    vb_cmp_result_free(&res);
    /* 10% faster is not a regression */
    ASSERT_OK(run_pair(0, 1 / 1.10, 50, "NVIDIA H200", 0, &res, &err));
    ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
    ASSERT_INT_EQ(res.count[VB_VERDICT_FASTER], 1);
    vb_cmp_result_free(&res);
    /* 2% on every case: under the threshold, exit 0 */
    ASSERT_OK(run_pair(-1, 1.02, 50, "NVIDIA H200", 0, &res, &err));
    ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
    ASSERT_INT_EQ(res.count[VB_VERDICT_SAME], 3);
    vb_cmp_result_free(&res);
    /* 3 samples against 50, unchanged: the same (few samples are no change by themselves) */
    ASSERT_OK(run_pair(2, 1.0, 3, "NVIDIA H200", 0, &res, &err));
    ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
    ASSERT_STR_EQ(vb_verdict_name(res.rows[2].verdict), "same");
    ASSERT_INT_EQ(res.rows[2].n_cand, 3);
    vb_cmp_result_free(&res);
    /* 3 samples 10% slower, ranges apart: slower without a rank test */
    ASSERT_OK(run_pair(2, 1.10, 3, "NVIDIA H200", 0, &res, &err));
    ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
    ASSERT_STR_EQ(vb_verdict_name(res.rows[2].verdict), "slower");
    ASSERT(isnan(res.rows[2].p));
    vb_cmp_result_free(&res);
    /* another GPU model: refused, unless it is a hardware comparison */
    ASSERT_INT_EQ(run_pair(1, 1.3, 50, "NVIDIA H100 80GB HBM3", 0, &res, &err), -1);
    ASSERT_CONTAINS(err.msg, "different GPU models");
    ASSERT_CONTAINS(err.hint, "--across-devices");
    ASSERT_OK(run_pair(1, 1.3, 50, "NVIDIA H100 80GB HBM3", 1, &res, &err));
    ASSERT_STR_EQ(res.gpu_cand, "NVIDIA H100 80GB HBM3");
    vb_cmp_result_free(&res);
    return 0;
}

/* The rank test against a value worked by hand: 5 vs 5 fully separated samples give
 * U = 0, z = (12.5 - 0.5) / sqrt(25/12 * 11) = 2.5067, p = erfc(z / sqrt 2) = 0.012186. */
int test_mann_whitney(const char *arg)
{
    const double a[] = {1, 2, 3, 4, 5}, b[] = {6, 7, 8, 9, 10}, c[] = {1, 2, 3, 4, 5};
    ASSERT_NEAR(vb_stats_mann_whitney(a, 5, b, 5), 0.012186, 1e-5);
    ASSERT_NEAR(vb_stats_mann_whitney(b, 5, a, 5), 0.012186, 1e-5);
    ASSERT(vb_stats_mann_whitney(a, 5, c, 5) > 0.9);
    ASSERT(isnan(vb_stats_mann_whitney(a, 0, c, 5)));
    return 0;
}

int test_merge_idempotent(const char *arg)
{
    char pa[512], pb[512], po[512];
    struct vb_store *a, *b, *o;
    struct vb_err err;
    struct vb_run_row *runs;
    int64_t r, cnt, samples_a, samples_b;
    int added, nr;
    fx_tmp_path(pa, sizeof pa, "merge-a.db");
    fx_tmp_path(pb, sizeof pb, "merge-b.db");
    fx_tmp_path(po, sizeof po, "merge-out.db");
    ASSERT_OK(vb_store_open(pa, &a, &err));
    ASSERT_OK(fx_write_run(a, "NVIDIA H200", fx_mesh_cases, 3, &r, &err));
    ASSERT_OK(vb_store_count(a, "samples", 0, &samples_a, &err));
    vb_store_close(a);
    ASSERT_OK(vb_store_open(pb, &b, &err));
    ASSERT_OK(fx_write_run(b, "NVIDIA H100 80GB HBM3", fx_mesh_cases, 2, &r, &err));
    ASSERT_OK(fx_write_run(b, "NVIDIA H100 80GB HBM3", fx_mesh_cases, 1, &r, &err));
    ASSERT_OK(vb_store_count(b, "samples", 0, &samples_b, &err));
    vb_store_close(b);
    ASSERT_OK(vb_store_open(po, &o, &err));
    ASSERT_OK(vb_store_merge(o, pa, &added, NULL, &err));
    ASSERT_INT_EQ(added, 1);
    ASSERT_OK(vb_store_merge(o, pb, &added, NULL, &err));
    ASSERT_INT_EQ(added, 2);
    ASSERT_OK(vb_store_merge(o, pa, &added, NULL, &err)); /* again: nothing new */
    ASSERT_INT_EQ(added, 0);
    ASSERT_OK(vb_store_merge(o, pb, &added, NULL, &err));
    ASSERT_INT_EQ(added, 0);
    ASSERT_OK(vb_store_count(o, "runs", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(o, "cases", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 6);
    ASSERT_OK(vb_store_count(o, "samples", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, samples_a + samples_b);
    ASSERT_OK(vb_store_count(o, "variants", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_runs(o, &runs, &nr, &err));
    ASSERT_STR_EQ(runs[0].gpu, "NVIDIA H200");
    ASSERT_STR_EQ(runs[2].gpu, "NVIDIA H100 80GB HBM3");
    free(runs);
    /* a corrupt input is refused and leaves the output as it was */
    {
        FILE *f = fopen(pa, "wb");
        ASSERT(f);
        fputs("not a database at all, not even close to one; padding padding padding", f);
        fclose(f);
    }
    ASSERT_INT_EQ(vb_store_merge(o, pa, &added, NULL, &err), -1);
    ASSERT_OK(vb_store_count(o, "runs", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    vb_store_close(o);
    unlink(pa);
    unlink(pb);
    unlink(po);
    return 0;
}
