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
 * plants what the counters explain: m/loads (uncoalesced loads, a fraction of the blocks, a
 * second DRAM pass, more registers a thread), m/transpose (a shared-memory tile without its
 * padding), m/chain (a dependent-instruction chain); see each.
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

/* The memory rung m/loads: y = 2x + 1, one thread an element, and the plants that keep its
 * answer and change what its counters see:
 *   VB_WORK_STRIDE=S      thread t takes element (t mod n/S) * S + t div (n/S) (a permutation:
 *                         neighbouring threads S elements apart, its loads and stores uncoalesced)
 *   VB_WORK_GRID_DIV=D    a D-th of the blocks, each thread striding over D elements
 *   VB_WORK_PASSES=2      each thread also reads the element n/2 away (DRAM bytes read x2)
 *   VB_WORK_REGS=1        another build of the kernel: a path it never takes (passes == -1) that
 *                         holds FAT_REGS values live, so that each thread is given ~170 registers
 *                         (occupancy an eighth); the same work */
#define FAT_REGS 160
template <bool FAT>
__global__ void m_loads(const float *__restrict__ x, float *__restrict__ y, int n, int stride,
                        int passes)
{
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += gridDim.x * blockDim.x) {
        int rows = n / stride, i = (t % rows) * stride + t / rows;
        float v = 2.0f * x[i] + 1.0f;
        if (passes > 1) v += 0.0f * x[(i + n / 2) % n];
        if (FAT && passes == -1) { /* never taken: its registers are allocated all the same */
            float a[FAT_REGS], s = 0.0f;
            a[0] = x[i];
#pragma unroll
            for (int k = 1; k < FAT_REGS; k++)
                a[k] = fmaf(a[k - 1], 1.0001f, 0.5f);
#pragma unroll
            for (int k = 0; k < FAT_REGS; k++) /* first with last: every value live at once */
                s = fmaf(a[k], a[FAT_REGS - 1 - k], s);
            v += s;
        }
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
    int passes = (int)env_num("VB_WORK_PASSES", 1), fat = env_num("VB_WORK_REGS", 0) > 0;
    unsigned blocks = (unsigned)((s->n + 255) / 256);
    if (stride < 1 || s->n % (size_t)stride) stride = 1;
    if (div < 1) div = 1;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    blocks = (blocks + div - 1) / div;
    if (fat)
        m_loads<true><<<blocks, 256>>>(s->d_x, s->d_y, (int)s->n, stride, passes);
    else
        m_loads<false><<<blocks, 256>>>(s->d_x, s->d_y, (int)s->n, stride, passes);
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

/* m/transpose: y = 2 x^T + 1 of a square matrix of n elements (side a multiple of 32), through a
 * shared-memory tile of 32 x 32 read down its columns; its row pitch is 33 floats (the padding
 * that puts a column's 32 elements in 32 banks), or 32 with VB_WORK_SMEM_PAD=0 (a column in one
 * bank: 32-way conflicts on every shared load). The same SASS, the pitch passed in. */
__global__ void m_transpose(const float *__restrict__ x, float *__restrict__ y, int side, int pitch)
{
    extern __shared__ float tile[];
    int bx = blockIdx.x * 32, by = blockIdx.y * 32;
    for (int r = threadIdx.y; r < 32; r += 8)
        tile[r * pitch + threadIdx.x] = x[(size_t)(by + r) * side + bx + threadIdx.x];
    __syncthreads();
    for (int r = threadIdx.y; r < 32; r += 8)
        y[(size_t)(bx + r) * side + by + threadIdx.x] = 2.0f * tile[threadIdx.x * pitch + r] + 1.0f;
}

static int side_of(size_t n)
{
    int side = (int)sqrt((double)n);
    return (size_t)side * (size_t)side == n && side % 32 == 0 ? side : 0;
}

static int t_reference(const struct vb_point *p, double *out, struct vb_err *err)
{
    size_t n = out_len(p), r, c, side = (size_t)side_of(n);
    if (!side)
        return vb_err_set(err, VB_E_USAGE,
                          "m/transpose: n=%zu is not the square of a multiple of 32", n);
    for (r = 0; r < side; r++)
        for (c = 0; c < side; c++)
            out[c * side + r] = 2.0f * x_of(r * side + c) + 1.0f;
    return 0;
}

static int run_transpose(void *state, struct vb_err *err)
{
    struct st *s = (struct st *)state;
    int side = side_of(s->n), pitch = env_num("VB_WORK_SMEM_PAD", 1) > 0 ? 33 : 32;
    dim3 grid((unsigned)side / 32, (unsigned)side / 32), block(32, 8);
    if (!side) return vb_err_set(err, VB_E_USAGE, "m/transpose: n is not a square of 32s");
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    m_transpose<<<grid, block, 32 * pitch * sizeof(float)>>>(s->d_x, s->d_y, side, pitch);
    return vb_phase_wait(cudaGetLastError(), 0, err);
}

/* m/chain: y = the sum of CHAINS chains of CHAIN_LEN multiply-adds, each from x + j/8, on a
 * board left mostly idle (one block of 128 threads an SM, striding: latency shows). The chains
 * are independent (the multiply-adds interleaved); VB_WORK_DEPENDENT=1 is another build that
 * starts each chain from the last one's end times 0 (the same answer, one chain after another:
 * every multiply-add waits for the one before). */
#define CHAINS    8
#define CHAIN_LEN 64
template <bool DEP>
__global__ void m_chain(const float *__restrict__ x, float *__restrict__ y, int n)
{
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += gridDim.x * blockDim.x) {
        float v = x[t], acc[CHAINS], prev = 0.0f, sum = 0.0f;
#pragma unroll
        for (int j = 0; j < CHAINS; j++)
            acc[j] = v + 0.125f * (float)j;
        if (DEP) {
#pragma unroll
            for (int j = 0; j < CHAINS; j++) {
                float w = acc[j] + 0.0f * prev;
                for (int k = 0; k < CHAIN_LEN; k++)
                    w = fmaf(w, 0.999f, 0.001f);
                acc[j] = prev = w;
            }
        } else {
            for (int k = 0; k < CHAIN_LEN; k++)
#pragma unroll
                for (int j = 0; j < CHAINS; j++)
                    acc[j] = fmaf(acc[j], 0.999f, 0.001f);
        }
#pragma unroll
        for (int j = 0; j < CHAINS; j++)
            sum += acc[j];
        y[t] = sum;
    }
}

static int c_reference(const struct vb_point *p, double *out, struct vb_err *err)
{
    size_t i, n = out_len(p);
    (void)err;
    for (i = 0; i < n; i++) {
        float sum = 0.0f;
        for (int j = 0; j < CHAINS; j++)
            sum += chain(x_of(i) + 0.125f * (float)j, CHAIN_LEN);
        out[i] = sum;
    }
    return 0;
}

static int run_chain(void *state, struct vb_err *err)
{
    struct st *s = (struct st *)state;
    int sms = 0, dev = 0;
    if (VB_CUDA(err, cudaGetDevice(&dev)) ||
        VB_CUDA(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)))
        return -1;
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    if (env_num("VB_WORK_DEPENDENT", 0) > 0)
        m_chain<true><<<(unsigned)sms, 128>>>(s->d_x, s->d_y, (int)s->n);
    else
        m_chain<false><<<(unsigned)sms, 128>>>(s->d_x, s->d_y, (int)s->n);
    return vb_phase_wait(cudaGetLastError(), 0, err);
}

static void c_traffic(const struct vb_point *p, struct vb_traffic *t)
{
    double n = (double)out_len(p);
    memset(t, 0, sizeof *t);
    t->gmem_read_bytes = t->gmem_write_bytes = (uint64_t)(n * sizeof(float));
    t->elements = n;
    t->flops = 2.0 * CHAINS * CHAIN_LEN * n;
}

static const struct vb_axis m_axes[] = {{.name = "n", .doc = "elements", .spec = "2^24"}};
static const struct vb_axis c_axes[] = {{.name = "n", .doc = "elements", .spec = "2^20"}};
static const struct vb_problem loads_p = {.name = "loads",
                                          .summary = "y = 2x + 1",
                                          .axes = m_axes,
                                          .naxes = 1,
                                          .out_len = out_len,
                                          .reference = m_reference,
                                          .atol = 0,
                                          .rtol = 1e-6};
static const struct vb_problem transpose_p = {.name = "transpose",
                                              .summary = "y = 2 x^T + 1, a square matrix",
                                              .axes = m_axes,
                                              .naxes = 1,
                                              .out_len = out_len,
                                              .reference = t_reference,
                                              .atol = 0,
                                              .rtol = 1e-6};
static const struct vb_problem chain_m = {.name = "chain",
                                          .summary = "y = the sum of 8 chains of 64 FMAs from x",
                                          .axes = c_axes,
                                          .naxes = 1,
                                          .out_len = out_len,
                                          .reference = c_reference,
                                          .atol = 0,
                                          .rtol = 1e-5};
static const struct vb_variant m_rungs[] = {
    {.name = "loads",
     .summary = "one thread an element, resident",
     .flags = VB_GPU,
     .tag = 1,
     .run = run_loads,
     .traffic = m_traffic,
     .problem = &loads_p},
    {.name = "transpose",
     .summary = "through a padded shared-memory tile",
     .flags = VB_GPU,
     .tag = 1,
     .run = run_transpose,
     .traffic = m_traffic,
     .problem = &transpose_p},
    {.name = "chain",
     .summary = "8 independent chains a thread, an idle board",
     .flags = VB_GPU,
     .tag = 1,
     .run = run_chain,
     .traffic = c_traffic,
     .problem = &chain_m}};
static const struct vb_family m = {.name = "m",
                                   .summary = "counter plants set from outside",
                                   .ops = &ops,
                                   .variants = m_rungs,
                                   .nvariants = 3};

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
