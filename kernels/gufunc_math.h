/*
 * gufunc_math: the two row functions of the gufunc family (seed 000), written once and
 * instantiated for float (the kernels, as the seed's float32) and double (the CPU
 * reference). Each writes n values of one row for input x, element i at out[i * stride],
 * so one body serves row-major rows (stride 1), transposed columns (stride rows) and
 * shared-memory tiles (stride = the tile pitch).
 *   powsum  (the seed's my_func): out[i] = x + x^2 + ... + x^(i+1)
 *   hermite (the seed's "Update 2"): He_i(x) / sqrt(i!), He_0 = 1, He_1 = x,
 *            He_i = x He_{i-1} - (i-1) He_{i-2}; computed as the normalised recurrence
 *            h_i = (x h_{i-1} - sqrt(i-1) h_{i-2}) / sqrt(i), which is the same function but
 *            never forms He_64 ~ 1e44 (past float32's range) or 64! (past float64's sqrt).
 */
#ifndef VB_GUFUNC_MATH_H
#define VB_GUFUNC_MATH_H

#include <math.h>

#include "vb_hd.h"

enum vb_gufunc_func { VB_GUFUNC_POWSUM, VB_GUFUNC_HERMITE };

#define VB_GUFUNC_DEFINE(T, SFX, SQRT)                                                             \
    VB_HD static inline void vb_powsum_##SFX(T x, int n, T *out, long stride)                      \
    {                                                                                              \
        T acc = 0, p = x;                                                                          \
        int i;                                                                                     \
        for (i = 0; i < n; i++) {                                                                  \
            acc += p;                                                                              \
            out[(long)i * stride] = acc;                                                           \
            p *= x;                                                                                \
        }                                                                                          \
    }                                                                                              \
    VB_HD static inline void vb_hermite_##SFX(T x, int n, T *out, long stride)                     \
    {                                                                                              \
        T h0 = 1, h1 = x;                                                                          \
        int i;                                                                                     \
        if (n > 0) out[0] = h0;                                                                    \
        if (n > 1) out[stride] = h1;                                                               \
        for (i = 2; i < n; i++) {                                                                  \
            T h2 = (x * h1 - SQRT((T)(i - 1)) * h0) / SQRT((T)i);                                  \
            out[(long)i * stride] = h2;                                                            \
            h0 = h1;                                                                               \
            h1 = h2;                                                                               \
        }                                                                                          \
    }

VB_GUFUNC_DEFINE(float, f, sqrtf)
VB_GUFUNC_DEFINE(double, d, sqrt)

#endif
