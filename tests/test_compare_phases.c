/* compare's phase rules over fixture databases written through the store: each phase judged
 * against its own noise (GPU time, H2D, kernel, D2H, memset, and the host's e2e), few samples,
 * throttled clocks, incomplete runs, and a run with nothing to compare. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "varbench.h"
#include "fixtures.h"
#include "stats.h"
#include "test.h"
#include "tests.h"

/* Phase fixtures: cases whose samples carry per-phase GPU times, written through the store. */
enum { P_H2D, P_KERNEL, P_D2H, P_MEMSET, P_HOST, P_COUNT };

/* One case: mesh/<variant> at nx = ny = 1000 with n timed samples. Each phase's samples are
 * spread uniformly over median x (1 +- spread) (IQR/median = spread), or follow mult[0..n)
 * when given. e2e is the sum of the phases, P_HOST being the host's own time. */
struct ph_case {
    const char *variant, *status;
    int n;
    double ms[P_COUNT];     /* medians (ms); 0: no such phase */
    double spread[P_COUNT]; /* relative half-widths */
    const double *mult;     /* n multipliers of every phase instead of the spreads */
    int dropped;            /* the last `dropped` samples were dropped for a low SM clock */
    int no_records;         /* a GPU case without CUPTI records */
    /* the host: its copies (H2D, D2H) and its own share (P_HOST) take `host` times as long (0:
     * 1); with controls, each sample has them (control.h), moving with it: the chain 20 us, the
     * walk 200 us, each copy's the size of the base's (ctl_ms: its time, 0: ms's) */
    double host;
    int controls;
    double ctl_ms[2];
};

static int stats_of(double (*x)[P_COUNT + 2], int n, int col, struct vb_stats *st)
{
    double v[256];
    int k;
    for (k = 0; k < n; k++)
        v[k] = x[k][col];
    return vb_stats_compute(v, (size_t)n, st);
}

/* put_case writes c into run; seed picks the samples' noise (another seed: other samples). */
static int put_case(struct vb_store *s, int64_t run, const struct ph_case *c, uint64_t seed,
                    struct vb_err *err)
{
    struct vb_case_result r;
    struct vb_sample smp[256];
    double ms[256][P_COUNT + 2]; /* the phases, then gpu and e2e, of the samples kept */
    char full[128];
    int k, j, kept = 0, gpu;
    memset(&r, 0, sizeof r);
    memset(smp, 0, sizeof smp);
    snprintf(full, sizeof full, "mesh/%s", c->variant);
    if (c->n > 256 || fx_variant(full, &r.family, &r.variant))
        return vb_err_set(err, VB_E_USAGE, "fixture: bad case '%s'", c->variant);
    gpu = (r.variant->flags & VB_GPU) != 0;
    r.point.v[0] = r.point.v[1] = 1000;
    vb_point_format(r.variant->problem, &r.point, r.axes, sizeof r.axes);
    r.device = gpu ? 0 : -1;
    for (k = 0; k < VB_STATUS_COUNT; k++)
        if (!strcmp(vb_status_name((enum vb_status)k), c->status)) r.status = (enum vb_status)k;
    r.max_abs_err = r.max_rel_err = 0;
    r.stop_reason = "converged";
    r.have_records = gpu && !c->no_records;
    r.cold = 1;
    r.samples = smp;
    r.nsamples = r.ntimed = c->n;
    r.dropped = c->dropped;
    r.gpu_ci_pct = 0.5;
    r.clock_min_mhz = c->dropped ? 1200 : 1980;
    r.clock_median_mhz = 1980;
    r.gst_efficiency = NAN;
    for (k = 0; k < c->n; k++) {
        struct vb_sample *x = &smp[k];
        double v[P_COUNT], e2e = 0, hf = c->host > 0 ? c->host : 1;
        for (j = 0; j < P_COUNT; j++) {
            double u = c->mult ? c->mult[k] - 1
                               : c->spread[j] *
                                     vb_data_uniform(seed * 131 + (uint64_t)j, (uint64_t)k, -1, 1);
            v[j] = c->ms[j] * (1 + u) * 1e6 * (j == P_H2D || j == P_D2H || j == P_HOST ? hf : 1);
            e2e += v[j];
        }
        if (c->controls) { /* 1% noise of their own */
            double u = 0.01 * vb_data_uniform(seed * 131 + 99, (uint64_t)k, -1, 1);
            x->ctl[VB_CTL_CPU] = 20e3 * hf * (1 + u);
            x->ctl[VB_CTL_MEM] = 200e3 * hf * (1 + u);
            for (j = 0; j < 2; j++) {
                double ms_ = c->ctl_ms[j] > 0 ? c->ctl_ms[j] : c->ms[j ? P_D2H : P_H2D];
                x->ctl[j ? VB_CTL_D2H : VB_CTL_H2D] = ms_ * 1e6 * hf * (1 + u);
            }
        }
        x->kind = VB_SAMPLE_TIMED;
        x->start = 10000000 * (uint64_t)(k + 1);
        x->end = x->start + (uint64_t)e2e;
        x->e2e_ns = e2e;
        x->h2d_ns = v[P_H2D];
        x->kernel_ns = v[P_KERNEL];
        x->d2h_ns = v[P_D2H];
        x->memset_ns = v[P_MEMSET];
        x->gpu_ns = v[P_H2D] + v[P_KERNEL] + v[P_D2H] + v[P_MEMSET];
        x->kernel_count = c->ms[P_KERNEL] > 0;
        x->h2d_count = c->ms[P_H2D] > 0;
        x->d2h_count = c->ms[P_D2H] > 0;
        x->memset_count = c->ms[P_MEMSET] > 0;
        x->dropped = k >= c->n - c->dropped;
        x->sm_clock_mhz = x->dropped ? 1200 : 1980;
        if (x->dropped) continue;
        for (j = 0; j < P_COUNT; j++)
            ms[kept][j] = v[j] / 1e6;
        ms[kept][P_COUNT] = x->gpu_ns / 1e6;
        ms[kept][P_COUNT + 1] = e2e / 1e6;
        kept++;
    }
    stats_of(ms, kept, P_H2D, &r.h2d_ms);
    stats_of(ms, kept, P_KERNEL, &r.kernel_ms);
    stats_of(ms, kept, P_D2H, &r.d2h_ms);
    stats_of(ms, kept, P_MEMSET, &r.memset_ms);
    stats_of(ms, kept, P_COUNT, &r.gpu_ms);
    stats_of(ms, kept, P_COUNT + 1, &r.e2e_ms);
    return vb_store_case(s, run, &r, NULL, err);
}

/* put_run writes a run on an H200 with the cases and ends it with status (NULL: left
 * 'running', as a killed run leaves it). */
static int put_run(struct vb_store *s, const struct ph_case *cases, int n, uint64_t seed,
                   const char *status, int64_t *run, struct vb_err *err)
{
    struct vb_run_info info = {"suite", "phase fixture", NULL, "fixture", "0", ""};
    struct vb_host_env host = {"fixture-host", "Debian", "Linux", "Fixture CPU", 4, 1 << 30};
    struct vb_gpu_env g;
    int i;
    vb_env_gpu_clear(&g);
    snprintf(g.name, sizeof g.name, "NVIDIA H200");
    if (vb_store_run_begin(s, &info, run, err) || vb_store_host(s, *run, &host, err) ||
        vb_store_gpu(s, *run, &g, err))
        return -1;
    for (i = 0; i < n; i++)
        if (put_case(s, *run, &cases[i], seed + (uint64_t)i, err)) return -1;
    return status ? vb_store_run_end(s, *run, status, 0, "fixture", err) : 0;
}

/* compare_cases writes base and cand (one case each, or n) to two databases with other noise
 * and compares them under metric; 0 or -1. */
static int compare_cases(const struct ph_case *base, const struct ph_case *cand, int n,
                         const char *metric, struct vb_cmp_result *res, struct vb_err *err)
{
    struct vb_store *b = NULL, *c = NULL;
    struct vb_cmp_opts o;
    int64_t rb, rc;
    int code = -1;
    vb_cmp_opts_default(&o);
    if (metric) o.metric = metric;
    if (!vb_store_open(":memory:", &b, err) && !vb_store_open(":memory:", &c, err) &&
        !put_run(b, base, n, 1, "complete", &rb, err) &&
        !put_run(c, cand, n, 1000, "complete", &rc, err))
        code = vb_compare_runs(b, 0, c, 0, &o, res, err);
    vb_store_close(b);
    vb_store_close(c);
    return code;
}

/* A GPU case: H2D 1 ms, kernel 2 ms, D2H 1 ms (pinned: 1% spread), 40 samples. */
static const struct ph_case gpu_case = {"device-mesh-pinned",         "ok", 40, {1, 2, 1, 0, 0.2},
                                        {0.01, 0.005, 0.01, 0, 0.05}, NULL, 0,  0};

/* ASSERT_TEXT: the row's verdict text is fmt with the row's change in % */
#define ASSERT_TEXT(row, fmt)                                                                      \
    do {                                                                                           \
        char want_[160], got_[160];                                                                \
        snprintf(want_, sizeof want_, fmt, ((row)->ratio - 1) * 100);                              \
        ASSERT_STR_EQ(vb_cmp_row_text((row), got_, sizeof got_), want_);                           \
    } while (0)

int test_compare_phases(const char *arg)
{
    struct vb_cmp_result res;
    struct vb_err err;
    struct ph_case cand = gpu_case;
    struct vb_store *s;
    int64_t r;
    /* a run against itself: every phase the same, exit 0 */
    ASSERT_OK(vb_store_open(":memory:", &s, &err));
    ASSERT_OK(put_run(s, &gpu_case, 1, 1, "complete", &r, &err));
    {
        struct vb_cmp_opts o;
        vb_cmp_opts_default(&o);
        ASSERT_OK(vb_compare_runs(s, 0, s, 0, &o, &res, &err));
    }
    vb_store_close(s);
    ASSERT_INT_EQ(res.nrows, 1);
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same");
    ASSERT_INT_EQ(res.rows[0].nphases, 5); /* gpu, h2d, kernel, d2h, e2e; no memset */
    ASSERT_STR_EQ(res.rows[0].phases[4].name, "e2e");
    ASSERT_STR_EQ(res.rows[0].phase, "gpu");
    ASSERT_NEAR(res.rows[0].ratio, 1.0, 1e-12);
    ASSERT_INT_EQ(res.compared, 1);
    ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
    vb_cmp_result_free(&res);
    /* pinned -> pageable D2H, x3.66 with the kernel unchanged: slower, named by D2H */
    cand.ms[P_D2H] = 3.66;
    ASSERT_OK(compare_cases(&gpu_case, &cand, 1, NULL, &res, &err));
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "slower");
    ASSERT_STR_EQ(res.rows[0].phase, "d2h");
    ASSERT_NEAR(res.rows[0].ratio, 3.66, 0.05);
    ASSERT_TEXT(&res.rows[0], "slower (D2H %+.0f%%)");
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].phases[2].verdict), "same"); /* the kernel */
    ASSERT_STR_EQ(res.rows[0].phases[2].name, "kernel");
    ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
    vb_cmp_result_free(&res);
    /* --metric kernel judges the kernel alone: the D2H change is not its business */
    ASSERT_OK(compare_cases(&gpu_case, &cand, 1, "kernel", &res, &err));
    ASSERT_INT_EQ(res.rows[0].nphases, 1);
    ASSERT_STR_EQ(res.rows[0].phase, "kernel");
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same");
    ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
    vb_cmp_result_free(&res);
    /* a pageable-like H2D (IQR/median 20%) moving +15%: inside its noise, the same */
    cand = gpu_case;
    cand.spread[P_H2D] = 0.20;
    cand.ms[P_H2D] = 1.15;
    {
        struct ph_case base = gpu_case;
        base.spread[P_H2D] = 0.20;
        ASSERT_OK(compare_cases(&base, &cand, 1, NULL, &res, &err));
    }
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same");
    ASSERT_STR_EQ(res.rows[0].phases[1].name, "h2d");
    ASSERT_NEAR(res.rows[0].phases[1].ratio, 1.15, 0.06);
    ASSERT(res.rows[0].phases[1].limit > 0.3); /* twice its spread, not the 5% threshold */
    ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
    vb_cmp_result_free(&res);
    /* the same +15% on a steady (1%) pinned H2D, no control measured beside it: slower, since
     * nothing measured says the bus moved (no limit stands in for a measurement) */
    cand.spread[P_H2D] = 0.01;
    ASSERT_OK(compare_cases(&gpu_case, &cand, 1, NULL, &res, &err));
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "slower");
    ASSERT_STR_EQ(res.rows[0].phase, "h2d");
    ASSERT_NEAR(res.rows[0].phases[1].limit, 0.05, 1e-9);
    ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
    vb_cmp_result_free(&res);
    /* ... and the same where its control (a copy of its size and kind beside each sample) moved
     * with it: the host's, said in the row */
    {
        struct ph_case b = gpu_case, c = cand;
        b.controls = c.controls = 1;
        c.ms[P_H2D] = 1, c.host = 1.15; /* the copies and their controls +15% */
        c.ms[P_D2H] = 1;
        ASSERT_OK(compare_cases(&b, &c, 1, NULL, &res, &err));
        ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same");
        ASSERT_STR_EQ(vb_verdict_name(res.rows[0].phases[1].raw_verdict), "slower");
        ASSERT_STR_EQ(res.rows[0].phases[1].by, "host");
        ASSERT_CONTAINS(res.rows[0].why, "H2D +1");
        ASSERT_CONTAINS(res.rows[0].why, "against its controls");
        ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
        vb_cmp_result_free(&res);
        /* a real +40% on the steady host (the same bytes: its control copies as before):
         * slower against its control too, named by H2D */
        c.host = 1;
        c.ms[P_H2D] = 1.4;
        c.ctl_ms[0] = c.ctl_ms[1] = 1;
        ASSERT_OK(compare_cases(&b, &c, 1, NULL, &res, &err));
        ASSERT_NEAR(res.rows[0].ratio, 1.4, 0.01);
        ASSERT_STR_EQ(res.rows[0].phase, "h2d");
        ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "slower");
        ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
        vb_cmp_result_free(&res);
        /* +40% while the host slowed by 20%: still slower (+17% against its control) */
        c.host = 1.2;
        c.ms[P_H2D] = 1.4 / 1.2;
        ASSERT_OK(compare_cases(&b, &c, 1, NULL, &res, &err));
        ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "slower");
        ASSERT_NEAR(res.rows[0].phases[1].judged_ratio, 1.4 / 1.2, 0.02);
        vb_cmp_result_free(&res);
    }
    cand.ms[P_H2D] = 1.4;
    ASSERT_OK(compare_cases(&gpu_case, &cand, 1, NULL, &res, &err));
    ASSERT_NEAR(res.rows[0].ratio, 1.4, 0.01);
    ASSERT_TEXT(&res.rows[0], "slower (H2D %+.0f%%)");
    ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
    vb_cmp_result_free(&res);
    /* a memset the base does not have, 0.5 ms (11% of the candidate's GPU time): judged on its
     * own and slower, "new", which names the row before the GPU time's +12.5% */
    cand = gpu_case;
    cand.ms[P_MEMSET] = 0.5;
    cand.spread[P_MEMSET] = 0.01;
    ASSERT_OK(compare_cases(&gpu_case, &cand, 1, NULL, &res, &err));
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].phases[0].verdict), "slower");
    ASSERT_STR_EQ(res.rows[0].phase, "memset");
    ASSERT_TEXT(&res.rows[0], "slower (memset new)");
    ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
    vb_cmp_result_free(&res);
    /* kernel +10% at 0.5% spread: slower, named by the kernel (GPU time moved less) */
    cand = gpu_case;
    cand.ms[P_KERNEL] = 2.2;
    ASSERT_OK(compare_cases(&gpu_case, &cand, 1, NULL, &res, &err));
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "slower");
    ASSERT_STR_EQ(res.rows[0].phase, "kernel");
    ASSERT_NEAR(res.rows[0].ratio, 1.10, 0.01);
    ASSERT(res.rows[0].p < 1e-6);
    /* the GPU time moved +5%, at its limit: the kernel, judged on its own, names the row */
    ASSERT_NEAR(res.rows[0].phases[0].ratio, 1.05, 0.01);
    ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
    vb_cmp_result_free(&res);
    /* the kernel 31% faster and nothing else moved: faster, exit 0 */
    cand.ms[P_KERNEL] = 2 * 0.69;
    ASSERT_OK(compare_cases(&gpu_case, &cand, 1, NULL, &res, &err));
    ASSERT_NEAR(res.rows[0].ratio, 0.69, 0.01);
    ASSERT_TEXT(&res.rows[0], "faster (kernel %+.0f%%)");
    ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
    vb_cmp_result_free(&res);
    /* a phase under 5% of the GPU time is not judged on its own: memset 0.1 ms of 4.1 */
    cand = gpu_case;
    cand.ms[P_MEMSET] = 0.1;
    {
        struct ph_case base = gpu_case;
        base.ms[P_MEMSET] = 0.1;
        base.spread[P_MEMSET] = cand.spread[P_MEMSET] = 0.01;
        cand.ms[P_MEMSET] = 0.2; /* doubled, yet +2.4% of the GPU time */
        ASSERT_OK(compare_cases(&base, &cand, 1, NULL, &res, &err));
        ASSERT_INT_EQ(res.rows[0].nphases, 5);
        ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same");
        vb_cmp_result_free(&res);
        /* unless it is the metric */
        ASSERT_OK(compare_cases(&base, &cand, 1, "memset", &res, &err));
        ASSERT_NEAR(res.rows[0].ratio, 2.0, 0.05);
        ASSERT_TEXT(&res.rows[0], "slower (memset %+.0f%%)");
        vb_cmp_result_free(&res);
    }
    /* work moved to the host: host 0.2 -> 2.0 ms, e2e +43%, every GPU phase unchanged: slower,
     * named by e2e (its spread ~1%: held to the threshold, 3x that and 5 us) */
    cand = gpu_case;
    cand.ms[P_HOST] = 2.0;
    ASSERT_OK(compare_cases(&gpu_case, &cand, 1, NULL, &res, &err));
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].phases[0].verdict), "same"); /* GPU time */
    ASSERT_STR_EQ(res.rows[0].phase, "e2e");
    ASSERT_NEAR(res.rows[0].ratio, 6.0 / 4.2, 0.01);
    ASSERT_TEXT(&res.rows[0], "slower (e2e %+.0f%%)");
    ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
    vb_cmp_result_free(&res);
    /* host 0.2 -> 0.8 ms, e2e +14%: past 3x its spread and the threshold, and no control says
     * the host moved: slower */
    cand.ms[P_HOST] = 0.8;
    ASSERT_OK(compare_cases(&gpu_case, &cand, 1, NULL, &res, &err));
    ASSERT_NEAR(res.rows[0].phases[4].ratio, 4.8 / 4.2, 0.01);
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "slower");
    vb_cmp_result_free(&res);
    /* the host 2x slower in the candidate (its copies, its own share and its controls): every
     * GPU-time phase that holds a copy and e2e are past their limits as measured, and the
     * controls explain each: the same, exit 0, saying what moved */
    {
        struct ph_case b = gpu_case, c = gpu_case;
        b.controls = c.controls = 1;
        c.host = 2;
        ASSERT_OK(compare_cases(&b, &c, 1, NULL, &res, &err));
        ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same");
        ASSERT_NEAR(res.rows[0].phases[4].ratio, (2 + 2 * 2 + 0.4) / 4.2, 0.02);
        ASSERT_STR_EQ(vb_verdict_name(res.rows[0].phases[4].raw_verdict), "slower");
        ASSERT_CONTAINS(res.rows[0].why, "e2e +");
        ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
        vb_cmp_result_free(&res);
        /* without controls on either side the same move is slower: nothing measured explains
         * it */
        b.controls = c.controls = 0;
        ASSERT_OK(compare_cases(&b, &c, 1, NULL, &res, &err));
        ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "slower");
        vb_cmp_result_free(&res);
        /* the host 2x slower and the kernel +30%: slower by the kernel, which no control
         * explains */
        b.controls = c.controls = 1;
        c.ms[P_KERNEL] = 2.6;
        ASSERT_OK(compare_cases(&b, &c, 1, NULL, &res, &err));
        ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "slower");
        ASSERT_STR_EQ(res.rows[0].phase, "kernel");
        vb_cmp_result_free(&res);
    }
    /* an e2e that spreads (host 1 ms +-60%: IQR/median ~12%) is held to 3x its spread: +50% is
     * the same where it spreads as much in the candidate (its limit, 3x the candidate's 28%);
     * a steady e2e 2.5x is slower, whatever the base's noise */
    {
        struct ph_case base = gpu_case;
        base.ms[P_HOST] = 1.0;
        base.spread[P_HOST] = 0.6;
        cand = base;
        cand.ms[P_HOST] = 3.5; /* e2e 5 -> 7.5 ms */
        ASSERT_OK(compare_cases(&base, &cand, 1, NULL, &res, &err));
        ASSERT(res.rows[0].phases[4].limit > 0.5);
        ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same");
        vb_cmp_result_free(&res);
        cand.ms[P_HOST] = 8.5; /* e2e 5 -> 12.5 ms, now steady */
        cand.spread[P_HOST] = 0.05;
        ASSERT_OK(compare_cases(&base, &cand, 1, NULL, &res, &err));
        ASSERT_TEXT(&res.rows[0], "slower (e2e %+.0f%%)");
        vb_cmp_result_free(&res);
    }
    /* --metric kernel judges the kernel alone, not the host */
    cand = gpu_case;
    cand.ms[P_HOST] = 2.0;
    ASSERT_OK(compare_cases(&gpu_case, &cand, 1, "kernel", &res, &err));
    ASSERT_INT_EQ(res.rows[0].nphases, 1);
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same");
    vb_cmp_result_free(&res);
    /* --metric e2e on a GPU case: the GPU case's e2e rule, not the CPU references' 2.5x */
    ASSERT_OK(compare_cases(&gpu_case, &cand, 1, "e2e", &res, &err));
    ASSERT_INT_EQ(res.rows[0].nphases, 1);
    ASSERT_TEXT(&res.rows[0], "slower (e2e %+.0f%%)");
    vb_cmp_result_free(&res);

    /* --metric d2h on a case without D2H: judged on e2e, and the row says so */
    cand = gpu_case;
    cand.ms[P_D2H] = 0;
    {
        struct ph_case base = cand;
        ASSERT_OK(compare_cases(&base, &cand, 1, "d2h", &res, &err));
        ASSERT_STR_EQ(res.rows[0].phase, "e2e");
        ASSERT_STR_EQ(res.rows[0].basis, "no D2H records");
        ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same");
        vb_cmp_result_free(&res);
    }
    return 0;
}

int test_compare_few_samples(const char *arg)
{
    /* 3 vs 3: too few for the rank test; the ranges decide */
    static const double mb[] = {0.99, 1.0, 1.01}, apart[] = {1.18, 1.2, 1.22},
                        overlap[] = {0.995, 2.0, 2.0};
    static const double six_b[] = {0.99, 1.0, 1.01, 0.995, 1.005, 1.0},
                        six_c[] = {1.19, 1.2, 1.21, 1.195, 1.205, 1.2};
    struct ph_case b = {"device-mesh", "ok", 3, {0, 2, 0.5, 0, 0.1}, {0}, mb, 0, 0};
    struct ph_case c = b;
    struct vb_cmp_result res;
    struct vb_err err;
    char text[160];
    c.mult = apart;
    ASSERT_OK(compare_cases(&b, &c, 1, NULL, &res, &err));
    /* every phase +20%: past what the parts' limits allow the GPU time (4/5 x 5% + 1/5 x 25%) */
    ASSERT_STR_EQ(vb_cmp_row_text(&res.rows[0], text, sizeof text), "slower (GPU +20%)");
    ASSERT_INT_EQ(res.rows[0].n_base, 3);
    ASSERT_INT_EQ(res.rows[0].n_cand, 3);
    ASSERT(isnan(res.rows[0].p));
    ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
    vb_cmp_result_free(&res);
    /* +100% (beyond 3x its spread) but one candidate sample inside the base's range: noisy */
    c.mult = overlap;
    ASSERT_OK(compare_cases(&b, &c, 1, NULL, &res, &err));
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "noisy");
    ASSERT_CONTAINS(vb_cmp_row_text(&res.rows[0], text, sizeof text), "ranges overlap");
    ASSERT_INT_EQ(vb_cmp_exit(&res), vb_code_exit(VB_E_INCONCLUSIVE));
    vb_cmp_result_free(&res);
    /* 1 vs 1 (a single sample a side, as a whole traced process): no evidence can be, said so */
    b.n = c.n = 1;
    c.mult = apart;
    ASSERT_OK(compare_cases(&b, &c, 1, NULL, &res, &err));
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "noisy");
    ASSERT_CONTAINS(vb_cmp_row_text(&res.rows[0], text, sizeof text),
                    "too few samples (1/1; 3 a side at least)");
    vb_cmp_result_free(&res);
    /* 6 vs 6 apart: the rank test cannot reach 0.001 with so few, the ranges still can */
    b.n = c.n = 6;
    b.mult = six_b;
    c.mult = six_c;
    ASSERT_OK(compare_cases(&b, &c, 1, NULL, &res, &err));
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "slower");
    ASSERT(res.rows[0].p > 0.001);
    vb_cmp_result_free(&res);
    return 0;
}

int test_compare_throttled(const char *arg)
{
    struct ph_case c = gpu_case;
    struct vb_cmp_result res;
    struct vb_err err;
    char text[160];
    c.ms[P_KERNEL] = 2.6; /* +30%, but the candidate ran at a low clock on some samples */
    c.dropped = 4;
    ASSERT_OK(compare_cases(&gpu_case, &c, 1, NULL, &res, &err));
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "noisy");
    ASSERT_STR_EQ(vb_cmp_row_text(&res.rows[0], text, sizeof text), "noisy (throttled: candidate)");
    ASSERT_STR_EQ(res.rows[0].phase, "kernel"); /* what it would have been, shown */
    ASSERT_INT_EQ(res.rows[0].n_cand, 36);      /* dropped samples are not judged */
    ASSERT_INT_EQ(res.count[VB_VERDICT_SLOWER], 0);
    ASSERT_INT_EQ(vb_cmp_exit(&res), vb_code_exit(VB_E_INCONCLUSIVE));
    vb_cmp_result_free(&res);
    /* a throttled base is as bad */
    ASSERT_OK(compare_cases(&c, &gpu_case, 1, NULL, &res, &err));
    ASSERT_STR_EQ(vb_cmp_row_text(&res.rows[0], text, sizeof text), "noisy (throttled: base)");
    ASSERT_INT_EQ(vb_cmp_exit(&res), vb_code_exit(VB_E_INCONCLUSIVE));
    vb_cmp_result_free(&res);
    return 0;
}

int test_compare_refuses_incomplete(const char *arg)
{
    struct vb_store *b, *c;
    struct vb_cmp_result res;
    struct vb_cmp_opts o;
    struct vb_err err;
    int64_t rb, rc1, rc2;
    ASSERT_OK(vb_store_open(":memory:", &b, &err));
    ASSERT_OK(vb_store_open(":memory:", &c, &err));
    ASSERT_OK(put_run(b, &gpu_case, 1, 1, "complete", &rb, &err));
    ASSERT_OK(put_run(c, &gpu_case, 1, 2, "complete", &rc1, &err));
    ASSERT_OK(put_run(c, &gpu_case, 1, 3, NULL, &rc2, &err)); /* killed: still 'running' */
    vb_cmp_opts_default(&o);
    /* asked for by id: refused as an input error (exit 2), naming the run, its status, why */
    ASSERT_INT_EQ(vb_compare_runs(b, 0, c, rc2, &o, &res, &err), -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    ASSERT_INT_EQ(vb_code_exit(err.code), 2);
    ASSERT_CONTAINS(err.msg, "candidate run 2 is 'running': it did not finish");
    ASSERT_CONTAINS(err.msg, "compare a complete run");
    ASSERT_INT_EQ(res.nrows, 0);
    ASSERT_INT_EQ(vb_compare_runs(c, rc2, b, 0, &o, &res, &err), -1);
    ASSERT_CONTAINS(err.msg, "base run 2 is 'running'");
    /* by default each side's newest complete run is taken: run 1 here */
    ASSERT_OK(vb_compare_runs(b, 0, c, 0, &o, &res, &err));
    ASSERT_INT_EQ(res.run_cand, rc1);
    ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
    vb_cmp_result_free(&res);
    vb_store_close(c);
    /* an interrupted run says so with its message; a database without a complete run fails */
    ASSERT_OK(vb_store_open(":memory:", &c, &err));
    ASSERT_OK(put_run(c, &gpu_case, 1, 3, NULL, &rc2, &err));
    ASSERT_INT_EQ(vb_compare_runs(b, 0, c, 0, &o, &res, &err), -1);
    ASSERT_CONTAINS(err.msg, "no complete run");
    ASSERT_OK(vb_store_run_end(c, rc2, "interrupted", 130, "interrupted by signal 2", &err));
    ASSERT_INT_EQ(vb_compare_runs(b, 0, c, rc2, &o, &res, &err), -1);
    ASSERT_CONTAINS(err.msg, "candidate run 1 is 'interrupted'");
    ASSERT_CONTAINS(err.msg, "interrupted by signal 2");
    vb_store_close(c);
    vb_store_close(b);
    return 0;
}

/* A run on a machine without a GPU: the CPU reference timed, every GPU case skipped. */
static const struct ph_case nogpu[] = {
    {"cpu-reference", "ok", 20, {0, 0, 0, 0, 50}, {0, 0, 0, 0, 0.02}, NULL, 0, 0},
    {"host-mesh", "skipped", 0, {0}, {0}, NULL, 0, 0},
    {"device-mesh", "skipped", 0, {0}, {0}, NULL, 0, 0},
};

int test_compare_nothing_compared(const char *arg)
{
    struct vb_store *s;
    struct vb_cmp_result res;
    struct vb_cmp_opts o;
    struct vb_err err;
    int64_t r;
    ASSERT_OK(vb_store_open(":memory:", &s, &err));
    ASSERT_OK(put_run(s, nogpu, 3, 1, "complete", &r, &err));
    vb_cmp_opts_default(&o);
    ASSERT_OK(vb_compare_runs(s, 0, s, 0, &o, &res, &err));
    ASSERT_STR_EQ(vb_verdict_name(res.rows[0].verdict), "same"); /* the reference, on e2e */
    ASSERT_STR_EQ(res.rows[0].phase, "e2e");
    ASSERT_STR_EQ(res.rows[0].basis, "CPU-only");
    ASSERT_STR_EQ(vb_verdict_name(res.rows[1].verdict), "not-compared");
    ASSERT_INT_EQ(res.count[VB_VERDICT_NOT_COMPARED], 2);
    ASSERT_INT_EQ(res.compared, 0);
    ASSERT_CONTAINS(res.why, "nothing was compared on the GPU");
    ASSERT_CONTAINS(res.why, "of 2 GPU cases, 2 not-compared");
    ASSERT_INT_EQ(vb_cmp_exit(&res), vb_code_exit(VB_E_INCONCLUSIVE));
    vb_cmp_result_free(&res);
    vb_store_close(s);
    /* every case skipped, none on the GPU either: nothing compared */
    ASSERT_OK(vb_store_open(":memory:", &s, &err));
    {
        struct ph_case skipped = nogpu[0];
        skipped.status = "skipped";
        skipped.n = 0;
        ASSERT_OK(put_run(s, &skipped, 1, 1, "complete", &r, &err));
    }
    ASSERT_OK(vb_compare_runs(s, 0, s, 0, &o, &res, &err));
    ASSERT_INT_EQ(res.compared, 0);
    ASSERT_CONTAINS(res.why, "nothing was compared: of 1 cases, 1 not-compared");
    ASSERT_INT_EQ(vb_cmp_exit(&res), vb_code_exit(VB_E_INCONCLUSIVE));
    vb_cmp_result_free(&res);
    vb_store_close(s);
    /* a run of CPU cases alone (no GPU case in either run) is judged on them */
    ASSERT_OK(vb_store_open(":memory:", &s, &err));
    ASSERT_OK(put_run(s, nogpu, 1, 1, "complete", &r, &err));
    ASSERT_OK(vb_compare_runs(s, 0, s, 0, &o, &res, &err));
    ASSERT_INT_EQ(res.compared, 1);
    ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
    vb_cmp_result_free(&res);
    vb_store_close(s);
    return 0;
}

/* make_fixtures DIR: base.db, slow10.db, same2.db, few.db, h100.db, d2h.db, running.db and
 * nogpu.db for the command-line tests. few.db: 3 samples of device-mesh-pinned, +200% but one
 * inside the base's range (noisy). d2h.db: phase.db's case with D2H x3.66 (slower, D2H).
 * running.db: a complete run 1 and a run 2 left 'running'. nogpu.db: a run without a GPU. */
int test_make_fixtures(const char *dir)
{
    static const struct {
        const char *file, *gpu;
        int which, n;
        double scale;
    } sets[] = {{"base.db", "NVIDIA H200", -1, 50, 1.0},
                {"slow10.db", "NVIDIA H200", 1, 50, 1.10},
                {"same2.db", "NVIDIA H200", -1, 50, 1.02},
                {"few.db", "NVIDIA H200", 2, 3, 1.0},
                {"h100.db", "NVIDIA H100 80GB HBM3", -1, 50, 1.4}};
    static const double overlap[] = {0.99, 3.0, 3.01};
    size_t i;
    int k;
    struct vb_err err;
    if (!dir) TEST_FAIL_("%s", "make_fixtures needs a folder");
    for (i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        struct fx_case c[3];
        struct vb_store *s;
        char path[1024];
        int64_t r;
        memcpy(c, fx_mesh_cases, sizeof c);
        for (k = 0; k < 3; k++)
            if (sets[i].which < 0 || sets[i].which == k) c[k].median_ms *= sets[i].scale;
        if (sets[i].which >= 0) c[sets[i].which].samples = sets[i].n;
        snprintf(path, sizeof path, "%s/%s", dir, sets[i].file);
        unlink(path);
        ASSERT_OK(vb_store_open(path, &s, &err));
        if (!strcmp(sets[i].file, "few.db")) {
            /* e2e only (no records), so that it compares with base.db whatever its GPU times */
            struct ph_case pc[3];
            for (k = 0; k < 3; k++) {
                struct ph_case x = {c[k].variant,
                                    "ok",
                                    c[k].samples,
                                    {0, 0, 0, 0, c[k].median_ms},
                                    {0, 0, 0, 0, 0.01},
                                    NULL,
                                    0,
                                    1};
                pc[k] = x;
            }
            pc[2].mult = overlap;
            ASSERT_OK(put_run(s, pc, 3, 77, "complete", &r, &err));
        } else {
            ASSERT_OK(fx_write_run(s, sets[i].gpu, c, 3, &r, &err));
        }
        vb_store_close(s);
    }
    {
        static const char *const files[] = {"phase.db", "d2h.db", "running.db", "nogpu.db"};
        struct ph_case slow = gpu_case;
        slow.ms[P_D2H] = 3.66;
        for (i = 0; i < sizeof files / sizeof files[0]; i++) {
            struct vb_store *s;
            char path[1024];
            int64_t r;
            snprintf(path, sizeof path, "%s/%s", dir, files[i]);
            unlink(path);
            ASSERT_OK(vb_store_open(path, &s, &err));
            if (i == 0) ASSERT_OK(put_run(s, &gpu_case, 1, 1, "complete", &r, &err));
            if (i == 1) ASSERT_OK(put_run(s, &slow, 1, 2, "complete", &r, &err));
            if (i == 2) {
                ASSERT_OK(put_run(s, &gpu_case, 1, 3, "complete", &r, &err));
                ASSERT_OK(put_run(s, &gpu_case, 1, 4, NULL, &r, &err));
            }
            if (i == 3) ASSERT_OK(put_run(s, nogpu, 3, 5, "complete", &r, &err));
            vb_store_close(s);
        }
    }
    return 0;
}
