/* gpu: device discovery (see gpu.h). */
#include "gpu.h"

#include <cuda_runtime_api.h>
#include <cudaTypedefs.h>

/* no_driver says which of the two the runtime's "insufficient driver" is: no driver at all
 * (cudaDriverGetVersion gives 0: no libcuda.so.1 to load, as on a CI machine), or one older than
 * this build's runtime. Returns -1 with err. */
static int no_driver(struct vb_err *err)
{
    int drv = 0;
    cudaDriverGetVersion(&drv);
    if (drv == 0) {
        vb_err_set(err, VB_E_NODEV, "no CUDA driver: libcuda.so.1 is not installed here");
        return vb_err_hint(err, "GPU variants are skipped; on a machine with an NVIDIA GPU, "
                                "install its driver (nvidia-smi should list the GPU)");
    }
    vb_err_set(err, VB_E_NODEV,
               "the CUDA driver supports CUDA %d.%d, older than this varbench's CUDA %d.%d runtime",
               drv / 1000, drv % 1000 / 10, CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
    return vb_err_hint(err, "GPU variants are skipped; update the NVIDIA driver (580 or newer "
                            "for CUDA 13)");
}

int vb_gpu_count(int *n, struct vb_err *err)
{
    int count = 0;
    cudaError_t e;
    *n = 0;
    if ((e = cudaGetDeviceCount(&count)) == cudaErrorInsufficientDriver) {
        cudaGetLastError();
        return no_driver(err);
    }
    if (VB_CUDA(err, e)) return -1;
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
