/* ab_judge: a paired case's phases on their rounds, and its row (see ab_judge.h). */
#include "ab_judge.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "code_diff.h"
#include "norm.h"
#include "stats.h"

/* round_row: side i's round r of c as a sample the judges read (norm.h) */
static void round_row(const struct vb_paired_case *c, int i, int r, struct vb_sample_row *s)
{
    int x;
    s->gpu = c->v[i][VB_PH_GPU][r];
    s->h2d = c->v[i][VB_PH_H2D][r];
    s->kernel = c->v[i][VB_PH_KERNEL][r];
    s->d2h = c->v[i][VB_PH_D2H][r];
    s->memset = c->v[i][VB_PH_MEMSET][r];
    s->e2e = c->v[i][VB_PH_E2E][r];
    s->comm = NAN;
    for (x = 0; x < VB_CTL_COUNT; x++)
        s->ctl[x] = c->ctl[i][x][r];
}

/* norm_ctx: how c's sides stand to their controls over its rounds (norm.h) */
static void norm_ctx(const struct vb_paired_case *c, struct vb_norm_ctx *x)
{
    int i, k;
    memset(x, 0, sizeof *x);
    x->cpu_case = !(c->v[0][VB_PH_GPU][0] > 0);
    for (k = 0; k < VB_CTL_COUNT; k++) {
        for (i = 0; i < 2; i++) {
            double m = vb_stats_median(c->ctl[i][k], (size_t)c->rounds);
            x->side[i][k] = m > 0 ? m : NAN;
        }
        x->ref[k] = x->side[0][k];
        /* a copy's control of another host memory kind on each side: that change is judged */
        x->avail[k] = isfinite(x->side[0][k]) && isfinite(x->side[1][k]) &&
                      (k != VB_CTL_H2D || c->pageable[0][0] == c->pageable[1][0]) &&
                      (k != VB_CTL_D2H || c->pageable[0][1] == c->pageable[1][1]);
    }
}

int vb_ab_judge(struct vb_paired_case *c, double threshold, double alpha, struct vb_err *err)
{
    struct vb_norm_ctx x;
    int ph, decided = 1;
    double gpu = c->v[0][VB_PH_GPU][0];
    norm_ctx(c, &x);
    for (ph = 0; ph < VB_PH_COUNT; ph++) {
        const char *name = vb_phase_names[ph];
        enum vb_norm_kind kinds[VB_NORM_COUNT];
        struct vb_paired each[VB_NORM_COUNT];
        int verdict[VB_NORM_COUNT], n, k, r, pick, v;
        double ratio[VB_NORM_COUNT], a[VB_AB_MAX_ROUND], b[VB_AB_MAX_ROUND];
        /* a GPU case: its GPU time, each part of 5% of it or more (A's first round), e2e; a
         * CPU case (no GPU time): e2e */
        c->judged[ph] =
            ph == VB_PH_E2E ||
            (isfinite(gpu) && gpu > 0 && (ph == VB_PH_GPU || c->v[0][ph][0] >= VB_CMP_SHARE * gpu));
        if (!c->judged[ph]) continue;
        n = vb_norm_kinds(&x, name, kinds);
        for (k = 0; k < n; k++) {
            for (r = 0; r < c->rounds; r++) {
                struct vb_sample_row sa, sb;
                round_row(c, 0, r, &sa);
                round_row(c, 1, r, &sb);
                a[r] = vb_norm_value(&x, 0, &sa, name, kinds[k]);
                b[r] = vb_norm_value(&x, 1, &sb, name, kinds[k]);
            }
            if (vb_paired_judge(a, b, c->rounds, threshold,
                                ph == VB_PH_E2E ? VB_CMP_E2E_FLOOR_NS : VB_CMP_FLOOR_NS, alpha,
                                &each[k]))
                return vb_err_set(err, VB_E_SYS, "out of memory judging %s", c->label);
            verdict[k] = (int)each[k].verdict;
            ratio[k] = each[k].ratio;
        }
        /* the phase as measured, shown whatever decides */
        if (kinds[0] == VB_NORM_RAW)
            c->raw[ph] = each[0];
        else if (vb_paired_judge(c->v[0][ph], c->v[1][ph], c->rounds, threshold, VB_CMP_FLOOR_NS,
                                 alpha, &c->raw[ph]))
            return vb_err_set(err, VB_E_SYS, "out of memory judging %s", c->label);
        v = vb_norm_combine(verdict, ratio, n, &pick);
        c->ph[ph] = each[pick];
        c->ph[ph].verdict = (enum vb_verdict)v;
        snprintf(c->by[ph], sizeof c->by[ph], "%s",
                 kinds[pick] == VB_NORM_RAW ? "" : vb_norm_name(kinds[pick]));
        decided &= c->ph[ph].verdict != VB_VERDICT_NOISY;
    }
    return decided;
}

void vb_ab_fill_row(struct vb_cmp_row *r, const struct vb_paired_case *c, int same)
{
    int ph;
    for (ph = 0; ph < VB_PH_COUNT; ph++) {
        const struct vb_paired *x = &c->ph[ph], *raw = &c->raw[ph];
        struct vb_cmp_phase *p;
        if (!c->judged[ph] || r->nphases >= VB_CMP_MAX_PHASES) continue;
        p = &r->phases[r->nphases++];
        memset(p, 0, sizeof *p);
        snprintf(p->name, sizeof p->name, "%s", vb_phase_names[ph]);
        snprintf(p->by, sizeof p->by, "%s", c->by[ph]);
        p->n_base = p->n_cand = x->n;
        p->med_base = raw->med_a;
        p->med_cand = raw->med_b;
        p->ratio = raw->ratio;
        p->judged_ratio = x->ratio;
        p->spread = NAN;
        p->limit = x->limit;
        p->p = x->p;
        p->verdict = x->verdict;
        p->raw_verdict = raw->verdict;
        if (x->verdict == VB_VERDICT_NOISY) {
            char lo[24], hi[24];
            snprintf(p->why, sizeof p->why, "%s..%s after %d rounds",
                     vb_cmp_fmt_change(x->lo, 0, lo, sizeof lo),
                     vb_cmp_fmt_change(x->hi, 0, hi, sizeof hi), x->n);
        }
        if (ph == VB_PH_E2E) r->e2e_ratio = raw->ratio;
    }
    if (!r->nphases) {
        r->verdict = VB_VERDICT_NOT_COMPARED;
        snprintf(r->why, sizeof r->why, "no phase with a time on both sides");
        return;
    }
    vb_code_hold(r, same);
    vb_cmp_decide(r);
    if (!r->needs_gpu) snprintf(r->basis, sizeof r->basis, "CPU-only");
}
