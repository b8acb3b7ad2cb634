/*
 * cupti_mux: libvarbench_preload.so, CUPTI shared by varbench trace and the program's own CUPTI
 * client (see cupti_mux.h). Each function below carries the name and prototype of the libcupti
 * function it stands in for; a call from libcupti itself, or from a process without the other
 * client, goes straight to libcupti's. Calls are told apart by their return address: from
 * libvarbench_inject.so they are varbench's, from libcupti its own, from anywhere else the
 * program's. libcupti is looked up when a call first needs it, among the libraries already
 * loaded (the caller brought it): the preload itself links nothing but libc.
 *
 * Two locks. mu guards the state: every decision is taken under it, and libcupti is called after
 * it is released (a flush runs the buffer callbacks, maybe on CUPTI's own thread, which takes mu
 * with CUPTI's own lock held). sw serializes the clients' switches (kinds, API functions,
 * cuptiFinalize) with the libcupti calls that carry them out, so CUPTI is told the union in the
 * order the clients changed it; the clients' on[] and fn[] change under both, fn_real under sw.
 * Both recursive: a client's callback that CUPTI runs during a switch may switch again.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "cupti_mux.h"
#include "stamp.h"

#include <cupti.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT       __attribute__((visibility("default")))
#define BUF_SIZE     (8u << 20)
#define NKINDS       CUPTI_ACTIVITY_KIND_COUNT
#define FLUSH_FORCED 1 /* CUPTI_ACTIVITY_FLAG_FLUSH_FORCED */

/* ---- libcupti's own functions ------------------------------------------------------------ */

static void *cupti_lib(void)
{
    static void *h;
    if (!h) h = dlopen("libcupti.so.13", RTLD_NOW | RTLD_NOLOAD);
    if (!h) h = dlopen("libcupti.so", RTLD_NOW | RTLD_NOLOAD);
    return h;
}

/* real returns libcupti's function name: through the loaded library (a program's libcupti may
 * sit in a local scope, where RTLD_NEXT does not reach), else the next definition */
static void *real(const char *name)
{
    void *h = cupti_lib(), *p = h ? dlsym(h, name) : NULL;
    return p ? p : dlsym(RTLD_NEXT, name);
}

/* REAL(name) is libcupti's name, looked up once (threads that race store the same address) */
#define REAL(name)                                                                                 \
    ({                                                                                             \
        static void *addr_;                                                                        \
        void *p_ = __atomic_load_n(&addr_, __ATOMIC_ACQUIRE);                                      \
        if (!p_ && (p_ = real(#name))) __atomic_store_n(&addr_, p_, __ATOMIC_RELEASE);             \
        (__typeof__(&name))p_;                                                                     \
    })

/* CALL(name, args): libcupti's name(args), or CUPTI_ERROR_NOT_INITIALIZED without libcupti */
#define CALL(name, ...) (REAL(name) ? REAL(name)(__VA_ARGS__) : CUPTI_ERROR_NOT_INITIALIZED)

/* ---- Who calls ---------------------------------------------------------------------------- */

enum who { VB, PROG, CUPTI };

static const char *basename_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static pthread_mutex_t mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static struct vb_mux_stats st; /* guarded by mu */
static pthread_mutex_t sw = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

/* who_called tells varbench's, libcupti's and the program's calls apart by the caller's
 * library; the program's first names its client in st */
static enum who who_called(void *ra)
{
    Dl_info di, ci;
    void *own = REAL(cuptiGetVersion);
    if (!dladdr(ra, &di)) return PROG; /* code outside every library: the program's own */
    if (di.dli_fname && strstr(basename_of(di.dli_fname), "libvarbench_inject")) return VB;
    if (own && dladdr(own, &ci) && ci.dli_fbase == di.dli_fbase) return CUPTI;
    pthread_mutex_lock(&mu);
    if (!st.client[0])
        strncpy(st.client, di.dli_fname && *di.dli_fname ? basename_of(di.dli_fname) : "program",
                sizeof st.client - 1);
    pthread_mutex_unlock(&mu);
    return PROG;
}

#define CALLER() who_called(__builtin_extract_return_addr(__builtin_return_address(0)))

/* ---- The two clients ---------------------------------------------------------------------- */

/* A client's switch of one API function's records. CUPTI records a function while its domain's
 * kind is on (the kind's enable overrides the switches made before it), or while the function is
 * switched on alone (cuptiActivityEnableRuntimeApi/DriverApi with the kind off: varbench's default
 * set, which keeps CUPTI out of the calls nobody records). */
enum fn { FN_KIND, FN_ON, FN_OFF }; /* as its domain's kind; switched on; switched off */
#define FN_MAX                                                                                     \
    ((int)CUPTI_RUNTIME_TRACE_CBID_SIZE > (int)CUPTI_DRIVER_TRACE_CBID_SIZE                        \
         ? (int)CUPTI_RUNTIME_TRACE_CBID_SIZE                                                      \
         : (int)CUPTI_DRIVER_TRACE_CBID_SIZE)
static const uint32_t fn_size[2] = {CUPTI_RUNTIME_TRACE_CBID_SIZE, CUPTI_DRIVER_TRACE_CBID_SIZE};
static const CUpti_ActivityKind fn_kind[2] = {CUPTI_ACTIVITY_KIND_RUNTIME,
                                              CUPTI_ACTIVITY_KIND_DRIVER};

/* api_domain: 0 for the runtime API's kind, 1 for the driver's, -1 for any other kind */
static int api_domain(int kind)
{
    return kind == CUPTI_ACTIVITY_KIND_RUNTIME ? 0 : kind == CUPTI_ACTIVITY_KIND_DRIVER ? 1 : -1;
}

struct client {
    CUpti_BuffersCallbackRequestFunc req;
    CUpti_BuffersCallbackCompleteFunc comp;
    uint8_t on[NKINDS], ever[NKINDS];      /* enabled now; enabled since its callbacks came */
    uint64_t since[NKINDS], until[NKINDS]; /* its last enable and disable (CLOCK_REALTIME) */
    uint8_t fn[2][FN_MAX];      /* [runtime, driver][cbid]: its switch of the function (enum fn) */
    CUpti_SubscriberHandle sub; /* the subscriber it holds */
    uint8_t *buf;               /* the buffer of its own being filled */
    size_t size, used, max, nrec;
};

static struct client cl[2]; /* [VB], [PROG] */
static int direct = -1;     /* the client whose callbacks CUPTI has (-1: none, or the preload's) */
static int muxed;           /* CUPTI has the preload's callbacks */
static int before_mux = -1; /* the client that was direct when the preload's came */
static CUpti_TimestampCallbackFunc stamp_clock;
static uint8_t fn_real[2][FN_MAX]; /* [runtime, driver][cbid]: CUPTI records it, as last told */

/* A record's time in CLOCK_REALTIME ns (stamp.h): a stamp of the program's timestamp callback
 * is mapped through two readings of both clocks, one at the registration, one at each buffer
 * (fresh_map). */
static uint64_t clock0, real0;                /* both read at the registration */
static struct vb_stamp_map map = {0, 0, 1.0}; /* both read at the buffer being routed */

static void fresh_map(void)
{
    if (!stamp_clock) return;
    map.real1 = vb_realtime_ns();
    map.clock1 = stamp_clock();
    if (map.clock1 > clock0 + 1000000 && map.real1 > real0) /* a rate from readings apart */
        map.rate = (double)(map.real1 - real0) / (double)(map.clock1 - clock0);
}

static uint64_t to_realtime(uint64_t t)
{
    return stamp_clock ? vb_stamp_to_realtime(&map, t) : t;
}

static int registered(const struct client *c)
{
    return c->comp != NULL;
}

static int any_on(const struct client *c)
{
    int k;
    for (k = 0; k < NKINDS; k++)
        if (c->on[k]) return 1;
    return 0;
}

/* present: the client is using CUPTI (it has callbacks or kinds on) */
static int present(const struct client *c)
{
    return registered(c) || any_on(c);
}

/* ---- Buffers: the preload's own, and copies into the clients' ------------------------------ */

#define MAX_OWN 256
static uint8_t *own[MAX_OWN]; /* the preload's buffers CUPTI holds; guarded by mu */

static void CUPTIAPI mux_request(uint8_t **buffer, size_t *size, size_t *max_records)
{
    int i;
    *buffer = calloc(1, BUF_SIZE); /* fresh pages: zero without touching them */
    *size = *buffer ? BUF_SIZE : 0;
    *max_records = 0;
    pthread_mutex_lock(&mu);
    for (i = 0; *buffer && i < MAX_OWN; i++)
        if (!own[i]) {
            own[i] = *buffer;
            break;
        }
    pthread_mutex_unlock(&mu);
}

/* mine: whether b is one of the preload's buffers (then no longer listed) */
static int mine(uint8_t *b)
{
    int i;
    for (i = 0; i < MAX_OWN; i++)
        if (own[i] == b) {
            own[i] = NULL;
            return 1;
        }
    return 0;
}

/* stamp returns a record's time, or 0 for kinds that carry none */
static uint64_t stamp(const CUpti_Activity *r)
{
    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return ((const CUpti_ActivityKernel10 *)r)->start;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        return ((const CUpti_ActivityMemcpy6 *)r)->start;
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        return ((const CUpti_ActivityMemcpyPtoP4 *)r)->start;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        return ((const CUpti_ActivityMemset4 *)r)->start;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
        return ((const CUpti_ActivityAPI *)r)->start;
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
        return ((const CUpti_ActivityOverhead3 *)r)->start;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        return ((const CUpti_ActivitySynchronization2 *)r)->start;
    case CUPTI_ACTIVITY_KIND_MARKER:
        return ((const CUpti_ActivityMarker2 *)r)->timestamp;
    default:
        return 0;
    }
}

/* wants: whether client c enabled r's kind when r happened, and did not switch its function off.
 * varbench keeps its kinds on for the process's life: its records need no window, which keeps
 * them whatever clock the program's timestamp callback gave CUPTI since. */
static int wants(int who, const struct client *c, const CUpti_Activity *r)
{
    int k = (int)r->kind;
    uint64_t t;
    if (k <= 0 || k >= NKINDS) return 0;
    if (k == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && !c->ever[k])
        k = CUPTI_ACTIVITY_KIND_KERNEL; /* one kind of kernel record whichever was asked for */
    if (api_domain(k) >= 0) {
        uint32_t cbid = ((const CUpti_ActivityAPI *)r)->cbid, d = (uint32_t)api_domain(k);
        int fn = cbid < fn_size[d] ? c->fn[d][cbid] : FN_KIND;
        if (fn != FN_KIND) return fn == FN_ON; /* switched alone: no window, as varbench's kinds */
    }
    if (!c->ever[k]) return 0;
    if (who == VB || !(t = stamp(r))) return 1;
    t = to_realtime(t);
    return t >= c->since[k] && (c->on[k] || t <= c->until[k]);
}

/* complete hands c the buffer it is being filled */
static void complete(struct client *c, CUcontext ctx, uint32_t stream)
{
    uint8_t *b = c->buf;
    if (!b) return;
    c->buf = NULL;
    c->comp(ctx, stream, b, c->size, c->used);
}

static void count(const CUpti_Activity *r)
{
    st.records++;
    if (r->kind == CUPTI_ACTIVITY_KIND_KERNEL || r->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
        st.kernels++;
    else if (r->kind == CUPTI_ACTIVITY_KIND_MEMCPY || r->kind == CUPTI_ACTIVITY_KIND_MEMCPY2)
        st.copies++;
    else if (r->kind == CUPTI_ACTIVITY_KIND_MEMSET)
        st.memsets++;
    else if (r->kind == CUPTI_ACTIVITY_KIND_RUNTIME || r->kind == CUPTI_ACTIVITY_KIND_DRIVER)
        st.apis++;
}

/* fetch asks c for a buffer; 0, or -1 when it gives none of at least n bytes */
static int fetch(struct client *c, size_t n)
{
    uint8_t *b = NULL;
    size_t size = 0, max = 0;
    c->req(&b, &size, &max);
    if (!b || size < n) return -1; /* one it gave but too small stays its own: never seen again */
    c->buf = b, c->size = size, c->max = max, c->used = c->nrec = 0;
    return 0;
}

/* hold keeps a buffer of the program's client out while it has kinds on, as CUPTI alone keeps one
 * while it records: Kineto flushes at its stop only when it has buffers out, and would otherwise
 * stop before its records reach it. (varbench's collector asks for buffers as records come.) */
static void hold(void)
{
    struct client *c = &cl[PROG];
    if (muxed && registered(c) && !c->buf && any_on(c)) fetch(c, 0);
}

/* deliver copies record r (n bytes) into a buffer of c's, asking c for one when needed */
static void deliver(int who, CUcontext ctx, uint32_t stream, const CUpti_Activity *r, size_t n)
{
    struct client *c = &cl[who];
    if (c->buf && (c->size - c->used < n || (c->max && c->nrec >= c->max)))
        complete(c, ctx, stream);
    if (!c->buf && fetch(c, n)) {
        if (who == PROG) st.lost++;
        return;
    }
    memcpy(c->buf + c->used, r, n);
    c->used += n;
    c->nrec++;
    if (who == PROG) count(r);
}

/* mux_complete routes a buffer CUPTI filled: each record to each client that wants it; a buffer
 * of the client whose callbacks CUPTI had before the preload's goes back to it whole */
static void CUPTIAPI mux_complete(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                  size_t valid)
{
    CUpti_Activity *r = NULL, *prev = NULL;
    int ours, owner, w;
    pthread_mutex_lock(&mu);
    ours = mine(buffer);
    owner = ours ? -1 : before_mux;
    fresh_map();
    for (;;) {
        CUptiResult rc = valid ? CALL(cuptiActivityGetNextRecord, buffer, valid, &r) : 1;
        const uint8_t *end = rc == CUPTI_SUCCESS ? (const uint8_t *)r : buffer + valid;
        if (prev)
            for (w = VB; w <= PROG; w++)
                if (w != owner && registered(&cl[w]) && wants(w, &cl[w], prev))
                    deliver(w, ctx, stream, prev, (size_t)(end - (const uint8_t *)prev));
        if (rc != CUPTI_SUCCESS) break;
        prev = r;
    }
    for (w = VB; w <= PROG; w++)
        if (registered(&cl[w])) complete(&cl[w], ctx, stream);
    hold();
    if (owner >= 0 && registered(&cl[owner])) {
        CUpti_BuffersCallbackCompleteFunc comp = cl[owner].comp;
        pthread_mutex_unlock(&mu);
        comp(ctx, stream, buffer, size, valid);
        return;
    }
    pthread_mutex_unlock(&mu);
    if (ours) free(buffer); /* a client's that has gone is left: how it frees is its own */
}

/* ---- Callbacks, kinds and API switches: the union of the clients' -------------------------- */

/* take_callbacks gives CUPTI the callbacks the clients' now call for: the one client's own, or
 * (both registered) the preload's, after a forced flush returned the buffers CUPTI held to the
 * client they came from. Called without mu. */
static CUptiResult take_callbacks(void)
{
    CUpti_BuffersCallbackRequestFunc req = NULL;
    CUpti_BuffersCallbackCompleteFunc comp = NULL;
    CUptiResult rc;
    int both, one;
    pthread_mutex_lock(&mu);
    both = registered(&cl[VB]) && registered(&cl[PROG]);
    one = registered(&cl[VB]) ? VB : registered(&cl[PROG]) ? PROG : -1;
    if (!muxed && !both && one >= 0 && direct != one) {
        req = cl[one].req, comp = cl[one].comp;
        direct = one;
    }
    pthread_mutex_unlock(&mu);
    if (req) return CALL(cuptiActivityRegisterCallbacks, req, comp);
    if (!both || muxed) return CUPTI_SUCCESS;
    CALL(cuptiActivityFlushAll, FLUSH_FORCED);
    pthread_mutex_lock(&mu);
    muxed = st.shared = 1;
    before_mux = direct;
    direct = -1;
    pthread_mutex_unlock(&mu);
    rc = CALL(cuptiActivityRegisterCallbacks, mux_request, mux_complete);
    pthread_mutex_lock(&mu);
    hold();
    pthread_mutex_unlock(&mu);
    return rc;
}

/* wanted: whether client c wants the records of function id of domain d (0 runtime, 1 driver) */
static int wanted(const struct client *c, int d, uint32_t id)
{
    return c->fn[d][id] == FN_ON || (c->fn[d][id] == FN_KIND && c->on[fn_kind[d]]);
}

/* sync_api tells CUPTI to record function id of domain d when a client wants it, and not when
 * none does, where that differs from what it was last told. Called with sw held, mu not. */
static CUptiResult sync_api(int d, uint32_t id)
{
    uint8_t want = (uint8_t)(wanted(&cl[VB], d, id) || wanted(&cl[PROG], d, id));
    if (fn_real[d][id] == want) return CUPTI_SUCCESS;
    fn_real[d][id] = want;
    return d ? CALL(cuptiActivityEnableDriverApi, id, want)
             : CALL(cuptiActivityEnableRuntimeApi, id, want);
}

/* kind_reached syncs the functions of kind's domain to the clients' union after a change of
 * the clients' switches; reached: CUPTI's kind itself was just switched on (every function of its
 * domain recorded, the switches before overridden) or off (none), -1: CUPTI's kind was left as it
 * was. Those one client switched on alone come back after the other's disable, those nobody wants
 * go off after an enable. A kind outside the API domains is left. Called with sw held, mu not. */
static void kind_reached(int kind, int reached)
{
    int d = api_domain(kind);
    uint32_t id;
    for (id = 0; d >= 0 && id < fn_size[d]; id++) {
        if (reached >= 0) fn_real[d][id] = (uint8_t)reached;
        sync_api(d, id);
    }
}

/* forget_fns drops w's switches of kind's functions (the kind's enable or disable overrides) */
static void forget_fns(enum who w, int kind)
{
    int d = api_domain(kind);
    if (d >= 0) memset(cl[w].fn[d], FN_KIND, sizeof cl[w].fn[d]);
}

/* A forced flush returns every buffer CUPTI holds to its owner: once the records CUPTI held are
 * routed, the clients' own buffers being filled go back too (the program's held one included). */
EXPORT CUptiResult cuptiActivityFlushAll(uint32_t flag)
{
    enum who w = CALLER();
    CUptiResult rc = CALL(cuptiActivityFlushAll, flag);
    int k;
    if (w == CUPTI || !(flag & FLUSH_FORCED)) return rc;
    pthread_mutex_lock(&mu);
    for (k = VB; muxed && k <= PROG; k++)
        if (registered(&cl[k])) complete(&cl[k], NULL, 0);
    hold();
    pthread_mutex_unlock(&mu);
    return rc;
}

EXPORT CUptiResult cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc req,
                                                  CUpti_BuffersCallbackCompleteFunc comp)
{
    enum who w = CALLER();
    int k;
    if (w == CUPTI || !req || !comp) return CALL(cuptiActivityRegisterCallbacks, req, comp);
    pthread_mutex_lock(&mu);
    if (w == PROG) st.seen = 1;
    if (!registered(&cl[w]))
        for (k = 0; k < NKINDS; k++) /* a fresh client: what it enables from now on counts */
            cl[w].ever[k] = cl[w].on[k];
    cl[w].req = req;
    cl[w].comp = comp;
    if (direct == (int)w) direct = -1; /* new callbacks of the direct client: give them to CUPTI */
    pthread_mutex_unlock(&mu);
    return take_callbacks();
}

/* other_on: whether a client other than w has kind on */
static int other_on(enum who w, CUpti_ActivityKind kind)
{
    return (int)kind < NKINDS && cl[w == VB ? PROG : VB].on[kind];
}

/* switched records w's enable or disable of kind */
static void switched(enum who w, CUpti_ActivityKind kind, int on)
{
    struct client *c = &cl[w];
    if ((int)kind <= 0 || (int)kind >= NKINDS || c->on[kind] == on) return;
    c->on[kind] = (uint8_t)on;
    if (on) {
        c->ever[kind] = 1;
        c->since[kind] = vb_realtime_ns();
    } else {
        c->until[kind] = vb_realtime_ns();
    }
}

EXPORT CUptiResult cuptiActivityEnable(CUpti_ActivityKind kind)
{
    enum who w = CALLER();
    CUptiResult rc;
    if (w == CUPTI) return CALL(cuptiActivityEnable, kind);
    pthread_mutex_lock(&sw);
    rc = CALL(cuptiActivityEnable, kind);
    if (rc == CUPTI_SUCCESS) {
        pthread_mutex_lock(&mu);
        if (w == PROG) st.seen = 1;
        switched(w, kind, 1);
        forget_fns(w, kind);
        pthread_mutex_unlock(&mu);
        kind_reached(kind, 1);
        pthread_mutex_lock(&mu);
        hold();
        pthread_mutex_unlock(&mu);
    }
    pthread_mutex_unlock(&sw);
    return rc;
}

EXPORT CUptiResult cuptiActivityDisable(CUpti_ActivityKind kind)
{
    enum who w = CALLER();
    CUptiResult rc = CUPTI_SUCCESS;
    int keep;
    if (w == CUPTI) return CALL(cuptiActivityDisable, kind);
    pthread_mutex_lock(&sw);
    pthread_mutex_lock(&mu);
    switched(w, kind, 0);
    forget_fns(w, kind);
    keep = other_on(w, kind);
    pthread_mutex_unlock(&mu);
    if (!keep) rc = CALL(cuptiActivityDisable, kind);
    kind_reached(kind, keep ? -1 : 0);
    pthread_mutex_unlock(&sw);
    return rc;
}

EXPORT CUptiResult cuptiActivityEnableContext(CUcontext ctx, CUpti_ActivityKind kind)
{
    enum who w = CALLER();
    CUptiResult rc;
    if (w == CUPTI) return CALL(cuptiActivityEnableContext, ctx, kind);
    pthread_mutex_lock(&sw);
    rc = CALL(cuptiActivityEnableContext, ctx, kind);
    pthread_mutex_lock(&mu);
    if (rc == CUPTI_SUCCESS) switched(w, kind, 1);
    pthread_mutex_unlock(&mu);
    pthread_mutex_unlock(&sw);
    return rc;
}

EXPORT CUptiResult cuptiActivityDisableContext(CUcontext ctx, CUpti_ActivityKind kind)
{
    enum who w = CALLER();
    CUptiResult rc = CUPTI_SUCCESS;
    int keep;
    if (w == CUPTI) return CALL(cuptiActivityDisableContext, ctx, kind);
    pthread_mutex_lock(&sw);
    pthread_mutex_lock(&mu);
    switched(w, kind, 0);
    keep = other_on(w, kind);
    pthread_mutex_unlock(&mu);
    if (!keep) rc = CALL(cuptiActivityDisableContext, ctx, kind);
    pthread_mutex_unlock(&sw);
    return rc;
}

/* api_switch records w's switch of one API function's records and sets CUPTI's to the union:
 * on while some client wants them (its kind on and the function not switched off, or the
 * function switched on alone) */
static CUptiResult api_switch(enum who w, int d, CUpti_CallbackId cbid, uint8_t enable)
{
    CUptiResult rc;
    if (cbid >= fn_size[d])
        return d ? CALL(cuptiActivityEnableDriverApi, cbid, enable)
                 : CALL(cuptiActivityEnableRuntimeApi, cbid, enable);
    pthread_mutex_lock(&sw);
    pthread_mutex_lock(&mu);
    cl[w].fn[d][cbid] = enable ? FN_ON : FN_OFF;
    pthread_mutex_unlock(&mu);
    rc = sync_api(d, cbid);
    pthread_mutex_unlock(&sw);
    return rc;
}

EXPORT CUptiResult cuptiActivityEnableRuntimeApi(CUpti_CallbackId cbid, uint8_t enable)
{
    enum who w = CALLER();
    if (w == CUPTI) return CALL(cuptiActivityEnableRuntimeApi, cbid, enable);
    return api_switch(w, 0, cbid, enable);
}

EXPORT CUptiResult cuptiActivityEnableDriverApi(CUpti_CallbackId cbid, uint8_t enable)
{
    enum who w = CALLER();
    if (w == CUPTI) return CALL(cuptiActivityEnableDriverApi, cbid, enable);
    return api_switch(w, 1, cbid, enable);
}

EXPORT CUptiResult cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc f)
{
    enum who w = CALLER();
    CUptiResult rc = CALL(cuptiActivityRegisterTimestampCallback, f);
    uint64_t r0, r1, c;
    if (w == CUPTI || rc != CUPTI_SUCCESS || !f) return rc;
    r0 = vb_realtime_ns();
    c = f();
    r1 = vb_realtime_ns();
    pthread_mutex_lock(&mu);
    stamp_clock = f;
    st.clock = f;
    st.clock0 = clock0 = map.clock1 = c;
    st.real0 = real0 = map.real1 = r0 + (r1 - r0) / 2;
    pthread_mutex_unlock(&mu);
    return rc;
}

/* The program switching CUPTI's per-thread buffers while varbench traces would change them
 * under varbench's kinds mid-session, which CUPTI leaves undefined (Kineto switches them off
 * at each stop): varbench keeps CUPTI's, the program's call succeeds. Other attributes pass. */
EXPORT CUptiResult cuptiActivitySetAttribute(CUpti_ActivityAttribute attr, size_t *size,
                                             void *value)
{
    enum who w = CALLER();
    int vb;
    if (w == PROG && attr == CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER) {
        pthread_mutex_lock(&mu);
        vb = present(&cl[VB]);
        pthread_mutex_unlock(&mu);
        if (vb) return CUPTI_SUCCESS;
    }
    return CALL(cuptiActivitySetAttribute, attr, size, value);
}

/* cuptiFinalize of one client while the other uses CUPTI ends the caller's use only: its records
 * are flushed to it, its kinds and API switches are undone where the other does not share them,
 * its callbacks and subscriber go. Alone, the call is libcupti's. */
EXPORT CUptiResult cuptiFinalize(void)
{
    enum who w = CALLER();
    int o = w == VB ? PROG : VB, k, off[NKINDS] = {0};
    CUpti_SubscriberHandle sub;
    if (w == CUPTI) return CALL(cuptiFinalize);
    pthread_mutex_lock(&mu);
    k = present(&cl[o]);
    pthread_mutex_unlock(&mu);
    if (!k) return CALL(cuptiFinalize);
    CALL(cuptiActivityFlushAll, FLUSH_FORCED); /* outside sw: its callbacks may switch */
    pthread_mutex_lock(&sw);
    pthread_mutex_lock(&mu);
    if (w == PROG) st.finalized++;
    for (k = 0; k < NKINDS; k++) {
        off[k] = cl[w].on[k] && !cl[o].on[k];
        switched(w, (CUpti_ActivityKind)k, 0);
    }
    complete(&cl[w], NULL, 0); /* its buffer being filled goes back to it */
    sub = cl[w].sub;
    cl[w].sub = NULL;
    cl[w].req = NULL;
    cl[w].comp = NULL;
    memset(cl[w].fn, FN_KIND, sizeof cl[w].fn);
    if (direct == (int)w) direct = -1;
    pthread_mutex_unlock(&mu);
    for (k = 0; k < NKINDS; k++)
        if (off[k]) CALL(cuptiActivityDisable, (CUpti_ActivityKind)k);
    /* its switches undone: the other's alone decide */
    kind_reached(CUPTI_ACTIVITY_KIND_RUNTIME, off[CUPTI_ACTIVITY_KIND_RUNTIME] ? 0 : -1);
    kind_reached(CUPTI_ACTIVITY_KIND_DRIVER, off[CUPTI_ACTIVITY_KIND_DRIVER] ? 0 : -1);
    pthread_mutex_unlock(&sw);
    if (sub) CALL(cuptiUnsubscribe, sub);
    take_callbacks();
    return CUPTI_SUCCESS;
}

/* The program's subscriber is its own (the preload does not share it); it is noted so that the
 * injection knows who holds it and a cuptiFinalize of the program can give it back. */
static void subscribed(enum who w, CUptiResult rc, CUpti_SubscriberHandle *h)
{
    if (w != PROG || rc != CUPTI_SUCCESS || !h) return;
    pthread_mutex_lock(&mu);
    st.seen = st.subscribed = 1;
    cl[PROG].sub = *h;
    pthread_mutex_unlock(&mu);
}

EXPORT CUptiResult cuptiSubscribe(CUpti_SubscriberHandle *h, CUpti_CallbackFunc f, void *u)
{
    enum who w = CALLER();
    CUptiResult rc = CALL(cuptiSubscribe, h, f, u);
    subscribed(w, rc, h);
    return rc;
}

EXPORT CUptiResult cuptiSubscribe_v2(CUpti_SubscriberHandle *h, CUpti_CallbackFunc f, void *u,
                                     CUpti_SubscriberParams *p)
{
    enum who w = CALLER();
    CUptiResult rc = CALL(cuptiSubscribe_v2, h, f, u, p);
    subscribed(w, rc, h);
    return rc;
}

EXPORT CUptiResult cuptiUnsubscribe(CUpti_SubscriberHandle h)
{
    CUptiResult rc = CALL(cuptiUnsubscribe, h);
    pthread_mutex_lock(&mu);
    if (rc == CUPTI_SUCCESS && h == cl[PROG].sub) cl[PROG].sub = NULL;
    pthread_mutex_unlock(&mu);
    return rc;
}

/* varbench's injection reads what the program's client did (cupti_mux.h) */
EXPORT int varbench_cupti_mux_read(struct vb_mux_stats *out, unsigned long size)
{
    if (size != sizeof *out) return -1;
    pthread_mutex_lock(&mu);
    *out = st;
    pthread_mutex_unlock(&mu);
    return 0;
}
