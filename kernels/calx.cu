// calx kernels (seed 003): a data race, its serial fix, and a correct parallel inner loop.
#include <string.h>

#include "calx.h"
#include "calx_math.h"

// The race: all 2S+1 threads read acc, add their term and write it back with nothing
// ordering them, so most terms are lost. It lives in shared memory (the block's copy of
// x[i]) so that compute-sanitizer's racecheck, which watches shared memory, reports it.
__global__ void calx_naive_inner_kernel(const double *__restrict__ a, const double *__restrict__ z,
                                        double *__restrict__ x, int S)
{
    __shared__ double acc;
    long i = blockIdx.x;
    int j = (int)threadIdx.x - S;
    if (threadIdx.x == 0) acc = 0.0;
    __syncthreads();
    acc = acc + vb_calx_term(a, z, i, S, j); // racy on purpose
    __syncthreads();
    if (threadIdx.x == 0) x[i] = acc;
}

__global__ void calx_serial_inner_kernel(const double *__restrict__ a, const double *__restrict__ z,
                                         double *__restrict__ x, long model_size, int S)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < model_size) x[i] = vb_calx_point(a, z, i, S);
}

__global__ void calx_reduce_inner_kernel(const double *__restrict__ a, const double *__restrict__ z,
                                         double *__restrict__ x, long model_size, int S)
{
    long i = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x & 31;
    double sum = 0.0;
    if (i >= model_size) return; // whole warps leave together: i is uniform across the warp
    for (int j = lane - S; j <= S; j += 32)
        sum += vb_calx_term(a, z, i, S, j);
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, off);
    if (lane == 0) x[i] = sum;
}

extern "C" cudaError_t vb_launch_calx_naive_inner(const double *a, const double *z, double *x,
                                                  long model_size, int S, cudaStream_t s)
{
    if (model_size <= 0) return cudaSuccess;
    if (2 * S + 1 > 1024 || model_size > 0x7fffffffL) return cudaErrorInvalidConfiguration;
    calx_naive_inner_kernel<<<(unsigned)model_size, 2 * S + 1, 0, s>>>(a, z, x, S);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_calx_serial_inner(const double *a, const double *z, double *x,
                                                   long model_size, int S, cudaStream_t s)
{
    const unsigned t = 256;
    if (model_size <= 0) return cudaSuccess;
    calx_serial_inner_kernel<<<(unsigned)((model_size + t - 1) / t), t, 0, s>>>(a, z, x, model_size,
                                                                                S);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_calx_reduce_inner(const double *a, const double *z, double *x,
                                                   long model_size, int S, cudaStream_t s)
{
    const unsigned t = 256, per_block = t / 32;
    if (model_size <= 0) return cudaSuccess;
    calx_reduce_inner_kernel<<<(unsigned)((model_size + per_block - 1) / per_block), t, 0, s>>>(
        a, z, x, model_size, S);
    return cudaGetLastError();
}

// Shared memory: a (2S+1 values), then z's window with one slot in front, so that output
// t of the block reads zs[t + 1 .. t + 1 + 2S] through vb_calx_point's own indexing.
// Every load of a block's a and window is issued before the first store to shared memory (a
// thread holds at most TILED_A values of a and TILED_Z of z: 2S+1 <= 511 and 256 + 2S <= 766
// with S <= 255 and 256 threads), so the block waits one memory latency, not one per loop trip:
// where z lies across PCIe (tiled-mapped) each latency is a microsecond or more.
#define TILED_T 256
#define TILED_A 2
#define TILED_Z 3

// load_a / load_window: this thread's values of a, and of the window of the tile starting at
// output i0, into registers (loads only)
__device__ static inline void load_a(double av[TILED_A], const double *__restrict__ a, int S)
{
#pragma unroll
    for (int j = 0; j < TILED_A; j++) {
        int k = threadIdx.x + j * TILED_T;
        if (k <= 2 * S) av[j] = a[k];
    }
}

__device__ static inline void load_window(double zv[TILED_Z], const double *__restrict__ z, long i0,
                                          long model_size, int S)
{
    long span = (long)TILED_T + 2 * S, have = model_size + 2 * S + 2 - (i0 + 1);
#pragma unroll
    for (int j = 0; j < TILED_Z; j++) {
        long k = threadIdx.x + (long)j * TILED_T;
        if (k < span && k < have) zv[j] = z[i0 + 1 + k];
    }
}

// store_a / store_window: the same values into shared memory (as, zs)
__device__ static inline void store_a(double *as, const double av[TILED_A], int S)
{
#pragma unroll
    for (int j = 0; j < TILED_A; j++) {
        int k = threadIdx.x + j * TILED_T;
        if (k <= 2 * S) as[k] = av[j];
    }
}

__device__ static inline void store_window(double *zs, const double zv[TILED_Z], long i0,
                                           long model_size, int S)
{
    long span = (long)TILED_T + 2 * S, have = model_size + 2 * S + 2 - (i0 + 1);
#pragma unroll
    for (int j = 0; j < TILED_Z; j++) {
        long k = threadIdx.x + (long)j * TILED_T;
        if (k < span && k < have) zs[1 + k] = zv[j];
    }
}

__global__ void calx_tiled_kernel(const double *__restrict__ a, const double *__restrict__ z,
                                  double *__restrict__ x, long model_size, int S)
{
    extern __shared__ double smem[];
    double *as = smem, *zs = smem + 2 * S + 1, av[TILED_A], zv[TILED_Z];
    long i0 = (long)blockIdx.x * TILED_T;
    load_a(av, a, S);
    load_window(zv, z, i0, model_size, S);
    store_a(as, av, S);
    store_window(zs, zv, i0, model_size, S);
    __syncthreads();
    if (i0 + threadIdx.x < model_size) x[i0 + threadIdx.x] = vb_calx_point(as, zs, threadIdx.x, S);
}

// The tiled kernel on gridDim.x blocks that each walk tiles blockIdx.x, + gridDim.x, ...: the
// next tile's window is in flight while this tile is summed and written, so reads and writes
// overlap. a comes in the launch's parameters (calx_a: NA >= 2S+1 values), not from memory:
// where a lies across PCIe, every block reading the same 2S+1 values at once cost 2-4 us of a
// 10 us kernel at 1e4 outputs (H200; a in device memory took as long as a by parameter).
template <int NA> struct calx_a {
    double v[NA];
};

template <int NA>
__global__ void calx_tiled_stream_kernel(const __grid_constant__ calx_a<NA> ap,
                                         const double *__restrict__ z, double *__restrict__ x,
                                         long model_size, int S)
{
    extern __shared__ double smem[];
    double *as = smem, *zs = smem + 2 * S + 1, zv[TILED_Z];
    long tiles = (model_size + TILED_T - 1) / TILED_T, tile = blockIdx.x;
    load_window(zv, z, tile * TILED_T, model_size, S);
    for (int k = threadIdx.x; k <= 2 * S; k += TILED_T)
        as[k] = ap.v[k];
    for (; tile < tiles; tile += gridDim.x) {
        long i0 = tile * TILED_T;
        store_window(zs, zv, i0, model_size, S);
        __syncthreads();
        if (tile + gridDim.x < tiles)
            load_window(zv, z, (tile + gridDim.x) * TILED_T, model_size, S);
        if (i0 + threadIdx.x < model_size)
            x[i0 + threadIdx.x] = vb_calx_point(as, zs, threadIdx.x, S);
        __syncthreads(); /* zs is the next tile's */
    }
}

// launch_stream: the streaming kernel with a (2S+1 <= NA values, read here on the host) in its
// parameters
template <int NA>
static cudaError_t launch_stream(const double *a_host, const double *z, double *x, long model_size,
                                 int S, unsigned blocks, size_t smem, cudaStream_t s)
{
    calx_a<NA> ap;
    memcpy(ap.v, a_host, sizeof(double) * (2 * (size_t)S + 1));
    calx_tiled_stream_kernel<NA><<<blocks, TILED_T, smem, s>>>(ap, z, x, model_size, S);
    return cudaGetLastError();
}

// tiled_config: the tiled kernels' block, shared memory and tiles for S, or false (S > 255, too
// many tiles)
static bool tiled_config(long model_size, int S, size_t *smem, long *tiles)
{
    *smem = sizeof(double) * ((2 * (size_t)S + 1) + 1 + TILED_T + 2 * (size_t)S);
    *tiles = (model_size + TILED_T - 1) / TILED_T;
    /* the kernels' per-thread loads hold S <= 255 (TILED_A, TILED_Z) */
    return S >= 0 && S <= 255 && *tiles <= 0x7fffffffL;
}

extern "C" cudaError_t vb_launch_calx_tiled(const double *a, const double *z, double *x,
                                            long model_size, int S, cudaStream_t s)
{
    size_t smem;
    long tiles;
    if (model_size <= 0) return cudaSuccess;
    if (!tiled_config(model_size, S, &smem, &tiles)) return cudaErrorInvalidConfiguration;
    calx_tiled_kernel<<<(unsigned)tiles, TILED_T, smem, s>>>(a, z, x, model_size, S);
    return cudaGetLastError();
}

extern "C" cudaError_t vb_launch_calx_tiled_stream(const double *a_host, const double *z, double *x,
                                                   long model_size, int S, int blocks,
                                                   cudaStream_t s)
{
    size_t smem;
    long tiles;
    unsigned grid;
    if (model_size <= 0) return cudaSuccess;
    if (!tiled_config(model_size, S, &smem, &tiles) || blocks < 1)
        return cudaErrorInvalidConfiguration;
    grid = (unsigned)(tiles < blocks ? tiles : blocks);
    /* the seed's 25 values in 256 B of parameters; up to S = 255 in 4 KB more (a larger launch:
     * over 4 KB of parameters needs CUDA 12.1, CMakeLists.txt) */
    return 2 * S + 1 <= 32 ? launch_stream<32>(a_host, z, x, model_size, S, grid, smem, s)
                           : launch_stream<512>(a_host, z, x, model_size, S, grid, smem, s);
}
