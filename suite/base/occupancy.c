/* occupancy: see occupancy.h. */
#include "occupancy.h"

#include <stddef.h>

/* One compute capability's limits an SM. */
struct cc_limits {
    int major, minor;
    int warps, blocks; /* most resident warps, blocks */
    int64_t regs;      /* 32-bit registers */
    int64_t smem;      /* most shared memory (bytes), the largest carve-out */
    int64_t reserved;  /* shared memory the system takes a block */
};

static const struct cc_limits table[] = {
    {7, 0, 64, 32, 65536, 96 * 1024, 0},      {7, 2, 64, 32, 65536, 96 * 1024, 0},
    {7, 5, 32, 16, 65536, 64 * 1024, 0},      {8, 0, 64, 32, 65536, 164 * 1024, 1024},
    {8, 6, 48, 16, 65536, 100 * 1024, 1024},  {8, 7, 48, 16, 65536, 164 * 1024, 1024},
    {8, 9, 48, 24, 65536, 100 * 1024, 1024},  {9, 0, 64, 32, 65536, 228 * 1024, 1024},
    {10, 0, 64, 32, 65536, 228 * 1024, 1024},
};

static int64_t up(int64_t x, int64_t unit)
{
    return (x + unit - 1) / unit * unit;
}

int vb_occupancy_of(int major, int minor, int sms, int64_t grid, int64_t threads, int64_t regs,
                    int64_t smem, struct vb_occupancy *o)
{
    const struct cc_limits *c = NULL;
    int64_t warps, lim[5], best;
    size_t i;
    int k;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].major == major && table[i].minor == minor) c = &table[i];
    if (!c || threads < 1 || regs < 0 || smem < 0 || grid < 1) return -1;
    warps = (threads + 31) / 32;
    lim[VB_OCC_WARPS] = c->warps / warps;
    /* registers go out per SM sub-partition (4 of them), a warp's in 256s */
    lim[VB_OCC_REGISTERS] = regs ? c->regs / 4 / up(regs * 32, 256) * 4 / warps : INT64_MAX;
    lim[VB_OCC_SHARED] = smem ? c->smem / up(smem + c->reserved, 128) : INT64_MAX;
    lim[VB_OCC_BLOCKS] = c->blocks;
    lim[VB_OCC_GRID] = sms > 0 ? (grid + sms - 1) / sms : INT64_MAX;
    /* the first of the tightest, in the enum's order: what the code sets before the grid */
    best = lim[0];
    o->by = VB_OCC_WARPS;
    for (k = 1; k < 5; k++)
        if (lim[k] < best) best = lim[k], o->by = (enum vb_occ_limit)k;
    o->blocks = (int)best;
    o->pct = 100.0 * (double)(best * warps) / c->warps;
    return 0;
}

const char *vb_occ_limit_name(enum vb_occ_limit l)
{
    static const char *const names[] = {"threads a block", "registers a thread",
                                        "shared memory a block", "blocks an SM", "the grid"};
    return (unsigned)l < sizeof names / sizeof names[0] ? names[l] : "?";
}
