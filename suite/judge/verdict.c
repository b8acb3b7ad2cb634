/* verdict: a verdict's words and a row's deciding phase, shared by compare and ab (their
 * declarations are compare.h's). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "norm.h"

static const char *const names[] = {
#define X(id, name) name,
    VB_VERDICTS(X)
#undef X
};

const char *vb_verdict_name(enum vb_verdict v)
{
    return v < VB_VERDICT_COUNT ? names[v] : "?";
}

const char *vb_cmp_phase_label(const char *phase)
{
    if (!strcmp(phase, "gpu")) return "GPU";
    if (!strcmp(phase, "h2d")) return "H2D";
    if (!strcmp(phase, "d2h")) return "D2H";
    return phase;
}

int vb_cmp_severity(enum vb_verdict v)
{
    switch (v) {
    case VB_VERDICT_BROKEN:
        return 4;
    case VB_VERDICT_SLOWER:
        return 3;
    case VB_VERDICT_NOISY:
        return 2;
    case VB_VERDICT_FASTER:
        return 1;
    default:
        return 0;
    }
}

char *vb_cmp_fmt_change(double ratio, int decimals, char *buf, size_t n)
{
    if (isnan(ratio))
        snprintf(buf, n, "-");
    else if (isinf(ratio))
        snprintf(buf, n, "new"); /* none in the base */
    else
        snprintf(buf, n, "%+.*f%%", decimals, (ratio - 1) * 100);
    return buf;
}

char *vb_cmp_row_text(const struct vb_cmp_row *r, char *buf, size_t n)
{
    const char *v = vb_verdict_name(r->verdict);
    char ch[32];
    vb_cmp_fmt_change(r->ratio, 0, ch, sizeof ch);
    switch (r->verdict) {
    case VB_VERDICT_SLOWER:
    case VB_VERDICT_FASTER: /* and its note: how its controls saw it, the same code */
        snprintf(buf, n, "%s (%s %s%s%s)", v, vb_cmp_phase_label(r->phase), ch,
                 r->why[0] ? "; " : "", r->why);
        break;
    case VB_VERDICT_SAME: /* its why: what the ledger saw beside it (environ.h) */
    case VB_VERDICT_NOISY:
    case VB_VERDICT_NOT_COMPARED:
        if (r->why[0])
            snprintf(buf, n, "%s (%s)", v, r->why);
        else
            snprintf(buf, n, "%s", v);
        break;
    case VB_VERDICT_BROKEN:
        snprintf(buf, n, "%s (%s -> %s)", v, r->status_base, r->status_cand);
        break;
    default:
        snprintf(buf, n, "%s", v);
    }
    return buf;
}

/* judged_change: the change a phase's series agree on (its ratio where its time decided) */
static double judged_change(const struct vb_cmp_phase *p)
{
    return p->judged_ratio > 0 && isfinite(p->judged_ratio) ? p->judged_ratio : p->ratio;
}

void vb_cmp_decide(struct vb_cmp_row *r)
{
    const struct vb_cmp_phase *d = NULL;
    int i;
    for (i = 0; i < r->nphases; i++) {
        const struct vb_cmp_phase *p = &r->phases[i];
        int sp, sd;
        if (p->info) continue;
        if (!d) {
            d = p;
            continue;
        }
        sp = vb_cmp_severity(p->verdict);
        sd = vb_cmp_severity(d->verdict);
        /* among equal verdicts a larger change (against the controls where they decided), by
         * more than rounding: a phase that is the whole GPU time leaves the verdict to "gpu" */
        if (sp > sd || (sp == sd && sp > 0 &&
                        fabs(log(judged_change(p))) > fabs(log(judged_change(d))) * (1 + 1e-9)))
            d = p;
    }
    if (!d) d = &r->phases[0];
    snprintf(r->phase, sizeof r->phase, "%s", d->name);
    r->n_base = d->n_base;
    r->n_cand = d->n_cand;
    r->med_base = d->med_base;
    r->med_cand = d->med_cand;
    r->ratio = d->ratio;
    r->p = d->p;
    r->spread = d->spread;
    r->limit = d->limit;
    r->verdict = d->verdict;
    if (d->verdict == VB_VERDICT_NOISY)
        snprintf(r->why, sizeof r->why, "%s: %s", vb_cmp_phase_label(d->name), d->why);
    else if (d->verdict == VB_VERDICT_SLOWER || d->verdict == VB_VERDICT_FASTER) {
        if (d->by[0]) /* what every series agrees on: the least of their changes */
            snprintf(r->why, sizeof r->why, "%+.1f%% %s", (d->judged_ratio - 1) * 100,
                     vb_norm_what(d->by));
        if (d->why[0])
            snprintf(r->why + strlen(r->why), sizeof r->why - strlen(r->why), "%s%s",
                     r->why[0] ? "; " : "", d->why);
    } else
        vb_cmp_explain(r);
}

void vb_cmp_explain(struct vb_cmp_row *r)
{
    size_t u = 0;
    int i, waits = 0;
    char ch[32], jr[32];
    r->why[0] = '\0';
    for (i = 0; i < r->nphases; i++) { /* what the controls explained */
        const struct vb_cmp_phase *p = &r->phases[i];
        if (p->info || p->verdict != VB_VERDICT_SAME || !p->by[0] ||
            (p->raw_verdict != VB_VERDICT_SLOWER && p->raw_verdict != VB_VERDICT_FASTER))
            continue;
        u += (size_t)snprintf(
            r->why + u, u < sizeof r->why ? sizeof r->why - u : 0, "%s%s %s: %s %s", u ? "; " : "",
            vb_cmp_phase_label(p->name), vb_cmp_fmt_change(p->ratio, 1, ch, sizeof ch),
            vb_cmp_fmt_change(p->judged_ratio, 1, jr, sizeof jr), vb_norm_what(p->by));
    }
    for (i = 0; i < r->nphases; i++) { /* what a rank waited */
        const struct vb_cmp_phase *p = &r->phases[i];
        if (!p->info || (p->verdict != VB_VERDICT_SLOWER && p->verdict != VB_VERDICT_FASTER))
            continue;
        u += (size_t)snprintf(r->why + u, u < sizeof r->why ? sizeof r->why - u : 0, "%s%s %s",
                              !u      ? "waits for the others: "
                              : waits ? ", "
                                      : "; waits: ",
                              vb_cmp_phase_label(p->name),
                              vb_cmp_fmt_change(p->ratio, 0, ch, sizeof ch));
        waits++;
    }
}
