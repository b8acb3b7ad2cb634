/*
 * crossover: the CPU/GPU crossover of a sweep (see crossover.h).
 */
#include "crossover.h"

#include <math.h>

/* usable: a point with a positive, finite size and both times */
static int usable(const struct vb_cross_point *p)
{
    return isfinite(p->size) && p->size > 0 && isfinite(p->cpu_ns) && p->cpu_ns > 0 &&
           isfinite(p->gpu_ns) && p->gpu_ns > 0;
}

void vb_crossover_find(const struct vb_cross_point *pts, int n, struct vb_crossover *out)
{
    const struct vb_cross_point *first = 0, *last = 0, *lose = 0, *win_after = 0;
    double rl, rw, t;
    int i;
    out->kind = VB_CROSS_UNKNOWN;
    out->at = out->lo = out->hi = NAN;
    for (i = 0; i < n; i++) {
        const struct vb_cross_point *p = &pts[i];
        if (!usable(p)) continue;
        if (!first) first = p;
        last = p;
        if (p->gpu_ns >= p->cpu_ns) {
            lose = p;
            win_after = 0;
        } else if (lose && !win_after) {
            win_after = p;
        }
    }
    if (!first) return;
    if (!lose) {
        out->kind = VB_CROSS_ALWAYS;
        out->lo = first->size;
        out->hi = last->size;
        return;
    }
    if (!win_after) {
        out->kind = VB_CROSS_NEVER;
        out->lo = first->size;
        out->hi = last->size;
        return;
    }
    rl = log(lose->gpu_ns / lose->cpu_ns);           /* >= 0 */
    rw = log(win_after->gpu_ns / win_after->cpu_ns); /* < 0 */
    t = rl / (rl - rw);
    out->kind = VB_CROSS_AT;
    out->lo = lose->size;
    out->hi = win_after->size;
    out->at = exp(log(lose->size) + t * (log(win_after->size) - log(lose->size)));
}
