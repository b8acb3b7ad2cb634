/*
 * run_gpus: each device's environment and ceilings at the start of `varbench run` (see
 * run_gpus.h).
 */
#include "run_gpus.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "activity.h"
#include "env.h"
#include "stats.h"

/* Each device's environment and ceilings, measured before the collectors start and completed
 * once they have (the traced round trips). */
static struct vb_gpu_env envs[VB_RUN_MAX_DEVICES];
static struct vb_ceiling ceils[VB_RUN_MAX_DEVICES][VB_CEIL_COUNT];

int vb_run_gpus(struct vb_store *st, int64_t run_id, int first, int last, double *peak,
                struct vb_err *err)
{
    int d;
    for (d = first; d >= 0 && d <= last; d++) {
        if (vb_env_gpu(d, &envs[d], err) || vb_store_gpu(st, run_id, &envs[d], err) ||
            vb_ceilings_measure(256u << 20, 10, ceils[d], err))
            return -1;
        peak[d] = envs[d].sm_clock_mhz;
    }
    return 0;
}

/* empty_kernel takes the records the round trips left (no case's) and sets c to the median
 * CUPTI duration of their empty kernels. 0 or -1 with err (out of memory, CUPTI's flush). */
static int empty_kernel(struct vb_ceiling *c, struct vb_err *err)
{
    struct vb_activity a;
    double *ns;
    size_t i, n = 0;
    if (vb_activity_take(&a, err)) return -1;
    if (!(ns = malloc((a.nkernels + 1) * sizeof *ns))) {
        vb_activity_free(&a);
        return vb_err_set(err, VB_E_SYS, "out of memory");
    }
    for (i = 0; i < a.nkernels; i++)
        if (strstr(a.kernels[i].name, "probe_empty") && a.kernels[i].end > a.kernels[i].start)
            ns[n++] = (double)(a.kernels[i].end - a.kernels[i].start);
    c->bytes = 0;
    c->reps = (int)n;
    c->median_ns = n ? vb_stats_median(ns, n) : 0;
    c->gbps = 0;
    free(ns);
    vb_activity_free(&a);
    return 0;
}

int vb_run_gpus_traced(struct vb_store *st, int64_t run_id, int first, int last,
                       struct vb_floor_ceil *floors,
                       void (*done)(const struct vb_gpu_env *g, const struct vb_ceiling *c),
                       struct vb_err *err)
{
    int d;
    for (d = first; d >= 0 && d <= last; d++) {
        struct vb_ceiling *c = ceils[d];
        if (vb_activity_active() &&
            (VB_CUDA(err, cudaSetDevice(d)) ||
             vb_ceilings_round_trips(&c[VB_CEIL_ROUNDTRIP_TRACED],
                                     &c[VB_CEIL_ROUNDTRIP_GRAPH_TRACED], err) ||
             empty_kernel(&c[VB_CEIL_KERNEL_EMPTY], err)))
            return -1;
        if (vb_store_ceilings(st, run_id, d, c, err)) return -1;
        vb_floor_ceil_of(c, &floors[d]);
        done(&envs[d], c);
    }
    return first >= 0 && VB_CUDA(err, cudaSetDevice(first)) ? -1 : 0;
}
