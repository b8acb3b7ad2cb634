// coldcache: the kernel varbench runs before a sample (not a variant): it reads a buffer of
// twice the L2's size, so that the sample finds none of its data in L2 (nvbench's cold
// measurement); a second kernel then discards the buffer's lines from L2 (PTX discard.global.L2:
// invalidated without a write-back; they are clean), leaving L2 empty as ncu --cache-control all
// does (discarding each line as soon as it was read kept L2 from ever filling, so the sample's
// own dirty lines stayed: gufunc 1.28M rows then wrote 18 MB to DRAM against ncu's 0.5 MB); one
// of the first kernel's threads reads the SM clock over the kernel's life, as the probe does.
// Reading rather than writing (nvbench writes with cudaMemsetAsync) leaves no dirty lines: on an
// H100 an 8 MB read took 4.7 us warm, 6.5 us after the read and 8.0 us after a memset of the L2's
// size, whose dirty lines the sample would have paid to write back. Without the discard, L2 full of
// clean lines changed what a kernel writes back to DRAM: mesh 4000^2 wrote 102.6 MB against ncu's
// 104.9 MB.
#include "coldcache_kernel.h"

__device__ static uint64_t globaltimer()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void vb_l2_flush_kernel(const float4 *buf, size_t n, uint64_t *clk, float *sink,
                                   uint64_t min_ns)
{
    const int timer = blockIdx.x == 0 && threadIdx.x == 0;
    uint64_t t0 = 0;
    long long c0 = 0;
    float acc = 0;
    if (timer) {
        t0 = globaltimer();
        c0 = clock64();
    }
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 v = __ldcg(buf + i);
        acc += v.x + v.y + v.z + v.w;
    }
    if (acc == 1234.5f) sink[0] = acc; /* never true for the zeroed buffer: keeps the loads */
    if (timer) {
        uint64_t t1;
        do {
            t1 = globaltimer();
        } while (t1 - t0 < min_ns);
        clk[0] = t1 - t0;
        clk[1] = (uint64_t)(clock64() - c0);
    }
}

__global__ void vb_l2_flush_discard_kernel(const char *buf, size_t lines)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < lines;
         i += (size_t)gridDim.x * blockDim.x)
        asm volatile("discard.global.L2 [%0], 128;" ::"l"(buf + 128 * i) : "memory");
}

extern "C" cudaError_t vb_launch_l2_flush(const void *buf, size_t bytes, int blocks, uint64_t *clk,
                                          float *sink, uint64_t min_ns, cudaStream_t stream)
{
    cudaError_t e;
    vb_l2_flush_kernel<<<bytes ? blocks : 1, 512, 0, stream>>>((const float4 *)buf, bytes / 16, clk,
                                                               sink, min_ns);
    if ((e = cudaGetLastError()) != cudaSuccess || !bytes) return e;
    vb_l2_flush_discard_kernel<<<blocks, 512, 0, stream>>>((const char *)buf, bytes / 128);
    return cudaGetLastError();
}
