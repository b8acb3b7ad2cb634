/*
 * store_history: the readers that look across runs: a case's stored median run after run (the
 * history `varbench history` searches for change points) and the runs a pooled baseline takes
 * (`compare --baseline-runs`). Read-only. Workload: every ok case of every complete suite run
 * of a database, one metric, read in one pass (tens of runs of a few hundred cases).
 *
 * A stored median that is no time (+Inf, a negative number, text or a blob: the columns are
 * REAL, but SQLite keeps what a hand edit or a foreign writer put there) is missing: that run
 * has no point, as for a median of 0, and the history is read all the same. So that it is not
 * missed silently, a successful read that left any out says so in err with code VB_E_OK: the
 * first case, run and column, and how many more (the caller prints it as a warning; err->msg
 * stays "" when none was left out).
 */
#include "glob.h"
#include "store_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* matches: does "family/variant" match glob, by the rule of `run --filter` (glob.h)? */
static int matches(const char *glob, const char *variant)
{
    char family[160];
    snprintf(family, sizeof family, "%.*s", (int)strcspn(variant, "/"), variant);
    return vb_variant_glob(glob, family, variant);
}

void vb_store_history_free(struct vb_history *h, int n)
{
    int i;
    for (i = 0; h && i < n; i++)
        free(h[i].pts);
    free(h);
}

/* add_series starts series (*n)++ of *h (growing it; *cap its slots) for the row's case; NULL
 * when out of memory. */
static struct vb_history *add_series(struct vb_history **h, int *n, int *cap, const char *variant,
                                     const char *axes, const char *gpu)
{
    struct vb_history *s;
    if (*n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        void *p = realloc(*h, sizeof **h * (size_t)c);
        if (!p) return NULL;
        *h = p;
        *cap = c;
    }
    s = &(*h)[(*n)++];
    memset(s, 0, sizeof *s);
    snprintf(s->variant, sizeof s->variant, "%s", variant);
    snprintf(s->axes, sizeof s->axes, "%s", axes);
    snprintf(s->gpu, sizeof s->gpu, "%s", gpu);
    return s;
}

/* add_point appends the row's run and value to s (*cap its slots); -1 when out of memory. */
static int add_point(struct vb_history *s, int *cap, sqlite3_stmt *st)
{
    struct vb_history_point *p;
    if (s->n == *cap) {
        int c = *cap ? 2 * *cap : 16;
        void *q = realloc(s->pts, sizeof *s->pts * (size_t)c);
        if (!q) return -1;
        s->pts = q;
        *cap = c;
    }
    p = &s->pts[s->n++];
    p->run_id = sqlite3_column_int64(st, 0);
    vb_store_col_text(st, 1, p->start_utc, sizeof p->start_utc);
    vb_store_col_text(st, 2, p->git_commit, sizeof p->git_commit);
    p->value_ns = sqlite3_column_double(st, 6);
    p->case_id = sqlite3_column_int64(st, 7);
    return 0;
}

/* not_time describes in buf (n bytes) the row's value (column 6) when it is no median, "+Inf",
 * "-3", "text", "a blob", and returns 1; 0, buf untouched, for a finite number not negative (the
 * query leaves out NULLs and 0s, the phases a case does not have). */
static int not_time(sqlite3_stmt *st, char *buf, size_t n)
{
    double v;
    switch (sqlite3_column_type(st, 6)) {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
        v = sqlite3_column_double(st, 6);
        if (isfinite(v) && v >= 0) return 0;
        if (isinf(v))
            snprintf(buf, n, "%cInf", v > 0 ? '+' : '-');
        else
            snprintf(buf, n, "%g", v);
        return 1;
    case SQLITE_TEXT:
        snprintf(buf, n, "text");
        return 1;
    default:
        snprintf(buf, n, "a blob");
        return 1;
    }
}

/* left_out counts a median of metric left out as missing; the first is described in err (see
 * above). */
static void left_out(sqlite3_stmt *st, const char *variant, const char *metric, const char *what,
                     int *nbad, struct vb_err *err)
{
    char axes[256];
    if ((*nbad)++) return;
    vb_store_col_text(st, 4, axes, sizeof axes);
    vb_err_set(err, VB_E_OK,
               "case '%s'%s%s of run %lld: its %s_median_ns is %s, not a time: left out as missing",
               variant, axes[0] ? " " : "", axes, (long long)sqlite3_column_int64(st, 0), metric,
               what);
}

int vb_store_history(struct vb_store *s, const char *glob, const char *metric,
                     struct vb_history **out, int *n, struct vb_err *err)
{
    /* one statement per metric: a column name cannot be a bound parameter. A run that ran the
     * case on several devices keeps its device 0's (the lowest device, the first written). A
     * median of 0 is a phase the case does not have. */
    /* clang-format off */
#define HISTORY_Q(col)                                                                             \
    "SELECT r.id, r.start_utc, IFNULL(r.git_commit, ''), v.family || '/' || v.name AS variant, " \
    "c.axes, IFNULL(" VB_STORE_RUN_GPU("r.") ", '') AS gpu, c." col ", c.id FROM cases c "         \
    "JOIN runs r ON r.id = c.run_id JOIN variants v ON v.id = c.variant_id "                       \
    "WHERE (r.kind = 'suite' OR (r.kind = 'trace' AND " VB_STORE_SAMPLED_SQL("c.") ")) "         \
    "AND r.status = 'complete' AND c.status = 'ok' AND c." col " <> 0 "                            \
    "ORDER BY variant, c.axes, gpu, " VB_STORE_OLDEST_FIRST("r.") ", IFNULL(c.device_id, -1), c.id"
    static const char *const names[] = {"e2e", "gpu", "kernel", "h2d", "d2h"};
    static const char *const qs[] = {HISTORY_Q("e2e_median_ns"), HISTORY_Q("gpu_median_ns"),
                                     HISTORY_Q("kernel_median_ns"), HISTORY_Q("h2d_median_ns"),
                                     HISTORY_Q("d2h_median_ns")};
#undef HISTORY_Q
    /* clang-format on */
    struct vb_history *h = NULL, *cur = NULL;
    sqlite3_stmt *st;
    int nh = 0, cap = 0, pcap = 0, rc, nbad = 0;
    size_t k;
    *out = NULL;
    *n = 0;
    for (k = 0; k < sizeof names / sizeof names[0] && strcmp(metric, names[k]); k++) {
    }
    if (k == sizeof names / sizeof names[0])
        return vb_err_set(err, VB_E_USAGE, "unknown metric '%s' (e2e, gpu, kernel, h2d or d2h)",
                          metric);
    if (!(st = vb_store_stmt(s, qs[k], err))) return -1;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        char variant[160], axes[256], gpu[256], what[32];
        vb_store_col_text(st, 3, variant, sizeof variant);
        if (!matches(glob, variant)) continue;
        if (not_time(st, what, sizeof what)) {
            left_out(st, variant, names[k], what, &nbad, err);
            continue;
        }
        vb_store_col_text(st, 4, axes, sizeof axes);
        vb_store_col_text(st, 5, gpu, sizeof gpu);
        if (!cur || strcmp(cur->variant, variant) || strcmp(cur->axes, axes) ||
            strcmp(cur->gpu, gpu)) {
            if (!(cur = add_series(&h, &nh, &cap, variant, axes, gpu))) break;
            pcap = 0;
        } else if (cur->pts[cur->n - 1].run_id == sqlite3_column_int64(st, 0)) {
            continue; /* the run's case on another device */
        }
        if (add_point(cur, &pcap, st)) {
            cur = NULL;
            break;
        }
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        vb_store_fail(s, err, "reading the history");
    } else if (rc == SQLITE_ROW) {
        vb_err_set(err, VB_E_SYS, "out of memory reading the history");
    } else {
        sqlite3_reset(st);
        *out = h;
        *n = nh;
        if (nbad > 1 && err) {
            size_t used = strlen(err->msg);
            snprintf(err->msg + used, sizeof err->msg - used, " (and %d more such median%s)",
                     nbad - 1, nbad == 2 ? "" : "s");
        }
        return 0;
    }
    sqlite3_reset(st);
    vb_store_history_free(h, nh);
    return -1;
}

int vb_store_run_pool(struct vb_store *s, int64_t run_id, int64_t *ids, int cap, int *n,
                      struct vb_err *err)
{
    /* the runs before ?1 by the newest rule: an earlier start, or the same start and a smaller
     * id; on ?1's GPU model ("" for none on either side) */
    /* clang-format off */
    static const char q[] =
        "SELECT r.id FROM runs r, (SELECT b.start_utc, b.id, IFNULL(" VB_STORE_RUN_GPU("b.") ", '') "
        "AS gpu, b.kind FROM runs b WHERE b.id = ?1) base WHERE r.kind = base.kind "
        "AND r.status = 'complete' "
        "AND (r.start_utc < base.start_utc OR (r.start_utc = base.start_utc AND r.id < base.id)) "
        "AND IFNULL(" VB_STORE_RUN_GPU("r.") ", '') = base.gpu "
        "ORDER BY " VB_STORE_NEWEST_FIRST("r.") " LIMIT ?2";
    /* clang-format on */
    char status[16];
    sqlite3_stmt *st;
    int rc;
    *n = 0;
    if (cap < 1) return 0;
    if (vb_store_run_status(s, run_id, status, sizeof status, err)) return -1;
    if (!(st = vb_store_stmt(s, q, err))) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK ||
        sqlite3_bind_int(st, 2, cap - 1) != SQLITE_OK)
        return vb_store_fail(s, err, "bind");
    ids[(*n)++] = run_id;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && *n < cap)
        ids[(*n)++] = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return vb_store_fail(s, err, "reading the runs");
    return 0;
}
