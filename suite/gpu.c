/* gpu: device discovery (see gpu.h). */
#include "gpu.h"

#include <cuda_runtime_api.h>

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
