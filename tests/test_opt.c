/* Tests of suite/cli/opt.c, the one option parser: every spelling of a value, the positionals kept
 * in order, and each misuse refused with the usage error's code (its message goes to stderr);
 * and of suite/base/suggest.c, the did-you-mean its errors give. */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include "opt.h"
#include "suggest.h"
#include "test.h"
#include "tests.h"

struct seen {
    const char *db, *name;
    double num;
    int flag, count, choice;
    int64_t run;
    int calls;
};

static int count_call(void *ctx, const char *arg, struct vb_err *err)
{
    ((struct seen *)ctx)->calls++;
    return 0;
}

/* parse runs vb_opt_parse over the NULL-terminated words after the command name "t". */
static int parse(struct seen *v, int stop, int *nargs, char **out, const char *first, ...)
{
    static const int codes[] = {0, 2, -1};
    static const char *const choices[] = {"table", "md", NULL};
    const struct vb_usage u = {.cmd = "t",
                               .synopsis = "[options] A...",
                               .codes = codes,
                               .max_args = -1,
                               .stop_at_arg = stop};
    const struct vb_opt opts[] = {VB_OPT_DB(&v->db, "database"),
                                  VB_OPT_STR('n', "name", "N", &v->name, "a name"),
                                  VB_OPT_NUM(0, "num", "X", &v->num, 0, 100, "a number"),
                                  VB_OPT_OLD_NUM("old-num", "X", &v->num, 0, 100),
                                  VB_OPT_FLAG('q', "quiet", &v->flag, "a flag"),
                                  VB_OPT_INT_ALL(0, "count", "N|all", &v->count, 1, 10, "a count"),
                                  VB_OPT_CHOICE(0, "format", "F", &v->choice, choices, "a choice"),
                                  VB_OPT_RUN("run", &v->run, "a run"),
                                  VB_OPT_CALL(0, "call", "V", v, count_call, "repeatable"),
                                  VB_OPT_END()};
    char *argv[32] = {"t"};
    const char *w;
    va_list ap;
    int argc = 1, rc;
    memset(v, 0, sizeof *v);
    va_start(ap, first);
    for (w = first; w && argc < 31; w = va_arg(ap, const char *))
        argv[argc++] = (char *)w;
    va_end(ap);
    rc = vb_opt_parse(&u, opts, argc, argv, nargs);
    if (!rc)
        for (argc = 0; argc < *nargs; argc++)
            out[argc] = argv[argc + 1];
    return rc;
}

int test_opt_parse(const char *arg)
{
    struct seen v;
    char *a[32];
    int n;
    /* every spelling of a value, positionals in order around the options */
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "x", "--db=f.db", "-nbob", "--num", "1e1", "y", "-q",
                        "--count", "all", "--format", "md", "--run", "7", "--call", "1", "--call",
                        "2", "--", "--z", NULL),
                  0);
    ASSERT_INT_EQ(n, 3);
    ASSERT_STR_EQ(a[0], "x");
    ASSERT_STR_EQ(a[1], "y");
    ASSERT_STR_EQ(a[2], "--z");
    ASSERT_STR_EQ(v.db, "f.db");
    ASSERT_STR_EQ(v.name, "bob");
    ASSERT(v.num == 10);
    ASSERT_INT_EQ(v.flag, 1);
    ASSERT_INT_EQ(v.count, -1);
    ASSERT_INT_EQ(v.choice, 1);
    ASSERT(v.run == 7);
    ASSERT_INT_EQ(v.calls, 2);
    /* options end at the first positional when the command says so (trace's COMMAND) */
    ASSERT_INT_EQ(parse(&v, 1, &n, a, "-q", "prog", "--db", "x", NULL), 0);
    ASSERT_INT_EQ(n, 3);
    ASSERT_STR_EQ(a[1], "--db");
    ASSERT(v.db == NULL);
    /* misuse: each is the usage error, 2 */
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--frob", NULL), 2);
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--db", NULL), 2);          /* no value */
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--db", "", NULL), 2);      /* an empty one */
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--quiet=1", NULL), 2);     /* a flag's value */
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--num", "101", NULL), 2);  /* out of range */
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--num", "0x10", NULL), 2); /* hex */
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--num", "nan", NULL), 2);
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--count", "2.5", NULL), 2);   /* not whole */
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--format", "json", NULL), 2); /* not a choice */
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--run", "99999999999999999999", NULL), 2);
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--run", "0", NULL), 2);
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--db", "a", "--db", "b", NULL), 2);       /* given twice */
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "--num", "1", "--old-num", "2", NULL), 2); /* by alias */
    /* -h and --help print the usage (on stdout) and ask the command to exit 0 */
    ASSERT_INT_EQ(parse(&v, 0, &n, a, "x", "--help", NULL), 1);
    return 0;
}

/* did you mean: the distance (a swap of neighbours is one edit), the rule (a third of the
 * word's length, or containing it), and the hint's wording */
int test_suggest(const char *arg)
{
    static const char *const cmds[] = {"list", "run", "runs", "compare", "merge", "migrate"};
    static const char *const axes[] = {"nx", "ny", "model_size", "smooth_steps", "nx", "n"};
    char out[256];
    (void)arg;
    ASSERT_INT_EQ(vb_edit_distance("rnu", "run"), 1);
    ASSERT_INT_EQ(vb_edit_distance("", "abc"), 3);
    ASSERT_INT_EQ(vb_edit_distance("kitten", "sitting"), 3);
    ASSERT_INT_EQ(vb_edit_distance("fliter", "filter"), 1);
    ASSERT_STR_EQ(vb_suggest("rnu", cmds, 6, out, sizeof out), "did you mean 'run'?");
    ASSERT_STR_EQ(vb_suggest("mrege", cmds, 6, out, sizeof out), "did you mean 'merge'?");
    ASSERT_STR_EQ(vb_suggest("migrat", cmds, 6, out, sizeof out), "did you mean 'migrate'?");
    /* "ru" is one edit from run, two from runs: the nearest only */
    ASSERT_STR_EQ(vb_suggest("ru", cmds, 6, out, sizeof out), "did you mean 'run'?");
    ASSERT_STR_EQ(vb_suggest("frobnicate", cmds, 6, out, sizeof out), "");
    ASSERT_STR_EQ(vb_suggest("run", cmds, 6, out, sizeof out), "did you mean 'runs'?");
    /* contained: size is in model_size; a repeated candidate is named once */
    ASSERT_STR_EQ(vb_suggest("size", axes, 6, out, sizeof out), "did you mean 'model_size'?");
    ASSERT_STR_EQ(vb_suggest("x", axes, 6, out, sizeof out), "did you mean one of 'nx', 'n'?");
    ASSERT_STR_EQ(vb_suggest(NULL, axes, 6, out, sizeof out), "");
    return 0;
}
