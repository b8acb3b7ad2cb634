/* Store tests: a full round trip on :memory:, a failed case's rollback, a case's columns (every
 * column a distinct value, read back by field and by SQL name: no two swapped), and the schema's
 * declarations of string-id columns that merge maps by. A database file's tests (persistence,
 * refusals, the list of runs) are in test_store_files.c. */
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include "env.h"
#include "fixtures.h"
#include "result.h"
#include "code_id.h"
#include "store.h"
#include "store_columns.h"
#include "test.h"
#include "tests.h"

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
    vb_env_gpu_clear(&gpu);
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
    fx_fake_case(&r, s, c, k, &m, n);
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
    fx_fake_case(&r, s, c, k, &m, n);
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
    int i, added, declared = 0, nsum, nm, seen = 0, ncode, recorded;
    struct vb_code_entry stored = {(char *)"_Z21mesh_host_mesh_kernelPKdS0_S0_S0_Pdm",
                                   0xfedcba9876543210ull};
    struct vb_run_kernel *code;
    char src[512], dst[512];
    sqlite3 *db;
    vb_env_gpu_clear(&gpu);
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
    fx_fake_case(&r, s, c, k, &m, n);
    n[1].domain = "vbtest domain"; /* NVTX_EVENTS.domainId */
    n[1].type = VB_NVTX_STARTEND;
    r.activity.apis = &api;
    r.activity.napis = 1;
    r.metrics = &metric;
    r.nmetrics = 1;
    r.metrics_status = VB_METRICS_OK;
    r.summaries[0] = (struct vb_summary_value){"vbtest_summary", "", 1}; /* case_summaries */
    r.nsummaries = 1;
    ASSERT_OK(vb_store_case(st, run_id, &r, NULL, &err));
    ASSERT_OK(vb_store_kernel_code(st, run_id, &stored, 1, &err)); /* kernel_code */
    ASSERT_OK(vb_store_kernel_code(st, run_id, &stored, 1, &err)); /* kept once */
    ASSERT_OK(vb_store_run_end(st, run_id, "complete", 0, "", &err));
    vb_store_close(st);

    ASSERT_INT_EQ(sqlite3_open_v2(src, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    ASSERT_INT_EQ(query_int(db, "SELECT count(*) FROM kernel_code", "", NULL), 1);
    i = for_each_column(db, table_has_rows, NULL) ||
        for_each_column(db, string_column_declared, &declared);
    sqlite3_close(db);
    if (i) return 1;
    ASSERT(declared >= 5); /* shortName, mangledName, textId, kernelId, nameId at least */

    ASSERT_OK(vb_store_open(dst, &st, &err));
    ASSERT_OK(vb_store_merge(st, src, &added, NULL, &err));
    ASSERT_INT_EQ(added, 1);
    ASSERT_OK(vb_store_latest_run(st, &merged, &err));
    ASSERT_OK(vb_store_summary(st, merged, -1, &sum, &nsum, &err));
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
    /* the merged run's launched kernel with its code */
    ASSERT_OK(vb_store_run_code(st, merged, &code, &ncode, &recorded, &err));
    ASSERT_INT_EQ(ncode, 1);
    ASSERT_INT_EQ(recorded, 1);
    ASSERT_STR_EQ(code[0].name, stored.name);
    ASSERT(code[0].known && code[0].hash == stored.hash);
    free(code);
    vb_store_close(st);
    ASSERT_INT_EQ(sqlite3_open_v2(dst, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    i = for_each_column(db, no_source_id, NULL);
    sqlite3_close(db);
    if (i) return 1;
    unlink(src);
    unlink(dst);
    return 0;
}
