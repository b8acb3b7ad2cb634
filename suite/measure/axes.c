/*
 * axes: parsing and expanding axis values. The product of a problem's axes is bounded by
 * the caller's capacity, so a mistyped list cannot start a run of millions of cases.
 */
#include "axes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* parse_value reads one value of axis x: "4000", "1e7", or one of x's labels. */
static int parse_value(const struct vb_axis *x, const char *s, long *out)
{
    char *end;
    double d;
    long k;
    if (!*s) return -1;
    if (x->labels) {
        for (k = x->min; k <= x->max; k++)
            if (!strcmp(x->labels[k], s)) {
                *out = k;
                return 0;
            }
        return -1;
    }
    /* decimal or scientific only: strtod would also take "0x40" (64), "inf" and "nan" */
    if (strspn(s, "0123456789.eE+-") != strlen(s)) return -1;
    errno = 0;
    d = strtod(s, &end);
    if (errno || *end || !isfinite(d) || d != floor(d) || fabs(d) > 9007199254740992.0) return -1;
    *out = (long)d;
    return 0;
}

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
    const long *vals[VB_MAX_AXES];
    int nvals[VB_MAX_AXES], follow[VB_MAX_AXES], idx[VB_MAX_AXES] = {0};
    int a, k, j, total = 1;
    for (a = 0; a < pb->naxes; a++) {
        const struct vb_axis *x = &pb->axes[a];
        struct vb_axis_override *o = find(ov, x->name);
        follow[a] = -1;
        if (o) {
            o->used = 1;
            for (k = 0; k < o->n; k++) {
                if (parse_value(x, o->tok[k], &given[a][k])) {
                    if (x->labels) {
                        char all[256] = "";
                        long l;
                        for (l = x->min; l <= x->max; l++)
                            snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s",
                                     l ? ", " : "", x->labels[l]);
                        return vb_err_set(err, VB_E_USAGE,
                                          "axis '%s' of family '%s': bad value "
                                          "'%s' (one of %s)",
                                          x->name, f->name, o->tok[k], all);
                    }
                    return vb_err_set(err, VB_E_USAGE,
                                      "axis '%s': bad value '%s' (an integer, "
                                      "e.g. 4000 or 1e7)",
                                      x->name, o->tok[k]);
                }
                if (given[a][k] < x->min || given[a][k] > x->max)
                    return vb_err_set(err, VB_E_USAGE,
                                      "axis '%s' of family '%s': %ld outside [%ld, %ld]", x->name,
                                      f->name, given[a][k], x->min, x->max);
                for (j = 0; j < k; j++)
                    if (given[a][j] == given[a][k])
                        return vb_err_set(err, VB_E_USAGE,
                                          "axis '%s': value '%s' given twice "
                                          "(as '%s'): it would make two identical cases",
                                          x->name, o->tok[k], o->tok[j]);
            }
            vals[a] = given[a];
            nvals[a] = o->n;
        } else if (x->same_as) {
            follow[a] = vb_problem_axis(pb, x->same_as);
            vals[a] = NULL;
            nvals[a] = 1;
        } else {
            vals[a] = x->defaults;
            nvals[a] = x->ndefaults;
        }
        if (total > cap / nvals[a])
            return vb_err_set(err, VB_E_USAGE, "family '%s': more than %d cases from --axis",
                              f->name, cap);
        total *= nvals[a];
    }
    for (k = 0; k < total; k++) {
        for (a = 0; a < pb->naxes; a++)
            if (follow[a] < 0) pts[k].v[a] = vals[a][idx[a]];
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
