/*
 * opt: one table per command that both parses its command line and prints its usage (perf's
 * and git's parse-options). A command declares a struct vb_usage (synopsis, prose, the exit
 * codes it can return) and an array of struct vb_opt rows ended by VB_OPT_END(); vb_opt_parse
 * fills the rows' targets, answers -h/--help from the same rows, and reports every misuse the
 * same way: "varbench CMD: MESSAGE", an optional "hint:" line, "(see 'varbench CMD --help')",
 * exit 2. A command has no getopt loop and no hand-kept option list in its usage text.
 *
 * Values are checked where they are read: a number outside its range, a run id that is not
 * decimal digits within int64, an empty string, a word not among the choices, and an option
 * given twice (which would silently keep the last) are refused by name.
 */
#ifndef VB_OPT_H
#define VB_OPT_H

#include <stdint.h>
#include <stdio.h>

struct vb_err;

/* The database every command reads or writes unless --db names another. */
#define VB_DEFAULT_DB "./varbench.db"

enum vb_opt_type {
    VB_OPT_T_END,
    VB_OPT_T_FLAG,   /* int: set to 1 */
    VB_OPT_T_STR,    /* const char *: a non-empty value */
    VB_OPT_T_NUM,    /* double: a finite number in [lo, hi] ("1e7" allowed) */
    VB_OPT_T_INT,    /* int: a whole number in [lo, hi] */
    VB_OPT_T_RUN,    /* int64_t: a run id, 1, 2, ... */
    VB_OPT_T_CHOICE, /* int: the index of the value among choices (NULL-terminated) */
    VB_OPT_T_CALL,   /* call(value, arg, err); may be given more than once; without an arg
                      * name in the row it takes no value and is called with NULL */
};

/* Row flags. */
#define VB_OPT_HIDDEN 1 /* an old name: parsed, not printed */
#define VB_OPT_ALL    2 /* INT: the word 'all' is also taken, as -1 */

struct vb_opt {
    enum vb_opt_type type;
    char short_name;       /* 0: long only */
    const char *long_name; /* NULL: short only */
    const char *arg;       /* the value's name in the usage ("FILE"); NULL for a flag */
    void *value;           /* the target (see the types) or, for CALL, the callback's context */
    double lo, hi;         /* NUM, INT: the range */
    const char *const *choices;
    int (*call)(void *ctx, const char *arg, struct vb_err *err); /* 0, or -1 with err filled */
    const char *help; /* the usage line; '\n' continues it, aligned, on the next line */
    int flags;
};

#define VB_OPT_FLAG(s, l, v, h)                                                                    \
    {                                                                                              \
        .type = VB_OPT_T_FLAG, .short_name = s, .long_name = l, .value = v, .help = h              \
    }
#define VB_OPT_STR(s, l, a, v, h)                                                                  \
    {                                                                                              \
        .type = VB_OPT_T_STR, .short_name = s, .long_name = l, .arg = a, .value = v, .help = h     \
    }
#define VB_OPT_NUM(s, l, a, v, mn, mx, h)                                                          \
    {                                                                                              \
        .type = VB_OPT_T_NUM, .short_name = s, .long_name = l, .arg = a, .value = v, .lo = mn,     \
        .hi = mx, .help = h                                                                        \
    }
#define VB_OPT_INT(s, l, a, v, mn, mx, h)                                                          \
    {                                                                                              \
        .type = VB_OPT_T_INT, .short_name = s, .long_name = l, .arg = a, .value = v, .lo = mn,     \
        .hi = mx, .help = h                                                                        \
    }
/* VB_OPT_OLD_NUM: an old name of a NUM option (same target): parsed, not printed */
#define VB_OPT_OLD_NUM(l, a, v, mn, mx)                                                            \
    {                                                                                              \
        .type = VB_OPT_T_NUM, .long_name = l, .arg = a, .value = v, .lo = mn, .hi = mx,            \
        .flags = VB_OPT_HIDDEN                                                                     \
    }
/* VB_OPT_INT_ALL: a whole number in [mn, mx], or 'all' (-1) */
#define VB_OPT_INT_ALL(s, l, a, v, mn, mx, h)                                                      \
    {                                                                                              \
        .type = VB_OPT_T_INT, .short_name = s, .long_name = l, .arg = a, .value = v, .lo = mn,     \
        .hi = mx, .help = h, .flags = VB_OPT_ALL                                                   \
    }
#define VB_OPT_RUN(l, v, h)                                                                        \
    {                                                                                              \
        .type = VB_OPT_T_RUN, .long_name = l, .arg = "ID", .value = v, .help = h                   \
    }
#define VB_OPT_CHOICE(s, l, a, v, c, h)                                                            \
    {                                                                                              \
        .type = VB_OPT_T_CHOICE, .short_name = s, .long_name = l, .arg = a, .value = v,            \
        .choices = c, .help = h                                                                    \
    }
#define VB_OPT_CALL(s, l, a, ctx, fn, h)                                                           \
    {                                                                                              \
        .type = VB_OPT_T_CALL, .short_name = s, .long_name = l, .arg = a, .value = ctx,            \
        .call = fn, .help = h                                                                      \
    }
/* A repeatable option's values in the order given (VB_OPT_LIST), at most VB_OPT_LIST_MAX. */
#define VB_OPT_LIST_MAX 16
struct vb_opt_list {
    const char *v[VB_OPT_LIST_MAX];
    int n;
};
/* vb_opt_list_add: VB_OPT_LIST's callback (ctx a struct vb_opt_list) */
int vb_opt_list_add(void *ctx, const char *arg, struct vb_err *err);
#define VB_OPT_LIST(s, l, a, list, h) VB_OPT_CALL(s, l, a, list, vb_opt_list_add, h)
/* VB_OPT_DB: --db FILE, a plain path (the store refuses URIs and over-long paths by name). */
#define VB_OPT_DB(v, h) VB_OPT_STR(0, "db", "FILE", v, h)
#define VB_OPT_END()                                                                               \
    {                                                                                              \
        .type = VB_OPT_T_END                                                                       \
    }

struct vb_usage {
    const char *cmd;        /* "run" */
    const char *synopsis;   /* after "usage: varbench CMD "; '\n' starts another usage line */
    const char *about;      /* before the options (may be NULL) */
    const char *notes;      /* after the options (may be NULL) */
    const int *codes;       /* the exit codes the command can return, ended by -1 */
    int min_args, max_args; /* positional arguments (max -1: any number) */
    const char *expects;    /* what too few of them lacks: "BASE.db and CAND.db" */
    int stop_at_arg;        /* options end at the first positional argument (trace's COMMAND) */
};

/* vb_opt_parse parses argv (argv[0] is the command's name) against opts. Returns 0 with the
 * positional arguments moved to argv[1..*nargs] in their order; 1 when --help was printed on
 * stdout (the command then exits 0); or 2 (the usage error's exit code) after printing what
 * was wrong on stderr (6 when out of memory). Nothing else is printed. */
int vb_opt_parse(const struct vb_usage *u, const struct vb_opt *opts, int argc, char **argv,
                 int *nargs);

/* vb_opt_usage prints the usage: synopsis, about, the options from opts, notes, exit codes. */
void vb_opt_usage(const struct vb_usage *u, const struct vb_opt *opts, FILE *out);

/* vb_opt_error reports a misuse found after parsing (two options that do not go together) the
 * way vb_opt_parse does; returns 2. */
int vb_opt_error(const struct vb_usage *u, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* vb_opt_error_hint is vb_opt_error with a "hint:" line (none when hint is NULL or ""). */
int vb_opt_error_hint(const struct vb_usage *u, const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* vb_parse_run_id reads a run id (1, 2, ...: decimal digits only, within int64); 0, or -1 for
 * anything else, "99999999999999999999" included (it would otherwise read as INT64_MAX). */
int vb_parse_run_id(const char *s, int64_t *id);

/* vb_opt_print_codes prints the exit-code table (all codes when codes is NULL) in the one
 * format of every --help. */
void vb_opt_print_codes(const int *codes, FILE *out);

#endif
