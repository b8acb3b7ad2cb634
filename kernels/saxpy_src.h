/*
 * saxpy_src: the saxpy kernel of seed 004, its parameters and body written once.
 * kernels/saxpy.cu compiles them with nvcc (saxpy/nvcc-runtime); variants/saxpy.c hands the
 * same tokens, stringified, to NVRTC (saxpy/nvrtc-driver), so the two cannot drift apart. The
 * body is the seed's, index arithmetic included: blockIdx.x * blockDim.x + threadIdx.x is
 * computed in 32 bits, exact for the saxpy axis' n <= 2^30.
 */
#ifndef VB_SAXPY_SRC_H
#define VB_SAXPY_SRC_H

#define VB_SAXPY_THREADS 512 /* the seed's threads per block; blocks = ceil(n / 512) */

/* What follows `extern "C" __global__ void NAME` (no macros inside: see VB_SAXPY_SOURCE). */
#define VB_SAXPY_BODY                                                                              \
    (float a, float *x, float *y, float *out, size_t n)                                            \
    {                                                                                              \
        size_t tid = blockIdx.x * blockDim.x + threadIdx.x;                                        \
        if (tid < n) {                                                                             \
            out[tid] = a * x[tid] + y[tid];                                                        \
        }                                                                                          \
    }

/* VB_SAXPY_SOURCE(NAME): the kernel NAME as one line of CUDA C++ source for NVRTC. The head is
 * spelled out because __global__ is a macro (for nothing) in a C file that includes the CUDA
 * headers, and the preprocessor would erase it on the way to the string: the kernel would
 * become a host function and the module would not have it. */
#define VB_SAXPY_STR_(...) #__VA_ARGS__
#define VB_SAXPY_STR(...)  VB_SAXPY_STR_(__VA_ARGS__)
#define VB_SAXPY_SOURCE(NAME)                                                                      \
    "extern \"C\" __global__ void " VB_SAXPY_STR(NAME) VB_SAXPY_STR(VB_SAXPY_BODY)

#endif
