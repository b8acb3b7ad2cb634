/*
 * trace_cupti_floor: the least a CUPTI activity tracer can do, as a CUDA injection library
 * (CUDA_INJECTION64_PATH), to measure what CUPTI's own records cost a program: kernels, copies
 * and memsets, with the device-buffer setting varbench uses, records counted and the buffers
 * freed. No NVTX, no store. The in-step overhead benchmark (fw_matrix.py torch-overhead, arms
 * "cupti-floor*") runs the PyTorch steps under it, so that varbench's own cost is told apart
 * from the cost of the records CUPTI makes. VB_FLOOR_API chooses the API records beside them:
 *   unset  none
 *   kinds  varbench trace's default set (api_set.h) the way varbench records it: the runtime
 *          and driver API kinds enabled, every function outside the set switched off
 *   set    the same set with the kinds left off, each function of the set switched on alone
 * VB_FLOOR_KINDS (a comma list of kernel, memcpy, memset; default all three) chooses the GPU
 * records, so that what each kind of record costs a program can be told apart (peer copies
 * come with memcpy). CUPTI's device-buffer settings, to tell whether they are what costs:
 *   VB_FLOOR_PREALLOC=N  device buffers made ready per context (default 1, varbench's; CUPTI's 3)
 *   VB_FLOOR_DEVBUF=B    bytes a device buffer (CUPTI's default 3,200,000)
 *   VB_FLOOR_PINNED=1    the buffers in page-locked host memory instead of device memory
 * At exit it prints "cupti-floor: K kernels, C copies, M memsets, A API calls" to stderr.
 */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_set.h"

#define BUF (8u << 20)

static unsigned long kernels, copies, memsets, apis;

static void CUPTIAPI requested(uint8_t **buf, size_t *size, size_t *max)
{
    *buf = calloc(1, BUF); /* fresh pages are zero: CUPTI need not clear them */
    *size = *buf ? BUF : 0;
    *max = 0;
}

static void CUPTIAPI completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
                               size_t valid)
{
    CUpti_Activity *rec = NULL;
    (void)ctx;
    (void)stream;
    (void)size;
    while (valid && cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) kernels++;
        if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY || rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY2)
            copies++;
        if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) memsets++;
        if (rec->kind == CUPTI_ACTIVITY_KIND_RUNTIME || rec->kind == CUPTI_ACTIVITY_KIND_DRIVER)
            apis++;
    }
    free(buf);
}

static void at_exit(void)
{
    cuptiActivityFlushAll(1);
    fprintf(stderr, "cupti-floor: %lu kernels, %lu copies, %lu memsets, %lu API calls\n", kernels,
            copies, memsets, apis);
}

/* api_records switches the API records of VB_FLOOR_API's mode on (see the head); returns
 * CUPTI's first error, naming the call in *what */
static CUptiResult api_records(const char *mode, const char **what)
{
    static const struct {
        CUpti_CallbackDomain domain;
        uint32_t size;
    } domains[] = {{CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE},
                   {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE}};
    int kinds = !strcmp(mode, "kinds");
    CUptiResult rc = CUPTI_SUCCESS;
    size_t d;
    uint32_t id;
    if (kinds) {
        *what = "cuptiActivityEnable(RUNTIME, DRIVER)";
        rc = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME);
        if (rc == CUPTI_SUCCESS) rc = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER);
    }
    *what = "cuptiActivityEnableRuntimeApi/DriverApi";
    for (d = 0; rc == CUPTI_SUCCESS && d < sizeof domains / sizeof domains[0]; d++)
        for (id = 1; rc == CUPTI_SUCCESS && id < domains[d].size; id++) {
            const char *name = NULL;
            int keep;
            if (cuptiGetCallbackName(domains[d].domain, id, &name) != CUPTI_SUCCESS || !name)
                continue;
            keep = vb_api_set_keeps(name);
            if (kinds == keep) continue; /* kinds: switch the rest off; set: the set on */
            rc = domains[d].domain == CUPTI_CB_DOMAIN_DRIVER_API
                     ? cuptiActivityEnableDriverApi(id, (uint8_t)keep)
                     : cuptiActivityEnableRuntimeApi(id, (uint8_t)keep);
        }
    return rc;
}

/* InitializeInjection is what the CUDA driver calls at cuInit; nonzero is success. The only
 * symbol the library exports (the target hides the rest). */
__attribute__((visibility("default"))) int InitializeInjection(void)
{
    static const struct {
        const char *name;
        CUpti_ActivityKind kind;
    } kinds[] = {{"kernel", CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL},
                 {"memcpy", CUPTI_ACTIVITY_KIND_MEMCPY},
                 {"memcpy", CUPTI_ACTIVITY_KIND_MEMCPY2},
                 {"memset", CUPTI_ACTIVITY_KIND_MEMSET}};
    uint8_t zeroed = 1, pinned = getenv("VB_FLOOR_PINNED") && atoi(getenv("VB_FLOOR_PINNED"));
    size_t prealloc = getenv("VB_FLOOR_PREALLOC") ? strtoul(getenv("VB_FLOOR_PREALLOC"), 0, 10) : 1,
           devbuf = getenv("VB_FLOOR_DEVBUF") ? strtoul(getenv("VB_FLOOR_DEVBUF"), 0, 10) : 0, i,
           zs = sizeof zeroed, ss = sizeof prealloc;
    const char *what = "cuptiActivityRegisterCallbacks", *api = getenv("VB_FLOOR_API"),
               *only = getenv("VB_FLOOR_KINDS");
    CUptiResult rc =
        cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &zs, &zeroed);
    if (rc == CUPTI_SUCCESS)
        rc = cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE, &ss,
                                       &prealloc);
    if (rc == CUPTI_SUCCESS && devbuf)
        rc = cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &ss, &devbuf);
    if (rc == CUPTI_SUCCESS && pinned)
        rc = cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, &zs,
                                       &pinned);
    if (rc == CUPTI_SUCCESS) rc = cuptiActivityRegisterCallbacks(requested, completed);
    for (i = 0; rc == CUPTI_SUCCESS && i < sizeof kinds / sizeof kinds[0]; i++) {
        what = "cuptiActivityEnable";
        if (!only || !*only || strstr(only, kinds[i].name)) rc = cuptiActivityEnable(kinds[i].kind);
    }
    if (rc == CUPTI_SUCCESS && api && *api) {
        if (strcmp(api, "kinds") && strcmp(api, "set")) {
            fprintf(stderr, "cupti-floor: VB_FLOOR_API='%s': not kinds or set\n", api);
            return 0;
        }
        rc = api_records(api, &what);
    }
    if (rc != CUPTI_SUCCESS) {
        const char *s = "?";
        cuptiGetResultString(rc, &s);
        fprintf(stderr, "cupti-floor: %s: %s\n", what, s);
        return 0;
    }
    atexit(at_exit);
    return 1;
}
