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
#include "varbench.h"

/* vb_rtc_arch_for writes "sm_<major><minor>" (e.g. "sm_90") into arch when this NVRTC can compile
 * for that compute capability. Returns 0, or -1 with err (and the supported list) when not. */
int vb_rtc_arch_for(int major, int minor, char *arch, size_t n, struct vb_err *err);

/* vb_rtc_arch and vb_rtc_compile are public (varbench.h). */

#endif
