/*
 * store_read: the readers of the stages that work from the database alone (compare, export,
 * report, runs): runs, the newest run, a run's cases (their columns: store_columns.c) and
 * summaries, ceilings and timed samples, row counts, and the list of runs with their case
 * tallies. Read-only: every function works on a store opened with vb_store_open_ro. Workload: a
 * report reads a few runs of a few hundred cases; samples are read per case and phase (up to
 * thousands each).
 */
#include "store_int.h"

#include "result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    sqlite3_stmt *st = vb_store_stmt(s, vb_store_cases_sql(), err);
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) return vb_store_fail(s, err, "bind");
    if (vb_store_read_rows(s, st, sizeof **rows, vb_store_fill_case, (void **)rows, n, err))
        return -1;
    if (!case_axes(s, run_id, *rows, *n, err)) return 0;
    free(*rows);
    *rows = NULL;
    *n = 0;
    return -1;
}

/* fill_summary reads a row of vb_store_case_summaries' query. */
static void fill_summary(sqlite3_stmt *st, void *p)
{
    struct vb_summary_value *v = p;
    vb_store_col_text(st, 0, v->name, sizeof v->name);
    v->value = vb_store_col_double(st, 1);
    vb_store_col_text(st, 2, v->unit, sizeof v->unit);
}

int vb_store_case_summaries(struct vb_store *s, int64_t case_id, struct vb_summary_value **out,
                            int *n, struct vb_err *err)
{
    static const char q[] =
        "SELECT name, value, unit FROM case_summaries WHERE case_id = ? ORDER BY name";
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    *out = NULL;
    *n = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, case_id) != SQLITE_OK) return vb_store_fail(s, err, "bind");
    return vb_store_read_rows(s, st, sizeof **out, fill_summary, (void **)out, n, err);
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
    "AND typeof(" col ") IN ('integer', 'real') ORDER BY idx" /* text, a blob: missing */
    static const char *const names[] = {"e2e", "gpu", "kernel", "h2d", "d2h", "memset", "comm"};
    static const char *const qs[] = {PHASE_Q("e2e_ns"), PHASE_Q("gpu_ns"), PHASE_Q("kernel_ns"),
                                     PHASE_Q("h2d_ns"), PHASE_Q("d2h_ns"), PHASE_Q("memset_ns"),
                                     PHASE_Q("comm_ns")};
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

/* fill_sample_row reads a row of vb_store_sample_rows' query: its phases, then its controls */
static void fill_sample_row(sqlite3_stmt *st, void *p)
{
    struct vb_sample_row *r = p;
    double *ph[] = {&r->e2e, &r->gpu, &r->kernel, &r->h2d, &r->d2h, &r->memset, &r->comm};
    int i, n = (int)(sizeof ph / sizeof ph[0]);
    for (i = 0; i < n; i++)
        *ph[i] = vb_store_col_double(st, i);
    for (i = 0; i < VB_CTL_COUNT; i++)
        r->ctl[i] = vb_store_col_double(st, n + i);
}

int vb_store_sample_rows(struct vb_store *s, int64_t case_id, struct vb_sample_row **rows, int *n,
                         struct vb_err *err)
{
    /* a value that is no number (text, a blob: what varbench never writes) reads as none */
#define NUM(col)               "CASE WHEN typeof(" col ") IN ('integer', 'real') THEN " col " END"
#define CTL_NUM(id, col, what) ", " NUM(col)
    static const char q[] = "SELECT " NUM("e2e_ns") ", " NUM("gpu_ns") ", " NUM(
        "kernel_ns") ", " NUM("h2d_ns") ", " NUM("d2h_ns") ", " NUM("memset_ns") ", " NUM("comm_ns")
        VB_CONTROLS(CTL_NUM) " FROM samples WHERE case_id = ? AND kind = 'timed' AND NOT dropped "
                             "ORDER BY idx";
#undef CTL_NUM
#undef NUM
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, case_id) != SQLITE_OK) return vb_store_fail(s, err, "bind");
    return vb_store_read_rows(s, st, sizeof **rows, fill_sample_row, (void **)rows, n, err);
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
    r->energy_period_ms = vb_store_col_double(st, 14);
    r->power_period_ms = vb_store_col_double(st, 15);
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
        TALLY("c.status = 'skipped'") ", " TALLY("c.status = 'interrupted'") ", "
        VB_STORE_RUN_FIRST_GPU("r.", "energyPeriodMs") ", " VB_STORE_RUN_FIRST_GPU("r.", "powerPeriodMs") " "
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

int vb_store_sampled_case(const char *family, const char *axes)
{
    return !strcmp(family, "trace") &&
           (!strncmp(axes, "range=", 6) || !strncmp(axes, "kernel=", 7));
}

int vb_store_whole_process(const char *family, const char *axes)
{
    return !strcmp(family, "trace") && !vb_store_sampled_case(family, axes);
}
