/* floor: a case's floor and its line in `varbench run` (see floor.h). */
#include "floor.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "stats.h"

/* kernel_bytes: the global-memory bytes one sample's kernels must move, as the case declares
 * them (its variant's traffic, else its problem's kernel_bytes); 0 undeclared */
static double kernel_bytes(const struct vb_case_result *r)
{
    const struct vb_problem *pb = r->variant->problem;
    if (r->gmem_read_bytes || r->gmem_write_bytes)
        return (double)r->gmem_read_bytes + (double)r->gmem_write_bytes;
    return pb->kernel_bytes ? (double)pb->kernel_bytes(&r->point) : 0;
}

/* kernel_floor_ns: the case's kernel bytes at the DRAM rate (held against a kernel time, plus
 * a kernel's start-up: an end-to-end floor has it in its round trip), or (held against an
 * end-to-end time) `launches` of the case's kernels launched back to back if longer. */
static double kernel_floor_ns(const struct vb_floor_ceil *c, const struct vb_case_result *r,
                              int resident, int launches, const char **bound)
{
    double dram = NAN, launch = NAN, curve, bytes = kernel_bytes(r);
    if (bytes > 0 && c->d2d_gbps > 0)
        dram = bytes / c->d2d_gbps + (resident && c->kernel_empty_ns > 0 ? c->kernel_empty_ns : 0);
    /* within the curve, the streaming kernel's own time at these bytes (its start-up in it: an
     * end-to-end floor's round trip has one) */
    if (bytes > 0 && (curve = vb_floor_curve_ns(c, bytes)) > 0)
        dram = curve - (!resident && c->kernel_empty_ns > 0 ? c->kernel_empty_ns : 0);
    /* a launch's cost is in an end-to-end time, not in CUPTI's kernel duration */
    if (launches > 0 && c->launch_ns > 0) launch = c->launch_ns * launches;
    if (isnan(dram) || (!isnan(launch) && launch > dram)) {
        *bound = isnan(launch) ? "" : "launch";
        return launch;
    }
    *bound = "dram";
    return dram;
}

/* copy_bytes: what a sample must copy each way, and what its kernels read and write in mapped
 * host memory (*map_in, *map_out): the variant's declared traffic (the promise the gpu tests
 * hold against CUPTI), else the median sample's records (no mapped bytes: CUPTI sees none). The
 * declaration is the one to trust: a record CUPTI stamps outside every sample's window would
 * shrink the floor. */
static void copy_bytes(const struct vb_case_result *r, uint64_t *h2d, uint64_t *d2h,
                       uint64_t *map_in, uint64_t *map_out)
{
    struct vb_traffic t;
    *h2d = r->h2d_bytes;
    *d2h = r->d2h_bytes;
    *map_in = *map_out = 0;
    if (!r->variant->traffic) return;
    memset(&t, 0, sizeof t);
    r->variant->traffic(&r->point, &t);
    *h2d = t.h2d_bytes;
    *d2h = t.d2h_bytes;
    *map_in = t.mapped_in_bytes;
    *map_out = t.mapped_out_bytes;
}

/* zero_copy: do r's kernels read or write mapped host memory (its declared traffic)? */
static int zero_copy(const struct vb_case_result *r)
{
    uint64_t in, out, map_in, map_out;
    copy_bytes(r, &in, &out, &map_in, &map_out);
    return map_in || map_out;
}

/* trip_of: the round trip case r pays (the mapped one for a zero-copy rung), 0 if unmeasured */
static double trip_of(const struct vb_floor_ceil *c, const struct vb_case_result *r)
{
    return zero_copy(r) ? c->trip_mapped_ns : c->trip_ns;
}

double vb_floor_curve_ns(const struct vb_floor_ceil *c, double bytes)
{
    double t = vb_stats_loglog(c->curve_bytes, c->curve_ns, VB_CEIL_CURVE_SIZES, bytes);
    return isnan(t) ? 0 : t;
}

void vb_floor_ceil_of(const struct vb_ceiling c[VB_CEIL_COUNT], struct vb_floor_ceil *f)
{
    int traced = c[VB_CEIL_ROUNDTRIP_TRACED].median_ns > 0; /* as the samples, when measured */
    int k;
    const struct vb_ceiling
        *trip = &c[traced ? VB_CEIL_ROUNDTRIP_TRACED : VB_CEIL_ROUNDTRIP],
        *graph = &c[traced ? VB_CEIL_ROUNDTRIP_GRAPH_TRACED : VB_CEIL_ROUNDTRIP_GRAPH];
    f->h2d_gbps = c[VB_CEIL_H2D_PINNED].gbps;
    f->d2h_gbps = c[VB_CEIL_D2H_PINNED].gbps;
    f->d2d_gbps =
        c[VB_CEIL_D2D].gbps > c[VB_CEIL_DRAM].gbps ? c[VB_CEIL_D2D].gbps : c[VB_CEIL_DRAM].gbps;
    f->launch_ns = c[VB_CEIL_LAUNCH].median_ns;
    f->trip_graph = graph->median_ns > 0 && graph->median_ns < trip->median_ns;
    f->trip_ns = f->trip_graph ? graph->median_ns : trip->median_ns;
    f->trip_traced = traced;
    /* traced as the samples when measured (an interrupted run may lack it alone) */
    f->trip_mapped_traced = c[VB_CEIL_ROUNDTRIP_MAPPED_TRACED].median_ns > 0;
    f->trip_mapped_ns =
        c[f->trip_mapped_traced ? VB_CEIL_ROUNDTRIP_MAPPED_TRACED : VB_CEIL_ROUNDTRIP_MAPPED]
            .median_ns;
    f->mapped_gbps = c[VB_CEIL_MAPPED].gbps;
    f->kernel_empty_ns = c[VB_CEIL_KERNEL_EMPTY].median_ns;
    for (k = 0; k < VB_CEIL_CURVE_SIZES; k++) {
        f->curve_bytes[k] = 2.0 * (double)c[VB_CEIL_DRAM_1MIB + k].bytes;
        f->curve_ns[k] = c[VB_CEIL_DRAM_1MIB + k].median_ns;
    }
}

void vb_floor_case(const struct vb_floor_ceil *c, struct vb_case_result *r)
{
    uint64_t in, out, map_in, map_out;
    const char *bound = "";
    double kernel, copies = 0, measured, h2d, d2h, trip;
    int resident;
    r->floor_ns = r->floor_ratio = NAN;
    r->floor_bound[0] = r->floor_of[0] = '\0';
    if (!c || !(r->variant->flags & VB_GPU) || r->status != VB_STATUS_OK || !r->have_records)
        return;
    copy_bytes(r, &in, &out, &map_in, &map_out);
    resident = (r->variant->flags & VB_RESIDENT) || (!in && !out && !map_in && !map_out);
    trip = trip_of(c, r);
    /* an end-to-end floor's launches back to back, but for the one its round trip makes */
    kernel = kernel_floor_ns(c, r, resident, resident ? 0 : r->kernel_count - (trip > 0), &bound);
    if (!resident) {
        /* the physical limit is the pinned rate: pageable memory is the rung's choice, and
         * its rate moves with the copy's size and the host's state (measured: cases beat
         * the 256 MiB pageable ceiling by up to 22%), so it is no floor */
        h2d = c->h2d_gbps;
        d2h = c->d2h_gbps;
        if ((in && !(h2d > 0)) || (out && !(d2h > 0))) return;
        copies = (in ? (double)in / h2d : 0) + (out ? (double)out / d2h : 0);
        if (map_in || map_out) {
            double rin = c->mapped_gbps > 0 ? c->mapped_gbps : h2d,
                   rout = c->mapped_gbps > 0 ? c->mapped_gbps : d2h;
            if ((map_in && !(rin > 0)) || (map_out && !(rout > 0))) return;
            copies += fmax(map_in ? (double)map_in / rin : 0, map_out ? (double)map_out / rout : 0);
        }
        if (isnan(kernel) || copies >= kernel) {
            kernel = copies;
            bound = "pcie";
        }
        /* the round trip's fixed cost (the first call's way to the GPU, the copies' and the
         * kernel's start-up, the wait's wake-up) overlaps no byte: every rung pays it once */
        if (trip > 0) {
            if (isnan(kernel) || trip >= kernel) bound = "latency";
            kernel = (isnan(kernel) ? 0 : kernel) + trip;
        }
    }
    measured = resident ? r->kernel_ms.median * 1e6 : r->e2e_ms.median * 1e6;
    if (!(kernel > 0) || !(measured > 0)) return;
    r->floor_ns = kernel;
    r->floor_ratio = measured / kernel;
    snprintf(r->floor_bound, sizeof r->floor_bound, "%s", bound);
    snprintf(r->floor_of, sizeof r->floor_of, "%s", resident ? "kernel" : "e2e");
}

/* trip_text writes the round trip's part of an end-to-end floor ("a round trip H2D, kernel, D2H,
 * wait at 14.3 us, as stream calls, traced"), or "" when it holds none */
static const char *trip_text(const struct vb_floor_ceil *c, const struct vb_case_result *r,
                             char *buf, size_t n)
{
    double trip = trip_of(c, r);
    buf[0] = '\0';
    if (!(trip > 0) || strcmp(r->floor_of, "e2e")) return buf;
    if (zero_copy(r))
        snprintf(buf, n,
                 "a mapped round trip (a kernel reads and writes host memory, a wait) at "
                 "%.1f us%s",
                 trip / 1e3, c->trip_mapped_traced ? ", traced" : "");
    else
        snprintf(buf, n, "a round trip H2D, kernel, D2H, wait at %.1f us, %s%s", trip / 1e3,
                 c->trip_graph ? "as a graph" : "as stream calls",
                 c->trip_traced ? ", traced" : "");
    return buf;
}

char *vb_floor_line(const struct vb_floor_ceil *c, const struct vb_case_result *r, char *buf,
                    size_t n)
{
    char b[32], b2[48], ms[32], trip[112], plus[120];
    int launches = r->kernel_count - (trip_of(c, r) > 0); /* the trip makes one (vb_floor_case) */
    buf[0] = '\0';
    if (isnan(r->floor_ns)) return buf;
    vb_fmt_ms(r->floor_ns, ms, sizeof ms);
    snprintf(plus, sizeof plus, "%s%s", *trip_text(c, r, trip, sizeof trip) ? "; plus " : "", trip);
    if (!strcmp(r->floor_bound, "dram") && vb_floor_curve_ns(c, kernel_bytes(r)) > 0) {
        snprintf(buf, n,
                 "floor %s ms (dram: %s B as the streaming kernel moves them, its start-up in "
                 "it%s): %s %.2fx floor",
                 ms, vb_fmt_bytes((uint64_t)kernel_bytes(r), b, sizeof b), plus, r->floor_of,
                 r->floor_ratio);
    } else if (!strcmp(r->floor_bound, "dram")) {
        snprintf(b2, sizeof b2, ", and a kernel's start-up %.2f us", c->kernel_empty_ns / 1e3);
        snprintf(buf, n, "floor %s ms (dram: %s B at %.0f GB/s%s%s): %s %.2fx floor", ms,
                 vb_fmt_bytes((uint64_t)kernel_bytes(r), b, sizeof b), c->d2d_gbps,
                 c->kernel_empty_ns > 0 && !strcmp(r->floor_of, "kernel") ? b2 : "", plus,
                 r->floor_of, r->floor_ratio);
    } else if (!strcmp(r->floor_bound, "pcie") && zero_copy(r)) {
        uint64_t in, out, map_in, map_out;
        char rate[64];
        copy_bytes(r, &in, &out, &map_in, &map_out);
        if (c->mapped_gbps > 0)
            snprintf(rate, sizeof rate, "%.1f GB/s each way, mapped", c->mapped_gbps);
        else
            snprintf(rate, sizeof rate, "%.1f and %.1f GB/s pinned", c->h2d_gbps, c->d2h_gbps);
        snprintf(buf, n,
                 "floor %s ms (pcie: %s B read and %s B written by its kernel in mapped host "
                 "memory, both ways at once, at %s%s%s): %s %.2fx floor",
                 ms, vb_fmt_bytes(map_in, b, sizeof b), vb_fmt_bytes(map_out, b2, sizeof b2), rate,
                 in || out ? "; and its copies one after the other" : "", plus, r->floor_of,
                 r->floor_ratio);
    } else if (!strcmp(r->floor_bound, "pcie")) {
        uint64_t in, out, map_in, map_out;
        int ph, pd;
        vb_result_pageable(r, &ph, &pd);
        copy_bytes(r, &in, &out, &map_in, &map_out);
        snprintf(buf, n,
                 "floor %s ms (pcie: %s B in at %.1f GB/s %s, %s B out at %.1f GB/s %s%s): %s "
                 "%.2fx floor",
                 ms, vb_fmt_bytes(in, b, sizeof b), c->h2d_gbps,
                 ph ? "pinned; its copies pageable" : "pinned", vb_fmt_bytes(out, b2, sizeof b2),
                 c->d2h_gbps, pd ? "pinned; its copies pageable" : "pinned", plus, r->floor_of,
                 r->floor_ratio);
    } else if (!strcmp(r->floor_bound, "latency"))
        snprintf(buf, n,
                 "floor %s ms (latency: %s; plus its bytes or launches, %.1f us): %s %.2fx "
                 "floor",
                 ms, trip, (r->floor_ns - trip_of(c, r)) / 1e3, r->floor_of, r->floor_ratio);
    else
        snprintf(buf, n, "floor %s ms (launch: %d kernel%s at %.2f us%s): %s %.2fx floor", ms,
                 launches, launches == 1 ? "" : "s", c->launch_ns / 1e3, plus, r->floor_of,
                 r->floor_ratio);
    return buf;
}
