/* runner: one case, from setup to statistics (see runner.h). */
#include "runner.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu.h"
#include "nvtx.h"

volatile sig_atomic_t vb_interrupted;

void vb_sampling_default(struct vb_sampling *s)
{
    memset(s, 0, sizeof *s);
    s->no_metrics = VB_METRICS_OFF;
    s->max_noise = 0.005;
    s->min_samples = 10;
    s->min_time_s = 0.5;
    s->timeout_s = 15.0;
    s->max_samples = 10000;
    s->warmups = 1;
}

void vb_sampling_quick(struct vb_sampling *s)
{
    memset(s, 0, sizeof *s);
    s->no_metrics = VB_METRICS_OFF;
    s->max_noise = 0.05;
    s->min_samples = 3;
    s->min_time_s = 0.02;
    s->timeout_s = 2.0;
    s->max_samples = 1000;
    s->warmups = 1;
}

static double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

size_t vb_compare(const double *got, const double *ref, size_t n, double atol, double rtol,
                  double *max_abs, double *max_rel)
{
    size_t i, bad = 0;
    double ma = 0, mr = 0;
    for (i = 0; i < n; i++) {
        double d = fabs(got[i] - ref[i]);
        if (!isfinite(got[i]) || !(d <= atol + rtol * fabs(ref[i]))) bad++;
        if (!isfinite(d)) {
            ma = mr = INFINITY;
            continue;
        }
        if (d > ma) ma = d;
        if (ref[i] != 0 && d / fabs(ref[i]) > mr) mr = d / fabs(ref[i]);
    }
    *max_abs = ma;
    *max_rel = mr;
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

/* one_sample runs the variant once and appends the sample; 0 or -1 with err. */
static int one_sample(const struct vb_variant *v, void *state, enum vb_sample_kind kind,
                      struct vb_case_result *r, int *cap, struct vb_err *err)
{
    struct vb_sample *s;
    double t0;
    if (grow_samples(r, cap)) return vb_err_set(err, VB_E_SYS, "out of memory for samples");
    s = &r->samples[r->nsamples];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->start = vb_activity_now();
    t0 = mono_ns();
    if (v->run(state, err)) return -1;
    s->e2e_ns = mono_ns() - t0;
    s->end = vb_activity_now();
    r->nsamples++;
    if (kind == VB_SAMPLE_TIMED) r->ntimed++;
    return 0;
}

/* attribute adds each CUPTI record's bytes and duration to the sample it started in. */
static void attribute(struct vb_case_result *r)
{
    const struct vb_activity *a = &r->activity;
    size_t i;
    int k;
    for (i = 0; i < a->nkernels; i++)
        if ((k = vb_sample_find(r, a->kernels[i].start)) >= 0) {
            r->samples[k].kernel_count++;
            r->samples[k].kernel_ns += (double)(a->kernels[i].end - a->kernels[i].start);
        }
    for (i = 0; i < a->ncopies; i++) {
        const struct vb_copy_rec *c = &a->copies[i];
        if ((k = vb_sample_find(r, c->start)) < 0) continue;
        if (c->copy_kind == 1) { /* CUPTI_ACTIVITY_MEMCPY_KIND_HTOD */
            r->samples[k].h2d_count++;
            r->samples[k].h2d_bytes += c->bytes;
            r->samples[k].h2d_ns += (double)(c->end - c->start);
        } else if (c->copy_kind == 2) { /* CUPTI_ACTIVITY_MEMCPY_KIND_DTOH */
            r->samples[k].d2h_count++;
            r->samples[k].d2h_bytes += c->bytes;
            r->samples[k].d2h_ns += (double)(c->end - c->start);
        }
    }
    for (i = 0; i < a->nmemsets; i++)
        if ((k = vb_sample_find(r, a->memsets[i].start)) >= 0) {
            r->samples[k].memset_count++;
            r->samples[k].memset_bytes += a->memsets[i].bytes;
            r->samples[k].memset_ns += (double)(a->memsets[i].end - a->memsets[i].start);
        }
}

/* summarise computes statistics over the timed samples and the traffic of the median one. */
static int summarise(struct vb_case_result *r)
{
    double *e2e, *ker, *h2d, *d2h, med;
    const struct vb_sample *first = NULL, *pick = NULL;
    int i, n = 0, rc = 0;
    e2e = malloc(sizeof *e2e * (size_t)(r->ntimed + 1) * 4);
    if (!e2e) return -1;
    ker = e2e + r->ntimed + 1;
    h2d = ker + r->ntimed + 1;
    d2h = h2d + r->ntimed + 1;
    for (i = 0; i < r->nsamples; i++) {
        const struct vb_sample *s = &r->samples[i];
        if (s->kind != VB_SAMPLE_TIMED) continue;
        e2e[n] = s->e2e_ns / 1e6;
        ker[n] = s->kernel_ns / 1e6;
        h2d[n] = s->h2d_ns / 1e6;
        d2h[n] = s->d2h_ns / 1e6;
        if (!first) first = s;
        else if (s->h2d_bytes != first->h2d_bytes || s->d2h_bytes != first->d2h_bytes ||
                 s->h2d_count != first->h2d_count || s->d2h_count != first->d2h_count ||
                 s->kernel_count != first->kernel_count)
            r->traffic_varies = 1;
        n++;
    }
    rc |= vb_stats_compute(e2e, (size_t)n, &r->e2e_ms);
    if (r->have_records) {
        rc |= vb_stats_compute(ker, (size_t)n, &r->kernel_ms);
        rc |= vb_stats_compute(h2d, (size_t)n, &r->h2d_ms);
        rc |= vb_stats_compute(d2h, (size_t)n, &r->d2h_ms);
    } else {
        vb_stats_compute(NULL, 0, &r->kernel_ms);
        vb_stats_compute(NULL, 0, &r->h2d_ms);
        vb_stats_compute(NULL, 0, &r->d2h_ms);
    }
    /* the sample closest to the median e2e gives the representative traffic */
    med = r->e2e_ms.median;
    for (i = 0; i < r->nsamples; i++) {
        const struct vb_sample *s = &r->samples[i];
        if (s->kind != VB_SAMPLE_TIMED) continue;
        if (!pick || fabs(s->e2e_ns / 1e6 - med) < fabs(pick->e2e_ns / 1e6 - med)) pick = s;
    }
    if (pick) {
        r->h2d_bytes = pick->h2d_bytes;
        r->d2h_bytes = pick->d2h_bytes;
        r->h2d_count = pick->h2d_count;
        r->d2h_count = pick->d2h_count;
        r->kernel_count = pick->kernel_count;
    }
    free(e2e);
    return rc;
}

/* Kernel launches one profiled sample may hold; the counter image grows with it. */
#define MAX_PROFILED_LAUNCHES 256

static void reason_of(const struct vb_err *err, char *buf, size_t n)
{
    if (err->hint[0]) snprintf(buf, n, "%s (hint: %s)", err->msg, err->hint);
    else snprintf(buf, n, "%s", err->msg);
}

/* metrics_pass profiles one sample of the variant (outputs poisoned first) and keeps its
 * values in r; what goes wrong is recorded in r->metrics_status/reason, never in the case's
 * status. The activity records of the profiled sample (without timestamps) are dropped. */
static void metrics_pass(const struct vb_variant *v, void *state, int device,
                         const struct vb_sampling *cfg, struct vb_case_result *r)
{
    struct vb_err err;
    CUcontext ctx;
    int rc;
    double t0 = mono_ns();
    vb_err_clear(&err);
    if (!cfg->profiler) {
        r->metrics_status = cfg->no_metrics;
        if (cfg->no_metrics_reason)
            snprintf(r->metrics_reason, sizeof r->metrics_reason, "%s", cfg->no_metrics_reason);
        return;
    }
    if (vb_gpu_current_ctx(&ctx, &err) || vb_profiler_prepare(cfg->profiler, device, ctx, &err)) {
        r->metrics_status = VB_METRICS_UNAVAILABLE;
        reason_of(&err, r->metrics_reason, sizeof r->metrics_reason);
        return;
    }
    /* what came before (set-up: its copies, its NVTX phases) is kept; the case's own range
     * stays open across the pass */
    if (vb_activity_active()) {
        struct vb_err cerr;
        if (vb_activity_take_keep_open(&r->activity, &cerr)) vb_activity_free(&r->activity);
    }
    vb_nvtx_push("metrics pass");
    rc = v->poison(state, &err) ||
         vb_profiler_begin(cfg->profiler, device, ctx, MAX_PROFILED_LAUNCHES, &err);
    if (!rc) {
        struct vb_err eerr; /* the run's own failure, if any, is the one to report */
        rc = v->run(state, &err);
        if (vb_profiler_end(cfg->profiler, &r->metrics, &r->nmetrics, &eerr) && !rc) {
            err = eerr;
            rc = -1;
        }
    }
    vb_nvtx_pop();
    if (vb_activity_active()) { /* the profiled sample's records carry no timestamps */
        struct vb_activity dropped;
        struct vb_err cerr;
        if (vb_activity_take_keep_open(&dropped, &cerr) == 0) {
            /* but its kernel records name the launches, in the ranges' order */
            vb_metric_values_name(r->metrics, r->nmetrics, dropped.kernels, dropped.nkernels);
            vb_activity_free(&dropped);
        }
    }
    /* one profiling session per case: a session kept across cases crashed inside CUPTI
     * (libnvperf_host, in a replayed cuFFT launch after dozens of cases, H200, CUPTI 13.0) */
    vb_profiler_release(cfg->profiler);
    r->metrics_ns = mono_ns() - t0;
    if (rc) {
        r->metrics_status = VB_METRICS_FAILED;
        reason_of(&err, r->metrics_reason, sizeof r->metrics_reason);
        return;
    }
    r->metrics_status = VB_METRICS_OK;
    r->gst_efficiency = vb_metric_values_gst(r->metrics, r->nmetrics);
}

static void fail(struct vb_case_result *r, enum vb_status st, const struct vb_err *err)
{
    r->status = st;
    reason_of(err, r->reason, sizeof r->reason);
}

/* sample_loop: warm-ups, then timed samples until the stopping rule holds. */
static int sample_loop(const struct vb_variant *v, void *state, const struct vb_sampling *cfg,
                       struct vb_case_result *r, int *cap, struct vb_err *err)
{
    double mean = 0, m2 = 0, spent = 0, noise = INFINITY, t0;
    int i;
    for (i = 0; i < cfg->warmups; i++)
        if (one_sample(v, state, VB_SAMPLE_WARMUP, r, cap, err)) return -1;
    t0 = mono_ns();
    for (;;) {
        double x, d;
        int n;
        if (vb_interrupted) {
            r->stop_reason = "interrupted";
            return 0;
        }
        if (one_sample(v, state, VB_SAMPLE_TIMED, r, cap, err)) return -1;
        x = r->samples[r->nsamples - 1].e2e_ns;
        n = r->ntimed;
        spent += x * 1e-9;
        d = x - mean;
        mean += d / n;
        m2 += d * (x - mean);
        if (n > 1) noise = sqrt(m2 / (n - 1)) / mean;
        if (n >= cfg->min_samples && spent >= cfg->min_time_s && noise <= cfg->max_noise) {
            r->stop_reason = "converged";
            return 0;
        }
        if ((mono_ns() - t0) * 1e-9 >= cfg->timeout_s) {
            r->stop_reason = n >= cfg->min_samples ? "timeout" : "timeout-before-min-samples";
            return 0;
        }
        if (n >= cfg->max_samples) {
            r->stop_reason = "max-samples";
            return 0;
        }
    }
}

void vb_runner_case(const struct vb_family *f, const struct vb_variant *v,
                    const struct vb_point *p, int device, const char *nodev_reason,
                    const double *ref, const struct vb_sampling *cfg, struct vb_case_result *r)
{
    struct vb_err err;
    void *state = NULL;
    double *got = NULL;
    size_t n = f->out_len(p), bad;
    int cap = 0, gpu = !!(v->flags & VB_GPU);
    char label[512];
    vb_err_clear(&err);
    memset(r, 0, sizeof *r);
    r->family = f;
    r->variant = v;
    r->point = *p;
    r->device = gpu ? device : -1;
    r->max_abs_err = r->max_rel_err = r->gst_efficiency = NAN;
    r->stop_reason = "not-run";
    vb_point_format(f, p, r->axes, sizeof r->axes);
    vb_stats_compute(NULL, 0, &r->e2e_ms);
    r->kernel_ms = r->h2d_ms = r->d2h_ms = r->e2e_ms;
    r->start_ns = vb_activity_now();
    if (gpu && device < 0) {
        r->status = VB_STATUS_SKIPPED;
        snprintf(r->reason, sizeof r->reason, "%s", nodev_reason ? nodev_reason : "no CUDA device");
        r->end_ns = r->start_ns;
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
    got = malloc(sizeof *got * (n ? n : 1));
    if (!got) {
        vb_err_set(&err, VB_E_SYS, "out of memory for %zu output values", n);
        fail(r, VB_STATUS_FAILED, &err);
        goto pop;
    }
    if (v->setup(v->tag, p, &state, &err)) {
        vb_err_context(&err, "setup");
        fail(r, VB_STATUS_FAILED, &err);
        goto pop;
    }
    if (gpu) metrics_pass(v, state, device, cfg, r);
    /* verify: poisoned outputs, one sample, compare every element */
    if (v->poison(state, &err) || one_sample(v, state, VB_SAMPLE_VERIFY, r, &cap, &err)) {
        fail(r, VB_STATUS_FAILED, &err);
        goto teardown;
    }
    v->fetch(state, got);
    bad = vb_compare(got, ref, n, f->atol, f->rtol, &r->max_abs_err, &r->max_rel_err);
    if (bad) {
        r->status = VB_STATUS_WRONG;
        snprintf(r->reason, sizeof r->reason,
                 "%s%zu of %zu values out of tolerance (atol %g, rtol %g); max abs error %g",
                 v->flags & VB_EXPECT_WRONG ? "expected (wrong on purpose): " : "", bad, n,
                 f->atol, f->rtol, r->max_abs_err);
    } else if (v->flags & VB_EXPECT_WRONG) {
        snprintf(r->reason, sizeof r->reason,
                 "expected a wrong result (wrong on purpose) but this sample verified");
    }
    if (sample_loop(v, state, cfg, r, &cap, &err)) {
        fail(r, VB_STATUS_FAILED, &err);
        goto teardown;
    }
    if (vb_interrupted && r->status == VB_STATUS_OK) r->status = VB_STATUS_INTERRUPTED;
teardown:
    v->teardown(state);
pop:
    vb_nvtx_pop();
    if (gpu && vb_activity_active()) {
        struct vb_err cerr;
        struct vb_activity rest;
        if (vb_activity_take(&rest, &cerr) == 0) {
            vb_activity_append(&r->activity, &rest); /* after what the metrics pass kept */
            r->have_records = 1;
            attribute(r);
        }
        if (r->activity.dropped && r->status == VB_STATUS_OK)
            snprintf(r->reason, sizeof r->reason, "CUPTI dropped %zu records", r->activity.dropped);
    }
    if (summarise(r) && r->status == VB_STATUS_OK) {
        r->status = VB_STATUS_FAILED;
        snprintf(r->reason, sizeof r->reason, "out of memory summarising samples");
    }
    r->end_ns = vb_activity_now();
    free(got);
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
