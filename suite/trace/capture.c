/* capture: cutting a traced process's records to its capture windows (see capture.h). */
#include "capture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vb_capture_parse(const char *s, struct vb_capture *c, struct vb_err *err)
{
    memset(c, 0, sizeof *c);
    if (!strcmp(s, "all") || !strcmp(s, "none")) return 0;
    if (!strcmp(s, "cudaProfilerApi")) {
        c->kind = VB_CAPTURE_PROFILER_API;
        return 0;
    }
    if (!strncmp(s, "nvtx:", 5) && s[5] && strlen(s + 5) < sizeof c->nvtx) {
        c->kind = VB_CAPTURE_NVTX;
        snprintf(c->nvtx, sizeof c->nvtx, "%s", s + 5);
        return 0;
    }
    vb_err_set(err, VB_E_USAGE, "bad capture range '%s'", s);
    return vb_err_hint(err, "use cudaProfilerApi, or nvtx:NAME with the name of an NVTX range "
                            "(127 characters at most)");
}

char *vb_capture_format(const struct vb_capture *c, char *buf, size_t n)
{
    if (c->kind == VB_CAPTURE_PROFILER_API)
        snprintf(buf, n, "cudaProfilerApi");
    else if (c->kind == VB_CAPTURE_NVTX)
        snprintf(buf, n, "nvtx:%s", c->nvtx);
    else
        snprintf(buf, n, "all");
    return buf;
}

struct window {
    uint64_t start, end;
};

static int by_start(const void *a, const void *b)
{
    const struct window *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int is_call(const char *name, const char *what)
{
    char rt[32], drv[32];
    snprintf(rt, sizeof rt, "cudaProfiler%s", what);
    snprintf(drv, sizeof drv, "cuProfiler%s", what);
    return !strncmp(name, rt, strlen(rt)) || !strncmp(name, drv, strlen(drv));
}

/* profiler_windows finds the spans between each start call's end and the next stop call's
 * start (the runtime's call wraps the driver's: a second start or stop changes nothing). */
static size_t profiler_windows(const struct vb_activity *a, uint64_t end, struct window *w)
{
    struct window *calls = malloc(sizeof *calls * (a->napis ? a->napis : 1));
    size_t i, n = 0, nw = 0;
    int open = 0;
    if (!calls) return (size_t)-1;
    for (i = 0; i < a->napis; i++) {
        const char *name = a->apis[i].name ? a->apis[i].name : "";
        /* start: +1 marks a start call, end: its timestamp of interest */
        if (is_call(name, "Start"))
            calls[n++] = (struct window){a->apis[i].start, a->apis[i].end};
        else if (is_call(name, "Stop"))
            calls[n++] = (struct window){a->apis[i].start, 0};
    }
    qsort(calls, n, sizeof *calls, by_start);
    for (i = 0; i < n; i++) {
        if (calls[i].end && !open) {
            w[nw].start = calls[i].end;
            open = 1;
        } else if (!calls[i].end && open) {
            w[nw++].end = calls[i].start;
            open = 0;
        }
    }
    if (open) w[nw++].end = end;
    free(calls);
    return nw;
}

/* merge sorts the windows and joins those that overlap; returns how many remain. */
static size_t merge(struct window *w, size_t n)
{
    size_t i, k = 0;
    if (!n) return 0;
    qsort(w, n, sizeof *w, by_start);
    for (i = 1; i < n; i++) {
        if (w[i].start <= w[k].end) {
            if (w[i].end > w[k].end) w[k].end = w[i].end;
        } else {
            w[++k] = w[i];
        }
    }
    return k + 1;
}

/* inside: whether t lies in one of the n sorted, disjoint windows [start, end) */
static int inside(const struct window *w, size_t n, uint64_t t)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t < w[mid].start)
            hi = mid;
        else if (t >= w[mid].end)
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

static int overlaps(const struct window *w, size_t n, uint64_t start, uint64_t end)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (start <= w[i].end && end >= w[i].start) return 1;
    return 0;
}

/* The launches on record: every API call's correlation id, sorted, with whether it was kept. */
struct kept {
    struct launch {
        uint32_t id;
        int in;
    } * ids;
    size_t n;
};

static int by_id(const void *a, const void *b)
{
    uint32_t x = ((const struct launch *)a)->id, y = ((const struct launch *)b)->id;
    return x < y ? -1 : x > y;
}

/* gpu_kept: a GPU record stays when its launch stayed; one launched before a window that runs
 * inside it stays out with its launch; only a record with no launch on record (API calls not
 * traced, a launch CUPTI did not record) goes by whether it starts inside a window */
static int gpu_kept(const struct kept *k, const struct window *w, size_t nw, uint32_t corr,
                    uint64_t start)
{
    const struct launch key = {corr, 0}, *l;
    if (corr && (l = bsearch(&key, k->ids, k->n, sizeof *k->ids, by_id))) return l->in;
    return inside(w, nw, start);
}

/* FILTER(arr, n, keep, release) compacts arr[0..n) to the elements for which keep (an
 * expression of x) holds, releasing the others with release(x) and counting them */
#define FILTER(arr, n, keep, release)                                                              \
    do {                                                                                           \
        size_t i_, k_ = 0;                                                                         \
        for (i_ = 0; i_ < (n); i_++) {                                                             \
            __typeof__(&(arr)[0]) x = &(arr)[i_];                                                  \
            if (keep)                                                                              \
                (arr)[k_++] = *x;                                                                  \
            else {                                                                                 \
                release;                                                                           \
                res->dropped++;                                                                    \
            }                                                                                      \
        }                                                                                          \
        (n) = k_;                                                                                  \
    } while (0)

int vb_capture_apply(struct vb_activity *a, const struct vb_capture *c, uint64_t end,
                     struct vb_capture_result *res)
{
    struct window *w;
    struct kept k = {NULL, 0};
    struct launch *ids;
    size_t i, nw = 0;
    memset(res, 0, sizeof *res);
    if (c->kind == VB_CAPTURE_ALL) return 0;
    w = malloc(sizeof *w * (a->napis + a->nranges + 1));
    ids = malloc(sizeof *ids * (a->napis ? a->napis : 1));
    if (!w || !ids) {
        free(w);
        free(ids);
        return -1;
    }
    if (c->kind == VB_CAPTURE_PROFILER_API) {
        nw = profiler_windows(a, end, w);
        if (nw == (size_t)-1) {
            free(w);
            free(ids);
            return -1;
        }
    } else {
        for (i = 0; i < a->nranges; i++)
            if (a->ranges[i].text && !strcmp(a->ranges[i].text, c->nvtx))
                w[nw++] =
                    (struct window){a->ranges[i].start, a->ranges[i].end ? a->ranges[i].end : end};
    }
    nw = merge(w, nw);
    res->windows = nw;
    if (nw) {
        res->first = w[0].start;
        res->last = w[nw - 1].end;
    }
    for (i = 0; i < a->napis; i++)
        ids[i] = (struct launch){a->apis[i].correlation, inside(w, nw, a->apis[i].start)};
    qsort(ids, a->napis, sizeof *ids, by_id);
    k.ids = ids;
    k.n = a->napis;
    FILTER(a->apis, a->napis, inside(w, nw, x->start), free(x->name));
    FILTER(a->kernels, a->nkernels, gpu_kept(&k, w, nw, x->correlation, x->start), free(x->name));
    FILTER(a->copies, a->ncopies, gpu_kept(&k, w, nw, x->correlation, x->start), (void)0);
    FILTER(a->memsets, a->nmemsets, gpu_kept(&k, w, nw, x->correlation, x->start), (void)0);
    FILTER(a->ranges, a->nranges, overlaps(w, nw, x->start, x->end ? x->end : end),
           vb_range_free(x));
    free(w);
    free(ids);
    return 0;
}
