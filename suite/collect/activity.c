/*
 * activity: CUPTI activity collection (see activity.h). CUPTI calls buffer_requested for empty
 * buffers and buffer_completed with filled ones, possibly from its own thread; the
 * completed records are copied out at once so the buffer can be freed. NVTX push/pop
 * ranges come as START and END marker records sharing an id; they are paired here.
 */
#include "activity.h"

#include <cupti.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stamp.h"

#define BUF_SIZE (8u << 20)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct vb_activity acc; /* guarded by lock */
static int active;

static const CUpti_ActivityKind kinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMCPY2, /* peer to peer: a kind of its own, with both devices */
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_MARKER,
};
static const CUpti_ActivityKind api_kinds[] = {
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
};
/* the kinds enabled now (kinds, then the extras), so that stop disables exactly those */
static CUpti_ActivityKind
    enabled[sizeof kinds / sizeof kinds[0] + sizeof api_kinds / sizeof api_kinds[0] + 2];
static size_t nenabled;
static int devices_dumped;
static unsigned long nrequested, ncompleted; /* buffers handed to CUPTI and back (atomics) */

/* The clock of the records. CUPTI stamps them with CLOCK_REALTIME ns until a CUPTI client of the
 * program registers a timestamp callback (Kineto: raw TSC ticks), process-wide and for good;
 * take converts the stamps in that clock back to CLOCK_REALTIME through two readings of both
 * clocks, the one vb_activity_set_clock was given and one at the take. */
static uint64_t (*rec_clock)(void);
static uint64_t clock0, real0; /* both clocks read together, when the callback was registered */

/* grow makes room for one more element of size sz in *arr; 0 or -1 when out of memory. */
static int grow(void **arr, size_t n, size_t *cap, size_t sz)
{
    void *p;
    size_t c;
    if (n < *cap) return 0;
    c = *cap ? *cap * 2 : 1024;
    p = realloc(*arr, c * sz);
    if (!p) return -1;
    *arr = p;
    *cap = c;
    return 0;
}

#define PUSH(a, field, cap)                                                                        \
    (grow((void **)&(a)->field, (a)->n##field, &(a)->cap, sizeof *(a)->field)                      \
         ? NULL                                                                                    \
         : &(a)->field[(a)->n##field++])

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

static void add_kernel(const CUpti_ActivityKernel10 *k)
{
    struct vb_kernel_rec *r = PUSH(&acc, kernels, cap_kernels);
    if (!r) {
        acc.dropped++;
        return;
    }
    r->start = k->start;
    r->end = k->end;
    r->device = k->deviceId;
    r->context = k->contextId;
    r->stream = k->streamId;
    r->correlation = k->correlationId;
    r->graph = k->graphId;
    r->graph_node = k->graphNodeId;
    r->grid[0] = k->gridX, r->grid[1] = k->gridY, r->grid[2] = k->gridZ;
    r->block[0] = k->blockX, r->block[1] = k->blockY, r->block[2] = k->blockZ;
    r->static_smem = k->staticSharedMemory;
    r->dynamic_smem = k->dynamicSharedMemory;
    r->registers = k->registersPerThread;
    r->name = dup_or_empty(k->name);
}

static void add_copy(const CUpti_ActivityMemcpy6 *m)
{
    struct vb_copy_rec *r = PUSH(&acc, copies, cap_copies);
    if (!r) {
        acc.dropped++;
        return;
    }
    r->start = m->start;
    r->end = m->end;
    r->bytes = m->bytes;
    r->device = m->deviceId;
    r->context = m->contextId;
    r->stream = m->streamId;
    r->correlation = m->correlationId;
    r->graph = m->graphId;
    r->graph_node = m->graphNodeId;
    r->copy_kind = m->copyKind;
    r->src_kind = m->srcKind;
    r->dst_kind = m->dstKind;
    r->src_device = r->dst_device = -1;
}

/* add_peer keeps a peer-to-peer copy (CUPTI_ACTIVITY_KIND_MEMCPY2) as a copy of kind PtoP with
 * its two devices; deviceId is the device that ran it */
static void add_peer(const CUpti_ActivityMemcpyPtoP4 *m)
{
    struct vb_copy_rec *r = PUSH(&acc, copies, cap_copies);
    if (!r) {
        acc.dropped++;
        return;
    }
    *r = (struct vb_copy_rec){.start = m->start,
                              .end = m->end,
                              .bytes = m->bytes,
                              .device = m->deviceId,
                              .context = m->contextId,
                              .stream = m->streamId,
                              .correlation = m->correlationId,
                              .graph = m->graphId,
                              .graph_node = m->graphNodeId,
                              .copy_kind = m->copyKind,
                              .src_kind = m->srcKind,
                              .dst_kind = m->dstKind,
                              .src_device = (int32_t)m->srcDeviceId,
                              .dst_device = (int32_t)m->dstDeviceId};
}

static void add_memset(const CUpti_ActivityMemset4 *m)
{
    struct vb_memset_rec *r = PUSH(&acc, memsets, cap_memsets);
    if (!r) {
        acc.dropped++;
        return;
    }
    r->start = m->start;
    r->end = m->end;
    r->bytes = m->bytes;
    r->device = m->deviceId;
    r->context = m->contextId;
    r->stream = m->streamId;
    r->correlation = m->correlationId;
    r->graph = m->graphId;
    r->graph_node = m->graphNodeId;
    r->value = m->value;
    r->memory_kind = m->memoryKind;
}

static void add_marker(const CUpti_ActivityMarker2 *m)
{
    size_t i;
    if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_START) {
        struct vb_range_rec *r = PUSH(&acc, ranges, cap_ranges);
        if (!r) {
            acc.dropped++;
            return;
        }
        memset(r, 0, sizeof *r);
        r->start = m->timestamp;
        r->id = m->id;
        r->type = VB_NVTX_PUSHPOP;
        if (m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ||
            m->objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
            r->process = m->objectId.pt.processId;
            r->thread = m->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? m->objectId.pt.threadId : 0;
        }
        r->text = dup_or_empty(m->name);
    } else if (m->flags & CUPTI_ACTIVITY_FLAG_MARKER_END) {
        for (i = acc.nranges; i-- > 0;)
            if (acc.ranges[i].id == m->id && acc.ranges[i].end == 0) {
                acc.ranges[i].end = m->timestamp;
                return;
            }
    }
}

/* api_name: CUPTI's name of API function cbid ("cudaMemcpy_v3020", "cuMemcpyHtoD_v2", as the
 * Nsight Systems export), asked of CUPTI once per function: the records come by the thousand on
 * CUPTI's thread, and CUPTI's lookup need not run beside the program's calls each time. NULL
 * when CUPTI names none. Called with lock held. */
static const char *api_name(int driver, uint32_t cbid)
{
    enum { N = 4096 };
    static const char *known[2][N];
    static uint8_t asked[2][N];
    const char *name = NULL;
    if (cbid < N && asked[driver][cbid]) return known[driver][cbid];
    if (cuptiGetCallbackName(driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API,
                             cbid, &name) != CUPTI_SUCCESS)
        name = NULL;
    if (cbid < N) known[driver][cbid] = name, asked[driver][cbid] = 1;
    return name;
}

static void add_api(const CUpti_ActivityAPI *x)
{
    struct vb_api_rec *r = PUSH(&acc, apis, cap_apis);
    const char *name = NULL;
    int driver = x->kind == CUPTI_ACTIVITY_KIND_DRIVER;
    if (!r) {
        acc.dropped++;
        return;
    }
    r->start = x->start;
    r->end = x->end;
    r->cbid = x->cbid;
    r->correlation = x->correlationId;
    r->process = x->processId;
    r->thread = x->threadId;
    r->ret = (int32_t)x->returnValue;
    r->driver = (uint8_t)driver;
    if (!(name = api_name(driver, x->cbid))) {
        char buf[48];
        snprintf(buf, sizeof buf, "%s cbid %u", driver ? "driver" : "runtime", (unsigned)x->cbid);
        r->name = strdup(buf);
    } else {
        r->name = strdup(name);
    }
    if (!r->name) { /* out of memory: forget the record rather than keep a NULL name */
        acc.napis--;
        acc.dropped++;
    }
}

static void add_device(const CUpti_ActivityDevice5 *d)
{
    struct vb_device_rec *r;
    size_t i;
    for (i = 0; i < acc.ndevices; i++) /* a device dumped twice is one device */
        if (acc.devices[i].id == d->id) return;
    if (!(r = PUSH(&acc, devices, cap_devices))) {
        acc.dropped++;
        return;
    }
    r->id = d->id;
    r->cc_major = d->computeCapabilityMajor;
    r->cc_minor = d->computeCapabilityMinor;
    r->sm_count = d->numMultiprocessors;
    r->clock_khz = d->coreClockRate;
    r->global_mem = d->globalMemorySize;
    r->l2_bytes = d->l2CacheSize;
    memcpy(r->uuid, d->uuid.bytes, sizeof r->uuid);
    r->name = dup_or_empty(d->name);
    if (!r->name) {
        acc.ndevices--;
        acc.dropped++;
    }
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    /* zeroed as CUPTI wants it, without touching it: fresh pages from mmap are zero, so CUPTI
     * need not clear 8 MiB on the program's thread (CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER,
     * measured at 4-5 ms per buffer on an H100 host) */
    *buffer = calloc(1, BUF_SIZE);
    *size = *buffer ? BUF_SIZE : 0;
    *max_records = 0;
    if (*buffer) __atomic_add_fetch(&nrequested, 1, __ATOMIC_RELAXED);
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid)
{
    CUpti_Activity *rec = NULL;
    size_t dropped = 0;
    pthread_mutex_lock(&lock);
    while (valid && cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        switch (rec->kind) {
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        case CUPTI_ACTIVITY_KIND_KERNEL:
            add_kernel((const CUpti_ActivityKernel10 *)rec);
            break;
        case CUPTI_ACTIVITY_KIND_MEMCPY:
            add_copy((const CUpti_ActivityMemcpy6 *)rec);
            break;
        case CUPTI_ACTIVITY_KIND_MEMCPY2:
            add_peer((const CUpti_ActivityMemcpyPtoP4 *)rec);
            break;
        case CUPTI_ACTIVITY_KIND_MEMSET:
            add_memset((const CUpti_ActivityMemset4 *)rec);
            break;
        case CUPTI_ACTIVITY_KIND_MARKER:
            add_marker((const CUpti_ActivityMarker2 *)rec);
            break;
        case CUPTI_ACTIVITY_KIND_RUNTIME:
        case CUPTI_ACTIVITY_KIND_DRIVER:
            add_api((const CUpti_ActivityAPI *)rec);
            break;
        case CUPTI_ACTIVITY_KIND_DEVICE:
            add_device((const CUpti_ActivityDevice5 *)rec);
            break;
        case CUPTI_ACTIVITY_KIND_OVERHEAD: {
            const CUpti_ActivityOverhead3 *o = (const CUpti_ActivityOverhead3 *)rec;
            struct vb_overhead_rec *r = PUSH(&acc, overheads, cap_overheads);
            if (r)
                *r = (struct vb_overhead_rec){o->start, o->end > o->start ? o->end : o->start,
                                              (uint32_t)o->overheadKind};
            else
                acc.dropped++;
            break;
        }
        default:
            break;
        }
    }
    if (cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS)
        acc.dropped += dropped;
    pthread_mutex_unlock(&lock);
    free(buffer);
    __atomic_add_fetch(&ncompleted, 1, __ATOMIC_RELAXED);
}

/* enable turns kind on and remembers it; on failure every kind enabled so far goes off. */
static int enable(CUpti_ActivityKind kind, struct vb_err *err)
{
    if (VB_CUPTI(err, cuptiActivityEnable(kind))) {
        while (nenabled > 0)
            cuptiActivityDisable(enabled[--nenabled]);
        return -1;
    }
    enabled[nenabled++] = kind;
    return 0;
}

int vb_activity_start_with(unsigned extra, struct vb_err *err)
{
    uint8_t zeroed = 1;
    size_t i, zsize = sizeof zeroed;
    if (active) return 0;
    if (VB_CUPTI(err, cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER,
                                                &zsize, &zeroed)) ||
        VB_CUPTI(err, cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed)))
        return -1;
    nenabled = 0;
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        int marker = kinds[i] == CUPTI_ACTIVITY_KIND_MARKER;
        CUpti_ActivityKind k = kinds[i];
        if (marker ? (extra & VB_ACTIVITY_NO_MARKERS) : (extra & VB_ACTIVITY_NO_KERNELS)) continue;
        if (k == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && (extra & VB_ACTIVITY_SERIAL_KERNELS))
            k = CUPTI_ACTIVITY_KIND_KERNEL;
        if (enable(k, err)) return -1;
    }
    for (i = 0; (extra & VB_ACTIVITY_API) && i < sizeof api_kinds / sizeof api_kinds[0]; i++)
        if (enable(api_kinds[i], err)) return -1;
    if ((extra & VB_ACTIVITY_OVERHEAD) && enable(CUPTI_ACTIVITY_KIND_OVERHEAD, err)) return -1;
    active = 1;
    return 0;
}

int vb_activity_start(struct vb_err *err)
{
    return vb_activity_start_with(0, err);
}

int vb_activity_dump_devices(struct vb_err *err)
{
    if (!active) return vb_err_set(err, VB_E_CUDA, "CUPTI activity collection is not started");
    if (!devices_dumped) {
        if (VB_CUPTI(err, cuptiActivityEnableAndDump(CUPTI_ACTIVITY_KIND_DEVICE))) return -1;
        enabled[nenabled++] = CUPTI_ACTIVITY_KIND_DEVICE;
        devices_dumped = 1;
    }
    return 0;
}

int vb_activity_active(void)
{
    return active;
}

void vb_activity_set_clock(uint64_t (*clock)(void), uint64_t clock_then, uint64_t real_then)
{
    pthread_mutex_lock(&lock);
    rec_clock = clock;
    clock0 = clock_then;
    real0 = real_then;
    pthread_mutex_unlock(&lock);
}

/* fix converts *t to CLOCK_REALTIME through m (stamp.h) */
static void fix(const struct vb_stamp_map *m, uint64_t *t)
{
    *t = vb_stamp_to_realtime(m, *t);
}

/* to_realtime converts a's stamps and sums its overhead spans; called with lock held. */
static void to_realtime(struct vb_activity *a)
{
    struct vb_stamp_map m = {0, 0, 1.0};
    size_t i;
    if (rec_clock) {
        /* the two readings must be apart for the rate: 2 ms at least */
        while ((m.real1 = vb_realtime_ns()) - real0 < 2000000) {
        }
        m.clock1 = rec_clock();
        m.rate = m.clock1 > clock0 ? (double)(m.real1 - real0) / (double)(m.clock1 - clock0) : 1.0;
        for (i = 0; i < a->nkernels; i++)
            fix(&m, &a->kernels[i].start), fix(&m, &a->kernels[i].end);
        for (i = 0; i < a->ncopies; i++)
            fix(&m, &a->copies[i].start), fix(&m, &a->copies[i].end);
        for (i = 0; i < a->nmemsets; i++)
            fix(&m, &a->memsets[i].start), fix(&m, &a->memsets[i].end);
        for (i = 0; i < a->nranges; i++)
            fix(&m, &a->ranges[i].start), fix(&m, &a->ranges[i].end);
        for (i = 0; i < a->napis; i++)
            fix(&m, &a->apis[i].start), fix(&m, &a->apis[i].end);
    }
    for (i = 0; i < a->noverheads; i++) {
        if (rec_clock) fix(&m, &a->overheads[i].start), fix(&m, &a->overheads[i].end);
        a->overhead_ns += a->overheads[i].end - a->overheads[i].start;
    }
}

const char *vb_activity_overhead_name(uint32_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
        return "driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
        return "buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
        return "instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
        return "resources";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
        return "module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
        return "lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
        return "command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
        return "activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
        return "UVM init";
    default:
        return "other";
    }
}

void vb_activity_buffers(unsigned long *requested, unsigned long *completed)
{
    *requested = __atomic_load_n(&nrequested, __ATOMIC_RELAXED);
    *completed = __atomic_load_n(&ncompleted, __ATOMIC_RELAXED);
}

/* take flushes CUPTI and moves the accumulated records into *out; with keep_open, ranges still
 * open go back into the accumulator under the same lock, so that an END delivered meanwhile on
 * CUPTI's thread (a buffer completing) still finds its START. */
static int take(struct vb_activity *out, int keep_open, struct vb_err *err)
{
    size_t i, kept = 0;
    if (!active) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    if (VB_CUPTI(err, cuptiActivityFlushAll(1))) return -1;
    pthread_mutex_lock(&lock);
    *out = acc;
    memset(&acc, 0, sizeof acc);
    to_realtime(out);
    /* callers close their NVTX ranges before a plain take: an END arriving later is ignored */
    for (i = 0; keep_open && i < out->nranges; i++) {
        struct vb_range_rec *r = &out->ranges[i], *back;
        if (r->end) {
            out->ranges[kept++] = *r;
        } else if ((back = PUSH(&acc, ranges, cap_ranges))) {
            *back = *r; /* still open: its END will find it in the accumulator */
        } else {
            vb_range_free(r);
            out->dropped++;
        }
    }
    if (keep_open) out->nranges = kept;
    pthread_mutex_unlock(&lock);
    return 0;
}

int vb_activity_take(struct vb_activity *out, struct vb_err *err)
{
    return take(out, 0, err);
}

int vb_activity_take_keep_open(struct vb_activity *out, struct vb_err *err)
{
    return take(out, 1, err);
}

/* move_all appends src's n elements of size sz to dst (capacity *cap); 0 or -1 (out of memory). */
static int move_all(void **dst, size_t *ndst, size_t *cap, void *src, size_t n, size_t sz)
{
    if (!n) return 0;
    if (*ndst + n > *cap) {
        void *p = realloc(*dst, (*ndst + n) * sz);
        if (!p) return -1;
        *dst = p;
        *cap = *ndst + n;
    }
    memcpy((char *)*dst + *ndst * sz, src, n * sz);
    *ndst += n;
    return 0;
}

void vb_activity_append(struct vb_activity *dst, struct vb_activity *src)
{
#define MOVE(f)                                                                                    \
    if (move_all((void **)&dst->f, &dst->n##f, &dst->cap_##f, src->f, src->n##f,                   \
                 sizeof *src->f) == 0)                                                             \
        src->n##f = 0; /* moved: src no longer owns the names */                                   \
    else                                                                                           \
        dst->dropped += src->n##f;
    MOVE(kernels)
    MOVE(copies)
    MOVE(memsets)
    MOVE(ranges)
    MOVE(apis)
    MOVE(devices)
    MOVE(overheads)
#undef MOVE
    dst->dropped += src->dropped;
    dst->overhead_ns += src->overhead_ns;
    src->dropped = 0;
    vb_activity_free(src);
}

void vb_activity_stop(void)
{
    struct vb_activity rest;
    size_t i;
    if (!active) return;
    cuptiActivityFlushAll(1);
    for (i = 0; i < nenabled; i++)
        cuptiActivityDisable(enabled[i]);
    nenabled = 0;
    devices_dumped = 0;
    active = 0;
    pthread_mutex_lock(&lock);
    rest = acc;
    memset(&acc, 0, sizeof acc);
    pthread_mutex_unlock(&lock);
    vb_activity_free(&rest);
}

uint64_t vb_activity_now(void)
{
    uint64_t t = 0;
    /* CUPTI's own reading while it stamps with its default clock; realtime otherwise (a client's
     * callback changed the clock, or a client finalized CUPTI, which then reads 0) */
    if (active && !rec_clock && cuptiGetTimestamp(&t) == CUPTI_SUCCESS && t) return t;
    return vb_realtime_ns();
}

uint32_t vb_activity_version(void)
{
    uint32_t v = 0;
    return cuptiGetVersion(&v) == CUPTI_SUCCESS ? v : 0;
}

void vb_range_free(struct vb_range_rec *r)
{
    free(r->text);
    free(r->domain);
    r->text = r->domain = NULL;
}

void vb_activity_free(struct vb_activity *a)
{
    size_t i;
    for (i = 0; i < a->nkernels; i++)
        free(a->kernels[i].name);
    for (i = 0; i < a->nranges; i++)
        vb_range_free(&a->ranges[i]);
    for (i = 0; i < a->napis; i++)
        free(a->apis[i].name);
    for (i = 0; i < a->ndevices; i++)
        free(a->devices[i].name);
    free(a->apis);
    free(a->devices);
    free(a->kernels);
    free(a->copies);
    free(a->memsets);
    free(a->ranges);
    free(a->overheads);
    memset(a, 0, sizeof *a);
}
