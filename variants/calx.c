/*
 * calx family (seed 003, "Numba + GPU notes"): the smoothing convolution of a Lorenz-04
 * model step, and the lesson of its ladder: parallelising the inner sum with plain
 * read-modify-writes is a data race (a wrong answer, recorded as such and never a win),
 * the serial inner loop is correct but loses to the CPU at the seed's size because of the
 * transfers, and a proper reduction parallelises the inner loop correctly. FP64.
 * Workload: model_size from 960 to 1e7 and more, smooth_steps up to 255.
 */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calx.h"
#include "calx_math.h"
#include "varbench.h"

enum kind { NAIVE, SERIAL, REDUCE, TILED, ASYNC, GRAPH, MAPPED, CPU };
enum { AX_SIZE, AX_S };

struct calx {
    enum kind kind;
    long m;
    int S;
    size_t nz, na;
    double *h_a, *h_z, *h_x; /* pageable, as numpy arrays in the seed (pinned beyond the seed) */
    int pinned;
    int packed; /* ASYNC, GRAPH: a right after z in one pinned and one device buffer, one copy */
    int mapped; /* MAPPED: z, a (packed) and x in mapped host memory, d_* their device pointers */
    int blocks; /* MAPPED: the streaming kernel's blocks, half the multiprocessors */
    double *d_a, *d_z, *d_x;
    cudaStream_t s;
    cudaGraphExec_t graph; /* GRAPH: z and a in, the tiled kernel, x back, as one launch */
};

static size_t out_len(const struct vb_point *p)
{
    return (size_t)p->v[AX_SIZE];
}

/* z_part writes elements [lo, hi) of the state z (vb_parallel_for: each element from its
 * index alone, so the parts agree with one serial pass) */
static void z_part(size_t lo, size_t hi, void *ctx, int slot)
{
    double *z = ctx;
    size_t k;
    (void)slot;
    for (k = lo; k < hi; k++)
        z[k] = sin(0.0647 * (double)k) + vb_data_uniform(0xca1c, k, -0.1, 0.1);
}

/* inputs: a triangular smoothing kernel (sums to 1) and a wavy, noisy state z (on all cores:
 * 10^7 sines are ~150 ms on one, in every case's set-up and again in the second metrics sweep) */
static void fill_inputs(long m, int S, double *a, double *z)
{
    size_t k, nz = (size_t)m + 2 * (size_t)S + 2;
    double sum = 0;
    for (k = 0; k <= 2 * (size_t)S; k++)
        sum += a[k] = (double)(S + 1) - fabs((double)k - S);
    for (k = 0; k <= 2 * (size_t)S; k++)
        a[k] /= sum;
    vb_parallel_for(nz, z_part, z);
}

static int reference_into(long m, int S, const double *a, const double *z, double *out)
{
    long i;
    for (i = 0; i < m; i++)
        out[i] = vb_calx_point(a, z, i, S);
    return 0;
}

static int reference(const struct vb_point *p, double *out, struct vb_err *err)
{
    long m = p->v[AX_SIZE];
    int S = (int)p->v[AX_S];
    double *a = malloc(sizeof *a * (2 * (size_t)S + 1));
    double *z = malloc(sizeof *z * ((size_t)m + 2 * (size_t)S + 2));
    if (!a || !z) {
        free(a);
        free(z);
        return vb_err_set(err, VB_E_SYS, "out of memory for calx inputs (model_size %ld)", m);
    }
    fill_inputs(m, S, a, z);
    reference_into(m, S, a, z, out);
    free(a);
    free(z);
    return 0;
}

static void teardown(void *state)
{
    struct calx *c = state;
    if (!c) return;
    if (c->mapped) {
        vb_mapped_free(c->h_z);
        vb_mapped_free(c->h_x);
    } else if (c->pinned) {
        if (!c->packed) vb_pinned_free(c->h_a);
        vb_pinned_free(c->h_z);
        vb_pinned_free(c->h_x);
    } else {
        free(c->h_a);
        free(c->h_z);
        free(c->h_x);
    }
    if (!c->mapped) {
        if (!c->packed) cudaFree(c->d_a);
        cudaFree(c->d_z);
        cudaFree(c->d_x);
    }
    if (c->graph) cudaGraphExecDestroy(c->graph);
    if (c->s) cudaStreamDestroy(c->s);
    free(c);
}

/* issue queues the seed's whole GPU call on c's stream, unwaited: z and a in (packed: one
 * copy of both), the tiled kernel, x back (what the graph rung captures). 0 or -1 with err. */
static int issue(void *state, struct vb_err *err)
{
    const struct calx *c = state;
    return VB_CUDA(err, cudaMemcpyAsync(c->d_z, c->h_z,
                                        sizeof(double) * (c->nz + (c->packed ? c->na : 0)),
                                        cudaMemcpyHostToDevice, c->s)) ||
                   (!c->packed &&
                    VB_CUDA(err, cudaMemcpyAsync(c->d_a, c->h_a, sizeof(double) * c->na,
                                                 cudaMemcpyHostToDevice, c->s))) ||
                   VB_CUDA(err, vb_launch_calx_tiled(c->d_a, c->d_z, c->d_x, c->m, c->S, c->s)) ||
                   VB_CUDA(err, cudaMemcpyAsync(c->h_x, c->d_x, sizeof(double) * (size_t)c->m,
                                                cudaMemcpyDeviceToHost, c->s))
               ? -1
               : 0;
}

static int setup(int tag, const struct vb_point *p, void **state, struct vb_err *err)
{
    enum kind kind = (enum kind)tag;
    struct calx *c;
    if (kind == NAIVE && 2 * p->v[AX_S] + 1 > 1024)
        return vb_err_set(err, VB_E_USAGE, "naive-inner needs 2*smooth_steps+1 <= 1024 threads");
    c = calloc(1, sizeof *c);
    if (!c) return vb_err_set(err, VB_E_SYS, "out of memory");
    *state = c;
    c->kind = kind;
    c->m = p->v[AX_SIZE];
    c->S = (int)p->v[AX_S];
    c->na = 2 * (size_t)c->S + 1;
    c->nz = (size_t)c->m + 2 * (size_t)c->S + 2;
    if (kind >= TILED && kind <= GRAPH) { /* beyond the seed: page-locked host arrays, copied at
                                             PCIe's rate */
        c->pinned = 1;
        c->packed = kind == ASYNC || kind == GRAPH;
        if ((c->packed ? vb_pinned_alloc((void **)&c->h_z, sizeof *c->h_z * (c->nz + c->na), err)
                       : vb_pinned_alloc((void **)&c->h_a, sizeof *c->h_a * c->na, err) ||
                             vb_pinned_alloc((void **)&c->h_z, sizeof *c->h_z * c->nz, err)) ||
            vb_pinned_alloc((void **)&c->h_x, sizeof *c->h_x * (size_t)c->m, err))
            goto fail;
        if (c->packed) c->h_a = c->h_z + c->nz;
    } else if (kind == MAPPED) { /* beyond the seed: the kernel reads and writes host memory */
        int dev = 0, sms = 0;
        c->mapped = c->packed = 1;
        if (VB_CUDA(err, cudaGetDevice(&dev)) ||
            VB_CUDA(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)))
            goto fail;
        c->blocks = sms > 1 ? sms / 2 : 1;
        if (vb_mapped_alloc((void **)&c->h_z, (void **)&c->d_z, sizeof *c->h_z * (c->nz + c->na),
                            err) ||
            vb_mapped_alloc((void **)&c->h_x, (void **)&c->d_x, sizeof *c->h_x * (size_t)c->m, err))
            goto fail;
        c->h_a = c->h_z + c->nz;
    } else {
        c->h_a = malloc(sizeof *c->h_a * c->na);
        c->h_z = malloc(sizeof *c->h_z * c->nz);
        c->h_x = malloc(sizeof *c->h_x * (size_t)c->m);
    }
    if (!c->h_a || !c->h_z || !c->h_x) {
        vb_err_set(err, VB_E_SYS, "out of host memory (model_size %ld)", c->m);
        goto fail;
    }
    fill_inputs(c->m, c->S, c->h_a, c->h_z);
    memset(c->h_x, 0xff, sizeof *c->h_x * (size_t)c->m);
    if (kind != CPU && !c->mapped &&
        ((!c->packed && VB_CUDA(err, cudaMalloc((void **)&c->d_a, sizeof(double) * c->na))) ||
         VB_CUDA(err, cudaMalloc((void **)&c->d_z, sizeof(double) * (c->nz + c->packed * c->na))) ||
         VB_CUDA(err, cudaMalloc((void **)&c->d_x, sizeof(double) * (size_t)c->m))))
        goto fail;
    if (kind != CPU && VB_CUDA(err, cudaStreamCreateWithFlags(&c->s, cudaStreamNonBlocking)))
        goto fail;
    if (c->packed && c->d_z) c->d_a = c->d_z + c->nz;
    if (kind == GRAPH && vb_graph_rung(c->s, issue, c, &c->graph, err)) goto fail;
    return 0;
fail:
    teardown(c);
    *state = NULL;
    return -1;
}

static int poison(void *state, struct vb_err *err)
{
    struct calx *c = state;
    vb_host_poison(c->h_x, sizeof *c->h_x * (size_t)c->m);
    if (c->d_x && !c->mapped &&
        (VB_CUDA(err, cudaMemset(c->d_x, 0xff, sizeof(double) * (size_t)c->m)) ||
         VB_CUDA(err, cudaDeviceSynchronize())))
        return -1;
    return 0;
}

static void fetch(void *state, double *out)
{
    struct calx *c = state;
    memcpy(out, c->h_x, sizeof *out * (size_t)c->m);
}

/* run_gpu: z and a in (two copies), the kernel, x back: the seed's whole GPU call. */
static int run_gpu(void *state, struct vb_err *err)
{
    struct calx *c = state;
    cudaError_t launched;
    int rc;
    vb_nvtx_phase_begin(VB_PHASE_H2D);
    rc = VB_CUDA(err, cudaMemcpyAsync(c->d_z, c->h_z, sizeof(double) * c->nz,
                                      cudaMemcpyHostToDevice, c->s)) ||
         VB_CUDA(err, cudaMemcpyAsync(c->d_a, c->h_a, sizeof(double) * c->na,
                                      cudaMemcpyHostToDevice, c->s));
    if (vb_phase_wait(cudaSuccess, c->s, err) || rc) return -1;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    if (c->kind == NAIVE)
        launched = vb_launch_calx_naive_inner(c->d_a, c->d_z, c->d_x, c->m, c->S, c->s);
    else if (c->kind == SERIAL)
        launched = vb_launch_calx_serial_inner(c->d_a, c->d_z, c->d_x, c->m, c->S, c->s);
    else if (c->kind == REDUCE)
        launched = vb_launch_calx_reduce_inner(c->d_a, c->d_z, c->d_x, c->m, c->S, c->s);
    else
        launched = vb_launch_calx_tiled(c->d_a, c->d_z, c->d_x, c->m, c->S, c->s);
    if (vb_phase_wait(launched, c->s, err)) return -1;
    return vb_phase_copy(VB_PHASE_D2H, c->h_x, c->d_x, sizeof(double) * (size_t)c->m,
                         cudaMemcpyDeviceToHost, c->s, err);
}

/* run_async: tiled-pinned's call with z and a packed: its three calls issued back to back and
 * waited for once, on the stream */
static int run_async(void *state, struct vb_err *err)
{
    struct calx *c = state;
    return vb_phase_issue(VB_PHASE_ONE_WAIT, issue, c, c->s, err);
}

/* run_graph: tiled-async's call, replayed from the graph setup captured: one launch and one
 * wait instead of three calls */
static int run_graph(void *state, struct vb_err *err)
{
    struct calx *c = state;
    return vb_phase_replay(c->graph, issue, c, c->s, err);
}

/* run_mapped: the tiled sums on z and x where the host keeps them: half as many blocks as
 * multiprocessors walk the tiles, each reading its next window over PCIe while it writes x there
 * (measured on an H200 at 1e5 outputs: 48 us against 57 us with a block a tile, which reads and
 * then writes, all blocks at once); a rides in the launch's parameters; nothing is copied; one
 * wait */
static int run_mapped(void *state, struct vb_err *err)
{
    struct calx *c = state;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    return vb_phase_wait(
        vb_launch_calx_tiled_stream(c->h_a, c->d_z, c->d_x, c->m, c->S, c->blocks, c->s), c->s,
        err);
}

static int run_cpu(void *state, struct vb_err *err)
{
    struct calx *c = state;
    int rc;
    vb_nvtx_phase_begin(VB_PHASE_CPU);
    rc = reference_into(c->m, c->S, c->h_a, c->h_z, c->h_x);
    vb_nvtx_phase_end();
    return rc;
}

static void traffic(const struct vb_point *p, struct vb_traffic *t)
{
    uint64_t S = (uint64_t)p->v[AX_S];
    memset(t, 0, sizeof *t);
    t->h2d_bytes = ((uint64_t)p->v[AX_SIZE] + 2 * S + 2 + 2 * S + 1) * sizeof(double);
    t->h2d_count = 2;
    t->d2h_bytes = (uint64_t)p->v[AX_SIZE] * sizeof(double);
    t->d2h_count = 1;
}

/* traffic_packed: the same bytes, z and a in one copy */
static void traffic_packed(const struct vb_point *p, struct vb_traffic *t)
{
    traffic(p, t);
    t->h2d_count = 1;
}

/* traffic_mapped: the same bytes read and written by the kernel in host memory, no copy */
static void traffic_mapped(const struct vb_point *p, struct vb_traffic *t)
{
    traffic(p, t);
    t->mapped_in_bytes = t->h2d_bytes;
    t->mapped_out_bytes = t->d2h_bytes;
    t->h2d_bytes = t->d2h_bytes = 0;
    t->h2d_count = t->d2h_count = 0;
}

static const struct vb_axis axes[] = {
    {"model_size",
     "outputs x[i] (the seed's 960; swept to 1e7 for the CPU/GPU crossover)",
     {960, 10000, 100000, 1000000, 10000000},
     5,
     1,
     400000000,
     NULL,
     NULL},
    {"smooth_steps", "S: 2S+1 terms per output (the seed's 12)", {12}, 1, 1, 255, NULL, NULL},
};

/* z and a read once, x written once (FP64): what any rung's kernel must move */
static uint64_t kernel_bytes(const struct vb_point *p)
{
    uint64_t m = (uint64_t)p->v[AX_SIZE], S = (uint64_t)p->v[AX_S];
    return ((m + 2 * S + 2) + (2 * S + 1) + m) * sizeof(double);
}

static const struct vb_problem calx_fn = {
    .name = "calx",
    .summary = "x[i]: 2S+1 terms of a triangular smoothing kernel over the state z, in double",
    .axes = axes,
    .naxes = 2,
    .out_len = out_len,
    .reference = reference,
    .kernel_bytes = kernel_bytes,
    /* 2S+1 terms of size <= 1.1 summed in another order: float64 round-off is ~1e-15 */
    .atol = 1e-13,
    .rtol = 1e-12,
};

static const struct vb_variant_ops ops = {
    .setup = setup,
    .poison = poison,
    .fetch = fetch,
    .teardown = teardown,
};

static const struct vb_variant variants[] = {
    {.name = "cpu-reference",
     .summary = "the convolution on one CPU core, in double (the oracle; timed for the crossover)",
     .flags = VB_REFERENCE,
     .tag = CPU,
     .run = run_cpu,
     .problem = &calx_fn},
    {.name = "naive-inner",
     .summary = "the seed's race: block per output, thread per term, unsynchronised acc += term",
     .flags = VB_GPU | VB_EXPECT_WRONG,
     .tag = NAIVE,
     .run = run_gpu,
     .traffic = traffic,
     .problem = &calx_fn},
    {.name = "serial-inner",
     .summary = "thread per output, the inner sum serial in that thread (the seed's fix)",
     .flags = VB_GPU,
     .tag = SERIAL,
     .run = run_gpu,
     .traffic = traffic,
     .problem = &calx_fn},
    {.name = "reduce-inner",
     .summary = "warp per output, lanes over the terms, warp-shuffle reduction",
     .flags = VB_GPU,
     .tag = REDUCE,
     .run = run_gpu,
     .traffic = traffic,
     .problem = &calx_fn},
    {.name = "tiled-pinned",
     .summary = "beyond the seed: pinned host arrays; each block stages its window of z in shared "
                "memory once",
     .flags = VB_GPU,
     .tag = TILED,
     .run = run_gpu,
     .traffic = traffic,
     .problem = &calx_fn},
    {.name = "tiled-async",
     .summary = "beyond the seed: z and a packed in one pinned buffer (one H2D), the tiled kernel "
                "and x back issued back to back on the stream, one wait",
     .flags = VB_GPU,
     .tag = ASYNC,
     .run = run_async,
     .traffic = traffic_packed,
     .problem = &calx_fn},
    {.name = "tiled-graph",
     .summary = "beyond the seed: tiled-async's packed copy, kernel and copy back captured once as "
                "a CUDA graph, each sample one launch and one wait",
     .flags = VB_GPU | VB_GRAPH,
     .tag = GRAPH,
     .run = run_graph,
     .traffic = traffic_packed,
     .problem = &calx_fn},
    {.name = "tiled-mapped",
     .summary = "beyond the seed: zero-copy: the tiled sums read z from mapped host memory and "
                "write x there over PCIe, reads and writes at once, a in the launch's parameters; "
                "no copy, one wait",
     .flags = VB_GPU,
     .tag = MAPPED,
     .run = run_mapped,
     .traffic = traffic_mapped,
     .problem = &calx_fn},
};

const struct vb_family vb_family_calx = {
    .name = "calx",
    .summary =
        "smoothing convolution (Lorenz-04): a racy inner loop, its serial fix, a reduction (FP64)",
    .seed = "003_6d4d069bcf16c9eb.txt",
    .ops = &ops,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
};
