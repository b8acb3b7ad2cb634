/* samples: a traced process's ranges and kernels as sampled cases (see samples.h). */
#define _GNU_SOURCE
#include "samples.h"

#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "summary.h"

int vb_trace_pick_add(struct vb_trace_pick *p, int kernel, const char *name, struct vb_err *err)
{
    const char *opt = kernel ? "--kernel" : "--range";
    int *n = kernel ? &p->nkernels : &p->nranges;
    size_t cap = kernel ? sizeof p->kernels[0] : sizeof p->ranges[0];
    char *slot;
    if (!name || !*name)
        return vb_err_set(err, VB_E_USAGE, "%s: an empty name (%s)", opt,
                          kernel ? "a glob of kernel names, e.g. '*gemm*'"
                                 : "an NVTX range's name, auto or none");
    if (!kernel && !strcmp(name, "auto")) {
        p->automatic = 1;
        return 0;
    }
    if (!kernel && !strcmp(name, "none")) { /* nothing sampled, whatever came before */
        p->automatic = 0;
        p->nranges = 0;
        return 0;
    }
    if (*n == VB_TRACE_MAX_NAMED)
        return vb_err_set(err, VB_E_USAGE, "%s '%s': at most %d of them", opt, name,
                          VB_TRACE_MAX_NAMED);
    if (strlen(name) >= cap || strchr(name, '\n'))
        return vb_err_set(err, VB_E_USAGE, "%s '%.40s...': %s", opt, name,
                          strchr(name, '\n') ? "a name of one line" : "too long");
    slot = kernel ? p->kernels[*n] : p->ranges[*n];
    memcpy(slot, name, strlen(name) + 1);
    (*n)++;
    return 0;
}

/* add_lines adds each line of text (NULL: none) to p's ranges or kernels */
static int add_lines(struct vb_trace_pick *p, int kernel, const char *text, struct vb_err *err)
{
    char line[300];
    while (text && *text) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? (size_t)(nl - text) : strlen(text);
        if (len >= sizeof line) len = sizeof line - 1; /* refused by the length check below */
        memcpy(line, text, len);
        line[len] = '\0';
        if (len && vb_trace_pick_add(p, kernel, line, err)) return -1;
        text += nl ? (size_t)(nl - text) + 1 : strlen(text);
    }
    return 0;
}

int vb_trace_pick_parse(const char *ranges, const char *kernels, struct vb_trace_pick *p,
                        struct vb_err *err)
{
    memset(p, 0, sizeof *p);
    p->automatic = !ranges;
    return add_lines(p, 0, ranges, err) || add_lines(p, 1, kernels, err) ? -1 : 0;
}

char *vb_trace_pick_format(const struct vb_trace_pick *p, int kernel, char *buf, size_t n)
{
    size_t used = 0;
    int i, k = kernel ? p->nkernels : p->nranges;
    buf[0] = '\0';
    if (!kernel) used = (size_t)snprintf(buf, n, "%s", p->automatic ? "auto" : k ? "" : "none");
    for (i = 0; i < k && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? "\n" : "",
                                 kernel ? p->kernels[i] : p->ranges[i]);
    return buf;
}

int vb_trace_pick_any(const struct vb_trace_pick *p)
{
    return p->automatic || p->nranges || p->nkernels;
}

/* ---- The work launched inside a window ----------------------------------------------------- */

/* A GPU record by the correlation id of the call that launched it. */
struct gpu_ref {
    uint32_t corr;
    uint8_t kind; /* 0 kernel, 1 copy, 2 memset */
    size_t idx;
};

struct index {
    const struct vb_activity *a;
    size_t *apis;        /* API calls by start */
    struct gpu_ref *gpu; /* GPU records by correlation id */
    size_t ngpu;
    uint32_t *corr; /* scratch: one window's correlation ids */
};

static const struct vb_activity *sort_a; /* qsort has no context argument */

static int by_api_start(const void *x, const void *y)
{
    uint64_t a = sort_a->apis[*(const size_t *)x].start, b = sort_a->apis[*(const size_t *)y].start;
    return a < b ? -1 : a > b;
}

static int by_corr(const void *x, const void *y)
{
    uint32_t a = ((const struct gpu_ref *)x)->corr, b = ((const struct gpu_ref *)y)->corr;
    return a < b ? -1 : a > b;
}

static int by_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static void index_free(struct index *ix)
{
    free(ix->apis);
    free(ix->gpu);
    free(ix->corr);
}

/* index_build sorts a's API calls by start and its GPU records by correlation id. 0 or -1. */
static int index_build(struct index *ix, const struct vb_activity *a)
{
    size_t i, n = 0;
    memset(ix, 0, sizeof *ix);
    ix->a = a;
    ix->apis = malloc(sizeof *ix->apis * (a->napis + 1));
    ix->corr = malloc(sizeof *ix->corr * (a->napis + 1));
    ix->gpu = malloc(sizeof *ix->gpu * (a->nkernels + a->ncopies + a->nmemsets + 1));
    if (!ix->apis || !ix->corr || !ix->gpu) {
        index_free(ix);
        return -1;
    }
    for (i = 0; i < a->napis; i++)
        ix->apis[i] = i;
    sort_a = a;
    qsort(ix->apis, a->napis, sizeof *ix->apis, by_api_start);
    for (i = 0; i < a->nkernels; i++)
        if (a->kernels[i].correlation)
            ix->gpu[n++] = (struct gpu_ref){a->kernels[i].correlation, 0, i};
    for (i = 0; i < a->ncopies; i++)
        if (a->copies[i].correlation)
            ix->gpu[n++] = (struct gpu_ref){a->copies[i].correlation, 1, i};
    for (i = 0; i < a->nmemsets; i++)
        if (a->memsets[i].correlation)
            ix->gpu[n++] = (struct gpu_ref){a->memsets[i].correlation, 2, i};
    qsort(ix->gpu, n, sizeof *ix->gpu, by_corr);
    ix->ngpu = n;
    return 0;
}

/* add_gpu adds GPU record g to sample s */
static void add_gpu(const struct vb_activity *a, const struct gpu_ref *g, struct vb_sample *s)
{
    if (g->kind == 0) {
        const struct vb_kernel_rec *k = &a->kernels[g->idx];
        double d = (double)(k->end - k->start);
        s->kernel_count++;
        s->kernel_ns += d;
        if (vb_trace_collective(k->name)) s->comm_ns += d;
    } else if (g->kind == 1) {
        const struct vb_copy_rec *c = &a->copies[g->idx];
        double d = (double)(c->end - c->start);
        if (c->copy_kind == VB_COPY_HTOD) {
            s->h2d_count++;
            s->h2d_bytes += c->bytes;
            s->h2d_ns += d;
        } else if (c->copy_kind == VB_COPY_DTOH) {
            s->d2h_count++;
            s->d2h_bytes += c->bytes;
            s->d2h_ns += d;
        }
    } else {
        const struct vb_memset_rec *m = &a->memsets[g->idx];
        s->memset_count++;
        s->memset_bytes += m->bytes;
        s->memset_ns += (double)(m->end - m->start);
    }
}

/* launches_work: whether a successful call of this name puts work on a GPU (a kernel, a graph,
 * a copy, a memset), so that CUPTI records it under the call's correlation id */
static int launches_work(const struct vb_api_rec *c)
{
    const char *n = c->name ? c->name : "";
    return !c->ret && !strstr(n, "HostFunc") &&
           (strstr(n, "Launch") || strstr(n, "Memcpy") || strstr(n, "Memset"));
}

/* found: the first of ix's GPU records with correlation id corr (ix->ngpu: none) */
static size_t found(const struct index *ix, uint32_t corr)
{
    size_t l = 0, h = ix->ngpu;
    while (l < h) {
        size_t m = l + (h - l) / 2;
        if (ix->gpu[m].corr < corr)
            l = m + 1;
        else
            h = m;
    }
    return l < ix->ngpu && ix->gpu[l].corr == corr ? l : ix->ngpu;
}

/* window fills s with the work launched by the API calls that started in [lo, hi]: each
 * correlation id once (a runtime call and the driver call under it share theirs). Returns the
 * number of those calls that launched work CUPTI has no record of (missing records: after
 * another client took CUPTI's records over, the window's GPU times are not known). */
static size_t window(struct index *ix, uint64_t lo, uint64_t hi, struct vb_sample *s)
{
    const struct vb_activity *a = ix->a;
    size_t l = 0, h = a->napis, i, n = 0, j, orphans = 0;
    while (l < h) { /* the first call starting at lo or later */
        size_t m = l + (h - l) / 2;
        if (a->apis[ix->apis[m]].start < lo)
            l = m + 1;
        else
            h = m;
    }
    for (i = l; i < a->napis && a->apis[ix->apis[i]].start <= hi; i++) {
        const struct vb_api_rec *c = &a->apis[ix->apis[i]];
        if (!c->correlation) continue;
        ix->corr[n++] = c->correlation;
        if (launches_work(c) && found(ix, c->correlation) == ix->ngpu) orphans++;
    }
    qsort(ix->corr, n, sizeof *ix->corr, by_u32);
    for (i = 0; i < n; i++) {
        if (i && ix->corr[i] == ix->corr[i - 1]) continue;
        for (j = found(ix, ix->corr[i]); j < ix->ngpu && ix->gpu[j].corr == ix->corr[i]; j++)
            add_gpu(a, &ix->gpu[j], s);
    }
    s->gpu_ns = s->h2d_ns + s->d2h_ns + s->kernel_ns + s->memset_ns;
    return orphans;
}

/* ---- Ranges -------------------------------------------------------------------------------- */

static int by_text_start(const void *x, const void *y)
{
    const struct vb_range_rec *a = &sort_a->ranges[*(const size_t *)x],
                              *b = &sort_a->ranges[*(const size_t *)y];
    int c = strcmp(a->text ? a->text : "", b->text ? b->text : "");
    return c ? c : a->start < b->start ? -1 : a->start > b->start;
}

/* A range name's instances: ranges[idx[first .. first + count)], their summed time. */
struct group {
    size_t first, count;
    double total_ns;
    int named, chosen, library;
};

int vb_trace_library_range(const char *domain, const char *name)
{
    static const char *const libs[] = {"nccl",     "cudnn",    "cublas",  "cufft",
                                       "cusparse", "cusolver", "curand",  "nvjpeg",
                                       "npp",      "cutensor", "nvshmem", "tensorrt"};
    const char *s = domain && *domain ? domain : name ? name : "";
    size_t i;
    for (i = 0; i < sizeof libs / sizeof libs[0]; i++)
        if (!strncasecmp(s, libs[i], strlen(libs[i]))) return 1;
    return 0;
}

static int by_total(const void *x, const void *y)
{
    double a = ((const struct group *)x)->total_ns, b = ((const struct group *)y)->total_ns;
    return a > b ? -1 : a < b;
}

/* append adds one more thing left out to note ("; " between them) */
static void append(char *note, size_t nn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void append(char *note, size_t nn, const char *fmt, ...)
{
    size_t used = strlen(note);
    va_list ap;
    if (used + 3 >= nn) return;
    if (used) used += (size_t)snprintf(note + used, nn - used, "; ");
    va_start(ap, fmt);
    vsnprintf(note + used, nn - used, fmt, ap);
    va_end(ap);
}

/* ---- The cases ----------------------------------------------------------------------------- */

struct maker {
    const char *label, *how;
    const struct vb_trace_who *who;
    int dev, have;
    uint64_t lost_after; /* where CUPTI's records end when another client took them, else 0 */
    struct vb_trace_case *cases;
    size_t n, cap;
};

/* make adds the case of samples s[0..n) (taken, freed on failure) */
static int make(struct maker *m, const char *axis, const char *what, struct vb_sample *s, int n,
                const char *kind)
{
    char how[256];
    struct vb_trace_case *t = &m->cases[m->n];
    snprintf(how, sizeof how, "%d %s of %s '%.80s'; %s", n, kind, axis, what, m->how);
    if (vb_trace_case_sampled(t, m->label, axis, what, m->who, m->dev, m->have, s, n, how)) {
        vb_trace_case_free(t);
        return -1;
    }
    m->n++;
    return 0;
}

/* range_cases adds the cases of the range names p picks */
static int range_cases(const struct vb_activity *a, const struct vb_trace_pick *p, struct index *ix,
                       struct maker *m, char *note, size_t nn)
{
    size_t *idx = malloc(sizeof *idx * (a->nranges + 1)), n = 0, i, j, ng = 0, left = 0;
    struct group *g = malloc(sizeof *g * (a->nranges + 1));
    int k, rc = -1;
    if (!idx || !g) goto out;
    for (i = 0; i < a->nranges; i++) { /* ranges that ended; marks have no length */
        const struct vb_range_rec *r = &a->ranges[i];
        if (r->end >= r->start && r->end && r->type != VB_NVTX_MARK && r->text && *r->text)
            idx[n++] = i;
    }
    sort_a = a;
    qsort(idx, n, sizeof *idx, by_text_start);
    for (i = 0; i < n; i = j) {
        g[ng] = (struct group){i, 0, 0, 0, 0, 0};
        for (j = i; j < n && !strcmp(a->ranges[idx[j]].text, a->ranges[idx[i]].text); j++)
            g[ng].total_ns += (double)(a->ranges[idx[j]].end - a->ranges[idx[j]].start);
        g[ng].count = j - i;
        g[ng].library = vb_trace_library_range(a->ranges[idx[i]].domain, a->ranges[idx[i]].text);
        for (k = 0; k < p->nranges; k++)
            if (!strcmp(p->ranges[k], a->ranges[idx[i]].text)) g[ng].named = g[ng].chosen = 1;
        ng++;
    }
    for (k = 0; k < p->nranges; k++) {
        for (i = 0; i < ng && strcmp(p->ranges[k], a->ranges[idx[g[i].first]].text); i++) {
        }
        if (i == ng) append(note, nn, "range '%.80s': no instance", p->ranges[k]);
    }
    qsort(g, ng, sizeof *g, by_total);
    for (i = 0, k = 0; p->automatic && i < ng; i++) {
        if (g[i].named || g[i].library || g[i].count < VB_TRACE_MIN_INSTANCES) continue;
        if (k < VB_TRACE_MAX_AUTO)
            g[i].chosen = 1, k++;
        else
            left++;
    }
    if (left)
        append(note, nn,
               "%zu more range names with %d instances or more left out (name them "
               "with --range)",
               left, VB_TRACE_MIN_INSTANCES);
    for (i = 0; i < ng; i++) {
        struct vb_sample *s;
        size_t unknown = 0, orphans;
        if (!g[i].chosen) continue;
        if (!(s = calloc(g[i].count, sizeof *s))) goto out;
        for (j = 0; j < g[i].count; j++) {
            const struct vb_range_rec *r = &a->ranges[idx[g[i].first + j]];
            s[j].kind = VB_SAMPLE_TIMED;
            s[j].start = r->start;
            s[j].end = r->end;
            s[j].e2e_ns = (double)(r->end - r->start);
            s[j].sm_clock_mhz = NAN;
            if (!m->have) continue;
            orphans = window(ix, r->start, r->end, &s[j]);
            /* records taken by another client: an instance that launched work CUPTI has no
             * record of, or began after the point where its records end, has no GPU times,
             * never a false 0 (its counts stay: what CUPTI did record) */
            if (m->lost_after && (orphans || r->start > m->lost_after)) {
                s[j].h2d_ns = s[j].d2h_ns = s[j].kernel_ns = s[j].memset_ns = NAN;
                s[j].gpu_ns = s[j].comm_ns = NAN;
                unknown++;
            }
        }
        if (unknown)
            append(note, nn,
                   "range '%.80s': %zu of %zu instances launched work whose records are "
                   "missing: their GPU times are unknown",
                   a->ranges[idx[g[i].first]].text, unknown, g[i].count);
        if (make(m, "range", a->ranges[idx[g[i].first]].text, s, (int)g[i].count, "instances"))
            goto out;
    }
    rc = 0;
out:
    free(idx);
    free(g);
    return rc;
}

static int by_name_start(const void *x, const void *y)
{
    const struct vb_kernel_rec *a = &sort_a->kernels[*(const size_t *)x],
                               *b = &sort_a->kernels[*(const size_t *)y];
    int c = strcmp(a->name ? a->name : "", b->name ? b->name : "");
    return c ? c : a->start < b->start ? -1 : a->start > b->start;
}

/* kernel_label writes how a kernel name is shown as an axis: demangled, without its
 * parameters and a leading "void " */
static void kernel_label(const char *demangled, char *buf, size_t n)
{
    const char *d = strncmp(demangled, "void ", 5) ? demangled : demangled + 5, *paren;
    size_t len = strlen(d);
    if ((paren = strchr(d, '(')) && paren > d) len = (size_t)(paren - d);
    if (len >= n) len = n - 1;
    memcpy(buf, d, len);
    buf[len] = '\0';
}

/* kernel_cases adds a case per kernel name one of p's globs matches */
static int kernel_cases(const struct vb_activity *a, const struct vb_trace_pick *p, struct maker *m,
                        char *note, size_t nn)
{
    size_t *idx = malloc(sizeof *idx * (a->nkernels + 1)), n = 0, i, j, left = 0, made = 0;
    int k, rc = -1, *hit = calloc((size_t)p->nkernels + 1, sizeof *hit);
    if (!idx || !hit) goto out;
    for (i = 0; i < a->nkernels; i++)
        if (a->kernels[i].name && *a->kernels[i].name) idx[n++] = i;
    sort_a = a;
    qsort(idx, n, sizeof *idx, by_name_start);
    for (i = 0; i < n; i = j) {
        const char *mangled = a->kernels[idx[i]].name;
        char *d = vb_summary_demangle(mangled), label[sizeof m->cases[0].what];
        int match = 0;
        struct vb_sample *s;
        for (j = i; j < n && !strcmp(a->kernels[idx[j]].name, mangled); j++) {
        }
        if (!d) goto out;
        kernel_label(d, label, sizeof label);
        for (k = 0; k < p->nkernels; k++)
            if (!fnmatch(p->kernels[k], label, 0) || !fnmatch(p->kernels[k], d, 0) ||
                !fnmatch(p->kernels[k], mangled, 0))
                match = hit[k] = 1;
        free(d);
        if (!match) continue;
        if (made == VB_TRACE_MAX_KERNELS) {
            left++;
            continue;
        }
        if (!(s = calloc(j - i, sizeof *s))) goto out;
        for (k = 0; k < (int)(j - i); k++) {
            const struct vb_kernel_rec *r = &a->kernels[idx[i + (size_t)k]];
            double dur = (double)(r->end - r->start);
            s[k].kind = VB_SAMPLE_TIMED;
            s[k].start = r->start;
            s[k].end = r->end;
            s[k].e2e_ns = s[k].kernel_ns = s[k].gpu_ns = dur;
            s[k].comm_ns = vb_trace_collective(r->name) ? dur : 0;
            s[k].kernel_count = 1;
            s[k].sm_clock_mhz = NAN;
        }
        if (make(m, "kernel", label, s, (int)(j - i), "launches")) goto out;
        made++;
    }
    for (k = 0; k < p->nkernels; k++)
        if (!hit[k]) append(note, nn, "--kernel '%.80s': no kernel matched", p->kernels[k]);
    if (left)
        append(note, nn, "%zu more kernels matched, left out (at most %d)", left,
               VB_TRACE_MAX_KERNELS);
    rc = 0;
out:
    free(idx);
    free(hit);
    return rc;
}

int vb_trace_sampled(const struct vb_activity *a, const struct vb_trace_pick *p, const char *label,
                     const struct vb_trace_who *w, int dev, int have_records, uint64_t lost_after,
                     const char *how, struct vb_trace_case **out, size_t *n, char *note, size_t nn)
{
    struct maker m = {label, how, w, dev, have_records, lost_after, NULL, 0, 0};
    struct index ix;
    size_t i;
    *out = NULL;
    *n = 0;
    note[0] = '\0';
    if (!vb_trace_pick_any(p)) return 0;
    m.cap = (p->automatic ? VB_TRACE_MAX_AUTO : 0) + (size_t)p->nranges +
            (p->nkernels ? VB_TRACE_MAX_KERNELS : 0);
    if (!(m.cases = calloc(m.cap + 1, sizeof *m.cases))) return -1;
    if (index_build(&ix, a)) {
        free(m.cases);
        return -1;
    }
    if (range_cases(a, p, &ix, &m, note, nn) ||
        (p->nkernels && have_records && kernel_cases(a, p, &m, note, nn))) {
        index_free(&ix);
        for (i = 0; i < m.n; i++)
            vb_trace_case_free(&m.cases[i]);
        free(m.cases);
        return -1;
    }
    index_free(&ix);
    if (!m.n) {
        free(m.cases);
        m.cases = NULL;
    }
    *out = m.cases;
    *n = m.n;
    return 0;
}
