/*
 * ufunc family (seed 002, "seven things about Numba"): the seed's GPU points, one problem
 * each. gaussian: a @vectorize ufunc with broadcast scalars called on host arrays (every call
 * copies in and out) against device-resident arrays (the kernel only). clamp: a grid-stride
 * loop calling a function shared by host and device (ufunc_math.h; the seed's CUDA C++ clamp
 * is wrong and tests/test_ufunc.c shows the check catching it). cos: the seed's gpu_cos loop
 * launched as gpu_cos[64, 64] against a launch that fills the device. fft-mask: a 720 x 1280
 * complex64 frame through cuFFT forward, a mask-multiply kernel and cuFFT inverse, all on the
 * device, against the same steps with the frame round-tripping to the host between them.
 * float32 on the GPU as in the seed, double in the references. Workload: n up to 2^30
 * elements (4 GiB per array), frames up to 8192 x 8192.
 */
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "varbench.h"
#include "ufunc.h"
#include "ufunc_fft.h"
#include "ufunc_inputs.h"
#include "ufunc_math.h"

#define DIRECT_DFT_MAX 4096 /* frames this small: the reference is a direct DFT */

enum kind {
    GAUSS_HOST,
    GAUSS_DEVICE,
    CLAMP,
    COS_64,
    COS_FULL,
    FFT_DEVICE,
    FFT_HOST,
    FFT_PINNED,
    CLAMP_PINNED, /* clamp-gridstride and cos-full with page-locked host arrays */
    COS_PINNED,
    GAUSS_VEC4,
    GAUSS_HOISTED, /* GPU */
    CPU_GAUSS,
    CPU_CLAMP,
    CPU_COS,
    CPU_FFT /* the references (is_cpu) */
};
enum { AX_H, AX_W }; /* the frame axes of fft-mask */

struct ufunc {
    enum kind kind;
    size_t n;   /* elements, or frame points h * w */
    long h, w;  /* fft-mask's frame */
    int sms;    /* the device's multiprocessors (clamp's grid) */
    float *h_x; /* input: n floats, or the h x w complex64 frame (interleaved); pageable */
    float *h_out, *h_tmp; /* the answer; fft-mask-host's spectrum between steps; pageable */
    int pinned;           /* h_x and h_out are page-locked (fft-mask-pinned) */
    double *h_ref;        /* a CPU variant's answer */
    float *d_x, *d_out;   /* fft: d_x is the frame, transformed in place; d_out unused */
    float *d_mask;
    cufftHandle plan;
    int have_plan;
    cudaStream_t s;
};

/* ---- the problems' references ---- */

static size_t n_len(const struct vb_point *p)
{
    return (size_t)p->v[0];
}

static uint64_t n_bytes(const struct vb_point *p)
{
    return (uint64_t)p->v[0] * 2 * sizeof(float); /* one float read, one written */
}

static size_t frame_len(const struct vb_point *p)
{
    return 2 * (size_t)p->v[AX_H] * (size_t)p->v[AX_W]; /* (re, im) per point */
}

/* The element-wise references, elements [lo, hi): the oracle runs them on all cores, the timed
 * reference cases over the whole range on one. */
static void part_gaussian(const struct vb_point *p, double *out, size_t lo, size_t hi)
{
    size_t i, n = n_len(p);
    for (i = lo; i < hi; i++)
        out[i] = vb_gaussian_d((double)gauss_x(i, n), VB_UFUNC_X0, VB_UFUNC_SIGMA);
}

static void part_clamp(const struct vb_point *p, double *out, size_t lo, size_t hi)
{
    size_t i;
    for (i = lo; i < hi; i++)
        out[i] = vb_clamp_d((double)clamp_x(i), VB_UFUNC_CLAMP_LO, VB_UFUNC_CLAMP_HI);
}

static void part_cos(const struct vb_point *p, double *out, size_t lo, size_t hi)
{
    size_t i;
    for (i = lo; i < hi; i++)
        out[i] = vb_cos_d((double)cos_x(i));
}

/* ref_NAME: part_NAME over every element */
#define WHOLE(name)                                                                                \
    static int ref_##name(const struct vb_point *p, double *out, struct vb_err *err)               \
    {                                                                                              \
        part_##name(p, out, 0, n_len(p));                                                          \
        return 0;                                                                                  \
    }
WHOLE(gaussian)
WHOLE(clamp)
WHOLE(cos)

/* ref_fft: the frame (the float32 values the GPU sees) through the pipeline in double; a small
 * frame goes through the direct DFT, the textbook definition, instead of the FFT. */
static int ref_fft(const struct vb_point *p, double *out, struct vb_err *err)
{
    long h = p->v[AX_H], w = p->v[AX_W], y, x;
    int rc;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            out[2 * (y * w + x)] = frame_at(y, x, h, w);
            out[2 * (y * w + x) + 1] = 0;
        }
    rc = h * w <= DIRECT_DFT_MAX ? vb_dft_lowpass_direct(out, h, w) : vb_fft_lowpass_d(out, h, w);
    if (rc)
        return vb_err_set(err, VB_E_SYS, "out of memory for the FFT of a %ld x %ld frame", h, w);
    return 0;
}

/* ---- setup and teardown ---- */

static int is_cpu(enum kind k)
{
    return k >= CPU_GAUSS;
}

static int is_fft(enum kind k)
{
    return k == FFT_DEVICE || k == FFT_HOST || k == FFT_PINNED || k == CPU_FFT;
}

/* the Gaussian rungs whose arrays live on the device (input copied once, answer fetched after) */
static int is_resident(enum kind k)
{
    return k == GAUSS_DEVICE || k == GAUSS_VEC4 || k == GAUSS_HOISTED;
}

static void teardown(void *state)
{
    struct ufunc *u = state;
    if (!u) return;
    (u->pinned ? vb_pinned_free : free)(u->h_x);
    (u->pinned ? vb_pinned_free : free)(u->h_out);
    free(u->h_tmp);
    free(u->h_ref);
    if (u->have_plan) cufftDestroy(u->plan);
    cudaFree(u->d_x);
    cudaFree(u->d_out);
    cudaFree(u->d_mask);
    if (u->s) cudaStreamDestroy(u->s);
    free(u);
}

/* fill_part writes elements [lo, hi) of an element-wise variant's input (vb_parallel_for). */
static void fill_part(size_t lo, size_t hi, void *ctx, int slot)
{
    struct ufunc *u = ctx;
    size_t i;
    (void)slot;
    for (i = lo; i < hi; i++)
        u->h_x[i] = u->kind == CLAMP                           ? clamp_x(i)
                    : u->kind == COS_64 || u->kind == COS_FULL ? cos_x(i)
                                                               : gauss_x(i, u->n);
}

/* fill_input writes a GPU variant's input into u->h_x (on all cores: not timed); an fft-mask
 * rung's is the seed's frame.astype(np.complex64), done once */
static void fill_input(struct ufunc *u)
{
    long y, x;
    if (!is_fft(u->kind)) {
        vb_parallel_for(u->n, fill_part, u);
        return;
    }
    for (y = 0; y < u->h; y++)
        for (x = 0; x < u->w; x++) {
            u->h_x[2 * (y * u->w + x)] = frame_at(y, x, u->h, u->w);
            u->h_x[2 * (y * u->w + x) + 1] = 0;
        }
}

/* setup_fft: the mask on the device (the seed's gpu_mask, uploaded once), the cuFFT plan on
 * the case's stream, and one forward and inverse transform so that plan work and lazy module
 * loading happen here rather than in the first sample. */
static int setup_fft(struct ufunc *u, struct vb_err *err)
{
    size_t bytes = 2 * u->n * sizeof(float);
    float *mask, scale = (float)(1.0 / ((double)u->h * (double)u->w));
    long y, x;
    int rc;
    if (VB_CUDA(err, cudaMalloc((void **)&u->d_x, bytes)) ||
        VB_CUDA(err, cudaMalloc((void **)&u->d_mask, u->n * sizeof(float))))
        return -1;
    if (!(mask = vb_host_alloc(u->n * sizeof(float), err))) return -1;
    for (y = 0; y < u->h; y++)
        for (x = 0; x < u->w; x++)
            mask[y * u->w + x] = vb_ufunc_fft_keep(y, x, u->h, u->w) ? scale : 0.0f;
    rc = VB_CUDA(err, cudaMemcpy(u->d_mask, mask, u->n * sizeof(float), cudaMemcpyHostToDevice));
    free(mask);
    if (rc) return -1;
    if (VB_CUFFT(err, cufftPlan2d(&u->plan, (int)u->h, (int)u->w, CUFFT_C2C))) return -1;
    u->have_plan = 1;
    if (VB_CUFFT(err, cufftSetStream(u->plan, u->s)) ||
        VB_CUDA(err, cudaMemsetAsync(u->d_x, 0, bytes, u->s)) ||
        VB_CUFFT(err, cufftExecC2C(u->plan, (cufftComplex *)u->d_x, (cufftComplex *)u->d_x,
                                   CUFFT_FORWARD)) ||
        VB_CUFFT(err, cufftExecC2C(u->plan, (cufftComplex *)u->d_x, (cufftComplex *)u->d_x,
                                   CUFFT_INVERSE)) ||
        VB_CUDA(err, cudaStreamSynchronize(u->s)))
        return -1;
    return 0;
}

static int setup(int tag, const struct vb_point *p, void **state, struct vb_err *err)
{
    enum kind kind = (enum kind)tag;
    struct ufunc *u = calloc(1, sizeof *u);
    size_t vals; /* floats in the input and in the answer */
    /* beyond the seed: page-locked host arrays, copied at PCIe's pinned rate; the element-wise
     * ones are otherwise the rung they pin */
    int dev = 0, pinned = kind == FFT_PINNED || kind == CLAMP_PINNED || kind == COS_PINNED;
    if (!u) return vb_err_set(err, VB_E_SYS, "out of memory");
    *state = u;
    kind = kind == CLAMP_PINNED ? CLAMP : kind == COS_PINNED ? COS_FULL : kind;
    u->kind = kind;
    if (is_fft(kind)) {
        u->h = p->v[AX_H];
        u->w = p->v[AX_W];
        u->n = (size_t)u->h * (size_t)u->w;
        vals = 2 * u->n;
    } else {
        u->n = (size_t)p->v[0];
        vals = u->n;
    }
    if (is_cpu(kind)) {
        if (!(u->h_ref = vb_host_alloc(vals * sizeof(double), err))) goto fail;
        return 0;
    }
    if ((u->pinned = pinned)) {
        if (vb_pinned_alloc((void **)&u->h_x, vals * sizeof(float), err) ||
            vb_pinned_alloc((void **)&u->h_out, vals * sizeof(float), err))
            goto fail;
        memset(u->h_out, 0xff, vals * sizeof(float));
    } else if (!(u->h_x = vb_host_alloc(vals * sizeof(float), err)) ||
               !(u->h_out = vb_host_alloc(vals * sizeof(float), err)) ||
               (kind == FFT_HOST && !(u->h_tmp = vb_host_alloc(vals * sizeof(float), err))))
        goto fail;
    fill_input(u);
    if (VB_CUDA(err, cudaStreamCreateWithFlags(&u->s, cudaStreamNonBlocking)) ||
        VB_CUDA(err, cudaGetDevice(&dev)) ||
        VB_CUDA(err, cudaDeviceGetAttribute(&u->sms, cudaDevAttrMultiProcessorCount, dev)))
        goto fail;
    if (is_fft(kind)) {
        if (setup_fft(u, err)) goto fail;
        return 0;
    }
    if (VB_CUDA(err, cudaMalloc((void **)&u->d_x, vals * sizeof(float))) ||
        VB_CUDA(err, cudaMalloc((void **)&u->d_out, vals * sizeof(float))))
        goto fail;
    /* gaussian-device: the input lives on the device (the seed's device arrays), copied once */
    if (is_resident(kind) &&
        VB_CUDA(err, cudaMemcpy(u->d_x, u->h_x, vals * sizeof(float), cudaMemcpyHostToDevice)))
        goto fail;
    return 0;
fail:
    teardown(u);
    *state = NULL;
    return -1;
}

/* ---- poison and fetch ---- */

static int poison(void *state, struct vb_err *err)
{
    struct ufunc *u = state;
    size_t vals = is_fft(u->kind) ? 2 * u->n : u->n;
    if (is_cpu(u->kind)) {
        vb_host_poison(u->h_ref, vals * sizeof(double)); /* all-ones: NaN */
        return 0;
    }
    vb_host_poison(u->h_out, vals * sizeof(float));
    if (u->h_tmp) vb_host_poison(u->h_tmp, vals * sizeof(float));
    /* the device buffer the answer comes from: d_out, or the frame itself for fft-mask */
    if (VB_CUDA(err, cudaMemset(u->d_out ? u->d_out : u->d_x, 0xff, vals * sizeof(float))) ||
        VB_CUDA(err, cudaDeviceSynchronize()))
        return -1;
    return 0;
}

static void fetch(void *state, double *out)
{
    struct ufunc *u = state;
    size_t i, vals = is_fft(u->kind) ? 2 * u->n : u->n;
    if (is_cpu(u->kind)) {
        memcpy(out, u->h_ref, vals * sizeof(double));
        return;
    }
    /* gaussian-device (VB_RESIDENT): the answer is copied out here, outside every sample */
    if (is_resident(u->kind) && cudaMemcpy(u->h_out, u->d_out, vals * sizeof(float),
                                           cudaMemcpyDeviceToHost) != cudaSuccess) {
        cudaGetLastError();
        for (i = 0; i < vals; i++)
            out[i] = NAN; /* fails verification, as it must */
        return;
    }
    vb_host_widen(out, u->h_out, vals);
}

/* ---- one sample ---- */

/* run_elementwise: x in, the kernel, out back: a ufunc called on host arrays. */
static int run_elementwise(void *state, struct vb_err *err)
{
    struct ufunc *u = state;
    size_t bytes = u->n * sizeof(float);
    cudaError_t launched;
    if (vb_phase_copy(VB_PHASE_H2D, u->d_x, u->h_x, bytes, cudaMemcpyHostToDevice, u->s, err))
        return -1;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    switch (u->kind) {
    case GAUSS_HOST:
        launched =
            vb_launch_ufunc_gaussian(u->d_x, VB_UFUNC_X0, VB_UFUNC_SIGMA, u->d_out, u->n, u->s);
        break;
    case CLAMP:
        launched = vb_launch_ufunc_clamp_gridstride(u->d_x, VB_UFUNC_CLAMP_LO, VB_UFUNC_CLAMP_HI,
                                                    u->d_out, u->n, u->sms, u->s);
        break;
    case COS_64:
        launched = vb_launch_ufunc_cos_64x64(u->d_x, u->d_out, u->n, u->s);
        break;
    default:
        launched = vb_launch_ufunc_cos_full(u->d_x, u->d_out, u->n, u->s);
        break;
    }
    if (vb_phase_wait(launched, u->s, err)) return -1;
    return vb_phase_copy(VB_PHASE_D2H, u->h_out, u->d_out, bytes, cudaMemcpyDeviceToHost, u->s,
                         err);
}

/* run_gauss_device: device arrays in and out, so the sample is the kernel alone. */
static int run_gauss_device(void *state, struct vb_err *err)
{
    struct ufunc *u = state;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    return vb_phase_wait(
        vb_launch_ufunc_gaussian(u->d_x, VB_UFUNC_X0, VB_UFUNC_SIGMA, u->d_out, u->n, u->s), u->s,
        err);
}

/* run_gauss_vec4: gaussian-device's arrays and answer, with the kernel that keeps HBM busy
 * (gaussian-hoisted: and does its scalars' divisions on the host). */
static int run_gauss_vec4(void *state, struct vb_err *err)
{
    struct ufunc *u = state;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    return vb_phase_wait((u->kind == GAUSS_HOISTED ? vb_launch_ufunc_gaussian_hoisted
                                                   : vb_launch_ufunc_gaussian_vec4)(
                             u->d_x, VB_UFUNC_X0, VB_UFUNC_SIGMA, u->d_out, u->n, u->s),
                         u->s, err);
}

/* fft_step runs one step of the pipeline on the frame in d_x, in a kernel phase: 0 forward
 * FFT, 1 mask, 2 inverse FFT. */
static int fft_step(struct ufunc *u, int step, struct vb_err *err)
{
    cufftComplex *f = (cufftComplex *)u->d_x;
    int rc;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    if (step == 0)
        rc = VB_CUFFT(err, cufftExecC2C(u->plan, f, f, CUFFT_FORWARD));
    else if (step == 1)
        rc = VB_CUDA(err, vb_launch_ufunc_fft_mask(u->d_x, u->d_mask, u->h, u->w, u->s));
    else
        rc = VB_CUFFT(err, cufftExecC2C(u->plan, f, f, CUFFT_INVERSE));
    if (vb_phase_wait(cudaSuccess, u->s, err) || rc) return -1;
    return 0;
}

/* run_fft_device: the seed's pipeline: frame in, three steps on the device, result out. */
static int run_fft_device(void *state, struct vb_err *err)
{
    struct ufunc *u = state;
    cufftComplex *f = (cufftComplex *)u->d_x;
    size_t bytes = 2 * u->n * sizeof(float);
    int rc;
    if (vb_phase_copy(VB_PHASE_H2D, u->d_x, u->h_x, bytes, cudaMemcpyHostToDevice, u->s, err))
        return -1;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    rc = VB_CUFFT(err, cufftExecC2C(u->plan, f, f, CUFFT_FORWARD)) ||
         VB_CUDA(err, vb_launch_ufunc_fft_mask(u->d_x, u->d_mask, u->h, u->w, u->s)) ||
         VB_CUFFT(err, cufftExecC2C(u->plan, f, f, CUFFT_INVERSE));
    if (vb_phase_wait(cudaSuccess, u->s, err) || rc) return -1;
    return vb_phase_copy(VB_PHASE_D2H, u->h_out, u->d_x, bytes, cudaMemcpyDeviceToHost, u->s, err);
}

/* run_fft_host: the same steps, each one's input copied in from the host and its output
 * copied back, as when every call gets host arrays. */
static int run_fft_host(void *state, struct vb_err *err)
{
    struct ufunc *u = state;
    size_t bytes = 2 * u->n * sizeof(float);
    int step;
    for (step = 0; step < 3; step++) {
        if (vb_phase_copy(VB_PHASE_H2D, u->d_x, step ? u->h_tmp : u->h_x, bytes,
                          cudaMemcpyHostToDevice, u->s, err) ||
            fft_step(u, step, err) ||
            vb_phase_copy(VB_PHASE_D2H, step < 2 ? u->h_tmp : u->h_out, u->d_x, bytes,
                          cudaMemcpyDeviceToHost, u->s, err))
            return -1;
    }
    return 0;
}

static int run_cpu(void *state, struct vb_err *err)
{
    struct ufunc *u = state;
    struct vb_point p;
    int rc;
    memset(&p, 0, sizeof p);
    if (u->kind == CPU_FFT) {
        p.v[AX_H] = u->h;
        p.v[AX_W] = u->w;
    } else {
        p.v[0] = (long)u->n;
    }
    vb_nvtx_phase_begin(VB_PHASE_CPU);
    if (u->kind == CPU_GAUSS)
        rc = ref_gaussian(&p, u->h_ref, err);
    else if (u->kind == CPU_CLAMP)
        rc = ref_clamp(&p, u->h_ref, err);
    else if (u->kind == CPU_COS)
        rc = ref_cos(&p, u->h_ref, err);
    else
        rc = ref_fft(&p, u->h_ref, err);
    vb_nvtx_phase_end();
    return rc;
}

/* ---- traffic per sample: pageable copies, one per array and step ---- */

static void traffic_elementwise(const struct vb_point *p, struct vb_traffic *t)
{
    t->h2d_bytes = t->d2h_bytes = (uint64_t)p->v[0] * sizeof(float);
    t->h2d_count = t->d2h_count = 1;
}
static void traffic_resident(const struct vb_point *p, struct vb_traffic *t)
{
    t->h2d_bytes = t->d2h_bytes = 0;
    t->h2d_count = t->d2h_count = 0;
}
static void traffic_fft_device(const struct vb_point *p, struct vb_traffic *t)
{
    t->h2d_bytes = t->d2h_bytes = (uint64_t)frame_len(p) * sizeof(float);
    t->h2d_count = t->d2h_count = 1;
}
static void traffic_fft_host(const struct vb_point *p, struct vb_traffic *t)
{
    t->h2d_bytes = t->d2h_bytes = 3 * (uint64_t)frame_len(p) * sizeof(float);
    t->h2d_count = t->d2h_count = 3;
}

/* ---- the catalog ---- */

static const struct vb_axis n_axes[] = {
    {"n",
     "elements (float32 on the GPU)",
     {1000000, 10000000, 100000000},
     3,
     1,
     1L << 30,
     NULL,
     NULL},
};

static const struct vb_axis frame_axes[] = {
    {"height", "frame rows (the seed's 720; 2160 for a 4K frame)", {720}, 1, 2, 8192, NULL, NULL},
    {"width",
     "frame columns, the contiguous index (the seed's 1280; 3840 for 4K)",
     {1280},
     1,
     2,
     8192,
     NULL,
     NULL},
};

static const struct vb_problem gaussian = {
    .name = "gaussian",
    .summary = "float32 Gaussian pdf, x0 = 0 and sigma = 1 broadcast: host vs device arrays",
    .axes = n_axes,
    .naxes = 1,
    .out_len = n_len,
    .reference = ref_gaussian,
    .reference_part = part_gaussian,
    /* expf's and the argument's rounding stay under 1e-6 relative over [-3, 3]
     * (tests/test_ufunc.c holds it): 10x of margin for the device's expf */
    .atol = 1e-7,
    .rtol = 1e-5,
    .kernel_bytes = n_bytes,
};

static const struct vb_problem clamp = {
    .name = "clamp",
    .summary = "x clamped to [-1, 1] by a __host__ __device__ function in a grid-stride loop",
    .axes = n_axes,
    .naxes = 1,
    .out_len = n_len,
    .reference = ref_clamp,
    .reference_part = part_clamp,
    .atol = 0, /* a clamp only selects one of its inputs: exact */
    .rtol = 0,
    .kernel_bytes = n_bytes,
};

static const struct vb_problem cosine = {
    .name = "cos",
    .summary = "the seed's gpu_cos over x in [-10, 10]: 64 blocks x 64 threads vs a full grid",
    .axes = n_axes,
    .naxes = 1,
    .out_len = n_len,
    .reference = ref_cos,
    .reference_part = part_cos,
    .atol = 1e-6, /* CUDA's cosf is within 2 ulp */
    .rtol = 1e-5,
    .kernel_bytes = n_bytes,
};

/* the three passes over the frame at the least: forward FFT (read and write it), the mask
 * (read the frame and the mask, write the frame), inverse FFT (read and write): 52 bytes a
 * point. cuFFT's own extra passes, if any, are not counted: the floor is a lower bound. */
static uint64_t frame_bytes(const struct vb_point *p)
{
    return (uint64_t)p->v[AX_H] * (uint64_t)p->v[AX_W] * (16 + 20 + 16);
}

static const struct vb_problem fft = {
    .name = "fft-mask",
    .summary = "complex64 frame: cuFFT forward, low-pass mask kernel, cuFFT inverse",
    .axes = frame_axes,
    .naxes = 2,
    .out_len = frame_len,
    .reference = ref_fft,
    /* a plain float32 FFT pipeline is within 5e-7 of the double one at 720 x 1280 and
     * 2160 x 3840 (tests/test_ufunc.c measures it): 20x of margin for cuFFT */
    .kernel_bytes = frame_bytes,
    .atol = 1e-5,
    .rtol = 0,
};

static const struct vb_variant_ops ops = {
    .setup = setup,
    .poison = poison,
    .fetch = fetch,
    .teardown = teardown,
};

static const struct vb_variant variants[] = {
    {.name = "gaussian-cpu",
     .summary = "the Gaussian on one CPU core, in double (the oracle)",
     .flags = VB_REFERENCE,
     .tag = CPU_GAUSS,
     .run = run_cpu,
     .problem = &gaussian},
    {.name = "gaussian-host",
     .summary = "ufunc on host arrays: x H2D, kernel, out D2H on every call (pageable)",
     .flags = VB_GPU,
     .tag = GAUSS_HOST,
     .run = run_elementwise,
     .traffic = traffic_elementwise,
     .problem = &gaussian},
    {.name = "gaussian-device",
     .summary = "ufunc on device arrays: the kernel only; out stays on the device",
     .flags = VB_GPU | VB_RESIDENT,
     .tag = GAUSS_DEVICE,
     .run = run_gauss_device,
     .traffic = traffic_resident,
     .problem = &gaussian},
    {.name = "clamp-cpu",
     .summary = "the shared clamp on one CPU core (the oracle)",
     .flags = VB_REFERENCE,
     .tag = CPU_CLAMP,
     .run = run_cpu,
     .problem = &clamp},
    {.name = "clamp-gridstride",
     .summary = "clamp_array: grid-stride loop calling the host/device clamp",
     .flags = VB_GPU,
     .tag = CLAMP,
     .run = run_elementwise,
     .traffic = traffic_elementwise,
     .problem = &clamp},
    {.name = "cos-cpu",
     .summary = "cos on one CPU core, in double (the oracle)",
     .flags = VB_REFERENCE,
     .tag = CPU_COS,
     .run = run_cpu,
     .problem = &cosine},
    {.name = "cos-64x64",
     .summary = "gpu_cos[64, 64]: 4096 threads stride over all of x",
     .flags = VB_GPU,
     .tag = COS_64,
     .run = run_elementwise,
     .traffic = traffic_elementwise,
     .problem = &cosine},
    {.name = "cos-full",
     .summary = "the same loop on ceil(n/256) blocks of 256: one element per thread",
     .flags = VB_GPU,
     .tag = COS_FULL,
     .run = run_elementwise,
     .traffic = traffic_elementwise,
     .problem = &cosine},
    {.name = "clamp-pinned",
     .summary = "beyond the seed: clamp-gridstride with page-locked host arrays",
     .flags = VB_GPU,
     .tag = CLAMP_PINNED,
     .run = run_elementwise,
     .traffic = traffic_elementwise,
     .problem = &clamp},
    {.name = "cos-pinned",
     .summary = "beyond the seed: cos-full with page-locked host arrays",
     .flags = VB_GPU,
     .tag = COS_PINNED,
     .run = run_elementwise,
     .traffic = traffic_elementwise,
     .problem = &cosine},
    {.name = "fft-mask-cpu",
     .summary = "FFT, mask, inverse FFT on one CPU core in double (direct DFT <= 4096 points)",
     .flags = VB_REFERENCE,
     .tag = CPU_FFT,
     .run = run_cpu,
     .problem = &fft},
    {.name = "fft-mask-host",
     .summary = "cuFFT forward, mask kernel, cuFFT inverse, the frame H2D and D2H around each",
     .flags = VB_GPU | VB_LIBRARY,
     .tag = FFT_HOST,
     .run = run_fft_host,
     .traffic = traffic_fft_host,
     .problem = &fft},
    {.name = "fft-mask",
     .summary = "the same three steps all on the device: frame H2D once, result D2H once",
     .flags = VB_GPU | VB_LIBRARY,
     .tag = FFT_DEVICE,
     .run = run_fft_device,
     .traffic = traffic_fft_device,
     .problem = &fft},
    {.name = "fft-mask-pinned",
     .summary = "beyond the seed: fft-mask with the frame and the result in page-locked memory",
     .flags = VB_GPU | VB_LIBRARY,
     .tag = FFT_PINNED,
     .run = run_fft_device,
     .traffic = traffic_fft_device,
     .problem = &fft},
    /* beyond the seed, last in the table (its ladder is gaussian's: it runs after it) */
    {.name = "gaussian-vec4",
     .summary = "beyond the seed: device arrays, float4 loads and stores, 2 per thread in flight",
     .flags = VB_GPU | VB_RESIDENT,
     .tag = GAUSS_VEC4,
     .run = run_gauss_vec4,
     .traffic = traffic_resident,
     .problem = &gaussian},
    {.name = "gaussian-hoisted",
     .summary = "beyond the seed: gaussian-vec4 with the broadcast scalars' divisions done once on "
                "the host (a multiply an element)",
     .flags = VB_GPU | VB_RESIDENT,
     .tag = GAUSS_HOISTED,
     .run = run_gauss_vec4,
     .traffic = traffic_resident,
     .problem = &gaussian},
};

const struct vb_family vb_family_ufunc = {
    .name = "ufunc",
    .summary = "element-wise ufuncs, a shared host/device clamp, launch configuration, a cuFFT "
               "pipeline (FP32)",
    .seed = "002_8bf30eb413ca466c.txt",
    .ops = &ops,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
};
