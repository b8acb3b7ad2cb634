/* hostmem: pinned host buffers, pageable under VARBENCH_TEST_PAGEABLE=1 (see hostmem.h). */
#include "varbench.h"

#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

int vb_pinned_pageable(void)
{
    static int mode = -1; /* read once: an allocation and its free agree */
    if (mode < 0) {
        const char *v = getenv("VARBENCH_TEST_PAGEABLE");
        mode = v && !strcmp(v, "1");
    }
    return mode;
}

int vb_pinned_alloc(void **p, size_t bytes, struct vb_err *err)
{
    *p = NULL;
    if (!vb_pinned_pageable()) return VB_CUDA(err, cudaMallocHost(p, bytes));
    if (!(*p = malloc(bytes ? bytes : 1)))
        return vb_err_set(err, VB_E_SYS, "out of memory (%zu bytes of host memory)", bytes);
    return 0;
}

void vb_pinned_free(void *p)
{
    if (!p) return;
    if (vb_pinned_pageable())
        free(p);
    else
        cudaFreeHost(p);
}

int vb_mapped_alloc(void **p, void **dev, size_t bytes, struct vb_err *err)
{
    *p = *dev = NULL;
    if (VB_CUDA(err, cudaHostAlloc(p, bytes ? bytes : 1, cudaHostAllocMapped))) return -1;
    if (VB_CUDA(err, cudaHostGetDevicePointer(dev, *p, 0))) {
        cudaFreeHost(*p);
        *p = *dev = NULL;
        return -1;
    }
    return 0;
}

void vb_mapped_free(void *p)
{
    if (p) cudaFreeHost(p);
}
