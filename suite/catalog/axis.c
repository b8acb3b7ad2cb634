/*
 * axis: one axis's values as text and back (see axis.h): the parser of a declared spec and of
 * --axis (lists, integer and power-of-two ranges, floats, labels), the names values are shown
 * by, and the accessors a benchmark reads its point with.
 */
#include "axis.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(long) == sizeof(double), "a float axis's value is held in a long");

long vb_axis_pack(double d)
{
    long v;
    memcpy(&v, &d, sizeof v);
    return v;
}

double vb_axis_unpack(long v)
{
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

int vb_axis_unbounded(const struct vb_axis *x)
{
    if (x->kind == VB_AXIS_FLOAT) return x->fmin == 0 && x->fmax == 0;
    return !x->labels && x->min == 0 && x->max == 0;
}

int vb_axis_in_range(const struct vb_axis *x, long v)
{
    if (x->kind == VB_AXIS_FLOAT) {
        double d = vb_axis_unpack(v);
        return isfinite(d) && (vb_axis_unbounded(x) || (d >= x->fmin && d <= x->fmax));
    }
    if (vb_axis_unbounded(x)) return v >= 0;
    return v >= x->min && v <= x->max;
}

/* number reads a whole integer written plainly, as 1e7 or as 2^k; 0 or -1 */
static int number(const char *s, long *out)
{
    char *end;
    double d;
    if (!strncmp(s, "2^", 2)) {
        long k;
        if (!s[2] || strspn(s + 2, "0123456789") != strlen(s + 2)) return -1;
        k = strtol(s + 2, &end, 10);
        if (k > 62) return -1;
        *out = 1L << k;
        return 0;
    }
    /* decimal or scientific only: strtod would also take "0x40" (64), "inf" and "nan" */
    if (!*s || strspn(s, "0123456789.eE+-") != strlen(s)) return -1;
    errno = 0;
    d = strtod(s, &end);
    if (errno || *end || !isfinite(d) || d != floor(d) || fabs(d) > 9007199254740992.0) return -1;
    *out = (long)d;
    return 0;
}

/* real reads a finite double (decimal or scientific); 0 or -1 */
static int real(const char *s, double *out)
{
    char *end;
    if (!*s || strspn(s, "0123456789.eE+-") != strlen(s)) return -1;
    errno = 0;
    *out = strtod(s, &end);
    return errno || *end || !isfinite(*out) ? -1 : 0;
}

/* add appends v to out[0..*n) unless full; 0 or -1 with err */
static int add(const struct vb_axis *x, long v, long *out, int *n, int cap, struct vb_err *err)
{
    if (*n == cap)
        return vb_err_set(err, VB_E_USAGE, "axis '%s': more than %d values", x->name, cap);
    out[(*n)++] = v;
    return 0;
}

/* range expands "A:B[:S]" (integers, powers of two over their exponents, or floats with a
 * step) into out; 0 or -1 with err */
static int range(const struct vb_axis *x, char *tok, long *out, int *n, int cap, struct vb_err *err)
{
    char *b = strchr(tok, ':'), *s;
    *b++ = '\0';
    if ((s = strchr(b, ':'))) *s++ = '\0';
    if (x->kind == VB_AXIS_FLOAT) {
        double lo, hi, st;
        long k;
        if (!s || real(tok, &lo) || real(b, &hi) || real(s, &st) || !(st > 0) || hi < lo ||
            hi + st == hi) /* a step under the values' precision would never advance */
            return vb_err_set(err, VB_E_USAGE,
                              "axis '%s': bad range '%s:%s%s%s' (a float range needs "
                              "LO:HI:STEP, LO <= HI, STEP > 0)",
                              x->name, tok, b, s ? ":" : "", s ? s : "");
        for (k = 0; lo + (double)k * st <= hi + 1e-9 * st; k++) {
            char t[32]; /* 15 digits: 0.1 + 2 x 0.1 is the 0.3 one wrote, not 0.30000000000000004 */
            snprintf(t, sizeof t, "%.15g", lo + (double)k * st);
            if (add(x, vb_axis_pack(strtod(t, NULL)), out, n, cap, err)) return -1;
        }
        return 0;
    }
    if (!strncmp(tok, "2^", 2) && !strncmp(b, "2^", 2)) {
        long lo, hi, st = 1, e;
        if (number(tok, &lo) || number(b, &hi) || (s && (number(s, &st) || st < 1)) || hi < lo)
            return vb_err_set(err, VB_E_USAGE, "axis '%s': bad range '2^A:2^B[:STEP]'", x->name);
        for (e = strtol(tok + 2, NULL, 10); e <= strtol(b + 2, NULL, 10); e += st)
            if (add(x, 1L << e, out, n, cap, err)) return -1;
        return 0;
    }
    {
        long lo, hi, st = 1, v;
        if (number(tok, &lo) || number(b, &hi) || (s && (number(s, &st) || st < 1)) || hi < lo)
            return vb_err_set(err, VB_E_USAGE,
                              "axis '%s': bad range '%s:%s%s%s' (LO:HI[:STEP], integers "
                              "or 2^A:2^B)",
                              x->name, tok, b, s ? ":" : "", s ? s : "");
        for (v = lo; v <= hi; v += st)
            if (add(x, v, out, n, cap, err)) return -1;
        return 0;
    }
}

/* one_value reads a single value of x (a label, an integer or a float); 0 or -1 with err */
static int one_value(const struct vb_axis *x, const char *tok, long *out, struct vb_err *err)
{
    long k;
    double d;
    if (x->labels) {
        char all[256] = "";
        for (k = x->min; k <= x->max; k++)
            if (!strcmp(x->labels[k], tok)) {
                *out = k;
                return 0;
            }
        for (k = x->min; k <= x->max; k++)
            snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", k ? ", " : "",
                     x->labels[k]);
        return vb_err_set(err, VB_E_USAGE, "axis '%s': bad value '%s' (one of %s)", x->name, tok,
                          all);
    }
    if (x->kind == VB_AXIS_FLOAT) {
        if (real(tok, &d))
            return vb_err_set(err, VB_E_USAGE, "axis '%s': bad value '%s' (a number, e.g. 0.5)",
                              x->name, tok);
        *out = vb_axis_pack(d);
        return 0;
    }
    if (number(tok, out))
        return vb_err_set(err, VB_E_USAGE,
                          "axis '%s': bad value '%s' (an integer, e.g. 4000, 1e7 or 2^20)", x->name,
                          tok);
    return 0;
}

/* check_values holds out[0..n) to x's range and refuses a value given twice; n or -1 with err */
static int check_values(const struct vb_axis *x, const long *out, int n, struct vb_err *err)
{
    int i, j;
    for (i = 0; i < n; i++) {
        char a[64], b[64];
        if (!vb_axis_in_range(x, out[i])) {
            if (x->kind == VB_AXIS_FLOAT)
                return vb_err_set(err, VB_E_USAGE, "axis '%s': %s outside [%g, %g]", x->name,
                                  vb_axis_value_name(x, out[i], a, sizeof a), x->fmin, x->fmax);
            if (vb_axis_unbounded(x))
                return vb_err_set(err, VB_E_USAGE, "axis '%s': %ld is negative", x->name, out[i]);
            return vb_err_set(err, VB_E_USAGE, "axis '%s': %ld outside [%ld, %ld]", x->name, out[i],
                              x->min, x->max);
        }
        for (j = 0; j < i; j++)
            if (out[j] == out[i])
                return vb_err_set(err, VB_E_USAGE,
                                  "axis '%s': value %s given twice: it would make two identical "
                                  "cases",
                                  x->name, vb_axis_value_name(x, out[i], b, sizeof b));
    }
    return n;
}

int vb_axis_parse(const struct vb_axis *x, const char *text, long *out, int cap, struct vb_err *err)
{
    char buf[1024], *tok, *save = NULL;
    int n = 0;
    if (strlen(text) >= sizeof buf)
        return vb_err_set(err, VB_E_USAGE, "axis '%s': value list too long", x->name);
    strcpy(buf, text);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        long v;
        if (!x->labels && strchr(tok, ':')) {
            if (range(x, tok, out, &n, cap, err)) return -1;
            continue;
        }
        if (one_value(x, tok, &v, err) || add(x, v, out, &n, cap, err)) return -1;
    }
    if (!n) return vb_err_set(err, VB_E_USAGE, "axis '%s': no values", x->name);
    return check_values(x, out, n, err);
}

int vb_axis_defaults(const struct vb_axis *x, long *out, int cap, struct vb_err *err)
{
    int k;
    if (x->ndefaults > 0) {
        if (x->ndefaults > cap)
            return vb_err_set(err, VB_E_USAGE, "axis '%s': more than %d values", x->name, cap);
        for (k = 0; k < x->ndefaults; k++)
            out[k] = x->kind == VB_AXIS_FLOAT ? vb_axis_pack(x->fdefaults[k]) : x->defaults[k];
        return check_values(x, out, x->ndefaults, err);
    }
    if (!x->spec || !*x->spec)
        return vb_err_set(err, VB_E_USAGE, "axis '%s' has no values (defaults or spec)", x->name);
    return vb_axis_parse(x, x->spec, out, cap, err);
}

char *vb_axis_value_name(const struct vb_axis *x, long v, char *buf, size_t n)
{
    int prec;
    if (x->labels && v >= x->min && v <= x->max) {
        snprintf(buf, n, "%s", x->labels[v]);
        return buf;
    }
    if (x->kind != VB_AXIS_FLOAT) {
        snprintf(buf, n, "%ld", v);
        return buf;
    }
    /* a float: the shortest text that reads back as the same double */
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, vb_axis_unpack(v));
        if (strtod(buf, NULL) == vb_axis_unpack(v)) break;
    }
    return buf;
}

/* find returns p's axis called name, of a kind that fits, or aborts naming the mistake: a
 * benchmark that reads an axis it does not have is wrong, and no value would be right. */
static const struct vb_axis *find(const struct vb_point *p, const char *name, const char *kind,
                                  int *idx)
{
    const struct vb_problem *pb = p ? p->problem : NULL;
    int a;
    if (!pb) {
        fprintf(stderr,
                "varbench: vb_axis_%s(\"%s\"): the point has no problem (a point the "
                "benchmark made itself?)\n",
                kind, name);
        abort();
    }
    for (a = 0; a < pb->naxes; a++)
        if (!strcmp(pb->axes[a].name, name)) break;
    if (a == pb->naxes) {
        fprintf(stderr, "varbench: vb_axis_%s(\"%s\"): problem '%s' has no axis '%s'\n", kind, name,
                pb->name, name);
        abort();
    }
    *idx = a;
    return &pb->axes[a];
}

long vb_axis_int(const struct vb_point *p, const char *name)
{
    int a;
    const struct vb_axis *x = find(p, name, "int", &a);
    if (x->kind == VB_AXIS_FLOAT || x->labels) {
        fprintf(stderr, "varbench: vb_axis_int(\"%s\"): a %s axis (vb_axis_%s)\n", name,
                x->labels ? "string" : "float", x->labels ? "string" : "float");
        abort();
    }
    return p->v[a];
}

double vb_axis_float(const struct vb_point *p, const char *name)
{
    int a;
    const struct vb_axis *x = find(p, name, "float", &a);
    if (x->labels) {
        fprintf(stderr, "varbench: vb_axis_float(\"%s\"): a string axis (vb_axis_string)\n", name);
        abort();
    }
    return x->kind == VB_AXIS_FLOAT ? vb_axis_unpack(p->v[a]) : (double)p->v[a];
}

const char *vb_axis_string(const struct vb_point *p, const char *name)
{
    int a;
    const struct vb_axis *x = find(p, name, "string", &a);
    if (!x->labels || p->v[a] < x->min || p->v[a] > x->max) {
        fprintf(stderr, "varbench: vb_axis_string(\"%s\"): not a string axis\n", name);
        abort();
    }
    return x->labels[p->v[a]];
}
