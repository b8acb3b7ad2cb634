/*
 * rtc: run-time compilation of CUDA C++ source with NVRTC (seed 004) into a cubin for one
 * real architecture, the device's own, so the driver has no PTX left to JIT when it loads
 * the module. A failed compilation carries NVRTC's log in the error. Needs no GPU: the cpu
 * tests compile for sm_90 on a machine without a driver.
 */
#ifndef VB_RTC_H
#define VB_RTC_H

#include <stddef.h>

#include "err.h"

/* vb_rtc_arch_for writes "sm_<major><minor>" (e.g. "sm_90") into arch when this NVRTC can compile
 * for that compute capability. Returns 0, or -1 with err (and the supported list) when not. */
int vb_rtc_arch_for(int major, int minor, char *arch, size_t n, struct vb_err *err);

/* vb_rtc_arch: the same for CUDA device `device`'s compute capability. */
int vb_rtc_arch(int device, char *arch, size_t n, struct vb_err *err);

/* vb_rtc_compile compiles src, a translation unit called name ("saxpy.cu"), for arch ("sm_90")
 * and sets *image to the cubin (malloc'd; the caller frees it) of *size bytes. On failure returns
 * -1 with err; for a compilation error err->msg ends with the start of NVRTC's log (newlines
 * shown as " / "). When log is not NULL, *log receives the whole log on success and failure
 * alike (malloc'd, the caller frees it; NULL when NVRTC wrote none). */
int vb_rtc_compile(const char *src, const char *name, const char *arch, void **image, size_t *size,
                   char **log, struct vb_err *err);

#endif
