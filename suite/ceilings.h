/*
 * ceilings: the device's own physical limits, measured once per run so that every
 * variant can be shown as a fraction of them: pinned and pageable H2D and D2H copy
 * bandwidth, D2D copy bandwidth (counting bytes read plus bytes written, as nvbench), the same
 * copy done by a streaming kernel (dram: float4 loads and stores, two a thread; SMs stream
 * faster than cudaMemcpy's D2D on an H100, so a floor built on D2D alone would be beaten), and
 * the time of one empty kernel launched back to back (launch: median_ns, no bytes, gbps 0).
 */
#ifndef VB_CEILINGS_H
#define VB_CEILINGS_H

#include <stdint.h>

#include "err.h"

#define VB_CEILINGS(X)                                                                             \
    X(H2D_PINNED, "h2d_pinned")                                                                    \
    X(D2H_PINNED, "d2h_pinned")                                                                    \
    X(H2D_PAGEABLE, "h2d_pageable")                                                                \
    X(D2H_PAGEABLE, "d2h_pageable")                                                                \
    X(D2D, "d2d")                                                                                  \
    X(DRAM, "dram")                                                                                \
    X(LAUNCH, "launch")

enum vb_ceiling_id {
#define X(id, name) VB_CEIL_##id,
    VB_CEILINGS(X)
#undef X
        VB_CEIL_COUNT
};

struct vb_ceiling {
    const char *name;
    uint64_t bytes;   /* bytes of one copy */
    int reps;         /* timed repetitions */
    double median_ns; /* median time of one copy */
    double gbps;      /* counted bytes / median time; D2D counts 2 x bytes */
};

/* vb_ceiling_name: the stored name of ceiling id ("h2d_pinned", ..., "launch"). */
const char *vb_ceiling_name(enum vb_ceiling_id id);

/* vb_ceilings_measure measures all ceilings on the current device with copies of `bytes`
 * each (clamped to a quarter of free memory), reps timed repetitions after one warm-up.
 * Returns 0 or -1 with err. */
int vb_ceilings_measure(uint64_t bytes, int reps, struct vb_ceiling out[VB_CEIL_COUNT],
                        struct vb_err *err);

#endif
