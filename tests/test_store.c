/* Store tests: a full round trip on :memory:, persistence in a file, the refusals that must
 * leave a foreign, corrupt or newer file byte-for-byte untouched, the list of runs with the
 * one "newest" rule, and the schema's declarations of string-id columns that merge maps by. */
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include "ceilings.h"
#include "env.h"
#include "fixtures.h"
#include "result.h"
#include "runner.h"
#include "store.h"
#include "test.h"
#include "tests.h"

/* fake_case builds a GPU case of 3 samples (verify, warm-up, timed) with records in each and
 * one memset outside every sample. */
static void fake_case(struct vb_case_result *r, struct vb_sample *s, struct vb_copy_rec *c,
                      struct vb_kernel_rec *k, struct vb_memset_rec *m, struct vb_range_rec *n)
{
    int i;
    const struct vb_family *f = fx_family("mesh");
    memset(r, 0, sizeof *r);
    r->family = f;
    r->variant = &f->variants[1];
    r->point.v[0] = r->point.v[1] = 1000;
    snprintf(r->axes, sizeof r->axes, "nx=1000,ny=1000");
    r->device = 0;
    r->status = VB_STATUS_OK;
    r->max_abs_err = 1e-19;
    r->max_rel_err = 1e-15;
    r->stop_reason = "converged";
    r->have_records = 1;
    r->samples = s;
    r->nsamples = 3;
    r->ntimed = 1;
    for (i = 0; i < 3; i++) {
        memset(&s[i], 0, sizeof s[i]);
        s[i].kind = i == 0 ? VB_SAMPLE_VERIFY : i == 1 ? VB_SAMPLE_WARMUP : VB_SAMPLE_TIMED;
        s[i].start = 1000 * (uint64_t)(i + 1);
        s[i].end = s[i].start + 500;
        s[i].e2e_ns = 500;
        s[i].h2d_bytes = 32000000;
        s[i].h2d_count = 1;
        memset(&c[i], 0, sizeof c[i]);
        c[i].start = s[i].start + 10;
        c[i].end = s[i].start + 20;
        c[i].bytes = 32000000;
        c[i].copy_kind = 1;
        memset(&k[i], 0, sizeof k[i]);
        k[i].start = s[i].start + 30;
        k[i].end = s[i].start + 40;
        k[i].name = "_Z21mesh_host_mesh_kernelPKdS0_S0_S0_Pdm";
        n[i].start = s[i].start + 1;
        n[i].end = s[i].start + 2;
        n[i].id = (uint32_t)i;
        n[i].text = "H2D";
    }
    memset(m, 0, sizeof *m);
    m->start = 50; /* before every sample: poisoning */
    m->end = 60;
    m->bytes = 8000000;
    r->activity.copies = c;
    r->activity.ncopies = 3;
    r->activity.kernels = k;
    r->activity.nkernels = 3;
    r->activity.memsets = m;
    r->activity.nmemsets = 1;
    r->activity.ranges = n;
    r->activity.nranges = 3;
    r->e2e_ms.median = r->e2e_ms.min = r->e2e_ms.max = r->e2e_ms.mean = 0.0005;
    r->e2e_ms.stdev = r->e2e_ms.noise = NAN;
    r->kernel_ms = r->h2d_ms = r->d2h_ms = r->e2e_ms;
    r->h2d_bytes = 32000000;
    r->h2d_count = 1;
}

int test_store_roundtrip(const char *arg)
{
    struct vb_store *st;
    struct vb_err err;
    struct vb_run_info info = {"suite",  "varbench run --quick", "/tmp", "abc123", "0.1.0",
                               "quick=1"};
    struct vb_host_env host = {"h", "Debian", "Linux", "cpu", 2, 1 << 30};
    struct vb_gpu_env gpu;
    struct vb_ceiling ceil[VB_CEIL_COUNT];
    struct vb_case_result r;
    struct vb_sample s[3];
    struct vb_copy_rec c[3];
    struct vb_kernel_rec k[3];
    struct vb_memset_rec m;
    struct vb_range_rec n[3];
    struct vb_case_row *rows;
    int64_t run_id, case_id, cnt;
    int nrows, i;
    char status[32];
    memset(&gpu, 0, sizeof gpu);
    snprintf(gpu.name, sizeof gpu.name, "NVIDIA H200");
    memset(ceil, 0, sizeof ceil);
    for (i = 0; i < VB_CEIL_COUNT; i++)
        ceil[i].name = vb_ceiling_name((enum vb_ceiling_id)i);
    ASSERT_OK(vb_store_open(":memory:", &st, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &run_id, &err));
    ASSERT_OK(vb_store_run_status(st, run_id, status, sizeof status, &err));
    ASSERT_STR_EQ(status, "running");
    ASSERT_OK(vb_store_host(st, run_id, &host, &err));
    ASSERT_OK(vb_store_gpu(st, run_id, &gpu, &err));
    ASSERT_OK(vb_store_ceilings(st, run_id, 0, ceil, &err));
    fake_case(&r, s, c, k, &m, n);
    ASSERT_OK(vb_store_case(st, run_id, &r, &case_id, &err));
    ASSERT_OK(vb_store_case(st, run_id, &r, NULL, &err)); /* names stored once */
    ASSERT_OK(vb_store_run_end(st, run_id, "complete", 0, "2 cases", &err));
    ASSERT_OK(vb_store_run_status(st, run_id, status, sizeof status, &err));
    ASSERT_STR_EQ(status, "complete");
    ASSERT_OK(vb_store_cases(st, run_id, &rows, &nrows, &err));
    ASSERT_INT_EQ(nrows, 2);
    ASSERT_STR_EQ(rows[0].variant, "mesh/host-mesh");
    ASSERT_STR_EQ(rows[0].axes, "nx=1000,ny=1000");
    ASSERT_STR_EQ(rows[0].status, "ok");
    ASSERT_INT_EQ(rows[0].samples, 1);
    ASSERT_INT_EQ(rows[0].h2d_bytes, 32000000);
    ASSERT_NEAR(rows[0].e2e_median_ns, 500, 1e-9);
    ASSERT_NEAR(rows[0].max_abs_err, 1e-19, 1e-30);
    free(rows);
    ASSERT_OK(vb_store_count(st, "samples", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "CUPTI_ACTIVITY_KIND_MEMCPY", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "CUPTI_ACTIVITY_KIND_KERNEL", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "CUPTI_ACTIVITY_KIND_MEMSET", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 1);
    ASSERT_OK(vb_store_count(st, "NVTX_EVENTS", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "case_axes", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 2);
    ASSERT_OK(vb_store_count(st, "variants", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 1);
    ASSERT_OK(vb_store_count(st, "StringIds", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3); /* short and mangled kernel name and the NVTX text, once each */
    ASSERT_OK(vb_store_count(st, "ceilings", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, VB_CEIL_COUNT);
    ASSERT_INT_EQ(vb_store_count(st, "sqlite_master; DROP TABLE runs", 0, &cnt, &err), -1);
    vb_store_close(st);
    return 0;
}

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

int test_store_refuses_foreign(const char *arg)
{
    char path[512];
    sqlite3 *db;
    fx_tmp_path(path, sizeof path, "foreign.db");
    ASSERT_INT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    ASSERT_INT_EQ(
        sqlite3_exec(db, "CREATE TABLE notes(x); INSERT INTO notes VALUES (1);", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    if (refused(path, "not a varbench database")) return 1;
    unlink(path);
    return 0;
}

int test_store_refuses_newer(const char *arg)
{
    char path[512];
    sqlite3 *db;
    fx_tmp_path(path, sizeof path, "newer.db");
    ASSERT_INT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    ASSERT_INT_EQ(
        sqlite3_exec(db, "CREATE TABLE runs(x); PRAGMA user_version = 99;", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(db);
    if (refused(path, "newer")) return 1;
    unlink(path);
    return 0;
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

/* A case that fails to store (rolled back) leaves the store usable: the next case and its
 * records are written (the string-id cache is emptied, not freed twice). */
int test_store_after_rollback(const char *arg)
{
    struct vb_store *st;
    struct vb_err err;
    struct vb_run_info info = {"suite", "test", NULL, "x", "0", ""};
    struct vb_case_result r;
    struct vb_sample s[3];
    struct vb_copy_rec c[3];
    struct vb_kernel_rec k[3];
    struct vb_memset_rec m;
    struct vb_range_rec n[3];
    int64_t run_id, case_id, cnt;
    ASSERT_OK(vb_store_open(":memory:", &st, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &run_id, &err));
    fake_case(&r, s, c, k, &m, n);
    ASSERT_OK(vb_store_case(st, run_id, &r, NULL, &err));
    r.status = VB_STATUS_COUNT; /* not a status the schema accepts: the insert fails */
    ASSERT_INT_EQ(vb_store_case(st, run_id, &r, NULL, &err), -1);
    ASSERT_CONTAINS(err.msg, "CHECK");
    r.status = VB_STATUS_OK;
    ASSERT_OK(vb_store_case(st, run_id, &r, &case_id, &err));
    ASSERT_OK(vb_store_case(st, run_id, &r, NULL, &err));
    ASSERT_OK(vb_store_count(st, "cases", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "NVTX_EVENTS", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "StringIds", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    vb_store_close(st);
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

/* StringIds ids of the string-columns test start here: far above every other integer its
 * fixture stores (times, sizes, ids), so a column holding one is a column of string ids. */
#define SHIFTED_IDS 1000000000000LL

/* for_each_column calls fn(db, table, column, ctx) for every column of every table of db,
 * stopping at the first non-zero return. */
static int for_each_column(sqlite3 *db, int (*fn)(sqlite3 *, const char *, const char *, void *),
                           void *ctx)
{
    sqlite3_stmt *st;
    int rc = 0;
    ASSERT_INT_EQ(sqlite3_prepare_v2(db,
                                     "SELECT m.name, c.name FROM sqlite_master m, "
                                     "pragma_table_info(m.name) c WHERE m.type = 'table' "
                                     "ORDER BY m.name, c.cid",
                                     -1, &st, NULL),
                  SQLITE_OK);
    while (!rc && sqlite3_step(st) == SQLITE_ROW)
        rc = fn(db, (const char *)sqlite3_column_text(st, 0),
                (const char *)sqlite3_column_text(st, 1), ctx);
    sqlite3_finalize(st);
    return rc;
}

/* query_int runs q (a SELECT of one integer) with the names a and b as ?1 and ?2; -1 on error. */
static long long query_int(sqlite3 *db, const char *q, const char *a, const char *b)
{
    sqlite3_stmt *st;
    long long v = -1;
    if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) return -1;
    sqlite3_bind_text(st, 1, a, -1, SQLITE_TRANSIENT);
    if (b) sqlite3_bind_text(st, 2, b, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* shifted_values counts the values of table.column in the shifted-id range. */
static long long shifted_values(sqlite3 *db, const char *table, const char *column)
{
    char q[512];
    snprintf(q, sizeof q,
             "SELECT count(*) FROM \"%s\" WHERE typeof(\"%s\") = 'integer' AND "
             "\"%s\" >= %lld AND \"%s\" < %lld",
             table, column, column, SHIFTED_IDS, column, SHIFTED_IDS + 1000);
    return query_int(db, q, "", NULL);
}

/* The source's view: a column holds string ids exactly when the schema declares it REFERENCES
 * StringIds(id), the declaration merge maps by. Counts the declared columns in *ctx. */
static int string_column_declared(sqlite3 *db, const char *table, const char *column, void *ctx)
{
    long long held = shifted_values(db, table, column), declared;
    if (!strcmp(table, "StringIds")) return 0; /* the ids themselves */
    declared = query_int(db,
                         "SELECT count(*) FROM pragma_foreign_key_list(?1) WHERE \"from\" = "
                         "?2 AND \"table\" = 'StringIds'",
                         table, column);
    ASSERT(held >= 0 && declared >= 0);
    if (held && !declared)
        TEST_FAIL_("%s.%s holds StringIds ids but is not declared REFERENCES StringIds(id): merge "
                   "would copy it raw",
                   table, column);
    if (declared && !held)
        TEST_FAIL_("%s.%s references StringIds but the fixture writes none: extend the test's "
                   "case",
                   table, column);
    *(int *)ctx += !!declared;
    return 0;
}

/* The target's view after the merge: no column holds an id of the source's StringIds. */
static int no_source_id(sqlite3 *db, const char *table, const char *column, void *ctx)
{
    long long held = shifted_values(db, table, column);
    ASSERT(held >= 0);
    if (held) TEST_FAIL_("%s.%s was merged with the source's StringIds ids", table, column);
    return 0;
}

/* Every table holds a row in the fixture, so a new table is covered or this test fails. */
static int table_has_rows(sqlite3 *db, const char *table, const char *column, void *ctx)
{
    char q[256];
    snprintf(q, sizeof q, "SELECT count(*) FROM \"%s\"", table);
    if (query_int(db, q, "", NULL) <= 0)
        TEST_FAIL_("table '%s' is empty in the fixture: extend the test's case", table);
    return 0;
}

/* A column that stores StringIds ids must be declared so (REFERENCES StringIds(id)), which is
 * what merge maps: a source whose StringIds ids start at SHIFTED_IDS is written with every
 * kind of record, each column holding such an id is checked against the schema, and after a
 * merge into a fresh file no column holds one, and the names read back are the source's. */
int test_store_string_columns(const char *arg)
{
    struct vb_store *st;
    struct vb_err err;
    struct vb_run_info info = {"suite", "strings", NULL, "x", "0", ""};
    struct vb_host_env host = {"h", "Debian", "Linux", "cpu", 2, 1 << 30};
    struct vb_gpu_env gpu;
    struct vb_ceiling ceil[VB_CEIL_COUNT];
    struct vb_case_result r;
    struct vb_sample s[3];
    struct vb_copy_rec c[3];
    struct vb_kernel_rec k[3];
    struct vb_memset_rec m;
    struct vb_range_rec n[3];
    struct vb_api_rec api = {.start = 1100,
                             .end = 1200,
                             .cbid = 20,
                             .correlation = 7,
                             .process = 1,
                             .thread = 1,
                             .name = "cudaMemcpy_v3020"};
    struct vb_metric_value metric = {
        .kernel = "mesh_host_mesh_kernel", .metric = "gst_efficiency", .value = 100};
    struct vb_summary_row *sum;
    struct vb_metric_row *mrows;
    int64_t run_id, merged;
    int i, added, declared = 0, nsum, nm, seen = 0;
    char src[512], dst[512];
    sqlite3 *db;
    memset(&gpu, 0, sizeof gpu);
    snprintf(gpu.name, sizeof gpu.name, "NVIDIA H200");
    memset(ceil, 0, sizeof ceil);
    for (i = 0; i < VB_CEIL_COUNT; i++)
        ceil[i].name = vb_ceiling_name((enum vb_ceiling_id)i);
    fx_tmp_path(src, sizeof src, "strings-src.db");
    fx_tmp_path(dst, sizeof dst, "strings-dst.db");
    ASSERT_OK(vb_store_open(src, &st, &err));
    vb_store_close(st);
    ASSERT_INT_EQ(sqlite3_open(src, &db), SQLITE_OK);
    ASSERT_INT_EQ(sqlite3_exec(db, "INSERT INTO StringIds VALUES (1000000000000, 'vbtest: shift')",
                               NULL, NULL, NULL),
                  SQLITE_OK);
    sqlite3_close(db);
    ASSERT_OK(vb_store_open(src, &st, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &run_id, &err));
    ASSERT_OK(vb_store_host(st, run_id, &host, &err));
    ASSERT_OK(vb_store_gpu(st, run_id, &gpu, &err));
    ASSERT_OK(vb_store_ceilings(st, run_id, 0, ceil, &err));
    fake_case(&r, s, c, k, &m, n);
    n[1].domain = "vbtest domain"; /* NVTX_EVENTS.domainId */
    n[1].type = VB_NVTX_STARTEND;
    r.activity.apis = &api;
    r.activity.napis = 1;
    r.metrics = &metric;
    r.nmetrics = 1;
    r.metrics_status = VB_METRICS_OK;
    ASSERT_OK(vb_store_case(st, run_id, &r, NULL, &err));
    ASSERT_OK(vb_store_run_end(st, run_id, "complete", 0, "", &err));
    vb_store_close(st);

    ASSERT_INT_EQ(sqlite3_open_v2(src, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    i = for_each_column(db, table_has_rows, NULL) ||
        for_each_column(db, string_column_declared, &declared);
    sqlite3_close(db);
    if (i) return 1;
    ASSERT(declared >= 5); /* shortName, mangledName, textId, kernelId, nameId at least */

    ASSERT_OK(vb_store_open(dst, &st, &err));
    ASSERT_OK(vb_store_merge(st, src, &added, NULL, &err));
    ASSERT_INT_EQ(added, 1);
    ASSERT_OK(vb_store_latest_run(st, &merged, &err));
    ASSERT_OK(vb_store_summary(st, merged, &sum, &nsum, &err));
    for (i = 0; i < nsum; i++) {
        static const char *const names[] = {[VB_SUM_KERNEL] =
                                                "_Z21mesh_host_mesh_kernelPKdS0_S0_S0_Pdm",
                                            [VB_SUM_API] = "cudaMemcpy_v3020",
                                            [VB_SUM_RANGE] = "H2D"};
        if (sum[i].kind != VB_SUM_KERNEL && sum[i].kind != VB_SUM_API &&
            sum[i].kind != VB_SUM_RANGE)
            continue;
        ASSERT_STR_EQ(sum[i].name, names[sum[i].kind]);
        seen |= 1 << sum[i].kind;
    }
    free(sum);
    ASSERT_INT_EQ(seen, 1 << VB_SUM_KERNEL | 1 << VB_SUM_API | 1 << VB_SUM_RANGE);
    ASSERT_OK(vb_store_metric_summary(st, merged, &mrows, &nm, &err));
    ASSERT_INT_EQ(nm, 1);
    ASSERT_STR_EQ(mrows[0].kernel, "mesh_host_mesh_kernel");
    free(mrows);
    vb_store_close(st);
    ASSERT_INT_EQ(sqlite3_open_v2(dst, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    i = for_each_column(db, no_source_id, NULL);
    sqlite3_close(db);
    if (i) return 1;
    unlink(src);
    unlink(dst);
    return 0;
}
