/*
 * occupancy: a launch's theoretical occupancy and what limits it, from its launch record (threads
 * a block, registers a thread, shared memory a block, the grid's blocks) and its device (compute
 * capability, SMs), as CUDA's occupancy calculator reckons it: resident blocks an SM are the
 * fewest that the warps, the registers, the shared memory, the blocks an SM and the grid allow.
 * Limits per compute capability: the CUDA C++ Programming Guide's "Technical Specifications per
 * Compute Capability" table (registers allocated 256 a warp; shared memory in 128-byte units plus
 * the 1 KiB the system reserves a block from 8.0 on). Workload: a few calls per explained case.
 */
#ifndef VB_OCCUPANCY_H
#define VB_OCCUPANCY_H

#include <stdint.h>

/* What limits the resident blocks an SM. */
enum vb_occ_limit {
    VB_OCC_WARPS,     /* the threads a block: the SM's warps */
    VB_OCC_REGISTERS, /* the registers a thread */
    VB_OCC_SHARED,    /* the shared memory a block */
    VB_OCC_BLOCKS,    /* the SM's most blocks */
    VB_OCC_GRID,      /* the grid: too few blocks to fill every SM */
};

struct vb_occupancy {
    double pct;           /* resident warps an SM over its most, % */
    int blocks;           /* resident blocks an SM */
    enum vb_occ_limit by; /* the tightest limit */
};

/* vb_occupancy_of fills o for a launch of `grid` blocks of `threads` threads, `regs` registers a
 * thread and `smem` bytes of shared memory a block on a device of compute capability
 * major.minor with `sms` SMs (0: the grid not taken into account). 0, or -1 when the compute
 * capability is not in the table or the launch is not one (o untouched). */
int vb_occupancy_of(int major, int minor, int sms, int64_t grid, int64_t threads, int64_t regs,
                    int64_t smem, struct vb_occupancy *o);

/* vb_occ_limit_name: "threads a block", "registers a thread", "shared memory a block", "blocks
 * an SM", "the grid". */
const char *vb_occ_limit_name(enum vb_occ_limit l);

#endif
