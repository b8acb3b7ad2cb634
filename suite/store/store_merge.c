/*
 * store_merge: `varbench merge`: copy the runs of another database that this one lacks, with
 * everything that belongs to them, in one transaction. The schema says what to copy and how
 * (the rules in store_schema.c), so merge keeps no list of tables or columns: the tables of a
 * run are found by their REFERENCES chain to runs(id) and copied parents first, and every
 * column that references a table is mapped by what that table is: a run's table (ids shifted
 * past this file's), a dictionary such as StringIds (matched by its UNIQUE key) or fixed rows
 * (kept). A reference that merge cannot map stops the merge: no id is ever copied raw into a
 * file where it names something else. Workload: files of a few runs to a few hundred, up to
 * millions of records, so each table is one INSERT ... SELECT.
 */
#include "store_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TABLES 48
#define MAX_COLS   96
#define MAX_REFS   16
#define NAME_LEN   64
#define SQL_LEN    16384

/* One REFERENCES clause: column col holds a row of table pname (its column to). */
struct ref {
    char col[NAME_LEN], pname[NAME_LEN], to[NAME_LEN];
    int parent; /* pname's index in plan.t */
};

/* A table as merge sees it. */
struct table {
    char name[NAME_LEN];
    const struct vb_store_shared_table *shared; /* NULL: a table of a run */
    char cols[MAX_COLS][NAME_LEN];
    int ncols;
    char rowid[NAME_LEN]; /* its INTEGER PRIMARY KEY column, "" without */
    struct ref refs[MAX_REFS];
    int nrefs;
    /* a table of a run, once placed: the reference it belongs to its run through (NULL for
     * runs itself), its distance from runs, and how far its ids move */
    const struct ref *owner;
    int depth, placed;
    int64_t off;
};

/* The target's schema, read once per merge; order: the tables of runs, parents first. */
struct plan {
    struct table t[MAX_TABLES];
    int n, order[MAX_TABLES], norder;
};

/* SQL text built from the schema's names (never from values, which are bound). */
struct sql {
    char s[SQL_LEN];
    size_t len;
    int over;
};

/* add appends printf-style text to q; past SQL_LEN it marks q over, and q runs no more. */
static void add(struct sql *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct sql *q, const char *fmt, ...)
{
    va_list ap;
    int k;
    if (q->over) return;
    va_start(ap, fmt);
    k = vsnprintf(q->s + q->len, sizeof q->s - q->len, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= sizeof q->s - q->len)
        q->over = 1;
    else
        q->len += (size_t)k;
}

/* name_copy copies column c of st, a schema name, into buf (NAME_LEN); refuses one that is
 * empty, too long or holds a double quote (names go into SQL quoted). 0 or -1 with err. */
static int name_copy(char *buf, sqlite3_stmt *st, int c, struct vb_err *err)
{
    const unsigned char *t = sqlite3_column_text(st, c);
    const char *name = t ? (const char *)t : "";
    if (!*name || strlen(name) >= NAME_LEN || strchr(name, '"'))
        return vb_err_set(err, VB_E_DB, "internal: schema name '%.80s' unusable by merge", name);
    snprintf(buf, NAME_LEN, "%s", name);
    return 0;
}

/* find returns the index of table name in p, or -1. */
static int find(const struct plan *p, const char *name)
{
    int i;
    for (i = 0; i < p->n; i++)
        if (!strcmp(p->t[i].name, name)) return i;
    return -1;
}

/* each_row runs the cached statement q, with arg bound as ?1 when not NULL, and calls fn for
 * each row, stopping at fn's first non-zero return. 0 or -1 with err. */
static int each_row(struct vb_store *s, const char *q, const char *arg,
                    int (*fn)(sqlite3_stmt *st, void *ctx, struct vb_err *err), void *ctx,
                    struct vb_err *err)
{
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    int rc;
    if (!st) return -1;
    if (arg && sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT) != SQLITE_OK)
        return vb_store_fail(s, err, "bind");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (fn(st, ctx, err)) break;
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) vb_store_fail(s, err, "reading the schema");
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* take_column adds a row (table, column, the column is a rowid alias) to the plan. */
static int take_column(sqlite3_stmt *st, void *ctx, struct vb_err *err)
{
    struct plan *p = ctx;
    struct table *t = p->n ? &p->t[p->n - 1] : NULL;
    const struct vb_store_shared_table *sh;
    if (!t || strcmp(t->name, (const char *)sqlite3_column_text(st, 0))) {
        if (p->n == MAX_TABLES)
            return vb_err_set(err, VB_E_DB, "internal: over %d tables to merge", MAX_TABLES);
        t = &p->t[p->n++];
        if (name_copy(t->name, st, 0, err)) return -1;
        for (sh = vb_store_shared_tables; sh->name; sh++)
            if (!strcmp(sh->name, t->name)) t->shared = sh;
    }
    if (t->ncols == MAX_COLS)
        return vb_err_set(err, VB_E_DB, "internal: '%s' has over %d columns", t->name, MAX_COLS);
    if (name_copy(t->cols[t->ncols], st, 1, err)) return -1;
    if (sqlite3_column_int(st, 2)) snprintf(t->rowid, sizeof t->rowid, "%s", t->cols[t->ncols]);
    t->ncols++;
    return 0;
}

/* take_ref adds a row (table, from, table, to, seq) of the REFERENCES clauses to the plan. */
static int take_ref(sqlite3_stmt *st, void *ctx, struct vb_err *err)
{
    struct plan *p = ctx;
    int i = find(p, (const char *)sqlite3_column_text(st, 0));
    struct table *t = i < 0 ? NULL : &p->t[i];
    struct ref *r;
    if (!t) return vb_err_set(err, VB_E_DB, "internal: the schema changed during the merge");
    if (sqlite3_column_int(st, 4) > 0)
        return vb_err_set(err, VB_E_DB,
                          "internal: '%s' has a reference of several columns, "
                          "which merge cannot map",
                          t->name);
    if (t->nrefs == MAX_REFS)
        return vb_err_set(err, VB_E_DB, "internal: '%s' has over %d references", t->name, MAX_REFS);
    r = &t->refs[t->nrefs++];
    if (name_copy(r->col, st, 1, err) || name_copy(r->pname, st, 2, err)) return -1;
    return sqlite3_column_type(st, 3) == SQLITE_NULL ? 0 : name_copy(r->to, st, 3, err);
}

/* read_plan reads the target's tables, their columns, INTEGER PRIMARY KEY and REFERENCES
 * clauses, and checks that merge can map each reference: to a dictionary or fixed rows by any
 * column, to a run's table by its INTEGER PRIMARY KEY (the ids merge shifts), to the file's own
 * tables never. 0 or -1 with err. */
static int read_plan(struct vb_store *s, struct plan *p, struct vb_err *err)
{
#define TABLES "main.sqlite_master m"
#define OURS   "m.type = 'table' AND substr(m.name, 1, 7) <> 'sqlite_'"
    /* a rowid alias: the one primary-key column, declared INTEGER */
    static const char cq[] =
        "SELECT m.name, c.name, c.pk = 1 AND upper(c.type) = 'INTEGER' AND (SELECT count(*) "
        "FROM pragma_table_info(m.name, 'main') WHERE pk > 0) = 1 FROM " TABLES ", "
        "pragma_table_info(m.name, 'main') c WHERE " OURS " ORDER BY m.name, c.cid";
    static const char fq[] = "SELECT m.name, f.\"from\", f.\"table\", f.\"to\", f.seq FROM " TABLES
                             ", pragma_foreign_key_list(m.name, 'main') f WHERE " OURS;
#undef OURS
#undef TABLES
    int i, k;
    if (each_row(s, cq, NULL, take_column, p, err) || each_row(s, fq, NULL, take_ref, p, err))
        return -1;
    for (i = 0; i < p->n; i++) {
        struct table *t = &p->t[i];
        if (t->shared && t->shared->role != VB_TABLE_FILE && t->nrefs)
            return vb_err_set(err, VB_E_DB,
                              "internal: shared table '%s' references another "
                              "table, which merge cannot map",
                              t->name);
        for (k = 0; k < t->nrefs; k++) {
            struct ref *r = &t->refs[k];
            const struct table *u;
            if ((r->parent = find(p, r->pname)) < 0)
                return vb_err_set(err, VB_E_DB,
                                  "internal: '%s.%s' references '%s', which is "
                                  "not in the schema",
                                  t->name, r->col, r->pname);
            u = &p->t[r->parent];
            if (!r->to[0]) snprintf(r->to, sizeof r->to, "%s", u->rowid);
            if ((u->shared && u->shared->role == VB_TABLE_FILE) ||
                (!u->shared && strcmp(r->to, u->rowid)) || !r->to[0])
                return vb_err_set(err, VB_E_DB,
                                  "internal: merge cannot map '%s.%s' (a reference "
                                  "to '%s.%s')",
                                  t->name, r->col, u->name, r->to);
        }
    }
    return 0;
}

/* order_tables places runs, then every table of a run once all the run's tables it references
 * are placed, owned through the reference nearest to runs. A table that is neither shared nor
 * reaches runs is a schema error. 0 or -1 with err. */
static int order_tables(struct plan *p, struct vb_err *err)
{
    int i, k, progress = 1, runs = find(p, "runs");
    if (runs < 0) return vb_err_set(err, VB_E_DB, "internal: no table 'runs' to merge");
    p->t[runs].placed = 1;
    p->order[0] = runs;
    p->norder = 1;
    while (progress) {
        progress = 0;
        for (i = 0; i < p->n; i++) {
            struct table *t = &p->t[i];
            const struct ref *own = NULL;
            int ready = 1;
            if (t->placed || t->shared) continue;
            for (k = 0; k < t->nrefs; k++) {
                const struct table *u = &p->t[t->refs[k].parent];
                if (u->shared) continue;
                if (!u->placed)
                    ready = 0;
                else if (!own || u->depth < p->t[own->parent].depth)
                    own = &t->refs[k];
            }
            if (!ready || !own) continue;
            t->owner = own;
            t->depth = p->t[own->parent].depth + 1;
            t->placed = progress = 1;
            p->order[p->norder++] = i;
        }
    }
    for (i = 0; i < p->n; i++)
        if (!p->t[i].placed && !p->t[i].shared)
            return vb_err_set(err, VB_E_DB,
                              "internal: table '%s' belongs to no run (no "
                              "REFERENCES chain to 'runs')",
                              p->t[i].name);
    return 0;
}

/* owner_where adds the condition that picks, in schema sch ("src" or "main"), the rows of
 * table t that belong to the runs listed in runs_tmp (ids of that schema's runs). */
static void owner_where(const struct plan *p, const struct table *t, const char *sch,
                        const char *runs_tmp, struct sql *q)
{
    const struct table *u;
    if (!t->owner) {
        add(q, "\"%s\" IN (SELECT id FROM %s)", t->rowid, runs_tmp);
        return;
    }
    u = &p->t[t->owner->parent];
    if (!u->owner) {
        add(q, "\"%s\" IN (SELECT id FROM %s)", t->owner->col, runs_tmp);
        return;
    }
    add(q, "\"%s\" IN (SELECT \"%s\" FROM %s.\"%s\" WHERE ", t->owner->col, t->owner->to, sch,
        u->name);
    owner_where(p, u, sch, runs_tmp, q);
    add(q, ")");
}

/* The columns of a table's (?1) first UNIQUE constraint, in order: a dictionary's key. */
static const char unique_key[] = "SELECT ii.name FROM pragma_index_list(?1, 'main') il, "
                                 "pragma_index_info(il.name, 'main') ii WHERE il.seq = (SELECT "
                                 "min(seq) FROM pragma_index_list(?1, 'main') WHERE \"unique\" "
                                 "AND origin = 'u') ORDER BY ii.seqno";

/* key_column adds one column of a dictionary's UNIQUE key to the match of its rows (the first
 * follows the "ON " of the join, the others an AND). */
static int key_column(sqlite3_stmt *st, void *ctx, struct vb_err *err)
{
    struct sql *q = ctx;
    char col[NAME_LEN];
    if (name_copy(col, st, 0, err)) return -1;
    add(q, "%sx.\"%s\" = m.\"%s\"", q->s[q->len - 1] == ' ' ? "" : " AND ", col, col);
    return 0;
}

/* column_expr adds the SELECT expression that copies column col of table t from src into
 * main: a reference mapped by its parent, the table's own id shifted, any other value as is. */
static int column_expr(struct vb_store *s, const struct plan *p, const struct table *t,
                       const char *col, struct sql *q, struct vb_err *err)
{
    int k;
    size_t at;
    for (k = 0; k < t->nrefs; k++) {
        const struct ref *r = &t->refs[k];
        const struct table *u = &p->t[r->parent];
        if (strcmp(r->col, col)) continue;
        if (!u->shared) {
            add(q, "\"%s\" + :o%d", col, r->parent);
        } else if (u->shared->role == VB_TABLE_NAMES) {
            add(q, "(SELECT m.\"%s\" FROM main.\"%s\" m JOIN src.\"%s\" x ON ", r->to, u->name,
                u->name);
            at = q->len;
            if (each_row(s, unique_key, u->name, key_column, q, err)) return -1;
            if (q->len == at)
                return vb_err_set(err, VB_E_DB,
                                  "internal: dictionary '%s' has no UNIQUE key to "
                                  "match its rows by",
                                  u->name);
            add(q, " WHERE x.\"%s\" = \"%s\")", r->to, col);
        } else {
            add(q, "\"%s\"", col); /* fixed rows: the same ids in every file */
        }
        return 0;
    }
    if (!strcmp(col, t->rowid))
        add(q, "\"%s\" + :o%d", col, (int)(t - p->t));
    else
        add(q, "\"%s\"", col);
    return 0;
}

/* run_built prepares q, binds each table's id offset by name (:o<table>) and runs it, naming
 * table t in an error. 0 or -1 with err. */
static int run_built(struct vb_store *s, const struct plan *p, const struct table *t,
                     const struct sql *q, struct vb_err *err)
{
    sqlite3_stmt *st;
    int k, rc = SQLITE_OK;
    char name[16];
    if (q->over)
        return vb_err_set(err, VB_E_DB, "internal: merging '%s' takes over %d bytes of SQL",
                          t->name, SQL_LEN);
    if (!(st = vb_store_once(s, q->s, err))) return vb_err_context(err, "table '%s'", t->name);
    for (k = 0; k < p->n && rc == SQLITE_OK; k++) {
        int at;
        snprintf(name, sizeof name, ":o%d", k);
        if ((at = sqlite3_bind_parameter_index(st, name)) > 0)
            rc = sqlite3_bind_int64(st, at, p->t[k].off);
    }
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) vb_store_fail(s, err, t->name);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* copy_table copies the rows of table t that belong to the runs listed in temp.merge_runs. */
static int copy_table(struct vb_store *s, const struct plan *p, const struct table *t,
                      struct vb_err *err)
{
    struct sql *q = calloc(2, sizeof *q), *cols = q + 1;
    int k, rc = -1;
    if (!q) return vb_err_set(err, VB_E_SYS, "out of memory");
    add(q, "INSERT INTO main.\"%s\"(", t->name);
    for (k = 0; k < t->ncols; k++) {
        add(q, "%s\"%s\"", k ? "," : "", t->cols[k]);
        if (k) add(cols, ",");
        if (column_expr(s, p, t, t->cols[k], cols, err)) goto out;
    }
    add(q, ") SELECT %s FROM src.\"%s\" WHERE ", cols->s, t->name);
    owner_where(p, t, "src", "temp.merge_runs", q);
    q->over |= cols->over;
    rc = run_built(s, p, t, q, err);
out:
    free(q);
    return rc;
}

/* fill_nulls sets, in the rows of dictionary t that main had, each column main holds NULL in
 * (a row an older varbench wrote: variants' problem and flags before schema 8) to the source's
 * value for the same key. 0 or -1 with err. */
static int fill_nulls(struct vb_store *s, const struct plan *p, const struct table *t,
                      struct vb_err *err)
{
    struct sql q;
    size_t at;
    int k;
    for (k = 0; k < t->ncols; k++) {
        const char *c = t->cols[k];
        if (!strcmp(c, t->rowid)) continue; /* a key column is never NULL where it matches */
        memset(&q, 0, sizeof q);
        add(&q,
            "UPDATE main.\"%s\" AS m SET \"%s\" = x.\"%s\" FROM src.\"%s\" x WHERE m.\"%s\" IS "
            "NULL AND x.\"%s\" IS NOT NULL AND ",
            t->name, c, c, t->name, c, c);
        at = q.len;
        if (each_row(s, unique_key, t->name, key_column, &q, err)) return -1;
        if (q.len == at)
            return vb_err_set(err, VB_E_DB,
                              "internal: dictionary '%s' has no UNIQUE key to match its rows by",
                              t->name);
        if (run_built(s, p, t, &q, err)) return -1;
    }
    return 0;
}

/* copy_dicts adds to main every row of each dictionary that it lacks (by its UNIQUE key); the
 * rows main has keep their ids and values, a NULL of theirs filled from the source's row. */
static int copy_dicts(struct vb_store *s, const struct plan *p, struct vb_err *err)
{
    struct sql q, cols;
    int i, k;
    for (i = 0; i < p->n; i++) {
        const struct table *t = &p->t[i];
        if (!t->shared || t->shared->role != VB_TABLE_NAMES) continue;
        memset(&cols, 0, sizeof cols);
        for (k = 0; k < t->ncols; k++)
            if (strcmp(t->cols[k], t->rowid))
                add(&cols, "%s\"%s\"", cols.len ? "," : "", t->cols[k]);
        memset(&q, 0, sizeof q);
        add(&q, "INSERT OR IGNORE INTO main.\"%s\"(%s) SELECT %s FROM src.\"%s\"", t->name, cols.s,
            cols.s, t->name);
        q.over |= cols.over;
        if (run_built(s, p, t, &q, err) || fill_nulls(s, p, t, err)) return -1;
    }
    return 0;
}

/* drop_partial deletes from main every run listed in temp.merge_replace (a partial copy of a
 * run the source holds more of), children first. */
static int drop_partial(struct vb_store *s, const struct plan *p, struct vb_err *err)
{
    struct sql q;
    int k;
    for (k = p->norder - 1; k >= 0; k--) {
        const struct table *t = &p->t[p->order[k]];
        memset(&q, 0, sizeof q);
        add(&q, "DELETE FROM main.\"%s\" WHERE ", t->name);
        owner_where(p, t, "main", "temp.merge_replace", &q);
        if (run_built(s, p, t, &q, err)) return -1;
    }
    return 0;
}

/* shift_ids sets each run table's id offset to main's largest id of it, so the copies' ids
 * follow this file's. 0 or -1 with err. */
static int shift_ids(struct vb_store *s, struct plan *p, struct vb_err *err)
{
    int k, rc;
    for (k = 0; k < p->norder; k++) {
        struct table *t = &p->t[p->order[k]];
        struct sql q;
        sqlite3_stmt *st;
        if (!t->rowid[0]) continue;
        memset(&q, 0, sizeof q);
        add(&q, "SELECT IFNULL(max(\"%s\"), 0) FROM main.\"%s\"", t->rowid, t->name);
        if (!(st = vb_store_once(s, q.s, err))) return -1;
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            t->off = sqlite3_column_int64(st, 0);
        else
            vb_store_fail(s, err, q.s);
        sqlite3_finalize(st);
        if (rc != SQLITE_ROW) return -1;
    }
    return 0;
}

/* attach attaches the input as src: the file at path, read-only, or, for a file of an older
 * schema, its copy migrated in memory (in's, which stays open until the detach). 0 or -1. */
static int attach(struct vb_store *s, const struct vb_store *in, const char *path,
                  struct vb_err *err)
{
    char uri[4200];
    sqlite3_stmt *st;
    int rc;
    if (vb_store_migrated_uri(in)[0])
        snprintf(uri, sizeof uri, "%s", vb_store_migrated_uri(in));
    else if (vb_store_file_uri(path, "mode=ro", uri, sizeof uri))
        return vb_err_set(err, VB_E_DB, "database path '%s' is too long", path);
    if (!(st = vb_store_once(s, "ATTACH DATABASE ? AS src", err))) return -1;
    rc = sqlite3_bind_text(st, 1, uri, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc != SQLITE_DONE) vb_store_fail(s, err, "attach");
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int vb_store_merge(struct vb_store *s, const char *path, int *added, int *replaced,
                   struct vb_err *err)
{
    struct vb_store *in;
    struct plan *p = calloc(1, sizeof *p);
    int64_t nrep = 0, nnew = 0;
    int k;
    *added = 0;
    if (replaced) *replaced = 0;
    if (!p) return vb_err_set(err, VB_E_SYS, "out of memory");
    /* the input must be a varbench database; it is only ever read, an older schema through
     * its copy migrated in memory (attached as it is, its missing columns would be read as
     * nothing, or worse) */
    if (vb_store_open_ro(path, &in, err)) {
        free(p);
        return -1;
    }
    if (attach(s, in, path, err)) goto detach;
    if (vb_store_begin(s, err)) goto detach;
    if (read_plan(s, p, err) || order_tables(p, err)) goto rollback;
    /* a run merged while it was still being written (or from a file whose writer died) is
     * replaced by a more complete copy: one that finished, or one with more cases */
    if (vb_store_exec(s,
                      "CREATE TEMP TABLE merge_replace AS SELECT m.id AS id FROM main.runs m "
                      "JOIN src.runs x ON x.uuid = m.uuid WHERE (m.status = 'running' AND "
                      "x.status <> 'running') OR (m.status = x.status AND (SELECT count(*) "
                      "FROM src.cases c WHERE c.run_id = x.id) > (SELECT count(*) FROM "
                      "main.cases c WHERE c.run_id = m.id))",
                      err) ||
        drop_partial(s, p, err) ||
        vb_store_exec(s,
                      "CREATE TEMP TABLE merge_runs AS SELECT id FROM src.runs WHERE uuid "
                      "NOT IN (SELECT uuid FROM main.runs)",
                      err) ||
        copy_dicts(s, p, err) || shift_ids(s, p, err))
        goto rollback;
    for (k = 0; k < p->norder; k++)
        if (copy_table(s, p, &p->t[p->order[k]], err)) goto rollback;
    if (vb_store_count_query(s, "SELECT count(*) FROM temp.merge_replace", 0, &nrep, err) ||
        vb_store_count_query(s, "SELECT count(*) FROM temp.merge_runs", 0, &nnew, err) ||
        vb_store_exec(s, "DROP TABLE temp.merge_runs", err) ||
        vb_store_exec(s, "DROP TABLE temp.merge_replace", err) || vb_store_commit(s, err))
        goto rollback;
    vb_store_forget_strings(s);
    *added = (int)(nnew - nrep);
    if (replaced) *replaced = (int)nrep;
    free(p);
    /* the merge is committed: a file left attached is closed with the store */
    sqlite3_exec(s->db, "DETACH DATABASE src", NULL, NULL, NULL);
    vb_store_close(in);
    return 0;
rollback:
    vb_store_rollback(s);
    sqlite3_exec(s->db, "DROP TABLE IF EXISTS temp.merge_runs", NULL, NULL, NULL);
    sqlite3_exec(s->db, "DROP TABLE IF EXISTS temp.merge_replace", NULL, NULL, NULL);
detach:
    sqlite3_exec(s->db, "DETACH DATABASE src", NULL, NULL, NULL);
    vb_store_close(in);
    free(p);
    return vb_err_context(err, "merging '%s'", path);
}
