/*
 * registry: checks over the generated family table and the name and point helpers that
 * `list`, `run` and the tests share.
 */
#include "registry.h"

#include <stdio.h>
#include <string.h>

#include "glob.h"
#include "suggest.h"

static const struct vb_family *const none[] = {NULL};
const struct vb_family *const *vb_families = none;

static int check_name(const char *what, const char *name, struct vb_err *err)
{
    const char *c;
    if (!name || !*name) return vb_err_set(err, VB_E_USAGE, "%s has no name", what);
    for (c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '_'))
            return vb_err_set(err, VB_E_USAGE, "%s '%s': names use [a-z0-9_-] only", what, name);
    return 0;
}

/* check_axes checks problem pb's axes (f: its family, for the messages). */
static int check_axes(const struct vb_family *f, const struct vb_problem *pb, struct vb_err *err)
{
    long vals[VB_MAX_AXIS_VALUES];
    int a, b, k;
    if (pb->naxes < 1 || pb->naxes > VB_MAX_AXES)
        return vb_err_set(err, VB_E_USAGE, "family '%s': %d axes (1..%d allowed)", f->name,
                          pb->naxes, VB_MAX_AXES);
    for (a = 0; a < pb->naxes; a++) {
        const struct vb_axis *x = &pb->axes[a];
        if (check_name("axis", x->name, err)) return vb_err_context(err, "family '%s'", f->name);
        if (!x->doc || !*x->doc)
            return vb_err_set(err, VB_E_USAGE, "axis '%s/%s' has no doc", f->name, x->name);
        if (x->ndefaults < 0 || x->ndefaults > VB_MAX_AXIS_VALUES || x->min > x->max ||
            (x->kind == VB_AXIS_FLOAT && (x->labels || !(x->fmin <= x->fmax))) ||
            (x->kind != VB_AXIS_INT && x->kind != VB_AXIS_FLOAT))
            return vb_err_set(err, VB_E_USAGE, "axis '%s/%s': bad defaults, range or kind", f->name,
                              x->name);
        if (x->labels)
            for (k = 0; k <= x->max; k++)
                if (!x->labels[k] || !*x->labels[k] || x->min != 0)
                    return vb_err_set(err, VB_E_USAGE, "axis '%s/%s': labels do not cover [0, %ld]",
                                      f->name, x->name, x->max);
        if (vb_axis_defaults(x, vals, VB_MAX_AXIS_VALUES, err) < 0)
            return vb_err_context(err, "family '%s'", f->name);
        if (x->same_as) {
            int lead = vb_problem_axis(pb, x->same_as);
            const struct vb_axis *l = lead >= 0 ? &pb->axes[lead] : NULL;
            if (!l || l == x || l->same_as)
                return vb_err_set(err, VB_E_USAGE, "axis '%s/%s' follows %s axis '%s'", f->name,
                                  x->name, !l ? "unknown" : "a following or its own", x->same_as);
            if (l->kind != x->kind || l->labels != x->labels ||
                (!vb_axis_unbounded(x) &&
                 (l->min < x->min || l->max > x->max || l->fmin < x->fmin || l->fmax > x->fmax)))
                return vb_err_set(err, VB_E_USAGE,
                                  "axis '%s/%s' follows '%s', of another kind or a wider range",
                                  f->name, x->name, x->same_as);
        }
        for (b = 0; b < a; b++)
            if (!strcmp(pb->axes[b].name, x->name))
                return vb_err_set(err, VB_E_USAGE, "family '%s': axis '%s' twice", f->name,
                                  x->name);
    }
    return 0;
}

/* check_problem checks problem pb of f and the variants that compute it: at most one CPU
 * reference variant and at least one other (strict, the catalog's rule: a reference function
 * and exactly one reference variant). */
static int check_problem(const struct vb_family *f, const struct vb_problem *pb, int strict,
                         struct vb_err *err)
{
    char what[160];
    int j, refs = 0, others = 0, wrong = -1; /* wrong: a variant wrong on purpose */
    if (check_name("problem", pb->name, err)) return vb_err_context(err, "family '%s'", f->name);
    if (!pb->summary || !*pb->summary)
        return vb_err_set(err, VB_E_USAGE, "problem '%s/%s' has no summary", f->name, pb->name);
    vb_problem_label(f, pb, what, sizeof what);
    if ((strict && !pb->reference) || (pb->reference && !pb->out_len) || !(pb->atol >= 0) ||
        !(pb->rtol >= 0))
        return vb_err_set(err, VB_E_USAGE, "%s lacks out_len, reference or tolerance", what);
    if (pb->reference && (!f->ops || !f->ops->poison || !f->ops->fetch))
        return vb_err_set(err, VB_E_USAGE,
                          "%s has a reference but family '%s' lacks poison or fetch (the "
                          "verified sample's hooks)",
                          what, f->name);
    if (check_axes(f, pb, err)) return -1;
    for (j = 0; j < f->nvariants; j++) {
        if (f->variants[j].problem != pb) continue;
        if (f->variants[j].flags & VB_REFERENCE)
            refs++;
        else
            others++;
        if ((f->variants[j].flags & VB_EXPECT_WRONG) && wrong < 0) wrong = j;
    }
    if (refs && !pb->reference)
        return vb_err_set(err, VB_E_USAGE, "%s has a reference variant but no reference", what);
    if (wrong >= 0 && !pb->reference)
        return vb_err_set(err, VB_E_USAGE,
                          "variant '%s/%s' is wrong on purpose, but %s has no reference to "
                          "be wrong against",
                          f->name, f->variants[wrong].name, what);
    if (others < 1 || (strict && refs + others < 2))
        return vb_err_set(err, VB_E_USAGE, "%s needs a reference and a variant", what);
    if (refs > 1 || (strict && refs != 1))
        return vb_err_set(err, VB_E_USAGE, "%s has %d CPU references (%s needed)", what, refs,
                          strict ? "1" : "at most 1");
    return 0;
}

int vb_registry_check(const struct vb_family *const *fams, int strict, struct vb_err *err)
{
    const struct vb_problem *pbs[VB_MAX_PROBLEMS];
    int i, j, k, np;
    if (!fams || !fams[0]) return vb_err_set(err, VB_E_USAGE, "no families to run");
    for (i = 0; fams[i]; i++) {
        const struct vb_family *f = fams[i];
        const struct vb_variant_ops *ops = f->ops;
        if (check_name("family", f->name, err)) return -1;
        if (!f->summary || !*f->summary || (strict && (!f->seed || !*f->seed)))
            return vb_err_set(err, VB_E_USAGE, "family '%s' lacks a summary%s", f->name,
                              strict ? " or seed" : "");
        for (k = 0; k < i; k++)
            if (!strcmp(fams[k]->name, f->name))
                return vb_err_set(err, VB_E_USAGE, "family '%s' defined twice", f->name);
        if (strict ? !ops || !ops->setup || !ops->poison || !ops->fetch || !ops->teardown
                   : ops && !ops->setup != !ops->teardown)
            return vb_err_set(err, VB_E_USAGE, "family '%s' lacks a hook (%s)", f->name,
                              strict ? "setup, poison, fetch, teardown" : "setup or teardown");
        if (f->nvariants < 1 || !f->variants)
            return vb_err_set(err, VB_E_USAGE, "family '%s' has no variants", f->name);
        for (j = 0; j < f->nvariants; j++) {
            const struct vb_variant *v = &f->variants[j];
            if (check_name("variant", v->name, err))
                return vb_err_context(err, "family '%s'", f->name);
            if (!v->summary || !*v->summary)
                return vb_err_set(err, VB_E_USAGE, "variant '%s/%s' has no summary", f->name,
                                  v->name);
            if (!v->run)
                return vb_err_set(err, VB_E_USAGE, "variant '%s/%s' lacks a hook (run)", f->name,
                                  v->name);
            if (!v->problem)
                return vb_err_set(err, VB_E_USAGE, "variant '%s/%s' computes no problem", f->name,
                                  v->name);
            if ((v->flags & VB_GPU) && !v->traffic)
                return vb_err_set(err, VB_E_USAGE, "GPU variant '%s/%s' states no traffic", f->name,
                                  v->name);
            if ((v->flags & VB_RESIDENT) && !(v->flags & VB_GPU))
                return vb_err_set(err, VB_E_USAGE,
                                  "variant '%s/%s': only a GPU variant can keep "
                                  "its answer on the device",
                                  f->name, v->name);
            if ((v->flags & VB_REFERENCE) && (v->flags & (VB_GPU | VB_EXPECT_WRONG)))
                return vb_err_set(err, VB_E_USAGE,
                                  "reference '%s/%s' must be a correct CPU variant", f->name,
                                  v->name);
            for (k = 0; k < j; k++)
                if (!strcmp(f->variants[k].name, v->name))
                    return vb_err_set(err, VB_E_USAGE, "variant '%s/%s' defined twice", f->name,
                                      v->name);
        }
        np = vb_family_problems(f, pbs, VB_MAX_PROBLEMS);
        if (np > VB_MAX_PROBLEMS)
            return vb_err_set(err, VB_E_USAGE, "family '%s' has more than %d problems", f->name,
                              VB_MAX_PROBLEMS);
        for (j = 0; j < np; j++) {
            if (check_problem(f, pbs[j], strict, err)) return -1;
            for (k = 0; k < j; k++)
                if (!strcmp(pbs[j]->name, pbs[k]->name))
                    return vb_err_set(err, VB_E_USAGE, "problem '%s/%s' defined twice", f->name,
                                      pbs[j]->name);
        }
    }
    return 0;
}

int vb_family_problems(const struct vb_family *f, const struct vb_problem **out, int cap)
{
    int j, k, n = 0;
    for (j = 0; j < f->nvariants; j++) {
        const struct vb_problem *pb = f->variants[j].problem;
        for (k = 0; k < j && f->variants[k].problem != pb; k++) {
        }
        if (k < j) continue; /* seen at an earlier variant */
        if (n < cap) out[n] = pb;
        n++;
    }
    return n;
}

char *vb_problem_label(const struct vb_family *f, const struct vb_problem *pb, char *buf, size_t n)
{
    if (vb_family_problems(f, NULL, 0) == 1)
        snprintf(buf, n, "family '%s'", f->name);
    else
        snprintf(buf, n, "problem '%s/%s'", f->name, pb->name);
    return buf;
}

int vb_variant_matches(const struct vb_family *f, const struct vb_variant *v, const char *glob)
{
    char full[256];
    snprintf(full, sizeof full, "%s/%s", f->name, v->name);
    return vb_variant_glob(glob, f->name, full);
}

char *vb_point_format(const struct vb_problem *pb, const struct vb_point *p, char *buf, size_t n)
{
    size_t used = 0;
    int a;
    buf[0] = '\0';
    for (a = 0; a < pb->naxes && used < n; a++) {
        char v[64];
        used += (size_t)snprintf(buf + used, n - used, "%s%s=%s", a ? "," : "", pb->axes[a].name,
                                 vb_axis_value_name(&pb->axes[a], p->v[a], v, sizeof v));
    }
    return buf;
}

int vb_problem_axis(const struct vb_problem *pb, const char *name)
{
    int a;
    for (a = 0; a < pb->naxes; a++)
        if (!strcmp(pb->axes[a].name, name)) return a;
    return -1;
}

/* Room for the names a suggestion is drawn from (families, "family/variant", axis names). */
#define SUGGEST_NAMES 512

int vb_family_selected(const struct vb_family *f, const char *filter)
{
    int j;
    for (j = 0; j < f->nvariants; j++)
        if (vb_variant_matches(f, &f->variants[j], filter)) return 1;
    return 0;
}

const char *vb_suggest_variant(const char *filter, char *out, size_t n)
{
    static char names[SUGGEST_NAMES][160];
    const char *cands[SUGGEST_NAMES];
    size_t k = 0;
    int i, j;
    for (i = 0; vb_families[i] && k < SUGGEST_NAMES; i++) {
        const struct vb_family *f = vb_families[i];
        cands[k++] = f->name;
        for (j = 0; j < f->nvariants && k < SUGGEST_NAMES; j++) {
            snprintf(names[k], sizeof names[k], "%s/%s", f->name, f->variants[j].name);
            cands[k] = names[k];
            k++;
        }
    }
    return vb_suggest(filter, cands, k, out, n);
}

const char *vb_suggest_axis(const char *filter, const char *axis, char *out, size_t n)
{
    const char *cands[SUGGEST_NAMES];
    const struct vb_problem *pbs[VB_MAX_PROBLEMS];
    size_t k = 0;
    int i, p, a, np;
    for (i = 0; vb_families[i]; i++) {
        if (!vb_family_selected(vb_families[i], filter)) continue;
        np = vb_family_problems(vb_families[i], pbs, VB_MAX_PROBLEMS);
        for (p = 0; p < np && p < VB_MAX_PROBLEMS; p++)
            for (a = 0; a < pbs[p]->naxes && k < SUGGEST_NAMES; a++)
                cands[k++] = pbs[p]->axes[a].name;
    }
    return vb_suggest(axis, cands, k, out, n);
}

const struct vb_variant *vb_variant_of(const char *family, const char *name)
{
    int f, v;
    for (f = 0; vb_families[f]; f++) {
        if (strcmp(vb_families[f]->name, family)) continue;
        for (v = 0; v < vb_families[f]->nvariants; v++)
            if (!strcmp(vb_families[f]->variants[v].name, name))
                return &vb_families[f]->variants[v];
    }
    return NULL;
}

const struct vb_variant *vb_seed_rung(const char *family, const char *problem)
{
    int f, v;
    for (f = 0; vb_families[f]; f++) {
        if (strcmp(vb_families[f]->name, family)) continue;
        for (v = 0; v < vb_families[f]->nvariants; v++) {
            const struct vb_variant *x = &vb_families[f]->variants[v];
            if ((x->flags & VB_GPU) && !(x->flags & VB_EXPECT_WRONG) &&
                !strcmp(x->problem->name, problem))
                return x;
        }
    }
    return NULL;
}

const char *vb_problem_of(const char *family, const char *name)
{
    const struct vb_variant *v = vb_variant_of(family, name);
    return v ? v->problem->name : family;
}
