/*
 * store_read: the readers of the stages that work from the database alone (compare, export,
 * report, runs): runs, the newest run, a run's cases, ceilings and timed samples, row counts,
 * and the list of runs with their case tallies. Read-only: every function works on a store
 * opened with vb_store_open_ro. Workload: a report reads a few runs of a few hundred cases;
 * samples are read per case and phase (up to thousands each).
 */
#include "store_int.h"

#include "result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fill_case reads a row of vb_store_cases' query (the columns in its order). */
static void fill_case(sqlite3_stmt *st, void *p)
{
    struct vb_case_row *r = p;
    r->id = sqlite3_column_int64(st, 0);
    r->run_id = sqlite3_column_int64(st, 1);
    vb_store_col_text(st, 2, r->family, sizeof r->family);
    vb_store_col_text(st, 3, r->name, sizeof r->name);
    snprintf(r->variant, sizeof r->variant, "%s/%s", r->family, r->name);
    vb_store_col_text(st, 4, r->axes, sizeof r->axes);
    vb_store_col_text(st, 5, r->status, sizeof r->status);
    vb_store_col_text(st, 6, r->reason, sizeof r->reason);
    vb_store_col_text(st, 7, r->device, sizeof r->device);
    r->is_reference = sqlite3_column_int(st, 8);
    r->needs_gpu = sqlite3_column_int(st, 9);
    r->have_records = sqlite3_column_int(st, 10);
    r->samples = sqlite3_column_int(st, 11);
    r->e2e_median_ns = vb_store_col_double(st, 12);
    r->e2e_mean_ns = vb_store_col_double(st, 13);
    r->e2e_stdev_ns = vb_store_col_double(st, 14);
    r->e2e_min_ns = vb_store_col_double(st, 15);
    r->e2e_max_ns = vb_store_col_double(st, 16);
    r->kernel_median_ns = vb_store_col_double(st, 17);
    r->h2d_median_ns = vb_store_col_double(st, 18);
    r->d2h_median_ns = vb_store_col_double(st, 19);
    r->max_abs_err = vb_store_col_double(st, 20);
    r->max_rel_err = vb_store_col_double(st, 21);
    r->h2d_bytes = sqlite3_column_int64(st, 22);
    r->d2h_bytes = sqlite3_column_int64(st, 23);
    r->h2d_count = sqlite3_column_int64(st, 24);
    r->d2h_count = sqlite3_column_int64(st, 25);
    r->gst_efficiency = vb_store_col_double(st, 26);
    vb_store_col_text(st, 27, r->metrics_status, sizeof r->metrics_status);
    vb_store_col_text(st, 28, r->metrics_reason, sizeof r->metrics_reason);
    r->gpu_median_ns = vb_store_col_double(st, 29);
    r->memset_median_ns = vb_store_col_double(st, 30);
    r->gpu_ci_pct = vb_store_col_double(st, 31);
    vb_store_col_text(st, 32, r->stop_reason, sizeof r->stop_reason);
    vb_store_col_text(st, 33, r->cache, sizeof r->cache);
    r->clock_min_mhz = vb_store_col_double(st, 34);
    r->clock_median_mhz = vb_store_col_double(st, 35);
    r->dropped_samples = sqlite3_column_int(st, 36);
    r->throttled = r->dropped_samples > 0;
    /* CUpti_ActivityMemoryKind 1 is pageable; NULL: no copy records of that direction */
    r->h2d_pageable = sqlite3_column_type(st, 37) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 37);
    r->d2h_pageable = sqlite3_column_type(st, 38) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 38);
    r->floor_ms = vb_store_col_double(st, 39);
    r->floor_ratio = vb_store_col_double(st, 40);
    vb_store_col_text(st, 41, r->floor_bound, sizeof r->floor_bound);
    vb_store_col_text(st, 42, r->floor_of, sizeof r->floor_of);
    r->device_id = sqlite3_column_type(st, 43) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 43);
    vb_store_col_text(st, 44, r->board, sizeof r->board);
    r->has_trace_cost = sqlite3_column_type(st, 45) != SQLITE_NULL;
    r->trace_cost.init_ns = vb_store_col_double(st, 45);
    r->trace_cost.flush_ns = vb_store_col_double(st, 46);
    r->trace_cost.store_ns = vb_store_col_double(st, 47);
    r->trace_cost.cupti_overhead_ns = vb_store_col_double(st, 48);
    r->trace_cost.cupti_overhead_count = sqlite3_column_int64(st, 49);
    r->trace_cost.dropped_records = sqlite3_column_int64(st, 50);
    vb_store_col_text(st, 51, r->trace_cost.client, sizeof r->trace_cost.client);
    r->trace_cost.client_kernels = sqlite3_column_int64(st, 52);
    r->trace_cost.client_copies = sqlite3_column_int64(st, 53);
    r->trace_cost.client_memsets = sqlite3_column_int64(st, 54);
    r->trace_cost.client_records = sqlite3_column_int64(st, 55);
    vb_store_col_text(st, 56, r->trace_cost.overhead_detail, sizeof r->trace_cost.overhead_detail);
}

/* case_axes adds the structured axes (table case_axes) of run run_id's cases to rows[0..n),
 * which are in case id order; a case keeps its first VB_CASE_AXES. */
static int case_axes(struct vb_store *s, int64_t run_id, struct vb_case_row *rows, int n,
                     struct vb_err *err)
{
    static const char q[] = "SELECT a.case_id, a.name, a.value, a.label FROM case_axes a "
                            "JOIN cases c ON c.id = a.case_id WHERE c.run_id = ? "
                            "ORDER BY a.case_id, a.rowid";
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    int rc, i = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) return vb_store_fail(s, err, "bind");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t id = sqlite3_column_int64(st, 0);
        struct vb_case_axis *a;
        while (i < n && rows[i].id < id)
            i++;
        if (i == n || rows[i].id != id || rows[i].naxes == VB_CASE_AXES) continue;
        a = &rows[i].axis[rows[i].naxes++];
        vb_store_col_text(st, 1, a->name, sizeof a->name);
        a->value = sqlite3_column_int64(st, 2);
        vb_store_col_text(st, 3, a->label, sizeof a->label);
    }
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : vb_store_fail(s, err, "reading case axes");
}

int vb_store_cases(struct vb_store *s, int64_t run_id, struct vb_case_row **rows, int *n,
                   struct vb_err *err)
{
    static const char q[] =
        "SELECT c.id, c.run_id, v.family, v.name, c.axes, c.status, c.reason, "
        "CASE WHEN c.device_id IS NULL THEN 'cpu: ' || IFNULL(h.cpu_model, '?') "
        "ELSE IFNULL(g.name, '?') END, v.is_reference, v.needs_gpu, c.have_records, c.samples, "
        "c.e2e_median_ns, c.e2e_mean_ns, c.e2e_stdev_ns, c.e2e_min_ns, c.e2e_max_ns, "
        "c.kernel_median_ns, c.h2d_median_ns, c.d2h_median_ns, c.max_abs_err, c.max_rel_err, "
        "c.h2d_bytes, c.d2h_bytes, c.h2d_count, c.d2h_count, c.gst_efficiency, "
        "c.metrics_status, c.metrics_reason, c.gpu_median_ns, c.memset_median_ns, c.gpu_ci_pct, "
        "c.stop_reason || IFNULL(' (' || c.stop_detail || ')', ''), c.cache, c.clock_min_mhz, "
        "c.clock_median_mhz, c.dropped_samples, "
        "(SELECT max(srcKind = 1) FROM CUPTI_ACTIVITY_KIND_MEMCPY m WHERE m.case_id = c.id AND "
        "m.copyKind = 1), (SELECT max(dstKind = 1) FROM CUPTI_ACTIVITY_KIND_MEMCPY m WHERE "
        "m.case_id = c.id AND m.copyKind = 2), c.floor_ns / 1e6, c.floor_ratio, "
        "IFNULL(c.floor_bound, ''), IFNULL(c.floor_of, ''), c.device_id, "
        "IFNULL(g.busLocation, ''), c.trace_init_ns, c.trace_flush_ns, c.trace_store_ns, "
        "c.cupti_overhead_ns, c.cupti_overhead_count, c.dropped_records, "
        "IFNULL(c.cupti_client, ''), c.cupti_client_kernels, c.cupti_client_copies, "
        "c.cupti_client_memsets, c.cupti_client_records, IFNULL(c.cupti_overhead_detail, '') "
        "FROM cases c "
        "JOIN variants v ON v.id = c.variant_id LEFT JOIN host_env h ON h.run_id = c.run_id "
        "LEFT JOIN TARGET_INFO_GPU g ON g.run_id = c.run_id AND g.id = c.device_id "
        "WHERE c.run_id = ? ORDER BY c.id";
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) return vb_store_fail(s, err, "bind");
    if (vb_store_read_rows(s, st, sizeof **rows, fill_case, (void **)rows, n, err)) return -1;
    if (!case_axes(s, run_id, *rows, *n, err)) return 0;
    free(*rows);
    *rows = NULL;
    *n = 0;
    return -1;
}

/* fill_run reads a row of vb_store_runs' query. */
static void fill_run(sqlite3_stmt *st, void *p)
{
    struct vb_run_row *r = p;
    r->id = sqlite3_column_int64(st, 0);
    vb_store_col_text(st, 1, r->uuid, sizeof r->uuid);
    vb_store_col_text(st, 2, r->kind, sizeof r->kind);
    vb_store_col_text(st, 3, r->status, sizeof r->status);
    vb_store_col_text(st, 4, r->command_line, sizeof r->command_line);
    vb_store_col_text(st, 5, r->git_commit, sizeof r->git_commit);
    vb_store_col_text(st, 6, r->start_utc, sizeof r->start_utc);
    vb_store_col_text(st, 7, r->host, sizeof r->host);
    vb_store_col_text(st, 8, r->cpu, sizeof r->cpu);
    vb_store_col_text(st, 9, r->gpu, sizeof r->gpu);
    r->exit_code = sqlite3_column_int(st, 10);
    r->cpu_count = sqlite3_column_int(st, 11);
}

int vb_store_runs(struct vb_store *s, struct vb_run_row **rows, int *n, struct vb_err *err)
{
    /* clang-format off */
    static const char q[] =
        "SELECT r.id, r.uuid, r.kind, r.status, r.command_line, r.git_commit, r.start_utc, "
        "h.hostname, h.cpu_model, " VB_STORE_RUN_GPU("r.") ", r.exit_code, h.cpu_count "
        "FROM runs r LEFT JOIN host_env h ON h.run_id = r.id "
        "ORDER BY " VB_STORE_OLDEST_FIRST("r.");
    /* clang-format on */
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    return vb_store_read_rows(s, st, sizeof **rows, fill_run, (void **)rows, n, err);
}

int vb_store_latest_run(struct vb_store *s, int64_t *run_id, struct vb_err *err)
{
    /* the newest by the one rule (store_int.h), a suite run before any trace run (compare and
     * export want the suite's cases) */
    static const char q[] = "SELECT id FROM runs WHERE status = 'complete' "
                            "ORDER BY kind = 'suite' DESC, " VB_STORE_NEWEST_FIRST("") " LIMIT 1";
    if (vb_store_first_id(s, q, run_id, err)) return -1;
    if (*run_id < 0) {
        vb_err_set(err, VB_E_USAGE, "database '%s' has no complete run", s->path);
        return vb_err_hint(err,
                           "run 'varbench run --db %s' first; 'varbench runs --db %s' lists "
                           "its runs",
                           s->path, s->path);
    }
    return 0;
}

/* fill_ceiling reads a row of vb_store_ceiling_rows' query. */
static void fill_ceiling(sqlite3_stmt *st, void *p)
{
    struct vb_ceiling_row *r = p;
    r->run_id = sqlite3_column_int64(st, 0);
    r->device = sqlite3_column_int(st, 1);
    vb_store_col_text(st, 2, r->name, sizeof r->name);
    r->gbps = vb_store_col_double(st, 3);
    r->median_ns = vb_store_col_double(st, 4);
}

int vb_store_ceiling_rows(struct vb_store *s, struct vb_ceiling_row **rows, int *n,
                          struct vb_err *err)
{
    static const char q[] =
        "SELECT run_id, device_id, name, gbps, median_ns FROM ceilings ORDER BY run_id";
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    return vb_store_read_rows(s, st, sizeof **rows, fill_ceiling, (void **)rows, n, err);
}

/* fill_double reads a one-column row of numbers (NULLs are filtered by the query). */
static void fill_double(sqlite3_stmt *st, void *p)
{
    *(double *)p = sqlite3_column_double(st, 0);
}

int vb_store_samples(struct vb_store *s, int64_t case_id, const char *metric, double **x, int *n,
                     struct vb_err *err)
{
    /* one statement per phase: the column name cannot be a bound parameter */
#define PHASE_Q(col)                                                                               \
    "SELECT " col " FROM samples WHERE case_id = ? AND kind = 'timed' AND NOT dropped "            \
    "AND " col " IS NOT NULL ORDER BY idx"
    static const char *const names[] = {"e2e", "gpu", "kernel", "h2d", "d2h", "memset"};
    static const char *const qs[] = {PHASE_Q("e2e_ns"), PHASE_Q("gpu_ns"), PHASE_Q("kernel_ns"),
                                     PHASE_Q("h2d_ns"), PHASE_Q("d2h_ns"), PHASE_Q("memset_ns")};
#undef PHASE_Q
    sqlite3_stmt *st;
    size_t k;
    *x = NULL;
    *n = 0;
    for (k = 0; k < sizeof names / sizeof names[0] && strcmp(metric, names[k]); k++) {
    }
    if (k == sizeof names / sizeof names[0])
        return vb_err_set(err, VB_E_USAGE,
                          "unknown metric '%s' (gpu, kernel, h2d, d2h, memset or e2e)", metric);
    if (!(st = vb_store_stmt(s, qs[k], err))) return -1;
    if (sqlite3_bind_int64(st, 1, case_id) != SQLITE_OK) return vb_store_fail(s, err, "bind");
    return vb_store_read_rows(s, st, sizeof **x, fill_double, (void **)x, n, err);
}

int vb_store_count(struct vb_store *s, const char *table, int64_t case_id, int64_t *n,
                   struct vb_err *err)
{
    /* the schema names the tables: the name that goes into the SQL is the one it returns */
    static const char lookup[] = "SELECT name FROM sqlite_master WHERE type = 'table' AND "
                                 "name = ? AND substr(name, 1, 7) <> 'sqlite_'";
    sqlite3_stmt *st = vb_store_stmt(s, lookup, err);
    char name[128], q[200];
    int rc;
    *n = -1;
    if (!st) return -1;
    if (sqlite3_bind_text(st, 1, table, -1, SQLITE_TRANSIENT) != SQLITE_OK)
        return vb_store_fail(s, err, "bind");
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) vb_store_col_text(st, 0, name, sizeof name);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) vb_store_fail(s, err, "reading the schema");
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return -1;
    if (rc == SQLITE_DONE || strchr(name, '"'))
        return vb_err_set(err, VB_E_USAGE, "no table '%s' in the schema", table);
    snprintf(q, sizeof q, "SELECT count(*) FROM \"%s\"%s", name,
             case_id > 0 ? " WHERE case_id = ?" : "");
    return vb_store_count_query(s, q, case_id, n, err);
}

int vb_store_run_status(struct vb_store *s, int64_t run_id, char *buf, size_t n, struct vb_err *err)
{
    static const char q[] = "SELECT status FROM runs WHERE id = ?";
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    int rc;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) return vb_store_fail(s, err, "bind");
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) vb_store_col_text(st, 0, buf, n);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) vb_store_fail(s, err, "reading runs");
    sqlite3_reset(st);
    if (rc == SQLITE_DONE) {
        vb_err_set(err, VB_E_USAGE, "database '%s' has no run %lld", s->path, (long long)run_id);
        return vb_err_hint(err, "'varbench runs --db %s' lists its runs", s->path);
    }
    return rc == SQLITE_ROW ? 0 : -1;
}

/* The reason runner.c gives a wrong-result case of a variant wrong on purpose (result.h)
 * starts with this text; the database keeps no other mark of such a case. test_store_run_list
 * runs a variant of that kind through the runner and holds the two texts to each other. */
static const char on_purpose[] = VB_REASON_ON_PURPOSE;

/* fill_run_list reads a row of vb_store_run_list's query. */
static void fill_run_list(sqlite3_stmt *st, void *p)
{
    struct vb_run_list_row *r = p;
    r->id = sqlite3_column_int64(st, 0);
    vb_store_col_text(st, 1, r->uuid, sizeof r->uuid);
    vb_store_col_text(st, 2, r->kind, sizeof r->kind);
    vb_store_col_text(st, 3, r->status, sizeof r->status);
    vb_store_col_text(st, 4, r->start_utc, sizeof r->start_utc);
    vb_store_col_text(st, 5, r->gpu, sizeof r->gpu);
    vb_store_col_text(st, 6, r->git_commit, sizeof r->git_commit);
    r->cases = sqlite3_column_int(st, 7);
    r->ok = sqlite3_column_int(st, 8);
    r->wrong = sqlite3_column_int(st, 9);
    r->on_purpose = sqlite3_column_int(st, 10);
    r->failed = sqlite3_column_int(st, 11);
    r->skipped = sqlite3_column_int(st, 12);
    r->interrupted = sqlite3_column_int(st, 13);
}

int vb_store_run_list(struct vb_store *s, struct vb_run_list_row **rows, int *n, struct vb_err *err)
{
    /* one pass over the cases, grouped by run; ?1 is the on-purpose reason's start (the
     * format is left alone: clang-format does not settle on macros between literals) */
    /* clang-format off */
#define TALLY(cond) "count(CASE WHEN " cond " THEN 1 END)"
#define PURPOSE "instr(IFNULL(c.reason, ''), ?1) = 1"
    static const char q[] =
        "SELECT r.id, r.uuid, r.kind, r.status, r.start_utc, " VB_STORE_RUN_GPU("r.") ", "
        "r.git_commit, count(c.id), "
        TALLY("c.status = 'ok'") ", " TALLY("c.status = 'wrong-result' AND NOT " PURPOSE) ", "
        TALLY("c.status = 'wrong-result' AND " PURPOSE) ", " TALLY("c.status = 'failed'") ", "
        TALLY("c.status = 'skipped'") ", " TALLY("c.status = 'interrupted'") " "
        "FROM runs r LEFT JOIN cases c ON c.run_id = r.id GROUP BY r.id "
        "ORDER BY " VB_STORE_NEWEST_FIRST("r.");
#undef PURPOSE
#undef TALLY
    /* clang-format on */
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    if (sqlite3_bind_text(st, 1, on_purpose, -1, SQLITE_STATIC) != SQLITE_OK)
        return vb_store_fail(s, err, "bind");
    return vb_store_read_rows(s, st, sizeof **rows, fill_run_list, (void **)rows, n, err);
}

void vb_store_run_list_free(struct vb_run_list_row *rows)
{
    free(rows);
}
