/* run_metrics: a run's choices and messages about the metrics pass (see run_metrics.h). */
#include "run_metrics.h"

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
    if (why->hint[0]) snprintf(m->why, sizeof m->why, "%s (hint: %s)", why->msg, why->hint);
    else snprintf(m->why, sizeof m->why, "%s", why->msg);
    fprintf(err_out, "varbench run: warning: %s%s%s\n%s\n", why->msg, why->hint[0] ? "\nhint: " : "",
            why->hint, "metrics are not collected in this run; timings are unaffected");
}

int vb_run_metrics_start(struct vb_run_metrics *m, int device, const struct vb_err *activity_err,
                         struct vb_sampling *s, FILE *err_out, struct vb_err *err)
{
    struct vb_err why;
    CUcontext ctx;
    s->profiler = NULL;
    s->no_metrics_reason = NULL;
    if (m->off) {
        s->no_metrics = VB_METRICS_OFF;
        return 0;
    }
    s->no_metrics = VB_METRICS_UNAVAILABLE;
    if (activity_err) {
        /* one CUPTI subscriber per process: under ncu or nsys the profiler is theirs */
        vb_err_set(&why, VB_E_CUDA, "metrics unavailable: %s", activity_err->msg);
        snprintf(why.hint, sizeof why.hint, "%s", activity_err->hint[0] ? activity_err->hint
                 : "run varbench outside other CUDA profilers to collect metrics");
        say_unavailable(m, &why, err_out);
        s->no_metrics_reason = m->why;
        return 0;
    }
    if (!m->prof && !(m->prof = vb_profiler_create(&m->set)))
        return vb_err_set(err, VB_E_SYS, "out of memory");
    vb_err_clear(&why);
    if (vb_gpu_current_ctx(&ctx, &why) || vb_profiler_prepare(m->prof, device, ctx, &why)) {
        if (why.code == VB_E_USAGE) {
            *err = why;
            return -1;
        }
        say_unavailable(m, &why, err_out);
        /* the profiler remembers the reason and the runner stores it with every GPU case */
    }
    s->profiler = m->prof;
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
        fprintf(out, "metrics pass: %d GPU cases, %d metrics each, %.1f s in all, %d profiled "
                     "samples (kernel replay; L2 flushed before every launch unless --cache "
                     "warm)\n",
                m->cases, m->set.n, m->total_ns / 1e9, m->samples);
    else if (!m->off && m->why[0])
        fprintf(out, "metrics pass: none (%s)\n", m->why);
    vb_profiler_destroy(m->prof);
    m->prof = NULL;
}
