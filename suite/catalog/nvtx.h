/*
 * nvtx: NVTX ranges around the phases of a sample, routed to CUPTI. NVTX reaches CUPTI
 * only when NVTX_INJECTION64_PATH names libcupti.so before the first NVTX call, so
 * vb_nvtx_setup must run first thing in main(). Without CUPTI the calls are no-ops.
 */
#ifndef VB_NVTX_H
#define VB_NVTX_H

#include "varbench.h" /* the phases (VB_PHASES), vb_nvtx_phase_begin and _end */

/* vb_nvtx_setup points NVTX_INJECTION64_PATH at the loaded libcupti unless the user set it.
 * Returns the path used (static storage) or NULL when it could not be found. */
const char *vb_nvtx_setup(void);
/* vb_nvtx_user_injection returns NVTX_INJECTION64_PATH as it was before vb_nvtx_setup (the
 * user's own NVTX tool), or NULL when it was not set. */
const char *vb_nvtx_user_injection(void);
const char *vb_phase_name(enum vb_phase p);

/* Ranges nest as push/pop; every push needs its pop on the same thread. */
void vb_nvtx_push(const char *text);
void vb_nvtx_pop(void);

#endif
