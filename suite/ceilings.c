/*
 * ceilings: copy bandwidth measured with CUDA events around single cudaMemcpyAsync calls
 * on one stream (median of reps). Pageable copies go through the same call from malloc'd,
 * pre-touched memory, which is what a variant using pageable buffers gets.
 */
#include "ceilings.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "stats.h"

static const char *const names[] = {
#define X(id, name) name,
    VB_CEILINGS(X)
#undef X
};

const char *vb_ceiling_name(enum vb_ceiling_id id)
{
    return id < VB_CEIL_COUNT ? names[id] : "?";
}

/* time_copy times reps copies of n bytes from src to dst; fills c. */
static int time_copy(void *dst, const void *src, uint64_t n, enum cudaMemcpyKind kind, int reps,
                     cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1, struct vb_ceiling *c,
                     struct vb_err *err)
{
    double *ns = malloc((size_t)reps * sizeof *ns);
    float ms;
    int i;
    if (!ns) return vb_err_set(err, VB_E_SYS, "out of memory");
    for (i = -1; i < reps; i++) {
        if (VB_CUDA(err, cudaEventRecord(e0, s)) ||
            VB_CUDA(err, cudaMemcpyAsync(dst, src, (size_t)n, kind, s)) ||
            VB_CUDA(err, cudaEventRecord(e1, s)) || VB_CUDA(err, cudaEventSynchronize(e1)) ||
            VB_CUDA(err, cudaEventElapsedTime(&ms, e0, e1))) {
            free(ns);
            return -1;
        }
        if (i >= 0) ns[i] = (double)ms * 1e6;
    }
    c->bytes = n;
    c->reps = reps;
    c->median_ns = vb_stats_median(ns, (size_t)reps);
    c->gbps = (double)n * (kind == cudaMemcpyDeviceToDevice ? 2.0 : 1.0) / c->median_ns;
    free(ns);
    return 0;
}

/* time_stream times reps streaming-kernel copies of n bytes (a multiple of 16) from src to
 * dst; c gets the median, counting bytes read plus written. */
static int time_stream(void *dst, const void *src, uint64_t n, int reps, cudaStream_t s,
                       cudaEvent_t e0, cudaEvent_t e1, struct vb_ceiling *c, struct vb_err *err)
{
    double *ns = malloc((size_t)reps * sizeof *ns);
    float ms;
    int i;
    if (!ns) return vb_err_set(err, VB_E_SYS, "out of memory");
    for (i = -1; i < reps; i++) {
        if (VB_CUDA(err, cudaEventRecord(e0, s)) ||
            VB_CUDA(err, vb_launch_probe_stream_copy(dst, src, (size_t)n / 16, s)) ||
            VB_CUDA(err, cudaEventRecord(e1, s)) || VB_CUDA(err, cudaEventSynchronize(e1)) ||
            VB_CUDA(err, cudaEventElapsedTime(&ms, e0, e1))) {
            free(ns);
            return -1;
        }
        if (i >= 0) ns[i] = (double)ms * 1e6;
    }
    c->bytes = n;
    c->reps = reps;
    c->median_ns = vb_stats_median(ns, (size_t)reps);
    c->gbps = 2.0 * (double)n / c->median_ns;
    free(ns);
    return 0;
}

/* time_launch times reps batches of LAUNCHES empty kernels back to back on s; c gets one
 * launch's median time (the floor of a kernel too small for its bytes to matter). */
#define LAUNCHES 200
static int time_launch(int reps, cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1,
                       struct vb_ceiling *c, struct vb_err *err)
{
    double *ns = malloc((size_t)reps * sizeof *ns);
    float ms;
    int i, k;
    if (!ns) return vb_err_set(err, VB_E_SYS, "out of memory");
    for (i = -1; i < reps; i++) {
        int bad = VB_CUDA(err, cudaEventRecord(e0, s));
        for (k = 0; k < LAUNCHES && !bad; k++)
            bad = VB_CUDA(err, vb_launch_probe_empty(s));
        if (bad || VB_CUDA(err, cudaEventRecord(e1, s)) || VB_CUDA(err, cudaEventSynchronize(e1)) ||
            VB_CUDA(err, cudaEventElapsedTime(&ms, e0, e1))) {
            free(ns);
            return -1;
        }
        if (i >= 0) ns[i] = (double)ms * 1e6 / LAUNCHES;
    }
    c->bytes = 0;
    c->reps = reps;
    c->median_ns = vb_stats_median(ns, (size_t)reps);
    c->gbps = 0;
    free(ns);
    return 0;
}

int vb_ceilings_measure(uint64_t bytes, int reps, struct vb_ceiling out[VB_CEIL_COUNT],
                        struct vb_err *err)
{
    void *d0 = NULL, *d1 = NULL, *pin = NULL, *page = NULL;
    cudaStream_t s = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    size_t freeb = 0, total = 0;
    int rc = -1, i;
    memset(out, 0, sizeof *out * VB_CEIL_COUNT);
    for (i = 0; i < VB_CEIL_COUNT; i++)
        out[i].name = names[i];
    if (VB_CUDA(err, cudaMemGetInfo(&freeb, &total))) return -1;
    if (bytes > freeb / 4) bytes = freeb / 4;
    if (VB_CUDA(err, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) ||
        VB_CUDA(err, cudaEventCreate(&e0)) || VB_CUDA(err, cudaEventCreate(&e1)) ||
        VB_CUDA(err, cudaMalloc(&d0, bytes)) || VB_CUDA(err, cudaMalloc(&d1, bytes)) ||
        VB_CUDA(err, cudaMallocHost(&pin, bytes)))
        goto out;
    page = malloc(bytes);
    if (!page) {
        vb_err_set(err, VB_E_SYS, "malloc(%llu): out of host memory", (unsigned long long)bytes);
        goto out;
    }
    /* touch every page and give the copies non-zero data */
    memset(page, 0x5a, bytes);
    memset(pin, 0x5a, bytes);
    if (VB_CUDA(err, cudaMemset(d0, 0x3c, bytes)) || VB_CUDA(err, cudaMemset(d1, 0x3c, bytes)))
        goto out;
    if (time_copy(d0, pin, bytes, cudaMemcpyHostToDevice, reps, s, e0, e1, &out[VB_CEIL_H2D_PINNED],
                  err) ||
        time_copy(pin, d0, bytes, cudaMemcpyDeviceToHost, reps, s, e0, e1, &out[VB_CEIL_D2H_PINNED],
                  err) ||
        time_copy(d0, page, bytes, cudaMemcpyHostToDevice, reps, s, e0, e1,
                  &out[VB_CEIL_H2D_PAGEABLE], err) ||
        time_copy(page, d0, bytes, cudaMemcpyDeviceToHost, reps, s, e0, e1,
                  &out[VB_CEIL_D2H_PAGEABLE], err) ||
        time_copy(d1, d0, bytes, cudaMemcpyDeviceToDevice, reps, s, e0, e1, &out[VB_CEIL_D2D],
                  err) ||
        time_stream(d1, d0, bytes & ~(uint64_t)15, reps, s, e0, e1, &out[VB_CEIL_DRAM], err) ||
        time_launch(reps, s, e0, e1, &out[VB_CEIL_LAUNCH], err))
        goto out;
    rc = 0;
out:
    free(page);
    if (pin) cudaFreeHost(pin);
    if (d0) cudaFree(d0);
    if (d1) cudaFree(d1);
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    if (s) cudaStreamDestroy(s);
    return rc;
}
