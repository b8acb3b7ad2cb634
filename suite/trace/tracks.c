/* tracks: the tracks of a trace export and the placement of events on them (see tracks.h). */
#include "tracks.h"

#include <stdlib.h>
#include <string.h>

/* What an entry of the table is: a process, a GPU stream's track, a tid taken on a GPU, or a
 * host thread with its lanes. */
enum { K_PROC, K_GPU, K_GPU_TID, K_THREAD, K_GPU_LANE };

struct key {
    int type;
    int64_t a, b, c, d;
};

/* One lane of a host thread: its track and the ends of the events open on it, outermost first
 * (an event nests when it ends no later than the innermost). */
struct lane {
    struct vb_track tr;
    int64_t *ends;
    int depth, cap;
};

struct entry {
    struct key k;
    struct vb_track tr; /* K_GPU */
    struct lane *lanes; /* K_THREAD */
    int nlanes;
    int64_t next_tid; /* K_PROC: the next dense tid of a host process, or duplicate of a GPU */
    int named;        /* K_PROC: vb_tracks_process has answered 1 */
};

struct vb_tracks {
    struct entry **e; /* each entry its own allocation: a track's address stays */
    int n, cap;
    int *slots; /* open addressing: index + 1 into e, 0 empty */
    size_t nslots;
};

struct vb_tracks *vb_tracks_new(void)
{
    return calloc(1, sizeof(struct vb_tracks));
}

void vb_tracks_free(struct vb_tracks *t)
{
    int i, k;
    if (!t) return;
    for (i = 0; i < t->n; i++) {
        for (k = 0; k < t->e[i]->nlanes; k++)
            free(t->e[i]->lanes[k].ends);
        free(t->e[i]->lanes);
        free(t->e[i]);
    }
    free(t->e);
    free(t->slots);
    free(t);
}

static size_t hash(const struct key *k)
{
    uint64_t h = (uint64_t)k->type * 0x9E3779B97F4A7C15ull;
    const int64_t v[] = {k->a, k->b, k->c, k->d};
    int i;
    for (i = 0; i < 4; i++) {
        h ^= (uint64_t)v[i] + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ull;
    }
    return (size_t)(h ^ (h >> 31));
}

static int same(const struct key *x, const struct key *y)
{
    return x->type == y->type && x->a == y->a && x->b == y->b && x->c == y->c && x->d == y->d;
}

/* slot_of returns the slot of key k in t's table: its entry's, or the empty one it would take. */
static size_t slot_of(const struct vb_tracks *t, const struct key *k)
{
    size_t i = hash(k) & (t->nslots - 1);
    while (t->slots[i] && !same(&t->e[t->slots[i] - 1]->k, k))
        i = (i + 1) & (t->nslots - 1);
    return i;
}

/* grow doubles the hash table (and keeps at least one slot in two free); 0 or -1. */
static int grow(struct vb_tracks *t)
{
    size_t n = t->nslots ? t->nslots * 2 : 64;
    int *old = t->slots, i;
    if (!(t->slots = calloc(n, sizeof *t->slots))) {
        t->slots = old;
        return -1;
    }
    t->nslots = n;
    free(old);
    for (i = 0; i < t->n; i++)
        t->slots[slot_of(t, &t->e[i]->k)] = i + 1;
    return 0;
}

/* find returns the entry of k, making a zeroed one when there is none (*made 1); NULL when out
 * of memory. */
static struct entry *find(struct vb_tracks *t, const struct key *k, int *made)
{
    struct entry *x;
    size_t i;
    *made = 0;
    if ((size_t)(t->n + 1) * 2 > t->nslots && grow(t)) return NULL;
    i = slot_of(t, k);
    if (t->slots[i]) return t->e[t->slots[i] - 1];
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 32;
        struct entry **e = realloc(t->e, (size_t)cap * sizeof *e);
        if (!e) return NULL;
        t->e = e;
        t->cap = cap;
    }
    if (!(x = calloc(1, sizeof *x))) return NULL;
    x->k = *k;
    t->e[t->n++] = x;
    t->slots[i] = t->n;
    *made = 1;
    return x;
}

/* proc returns pid's entry, its dense tids starting at 1. */
static struct entry *proc(struct vb_tracks *t, int64_t pid)
{
    struct key k = {K_PROC, pid, 0, 0, 0};
    int made;
    struct entry *x = find(t, &k, &made);
    if (x && made) x->next_tid = 1;
    return x;
}

int vb_tracks_process(struct vb_tracks *t, int64_t pid)
{
    struct entry *x = proc(t, pid);
    if (!x) return -1;
    if (x->named) return 0;
    x->named = 1;
    return 1;
}

struct vb_track *vb_tracks_gpu(struct vb_tracks *t, int device, int64_t proc_key, int context,
                               int stream, int *is_new)
{
    struct key k = {K_GPU, device, proc_key, context, stream};
    struct key taken = {K_GPU_TID, device, stream, 0, 0};
    struct entry *x = find(t, &k, is_new), *tid, *p;
    int made;
    if (!x || !*is_new) return x ? &x->tr : NULL;
    x->tr.pid = VB_TRACKS_GPU_PID(device);
    x->tr.thread = stream;
    x->tr.last_end = -1;
    if (!(tid = find(t, &taken, &made)) || !(p = proc(t, x->tr.pid))) return NULL;
    x->tr.tid = x->tr.sort = made ? stream : VB_TRACKS_DUP_TID + p->next_tid++;
    return &x->tr;
}

struct vb_track *vb_tracks_gpu_lane(struct vb_tracks *t, int device, int64_t proc_key, int context,
                                    int stream, int64_t start, int *is_new)
{
    int lane;
    for (lane = 1;; lane++) {
        /* a lane is its stream's key with the lane number above the context's 32 bits */
        struct key k = {K_GPU_LANE, device, proc_key,
                        (int64_t)(uint32_t)context | (int64_t)lane << 32, stream};
        struct entry *x = find(t, &k, is_new), *p;
        if (!x) return NULL;
        if (!*is_new) {
            if (x->tr.last_end <= start) return &x->tr;
            continue;
        }
        if (!(p = proc(t, VB_TRACKS_GPU_PID(device)))) return NULL;
        x->tr.pid = VB_TRACKS_GPU_PID(device);
        x->tr.thread = stream;
        x->tr.lane = lane;
        x->tr.last_end = -1;
        x->tr.tid = VB_TRACKS_DUP_TID + p->next_tid++;
        x->tr.sort = (int64_t)stream * 1000 + lane;
        return &x->tr;
    }
}

/* push puts an event ending at end on lane l; 0 or -1. */
static int push(struct lane *l, int64_t end)
{
    if (l->depth == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        int64_t *e = realloc(l->ends, (size_t)cap * sizeof *e);
        if (!e) return -1;
        l->ends = e;
        l->cap = cap;
    }
    l->ends[l->depth++] = end;
    return 0;
}

struct vb_track *vb_tracks_place(struct vb_tracks *t, int64_t pid, int64_t thread, int64_t start,
                                 int64_t end, int *is_new)
{
    struct key k = {K_THREAD, pid, thread, 0, 0};
    struct entry *x, *p;
    struct lane *l;
    int made, i;
    *is_new = 0;
    if (!(x = find(t, &k, &made)) || !(p = proc(t, pid))) return NULL;
    for (i = 0; i < x->nlanes; i++) {
        l = &x->lanes[i];
        /* what ended by start is done: the event follows it */
        while (l->depth && l->ends[l->depth - 1] <= start)
            l->depth--;
        if (!l->depth || end <= l->ends[l->depth - 1])
            return push(l, end) ? NULL : &l->tr; /* follows, or nests in the innermost */
    }
    l = realloc(x->lanes, (size_t)(x->nlanes + 1) * sizeof *l);
    if (!l) return NULL;
    x->lanes = l;
    l = &x->lanes[x->nlanes++];
    memset(l, 0, sizeof *l);
    l->tr.pid = pid;
    l->tr.tid = p->next_tid++;
    l->tr.thread = thread;
    l->tr.lane = x->nlanes - 1;
    l->tr.last_end = -1;
    l->tr.sort = x->lanes[0].tr.tid * 1000 + l->tr.lane;
    *is_new = 1;
    return push(l, end) ? NULL : &l->tr;
}
