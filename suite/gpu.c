/* gpu: device discovery (see gpu.h). */
#include "gpu.h"

#include <cuda_runtime_api.h>
#include <cudaTypedefs.h>

int vb_gpu_count(int *n, struct vb_err *err)
{
    int count = 0;
    *n = 0;
    if (VB_CUDA(err, cudaGetDeviceCount(&count))) return -1;
    if (count == 0) {
        vb_err_set(err, VB_E_NODEV, "cudaGetDeviceCount: no CUDA device");
        return vb_err_hint(err, "nvidia-smi should list a GPU; check CUDA_VISIBLE_DEVICES");
    }
    *n = count;
    return 0;
}

int vb_gpu_current_ctx(CUcontext *ctx, struct vb_err *err)
{
    PFN_cuCtxGetCurrent_v4000 get = NULL;
    enum cudaDriverEntryPointQueryResult q;
    *ctx = NULL;
    if (VB_CUDA(err, cudaFree(0)) || /* makes the device's primary context current */
        VB_CUDA(err, cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", (void **)&get, 4000,
                                                      cudaEnableDefault, &q)))
        return -1;
    if (q != cudaDriverEntryPointSuccess || !get || get(ctx) != CUDA_SUCCESS || !*ctx)
        return vb_err_set(err, VB_E_CUDA, "no current CUDA context");
    return 0;
}
