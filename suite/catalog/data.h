/*
 * data: deterministic, non-trivial input data for the variants (never zeros: they hide
 * unwritten outputs and wrong indexing). Element i of a stream is a pure function of
 * (seed, i), so the CPU reference and every variant see the same inputs at any size.
 */
#ifndef VB_DATA_H
#define VB_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* vb_data_uniform returns a value in [lo, hi) for element i of stream seed (splitmix64). */
double vb_data_uniform(uint64_t seed, uint64_t i, double lo, double hi);

/* vb_host_alloc mallocs a host buffer (pageable, as a numpy array is) and touches every page,
 * so no sample pays for first-touch faults. Returns NULL with err when out of memory. */
void *vb_host_alloc(size_t bytes, struct vb_err *err);

#endif
