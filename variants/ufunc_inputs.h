/*
 * ufunc_inputs: the seed's inputs to variants/ufunc.c's problems, element by element, shared by
 * the variants (what they copy in) and the references (what they compute from): header-only,
 * host code, deterministic (vb_data_uniform streams).
 */
#ifndef VB_UFUNC_INPUTS_H
#define VB_UFUNC_INPUTS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "varbench.h"
#include "ufunc_fft.h"

#define CLAMP_SEED 0xc1a3 /* input streams (vb_data_uniform) */
#define COS_SEED   0xc05
#define FRAME_SEED 0xf7a3

/* gauss_x: the seed's np.linspace(-3, 3, n, dtype=float32), element i. */
static inline float gauss_x(size_t i, size_t n)
{
    return n > 1 ? (float)(-3.0 + 6.0 * (double)i / (double)(n - 1)) : -3.0f;
}

static inline float clamp_x(size_t i)
{
    return (float)vb_data_uniform(CLAMP_SEED, i, -2.0, 2.0);
}

/* cos_x: the seed's np.random.uniform(-10, 10) test input. */
static inline float cos_x(size_t i)
{
    return (float)vb_data_uniform(COS_SEED, i, -10.0, 10.0);
}

/* frame: an h x w picture in [0, 1]: a tilted wave under noise. */
static inline float frame_at(long y, long x, long h, long w)
{
    double wave = sin(VB_FFT_TWO_PI * (3.0 * (double)x / (double)w + 2.0 * (double)y / (double)h));
    return (float)(0.5 + 0.3 * wave +
                   0.2 * vb_data_uniform(FRAME_SEED, (uint64_t)(y * w + x), -1.0, 1.0));
}

#endif
