/*
 * gufunc family (seed 000, "vectorize for CUDA: returning an array"): a function that
 * turns each scalar x into a row of `cols` values, computed one thread per row, and the
 * ladder of layouts that decides store efficiency: the seed's in-place row-major
 * workaround (every warp store touches 32 rows: 25% efficiency at cols = 4), only the
 * scalars in, the transposed [cols][rows] layout (coalesced), and a row-major output staged
 * through shared memory (coalesced again). float32 on the GPU, double in the reference.
 * Workload: rows up to 16M x cols up to 64 (4 GB per array).
 */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "varbench.h"
#include "gufunc.h"
#include "gufunc_math.h"

#define X_SEED 0x6775 /* the input stream of x values */

enum kind { ROW_SLICED, SCALAR_IN, COLUMN_SLICED, ROW_SLICED_SMEM, SMEM_PINNED, CPU };
enum { AX_FUNC, AX_ROWS, AX_COLS };

struct gufunc {
    enum kind kind;
    int func, cols;
    long rows;
    size_t n;                  /* rows * cols */
    float *h_x, *h_in, *h_out; /* pageable, as numpy arrays in the seed (pinned: SMEM_PINNED) */
    int pinned;
    double *h_ref; /* the cpu-reference variant's answer */
    float *d_x, *d_buf;
    cudaStream_t s;
};

static size_t out_len(const struct vb_point *p)
{
    return (size_t)p->v[AX_ROWS] * (size_t)p->v[AX_COLS];
}

static double x_of(long r)
{
    return vb_data_uniform(X_SEED, (uint64_t)r, -1.5, 1.5);
}

/* reference: row r of out[rows][cols] from x_of(r), in double. */
static int reference(const struct vb_point *p, double *out, struct vb_err *err)
{
    long r, rows = p->v[AX_ROWS];
    int cols = (int)p->v[AX_COLS];
    for (r = 0; r < rows; r++) {
        double x = (double)(float)x_of(r); /* the float32 input the GPU sees */
        if (p->v[AX_FUNC] == VB_GUFUNC_POWSUM)
            vb_powsum_d(x, cols, out + r * cols, 1);
        else
            vb_hermite_d(x, cols, out + r * cols, 1);
    }
    return 0;
}

static void teardown(void *state)
{
    struct gufunc *g = state;
    if (!g) return;
    if (g->pinned) {
        vb_pinned_free(g->h_x);
        vb_pinned_free(g->h_out);
    } else {
        free(g->h_x);
        free(g->h_out);
    }
    free(g->h_in);
    free(g->h_ref);
    cudaFree(g->d_x);
    cudaFree(g->d_buf);
    if (g->s) cudaStreamDestroy(g->s);
    free(g);
}

/* x_part writes rows [lo, hi) of the input x; rows_part the same rows of the row-sliced
 * rung's input array (vb_parallel_for: the inputs of 16M rows, in each case's set-up and again
 * in the second metrics sweep, on all cores) */
static void x_part(size_t lo, size_t hi, void *ctx, int slot)
{
    struct gufunc *g = ctx;
    size_t r;
    (void)slot;
    for (r = lo; r < hi; r++)
        g->h_x[r] = (float)x_of((long)r);
}

static void rows_part(size_t lo, size_t hi, void *ctx, int slot)
{
    struct gufunc *g = ctx;
    size_t r;
    (void)slot;
    memset(g->h_in + lo * (size_t)g->cols, 0, (hi - lo) * (size_t)g->cols * sizeof(float));
    for (r = lo; r < hi; r++) {
        float *row = g->h_in + r * (size_t)g->cols;
        if (g->func == VB_GUFUNC_POWSUM) {
            row[0] = (float)x_of((long)r);
        } else {
            row[0] = 1.0f;
            row[1] = (float)x_of((long)r);
        }
    }
}

static int setup(int tag, const struct vb_point *p, void **state, struct vb_err *err)
{
    enum kind kind = (enum kind)tag;
    struct gufunc *g = calloc(1, sizeof *g);
    if (!g) return vb_err_set(err, VB_E_SYS, "out of memory");
    *state = g;
    g->kind = kind;
    g->func = (int)p->v[AX_FUNC];
    g->rows = p->v[AX_ROWS];
    g->cols = (int)p->v[AX_COLS];
    g->n = out_len(p);
    if (kind == CPU) {
        if (!(g->h_ref = vb_host_alloc(g->n * sizeof(double), err))) goto fail;
        return 0;
    }
    if (kind == SMEM_PINNED) { /* beyond the seed: page-locked host arrays */
        g->pinned = 1;
        if (vb_pinned_alloc((void **)&g->h_out, g->n * sizeof(float), err) ||
            vb_pinned_alloc((void **)&g->h_x, (size_t)g->rows * sizeof(float), err))
            goto fail;
    } else if (!(g->h_out = vb_host_alloc(g->n * sizeof(float), err)) ||
               (kind != ROW_SLICED &&
                !(g->h_x = vb_host_alloc((size_t)g->rows * sizeof(float), err)))) {
        goto fail;
    }
    if (kind == ROW_SLICED) {
        /* the seed's input array: zeros, with x in column 0 (powsum) or 1 and 1 in column 0 */
        if (!(g->h_in = vb_host_alloc(g->n * sizeof(float), err))) goto fail;
        vb_parallel_for((size_t)g->rows, rows_part, g);
    } else {
        vb_parallel_for((size_t)g->rows, x_part, g);
        if (VB_CUDA(err, cudaMalloc((void **)&g->d_x, (size_t)g->rows * sizeof(float)))) goto fail;
    }
    if (VB_CUDA(err, cudaMalloc((void **)&g->d_buf, g->n * sizeof(float))) ||
        VB_CUDA(err, cudaStreamCreateWithFlags(&g->s, cudaStreamNonBlocking)))
        goto fail;
    return 0;
fail:
    teardown(g);
    *state = NULL;
    return -1;
}

static int poison(void *state, struct vb_err *err)
{
    struct gufunc *g = state;
    if (g->kind == CPU) {
        vb_host_poison(g->h_ref, g->n * sizeof(double));
        return 0;
    }
    vb_host_poison(g->h_out, g->n * sizeof(float)); /* all-ones: a NaN in float */
    if (VB_CUDA(err, cudaMemset(g->d_buf, 0xff, g->n * sizeof(float))) ||
        VB_CUDA(err, cudaDeviceSynchronize()))
        return -1;
    return 0;
}

/* fetch: the answer in row-major order ([cols][rows] for column-sliced, transposed back). */
static void fetch(void *state, double *out)
{
    struct gufunc *g = state;
    long r;
    int c;
    if (g->kind == CPU) {
        memcpy(out, g->h_ref, g->n * sizeof(double));
    } else if (g->kind == COLUMN_SLICED) {
        for (c = 0; c < g->cols; c++)
            for (r = 0; r < g->rows; r++)
                out[r * g->cols + c] = g->h_out[(size_t)c * (size_t)g->rows + (size_t)r];
    } else {
        vb_host_widen(out, g->h_out, g->n);
    }
}

/* run_scalar: X (rows floats) in, launch, the whole output back: the three "()->(n)" layouts. */
static int run_scalar(void *state, struct vb_err *err)
{
    struct gufunc *g = state;
    cudaError_t launched;
    if (vb_phase_copy(VB_PHASE_H2D, g->d_x, g->h_x, (size_t)g->rows * sizeof(float),
                      cudaMemcpyHostToDevice, g->s, err))
        return -1;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    if (g->kind == SCALAR_IN)
        launched = vb_launch_gufunc_scalar_in(g->func, g->d_x, g->d_buf, g->rows, g->cols, g->s);
    else if (g->kind == COLUMN_SLICED)
        launched =
            vb_launch_gufunc_column_sliced(g->func, g->d_x, g->d_buf, g->rows, g->cols, g->s);
    else /* row-sliced-smem, and smem-pinned */
        launched =
            vb_launch_gufunc_row_sliced_smem(g->func, g->d_x, g->d_buf, g->rows, g->cols, g->s);
    if (vb_phase_wait(launched, g->s, err)) return -1;
    return vb_phase_copy(VB_PHASE_D2H, g->h_out, g->d_buf, g->n * sizeof(float),
                         cudaMemcpyDeviceToHost, g->s, err);
}

/* run_row_sliced: the seed's t2/t3: the whole [rows][cols] array in, in place, and back. */
static int run_row_sliced(void *state, struct vb_err *err)
{
    struct gufunc *g = state;
    if (vb_phase_copy(VB_PHASE_H2D, g->d_buf, g->h_in, g->n * sizeof(float), cudaMemcpyHostToDevice,
                      g->s, err))
        return -1;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    if (vb_phase_wait(vb_launch_gufunc_row_sliced(g->func, g->d_buf, g->rows, g->cols, g->s), g->s,
                      err))
        return -1;
    return vb_phase_copy(VB_PHASE_D2H, g->h_out, g->d_buf, g->n * sizeof(float),
                         cudaMemcpyDeviceToHost, g->s, err);
}

static int run_cpu(void *state, struct vb_err *err)
{
    struct gufunc *g = state;
    struct vb_point p = {{g->func, g->rows, g->cols}};
    int rc;
    vb_nvtx_phase_begin(VB_PHASE_CPU);
    rc = reference(&p, g->h_ref, err);
    vb_nvtx_phase_end();
    return rc;
}

/* row-sliced moves the whole array both ways; the others send only X (1/cols of it). */
static void traffic_row(const struct vb_point *p, struct vb_traffic *t)
{
    t->h2d_bytes = t->d2h_bytes = (uint64_t)out_len(p) * sizeof(float);
    t->h2d_count = t->d2h_count = 1;
}
static void traffic_scalar(const struct vb_point *p, struct vb_traffic *t)
{
    t->h2d_bytes = (uint64_t)p->v[AX_ROWS] * sizeof(float);
    t->d2h_bytes = (uint64_t)out_len(p) * sizeof(float);
    t->h2d_count = t->d2h_count = 1;
}

static const char *const funcs[] = {"powsum", "hermite"};

static const struct vb_axis axes[] = {
    {"func",
     "the row function: powsum (x + ... + x^(i+1)) or hermite (He_i(x)/sqrt(i!))",
     {0, 1},
     2,
     0,
     1,
     funcs,
     NULL},
    {"rows", "rows (one x and one thread each)", {1280000, 16000000}, 2, 1, 1L << 28, NULL, NULL},
    {"cols", "values per row (N); the seed's 4", {4}, 1, 2, 64, NULL, NULL},
};

/* each scalar read once and its row written once: what any rung's kernel must move */
static uint64_t kernel_bytes(const struct vb_point *p)
{
    return (uint64_t)p->v[AX_ROWS] * sizeof(float) + (uint64_t)out_len(p) * sizeof(float);
}

static const struct vb_problem gufunc_fn = {
    .name = "gufunc",
    .summary = "each scalar x to a row of cols values (powsum or hermite), in double",
    .axes = axes,
    .naxes = 3,
    .out_len = out_len,
    .reference = reference,
    .kernel_bytes = kernel_bytes,
    /* float32 against double: the worst over x in [-1.5, 1.5] and cols up to 64 is 1/7 of this
     * (tests/test_gufunc.c holds it) */
    .atol = 5e-6,
    .rtol = 5e-6,
};

static const struct vb_variant_ops ops = {
    .setup = setup,
    .poison = poison,
    .fetch = fetch,
    .teardown = teardown,
};

static const struct vb_variant variants[] = {
    {.name = "cpu-reference",
     .summary = "each row from its x on one CPU core, in double (the oracle)",
     .flags = VB_REFERENCE,
     .tag = CPU,
     .run = run_cpu,
     .problem = &gufunc_fn},
    {.name = "row-sliced",
     .summary = "t2/t3: guvectorize (n)->(n) in place on [rows][cols]: all of it H2D and back",
     .flags = VB_GPU,
     .tag = ROW_SLICED,
     .run = run_row_sliced,
     .traffic = traffic_row,
     .problem = &gufunc_fn},
    {.name = "scalar-in",
     .summary = "()->(n): only X goes H2D, one thread writes its row of [rows][cols]",
     .flags = VB_GPU,
     .tag = SCALAR_IN,
     .run = run_scalar,
     .traffic = traffic_scalar,
     .problem = &gufunc_fn},
    {.name = "column-sliced",
     .summary = "transposed [cols][rows]: consecutive threads write consecutive addresses",
     .flags = VB_GPU,
     .tag = COLUMN_SLICED,
     .run = run_scalar,
     .traffic = traffic_scalar,
     .problem = &gufunc_fn},
    {.name = "row-sliced-smem",
     .summary = "row-major [rows][cols] staged in shared memory, written out coalesced",
     .flags = VB_GPU,
     .tag = ROW_SLICED_SMEM,
     .run = run_scalar,
     .traffic = traffic_scalar,
     .problem = &gufunc_fn},
    {.name = "smem-pinned",
     .summary = "beyond the seed: row-sliced-smem's kernel with page-locked host arrays",
     .flags = VB_GPU,
     .tag = SMEM_PINNED,
     .run = run_scalar,
     .traffic = traffic_scalar,
     .problem = &gufunc_fn},
};

const struct vb_family vb_family_gufunc = {
    .name = "gufunc",
    .summary = "a row of N values per scalar, one thread per row: the store-pattern ladder (FP32)",
    .seed = "000_4f12d10000873a39.txt",
    .ops = &ops,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
};
