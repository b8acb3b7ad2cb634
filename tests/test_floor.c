/* Tests of suite/measure/floor.c: which bound a case's floor takes, what it is held against, and
 * when there is none. */
#include <math.h>
#include <string.h>

#include "floor.h"
#include "test.h"
#include "tests.h"

static uint64_t bytes_1e9(const struct vb_point *p)
{
    return p->v[0] ? 1000000000ull : 0;
}

static uint64_t bytes_8e6(const struct vb_point *p)
{
    (void)p;
    return 8000000;
}

/* 100 MB in, 40 MB out a sample */
static void traffic_140(const struct vb_point *p, struct vb_traffic *t)
{
    t->h2d_bytes = 100000000;
    t->d2h_bytes = 40000000;
    t->h2d_count = t->d2h_count = 1;
}

/* the same bytes read and written by a kernel in mapped host memory (zero-copy), no copy */
static void traffic_mapped_140(const struct vb_point *p, struct vb_traffic *t)
{
    (void)p;
    memset(t, 0, sizeof *t);
    t->mapped_in_bytes = 100000000;
    t->mapped_out_bytes = 40000000;
}

int test_floor_bounds(const char *arg)
{
    static const struct vb_problem pb = {.name = "p", .kernel_bytes = bytes_1e9};
    struct vb_variant resident = {.name = "r", .flags = VB_GPU | VB_RESIDENT, .problem = &pb};
    struct vb_variant moving = {.name = "m", .flags = VB_GPU, .problem = &pb};
    struct vb_variant cpu = {.name = "c", .flags = VB_REFERENCE, .problem = &pb};
    struct vb_variant declared = {
        .name = "d", .flags = VB_GPU, .traffic = traffic_140, .problem = &pb};
    const struct vb_floor_ceil c = {
        .h2d_gbps = 50, .d2h_gbps = 40, .d2d_gbps = 2000, .launch_ns = 2000};
    struct vb_copy_rec in = {.copy_kind = 1, .src_kind = 1, .dst_kind = 3}; /* pageable H2D */
    struct vb_case_result r;
    char line[512];
    memset(&r, 0, sizeof r);
    r.status = VB_STATUS_OK;
    r.have_records = 1;
    r.kernel_count = 1;
    r.point.v[0] = 1;
    /* resident: 1 GB at 2000 GB/s = 0.5 ms of DRAM, held against the kernel's 0.6 ms */
    r.variant = &resident;
    r.kernel_ms.median = 0.6;
    r.e2e_ms.median = 5;
    vb_floor_case(&c, &r);
    ASSERT(fabs(r.floor_ns - 500000) < 1e-6);
    ASSERT(fabs(r.floor_ratio - 1.2) < 1e-9);
    ASSERT_STR_EQ(r.floor_bound, "dram");
    ASSERT_STR_EQ(r.floor_of, "kernel");
    ASSERT_CONTAINS(vb_floor_line(&c, &r, line, sizeof line), "1.20x floor");
    /* moving its data: 100 MB in at 50 GB/s + 40 MB out at 40 GB/s = 3 ms > 0.5 ms of DRAM,
     * held against the end-to-end time */
    r.variant = &moving;
    r.h2d_bytes = 100000000;
    r.d2h_bytes = 40000000;
    vb_floor_case(&c, &r);
    ASSERT(fabs(r.floor_ns - 3000000) < 1e-3);
    ASSERT(fabs(r.floor_ratio - 5.0 / 3.0) < 1e-9);
    ASSERT_STR_EQ(r.floor_bound, "pcie");
    ASSERT_STR_EQ(r.floor_of, "e2e");
    /* the same copies with the H2D from pageable memory, as its record says: still held to the
     * pinned rate (the physical limit), the line says so */
    r.activity.copies = &in;
    r.activity.ncopies = 1;
    vb_floor_case(&c, &r);
    ASSERT(fabs(r.floor_ns - 3000000) < 1e-3);
    ASSERT_CONTAINS(vb_floor_line(&c, &r, line, sizeof line),
                    "at 50.0 GB/s pinned; its copies pageable");
    r.activity.copies = NULL;
    r.activity.ncopies = 0;
    /* a declared traffic is the one trusted: a copy record stamped outside every sample (one
     * H2D of 200 B where 100 MB were declared) does not shrink the floor */
    r.variant = &declared;
    r.h2d_bytes = 200;
    vb_floor_case(&c, &r);
    ASSERT(fabs(r.floor_ns - 3000000) < 1e-3);
    ASSERT_CONTAINS(vb_floor_line(&c, &r, line, sizeof line), "100,000,000 B in");
    r.h2d_bytes = 100000000;
    /* a tiny kernel: three launches at 2 us outweigh no bytes in an end-to-end time; against
     * a kernel time there is no launch floor, and no bytes: no floor */
    r.variant = &resident;
    r.point.v[0] = 0;
    vb_floor_case(&c, &r);
    ASSERT(isnan(r.floor_ns));
    r.variant = &moving;
    r.h2d_bytes = r.d2h_bytes = 1;
    r.e2e_ms.median = 0.0075;
    r.point.v[0] = 0;
    r.kernel_count = 3;
    vb_floor_case(&c, &r);
    ASSERT_STR_EQ(r.floor_bound, "launch");
    ASSERT(fabs(r.floor_ns - 6000) < 1e-9);
    ASSERT(fabs(r.floor_ratio - 1.25) < 1e-9);
    /* with a measured round trip of 9 us (a graph, traced): it makes one of the three launches,
     * the other two (4 us) are added to it, the larger part, so the bound is latency; a
     * resident case's kernel floor takes none */
    {
        struct vb_floor_ceil t = c;
        t.trip_ns = 9000;
        t.trip_graph = t.trip_traced = 1;
        t.kernel_empty_ns = 1000; /* a kernel's start-up: in the trip already, or added */
        r.e2e_ms.median = 0.030;
        vb_floor_case(&t, &r);
        ASSERT_STR_EQ(r.floor_bound, "latency");
        ASSERT(fabs(r.floor_ns - 13000) < 1e-9);
        ASSERT(fabs(r.floor_ratio - 30.0 / 13.0) < 1e-9);
        ASSERT_CONTAINS(vb_floor_line(&t, &r, line, sizeof line),
                        "latency: a round trip H2D, kernel, D2H, wait at 9.0 us, as a graph, "
                        "traced; plus its bytes or launches, 4.0 us): e2e 2.31x floor");
        /* 140 MB of copies (3 ms) outweigh it: pcie, 3 ms + 9 us */
        r.variant = &declared;
        r.point.v[0] = 1;
        r.kernel_count = 1;
        vb_floor_case(&t, &r);
        ASSERT_STR_EQ(r.floor_bound, "pcie");
        ASSERT(fabs(r.floor_ns - 3009000) < 1e-3);
        ASSERT_CONTAINS(vb_floor_line(&t, &r, line, sizeof line),
                        "pinned; plus a round trip H2D, kernel, D2H, wait at 9.0 us, as a graph, "
                        "traced): e2e");
        r.variant = &resident;
        vb_floor_case(&t, &r);
        ASSERT(fabs(r.floor_ns - 501000) < 1e-6);
        ASSERT_CONTAINS(vb_floor_line(&t, &r, line, sizeof line),
                        "and a kernel's start-up 1.00 us");
        r.variant = &moving;
    }
    /* zero-copy: the kernel reads 100 MB and writes 40 MB of mapped host memory, both ways at
     * once: the longer way (100 MB at 50 GB/s, 2 ms, not the copies' 3 ms), plus the mapped
     * round trip (5 us, not the copies' 9 us); unmeasured, no round trip; its e2e time is held
     * to it, not its kernel time (it copies nothing, yet its data is on the host) */
    {
        struct vb_floor_ceil t = c;
        struct vb_variant zero = {
            .name = "z", .flags = VB_GPU, .traffic = traffic_mapped_140, .problem = &pb};
        t.trip_ns = 9000;
        t.trip_traced = 1;
        r.variant = &zero;
        r.point.v[0] = 1;
        r.kernel_count = 1;
        r.h2d_bytes = r.d2h_bytes = 0;
        r.e2e_ms.median = 3.0075;
        vb_floor_case(&t, &r);
        ASSERT(isnan(r.floor_ns) == 0);
        ASSERT_STR_EQ(r.floor_of, "e2e");
        ASSERT_STR_EQ(r.floor_bound, "pcie");
        ASSERT(fabs(r.floor_ns - 2000000) < 1e-3);
        t.trip_mapped_ns = 5000;
        t.trip_mapped_traced = 1;
        vb_floor_case(&t, &r);
        ASSERT(fabs(r.floor_ns - 2005000) < 1e-3);
        ASSERT(fabs(r.floor_ratio - 1.5) < 1e-9);
        ASSERT_CONTAINS(vb_floor_line(&t, &r, line, sizeof line),
                        "(pcie: 100,000,000 B read and 40,000,000 B written by its kernel in "
                        "mapped host memory, both ways at once, at 50.0 and 40.0 GB/s pinned; plus "
                        "a mapped round trip (a kernel reads and writes host memory, a wait) at "
                        "5.0 us, traced): e2e 1.50x floor");
        /* with the mapped ceiling measured (40 GB/s each way), its bytes at that rate: 2.5 ms */
        t.mapped_gbps = 40;
        vb_floor_case(&t, &r);
        ASSERT(fabs(r.floor_ns - 2505000) < 1e-3);
        ASSERT_CONTAINS(vb_floor_line(&t, &r, line, sizeof line),
                        "both ways at once, at 40.0 GB/s each way, mapped; plus a mapped round");
        r.variant = &moving;
        r.h2d_bytes = 100000000;
        r.d2h_bytes = 40000000;
    }
    /* the DRAM curve: a kernel moving 8 MB lies between the curve's 2 MiB (2 us) and 8 MiB
     * (4 us) points, log-log: 2 us * 2^(log(8e6/2^21)/log(4)); resident, held to it alone (its
     * start-up is in the streaming kernel's time); outside the curve, the 256 MiB rate again */
    {
        struct vb_floor_ceil t = c;
        double want = 2000 * pow(2.0, log(8e6 / (2 << 20)) / log(4.0));
        t.kernel_empty_ns = 1000;
        t.curve_bytes[0] = 2 << 20, t.curve_ns[0] = 2000;
        t.curve_bytes[1] = 8 << 20, t.curve_ns[1] = 4000;
        t.curve_bytes[2] = 32 << 20, t.curve_ns[2] = 10000;
        t.curve_bytes[3] = 128 << 20, t.curve_ns[3] = 70000;
        ASSERT(fabs(vb_floor_curve_ns(&t, 8e6) - want) < 1e-6);
        ASSERT(fabs(vb_floor_curve_ns(&t, 32 << 20) - 10000) < 1e-6);
        ASSERT(vb_floor_curve_ns(&t, 1e6) == 0 && vb_floor_curve_ns(&t, 1e9) == 0);
        r.variant = &resident;
        r.point.v[0] = 1;
        r.kernel_ms.median = 0.6;
        vb_floor_case(&t, &r); /* 1e9 bytes: past the curve */
        ASSERT(fabs(r.floor_ns - 501000) < 1e-6);
        t.curve_ns[3] = 0; /* a size not measured: no curve at all */
        ASSERT(vb_floor_curve_ns(&t, 8e6) == 0);
        t.curve_ns[3] = 70000;
        {
            static const struct vb_problem small = {.name = "s", .kernel_bytes = bytes_8e6};
            struct vb_variant v = {.name = "v", .flags = VB_GPU | VB_RESIDENT, .problem = &small};
            r.variant = &v;
            r.kernel_ms.median = 0.0048;
            vb_floor_case(&t, &r);
            ASSERT_STR_EQ(r.floor_bound, "dram");
            ASSERT(fabs(r.floor_ns - want) < 1e-6);
            ASSERT_CONTAINS(vb_floor_line(&t, &r, line, sizeof line),
                            "as the streaming kernel moves them");
        }
        r.variant = &moving;
    }
    /* none: a CPU case, a wrong answer, no records, no ceilings */
    r.point.v[0] = 1;
    r.variant = &cpu;
    vb_floor_case(&c, &r);
    ASSERT(isnan(r.floor_ns) && !r.floor_bound[0]);
    ASSERT_STR_EQ(vb_floor_line(&c, &r, line, sizeof line), "");
    r.variant = &resident;
    r.status = VB_STATUS_WRONG;
    vb_floor_case(&c, &r);
    ASSERT(isnan(r.floor_ratio));
    r.status = VB_STATUS_OK;
    r.have_records = 0;
    vb_floor_case(&c, &r);
    ASSERT(isnan(r.floor_ratio));
    r.have_records = 1;
    vb_floor_case(NULL, &r);
    ASSERT(isnan(r.floor_ratio));
    return 0;
}

/* The curves' line (store.h): none measured, none said; a curve's missing size a dash; the
 * plain ceilings are not among them */
int test_ceilings_curves(const char *arg)
{
    double g[VB_CEIL_COUNT] = {0};
    char line[300];
    (void)arg;
    ASSERT_STR_EQ(vb_ceilings_curves_text(g, line, sizeof line), "");
    g[VB_CEIL_DRAM] = 2900;
    ASSERT_STR_EQ(vb_ceilings_curves_text(g, line, sizeof line), "");
    g[VB_CEIL_DRAM_1MIB] = 1210;
    g[VB_CEIL_DRAM_64MIB] = 2890.04;
    g[VB_CEIL_D2H_PAGEABLE_4MIB] = 9.25;
    ASSERT_STR_EQ(vb_ceilings_curves_text(g, line, sizeof line),
                  "curves, GB/s at 1, 4, 16, 64 MiB: dram 1210.0/-/-/2890.0, h2d_pageable -/-/-/-, "
                  "d2h_pageable -/9.2/-/-");
    {
        /* the ceilings before the curves: copies by rate, times in us, unmeasured ones left out */
        double ns[VB_CEIL_COUNT] = {0};
        g[VB_CEIL_H2D_PINNED] = 55.14;
        ns[VB_CEIL_H2D_PINNED] = 4.9e6;
        ns[VB_CEIL_LAUNCH] = 4020;
        ns[VB_CEIL_KERNEL_EMPTY] = 864;
        ns[VB_CEIL_DRAM_1MIB] = 1888; /* a curve's: not on this line */
        ASSERT_STR_EQ(
            vb_ceilings_text(g, ns, line, sizeof line),
            " h2d_pinned 55.1 GB/s, dram 2900.0 GB/s, launch 4.02 us, kernel_empty 0.86 us");
        ASSERT_STR_EQ(vb_ceiling_name(VB_CEIL_ROUNDTRIP_GRAPH_TRACED), "roundtrip_graph_traced");
    }
    return 0;
}
