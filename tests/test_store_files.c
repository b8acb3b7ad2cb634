/* Store tests of a database file: persistence, the refusals that must leave a foreign, corrupt
 * or newer file byte-for-byte untouched, and the list of runs with the one "newest" rule
 * (varbench runs: its tallies by status, a variant wrong on purpose counted apart). The round
 * trip and a case's columns are in test_store.c. */
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include "fixtures.h"
#include "result.h"
#include "runner.h"
#include "store.h"
#include "test.h"
#include "tests.h"

static long file_bytes(const char *path, unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (!f) return -1;
    n = (long)fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

int test_store_persists(const char *arg)
{
    struct vb_store *st;
    struct vb_err err;
    struct vb_run_info info = {"suite", "varbench run", NULL, "x", "0.1.0", ""};
    int64_t a, b, cnt;
    char path[512], status[32];
    fx_tmp_path(path, sizeof path, "persist.db");
    ASSERT_OK(vb_store_open(path, &st, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &a, &err));
    vb_store_close(st); /* never ended: must read as 'running', not complete */
    ASSERT_OK(vb_store_open(path, &st, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &b, &err));
    ASSERT(b > a);
    ASSERT_OK(vb_store_count(st, "runs", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 2);
    ASSERT_OK(vb_store_run_status(st, a, status, sizeof status, &err));
    ASSERT_STR_EQ(status, "running");
    vb_store_close(st);
    unlink(path);
    return 0;
}

/* refused opens path, expects a VB_E_DB refusal containing `what`, and the file unchanged. */
static int refused(const char *path, const char *what)
{
    static unsigned char before[1 << 16], after[1 << 16];
    struct vb_store *st = NULL;
    struct vb_err err;
    long nb = file_bytes(path, before, sizeof before), na;
    char journal[600];
    ASSERT(nb >= 0);
    ASSERT_INT_EQ(vb_store_open(path, &st, &err), -1);
    ASSERT(st == NULL);
    ASSERT_INT_EQ(err.code, VB_E_DB);
    ASSERT_CONTAINS(err.msg, what);
    ASSERT(err.hint[0]);
    na = file_bytes(path, after, sizeof after);
    ASSERT_INT_EQ(na, nb);
    ASSERT(memcmp(before, after, (size_t)nb) == 0);
    snprintf(journal, sizeof journal, "%s-journal", path);
    ASSERT(access(journal, F_OK) != 0);
    return 0;
}

/* made_refused makes file name of SQL sql and holds the store to refusing it, saying what */
static int made_refused(const char *name, const char *sql, const char *what)
{
    char path[512];
    sqlite3 *db;
    fx_tmp_path(path, sizeof path, name);
    ASSERT_INT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    ASSERT_INT_EQ(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    if (refused(path, what)) return 1;
    unlink(path);
    return 0;
}

int test_store_refuses_foreign(const char *arg)
{
    return made_refused("foreign.db", "CREATE TABLE notes(x); INSERT INTO notes VALUES (1);",
                        "not a varbench database");
}

int test_store_refuses_newer(const char *arg)
{
    return made_refused("newer.db", "CREATE TABLE runs(x); PRAGMA user_version = 99;", "newer");
}

int test_store_refuses_corrupt(const char *arg)
{
    char path[512];
    unsigned char junk[8192];
    FILE *f;
    size_t i;
    fx_tmp_path(path, sizeof path, "corrupt.db");
    for (i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i * 2654435761u >> 13);
    f = fopen(path, "wb");
    ASSERT(f);
    ASSERT_INT_EQ(fwrite(junk, 1, sizeof junk, f), sizeof junk);
    fclose(f);
    if (refused(path, "not a database")) return 1;
    unlink(path);
    return 0;
}

int test_store_refuses_unopenable(const char *arg)
{
    struct vb_store *st = NULL;
    struct vb_err err;
    ASSERT_INT_EQ(vb_store_open("/nonexistent-dir/sub/x.db", &st, &err), -1);
    ASSERT_INT_EQ(err.code, VB_E_DB);
    ASSERT(err.hint[0]);
    ASSERT_INT_EQ(vb_store_open("/tmp", &st, &err), -1); /* a folder, not a file */
    ASSERT_CONTAINS(err.msg, "not a regular file");
    return 0;
}

/* A one-variant CPU family whose variant is wrong on purpose (VB_EXPECT_WRONG): the runner's
 * reason for it is what vb_store_run_list counts as wrong on purpose. */
static size_t purpose_len(const struct vb_point *p)
{
    return 4;
}
static int purpose_ref(const struct vb_point *p, double *out, struct vb_err *err)
{
    int i;
    for (i = 0; i < 4; i++)
        out[i] = i;
    return 0;
}
static int purpose_setup(int tag, const struct vb_point *p, void **state, struct vb_err *err)
{
    if (!(*state = calloc(4, sizeof(double)))) return vb_err_set(err, VB_E_SYS, "out of memory");
    return 0;
}
static int purpose_run(void *state, struct vb_err *err)
{
    double *out = state;
    int i;
    for (i = 0; i < 4; i++)
        out[i] = i + 1; /* every element off by one */
    return 0;
}
static int purpose_poison(void *state, struct vb_err *err)
{
    double *out = state;
    int i;
    for (i = 0; i < 4; i++)
        out[i] = NAN;
    return 0;
}
static void purpose_fetch(void *state, double *out)
{
    memcpy(out, state, 4 * sizeof(double));
}
static const struct vb_axis purpose_axes[] = {
    {.name = "n", .doc = "elements", .defaults = {4}, .ndefaults = 1, .min = 4, .max = 4}};
static const struct vb_problem purpose_fn = {.name = "purpose",
                                             .summary = "four numbers",
                                             .axes = purpose_axes,
                                             .naxes = 1,
                                             .out_len = purpose_len,
                                             .reference = purpose_ref,
                                             .atol = 0,
                                             .rtol = 1e-12};
static const struct vb_variant_ops purpose_ops = {
    .setup = purpose_setup, .poison = purpose_poison, .fetch = purpose_fetch, .teardown = free};
static const struct vb_variant purpose_variants[] = {
    {.name = "off-by-one",
     .summary = "wrong on purpose",
     .flags = VB_EXPECT_WRONG,
     .run = purpose_run,
     .problem = &purpose_fn},
};
static const struct vb_family purpose_family = {.name = "purpose",
                                                .summary = "a variant wrong on purpose",
                                                .seed = "none",
                                                .ops = &purpose_ops,
                                                .variants = purpose_variants,
                                                .nvariants = 1};

/* set_start rewrites run id's start time in the file at path (what a merge of runs taken
 * elsewhere, or a clock, can make of the ids' order). */
static int set_start(const char *path, int64_t id, const char *start)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    int rc;
    ASSERT_INT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    ASSERT_INT_EQ(
        sqlite3_prepare_v2(db, "UPDATE runs SET start_utc = ? WHERE id = ?", -1, &st, NULL),
        SQLITE_OK);
    ASSERT_INT_EQ(sqlite3_bind_text(st, 1, start, -1, SQLITE_STATIC), SQLITE_OK);
    ASSERT_INT_EQ(sqlite3_bind_int64(st, 2, id), SQLITE_OK);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    sqlite3_close(db);
    ASSERT_INT_EQ(rc, SQLITE_DONE);
    return 0;
}

/* vb_store_run_list: one row per run, newest first by start time (ties: the larger id), with
 * each run's cases counted by status; a wrong-result case of a variant wrong on purpose, as
 * the runner stores it, counts as on purpose and not as wrong. The newest-run readers agree. */
int test_store_run_list(const char *arg)
{
    static const struct fx_case a[] = {{"host-mesh", 100, 5, 1.0, "ok"},
                                       {"host-mesh", 200, 5, 2.0, "ok"},
                                       {"host-mesh", 300, 5, 3.0, "wrong-result"},
                                       {"host-mesh", 400, 5, 4.0, "failed"},
                                       {"host-mesh", 500, 5, 5.0, "skipped"}};
    static const struct fx_case b[] = {{"host-mesh", 100, 5, 1.0, "ok"}};
    struct vb_run_info trace = {"trace", "varbench trace -- ./prog", "/tmp", NULL, "0", ""};
    struct vb_store *st;
    struct vb_err err;
    struct vb_run_list_row *rows;
    struct vb_case_result r;
    struct vb_sampling cfg;
    struct vb_point p = {{4}};
    double ref[4];
    int64_t ra, rb, rt, latest;
    int n;
    char path[512];
    fx_tmp_path(path, sizeof path, "run-list.db");
    ASSERT_OK(vb_store_open(path, &st, &err));
    ASSERT_OK(vb_store_run_list(st, &rows, &n, &err));
    ASSERT_INT_EQ(n, 0);
    vb_store_run_list_free(rows);
    ASSERT_OK(fx_write_run(st, "NVIDIA H100 80GB HBM3", a, 5, &ra, &err));
    /* run b: one ok case and the on-purpose variant's case as the runner leaves it */
    ASSERT_OK(fx_write_run(st, "NVIDIA H200", b, 1, &rb, &err));
    purpose_ref(&p, ref, &err);
    vb_sampling_quick(&cfg);
    vb_runner_case(&purpose_family, &purpose_variants[0], &p, -1, NULL, ref, NULL, &cfg, &r);
    ASSERT_STR_EQ(vb_status_name(r.status), "wrong-result");
    ASSERT_OK(vb_store_case(st, rb, &r, NULL, &err));
    vb_case_result_free(&r);
    ASSERT_OK(vb_store_run_begin(st, &trace, &rt, &err)); /* still running, no GPU, no case */
    vb_store_close(st);

    ASSERT_OK(set_start(path, ra, "2030-01-01T00:00:02.000Z")); /* a: newest, though oldest id */
    ASSERT_OK(set_start(path, rb, "2030-01-01T00:00:01.000Z"));
    ASSERT_OK(set_start(path, rt, "2030-01-01T00:00:01.000Z")); /* b's time: the larger id wins */
    ASSERT_OK(vb_store_open_ro(path, &st, &err));
    ASSERT_OK(vb_store_run_list(st, &rows, &n, &err));
    ASSERT_INT_EQ(n, 3);
    ASSERT_INT_EQ(rows[0].id, ra);
    ASSERT_INT_EQ(rows[1].id, rt);
    ASSERT_INT_EQ(rows[2].id, rb);
    ASSERT_STR_EQ(rows[0].kind, "suite");
    ASSERT_STR_EQ(rows[0].status, "complete");
    ASSERT_STR_EQ(rows[0].start_utc, "2030-01-01T00:00:02.000Z");
    ASSERT_STR_EQ(rows[0].gpu, "NVIDIA H100 80GB HBM3");
    ASSERT_STR_EQ(rows[0].git_commit, "fixture");
    ASSERT_INT_EQ(strlen(rows[0].uuid), 36);
    ASSERT_INT_EQ(rows[0].cases, 5);
    ASSERT_INT_EQ(rows[0].ok, 2);
    ASSERT_INT_EQ(rows[0].wrong, 1);
    ASSERT_INT_EQ(rows[0].on_purpose, 0);
    ASSERT_INT_EQ(rows[0].failed, 1);
    ASSERT_INT_EQ(rows[0].skipped, 1);
    ASSERT_INT_EQ(rows[0].interrupted, 0);
    ASSERT_STR_EQ(rows[1].kind, "trace");
    ASSERT_STR_EQ(rows[1].status, "running");
    ASSERT_STR_EQ(rows[1].gpu, "");
    ASSERT_STR_EQ(rows[1].git_commit, "");
    ASSERT_INT_EQ(rows[1].cases, 0);
    ASSERT_INT_EQ(rows[1].ok + rows[1].wrong + rows[1].failed + rows[1].skipped, 0);
    ASSERT_STR_EQ(rows[2].gpu, "NVIDIA H200");
    ASSERT_INT_EQ(rows[2].cases, 2);
    ASSERT_INT_EQ(rows[2].ok, 1);
    ASSERT_INT_EQ(rows[2].wrong, 0);
    ASSERT_INT_EQ(rows[2].on_purpose, 1);
    ASSERT(strcmp(rows[0].uuid, rows[2].uuid) != 0);
    vb_store_run_list_free(rows);
    /* the one rule: the newest complete suite run, and the newest trace run */
    ASSERT_OK(vb_store_latest_run(st, &latest, &err));
    ASSERT_INT_EQ(latest, ra);
    ASSERT_OK(vb_store_latest_trace(st, &latest, &err));
    ASSERT_INT_EQ(latest, rt);
    vb_store_close(st);
    ASSERT_OK(set_start(path, ra, "2030-01-01T00:00:01.000Z")); /* a tie of a and b: b */
    ASSERT_OK(vb_store_open_ro(path, &st, &err));
    ASSERT_OK(vb_store_latest_run(st, &latest, &err));
    ASSERT_INT_EQ(latest, rb);
    ASSERT_OK(vb_store_run_list(st, &rows, &n, &err));
    ASSERT_INT_EQ(rows[0].id, rt);
    ASSERT_INT_EQ(rows[1].id, rb);
    ASSERT_INT_EQ(rows[2].id, ra);
    vb_store_run_list_free(rows);
    vb_store_close(st);
    unlink(path);
    return 0;
}
