/*
 * store_trace: what `varbench trace` writes besides its cases (the GPUs each traced process
 * saw) and what `varbench summary` reads: the newest traced run, one run's heading, and its
 * records and metric values aggregated as nvprof's summary mode prints them. Workload: one
 * summary per command over up to millions of records, so the aggregation is SQL (GROUP BY),
 * and its statements, run once per command, are prepared and finalized here rather than
 * taking slots of the statement cache.
 */
#include "store_int.h"

#include <string.h>

#include "env.h"

int vb_store_trace_gpu(struct vb_store *s, int64_t run_id, const struct vb_gpu_env *g,
                       struct vb_err *err)
{
    /* every process of a traced program describes the GPUs it used: the first one wins */
    static const char sql[] = "INSERT OR IGNORE INTO TARGET_INFO_GPU VALUES " VB_GPU_VALUES;
    return vb_store_put_gpu(s, sql, run_id, g, err);
}

int vb_store_trace_cost(struct vb_store *s, int64_t case_id, const struct vb_trace_cost *c,
                        struct vb_err *err)
{
    static const char q[] =
        "UPDATE cases SET trace_init_ns = ?, trace_flush_ns = ?, trace_store_ns = ?, "
        "cupti_overhead_ns = ?, cupti_overhead_count = ?, dropped_records = ?, cupti_client = ?, "
        "cupti_client_kernels = ?, cupti_client_copies = ?, cupti_client_memsets = ?, "
        "cupti_client_records = ?, cupti_overhead_detail = ? WHERE id = ?";
    const char *detail = c->overhead_detail[0] ? c->overhead_detail : NULL;
    if (!c->client[0]) /* no client shared CUPTI: its counts stay NULL */
        return vb_store_put(s, q, NULL, err, "ddddiitUUUUti", c->init_ns, c->flush_ns, c->store_ns,
                            c->cupti_overhead_ns, c->cupti_overhead_count, c->dropped_records,
                            (const char *)NULL, (uint64_t)0, (uint64_t)0, (uint64_t)0, (uint64_t)0,
                            detail, case_id);
    return vb_store_put(s, q, NULL, err, "ddddiitiiiiti", c->init_ns, c->flush_ns, c->store_ns,
                        c->cupti_overhead_ns, c->cupti_overhead_count, c->dropped_records,
                        c->client, c->client_kernels, c->client_copies, c->client_memsets,
                        c->client_records, detail, case_id);
}

int vb_store_latest_trace(struct vb_store *s, int64_t *run_id, struct vb_err *err)
{
    static const char q[] = "SELECT id FROM runs WHERE kind = 'trace' "
                            "ORDER BY " VB_STORE_NEWEST_FIRST("") " LIMIT 1";
    if (vb_store_first_id(s, q, run_id, err)) return -1;
    if (*run_id < 0) {
        vb_err_set(err, VB_E_USAGE, "database '%s' has no traced run", s->path);
        return vb_err_hint(err,
                           "trace a program first: varbench trace --db %s -- COMMAND, or pass "
                           "--run with a run of 'varbench run'",
                           s->path);
    }
    return 0;
}

int vb_store_run_info(struct vb_store *s, int64_t run_id, struct vb_run_info_row *r,
                      struct vb_err *err)
{
    /* clang-format off */
    static const char q[] =
        "SELECT r.id, r.kind, r.status, r.command_line, r.start_utc, r.end_utc, r.exit_code, "
        "r.message, " VB_STORE_RUN_GPU("r.") ", "
        "(SELECT count(*) FROM cases c WHERE c.run_id = r.id), "
        "(SELECT count(*) FROM cases c WHERE c.run_id = r.id AND NOT " VB_STORE_SAMPLED_SQL("c.")
        "), " VB_STORE_RUN_NVML("r.") " FROM runs r WHERE r.id = ?";
    /* clang-format on */
    sqlite3_stmt *st = vb_store_once(s, q, err);
    int rc;
    memset(r, 0, sizeof *r);
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) {
        vb_store_fail(s, err, "bind");
        sqlite3_finalize(st);
        return -1;
    }
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        r->id = sqlite3_column_int64(st, 0);
        vb_store_col_text(st, 1, r->kind, sizeof r->kind);
        vb_store_col_text(st, 2, r->status, sizeof r->status);
        vb_store_col_text(st, 3, r->command_line, sizeof r->command_line);
        vb_store_col_text(st, 4, r->start_utc, sizeof r->start_utc);
        vb_store_col_text(st, 5, r->end_utc, sizeof r->end_utc);
        r->has_exit_code = sqlite3_column_type(st, 6) != SQLITE_NULL;
        r->exit_code = sqlite3_column_int(st, 6);
        vb_store_col_text(st, 7, r->message, sizeof r->message);
        vb_store_col_text(st, 8, r->gpu, sizeof r->gpu);
        r->ncases = sqlite3_column_int(st, 9);
        r->nprocesses = sqlite3_column_int(st, 10);
        vb_store_col_text(st, 11, r->nvml, sizeof r->nvml);
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) vb_store_fail(s, err, "reading runs");
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW) return 0;
    if (rc != SQLITE_DONE) return -1;
    vb_err_set(err, VB_E_USAGE, "database '%s' has no run %lld", s->path, (long long)run_id);
    return vb_err_hint(err, "'varbench runs --db %s' lists its runs", s->path);
}

/* fill_summary reads a row of vb_store_summary's query. */
static void fill_summary(sqlite3_stmt *st, void *p)
{
    struct vb_summary_row *r = p;
    r->kind = sqlite3_column_int(st, 0);
    r->sub = sqlite3_column_int(st, 1);
    vb_store_col_text(st, 2, r->name, sizeof r->name);
    r->calls = sqlite3_column_int64(st, 3);
    r->total_ns = vb_store_col_double(st, 4);
    r->min_ns = vb_store_col_double(st, 5);
    r->max_ns = vb_store_col_double(st, 6);
    r->bytes = sqlite3_column_int64(st, 7);
    r->min_bytes = sqlite3_column_int64(st, 8);
    r->max_bytes = sqlite3_column_int64(st, 9);
}

int vb_store_summary(struct vb_store *s, int64_t run_id, long rank, struct vb_summary_row **rows,
                     int *n, struct vb_err *err)
{
    /* one row per kernel (by mangled name), kind of copy (a peer copy's per pair of GPUs),
     * memset, API function and NVTX text (ranges: a mark, eventType 34, has no duration to sum) */
    /* clang-format off */
/* the cases of rank ?2's processes (all for -1) */
#define RANKED                                                                                     \
    "(?2 < 0 OR EXISTS(SELECT 1 FROM case_axes x2 WHERE x2.case_id = c.id AND x2.name = 'rank' "  \
    "AND x2.value = ?2))"
#define DUR(t) "count(*), sum(" t ".end - " t ".start), min(" t ".end - " t ".start), " \
               "max(" t ".end - " t ".start)"
    static const char q[] =
        "SELECT 0, 0, sn.value, " DUR("k") ", 0, 0, 0 FROM CUPTI_ACTIVITY_KIND_KERNEL k "
        "JOIN cases c ON c.id = k.case_id JOIN StringIds sn ON sn.id = k.mangledName "
        "WHERE c.run_id = ?1 AND " RANKED " GROUP BY k.mangledName "
        "UNION ALL SELECT 1, m.copyKind, IFNULL('GPU ' || m.srcDeviceId || ' -> GPU ' || "
        "m.dstDeviceId, ''), " DUR("m") ", sum(m.bytes), min(m.bytes), "
        "max(m.bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN cases c ON c.id = m.case_id "
        "WHERE c.run_id = ?1 AND " RANKED " GROUP BY m.copyKind, m.srcDeviceId, m.dstDeviceId "
        "UNION ALL SELECT 2, 0, '', " DUR("x") ", sum(x.bytes), min(x.bytes), max(x.bytes) "
        "FROM CUPTI_ACTIVITY_KIND_MEMSET x JOIN cases c ON c.id = x.case_id "
        "WHERE c.run_id = ?1 AND " RANKED " GROUP BY c.run_id "
        "UNION ALL SELECT 3, a.driver, sn.value, " DUR("a") ", 0, 0, 0 "
        "FROM CUPTI_ACTIVITY_KIND_RUNTIME a JOIN cases c ON c.id = a.case_id "
        "JOIN StringIds sn ON sn.id = a.nameId WHERE c.run_id = ?1 AND " RANKED " GROUP BY a.nameId "
        "UNION ALL SELECT 4, 0, IFNULL(t.text, sn.value), " DUR("t") ", 0, 0, 0 "
        "FROM NVTX_EVENTS t JOIN cases c ON c.id = t.case_id LEFT JOIN StringIds sn "
        "ON sn.id = t.textId WHERE c.run_id = ?1 AND " RANKED " AND t.end IS NOT NULL AND t.eventType != 34 "
        "GROUP BY IFNULL(t.text, sn.value)";
#undef DUR
#undef RANKED
    /* clang-format on */
    sqlite3_stmt *st = vb_store_once(s, q, err);
    int rc;
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK ||
        sqlite3_bind_int64(st, 2, rank) != SQLITE_OK) {
        vb_store_fail(s, err, "bind");
        sqlite3_finalize(st);
        return -1;
    }
    rc = vb_store_read_rows(s, st, sizeof **rows, fill_summary, (void **)rows, n, err);
    sqlite3_finalize(st);
    return rc;
}

/* fill_metric_row reads a row of vb_store_metric_summary's query. */
static void fill_metric_row(sqlite3_stmt *st, void *p)
{
    struct vb_metric_row *r = p;
    vb_store_col_text(st, 0, r->kernel, sizeof r->kernel);
    vb_store_col_text(st, 1, r->metric, sizeof r->metric);
    r->invocations = sqlite3_column_int64(st, 2);
    r->min = vb_store_col_double(st, 3);
    r->max = vb_store_col_double(st, 4);
    r->avg = vb_store_col_double(st, 5);
}

int vb_store_metric_summary(struct vb_store *s, int64_t run_id, struct vb_metric_row **rows, int *n,
                            struct vb_err *err)
{
    static const char q[] =
        "SELECT sn.value, m.metric, count(m.value), min(m.value), max(m.value), avg(m.value) "
        "FROM metrics m JOIN cases c ON c.id = m.case_id JOIN StringIds sn ON sn.id = m.kernelId "
        "WHERE c.run_id = ? GROUP BY m.kernelId, m.metric ORDER BY sn.value, m.metric";
    return vb_store_run_rows(s, q, run_id, sizeof **rows, fill_metric_row, (void **)rows, n, err);
}
