/*
 * inject_metrics: the counters of `varbench trace --metrics` (see inject_int.h).
 * VARBENCH_TRACE_METRICS holds the resolved metric names. The range profiler (profiler.h)
 * runs on the first context the program creates, from its creation (auto range: one range per
 * kernel launch; kernel replay) until the context is destroyed or the process ends. Under it,
 * kernel activity records carry no timestamps: a trace with counters is for counters, as with
 * nvprof --metrics. Callbacks run on the program's threads; vb_inject_finish takes the values.
 * The same subscriber (CUPTI's one; without --metrics varbench takes none, leaving it to the
 * program's own profiler) hashes each loaded module's kernels, as varbench run does (code_id.h),
 * so that compare of two traces says which kernels' code changed.
 */
#include <stdio.h>
#include <unistd.h>

#include "code_id.h"
#include "err.h"
#include "inject_int.h"
#include "metric_set.h"
#include "profiler.h"
#include "store.h"

#define TRACE_MAX_LAUNCHES 2048

static struct vb_profiler *prof;
static CUcontext prof_ctx;
static struct vb_metric_value *mvals;
static size_t nmvals;
static enum vb_metrics_status mstatus = VB_METRICS_NONE;
static char mreason[512];

static void metrics_fail(enum vb_metrics_status st, const struct vb_err *err)
{
    mstatus = st;
    vb_err_line(err, mreason, sizeof mreason);
    fprintf(stderr, "varbench trace: pid %d: no counters: %s\n", (int)getpid(), mreason);
}

/* vb_inject_metrics_begin parses the list and creates the profiler; 0, or -1 (said) when it cannot.
 */
int vb_inject_metrics_begin(const char *list)
{
    struct vb_metric_set set;
    struct vb_err err;
    vb_err_clear(&err);
    if (vb_metric_set_parse(list, &set, &err)) {
        metrics_fail(VB_METRICS_FAILED, &err);
        return -1;
    }
    if (!(prof = vb_profiler_create(&set))) {
        vb_err_set(&err, VB_E_SYS, "out of memory");
        metrics_fail(VB_METRICS_FAILED, &err);
        return -1;
    }
    mstatus = VB_METRICS_UNAVAILABLE;
    snprintf(mreason, sizeof mreason, "the program created no CUDA context");
    return 0;
}

static void metrics_context(CUcontext ctx)
{
    struct vb_err err;
    uint32_t dev = 0;
    if (!prof || prof_ctx || mstatus != VB_METRICS_UNAVAILABLE) return; /* the first context only */
    vb_err_clear(&err);
    if (VB_CUPTI(&err, cuptiGetDeviceId(ctx, &dev)) ||
        vb_profiler_begin(prof, (int)dev, ctx, TRACE_MAX_LAUNCHES, &err)) {
        metrics_fail(err.code == VB_E_USAGE ? VB_METRICS_FAILED : VB_METRICS_UNAVAILABLE, &err);
        return;
    }
    prof_ctx = ctx;
    mstatus = VB_METRICS_OK;
    mreason[0] = '\0';
    vb_inject_exit_late(); /* the process's end handled while this context lives */
}

/* metrics_stop ends the profiled context's collection and keeps its values. */
static void metrics_stop(void)
{
    struct vb_err err;
    if (!prof_ctx) return;
    prof_ctx = NULL;
    vb_err_clear(&err);
    if (vb_profiler_end(prof, &mvals, &nmvals, &err)) metrics_fail(VB_METRICS_FAILED, &err);
    vb_profiler_release(prof);
}

void vb_inject_metrics_end(void)
{
    metrics_stop();
}

static void metrics_context_ending(CUcontext ctx)
{
    if (ctx && ctx == prof_ctx) metrics_stop();
}

/* vb_inject_metrics_take hands the values and the outcome to the process's case. */
void vb_inject_metrics_take(struct vb_case_result *r)
{
    if (!prof) return;
    metrics_stop();
    r->metrics = mvals;
    r->nmetrics = nmvals;
    mvals = NULL;
    nmvals = 0;
    r->metrics_status = mstatus;
    snprintf(r->metrics_reason, sizeof r->metrics_reason, "%s", mreason);
    /* every kernel of the process ran under the profiler, in the ranges' order */
    if (r->nmetrics &&
        vb_metric_values_name(r->metrics, r->nmetrics, r->activity.kernels, r->activity.nkernels))
        fprintf(stderr,
                "varbench trace: pid %d: counters are by launch number (%zu kernel "
                "records for the profiled launches)\n",
                (int)getpid(), r->activity.nkernels);
    r->gst_efficiency = vb_metric_values_gst(r->metrics, r->nmetrics);
    vb_profiler_destroy(prof);
    prof = NULL;
}

/* vb_inject_metrics_on_callback: the context events of the counters (--metrics) and the modules
 * loaded. Runs on the program's threads: it takes no lock of ours but code_id's, which is held
 * only to hash a module or copy the table, never across a CUDA call. */
void CUPTIAPI vb_inject_metrics_on_callback(void *userdata, CUpti_CallbackDomain domain,
                                            CUpti_CallbackId cbid, const void *data)
{
    const CUpti_ResourceData *rd = data;
    (void)userdata;
    if (domain != CUPTI_CB_DOMAIN_RESOURCE || !rd) return;
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
        metrics_context(rd->context);
    else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
        metrics_context_ending(rd->context);
    else if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED && rd->resourceDescriptor) {
        const CUpti_ModuleResourceData *m = rd->resourceDescriptor;
        vb_code_id_module(m->pCubin, m->cubinSize);
    }
}

void vb_inject_metrics_enable(CUpti_SubscriberHandle sub)
{
    struct vb_err err;
    vb_err_clear(&err);
    if (VB_CUPTI(&err, cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE,
                                           CUPTI_CBID_RESOURCE_CONTEXT_CREATED)) ||
        VB_CUPTI(&err, cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE,
                                           CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING))) {
        fprintf(stderr, "varbench trace: pid %d: no counters: %s\n", (int)getpid(), err.msg);
        vb_err_clear(&err);
    }
    if (VB_CUPTI(&err, cuptiEnableCallback(1, sub, CUPTI_CB_DOMAIN_RESOURCE,
                                           CUPTI_CBID_RESOURCE_MODULE_LOADED)))
        fprintf(stderr, "varbench trace: pid %d: no kernel code hashes: %s\n", (int)getpid(),
                err.msg);
}

void vb_inject_code_store(struct vb_store *s, int64_t run_id)
{
    struct vb_code_entry *e;
    struct vb_err err;
    size_t n, next;
    int unreadable = vb_code_id_unreadable();
    vb_err_clear(&err);
    if (vb_code_id_since(0, &e, &n, &next)) {
        fprintf(stderr, "varbench trace: pid %d: out of memory: no kernel code hashes\n",
                (int)getpid());
        return;
    }
    if (vb_store_kernel_code(s, run_id, e, n, &err))
        fprintf(stderr, "varbench trace: pid %d: the kernels' code hashes were not stored: %s\n",
                (int)getpid(), err.msg);
    else if (vb_code_id_lost())
        fprintf(stderr, "varbench trace: pid %d: memory ran out: some kernels have no code hash\n",
                (int)getpid());
    else if (!n && unreadable) /* only when none was read: a few foreign modules are no news */
        fprintf(stderr,
                "varbench trace: pid %d: no kernel code hashes: the %d module%s it loaded %s no "
                "ELF cubin\n",
                (int)getpid(), unreadable, unreadable == 1 ? "" : "s",
                unreadable == 1 ? "was" : "were");
    vb_code_id_free(e, n);
}
