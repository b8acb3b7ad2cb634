/* rtc: NVRTC compilation to cubin for the device's own architecture (see rtc.h). */
#include "rtc.h"

#include <cuda_runtime_api.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vb_rtc_arch_for(int major, int minor, char *arch, size_t n, struct vb_err *err)
{
    int count = 0, *archs = NULL, cc = major * 10 + minor, k, found = 0;
    char list[256] = "";
    if (VB_NVRTC(err, nvrtcGetNumSupportedArchs(&count))) return -1;
    archs = malloc(sizeof *archs * (size_t)(count > 0 ? count : 1));
    if (!archs) return vb_err_set(err, VB_E_SYS, "out of memory");
    if (count > 0 && VB_NVRTC(err, nvrtcGetSupportedArchs(archs))) {
        free(archs);
        return -1;
    }
    for (k = 0; k < count; k++) {
        found |= archs[k] == cc;
        snprintf(list + strlen(list), sizeof list - strlen(list), "%ssm_%d", k ? ", " : "",
                 archs[k]);
    }
    free(archs);
    if (!found) {
        vb_err_set(err, VB_E_CUDA,
                   "this NVRTC cannot compile for compute capability %d.%d "
                   "(it knows %s)",
                   major, minor, list);
        return vb_err_hint(err, "update the CUDA Toolkit to one that knows this GPU");
    }
    snprintf(arch, n, "sm_%d", cc);
    return 0;
}

int vb_rtc_arch(int device, char *arch, size_t n, struct vb_err *err)
{
    int major = 0, minor = 0;
    if (VB_CUDA(err, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device)) ||
        VB_CUDA(err, cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device)))
        return -1;
    return vb_rtc_arch_for(major, minor, arch, n, err);
}

/* append_log adds " log: <the log, one line>" to err's message, as much as fits. */
static void append_log(struct vb_err *err, const char *log)
{
    size_t used, k;
    if (!err || !log || !*log) return;
    used = strlen(err->msg);
    used += (size_t)snprintf(err->msg + used, sizeof err->msg - used, "; log: ");
    for (k = 0; log[k] && used + 4 < sizeof err->msg; k++) {
        if (log[k] == '\n') {
            if (!log[k + 1]) break;
            used += (size_t)snprintf(err->msg + used, sizeof err->msg - used, " / ");
        } else {
            err->msg[used++] = log[k];
        }
    }
    err->msg[used < sizeof err->msg ? used : sizeof err->msg - 1] = '\0';
}

int vb_rtc_compile(const char *src, const char *name, const char *arch, void **image, size_t *size,
                   char **log, struct vb_err *err)
{
    nvrtcProgram prog = NULL;
    struct vb_err cerr;
    char opt[64], *text = NULL;
    const char *opts[1];
    size_t len = 0;
    int rc = -1, failed;
    *image = NULL;
    *size = 0;
    if (log) *log = NULL;
    snprintf(opt, sizeof opt, "--gpu-architecture=%s", arch);
    opts[0] = opt;
    if (VB_NVRTC(err, nvrtcCreateProgram(&prog, src, name, 0, NULL, NULL))) return -1;
    vb_err_clear(&cerr);
    failed = VB_NVRTC(&cerr, nvrtcCompileProgram(prog, 1, opts));
    /* the log first: it explains a failure, and may hold warnings on success */
    if (VB_NVRTC(err, nvrtcGetProgramLogSize(prog, &len))) goto out;
    if (len > 1) {
        if (!(text = malloc(len))) {
            vb_err_set(err, VB_E_SYS, "out of memory for NVRTC's log (%zu bytes)", len);
            goto out;
        }
        if (VB_NVRTC(err, nvrtcGetProgramLog(prog, text))) goto out;
    }
    if (failed) {
        if (err) *err = cerr;
        vb_err_context(err, "compiling '%s' for %s", name, arch);
        append_log(err, text);
        goto out;
    }
    if (VB_NVRTC(err, nvrtcGetCUBINSize(prog, size))) goto out;
    if (*size == 0 || !(*image = malloc(*size))) {
        vb_err_set(err, VB_E_SYS, "no memory for a cubin of %zu bytes", *size);
        goto out;
    }
    if (VB_NVRTC(err, nvrtcGetCUBIN(prog, *image))) goto out;
    rc = 0;
out:
    if (rc) {
        free(*image);
        *image = NULL;
        *size = 0;
    }
    if (log)
        *log = text;
    else
        free(text);
    nvrtcDestroyProgram(&prog);
    return rc;
}
