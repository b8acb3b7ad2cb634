/* saxpy: what can be checked without a GPU. NVRTC compiles the kernel's source for sm_90 into
 * a cubin (no driver needed), refuses an architecture it does not know, and a broken source
 * fails with NVRTC's log in the error; the driver API lookup says "no device" here and works
 * on a GPU machine; the driver, NVRTC and cuFFT checkers name the error and hint; setup phases
 * are reported once. */
#include <cuda.h>
#include <cufft.h>
#include <nvrtc.h>
#include <stdlib.h>

#include "varbench.h"
#include "gpu.h"
#include "phase.h"
#include "rtc.h"
#include "saxpy_src.h"
#include "test.h"
#include "tests.h"

/* has_bytes: does buf[0..n) hold the string s (without its NUL)? */
static int has_bytes(const void *buf, size_t n, const char *s)
{
    size_t k, len = strlen(s);
    for (k = 0; k + len <= n; k++)
        if (!memcmp((const char *)buf + k, s, len)) return 1;
    return 0;
}

/* The NVRTC copy of the kernel is the seed's source, one line, and compiles to a cubin. */
int test_saxpy_nvrtc_compiles(const char *arg)
{
    const char *src = VB_SAXPY_SOURCE(saxpy_nvrtc_driver_kernel);
    char arch[16], *log = NULL;
    void *image = NULL;
    size_t size = 0;
    struct vb_err err;
    ASSERT_CONTAINS(src, "extern \"C\" __global__ void saxpy_nvrtc_driver_kernel(float a,");
    ASSERT_CONTAINS(src, "size_t tid = blockIdx.x * blockDim.x + threadIdx.x;");
    ASSERT_CONTAINS(src, "out[tid] = a * x[tid] + y[tid];");
    ASSERT_OK(vb_rtc_arch_for(9, 0, arch, sizeof arch, &err));
    ASSERT_STR_EQ(arch, "sm_90");
    ASSERT_OK(vb_rtc_compile(src, "saxpy.cu", arch, &image, &size, &log, &err));
    ASSERT(image && size > 1000);
    ASSERT(!memcmp(image, "\177ELF", 4)); /* a cubin (ELF), not PTX for the driver to JIT */
    /* with the kernel in it (a lost __global__ would leave a host function and no kernel) */
    ASSERT(has_bytes(image, size, ".text.saxpy_nvrtc_driver_kernel"));
    printf("saxpy for %s: %zu-byte cubin, log '%s'\n", arch, size, log ? log : "");
    free(image);
    free(log);
    /* Ampere too (the build's other real architecture) */
    ASSERT_OK(vb_rtc_arch_for(8, 0, arch, sizeof arch, &err));
    ASSERT_OK(vb_rtc_compile(src, "saxpy.cu", arch, &image, &size, NULL, &err));
    free(image);
    /* a compute capability this NVRTC does not know is refused with what it knows */
    ASSERT_INT_EQ(vb_rtc_arch_for(1, 0, arch, sizeof arch, &err), -1);
    ASSERT_CONTAINS(err.msg, "cannot compile for compute capability 1.0");
    ASSERT_CONTAINS(err.msg, "sm_90");
    ASSERT(err.hint[0]);
    return 0;
}

/* A compilation error carries NVRTC's log: the line and the compiler's words. */
int test_saxpy_nvrtc_log(const char *arg)
{
    const char *bad =
        "extern \"C\" __global__ void k(float *x)\n{\n    x[0] = undeclared_thing;\n}\n";
    char *log = NULL;
    void *image = (void *)1;
    size_t size = 1;
    struct vb_err err;
    ASSERT_INT_EQ(vb_rtc_compile(bad, "broken.cu", "sm_90", &image, &size, &log, &err), -1);
    ASSERT(image == NULL && size == 0);
    ASSERT_CONTAINS(err.msg, "compiling 'broken.cu' for sm_90");
    ASSERT_CONTAINS(err.msg, "NVRTC_ERROR_COMPILATION");
    ASSERT_CONTAINS(err.msg, "log: ");
    ASSERT_CONTAINS(err.msg, "undeclared_thing");
    ASSERT(log);
    ASSERT_CONTAINS(log, "broken.cu(3)");
    printf("%s\n", err.msg);
    free(log);
    /* an option NVRTC refuses */
    ASSERT_INT_EQ(vb_rtc_compile("", "empty.cu", "sm_1", &image, &size, NULL, &err), -1);
    ASSERT_CONTAINS(err.msg, "NVRTC_ERROR_INVALID_OPTION");
    return 0;
}

/* The driver API comes through the runtime: "no CUDA device" without a driver (this is how CI
 * sees it), every function found with one. */
int test_saxpy_driver_lookup(const char *arg)
{
    struct vb_err err, gerr;
    const struct vb_drv *d;
    int n = 0;
    vb_err_clear(&err);
    d = vb_drv_get(&err);
    if (vb_gpu_count(&n, &gerr)) {
        ASSERT(d == NULL);
        ASSERT_INT_EQ(err.code, VB_E_NODEV);
        printf("no driver: %s\n", err.msg);
        return 0;
    }
    ASSERT(d != NULL);
    ASSERT(d->ModuleLoadData && d->LaunchKernel && d->MemcpyHtoDAsync && d->StreamSynchronize);
    ASSERT(vb_drv_get(&err) == d); /* looked up once */
    return 0;
}

/* The three new checkers: call text, the library's name for the error, file:line, a hint for
 * what a user can fix. */
int test_saxpy_err_checkers(const char *arg)
{
    struct vb_err err;
    ASSERT_INT_EQ(VB_CU(&err, CUDA_SUCCESS), 0);
    ASSERT_INT_EQ(VB_CU(&err, CUDA_ERROR_OUT_OF_MEMORY), -1);
    ASSERT_CONTAINS(err.msg, "CUDA_ERROR_OUT_OF_MEMORY");
    ASSERT_CONTAINS(err.msg, "test_saxpy.c:");
    ASSERT_CONTAINS(err.hint, "smaller --axis");
    ASSERT_INT_EQ(err.code, VB_E_CUDA);
    ASSERT_INT_EQ(VB_CU(&err, CUDA_ERROR_NO_BINARY_FOR_GPU), -1);
    ASSERT_CONTAINS(err.hint, "architecture");
    ASSERT_INT_EQ(VB_NVRTC(&err, NVRTC_SUCCESS), 0);
    ASSERT_INT_EQ(VB_NVRTC(&err, NVRTC_ERROR_COMPILATION), -1);
    ASSERT(!strncmp(err.msg, "NVRTC_ERROR_COMPILATION: ", 25)); /* the call's text first */
    ASSERT_CONTAINS(err.msg, "NVRTC_ERROR_COMPILATION (nvrtcResult 6)");
    ASSERT_INT_EQ(VB_CUFFT(&err, CUFFT_SUCCESS), 0);
    ASSERT_INT_EQ(VB_CUFFT(&err, CUFFT_ALLOC_FAILED), -1);
    ASSERT_CONTAINS(err.msg, "CUFFT_ALLOC_FAILED (cufftResult 2)");
    ASSERT_CONTAINS(err.hint, "smaller frame");
    return 0;
}

/* Setup phases are timed, reported once, and ranges stay balanced (begin/end in pairs). */
int test_saxpy_setup_phases(const char *arg)
{
    char buf[256];
    vb_phase_setup_take(NULL, 0);
    ASSERT_INT_EQ(vb_phase_setup_take(buf, sizeof buf), 0);
    ASSERT_STR_EQ(buf, "");
    vb_phase_setup_begin(VB_PHASE_COMPILE);
    vb_phase_setup_end();
    vb_phase_setup_begin(VB_PHASE_MODULE_LOAD);
    vb_phase_setup_end();
    ASSERT_INT_EQ(vb_phase_setup_take(buf, sizeof buf), 2);
    ASSERT_CONTAINS(buf, "nvrtc compile ");
    ASSERT_CONTAINS(buf, " ms, module load ");
    ASSERT_INT_EQ(vb_phase_setup_take(buf, sizeof buf), 0);
    return 0;
}
