/* environ: the ledger's reasons on a noisy verdict (see environ.h). */
#include "environ.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* side appends one side's reasons and co-tenants to buf (used bytes *u of n) */
static void side(const char *name, const struct vb_case_row *x, char *buf, size_t n, size_t *u)
{
    int reasons = x->clock_reasons[0] && strcmp(x->clock_reasons, "none");
    if (!reasons && !x->co_tenants[0]) return;
    *u += (size_t)snprintf(buf + *u, *u < n ? n - *u : 0, "; %s: %s%s%s%s", name,
                           reasons ? "clock events " : "", reasons ? x->clock_reasons : "",
                           reasons && x->co_tenants[0] ? ", " : "",
                           x->co_tenants[0] ? "other processes: " : "");
    if (x->co_tenants[0] && *u < n) *u += (size_t)snprintf(buf + *u, n - *u, "%s", x->co_tenants);
}

/* listed: is reason (one of NVML's, as the ledger words them) among x's? */
static int listed(const struct vb_case_row *x, const char *reason)
{
    return strstr(x->clock_reasons, reason) != NULL;
}

/* machine writes into why the cause the ledger measured for r's move (slower: on the candidate's
 * side; faster: on the base's) of its GPU phase, when there is one: clock events the other side
 * did not have, or an SM clock lower by as much as the move. 1 when it wrote one. */
static int machine(const struct vb_case_row *b, const struct vb_case_row *c,
                   const struct vb_cmp_row *r, const char *label, char *why, size_t n)
{
    /* the events that lower the clock, as ledger.c's vb_ledger_reasons words them */
    static const char *const events[] = {"sw power cap", "hw slowdown", "hw thermal", "sw thermal",
                                         "hw power brake"};
    int slower = r->verdict == VB_VERDICT_SLOWER, k;
    const struct vb_case_row *slow = slower ? c : b, *fast = slower ? b : c;
    double f = fast->nvml_sm_mhz_median / slow->nvml_sm_mhz_median;
    if (strcmp(r->phase, "kernel") && strcmp(r->phase, "gpu") && strcmp(r->phase, "compute"))
        return 0;
    for (k = 0; k < (int)(sizeof events / sizeof events[0]); k++)
        if (listed(slow, events[k]) && !listed(fast, events[k])) {
            snprintf(why, n, "%s %+.1f%% with clock events on the %s side only (%s)", label,
                     (r->ratio - 1) * 100, slower ? "candidate's" : "base's", events[k]);
            return 1;
        }
    /* a clock lower by f explains a time longer by up to f, within the limit */
    if (isfinite(f) && f > 1 &&
        (slower ? r->ratio <= f * (1 + r->limit) : 1 / r->ratio <= f * (1 + r->limit))) {
        snprintf(why, n, "%s %+.1f%% with the SM clock %.0f -> %.0f MHz", label,
                 (r->ratio - 1) * 100, b->nvml_sm_mhz_median, c->nvml_sm_mhz_median);
        return 1;
    }
    return 0;
}

void vb_cmp_environment(const struct vb_case_row *b, const struct vb_case_row *c,
                        struct vb_cmp_row *r, const char *label)
{
    size_t u;
    if (r->verdict == VB_VERDICT_SLOWER || r->verdict == VB_VERDICT_FASTER) {
        /* a move measured beside another process on the board is not the code's to answer for */
        if (b->co_tenants[0] || c->co_tenants[0]) {
            snprintf(r->why, sizeof r->why, "%s %+.1f%% beside another process", label,
                     (r->ratio - 1) * 100);
            r->verdict = VB_VERDICT_NOISY;
        } else if (machine(b, c, r, label, r->why, sizeof r->why)) {
            r->verdict = VB_VERDICT_NOISY;
        }
    }
    /* the same beside another process: so it was, and the row says beside what */
    if (r->verdict == VB_VERDICT_SAME && (b->co_tenants[0] || c->co_tenants[0])) {
        u = strlen(r->why);
        snprintf(r->why + u, sizeof r->why - u, "%sbeside another process", u ? "; " : "");
    } else if (r->verdict != VB_VERDICT_NOISY)
        return;
    u = strlen(r->why);
    side("base", b, r->why, sizeof r->why, &u);
    side("candidate", c, r->why, sizeof r->why, &u);
}
