/*
 * store_activity: one case's records one row at a time, in start order, for the print modes
 * that list every record (nvprof's --print-gpu-trace and --print-api-trace): its kernels,
 * copies and memsets as one timeline, and its CUDA API calls. Workload: a traced process of up
 * to millions of records, so each row is handed to a callback as it is stepped and never
 * gathered; the statements run once per case (not cached: the cache is for writers).
 */
#include "store_int.h"

typedef int (*gpu_fn)(void *ctx, const struct vb_gpu_act *a, struct vb_err *err);
typedef int (*api_fn)(void *ctx, const struct vb_api_call *a, struct vb_err *err);

/* The caller's callback (one of the two) and its context. */
struct reader {
    gpu_fn gpu;
    api_fn api;
    void *ctx;
};

/* step binds case_id to ?1 of st, steps it to the end calling row for each row, and finalizes
 * it. 0, or -1 with err (row's error, or the store's naming what). */
static int step(struct vb_store *s, sqlite3_stmt *st, int64_t case_id, const char *what,
                int (*row)(sqlite3_stmt *st, const struct reader *r, struct vb_err *err),
                const struct reader *r, struct vb_err *err)
{
    int rc;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, case_id) != SQLITE_OK) {
        vb_store_fail(s, err, "bind");
        sqlite3_finalize(st);
        return -1;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (row(st, r, err)) {
            sqlite3_finalize(st);
            return -1;
        }
    if (rc != SQLITE_DONE) vb_store_fail(s, err, what);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* text returns column c of the current row, "" for NULL. */
static const char *text(sqlite3_stmt *st, int c)
{
    const unsigned char *t = sqlite3_column_text(st, c);
    return t ? (const char *)t : "";
}

/* int_or returns column c of the current row, none for NULL. */
static int int_or(sqlite3_stmt *st, int c, int none)
{
    return sqlite3_column_type(st, c) == SQLITE_NULL ? none : sqlite3_column_int(st, c);
}

int vb_store_case_origin(struct vb_store *s, int64_t case_id, int64_t *t0, struct vb_err *err)
{
    /* clang-format off */
    static const char q[] =
        "SELECT IFNULL(NULLIF(c.start, 0), IFNULL((SELECT min(t) FROM ("
        "SELECT min(start) AS t FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE case_id = ?1 "
        "UNION ALL SELECT min(start) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE case_id = ?1 "
        "UNION ALL SELECT min(start) FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE case_id = ?1 "
        "UNION ALL SELECT min(start) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE case_id = ?1)), 0)) "
        "FROM cases c WHERE c.id = ?1";
    /* clang-format on */
    sqlite3_stmt *st = vb_store_once(s, q, err);
    int rc;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, case_id) != SQLITE_OK) {
        vb_store_fail(s, err, "bind");
        sqlite3_finalize(st);
        return -1;
    }
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *t0 = sqlite3_column_int64(st, 0);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) vb_store_fail(s, err, "reading a case's start");
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW) return 0;
    if (rc != SQLITE_DONE) return -1;
    return vb_err_set(err, VB_E_USAGE, "database '%s' has no case %lld", s->path,
                      (long long)case_id);
}

/* gpu_row reads a row of vb_store_gpu_trace's query and hands it to fn. */
static int gpu_row(sqlite3_stmt *st, const struct reader *r, struct vb_err *err)
{
    struct vb_gpu_act a;
    int k;
    a.kind = sqlite3_column_int(st, 0);
    a.start = sqlite3_column_int64(st, 1);
    a.end = sqlite3_column_int64(st, 2);
    for (k = 0; k < 3; k++) {
        a.grid[k] = sqlite3_column_int(st, 3 + k);
        a.block[k] = sqlite3_column_int(st, 6 + k);
    }
    a.registers = sqlite3_column_int(st, 9);
    a.static_smem = sqlite3_column_int(st, 10);
    a.dynamic_smem = sqlite3_column_int(st, 11);
    a.bytes = sqlite3_column_int64(st, 12);
    a.copy_kind = int_or(st, 13, 0);
    a.src_kind = int_or(st, 14, -1);
    a.dst_kind = int_or(st, 15, -1);
    a.device = sqlite3_column_int(st, 16);
    a.context = sqlite3_column_int(st, 17);
    a.stream = sqlite3_column_int(st, 18);
    a.correlation = sqlite3_column_int64(st, 19);
    a.name = text(st, 20);
    a.src_device = int_or(st, 21, -1);
    a.dst_device = int_or(st, 22, -1);
    a.device_name = text(st, 23);
    return r->gpu(r->ctx, &a, err);
}

int vb_store_gpu_trace(struct vb_store *s, int64_t case_id, gpu_fn fn, void *ctx,
                       struct vb_err *err)
{
    /* a copy's kinds of memory are stored since schema 1; an old writer's NULL reads as
     * unknown (0), a memset's source and a kernel's as none (-1) */
    /* clang-format off */
    static const char q[] =
        "SELECT a.*, g.name FROM ("
        "SELECT 0 AS kind, k.start AS start, k.end, k.gridX, k.gridY, k.gridZ, k.blockX, "
        "k.blockY, k.blockZ, k.registersPerThread, k.staticSharedMemory, "
        "k.dynamicSharedMemory, NULL, NULL, NULL, NULL, k.deviceId AS dev, k.contextId, "
        "k.streamId, k.correlationId AS corr, sn.value, NULL, NULL "
        "FROM CUPTI_ACTIVITY_KIND_KERNEL k "
        "LEFT JOIN StringIds sn ON sn.id = k.mangledName WHERE k.case_id = ?1 "
        "UNION ALL SELECT 1, m.start, m.end, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
        "NULL, m.bytes, m.copyKind, IFNULL(m.srcKind, 0), IFNULL(m.dstKind, 0), m.deviceId, "
        "m.contextId, m.streamId, m.correlationId, '', m.srcDeviceId, m.dstDeviceId "
        "FROM CUPTI_ACTIVITY_KIND_MEMCPY m "
        "WHERE m.case_id = ?1 "
        "UNION ALL SELECT 2, x.start, x.end, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "
        "NULL, x.bytes, NULL, NULL, IFNULL(x.memKind, 0), x.deviceId, x.contextId, x.streamId, "
        "x.correlationId, '', NULL, NULL FROM CUPTI_ACTIVITY_KIND_MEMSET x "
        "WHERE x.case_id = ?1) a "
        "LEFT JOIN TARGET_INFO_GPU g ON g.run_id = (SELECT run_id FROM cases WHERE id = ?1) "
        "AND g.id = a.dev ORDER BY a.start, a.corr, a.kind";
    /* clang-format on */
    struct reader r = {fn, NULL, ctx};
    return step(s, vb_store_once(s, q, err), case_id, "reading the GPU trace", gpu_row, &r, err);
}

/* api_row reads a row of vb_store_api_trace's query and hands it to fn. */
static int api_row(sqlite3_stmt *st, const struct reader *r, struct vb_err *err)
{
    struct vb_api_call a;
    a.start = sqlite3_column_int64(st, 0);
    a.end = sqlite3_column_int64(st, 1);
    a.driver = sqlite3_column_int(st, 2);
    a.correlation = sqlite3_column_int64(st, 3);
    a.process = sqlite3_column_int64(st, 4);
    a.thread = sqlite3_column_int64(st, 5);
    a.ret = sqlite3_column_int(st, 6);
    a.name = text(st, 7);
    return r->api(r->ctx, &a, err);
}

int vb_store_api_trace(struct vb_store *s, int64_t case_id, api_fn fn, void *ctx,
                       struct vb_err *err)
{
    static const char q[] =
        "SELECT a.start, a.end, a.driver, a.correlationId, a.processId, a.threadId, "
        "a.returnValue, sn.value FROM CUPTI_ACTIVITY_KIND_RUNTIME a LEFT JOIN StringIds sn "
        "ON sn.id = a.nameId WHERE a.case_id = ?1 ORDER BY a.start, a.correlationId";
    struct reader r = {NULL, fn, ctx};
    return step(s, vb_store_once(s, q, err), case_id, "reading the API trace", api_row, &r, err);
}
