/*
 * data: deterministic, non-trivial input data for the variants (never zeros: they hide
 * unwritten outputs and wrong indexing). Element i of a stream is a pure function of
 * (seed, i), so the CPU reference and every variant see the same inputs at any size.
 */
#ifndef VB_DATA_H
#define VB_DATA_H

#include <stdint.h>

/* vb_data_uniform returns a value in [lo, hi) for element i of stream seed (splitmix64). */
double vb_data_uniform(uint64_t seed, uint64_t i, double lo, double hi);

#endif
