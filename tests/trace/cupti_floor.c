/*
 * trace_cupti_floor: the least a CUPTI activity tracer can do, as a CUDA injection library
 * (CUDA_INJECTION64_PATH), to measure what CUPTI's own GPU records cost a program: kernels,
 * copies and memsets, with the device-buffer setting varbench uses, records counted and the
 * buffers freed. No API records, no NVTX, no store. The in-step overhead benchmark
 * (fw_matrix.py torch-overhead, arm "cupti-floor") runs the PyTorch steps under it, so that
 * varbench's own cost is told apart from the cost of the records CUPTI makes on every launch.
 * At exit it prints "cupti-floor: K kernels, C copies, M memsets" to stderr.
 */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>

#define BUF (8u << 20)

static unsigned long kernels, copies, memsets;

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
        if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) copies++;
        if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) memsets++;
    }
    free(buf);
}

static void at_exit(void)
{
    cuptiActivityFlushAll(1);
    fprintf(stderr, "cupti-floor: %lu kernels, %lu copies, %lu memsets\n", kernels, copies,
            memsets);
}

/* InitializeInjection is what the CUDA driver calls at cuInit; nonzero is success */
int InitializeInjection(void)
{
    static const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
                                               CUPTI_ACTIVITY_KIND_MEMCPY,
                                               CUPTI_ACTIVITY_KIND_MEMSET};
    uint8_t zeroed = 1;
    size_t one = 1, i, zs = sizeof zeroed, ss = sizeof one;
    const char *what = "cuptiActivityRegisterCallbacks";
    CUptiResult rc =
        cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &zs, &zeroed);
    if (rc == CUPTI_SUCCESS)
        rc = cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE, &ss,
                                       &one);
    if (rc == CUPTI_SUCCESS) rc = cuptiActivityRegisterCallbacks(requested, completed);
    for (i = 0; rc == CUPTI_SUCCESS && i < sizeof kinds / sizeof kinds[0]; i++) {
        what = "cuptiActivityEnable";
        rc = cuptiActivityEnable(kinds[i]);
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
