/* run_metrics: a run's choices and messages about the metrics pass (see run_metrics.h). */
#include "run_metrics.h"

#include <stdlib.h>
#include <string.h>

#include "gpu.h"

void vb_run_metrics_init(struct vb_run_metrics *m)
{
    memset(m, 0, sizeof *m);
    vb_metric_set_default(&m->set);
}

int vb_run_metrics_option(struct vb_run_metrics *m, const char *list, struct vb_err *err)
{
    if ((list && m->off) || (!list && m->given))
        return vb_err_set(err, VB_E_USAGE, "--metrics and --no-metrics exclude each other");
    if (!list) {
        m->off = 1;
        return 0;
    }
    m->given = 1;
    return vb_metric_set_parse(list, &m->set, err);
}

static void say_unavailable(struct vb_run_metrics *m, const struct vb_err *why, FILE *err_out)
{
    vb_err_line(why, m->why, sizeof m->why);
    fprintf(err_out, "varbench run: warning: %s%s%s\n%s\n", why->msg,
            why->hint[0] ? "\nhint: " : "", why->hint,
            "metrics are not collected in this run; timings are unaffected");
}

int vb_run_metrics_start(struct vb_run_metrics *m, int device, const struct vb_err *activity_err,
                         struct vb_sampling *s, FILE *err_out, struct vb_err *err)
{
    struct vb_err why;
    CUcontext ctx;
    s->profiler = s->profiler_cache = NULL;
    s->no_metrics_reason = NULL;
    if (m->off) {
        s->no_metrics = VB_METRICS_OFF;
        return 0;
    }
    s->no_metrics = VB_METRICS_UNAVAILABLE;
    if (activity_err) {
        /* one CUPTI subscriber per process: under ncu or nsys the profiler is theirs */
        vb_err_set(&why, VB_E_CUDA, "metrics unavailable: %s", activity_err->msg);
        snprintf(why.hint, sizeof why.hint, "%s",
                 activity_err->hint[0]
                     ? activity_err->hint
                     : "run varbench outside other CUDA profilers to collect metrics");
        say_unavailable(m, &why, err_out);
        s->no_metrics_reason = m->why;
        return 0;
    }
    if (!m->prof && !m->prof_cache) {
        struct vb_metric_set cache, rest;
        vb_metric_set_split(&m->set, &cache, &rest);
        if ((rest.n && !(m->prof = vb_profiler_create(&rest))) ||
            (cache.n && !(m->prof_cache = vb_profiler_create_replay(&cache, 1))))
            return vb_err_set(err, VB_E_SYS, "out of memory");
    }
    vb_err_clear(&why);
    if (vb_gpu_current_ctx(&ctx, &why) ||
        (m->prof_cache && vb_profiler_prepare(m->prof_cache, device, ctx, &why)) ||
        (m->prof && vb_profiler_prepare(m->prof, device, ctx, &why))) {
        if (why.code == VB_E_USAGE) {
            *err = why;
            return -1;
        }
        say_unavailable(m, &why, err_out);
        /* the profilers remember the reason and the runner stores it with every GPU case */
    }
    s->profiler = m->prof;
    s->profiler_cache = m->prof_cache;
    return 0;
}

int vb_run_metrics_defer(struct vb_run_metrics *m, const struct vb_case_result *r, int64_t case_id,
                         struct vb_err *err)
{
    struct vb_deferred_case *d;
    if (!m->prof_cache || r->metrics_status != VB_METRICS_OK || r->device < 0) return 0;
    if (m->nlater == m->cap_later) {
        size_t cap = m->cap_later ? 2 * m->cap_later : 64;
        struct vb_deferred_case *grown = realloc(m->later, cap * sizeof *grown);
        if (!grown) return vb_err_set(err, VB_E_SYS, "out of memory");
        m->later = grown;
        m->cap_later = cap;
    }
    d = &m->later[m->nlater++];
    d->f = r->family;
    d->v = r->variant;
    d->p = r->point;
    d->device = r->device;
    d->case_id = case_id;
    return 0;
}

int vb_run_metrics_sweep(struct vb_run_metrics *m, const struct vb_sampling *s, struct vb_store *st,
                         struct vb_err *err)
{
    size_t i;
    vb_profiler_release(s->profiler); /* one session a context: the first sweep's ends */
    for (i = 0; i < m->nlater && !vb_interrupted; i++) {
        const struct vb_deferred_case *d = &m->later[i];
        struct vb_metric_value *vals = NULL;
        struct vb_err why;
        char reason[768] = "";
        size_t n = 0;
        int passes = 0, graphs = 0, rc;
        double ns = 0;
        vb_err_clear(&why);
        if (vb_runner_metrics_again(d->f, d->v, &d->p, d->device, s, &vals, &n, &passes, &ns,
                                    &graphs, &why)) {
            vb_err_context(&why, "DRAM and L2 counters");
            vb_err_line(&why, reason, sizeof reason);
            m->sweep_failed++;
        } else if (graphs)
            m->unrolled++;
        if (m->timing) {
            double part[VB_PROF_PARTS];
            char axes[256];
            vb_profiler_last_ns(s->profiler_cache, part);
            vb_point_format(d->v->problem, &d->p, axes, sizeof axes);
            fprintf(m->timing,
                    "timing: second sweep %s/%s %s: %.1f ms (configure %.1f, passes %.1f, "
                    "decode %.1f; set-up and teardown the rest), %d passes\n",
                    d->f->name, d->v->name, axes, ns / 1e6, part[VB_PROF_CONFIGURE] / 1e6,
                    part[VB_PROF_PASSES] / 1e6, part[VB_PROF_DECODE] / 1e6, passes);
        }
        m->swept++;
        m->sweep_ns += ns;
        m->samples += passes;
        rc = vb_store_case_metrics(st, d->case_id, reason[0] ? NULL : vals, reason[0] ? 0 : n, ns,
                                   reason[0] ? reason : NULL, graphs ? VB_METRICS_UNROLLED : NULL,
                                   err);
        vb_metric_values_free(vals, n);
        if (rc) return -1;
    }
    m->nlater = 0;
    return 0;
}

void vb_run_metrics_add(struct vb_run_metrics *m, const struct vb_case_result *r)
{
    if (r->metrics_status != VB_METRICS_OK) return;
    m->cases++;
    m->total_ns += r->metrics_ns;
    m->samples += r->metrics_passes;
}

void vb_run_metrics_finish(struct vb_run_metrics *m, FILE *out)
{
    if (m->cases)
        fprintf(out,
                "metrics pass: %d GPU cases, %d metrics each, %.1f s in all, %d profiled "
                "samples (%s%s)\n",
                m->cases, m->set.n, (m->total_ns + m->sweep_ns) / 1e9, m->samples,
                m->prof ? "kernel replay with the cases" : "",
                !m->prof_cache ? ""
                : m->prof      ? "; DRAM and L2 counters in a second sweep, user replay, L2 "
                                 "flushed before every launch unless --cache warm"
                               : "DRAM and L2 counters in a second sweep, user replay, L2 flushed "
                                 "before every launch unless --cache warm");
    if (m->unrolled)
        fprintf(out, "metrics pass: %d graph rung%s' counters: %s\n", m->unrolled,
                m->unrolled == 1 ? "" : "s", VB_METRICS_UNROLLED);
    if (m->sweep_failed)
        fprintf(out,
                "metrics pass: the second sweep failed for %d of %d cases (see each case's "
                "metrics reason)\n",
                m->sweep_failed, m->swept);
    else if (!m->off && m->why[0])
        fprintf(out, "metrics pass: none (%s)\n", m->why);
    vb_profiler_destroy(m->prof);
    vb_profiler_destroy(m->prof_cache);
    m->prof = m->prof_cache = NULL;
    free(m->later);
    m->later = NULL;
    m->nlater = m->cap_later = 0;
}
