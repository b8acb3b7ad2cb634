// clang-format off
// (the README shows this file as it is: one declaration a line, 20 lines)
// The README's "your own kernel in 20 lines": y = 3 x, its bytes declared (its floor: the
// run's DRAM ceiling), timed, not verified (no reference). `mini run --db mine.db`.
#include <varbench.h>

__global__ void scale(const float *x, float *y, size_t n) { size_t i = blockIdx.x * 256ul + threadIdx.x; if (i < n) y[i] = 3 * x[i]; }
struct st { float *x = nullptr, *y = nullptr; size_t n = 0; };
static int setup(int, const vb_point *p, void **state, vb_err *err) {
    st *s = new st; *state = s; s->n = vb_axis_int(p, "n");
    return VB_CUDA(err, cudaMalloc(&s->x, 4 * s->n)) || VB_CUDA(err, cudaMalloc(&s->y, 4 * s->n)) || VB_CUDA(err, cudaMemset(s->x, 0x3f, 4 * s->n)) ? -1 : 0; }
static void teardown(void *state) { st *s = (st *)state; cudaFree(s->x); cudaFree(s->y); delete s; }
static int run(void *state, vb_err *err) {
    st *s = (st *)state; vb_nvtx_phase_begin(VB_PHASE_KERNEL); scale<<<(s->n + 255) / 256, 256>>>(s->x, s->y, s->n);
    return vb_phase_wait(cudaGetLastError(), 0, err); }
static void traffic(const vb_point *p, vb_traffic *t) { *t = {}; t->gmem_read_bytes = t->gmem_write_bytes = 4 * vb_axis_int(p, "n"); }
static const vb_axis axes[] = {{.name = "n", .doc = "floats", .spec = "2^20:2^28:4"}};
static const vb_problem scale_pb = {.name = "scale", .summary = "y = 3 x", .axes = axes, .naxes = 1};
static const vb_variant_ops ops = {.setup = setup, .teardown = teardown};
static const vb_variant rungs[] = {{.name = "scale", .summary = "one kernel", .flags = VB_GPU, .run = run, .traffic = traffic, .problem = &scale_pb}};
static const vb_family mini = {.name = "mini", .summary = "your own kernel", .ops = &ops, .variants = rungs, .nvariants = 1};
VB_MAIN(&mini)
