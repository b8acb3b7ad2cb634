/*
 * nvtx_record: NVTX events recorded without CUPTI (see nvtx_record.h). Each thread appends to
 * its own buffer (chunks of events that never move, an arena for their texts, a stack of its
 * open push ranges); the buffers are listed once, when a thread records its first event, so
 * that a take at the process's end finds those of threads that have exited. Start/end ranges
 * are found again by id through one table shared by all threads. Nothing is freed before the
 * process ends: an event of a range still open must stay where its end will be written.
 */
#define _GNU_SOURCE
#include "nvtx_record.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include "stamp.h"

/* NVTX's handles are pointers to structures the tool defines */
struct nvtxDomainRegistration_st {
    char *name;
};
struct nvtxStringRegistration_st {
    char *text;
};

struct event {
    uint64_t start, end; /* end: 0 while open; written by the thread that ends it */
    const char *text;    /* in its thread's arena, or a registered string */
    const char *domain;  /* a domain's name (never freed); NULL: the default domain */
    uint32_t end_thread, category, color;
    uint8_t type; /* enum vb_nvtx_type */
};

#define CHUNK_EVENTS 1024
struct chunk {
    struct chunk *next;
    size_t n;
    struct event ev[CHUNK_EVENTS];
};

#define ARENA_BYTES (64u << 10)
struct arena {
    struct arena *next;
    size_t used, cap;
    char data[];
};

struct frame {
    struct event *ev;
    const struct nvtxDomainRegistration_st *domain;
};

/* One recording thread. */
struct tbuf {
    struct tbuf *next; /* the list of every thread's buffer */
    pthread_mutex_t mu;
    uint32_t tid;
    struct chunk *first, *last;
    struct chunk *taken; /* the chunk the last take stopped in, and how far (NULL: none yet) */
    size_t taken_n;
    struct arena *arena;
    struct frame *stack; /* open push ranges, innermost last */
    size_t depth, cap;
};

static pthread_mutex_t reg_mu = PTHREAD_MUTEX_INITIALIZER;
static struct tbuf *threads; /* guarded by reg_mu */
static __thread struct tbuf *self;
static size_t held, lost; /* events held (not taken yet), events that did not fit (atomics) */

/* Start/end ranges by id: open addressing, ids never 0; guarded by ids_mu. */
struct slot {
    uint64_t id;
    struct event *ev;
};
static pthread_mutex_t ids_mu = PTHREAD_MUTEX_INITIALIZER;
static struct slot *ids;
static size_t nids, cap_ids;
static uint64_t next_id = 1;

static void after_fork_child(void)
{
    /* the child starts with nothing: the parent's events are the parent's to store */
    threads = NULL;
    self = NULL;
    held = lost = 0;
    ids = NULL;
    nids = cap_ids = 0;
    pthread_mutex_init(&reg_mu, NULL);
    pthread_mutex_init(&ids_mu, NULL);
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static void hook_fork(void)
{
    pthread_atfork(NULL, NULL, after_fork_child);
}

/* me returns this thread's buffer, making and listing it at its first event; NULL when out of
 * memory. */
static struct tbuf *me(void)
{
    struct tbuf *t = self;
    if (t) return t;
    if (!(t = calloc(1, sizeof *t))) return NULL;
    pthread_mutex_init(&t->mu, NULL);
    t->tid = (uint32_t)syscall(SYS_gettid);
    pthread_mutex_lock(&reg_mu);
    t->next = threads;
    threads = t;
    pthread_mutex_unlock(&reg_mu);
    self = t;
    return t;
}

/* new_event appends an event to t (its lock held); NULL when out of memory */
static struct event *new_event(struct tbuf *t)
{
    struct chunk *c = t->last;
    if (!c || c->n == CHUNK_EVENTS) {
        if (!(c = malloc(sizeof *c))) return NULL;
        c->next = NULL;
        c->n = 0;
        if (t->last)
            t->last->next = c;
        else
            t->first = c;
        t->last = c;
    }
    __atomic_add_fetch(&held, 1, __ATOMIC_RELAXED);
    return memset(&c->ev[c->n++], 0, sizeof c->ev[0]);
}

/* room returns n bytes of t's arena (its lock held); NULL when out of memory */
static char *room(struct tbuf *t, size_t n)
{
    struct arena *a = t->arena;
    if (!a || a->cap - a->used < n) {
        size_t cap = n > ARENA_BYTES ? n : ARENA_BYTES;
        if (!(a = malloc(sizeof *a + cap))) return NULL;
        a->next = t->arena;
        a->used = 0;
        a->cap = cap;
        t->arena = a;
    }
    a->used += n;
    return a->data + a->used - n;
}

static const char *copy_text(struct tbuf *t, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = room(t, n);
    return p ? memcpy(p, s, n) : "";
}

/* utf8 writes the UTF-8 form of w (UTF-32 on Linux) into out (n bytes, n >= 1), cut at a code
 * point when out is too small; returns out */
static char *utf8(const wchar_t *w, char *out, size_t n)
{
    size_t k = 0;
    for (; *w; w++) {
        uint32_t c = (uint32_t)*w;
        char b[4];
        size_t m, i;
        if (c < 0x80)
            b[0] = (char)c, m = 1;
        else if (c < 0x800)
            b[0] = (char)(0xc0 | c >> 6), b[1] = (char)(0x80 | (c & 0x3f)), m = 2;
        else if (c < 0x10000)
            b[0] = (char)(0xe0 | c >> 12), b[1] = (char)(0x80 | ((c >> 6) & 0x3f)),
            b[2] = (char)(0x80 | (c & 0x3f)), m = 3;
        else
            b[0] = (char)(0xf0 | (c >> 18 & 0x07)), b[1] = (char)(0x80 | ((c >> 12) & 0x3f)),
            b[2] = (char)(0x80 | ((c >> 6) & 0x3f)), b[3] = (char)(0x80 | (c & 0x3f)), m = 4;
        if (k + m >= n) break;
        for (i = 0; i < m; i++)
            out[k++] = b[i];
    }
    out[k] = '\0';
    return out;
}

static const char *copy_wide(struct tbuf *t, const wchar_t *w)
{
    char buf[1024];
    return copy_text(t, utf8(w, buf, sizeof buf));
}

/* The message, category and color of an event's attributes. */
struct what {
    const char *ascii;
    const wchar_t *wide;
    const char *registered;
    uint32_t category, color;
};

static struct what from_attributes(const nvtxEventAttributes_t *a)
{
    struct what w = {NULL, NULL, NULL, 0, 0};
    if (!a || a->size < offsetof(nvtxEventAttributes_t, message) + sizeof a->message) return w;
    w.category = a->category;
    if (a->colorType == NVTX_COLOR_ARGB) w.color = a->color;
    if (a->messageType == NVTX_MESSAGE_TYPE_ASCII)
        w.ascii = a->message.ascii;
    else if (a->messageType == NVTX_MESSAGE_TYPE_UNICODE)
        w.wide = a->message.unicode;
    else if (a->messageType == NVTX_MESSAGE_TYPE_REGISTERED && a->message.registered)
        w.registered = a->message.registered->text;
    return w;
}

/* record appends an event of type to this thread's buffer, stamped now; with push, it also
 * opens a frame of domain d. Returns the event (its thread's lock released) or NULL. */
static struct event *record(uint8_t type, const struct nvtxDomainRegistration_st *d, struct what w,
                            int push)
{
    uint64_t t0 = vb_realtime_ns();
    struct tbuf *t = me();
    struct event *e;
    if (!t) {
        __atomic_add_fetch(&lost, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    pthread_mutex_lock(&t->mu);
    if (push && t->depth == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        struct frame *s = realloc(t->stack, cap * sizeof *s);
        if (!s) {
            pthread_mutex_unlock(&t->mu);
            __atomic_add_fetch(&lost, 1, __ATOMIC_RELAXED);
            return NULL;
        }
        t->stack = s;
        t->cap = cap;
    }
    if (!(e = new_event(t))) {
        pthread_mutex_unlock(&t->mu);
        __atomic_add_fetch(&lost, 1, __ATOMIC_RELAXED);
        return NULL;
    }
    e->start = t0;
    e->type = type;
    e->domain = d ? d->name : NULL;
    e->category = w.category;
    e->color = w.color;
    e->text = w.registered ? w.registered
              : w.wide     ? copy_wide(t, w.wide)
              : w.ascii    ? copy_text(t, w.ascii)
                           : "";
    if (type == VB_NVTX_MARK) e->end = t0;
    if (push) t->stack[t->depth++] = (struct frame){e, d};
    pthread_mutex_unlock(&t->mu);
    return e;
}

/* level counts the open push ranges of domain d on t below depth k */
static int level(const struct tbuf *t, size_t k, const struct nvtxDomainRegistration_st *d)
{
    int n = 0;
    while (k-- > 0)
        n += t->stack[k].domain == d;
    return n;
}

static int push(const struct nvtxDomainRegistration_st *d, struct what w)
{
    struct event *e = record(VB_NVTX_PUSHPOP, d, w, 1);
    struct tbuf *t = self;
    return e && t ? level(t, t->depth - 1, d) : -1;
}

/* pop ends the innermost open push range of domain d on this thread; its level, or -1 */
static int pop(const struct nvtxDomainRegistration_st *d)
{
    uint64_t t1 = vb_realtime_ns();
    struct tbuf *t = self;
    size_t k;
    int lv = -1;
    if (!t) return -1;
    pthread_mutex_lock(&t->mu);
    for (k = t->depth; k-- > 0;)
        if (t->stack[k].domain == d) {
            __atomic_store_n(&t->stack[k].ev->end, t1, __ATOMIC_RELEASE);
            lv = level(t, k, d);
            memmove(&t->stack[k], &t->stack[k + 1], (t->depth - k - 1) * sizeof t->stack[0]);
            t->depth--;
            break;
        }
    pthread_mutex_unlock(&t->mu);
    return lv;
}

/* remember files e under a new id; 0 when it cannot (the range's end is then not recorded) */
static uint64_t remember(struct event *e)
{
    uint64_t id = 0;
    size_t i, mask;
    pthread_mutex_lock(&ids_mu);
    if ((nids + 1) * 2 > cap_ids) { /* keep the table at most half full */
        size_t cap = cap_ids ? cap_ids * 2 : 1024, j;
        struct slot *s = calloc(cap, sizeof *s);
        if (!s) goto out;
        for (j = 0; j < cap_ids; j++)
            if (ids[j].id) {
                for (i = ids[j].id & (cap - 1); s[i].id; i = (i + 1) & (cap - 1)) {
                }
                s[i] = ids[j];
            }
        free(ids);
        ids = s;
        cap_ids = cap;
    }
    id = next_id++;
    mask = cap_ids - 1;
    for (i = id & mask; ids[i].id; i = (i + 1) & mask) {
    }
    ids[i] = (struct slot){id, e};
    nids++;
out:
    pthread_mutex_unlock(&ids_mu);
    return id;
}

/* forget removes id and returns its event, or NULL when unknown */
static struct event *forget(uint64_t id)
{
    struct event *e = NULL;
    size_t i, j, mask;
    pthread_mutex_lock(&ids_mu);
    if (!cap_ids || !id) goto out;
    mask = cap_ids - 1;
    for (i = id & mask; ids[i].id && ids[i].id != id; i = (i + 1) & mask) {
    }
    if (!ids[i].id) goto out;
    e = ids[i].ev;
    ids[i].id = 0;
    nids--;
    /* re-file the entries after it in its run, so that none is cut off from its home */
    for (j = (i + 1) & mask; ids[j].id; j = (j + 1) & mask) {
        struct slot s = ids[j];
        size_t k;
        ids[j].id = 0;
        for (k = s.id & mask; ids[k].id; k = (k + 1) & mask) {
        }
        ids[k] = s;
    }
out:
    pthread_mutex_unlock(&ids_mu);
    return e;
}

static nvtxRangeId_t start(const struct nvtxDomainRegistration_st *d, struct what w)
{
    struct event *e = record(VB_NVTX_STARTEND, d, w, 0);
    return e ? remember(e) : 0;
}

static void end(nvtxRangeId_t id)
{
    uint64_t t1 = vb_realtime_ns();
    struct event *e = forget(id);
    if (!e) return;
    __atomic_store_n(&e->end_thread, (uint32_t)syscall(SYS_gettid), __ATOMIC_RELAXED);
    __atomic_store_n(&e->end, t1, __ATOMIC_RELEASE);
}

static struct what text_a(const char *s)
{
    return (struct what){s, NULL, NULL, 0, 0};
}

static struct what text_w(const wchar_t *s)
{
    return (struct what){NULL, s, NULL, 0, 0};
}

/* ---- The NVTX calls ---------------------------------------------------------------------- */

static void NVTX_API mark_ex(const nvtxEventAttributes_t *a)
{
    record(VB_NVTX_MARK, NULL, from_attributes(a), 0);
}

static void NVTX_API mark_a(const char *m)
{
    record(VB_NVTX_MARK, NULL, text_a(m), 0);
}

static void NVTX_API mark_w(const wchar_t *m)
{
    record(VB_NVTX_MARK, NULL, text_w(m), 0);
}

static nvtxRangeId_t NVTX_API start_ex(const nvtxEventAttributes_t *a)
{
    return start(NULL, from_attributes(a));
}

static nvtxRangeId_t NVTX_API start_a(const char *m)
{
    return start(NULL, text_a(m));
}

static nvtxRangeId_t NVTX_API start_w(const wchar_t *m)
{
    return start(NULL, text_w(m));
}

static void NVTX_API range_end(nvtxRangeId_t id)
{
    end(id);
}

static int NVTX_API push_ex(const nvtxEventAttributes_t *a)
{
    return push(NULL, from_attributes(a));
}

static int NVTX_API push_a(const char *m)
{
    return push(NULL, text_a(m));
}

static int NVTX_API push_w(const wchar_t *m)
{
    return push(NULL, text_w(m));
}

static int NVTX_API range_pop(void)
{
    return pop(NULL);
}

static void NVTX_API domain_mark(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    record(VB_NVTX_MARK, d, from_attributes(a), 0);
}

static nvtxRangeId_t NVTX_API domain_start(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    return start(d, from_attributes(a));
}

static void NVTX_API domain_end(nvtxDomainHandle_t d, nvtxRangeId_t id)
{
    (void)d;
    end(id);
}

static int NVTX_API domain_push(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
    return push(d, from_attributes(a));
}

static int NVTX_API domain_pop(nvtxDomainHandle_t d)
{
    return pop(d);
}

/* Registered strings and domains live as long as the process (events point at them). */
static nvtxStringHandle_t NVTX_API register_a(nvtxDomainHandle_t d, const char *s)
{
    struct nvtxStringRegistration_st *r = malloc(sizeof *r);
    (void)d;
    if (!r || !(r->text = strdup(s ? s : ""))) {
        free(r);
        return NULL;
    }
    return r;
}

static nvtxStringHandle_t NVTX_API register_w(nvtxDomainHandle_t d, const wchar_t *s)
{
    char buf[1024];
    return register_a(d, s ? utf8(s, buf, sizeof buf) : "");
}

static nvtxDomainHandle_t NVTX_API domain_create_a(const char *name)
{
    struct nvtxDomainRegistration_st *r = malloc(sizeof *r);
    if (!r || !(r->name = strdup(name ? name : ""))) {
        free(r);
        return NULL;
    }
    return r;
}

static nvtxDomainHandle_t NVTX_API domain_create_w(const wchar_t *name)
{
    char buf[1024];
    return domain_create_a(name ? utf8(name, buf, sizeof buf) : "");
}

static void NVTX_API domain_destroy(nvtxDomainHandle_t d)
{
    (void)d; /* its events keep its name */
}

/* fill puts fns[1..n) into the slots of module's table that the NVTX instance has */
static int fill(const NvtxExportTableCallbacks *cb, NvtxCallbackModule module,
                const NvtxFunctionPointer *fns, unsigned n)
{
    NvtxFunctionTable table = NULL;
    unsigned size = 0, i;
    if (!cb->GetModuleFunctionTable(module, &table, &size) || !table) return -1;
    for (i = 1; i < n && i < size; i++)
        if (fns[i] && table[i]) *table[i] = fns[i];
    return 0;
}

#define FN(f) ((NvtxFunctionPointer)(f))

int vb_nvtx_record_attach(const void *(*get_table)(uint32_t id))
{
    const NvtxExportTableCallbacks *cb;
    const NvtxExportTableVersionInfo *vi;
    NvtxFunctionPointer core[NVTX_CBID_CORE_SIZE] = {0}, core2[NVTX_CBID_CORE2_SIZE] = {0};
    if (!get_table) return 0;
    cb = get_table(NVTX_ETID_CALLBACKS);
    vi = get_table(NVTX_ETID_VERSIONINFO);
    if (!cb || cb->struct_size < sizeof *cb || !cb->GetModuleFunctionTable) return 0;
    if (vi && vi->struct_size >= sizeof *vi && vi->SetInjectionNvtxVersion)
        vi->SetInjectionNvtxVersion(NVTX_VERSION);
    pthread_once(&fork_once, hook_fork);
    core[NVTX_CBID_CORE_MarkEx] = FN(mark_ex);
    core[NVTX_CBID_CORE_MarkA] = FN(mark_a);
    core[NVTX_CBID_CORE_MarkW] = FN(mark_w);
    core[NVTX_CBID_CORE_RangeStartEx] = FN(start_ex);
    core[NVTX_CBID_CORE_RangeStartA] = FN(start_a);
    core[NVTX_CBID_CORE_RangeStartW] = FN(start_w);
    core[NVTX_CBID_CORE_RangeEnd] = FN(range_end);
    core[NVTX_CBID_CORE_RangePushEx] = FN(push_ex);
    core[NVTX_CBID_CORE_RangePushA] = FN(push_a);
    core[NVTX_CBID_CORE_RangePushW] = FN(push_w);
    core[NVTX_CBID_CORE_RangePop] = FN(range_pop);
    core2[NVTX_CBID_CORE2_DomainMarkEx] = FN(domain_mark);
    core2[NVTX_CBID_CORE2_DomainRangeStartEx] = FN(domain_start);
    core2[NVTX_CBID_CORE2_DomainRangeEnd] = FN(domain_end);
    core2[NVTX_CBID_CORE2_DomainRangePushEx] = FN(domain_push);
    core2[NVTX_CBID_CORE2_DomainRangePop] = FN(domain_pop);
    core2[NVTX_CBID_CORE2_DomainRegisterStringA] = FN(register_a);
    core2[NVTX_CBID_CORE2_DomainRegisterStringW] = FN(register_w);
    core2[NVTX_CBID_CORE2_DomainCreateA] = FN(domain_create_a);
    core2[NVTX_CBID_CORE2_DomainCreateW] = FN(domain_create_w);
    core2[NVTX_CBID_CORE2_DomainDestroy] = FN(domain_destroy);
    if (fill(cb, NVTX_CB_MODULE_CORE, core, NVTX_CBID_CORE_SIZE) ||
        fill(cb, NVTX_CB_MODULE_CORE2, core2, NVTX_CBID_CORE2_SIZE))
        return 0;
    return 1;
}

/* grow_ranges makes room for one more range in a; 0 or -1 when out of memory */
static int grow_ranges(struct vb_activity *a)
{
    struct vb_range_rec *p;
    size_t cap;
    if (a->nranges < a->cap_ranges) return 0;
    cap = a->cap_ranges ? a->cap_ranges * 2 : 1024;
    if (!(p = realloc(a->ranges, cap * sizeof *p))) return -1;
    a->ranges = p;
    a->cap_ranges = cap;
    return 0;
}

/* take_one moves e into a (as range number id of process pid, thread tid) */
static void take_one(struct vb_activity *a, const struct event *e, uint32_t pid, uint32_t tid)
{
    struct vb_range_rec *r;
    if (grow_ranges(a)) {
        a->dropped++;
        return;
    }
    r = &a->ranges[a->nranges];
    memset(r, 0, sizeof *r);
    r->start = e->start;
    r->end = __atomic_load_n(&e->end, __ATOMIC_ACQUIRE);
    r->id = (uint32_t)a->nranges;
    r->process = pid;
    r->thread = tid;
    r->end_thread = __atomic_load_n(&e->end_thread, __ATOMIC_RELAXED);
    r->category = e->category;
    r->color = e->color;
    r->type = e->type;
    r->text = strdup(e->text);
    r->domain = e->domain ? strdup(e->domain) : NULL;
    if (!r->text || (e->domain && !r->domain)) {
        vb_range_free(r);
        a->dropped++;
        return;
    }
    a->nranges++;
}

void vb_nvtx_record_take(struct vb_activity *a)
{
    uint32_t pid = (uint32_t)getpid();
    struct tbuf *t;
    size_t moved = 0;
    pthread_mutex_lock(&reg_mu);
    for (t = threads; t; t = t->next) {
        struct chunk *c;
        size_t i;
        pthread_mutex_lock(&t->mu);
        c = t->taken ? t->taken : t->first;
        for (i = t->taken ? t->taken_n : 0; c; c = c->next, i = 0) {
            for (; i < c->n; i++, moved++)
                take_one(a, &c->ev[i], pid, t->tid);
            t->taken = c;
            t->taken_n = c->n;
        }
        pthread_mutex_unlock(&t->mu);
    }
    __atomic_sub_fetch(&held, moved, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&reg_mu);
    a->dropped += __atomic_exchange_n(&lost, 0, __ATOMIC_RELAXED);
}

size_t vb_nvtx_record_count(void)
{
    return __atomic_load_n(&held, __ATOMIC_RELAXED);
}
