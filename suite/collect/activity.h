/*
 * activity: the CUPTI activity collector. While started it receives kernel
 * (CONCURRENT_KERNEL, so streams still overlap), memcpy (peer copies too: MEMCPY2), memset and
 * NVTX marker records
 * (and, for `varbench trace`, CUDA API calls and device descriptions) in 8 MiB buffers, copies
 * them into plain arrays, and hands them over at each flush.
 * Workload: a case of a few thousand samples, each a handful of records, or a traced program's
 * whole life (up to millions of API calls); records arrive on CUPTI's own thread, so the
 * arrays are guarded by a mutex.
 */
#ifndef VB_ACTIVITY_H
#define VB_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

struct vb_kernel_rec {
    uint64_t start, end;
    uint32_t device, context, stream, correlation;
    uint32_t graph;      /* the CUDA graph that launched it (0: none) */
    uint64_t graph_node; /* its node in that graph (0: none) */
    int32_t grid[3], block[3];
    int32_t static_smem, dynamic_smem;
    uint16_t registers;
    char *name; /* mangled name as CUPTI reports it; owned */
};

#define VB_COPY_HTOD    1  /* CUPTI_ACTIVITY_MEMCPY_KIND_HTOD */
#define VB_COPY_DTOH    2  /* CUPTI_ACTIVITY_MEMCPY_KIND_DTOH */
#define VB_COPY_PTOP    10 /* CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: between two GPUs */
#define VB_MEM_PAGEABLE 1  /* CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: a copy's src_kind, dst_kind */

struct vb_copy_rec {
    uint64_t start, end, bytes;
    uint32_t device, context, stream, correlation;
    uint32_t graph;                        /* the CUDA graph that launched it (0: none) */
    uint64_t graph_node;                   /* its node in that graph (0: none) */
    uint8_t copy_kind, src_kind, dst_kind; /* CUpti_ActivityMemcpyKind / MemoryKind values */
    int32_t src_device, dst_device; /* a peer copy's (copy_kind PtoP, 10) two devices; else -1 */
};

struct vb_memset_rec {
    uint64_t start, end, bytes;
    uint32_t device, context, stream, correlation, value;
    uint32_t graph;      /* the CUDA graph that launched it (0: none) */
    uint64_t graph_node; /* its node in that graph (0: none) */
    uint16_t memory_kind;
};

/* NVTX event types, numbered as the Nsight Systems export's NVTX_EVENTS.eventType */
enum vb_nvtx_type {
    VB_NVTX_MARK = 34,     /* an instant: start == end */
    VB_NVTX_PUSHPOP = 59,  /* nvtxRangePush/Pop: nests on its thread */
    VB_NVTX_STARTEND = 60, /* nvtxRangeStart/End: may end on another thread */
};

struct vb_range_rec {
    uint64_t start, end; /* end == 0: the range had not ended at the flush */
    uint32_t id;
    uint32_t process, thread; /* the thread that opened it (0 when CUPTI did not say) */
    uint32_t end_thread;      /* the thread that ended it (0: unknown or the same) */
    uint32_t category, color; /* NVTX's category and ARGB color (0: none) */
    uint8_t type;             /* enum vb_nvtx_type */
    char *text;               /* owned */
    char *domain;             /* owned; NULL: NVTX's default domain */
};

/* One CUDA API call (runtime or driver), as `varbench trace` records them. */
struct vb_api_rec {
    uint64_t start, end;
    uint32_t cbid, correlation, process, thread;
    int32_t ret;    /* the call's return code (cudaError_t or CUresult) */
    uint8_t driver; /* 0 runtime API, 1 driver API */
    char *name;     /* "cudaMemcpy", "cuLaunchKernel"; owned */
};

/* A GPU as CUPTI describes it (CUPTI_ACTIVITY_KIND_DEVICE): what a traced program's run
 * records of its devices, without calling the CUDA runtime. */
struct vb_device_rec {
    uint32_t id, cc_major, cc_minor, sm_count, clock_khz;
    uint64_t global_mem, l2_bytes;
    unsigned char uuid[16];
    char *name; /* owned */
};

/* One of CUPTI's own overhead records (CUPTI_ACTIVITY_KIND_OVERHEAD): what CUPTI did on the
 * program's time (instrumenting a module, flushing a buffer, ...). */
struct vb_overhead_rec {
    uint64_t start, end;
    uint32_t kind; /* CUpti_ActivityOverheadKind */
};

/* Records collected since the last flush; the caller owns it after vb_activity_take. */
struct vb_activity {
    struct vb_kernel_rec *kernels;
    struct vb_copy_rec *copies;
    struct vb_memset_rec *memsets;
    struct vb_range_rec *ranges;
    struct vb_api_rec *apis;
    struct vb_device_rec *devices;
    size_t nkernels, ncopies, nmemsets, nranges, napis, ndevices;
    size_t cap_kernels, cap_copies, cap_memsets, cap_ranges, cap_apis, cap_devices;
    size_t dropped; /* records CUPTI dropped, or that could not be stored (out of memory) */
    /* CUPTI's own cost (CUPTI_ACTIVITY_KIND_OVERHEAD, with VB_ACTIVITY_OVERHEAD): each record,
     * and their summed duration */
    struct vb_overhead_rec *overheads;
    size_t noverheads, cap_overheads;
    uint64_t overhead_ns;
};

/* vb_activity_overhead_name names an overhead kind ("instrumentation", "buffer flush", ...). */
const char *vb_activity_overhead_name(uint32_t kind);

/* What vb_activity_start_with collects besides kernels, copies, memsets and NVTX ranges. */
enum vb_activity_extra {
    VB_ACTIVITY_API = 1 << 0,        /* every CUDA runtime and driver API call (varbench trace) */
    VB_ACTIVITY_OVERHEAD = 1 << 1,   /* CUPTI's overhead records, summed (varbench trace) */
    VB_ACTIVITY_NO_KERNELS = 1 << 2, /* API calls only: no kernel, copy or memset records */
    VB_ACTIVITY_NO_MARKERS = 1 << 3, /* no NVTX through CUPTI (varbench trace records its own) */
    /* kernels as CUPTI_ACTIVITY_KIND_KERNEL (serialized), not CONCURRENT_KERNEL: what trace
     * --metrics needs. With the range profiler's kernel replay in the process, concurrent kernel
     * records beside copy or memset records crashed CUPTI's own thread at the flush (SIGSEGV or
     * SIGABRT in libcupti.so.13, CUDA 13.0, H200; KERNEL, or no copy and memset kinds, ran
     * clean); replay serializes the kernels anyway */
    VB_ACTIVITY_SERIAL_KERNELS = 1 << 4,
};

/* vb_activity_start registers the buffer callbacks and enables the activity kinds of `varbench
 * run` (CONCURRENT_KERNEL, MEMCPY, MEMSET, MARKER). Returns 0, or -1 with err (and a hint, e.g.
 * when another CUPTI client is attached); the caller then times with host clocks only. */
int vb_activity_start(struct vb_err *err);
/* vb_activity_start_with does the same and also enables the kinds of `extra` (vb_activity_extra
 * flags). On failure nothing stays enabled. */
int vb_activity_start_with(unsigned extra, struct vb_err *err);
int vb_activity_active(void);

/* vb_activity_dump_devices asks CUPTI for one device record per GPU it knows (delivered at the
 * next flush); device records otherwise come only when CUPTI attaches before CUDA starts. */
int vb_activity_dump_devices(struct vb_err *err);

/* vb_activity_take flushes CUPTI's buffers and moves every record collected so far into *out
 * (which must be zeroed or freed before). Returns 0 or -1 with err. */
int vb_activity_take(struct vb_activity *out, struct vb_err *err);

/* vb_activity_take_keep_open is vb_activity_take, except that NVTX ranges still open stay
 * behind, so their END pairs with them at a later take (a range around several takes). */
int vb_activity_take_keep_open(struct vb_activity *out, struct vb_err *err);

/* vb_activity_append moves every record of src to the end of dst and frees src; records that
 * do not fit in memory are counted as dropped. */
void vb_activity_append(struct vb_activity *dst, struct vb_activity *src);

/* vb_activity_stop flushes and disables collection; records still buffered are discarded. */
void vb_activity_stop(void);

/* vb_activity_set_clock says that CUPTI now stamps records with `clock` (a timestamp callback a
 * CUPTI client of the program registered), read as clock_then when CLOCK_REALTIME read
 * real_then; records taken from then on are converted back to CLOCK_REALTIME ns. */
void vb_activity_set_clock(uint64_t (*clock)(void), uint64_t clock_then, uint64_t real_then);

/* vb_activity_buffers reads how many activity buffers CUPTI asked this collector for and how many
 * it gave back. After a forced flush the two are equal, unless another CUPTI client replaced the
 * collector's callbacks: CUPTI then hands the buffers it held to that client. */
void vb_activity_buffers(unsigned long *requested, unsigned long *completed);

/* vb_activity_now returns a timestamp on the clock of the records (CLOCK_REALTIME ns). */
uint64_t vb_activity_now(void);

/* vb_activity_version returns CUPTI's API version, or 0. */
uint32_t vb_activity_version(void);

/* vb_range_free frees what r owns (its text and domain), not r. */
void vb_range_free(struct vb_range_rec *r);

void vb_activity_free(struct vb_activity *a);

#endif
