/*
 * inject: libvarbench_inject.so, the library `varbench trace` puts into the programs it runs.
 * Two loaders reach it, whichever comes first in a process:
 *   - NVTX (NVTX_INJECTION64_PATH), at the process's first NVTX call: InitializeInjectionNvtx2
 *     hands NVTX's call table to varbench's own recorder (nvtx_record.h), which needs no CUPTI;
 *   - the CUDA driver (CUDA_INJECTION64_PATH), when the program initialises CUDA (cuInit):
 *     InitializeInjection starts the CUPTI activity collector (kernels, copies, memsets, runtime
 *     and driver API calls).
 * When the process ends (inject_exit.c), its records become one case of the run the environment
 * names (trace.h): a process that started CUDA, or one that only made NVTX ranges.
 *
 * CUPTI may be shared with a CUPTI client of the program's own (torch.profiler): the preload
 * libvarbench_preload.so hands each of the two its records (cupti_mux.h) and reports what the
 * program's client got; the case stores that beside its own. A client the preload cannot see
 * (one calling CUPTI through dlsym'd pointers, or a static CUPTI) takes CUPTI's records from us:
 * the buffers CUPTI held for us go to it, which the collector counts, and the case says from
 * when its records are missing.
 *
 * Only the process that set the injection up writes (a fork inherits this state and must not,
 * unless it starts CUDA itself: it then sets up as a process of its own). It links CUPTI and
 * SQLite only, never the CUDA runtime (the program brings its own, maybe another version), and
 * exports nothing but its two entry points, so no symbol of varbench or SQLite can clash with
 * the program's.
 */
#include <cupti.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "activity.h"
#include "api_set.h"
#include "capture.h"
#include "clock.h"
#include "cupti_mux.h"
#include "env.h"
#include "err.h"
#include "hostctl.h"
#include "inject_int.h"
#include "nvtx_record.h"
#include "samples.h"
#include "store.h"
#include "tools.h"
#include "trace.h"

__attribute__((visibility("default"))) int InitializeInjection(void);
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(const void *(*get)(uint32_t));

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER; /* guards everything below */
static int initialized; /* 1 set up, -1 loaded without varbench trace's environment */
static int cuda_started, finished, traced;
static pid_t owner;
static uint64_t t_start;
static char db_path[4096], label[96], untraced_why[1024];
static int64_t run_id;
static CUpti_SubscriberHandle subscriber;
static unsigned kinds = VB_ACTIVITY_API | VB_ACTIVITY_OVERHEAD | VB_ACTIVITY_NO_MARKERS;
static int keep_apis = 1; /* --trace gpu: API calls serve the capture only and are not stored */
static int by_function;   /* the API set is on function by function (vb_api_set_enable) */
static struct vb_capture capture;
static double init_ns;            /* CUPTI's start in this process (monotonic) */
static struct vb_trace_pick pick; /* the ranges and kernels whose instances are samples */
static struct vb_trace_who who;   /* this process among its job's: its rank, or its pid */

/* ---- The program's CUPTI client ---------------------------------------------------------- */

/* read_mux fills m with what the preload saw of the program's CUPTI client; all zero without
 * the preload (a program run with LD_PRELOAD cleared, say). */
static void read_mux(struct vb_mux_stats *m)
{
    vb_mux_read_fn read = (vb_mux_read_fn)(uintptr_t)dlsym(RTLD_DEFAULT, VB_MUX_READ);
    memset(m, 0, sizeof *m);
    if (!read || read(m, sizeof *m)) memset(m, 0, sizeof *m);
}

static void CUPTIAPI no_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void *data)
{
    (void)userdata;
    (void)domain;
    (void)cbid;
    (void)data;
}

/* other_client: whether another CUPTI client holds CUPTI's one subscriber slot now; its name
 * goes into name. Leaves the slot as it found it. */
static int other_client(char *name, size_t n)
{
    CUpti_SubscriberParams p;
    CUpti_SubscriberHandle h = NULL;
    char old[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 64] = "";
    CUptiResult rc;
    if (subscriber) return 0; /* ours holds it (--metrics) */
    memset(&p, 0, sizeof p);
    p.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    p.subscriberName = "varbench trace";
    p.oldSubscriberName = old;
    p.oldSubscriberSize = sizeof old;
    rc = cuptiSubscribe_v2(&h, (CUpti_CallbackFunc)no_callback, NULL, &p);
    if (rc == CUPTI_SUCCESS) {
        cuptiUnsubscribe(h);
        return 0;
    }
    if (rc != CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) return 0;
    snprintf(name, n, "%s", old[0] && !strstr(old, "<not provided>") ? old : "unnamed");
    return 1;
}

/* driver_version asks the driver already loaded in the process (never loading one). */
static int driver_version(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    int v = 0;
    if (h) {
        int (*get)(int *) = (int (*)(int *))(uintptr_t)dlsym(h, "cuDriverGetVersion");
        if (!get || get(&v) != 0) v = 0;
        dlclose(h);
    }
    return v;
}

/* canary makes one driver API call (driver_version: a record, when API calls are traced) and
 * takes what CUPTI then hands the collector into a: 0 when nothing came back (CUPTI's records go
 * elsewhere). */
static int canary(struct vb_activity *a)
{
    unsigned long req0, done0, req1, done1;
    struct vb_activity more;
    struct vb_err err;
    vb_activity_buffers(&req0, &done0);
    if (!driver_version()) return 1; /* no call made: no way to tell, assume the records came */
    memset(&more, 0, sizeof more);
    vb_err_clear(&err);
    if (vb_activity_take(&more, &err)) return 1;
    vb_activity_buffers(&req1, &done1);
    vb_activity_append(a, &more);
    return done1 > done0;
}

/* ---- Writing the case --------------------------------------------------------------------- */

/* drop_apis frees a's API records (collected for the capture windows only) */
static void drop_apis(struct vb_activity *a)
{
    size_t i;
    for (i = 0; i < a->napis; i++)
        free(a->apis[i].name);
    a->napis = 0;
}

/* last_record: the end of the latest GPU record of a (kernels_only: of its kernels, when it has
 * any; 0 when none): where the records a client that took CUPTI over left varbench end */
static uint64_t last_record(const struct vb_activity *a, int kernels_only)
{
    uint64_t t = 0;
    size_t i;
    for (i = 0; i < a->nkernels; i++)
        if (a->kernels[i].end > t) t = a->kernels[i].end;
    if (kernels_only && t) return t;
    for (i = 0; i < a->nmemsets; i++)
        if (a->memsets[i].end > t) t = a->memsets[i].end;
    for (i = 0; i < a->ncopies; i++)
        if (a->copies[i].end > t) t = a->copies[i].end;
    return t;
}

static void read_first_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    size_t len;
    buf[0] = '\0';
    if (!f) return;
    if (!fgets(buf, (int)n, f)) buf[0] = '\0';
    fclose(f);
    len = strlen(buf);
    while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
        buf[--len] = '\0';
}

/* store_devices records the GPUs CUPTI described, as TARGET_INFO_GPU rows of the run. */
static void store_devices(struct vb_store *s, const struct vb_activity *a)
{
    struct vb_gpu_env g;
    struct vb_err err;
    char drv[64];
    size_t i;
    int cudav;
    if (!a->ndevices) return;
    read_first_line("/sys/module/nvidia/version", drv, sizeof drv);
    cudav = driver_version();
    for (i = 0; i < a->ndevices; i++) {
        const struct vb_device_rec *d = &a->devices[i];
        const unsigned char *u = d->uuid;
        vb_env_gpu_clear(&g); /* the NVML periods not probed */
        g.id = (int)d->id;
        snprintf(g.name, sizeof g.name, "%s", d->name);
        snprintf(g.uuid, sizeof g.uuid,
                 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                 u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
                 u[14], u[15]);
        g.cc_major = (int)d->cc_major;
        g.cc_minor = (int)d->cc_minor;
        g.sm_count = (int)d->sm_count;
        g.total_mem = d->global_mem;
        g.l2_bytes = d->l2_bytes;
        g.clock_khz = (int)d->clock_khz;
        g.sm_clock_mhz = NAN; /* not measured: the program's GPU is not ours to probe */
        snprintf(g.driver, sizeof g.driver, "%s", drv);
        g.cuda_driver_version = cudav;
        g.cupti_version = vb_activity_version();
        vb_err_clear(&err);
        if (vb_store_trace_gpu(s, run_id, &g, &err))
            fprintf(stderr, "varbench trace: pid %d: GPU %d not recorded: %s\n", (int)owner, g.id,
                    err.msg);
    }
}

/* cut applies the capture range to a: the case's window becomes the captured span, and `how`
 * says what was kept. */
static void cut(struct vb_activity *a, uint64_t *start, uint64_t *end, char *how, size_t n)
{
    struct vb_capture_result cr;
    char form[160];
    if (capture.kind == VB_CAPTURE_ALL) return;
    vb_capture_format(&capture, form, sizeof form);
    if (vb_capture_apply(a, &capture, *end, &cr)) {
        snprintf(how + strlen(how), n - strlen(how), "; capture %s: out of memory, all kept", form);
        return;
    }
    if (cr.windows) {
        *start = cr.first;
        *end = cr.last;
    }
    snprintf(how + strlen(how), n - strlen(how), "; capture %s: %zu window%s, %zu records left out",
             form, cr.windows, cr.windows == 1 ? "" : "s", cr.dropped);
}

/* write_case stores t, what tracing cost the process, and the sampled cases x[0..nx) of it;
 * prints why when it cannot. */
static void write_case(struct vb_trace_case *t, struct vb_trace_cost *cost, struct vb_trace_case *x,
                       size_t nx)
{
    struct vb_store *s = NULL;
    struct vb_err err;
    double t0 = vb_mono_ns();
    int64_t case_id = 0;
    size_t i;
    vb_err_clear(&err);
    if (vb_store_open(db_path, &s, &err) == 0) {
        store_devices(s, &t->r.activity);
        if (subscriber) vb_inject_code_store(s, run_id); /* --metrics: its modules were seen */
        if (vb_store_case(s, run_id, &t->r, &case_id, &err) == 0) {
            cost->store_ns = vb_mono_ns() - t0;
            if (vb_store_trace_cost(s, case_id, cost, &err))
                fprintf(stderr, "varbench trace: pid %d: the tracing cost was not stored: %s\n",
                        (int)owner, err.msg);
            vb_err_clear(&err);
            for (i = 0; i < nx && !err.msg[0]; i++)
                vb_store_case(s, run_id, &x[i].r, NULL, &err);
        }
        vb_store_close(s);
    }
    if (err.msg[0])
        fprintf(stderr, "varbench trace: pid %d: the trace was not stored: %s\n%s%s%s", (int)owner,
                err.msg, err.hint[0] ? "hint: " : "", err.hint, err.hint[0] ? "\n" : "");
}

/* say sets the case's reason and prints it */
static void say(struct vb_trace_case *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(struct vb_trace_case *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->r.reason, sizeof t->r.reason, fmt, ap);
    va_end(ap);
    fprintf(stderr, "varbench trace: pid %d: %s\n", (int)owner, t->r.reason);
}

/* collect takes CUPTI's records into a and tells whether CUPTI still handed them to the
 * collector at the end (0: another client took them over, *lost set). */
static void collect(struct vb_activity *a, struct vb_trace_cost *cost, int *lost)
{
    struct vb_mux_stats m;
    struct vb_err err;
    unsigned long req, done;
    double t0 = vb_mono_ns();
    vb_err_clear(&err);
    read_mux(&m);
    if (m.clock) vb_activity_set_clock(m.clock, m.clock0, m.real0);
    if (vb_activity_dump_devices(&err)) vb_err_clear(&err); /* the GPU rows are optional */
    if (vb_activity_take(a, &err)) {
        snprintf(untraced_why, sizeof untraced_why, "CUPTI could not flush the records: %s",
                 err.msg);
        traced = 0;
        return;
    }
    /* after a forced flush CUPTI holds none of the collector's buffers, unless it gave them to
     * a client that took its callbacks. With API calls traced, one call of ours decides: its
     * record comes back unless records go elsewhere (a buffer outstanding may be one CUPTI asked
     * for since the flush, for a record of another thread of the program: nothing is missing
     * then, though the count alone would say so) */
    vb_activity_buffers(&req, &done);
    *lost = (kinds & VB_ACTIVITY_API) ? !canary(a) : req > done;
    /* what the process does from here on is not recorded; a client that took CUPTI over keeps
     * what it enabled (the preload keeps a client's it sees) */
    if (!*lost) {
        vb_activity_stop();
        if (by_function) vb_api_set_disable(); /* CUPTI enters none of the rest's calls */
    }
    cost->flush_ns = vb_mono_ns() - t0;
    if (m.seen) {
        snprintf(cost->client, sizeof cost->client, "%s", m.client[0] ? m.client : "program");
        cost->client_kernels = (int64_t)m.kernels;
        cost->client_copies = (int64_t)m.copies;
        cost->client_memsets = (int64_t)m.memsets;
        cost->client_records = (int64_t)m.records;
    }
}

/* overhead_detail writes where CUPTI's overhead records of a went, by kind, largest first, and
 * how much of it lies inside [lo, hi] (the captured window, or the process) */
static void overhead_detail(const struct vb_activity *a, uint64_t lo, uint64_t hi, char *buf,
                            size_t n)
{
    struct {
        uint32_t kind;
        uint64_t ns;
        size_t count;
    } k[16];
    size_t nk = 0, i, j, len;
    uint64_t in = 0;
    buf[0] = '\0';
    for (i = 0; i < a->noverheads; i++) {
        const struct vb_overhead_rec *o = &a->overheads[i];
        for (j = 0; j < nk && k[j].kind != o->kind; j++) {
        }
        if (j == nk && nk < sizeof k / sizeof k[0])
            k[nk++].kind = o->kind, k[j].ns = k[j].count = 0;
        if (j < nk) k[j].ns += o->end - o->start, k[j].count++;
        if (o->end > lo && o->start < hi)
            in += (o->end < hi ? o->end : hi) - (o->start > lo ? o->start : lo);
    }
    for (i = 0; i < nk; i++) /* largest first: a few kinds, an insertion sort */
        for (j = i; j > 0 && k[j].ns > k[j - 1].ns; j--) {
            __typeof__(k[0]) x = k[j];
            k[j] = k[j - 1], k[j - 1] = x;
        }
    for (i = 0; i < nk && (len = strlen(buf)) < n; i++)
        snprintf(buf + len, n - len, "%s%s %.1f ms (%zu)", i ? ", " : "",
                 vb_activity_overhead_name(k[i].kind), (double)k[i].ns / 1e6, k[i].count);
    if (nk && (len = strlen(buf)) < n)
        snprintf(buf + len, n - len, "; %.1f ms in the traced window", (double)in / 1e6);
}

/* sample makes the sampled cases of t's process (samples.h) from its records, with their GPU
 * work when have_records; says on stderr what was left out. *x NULL when none. */
static void sample(const struct vb_trace_case *t, int have_records, uint64_t lost_after,
                   struct vb_trace_case **x, size_t *nx)
{
    char note[512];
    size_t i;
    int k;
    vb_trace_ctl_stop();
    if (vb_trace_sampled(&t->r.activity, &pick, label, &who, t->r.device, have_records, lost_after,
                         t->how, x, nx, note, sizeof note)) {
        fprintf(stderr, "varbench trace: pid %d: out of memory: no samples of ranges or kernels\n",
                (int)owner);
        return;
    }
    if (note[0]) fprintf(stderr, "varbench trace: pid %d: %s\n", (int)owner, note);
    for (i = 0; i < *nx; i++) /* each range instance: how fast the host was while it ran */
        if (!strncmp((*x)[i].r.axes, "range=", 6))
            for (k = 0; k < (*x)[i].r.nsamples; k++) {
                struct vb_sample *s = &(*x)[i].r.samples[k];
                s->ctl[VB_CTL_CPU] = vb_trace_ctl_over(VB_CTL_CPU, s->start, s->end);
                s->ctl[VB_CTL_THR] = vb_trace_ctl_over(VB_CTL_THR, s->start, s->end);
            }
}

/* finish_traced makes t the case of a process that started CUDA */
static void finish_traced(struct vb_trace_case *t, struct vb_trace_cost *cost, char *why,
                          size_t nwhy, struct vb_trace_case **x, size_t *nx)
{
    struct vb_activity a;
    char probe[256];
    uint64_t end, start = t_start, last = 0, last_kernel = 0, last_api = 0;
    int lost = 0, api_only = 0;
    uint32_t corr = 0;
    size_t i;
    memset(&a, 0, sizeof a);
    vb_inject_metrics_end(); /* the counters' session closed before the records are flushed */
    if (traced) collect(&a, cost, &lost);
    end = vb_activity_now();
    /* the driver loaded the injection, yet CUDA did not start (no device visible): say that */
    if (traced && !a.nkernels && !a.ncopies && !a.nmemsets &&
        vb_cuda_probe(1, probe, sizeof probe)) {
        snprintf(untraced_why, sizeof untraced_why,
                 "CUDA could not start in the process (%s): nothing ran on a GPU", probe);
        fprintf(stderr, "varbench trace: pid %d: %s\n", (int)owner, untraced_why);
        traced = 0;
    }
    if (!traced) {
        vb_activity_free(&a);
        vb_trace_case_untraced(t, label, t_start, end, why, untraced_why);
        vb_trace_case_who(t, &who);
        vb_nvtx_record_take(&t->r.activity); /* NVTX needs no CUPTI: its ranges are kept */
        sample(t, 0, 0, x, nx);              /* and so are their host times */
        return;
    }
    cost->init_ns = init_ns;
    cost->cupti_overhead_ns = (double)a.overhead_ns;
    cost->cupti_overhead_count = (int64_t)a.noverheads;
    cost->dropped_records = (int64_t)a.dropped;
    last = last_record(&a, 0);
    last_kernel = last_record(&a, 1);
    for (i = 0; i < a.napis; i++) {
        if (a.apis[i].end > last_api) last_api = a.apis[i].end;
        if (a.apis[i].correlation > corr) corr = a.apis[i].correlation;
    }
    /* measured under torch.profiler's stop: the API records end, the GPU records go on, with
     * correlation ids (which grow call by call) past every recorded call's */
    for (i = 0; lost && last_api && !api_only && i < a.nkernels; i++)
        api_only = a.kernels[i].correlation > corr;
    vb_nvtx_record_take(&a);
    cut(&a, &start, &end, why, nwhy);
    overhead_detail(&a, start, end, cost->overhead_detail, sizeof cost->overhead_detail);
    vb_trace_case_init(t, label, &a, start, end, why);
    vb_trace_case_who(t, &who);
    /* before the API calls go: they attribute the work to the windows (a window past the last
     * API record or the last kernel record, when CUPTI's records were taken, has no GPU time) */
    sample(t, !(kinds & VB_ACTIVITY_NO_KERNELS),
           !lost      ? 0
           : api_only ? last_api
                      : last_kernel,
           x, nx);
    if (!keep_apis) drop_apis(&t->r.activity);
    vb_inject_metrics_take(&t->r);
    if (api_only)
        say(t,
            "%s%s%s switched CUPTI's API records off when it stopped: varbench's API records end "
            "%.3f s into the process's %.3f s; its kernels, copies and memsets are all here (to "
            "%.3f s), but the work launched after that cannot be matched to the calls that "
            "launched it (a range's instances after it have no GPU times)",
            cost->client[0] ? "the program's own CUPTI client (" : "another CUPTI client",
            cost->client, cost->client[0] ? ")" : "", (double)(last_api - t_start) / 1e9,
            (double)(end - t_start) / 1e9, (double)(last - t_start) / 1e9);
    else if (lost && cost->client[0])
        say(t,
            "the program's own CUPTI client (%s) took CUPTI's records over: varbench's GPU "
            "records end %.3f s into the process's %.3f s, the kernels, copies and memsets after "
            "that are missing (the NVTX ranges are all here; a range's instances after it have "
            "no GPU times)",
            cost->client, last > t_start ? (double)(last - t_start) / 1e9 : 0.0,
            (double)(end - t_start) / 1e9);
    else if (lost)
        say(t,
            "another CUPTI client took CUPTI's records (one that calls libcupti through its own "
            "pointers, as jax.profiler does, or links CUPTI statically): varbench's GPU records "
            "end %.3f s into the process's %.3f s, the kernels, copies and memsets after that are "
            "missing (the NVTX ranges are all here; a range's instances after it have no GPU "
            "times)",
            last > t_start ? (double)(last - t_start) / 1e9 : 0.0, (double)(end - t_start) / 1e9);
    else if (t->r.activity.dropped)
        say(t, "CUPTI dropped %zu records: counts are low", t->r.activity.dropped);
}

void vb_inject_finish(const char *how)
{
    struct vb_trace_case t, *x = NULL;
    struct vb_trace_cost cost = {NAN, NAN, NAN, NAN, 0, 0, "", 0, 0, 0, 0, ""};
    char why[sizeof t.how];
    size_t nx = 0, i;
    pthread_mutex_lock(&mu);
    if (initialized != 1 || finished || getpid() != owner) {
        pthread_mutex_unlock(&mu);
        return;
    }
    finished = 1;
    snprintf(why, sizeof why, "%s (pid %d)", how, (int)owner);
    if (cuda_started) {
        finish_traced(&t, &cost, why, sizeof why, &x, &nx);
    } else if (vb_nvtx_record_count()) {
        /* NVTX only: the process never started CUDA, its ranges are its trace */
        struct vb_activity a;
        uint64_t start = t_start, end = vb_activity_now();
        memset(&a, 0, sizeof a);
        vb_nvtx_record_take(&a);
        cut(&a, &start, &end, why, sizeof why);
        vb_trace_case_init(&t, label, &a, start, end, why);
        vb_trace_case_who(&t, &who);
        t.r.device = -1;
        snprintf(t.r.reason, sizeof t.r.reason, "NVTX ranges only: the process did not start CUDA");
        sample(&t, 0, 0, &x, &nx);
    } else {
        pthread_mutex_unlock(&mu);
        return;
    }
    write_case(&t, &cost, x, nx);
    vb_trace_case_free(&t);
    for (i = 0; i < nx; i++)
        vb_trace_case_free(&x[i]);
    free(x);
    pthread_mutex_unlock(&mu);
}

/* ---- Starting ----------------------------------------------------------------------------- */

/* subscribe takes CUPTI's one subscriber slot for the counters (their context callbacks) and
 * the kernels' code hashes (module loads); on failure untraced_why says why. */
static int subscribe(void)
{
    CUptiResult rc;
    const char *s = NULL;
    rc = cuptiSubscribe(&subscriber, (CUpti_CallbackFunc)vb_inject_metrics_on_callback, NULL);
    if (rc != CUPTI_SUCCESS) {
        subscriber = NULL;
        if (cuptiGetResultString(rc, &s) != CUPTI_SUCCESS || !s) s = "unknown CUPTI error";
        if (rc == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED ||
            rc == CUPTI_ERROR_NOT_COMPATIBLE)
            snprintf(untraced_why, sizeof untraced_why,
                     "another CUPTI client (ncu, nsys, a profiler in the program?) is attached "
                     "(cuptiSubscribe: %s): the process ran untraced; run varbench trace --metrics "
                     "outside other profilers",
                     s);
        else
            snprintf(untraced_why, sizeof untraced_why,
                     "CUPTI cannot trace this process (cuptiSubscribe: %s, CUPTI %d): it ran "
                     "untraced; check that libcupti matches the driver (nvidia-smi)",
                     s, (int)rc);
        return -1;
    }
    vb_inject_metrics_enable(subscriber);
    return 0;
}

/* start_cupti starts the collector; on failure untraced_why says why. Activity tracing needs
 * no CUPTI subscriber, and without --metrics varbench takes none: a CUPTI client of the
 * program's own (PyTorch's profiler) may subscribe before or after. One that subscribed before
 * CUDA started without the preload seeing it (a static CUPTI, dlsym'd calls) would lose its
 * records to ours: it keeps CUPTI to itself and the process runs untraced. */
static int start_cupti(int metrics)
{
    struct vb_mux_stats m;
    struct vb_err err;
    char other[128];
    vb_err_clear(&err);
    read_mux(&m);
    if (!metrics && !m.subscribed && other_client(other, sizeof other)) {
        snprintf(untraced_why, sizeof untraced_why,
                 "another CUPTI client (%s) was in the process before CUDA started, calling CUPTI "
                 "in a way varbench cannot share: varbench leaves CUPTI to it, so the process ran "
                 "untraced (all its records are missing here); trace the program without its own "
                 "profiler to see them",
                 other);
        return -1;
    }
    if (metrics && subscribe()) return -1;
    if (metrics) kinds |= VB_ACTIVITY_SERIAL_KERNELS; /* activity.h: kernel replay's crash */
    /* one device buffer for the GPU records made ready per context instead of 3 (CUPTI's
     * default): each costs the program 2-2.5 ms at its context's creation on an H100; more are
     * made when a program launches faster than they drain */
    if (VB_CUPTI(&err,
                 cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE,
                                           &(size_t){sizeof(size_t)}, &(size_t){1})))
        vb_err_clear(&err); /* an older CUPTI: its default */
    /* the default set function by function (CUPTI enters no other call), else through the kinds */
    by_function = (kinds & VB_ACTIVITY_API) && !getenv(VB_TRACE_ENV_ALL_APIS) &&
                  !getenv(VB_TRACE_ENV_API_BY_KIND);
    if (by_function && vb_api_set_enable() <= 0) { /* refused, or this CUPTI names none */
        vb_api_set_disable();
        by_function = 0;
        fprintf(stderr,
                "varbench trace: pid %d: CUPTI refused to record API calls function by function; "
                "they are recorded through its API kinds, which costs the program more\n",
                (int)getpid());
    }
    if (vb_activity_start_with(by_function ? kinds & ~(unsigned)VB_ACTIVITY_API : kinds, &err)) {
        snprintf(untraced_why, sizeof untraced_why, "CUPTI activity tracing unavailable: %s%s%s",
                 err.msg, err.hint[0] ? "; " : "", err.hint);
        if (by_function) vb_api_set_disable(); /* untraced: CUPTI enters none of its calls */
        by_function = 0;
        if (subscriber) cuptiUnsubscribe(subscriber);
        subscriber = NULL;
        return -1;
    }
    if (!by_function && (kinds & VB_ACTIVITY_API) && !getenv(VB_TRACE_ENV_ALL_APIS) &&
        vb_api_set_quiet() < 0)
        fprintf(stderr,
                "varbench trace: pid %d: CUPTI refused to leave out the records of API "
                "calls outside the default set; more calls are recorded than usual\n",
                (int)getpid());
    return 0;
}

/* read_options reads --trace's kinds and the capture range from the environment; a value
 * varbench trace would not have written is said and ignored. */
static void read_options(void)
{
    const char *k = getenv(VB_TRACE_ENV_KINDS), *c = getenv(VB_TRACE_ENV_CAPTURE);
    struct vb_err err;
    if (k && !strcmp(k, "gpu")) {
        keep_apis = 0;
        kinds = VB_ACTIVITY_OVERHEAD | VB_ACTIVITY_NO_MARKERS;
    } else if (k && !strcmp(k, "api")) {
        kinds |= VB_ACTIVITY_NO_KERNELS;
    } else if (k && *k && strcmp(k, "api,gpu")) {
        fprintf(stderr, "varbench trace: pid %d: ignoring %s='%s'\n", (int)getpid(),
                VB_TRACE_ENV_KINDS, k);
    }
    vb_err_clear(&err);
    if (c && *c && vb_capture_parse(c, &capture, &err))
        fprintf(stderr, "varbench trace: pid %d: ignoring %s: %s\n", (int)getpid(),
                VB_TRACE_ENV_CAPTURE, err.msg);
    vb_err_clear(&err);
    if (vb_trace_pick_parse(getenv(VB_TRACE_ENV_RANGES), getenv(VB_TRACE_ENV_KERNELS), &pick,
                            &err)) {
        fprintf(stderr, "varbench trace: pid %d: ignoring %s and %s: %s\n", (int)getpid(),
                VB_TRACE_ENV_RANGES, VB_TRACE_ENV_KERNELS, err.msg);
        memset(&pick, 0, sizeof pick);
    }
    /* the capture's windows need the API calls, and so does the work of a sampled range */
    if (capture.kind != VB_CAPTURE_ALL || vb_trace_pick_any(&pick)) kinds |= VB_ACTIVITY_API;
}

/* setup reads the environment varbench trace set and catches the process's end, once per
 * process (a fork that reaches here sets up as a process of its own); called with mu held.
 * 0, or -1 when the library was loaded without varbench trace (said once). */
static int setup(void)
{
    const char *db, *run, *name;
    char *end = NULL;
    long long id;
    if (initialized == 1 && owner == getpid()) return 0;
    if (initialized == -1) return -1;
    db = getenv(VB_TRACE_ENV_DB);
    run = getenv(VB_TRACE_ENV_RUN);
    name = getenv(VB_TRACE_ENV_NAME);
    id = run ? strtoll(run, &end, 10) : 0;
    if (!db || !*db || !run || !end || *end || id < 1) {
        /* loaded by hand, not by varbench trace: nowhere to write; the program runs as is */
        fprintf(stderr,
                "varbench trace: libvarbench_inject.so was loaded without %s and %s; "
                "not tracing (use: varbench trace -- COMMAND)\n",
                VB_TRACE_ENV_DB, VB_TRACE_ENV_RUN);
        initialized = -1;
        return -1;
    }
    snprintf(db_path, sizeof db_path, "%s", db);
    snprintf(label, sizeof label, "%s", name && *name ? name : "program");
    run_id = id;
    owner = getpid();
    finished = cuda_started = traced = 0;
    untraced_why[0] = '\0';
    t_start = vb_activity_now();
    {
        const char *root = getenv(VB_TRACE_ENV_ROOT); /* the pid varbench trace started */
        vb_trace_who_get(root && strtol(root, NULL, 10) == (long)getpid(), &who);
    }
    read_options();
    initialized = 1;
    if (vb_trace_ctl_start())
        fprintf(stderr,
                "varbench trace: pid %d: no thread for the host's control: its steps are "
                "judged as measured\n",
                (int)owner);
    vb_inject_catch_exits(owner, vb_inject_finish);
    return 0;
}

int InitializeInjectionNvtx2(const void *(*get)(uint32_t))
{
    int ok;
    pthread_mutex_lock(&mu);
    ok = setup() == 0;
    pthread_mutex_unlock(&mu);
    return ok ? vb_nvtx_record_attach(get) : 0; /* 0: NVTX turns its calls into no-ops */
}

int InitializeInjection(void)
{
    const char *metrics = getenv(VB_TRACE_ENV_METRICS);
    pthread_mutex_lock(&mu);
    if (setup() || cuda_started) {
        pthread_mutex_unlock(&mu);
        return 1;
    }
    cuda_started = 1;
    init_ns = vb_mono_ns();
    traced = start_cupti(metrics && *metrics && vb_inject_metrics_begin(metrics) == 0) == 0;
    init_ns = vb_mono_ns() - init_ns;
    if (!traced) fprintf(stderr, "varbench trace: pid %d: %s\n", (int)owner, untraced_why);
    pthread_mutex_unlock(&mu);
    return 1; /* the program goes on whatever happened here */
}
