/* coldcache: the flush and clock probe before each sample (see coldcache.h). */
#include "coldcache.h"

#include <cuda_runtime_api.h>
#include <string.h>

#include "coldcache_kernel.h"

#define MAX_DEVICES     64
#define CLOCK_WINDOW_NS 20000 /* 20 us of globaltimer (32 ns steps on an H100): 0.2% */

struct cold {
    void *buf;
    size_t bytes;
    int blocks;
    uint64_t *clk_h, *clk_d;
    float *sink;
    cudaStream_t s;
};

static struct cold devs[MAX_DEVICES];

/* prepare makes the device's buffers once; 0 or -1 with err. */
static int prepare(int dev, struct cold **out, struct vb_err *err)
{
    struct cold *c;
    int l2 = 0, sms = 0;
    if (dev < 0 || dev >= MAX_DEVICES)
        return vb_err_set(err, VB_E_CUDA, "cold cache: device %d out of range", dev);
    c = &devs[dev];
    *out = c;
    if (c->s) return 0;
    if (VB_CUDA(err, cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev)) ||
        VB_CUDA(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)))
        return -1;
    c->bytes = ((size_t)(l2 > 0 ? l2 : 1 << 20) * 2 + 127) / 128 * 128;
    c->blocks = 2 * (sms > 0 ? sms : 1); /* two blocks of 512 a multiprocessor: 2.5 TB/s, H100 */
    if (VB_CUDA(err, cudaMalloc(&c->buf, c->bytes)) ||
        VB_CUDA(err, cudaMemset(c->buf, 0, c->bytes)) ||
        VB_CUDA(err, cudaMalloc((void **)&c->sink, sizeof *c->sink)) ||
        VB_CUDA(err,
                cudaHostAlloc((void **)&c->clk_h, 2 * sizeof *c->clk_h, cudaHostAllocMapped)) ||
        VB_CUDA(err, cudaHostGetDevicePointer((void **)&c->clk_d, c->clk_h, 0)) ||
        VB_CUDA(err, cudaStreamCreateWithFlags(&c->s, cudaStreamNonBlocking))) {
        cudaFree(c->buf);
        cudaFree(c->sink);
        if (c->clk_h) cudaFreeHost(c->clk_h);
        memset(c, 0, sizeof *c);
        return vb_err_context(err, "cold cache buffers");
    }
    return 0;
}

int vb_cold_before(int flush, double *mhz, struct vb_err *err)
{
    struct cold *c = NULL;
    int dev = 0;
    *mhz = 0;
    if (VB_CUDA(err, cudaGetDevice(&dev)) || prepare(dev, &c, err)) return -1;
    c->clk_h[0] = c->clk_h[1] = 0;
    if (VB_CUDA(err, vb_launch_l2_flush(c->buf, flush ? c->bytes : 0, c->blocks, c->clk_d, c->sink,
                                        CLOCK_WINDOW_NS, c->s)) ||
        VB_CUDA(err, cudaStreamSynchronize(c->s)))
        return -1;
    if (c->clk_h[0]) *mhz = (double)c->clk_h[1] * 1e3 / (double)c->clk_h[0];
    return 0;
}

void vb_cold_launch_hook(CUstream s, void *unused)
{
    struct cold *c;
    int dev = 0;
    (void)unused;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= MAX_DEVICES) return;
    c = &devs[dev];
    if (!c->s) return;
    /* the clock words are not read here: the probe writes them, nobody waits */
    if (vb_launch_l2_flush(c->buf, c->bytes, c->blocks, c->clk_d, c->sink, 0, (cudaStream_t)s))
        cudaGetLastError();
}

void vb_cold_release(void)
{
    int i;
    for (i = 0; i < MAX_DEVICES; i++) {
        struct cold *c = &devs[i];
        if (!c->s) continue;
        if (cudaSetDevice(i) == cudaSuccess) {
            cudaStreamDestroy(c->s);
            cudaFree(c->buf);
            cudaFree(c->sink);
            cudaFreeHost(c->clk_h);
        }
        memset(c, 0, sizeof *c);
    }
}
