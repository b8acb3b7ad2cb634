/*
 * gpu: finding CUDA devices. The one place that turns "no driver" and "no device" into
 * the VB_E_NODEV outcome, so every command treats a GPU-less machine the same way.
 */
#ifndef VB_GPU_H
#define VB_GPU_H

#include <cuda.h>

#include "err.h"

/* vb_gpu_count sets *n to the number of CUDA devices. Without a driver or a device it sets
 * *n = 0 and returns -1 with err->code == VB_E_NODEV (the reason in err). */
int vb_gpu_count(int *n, struct vb_err *err);

/* vb_gpu_current_ctx sets *ctx to the calling thread's current context (the device's primary
 * context after cudaSetDevice and a runtime call), through the driver entry point (varbench
 * never links libcuda). Returns 0 or -1 with err. */
int vb_gpu_current_ctx(CUcontext *ctx, struct vb_err *err);

#endif
