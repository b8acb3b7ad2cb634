/* ctlplan: a case's controls, planned and measured (see ctlplan.h). */
#include "ctlplan.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "marks.h"

#define MAX_DEVICES 64

/* One direction's buffers on one device: host memory of one kind and device memory, each
 * `bytes` long, the largest asked for so far. */
struct copy_bufs {
    void *host, *dev;
    size_t bytes;
    int pageable;
};

static struct copy_bufs bufs[MAX_DEVICES][2];

void vb_ctl_plan_cpu(struct vb_ctl_plan *p)
{
    memset(p, 0, sizeof *p);
    p->cpu = p->mem_every = 1;
}

void vb_ctl_plan_gpu(const struct vb_case_result *r, int marked, struct vb_ctl_plan *p)
{
    const struct vb_sample *last = NULL;
    int i, pg[2];
    double walk = vb_control_mem_ns();
    memset(p, 0, sizeof *p);
    p->cpu = 1;
    for (i = 0; i < r->nsamples; i++)
        if (r->samples[i].kind == VB_SAMPLE_WARMUP) last = &r->samples[i];
    if (last && walk > 0 && last->e2e_ns > 0)
        p->mem_every = (int)fmin(1e6, ceil(walk / (VB_CTL_MEM_SHARE * last->e2e_ns)));
    if (!marked || !last || !r->have_records) return;
    vb_result_pageable(r, &pg[0], &pg[1]);
    p->bytes[0] = last->h2d_bytes;
    p->bytes[1] = last->d2h_bytes;
    p->pageable[0] = pg[0];
    p->pageable[1] = pg[1];
}

static void free_bufs(struct copy_bufs *b)
{
    if (b->host) {
        if (b->pageable)
            free(b->host);
        else
            cudaFreeHost(b->host);
    }
    if (b->dev) cudaFree(b->dev);
    memset(b, 0, sizeof *b);
}

/* bufs_for: direction d's buffers on device dev, of bytes or more and of the kind asked for;
 * NULL with err when they cannot be made */
static struct copy_bufs *bufs_for(int dev, int d, size_t bytes, int pageable, struct vb_err *err)
{
    struct copy_bufs *b;
    if (dev < 0 || dev >= MAX_DEVICES) {
        vb_err_set(err, VB_E_CUDA, "control copy: device %d out of range", dev);
        return NULL;
    }
    b = &bufs[dev][d];
    if (b->host && b->bytes >= bytes && b->pageable == pageable) return b;
    free_bufs(b);
    b->pageable = pageable;
    if (pageable ? !(b->host = malloc(bytes))
                 : VB_CUDA(err, cudaMallocHost(&b->host, bytes)) != 0) {
        if (pageable)
            vb_err_set(err, VB_E_SYS, "control copy: out of host memory (%zu bytes)", bytes);
        b->host = NULL;
        free_bufs(b);
        return NULL;
    }
    memset(b->host, 0x3c, bytes); /* its pages real before the first control */
    if (VB_CUDA(err, cudaMalloc(&b->dev, bytes)) || VB_CUDA(err, cudaMemset(b->dev, 0x3c, bytes)) ||
        VB_CUDA(err, cudaDeviceSynchronize())) {
        free_bufs(b);
        return NULL;
    }
    b->bytes = bytes;
    return b;
}

int vb_ctl_measure(const struct vb_ctl_plan *p, int k, struct vb_sample *s, struct vb_err *err)
{
    int d, dev = 0;
    if (p->cpu) {
        s->ctl[VB_CTL_CPU] = vb_control_cpu_ns();
        s->ctl[VB_CTL_THR] = vb_control_thr_ns();
    }
    if (p->mem_every && k % p->mem_every == 0) s->ctl[VB_CTL_MEM] = vb_control_mem_ns();
    for (d = 0; d < 2; d++) {
        struct copy_bufs *b;
        cudaError_t rc;
        if (!p->bytes[d]) continue;
        if (VB_CUDA(err, cudaGetDevice(&dev)) ||
            !(b = bufs_for(dev, d, (size_t)p->bytes[d], p->pageable[d], err)))
            return vb_err_context(err, "a sample's control copy");
        s->ctl[d ? VB_CTL_D2H : VB_CTL_H2D] = 0; /* its records add to it */
        vb_marks_sample(VB_MARK_CONTROL(k));
        rc = d ? cudaMemcpy(b->host, b->dev, (size_t)p->bytes[d], cudaMemcpyDeviceToHost)
               : cudaMemcpy(b->dev, b->host, (size_t)p->bytes[d], cudaMemcpyHostToDevice);
        vb_marks_sample(-1);
        if (VB_CUDA(err, rc)) return vb_err_context(err, "a sample's control copy");
    }
    return 0;
}

void vb_ctl_release(void)
{
    int i, d, cur = -1;
    cudaGetDevice(&cur);
    for (i = 0; i < MAX_DEVICES; i++)
        for (d = 0; d < 2; d++)
            if (bufs[i][d].host && cudaSetDevice(i) == cudaSuccess) free_bufs(&bufs[i][d]);
    if (cur >= 0) cudaSetDevice(cur);
    vb_control_release();
}
