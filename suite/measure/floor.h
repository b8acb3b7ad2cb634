/*
 * floor: the least time a GPU case can take on this device, from the bytes it must move and
 * the ceilings the run measured (ceilings.h): its PCIe copies (the variant's declared traffic)
 * one after the other (a pass whose
 * output needs its input) at the measured pinned rates (pageable memory is a rung's choice,
 * shown by its ratio), and its problem's kernel bytes (read plus written,
 * problem->kernel_bytes) at the faster of the measured D2D copy and streaming-kernel rates, or,
 * for an end-to-end time, the measured launch time of its kernels when that is longer, plus the
 * measured round trip (ceilings.h: a case that copies in and waits for its answer makes one at
 * least, and its fixed cost overlaps no byte; bound "latency" where it is the larger part). Every
 * written byte is counted as reaching DRAM; on the cold, discarded L2 a sample starts with, up
 * to an L2's worth of the last writes are still in L2 when the kernel ends (ncu: 377 MB of
 * gaussian-vec4's 400 MB of writes), so a rung can come in a little under 1.00x. A device-resident
 * case (VB_RESIDENT, or one that copies nothing in its samples) is held against its kernel floor on
 * its kernel time; a case that moves its data against the larger of its copy and kernel floors on
 * its end-to-end time. A kernel whose bytes lie within the DRAM curve (ceilings.h: 2 to 128 MB
 * read plus written) has the streaming kernel's time at its bytes as its DRAM floor (log-log
 * between the curve's sizes): at 8 MB an H100's streaming kernel moves its bytes at about half
 * the 256 MiB rate, its start-up and tail the larger part. The ratio says how far a rung is from
 * what the hardware can do: 1.00x is the physical limit.
 * A zero-copy rung (its kernels read and write mapped host memory: the traffic's mapped bytes)
 * has the mapped round trip for its round trip, and its mapped bytes cross PCIe both ways at once
 * (a kernel reads and writes at the same time; copies wait for each other): the longer way at the
 * mapped ceiling's rate (a copy kernel's, mapped to mapped; the pinned copies' rates in a run
 * without it), plus its copies, if any, one after the other.
 */
#ifndef VB_FLOOR_H
#define VB_FLOOR_H

#include "ceilings.h"
#include "registry.h"
#include "result.h"

/* The ceilings a floor is made of (0: not measured, that bound then unknown). */
struct vb_floor_ceil {
    double h2d_gbps, d2h_gbps; /* pinned copies, GB/s */
    double d2d_gbps;        /* device memory, bytes read plus written, GB/s: the faster of the D2D
                               copy and the streaming kernel */
    double launch_ns;       /* one empty kernel, back to back */
    double trip_ns;         /* the shorter round trip (H2D, kernel, D2H, wait), host clock */
    int trip_graph;         /* it is the replayed graph's (else the stream calls') */
    int trip_traced;        /* measured under varbench's CUPTI collection, as the samples */
    double trip_mapped_ns;  /* the mapped round trip (a kernel reads and writes mapped host
                               memory, a wait; trip.h); 0: not measured */
    int trip_mapped_traced; /* it was measured under varbench's CUPTI collection */
    double mapped_gbps;     /* the mapped copy kernel's rate, mapped host memory to mapped host
                               memory, bytes each way (ceilings.h); 0: not measured */
    double kernel_empty_ns; /* an empty kernel's CUPTI duration: every kernel's start-up and
                               drain (0: not measured) */
    double
        curve_bytes[VB_CEIL_CURVE_SIZES]; /* the DRAM curve (ceilings.h): bytes read plus written */
    double curve_ns[VB_CEIL_CURVE_SIZES]; /* its CUPTI time at each (0: not measured) */
};

/* vb_floor_ceil_of takes a floor's ceilings from a run's measured ones (ceilings.h). */
void vb_floor_ceil_of(const struct vb_ceiling c[VB_CEIL_COUNT], struct vb_floor_ceil *f);

/* vb_floor_curve_ns: the DRAM curve's time for a kernel moving `bytes` (read plus written),
 * log-log between the two sizes around it; 0 outside the curve or where it was not measured. */
double vb_floor_curve_ns(const struct vb_floor_ceil *c, double bytes);

/* vb_floor_case sets r->floor_ns, floor_ratio, floor_bound and floor_of for a verified GPU
 * case with CUPTI records; leaves NaN and "" otherwise (CPU cases, skipped or failed ones, no
 * ceilings, a problem without kernel bytes and a case without copies). */
void vb_floor_case(const struct vb_floor_ceil *c, struct vb_case_result *r);

/* vb_floor_line writes "floor 0.078 ms (dram: 320 MB at 4110 GB/s): kernel 1.08x floor" for
 * r into buf, or "" when r has no floor; returns buf. */
char *vb_floor_line(const struct vb_floor_ceil *c, const struct vb_case_result *r, char *buf,
                    size_t n);

#endif
