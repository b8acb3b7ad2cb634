/*
 * profiler_host: the CUPTI profiler host API (metric configuration and evaluation) behind a
 * C interface. CUPTI's cupti_profiler_host.h includes <string>, so this one translation unit
 * is compiled as C++; it uses nothing of C++ beyond that header.
 */
#ifndef VB_PROFILER_HOST_H
#define VB_PROFILER_HOST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "err.h" /* a C header: its functions keep C linkage here */

struct vb_prof_host;

/* vb_prof_host_open builds the configuration image for the n metrics on chip `chip` with the
 * context's counter availability image `avail`. On success *out owns the host object and the
 * image (vb_prof_host_config), and *passes is the number of replay passes the set needs.
 * An unknown metric fails with VB_E_USAGE naming it. Returns 0 or -1 with err. */
int vb_prof_host_open(const char *chip, const uint8_t *avail, const char *const *names, size_t n,
                      struct vb_prof_host **out, size_t *passes, struct vb_err *err);

/* vb_prof_host_config returns the configuration image and its size. */
const uint8_t *vb_prof_host_config(const struct vb_prof_host *h, size_t *size);

/* vb_prof_host_eval evaluates the n metrics of range `range` of a decoded counter data image
 * into values[0..n). Returns 0 or -1 with err. */
int vb_prof_host_eval(struct vb_prof_host *h, const uint8_t *data, size_t size, size_t range,
                      const char *const *names, size_t n, double *values, struct vb_err *err);

void vb_prof_host_close(struct vb_prof_host *h);

#ifdef __cplusplus
}
#endif

#endif
