/*
 * ab_worker: see ab_worker.h.
 */
#include "ab_worker.h"

#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

int vb_ab_worker_open(const char *spec, struct vb_ab_worker *w, struct vb_err *err)
{
    int rfd, wfd, end = 0;
    memset(w, 0, sizeof *w);
    if (sscanf(spec, "%d,%d%n", &rfd, &wfd, &end) != 2 || spec[end] || rfd < 3 || wfd < 3)
        return vb_err_set(err, VB_E_USAGE, "--ab-worker '%s': RFD,WFD (given by varbench ab)",
                          spec);
    signal(SIGPIPE, SIG_IGN); /* ab gone: a write fails and the run ends as interrupted */
    if (!(w->in = fdopen(rfd, "r")) || !(w->out = fdopen(wfd, "w"))) {
        if (w->in) fclose(w->in);
        w->in = NULL;
        return vb_err_set(err, VB_E_USAGE,
                          "--ab-worker %s: not open file descriptors (it is for varbench ab "
                          "itself)",
                          spec);
    }
    return 0;
}

/* say writes a line and flushes it; 0, or -1 when ab is gone */
static int say(struct vb_ab_worker *w, const char *line)
{
    return fputs(line, w->out) < 0 || fputc('\n', w->out) < 0 || fflush(w->out) ? -1 : 0;
}

/* heard reads ab's answer: K of "round K", VB_ROUNDS_SOLO, or 0 ("done"); ab gone or an answer
 * that is not one of these: the run stops as interrupted */
static int heard(struct vb_ab_worker *w)
{
    char line[64];
    int k;
    if (!fgets(line, sizeof line, w->in)) {
        vb_interrupted = 1;
        return 0;
    }
    if (sscanf(line, "round %d", &k) == 1 && k > 0) return k;
    if (!strcmp(line, "solo\n")) return VB_ROUNDS_SOLO;
    if (strcmp(line, "done\n")) vb_interrupted = 1;
    return 0;
}

/* round_median: the median over r's timed samples from `from` on (not dropped) of phase k
 * (k < VB_PH_COUNT: vb_sample_phase, where it is a number) or of control k - VB_PH_COUNT (where
 * it is a time); NaN without any */
static double round_median(const struct vb_case_result *r, int from, int k)
{
    double x[1024];
    int i, n = 0;
    for (i = from; i < r->nsamples && n < 1024; i++) {
        const struct vb_sample *s = &r->samples[i];
        double v = k < VB_PH_COUNT ? vb_sample_phase(s, k) : s->ctl[k - VB_PH_COUNT];
        if (s->kind == VB_SAMPLE_TIMED && !s->dropped && isfinite(v) && (k < VB_PH_COUNT || v > 0))
            x[n++] = v;
    }
    return n ? vb_stats_median(x, (size_t)n) : NAN;
}

static int round_cb(void *ctx, const struct vb_case_result *r, int from)
{
    struct vb_ab_worker *w = ctx;
    char line[1024];
    size_t used;
    int k, ph_h2d, ph_d2h;
    if (from < 0) {
        snprintf(line, sizeof line, "case %s/%s %s", r->family->name, r->variant->name, r->axes);
    } else {
        used = (size_t)snprintf(line, sizeof line, "medians");
        /* the phases, the pageable flags, the controls: ab_worker.h's order */
        for (k = 0; k < VB_PH_COUNT + VB_CTL_COUNT && used < sizeof line; k++) {
            double m = round_median(r, from, k);
            if (k == VB_PH_COUNT) {
                vb_result_pageable(r, &ph_h2d, &ph_d2h);
                used += (size_t)snprintf(line + used, sizeof line - used, " %d %d", ph_h2d, ph_d2h);
            }
            used += (size_t)snprintf(line + used, sizeof line - used,
                                     isfinite(m) ? " %.1f" : " nan", m);
        }
    }
    if (say(w, line)) {
        vb_interrupted = 1;
        return 0;
    }
    return heard(w);
}

/* plan_line says one planned case */
static int plan_line(void *arg, const struct vb_family *f, const struct vb_problem *pb,
                     const struct vb_variant *v, const struct vb_point *p, int dev)
{
    struct vb_ab_worker *w = arg;
    char axes[256], line[512];
    vb_point_format(pb, p, axes, sizeof axes);
    snprintf(line, sizeof line, "plan %s %s/%s %s",
             !(v->flags & VB_GPU) ? "cpu"
             : dev >= 0           ? "gpu"
                                  : "nodev",
             f->name, v->name, axes);
    return say(w, line);
}

int vb_ab_worker_begin(struct vb_ab_worker *w, int64_t run_id, struct vb_sweep *sw,
                       struct vb_err *err)
{
    char line[64];
    int n;
    w->rounds.ctx = w;
    w->rounds.round = round_cb;
    snprintf(line, sizeof line, "run %" PRId64, run_id);
    if (say(w, line) || (n = vb_sweep_plan(sw, plan_line, w)) < 0)
        return vb_err_set(err, VB_E_SYS, "varbench ab stopped listening (its pipe closed)");
    snprintf(line, sizeof line, "planned %d", n);
    if (say(w, line)) return vb_err_set(err, VB_E_SYS, "varbench ab stopped listening");
    return 0;
}

void vb_ab_worker_end(struct vb_ab_worker *w)
{
    if (w->out) {
        say(w, "end");
        fclose(w->out);
    }
    if (w->in) fclose(w->in);
    w->in = w->out = NULL;
}
