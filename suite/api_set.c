/*
 * api_set: the default set of traced CUDA API calls (see api_set.h).
 */
#include "api_set.h"

#include <string.h>

#include <cupti.h>

/* Name prefixes of the set, runtime then driver; a name matches when it starts with one. */
static const char *const prefixes[] = {
    /* runtime */
    "cudaLaunch", "cudaMemcpy", "cudaMemset", "cudaMalloc", "cudaFree", "cudaHostAlloc",
    "cudaHostRegister", "cudaHostUnregister", "cudaMemPrefetch", "cudaDeviceSynchronize",
    "cudaStreamSynchronize", "cudaEventSynchronize", "cudaStreamWaitEvent", "cudaEventRecord",
    "cudaEventQuery", "cudaStreamQuery", "cudaStreamCreate", "cudaStreamDestroy", "cudaEventCreate",
    "cudaEventDestroy", "cudaGraph", "cudaStreamBeginCapture", "cudaStreamEndCapture",
    "cudaDeviceReset", "cudaProfiler", "cudaLibraryLoad",
    /* driver */
    "cuLaunch", "cuMemcpy", "cuMemset", "cuMemAlloc", "cuMemFree", "cuMemHostAlloc",
    "cuMemHostRegister", "cuMemHostUnregister", "cuMemPrefetch", "cuMemCreate", "cuMemMap",
    "cuMemUnmap", "cuMemRelease", "cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize",
    "cuStreamWaitEvent", "cuEventRecord", "cuEventQuery", "cuStreamQuery", "cuStreamCreate",
    "cuStreamDestroy", "cuEventCreate", "cuEventDestroy", "cuGraph", "cuStreamBeginCapture",
    "cuStreamEndCapture", "cuModuleLoad", "cuModuleUnload", "cuModuleGetFunction", "cuLibraryLoad",
    "cuLibraryUnload", "cuLibraryGetKernel", "cuCtxCreate", "cuCtxDestroy",
    "cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRelease", "cuProfiler", "cuInit",
    "cuDriverGetVersion", /* varbench's canary (inject.c) */
};

const char *vb_api_set_prefix(size_t i)
{
    return i < sizeof prefixes / sizeof prefixes[0] ? prefixes[i] : NULL;
}

int vb_api_set_keeps(const char *name)
{
    size_t i;
    for (i = 0; name && i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (!strncmp(name, prefixes[i], strlen(prefixes[i]))) return 1;
    return 0;
}

int vb_api_set_quiet(void)
{
    static const struct {
        CUpti_CallbackDomain domain;
        uint32_t size;
        CUptiResult (*api)(CUpti_CallbackId, uint8_t);
    } domains[] = {
        {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE, cuptiActivityEnableRuntimeApi},
        {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE, cuptiActivityEnableDriverApi},
    };
    int n = 0;
    size_t d;
    uint32_t cbid;
    for (d = 0; d < sizeof domains / sizeof domains[0]; d++)
        for (cbid = 1; cbid < domains[d].size; cbid++) {
            const char *name = NULL;
            if (cuptiGetCallbackName(domains[d].domain, cbid, &name) != CUPTI_SUCCESS ||
                vb_api_set_keeps(name))
                continue; /* an id this CUPTI has no function for, or one of the set */
            if (domains[d].api(cbid, 0) != CUPTI_SUCCESS) return -1;
            n++;
        }
    return n;
}
