/* GPU tests, one per GPU variant (generated from the registry). At the first default size of
 * the variant's problem (every label of a string axis: both gufunc functions), and at the extra
 * points below (small and ragged sizes), the case verifies against the CPU reference (or, for a
 * variant wrong on purpose, is caught wrong), CUPTI's memcpy records show exactly the traffic
 * the descriptor promises, and the mesh's byte counts are the seed's. Skips (77) without a GPU. */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activity.h"
#include "axes.h"
#include "fixtures.h"
#include "gpu.h"
#include "phase.h"
#include "registry.h"
#include "runner.h"
#include "store.h"
#include "sweep.h"
#include "test.h"
#include "tests.h"

/* The exact traffic of one sample at 1000 x 1000 (doubles): what the seed's nvprof tables show. */
static const struct {
    const char *name;
    uint64_t h2d;
    int h2d_n;
    uint64_t d2h;
    int d2h_n;
} expected[] = {
    {"mesh/host-mesh", 32000000, 4, 8000000, 1},
    {"mesh/broadcast-scalars", 16000000, 2, 8000000, 1},
    {"mesh/device-mesh", 0, 0, 8000000, 1},
    {"mesh/device-mesh-pinned", 0, 0, 8000000, 1},
    {"mesh/device-mesh-overlap", 0, 0, 8000000, 8},
    {"mesh/device-mesh-graph", 0, 0, 8000000, 1},
};

/* Points beyond the first defaults, for the variants whose full names match glob: a small
 * frame, where the fft-mask reference is the direct DFT, and sizes that fill no block evenly. */
static const struct {
    const char *glob;
    const char *axes[2];
} extra[] = {
    {"ufunc/fft-mask*", {"height=12", "width=20"}},
    {"ufunc/fft-mask*", {"height=15", "width=7"}},
    {"ufunc/gaussian-*", {"n=100003", NULL}},
    {"ufunc/clamp-*", {"n=100003", NULL}},
    {"ufunc/cos-*", {"n=100003", NULL}},
    {"saxpy/*", {"n=100003", NULL}},
};

/* ranges_named counts the case's NVTX ranges called text. */
static int ranges_named(const struct vb_activity *a, const char *text)
{
    size_t i;
    int n = 0;
    for (i = 0; i < a->nranges; i++)
        n += !strcmp(a->ranges[i].text, text);
    return n;
}

/* test_points: the default points of f's problem pb with each integer axis held at its first
 * default, then the extra points for variant `full`. Returns how many, or -1. */
static int test_points(const struct vb_family *f, const struct vb_problem *pb, const char *full,
                       struct vb_point *pts, int cap, struct vb_err *err)
{
    struct vb_overrides ov;
    int a, n, k, i, got;
    char arg[96];
    memset(&ov, 0, sizeof ov);
    for (a = 0; a < pb->naxes; a++) {
        if (pb->axes[a].labels || pb->axes[a].same_as) continue;
        snprintf(arg, sizeof arg, "%s=%ld", pb->axes[a].name, pb->axes[a].defaults[0]);
        if (vb_axes_parse(&ov, arg, err)) return -1;
    }
    if ((n = vb_axes_expand(f, pb, &ov, pts, cap, err)) < 0) return -1;
    for (k = 0; k < (int)(sizeof extra / sizeof extra[0]); k++) {
        if (fnmatch(extra[k].glob, full, 0)) continue;
        memset(&ov, 0, sizeof ov);
        for (i = 0; i < 2 && extra[k].axes[i]; i++)
            if (vb_axes_parse(&ov, extra[k].axes[i], err)) return -1;
        if ((got = vb_axes_expand(f, pb, &ov, pts + n, cap - n, err)) < 0) return -1;
        n += got;
    }
    return n;
}

static int one_point(const struct vb_family *f, const struct vb_variant *v, const char *full,
                     const struct vb_point *pp);

int test_gpu_variant(const char *full)
{
    const struct vb_family *f;
    const struct vb_variant *v;
    struct vb_point pts[8];
    struct vb_err err;
    int ndev, n, k;
    ASSERT_INT_EQ(fx_variant(full, &f, &v), 0);
    if (vb_gpu_count(&ndev, &err)) {
        fprintf(stderr, "skip: %s\n", err.msg);
        return VB_TEST_SKIP;
    }
    ASSERT_OK(vb_activity_start(&err));
    n = test_points(f, v->problem, full, pts, 8, &err);
    ASSERT(n > 0);
    for (k = 0; k < n; k++)
        if (one_point(f, v, full, &pts[k])) return 1;
    vb_activity_stop();
    return 0;
}

static int one_point(const struct vb_family *f, const struct vb_variant *v, const char *full,
                     const struct vb_point *pp)
{
    struct vb_err err;
    struct vb_point p = *pp;
    struct vb_sampling cfg;
    struct vb_case_result r;
    struct vb_traffic t;
    struct vb_store *st;
    int i, k, kept, in_samples = 0;
    int64_t case_id, run_id, copies;
    double *ref;
    char setup[512];
    struct vb_run_info info = {"suite", "test", NULL, "test", "test", ""};
    ref = malloc(sizeof *ref * v->problem->out_len(&p));
    ASSERT(ref);
    ASSERT_OK(v->problem->reference(&p, ref, &err));
    vb_sampling_quick(&cfg);
    vb_phase_setup_take(NULL, 0);
    vb_runner_case(f, v, &p, 0, NULL, ref, NULL, &cfg, &r);
    free(ref);
    if (r.reason[0]) fprintf(stderr, "%s %s: %s\n", full, r.axes, r.reason);
    /* saxpy/nvrtc-driver compiles once, in setup, outside every sample */
    k = vb_phase_setup_take(setup, sizeof setup);
    if (!strcmp(full, "saxpy/nvrtc-driver")) {
        ASSERT_INT_EQ(k, 2);
        ASSERT_CONTAINS(setup, "nvrtc compile");
        ASSERT_INT_EQ(ranges_named(&r.activity, "nvrtc compile"), 1);
        for (i = 0; i < (int)r.activity.nranges; i++)
            if (!strcmp(r.activity.ranges[i].text, "nvrtc compile"))
                ASSERT(vb_sample_find(&r, r.activity.ranges[i].start) < 0);
        printf("%s setup: %s\n", full, setup);
    }
    if (v->flags & VB_EXPECT_WRONG) {
        /* caught: wrong, with its error stored, on the verify sample of every run */
        ASSERT_STR_EQ(vb_status_name(r.status), "wrong-result");
        ASSERT(r.max_abs_err > v->problem->atol);
    } else {
        ASSERT_STR_EQ(vb_status_name(r.status), "ok");
    }
    ASSERT(r.have_records);
    ASSERT_INT_EQ(r.activity.dropped, 0);
    ASSERT(!r.traffic_varies);
    ASSERT(r.kernel_count >= 1 && r.kernel_ms.median > 0);
    /* the descriptor's promise equals what CUPTI saw */
    v->traffic(&p, &t);
    ASSERT_INT_EQ(r.h2d_bytes, t.h2d_bytes);
    ASSERT_INT_EQ(r.h2d_count, t.h2d_count);
    ASSERT_INT_EQ(r.d2h_bytes, t.d2h_bytes);
    ASSERT_INT_EQ(r.d2h_count, t.d2h_count);
    for (k = 0; k < (int)(sizeof expected / sizeof expected[0]); k++)
        if (!strcmp(expected[k].name, full) && p.v[0] == 1000 && p.v[1] == 1000) {
            ASSERT_INT_EQ(r.h2d_bytes, expected[k].h2d);
            ASSERT_INT_EQ(r.h2d_count, expected[k].h2d_n);
            ASSERT_INT_EQ(r.d2h_bytes, expected[k].d2h);
            ASSERT_INT_EQ(r.d2h_count, expected[k].d2h_n);
        }
    /* every sample, verify and warm-up included, moved the same */
    for (i = 0; i < r.nsamples; i++) {
        ASSERT_INT_EQ(r.samples[i].h2d_bytes, t.h2d_bytes);
        ASSERT_INT_EQ(r.samples[i].d2h_bytes, t.d2h_bytes);
    }
    /* NVTX phases reached CUPTI: one kernel-bearing phase per sample whose records are kept
     * (the first --keep-records timed ones and every verify and warm-up sample) at least */
    for (i = kept = 0; i < r.nsamples; i++)
        kept += !r.samples[i].records_dropped;
    ASSERT(kept > 0 && kept <= r.nsamples);
    ASSERT(ranges_named(&r.activity, "kernel") +
               ranges_named(&r.activity, "kernel+D2H overlapped") +
               ranges_named(&r.activity, "graph replay") +
               ranges_named(&r.activity, "H2D+kernel+D2H") >=
           kept);
    /* a graph rung's sample is its replay alone */
    if (v->flags & VB_GRAPH) ASSERT(ranges_named(&r.activity, "graph replay") >= kept);
    /* one H2D phase per such sample, or one per step (fft-mask-host's round trips) */
    if (t.h2d_count && !ranges_named(&r.activity, "graph replay") &&
        !ranges_named(&r.activity, "H2D+kernel+D2H")) {
        ASSERT(ranges_named(&r.activity, "H2D") >= kept);
        ASSERT_INT_EQ(ranges_named(&r.activity, "H2D") % kept, 0);
    }
    /* every timed sample has its GPU time, kept records or not, and a clock reading */
    for (i = 0; i < r.nsamples; i++)
        if (r.samples[i].kind == VB_SAMPLE_TIMED) {
            ASSERT(r.samples[i].gpu_ns > 0);
            ASSERT(r.samples[i].sm_clock_mhz > 100);
        }
    ASSERT(r.cold);
    ASSERT(r.clock_median_mhz > 100 && r.clock_min_mhz <= r.clock_median_mhz);
    /* and everything lands in the store, attributed to its samples */
    ASSERT_OK(vb_store_open(":memory:", &st, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &run_id, &err));
    ASSERT_OK(vb_store_case(st, run_id, &r, &case_id, &err));
    ASSERT_OK(vb_store_count(st, "CUPTI_ACTIVITY_KIND_MEMCPY", case_id, &copies, &err));
    ASSERT_INT_EQ(copies, (int64_t)r.activity.ncopies);
    /* the samples' host<->device copies are the promised ones; any other (a setup upload, a
     * device-resident answer fetched after verification) fell outside every sample */
    for (i = 0; i < (int)r.activity.ncopies; i++) {
        const struct vb_copy_rec *c = &r.activity.copies[i];
        in_samples += (c->copy_kind == 1 || c->copy_kind == 2) && vb_sample_find(&r, c->start) >= 0;
    }
    ASSERT_INT_EQ(in_samples, kept * (t.h2d_count + t.d2h_count)); /* records of kept samples */
    if (v->flags & VB_RESIDENT) ASSERT(r.activity.ncopies > (size_t)in_samples);
    vb_store_close(st);
    printf("%s %s: %s, max err %.3g, %d timed samples, e2e %.3f ms, kernel %.4f ms, H2D %llu B "
           "in %d, D2H %llu B in %d\n",
           full, r.axes, vb_status_name(r.status), r.max_abs_err, r.ntimed, r.e2e_ms.median,
           r.kernel_ms.median, (unsigned long long)r.h2d_bytes, r.h2d_count,
           (unsigned long long)r.d2h_bytes, r.d2h_count);
    vb_case_result_free(&r);
    return 0;
}

int test_declared_traffic(void)
{
    static struct vb_point pts[VB_SWEEP_MAX_POINTS];
    struct vb_overrides none;
    struct vb_traffic t;
    struct vb_err err;
    char axes[256];
    int f, j, k, n;
    for (f = 0; vb_families[f]; f++)
        for (j = 0; j < vb_families[f]->nvariants; j++) {
            const struct vb_variant *v = &vb_families[f]->variants[j];
            if (!(v->flags & VB_GPU) || !v->traffic) continue;
            memset(&none, 0, sizeof none);
            n = vb_axes_expand(vb_families[f], v->problem, &none, pts, VB_SWEEP_MAX_POINTS, &err);
            if (n < 0) {
                fprintf(stderr, "%s/%s: %s\n", vb_families[f]->name, v->name, err.msg);
                return 1;
            }
            for (k = 0; k < n; k++) {
                memset(&t, 0, sizeof t);
                v->traffic(&pts[k], &t);
                printf("%s/%s\t%s\t%llu\t%d\t%llu\t%d\n", vb_families[f]->name, v->name,
                       vb_point_format(v->problem, &pts[k], axes, sizeof axes),
                       (unsigned long long)t.h2d_bytes, t.h2d_count,
                       (unsigned long long)t.d2h_bytes, t.d2h_count);
            }
        }
    return 0;
}
