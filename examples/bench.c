/*
 * example: a team's own kernels measured by varbench, built out of tree against the installed
 * package (CMakeLists.txt beside this file). One family, "ex", of two problems:
 *   triad      out = a x + y, float or double (a string axis, the type-like axis), the arrays
 *              resident on the device: memory-bound, its global-memory bytes declared, so its
 *              floor is the run's measured DRAM ceiling; a CPU reference rung beside it
 *   roundtrip  out = sqrt(x) + 1 from pinned host memory and back: H2D, kernel, D2H, each a phase
 * Build it with -DEXAMPLE_SLOW=1 and the triad's accesses are uncoalesced: `varbench compare`
 * of the two builds' runs names ex/device-triad and its kernel phase.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <varbench.h>

#include "kernels.h"

#define A 2.0

enum tag { TRIAD_CPU, TRIAD_DEVICE, ROUNDTRIP_PINNED };

struct ex {
    enum tag tag;
    size_t n, elt; /* elements and bytes each (4 float, 8 double) */
    int fp64;
    void *x, *y, *out;   /* device arrays (triad), or pinned host ones (roundtrip) */
    double *d_x, *d_out; /* roundtrip's device arrays */
    double *ref;         /* the CPU rung's answer */
    cudaStream_t s;
};

static const char *const types[] = {"float", "double"};

static double x_of(size_t i)
{
    return vb_data_uniform(1, i, 0.0, 1.0);
}

static double y_of(size_t i)
{
    return vb_data_uniform(2, i, 0.0, 1.0);
}

static size_t out_len(const struct vb_point *p)
{
    return (size_t)vb_axis_int(p, "n");
}

/* the oracle, in double, from the inputs as the variant's type holds them */
static int triad_ref(const struct vb_point *p, double *out, struct vb_err *err)
{
    size_t i, n = out_len(p);
    int fp64 = !strcmp(vb_axis_string(p, "type"), "double");
    for (i = 0; i < n; i++)
        out[i] = fp64 ? A * x_of(i) + y_of(i) : A * (float)x_of(i) + (float)y_of(i);
    return 0;
}

static int roundtrip_ref(const struct vb_point *p, double *out, struct vb_err *err)
{
    size_t i, n = out_len(p);
    for (i = 0; i < n; i++)
        out[i] = sqrt(x_of(i)) + 1.0;
    return 0;
}

static void teardown(void *state)
{
    struct ex *e = state;
    if (!e) return;
    if (e->tag == ROUNDTRIP_PINNED) {
        vb_pinned_free(e->x);
        vb_pinned_free(e->out);
        cudaFree(e->d_x);
        cudaFree(e->d_out);
    } else {
        cudaFree(e->x);
        cudaFree(e->y);
        cudaFree(e->out);
    }
    free(e->ref);
    if (e->s) cudaStreamDestroy(e->s);
    free(e);
}

/* fill_triad writes the inputs in the variant's type and copies them to the device */
static int fill_triad(struct ex *e, struct vb_err *err)
{
    size_t i, bytes = e->n * e->elt;
    char *hx = vb_host_alloc(bytes, err), *hy = hx ? vb_host_alloc(bytes, err) : NULL;
    int rc = -1;
    if (hx && hy) {
        for (i = 0; i < e->n; i++) {
            if (e->fp64) {
                ((double *)hx)[i] = x_of(i);
                ((double *)hy)[i] = y_of(i);
            } else {
                ((float *)hx)[i] = (float)x_of(i);
                ((float *)hy)[i] = (float)y_of(i);
            }
        }
        rc = VB_CUDA(err, cudaMemcpy(e->x, hx, bytes, cudaMemcpyHostToDevice)) ||
                     VB_CUDA(err, cudaMemcpy(e->y, hy, bytes, cudaMemcpyHostToDevice))
                 ? -1
                 : 0;
    }
    free(hx);
    free(hy);
    return rc;
}

static int setup(int tag, const struct vb_point *p, void **state, struct vb_err *err)
{
    struct ex *e = calloc(1, sizeof *e);
    size_t i, free_b = 0, total_b = 0;
    if (!(*state = e)) return vb_err_set(err, VB_E_SYS, "out of memory");
    e->tag = (enum tag)tag;
    e->n = out_len(p);
    if (tag == TRIAD_CPU) {
        e->ref = vb_host_alloc(e->n * sizeof *e->ref, err);
        return e->ref ? 0 : -1;
    }
    if (VB_CUDA(err, cudaStreamCreateWithFlags(&e->s, cudaStreamNonBlocking))) return -1;
    if (tag == ROUNDTRIP_PINNED) {
        vb_summary("blocks", (double)((e->n + 255) / 256), NULL);
        if (vb_pinned_alloc(&e->x, e->n * sizeof(double), err) ||
            vb_pinned_alloc(&e->out, e->n * sizeof(double), err) ||
            VB_CUDA(err, cudaMalloc((void **)&e->d_x, e->n * sizeof(double))) ||
            VB_CUDA(err, cudaMalloc((void **)&e->d_out, e->n * sizeof(double))))
            return -1;
        for (i = 0; i < e->n; i++)
            ((double *)e->x)[i] = x_of(i);
        return 0;
    }
    e->fp64 = !strcmp(vb_axis_string(p, "type"), "double");
    e->elt = e->fp64 ? sizeof(double) : sizeof(float);
    vb_summary("bytes_per_element", 3.0 * (double)e->elt, "B");
    if (VB_CUDA(err, cudaMemGetInfo(&free_b, &total_b))) return -1;
    if (3 * e->n * e->elt > free_b / 2)
        return vb_skip(err, "needs %zu MiB, the GPU has %zu MiB free", 3 * e->n * e->elt >> 20,
                       free_b >> 20);
    if (VB_CUDA(err, cudaMalloc(&e->x, e->n * e->elt)) ||
        VB_CUDA(err, cudaMalloc(&e->y, e->n * e->elt)) ||
        VB_CUDA(err, cudaMalloc(&e->out, e->n * e->elt)))
        return -1;
    return fill_triad(e, err);
}

static int poison(void *state, struct vb_err *err)
{
    struct ex *e = state;
    if (e->tag == TRIAD_CPU) {
        memset(e->ref, 0xff, e->n * sizeof *e->ref); /* all ones: NaN */
        return 0;
    }
    if (e->tag == ROUNDTRIP_PINNED) {
        memset(e->out, 0xff, e->n * sizeof(double));
        return VB_CUDA(err, cudaMemset(e->d_out, 0xff, e->n * sizeof(double)));
    }
    return VB_CUDA(err, cudaMemset(e->out, 0xff, e->n * e->elt));
}

static void fetch(void *state, double *out)
{
    struct ex *e = state;
    size_t i;
    if (e->tag == TRIAD_CPU) {
        memcpy(out, e->ref, e->n * sizeof *out);
        return;
    }
    if (e->tag == ROUNDTRIP_PINNED) {
        memcpy(out, e->out, e->n * sizeof *out);
        return;
    }
    /* the triad's answer stays on the device (VB_RESIDENT): copied out here, untimed */
    {
        void *h = malloc(e->n * e->elt);
        if (!h || cudaMemcpy(h, e->out, e->n * e->elt, cudaMemcpyDeviceToHost) != cudaSuccess) {
            for (i = 0; i < e->n; i++)
                out[i] = NAN; /* fails verification, as it must */
        } else {
            for (i = 0; i < e->n; i++)
                out[i] = e->fp64 ? ((double *)h)[i] : ((float *)h)[i];
        }
        free(h);
    }
}

static int run_cpu(void *state, struct vb_err *err)
{
    struct ex *e = state;
    size_t i;
    vb_nvtx_phase_begin(VB_PHASE_CPU);
    for (i = 0; i < e->n; i++)
        e->ref[i] = A * x_of(i) + y_of(i);
    vb_nvtx_phase_end();
    return 0;
}

static int run_triad(void *state, struct vb_err *err)
{
    struct ex *e = state;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    return vb_phase_wait(ex_launch_triad(e->fp64, A, e->x, e->y, e->out, e->n, e->s), e->s, err);
}

static int run_roundtrip(void *state, struct vb_err *err)
{
    struct ex *e = state;
    size_t bytes = e->n * sizeof(double);
    if (vb_phase_copy(VB_PHASE_H2D, e->d_x, e->x, bytes, cudaMemcpyHostToDevice, e->s, err))
        return -1;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    if (vb_phase_wait(ex_launch_sqrt1(e->d_x, e->d_out, e->n, e->s), e->s, err)) return -1;
    return vb_phase_copy(VB_PHASE_D2H, e->out, e->d_out, bytes, cudaMemcpyDeviceToHost, e->s, err);
}

/* the triad reads x and y and writes out: 3 elements a thread, 2 flops */
static void triad_traffic(const struct vb_point *p, struct vb_traffic *t)
{
    double elt = !strcmp(vb_axis_string(p, "type"), "double") ? 8 : 4, n = (double)out_len(p);
    memset(t, 0, sizeof *t);
    t->gmem_read_bytes = (uint64_t)(2 * n * elt);
    t->gmem_write_bytes = (uint64_t)(n * elt);
    t->elements = n;
    t->flops = 2 * n;
}

static void roundtrip_traffic(const struct vb_point *p, struct vb_traffic *t)
{
    uint64_t bytes = out_len(p) * sizeof(double);
    memset(t, 0, sizeof *t);
    t->h2d_bytes = t->d2h_bytes = bytes;
    t->h2d_count = t->d2h_count = 1;
    t->gmem_read_bytes = t->gmem_write_bytes = bytes;
    t->elements = (double)out_len(p);
}

static const struct vb_axis triad_axes[] = {
    {.name = "n", .doc = "elements", .spec = "2^20:2^26:2"},
    {.name = "type",
     .doc = "the arrays' type",
     .defaults = {0, 1},
     .ndefaults = 2,
     .max = 1,
     .labels = types},
};

static const struct vb_axis roundtrip_axes[] = {
    {.name = "n", .doc = "doubles each way", .spec = "1000,100000,10000000"},
};

static const struct vb_problem triad = {
    .name = "triad",
    .summary = "out = 2 x + y over n elements, float or double",
    .axes = triad_axes,
    .naxes = 2,
    .out_len = out_len,
    .reference = triad_ref,
    .atol = 1e-6,
    .rtol = 1e-6,
};

static const struct vb_problem roundtrip = {
    .name = "roundtrip",
    .summary = "out = sqrt(x) + 1 from pinned host memory and back",
    .axes = roundtrip_axes,
    .naxes = 1,
    .out_len = out_len,
    .reference = roundtrip_ref,
    .atol = 1e-12,
    .rtol = 1e-12,
};

static const struct vb_variant_ops ops = {
    .setup = setup, .poison = poison, .fetch = fetch, .teardown = teardown};

static const struct vb_variant variants[] = {
    {.name = "cpu-triad",
     .summary = "the triad on one CPU core, in double (the oracle)",
     .flags = VB_REFERENCE,
     .tag = TRIAD_CPU,
     .run = run_cpu,
     .problem = &triad},
    {.name = "device-triad",
     .summary = "the triad on device-resident arrays, one kernel",
     .flags = VB_GPU | VB_RESIDENT,
     .tag = TRIAD_DEVICE,
     .run = run_triad,
     .traffic = triad_traffic,
     .problem = &triad},
    {.name = "pinned-roundtrip",
     .summary = "copy in, sqrt(x) + 1, copy back, pinned buffers",
     .flags = VB_GPU,
     .tag = ROUNDTRIP_PINNED,
     .run = run_roundtrip,
     .traffic = roundtrip_traffic,
     .problem = &roundtrip},
};

static const struct vb_family ex = {
    .name = "ex",
    .summary = "the example project's kernels: a STREAM triad and a host round trip",
    .ops = &ops,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
};

VB_MAIN(&ex)
