/*
 * work_bench: a benchmark program of one kernel whose work is set from outside, for the verdict
 * tests (tests/work_bench.sh): family "w", problem "chain" (y = x iterated through ITERS fused
 * multiply-adds, element by element), a GPU rung "loop" and its CPU reference "cpu". What a run
 * is given comes from the environment, the code staying the same:
 *   VB_WORK_LAUNCHES=K   the GPU rung's sample launches its kernel K times (default 1): K times the
 *                        work, other launches a sample
 *   VB_WORK_ITERS=M      the kernel's outer loop count (default 1), passed from the host: the
 *                        same SASS launched the same way, the same answer, M times the work
 *   VB_WORK_CPU=F        the CPU rung does F times its work, 1 to 2 (default 1; 1.25: a reference
 *                        25% slower on purpose)
 * and `work_bench spin S` keeps the GPU busy for S seconds (a co-tenant beside a run). Family "m"
 * (problem "loads", y = 2x + 1, rung "loads") plants what the counters explain (uncoalesced
 * loads, a quarter of the blocks, a second DRAM pass): see m_loads.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <varbench.h>

#define ITERS 256 /* the problem's chain per element */

/* y = x through ITERS multiply-adds, `reps` times over: each pass starts again from x (plus 0
 * times the last pass's value, so that no pass can be left out), the same answer for any reps */
__global__ void w_loop(const float *__restrict__ x, float *__restrict__ y, int n, int reps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (int r = 0; r < reps; r++) {
            float w = x[i] + 0.0f * v;
            for (int k = 0; k < ITERS; k++)
                w = fmaf(w, 0.999f, 0.001f);
            v = w;
        }
        y[i] = v;
    }
}

static double env_num(const char *name, double dflt)
{
    const char *v = getenv(name);
    return v && *v ? atof(v) : dflt;
}

static size_t out_len(const struct vb_point *p)
{
    return (size_t)vb_axis_int(p, "n");
}

static float x_of(size_t i)
{
    return (float)vb_data_uniform(7, i, 0.0, 1.0);
}

/* chain: x through iters steps, as the kernel computes it (fmaf: the same rounding) */
static float chain(float v, int iters)
{
    for (int k = 0; k < iters; k++)
        v = fmaf(v, 0.999f, 0.001f);
    return v;
}

static int reference(const struct vb_point *p, double *out, struct vb_err *err)
{
    size_t i, n = out_len(p);
    for (i = 0; i < n; i++)
        out[i] = chain(x_of(i), ITERS);
    return 0;
}

struct st {
    size_t n;
    int gpu;
    float *x, *y, *d_x, *d_y;
};

static int setup(int tag, const struct vb_point *p, void **state, struct vb_err *err)
{
    struct st *s = (struct st *)calloc(1, sizeof *s);
    size_t i;
    if (!(*state = s)) return vb_err_set(err, VB_E_SYS, "out of memory");
    s->n = out_len(p);
    s->gpu = tag;
    if (!(s->x = (float *)vb_host_alloc(s->n * sizeof(float), err)) ||
        !(s->y = (float *)vb_host_alloc(s->n * sizeof(float), err)))
        return -1;
    for (i = 0; i < s->n; i++)
        s->x[i] = x_of(i);
    if (!tag) return 0;
    if (VB_CUDA(err, cudaMalloc(&s->d_x, s->n * sizeof(float))) ||
        VB_CUDA(err, cudaMalloc(&s->d_y, s->n * sizeof(float))))
        return -1;
    return VB_CUDA(err, cudaMemcpy(s->d_x, s->x, s->n * sizeof(float), cudaMemcpyHostToDevice));
}

static int poison(void *state, struct vb_err *err)
{
    struct st *s = (struct st *)state;
    memset(s->y, 0xff, s->n * sizeof(float));
    return s->gpu ? VB_CUDA(err, cudaMemset(s->d_y, 0xff, s->n * sizeof(float))) : 0;
}

static void fetch(void *state, double *out)
{
    struct st *s = (struct st *)state;
    size_t i;
    if (s->gpu) cudaMemcpy(s->y, s->d_y, s->n * sizeof(float), cudaMemcpyDeviceToHost);
    for (i = 0; i < s->n; i++)
        out[i] = s->y[i];
}

static void teardown(void *state)
{
    struct st *s = (struct st *)state;
    if (!s) return;
    free(s->x);
    free(s->y);
    cudaFree(s->d_x);
    cudaFree(s->d_y);
    free(s);
}

static int run_gpu(void *state, struct vb_err *err)
{
    struct st *s = (struct st *)state;
    int k, launches = (int)env_num("VB_WORK_LAUNCHES", 1);
    int reps = (int)env_num("VB_WORK_ITERS", 1);
    unsigned blocks = (unsigned)((s->n + 255) / 256);
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    for (k = 0; k < launches; k++)
        w_loop<<<blocks, 256>>>(s->d_x, s->d_y, (int)s->n, reps);
    return vb_phase_wait(cudaGetLastError(), 0, err);
}

static int run_cpu(void *state, struct vb_err *err)
{
    struct st *s = (struct st *)state;
    volatile float *y = s->y; /* every pass stored */
    double more = env_num("VB_WORK_CPU", 1);
    size_t i, n = s->n, extra = (size_t)((more - 1) * (double)n);
    vb_nvtx_phase_begin(VB_PHASE_CPU);
    if (extra > n) extra = n;
    for (i = 0; i < extra; i++) /* the planted work first: the same loop on a part of it */
        y[i] = chain(s->x[i], ITERS);
    for (i = 0; i < n; i++)
        y[i] = chain(s->x[i], ITERS);
    vb_nvtx_phase_end();
    return 0;
}

/* what one sample of the GPU rung declares: x read and y written once, ITERS FMAs an element */
static void traffic(const struct vb_point *p, struct vb_traffic *t)
{
    double n = (double)out_len(p);
    memset(t, 0, sizeof *t);
    t->gmem_read_bytes = t->gmem_write_bytes = (uint64_t)(n * sizeof(float));
    t->elements = n;
    t->flops = 2.0 * ITERS * n;
}

static const struct vb_axis axes[] = {{.name = "n", .doc = "elements", .spec = "2^18"}};
static const struct vb_problem chain_p = {.name = "chain",
                                          .summary = "y = x through 256 fused multiply-adds",
                                          .axes = axes,
                                          .naxes = 1,
                                          .out_len = out_len,
                                          .reference = reference,
                                          .atol = 0,
                                          .rtol = 0};
static const struct vb_variant_ops ops = {setup, poison, fetch, teardown};
static const struct vb_variant rungs[] = {
    {.name = "cpu", .summary = "on the CPU", .tag = 0, .run = run_cpu, .problem = &chain_p},
    {.name = "loop",
     .summary = "one thread an element, resident",
     .flags = VB_GPU,
     .tag = 1,
     .run = run_gpu,
     .traffic = traffic,
     .problem = &chain_p}};
static const struct vb_family w = {.name = "w",
                                   .summary = "work set from outside",
                                   .ops = &ops,
                                   .variants = rungs,
                                   .nvariants = 2};

/* The memory rung m/loads: y = 2x + 1, one thread an element, and three plants that keep its
 * answer and change what its counters see:
 *   VB_WORK_STRIDE=S      thread t takes element (t mod n/S) * S + t div (n/S) (a permutation:
 *                         neighbouring threads S elements apart, its loads and stores uncoalesced)
 *   VB_WORK_GRID_DIV=D    a D-th of the blocks, each thread striding over D elements
 *   VB_WORK_PASSES=2      each thread also reads the element n/2 away (DRAM bytes read x2) */
__global__ void m_loads(const float *__restrict__ x, float *__restrict__ y, int n, int stride,
                        int passes)
{
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += gridDim.x * blockDim.x) {
        int rows = n / stride, i = (t % rows) * stride + t / rows;
        float v = 2.0f * x[i] + 1.0f;
        if (passes > 1) v += 0.0f * x[(i + n / 2) % n];
        y[i] = v;
    }
}

static int m_reference(const struct vb_point *p, double *out, struct vb_err *err)
{
    size_t i, n = out_len(p);
    (void)err;
    for (i = 0; i < n; i++)
        out[i] = 2.0f * x_of(i) + 1.0f;
    return 0;
}

static int run_loads(void *state, struct vb_err *err)
{
    struct st *s = (struct st *)state;
    int stride = (int)env_num("VB_WORK_STRIDE", 1), div = (int)env_num("VB_WORK_GRID_DIV", 1);
    int passes = (int)env_num("VB_WORK_PASSES", 1);
    unsigned blocks = (unsigned)((s->n + 255) / 256);
    if (stride < 1 || s->n % (size_t)stride) stride = 1;
    if (div < 1) div = 1;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    m_loads<<<(blocks + div - 1) / div, 256>>>(s->d_x, s->d_y, (int)s->n, stride, passes);
    return vb_phase_wait(cudaGetLastError(), 0, err);
}

/* what one sample of m/loads declares: x read and y written once */
static void m_traffic(const struct vb_point *p, struct vb_traffic *t)
{
    double n = (double)out_len(p);
    memset(t, 0, sizeof *t);
    t->gmem_read_bytes = t->gmem_write_bytes = (uint64_t)(n * sizeof(float));
    t->elements = n;
    t->flops = 2.0 * n;
}

static const struct vb_axis m_axes[] = {{.name = "n", .doc = "elements", .spec = "2^24"}};
static const struct vb_problem loads_p = {.name = "loads",
                                          .summary = "y = 2x + 1",
                                          .axes = m_axes,
                                          .naxes = 1,
                                          .out_len = out_len,
                                          .reference = m_reference,
                                          .atol = 0,
                                          .rtol = 1e-6};
static const struct vb_variant m_rungs[] = {{.name = "loads",
                                             .summary = "one thread an element, resident",
                                             .flags = VB_GPU,
                                             .tag = 1,
                                             .run = run_loads,
                                             .traffic = m_traffic,
                                             .problem = &loads_p}};
static const struct vb_family m = {.name = "m",
                                   .summary = "memory plants set from outside",
                                   .ops = &ops,
                                   .variants = m_rungs,
                                   .nvariants = 1};

/* spin launches the kernel back to back for `seconds` (a co-tenant on the board) */
static int spin(double seconds)
{
    size_t n = (size_t)1 << 22;
    float *x, *y;
    struct timespec t0, t;
    if (cudaMalloc(&x, n * sizeof(float)) || cudaMalloc(&y, n * sizeof(float))) return 3;
    cudaMemset(x, 0, n * sizeof(float));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        w_loop<<<(unsigned)(n / 256), 256>>>(x, y, (int)n, 16);
        if (cudaDeviceSynchronize()) return 3;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) < seconds);
    return 0;
}

int main(int argc, char **argv)
{
    const struct vb_family *fams[] = {&w, &m, NULL};
    if (argc == 3 && !strcmp(argv[1], "spin")) return spin(atof(argv[2]));
    return vb_main(argc, argv, fams);
}
