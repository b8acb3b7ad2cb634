/*
 * inject: libvarbench_inject.so, the CUDA injection `varbench trace` puts into the programs it
 * runs (CUDA_INJECTION64_PATH). The driver loads it and calls InitializeInjection when the
 * program initialises CUDA (cuInit); from then on the CUPTI activity collector records the
 * process (kernels, copies, memsets, NVTX ranges, runtime and driver API calls), and when the
 * process ends its records become one case of the run the environment names (trace.h).
 *
 * Ending is the hard part: the records must be committed however the program stops.
 *   - exit() and returning from main, an uncaught Python exception (Python exits normally with
 *     status 1): the atexit handler.
 *   - Python's Ctrl-C: an uncaught KeyboardInterrupt finalises Python, then kills the process
 *     with SIGINT, past every atexit handler; Python's own low-level exit hook (Py_AtExit, run
 *     at the end of finalisation) commits first.
 *   - SIGINT, SIGTERM, SIGHUP with the default action (a C program): a handler holds the
 *     program where the signal found it and wakes a helper thread that commits, restores the
 *     default action and re-raises, so the program still dies of its signal, its trace stored.
 *     Signals the program handles itself are left alone.
 *   - SIGKILL, a crash, _exit: nothing runs; the run says the trace is lost.
 * Only the process that initialised CUDA writes (a fork inherits this state and must not);
 * every process that initialises CUDA (the program's children too) writes its own case.
 *
 * It links CUPTI and SQLite only, never the CUDA runtime (the program brings its own, maybe
 * another version), and exports nothing but InitializeInjection, so no symbol of varbench or
 * SQLite can clash with the program's.
 */
#include <cupti.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "activity.h"
#include "capture.h"
#include "err.h"
#include "env.h"
#include "metric_set.h"
#include "profiler.h"
#include "store.h"
#include "tools.h"
#include "trace.h"

__attribute__((visibility("default"))) int InitializeInjection(void);

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER; /* guards everything below */
static int initialized; /* 1 set up (traced or not), -1 loaded without varbench trace */
static int finished, traced;
static pid_t owner;
static uint64_t t_start;
static char db_path[4096], label[96], untraced_why[1024];
static int64_t run_id;
static CUpti_SubscriberHandle subscriber;
static unsigned kinds = VB_ACTIVITY_API | VB_ACTIVITY_OVERHEAD; /* what CUPTI collects */
static int keep_apis = 1; /* --trace gpu: API calls serve the capture only and are not stored */
static struct vb_capture capture;
static double init_ns; /* CUPTI's start in this process (monotonic) */

/* ---- Counters (varbench trace --metrics) ---------------------------------------------------
 * VARBENCH_TRACE_METRICS holds the resolved metric names. The range profiler (profiler.h)
 * runs on the first context the program creates, from its creation (auto range: one range per
 * kernel launch; kernel replay) until the context is destroyed or the process ends. Under it,
 * kernel activity records carry no timestamps: a trace with counters is for counters, as with
 * nvprof --metrics. Callbacks run on the program's threads; finish() takes the values. */
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

/* metrics_begin parses the list and creates the profiler; 0, or -1 (said) when it cannot. */
static int metrics_begin(const char *list)
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

static void metrics_context_ending(CUcontext ctx)
{
    if (ctx && ctx == prof_ctx) metrics_stop();
}

/* metrics_take hands the values and the outcome to the process's case. */
static void metrics_take(struct vb_case_result *r)
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

/* ---- CUPTI callbacks ---------------------------------------------------------------------- */

/* on_callback: the context events of the counters (--metrics). Runs on the program's threads:
 * it takes no lock of ours. */
static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void *data)
{
    const CUpti_ResourceData *rd = data;
    (void)userdata;
    if (domain != CUPTI_CB_DOMAIN_RESOURCE || !rd) return;
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
        metrics_context(rd->context);
    else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
        metrics_context_ending(rd->context);
}

/* ---- Writing the case --------------------------------------------------------------------- */

static double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void CUPTIAPI no_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void *data)
{
    (void)userdata;
    (void)domain;
    (void)cbid;
    (void)data;
}

/* other_client: whether another CUPTI client holds CUPTI's one subscriber slot now (a profiler
 * inside the program: PyTorch's, a tool of its own); its name goes into name. Leaves the slot as
 * it found it. */
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

/* drop_apis frees a's API records (collected for the capture windows only) */
static void drop_apis(struct vb_activity *a)
{
    size_t i;
    for (i = 0; i < a->napis; i++)
        free(a->apis[i].name);
    a->napis = 0;
}

/* last_record: the end of the latest record of a (0 when none) */
static uint64_t last_record(const struct vb_activity *a)
{
    uint64_t t = 0;
    size_t i;
    for (i = 0; i < a->napis; i++)
        if (a->apis[i].end > t) t = a->apis[i].end;
    for (i = 0; i < a->nkernels; i++)
        if (a->kernels[i].end > t) t = a->kernels[i].end;
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

/* driver_version asks the driver already loaded in the process (never loading one). */
static int driver_version(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    int v = 0;
    if (h) {
        int (*get)(int *) = (int (*)(int *))dlsym(h, "cuDriverGetVersion");
        if (!get || get(&v) != 0) v = 0;
        dlclose(h);
    }
    return v;
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
        memset(&g, 0, sizeof g);
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

/* write_case stores t and what tracing cost the process; prints why when it cannot. */
static void write_case(struct vb_trace_case *t, struct vb_trace_cost *cost)
{
    struct vb_store *s = NULL;
    struct vb_err err;
    double t0 = mono_ns();
    int64_t case_id = 0;
    vb_err_clear(&err);
    if (vb_store_open(db_path, &s, &err) == 0) {
        store_devices(s, &t->r.activity);
        if (vb_store_case(s, run_id, &t->r, &case_id, &err) == 0) {
            cost->store_ns = mono_ns() - t0;
            if (traced && vb_store_trace_cost(s, case_id, cost, &err))
                fprintf(stderr, "varbench trace: pid %d: the tracing cost was not stored: %s\n",
                        (int)owner, err.msg);
            vb_err_clear(&err);
        }
        vb_store_close(s);
    }
    if (err.msg[0])
        fprintf(stderr, "varbench trace: pid %d: the trace was not stored: %s\n%s%s%s", (int)owner,
                err.msg, err.hint[0] ? "hint: " : "", err.hint, err.hint[0] ? "\n" : "");
}

/* finish collects the records and writes the process's case, once, from the process that
 * initialised CUDA; `how` says how the traced window ended ("exit", "signal 2", ...). */
static void finish(const char *how)
{
    struct vb_activity a;
    struct vb_trace_case t;
    struct vb_trace_cost cost = {NAN, NAN, NAN, NAN, 0, 0};
    struct vb_err err;
    char why[sizeof t.how], other[256];
    uint64_t end, start = t_start, last;
    int joined;
    double t0;
    pthread_mutex_lock(&mu);
    if (initialized != 1 || finished || getpid() != owner) {
        pthread_mutex_unlock(&mu);
        return;
    }
    finished = 1;
    memset(&a, 0, sizeof a);
    snprintf(why, sizeof why, "%s (pid %d)", how, (int)owner);
    vb_err_clear(&err);
    end = vb_activity_now();
    joined = traced && other_client(other, sizeof other);
    if (traced) {
        t0 = mono_ns();
        if (vb_activity_dump_devices(&err)) vb_err_clear(&err); /* the GPU rows are optional */
        end = vb_activity_now();
        if (vb_activity_take(&a, &err)) {
            snprintf(untraced_why, sizeof untraced_why, "CUPTI could not flush the records: %s",
                     err.msg);
            traced = 0;
        }
        /* what the process does from here on is not recorded; a CUPTI client of the program's
         * own keeps what it enabled */
        if (!joined) vb_activity_stop();
        cost.flush_ns = mono_ns() - t0;
    }
    /* the driver loaded the injection, yet CUDA did not start (no device visible): say that */
    if (traced && !a.nkernels && !a.ncopies && !a.nmemsets &&
        vb_cuda_probe(1, other, sizeof other)) {
        snprintf(untraced_why, sizeof untraced_why,
                 "CUDA could not start in the process (%s): nothing ran on a GPU", other);
        fprintf(stderr, "varbench trace: pid %d: %s\n", (int)owner, untraced_why);
        vb_activity_free(&a);
        traced = 0;
    }
    if (traced) {
        cost.init_ns = init_ns;
        cost.cupti_overhead_ns = (double)a.overhead_ns;
        cost.cupti_overhead_count = (int64_t)a.noverhead;
        cost.dropped_records = (int64_t)a.dropped;
        last = last_record(&a);
        cut(&a, &start, &end, why, sizeof why);
        if (!keep_apis) drop_apis(&a);
        vb_trace_case_init(&t, label, &a, start, end, why);
        metrics_take(&t.r);
        if (joined && last > t_start) {
            snprintf(t.r.reason, sizeof t.r.reason,
                     "another CUPTI client (%s) joined the process: it took CUPTI's records from "
                     "then on; varbench's end %.3f s into the process's %.3f s, later ones are "
                     "missing",
                     other, (double)(last - t_start) / 1e9, (double)(end - t_start) / 1e9);
            fprintf(stderr, "varbench trace: pid %d: %s\n", (int)owner, t.r.reason);
        } else if (joined) {
            snprintf(t.r.reason, sizeof t.r.reason,
                     "another CUPTI client (%s) joined the process and took CUPTI's records, "
                     "those buffered before it too: varbench has none of the process's %.3f s",
                     other, (double)(end - t_start) / 1e9);
            fprintf(stderr, "varbench trace: pid %d: %s\n", (int)owner, t.r.reason);
        } else if (t.r.activity.dropped) {
            snprintf(t.r.reason, sizeof t.r.reason, "CUPTI dropped %zu records: counts are low",
                     t.r.activity.dropped);
            fprintf(stderr, "varbench trace: pid %d: %s\n", (int)owner, t.r.reason);
        }
    } else {
        vb_activity_free(&a);
        vb_trace_case_untraced(&t, label, t_start, end, why, untraced_why);
    }
    write_case(&t, &cost);
    vb_trace_case_free(&t);
    pthread_mutex_unlock(&mu);
}

static void at_exit(void)
{
    finish("exit");
}

static void at_python_exit(void)
{
    finish("python exit");
}

/* hook_python registers at_python_exit with the Python interpreter of this process, if there is
 * one: it runs at the end of Py_FinalizeEx, also before Python re-raises an unhandled SIGINT. */
static void hook_python(void)
{
    int (*is_init)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "Py_IsInitialized");
    int (*at)(void (*)(void)) = (int (*)(void (*)(void)))dlsym(RTLD_DEFAULT, "Py_AtExit");
    if (is_init && at && is_init() && at(at_python_exit))
        fprintf(stderr,
                "varbench trace: pid %d: Py_AtExit is full: a Ctrl-C that ends Python "
                "loses the trace\n",
                (int)getpid());
}

/* ---- Signals ------------------------------------------------------------------------------ */

static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
static sem_t wake;
static volatile sig_atomic_t pending;

/* on_signal holds the thread the signal found (where the default action would have ended the
 * program) while the helper commits and re-raises; if that takes over 20 s (the helper waits on a
 * lock this thread holds, say), or at a second signal, or in a fork, the default action now. */
static void on_signal(int sig)
{
    struct timespec pause = {0, 50 * 1000 * 1000};
    int saved = errno, k;
    if (getpid() == owner && !pending) {
        pending = sig;
        sem_post(&wake);
        for (k = 0; k < 400; k++)
            nanosleep(&pause, NULL);
    }
    signal(sig, SIG_DFL);
    raise(sig);
    errno = saved;
}

/* signal_thread waits for a caught signal, commits, then dies of it with its default action. */
static void *signal_thread(void *arg)
{
    struct sigaction dfl;
    sigset_t set;
    char how[32];
    int sig;
    (void)arg;
    while (sem_wait(&wake) != 0 && errno == EINTR) {
    }
    sig = pending;
    snprintf(how, sizeof how, "signal %d", sig);
    finish(how);
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig); /* not reached: the default action of these signals ends the process */
}

/* catch_signals takes over SIGINT, SIGTERM and SIGHUP where the program left them at the
 * default action; the helper thread blocks every signal so that none of the program's lands
 * there. */
static void catch_signals(void)
{
    struct sigaction sa, old;
    sigset_t all, prev;
    pthread_t th;
    size_t i;
    int any = 0;
    if (sem_init(&wake, 0, 0) == 0) {
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &prev);
        if (pthread_create(&th, NULL, signal_thread, NULL) == 0) {
            pthread_detach(th);
            any = 1;
        }
        pthread_sigmask(SIG_SETMASK, &prev, NULL);
    }
    if (!any) {
        fprintf(stderr,
                "varbench trace: pid %d: no helper thread (%s): a signal that ends the "
                "program loses its trace\n",
                (int)getpid(), strerror(errno));
        return;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESTART | SA_NODEFER; /* a second Ctrl-C ends the program at once */
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof caught / sizeof caught[0]; i++)
        if (sigaction(caught[i], NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
            old.sa_handler == SIG_DFL)
            sigaction(caught[i], &sa, NULL);
}

/* ---- Starting ----------------------------------------------------------------------------- */

/* subscribe takes CUPTI's one subscriber slot for the counters (their context callbacks); on
 * failure untraced_why says why. */
static int subscribe(void)
{
    struct vb_err err;
    CUptiResult rc;
    const char *s = NULL;
    vb_err_clear(&err);
    rc = cuptiSubscribe(&subscriber, (CUpti_CallbackFunc)on_callback, NULL);
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
    if (VB_CUPTI(&err, cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                           CUPTI_CBID_RESOURCE_CONTEXT_CREATED)) ||
        VB_CUPTI(&err, cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                           CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING))) {
        fprintf(stderr, "varbench trace: pid %d: no counters: %s\n", (int)getpid(), err.msg);
        vb_err_clear(&err);
    }
    return 0;
}

/* start_cupti starts the collector; on failure untraced_why says why. Activity tracing needs
 * no CUPTI subscriber, and without --metrics varbench takes none: a CUPTI client of the
 * program's own (PyTorch's profiler) may still subscribe later. One that subscribed before
 * CUDA started keeps CUPTI to itself: the process then runs untraced. */
static int start_cupti(int metrics)
{
    struct vb_err err;
    char other[128];
    vb_err_clear(&err);
    if (!metrics && other_client(other, sizeof other)) {
        snprintf(untraced_why, sizeof untraced_why,
                 "another CUPTI client (%s) was in the process before CUDA started: varbench "
                 "leaves CUPTI to it, so the process ran untraced (all its records are missing "
                 "here); trace the program without its own profiler to see them",
                 other);
        return -1;
    }
    if (metrics && subscribe()) return -1;
    /* one device buffer for the GPU records made ready per context instead of 3 (CUPTI's
     * default): each costs the program 2-2.5 ms at its context's creation on an H100; more are
     * made when a program launches faster than they drain */
    if (VB_CUPTI(&err,
                 cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE,
                                           &(size_t){sizeof(size_t)}, &(size_t){1})))
        vb_err_clear(&err); /* an older CUPTI: its default */
    if (vb_activity_start_with(kinds, &err)) {
        snprintf(untraced_why, sizeof untraced_why, "CUPTI activity tracing unavailable: %s%s%s",
                 err.msg, err.hint[0] ? "; " : "", err.hint);
        if (subscriber) cuptiUnsubscribe(subscriber);
        subscriber = NULL;
        return -1;
    }
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
        kinds = VB_ACTIVITY_OVERHEAD;
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
    if (capture.kind != VB_CAPTURE_ALL) kinds |= VB_ACTIVITY_API; /* the windows need them */
}

int InitializeInjection(void)
{
    const char *db, *run, *name, *metrics;
    char *end = NULL;
    long long id;
    pthread_mutex_lock(&mu);
    if (initialized) {
        pthread_mutex_unlock(&mu);
        return 1;
    }
    db = getenv(VB_TRACE_ENV_DB);
    run = getenv(VB_TRACE_ENV_RUN);
    name = getenv(VB_TRACE_ENV_NAME);
    metrics = getenv(VB_TRACE_ENV_METRICS);
    id = run ? strtoll(run, &end, 10) : 0;
    if (!db || !*db || !run || !end || *end || id < 1) {
        /* loaded by hand, not by varbench trace: nowhere to write; the program runs as is */
        fprintf(stderr,
                "varbench trace: libvarbench_inject.so was loaded without %s and %s; "
                "not tracing (use: varbench trace -- COMMAND)\n",
                VB_TRACE_ENV_DB, VB_TRACE_ENV_RUN);
        initialized = -1;
        pthread_mutex_unlock(&mu);
        return 1;
    }
    snprintf(db_path, sizeof db_path, "%s", db);
    snprintf(label, sizeof label, "%s", name && *name ? name : "program");
    run_id = id;
    owner = getpid();
    t_start = vb_activity_now();
    read_options();
    init_ns = mono_ns();
    traced = start_cupti(metrics && *metrics && metrics_begin(metrics) == 0) == 0;
    init_ns = mono_ns() - init_ns;
    if (traced)
        t_start = vb_activity_now();
    else
        fprintf(stderr, "varbench trace: pid %d: %s\n", (int)owner, untraced_why);
    initialized = 1;
    if (atexit(at_exit))
        fprintf(stderr,
                "varbench trace: pid %d: atexit failed: the trace is stored only if Python "
                "ends the process or a signal does\n",
                (int)owner);
    hook_python();
    catch_signals();
    pthread_mutex_unlock(&mu);
    return 1; /* the program goes on whatever happened here */
}
