/*
 * test_hostile: what readers do with a database that holds what varbench never writes (a merged,
 * shared or hand-edited file): names with ESC sequences or newlines shown escaped, never sent
 * to a terminal or splitting a line (escape.h's terminal escaper, ptable's tables), and stored
 * medians that are no time (+Inf, text, a blob, negative) left out of a history as missing with
 * a warning, never an error. tests/hostile.sh runs the same cases through the command line.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "changepoint.h"
#include "escape.h"
#include "fixtures.h"
#include "ptable.h"
#include "store.h"
#include "test.h"
#include "tests.h"

/* slurp returns what f holds (rewound), NUL-terminated, in buf (n bytes). */
static const char *slurp(FILE *f, char *buf, size_t n)
{
    size_t got;
    rewind(f);
    got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    return buf;
}

int test_term_escape(const char *arg)
{
    /* ordinary names, UTF-8 and backslashes print byte for byte */
    static const char *const plain[] = {"mesh/device-mesh",
                                        "nx=1000,ny=1000",
                                        "saxpy(int, float*)",
                                        "caf\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x9a\x80",
                                        "a\\b",
                                        ""};
    char buf[256], small[8];
    size_t i;
    FILE *f;
    (void)arg;
    for (i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        ASSERT_STR_EQ(vb_term_str(plain[i], buf, sizeof buf), plain[i]);
        ASSERT_INT_EQ(vb_term_len(plain[i]), strlen(plain[i]));
    }
    /* C0 controls, DEL, C1 in UTF-8 and as a lone byte: shown */
    ASSERT_STR_EQ(vb_term_str("a\x1b]0;t\x07\x1b[31mb", buf, sizeof buf),
                  "a\\x1b]0;t\\x07\\x1b[31mb");
    ASSERT_STR_EQ(vb_term_str("1\n2\t3\r4\x7f", buf, sizeof buf), "1\\n2\\t3\\r4\\x7f");
    ASSERT_STR_EQ(vb_term_str("x\xc2\x9b"
                              "31my",
                              buf, sizeof buf),
                  "x\\xc2\\x9b31my");
    ASSERT_STR_EQ(vb_term_str("x\x9b"
                              "1m",
                              buf, sizeof buf),
                  "x\\x9b1m");
    ASSERT_STR_EQ(vb_term_str("Latin-1 \xe9t\xe9", buf, sizeof buf), "Latin-1 \xe9t\xe9");
    ASSERT_INT_EQ(vb_term_len("\x1b[0m"), 7);
    /* a cut never splits an escape or a character */
    ASSERT_STR_EQ(vb_term_str("ab\x1b", small, sizeof small), "ab\\x1b");
    ASSERT_STR_EQ(vb_term_str("abcd\x1b", small, sizeof small), "abcd");
    ASSERT_STR_EQ(vb_term_str("abcd\xc3\xa9", small, sizeof small), "abcd\xc3\xa9");
    ASSERT_STR_EQ(vb_term_str("abcdef\xc3\xa9", small, sizeof small), "abcdef");
    /* the other sinks: CSV one line, quotes doubled; Markdown and XML show controls */
    ASSERT((f = tmpfile()) != NULL);
    vb_put_term_csv(f, "a \"b\"\nc");
    fputc('|', f);
    vb_put_md(f, "x\x1b[31m|y\nz");
    fputc('|', f);
    vb_put_xml(f, "<\x1b\t>");
    ASSERT_STR_EQ(slurp(f, buf, sizeof buf),
                  "\"a \"\"b\"\"\\nc\"|x\\x1b\\[31m\\|y z|&lt;\\x1b\t&gt;");
    rewind(f);
    vb_put_term(f, NULL);
    vb_put_term(f, "ok");
    ASSERT_STR_EQ(slurp(f, buf, 3), "ok");
    fclose(f);
    return 0;
}

int test_ptable_escape(const char *arg)
{
    static const char *const head[] = {"Time", "Name"};
    const char *rows[2][2] = {{"1us", "vb_sax\npy\x1b[31m"}, {"22us", "plain"}};
    struct vb_ptable t;
    char buf[512];
    FILE *f;
    int pass, i;
    (void)arg;
    ASSERT((f = tmpfile()) != NULL);
    /* aligned: the Name column is as wide as its widest name shown, each row one line */
    vb_ptable_init(&t, f, 0, 2, 1u << 1, 0);
    for (pass = 0; pass < 2; pass++) {
        if (pass) vb_ptable_print(&t);
        vb_ptable_header(&t, head);
        for (i = 0; i < 2; i++)
            vb_ptable_row(&t, rows[i]);
    }
    ASSERT_STR_EQ(slurp(f, buf, sizeof buf), "Time  Name\n"
                                             " 1us  vb_sax\\npy\\x1b[31m\n"
                                             "22us  plain\n");
    fclose(f);
    ASSERT((f = tmpfile()) != NULL);
    vb_ptable_init(&t, f, 1, 2, 0, 1u << 1);
    vb_ptable_header(&t, head);
    for (i = 0; i < 2; i++)
        vb_ptable_row(&t, rows[i]);
    ASSERT_STR_EQ(slurp(f, buf, sizeof buf), "\"Time\",\"Name\"\n"
                                             "1us,\"vb_sax\\npy\\x1b[31m\"\n"
                                             "22us,\"plain\"\n");
    fclose(f);
    return 0;
}

int test_changepoint_codes(const char *arg)
{
    double x[6] = {1, 1.01, 0.99, 1, 1.02, 0.98};
    int cp[6];
    (void)arg;
    ASSERT_INT_EQ(vb_changepoints(x, 6, NULL, cp, 6), 0);
    x[2] = INFINITY;
    ASSERT_INT_EQ(vb_changepoints(x, 6, NULL, cp, 6), VB_CP_EVALUE);
    /* a short series is checked too: a bad value is never "no change" */
    ASSERT_INT_EQ(vb_changepoints(x, 3, NULL, cp, 6), VB_CP_EVALUE);
    x[2] = -1;
    ASSERT_INT_EQ(vb_changepoints(x, 6, NULL, cp, 6), VB_CP_EVALUE);
    ASSERT(VB_CP_EVALUE != VB_CP_ENOMEM && VB_CP_ENOMEM < 0);
    return 0;
}

/* poke runs sql on the database at path. */
static int poke(const char *path, const char *sql)
{
    sqlite3 *db;
    char *msg = NULL;
    int rc;
    if (sqlite3_open(path, &db) != SQLITE_OK) return -1;
    rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
    if (rc != SQLITE_OK) fprintf(stderr, "poke: %s\n", msg ? msg : "?");
    sqlite3_free(msg);
    sqlite3_close(db);
    return rc == SQLITE_OK ? 0 : -1;
}

int test_history_not_time(const char *arg)
{
    /* history.db (test_history.c): device-mesh-pinned on the H200 in runs 1-10; its runs 2, 4 and
     * 6 get a median that is no time, run 8 a negative one */
    static const char sql[] =
        "UPDATE cases SET gpu_median_ns = CASE run_id WHEN 2 THEN 9e999 WHEN 4 THEN 'fast' "
        "WHEN 6 THEN x'00ff' ELSE -5 END WHERE run_id IN (2, 4, 6, 8) AND variant_id = "
        "(SELECT id FROM variants WHERE name = 'device-mesh-pinned')";
    struct vb_history *h;
    struct vb_store *s;
    struct vb_err err;
    char dir[1024], path[1100];
    int n, i, found = 0;
    (void)arg;
    fx_tmp_path(dir, sizeof dir, "vb-hostile-history");
    ASSERT(mkdir(dir, 0700) == 0);
    ASSERT_INT_EQ(test_make_history_fixture(dir), 0);
    snprintf(path, sizeof path, "%s/history.db", dir);
    ASSERT_OK(poke(path, sql));
    ASSERT_OK(vb_store_open_ro(path, &s, &err));
    vb_err_clear(&err);
    ASSERT_OK(vb_store_history(s, NULL, "gpu", &h, &n, &err));
    /* a warning, not an error: the first case, run and column, and the count of the others */
    ASSERT_INT_EQ(err.code, VB_E_OK);
    ASSERT_CONTAINS(err.msg, "case 'mesh/device-mesh-pinned' nx=1000,ny=1000 of run 2: its "
                             "gpu_median_ns is +Inf, not a time: left out as missing (and 3 more");
    for (i = 0; i < n; i++) {
        int k;
        if (strcmp(h[i].variant, "mesh/device-mesh-pinned") || strcmp(h[i].gpu, "NVIDIA H200"))
            continue;
        found = 1;
        ASSERT_INT_EQ(h[i].n, 6); /* runs 1, 3, 5, 7, 9, 10 */
        for (k = 0; k < h[i].n; k++)
            ASSERT(isfinite(h[i].pts[k].value_ns) && h[i].pts[k].value_ns > 0);
    }
    ASSERT(found);
    vb_store_history_free(h, n);
    /* the other metrics' reads of the same file have nothing to say */
    vb_err_clear(&err);
    ASSERT_OK(vb_store_history(s, NULL, "e2e", &h, &n, &err));
    ASSERT_STR_EQ(err.msg, "");
    vb_store_history_free(h, n);
    vb_store_close(s);
    unlink(path);
    rmdir(dir);
    return 0;
}
