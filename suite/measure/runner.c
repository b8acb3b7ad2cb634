/* runner: one case, from setup to statistics (see runner.h). */
#include "runner.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attribute.h"
#include "case_ctx.h"
#include "clock.h"
#include "coldcache.h"
#include "ctlplan.h"
#include "gpu.h"
#include "marks.h"
#include "nvtx.h"
#include "varbench.h"
#include "runner_int.h"
#include "store.h"

volatile sig_atomic_t vb_interrupted;

/* Why these numbers (H100, the whole catalog, quick runs of the landed code): kernels settle to
 * an IQR/median of 2% or less (64 of 71 cases), so the median's 95% CI reaches 0.5% within
 * ~50-200 samples, well inside 1 s; pageable copies spread 5-40% even over 1,000 samples and
 * would need thousands more, so a budget ends them (a 15 s timeout for each of 60 GPU cases is
 * 15 minutes: no CI job). nvbench's 0.5 s of minimum time is dropped: a converged 5 us kernel
 * would spend 100,000 samples on it. */
void vb_sampling_default(struct vb_sampling *s)
{
    memset(s, 0, sizeof *s);
    s->no_metrics = VB_METRICS_OFF;
    s->precision = 0.005;
    s->precision_pageable = 0.05;
    s->precision_copy = 0.0125;
    s->floor_ns = 25;
    s->material = 0.05;
    s->min_samples = 10;
    s->budget_s = 0.5;
    s->energy_min_s = LEDGER_MIN_WINDOW_S;
    s->max_samples = 10000;
    s->max_warmups = 10;
    s->cpu_min_samples = 3;
    s->cpu_min_time_s = 0.2;
    s->cpu_budget_s = 1.0;
    s->cold = 1;
    s->keep_records = 100;
}

void vb_sampling_quick(struct vb_sampling *s)
{
    vb_sampling_default(s);
    s->precision = 0.02;
    s->min_samples = 5;
    s->budget_s = 0.15;
    s->energy_min_s = 0;
    s->max_samples = 1000;
    s->max_warmups = 2;
    s->cpu_min_samples = 0;
    s->cpu_min_time_s = 0;
    s->cpu_budget_s = 0.3;
}

/* The verified sample's answer, widened to double, kept from case to case: a fresh 800 MB
 * buffer a case (10^8 values) paid its page faults in every verified sample (malloc'd and
 * filled: 0.5-2.5 s on the 2-core CI machine, 80 ms when filled again) */
static double *answer;
static size_t answer_cap;

/* answer_buffer: room for n values, or NULL when memory runs out (the old one freed first) */
static double *answer_buffer(size_t n)
{
    if (n <= answer_cap && answer) return answer;
    free(answer);
    answer_cap = 0;
    if ((answer = malloc(sizeof *answer * (n ? n : 1)))) answer_cap = n;
    return answer;
}

void vb_runner_release(const struct vb_sampling *cfg)
{
    /* a session left open by a failure, before the buffers */
    vb_profiler_release(cfg->profiler);
    vb_profiler_release(cfg->profiler_cache);
    vb_cold_release();
    vb_ctl_release();
    free(answer);
    answer = NULL;
    answer_cap = 0;
}

struct check {
    const double *got, *ref;
    double atol, rtol;
    size_t bad[VB_PARALLEL_MAX];
    double max_abs[VB_PARALLEL_MAX], max_rel[VB_PARALLEL_MAX];
};

static void check_part(size_t lo, size_t hi, void *ctx, int slot)
{
    struct check *c = ctx;
    size_t i, bad = 0;
    double ma = 0, mr = 0;
    for (i = lo; i < hi; i++) {
        double d = fabs(c->got[i] - c->ref[i]);
        if (!isfinite(c->got[i]) || !(d <= c->atol + c->rtol * fabs(c->ref[i]))) bad++;
        if (!isfinite(d)) {
            ma = mr = INFINITY;
            continue;
        }
        if (d > ma) ma = d;
        if (c->ref[i] != 0 && d / fabs(c->ref[i]) > mr) mr = d / fabs(c->ref[i]);
    }
    c->bad[slot] = bad;
    c->max_abs[slot] = ma;
    c->max_rel[slot] = mr;
}

size_t vb_compare(const double *got, const double *ref, size_t n, double atol, double rtol,
                  double *max_abs, double *max_rel)
{
    struct check c;
    size_t bad = 0;
    int k, np;
    c.got = got;
    c.ref = ref;
    c.atol = atol;
    c.rtol = rtol;
    np = vb_parallel_for(n, check_part, &c);
    *max_abs = *max_rel = 0;
    for (k = 0; k < np; k++) {
        bad += c.bad[k];
        if (!(c.max_abs[k] <= *max_abs)) *max_abs = c.max_abs[k]; /* INFINITY wins */
        if (!(c.max_rel[k] <= *max_rel)) *max_rel = c.max_rel[k];
    }
    return bad;
}

/* grow_samples makes room for one more sample; 0 or -1. */
static int grow_samples(struct vb_case_result *r, int *cap)
{
    void *p;
    if (r->nsamples < *cap) return 0;
    *cap = *cap ? *cap * 2 : 64;
    p = realloc(r->samples, sizeof *r->samples * (size_t)*cap);
    if (!p) return -1;
    r->samples = p;
    return 0;
}

/* one_sample runs the variant once and appends the sample; it is preceded by its controls (ctl:
 * the case's plan, NULL none) and, a GPU sample, by the L2 flush (cfg->cold) and the SM clock
 * reading, in that order, all outside its window. 0 or -1 with err. */
static int one_sample(const struct vb_variant *v, void *state, enum vb_sample_kind kind,
                      const struct vb_sampling *cfg, const struct vb_ctl_plan *ctl,
                      struct vb_case_result *r, int *cap, struct vb_err *err)
{
    struct vb_sample *s;
    double t0, mhz = NAN;
    int c;
    if (grow_samples(r, cap)) return vb_err_set(err, VB_E_SYS, "out of memory for samples");
    s = &r->samples[r->nsamples];
    memset(s, 0, sizeof *s);
    for (c = 0; c < VB_CTL_COUNT; c++)
        s->ctl[c] = NAN;
    if (ctl && vb_ctl_measure(ctl, r->nsamples, s, err)) return -1;
    if ((v->flags & VB_GPU) && kind != VB_SAMPLE_VERIFY && vb_cold_before(cfg->cold, &mhz, err))
        return vb_err_context(err, "before a sample");
    s->kind = kind;
    s->gpu_ns = NAN;
    s->sm_clock_mhz = mhz > 0 ? mhz : NAN;
    s->records_dropped =
        kind == VB_SAMPLE_TIMED && cfg->keep_records >= 0 && r->ntimed >= cfg->keep_records;
    s->start = vb_activity_now();
    vb_marks_sample(r->nsamples);
    t0 = vb_mono_ns();
    if (v->run(state, err)) {
        vb_marks_sample(-1);
        return -1;
    }
    s->e2e_ns = vb_mono_ns() - t0;
    vb_marks_sample(-1);
    s->end = vb_activity_now();
    r->nsamples++;
    if (kind == VB_SAMPLE_TIMED) r->ntimed++;
    return 0;
}

/* collect takes the records delivered so far (keep_open: the case's NVTX range stays open) and
 * attributes them; then each sample's gpu_ns is the sum of its phases. 0, or -1 when CUPTI
 * could not be flushed (the case then has no records). */
static int collect(struct vb_case_result *r, int keep_open)
{
    struct vb_activity batch;
    struct vb_err cerr;
    int i;
    memset(&batch, 0, sizeof batch);
    if (!vb_activity_active()) return -1;
    if ((keep_open ? vb_activity_take_keep_open(&batch, &cerr) : vb_activity_take(&batch, &cerr)))
        return -1;
    {
        struct vb_mark *marks;
        size_t nmarks;
        vb_marks_copy(&marks, &nmarks); /* what could not be kept goes by its time */
        vb_attribute(r, &batch, marks, nmarks, NULL);
        free(marks);
    }
    r->have_records = 1;
    for (i = 0; i < r->nsamples; i++) {
        struct vb_sample *s = &r->samples[i];
        s->gpu_ns = s->h2d_ns + s->d2h_ns + s->kernel_ns + s->memset_ns;
    }
    return 0;
}

/* phase_values fills x with phase ph of the timed samples that count (not dropped); returns
 * how many. x holds r->nsamples values. */
static int phase_values(const struct vb_case_result *r, int ph, double *x)
{
    int i, n = 0;
    for (i = 0; i < r->nsamples; i++)
        if (r->samples[i].kind == VB_SAMPLE_TIMED && !r->samples[i].dropped)
            x[n++] = vb_sample_phase(&r->samples[i], ph);
    return n;
}

double vb_runner_precision(const struct vb_case_result *r, const struct vb_sampling *cfg,
                           const char **worst, double *ci, int *n)
{
    double *x = malloc(sizeof *x * (size_t)(r->nsamples ? r->nsamples : 1)), lo, hi, gpu_med;
    double need[VB_PH_COUNT], w[VB_PH_COUNT], q = -1, parts = 0;
    int ph, h2d, d2h, material[VB_PH_COUNT] = {0};
    *worst = r->have_records ? "gpu" : "e2e";
    *n = 0;
    *ci = NAN;
    if (!x) return NAN;
    if (!r->have_records) {
        *n = phase_values(r, VB_PH_E2E, x);
        *ci = vb_stats_median_ci(x, (size_t)*n, &lo, &hi);
        free(x);
        return *ci / cfg->precision;
    }
    vb_result_pageable(r, &h2d, &d2h);
    *n = phase_values(r, VB_PH_GPU, x);
    gpu_med = vb_stats_median(x, (size_t)*n);
    w[VB_PH_GPU] = vb_stats_median_ci(x, (size_t)*n, &lo, &hi);
    for (ph = VB_PH_H2D; ph <= VB_PH_MEMSET; ph++) {
        int m = phase_values(r, ph, x), pg = (ph == VB_PH_H2D && h2d) || (ph == VB_PH_D2H && d2h);
        int copy = ph == VB_PH_H2D || ph == VB_PH_D2H;
        double med = vb_stats_median(x, (size_t)m);
        if (!(med >= cfg->material * gpu_med) || med <= 0) continue;
        material[ph] = 1;
        w[ph] = vb_stats_median_ci(x, (size_t)m, &lo, &hi);
        need[ph] = pg     ? cfg->precision_pageable
                   : copy ? fmax(cfg->precision, cfg->precision_copy)
                          : cfg->precision;
        if (copy) parts += med / gpu_med * need[ph];
        need[ph] = fmax(need[ph], cfg->floor_ns / med);
    }
    free(x);
    material[VB_PH_GPU] = 1;
    need[VB_PH_GPU] = fmax(fmax(cfg->precision, parts), cfg->floor_ns / gpu_med);
    for (ph = VB_PH_GPU; ph <= VB_PH_MEMSET; ph++) {
        double qp;
        if (!material[ph]) continue;
        qp = w[ph] / need[ph];
        if (isnan(qp) || !(qp <= q)) {
            q = qp;
            *ci = w[ph];
            *worst = vb_phase_names[ph];
            if (isnan(qp)) break;
        }
    }
    return q;
}

/* mark_dropped marks timed samples whose SM clock is under 75% of the peak (the configured one,
 * else the highest the case read) and counts them. */
static void mark_dropped(struct vb_case_result *r, const struct vb_sampling *cfg)
{
    double peak = cfg->peak_clock_mhz;
    int i;
    if (!(peak > 0))
        for (i = 0; i < r->nsamples; i++)
            if (r->samples[i].sm_clock_mhz > peak) peak = r->samples[i].sm_clock_mhz;
    r->dropped = 0;
    for (i = 0; i < r->nsamples; i++) {
        struct vb_sample *s = &r->samples[i];
        s->dropped = s->kind == VB_SAMPLE_TIMED && peak > 0 && s->sm_clock_mhz < 0.75 * peak;
        r->dropped += s->dropped;
    }
}

/* summarise marks the samples dropped for a low clock, computes the case's statistics over the
 * others and its traffic (vb_result_stats), and the clocks. */
static int summarise(struct vb_case_result *r, const struct vb_sampling *cfg)
{
    double *x = malloc(sizeof *x * (size_t)(r->nsamples + 1));
    int i, n, rc;
    if (!x) return -1;
    mark_dropped(r, cfg);
    rc = vb_result_stats(r);
    for (i = n = 0; i < r->nsamples; i++)
        if (r->samples[i].kind == VB_SAMPLE_TIMED && r->samples[i].sm_clock_mhz > 0)
            x[n++] = r->samples[i].sm_clock_mhz;
    r->clock_median_mhz = n ? vb_stats_median(x, (size_t)n) : NAN;
    r->clock_min_mhz = NAN;
    for (i = 0; i < n; i++)
        if (!(x[i] >= r->clock_min_mhz)) r->clock_min_mhz = x[i];
    free(x);
    return rc;
}

static void fail(struct vb_case_result *r, enum vb_status st, const struct vb_err *err)
{
    r->status = st;
    vb_err_line(err, r->reason, sizeof r->reason);
}

/* warm_up runs warm-up samples until two in a row agree within 5% (end to end: known at once),
 * at most cfg->max_warmups, and at most a quarter of the budget after the first. */
static int warm_up(const struct vb_variant *v, void *state, const struct vb_sampling *cfg,
                   struct vb_case_result *r, int *cap, struct vb_err *err)
{
    double t0 = vb_mono_ns(), prev = -1;
    int i;
    for (i = 0; i < cfg->max_warmups && !vb_interrupted; i++) {
        double x;
        if (one_sample(v, state, VB_SAMPLE_WARMUP, cfg, NULL, r, cap, err)) return -1;
        x = r->samples[r->nsamples - 1].e2e_ns;
        if (prev > 0 && fabs(x - prev) <= 0.05 * prev) break;
        if (i > 0 && (vb_mono_ns() - t0) * 1e-9 > cfg->budget_s / 4) break;
        prev = x;
    }
    return 0;
}

/* rounds_loop: the timed samples in the rounds cfg->rounds paces, the first of k (runner.h),
 * each with the controls of ctl. */
static int rounds_loop(const struct vb_variant *v, void *state, const struct vb_sampling *cfg,
                       const struct vb_ctl_plan *ctl, struct vb_case_result *r, int *cap, int k,
                       struct vb_err *err)
{
    while (k > 0 && !vb_interrupted) {
        int from = r->nsamples, i;
        for (i = 0; i < k; i++)
            if (one_sample(v, state, VB_SAMPLE_TIMED, cfg, ctl, r, cap, err)) return -1;
        if ((v->flags & VB_GPU) && collect(r, 1) && r->have_records)
            return vb_err_set(err, VB_E_CUDA, "CUPTI flush failed");
        mark_dropped(r, cfg);
        k = cfg->rounds->round(cfg->rounds->ctx, r, from);
    }
    r->stop_reason = vb_interrupted ? "interrupted" : "rounds";
    return 0;
}

/* precise: timed samples until the median GPU time is precise enough (checked at checkpoints,
 * where the records are collected) and, when the ledger measures (pool), they have lasted the
 * energy counter's window (cfg->energy_min_s); or the budget or the sample cap is reached. */
static int precise(const struct vb_variant *v, void *state, const struct vb_sampling *cfg,
                   const struct vb_ctl_plan *ctl, struct vb_case_result *r, int *cap, int pool,
                   struct vb_err *err)
{
    double t0 = vb_mono_ns(), q, ci, t;
    int next = cfg->min_samples > 2 ? cfg->min_samples : 2, n;
    const char *worst = "gpu";
    for (;;) {
        int spent, full;
        if (vb_interrupted) {
            r->stop_reason = "interrupted";
            return 0;
        }
        if (one_sample(v, state, VB_SAMPLE_TIMED, cfg, ctl, r, cap, err)) return -1;
        spent = (vb_mono_ns() - t0) * 1e-9 >= cfg->budget_s && r->ntimed >= VB_RUNNER_MIN_TIMED;
        full = r->ntimed >= cfg->max_samples;
        if (r->ntimed < next && !spent && !full) continue;
        if (collect(r, 1) && r->have_records)
            return vb_err_set(err, VB_E_CUDA, "CUPTI flush failed");
        mark_dropped(r, cfg);
        q = vb_runner_precision(r, cfg, &worst, &ci, &n);
        t = (vb_mono_ns() - t0) * 1e-9;
        if (n >= cfg->min_samples && q <= 1 && (!pool || t >= cfg->energy_min_s)) {
            r->stop_reason = "converged";
            return 0;
        }
        if (spent || full) {
            r->stop_reason = spent ? "budget" : "max-samples";
            snprintf(r->stop_detail, sizeof r->stop_detail, "%s +-%.2f%%", worst,
                     isfinite(ci) ? 100 * ci : 100.0);
            return 0;
        }
        /* the CI narrows as 1/sqrt(n): ask for what that says is missing, in 1.2x-4x steps */
        {
            double want = isfinite(q) && q > 0 ? n * q * q : 2.0 * n;
            if (want < 1.2 * n + 1) want = 1.2 * n + 1;
            if (want > 4.0 * n) want = 4.0 * n;
            if (q <= 1) /* precise, short of the energy window: pool more samples */
                want = n * (cfg->energy_min_s / t) + 1;
            next = r->ntimed + (int)(want - n) + 1;
        }
    }
}

/* gpu_loop: the warm-up, then the timed samples (paced by cfg->rounds, or until precise) with
 * their controls (planned from the warm-up's records: marked says the calls are marked) inside the
 * board's ledger (ledger.h: energy, power, clocks, co-tenants; a case without it says why). */
static int gpu_loop(const struct vb_variant *v, void *state, const struct vb_sampling *cfg,
                    int marked, struct vb_case_result *r, int *cap, struct vb_err *err)
{
    double t0;
    char bus[32], quiet[160] = "";
    struct vb_ctl_plan ctl;
    struct vb_err why;
    int n, rc, pool = 0,
               have_bus = cudaDeviceGetPCIBusId(bus, sizeof bus, r->device) == cudaSuccess;
    /* the quiet board first: a wait after the warm-up would cool what it warmed */
    if (have_bus && cfg->quiet_c > 0 && !cfg->rounds)
        vb_ledger_quiet(bus, cfg->quiet_c, VB_QUIET_WAIT_S, quiet, sizeof quiet);
    t0 = vb_mono_ns();
    if (warm_up(v, state, cfg, r, cap, err)) return -1;
    /* the warm-up's copies say what the controls copy */
    if (collect(r, 1) && r->have_records) return vb_err_set(err, VB_E_CUDA, "CUPTI flush failed");
    vb_ctl_plan_gpu(r, marked, &ctl);
    r->stage_ns[VB_STAGE_WARMUP] += vb_mono_ns() - t0;
    n = cfg->rounds ? cfg->rounds->round(cfg->rounds->ctx, r, -1) : VB_ROUNDS_SOLO;
    if (n != VB_ROUNDS_SOLO) /* the board runs the other side's rounds in the window too */
        snprintf(r->ledger.why, sizeof r->ledger.why,
                 "paired by varbench ab: the board ran both sides' rounds");
    else if (!have_bus)
        snprintf(r->ledger.why, sizeof r->ledger.why, "no PCI bus id for device %d", r->device);
    else {
        /* its failure is the ledger's why; it measures: a short case pools samples for it */
        pool = vb_ledger_start(bus, &r->ledger, &why) == 0;
        snprintf(r->ledger.quiet, sizeof r->ledger.quiet, "%s", quiet);
    }
    if (pool && cfg->energy_updates > 0) { /* --energy: long enough for the counter */
        struct vb_sampling e = *cfg;
        double need = r->ledger.period_ms > 0
                          ? VB_ENERGY_MARGIN * cfg->energy_updates * r->ledger.period_ms * 1e-3
                          : VB_ENERGY_UNPROBED_S;
        if (e.energy_min_s < need) e.energy_min_s = need;
        if (e.budget_s < need) e.budget_s = need;
        if (e.max_samples < VB_ENERGY_MAX_SAMPLES) e.max_samples = VB_ENERGY_MAX_SAMPLES;
        rc = precise(v, state, &e, &ctl, r, cap, pool, err);
    } else
        rc = n != VB_ROUNDS_SOLO ? rounds_loop(v, state, cfg, &ctl, r, cap, n, err)
                                 : precise(v, state, cfg, &ctl, r, cap, pool, err);
    vb_ledger_stop(&r->ledger);
    return rc;
}

/* cpu_loop: a CPU-only case's budget, each sample with the controls of ctl; its verified sample
 * warmed it, and a long one is its first timed sample (VB_RUNNER_CPU_FIRST_S). */
static int cpu_loop(const struct vb_variant *v, void *state, const struct vb_sampling *cfg,
                    const struct vb_ctl_plan *ctl, struct vb_case_result *r, int *cap,
                    struct vb_err *err)
{
    double t0 = vb_mono_ns(), spent;
    struct vb_sample *verified = r->nsamples ? &r->samples[r->nsamples - 1] : NULL;
    int k;
    if (cfg->rounds && (k = cfg->rounds->round(cfg->rounds->ctx, r, -1)) != VB_ROUNDS_SOLO)
        return rounds_loop(v, state, cfg, ctl, r, cap, k, err);
    if (verified && verified->kind == VB_SAMPLE_VERIFY &&
        verified->e2e_ns * 1e-9 >= VB_RUNNER_CPU_FIRST_S) {
        verified->kind = VB_SAMPLE_TIMED;
        r->ntimed++;
        t0 -= verified->e2e_ns;
    }
    for (;;) {
        spent = (vb_mono_ns() - t0) * 1e-9;
        /* at least one timed sample (the verified one may be it: with no minimum, --quick, a
         * case whose verified sample spent the budget is not run again) */
        if (r->ntimed > 0 && r->ntimed >= cfg->cpu_min_samples && spent >= cfg->cpu_min_time_s) {
            r->stop_reason = "min-reached";
            break;
        }
        /* past the budget only to reach the minimum count, and never past the cap */
        if (r->ntimed > 0 && ((spent >= cfg->cpu_budget_s && r->ntimed >= cfg->cpu_min_samples) ||
                              spent >= VB_RUNNER_CPU_CAP_S)) {
            r->stop_reason = "budget";
            break;
        }
        if (r->ntimed >= cfg->max_samples) {
            r->stop_reason = "max-samples";
            return 0;
        }
        if (vb_interrupted) {
            r->stop_reason = "interrupted";
            return 0;
        }
        if (one_sample(v, state, VB_SAMPLE_TIMED, cfg, ctl, r, cap, err)) return -1;
    }
    if (r->ntimed == 1 && r->nsamples == 1) /* the verified sample alone */
        snprintf(r->stop_detail, sizeof r->stop_detail, "verified sample only: %.2f s",
                 r->samples[0].e2e_ns * 1e-9);
    return 0;
}

/* declare_work copies what one sample of v at p declares it computes into r: its global-memory
 * bytes, elements and flops (the floor falls back on the problem's kernel_bytes: floor.c) */
static void declare_work(const struct vb_variant *v, const struct vb_point *p,
                         struct vb_case_result *r)
{
    struct vb_traffic t;
    memset(&t, 0, sizeof t);
    if (v->traffic) v->traffic(p, &t);
    r->gmem_read_bytes = t.gmem_read_bytes;
    r->gmem_write_bytes = t.gmem_write_bytes;
    r->elements = t.elements;
    r->flops = t.flops;
}

/* take_said keeps the hooks' summaries with the case; a misuse (a bad or clashing name, too
 * many) fails a case that had not failed already, naming it */
static void take_said(const struct vb_case_said *said, struct vb_case_result *r)
{
    char why[160];
    int i;
    for (i = 0; i < said->nsummaries; i++)
        if (!vb_store_summary_name_ok(said->summaries[i].name, why, sizeof why)) {
            if (r->status == VB_STATUS_OK || r->status == VB_STATUS_WRONG) {
                r->status = VB_STATUS_FAILED;
                snprintf(r->reason, sizeof r->reason, "vb_summary('%s'): %s",
                         said->summaries[i].name, why);
            }
            return;
        }
    if (said->misuse[0] && (r->status == VB_STATUS_OK || r->status == VB_STATUS_WRONG)) {
        r->status = VB_STATUS_FAILED;
        snprintf(r->reason, sizeof r->reason, "%s", said->misuse);
        return;
    }
    memcpy(r->summaries, said->summaries, sizeof r->summaries);
    r->nsummaries = said->nsummaries;
}

/* stage adds the time since *mark to r's stage st and moves the mark to now */
static void stage(struct vb_case_result *r, enum vb_case_stage st, double *mark)
{
    double now = vb_mono_ns();
    r->stage_ns[st] += now - *mark;
    *mark = now;
}

void vb_runner_case(const struct vb_family *f, const struct vb_variant *v, const struct vb_point *p,
                    int device, const char *nodev_reason, const double *ref, double *oracle,
                    const struct vb_sampling *cfg, struct vb_case_result *r)
{
    const struct vb_problem *pb = v->problem;
    const struct vb_variant_ops *ops = f->ops;
    struct vb_case_said said;
    struct vb_err err;
    void *state = NULL;
    double *got = NULL;
    int verify = pb->reference != NULL; /* a problem without a reference is timed only */
    size_t n = verify ? pb->out_len(p) : 0, bad;
    int cap = 0, gpu = !!(v->flags & VB_GPU), marked = 0;
    double mark = vb_mono_ns();
    enum vb_case_stage at = VB_STAGE_VERIFY; /* the stage a jump to teardown ends */
    struct vb_ctl_plan cpu_ctl; /* a CPU case's: each of its samples, the verified one too */
    char label[512];
    vb_err_clear(&err);
    vb_ctl_plan_cpu(&cpu_ctl);
    memset(&said, 0, sizeof said);
    memset(r, 0, sizeof *r);
    r->family = f;
    r->variant = v;
    r->point = *p;
    r->device = gpu ? device : -1;
    r->max_abs_err = r->max_rel_err = r->gst_efficiency = r->floor_ns = r->floor_ratio = NAN;
    r->gpu_ci_pct = r->clock_min_mhz = r->clock_median_mhz = NAN;
    r->cold = gpu && cfg->cold;
    r->stop_reason = "not-run";
    vb_point_format(pb, p, r->axes, sizeof r->axes);
    declare_work(v, p, r);
    vb_stats_compute(NULL, 0, &r->e2e_ms);
    r->kernel_ms = r->h2d_ms = r->d2h_ms = r->memset_ms = r->gpu_ms = r->e2e_ms;
    r->start_ns = r->end_ns = vb_activity_now();
    if ((gpu && device < 0) || (!gpu && nodev_reason)) {
        r->status = VB_STATUS_SKIPPED;
        snprintf(r->reason, sizeof r->reason, "%s", nodev_reason ? nodev_reason : "no CUDA device");
        return;
    }
    if (gpu && VB_CUDA(&err, cudaSetDevice(device))) {
        fail(r, VB_STATUS_FAILED, &err);
        return;
    }
    /* drop records of anything before this case (they belong to no sample of it) */
    if (vb_activity_active()) {
        struct vb_activity stale;
        if (vb_activity_take(&stale, &err) == 0) vb_activity_free(&stale);
    }
    snprintf(label, sizeof label, "case %s/%s %s", f->name, v->name, r->axes);
    vb_nvtx_push(label);
    vb_case_ctx_open();
    got = oracle ? oracle : answer_buffer(n);
    if (!got) {
        vb_err_set(&err, VB_E_SYS, "out of memory for %zu output values", n);
        fail(r, VB_STATUS_FAILED, &err);
        goto pop;
    }
    if (ops && ops->setup && ops->setup(v->tag, p, &state, &err)) {
        if (ops->teardown) ops->teardown(state);
        vb_case_ctx_take(&said); /* after teardown: what it said counts too */
        if (said.skipped) {      /* vb_skip: the benchmark says the case cannot run here */
            r->status = VB_STATUS_SKIPPED;
            vb_err_line(&err, r->reason, sizeof r->reason);
        } else {
            vb_err_context(&err, "setup");
            fail(r, VB_STATUS_FAILED, &err);
        }
        stage(r, VB_STAGE_SETUP, &mark);
        goto pop;
    }
    stage(r, VB_STAGE_SETUP, &mark);
    if (gpu) vb_runner_metrics_pass(f, v, state, device, cfg, r);
    stage(r, VB_STAGE_METRICS, &mark);
    /* the timing pass's records tied to their samples by their calls (after the metrics pass,
     * whose launch hook shares the subscriber); without a subscriber, by their times */
    if (gpu && vb_activity_active() && vb_marks_start(&err) == 0) marked = 1;
    vb_err_clear(&err);
    /* verify: poisoned outputs, one sample, compare every element (without a reference: the
     * first sample, run and not judged) */
    if ((verify && ops->poison(state, &err)) ||
        one_sample(v, state, VB_SAMPLE_VERIFY, cfg, gpu ? NULL : &cpu_ctl, r, &cap, &err)) {
        fail(r, VB_STATUS_FAILED, &err);
        goto teardown;
    }
    if (verify) { /* poisoned: a value fetch leaves unwritten is never an earlier case's */
        vb_host_poison(got, sizeof *got * n);
        ops->fetch(state, got);
    }
    /* the oracle's own answer is what the others are held to; it still must be all numbers */
    bad = !verify ? 0
                  : vb_compare(got, oracle ? oracle : ref, n, oracle ? INFINITY : pb->atol,
                               pb->rtol, &r->max_abs_err, &r->max_rel_err);
    if (bad) {
        r->status = VB_STATUS_WRONG;
        snprintf(r->reason, sizeof r->reason,
                 "%s%zu of %zu values out of tolerance (atol %g, rtol %g); max abs error %g",
                 v->flags & VB_EXPECT_WRONG ? VB_REASON_ON_PURPOSE : "", bad, n, pb->atol, pb->rtol,
                 r->max_abs_err);
    } else if (v->flags & VB_EXPECT_WRONG) {
        snprintf(r->reason, sizeof r->reason,
                 "expected a wrong result (wrong on purpose) but this sample verified");
    }
    stage(r, VB_STAGE_VERIFY, &mark);
    at = VB_STAGE_SAMPLES;
    if (gpu ? gpu_loop(v, state, cfg, marked, r, &cap, &err)
            : cpu_loop(v, state, cfg, &cpu_ctl, r, &cap, &err)) {
        fail(r, VB_STATUS_FAILED, &err);
        goto teardown;
    }
    if (vb_interrupted && r->status == VB_STATUS_OK) r->status = VB_STATUS_INTERRUPTED;
teardown:
    stage(r, at, &mark);
    r->stage_ns[at] -= at == VB_STAGE_SAMPLES ? r->stage_ns[VB_STAGE_WARMUP] : 0; /* gpu_loop's */
    if (ops && ops->teardown) ops->teardown(state);
    vb_case_ctx_take(&said);
    stage(r, VB_STAGE_TEARDOWN, &mark);
pop:
    take_said(&said, r);
    vb_nvtx_pop();
    if (gpu && vb_activity_active()) {
        collect(r, 0);
        if (r->activity.dropped && r->status == VB_STATUS_OK)
            snprintf(r->reason, sizeof r->reason, "CUPTI dropped %zu records", r->activity.dropped);
    }
    if (marked) vb_marks_stop();
    if (summarise(r, cfg) && r->status == VB_STATUS_OK) {
        r->status = VB_STATUS_FAILED;
        snprintf(r->reason, sizeof r->reason, "out of memory summarising samples");
    }
    r->end_ns = vb_activity_now();
    stage(r, VB_STAGE_FINISH, &mark);
}

void vb_case_result_free(struct vb_case_result *r)
{
    free(r->samples);
    vb_activity_free(&r->activity);
    vb_metric_values_free(r->metrics, r->nmetrics);
    r->metrics = NULL;
    r->nmetrics = 0;
    r->samples = NULL;
    r->nsamples = r->ntimed = 0;
}
