/*
 * callbacks: the process's one CUPTI subscriber (CUPTI allows one per process), shared by its
 * users: the metrics pass's launch hook (profiler.c), the timing pass's sample marks (marks.c)
 * and, in the resource domain, the kernels' code identity (code_id.c). Each user switches the
 * callbacks it wants on and off; CUPTI runs the union, and every callback goes to each user's
 * handler, which ignores what it did not ask for. The subscriber is made at first use; under ncu or
 * nsys it is theirs and vb_cb_enable fails. Workload: a handful of switches per case; the callbacks
 * run on the thread making the call.
 */
#ifndef VB_CALLBACKS_H
#define VB_CALLBACKS_H

#include <cupti.h>

#include "err.h"

enum vb_cb_user { VB_CB_PROFILER, VB_CB_MARKS, VB_CB_USERS };

/* A user's handler: called for every callback of the subscriber (its own and the others'). */
typedef void (*vb_cb_handler)(CUpti_CallbackDomain dom, CUpti_CallbackId cbid,
                              const CUpti_CallbackData *cb);

/* vb_cb_enable switches user's callback of (dom, cbid) on or off, handled by h, and sets CUPTI's
 * to the union of the users'. dom is CUPTI_CB_DOMAIN_RUNTIME_API or _DRIVER_API. 0, or -1 with
 * err (no subscriber to be had: another tool holds CUPTI's). */
int vb_cb_enable(enum vb_cb_user user, vb_cb_handler h, CUpti_CallbackDomain dom,
                 CUpti_CallbackId cbid, int on, struct vb_err *err);

/* A resource callback's handler (CUPTI_CB_DOMAIN_RESOURCE): one, code_id.c's. */
typedef void (*vb_cb_resource_handler)(CUpti_CallbackId cbid, const CUpti_ResourceData *rd);

/* vb_cb_resource switches the resource callback cbid on, handled by h (the API handlers never
 * see a resource callback). 0, or -1 with err (no subscriber to be had). */
int vb_cb_resource(vb_cb_resource_handler h, CUpti_CallbackId cbid, struct vb_err *err);

#endif
