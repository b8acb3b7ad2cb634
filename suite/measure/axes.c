/*
 * axes: parsing and expanding axis values. The product of a problem's axes is bounded by
 * the caller's capacity, so a mistyped list cannot start a run of millions of cases.
 */
#include "axes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vb_axes_parse(struct vb_overrides *ov, const char *arg, struct vb_err *err)
{
    const char *eq = strchr(arg, '=');
    struct vb_axis_override o;
    char buf[1024], *tok, *save = NULL;
    int i;
    memset(&o, 0, sizeof o);
    if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof o.name)
        return vb_err_set(err, VB_E_USAGE, "bad axis '%s': expected name=v1,v2,...", arg);
    memcpy(o.name, arg, (size_t)(eq - arg));
    if (strlen(eq + 1) >= sizeof buf)
        return vb_err_set(err, VB_E_USAGE, "axis '%s': value list too long", o.name);
    strcpy(buf, eq + 1);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (o.n == VB_MAX_AXIS_VALUES)
            return vb_err_set(err, VB_E_USAGE, "axis '%s': more than %d values", o.name,
                              VB_MAX_AXIS_VALUES);
        if (strlen(tok) >= VB_AXIS_TOKEN)
            return vb_err_set(err, VB_E_USAGE, "axis '%s': value '%.20s...' too long", o.name, tok);
        strcpy(o.tok[o.n++], tok);
    }
    if (o.n == 0) return vb_err_set(err, VB_E_USAGE, "axis '%s': no values", o.name);
    for (i = 0; i < ov->n; i++)
        if (!strcmp(ov->o[i].name, o.name))
            return vb_err_set(err, VB_E_USAGE,
                              "axis '%s' given twice: give all its values in one "
                              "--axis %s=v1,v2,...",
                              o.name, o.name);
    if (ov->n == VB_MAX_OVERRIDES)
        return vb_err_set(err, VB_E_USAGE, "more than %d --axis options", VB_MAX_OVERRIDES);
    ov->o[ov->n++] = o;
    return 0;
}

static struct vb_axis_override *find(struct vb_overrides *ov, const char *name)
{
    int i;
    for (i = 0; ov && i < ov->n; i++)
        if (!strcmp(ov->o[i].name, name)) return &ov->o[i];
    return NULL;
}

int vb_axes_expand(const struct vb_family *f, const struct vb_problem *pb, struct vb_overrides *ov,
                   struct vb_point *pts, int cap, struct vb_err *err)
{
    long given[VB_MAX_AXES][VB_MAX_AXIS_VALUES];
    int nvals[VB_MAX_AXES], follow[VB_MAX_AXES], idx[VB_MAX_AXES] = {0};
    int a, k, total = 1;
    for (a = 0; a < pb->naxes; a++) {
        const struct vb_axis *x = &pb->axes[a];
        struct vb_axis_override *o = find(ov, x->name);
        follow[a] = -1;
        if (o) {
            char text[VB_MAX_AXIS_VALUES * (VB_AXIS_TOKEN + 1)] = "";
            o->used = 1;
            for (k = 0; k < o->n; k++)
                snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", k ? "," : "",
                         o->tok[k]);
            nvals[a] = vb_axis_parse(x, text, given[a], VB_MAX_AXIS_VALUES, err);
        } else if (x->same_as) {
            follow[a] = vb_problem_axis(pb, x->same_as);
            nvals[a] = 1;
        } else {
            nvals[a] = vb_axis_defaults(x, given[a], VB_MAX_AXIS_VALUES, err);
        }
        if (nvals[a] < 0) return vb_err_context(err, "family '%s'", f->name);
        if (total > cap / nvals[a])
            return vb_err_set(err, VB_E_USAGE, "family '%s': more than %d cases from --axis",
                              f->name, cap);
        total *= nvals[a];
    }
    for (k = 0; k < total; k++) {
        memset(&pts[k], 0, sizeof pts[k]);
        pts[k].problem = pb;
        for (a = 0; a < pb->naxes; a++)
            if (follow[a] < 0) pts[k].v[a] = given[a][idx[a]];
        for (a = 0; a < pb->naxes; a++)
            if (follow[a] >= 0) pts[k].v[a] = pts[k].v[follow[a]];
        /* odometer over the axes, last axis fastest */
        for (a = pb->naxes - 1; a >= 0; a--) {
            if (++idx[a] < nvals[a]) break;
            idx[a] = 0;
        }
    }
    return total;
}
