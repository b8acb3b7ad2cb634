/*
 * drv: the CUDA driver API functions varbench calls (saxpy/nvrtc-driver: load a module,
 * launch it, copy on a stream), found at run time through the runtime's entry-point query.
 * libcuda is never linked: the build and the cpu tests run where there is no driver at all.
 * The functions work in the current context, which is the device's primary context once the
 * runtime has made it current (cudaSetDevice, cudaFree(0)); varbench never creates its own.
 */
#ifndef VB_DRV_H
#define VB_DRV_H

#include <cuda.h>
#include <cudaTypedefs.h>

#include "err.h"

/* cuX is member X (cuda.h maps several names to _v2 macros; these members stay plain). Each has
 * the ABI of CUDA 12.0: the typedef of the function's newest version <= 12.0. */
struct vb_drv {
    PFN_cuModuleLoadData_v2000 ModuleLoadData;
    PFN_cuModuleGetFunction_v2000 ModuleGetFunction;
    PFN_cuModuleUnload_v2000 ModuleUnload;
    PFN_cuLaunchKernel_v4000 LaunchKernel;
    PFN_cuMemAlloc_v3020 MemAlloc;
    PFN_cuMemFree_v3020 MemFree;
    PFN_cuMemcpyHtoDAsync_v3020 MemcpyHtoDAsync;
    PFN_cuMemcpyDtoHAsync_v3020 MemcpyDtoHAsync;
    PFN_cuMemsetD32Async_v3020 MemsetD32Async;
    PFN_cuStreamCreate_v2000 StreamCreate;
    PFN_cuStreamDestroy_v4000 StreamDestroy;
    PFN_cuStreamSynchronize_v2000 StreamSynchronize;
};

/* vb_drv_get returns the table, looked up on the first call (later calls reuse it; not
 * thread-safe, like the rest of the runner). Returns NULL with err (VB_E_NODEV without a
 * driver, naming the missing function otherwise). */
const struct vb_drv *vb_drv_get(struct vb_err *err);

#endif
