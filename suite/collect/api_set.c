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

/* starts_with: does name start with one of the n prefixes p? */
static int starts_with(const char *name, const char *const *p, size_t n)
{
    size_t i;
    for (i = 0; name && i < n; i++)
        if (!strncmp(name, p[i], strlen(p[i]))) return 1;
    return 0;
}

int vb_api_set_keeps(const char *name)
{
    return starts_with(name, prefixes, sizeof prefixes / sizeof prefixes[0]);
}

/* The calls that put work on a GPU (a kernel, copy or memset record follows each): what the
 * runner's sample marks watch. A subset of the set above. */
static const char *const work[] = {
    "cudaLaunch", "cudaMemcpy", "cudaMemset", "cudaGraphLaunch",
    "cuLaunch",   "cuMemcpy",   "cuMemset",   "cuGraphLaunch",
};

const char *vb_api_work_prefix(size_t i)
{
    return i < sizeof work / sizeof work[0] ? work[i] : NULL;
}

/* each_function calls fn for every runtime and driver API function this CUPTI names, with
 * its name; stops at the first nonzero return and returns it. */
static int each_function(int (*fn)(CUpti_CallbackDomain, CUpti_CallbackId, const char *, void *),
                         void *arg)
{
    static const struct {
        CUpti_CallbackDomain domain;
        uint32_t size;
    } domains[] = {{CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE},
                   {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE}};
    size_t d;
    uint32_t cbid;
    int rc;
    for (d = 0; d < sizeof domains / sizeof domains[0]; d++)
        for (cbid = 1; cbid < domains[d].size; cbid++) {
            const char *name = NULL;
            if (cuptiGetCallbackName(domains[d].domain, cbid, &name) != CUPTI_SUCCESS || !name)
                continue; /* an id this CUPTI has no function for */
            if ((rc = fn(domains[d].domain, cbid, name, arg))) return rc;
        }
    return 0;
}

/* switch_walk: which functions a walk switches (those in the set, or those outside it), to what,
 * and how many it switched */
struct switch_walk {
    int in_set;
    uint8_t on;
    int count;
};

/* switch_one sets the records of one function the walk w switches; counts it */
static int switch_one(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const char *name, void *arg)
{
    struct switch_walk *w = arg;
    CUptiResult rc;
    if (vb_api_set_keeps(name) != w->in_set) return 0;
    rc = dom == CUPTI_CB_DOMAIN_DRIVER_API ? cuptiActivityEnableDriverApi(cbid, w->on)
                                           : cuptiActivityEnableRuntimeApi(cbid, w->on);
    if (rc != CUPTI_SUCCESS) return -1;
    w->count++;
    return 0;
}

/* switch_walk_run switches the functions w names; how many, or -1 when CUPTI refused one */
static int switch_walk_run(struct switch_walk w)
{
    return each_function(switch_one, &w) ? -1 : w.count;
}

int vb_api_set_quiet(void)
{
    return switch_walk_run((struct switch_walk){.in_set = 0, .on = 0});
}

int vb_api_set_enable(void)
{
    return switch_walk_run((struct switch_walk){.in_set = 1, .on = 1});
}

int vb_api_set_disable(void)
{
    return switch_walk_run((struct switch_walk){.in_set = 1, .on = 0});
}

struct work_walk {
    int (*fn)(CUpti_CallbackDomain, CUpti_CallbackId, void *);
    void *arg;
};

static int work_one(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const char *name, void *arg)
{
    const struct work_walk *w = arg;
    return starts_with(name, work, sizeof work / sizeof work[0]) ? w->fn(dom, cbid, w->arg) : 0;
}

int vb_api_each_work_call(int (*fn)(CUpti_CallbackDomain, CUpti_CallbackId, void *), void *arg)
{
    struct work_walk w = {fn, arg};
    return each_function(work_one, &w);
}
