/* Core module tests: errors, statistics, axes, registry rules, comparison, formatting. */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>

#include "axes.h"
#include "err.h"
#include "fixtures.h"
#include "registry.h"
#include "runner.h"
#include "stats.h"
#include "table.h"
#include "test.h"
#include "tests.h"

int test_err_codes(const char *arg)
{
    struct vb_err err;
    ASSERT_INT_EQ(vb_code_exit(VB_E_OK), 0);
    ASSERT_INT_EQ(vb_code_exit(VB_E_WRONG), 1);
    ASSERT_INT_EQ(vb_code_exit(VB_E_USAGE), 2);
    ASSERT_INT_EQ(vb_code_exit(VB_E_DB), 3);
    ASSERT_INT_EQ(vb_code_exit(VB_E_NODEV), 4);
    ASSERT_INT_EQ(vb_code_exit(VB_E_INTERRUPTED), 130);
    ASSERT_INT_EQ(vb_err_set(&err, VB_E_DB, "open '%s'", "x.db"), -1);
    vb_err_context(&err, "variant '%s'", "mesh/host-mesh");
    ASSERT_STR_EQ(err.msg, "variant 'mesh/host-mesh': open 'x.db'");
    ASSERT_INT_EQ(err.code, VB_E_DB);
    /* the CUDA checker keeps the error's name and turns "no driver" into NODEV with a hint */
    ASSERT_INT_EQ(VB_CUDA(&err, cudaErrorInsufficientDriver), -1);
    ASSERT_INT_EQ(err.code, VB_E_NODEV);
    ASSERT_CONTAINS(err.msg, "cudaErrorInsufficientDriver");
    ASSERT_CONTAINS(err.hint, "driver");
    ASSERT_INT_EQ(VB_CUDA(&err, cudaSuccess), 0);
    return 0;
}

int test_stats(const char *arg)
{
    const double odd[] = {5, 1, 4, 2, 3}, even[] = {4, 1, 3, 2};
    struct vb_stats s;
    ASSERT_INT_EQ(vb_stats_compute(odd, 5, &s), 0);
    ASSERT_NEAR(s.median, 3, 0);
    ASSERT_NEAR(s.min, 1, 0);
    ASSERT_NEAR(s.max, 5, 0);
    ASSERT_NEAR(s.mean, 3, 1e-15);
    ASSERT_NEAR(s.stdev, sqrt(2.5), 1e-15); /* sample stdev of 1..5 */
    ASSERT_NEAR(s.noise, sqrt(2.5) / 3, 1e-15);
    ASSERT_NEAR(vb_stats_median(even, 4), 2.5, 0);
    /* the input is not reordered */
    ASSERT_NEAR(odd[0], 5, 0);
    ASSERT_INT_EQ(vb_stats_compute(odd, 1, &s), 0);
    ASSERT(isnan(s.stdev) && isinf(s.noise));
    ASSERT_INT_EQ(vb_stats_compute(NULL, 0, &s), 0);
    ASSERT(isnan(s.median) && s.n == 0);
    return 0;
}

/* Welford keeps precision where the naive sum of squares cancels. */
int test_stats_large_values(const char *arg)
{
    double x[3] = {1e9 + 1, 1e9 + 2, 1e9 + 3};
    struct vb_stats s;
    ASSERT_INT_EQ(vb_stats_compute(x, 3, &s), 0);
    ASSERT_NEAR(s.stdev, 1.0, 1e-6);
    return 0;
}

int test_axes_parse(const char *arg)
{
    struct vb_overrides ov = {0};
    struct vb_err err;
    ASSERT_OK(vb_axes_parse(&ov, "nx=1000,4000", &err));
    ASSERT_OK(vb_axes_parse(&ov, "model_size=1e7", &err));
    ASSERT_INT_EQ(ov.n, 2);
    ASSERT_INT_EQ(ov.o[0].n, 2);
    ASSERT_STR_EQ(ov.o[0].tok[1], "4000");
    ASSERT_STR_EQ(ov.o[1].tok[0], "1e7");
    /* a second --axis nx would silently drop the first values: refused, nothing changed */
    ASSERT_INT_EQ(vb_axes_parse(&ov, "nx=8", &err), -1);
    ASSERT_CONTAINS(err.msg, "given twice");
    ASSERT_INT_EQ(ov.n, 2);
    ASSERT_INT_EQ(ov.o[0].n, 2);
    ASSERT_INT_EQ(vb_axes_parse(&ov, "nx=", &err), -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    ASSERT_INT_EQ(vb_axes_parse(&ov, "=5", &err), -1);
    ASSERT_INT_EQ(vb_axes_parse(&ov, "nx", &err), -1);
    ASSERT_CONTAINS(err.msg, "name=v1,v2");
    memset(&ov, 0, sizeof ov);
    ASSERT_INT_EQ(vb_axes_parse(&ov, "nx=1,,2", &err), 0); /* empty items are skipped */
    ASSERT_INT_EQ(ov.o[0].n, 2);
    return 0;
}

/* Values are converted for the axis they name: integers (plain or 1e7) or a string axis' labels. */
int test_axes_values(const char *arg)
{
    static const char *const fruit[] = {"apple", "pear"};
    static const struct vb_axis ax[] = {{"n", "count", {10}, 1, 1, 100000000, NULL, NULL},
                                        {"fruit", "kind", {0, 1}, 2, 0, 1, fruit, NULL}};
    const struct vb_problem pb = {.name = "fx", .summary = "fixture", .axes = ax, .naxes = 2};
    const struct vb_family f = {.name = "fx"};
    struct vb_overrides ov = {0};
    struct vb_point p[8];
    struct vb_err err;
    char buf[64];
    ASSERT_OK(vb_axes_parse(&ov, "n=1e7,5", &err));
    ASSERT_INT_EQ(vb_axes_expand(&f, &pb, &ov, p, 8, &err), 4);
    ASSERT_INT_EQ(p[0].v[0], 10000000);
    ASSERT_INT_EQ(p[3].v[0], 5);
    ASSERT_STR_EQ(vb_point_format(&pb, &p[1], buf, sizeof buf), "n=10000000,fruit=pear");
    ASSERT_OK(vb_axes_parse(&ov, "fruit=pear", &err));
    ASSERT_INT_EQ(vb_axes_expand(&f, &pb, &ov, p, 8, &err), 2);
    ASSERT_INT_EQ(p[0].v[1], 1);
    ov.n = 1; /* the fruit= above dropped, to give another */
    ASSERT_OK(vb_axes_parse(&ov, "fruit=plum", &err));
    ASSERT_INT_EQ(vb_axes_expand(&f, &pb, &ov, p, 8, &err), -1);
    ASSERT_CONTAINS(err.msg, "family 'fx': axis 'fruit': bad value 'plum'");
    ASSERT_CONTAINS(err.msg, "one of apple, pear");
    ov.n = 1;
    ASSERT_OK(vb_axes_parse(&ov, "fruit=0", &err)); /* an index is not a label */
    ASSERT_INT_EQ(vb_axes_expand(&f, &pb, &ov, p, 8, &err), -1);
    const char *bad[] = {"n=abc",  "n=1.5", "n=1e400",   "n=0",
                         "n=0x40", "n=inf", "n=100,1e2", "n=7,7"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct vb_overrides o2 = {0};
        ASSERT_OK(vb_axes_parse(&o2, bad[i], &err));
        ASSERT_INT_EQ(vb_axes_expand(&f, &pb, &o2, p, 8, &err), -1);
        ASSERT_INT_EQ(err.code, VB_E_USAGE);
    }
    {
        /* the grammar's ranges (varbench.h, axis.h): integers, powers of two, floats */
        static const struct vb_axis fl = {.name = "x", .doc = "d", .kind = VB_AXIS_FLOAT};
        static const struct vb_axis un = {.name = "n", .doc = "d"};
        long v[VB_MAX_AXIS_VALUES];
        char name[64];
        ASSERT_INT_EQ(vb_axis_parse(&ax[0], "2^10:2^16:3", v, VB_MAX_AXIS_VALUES, &err), 3);
        ASSERT(v[0] == 1024 && v[1] == 8192 && v[2] == 65536);
        ASSERT_INT_EQ(vb_axis_parse(&ax[0], "10:20:5,2^3", v, VB_MAX_AXIS_VALUES, &err), 4);
        ASSERT(v[0] == 10 && v[1] == 15 && v[2] == 20 && v[3] == 8);
        ASSERT_INT_EQ(vb_axis_parse(&ax[0], "1:40", v, VB_MAX_AXIS_VALUES, &err), -1);
        ASSERT_CONTAINS(err.msg, "more than 32 values");
        ASSERT_INT_EQ(vb_axis_parse(&ax[0], "2^a:5", v, VB_MAX_AXIS_VALUES, &err), -1);
        ASSERT_CONTAINS(err.msg, "bad range '2^a:5'");
        ASSERT_INT_EQ(vb_axis_parse(&fl, "0.5,0.1:0.3:0.1", v, VB_MAX_AXIS_VALUES, &err), 4);
        ASSERT_STR_EQ(vb_axis_value_name(&fl, v[0], name, sizeof name), "0.5");
        ASSERT_STR_EQ(vb_axis_value_name(&fl, v[3], name, sizeof name), "0.3");
        ASSERT_INT_EQ(vb_axis_parse(&fl, "nan", v, VB_MAX_AXIS_VALUES, &err), -1);
        ASSERT_INT_EQ(vb_axis_parse(&un, "0,123456789012", v, VB_MAX_AXIS_VALUES, &err), 2);
        ASSERT_INT_EQ(vb_axis_parse(&un, "-1", v, VB_MAX_AXIS_VALUES, &err), -1);
    }
    return 0;
}

int test_axes_expand(const char *arg)
{
    const struct vb_family *f = fx_family("mesh");
    const struct vb_problem *pb = fx_problem("mesh", NULL);
    struct vb_overrides ov = {0};
    struct vb_point p[16];
    struct vb_err err;
    ASSERT(f && pb);
    /* defaults: ny follows nx, so the meshes are square */
    ASSERT_INT_EQ(vb_axes_expand(f, pb, NULL, p, 16, &err), 2);
    ASSERT_INT_EQ(p[0].v[0], 1000);
    ASSERT_INT_EQ(p[0].v[1], 1000);
    ASSERT_INT_EQ(p[1].v[0], 4000);
    ASSERT_INT_EQ(p[1].v[1], 4000);
    ASSERT_OK(vb_axes_parse(&ov, "nx=10,20,30", &err));
    ASSERT_INT_EQ(vb_axes_expand(f, pb, &ov, p, 16, &err), 3);
    ASSERT_INT_EQ(p[2].v[1], 30);
    ASSERT(ov.o[0].used);
    /* both given: the cartesian product, last axis fastest */
    ASSERT_OK(vb_axes_parse(&ov, "ny=5,6", &err));
    ASSERT_INT_EQ(vb_axes_expand(f, pb, &ov, p, 16, &err), 6);
    ASSERT_INT_EQ(p[1].v[0], 10);
    ASSERT_INT_EQ(p[1].v[1], 6);
    ASSERT_INT_EQ(p[5].v[0], 30);
    /* capacity and range are enforced */
    ASSERT_INT_EQ(vb_axes_expand(f, pb, &ov, p, 4, &err), -1);
    memset(&ov, 0, sizeof ov);
    ASSERT_OK(vb_axes_parse(&ov, "nx=1", &err));
    ASSERT_INT_EQ(vb_axes_expand(f, pb, &ov, p, 16, &err), -1);
    ASSERT_CONTAINS(err.msg, "outside");
    return 0;
}

int test_registry_catalog(const char *arg)
{
    struct vb_err err;
    int i, j, nmesh = 0;
    ASSERT_OK(vb_registry_check(vb_families, 1, &err));
    for (i = 0; vb_families[i]; i++)
        for (j = 0; j < vb_families[i]->nvariants; j++)
            nmesh += !strcmp(vb_families[i]->name, "mesh");
    ASSERT_INT_EQ(nmesh, 7); /* six variants and the CPU reference */
    return 0;
}

/* The registry rejects a catalog with a duplicate variant, a missing hook (a variant's run or
 * one of the family's ops), a variant that computes no problem, or no reference. */
int test_registry_rejects(const char *arg)
{
    const struct vb_family *f = fx_family("mesh");
    struct vb_family bad = *f;
    struct vb_variant vs[8];
    struct vb_variant_ops ops = *f->ops;
    const struct vb_family *list[2] = {&bad, NULL};
    struct vb_err err;
    memcpy(vs, f->variants, sizeof *vs * (size_t)f->nvariants);
    bad.variants = vs;
    bad.ops = &ops;
    ASSERT_OK(vb_registry_check(list, 1, &err)); /* the copy as it is passes */
    ops.fetch = NULL;
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    ASSERT_CONTAINS(err.msg, "family 'mesh' lacks a hook");
    bad.ops = NULL;
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    ASSERT_CONTAINS(err.msg, "family 'mesh' lacks a hook");
    bad.ops = f->ops;
    vs[4].problem = NULL;
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    ASSERT_CONTAINS(err.msg, "variant 'mesh/device-mesh-pinned' computes no problem");
    memcpy(vs, f->variants, sizeof *vs * (size_t)f->nvariants);
    vs[2].name = vs[1].name;
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    ASSERT_CONTAINS(err.msg, "twice");
    memcpy(vs, f->variants, sizeof *vs * (size_t)f->nvariants);
    vs[3].run = NULL;
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    ASSERT_CONTAINS(err.msg, "variant 'mesh/device-mesh' lacks a hook (run)");
    memcpy(vs, f->variants, sizeof *vs * (size_t)f->nvariants);
    vs[0].flags = 0; /* a one-problem family's problem is named as the family */
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    ASSERT_CONTAINS(err.msg, "family 'mesh' has 0 CPU references");
    memcpy(vs, f->variants, sizeof *vs * (size_t)f->nvariants);
    vs[1].name = "Host Mesh";
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1);
    return 0;
}

static int run_nothing(void *state, struct vb_err *err)
{
    return 0;
}

/* A user's family (the lenient rule, vb_main's): no reference, no seed, no ops are fine; what
 * would make wrong cases is refused, naming it. */
int test_registry_user(const char *arg)
{
    static const char *const ab[] = {"a", "b"};
    struct vb_axis ax[2] = {
        {.name = "n", .doc = "d", .spec = "2^4:2^6"},
        {.name = "t", .doc = "d", .defaults = {0, 1}, .ndefaults = 2, .max = 1, .labels = ab}};
    struct vb_problem pb = {.name = "p", .summary = "s", .axes = ax, .naxes = 2};
    struct vb_variant vs[2] = {{.name = "v", .summary = "s", .run = run_nothing, .problem = &pb},
                               {.name = "w", .summary = "s", .run = run_nothing, .problem = &pb}};
    struct vb_family f = {.name = "u", .summary = "s", .variants = vs, .nvariants = 2};
    const struct vb_family *list[] = {&f, NULL};
    struct vb_err err;
    ASSERT_OK(vb_registry_check(list, 0, &err));
    ASSERT_INT_EQ(vb_registry_check(list, 1, &err), -1); /* the catalog's rule wants a seed */
    ax[1].defaults[1] = 5;                               /* a label that does not exist */
    ASSERT_INT_EQ(vb_registry_check(list, 0, &err), -1);
    ASSERT_CONTAINS(err.msg, "axis 't': 5 outside [0, 1]");
    ax[1].defaults[1] = 0;
    ASSERT_INT_EQ(vb_registry_check(list, 0, &err), -1);
    ASSERT_CONTAINS(err.msg, "value a given twice");
    ax[1].defaults[1] = 1;
    ax[1].same_as = "n"; /* a string axis following a number */
    ASSERT_INT_EQ(vb_registry_check(list, 0, &err), -1);
    ASSERT_CONTAINS(err.msg, "of another kind");
    ax[1].same_as = "t";
    ASSERT_INT_EQ(vb_registry_check(list, 0, &err), -1);
    ASSERT_CONTAINS(err.msg, "follows a following or its own axis 't'");
    ax[1].same_as = NULL;
    vs[1].flags = VB_EXPECT_WRONG; /* wrong against nothing */
    ASSERT_INT_EQ(vb_registry_check(list, 0, &err), -1);
    ASSERT_CONTAINS(err.msg, "has no reference to be wrong against");
    vs[1].flags = VB_REFERENCE;
    ASSERT_INT_EQ(vb_registry_check(list, 0, &err), -1);
    ASSERT_CONTAINS(err.msg, "has a reference variant but no reference");
    vs[1].flags = VB_GPU; /* a GPU variant states its traffic */
    ASSERT_INT_EQ(vb_registry_check(list, 0, &err), -1);
    ASSERT_CONTAINS(err.msg, "states no traffic");
    vs[1].flags = 0;
    ax[0].spec = "2^4:2^6:0";
    ASSERT_INT_EQ(vb_registry_check(list, 0, &err), -1);
    ASSERT_CONTAINS(err.msg, "bad range");
    return 0;
}

int test_registry_glob(const char *arg)
{
    const struct vb_family *f = fx_family("mesh");
    const struct vb_variant *hm = &f->variants[1];
    ASSERT_STR_EQ(hm->name, "host-mesh");
    ASSERT(vb_variant_matches(f, hm, NULL));
    ASSERT(vb_variant_matches(f, hm, "mesh/*"));
    ASSERT(vb_variant_matches(f, hm, "mesh"));
    ASSERT(vb_variant_matches(f, hm, "*/host-*"));
    ASSERT(!vb_variant_matches(f, hm, "mesh/device-*"));
    ASSERT(!vb_variant_matches(f, hm, "gufunc/*"));
    ASSERT(!vb_variant_matches(f, hm, "mes"));
    return 0;
}

int test_compare(const char *arg)
{
    const double ref[] = {1.0, -2.0, 0.0, 1e-3};
    double got[] = {1.0 + 1e-13, -2.0, 0.0, 1e-3}, ma, mr;
    ASSERT_INT_EQ(vb_compare(got, ref, 4, 0, 1e-12, &ma, &mr), 0);
    ASSERT_NEAR(mr, 1e-13, 1e-15);
    got[1] = -2.1;
    ASSERT_INT_EQ(vb_compare(got, ref, 4, 0, 1e-12, &ma, &mr), 1);
    ASSERT_NEAR(ma, 0.1, 1e-12);
    got[2] = NAN; /* an unwritten (poisoned) element always fails */
    ASSERT_INT_EQ(vb_compare(got, ref, 4, 1e9, 1e9, &ma, &mr), 1);
    ASSERT(isinf(ma));
    return 0;
}

int test_fmt_bytes(const char *arg)
{
    char b[32];
    ASSERT_STR_EQ(vb_fmt_bytes(32000000, b, sizeof b), "32,000,000");
    ASSERT_STR_EQ(vb_fmt_bytes(0, b, sizeof b), "0");
    ASSERT_STR_EQ(vb_fmt_bytes(999, b, sizeof b), "999");
    ASSERT_STR_EQ(vb_fmt_bytes(1000, b, sizeof b), "1,000");
    return 0;
}

/* vb_host_poison and vb_host_widen (a poison hook's and a fetch hook's calls, on all cores): every
 * byte and every value, the parts' seams included, at a size that splits across threads and at
 * one that does not. */
int test_host_poison_widen(const char *arg)
{
    size_t sizes[] = {1000, (size_t)3 << 20}, k, i;
    (void)arg;
    for (k = 0; k < 2; k++) {
        size_t n = sizes[k];
        float *f = malloc(n * sizeof *f);
        double *d = malloc(n * sizeof *d);
        ASSERT(f && d);
        for (i = 0; i < n; i++)
            f[i] = (float)i * 0.5f - 7.0f;
        vb_host_widen(d, f, n);
        for (i = 0; i < n; i++)
            if (d[i] != (double)f[i]) TEST_FAIL_("widen: element %zu of %zu", i, n);
        vb_host_poison(f, n * sizeof *f);
        for (i = 0; i < n; i++)
            if (!isnan(f[i])) TEST_FAIL_("poison: element %zu of %zu is %g", i, n, f[i]);
        free(f);
        free(d);
    }
    return 0;
}
