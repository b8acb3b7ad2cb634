/*
 * parallel: a parallel for over an index range on all cores, for the host work around a case
 * that is not measured (input generation, the check of every element against the oracle),
 * which at 10^8 elements took 1-2 s a case on one core (an H100 host, quick runs).
 * Workload: a few calls per case; ranges under 2^20 run on the calling thread.
 */
#ifndef VB_PARALLEL_H
#define VB_PARALLEL_H

#include <stddef.h>

/* vb_parallel_for calls fn(lo, hi, ctx, slot) on disjoint [lo, hi) covering [0, n), on up to
 * VB_PARALLEL_MAX threads; slot (0 ..) tells which part it is, for per-part results. Returns
 * the number of parts used (>= 1). Falls back to one part if threads cannot start. */
#define VB_PARALLEL_MAX 32
int vb_parallel_for(size_t n, void (*fn)(size_t lo, size_t hi, void *ctx, int slot), void *ctx);

#endif
