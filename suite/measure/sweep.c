/*
 * sweep: the run's case loop (see sweep.h). The oracle of a point is computed once, only when
 * some variant there will use it: by the reference case, as its verified sample, when that
 * case runs here; on all cores when the problem is element-wise; otherwise directly.
 */
#include "sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "activity.h"
#include "varbench.h"
#include "phase.h"

/* problem_selected: does the filter select a variant of f that computes pb? */
static int problem_selected(const struct vb_family *f, const struct vb_problem *pb,
                            const char *filter)
{
    int j;
    for (j = 0; j < f->nvariants; j++)
        if (f->variants[j].problem == pb && vb_variant_matches(f, &f->variants[j], filter))
            return 1;
    return 0;
}

int vb_sweep_check(struct vb_sweep *s, struct vb_err *err)
{
    static struct vb_point pts[VB_SWEEP_MAX_POINTS];
    const struct vb_problem *pbs[VB_MAX_PROBLEMS];
    int i, k, np, any = 0;
    for (i = 0; vb_families[i]; i++) {
        const struct vb_family *f = vb_families[i];
        if (!vb_family_selected(f, s->filter)) continue;
        any = 1;
        np = vb_family_problems(f, pbs, VB_MAX_PROBLEMS);
        for (k = 0; k < np && k < VB_MAX_PROBLEMS; k++) {
            if (!problem_selected(f, pbs[k], s->filter)) continue;
            if (vb_axes_expand(f, pbs[k], s->axes, pts, VB_SWEEP_MAX_POINTS, err) < 0) return -1;
        }
    }
    if (!any) {
        char hint[256];
        vb_err_set(err, VB_E_USAGE, "no variant matches '%s' (see 'varbench list')", s->filter);
        if (*vb_suggest_variant(s->filter, hint, sizeof hint)) vb_err_hint(err, "%s", hint);
        return -1;
    }
    for (i = 0; i < s->axes->n; i++)
        if (!s->axes->o[i].used) {
            char hint[256];
            vb_err_set(err, VB_E_USAGE, "no selected family has an axis '%s' (see 'varbench list')",
                       s->axes->o[i].name);
            if (*vb_suggest_axis(s->filter, s->axes->o[i].name, hint, sizeof hint))
                vb_err_hint(err, "%s", hint);
            return -1;
        }
    return 0;
}

/* takes: does the sweep run variant v (s->only)? */
static int takes(const struct vb_sweep *s, const struct vb_variant *v)
{
    return s->only == VB_SWEEP_BOTH || (s->only == VB_SWEEP_GPU) == !!(v->flags & VB_GPU);
}

int vb_sweep_plan(struct vb_sweep *s, vb_sweep_plan_fn fn, void *arg)
{
    static struct vb_point pts[VB_SWEEP_MAX_POINTS];
    const struct vb_problem *pbs[VB_MAX_PROBLEMS];
    struct vb_err err;
    int d, i, j, k, p, np, npts, total = 0;
    /* vb_sweep_run's loops, in its order, without running anything */
    for (d = s->first; d <= s->last; d++) {
        for (i = 0; vb_families[i]; i++) {
            const struct vb_family *f = vb_families[i];
            if (!vb_family_selected(f, s->filter)) continue;
            np = vb_family_problems(f, pbs, VB_MAX_PROBLEMS);
            for (k = 0; k < np && k < VB_MAX_PROBLEMS; k++) {
                if (!problem_selected(f, pbs[k], s->filter)) continue;
                if ((npts = vb_axes_expand(f, pbs[k], s->axes, pts, VB_SWEEP_MAX_POINTS, &err)) < 0)
                    continue;
                for (p = 0; p < npts; p++)
                    for (j = 0; j < f->nvariants; j++) {
                        const struct vb_variant *v = &f->variants[j];
                        if (v->problem != pbs[k] || !takes(s, v) ||
                            !vb_variant_matches(f, v, s->filter) ||
                            (!(v->flags & VB_GPU) && d > s->first && s->all_devices))
                            continue;
                        if (fn && fn(arg, f, pbs[k], v, &pts[p], d)) return -1;
                        total++;
                    }
            }
        }
        if (d < 0) break;
    }
    return total;
}

int vb_sweep_count(struct vb_sweep *s)
{
    return vb_sweep_plan(s, NULL, NULL);
}

struct oracle_job {
    const struct vb_problem *pb;
    const struct vb_point *p;
    double *out;
};

static void oracle_part(size_t lo, size_t hi, void *ctx, int slot)
{
    struct oracle_job *j = ctx;
    (void)slot;
    j->pb->reference_part(j->p, j->out, lo, hi);
}

/* parallel_oracle computes an element-wise reference on all cores; returns the parts used and
 * sets *seconds to its wall time. */
static int parallel_oracle(const struct vb_problem *pb, const struct vb_point *p, double *out,
                           double *seconds)
{
    struct oracle_job j = {pb, p, out};
    double t0 = vb_activity_now() * 1e-9;
    int parts = vb_parallel_for(pb->out_len(p), oracle_part, &j);
    *seconds = vb_activity_now() * 1e-9 - t0;
    return parts;
}

/* The elements of an element-wise reference that calibrate its cost: enough to dwarf the
 * clock's resolution, few enough to cost a few milliseconds. */
#define RATE_SLICE 65536

double vb_sweep_reference_rate(const struct vb_problem *pb, const struct vb_point *p)
{
    size_t n = pb->reference ? pb->out_len(p) : 0;
    size_t m = pb->reference_part && n > RATE_SLICE ? RATE_SLICE : n;
    double *out = malloc(sizeof *out * (m ? m : 1)), t0, t;
    struct vb_err err;
    int rc = 0;
    if (!out || !n) {
        free(out);
        return 0;
    }
    memset(out, 0, sizeof *out * m); /* its pages faulted in now, not inside the timing */
    t0 = vb_activity_now() * 1e-9;
    if (pb->reference_part)
        pb->reference_part(p, out, 0, m);
    else
        rc = pb->reference(p, out, &err);
    t = vb_activity_now() * 1e-9 - t0;
    free(out);
    return rc || t <= 0 ? 0 : t / (double)m;
}

/* ensure_ref fills ref with the reference answer of f's problem pb at p (untimed: when no
 * reference case computes it). 0 or -1 with err. */
static int ensure_ref(const struct vb_family *f, const struct vb_problem *pb,
                      const struct vb_point *p, double *ref, struct vb_err *err)
{
    char what[160];
    if (!pb->reference(p, ref, err)) return 0;
    return vb_err_context(err, "%s reference", vb_problem_label(f, pb, what, sizeof what));
}

static void tally(struct vb_tally *t, const struct vb_case_result *r)
{
    t->cases++;
    t->ok += r->status == VB_STATUS_OK;
    if (r->status == VB_STATUS_WRONG && (r->variant->flags & VB_EXPECT_WRONG))
        t->expected_wrong++;
    else
        t->wrong += r->status == VB_STATUS_WRONG;
    t->failed += r->status == VB_STATUS_FAILED;
    t->skipped += r->status == VB_STATUS_SKIPPED;
    t->gpu_skipped += r->status == VB_STATUS_SKIPPED && (r->variant->flags & VB_GPU);
    t->interrupted += r->status == VB_STATUS_INTERRUPTED;
    t->throttled += r->dropped > 0;
}

/* Where a point stands: its reference, and the GPU rungs verified so far. */
struct point_state {
    double *ref, oracle_s;
    int have_ref, parts, nrungs;
    struct vb_rung rungs[VB_SWEEP_MAX_RUNGS];
};

/* run_case runs variant v at point p on device dev, after making sure the point's reference
 * exists (or will, as v's verified sample), and hands the result on. 0 or -1 with err. */
static int run_case(struct vb_sweep *s, const struct vb_sweep_events *ev, const struct vb_family *f,
                    const struct vb_problem *pb, const struct vb_variant *v,
                    const struct vb_point *p, int dev, struct point_state *ps, struct vb_err *err)
{
    struct vb_case_result r;
    double *oracle = NULL;
    char label[400], slow_ref[160] = "";
    int rc;
    /* the case begins before its oracle: a reference that crashes is named by it */
    snprintf(label, sizeof label, "%s/%s ", f->name, v->name);
    vb_point_format(pb, p, label + strlen(label), sizeof label - strlen(label));
    if (ev->case_begin) ev->case_begin(ev->ctx, label);
    /* a skipped case needs none; nor does a problem without a reference (timed, not verified) */
    if (!ps->have_ref && pb->reference && (dev >= 0 || !(v->flags & VB_GPU))) {
        size_t n = pb->out_len(p);
        if (!ps->ref && !(ps->ref = malloc(sizeof *ps->ref * (n ? n : 1))))
            return vb_err_set(err, VB_E_SYS, "out of memory for the reference (%zu values)", n);
        if (pb->reference_part) /* element-wise: the oracle on all cores */
            ps->parts = parallel_oracle(pb, p, ps->ref, &ps->oracle_s);
        else if (v->flags & VB_REFERENCE)
            oracle = ps->ref;
        else if (ensure_ref(f, pb, p, ps->ref, err))
            return -1;
        ps->have_ref = 1;
    }
    /* --quick (no minimum of CPU samples): a single-core reference that would take longer than
     * its budget, as the oracle's time on all cores says, is not run */
    if ((v->flags & VB_REFERENCE) && ps->parts > 1 && s->sampling->cpu_min_samples == 0 &&
        ps->oracle_s * ps->parts >= s->sampling->cpu_budget_s)
        snprintf(slow_ref, sizeof slow_ref,
                 "--quick: about %.1f s on one core (the oracle took %.2f s on %d), over the "
                 "CPU budget",
                 ps->oracle_s * ps->parts, ps->oracle_s, ps->parts);
    vb_phase_setup_take(NULL, 0); /* the case's own, not an earlier one's */
    vb_runner_case(f, v, p, dev,
                   (v->flags & VB_GPU) ? s->nodev
                   : slow_ref[0]       ? slow_ref
                                       : NULL,
                   oracle ? NULL : ps->ref, oracle, s->sampling, &r);
    if (oracle && r.status != VB_STATUS_OK && ensure_ref(f, pb, p, ps->ref, err)) {
        vb_case_result_free(&r);
        return -1;
    }
    vb_floor_case(dev >= 0 && s->floors ? &s->floors[dev] : NULL, &r);
    tally(&s->tally, &r);
    if ((v->flags & VB_GPU) && r.status == VB_STATUS_OK && ps->nrungs < VB_SWEEP_MAX_RUNGS) {
        struct vb_rung *g = &ps->rungs[ps->nrungs++];
        g->name = v->name;
        g->kernel_ms = r.have_records ? r.kernel_ms.median : NAN;
        g->e2e_ms = r.e2e_ms.median;
    }
    rc = ev->case_done ? ev->case_done(ev->ctx, f, dev, &r, err) : 0;
    vb_case_result_free(&r);
    return rc;
}

/* run_problem runs every selected variant of f's problem pb at every point on device dev (-1:
 * none). */
static int run_problem(struct vb_sweep *s, const struct vb_sweep_events *ev,
                       const struct vb_family *f, const struct vb_problem *pb, int dev,
                       struct vb_err *err)
{
    static struct vb_point pts[VB_SWEEP_MAX_POINTS];
    int np = vb_axes_expand(f, pb, s->axes, pts, VB_SWEEP_MAX_POINTS, err), k, j, rc = 0;
    for (k = 0; k < np && !vb_interrupted && !rc; k++) {
        struct point_state ps;
        memset(&ps, 0, sizeof ps);
        for (j = 0; j < f->nvariants && !vb_interrupted && !rc; j++) {
            const struct vb_variant *v = &f->variants[j];
            if (v->problem != pb || !takes(s, v) || !vb_variant_matches(f, v, s->filter)) continue;
            /* with several devices, CPU variants run once (on the first pass) */
            if (!(v->flags & VB_GPU) && dev > s->first && s->all_devices) continue;
            rc = run_case(s, ev, f, pb, v, &pts[k], dev, &ps, err);
        }
        if (!rc && ev->point_done) ev->point_done(ev->ctx, f, ps.rungs, ps.nrungs);
        free(ps.ref);
    }
    return np < 0 || rc ? -1 : 0;
}

int vb_sweep_run(struct vb_sweep *s, const struct vb_sweep_events *ev, struct vb_err *err)
{
    const struct vb_problem *pbs[VB_MAX_PROBLEMS];
    int d, i, k, np;
    memset(&s->tally, 0, sizeof s->tally);
    for (d = s->first; d <= s->last && !vb_interrupted; d++) {
        s->sampling->peak_clock_mhz = d >= 0 && s->peak_mhz ? s->peak_mhz[d] : 0;
        for (i = 0; vb_families[i] && !vb_interrupted; i++) {
            const struct vb_family *f = vb_families[i];
            double t0 = vb_activity_now() * 1e-9;
            if (!vb_family_selected(f, s->filter)) continue;
            np = vb_family_problems(f, pbs, VB_MAX_PROBLEMS);
            for (k = 0; k < np && k < VB_MAX_PROBLEMS && !vb_interrupted; k++) {
                if (!problem_selected(f, pbs[k], s->filter)) continue;
                if (run_problem(s, ev, f, pbs[k], d, err)) return -1;
            }
            if (i < 64) s->tally.family_s[i] += vb_activity_now() * 1e-9 - t0;
        }
        if (d < 0) break;
    }
    return 0;
}
