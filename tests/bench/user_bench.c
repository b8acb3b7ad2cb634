// clang-format off
/*
 * user_bench: a benchmark program built in the tree with varbench_add_benchmark (as a user's
 * add_subdirectory project would), declared right or wrong as $VB_USER_CASE says, for
 * tests/user_bench.sh:
 *   good           family "u": problem "p" over an int64 range, a float and a string axis, a CPU
 *                  rung verified against its reference with a summary, a GPU rung (timed, not
 *                  verified) that declares bytes, elements and flops
 *   dup-variant    two variants of one name            no-axes      a problem with no axes
 *   bad-spec       an axis spec that does not parse     summary-clash a summary named as a column
 *   skip           setup says the case cannot run here  ref-fails    the reference returns an error
 *   ref-crash      the reference dies of SIGSEGV        cuda-error   a sample's launch fails
 *   slow           good, its CPU rung doing its work 8x     wrong        good, its CPU rung's
 *                  (varbench ab's planted slowdown)                      first value off by one
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <varbench.h>

static const char *mode(void)
{
    const char *m = getenv("VB_USER_CASE");
    return m ? m : "good";
}

static size_t out_len(const struct vb_point *p)
{
    return (size_t)vb_axis_int(p, "n");
}

/* out[i] = x * i + (t == "b") */
static int reference(const struct vb_point *p, double *out, struct vb_err *err)
{
    size_t i, n = out_len(p);
    double x = vb_axis_float(p, "x"), b = !strcmp(vb_axis_string(p, "t"), "b");
    if (!strcmp(mode(), "ref-fails")) return vb_err_set(err, VB_E_SYS, "the oracle's file is gone");
    if (!strcmp(mode(), "ref-crash")) raise(SIGSEGV);
    for (i = 0; i < n; i++)
        out[i] = x * (double)i + b;
    return 0;
}

struct st {
    size_t n;
    double x, b, *out;
    void *dev;
};

static int setup(int tag, const struct vb_point *p, void **state, struct vb_err *err)
{
    struct st *s = calloc(1, sizeof *s);
    if (!(*state = s)) return vb_err_set(err, VB_E_SYS, "out of memory");
    s->n = out_len(p);
    s->x = vb_axis_float(p, "x");
    s->b = !strcmp(vb_axis_string(p, "t"), "b");
    if (!strcmp(mode(), "skip") && s->n > 1024) return vb_skip(err, "n = %zu is over 1024", s->n);
    vb_summary(!strcmp(mode(), "summary-clash") ? "e2e_median_ns" : "twice_n", 2.0 * (double)s->n,
               "elements");
    if (tag == 1) return VB_CUDA(err, cudaMalloc(&s->dev, 64));
    return (s->out = vb_host_alloc(s->n * sizeof *s->out, err)) ? 0 : -1;
}

static int poison(void *state, struct vb_err *err)
{
    struct st *s = state;
    if (s->out) memset(s->out, 0xff, s->n * sizeof *s->out);
    return 0;
}

static void fetch(void *state, double *out)
{
    struct st *s = state;
    memcpy(out, s->out, s->n * sizeof *out);
}

static void teardown(void *state)
{
    struct st *s = state;
    if (!s) return;
    free(s->out);
    cudaFree(s->dev);
    free(s);
}

static int run_cpu(void *state, struct vb_err *err)
{
    struct st *s = state;
    volatile double *out = s->out; /* every store made, each of slow's 8 passes too */
    size_t i;
    int k, times = !strcmp(mode(), "slow") ? 8 : 1;
    vb_nvtx_phase_begin(VB_PHASE_CPU);
    for (k = 0; k < times; k++)
        for (i = 0; i < s->n; i++)
            out[i] = s->x * (double)i + s->b;
    if (!strcmp(mode(), "wrong")) out[0] += 1;
    vb_nvtx_phase_end();
    return 0;
}

/* a memset on the device; under cuda-error a copy from a null device pointer */
static int run_gpu(void *state, struct vb_err *err)
{
    struct st *s = state;
    char h[64];
    vb_nvtx_phase_begin(VB_PHASE_KERNEL);
    if (!strcmp(mode(), "cuda-error"))
        return vb_phase_wait(cudaMemcpy(h, (const void *)(uintptr_t)16, 64, cudaMemcpyDeviceToHost), 0, err);
    return vb_phase_wait(cudaMemsetAsync(s->dev, 1, 64, 0), 0, err);
}

static void traffic(const struct vb_point *p, struct vb_traffic *t)
{
    memset(t, 0, sizeof *t);
    t->gmem_write_bytes = 64;
    t->elements = (double)out_len(p);
    t->flops = 2.0 * (double)out_len(p);
}

static const char *const labels[] = {"a", "b"};
static const struct vb_axis axes[] = {
    {.name = "n", .doc = "elements", .spec = "2^10:2^11"},
    {.name = "x", .doc = "the slope", .kind = VB_AXIS_FLOAT, .fdefaults = {0.5, 1.25}, .ndefaults = 2},
    {.name = "t", .doc = "the offset's kind", .defaults = {0, 1}, .ndefaults = 2, .max = 1, .labels = labels},
};
static const struct vb_axis bad_axes[] = {{.name = "n", .doc = "elements", .spec = "2^a:5"}};

static const struct vb_problem p = {.name = "p", .summary = "x * i + b", .axes = axes, .naxes = 3,
    .out_len = out_len, .reference = reference, .atol = 0, .rtol = 1e-15};
static const struct vb_problem p_noaxes = {.name = "p", .summary = "no axes", .axes = axes, .naxes = 0,
    .out_len = out_len, .reference = reference};
static const struct vb_problem p_badspec = {.name = "p", .summary = "a bad spec", .axes = bad_axes,
    .naxes = 1, .out_len = out_len, .reference = reference};

static const struct vb_variant_ops ops = {.setup = setup, .poison = poison, .fetch = fetch, .teardown = teardown};

#define CPU_RUNG(pb) {.name = "cpu", .summary = "on the CPU", .tag = 0, .run = run_cpu, .problem = &(pb)}
#define GPU_RUNG(pb)                                                                               \
    {.name = "gpu", .summary = "a memset, timed only", .flags = VB_GPU, .tag = 1, .run = run_gpu,  \
     .traffic = traffic, .problem = &(pb)}

static const struct vb_variant good[] = {CPU_RUNG(p), GPU_RUNG(p)};
static const struct vb_variant dup[] = {CPU_RUNG(p), CPU_RUNG(p)};
static const struct vb_variant noaxes[] = {CPU_RUNG(p_noaxes)};
static const struct vb_variant badspec[] = {CPU_RUNG(p_badspec)};

#define FAMILY(v) {.name = "u", .summary = "a user's family", .ops = &ops, .variants = v, .nvariants = sizeof v / sizeof v[0]}
static const struct vb_family f_good = FAMILY(good), f_dup = FAMILY(dup), f_noaxes = FAMILY(noaxes),
                              f_badspec = FAMILY(badspec);

int main(int argc, char **argv)
{
    const struct vb_family *fams[] = {&f_good, NULL};
    if (!strcmp(mode(), "dup-variant")) fams[0] = &f_dup;
    if (!strcmp(mode(), "no-axes")) fams[0] = &f_noaxes;
    if (!strcmp(mode(), "bad-spec")) fams[0] = &f_badspec;
    return vb_main(argc, argv, fams);
}
