/*
 * store_int: the store's private header (SQLite's sqliteInt.h pattern), included only by the
 * suite/store/store_*.c files: the connection object, the statement cache, the typed put, the
 * StringIds cache, transactions and the row readers they share. store_conn.c implements them
 * (store_open.c opens); the other store_*.c files use them.
 * Nothing here is API: callers outside the store see store.h only.
 */
#ifndef VB_STORE_INT_H
#define VB_STORE_INT_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

#define VB_STORE_MAX_STMTS   64
#define VB_STORE_MAX_STRINGS 64

/* The one "newest run" rule, for every reader that picks or lists runs by age: newest by start
 * time (start_utc, an ISO 8601 UTC text that sorts as it reads), ties by the larger id. Not the
 * largest id alone: after a merge that is the last run merged, not the last run taken. `r` is
 * the runs table's alias with its dot ("r.") or "". */
#define VB_STORE_NEWEST_FIRST(r) r "start_utc DESC, " r "id DESC"
/* The same rule, oldest first (a history, vb_store_runs). */
#define VB_STORE_OLDEST_FIRST(r) r "start_utc, " r "id"

/* A run's GPU, as every reader names it: its device 0's name (its lowest device id), NULL
 * without a GPU. `r` is the runs table's alias with its dot ("r."); the subquery's own alias
 * is g. */
#define VB_STORE_RUN_GPU(r) VB_STORE_RUN_FIRST_GPU(r, "name")

/* Column `what` of the run's first GPU (TARGET_INFO_GPU), NULL without one: its name, its NVML
 * update periods (schema 14, ms: energyPeriodMs, powerPeriodMs; NULL where not measured) */
#define VB_STORE_RUN_FIRST_GPU(r, what)                                                            \
    "(SELECT g." what " FROM TARGET_INFO_GPU g WHERE g.run_id = " r "id ORDER BY g.id LIMIT 1)"

/* Every board's NVML update periods in a run, as text ("0000:19:00.0: energy counter every 25.0
 * ms (1520 mJ a step), power reading every 100.0 ms; ..."), NULL where none was measured */
#define VB_STORE_RUN_NVML(r)                                                                       \
    "(SELECT group_concat(g.busLocation || ': energy counter every ' || "                          \
    "printf('%.1f ms (%.0f mJ a step)', g.energyPeriodMs, g.energyStepMj) || "                     \
    "', power reading every ' || CASE WHEN g.powerPeriodMs IS NULL THEN '? ms' ELSE "              \
    "printf('%.1f ms', g.powerPeriodMs) END, '; ') FROM (SELECT * FROM TARGET_INFO_GPU "           \
    "WHERE run_id = " r "id AND energyPeriodMs IS NOT NULL ORDER BY id) g)"

/* A kernel's SASS hash in a run, as every reader takes it (kernel_code, schema 10): the one hash
 * the run stored under the kernel's name, NULL when it stored none or two (two modules with a
 * kernel of one name). `run` and `name` are SQL expressions; the subquery's own alias is kc. */
#define VB_STORE_KERNEL_HASH(run, name)                                                            \
    "(SELECT CASE WHEN count(DISTINCT kc.sass_hash) = 1 THEN min(kc.sass_hash) END "               \
    "FROM kernel_code kc WHERE kc.run_id = " run " AND kc.name = " name ")"

struct vb_store {
    sqlite3 *db;
    char path[1024];
    int writer; /* opened by vb_store_open on a file: its close leaves it self-contained */
    /* a file of an older schema is read through a copy migrated in memory: the URI by which
     * another connection of this process attaches that copy (merge), "" otherwise */
    char migrated_uri[64];
    /* prepared statements, keyed by the address of their SQL text (a static array) */
    struct {
        const char *sql;
        sqlite3_stmt *st;
    } cache[VB_STORE_MAX_STMTS];
    int ncache;
    /* StringIds already written (kernel names and NVTX texts repeat in every sample); emptied
     * when a transaction rolls back, since its ids may then not exist */
    struct {
        char *text;
        int64_t id;
    } strings[VB_STORE_MAX_STRINGS];
    int nstrings, next_string;
};

/* Connection and statements (store_conn.c). */

/* vb_store_copy_migrated copies the database of s's connection (a file of an older schema)
 * into a new in-memory database brought to VB_SCHEMA_VERSION; s is unchanged. *out is the
 * caller's (sqlite3_close); uri (64 bytes) gets the URI by which another connection of this
 * process attaches that copy while it is open. 0 or -1 with err. */
int vb_store_copy_migrated(struct vb_store *s, sqlite3 **out, char *uri, struct vb_err *err);

/* vb_store_file_uri writes the SQLite URI of the file at path with query ("mode=ro",
 * "immutable=1"): "file:", the path percent-encoded (an absolute one after an empty
 * authority), "?query". 0, or -1 when it does not fit in n bytes. */
int vb_store_file_uri(const char *path, const char *query, char *buf, size_t n);

/* vb_store_migrated_uri: "" for a file read as it is; for one of an older schema, the URI of
 * its copy migrated in memory, which another connection of this process can ATTACH while s is
 * open (merge reads old inputs that way, as every reader reads them). */
const char *vb_store_migrated_uri(const struct vb_store *s);

/* vb_store_fail fills err from the connection's last error, saying `what` failed, with a hint
 * for the codes that have a known fix (read-only, not a database, disk full, busy); returns
 * -1. */
int vb_store_fail(struct vb_store *s, struct vb_err *err, const char *what);
/* vb_store_exec runs sql (one or more statements, no parameters); 0 or -1 with err naming the
 * statement by its start. */
int vb_store_exec(struct vb_store *s, const char *sql, struct vb_err *err);
/* vb_store_stmt returns the cached prepared statement for sql (reset, bindings cleared), or
 * NULL with err. sql must be a static string: its address is the cache key. The store owns the
 * statement (finalized by vb_store_close). */
sqlite3_stmt *vb_store_stmt(struct vb_store *s, const char *sql, struct vb_err *err);
/* vb_store_once prepares sql for a statement run once per command (not cached: the caller
 * finalizes it); NULL with err. */
sqlite3_stmt *vb_store_once(struct vb_store *s, const char *sql, struct vb_err *err);
/* vb_store_put runs the cached statement sql to completion with the arguments bound by type
 * letter: i int64, n int, u uint64, U uint64 (0 -> NULL), d double (non-finite -> NULL),
 * t text (NULL -> NULL); one letter per parameter. Sets *rowid (if not NULL) to the last
 * inserted row. 0 or -1 with err. */
int vb_store_put(struct vb_store *s, const char *sql, int64_t *rowid, struct vb_err *err,
                 const char *types, ...);
/* vb_store_string_id sets *id to text's StringIds id, inserting it once (cached per store).
 * 0 or -1 with err. */
int vb_store_string_id(struct vb_store *s, const char *text, int64_t *id, struct vb_err *err);
/* vb_store_forget_strings empties the StringIds cache. This can't fail. */
void vb_store_forget_strings(struct vb_store *s);

/* The migration lock (store_conn.c says how it works). */

/* vb_store_migration_lock takes path's migration lock (an existing file, named by its real
 * path) for a migration, without waiting; *fd is the caller's, for vb_store_migration_unlock.
 * 0, or -1 with err (VB_E_DB): "'path' is being migrated by pid N" when another process holds
 * it, or the lock file could not be made. */
int vb_store_migration_lock(const char *path, int *fd, struct vb_err *err);
/* vb_store_migration_unlock removes path's lock file and releases the lock (fd -1: nothing to
 * do). This can't fail. */
void vb_store_migration_unlock(const char *path, int fd);
/* vb_store_migration_busy: 0 when no process is migrating path (no such file, no lock file, or
 * an unlocked one: that of a migrate that was killed), -1 with err (VB_E_DB, "'path' is being
 * migrated by pid N", a hint) when one is. Takes no lock: a writer asks before and after it
 * opens the file. */
int vb_store_migration_busy(const char *path, struct vb_err *err);

/* vb_store_check_size refuses (VB_E_DB: the file, its size, what its header says, a hint) an
 * opened database file shorter than its header's page count times its page size: a file cut
 * short, whose missing bytes SQLite would read as zeros when the cut is inside the last page.
 * Checked under a read transaction (no writer is writing the file meanwhile), and only where
 * the file alone is the database: not with a -wal or -journal holding content (store_open.c
 * says why). 0 when the sizes agree or cannot be checked; -1 with err. */
int vb_store_check_size(struct vb_store *s, struct vb_err *err);

/* Transactions (store_conn.c). begin takes the write lock at once (BEGIN IMMEDIATE, waiting for
 * other writers up to the busy timeout), so no transaction fails later on upgrading its lock.
 * rollback also empties the StringIds cache (its ids may have been rolled back); it can't
 * fail. */
int vb_store_begin(struct vb_store *s, struct vb_err *err);
int vb_store_commit(struct vb_store *s, struct vb_err *err);
void vb_store_rollback(struct vb_store *s);

/* Schema (store_schema.c). */

/* How merge treats a table that belongs to no run; every other table belongs to a run through
 * a REFERENCES chain to runs(id) (the rules are in store_schema.c). */
enum vb_store_table_role {
    VB_TABLE_FILE,  /* the file's own (meta): never merged, never referenced */
    VB_TABLE_NAMES, /* a dictionary: rows matched by their UNIQUE key, ids differ per file */
    VB_TABLE_FIXED, /* the same rows under the same ids in every file (an enum) */
};
struct vb_store_shared_table {
    const char *name;
    enum vb_store_table_role role;
};
/* vb_store_shared_tables lists the tables that belong to no run; ends with a NULL name. */
extern const struct vb_store_shared_table vb_store_shared_tables[];

/* vb_store_schema_version reads the file's schema version (PRAGMA user_version) and the count
 * of its schema objects (0: an empty file). 0 or -1 with err. */
int vb_store_schema_version(struct vb_store *s, int *version, int *nobjects, struct vb_err *err);
/* vb_store_schema_ready brings an opened read-write file to VB_SCHEMA_VERSION in one write
 * transaction: creates the schema in an empty file, migrates an older one. The version is read
 * again under the lock (another writer may have created or migrated it since the file was
 * opened); a file that became foreign or newer meanwhile is refused untouched. 0 or -1. */
int vb_store_schema_ready(struct vb_store *s, struct vb_err *err);

/* Rows (store_conn.c). */

/* vb_store_col_text copies column c of the current row into buf ("" for NULL). */
void vb_store_col_text(sqlite3_stmt *st, int c, char *buf, size_t n);
/* vb_store_col_double returns column c of the current row, NaN for NULL. */
double vb_store_col_double(sqlite3_stmt *st, int c);
/* vb_store_read_rows steps st (bound by the caller; reset, not finalized) and calls fill for
 * each row into a zeroed slot of a growing array of rows of size sz; on success *rows and *n
 * hold it (the caller frees *rows). 0 or -1 with err (nothing allocated). */
int vb_store_read_rows(struct vb_store *s, sqlite3_stmt *st, size_t sz,
                       void (*fill)(sqlite3_stmt *, void *), void **rows, int *n,
                       struct vb_err *err);
/* vb_store_run_rows reads every row of query q (prepared once, not cached: for commands that
 * run it once a process) for run run_id (?1) with vb_store_read_rows. 0 or -1 with err. */
int vb_store_run_rows(struct vb_store *s, const char *q, int64_t run_id, size_t sz,
                      void (*fill)(sqlite3_stmt *, void *), void **rows, int *n,
                      struct vb_err *err);
/* vb_store_count_query runs q once (prepared, not cached: q may name a table made for one
 * use), with ?1 bound to bind when bind > 0, and sets *n to column 0 of its first row (a
 * count). 0, or -1 with err (a failure, or no row). */
int vb_store_count_query(struct vb_store *s, const char *q, int64_t bind, int64_t *n,
                         struct vb_err *err);
/* vb_store_first_id sets *id to column 0 of the first row of the cached statement q (no
 * parameters), or to -1 when it has no row. 0 or -1 with err. */
int vb_store_first_id(struct vb_store *s, const char *q, int64_t *id, struct vb_err *err);

/* A case's columns (store_columns.c: the table of store_columns.h). */

/* vb_store_case_insert writes r's row of cases (run run_id, variants row variant_id) with the
 * table's INSERT, inside the caller's transaction, and sets *case_id. 0 or -1 with err. */
int vb_store_case_insert(struct vb_store *s, int64_t run_id, int64_t variant_id,
                         const struct vb_case_result *r, int64_t *case_id, struct vb_err *err);
/* vb_store_cases_sql: vb_store_cases' query, the table's SELECT of a run's cases (?1) by id; a
 * static text, built once (the statement cache's key). This can't fail. */
const char *vb_store_cases_sql(void);
/* vb_store_fill_case reads a row of that query into a struct vb_case_row (row), the fill of
 * vb_store_read_rows. */
void vb_store_fill_case(sqlite3_stmt *st, void *row);

/* Writers shared by store_write.c and store_trace.c. */

/* The values of a TARGET_INFO_GPU row, all 26 columns in order: what vb_store_put_gpu binds. */
#define VB_GPU_VALUES "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"

/* vb_store_put_gpu writes g as a TARGET_INFO_GPU row of run_id with sql, an INSERT of
 * VB_GPU_VALUES. 0 or -1 with err. */
int vb_store_put_gpu(struct vb_store *s, const char *sql, int64_t run_id,
                     const struct vb_gpu_env *g, struct vb_err *err);

#endif
