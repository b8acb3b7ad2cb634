/*
 * run_gpus: each device's environment and ceilings at the start of `varbench run` (see
 * run_gpus.h).
 */
#include "run_gpus.h"

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activity.h"
#include "env.h"
#include "ledger.h"
#include "trip.h"
#include "stats.h"

/* Each device's environment and ceilings, measured before the collectors start and completed
 * once they have (the traced round trips). */
static struct vb_gpu_env envs[VB_RUN_MAX_DEVICES];
#define PROBE_S 0.5 /* the NVML probe's polling, all boards together */
static struct vb_ceiling ceils[VB_RUN_MAX_DEVICES][VB_CEIL_COUNT];

/* The NVML probe of boards first..last (ledger.h's vb_ledger_periods), run in a thread of its
 * own beside the ceilings' copies: half a second of polling a run would otherwise wait for
 * (the load of the copies moves the power reading, which an idle board may leave unchanged) */
struct probe {
    const char *bus[VB_RUN_MAX_DEVICES];
    struct vb_nvml_periods p[VB_RUN_MAX_DEVICES];
    int n, rc, idle;
    struct vb_err why;
};

static void *probe_main(void *arg)
{
    struct probe *pr = arg;
    vb_err_clear(&pr->why);
    pr->rc = vb_ledger_periods(pr->bus, pr->n, pr->idle ? VB_RUN_IDLE_PROBE_S : PROBE_S, pr->idle,
                               pr->p, &pr->why);
    return NULL;
}

/* probe_done puts the probe's periods into boards first..last's environments; without NVML (or
 * a board it does not know) they stay unknown, said once */
static void probe_done(const struct probe *pr, int first, int last)
{
    int d;
    if (pr->rc) {
        fprintf(stderr, "varbench run: the boards' NVML update periods not measured: %s\n",
                pr->why.msg);
        return;
    }
    for (d = first; d <= last; d++) {
        envs[d].energy_period_ms = pr->p[d - first].energy_ms;
        envs[d].energy_step_mj = pr->p[d - first].energy_step_mj;
        envs[d].power_period_ms = pr->p[d - first].power_ms;
        if (pr->idle) {
            envs[d].idle_w = pr->p[d - first].mean_w;
            envs[d].idle_unc_w = pr->p[d - first].mean_unc_w;
        }
    }
}

int vb_run_gpus(struct vb_store *st, int64_t run_id, int first, int last, int idle, double *peak,
                struct vb_err *err)
{
    static struct probe pr;
    pthread_t tid;
    int d, threaded = 0, rc = 0;
    if (first < 0) return 0;
    for (d = first; d <= last; d++)
        if (vb_env_gpu(d, &envs[d], err)) return -1;
    pr.n = last - first + 1;
    for (d = first; d <= last; d++)
        pr.bus[d - first] = envs[d].bus;
    pr.idle = idle;
    if (!idle && pthread_create(&tid, NULL, probe_main, &pr) == 0) threaded = 1;
    for (d = first; d <= last && !rc; d++) /* each on its device (vb_env_gpu set the last) */
        rc = VB_CUDA(err, cudaSetDevice(d)) || vb_ceilings_measure(256u << 20, 10, ceils[d], err);
    if (threaded)
        pthread_join(tid, NULL);
    else if (!rc) /* idle: after the ceilings' copies, the boards warm and at rest */
        probe_main(&pr);
    if (rc) return -1;
    probe_done(&pr, first, last);
    for (d = first; d <= last; d++) {
        if (vb_store_gpu(st, run_id, &envs[d], err)) return -1;
        peak[d] = envs[d].sm_clock_mhz;
    }
    return 0;
}

/* kernel_time: a kernel record's start and CUPTI duration, ns */
struct kernel_time {
    double start, ns;
};

static int by_start(const void *a, const void *b)
{
    const struct kernel_time *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* median_of sets c to the median of n times (a time, not a bandwidth, unless bytes: then a copy
 * of bytes read and written once) */
static void median_of(struct vb_ceiling *c, const double *ns, size_t n, uint64_t bytes)
{
    c->bytes = bytes;
    c->reps = (int)n;
    c->median_ns = n ? vb_stats_median(ns, n) : 0;
    c->gbps = bytes && c->median_ns > 0 ? 2.0 * (double)bytes / c->median_ns : 0;
}

/* dram_curve takes the records the DRAM curve left (no case's): dram_1mib .. dram_64mib, the
 * median CUPTI time of each size's copies (in start order, VB_DRAM_CURVE_REPS a size; left
 * unmeasured unless all of them came). 0 or -1 with err (out of memory, CUPTI's flush). */
static int dram_curve(struct vb_ceiling *c, struct vb_err *err)
{
    struct vb_activity a;
    struct kernel_time *copy;
    double ns[VB_DRAM_CURVE_REPS];
    size_t i, ncopy = 0;
    int k;
    if (vb_activity_take(&a, err)) return -1;
    if (!(copy = malloc((a.nkernels + 1) * sizeof *copy))) {
        vb_activity_free(&a);
        return vb_err_set(err, VB_E_SYS, "out of memory");
    }
    for (i = 0; i < a.nkernels; i++) {
        const struct vb_kernel_rec *r = &a.kernels[i];
        if (r->end > r->start && strstr(r->name, "probe_stream_copy"))
            copy[ncopy++] = (struct kernel_time){(double)r->start, (double)(r->end - r->start)};
    }
    qsort(copy, ncopy, sizeof *copy, by_start);
    for (k = 0; ncopy == VB_CEIL_CURVE_SIZES * VB_DRAM_CURVE_REPS && k < VB_CEIL_CURVE_SIZES; k++) {
        for (i = 0; i < VB_DRAM_CURVE_REPS; i++)
            ns[i] = copy[(size_t)k * VB_DRAM_CURVE_REPS + i].ns;
        median_of(&c[VB_CEIL_DRAM_1MIB + k], ns, VB_DRAM_CURVE_REPS, vb_ceiling_curve_bytes(k));
    }
    free(copy);
    vb_activity_free(&a);
    return 0;
}

int vb_run_gpus_traced(struct vb_store *st, int64_t run_id, int first, int last,
                       const struct vb_sampling *cfg, struct vb_floor_ceil *floors,
                       void (*done)(const struct vb_gpu_env *g, const struct vb_ceiling *c),
                       struct vb_err *err)
{
    int d;
    for (d = first; d >= 0 && d <= last; d++) {
        struct vb_ceiling *c = ceils[d];
        if (vb_activity_active() &&
            (VB_CUDA(err, cudaSetDevice(d)) || vb_trip_cases(d, cfg, c, err) ||
             vb_ceilings_dram_issue(err) || dram_curve(c, err)))
            return -1;
        if (vb_store_ceilings(st, run_id, d, c, err)) return -1;
        vb_floor_ceil_of(c, &floors[d]);
        done(&envs[d], c);
    }
    return first >= 0 && VB_CUDA(err, cudaSetDevice(first)) ? -1 : 0;
}
