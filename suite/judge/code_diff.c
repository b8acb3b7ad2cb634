/* code_diff: two runs' kernels matched by name, their SASS hashes held (see code_diff.h). */
#include "code_diff.h"

#include <stdio.h>
#include <string.h>

void vb_code_diff(const struct vb_run_kernel *b, int nb, int brec, const struct vb_run_kernel *c,
                  int nc, int crec, struct vb_code_diff *d)
{
    int i = 0, j = 0;
    memset(d, 0, sizeof *d);
    d->base_recorded = brec;
    d->cand_recorded = crec;
    while (i < nb || j < nc) {
        int o = i >= nb ? 1 : j >= nc ? -1 : strcmp(b[i].name, c[j].name);
        if (o < 0) {
            d->only_base++;
            i++;
        } else if (o > 0) {
            d->only_cand++;
            j++;
        } else {
            if (!b[i].known || !c[j].known) {
                d->unknown++;
            } else {
                d->kernels++;
                if (b[i].hash != c[j].hash) {
                    if (d->changed < VB_CODE_NAMES) {
                        d->name[d->changed] = c[j].name;
                        d->from[d->changed] = b[i].hash;
                        d->to[d->changed] = c[j].hash;
                    }
                    d->changed++;
                }
            }
            i++;
            j++;
        }
    }
    d->state = !nb && !nc       ? VB_CODE_NONE
               : !brec || !crec ? VB_CODE_UNRECORDED
               : d->changed     ? VB_CODE_CHANGED
               : !d->kernels    ? VB_CODE_UNKNOWN
                                : VB_CODE_SAME;
}

void vb_code_hold(struct vb_cmp_row *r, int same)
{
    int i;
    r->code_same = same;
    if (same != 1) return;
    for (i = 0; i < r->nphases; i++) {
        struct vb_cmp_phase *p = &r->phases[i];
        if ((strcmp(p->name, "kernel") && strcmp(p->name, "gpu")) ||
            (p->verdict != VB_VERDICT_SLOWER && p->verdict != VB_VERDICT_FASTER))
            continue;
        snprintf(p->why, sizeof p->why,
                 "the same SASS and launch: the work it was given, or the "
                 "machine");
    }
}

int vb_code_case(struct vb_store *base, int64_t bid, struct vb_store *cand, int64_t cid, int *same,
                 struct vb_err *err)
{
    uint64_t db, dc;
    int sb, sc;
    *same = -1;
    if (vb_store_case_code(base, bid, &db, &sb, err) ||
        vb_store_case_code(cand, cid, &dc, &sc, err))
        return -1;
    if (sb == 1 && sc == 1) *same = db == dc;
    return 0;
}
