/* The mesh family's CPU reference against values computed independently (Python's libm from
 * the seed's formula), and the runner on CPU cases, including variants that go wrong. */
#include <stdlib.h>
#include <time.h>

#include "fixtures.h"
#include "mesh_math.h"
#include "registry.h"
#include "runner.h"
#include "test.h"
#include "tests.h"

/* nx = ny = 3: lat1 in {29, 30, 31} along x, lon1 in {99, 100, 101} along y. */
int test_mesh_reference_hand(const char *arg)
{
    const struct vb_problem *pb = fx_problem("mesh", NULL);
    struct vb_point p = {{3, 3}};
    struct vb_err err;
    double out[9];
    ASSERT(pb);
    ASSERT_INT_EQ(pb->out_len(&p), 9);
    ASSERT_OK(pb->reference(&p, out, &err));
    ASSERT_NEAR(out[0], 0.00030695340453264116, 1e-18); /* (29, 99) */
    ASSERT_NEAR(out[2], 0.00030234701250211128, 1e-18); /* (31, 99) */
    ASSERT_NEAR(out[4], 5.7117567014858903e-05, 1e-18); /* (30, 100) */
    ASSERT_NEAR(out[6], 7.6158199297256973e-05, 1e-18); /* (29, 101) */
    ASSERT_NEAR(out[8], 7.6158199297256973e-05, 1e-18); /* (31, 101) */
    ASSERT_NEAR(out[7], 0.0, 0);                        /* (30, 101): the fixed point itself */
    return 0;
}

int test_mesh_math(const char *arg)
{
    /* linspace end points are exact, as numpy's are */
    ASSERT_NEAR(vb_mesh_coord(29, 31, 0, 1000), 29.0, 0);
    ASSERT_NEAR(vb_mesh_coord(29, 31, 999, 1000), 31.0, 0);
    ASSERT_NEAR(vb_mesh_coord(99, 101, 2, 5), 100.0, 0);
    /* a(lat, lon) = sin^2 + cos cos sin^2 is symmetric in the sign of each difference */
    ASSERT_NEAR(vb_mesh_a(29, 101, 30, 101), vb_mesh_a(31, 101, 30, 101), 1e-15);
    ASSERT_NEAR(vb_mesh_d(0.0, 1.0), 0.0, 0);
    ASSERT_NEAR(vb_mesh_d(0.5, 2.0), 2 * atan2(0.5, 0.5), 1e-16);
    return 0;
}

/* The CPU reference runs as a timed case without a GPU; GPU variants are skipped, not failed. */
int test_runner_cpu_and_skip(const char *arg)
{
    const struct vb_family *f = fx_family("mesh");
    struct vb_point p = {{64, 48}};
    struct vb_sampling cfg;
    struct vb_case_result r;
    double *ref = malloc(sizeof *ref * 64 * 48);
    struct vb_err err;
    ASSERT(ref);
    ASSERT_OK(f->variants[0].problem->reference(&p, ref, &err));
    vb_sampling_quick(&cfg);
    vb_runner_case(f, &f->variants[0], &p, -1, NULL, ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "ok");
    ASSERT(r.ntimed >= cfg.cpu_min_samples);
    ASSERT_INT_EQ(r.nsamples, r.ntimed + 1); /* the verified sample warms a CPU case */
    ASSERT(r.e2e_ms.median > 0);
    ASSERT_NEAR(r.max_abs_err, 0, 0);
    ASSERT_STR_EQ(r.axes, "nx=64,ny=48");
    ASSERT(isnan(r.gpu_ms.median)); /* no GPU time, no clock, no cache state for a CPU case */
    ASSERT(!r.cold);
    vb_case_result_free(&r);
    /* the reference case as the oracle: its verified sample is the answer the others get */
    {
        double *oracle = malloc(sizeof *oracle * 64 * 48);
        int i;
        ASSERT(oracle);
        for (i = 0; i < 64 * 48; i++)
            oracle[i] = NAN;
        vb_runner_case(f, &f->variants[0], &p, -1, NULL, NULL, oracle, &cfg, &r);
        ASSERT_STR_EQ(vb_status_name(r.status), "ok");
        for (i = 0; i < 64 * 48; i++)
            ASSERT_NEAR(oracle[i], ref[i], 0);
        vb_case_result_free(&r);
        free(oracle);
    }
    vb_runner_case(f, &f->variants[1], &p, -1, "no CUDA device (test)", ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "skipped");
    ASSERT_STR_EQ(r.reason, "no CUDA device (test)");
    ASSERT_INT_EQ(r.ntimed, 0);
    vb_case_result_free(&r);
    free(ref);
    return 0;
}

/* A fixture family whose variants go wrong in the ways the runner must record. */
enum fx { FX_RIGHT, FX_OFF, FX_HOLE, FX_FAILS, FX_SLOW, FX_MUTE };
struct fx_state {
    enum fx kind;
    double out[16];
};
static size_t fx_len(const struct vb_point *p)
{
    return (size_t)p->v[0];
}
static int fx_ref(const struct vb_point *p, double *out, struct vb_err *err)
{
    long i;
    for (i = 0; i < p->v[0]; i++)
        out[i] = 0.5 * (double)i + 1;
    return 0;
}
static int fx_setup(int k, const struct vb_point *p, void **s, struct vb_err *err)
{
    struct fx_state *st = calloc(1, sizeof *st);
    if (!st) return vb_err_set(err, VB_E_SYS, "oom");
    st->kind = (enum fx)k;
    *s = st;
    return 0;
}
static int fx_run(void *state, struct vb_err *err)
{
    struct fx_state *st = state;
    struct vb_point p = {{16}};
    int i;
    if (st->kind == FX_FAILS) return vb_err_set(err, VB_E_CUDA, "cudaMemcpy: planted failure");
    if (st->kind == FX_SLOW) /* past VB_RUNNER_CPU_FIRST_S */
        nanosleep(&(struct timespec){0, (long)(VB_RUNNER_CPU_FIRST_S * 1.2e9)}, NULL);
    fx_ref(&p, st->out, err);
    if (st->kind == FX_OFF) st->out[5] += 1e-3;
    if (st->kind == FX_HOLE)
        for (i = 8; i < 16; i++)
            st->out[i] = NAN; /* as if never written after poisoning */
    return 0;
}
static int fx_poison(void *state, struct vb_err *err)
{
    struct fx_state *st = state;
    int i;
    for (i = 0; i < 16; i++)
        st->out[i] = NAN;
    return 0;
}
static void fx_fetch(void *state, double *out)
{
    if (((struct fx_state *)state)->kind == FX_MUTE) return; /* hands nothing back */
    memcpy(out, ((struct fx_state *)state)->out, sizeof(double) * 16);
}
static void fx_teardown(void *state)
{
    free(state);
}
static const struct vb_axis fx_axes[] = {{"n", "elements", {16}, 1, 16, 16, NULL, NULL}};
static const struct vb_problem fx_fn = {.name = "fixture",
                                        .summary = "0.5 i + 1",
                                        .axes = fx_axes,
                                        .naxes = 1,
                                        .out_len = fx_len,
                                        .reference = fx_ref,
                                        .atol = 0,
                                        .rtol = 1e-9};
static const struct vb_variant_ops fx_ops = {
    .setup = fx_setup, .poison = fx_poison, .fetch = fx_fetch, .teardown = fx_teardown};
static const struct vb_variant fx_variants[] = {
    {.name = "right",
     .summary = "writes the reference",
     .flags = VB_REFERENCE,
     .tag = FX_RIGHT,
     .run = fx_run,
     .problem = &fx_fn},
    {.name = "off",
     .summary = "one element off by 1e-3",
     .tag = FX_OFF,
     .run = fx_run,
     .problem = &fx_fn},
    {.name = "hole",
     .summary = "leaves half the output unwritten",
     .tag = FX_HOLE,
     .run = fx_run,
     .problem = &fx_fn},
    {.name = "fails",
     .summary = "every run fails",
     .tag = FX_FAILS,
     .run = fx_run,
     .problem = &fx_fn},
    {.name = "slow",
     .summary = "right, each run past VB_RUNNER_CPU_FIRST_S",
     .tag = FX_SLOW,
     .run = fx_run,
     .problem = &fx_fn},
    {.name = "mute",
     .summary = "right, but its fetch writes nothing",
     .tag = FX_MUTE,
     .run = fx_run,
     .problem = &fx_fn},
};
static const struct vb_family runner_fixture = {
    .name = "fixture",
    .summary = "runner fixture",
    .seed = "none",
    .ops = &fx_ops,
    .variants = fx_variants,
    .nvariants = (int)(sizeof fx_variants / sizeof fx_variants[0])};

int test_runner_wrong_results(const char *arg)
{
    const struct vb_family *list[2] = {&runner_fixture, NULL};
    struct vb_point p = {{16}};
    struct vb_sampling cfg;
    struct vb_case_result r;
    struct vb_err err;
    double ref[16];
    ASSERT_OK(vb_registry_check(list, 1, &err));
    fx_ref(&p, ref, &err);
    vb_sampling_quick(&cfg);
    vb_runner_case(&runner_fixture, &fx_variants[FX_RIGHT], &p, -1, NULL, ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "ok");
    vb_case_result_free(&r);
    vb_runner_case(&runner_fixture, &fx_variants[FX_OFF], &p, -1, NULL, ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "wrong-result");
    ASSERT_NEAR(r.max_abs_err, 1e-3, 1e-12);
    ASSERT_CONTAINS(r.reason, "1 of 16 values");
    ASSERT(r.ntimed > 0); /* timed, but recorded as wrong: never a win */
    vb_case_result_free(&r);
    vb_runner_case(&runner_fixture, &fx_variants[FX_HOLE], &p, -1, NULL, ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "wrong-result");
    ASSERT_CONTAINS(r.reason, "8 of 16 values");
    vb_case_result_free(&r);
    vb_runner_case(&runner_fixture, &fx_variants[FX_FAILS], &p, -1, NULL, ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "failed");
    ASSERT_CONTAINS(r.reason, "planted failure");
    ASSERT_INT_EQ(r.ntimed, 0);
    vb_case_result_free(&r);
    /* right after a right one, a case that hands nothing back is not verified by the answer
     * the buffer kept from it */
    vb_runner_case(&runner_fixture, &fx_variants[FX_RIGHT], &p, -1, NULL, ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "ok");
    vb_case_result_free(&r);
    vb_runner_case(&runner_fixture, &fx_variants[FX_MUTE], &p, -1, NULL, ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "wrong-result");
    ASSERT_CONTAINS(r.reason, "16 of 16 values");
    vb_case_result_free(&r);
    vb_runner_release(&cfg);
    return 0;
}

/* A CPU case's verified sample counts as its first timed one from VB_RUNNER_CPU_FIRST_S on
 * (3 runs of a long reference, not 4); a shorter one only warms the case; --quick stops at a
 * long verified sample. */
int test_runner_cpu_first(const char *arg)
{
    struct vb_point p = {{16}};
    struct vb_sampling cfg;
    struct vb_case_result r;
    struct vb_err err;
    double ref[16];
    fx_ref(&p, ref, &err);
    vb_sampling_default(&cfg);
    vb_runner_case(&runner_fixture, &fx_variants[FX_SLOW], &p, -1, NULL, ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "ok");
    ASSERT_NEAR(r.max_abs_err, 0, 0); /* verified all the same */
    ASSERT_INT_EQ(r.ntimed, cfg.cpu_min_samples);
    ASSERT_INT_EQ(r.nsamples, r.ntimed);
    ASSERT_INT_EQ(r.samples[0].kind, VB_SAMPLE_TIMED);
    ASSERT(r.e2e_ms.median >= VB_RUNNER_CPU_FIRST_S * 1e3);
    ASSERT_STR_EQ(r.stop_reason, "min-reached");
    vb_case_result_free(&r);
    vb_runner_case(&runner_fixture, &fx_variants[FX_RIGHT], &p, -1, NULL, ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "ok");
    ASSERT_INT_EQ(r.samples[0].kind, VB_SAMPLE_VERIFY);
    ASSERT_INT_EQ(r.nsamples, r.ntimed + 1);
    ASSERT(r.ntimed >= cfg.cpu_min_samples);
    vb_case_result_free(&r);
    vb_sampling_quick(&cfg);
    vb_runner_case(&runner_fixture, &fx_variants[FX_SLOW], &p, -1, NULL, ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "ok");
    ASSERT_INT_EQ(r.nsamples, 1);
    ASSERT_INT_EQ(r.ntimed, 1);
    ASSERT_CONTAINS(r.stop_detail, "verified sample only");
    ASSERT(r.e2e_ms.median >= VB_RUNNER_CPU_FIRST_S * 1e3);
    vb_case_result_free(&r);
    return 0;
}
