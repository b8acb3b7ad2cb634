/*
 * calx_math: the smoothing convolution of the calx family (seed 003, a Lorenz-04 model
 * step), written once for the CPU reference and the kernels. With S = smooth_steps, a of
 * length 2S+1 and z of length model_size + 2S + 2, output i in [0, model_size) is
 *   x[i] = a[0] z[i+1+2S]/2 + sum_{j=-S+1}^{S-1} a[j+S] z[i+1+S-j] + a[2S] z[i+1]/2,
 * VARIANTS.md's formula with z indexed from the seed's offset ss2 = S (its zwrap), so that
 * every access is in range. Terms are summed in the seed's order.
 */
#ifndef VB_CALX_MATH_H
#define VB_CALX_MATH_H

#include "vb_hd.h"

/* vb_calx_term: term j in [-S, S] of output i. */
VB_HD static inline double vb_calx_term(const double *a, const double *z, long i, int S, int j)
{
    if (j == -S) return a[0] * z[i + 1 + 2 * S] / 2.0;
    if (j == S) return a[2 * S] * z[i + 1] / 2.0;
    return a[j + S] * z[i + 1 + S - j];
}

/* vb_calx_point: output i, terms accumulated in the seed's order. */
VB_HD static inline double vb_calx_point(const double *a, const double *z, long i, int S)
{
    double x = vb_calx_term(a, z, i, S, -S);
    int j;
    for (j = -S + 1; j < S; j++)
        x = x + vb_calx_term(a, z, i, S, j);
    return x + vb_calx_term(a, z, i, S, S);
}

#endif
