/*
 * ceilings: copy bandwidth measured with CUDA events around single cudaMemcpyAsync calls
 * on one stream (median of reps), and the same around the streaming kernel's copy and a batch
 * of empty launches. Pageable copies go through the same call from malloc'd,
 * pre-touched memory, which is what a variant using pageable buffers gets. The round trips are
 * timed on the host's clock, each waited for: what a sample that copies in, computes and copies
 * back waits at least.
 */
#include "ceilings.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "coldcache.h"
#include "varbench.h"
#include "probe.h"
#include "stats.h"
#include "trip.h"

/* One thing timed: a copy of n bytes of the given kind, the streaming kernel's copy of n bytes,
 * the mapped copy kernel's (from mapped host memory to mapped host memory), or LAUNCHES empty
 * kernels back to back. */
#define LAUNCHES     200
#define MAPPED_BYTES ((uint64_t)64 << 20) /* the mapped ceiling's bytes each way */
enum op { OP_COPY, OP_STREAM, OP_MAPPED, OP_LAUNCH };
struct timed {
    enum op op;
    void *dst;
    const void *src;
    uint64_t n;
    enum cudaMemcpyKind kind;
};

/* issue queues one repetition of t on s. */
static cudaError_t issue(const struct timed *t, cudaStream_t s)
{
    cudaError_t rc = cudaSuccess;
    int k;
    if (t->op == OP_COPY) return cudaMemcpyAsync(t->dst, t->src, (size_t)t->n, t->kind, s);
    if (t->op == OP_STREAM)
        return vb_launch_probe_stream_copy(t->dst, t->src, (size_t)t->n / 16, s);
    if (t->op == OP_MAPPED) return vb_launch_probe_mapped_copy(t->dst, t->src, (size_t)t->n / 8, s);
    for (k = 0; k < LAUNCHES && rc == cudaSuccess; k++)
        rc = vb_launch_probe_empty(s);
    return rc;
}

/* time_op times reps repetitions of t (after one warm-up) between events on s; c gets the
 * median time (of one launch, for the launches) and the bandwidth, counting bytes read plus
 * written for a device-to-device copy, the bytes each way for the mapped copy (both ways at
 * once over PCIe), 0 for the launches. 0 or -1 with err. */
static int time_op(const struct timed *t, int reps, cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1,
                   struct vb_ceiling *c, struct vb_err *err)
{
    double *ns = malloc((size_t)reps * sizeof *ns), per = t->op == OP_LAUNCH ? LAUNCHES : 1;
    float ms;
    int i;
    if (!ns) return vb_err_set(err, VB_E_SYS, "out of memory");
    for (i = -1; i < reps; i++) {
        if (VB_CUDA(err, cudaEventRecord(e0, s)) || VB_CUDA(err, issue(t, s)) ||
            VB_CUDA(err, cudaEventRecord(e1, s)) || VB_CUDA(err, cudaEventSynchronize(e1)) ||
            VB_CUDA(err, cudaEventElapsedTime(&ms, e0, e1))) {
            free(ns);
            return -1;
        }
        if (i >= 0) ns[i] = (double)ms * 1e6 / per;
    }
    c->bytes = t->op == OP_LAUNCH ? 0 : t->n;
    c->reps = reps;
    c->median_ns = vb_stats_median(ns, (size_t)reps);
    c->gbps = t->op == OP_LAUNCH
                  ? 0
                  : (double)t->n *
                        (t->op == OP_STREAM || t->kind == cudaMemcpyDeviceToDevice ? 2 : 1) /
                        c->median_ns;
    free(ns);
    return 0;
}

int vb_ceilings_measure(uint64_t bytes, int reps, struct vb_ceiling out[VB_CEIL_COUNT],
                        struct vb_err *err)
{
    void *d0 = NULL, *d1 = NULL, *pin = NULL, *page = NULL, *m0 = NULL, *m1 = NULL, *m0d, *m1d;
    cudaStream_t s = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    size_t freeb = 0, total = 0;
    int rc = -1, i;
    memset(out, 0, sizeof *out * VB_CEIL_COUNT);
    for (i = 0; i < VB_CEIL_COUNT; i++)
        out[i].name = vb_ceiling_name((enum vb_ceiling_id)i);
    if (VB_CUDA(err, cudaMemGetInfo(&freeb, &total))) return -1;
    if (bytes > freeb / 4) bytes = freeb / 4;
    if (VB_CUDA(err, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) ||
        VB_CUDA(err, cudaEventCreate(&e0)) || VB_CUDA(err, cudaEventCreate(&e1)) ||
        VB_CUDA(err, cudaMalloc(&d0, bytes)) || VB_CUDA(err, cudaMalloc(&d1, bytes)) ||
        VB_CUDA(err, cudaMallocHost(&pin, bytes)) ||
        vb_mapped_alloc(&m0, &m0d, MAPPED_BYTES, err) ||
        vb_mapped_alloc(&m1, &m1d, MAPPED_BYTES, err))
        goto out;
    page = malloc(bytes);
    if (!page) {
        vb_err_set(err, VB_E_SYS, "malloc(%llu): out of host memory", (unsigned long long)bytes);
        goto out;
    }
    /* touch every page and give the copies non-zero data */
    memset(page, 0x5a, bytes);
    memset(pin, 0x5a, bytes);
    memset(m0, 0x5a, MAPPED_BYTES);
    memset(m1, 0x3c, MAPPED_BYTES);
    if (VB_CUDA(err, cudaMemset(d0, 0x3c, bytes)) || VB_CUDA(err, cudaMemset(d1, 0x3c, bytes)))
        goto out;
    {
        const struct timed ops[VB_CEIL_ROUNDTRIP] = {
            [VB_CEIL_H2D_PINNED] = {OP_COPY, d0, pin, bytes, cudaMemcpyHostToDevice},
            [VB_CEIL_D2H_PINNED] = {OP_COPY, pin, d0, bytes, cudaMemcpyDeviceToHost},
            [VB_CEIL_H2D_PAGEABLE] = {OP_COPY, d0, page, bytes, cudaMemcpyHostToDevice},
            [VB_CEIL_D2H_PAGEABLE] = {OP_COPY, page, d0, bytes, cudaMemcpyDeviceToHost},
            [VB_CEIL_D2D] = {OP_COPY, d1, d0, bytes, cudaMemcpyDeviceToDevice},
            [VB_CEIL_DRAM] = {OP_STREAM, d1, d0, bytes & ~(uint64_t)15, cudaMemcpyDeviceToDevice},
            [VB_CEIL_LAUNCH] = {OP_LAUNCH, NULL, NULL, 0, cudaMemcpyDefault},
            [VB_CEIL_MAPPED] = {OP_MAPPED, m1d, m0d, MAPPED_BYTES, cudaMemcpyDefault}};
        for (i = 0; i < VB_CEIL_ROUNDTRIP; i++)
            if (time_op(&ops[i], reps, s, e0, e1, &out[i], err)) goto out;
    }
    /* the pageable curves: a pageable copy's rate moves with its size (the driver stages it) */
    for (i = 0; i < VB_CEIL_CURVE_SIZES && vb_ceiling_curve_bytes(i) <= bytes; i++) {
        const struct timed h2d = {OP_COPY, d0, page, vb_ceiling_curve_bytes(i),
                                  cudaMemcpyHostToDevice},
                           d2h = {OP_COPY, page, d0, vb_ceiling_curve_bytes(i),
                                  cudaMemcpyDeviceToHost};
        if (time_op(&h2d, reps, s, e0, e1, &out[VB_CEIL_H2D_PAGEABLE_1MIB + i], err) ||
            time_op(&d2h, reps, s, e0, e1, &out[VB_CEIL_D2H_PAGEABLE_1MIB + i], err))
            goto out;
    }
    if (vb_trip_bare(out, err)) goto out;
    rc = 0;
out:
    free(page);
    if (pin) cudaFreeHost(pin);
    vb_mapped_free(m0);
    vb_mapped_free(m1);
    if (d0) cudaFree(d0);
    if (d1) cudaFree(d1);
    if (e0) cudaEventDestroy(e0);
    if (e1) cudaEventDestroy(e1);
    if (s) cudaStreamDestroy(s);
    return rc;
}

int vb_ceilings_dram_issue(struct vb_err *err)
{
    uint64_t most = vb_ceiling_curve_bytes(VB_CEIL_CURVE_SIZES - 1);
    void *d0 = NULL, *d1 = NULL;
    cudaStream_t s = NULL;
    double mhz;
    int rc = -1, k, i;
    if (VB_CUDA(err, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)) ||
        VB_CUDA(err, cudaMalloc(&d0, most)) || VB_CUDA(err, cudaMalloc(&d1, most)) ||
        VB_CUDA(err, cudaMemset(d0, 0x3c, most)) || VB_CUDA(err, cudaDeviceSynchronize()))
        goto out;
    for (k = 0; k < VB_CEIL_CURVE_SIZES; k++)
        for (i = 0; i < VB_DRAM_CURVE_REPS; i++)
            if (vb_cold_before(1, &mhz, err) ||
                VB_CUDA(err,
                        vb_launch_probe_stream_copy(d1, d0, vb_ceiling_curve_bytes(k) / 16, s)) ||
                VB_CUDA(err, cudaStreamSynchronize(s)))
                goto out;
    rc = 0;
out:
    if (d0) cudaFree(d0);
    if (d1) cudaFree(d1);
    if (s) cudaStreamDestroy(s);
    return rc;
}
