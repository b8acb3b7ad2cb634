/*
 * profiler: the metrics pass through CUPTI's range profiler (see profiler.h). The call
 * sequence per profiled sample: Enable on the context (once per session), the counter data
 * image initialised afresh, SetConfig (auto range, kernel or user replay, one nesting level);
 * per pass Start, the workload, Stop (until Stop says every pass is submitted: at once under
 * kernel replay, which submits every pass inside each launch); DecodeData, then per range its
 * name and the evaluated metrics; Disable when the session ends. A CUPTI driver-API callback
 * records the launches' names in order, which then name the ranges, and calls the launch hook
 * (the runner's L2 flush) before each; the hook's own launches are ranges too.
 */
#include "profiler.h"

#include <cupti.h>
#include <cupti_driver_cbid.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callbacks.h"
#include "clock.h"
#include "profiler_host.h"

#define MAX_DEVICES 16

struct dev {
    int state; /* 0 not prepared, 1 ready, -1 unavailable (why) */
    struct vb_err why;
    struct vb_prof_host *host;
    size_t passes;
    uint8_t *avail;
};

struct vb_profiler {
    struct vb_metric_set set;
    const char *names[VB_MAX_METRICS];
    struct dev dev[MAX_DEVICES];
    /* the profiling session: enabled on one device's context; it may be kept across samples
     * (an enabled but stopped profiler leaves activity records intact), but the runner ends
     * it after each case (vb_profiler_release) */
    CUpti_RangeProfiler_Object *obj;
    CUcontext ctx;
    uint8_t *data;
    size_t data_size, max_launches;
    int device, started;
    int user_replay; /* CUPTI_UserReplay: the caller runs the workload once per pass */
    int naming;      /* the launch callback names this pass's launches */
    vb_profiler_hook hook;
    void *hook_arg;
    /* the sample's launches in order as the launch callback saw them (the hook's own as
     * VB_PROFILER_HOOK_NAME): range r is launch r */
    char **launches;
    size_t nlaunches, cap_launches;
    int graphs;                    /* graph launches the launch callback saw in this pass */
    double last_ns[VB_PROF_PARTS]; /* vb_profiler_last_ns */
};

/* The launch hook's callbacks (through the process's one subscriber, callbacks.h). */
static struct vb_profiler *hooked; /* whose hook runs (one profiled sample at a time) */
static __thread int in_hook;       /* the hook's own launch calls back too */

static const CUpti_CallbackId launch_cbids[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
    /* counted, not hooked or named: a graph launch is no range under user replay */
    CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz};

/* note_launch appends a launch's name (copied); out of memory, the counts then disagree and
 * the ranges keep their numbers. */
static void note_launch(struct vb_profiler *p, const char *name)
{
    char *copy;
    if (p->nlaunches == p->cap_launches) {
        size_t cap = p->cap_launches ? 2 * p->cap_launches : 16;
        char **grown = realloc(p->launches, cap * sizeof *grown);
        if (!grown) return;
        p->launches = grown;
        p->cap_launches = cap;
    }
    if ((copy = strdup(name ? name : "?"))) p->launches[p->nlaunches++] = copy;
}

static void forget_launches(struct vb_profiler *p)
{
    size_t i;
    for (i = 0; i < p->nlaunches; i++)
        free(p->launches[i]);
    p->nlaunches = 0;
}

/* is_launch: one of launch_cbids (the sample marks' callbacks come here too) */
static int is_launch(CUpti_CallbackId cbid)
{
    size_t i;
    for (i = 0; i < sizeof launch_cbids / sizeof launch_cbids[0]; i++)
        if (launch_cbids[i] == cbid) return 1;
    return 0;
}

static void on_launch(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    struct vb_profiler *p = hooked;
    CUstream s;
    if (dom != CUPTI_CB_DOMAIN_DRIVER_API || cb->callbackSite != CUPTI_API_ENTER || !p ||
        !is_launch(cbid))
        return;
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
        cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz) {
        p->graphs++;
        return;
    }
    if (in_hook) { /* one of the hook's own launches */
        note_launch(p, VB_PROFILER_HOOK_NAME);
        return;
    }
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
        cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz) {
        const cuLaunchKernelEx_params *lp = cb->functionParams;
        s = lp->config ? lp->config->hStream : NULL;
    } else {
        /* cuLaunchKernel and cuLaunchCooperativeKernel share their first nine parameters */
        s = ((const cuLaunchKernel_params *)cb->functionParams)->hStream;
    }
    if (p->hook) {
        in_hook = 1;
        p->hook(s, p->hook_arg);
        in_hook = 0;
    }
    note_launch(p, cb->symbolName);
}

/* hook_enable turns the launch callbacks on (on != 0) or off; 0 or -1 with err. */
static int hook_enable(struct vb_profiler *p, int on, struct vb_err *err)
{
    size_t i;
    hooked = on ? p : NULL;
    for (i = 0; i < sizeof launch_cbids / sizeof launch_cbids[0]; i++)
        if (vb_cb_enable(VB_CB_PROFILER, on_launch, CUPTI_CB_DOMAIN_DRIVER_API, launch_cbids[i], on,
                         err))
            return vb_err_context(err, "the metrics pass's cache flush before each launch");
    return 0;
}

static int initialized; /* cuptiProfilerInitialize done for the process */

struct vb_profiler *vb_profiler_create(const struct vb_metric_set *set)
{
    return vb_profiler_create_replay(set, 0);
}

struct vb_profiler *vb_profiler_create_replay(const struct vb_metric_set *set, int user_replay)
{
    struct vb_profiler *p = calloc(1, sizeof *p);
    int i;
    if (!p) return NULL;
    p->set = *set;
    p->user_replay = user_replay;
    for (i = 0; i < set->n; i++)
        p->names[i] = p->set.names[i];
    return p;
}

/* unavailable turns a CUPTI failure into the reason counters cannot be read here. */
static int unavailable(struct vb_err *err, const char *what)
{
    if (!err->hint[0])
        vb_err_hint(err, "timings are unaffected; pass --no-metrics to skip the metrics pass");
    return vb_err_context(err, "metrics unavailable (%s)", what);
}

static int check_supported(int device, struct vb_err *err)
{
    CUpti_Profiler_DeviceSupported_Params sp;
    memset(&sp, 0, sizeof sp);
    sp.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
    sp.cuDevice = (CUdevice)device;
    sp.api = CUPTI_PROFILER_RANGE_PROFILING;
    if (VB_CUPTI(err, cuptiProfilerDeviceSupported(&sp))) return unavailable(err, "device check");
    if (sp.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return 0;
    vb_err_set(
        err, VB_E_CUDA,
        "metrics unavailable: CUPTI's profiler does not support device %d "
        "(%s)",
        device,
        sp.architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "architecture older than "
                                                                    "compute capability 7.0"
        : sp.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED       ? "vGPU without profiling enabled"
        : sp.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
            ? "confidential computing is on"
        : sp.cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "a mining processor"
        : sp.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "WSL"
                                                           : "SLI or another configuration");
    return vb_err_hint(err, "timings are unaffected; pass --no-metrics to skip the metrics pass");
}

/* availability reads the context's counter availability image into d->avail. */
static int availability(struct dev *d, CUcontext ctx, struct vb_err *err)
{
    CUpti_Profiler_GetCounterAvailability_Params ap;
    memset(&ap, 0, sizeof ap);
    ap.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
    ap.ctx = ctx;
    free(d->avail); /* an earlier prepare that stopped at a bad metric name read it already */
    d->avail = NULL;
    if (VB_CUPTI(err, cuptiProfilerGetCounterAvailability(&ap)))
        return unavailable(err, "counter availability");
    if (!(d->avail = calloc(1, ap.counterAvailabilityImageSize + 1)))
        return vb_err_set(err, VB_E_SYS, "out of memory");
    ap.pCounterAvailabilityImage = d->avail;
    if (VB_CUPTI(err, cuptiProfilerGetCounterAvailability(&ap)))
        return unavailable(err, "counter availability");
    return 0;
}

int vb_profiler_prepare(struct vb_profiler *p, int device, CUcontext ctx, struct vb_err *err)
{
    struct dev *d;
    CUpti_Device_GetChipName_Params cp;
    if (device < 0 || device >= MAX_DEVICES)
        return vb_err_set(err, VB_E_CUDA, "metrics: device %d out of range", device);
    d = &p->dev[device];
    if (d->state == 1) return 0;
    if (d->state == -1) {
        *err = d->why;
        return -1;
    }
    if (!initialized) {
        CUpti_Profiler_Initialize_Params ip;
        memset(&ip, 0, sizeof ip);
        ip.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
        if (VB_CUPTI(err, cuptiProfilerInitialize(&ip))) {
            unavailable(err, "profiler initialisation");
            goto unavailable;
        }
        initialized = 1;
    }
    if (check_supported(device, err) || availability(d, ctx, err)) goto unavailable;
    memset(&cp, 0, sizeof cp);
    cp.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
    cp.deviceIndex = (size_t)device;
    if (VB_CUPTI(err, cuptiDeviceGetChipName(&cp))) {
        unavailable(err, "chip name");
        goto unavailable;
    }
    if (vb_prof_host_open(cp.pChipName, d->avail, p->names, (size_t)p->set.n, &d->host, &d->passes,
                          err)) {
        if (err->code == VB_E_USAGE) return -1; /* the user's metric list: not remembered */
        unavailable(err, "configuration");
        goto unavailable;
    }
    d->state = 1;
    return 0;
unavailable:
    d->state = -1;
    d->why = *err;
    return -1;
}

size_t vb_profiler_passes(const struct vb_profiler *p, int device)
{
    return device >= 0 && device < MAX_DEVICES && p->dev[device].state == 1 ? p->dev[device].passes
                                                                            : 0;
}

/* disable ends the profiling session (stopping a started sample); safe when none is open. */
static void disable(struct vb_profiler *p)
{
    if (hooked == p) {
        struct vb_err ignored;
        hook_enable(p, 0, &ignored);
    }
    if (p->obj && p->started) {
        CUpti_RangeProfiler_Stop_Params tp;
        memset(&tp, 0, sizeof tp);
        tp.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
        tp.pRangeProfilerObject = p->obj;
        cuptiRangeProfilerStop(&tp);
    }
    p->started = 0;
    if (p->obj) {
        CUpti_RangeProfiler_Disable_Params dp;
        memset(&dp, 0, sizeof dp);
        dp.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
        dp.pRangeProfilerObject = p->obj;
        cuptiRangeProfilerDisable(&dp);
        p->obj = NULL;
    }
    free(p->data);
    p->data = NULL;
    p->data_size = 0;
}

/* enable opens the session on ctx with a counter image for max_launches ranges. */
static int enable(struct vb_profiler *p, int device, CUcontext ctx, size_t max_launches,
                  struct vb_err *err)
{
    CUpti_RangeProfiler_Enable_Params ep;
    CUpti_RangeProfiler_GetCounterDataSize_Params sp;
    memset(&ep, 0, sizeof ep);
    ep.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    ep.ctx = ctx;
    if (VB_CUPTI(err, cuptiRangeProfilerEnable(&ep))) return -1;
    p->obj = ep.pRangeProfilerObject;
    p->ctx = ctx;
    p->device = device;
    p->max_launches = max_launches;
    memset(&sp, 0, sizeof sp);
    sp.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
    sp.pRangeProfilerObject = p->obj;
    sp.pMetricNames = p->names;
    sp.numMetrics = (size_t)p->set.n;
    sp.maxNumOfRanges = max_launches;
    sp.maxNumRangeTreeNodes = (uint32_t)max_launches;
    if (VB_CUPTI(err, cuptiRangeProfilerGetCounterDataSize(&sp))) goto fail;
    if (!(p->data = calloc(1, sp.counterDataSize))) {
        vb_err_set(err, VB_E_SYS, "out of memory for a %zu-byte counter image", sp.counterDataSize);
        goto fail;
    }
    p->data_size = sp.counterDataSize;
    return 0;
fail:
    disable(p);
    return -1;
}

/* configure opens the session if needed, initialises the counter image and sets the
 * configuration (auto range, p's replay mode); 0 or -1 with err (session ended). */
static int configure(struct vb_profiler *p, int device, CUcontext ctx, size_t max_launches,
                     struct vb_err *err)
{
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ip;
    CUpti_RangeProfiler_SetConfig_Params cp;
    const uint8_t *config;
    size_t config_size;
    if (vb_profiler_prepare(p, device, ctx, err)) return -1;
    if (p->obj && (p->ctx != ctx || p->device != device || p->max_launches != max_launches))
        disable(p);
    if (!p->obj && enable(p, device, ctx, max_launches, err)) return -1;
    memset(&ip, 0, sizeof ip);
    ip.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
    ip.pRangeProfilerObject = p->obj;
    ip.counterDataSize = p->data_size;
    ip.pCounterData = p->data;
    if (VB_CUPTI(err, cuptiRangeProfilerCounterDataImageInitialize(&ip))) goto fail;
    config = vb_prof_host_config(p->dev[device].host, &config_size);
    memset(&cp, 0, sizeof cp);
    cp.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
    cp.pRangeProfilerObject = p->obj;
    cp.configSize = config_size;
    cp.pConfig = config;
    cp.counterDataImageSize = p->data_size;
    cp.pCounterDataImage = p->data;
    cp.range = CUPTI_AutoRange;
    cp.replayMode = p->user_replay ? CUPTI_UserReplay : CUPTI_KernelReplay;
    cp.maxRangesPerPass = max_launches;
    cp.numNestingLevels = 1;
    cp.minNestingLevel = 1;
    cp.passIndex = 0;
    cp.targetNestingLevel = 1;
    if (VB_CUPTI(err, cuptiRangeProfilerSetConfig(&cp))) goto fail;
    return 0;
fail:
    disable(p);
    return -1;
}

/* start begins one pass; with naming, the launch callback names the launches (and calls hook,
 * if any, before each); 0 or -1 with err (session ended). */
static int start(struct vb_profiler *p, int naming, vb_profiler_hook hook, void *hook_arg,
                 struct vb_err *err)
{
    CUpti_RangeProfiler_Start_Params tp;
    memset(&tp, 0, sizeof tp);
    tp.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
    tp.pRangeProfilerObject = p->obj;
    if (VB_CUPTI(err, cuptiRangeProfilerStart(&tp))) goto fail;
    p->started = 1;
    p->naming = naming || hook;
    p->hook = hook;
    p->hook_arg = hook_arg;
    forget_launches(p);
    p->graphs = 0;
    if (p->naming && hook_enable(p, 1, err)) goto fail;
    return 0;
fail:
    disable(p);
    return -1;
}

/* stop ends the pass; *all says whether every pass the configuration needs is submitted. 0 or
 * -1 with err (session ended). */
static int stop(struct vb_profiler *p, int *all, struct vb_err *err)
{
    CUpti_RangeProfiler_Stop_Params tp;
    if (!p->obj || !p->started)
        return vb_err_set(err, VB_E_CUDA, "internal: the profiler stopped without a start");
    if (p->naming) {
        struct vb_err ignored;
        hook_enable(p, 0, &ignored);
    }
    memset(&tp, 0, sizeof tp);
    tp.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
    tp.pRangeProfilerObject = p->obj;
    p->started = 0;
    if (VB_CUPTI(err, cuptiRangeProfilerStop(&tp))) {
        disable(p);
        if (p->user_replay && p->graphs)
            vb_err_hint(err,
                        "the pass launched %d CUDA graph%s, which CUPTI's user replay does "
                        "not profile: issue the graph's calls through vb_phase_replay, which the "
                        "pass then issues one by one",
                        p->graphs, p->graphs == 1 ? "" : "s");
        return -1;
    }
    *all = tp.isAllPassSubmitted != 0;
    return 0;
}

/* decode evaluates the collected passes into *vals (see vb_profiler_end). */
static int decode(struct vb_profiler *p, struct vb_metric_value **vals, size_t *n,
                  struct vb_err *err)
{
    CUpti_RangeProfiler_DecodeData_Params dp;
    CUpti_RangeProfiler_GetCounterDataInfo_Params ip;
    double values[VB_MAX_METRICS];
    size_t r, nm = (size_t)p->set.n;
    int i;
    memset(&dp, 0, sizeof dp);
    dp.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
    dp.pRangeProfilerObject = p->obj;
    if (VB_CUPTI(err, cuptiRangeProfilerDecodeData(&dp))) goto fail;
    memset(&ip, 0, sizeof ip);
    ip.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
    ip.pCounterDataImage = p->data;
    ip.counterDataImageSize = p->data_size;
    if (VB_CUPTI(err, cuptiRangeProfilerGetCounterDataInfo(&ip))) goto fail;
    for (r = 0; r < ip.numTotalRanges; r++) {
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params gp;
        struct vb_metric_value *grown;
        memset(&gp, 0, sizeof gp);
        gp.structSize = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE;
        gp.pCounterDataImage = p->data;
        gp.counterDataImageSize = p->data_size;
        gp.rangeIndex = r;
        gp.rangeDelimiter = "/";
        if (VB_CUPTI(err, cuptiRangeProfilerCounterDataGetRangeInfo(&gp))) goto fail;
        if (vb_prof_host_eval(p->dev[p->device].host, p->data, p->data_size, r, p->names, nm,
                              values, err))
            goto fail;
        if (!(grown = realloc(*vals, sizeof **vals * (*n + nm)))) {
            vb_err_set(err, VB_E_SYS, "out of memory for metric values");
            goto fail;
        }
        *vals = grown;
        for (i = 0; i < (int)nm; i++) {
            struct vb_metric_value *v = &(*vals)[*n];
            v->launch = (int)r;
            /* named by the launch callback when it ran, else the caller names them */
            v->kernel = strdup(p->naming && p->nlaunches == ip.numTotalRanges ? p->launches[r]
                               : gp.rangeName                                 ? gp.rangeName
                                                                              : "");
            v->metric = strdup(p->names[i]);
            v->value = isfinite(values[i]) ? values[i] : NAN;
            if (!v->kernel || !v->metric) {
                free(v->kernel);
                free(v->metric);
                vb_err_set(err, VB_E_SYS, "out of memory for metric values");
                goto fail;
            }
            (*n)++;
        }
    }
    if (dp.numOfRangeDropped)
        return vb_err_set(err, VB_E_CUDA,
                          "the profiler dropped %zu kernel launches (more than "
                          "the counter image holds)",
                          dp.numOfRangeDropped);
    return 0;
fail:
    disable(p);
    return -1;
}

int vb_profiler_begin(struct vb_profiler *p, int device, CUcontext ctx, size_t max_launches,
                      struct vb_err *err)
{
    if (p->user_replay)
        return vb_err_set(err, VB_E_CUDA, "internal: vb_profiler_begin on a user-replay profiler");
    return configure(p, device, ctx, max_launches, err) || start(p, 0, NULL, NULL, err) ? -1 : 0;
}

int vb_profiler_end(struct vb_profiler *p, struct vb_metric_value **vals, size_t *n,
                    struct vb_err *err)
{
    int all = 0;
    if (stop(p, &all, err)) return -1;
    if (!all) {
        disable(p);
        return vb_err_set(err, VB_E_CUDA,
                          "the profiler needs more passes than kernel replay "
                          "submitted");
    }
    return decode(p, vals, n, err);
}

int vb_profiler_collect(struct vb_profiler *p, int device, CUcontext ctx, size_t max_launches,
                        vb_profiler_hook hook, void *hook_arg, vb_profiler_work work,
                        void *work_arg, struct vb_metric_value **vals, size_t *n, int *passes,
                        struct vb_err *err)
{
    size_t limit;
    int all = 0, rc;
    double t = vb_mono_ns(), t1;
    *passes = 0;
    memset(p->last_ns, 0, sizeof p->last_ns);
    rc = configure(p, device, ctx, max_launches, err);
    p->last_ns[VB_PROF_CONFIGURE] = (t1 = vb_mono_ns()) - t;
    if (rc) return -1;
    /* kernel replay submits every pass in one; user replay needs the configuration's count */
    limit = p->user_replay ? p->dev[device].passes : 1;
    while (!all) {
        struct vb_err serr;
        if ((size_t)*passes == limit) {
            disable(p);
            return vb_err_set(err, VB_E_CUDA,
                              "the profiler asked for more than the %zu pass%s "
                              "its configuration needs",
                              limit, limit == 1 ? "" : "es");
        }
        if (start(p, 1, hook, hook_arg, err)) return -1;
        rc = work(work_arg, err);
        (*passes)++;
        if (stop(p, &all, rc ? &serr : err)) return -1;
        if (rc) {
            disable(p);
            return -1;
        }
    }
    p->last_ns[VB_PROF_PASSES] = (t = vb_mono_ns()) - t1;
    rc = decode(p, vals, n, err);
    p->last_ns[VB_PROF_DECODE] = vb_mono_ns() - t;
    return rc;
}

void vb_profiler_last_ns(const struct vb_profiler *p, double ns[VB_PROF_PARTS])
{
    memcpy(ns, p->last_ns, sizeof p->last_ns);
}

void vb_profiler_release(struct vb_profiler *p)
{
    if (p) disable(p);
}

void vb_profiler_destroy(struct vb_profiler *p)
{
    int i;
    if (!p) return;
    disable(p);
    forget_launches(p);
    free(p->launches);
    for (i = 0; i < MAX_DEVICES; i++) {
        vb_prof_host_close(p->dev[i].host);
        free(p->dev[i].avail);
    }
    free(p);
}
