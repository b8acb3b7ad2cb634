/*
 * err: the one error type of varbench. A struct vb_err is filled where a call fails
 * (library, call text, file, line, the library's own error name) and gains context on
 * its way up ("variant 'mesh/host-mesh': cudaMemcpy: out of memory"). Library code never
 * prints or exits; only main() prints the message and its hint and picks the exit code.
 */
#ifndef VB_ERR_H
#define VB_ERR_H

#include <stddef.h>

/* X(name, exit code, description): the exit codes of every command, each with one meaning
 * everywhere (`varbench --help` and every command's --help print this table; the test
 * cpu.cli.exit-codes holds each command to it). The one exception is documented by trace:
 * once the traced COMMAND has started, trace exits with COMMAND's own status, as nvprof did. */
#define VB_ERRORS(X)                                                                               \
    X(OK, 0, "success (compare: no regression)")                                                   \
    X(WRONG, 1,                                                                                    \
      "a finding: a case failed or gave a wrong result; compare: a regression;\n"                  \
      "diagnose: a board flagged; fleet: a task running, missing or failed")                       \
    X(USAGE, 2,                                                                                    \
      "usage error: bad command, flag or value; a run the database does not hold,\n"               \
      "or cannot give as asked (not complete; another GPU model without\n"                         \
      "--across-devices)")                                                                         \
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

struct vb_err {
    enum vb_code code;
    char msg[1024];
    char hint[512];
};

/* vb_code_exit returns the process exit status documented for code. */
int vb_code_exit(enum vb_code code);
const char *vb_code_desc(enum vb_code code);

/* vb_err_set fills err (if not NULL) and returns -1, so callers write `return vb_err_set(...)`. */
int vb_err_set(struct vb_err *err, enum vb_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* vb_err_hint sets err's hint line; returns -1. */
int vb_err_hint(struct vb_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* vb_err_context prepends "context: " to err's message; returns -1. */
int vb_err_context(struct vb_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vb_err_clear(struct vb_err *err);
/* vb_err_line writes err as one line into buf (n bytes): "message (hint: hint)", or the message
 * alone without a hint; what a stored reason or a one-line warning holds. */
void vb_err_line(const struct vb_err *err, char *buf, size_t n);

/* Library checkers: return 0 on success, else fill err (with a hint for known codes), return -1. */
int vb_err_cuda(struct vb_err *err, int rc, const char *call, const char *file, int line);
int vb_err_cupti(struct vb_err *err, int rc, const char *call, const char *file, int line);
/* The driver API (CUresult; names through the driver's cuGetErrorName, found at run time since
 * libcuda is never linked), NVRTC (nvrtcResult) and cuFFT (cufftResult). */
int vb_err_cu(struct vb_err *err, int rc, const char *call, const char *file, int line);
int vb_err_nvrtc(struct vb_err *err, int rc, const char *call, const char *file, int line);
int vb_err_cufft(struct vb_err *err, int rc, const char *call, const char *file, int line);

#define VB_CUDA(err, call)  vb_err_cuda((err), (int)(call), #call, __FILE__, __LINE__)
#define VB_CUPTI(err, call) vb_err_cupti((err), (int)(call), #call, __FILE__, __LINE__)
#define VB_CU(err, call)    vb_err_cu((err), (int)(call), #call, __FILE__, __LINE__)
#define VB_NVRTC(err, call) vb_err_nvrtc((err), (int)(call), #call, __FILE__, __LINE__)
#define VB_CUFFT(err, call) vb_err_cufft((err), (int)(call), #call, __FILE__, __LINE__)

#endif
