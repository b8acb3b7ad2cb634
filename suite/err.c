/*
 * err: building error messages and turning library error codes into advice. The
 * CUDA and CUPTI checkers keep the library's own name for the error, and add a "hint"
 * line for the failures a user can fix (no driver, no permission for counters, another
 * profiler attached).
 */
#include "err.h"

#include <cuda_runtime_api.h>
#include <cupti.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const int exit_codes[] = {
#define X(name, rc, desc) rc,
    VB_ERRORS(X)
#undef X
};
static const char *const descs[] = {
#define X(name, rc, desc) desc,
    VB_ERRORS(X)
#undef X
};

int vb_code_exit(enum vb_code code)
{
    return code < VB_E_COUNT ? exit_codes[code] : 6;
}

const char *vb_code_desc(enum vb_code code)
{
    return code < VB_E_COUNT ? descs[code] : "unknown error";
}

void vb_err_clear(struct vb_err *err)
{
    if (!err) return;
    err->code = VB_E_OK;
    err->msg[0] = err->hint[0] = '\0';
}

int vb_err_set(struct vb_err *err, enum vb_code code, const char *fmt, ...)
{
    va_list ap;
    if (!err) return -1;
    err->code = code;
    err->hint[0] = '\0';
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

int vb_err_hint(struct vb_err *err, const char *fmt, ...)
{
    va_list ap;
    if (!err) return -1;
    va_start(ap, fmt);
    vsnprintf(err->hint, sizeof err->hint, fmt, ap);
    va_end(ap);
    return -1;
}

int vb_err_context(struct vb_err *err, const char *fmt, ...)
{
    char ctx[512], old[sizeof err->msg];
    va_list ap;
    if (!err) return -1;
    va_start(ap, fmt);
    vsnprintf(ctx, sizeof ctx, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    snprintf(err->msg, sizeof err->msg, "%s: %s", ctx, old);
    return -1;
}

/* Strip the directory from __FILE__ so messages stay short. */
static const char *base(const char *file)
{
    const char *s = strrchr(file, '/');
    return s ? s + 1 : file;
}

int vb_err_cuda(struct vb_err *err, int rc, const char *call, const char *file, int line)
{
    cudaError_t e = (cudaError_t)rc;
    if (e == cudaSuccess) return 0;
    cudaGetLastError(); /* clear a sticky-free error so the next call starts clean */
    vb_err_set(err, VB_E_CUDA, "%s: %s (%s) [%s:%d]", call, cudaGetErrorString(e),
               cudaGetErrorName(e), base(file), line);
    switch (e) {
    case cudaErrorInsufficientDriver:
    case cudaErrorNoDevice:
        if (err) err->code = VB_E_NODEV;
        vb_err_hint(err, "no usable NVIDIA driver or GPU here; GPU variants are skipped. Run on a "
                         "machine with a CUDA 13 capable driver (nvidia-smi should list a GPU)");
        break;
    case cudaErrorMemoryAllocation:
        vb_err_hint(err, "the case does not fit in device memory: choose smaller --axis values");
        break;
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
        vb_err_hint(err, "rebuild for this GPU: cmake -DCMAKE_CUDA_ARCHITECTURES=native");
        break;
    default:
        break;
    }
    return -1;
}

int vb_err_cupti(struct vb_err *err, int rc, const char *call, const char *file, int line)
{
    CUptiResult r = (CUptiResult)rc;
    const char *s = NULL;
    if (r == CUPTI_SUCCESS) return 0;
    if (cuptiGetResultString(r, &s) != CUPTI_SUCCESS || !s) s = "unknown CUPTI error";
    vb_err_set(err, VB_E_CUDA, "%s: %s (CUPTI %d) [%s:%d]", call, s, rc, base(file), line);
    switch (r) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        vb_err_hint(err, "counters are restricted to admin users: load nvidia with "
                         "NVreg_RestrictProfilingToAdminUsers=0, or run with CAP_SYS_ADMIN/CAP_PERFMON");
        break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
        vb_err_hint(err, "another CUPTI client (ncu, nsys, a profiler) is attached to this process; "
                         "timings fall back to host clocks. Run varbench outside the profiler for "
                         "CUPTI records");
        break;
    case CUPTI_ERROR_NOT_INITIALIZED:
        vb_err_hint(err, "CUPTI could not reach the driver: check nvidia-smi and that libcupti "
                         "matches the driver's CUDA version");
        break;
    default:
        break;
    }
    return -1;
}
