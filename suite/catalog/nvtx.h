/*
 * nvtx: NVTX ranges around the phases of a sample, routed to CUPTI. NVTX reaches CUPTI
 * only when NVTX_INJECTION64_PATH names libcupti.so before the first NVTX call, so
 * vb_nvtx_setup must run first thing in main(). Without CUPTI the calls are no-ops.
 */
#ifndef VB_NVTX_H
#define VB_NVTX_H

/* The phases of one sample (and of a case's setup), named as they appear in NVTX_EVENTS. */
#define VB_PHASES(X)                                                                               \
    X(HOST_BUILD, "host mesh build")                                                               \
    X(H2D, "H2D")                                                                                  \
    X(KERNEL, "kernel")                                                                            \
    X(D2H, "D2H")                                                                                  \
    X(HOST_POST, "host post-processing")                                                           \
    X(OVERLAP, "kernel+D2H overlapped")                                                            \
    X(CPU, "cpu compute")                                                                          \
    X(GRAPH, "graph replay")      /* a sample's copies and kernels as one CUDA graph launch */     \
    X(ONE_WAIT, "H2D+kernel+D2H") /* a sample's copies and kernels issued, then one wait */        \
    X(COMPILE, "nvrtc compile")   /* in setup, outside every sample */                             \
    X(MODULE_LOAD, "module load") /* in setup: cuModuleLoadData of the compiled cubin */

enum vb_phase {
#define X(id, text) VB_PHASE_##id,
    VB_PHASES(X)
#undef X
        VB_PHASE_COUNT
};

/* vb_nvtx_setup points NVTX_INJECTION64_PATH at the loaded libcupti unless the user set it.
 * Returns the path used (static storage) or NULL when it could not be found. */
const char *vb_nvtx_setup(void);
/* vb_nvtx_user_injection returns NVTX_INJECTION64_PATH as it was before vb_nvtx_setup (the
 * user's own NVTX tool), or NULL when it was not set. */
const char *vb_nvtx_user_injection(void);
const char *vb_phase_name(enum vb_phase p);

/* Phase ranges nest as push/pop; every begin needs its end on the same thread. */
void vb_nvtx_phase_begin(enum vb_phase p);
void vb_nvtx_phase_end(void);
void vb_nvtx_push(const char *text);
void vb_nvtx_pop(void);

#endif
