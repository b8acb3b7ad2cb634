/*
 * varbench.h: the public API. Your own CUDA (or CPU) code measured as varbench's catalog is:
 * sampled under CUPTI until its GPU time converges (cold L2 by default, warm-up, the low-clock
 * rule), each sample's H2D, kernel, D2H and memset time attributed to it, verified against a
 * reference, its floor computed from the run's measured ceilings, and everything stored in one
 * SQLite file that `varbench compare`, `history`, `report`, `export` and `fleet` read. The five
 * seed families of varbench's own catalog (variants/, one file a family) are written against this
 * header and nothing else (ci/rooms checks it): it is the API the project lives on, not a second
 * path.
 *
 * The model (nvbench's benchmark/state, in C):
 *   family   a program's benchmarks, one executable's worth ("mine"): its problems' rungs
 *   problem  one function computed: its axes (int64, float64 or string; lists or ranges), an
 *            optional CPU reference and tolerance (the correctness oracle), its output length
 *   variant  one way of computing a problem (a rung of a ladder): its timed sample (run), its
 *            flags (VB_GPU ...), the traffic and work one sample declares
 *   ops      the family's untimed hooks: setup (allocate, fill inputs), poison (NaN the outputs
 *            before the verified sample), fetch (the answer as doubles), teardown
 * A case is one variant at one point (a value of each axis). The framework owns the loop: it
 * calls setup, one verified sample, warm-ups, then timed samples until the median's 95% CI is
 * within --precision (or the budget ends), then teardown. A hook returns 0, or -1 with err set
 * (vb_err_set, VB_CUDA): the case is stored as failed with that message and the run goes on.
 *
 * Your executable: one call, VB_MAIN(&my_family) (or vb_main), gives it `list` and `run` with
 * varbench run's options (--filter, --axis, --db, --device, --quick, --cache, ...). CMake:
 * find_package(varbench) then varbench_add_benchmark(NAME SOURCES ...). C11 and C++17, usable
 * from .cu files. Every function below is safe to call from the hooks, on the runner's thread.
 */
#ifndef VARBENCH_H
#define VARBENCH_H

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define VB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define VB_PRINTF(f, a)
#endif

/* ---- Errors and exit codes ------------------------------------------------------------------
 * X(name, exit code, description): the exit codes of varbench and of every benchmark
 * executable, each with one meaning everywhere (`--help` prints this table). trace, once its
 * COMMAND has started, exits with COMMAND's own status, as nvprof did. */
#define VB_ERRORS(X)                                                                               \
    X(OK, 0, "success (compare: no regression)")                                                   \
    X(WRONG, 1,                                                                                    \
      "a finding: a case failed or gave a wrong result; compare: a regression;\n"                  \
      "diagnose: a board flagged; fleet: a task running, missing or failed")                       \
    X(USAGE, 2,                                                                                    \
      "usage error: bad command, flag or value; a run the database does not hold,\n"               \
      "or cannot give as asked (not complete; another GPU model without\n"                         \
      "--across-devices); a benchmark declared wrong")                                             \
    X(DB, 3,                                                                                       \
      "database error: missing, unreadable, corrupt, not varbench's, newer schema,\n"              \
      "or a write that failed")                                                                    \
    X(NODEV, 4, "no CUDA device: CPU references ran, GPU variants were recorded as skipped")       \
    X(CUDA, 5, "CUDA, CUPTI or driver failure outside a single case")                              \
    X(SYS, 6,                                                                                      \
      "system error: memory, a file or folder, a process, a tool (gnuplot, the\n"                  \
      "injection library)")                                                                        \
    X(INCONCLUSIVE, 7, "inconclusive (compare): a case too noisy to judge, or nothing compared")   \
    X(INTERRUPTED, 130, "interrupted: the run is stored with status 'interrupted'")

enum vb_code {
#define X(name, rc, desc) VB_E_##name,
    VB_ERRORS(X)
#undef X
        VB_E_COUNT
};

/* The one error type: filled where a call fails, given context on its way up. */
struct vb_err {
    enum vb_code code;
    char msg[1024];
    char hint[512];
};

/* vb_err_set fills err (if not NULL) and returns -1, so hooks write `return vb_err_set(...)`. */
int vb_err_set(struct vb_err *err, enum vb_code code, const char *fmt, ...) VB_PRINTF(3, 4);
/* vb_err_hint sets err's hint line (how to fix it); returns -1. */
int vb_err_hint(struct vb_err *err, const char *fmt, ...) VB_PRINTF(2, 3);
/* vb_err_context prepends "context: " to err's message; returns -1. */
int vb_err_context(struct vb_err *err, const char *fmt, ...) VB_PRINTF(2, 3);
void vb_err_clear(struct vb_err *err);

/* Checkers: 0 on success, else err filled (call text, file, line, the library's error name, a
 * hint for known codes) and -1. The runtime (cudaError_t), the driver (CUresult), NVRTC
 * (nvrtcResult) and cuFFT (cufftResult). */
int vb_err_cuda(struct vb_err *err, int rc, const char *call, const char *file, int line);
int vb_err_cu(struct vb_err *err, int rc, const char *call, const char *file, int line);
int vb_err_nvrtc(struct vb_err *err, int rc, const char *call, const char *file, int line);
int vb_err_cufft(struct vb_err *err, int rc, const char *call, const char *file, int line);
#define VB_CUDA(err, call)  vb_err_cuda((err), (int)(call), #call, __FILE__, __LINE__)
#define VB_CU(err, call)    vb_err_cu((err), (int)(call), #call, __FILE__, __LINE__)
#define VB_NVRTC(err, call) vb_err_nvrtc((err), (int)(call), #call, __FILE__, __LINE__)
#define VB_CUFFT(err, call) vb_err_cufft((err), (int)(call), #call, __FILE__, __LINE__)

/* ---- Benchmarks: axes, points, traffic, problems, variants, families ------------------------ */

#define VB_MAX_AXES        8
#define VB_MAX_AXIS_VALUES 32
#define VB_MAX_PROBLEMS    8

/* One axis of a problem. Its kind:
 *   int64   the default: values in defaults[0..ndefaults), each in [min, max];
 *   string  labels set (nvbench's string/type axis, "type=float"): a value is an index into
 *           labels[0..max], min 0; written and parsed as the label;
 *   float64 kind VB_AXIS_FLOAT: fdefaults[0..ndefaults) in [fmin, fmax].
 * Instead of a list, values may be a spec, the syntax of --axis: "1000,1e7" (a list), "2^10:2^20"
 * or "2^10:2^20:2" (powers of two, exponent step), "0:100:25" (an inclusive range, a step),
 * "0.5,1.5" (a float axis): ndefaults 0 then. --axis name=... replaces either on the command line.
 * same_as: when the axis is not given with --axis it takes the value of the axis named here
 * (nvbench's zipped axes). */
enum vb_axis_kind { VB_AXIS_INT = 0, VB_AXIS_FLOAT = 1 };
struct vb_axis {
    const char *name; /* [a-z0-9_-] */
    const char *doc;  /* one line for `list` */
    long defaults[VB_MAX_AXIS_VALUES];
    int ndefaults;
    long min, max; /* int64 and string axes; 0, 0: any value >= 0 (min 0, max LONG_MAX) */
    const char *const *labels;
    const char *same_as;
    const char *spec; /* the values as text (see above), when ndefaults is 0 */
    enum vb_axis_kind kind;
    double fdefaults[VB_MAX_AXIS_VALUES]; /* a float axis's values */
    double fmin, fmax;                    /* a float axis's range; 0, 0: any finite value */
};

/* The axis values of one case, in its problem's axis order (a float axis's double is held in
 * its 64 bits), and the problem they belong to (set by the framework; NULL in a point a hook
 * makes itself). Read them by name with vb_axis_int, vb_axis_float, vb_axis_string. */
struct vb_point {
    long v[VB_MAX_AXES];
    const struct vb_problem *problem;
};

/* What one sample moves and computes: the declaration the floor, the bound and the rates come
 * from, and that the gpu tests hold against CUPTI's copy records.
 *   h2d/d2h       bytes and copies between host and device (CUPTI's memcpy records must agree)
 *   mapped_*      bytes its kernels read from (in) and write to (out) mapped host memory over
 *                 PCIe, with no copy (a zero-copy rung)
 *   gmem_*        global-memory bytes its kernels must read and write at least (nvbench's
 *                 add_global_memory_reads/writes): the DRAM floor and the GB/s of the kernel
 *   elements      items processed (nvbench's add_element_count): items per second
 *   flops         floating-point operations: FLOP/s
 * Undeclared: 0. */
struct vb_traffic {
    uint64_t h2d_bytes, d2h_bytes;
    int h2d_count, d2h_count;
    uint64_t mapped_in_bytes, mapped_out_bytes;
    uint64_t gmem_read_bytes, gmem_write_bytes;
    double elements, flops;
};

enum vb_variant_flags {
    VB_GPU = 1 << 0,       /* needs a CUDA device; skipped (recorded) without one */
    VB_REFERENCE = 1 << 1, /* the problem's CPU reference, timed like a variant (at most one) */
    /* wrong on purpose: still verified and stored as wrong-result, but not a failure of the
     * run; if it ever verifies, that is reported */
    VB_EXPECT_WRONG = 1 << 2,
    /* the answer stays in device memory: run is the device work only, and fetch copies the
     * answer to the host, outside every sample (GPU variants only) */
    VB_RESIDENT = 1 << 3,
    /* launches a library's kernels (cuFFT, cuBLAS): its metrics pass opens a profiling session
     * of its own */
    VB_LIBRARY = 1 << 4,
    /* replays its sample as one CUDA graph: the crossover is also shown without such rungs */
    VB_GRAPH = 1 << 5,
};

/* One function a family computes. Every variant points at the problem it computes. */
struct vb_problem {
    const char *name;    /* [a-z0-9_-], unique within the family */
    const char *summary; /* one line for `list` */
    const struct vb_axis *axes;
    int naxes;                                   /* 1..VB_MAX_AXES */
    size_t (*out_len)(const struct vb_point *p); /* output elements; needed with reference */
    /* reference (optional) computes the answer in double precision into out[0..out_len(p));
     * without it the cases are timed, not verified (max err shown as -). 0, or -1 with err: the
     * point's cases fail with that message. */
    int (*reference)(const struct vb_point *p, double *out, struct vb_err *err);
    /* A variant passes when |got - ref| <= atol + rtol * |ref| for every element. */
    double atol, rtol;
    /* kernel_bytes (optional): the bytes one sample's kernels must read and write at least,
     * for every variant of the problem (a variant's traffic gmem_* bytes take precedence). */
    uint64_t (*kernel_bytes)(const struct vb_point *p);
    /* reference_part (optional): elements [lo, hi) of an element-wise reference, so that the
     * oracle is computed on all cores. */
    void (*reference_part)(const struct vb_point *p, double *out, size_t lo, size_t hi);
};

/* The untimed hooks a family's variants share; the tag of the variant is handed to setup. Only
 * setup may be left NULL together with teardown (a state of NULL); poison and fetch are needed
 * by problems with a reference. */
struct vb_variant_ops {
    /* setup allocates the case's state (buffers, streams, inputs) for variant `tag` at point p
     * on the current device. 0, or -1 with err (vb_skip: the case is skipped, not failed). */
    int (*setup)(int tag, const struct vb_point *p, void **state, struct vb_err *err);
    /* poison fills every output buffer (host and device) with NaN, so that an element the
     * variant does not write fails verification. */
    int (*poison)(void *state, struct vb_err *err);
    /* fetch copies the answer, converted to double, into out[0..out_len); a VB_RESIDENT
     * variant copies it from the device first (NaN everywhere if that copy fails). */
    void (*fetch)(void *state, double *out);
    void (*teardown)(void *state); /* frees what setup made, also after a failed setup */
};

/* One variant, a row of its family's table. */
struct vb_variant {
    const char *name;    /* [a-z0-9_-], unique within the family; the case is family/name */
    const char *summary; /* one line for `list` */
    unsigned flags;      /* enum vb_variant_flags */
    int tag;             /* the family's own code for this variant, handed to setup */
    /* run is one timed sample: transfers included, it returns when the answer is in host
     * memory (synchronised); a VB_RESIDENT variant's answer is complete in device memory. It
     * marks its phases with vb_nvtx_phase_begin/end or the vb_phase_* helpers. */
    int (*run)(void *state, struct vb_err *err);
    /* traffic states what one sample moves and computes (needed for a GPU variant). */
    void (*traffic)(const struct vb_point *p, struct vb_traffic *t);
    const struct vb_problem *problem; /* never NULL */
};

struct vb_family {
    const char *name;    /* [a-z0-9_-], unique among the program's families */
    const char *summary; /* one line for `list` */
    const char *seed;    /* optional: the document the ladder comes from */
    const struct vb_variant_ops *ops;
    const struct vb_variant *variants;
    int nvariants;
};

/* vb_axis_int, vb_axis_float, vb_axis_string: the value of p's axis `name` (an int64 axis's
 * integer, a float axis's double (vb_axis_float also reads an int64 axis, as a double), a string
 * axis's label). An axis p's problem lacks, or of another kind, is a mistake in the benchmark:
 * the call aborts with a message naming it. */
long vb_axis_int(const struct vb_point *p, const char *name);
double vb_axis_float(const struct vb_point *p, const char *name);
const char *vb_axis_string(const struct vb_point *p, const char *name);

/* vb_summary stores a named number with the current case (nvbench's add_summary): `name`
 * [A-Za-z0-9_.-], not one of the cases table's columns or export's cells; unit free text or
 * NULL. Call it from any hook of the case; a second call with one name replaces the value. At
 * most 16 a case. A bad name or a 17th name fails the case with a message saying so. */
void vb_summary(const char *name, double value, const char *unit);

/* vb_skip, from setup: the case cannot run here (a too-small GPU, a missing feature). Fills err
 * with the reason and returns -1: `return vb_skip(err, "needs %d GiB", n);` stores the case as
 * skipped with that reason, not failed. */
int vb_skip(struct vb_err *err, const char *fmt, ...) VB_PRINTF(2, 3);

/* ---- A sample's phases ----------------------------------------------------------------------
 * NVTX ranges that attribute a sample's CUPTI records to its phases. Ranges nest as push/pop;
 * every begin needs its end on the same thread; the helpers below end theirs also on error. */
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

void vb_nvtx_phase_begin(enum vb_phase p);
void vb_nvtx_phase_end(void);

/* vb_phase_wait checks `launched` (a launcher's result, or cudaSuccess after copies), waits
 * for stream s and ends the current phase. 0 or -1 with err, which names the call as written
 * and where ("cudaMemcpy(h, d, n, kind): invalid argument (cudaErrorInvalidValue) [mine.c:42]"). */
int vb_phase_wait_at(cudaError_t launched, cudaStream_t s, struct vb_err *err, const char *call,
                     const char *file, int line);
#define vb_phase_wait(launched, s, err)                                                            \
    vb_phase_wait_at((launched), (s), (err), #launched, __FILE__, __LINE__)
/* vb_phase_copy runs one cudaMemcpyAsync of `bytes` on s inside phase ph and waits for it. */
int vb_phase_copy(enum vb_phase ph, void *dst, const void *src, size_t bytes,
                  enum cudaMemcpyKind kind, cudaStream_t s, struct vb_err *err);

/* What a CUDA graph holds: issue(state, err) queues the work on its stream, unwaited; 0, or -1
 * with err. The same function serves the stream path (vb_phase_issue). */
typedef int (*vb_issue_fn)(void *state, struct vb_err *err);
/* vb_phase_issue runs issue(state) inside phase ph and waits for s once. */
int vb_phase_issue(enum vb_phase ph, vb_issue_fn issue, void *state, cudaStream_t s,
                   struct vb_err *err);
/* vb_graph_capture captures what issue(state) queues on s and instantiates it into *exec. 0,
 * or -1 with err (*exec NULL; s has left capture mode). Capture is thread-local. */
int vb_graph_capture(cudaStream_t s, vb_issue_fn issue, void *state, cudaGraphExec_t *exec,
                     struct vb_err *err);
/* vb_graph_rung is vb_graph_capture for a graph rung: under VARBENCH_TEST_PAGEABLE its host
 * arrays are pageable, whose copies a graph may not hold; a failed capture then leaves *exec
 * NULL and returns 0, and vb_phase_replay issues the same calls on the stream. */
int vb_graph_rung(cudaStream_t s, vb_issue_fn issue, void *state, cudaGraphExec_t *exec,
                  struct vb_err *err);
/* vb_phase_replay launches exec on s inside the graph phase and waits for it; exec NULL: the
 * same calls issued on s, one wait. */
int vb_phase_replay(cudaGraphExec_t exec, vb_issue_fn issue, void *state, cudaStream_t s,
                    struct vb_err *err);

/* Setup phases: work of a setup worth reporting on its own (an NVRTC compile), timed on the
 * host clock and shown under the case. Not nested. */
void vb_phase_setup_begin(enum vb_phase ph);
void vb_phase_setup_end(void);

/* ---- Host memory and inputs ----------------------------------------------------------------- */

/* vb_data_uniform: a value in [lo, hi) for element i of stream seed (splitmix64): inputs that
 * are never zeros, the same for the reference and every variant at any size. */
double vb_data_uniform(uint64_t seed, uint64_t i, double lo, double hi);
/* vb_host_alloc mallocs a pageable buffer and touches every page (no first-touch fault inside a
 * sample). NULL with err when out of memory. Free with free(). */
void *vb_host_alloc(size_t bytes, struct vb_err *err);
/* vb_host_poison sets every byte of p[0..bytes) to 0xff (all ones: NaN as a float or a double),
 * on all cores: a poison hook's outputs. */
void vb_host_poison(void *p, size_t bytes);
/* vb_host_widen sets out[i] = in[i] for i < n, on all cores: a fetch hook's float answer into
 * the doubles it hands back. */
void vb_host_widen(double *out, const float *in, size_t n);
/* vb_pinned_alloc: page-locked host memory (pageable under VARBENCH_TEST_PAGEABLE=1, the
 * regression the gates must catch) into *p; 0, or -1 with err. vb_pinned_free frees it (NULL
 * allowed); vb_pinned_pageable says whether the switch is on. */
int vb_pinned_alloc(void **p, size_t bytes, struct vb_err *err);
void vb_pinned_free(void *p);
int vb_pinned_pageable(void);
/* vb_mapped_alloc: page-locked host memory mapped into the current device (*dev its device
 * pointer), for zero-copy kernels. 0, or -1 with err. vb_mapped_free frees it (NULL allowed). */
int vb_mapped_alloc(void **p, void **dev, size_t bytes, struct vb_err *err);
void vb_mapped_free(void *p);

/* vb_parallel_for calls fn(lo, hi, ctx, slot) on disjoint [lo, hi) covering [0, n), on up to
 * VB_PARALLEL_MAX threads (slot: which part); returns the parts used (>= 1). For the untimed
 * host work of a case (inputs, references). */
#define VB_PARALLEL_MAX 32
int vb_parallel_for(size_t n, void (*fn)(size_t lo, size_t hi, void *ctx, int slot), void *ctx);

/* ---- Run-time compilation and the driver API ------------------------------------------------ */

/* vb_rtc_arch writes "sm_<major><minor>" of CUDA device `device` into arch when this NVRTC can
 * compile for it; 0, or -1 with err. */
int vb_rtc_arch(int device, char *arch, size_t n, struct vb_err *err);
/* vb_rtc_compile compiles src, a translation unit called name, for arch into a cubin (*image,
 * malloc'd, *size bytes). -1 with err (and NVRTC's log) on failure; *log (when log is not
 * NULL) the whole log, malloc'd or NULL. NVRTC is loaded at the first call. */
int vb_rtc_compile(const char *src, const char *name, const char *arch, void **image, size_t *size,
                   char **log, struct vb_err *err);

/* The driver API functions, found at run time (libcuda is never linked), with the ABI of CUDA
 * 12.0; they work in the device's primary context once the runtime made it current. */
struct vb_drv {
    PFN_cuModuleLoadData_v2000 ModuleLoadData;
    PFN_cuModuleGetFunction_v2000 ModuleGetFunction;
    PFN_cuModuleUnload_v2000 ModuleUnload;
    PFN_cuLaunchKernel_v4000 LaunchKernel;
    PFN_cuMemAlloc_v3020 MemAlloc;
    PFN_cuMemFree_v3020 MemFree;
    PFN_cuMemcpyHtoDAsync_v3020 MemcpyHtoDAsync;
    PFN_cuMemcpyDtoHAsync_v3020 MemcpyDtoHAsync;
    PFN_cuMemsetD32Async_v3020 MemsetD32Async;
    PFN_cuStreamCreate_v2000 StreamCreate;
    PFN_cuStreamDestroy_v4000 StreamDestroy;
    PFN_cuStreamSynchronize_v2000 StreamSynchronize;
};
/* vb_drv_get: the table, looked up on the first call; NULL with err (VB_E_NODEV without a
 * driver). */
const struct vb_drv *vb_drv_get(struct vb_err *err);

/* ---- The program ---------------------------------------------------------------------------- */

/* vb_main is a benchmark executable's main: `PROG list`, `PROG run [run's options]`, `PROG
 * --help`, over families (NULL-terminated). It checks the families first (names, axes, hooks,
 * duplicates: a mistake is exit 2 naming it), writes the same database as `varbench run` (the
 * cases as family/variant) and returns the exit code the table above documents. Call it once. */
int vb_main(int argc, char **argv, const struct vb_family *const *families);

/* VB_MAIN(&fam1, &fam2, ...) defines main() for the families. */
#define VB_MAIN(...)                                                                               \
    int main(int argc, char **argv)                                                                \
    {                                                                                              \
        static const struct vb_family *const vb_main_families_[] = {__VA_ARGS__, NULL};            \
        return vb_main(argc, argv, vb_main_families_);                                             \
    }

#ifdef __cplusplus
}
#endif

#endif
