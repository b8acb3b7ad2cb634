/*
 * inject_int: private to the injection library libvarbench_inject.so (inject.c, its entry points
 * and the case it writes; inject_exit.c, how a process's end is caught; inject_metrics.c, the
 * counters of --metrics and, through the same subscriber, the kernels' code hashes). Nothing here
 * is seen by the program the library is loaded into: the library exports InitializeInjection and
 * InitializeInjectionNvtx2 only (inject.map).
 */
#ifndef VB_INJECT_INT_H
#define VB_INJECT_INT_H

#include <cupti.h>
#include <sys/types.h>

#include "result.h"

struct vb_store;

/* ---- inject.c ---- */

/* vb_inject_finish writes the process's case, once, from the process that set the injection
 * up; `how` says how the traced window ended ("exit", "signal 2", ...). Any thread, any time:
 * it takes the injection's lock. */
void vb_inject_finish(const char *how);

/* ---- inject_exit.c: the ways a process ends, each made to call finish ---- */

/* vb_inject_catch_exits registers the atexit handler and Python's exit hook (the first time in
 * an address space: a fork inherits them) and takes over SIGINT, SIGTERM and SIGHUP where the
 * program left them at their default action (again in a forked child, whose helper thread did
 * not survive the fork); each ending then calls finish (vb_inject_finish: a parameter, so that
 * inject.c calls inject_exit.c and not back). pid is the process the injection writes for. */
void vb_inject_catch_exits(pid_t pid, void (*finish)(const char *how));
/* vb_inject_exit_late registers the atexit handler once more, from where it runs before the CUDA
 * runtime's own teardown (the first context's creation, after a statically linked runtime
 * registered its handler): a process traced with --metrics then ends its counters and takes its
 * records while its context lives (at the handler's first place it died of SIGSEGV in CUPTI's
 * own thread on an H200, the records flushed after the runtime's teardown). Once a process. */
void vb_inject_exit_late(void);

/* ---- inject_metrics.c: the counters of varbench trace --metrics ---- */

/* vb_inject_metrics_begin parses the resolved metric names and creates the profiler; 0, or -1
 * (said on stderr, and the case will say it). */
int vb_inject_metrics_begin(const char *list);
/* vb_inject_metrics_on_callback: the CUPTI callback of the injection's subscriber (context
 * creation and destruction start and end the counters' session; each module loaded adds its
 * kernels' SASS hashes, code_id.h). */
void CUPTIAPI vb_inject_metrics_on_callback(void *userdata, CUpti_CallbackDomain domain,
                                            CUpti_CallbackId cbid, const void *data);
/* vb_inject_metrics_enable turns on sub's callbacks (sub calls vb_inject_metrics_on_callback):
 * the context events and the module loads; what CUPTI refuses is said on stderr (no counters,
 * or no code hashes), and the process is traced all the same. */
void vb_inject_metrics_enable(CUpti_SubscriberHandle sub);
/* vb_inject_code_store stores the hashes of the kernels the process loaded (code_id.h) with
 * run_id in s, as varbench run stores its own (store.h's vb_store_kernel_code); what goes wrong
 * is said on stderr. */
void vb_inject_code_store(struct vb_store *s, int64_t run_id);
/* vb_inject_metrics_end ends the counters' collection (the range profiler's session on the
 * profiled context) and keeps its values: before the activity records are flushed at the
 * process's end, since a flush with the session still open crashed CUPTI's own thread (SIGSEGV
 * in libcupti, an H200 with CUDA 13.0: `trace --metrics` of a CUDA C program at its exit).
 * Again: nothing. */
void vb_inject_metrics_end(void);
/* vb_inject_metrics_take hands the values and their outcome to the process's case r. */
void vb_inject_metrics_take(struct vb_case_result *r);

#endif
