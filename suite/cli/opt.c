/*
 * opt: the one option parser and usage printer of every command (see opt.h). Long options as
 * --name VALUE or --name=VALUE, short ones as -x VALUE or -xVALUE, "--" ends the options;
 * -h and --help are every command's. Workload: a few dozen arguments once per process, so
 * rows are found by a linear scan.
 */
#include "opt.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "err.h"
#include "suggest.h"

#define HELP_COLUMN 26 /* where an option's help starts in the usage */
#define MAX_OPTS    64

static void verror(const struct vb_usage *u, const char *hint, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s %s: ", vb_program, u->cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    if (hint && *hint) fprintf(stderr, "hint: %s\n", hint);
    fprintf(stderr, "(see '%s %s --help')\n", vb_program, u->cmd);
}

int vb_opt_error(const struct vb_usage *u, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(u, NULL, fmt, ap);
    va_end(ap);
    return vb_code_exit(VB_E_USAGE);
}

int vb_opt_error_hint(const struct vb_usage *u, const char *hint, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verror(u, hint, fmt, ap);
    va_end(ap);
    return vb_code_exit(VB_E_USAGE);
}

/* print_indented prints text whose '\n' continue at column col (the first line is already
 * placed by the caller). */
static void print_indented(FILE *out, const char *text, int col)
{
    const char *p;
    for (p = text; *p; p++) {
        fputc(*p, out);
        if (*p == '\n' && p[1]) fprintf(out, "%*s", col, "");
    }
    fputc('\n', out);
}

void vb_opt_print_codes(const int *codes, FILE *out)
{
    int i;
    for (i = 0; i < VB_E_COUNT; i++) {
        int rc = vb_code_exit((enum vb_code)i), k, listed = !codes;
        for (k = 0; codes && codes[k] >= 0; k++)
            listed |= codes[k] == rc;
        if (!listed) continue;
        fprintf(out, "  %-4d ", rc);
        print_indented(out, vb_code_desc((enum vb_code)i), 7);
    }
}

void vb_opt_usage(const struct vb_usage *u, const struct vb_opt *opts, FILE *out)
{
    const char *p = u->synopsis;
    const struct vb_opt *o;
    fprintf(out, "usage: varbench %s ", u->cmd);
    for (; *p; p++) {
        fputc(*p, out);
        if (*p == '\n') fprintf(out, "       varbench %s ", u->cmd);
    }
    fprintf(out, "\n");
    if (u->about) fprintf(out, "\n%s", u->about);
    fprintf(out, "\n");
    for (o = opts; o->type != VB_OPT_T_END; o++) {
        int n;
        if (o->flags & VB_OPT_HIDDEN) continue;
        n = fprintf(out, "  %s%c%s%s%s%s%s", o->short_name ? "-" : "   ",
                    o->short_name ? o->short_name : ' ',
                    o->short_name && o->long_name ? ", " : (o->short_name ? "" : ""),
                    o->long_name ? "--" : "", o->long_name ? o->long_name : "", o->arg ? " " : "",
                    o->arg ? o->arg : "");
        if (n >= HELP_COLUMN - 1)
            fprintf(out, "\n%*s", HELP_COLUMN, "");
        else
            fprintf(out, "%*s", HELP_COLUMN - n, "");
        print_indented(out, o->help, HELP_COLUMN);
    }
    fprintf(out, "  -h, --help%*sthis text\n", HELP_COLUMN - 12, "");
    if (u->notes) fprintf(out, "\n%s", u->notes);
    fprintf(out, "\nexit codes (one table for every command; 'varbench --help' lists them all):\n");
    vb_opt_print_codes(u->codes, out);
}

int vb_parse_run_id(const char *s, int64_t *id)
{
    char *end;
    long long v;
    if (!*s || strspn(s, "0123456789") != strlen(s)) return -1;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || *end || v < 1) return -1;
    *id = v;
    return 0;
}

/* name_of writes how the user spelled row o ("--db" or "-f"). */
static const char *name_of(const struct vb_opt *o, int as_long, char *buf, size_t n)
{
    if (as_long)
        snprintf(buf, n, "--%s", o->long_name);
    else
        snprintf(buf, n, "-%c", o->short_name);
    return buf;
}

/* set_value stores arg into row o's target; returns 0, or an exit code after saying why. */
static int set_value(const struct vb_usage *u, const struct vb_opt *o, const char *name,
                     const char *arg)
{
    char *end;
    double d;
    int k;
    switch (o->type) {
    case VB_OPT_T_FLAG:
        *(int *)o->value = 1;
        return 0;
    case VB_OPT_T_STR:
        if (!*arg) return vb_opt_error(u, "%s needs a non-empty value", name);
        *(const char **)o->value = arg;
        return 0;
    case VB_OPT_T_NUM:
    case VB_OPT_T_INT:
        if ((o->flags & VB_OPT_ALL) && !strcmp(arg, "all")) {
            *(int *)o->value = -1;
            return 0;
        }
        errno = 0;
        d = strtod(arg, &end);
        if (!*arg || *end || errno || !isfinite(d) || d < o->lo || d > o->hi ||
            (o->type == VB_OPT_T_INT && d != floor(d)) || strpbrk(arg, "xXnN"))
            return vb_opt_error(u, "bad %s '%s': %s from %g to %g%s", name, arg,
                                o->type == VB_OPT_T_INT ? "a whole number" : "a number", o->lo,
                                o->hi, (o->flags & VB_OPT_ALL) ? ", or 'all'" : "");
        if (o->type == VB_OPT_T_INT)
            *(int *)o->value = (int)d;
        else
            *(double *)o->value = d;
        return 0;
    case VB_OPT_T_RUN:
        if (vb_parse_run_id(arg, (int64_t *)o->value))
            return vb_opt_error(u, "bad %s '%s': a run id (1, 2, ...; see 'varbench runs')", name,
                                arg);
        return 0;
    case VB_OPT_T_CHOICE:
        for (k = 0; o->choices[k]; k++)
            if (!strcmp(arg, o->choices[k])) {
                *(int *)o->value = k;
                return 0;
            }
        {
            char list[256] = "";
            size_t used = 0;
            for (k = 0; o->choices[k] && used < sizeof list; k++)
                used +=
                    (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                     k ? (o->choices[k + 1] ? ", " : " or ") : "", o->choices[k]);
            return vb_opt_error(u, "bad %s '%s': %s", name, arg, list);
        }
    case VB_OPT_T_CALL: {
        struct vb_err err;
        vb_err_clear(&err);
        if (o->call(o->value, arg, &err) == 0) return 0;
        return vb_opt_error_hint(u, err.hint, "%s", err.msg);
    }
    case VB_OPT_T_END:
        break;
    }
    return vb_opt_error(u, "internal: option %s has no type", name);
}

/* find returns the row for a long name (len characters of s) or a short letter, or NULL. */
static const struct vb_opt *find(const struct vb_opt *opts, const char *s, size_t len, char c)
{
    const struct vb_opt *o;
    for (o = opts; o->type != VB_OPT_T_END; o++) {
        if (s && o->long_name && strlen(o->long_name) == len && !strncmp(o->long_name, s, len))
            return o;
        if (!s && c && o->short_name == c) return o;
    }
    return NULL;
}

/* suggest_option writes the hint for an unknown option name ("--fliter"): the command's long
 * options nearest it. Returns hint ("" when none is near). */
static const char *suggest_option(const struct vb_opt *opts, const char *name, char *hint, size_t n)
{
    static char names[MAX_OPTS][64];
    const char *cands[MAX_OPTS + 1];
    const struct vb_opt *o;
    size_t k = 0;
    for (o = opts; o->type != VB_OPT_T_END && k < MAX_OPTS; o++)
        if (o->long_name && !(o->flags & VB_OPT_HIDDEN)) {
            snprintf(names[k], sizeof names[k], "--%s", o->long_name);
            cands[k] = names[k];
            k++;
        }
    cands[k++] = "--help";
    return vb_suggest(name, cands, k, hint, n);
}

/* parse_args does vb_opt_parse's work with args (argc slots) for the positionals, which it
 * collects in order into args[0..*n). Returns what vb_opt_parse returns. */
static int parse_args(const struct vb_usage *u, const struct vb_opt *opts, int argc, char **argv,
                      char **args, int *n)
{
    const void *seen[MAX_OPTS];
    int i, k, nseen = 0, only_args = 0;
    *n = 0;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *arg = NULL, *eq;
        const struct vb_opt *o;
        char name[128];
        int rc, as_long;
        if (only_args || a[0] != '-' || !a[1]) {
            args[(*n)++] = argv[i];
            if (u->stop_at_arg) only_args = 1;
            continue;
        }
        if (!strcmp(a, "--")) {
            only_args = 1;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            vb_opt_usage(u, opts, stdout);
            return 1;
        }
        as_long = a[1] == '-';
        if (as_long) {
            eq = strchr(a + 2, '=');
            o = find(opts, a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2), 0);
            if (eq) arg = eq + 1;
        } else {
            o = find(opts, NULL, 0, a[1]);
            if (a[2]) arg = a + 2;
        }
        if (!o) {
            char hint[256];
            if (as_long && (eq = strchr(a, '=')))
                snprintf(name, sizeof name, "%.*s", (int)(eq - a), a);
            else
                snprintf(name, sizeof name, "%s", a);
            return vb_opt_error_hint(u, suggest_option(opts, name, hint, sizeof hint),
                                     "unknown option '%s'", name);
        }
        name_of(o, as_long, name, sizeof name);
        if (!o->arg && arg) return vb_opt_error(u, "%s takes no value", name);
        if (o->arg && !arg) {
            if (i + 1 >= argc) return vb_opt_error(u, "option '%s' needs a value", name);
            arg = argv[++i];
        }
        /* an option given twice would keep the last silently (aliases share a target) */
        if (o->type != VB_OPT_T_CALL && o->type != VB_OPT_T_FLAG) {
            for (k = 0; k < nseen; k++)
                if (seen[k] == o->value) return vb_opt_error(u, "%s is given twice", name);
            if (nseen < MAX_OPTS) seen[nseen++] = o->value;
        }
        if ((rc = set_value(u, o, name, arg))) return rc;
    }
    if (u->max_args >= 0 && *n > u->max_args)
        return vb_opt_error(u, "unexpected argument '%s'", args[u->max_args]);
    if (*n < u->min_args)
        return vb_opt_error(u, "expected %s", u->expects ? u->expects : "no argument");
    return 0;
}

int vb_opt_parse(const struct vb_usage *u, const struct vb_opt *opts, int argc, char **argv,
                 int *nargs)
{
    char **args = malloc(sizeof *args * (size_t)(argc > 0 ? argc : 1));
    int k, n, rc;
    if (!args) {
        fprintf(stderr, "%s %s: out of memory\n", vb_program, u->cmd);
        return vb_code_exit(VB_E_SYS);
    }
    rc = parse_args(u, opts, argc, argv, args, &n);
    if (!rc) {
        for (k = 0; k < n; k++)
            argv[k + 1] = args[k];
        if (n + 1 < argc) argv[n + 1] = NULL;
        *nargs = n;
    }
    free(args);
    return rc;
}

int vb_opt_list_add(void *ctx, const char *arg, struct vb_err *err)
{
    struct vb_opt_list *l = ctx;
    if (l->n == VB_OPT_LIST_MAX)
        return vb_err_set(err, VB_E_USAGE, "'%s': %d values of one option at most", arg,
                          VB_OPT_LIST_MAX);
    l->v[l->n++] = arg;
    return 0;
}
