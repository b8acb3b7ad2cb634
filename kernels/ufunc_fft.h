/*
 * ufunc_fft: the CPU side of ufunc/fft-mask (host only, C). A mixed-radix FFT of any length
 * (recursive decimation in time by the smallest prime factor: O(n * sum of n's prime factors),
 * so 720 x 1280 or 2160 x 3840 frames take a fraction of a second), the 2D pipeline the
 * variants run (forward FFT, low-pass mask with the 1/(h w) scale folded in, inverse FFT), and
 * the textbook direct DFT of the same pipeline, O((h w)^2), that checks the FFT on small
 * frames. Complex numbers are interleaved (re, im) pairs, as cuFFT's cufftComplex arrays.
 * Written as a macro over the real type: double for the reference; tests also instantiate it in
 * float as a pessimistic stand-in for cuFFT's float32 round-off. Sign -1 is cuFFT's forward
 * transform, +1 its (unnormalised) inverse. Header-only so the reference in variants/ufunc.c
 * and the cpu tests share one copy.
 */
#ifndef VB_UFUNC_FFT_H
#define VB_UFUNC_FFT_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ufunc_math.h"

#define VB_FFT_TWO_PI 6.283185307179586476925286766559

/* vb_fft_factor: the smallest prime factor of n >= 2. */
static inline size_t vb_fft_factor(size_t n)
{
    size_t p;
    if (n % 2 == 0) return 2;
    for (p = 3; p * p <= n; p += 2)
        if (n % p == 0) return p;
    return n;
}

#define VB_FFT_DEFINE(T, SFX)                                                                      \
    /* fft_rec: out[0..n) = the n-point DFT of in[0], in[stride], ... with twiddles                \
     * tw[j * tstride] = exp(sign 2 pi i j / N), N = n * tstride; tmp holds 2 * n values. */       \
    static inline void vb_fft_rec_##SFX(const T *in, size_t stride, T *out, size_t n, const T *tw, \
                                        size_t tstride, T *tmp)                                    \
    {                                                                                              \
        size_t p, m, r, k, q;                                                                      \
        if (n == 1) {                                                                              \
            out[0] = in[0];                                                                        \
            out[1] = in[1];                                                                        \
            return;                                                                                \
        }                                                                                          \
        p = vb_fft_factor(n);                                                                      \
        m = n / p;                                                                                 \
        for (r = 0; r < p; r++)                                                                    \
            vb_fft_rec_##SFX(in + 2 * r * stride, stride * p, out + 2 * r * m, m, tw, tstride * p, \
                             tmp);                                                                 \
        /* X[k + q m] = sum_r W_n^(r (k + q m)) Y_r[k]: in place, one k at a time */               \
        for (k = 0; k < m; k++) {                                                                  \
            for (r = 0; r < p; r++) {                                                              \
                tmp[2 * r] = out[2 * (r * m + k)];                                                 \
                tmp[2 * r + 1] = out[2 * (r * m + k) + 1];                                         \
            }                                                                                      \
            for (q = 0; q < p; q++) {                                                              \
                size_t K = k + q * m;                                                              \
                T re = 0, im = 0;                                                                  \
                for (r = 0; r < p; r++) {                                                          \
                    const T *w = tw + 2 * (((r * K) % n) * tstride);                               \
                    re += tmp[2 * r] * w[0] - tmp[2 * r + 1] * w[1];                               \
                    im += tmp[2 * r] * w[1] + tmp[2 * r + 1] * w[0];                               \
                }                                                                                  \
                out[2 * K] = re;                                                                   \
                out[2 * K + 1] = im;                                                               \
            }                                                                                      \
        }                                                                                          \
    }                                                                                              \
    /* vb_fft2_##SFX: the 2D DFT of data[h][w] (interleaved) in place, rows then columns.          \
     * Returns 0, or -1 when out of memory (data untouched then). */                               \
    static inline int vb_fft2_##SFX(T *data, long h, long w, int sign)                             \
    {                                                                                              \
        size_t n = (size_t)(h > w ? h : w), j;                                                     \
        long y, x, pass;                                                                           \
        T *buf = (T *)malloc(sizeof(T) * 2 * (4 * n + (size_t)h + (size_t)w));                     \
        T *in, *out, *tmp, *tw_w, *tw_h;                                                           \
        if (!buf) return -1;                                                                       \
        in = buf;                                                                                  \
        out = in + 2 * n;                                                                          \
        tmp = out + 2 * n;                                                                         \
        tw_w = tmp + 4 * n;                                                                        \
        tw_h = tw_w + 2 * (size_t)w;                                                               \
        for (j = 0; j < (size_t)w; j++) {                                                          \
            tw_w[2 * j] = (T)cos(VB_FFT_TWO_PI * (double)j / (double)w);                           \
            tw_w[2 * j + 1] = (T)(sign * sin(VB_FFT_TWO_PI * (double)j / (double)w));              \
        }                                                                                          \
        for (j = 0; j < (size_t)h; j++) {                                                          \
            tw_h[2 * j] = (T)cos(VB_FFT_TWO_PI * (double)j / (double)h);                           \
            tw_h[2 * j + 1] = (T)(sign * sin(VB_FFT_TWO_PI * (double)j / (double)h));              \
        }                                                                                          \
        for (pass = 0; pass < 2; pass++) {                                                         \
            long lines = pass ? w : h, len = pass ? h : w, step = pass ? w : 1;                    \
            long gap = pass ? 1 : w;                                                               \
            for (y = 0; y < lines; y++) {                                                          \
                T *line = data + 2 * y * gap;                                                      \
                for (x = 0; x < len; x++) {                                                        \
                    in[2 * x] = line[2 * x * step];                                                \
                    in[2 * x + 1] = line[2 * x * step + 1];                                        \
                }                                                                                  \
                vb_fft_rec_##SFX(in, 1, out, (size_t)len, pass ? tw_h : tw_w, 1, tmp);             \
                for (x = 0; x < len; x++) {                                                        \
                    line[2 * x * step] = out[2 * x];                                               \
                    line[2 * x * step + 1] = out[2 * x + 1];                                       \
                }                                                                                  \
            }                                                                                      \
        }                                                                                          \
        free(buf);                                                                                 \
        return 0;                                                                                  \
    }                                                                                              \
    /* vb_fft_mask_##SFX: multiplies spectrum data[h][w] by the low-pass mask and 1/(h w). */      \
    static inline void vb_fft_mask_##SFX(T *data, long h, long w)                                  \
    {                                                                                              \
        long y, x;                                                                                 \
        T scale = (T)(1.0 / ((double)h * (double)w));                                              \
        for (y = 0; y < h; y++)                                                                    \
            for (x = 0; x < w; x++) {                                                              \
                T m = vb_ufunc_fft_keep(y, x, h, w) ? scale : (T)0;                                \
                data[2 * (y * w + x)] *= m;                                                        \
                data[2 * (y * w + x) + 1] *= m;                                                    \
            }                                                                                      \
    }                                                                                              \
    /* vb_fft_lowpass_##SFX: the pipeline of ufunc/fft-mask on data[h][w], in place. */            \
    static inline int vb_fft_lowpass_##SFX(T *data, long h, long w)                                \
    {                                                                                              \
        if (vb_fft2_##SFX(data, h, w, -1)) return -1;                                              \
        vb_fft_mask_##SFX(data, h, w);                                                             \
        return vb_fft2_##SFX(data, h, w, +1);                                                      \
    }

VB_FFT_DEFINE(double, d)

/* vb_dft2_direct: the 2D DFT by its definition, out[ky][kx] = sum over y, x of
 * in[y][x] exp(sign 2 pi i (ky y / h + kx x / w)); O((h w)^2). Returns 0 or -1 (memory). */
static inline int vb_dft2_direct(const double *in, double *out, long h, long w, int sign)
{
    double *th = (double *)malloc(sizeof(double) * 2 * (size_t)(h + w)), *tw;
    long ky, kx, y, x;
    if (!th) return -1;
    tw = th + 2 * h;
    for (y = 0; y < h; y++) {
        th[2 * y] = cos(VB_FFT_TWO_PI * (double)y / (double)h);
        th[2 * y + 1] = sign * sin(VB_FFT_TWO_PI * (double)y / (double)h);
    }
    for (x = 0; x < w; x++) {
        tw[2 * x] = cos(VB_FFT_TWO_PI * (double)x / (double)w);
        tw[2 * x + 1] = sign * sin(VB_FFT_TWO_PI * (double)x / (double)w);
    }
    for (ky = 0; ky < h; ky++)
        for (kx = 0; kx < w; kx++) {
            double re = 0, im = 0;
            for (y = 0; y < h; y++) {
                const double *a = th + 2 * ((ky * y) % h);
                for (x = 0; x < w; x++) {
                    const double *b = tw + 2 * ((kx * x) % w), *v = in + 2 * (y * w + x);
                    double cr = a[0] * b[0] - a[1] * b[1], ci = a[0] * b[1] + a[1] * b[0];
                    re += v[0] * cr - v[1] * ci;
                    im += v[0] * ci + v[1] * cr;
                }
            }
            out[2 * (ky * w + kx)] = re;
            out[2 * (ky * w + kx) + 1] = im;
        }
    free(th);
    return 0;
}

/* vb_dft_lowpass_direct: the fft-mask pipeline by direct DFTs, data[h][w] in place. 0 or -1. */
static inline int vb_dft_lowpass_direct(double *data, long h, long w)
{
    double *spec = (double *)malloc(sizeof(double) * 2 * (size_t)h * (size_t)w);
    if (!spec) return -1;
    if (vb_dft2_direct(data, spec, h, w, -1)) {
        free(spec);
        return -1;
    }
    vb_fft_mask_d(spec, h, w);
    if (vb_dft2_direct(spec, data, h, w, +1)) {
        free(spec);
        return -1;
    }
    free(spec);
    return 0;
}

#endif
