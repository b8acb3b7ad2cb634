/* ufunc: the shared clamp against a copy of the seed's buggy CUDA C++ clamp (the family's
 * check must reject it), the float32 functions within their problems' tolerances, the FFT
 * reference against the direct DFT on small frames, the float32 error of the FFT pipeline at
 * the seed's frame, the problems in the registry, and the CPU references run as cases. */
#include <stdlib.h>

#include "fixtures.h"
#include "registry.h"
#include "runner.h"
#include "test.h"
#include "tests.h"
#include "ufunc_fft.h"
#include "ufunc_math.h"

VB_FFT_DEFINE(float, f)

/* The seed's CUDA C++ clamp, copied with its bug (`x > xmin` where `x > xmax` was meant): every
 * x above xmin comes back as xmax. Kept here, wrong on purpose, to show the check catches it. */
static float seed_clamp(float x, float xmin, float xmax)
{
    if (x < xmin) {
        return xmin;
    } else if (x > xmin) {
        return xmax;
    } else {
        return x;
    }
}

static float our_clamp(float x, float lo, float hi)
{
    return vb_clamp_f(x, lo, hi);
}

/* clamp_wrong: how many of n inputs spread over [-2, 2] fn clamps to [-1, 1] differently from the
 * clamp problem's reference function, under the problem's own tolerance: the check a variant's
 * answer goes through. */
static size_t clamp_wrong(const struct vb_problem *pb, float (*fn)(float, float, float), size_t n)
{
    double *ref = malloc(sizeof *ref * n), *got = malloc(sizeof *got * n), ma, mr;
    size_t i, bad = n;
    if (ref && got) {
        for (i = 0; i < n; i++) {
            float x = -2.0f + 4.0f * (float)i / (float)(n - 1);
            ref[i] = vb_clamp_d((double)x, VB_UFUNC_CLAMP_LO, VB_UFUNC_CLAMP_HI);
            got[i] = fn(x, VB_UFUNC_CLAMP_LO, VB_UFUNC_CLAMP_HI);
        }
        bad = vb_compare(got, ref, n, pb->atol, pb->rtol, &ma, &mr);
    }
    free(ref);
    free(got);
    return bad;
}

/* Seed 002 point 3: the C++ clamp has `else if (x > xmin) return xmax`. Our shared clamp passes
 * the family's exact check; the seed's fails it, on the inputs strictly inside (xmin, xmax). */
int test_ufunc_clamp_seed_bug(const char *arg)
{
    const struct vb_problem *pb = fx_problem("ufunc", "clamp");
    size_t bad;
    ASSERT(pb);
    ASSERT_NEAR(pb->atol, 0, 0); /* a clamp selects an input: nothing to round */
    ASSERT_INT_EQ(clamp_wrong(pb, our_clamp, 4001), 0);
    bad = clamp_wrong(pb, seed_clamp, 4001);
    printf("the seed's clamp: %zu of 4001 inputs over [-2, 2] wrong\n", bad);
    ASSERT_INT_EQ(bad, 1999); /* every x strictly inside (-1, 1), and none outside */
    /* the bug by hand: inside the range the seed returns xmax, the shared clamp x */
    ASSERT_NEAR(seed_clamp(0.25f, -1, 1), 1.0, 0);
    ASSERT_NEAR(vb_clamp_f(0.25f, -1, 1), 0.25, 0);
    ASSERT_NEAR(vb_clamp_f(-3.0f, -1, 1), -1.0, 0);
    ASSERT_NEAR(vb_clamp_f(7.0f, -1, 1), 1.0, 0);
    ASSERT_NEAR(vb_clamp_d(-1.0, -1, 1), -1.0, 0);
    return 0;
}

/* float32 (what the kernels compute) within each problem's tolerance of the double reference:
 * the Gaussian over the seed's [-3, 3], cos over [-10, 10]. The device's expf and cosf are
 * within 2 ulp as glibc's are; the tolerances leave 10x of room over what is measured here. */
int test_ufunc_float_within_tolerance(const char *arg)
{
    const struct vb_problem *g = fx_problem("ufunc", "gaussian"), *c = fx_problem("ufunc", "cos");
    double got, ref, ma, mr, worst_g = 0, worst_c = 0;
    int k;
    ASSERT(g && c);
    for (k = 0; k <= 200000; k++) {
        float x = (float)(-3.0 + 6.0 * k / 200000.0);
        got = vb_gaussian_f(x, VB_UFUNC_X0, VB_UFUNC_SIGMA);
        ref = vb_gaussian_d((double)x, VB_UFUNC_X0, VB_UFUNC_SIGMA);
        if (vb_compare(&got, &ref, 1, g->atol, g->rtol, &ma, &mr))
            TEST_FAIL_("gaussian(%.9g): %.9g vs %.17g", x, got, ref);
        if (mr > worst_g) worst_g = mr;
        x = (float)(-10.0 + 20.0 * k / 200000.0);
        got = vb_cos_f(x);
        ref = vb_cos_d((double)x);
        if (vb_compare(&got, &ref, 1, c->atol, c->rtol, &ma, &mr))
            TEST_FAIL_("cos(%.9g): %.9g vs %.17g", x, got, ref);
        if (ma > worst_c) worst_c = ma;
    }
    printf("float32 vs double: gaussian worst relative %g (rtol %g), cos worst absolute %g (atol "
           "%g)\n",
           worst_g, g->rtol, worst_c, c->atol);
    ASSERT(worst_g * 10 < g->rtol);
    /* the seed's formula: the peak is 1/sqrt(2 pi) */
    ASSERT_NEAR(vb_gaussian_d(0, 0, 1), 0.3989422804014327, 1e-16);
    ASSERT_NEAR(vb_gaussian_d(1, 0, 1), 0.24197072451914337, 1e-16);
    return 0;
}

/* frame: a small test frame in [0, 1] with no symmetry to hide an indexing slip. */
static void fill(double *d, long h, long w)
{
    long i;
    for (i = 0; i < h * w; i++) {
        d[2 * i] = 0.5 + 0.4 * sin(1.7 * (double)i) * cos(0.31 * (double)(i % 7));
        d[2 * i + 1] = 0;
    }
}

/* The FFT reference equals the direct DFT (the definition) on small frames of awkward sizes:
 * the 2D transform both ways, and the whole low-pass pipeline. */
int test_ufunc_fft_vs_direct_dft(const char *arg)
{
    static const long sizes[][2] = {{12, 20}, {15, 7},  {16, 16}, {9, 25}, {2, 2},
                                    {11, 13}, {36, 40}, {8, 1},   {1, 6}};
    size_t s;
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        long h = sizes[s][0], w = sizes[s][1], i, n = h * w;
        double *a = malloc(sizeof *a * 2 * (size_t)n), *b = malloc(sizeof *b * 2 * (size_t)n);
        double *c = malloc(sizeof *c * 2 * (size_t)n), worst = 0, scale = (double)n;
        int sign;
        ASSERT(a && b && c);
        for (sign = -1; sign <= 1; sign += 2) {
            fill(a, h, w);
            fill(b, h, w);
            ASSERT_INT_EQ(vb_dft2_direct(a, c, h, w, sign), 0);
            ASSERT_INT_EQ(vb_fft2_d(b, h, w, sign), 0);
            for (i = 0; i < 2 * n; i++)
                ASSERT_NEAR(b[i], c[i], 1e-12 * scale);
        }
        fill(a, h, w);
        fill(b, h, w);
        ASSERT_INT_EQ(vb_dft_lowpass_direct(a, h, w), 0);
        ASSERT_INT_EQ(vb_fft_lowpass_d(b, h, w), 0);
        for (i = 0; i < 2 * n; i++) {
            ASSERT_NEAR(b[i], a[i], 1e-13);
            if (fabs(b[i] - a[i]) > worst) worst = fabs(b[i] - a[i]);
        }
        /* a real frame through a symmetric mask stays real */
        for (i = 0; i < n; i++)
            ASSERT_NEAR(a[2 * i + 1], 0, 1e-13);
        printf("%ldx%ld: FFT pipeline vs direct DFT pipeline: max |diff| %g\n", h, w, worst);
        free(a);
        free(b);
        free(c);
    }
    /* the definition itself, by hand: a unit impulse at (1, 2) in a 3 x 4 frame */
    {
        double in[24] = {0}, out[24];
        in[2 * (1 * 4 + 2)] = 1;
        ASSERT_INT_EQ(vb_dft2_direct(in, out, 3, 4, -1), 0);
        /* X[1][1] = exp(-2 pi i (1/3 + 2/4)) */
        ASSERT_NEAR(out[2 * (1 * 4 + 1)], cos(-VB_FFT_TWO_PI * (1.0 / 3 + 0.5)), 1e-15);
        ASSERT_NEAR(out[2 * (1 * 4 + 1) + 1], sin(-VB_FFT_TWO_PI * (1.0 / 3 + 0.5)), 1e-15);
    }
    return 0;
}

/* The mask: symmetric under k -> -k (so a real frame stays real), keeps the zero frequency and
 * drops the highest ones, and keeps about pi/64 of the spectrum (an ellipse of radius 1/8). */
int test_ufunc_fft_mask(const char *arg)
{
    long h = 720, w = 1280, y, x, kept = 0;
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            int k = vb_ufunc_fft_keep(y, x, h, w);
            kept += k;
            if (k != vb_ufunc_fft_keep((h - y) % h, (w - x) % w, h, w))
                TEST_FAIL_("mask not symmetric at (%ld, %ld)", y, x);
        }
    ASSERT(vb_ufunc_fft_keep(0, 0, h, w));
    ASSERT(!vb_ufunc_fft_keep(h / 2, w / 2, h, w));
    ASSERT(vb_ufunc_fft_keep(h / 8, 0, h, w));      /* on the ellipse */
    ASSERT(!vb_ufunc_fft_keep(h / 8 + 1, 0, h, w)); /* just outside */
    printf("720x1280 mask keeps %ld of %ld frequencies (%.4f; pi/64 = %.4f)\n", kept, h * w,
           (double)kept / (double)(h * w), 3.14159265358979 / 64);
    ASSERT(fabs((double)kept / (double)(h * w) - 3.14159265358979 / 64) < 0.002);
    /* exact at the largest frame the axes allow */
    ASSERT(vb_ufunc_fft_keep(1024, 0, 8192, 8192) && !vb_ufunc_fft_keep(1025, 0, 8192, 8192));
    return 0;
}

/* A plain float32 FFT pipeline (float twiddles and sums, no error compensation: worse than
 * cuFFT) on the seed's 720 x 1280 frame stays well inside the fft-mask problem's tolerance of
 * the double reference. */
int test_ufunc_fft_float_error(const char *arg)
{
    const struct vb_problem *pb = fx_problem("ufunc", "fft-mask");
    struct vb_point p;
    struct vb_err err;
    size_t n, i;
    double *ref, worst = 0;
    float *f;
    ASSERT(pb);
    memset(&p, 0, sizeof p);
    p.v[0] = 720;
    p.v[1] = 1280;
    n = pb->out_len(&p);
    ASSERT_INT_EQ(n, 2 * 720 * 1280);
    ref = malloc(sizeof *ref * n);
    f = malloc(sizeof *f * n);
    ASSERT(ref && f);
    /* a frame like the variants' (a wave under noise), through both pipelines */
    for (i = 0; i < n / 2; i++) {
        long y = (long)(i / 1280), x = (long)(i % 1280);
        float v = (float)(0.5 + 0.3 * sin(VB_FFT_TWO_PI * (3.0 * x / 1280 + 2.0 * y / 720)) +
                          0.2 * sin(12.9898 * (double)i) * cos(4.1414 * (double)i));
        ref[2 * i] = v;
        ref[2 * i + 1] = 0;
        f[2 * i] = v;
        f[2 * i + 1] = 0;
    }
    ASSERT_INT_EQ(vb_fft_lowpass_d(ref, 720, 1280), 0);
    ASSERT_INT_EQ(vb_fft_lowpass_f(f, 720, 1280), 0);
    for (i = 0; i < n; i++)
        if (fabs(f[i] - ref[i]) > worst) worst = fabs(f[i] - ref[i]);
    printf("float32 FFT pipeline at 720x1280: max abs error %g (atol %g)\n", worst, pb->atol);
    ASSERT(worst * 10 < pb->atol);
    /* and the reference itself runs at that frame */
    ASSERT_OK(pb->reference(&p, ref, &err));
    for (i = 0; i < n; i++)
        ASSERT(isfinite(ref[i]));
    free(ref);
    free(f);
    return 0;
}

/* The registry: ufunc's four problems, each with its axes, one CPU reference and variants,
 * mesh's one named as the family; and a problem with two references, a variant that computes
 * no problem, two problems of one name, or a resident CPU variant are refused. */
int test_ufunc_registry_problems(const char *arg)
{
    const struct vb_family *f = fx_family("ufunc");
    const struct vb_problem *pbs[VB_MAX_PROBLEMS];
    struct vb_variant vs[16];
    struct vb_family bad;
    const struct vb_family *list[2] = {&bad, NULL};
    struct vb_problem twin;
    struct vb_err err;
    int np;
    ASSERT(f);
    np = vb_family_problems(f, pbs, VB_MAX_PROBLEMS);
    ASSERT_INT_EQ(np, 4);
    ASSERT_STR_EQ(pbs[0]->name, "gaussian");
    ASSERT_STR_EQ(pbs[3]->name, "fft-mask");
    ASSERT_STR_EQ(pbs[3]->axes[0].name, "height");
    ASSERT_INT_EQ(vb_family_problems(fx_family("mesh"), pbs, VB_MAX_PROBLEMS), 1);
    ASSERT_STR_EQ(pbs[0]->name, "mesh");              /* one function: the family's name */
    ASSERT_INT_EQ(vb_family_problems(f, NULL, 0), 4); /* counting only */
    ASSERT((size_t)f->nvariants <= sizeof vs / sizeof vs[0]);
    bad = *f;
    bad.variants = vs;
    memcpy(vs, f->variants, sizeof *vs * (size_t)f->nvariants);
    list[0] = &bad;
    ASSERT_OK(vb_registry_check(list, 1, &err));
    vs[1].flags = VB_REFERENCE; /* gaussian-host as a second reference */
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    ASSERT_CONTAINS(err.msg, "problem 'ufunc/gaussian' has 2 CPU references");
    memcpy(vs, f->variants, sizeof *vs * (size_t)f->nvariants);
    vs[3].problem = NULL; /* clamp-cpu computing nothing */
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    ASSERT_CONTAINS(err.msg, "variant 'ufunc/clamp-cpu' computes no problem");
    memcpy(vs, f->variants, sizeof *vs * (size_t)f->nvariants);
    twin = *vs[3].problem; /* clamp without its reference function */
    twin.reference = NULL;
    vs[3].problem = vs[4].problem = &twin;
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    ASSERT_CONTAINS(err.msg, "problem 'ufunc/clamp' lacks out_len");
    memcpy(vs, f->variants, sizeof *vs * (size_t)f->nvariants);
    twin = *vs[0].problem; /* a second problem called gaussian */
    vs[3].problem = vs[4].problem = &twin;
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    ASSERT_CONTAINS(err.msg, "defined twice");
    memcpy(vs, f->variants, sizeof *vs * (size_t)f->nvariants);
    vs[4].flags = VB_RESIDENT; /* device-resident, but a CPU variant */
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    ASSERT_CONTAINS(err.msg, "keep its answer on the device");
    return 0;
}

/* Every ufunc CPU reference runs as a timed case and verifies exactly against its problem's
 * reference at a small point; the GPU variants are skipped without a device, not failed. */
int test_ufunc_cpu_cases(const char *arg)
{
    const struct vb_family *f = fx_family("ufunc");
    struct vb_sampling cfg;
    int j, refs = 0;
    ASSERT(f);
    vb_sampling_quick(&cfg);
    for (j = 0; j < f->nvariants; j++) {
        const struct vb_variant *v = &f->variants[j];
        const struct vb_problem *pb = v->problem;
        struct vb_point p;
        struct vb_case_result r;
        struct vb_err err;
        double *ref;
        memset(&p, 0, sizeof p);
        if (pb->naxes == 2) {
            p.v[0] = 24;
            p.v[1] = 40;
        } else {
            p.v[0] = 10007;
        }
        ref = malloc(sizeof *ref * pb->out_len(&p));
        ASSERT(ref);
        ASSERT_OK(pb->reference(&p, ref, &err));
        if (pb->reference_part) { /* the oracle in parts equals the reference, bit for bit */
            size_t n = pb->out_len(&p), i;
            double *parts = malloc(sizeof *parts * n);
            ASSERT(parts);
            for (i = 0; i < n; i++)
                parts[i] = NAN;
            pb->reference_part(&p, parts, n / 3, n);
            pb->reference_part(&p, parts, 0, n / 3);
            for (i = 0; i < n; i++)
                ASSERT(parts[i] == ref[i]);
            free(parts);
        }
        vb_runner_case(f, v, &p, -1, (v->flags & VB_GPU) ? "no CUDA device (test)" : NULL, ref,
                       NULL, &cfg, &r);
        if (v->flags & VB_GPU) {
            ASSERT_STR_EQ(vb_status_name(r.status), "skipped");
        } else {
            refs++;
            ASSERT_STR_EQ(vb_status_name(r.status), "ok");
            ASSERT_NEAR(r.max_abs_err, 0, 0);
        }
        printf("%s %s: %s\n", v->name, r.axes, vb_status_name(r.status));
        vb_case_result_free(&r);
        free(ref);
    }
    ASSERT_INT_EQ(refs, 4);
    return 0;
}
