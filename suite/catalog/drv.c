/* drv: driver API entry points through cudaGetDriverEntryPointByVersion (see drv.h). */
#include "varbench.h"

#include <cuda_runtime_api.h>
#include <stddef.h>

/* The version whose ABI the typedefs in struct vb_drv describe. */
#define ABI_VERSION 12000

static struct vb_drv table;
static int loaded;

static int lookup(const char *name, void **fn, struct vb_err *err)
{
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
    if (VB_CUDA(err,
                cudaGetDriverEntryPointByVersion(name, fn, ABI_VERSION, cudaEnableDefault, &q)))
        return vb_err_context(err, "driver function '%s'", name);
    if (q != cudaDriverEntryPointSuccess || !*fn) {
        vb_err_set(err, VB_E_CUDA, "the driver has no '%s' for CUDA %d.%d (query result %d)", name,
                   ABI_VERSION / 1000, ABI_VERSION % 1000 / 10, (int)q);
        return vb_err_hint(err, "update the NVIDIA driver (nvidia-smi shows its CUDA version)");
    }
    return 0;
}

const struct vb_drv *vb_drv_get(struct vb_err *err)
{
    struct vb_drv t;
#define GET(fn) lookup("cu" #fn, (void **)&t.fn, err)
    if (loaded) return &table;
    if (GET(ModuleLoadData) || GET(ModuleGetFunction) || GET(ModuleUnload) || GET(LaunchKernel) ||
        GET(MemAlloc) || GET(MemFree) || GET(MemcpyHtoDAsync) || GET(MemcpyDtoHAsync) ||
        GET(MemsetD32Async) || GET(StreamCreate) || GET(StreamDestroy) || GET(StreamSynchronize))
        return NULL;
#undef GET
    table = t;
    loaded = 1;
    return &table;
}
