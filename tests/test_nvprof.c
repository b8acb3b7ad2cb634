/* nvprof print-mode tests (no GPU): the log file patterns (logpath.h), the two shapes of a
 * printed table (ptable.h) and the names of the kinds of memory. The print modes over a
 * database are tested by cli.sh (summary-gputrace, summary-csv, summary-logfile). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "fixtures.h"
#include "logpath.h"
#include "nvprof_print.h"
#include "ptable.h"
#include "test.h"
#include "tests.h"

/* path_fails expands pattern expecting failure with code and a message holding msg. */
static int path_fails(const char *pattern, size_t n, enum vb_code code, const char *msg)
{
    char out[256] = "untouched";
    struct vb_err err;
    vb_err_clear(&err);
    ASSERT(n <= sizeof out);
    ASSERT_INT_EQ(vb_log_path(pattern, 42, out, n, &err), -1);
    ASSERT_INT_EQ(err.code, code);
    ASSERT_CONTAINS(err.msg, msg);
    ASSERT_STR_EQ(out, "");
    return 0;
}

int test_log_path(const char *arg)
{
    char out[256], host[256], want[600];
    struct vb_err err;
    FILE *f;
    (void)arg;
    vb_err_clear(&err);
    ASSERT_OK(vb_log_path("prof-%p.log", 1234, out, sizeof out, &err));
    ASSERT_STR_EQ(out, "prof-1234.log");
    ASSERT_OK(vb_log_path("%p%p", 7, out, sizeof out, &err));
    ASSERT_STR_EQ(out, "77");
    ASSERT_OK(setenv("VB_TEST_LOGDIR", "/tmp/logs", 1) == 0 ? 0 : -1);
    ASSERT_OK(vb_log_path("%q{VB_TEST_LOGDIR}/run.%p", 9, out, sizeof out, &err));
    ASSERT_STR_EQ(out, "/tmp/logs/run.9");
    ASSERT_OK(vb_log_path("100%%-%%p", 9, out, sizeof out, &err));
    ASSERT_STR_EQ(out, "100%-%p");
    ASSERT(gethostname(host, sizeof host) == 0);
    host[sizeof host - 1] = '\0';
    snprintf(want, sizeof want, "on-%s.csv", host);
    ASSERT_OK(vb_log_path("on-%h.csv", 9, out, sizeof out, &err));
    ASSERT_STR_EQ(out, want);
    /* exactly the room it needs: 8 characters and the terminator */
    ASSERT_OK(vb_log_path("abcdefgh", 1, out, 9, &err));
    ASSERT_STR_EQ(out, "abcdefgh");
    ASSERT_OK(unsetenv("VB_TEST_UNSET_VAR") == 0 ? 0 : -1);
    if (path_fails("x-%q{VB_TEST_UNSET_VAR}", sizeof out, VB_E_USAGE,
                   "environment variable 'VB_TEST_UNSET_VAR' is not set") ||
        path_fails("x-%q", sizeof out, VB_E_USAGE, "%q needs a variable") ||
        path_fails("x-%q{}", sizeof out, VB_E_USAGE, "%q needs a variable") ||
        path_fails("x-%q{HOME", sizeof out, VB_E_USAGE, "%q needs a variable") ||
        path_fails("x-%t", sizeof out, VB_E_USAGE, "unknown '%t'") ||
        path_fails("x-%", sizeof out, VB_E_USAGE, "ends with a lone '%'") ||
        path_fails("", sizeof out, VB_E_USAGE, "names no file") ||
        path_fails("abcdefghi", 9, VB_E_USAGE, "too long") ||
        path_fails("abc-%p", 6, VB_E_USAGE, "too long"))
        return 1;
    /* the file: created, and a folder that does not exist is a system error naming the path */
    ASSERT(!(f = vb_log_open("/nonexistent-vb/%p.log", 5, out, sizeof out, &err)));
    ASSERT_INT_EQ(err.code, VB_E_SYS);
    ASSERT_CONTAINS(err.msg, "cannot write '/nonexistent-vb/5.log'");
    ASSERT(!(f = vb_log_open("%q{VB_TEST_UNSET_VAR}", 5, out, sizeof out, &err)));
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    return 0;
}

/* table_text prints a small table (a name with a comma and a quote) in the shape asked and
 * returns what was printed, in buf. */
static const char *table_text(int csv, char *buf, size_t n)
{
    static const char *const head[] = {"Start", "Size", "Name"};
    static const char *const units[] = {"ms", "B", ""};
    static const char *const rows[2][3] = {{"1.0000us", "4000000", "f(int, float)"},
                                           {"12.500us", "8", "say \"hi\""}};
    struct vb_ptable t;
    FILE *f = tmpfile();
    int pass, r;
    if (!f) return "";
    vb_ptable_init(&t, f, csv, 3, 1u << 2, 1u << 2);
    for (pass = csv; pass < 2; pass++) {
        if (pass == 1 && !csv) vb_ptable_print(&t);
        vb_ptable_header(&t, head);
        if (pass == 1) vb_ptable_units(&t, units);
        for (r = 0; r < 2; r++)
            vb_ptable_row(&t, rows[r]);
    }
    return fx_read_back(f, buf, n);
}

int test_ptable(const char *arg)
{
    char buf[1024];
    (void)arg;
    /* aligned: right-aligned to the widest cell, the last column left and unpadded */
    ASSERT_STR_EQ(table_text(0, buf, sizeof buf), "   Start     Size  Name\n"
                                                  "1.0000us  4000000  f(int, float)\n"
                                                  "12.500us        8  say \"hi\"\n");
    ASSERT_STR_EQ(table_text(1, buf, sizeof buf), "\"Start\",\"Size\",\"Name\"\n"
                                                  "ms,B,\n"
                                                  "1.0000us,4000000,\"f(int, float)\"\n"
                                                  "12.500us,8,\"say \"\"hi\"\"\"\n");
    ASSERT_STR_EQ(vb_nvprof_mem_kind(1), "Pageable");
    ASSERT_STR_EQ(vb_nvprof_mem_kind(2), "Pinned");
    ASSERT_STR_EQ(vb_nvprof_mem_kind(3), "Device");
    ASSERT_STR_EQ(vb_nvprof_mem_kind(6), "Device Static");
    ASSERT_STR_EQ(vb_nvprof_mem_kind(7), "Managed Static");
    ASSERT_STR_EQ(vb_nvprof_mem_kind(0), "Unknown");
    ASSERT_STR_EQ(vb_nvprof_mem_kind(99), "Unknown");
    ASSERT_STR_EQ(vb_nvprof_mem_kind(-1), "-");
    return 0;
}
