/* environ: the ledger's reasons on a noisy verdict (see environ.h). */
#include "environ.h"

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

void vb_cmp_environment(const struct vb_case_row *b, const struct vb_case_row *c,
                        struct vb_cmp_row *r, const char *label)
{
    size_t u;
    /* a move measured beside another process on the board is not the code's to answer for */
    if ((r->verdict == VB_VERDICT_SLOWER || r->verdict == VB_VERDICT_FASTER) &&
        (b->co_tenants[0] || c->co_tenants[0])) {
        snprintf(r->why, sizeof r->why, "%s %+.1f%% beside another process", label,
                 (r->ratio - 1) * 100);
        r->verdict = VB_VERDICT_NOISY;
    }
    /* the same beside another process: so it was, and the row says beside what */
    if (r->verdict == VB_VERDICT_SAME && (b->co_tenants[0] || c->co_tenants[0]))
        snprintf(r->why, sizeof r->why, "beside another process");
    else if (r->verdict != VB_VERDICT_NOISY)
        return;
    u = strlen(r->why);
    side("base", b, r->why, sizeof r->why, &u);
    side("candidate", c, r->why, sizeof r->why, &u);
}
