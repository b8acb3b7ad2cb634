/*
 * ufunc_math: the element-wise functions of the ufunc family (seed 002, "seven things about
 * Numba"), written once and instantiated for float (the kernels, float32 as in the seed) and
 * double (the CPU references): the seed's point 3, "compile the same function for CPU and GPU".
 *   gaussian: exp(-((x - x0) / sigma)^2 / 2) / sqrt(2 pi) / sigma, the seed's @vectorize
 *             kernel function, with x0 and sigma broadcast scalars
 *   clamp:    x limited to [lo, hi], the seed's Numba version (its CUDA C++ version is wrong:
 *             `else if (x > xmin) return xmax`; tests/test_ufunc.c keeps a copy to show the
 *             check catches it)
 *   cos:      the seed's gpu_cos element function
 * and the low-pass mask of ufunc/fft-mask, decided in integers so the host and every kernel
 * agree on it to the bit.
 */
#ifndef VB_UFUNC_MATH_H
#define VB_UFUNC_MATH_H

#include <math.h>

#include "vb_hd.h"

#define VB_UFUNC_SQRT_TWOPI 2.5066282746310002 /* sqrt(2 pi); the seed's np.float32 of it */

/* The broadcast scalars of the seed's calls: gaussian(x, 0, 1), clamp to [-1, 1]. */
#define VB_UFUNC_X0       0.0f
#define VB_UFUNC_SIGMA    1.0f
#define VB_UFUNC_CLAMP_LO -1.0f
#define VB_UFUNC_CLAMP_HI 1.0f

#define VB_UFUNC_DEFINE(T, SFX, EXP, COS)                                                          \
    VB_HD static inline T vb_gaussian_##SFX(T x, T x0, T sigma)                                    \
    {                                                                                              \
        T z = (x - x0) / sigma;                                                                    \
        return EXP(-(z * z) / (T)2) / (T)VB_UFUNC_SQRT_TWOPI / sigma;                              \
    }                                                                                              \
    VB_HD static inline T vb_clamp_##SFX(T x, T lo, T hi)                                          \
    {                                                                                              \
        if (x < lo)                                                                                \
            return lo;                                                                             \
        else if (x > hi)                                                                           \
            return hi;                                                                             \
        else                                                                                       \
            return x;                                                                              \
    }                                                                                              \
    VB_HD static inline T vb_cos_##SFX(T x)                                                        \
    {                                                                                              \
        return COS(x);                                                                             \
    }

VB_UFUNC_DEFINE(float, f, expf, cosf)
VB_UFUNC_DEFINE(double, d, exp, cos)

/* vb_ufunc_fft_keep: does the low-pass mask of an h x w spectrum keep frequency (ky, kx)?
 * Kept: inside the ellipse (dy/h)^2 + (dx/w)^2 <= 1/64, dy and dx the wrapped distances to the
 * zero frequency (so the mask is symmetric and a real frame stays real). Exact for h, w <= 2^13. */
VB_HD static inline int vb_ufunc_fft_keep(long ky, long kx, long h, long w)
{
    long long dy = ky < h - ky ? ky : h - ky, dx = kx < w - kx ? kx : w - kx;
    long long hh = (long long)h * h, ww = (long long)w * w;
    return 64 * (dy * dy * ww + dx * dx * hh) <= hh * ww;
}

#endif
