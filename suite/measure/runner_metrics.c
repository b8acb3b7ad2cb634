/*
 * runner_metrics: the metrics pass of a GPU case (runner.h's profiler and profiler_cache): one
 * profiled sample under kernel replay with the case, and the DRAM and L2 counters in the run's
 * second sweep under user replay, the L2 flushed before every launch. Counters never change a
 * case's status: what goes wrong is the case's metrics_status and reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "activity.h"
#include "clock.h"
#include "coldcache.h"
#include "gpu.h"
#include "nvtx.h"
#include "phase.h"
#include "runner_int.h"

/* Kernel launches one profiled sample may hold; the counter image grows with it. */
#define MAX_PROFILED_LAUNCHES 512 /* each launch's flush (two kernels) is ranges too */

/* drop_flushes removes the values of the cold cache's flush launches (profiled ranges like any
 * launch) among vals[from..*n) and numbers the other launches from 0 again. */
static void drop_flushes(struct vb_metric_value *vals, size_t *n, size_t from)
{
    size_t i, kept = from;
    int launch = -1, last = -1;
    for (i = from; i < *n; i++) {
        struct vb_metric_value *m = &vals[i];
        if (!strcmp(m->kernel, VB_PROFILER_HOOK_NAME)) {
            free(m->kernel);
            free(m->metric);
            continue;
        }
        if (m->launch != last) {
            last = m->launch;
            launch++;
        }
        m->launch = launch;
        vals[kept++] = *m;
    }
    *n = kept;
}

/* One profiled run of the case (outputs poisoned once before: no launch of the poison is
 * profiled, and the profiled answers are not checked). */
struct profiled {
    const struct vb_variant *v;
    void *state;
};

static int profiled_run(void *arg, struct vb_err *err)
{
    struct profiled *w = arg;
    return w->v->run(w->state, err);
}

/* profile collects prof's metrics of one sample (one run under kernel replay, one per pass
 * under user replay), each launch preceded by hook, and drops the hook's ranges. The session
 * stays open for the next case: opening one costs ~0.8 s on an H100 (cuptiRangeProfilerStart
 * 0.66-0.80 s, Disable 0.13 s), a kept one ~7 ms a case. A replayed cuFFT launch in a session
 * kept from earlier cases segfaults inside CUPTI now and then (H200, CUPTI 13.0, driver 580:
 * cuLaunchKernel -> libcupti -> libnvperf_host -> libcuda, in ufunc/fft-mask, 2 of 3 whole-
 * catalog runs and 1 of 2 ufunc-only runs; 0 of 8 runs of the fft cases alone, each in a fresh
 * session), so a VB_LIBRARY variant gets a session of its own. Poisoning inside the profiled
 * region did crash (a double free under kernel replay), so it is done before. 0 or -1 with
 * err. */
static int profile(struct vb_profiler *prof, const struct vb_family *f, const struct vb_variant *v,
                   void *state, int device, CUcontext ctx, vb_profiler_hook hook,
                   struct vb_metric_value **vals, size_t *n, int *passes, struct vb_err *err)
{
    struct profiled w = {v, state};
    size_t from = *n;
    int rc;
    if (f->ops && f->ops->poison && f->ops->poison(state, err)) return -1;
    if (v->flags & VB_LIBRARY) vb_profiler_release(prof); /* a fresh session (above) */
    rc = vb_profiler_collect(prof, device, ctx, MAX_PROFILED_LAUNCHES, hook, NULL, profiled_run, &w,
                             vals, n, passes, err);
    drop_flushes(*vals, n, from);
    return rc;
}

/* take_before keeps in r the records so far (set-up: its copies, its NVTX phases); drop_since
 * drops those made since (profiled samples' carry no timestamps). The case's own NVTX range
 * stays open. */
static void take_before(struct vb_case_result *r)
{
    struct vb_err cerr;
    if (vb_activity_active() && vb_activity_take_keep_open(&r->activity, &cerr))
        vb_activity_free(&r->activity);
}

static void drop_since(void)
{
    struct vb_activity dropped;
    struct vb_err cerr;
    if (vb_activity_active() && vb_activity_take_keep_open(&dropped, &cerr) == 0)
        vb_activity_free(&dropped);
}

/* metrics_pass profiles one sample of the variant under kernel replay (cfg->profiler: every
 * metric but the DRAM and L2 counters, which the run's second sweep collects with
 * vb_runner_metrics_again). Kernel replay is what the SASS metrics need (store efficiency among
 * them: user replay reads 0 for them on the H100 with CUPTI 13.0, and so does a graph launch
 * under kernel replay: a graph rung's calls are issued one by one here), and these counters do not
 * depend on what L2 holds, so no flush precedes the launches. Values are kept in r; what goes
 * wrong is recorded in r->metrics_status/reason, never in the case's status. */
void vb_runner_metrics_pass(const struct vb_family *f, const struct vb_variant *v, void *state,
                            int device, const struct vb_sampling *cfg, struct vb_case_result *r)
{
    struct vb_err err;
    CUcontext ctx;
    int rc, passes = 0;
    double t0 = vb_mono_ns();
    vb_err_clear(&err);
    if (!cfg->profiler && !cfg->profiler_cache) {
        r->metrics_status = cfg->no_metrics;
        if (cfg->no_metrics_reason)
            snprintf(r->metrics_reason, sizeof r->metrics_reason, "%s", cfg->no_metrics_reason);
        return;
    }
    if (vb_gpu_current_ctx(&ctx, &err) ||
        (cfg->profiler_cache && vb_profiler_prepare(cfg->profiler_cache, device, ctx, &err)) ||
        (cfg->profiler && vb_profiler_prepare(cfg->profiler, device, ctx, &err))) {
        r->metrics_status = VB_METRICS_UNAVAILABLE;
        vb_err_line(&err, r->metrics_reason, sizeof r->metrics_reason);
        return;
    }
    r->metrics_status = VB_METRICS_OK;
    if (!cfg->profiler) return; /* only DRAM and L2 counters: the second sweep's */
    take_before(r);
    vb_nvtx_push("metrics pass");
    vb_phase_unroll_graphs(1); /* a graph's kernels read 0 for the SASS counters: one by one */
    rc = profile(cfg->profiler, f, v, state, device, ctx, NULL, &r->metrics, &r->nmetrics, &passes,
                 &err);
    vb_phase_unroll_graphs(0);
    vb_profiler_last_ns(cfg->profiler, r->metrics_part_ns);
    vb_nvtx_pop();
    drop_since();
    r->metrics_passes += passes;
    r->metrics_ns = vb_mono_ns() - t0;
    if (rc) {
        r->metrics_status = VB_METRICS_FAILED;
        vb_err_line(&err, r->metrics_reason, sizeof r->metrics_reason);
        return;
    }
    r->gst_efficiency = vb_metric_values_gst(r->metrics, r->nmetrics);
}

int vb_runner_metrics_again(const struct vb_family *f, const struct vb_variant *v,
                            const struct vb_point *p, int device, const struct vb_sampling *cfg,
                            struct vb_metric_value **vals, size_t *n, int *passes, double *ns,
                            int *graphs, struct vb_err *err)
{
    void *state = NULL;
    CUcontext ctx;
    double t0 = vb_mono_ns(), mhz;
    int rc;
    *passes = *graphs = 0;
    if (!cfg->profiler_cache) return 0;
    if (VB_CUDA(err, cudaSetDevice(device)) || vb_gpu_current_ctx(&ctx, err)) return -1;
    drop_since();
    vb_nvtx_push("metrics pass: DRAM and L2 counters");
    if (f->ops && f->ops->setup && f->ops->setup(v->tag, p, &state, err)) {
        if (f->ops->teardown) f->ops->teardown(state);
        vb_err_context(err, "setup");
        vb_nvtx_pop();
        return -1;
    }
    /* the flush's buffers are made before the hook needs them */
    rc = vb_cold_before(cfg->cold, &mhz, err);
    if (!rc) {
        vb_phase_unroll_graphs(1);
        rc = profile(cfg->profiler_cache, f, v, state, device, ctx,
                     cfg->cold ? vb_cold_launch_hook : NULL, vals, n, passes, err);
        *graphs = vb_phase_unroll_graphs(0);
    }
    if (f->ops && f->ops->teardown) f->ops->teardown(state);
    vb_nvtx_pop();
    drop_since();
    *ns = vb_mono_ns() - t0;
    return rc;
}
