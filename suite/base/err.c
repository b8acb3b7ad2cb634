/*
 * err: building error messages and turning library error codes into advice. The
 * CUDA, CUPTI, driver, NVRTC and cuFFT checkers keep the library's own name for the error,
 * and add a "hint" line for the failures a user can fix (no driver, no permission for
 * counters, another profiler attached, a GPU newer than the compiler).
 */
#include "err.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cupti.h>
#include <nvrtc.h>
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

void vb_err_line(const struct vb_err *err, char *buf, size_t n)
{
    if (err->hint[0])
        snprintf(buf, n, "%s (hint: %s)", err->msg, err->hint);
    else
        snprintf(buf, n, "%s", err->msg);
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
        vb_err_hint(err,
                    "counters are restricted to admin users: load nvidia with "
                    "NVreg_RestrictProfilingToAdminUsers=0, or run with CAP_SYS_ADMIN/CAP_PERFMON");
        break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_NOT_COMPATIBLE:
        vb_err_hint(err,
                    "another CUPTI client (ncu, nsys, a profiler) is attached to this process; "
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

/* driver_strings finds the driver's name and text for r. libcuda is never linked (CI has no
 * driver), so cuGetErrorName and cuGetErrorString come through the runtime's entry-point query;
 * either stays NULL when there is no driver to ask. */
static void driver_strings(CUresult r, const char **name, const char **text)
{
    static PFN_cuGetErrorName_v6000 get_name;
    static PFN_cuGetErrorString_v6000 get_string;
    static int looked;
    enum cudaDriverEntryPointQueryResult q;
    if (!looked) {
        looked = 1;
        if (cudaGetDriverEntryPointByVersion("cuGetErrorName", (void **)&get_name, 12000,
                                             cudaEnableDefault, &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess)
            get_name = NULL;
        if (cudaGetDriverEntryPointByVersion("cuGetErrorString", (void **)&get_string, 12000,
                                             cudaEnableDefault, &q) != cudaSuccess ||
            q != cudaDriverEntryPointSuccess)
            get_string = NULL;
        cudaGetLastError(); /* a failed query must not leave an error behind */
    }
    *name = *text = NULL;
    if (get_name && get_name(r, name) != CUDA_SUCCESS) *name = NULL;
    if (get_string && get_string(r, text) != CUDA_SUCCESS) *text = NULL;
}

int vb_err_cu(struct vb_err *err, int rc, const char *call, const char *file, int line)
{
    CUresult r = (CUresult)rc;
    const char *name, *text;
    if (r == CUDA_SUCCESS) return 0;
    driver_strings(r, &name, &text);
    vb_err_set(err, VB_E_CUDA, "%s: %s (%s) [%s:%d]", call, text ? text : "driver API error",
               name ? name : "CUresult", base(file), line);
    if (!name && err) /* no driver to name it: keep the number */
        snprintf(err->msg + strlen(err->msg), sizeof err->msg - strlen(err->msg), " (CUresult %d)",
                 rc);
    switch (r) {
    case CUDA_ERROR_NO_DEVICE:
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_INVALID_CONTEXT:
        vb_err_hint(err, "the driver API works in the device's primary context, which the runtime "
                         "creates: cudaSetDevice and cudaFree(0) must come first");
        break;
    case CUDA_ERROR_OUT_OF_MEMORY:
        vb_err_hint(err, "the case does not fit in device memory: choose smaller --axis values");
        break;
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_INVALID_IMAGE:
    case CUDA_ERROR_INVALID_PTX:
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
        vb_err_hint(err, "the module is not for this GPU: it must be compiled for the device's own "
                         "architecture by an NVRTC at least as new as the GPU");
        break;
    case CUDA_ERROR_NOT_FOUND:
        vb_err_hint(err, "the kernel's name is not in the module: declare it extern \"C\" so that "
                         "its name is not mangled");
        break;
    default:
        break;
    }
    return -1;
}

int vb_err_nvrtc(struct vb_err *err, int rc, const char *call, const char *file, int line)
{
    nvrtcResult r = (nvrtcResult)rc;
    if (r == NVRTC_SUCCESS) return 0;
    vb_err_set(err, VB_E_CUDA, "%s: %s (nvrtcResult %d) [%s:%d]", call, nvrtcGetErrorString(r), rc,
               base(file), line);
    switch (r) {
    case NVRTC_ERROR_INVALID_OPTION:
        vb_err_hint(err, "NVRTC refused an option: a GPU newer than this toolkit's NVRTC cannot be "
                         "compiled for (see nvrtcGetSupportedArchs); update the CUDA Toolkit");
        break;
    case NVRTC_ERROR_BUILTIN_OPERATION_FAILURE:
        vb_err_hint(err, "libnvrtc-builtins.so must sit beside libnvrtc.so (the toolkit's lib64)");
        break;
    case NVRTC_ERROR_OUT_OF_MEMORY:
        vb_err_hint(err, "the host ran out of memory while compiling");
        break;
    default:
        break;
    }
    return -1;
}

static const char *cufft_name(cufftResult r)
{
    switch (r) {
    case CUFFT_INVALID_PLAN:
        return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED:
        return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE:
        return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE:
        return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR:
        return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED:
        return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED:
        return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE:
        return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA:
        return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE:
        return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE:
        return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED:
        return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED:
        return "CUFFT_NOT_SUPPORTED";
    case CUFFT_MISSING_DEPENDENCY:
        return "CUFFT_MISSING_DEPENDENCY";
    default:
        return "cuFFT error";
    }
}

int vb_err_cufft(struct vb_err *err, int rc, const char *call, const char *file, int line)
{
    cufftResult r = (cufftResult)rc;
    if (r == CUFFT_SUCCESS) return 0;
    vb_err_set(err, VB_E_CUDA, "%s: %s (cufftResult %d) [%s:%d]", call, cufft_name(r), rc,
               base(file), line);
    switch (r) {
    case CUFFT_ALLOC_FAILED:
        vb_err_hint(err, "the frame or cuFFT's work area does not fit in device memory: choose a "
                         "smaller frame (--axis height=...,width=...)");
        break;
    case CUFFT_SETUP_FAILED:
    case CUFFT_INVALID_DEVICE:
        vb_err_hint(err, "cuFFT could not use the device: check nvidia-smi and that libcufft "
                         "comes from the same CUDA Toolkit as varbench");
        break;
    default:
        break;
    }
    return -1;
}
