/*
 * profiler: the metrics pass. Hardware counters for every kernel launched in a profiled
 * workload, through CUPTI's range profiler in auto-range mode (one range per kernel launch),
 * with one of two replays:
 * - kernel replay (CUPTI replays each launch as many times as the metric set needs passes,
 *   saving and restoring the memory it writes): any metric, the SASS ones included, but the
 *   restores before passes 2.. leave L2 dirty, so DRAM counters there are not cold;
 * - user replay (the caller runs the whole workload once per pass, vb_profiler_collect): every
 *   pass can start after an L2 flush, as ncu --cache-control all does; SASS metrics read 0.
 * Timing and metrics never share a sample: under the profiler, activity records carry no
 * timestamps and the replays would inflate every time.
 * Workload: one profiled sample per case, a few to a few hundred launches each.
 */
#ifndef VB_PROFILER_H
#define VB_PROFILER_H

#include <cuda.h>
#include <stddef.h>

#include "err.h"
#include "metric_set.h"
#include "result.h"

struct vb_profiler;

/* vb_profiler_create makes a kernel-replay profiler for the metric set (copied); _replay with
 * user_replay != 0 a user-replay one. Nothing touches the GPU yet. NULL when out of memory. */
struct vb_profiler *vb_profiler_create(const struct vb_metric_set *set);
struct vb_profiler *vb_profiler_create_replay(const struct vb_metric_set *set, int user_replay);

/* vb_profiler_prepare readies the profiler for CUDA device `device` and its context ctx, once
 * per device: checks the device is supported, reads counter availability, and builds the
 * configuration. Returns 0; or -1 with err: VB_E_USAGE for a metric the GPU does not know,
 * otherwise the reason counters are unavailable here (no permission, another CUPTI client,
 * an unsupported GPU) with a hint. A failure other than a usage error is remembered and
 * returned again for that device without retrying. */
int vb_profiler_prepare(struct vb_profiler *p, int device, CUcontext ctx, struct vb_err *err);

/* vb_profiler_begin starts collecting (kernel replay only) on device `device`, context ctx
 * (prepared before) for at most max_launches kernel launches (more are dropped, and
 * vb_profiler_end says so). For a program the caller does not control (varbench trace). */
int vb_profiler_begin(struct vb_profiler *p, int device, CUcontext ctx, size_t max_launches,
                      struct vb_err *err);

/* A function the metrics pass calls before every kernel launch (the cold cache's flush), with
 * the launch's stream; it runs inside a CUPTI callback, before the launch, and its own launches
 * are not hooked. */
typedef void (*vb_profiler_hook)(CUstream stream, void *arg);

/* The values of a hooked sample's launches are named after their kernels as the launch
 * callback saw them (mangled), and the hook's own launches after this (the caller drops them). */
#define VB_PROFILER_HOOK_NAME "(l2_flush before the next launch)"

/* vb_profiler_end stops, decodes and evaluates: one vb_metric_value per (launch, metric),
 * appended to *vals (caller frees with vb_metric_values_free). The session stays enabled for
 * the next sample (vb_profiler_release or _destroy ends it); on failure it is ended.
 * Returns 0 or -1 with err. */
int vb_profiler_end(struct vb_profiler *p, struct vb_metric_value **vals, size_t *n,
                    struct vb_err *err);

/* The profiled workload: runs once per pass; 0 or -1 with err. */
typedef int (*vb_profiler_work)(void *arg, struct vb_err *err);

/* vb_profiler_collect profiles work on device `device`, context ctx, for at most max_launches
 * launches a pass: once under kernel replay, once per pass under user replay. hook (NULL: none)
 * runs before every kernel launch. Every launch is named after its kernel as the launch
 * callback saw it (mangled), the hook's own launches VB_PROFILER_HOOK_NAME (the caller drops
 * them). Values are appended to *vals as by vb_profiler_end; *passes is how many times work
 * ran. Returns 0 or -1 with err (work's own failure, or the profiler's); the session stays
 * enabled as after vb_profiler_end. */
int vb_profiler_collect(struct vb_profiler *p, int device, CUcontext ctx, size_t max_launches,
                        vb_profiler_hook hook, void *hook_arg, vb_profiler_work work,
                        void *work_arg, struct vb_metric_value **vals, size_t *n, int *passes,
                        struct vb_err *err);

/* vb_profiler_last_ns copies the last vb_profiler_collect's parts (ns; result.h's
 * VB_PROF_PARTS) into ns; zeros before the first, and for the parts a failed one did not
 * reach. */
void vb_profiler_last_ns(const struct vb_profiler *p, double ns[VB_PROF_PARTS]);

/* vb_profiler_passes returns the replay passes the set needs on device (0 if not prepared). */
size_t vb_profiler_passes(const struct vb_profiler *p, int device);

/* vb_profiler_release ends the profiling session, if one is open (before the context goes);
 * the next vb_profiler_begin opens a new one. Safe on NULL. */
void vb_profiler_release(struct vb_profiler *p);

void vb_profiler_destroy(struct vb_profiler *p);

#endif
