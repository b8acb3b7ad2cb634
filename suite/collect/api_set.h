/*
 * api_set: which CUDA API calls `varbench trace` records by default. A framework makes
 * thousands of calls a step that only ask (cudaGetDevice, cuCtxGetCurrent, cudaGetLastError,
 * cuKernelGetName, ...); each costs ~20 ns untraced and ~440 ns with a CUPTI record, so
 * recording every call slows a PyTorch step by a third. The default set is the calls that do
 * work or order it: launches, copies, memsets, synchronizations, allocations, streams, events,
 * graphs, modules and the profiler range; --all-api-calls records every call.
 */
#ifndef VB_API_SET_H
#define VB_API_SET_H

#include <stddef.h>

#include <cupti.h>

/* vb_api_set_keeps says whether name (a runtime or driver API function, with or without
 * CUPTI's _vNNNN suffix) is in the default set. */
int vb_api_set_keeps(const char *name);

/* vb_api_set_prefix returns the set's i-th name prefix ("cudaLaunch", ...), NULL past the last:
 * a name is in the set when it starts with one. */
const char *vb_api_set_prefix(size_t i);

/* vb_api_set_enable switches CUPTI's records on for every runtime and driver API function of
 * the set alone, with CUPTI_ACTIVITY_KIND_RUNTIME and _DRIVER left off: CUPTI then enters only
 * the set's calls (measured on PyTorch steps: the kinds on with the rest switched off cost
 * what the per-function switches do not, README's overhead paragraph). A program's own CUPTI
 * client that enables or disables the kinds does not undo it: the preload (cupti_mux.h) keeps
 * the union of both. Returns how many functions it switched on, or -1 when CUPTI refused one
 * (those switched stay on). */
int vb_api_set_enable(void);

/* vb_api_set_disable undoes vb_api_set_enable: every function of the set switched off again
 * (with the kinds off, CUPTI then enters none). Returns how many, or -1 when CUPTI refused one. */
int vb_api_set_disable(void);

/* vb_api_set_quiet switches CUPTI's records off for every runtime and driver API function
 * outside the set, once CUPTI_ACTIVITY_KIND_RUNTIME and _DRIVER are enabled: the set the way
 * before vb_api_set_enable (VARBENCH_TRACE_API_BY_KIND=1, for measuring the two). Returns how
 * many functions it switched off, or -1 when CUPTI refused one (those switched stay off). */
int vb_api_set_quiet(void);

/* vb_api_work_prefix returns the i-th prefix of the calls that put work on a GPU (launches,
 * copies, memsets, graph launches: a kernel, copy or memset record follows each), NULL past
 * the last. */
const char *vb_api_work_prefix(size_t i);

/* vb_api_each_work_call calls fn(domain, cbid, arg) for each runtime and driver function that
 * puts work on a GPU, as this CUPTI numbers them; stops at fn's first nonzero return and
 * returns it, else 0. */
int vb_api_each_work_call(int (*fn)(CUpti_CallbackDomain, CUpti_CallbackId, void *), void *arg);

#endif
