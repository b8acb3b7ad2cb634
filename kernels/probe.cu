// probe: the nvbench way of reading the SM clock without NVML: one thread compares
// clock64() cycles with %globaltimer nanoseconds over a short spin.
#include "probe.h"

__device__ static uint64_t globaltimer()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void probe_clock_kernel(uint64_t *out, uint64_t spin_ns)
{
    uint64_t t0 = globaltimer();
    long long c0 = clock64();
    uint64_t t1;
    do {
        t1 = globaltimer();
    } while (t1 - t0 < spin_ns);
    long long c1 = clock64();
    out[0] = t1 - t0;
    out[1] = (uint64_t)(c1 - c0);
}

extern "C" cudaError_t vb_launch_probe_clock(uint64_t *out2, uint64_t spin_ns, cudaStream_t stream)
{
    probe_clock_kernel<<<1, 1, 0, stream>>>(out2, spin_ns);
    return cudaGetLastError();
}

__global__ void probe_empty_kernel(void)
{
}

extern "C" cudaError_t vb_launch_probe_empty(cudaStream_t stream)
{
    probe_empty_kernel<<<1, 32, 0, stream>>>();
    return cudaGetLastError();
}

__global__ void probe_mapped_copy_kernel(double *__restrict__ dst, const double *__restrict__ src,
                                         size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[i];
}

extern "C" cudaError_t vb_launch_probe_mapped_copy(void *dst, const void *src, size_t n8,
                                                   cudaStream_t stream)
{
    const unsigned t = 256;
    size_t blocks = (n8 + t - 1) / t;
    if (n8 == 0) return cudaSuccess;
    if (blocks > 0x7fffffffu) return cudaErrorInvalidConfiguration;
    probe_mapped_copy_kernel<<<(unsigned)blocks, t, 0, stream>>>(
        static_cast<double *>(dst), static_cast<const double *>(src), n8);
    return cudaGetLastError();
}

__global__ void probe_mapped_kernel(const double *in, double *out)
{
    *out = *in;
}

extern "C" cudaError_t vb_launch_probe_mapped(const double *in, double *out, cudaStream_t stream)
{
    probe_mapped_kernel<<<1, 1, 0, stream>>>(in, out);
    return cudaGetLastError();
}

__global__ void probe_stream_copy_kernel(float4 *__restrict__ dst, const float4 *__restrict__ src,
                                         size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x * 2 + threadIdx.x, j = i + blockDim.x;
    float4 a, b;
    if (i < n) a = src[i];
    if (j < n) b = src[j];
    if (i < n) dst[i] = a;
    if (j < n) dst[j] = b;
}

extern "C" cudaError_t vb_launch_probe_stream_copy(void *dst, const void *src, size_t n16,
                                                   cudaStream_t stream)
{
    const unsigned t = 256;
    size_t blocks = (n16 + 2 * t - 1) / (2 * t);
    if (n16 == 0) return cudaSuccess;
    if (blocks > 0x7fffffffu) return cudaErrorInvalidConfiguration;
    probe_stream_copy_kernel<<<(unsigned)blocks, t, 0, stream>>>(
        static_cast<float4 *>(dst), static_cast<const float4 *>(src), n16);
    return cudaGetLastError();
}
