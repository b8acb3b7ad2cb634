/* trace: a traced process as a case (see trace.h). */
#include "trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s && s[1] ? s + 1 : path;
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int is_python(const char *prog)
{
    return starts(prog, "python") || starts(prog, "pypy");
}

static int is_shell(const char *prog)
{
    static const char *const shells[] = {"sh", "bash", "dash", "zsh", "ksh"};
    size_t i;
    for (i = 0; i < sizeof shells / sizeof shells[0]; i++)
        if (!strcmp(prog, shells[i])) return 1;
    return 0;
}

void vb_trace_label(int argc, char *const *argv, char *buf, size_t n)
{
    const char *label = NULL;
    int i = 0, j;
    while (i < argc && !label) {
        const char *prog = base(argv[i]);
        if (!strcmp(prog, "env")) { /* env [-i] [-u NAME] [-C DIR] [NAME=VALUE]... PROGRAM */
            for (i++; i < argc && (argv[i][0] == '-' || strchr(argv[i], '=')); i++)
                if (!strcmp(argv[i], "-u") || !strcmp(argv[i], "-C")) i++;
            continue;
        }
        label = prog;
        if (!is_python(prog) && !is_shell(prog)) break;
        for (j = i + 1; j < argc; j++) {
            const char *a = argv[j];
            if (!strcmp(a, "-c")) break; /* inline code: the interpreter is the best name */
            if (!strcmp(a, "-m") && is_python(prog)) {
                if (j + 1 < argc) label = argv[j + 1];
                break;
            }
            if ((!strcmp(a, "-W") || !strcmp(a, "-X")) && is_python(prog)) {
                j++; /* these take a value */
                continue;
            }
            if (a[0] == '-') continue;
            label = base(a);
            break;
        }
    }
    snprintf(buf, n, "%s", label && *label ? label : "program");
}

static void set_stats(struct vb_stats *s, double ms)
{
    s->n = 1;
    s->median = s->min = s->max = s->mean = ms;
    s->stdev = NAN; /* one sample: no spread, as vb_stats_compute says for n = 1 */
    s->noise = INFINITY;
}

/* widen grows [*lo, *hi] to hold [start, end]; zero timestamps are unknown and ignored. */
static void widen(uint64_t *lo, uint64_t *hi, uint64_t start, uint64_t end)
{
    if (start && start < *lo) *lo = start;
    if (end > *hi) *hi = end;
    if (start > *hi) *hi = start;
}

/* pick_device: the device most kernels ran on, else most copies, else 0. */
static int pick_device(const struct vb_activity *a)
{
    uint32_t ids[16];
    size_t cnt[16] = {0}, i, k, n = 0, best = 0;
    int pass;
    for (pass = 0; pass < 2 && n == 0; pass++) {
        size_t m = pass ? a->ncopies : a->nkernels;
        for (i = 0; i < m; i++) {
            uint32_t d = pass ? a->copies[i].device : a->kernels[i].device;
            for (k = 0; k < n && ids[k] != d; k++) {
            }
            if (k == n) {
                if (n == 16) continue;
                ids[n++] = d;
            }
            cnt[k]++;
        }
    }
    for (k = 1; k < n; k++)
        if (cnt[k] > cnt[best]) best = k;
    return n ? (int)ids[best] : 0;
}

void vb_trace_who_get(int root, struct vb_trace_who *w)
{
    static const char *const vars[] = {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID",
                                       "LOCAL_RANK"};
    size_t i;
    w->axis = NULL;
    w->value = 0;
    for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        char *end = NULL;
        long x = v && *v ? strtol(v, &end, 10) : -1;
        if (end && !*end && x >= 0) {
            w->axis = "rank";
            w->value = x;
            return;
        }
    }
    if (!root) {
        w->axis = "pid";
        w->value = (long)getpid();
    }
}

/* axes sets t's problem, point and axes text: a sampled case's axis `what` (label t->what),
 * then w's; none for a whole process alone. */
static void axes(struct vb_trace_case *t, const char *what, const struct vb_trace_who *w)
{
    struct vb_problem *p = &t->problem;
    size_t used = 0;
    int k = 0;
    p->name = VB_TRACE_FAMILY;
    p->summary = "an unmodified program: a case per process, per NVTX range and per kernel asked";
    p->axes = t->axes;
    t->r.axes[0] = '\0';
    if (what) {
        t->labels[0] = t->what;
        t->axes[k] = (struct vb_axis){.name = what, .labels = t->labels};
        t->r.point.v[k++] = 0;
        used += (size_t)snprintf(t->r.axes, sizeof t->r.axes, "%s=%s", what, t->what);
    }
    if (w && w->axis) {
        t->axes[k] = (struct vb_axis){.name = w->axis};
        t->r.point.v[k++] = w->value;
        if (used < sizeof t->r.axes)
            snprintf(t->r.axes + used, sizeof t->r.axes - used, "%s%s=%ld", used ? "," : "",
                     w->axis, w->value);
    }
    p->naxes = k;
    t->r.point.problem = p;
}

static void identity(struct vb_trace_case *t, const char *label, const char *how)
{
    memset(t, 0, sizeof *t);
    snprintf(t->label, sizeof t->label, "%s", label && *label ? label : "program");
    snprintf(t->how, sizeof t->how, "%s", how ? how : "exit");
    t->family.name = VB_TRACE_FAMILY;
    t->family.summary = "programs traced with varbench trace";
    t->family.seed = NULL;
    t->family.variants = &t->variant;
    t->family.nvariants = 1;
    t->variant.name = t->label;
    t->variant.summary = "an unmodified program traced with varbench trace";
    t->variant.flags = VB_GPU;
    t->variant.problem = &t->problem;
    axes(t, NULL, NULL);
    t->r.family = &t->family;
    t->r.variant = &t->variant;
    t->r.gpu_ci_pct = t->r.clock_min_mhz = t->r.clock_median_mhz = NAN;
    t->r.cold = -1; /* the program's own caches: neither flushed nor known */
    t->r.axes[0] = '\0';
    t->r.device = 0;
    t->r.max_abs_err = t->r.max_rel_err = t->r.gst_efficiency = NAN;
    t->r.stop_reason = t->how;
    t->r.metrics_status = VB_METRICS_NONE;
    t->r.samples = &t->sample;
    t->r.nsamples = t->r.ntimed = 1;
    t->sample.kind = VB_SAMPLE_TIMED;
}

void vb_trace_case_init(struct vb_trace_case *t, const char *label, struct vb_activity *a,
                        uint64_t start, uint64_t end, const char *how)
{
    struct vb_sample *s = &t->sample;
    const struct vb_activity *x;
    uint64_t lo = start, hi = end > start ? end : start;
    size_t i;
    identity(t, label, how);
    t->r.activity = *a;
    memset(a, 0, sizeof *a);
    x = &t->r.activity;
    for (i = 0; i < x->nkernels; i++)
        widen(&lo, &hi, x->kernels[i].start, x->kernels[i].end);
    for (i = 0; i < x->ncopies; i++)
        widen(&lo, &hi, x->copies[i].start, x->copies[i].end);
    for (i = 0; i < x->nmemsets; i++)
        widen(&lo, &hi, x->memsets[i].start, x->memsets[i].end);
    for (i = 0; i < x->nranges; i++)
        widen(&lo, &hi, x->ranges[i].start, x->ranges[i].end);
    for (i = 0; i < x->napis; i++)
        widen(&lo, &hi, x->apis[i].start, x->apis[i].end);
    s->start = lo;
    s->end = hi;
    s->e2e_ns = (double)(hi - lo);
    for (i = 0; i < x->nkernels; i++) {
        double d = (double)(x->kernels[i].end - x->kernels[i].start);
        s->kernel_count++;
        s->kernel_ns += d;
        if (vb_trace_collective(x->kernels[i].name)) s->comm_ns += d;
    }
    for (i = 0; i < x->ncopies; i++) {
        const struct vb_copy_rec *c = &x->copies[i];
        if (c->copy_kind == VB_COPY_HTOD) {
            s->h2d_count++;
            s->h2d_bytes += c->bytes;
            s->h2d_ns += (double)(c->end - c->start);
        } else if (c->copy_kind == VB_COPY_DTOH) {
            s->d2h_count++;
            s->d2h_bytes += c->bytes;
            s->d2h_ns += (double)(c->end - c->start);
        }
    }
    for (i = 0; i < x->nmemsets; i++) {
        s->memset_count++;
        s->memset_bytes += x->memsets[i].bytes;
        s->memset_ns += (double)(x->memsets[i].end - x->memsets[i].start);
    }
    s->gpu_ns = s->h2d_ns + s->d2h_ns + s->kernel_ns + s->memset_ns;
    s->sm_clock_mhz = NAN; /* a traced program's samples carry no clock reading */
    t->r.status = VB_STATUS_OK;
    t->r.start_ns = lo;
    t->r.end_ns = hi;
    t->r.have_records = 1;
    t->r.device = pick_device(x);
    set_stats(&t->r.e2e_ms, s->e2e_ns / 1e6);
    set_stats(&t->r.kernel_ms, s->kernel_ns / 1e6);
    set_stats(&t->r.h2d_ms, s->h2d_ns / 1e6);
    set_stats(&t->r.d2h_ms, s->d2h_ns / 1e6);
    set_stats(&t->r.memset_ms, s->memset_ns / 1e6);
    set_stats(&t->r.gpu_ms, s->gpu_ns / 1e6);
    t->r.h2d_bytes = s->h2d_bytes;
    t->r.d2h_bytes = s->d2h_bytes;
    t->r.h2d_count = s->h2d_count;
    t->r.d2h_count = s->d2h_count;
    t->r.kernel_count = s->kernel_count;
}

void vb_trace_case_untraced(struct vb_trace_case *t, const char *label, uint64_t start,
                            uint64_t end, const char *how, const char *reason)
{
    identity(t, label, how);
    t->sample.start = t->r.start_ns = start;
    t->sample.end = t->r.end_ns = end > start ? end : start;
    t->sample.e2e_ns = (double)(t->sample.end - t->sample.start);
    t->r.status = VB_STATUS_SKIPPED;
    snprintf(t->r.reason, sizeof t->r.reason, "%s", reason ? reason : "not traced");
    set_stats(&t->r.e2e_ms, t->sample.e2e_ns / 1e6);
    set_stats(&t->r.kernel_ms, NAN);
    set_stats(&t->r.h2d_ms, NAN);
    set_stats(&t->r.d2h_ms, NAN);
    set_stats(&t->r.memset_ms, NAN);
    set_stats(&t->r.gpu_ms, NAN);
    t->sample.gpu_ns = t->sample.sm_clock_mhz = NAN;
}

int vb_trace_collective(const char *kernel)
{
    return kernel && strstr(kernel, "nccl") != NULL;
}

void vb_trace_case_who(struct vb_trace_case *t, const struct vb_trace_who *w)
{
    axes(t, NULL, w);
}

int vb_trace_case_sampled(struct vb_trace_case *t, const char *label, const char *axis,
                          const char *what, const struct vb_trace_who *w, int dev, int have_records,
                          struct vb_sample *s, int n, const char *how)
{
    int i;
    identity(t, label, how);
    snprintf(t->what, sizeof t->what, "%s", what);
    axes(t, axis, w);
    t->samples = s;
    t->r.samples = s;
    t->r.nsamples = t->r.ntimed = n;
    t->r.device = dev;
    t->r.have_records = have_records;
    t->r.status = VB_STATUS_OK;
    t->r.start_ns = n ? s[0].start : 0;
    for (i = 0; i < n; i++) {
        if (s[i].start < t->r.start_ns) t->r.start_ns = s[i].start;
        if (s[i].end > t->r.end_ns) t->r.end_ns = s[i].end;
    }
    return vb_result_stats(&t->r);
}

void vb_trace_case_free(struct vb_trace_case *t)
{
    free(t->samples);
    t->samples = NULL;
    vb_activity_free(&t->r.activity);
    vb_metric_values_free(t->r.metrics, t->r.nmetrics);
    t->r.metrics = NULL;
    t->r.nmetrics = 0;
}
