/*
 * store_db: the store's connection (see store.h, store_int.h): opening a file read-only or
 * read-write without ever modifying one that is not a varbench database, WAL and busy
 * handling for several writers on one file, the statement cache, the typed put, the StringIds
 * cache, transactions and the row readers. Workload: a run writes thousands of samples and
 * records per case through a few dozen statements, so statements are prepared once per store
 * and reused (keyed by the address of their SQL text), and every value is a bound parameter.
 */
#include "store_int.h"
#include <errno.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int vb_store_fail(struct vb_store *s, struct vb_err *err, const char *what)
{
    int rc = sqlite3_extended_errcode(s->db);
    vb_err_set(err, VB_E_DB, "database '%s': %s: %s", s->path, what, sqlite3_errmsg(s->db));
    switch (rc & 0xff) {
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
        vb_err_hint(err, "check that the file and its folder are writable, or pass --db with "
                         "another path");
        break;
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
        vb_err_hint(err, "the file is not an intact SQLite database: move it away or pass --db "
                         "with another path (varbench never overwrites it)");
        break;
    case SQLITE_FULL:
        vb_err_hint(err, "the disk is full: free space and run again");
        break;
    case SQLITE_BUSY:
        vb_err_hint(err, "another process holds the database: wait for it or use another --db");
        break;
    default:
        break;
    }
    return -1;
}

int vb_store_exec(struct vb_store *s, const char *sql, struct vb_err *err)
{
    char what[72];
    if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK) return 0;
    /* the statement's start names it; the whole text would crowd out SQLite's message */
    snprintf(what, sizeof what, "%.60s%s", sql, strlen(sql) > 60 ? "..." : "");
    return vb_store_fail(s, err, what);
}

sqlite3_stmt *vb_store_stmt(struct vb_store *s, const char *sql, struct vb_err *err)
{
    sqlite3_stmt *st = NULL;
    int i;
    for (i = 0; i < s->ncache; i++)
        if (s->cache[i].sql == sql) {
            /* reset returns the last step's error, already reported by its caller */
            sqlite3_reset(s->cache[i].st);
            sqlite3_clear_bindings(s->cache[i].st);
            return s->cache[i].st;
        }
    if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
        vb_store_fail(s, err, "prepare");
        return NULL;
    }
    /* the limit is above the count of the store's static statements: one past it would not
     * be cached, and would leak */
    if (s->ncache < VB_STORE_MAX_STMTS) {
        s->cache[s->ncache].sql = sql;
        s->cache[s->ncache++].st = st;
    }
    return st;
}

sqlite3_stmt *vb_store_once(struct vb_store *s, const char *sql, struct vb_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        vb_store_fail(s, err, "prepare");
        return NULL;
    }
    return st;
}

/* bind binds arguments by type letter (see vb_store_put); returns an SQLite code. */
static int bind(sqlite3_stmt *st, const char *types, va_list ap)
{
    int k, rc = SQLITE_OK;
    for (k = 0; types[k] && rc == SQLITE_OK; k++) {
        int col = k + 1;
        switch (types[k]) {
        case 'i':
            rc = sqlite3_bind_int64(st, col, va_arg(ap, int64_t));
            break;
        case 'n':
            rc = sqlite3_bind_int64(st, col, va_arg(ap, int));
            break;
        case 'u':
            rc = sqlite3_bind_int64(st, col, (sqlite3_int64)va_arg(ap, uint64_t));
            break;
        case 'U': {
            uint64_t u = va_arg(ap, uint64_t);
            rc = u ? sqlite3_bind_int64(st, col, (sqlite3_int64)u) : sqlite3_bind_null(st, col);
            break;
        }
        case 'd': {
            double d = va_arg(ap, double);
            rc = isfinite(d) ? sqlite3_bind_double(st, col, d) : sqlite3_bind_null(st, col);
            break;
        }
        case 't': {
            const char *t = va_arg(ap, const char *);
            rc = t ? sqlite3_bind_text(st, col, t, -1, SQLITE_TRANSIENT)
                   : sqlite3_bind_null(st, col);
            break;
        }
        default:
            rc = SQLITE_MISUSE;
        }
    }
    return rc;
}

int vb_store_put(struct vb_store *s, const char *sql, int64_t *rowid, struct vb_err *err,
                 const char *types, ...)
{
    sqlite3_stmt *st = vb_store_stmt(s, sql, err);
    va_list ap;
    int rc;
    if (!st) return -1;
    if ((int)strlen(types) != sqlite3_bind_parameter_count(st))
        return vb_err_set(err, VB_E_DB, "internal: %d values bound to '%.60s...'",
                          (int)strlen(types), sql);
    va_start(ap, types);
    rc = bind(st, types, ap);
    va_end(ap);
    if (rc != SQLITE_OK) return vb_store_fail(s, err, "bind");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    }
    if (rc != SQLITE_DONE) return vb_store_fail(s, err, "write");
    if (rowid) *rowid = sqlite3_last_insert_rowid(s->db);
    sqlite3_reset(st);
    return 0;
}

/* string_id_db looks text up in (or adds it to) StringIds. */
static int string_id_db(struct vb_store *s, const char *text, int64_t *id, struct vb_err *err)
{
    static const char ins[] = "INSERT INTO StringIds(value) VALUES (?) ON CONFLICT(value) DO "
                              "UPDATE SET value = excluded.value RETURNING id";
    sqlite3_stmt *st = vb_store_stmt(s, ins, err);
    int rc;
    if (!st) return -1;
    if (sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT) != SQLITE_OK)
        return vb_store_fail(s, err, "bind");
    rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) return vb_store_fail(s, err, "StringIds");
    *id = sqlite3_column_int64(st, 0);
    while (sqlite3_step(st) == SQLITE_ROW) {
    }
    sqlite3_reset(st);
    return 0;
}

int vb_store_string_id(struct vb_store *s, const char *text, int64_t *id, struct vb_err *err)
{
    int k;
    for (k = 0; k < s->nstrings; k++)
        if (s->strings[k].text && !strcmp(s->strings[k].text, text)) {
            *id = s->strings[k].id;
            return 0;
        }
    if (string_id_db(s, text, id, err)) return -1;
    k = s->nstrings < VB_STORE_MAX_STRINGS ? s->nstrings++
                                           : s->next_string++ % VB_STORE_MAX_STRINGS;
    free(s->strings[k].text);
    s->strings[k].text = strdup(text);
    s->strings[k].id = *id;
    return 0; /* out of memory for the copy: the slot stays empty, nothing is cached */
}

void vb_store_forget_strings(struct vb_store *s)
{
    int k;
    for (k = 0; k < VB_STORE_MAX_STRINGS; k++) {
        free(s->strings[k].text);
        s->strings[k].text = NULL;
    }
    s->nstrings = s->next_string = 0;
}

int vb_store_begin(struct vb_store *s, struct vb_err *err)
{
    return vb_store_exec(s, "BEGIN IMMEDIATE", err);
}

int vb_store_commit(struct vb_store *s, struct vb_err *err)
{
    return vb_store_exec(s, "COMMIT", err);
}

void vb_store_rollback(struct vb_store *s)
{
    /* fails only when no transaction is open (SQLite rolled back itself): nothing to undo */
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    vb_store_forget_strings(s);
}

/* plain_path refuses what --db must not be: a "file:" URI, which SQLite would read as one
 * (mode=memory: nothing stored; "file:x.db": another file than the other commands look for),
 * and a path past SQLite's unix VFS limit (SQLITE_MAX_PATHNAME, 512 bytes). 0 or -1 with err. */
static int plain_path(const char *path, struct vb_err *err)
{
    if (!strncmp(path, "file:", 5)) {
        vb_err_set(err, VB_E_DB, "database '%s': a URI, not a file path", path);
        return vb_err_hint(err, "pass --db with the file's path (%s)", path + 5);
    }
    if (strlen(path) >= 512) {
        vb_err_set(err, VB_E_DB, "database path of %zu characters: SQLite's limit is 511",
                   strlen(path));
        return vb_err_hint(err, "pass --db with a shorter path (a relative one, or a link)");
    }
    return 0;
}

/* no_quoted_strings turns off SQLite's fallback that reads a double-quoted name matching no
 * column as a string literal: merge's SELECT "col" FROM an older file once copied the text
 * 'cupti_client' into every case for a column that file lacked. A wrong name is an error. */
static int no_quoted_strings(sqlite3 *db)
{
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)NULL);
    return rc == SQLITE_OK ? sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (int *)NULL) : rc;
}

const char *vb_store_migrated_uri(const struct vb_store *s)
{
    return s->migrated_uri;
}

/* connect opens path (through `name`, what SQLite opens: the path itself or an immutable URI
 * of it) with flags into a fresh store and reads its schema version and object count; refuses
 * a non-regular file, a foreign or newer database. Returns the store, or NULL with err and, in
 * *sqlite_rc, SQLite's extended code of the failure (SQLITE_OK when it was not SQLite's). */
static struct vb_store *connect(const char *path, const char *name, int flags, int *version,
                                int *sqlite_rc, struct vb_err *err)
{
    struct vb_store *s = calloc(1, sizeof *s);
    int nobjects, memory = !strcmp(path, ":memory:");
    struct stat sb;
    *sqlite_rc = SQLITE_OK;
    if (!s) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        return NULL;
    }
    snprintf(s->path, sizeof s->path, "%s", path);
    if (plain_path(path, err)) {
        free(s);
        return NULL;
    }
    if (!memory && stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        free(s);
        vb_err_set(err, VB_E_DB, "database '%s': not a regular file", path);
        vb_err_hint(err, "pass --db with a file path");
        return NULL;
    }
    if (sqlite3_open_v2(name, &s->db, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, NULL) !=
        SQLITE_OK) {
        if (s->db) *sqlite_rc = sqlite3_extended_errcode(s->db);
        if (s->db)
            vb_store_fail(s, err, "cannot open");
        else
            vb_err_set(err, VB_E_DB, "database '%s': cannot open", path);
        vb_store_close(s);
        return NULL;
    }
    if (sqlite3_extended_result_codes(s->db, 1) != SQLITE_OK ||
        no_quoted_strings(s->db) != SQLITE_OK) {
        vb_store_fail(s, err, "configuring the connection");
        goto fail;
    }
    /* writers take turns per case (a few ms each); ten runs started together wait that long */
    if (sqlite3_busy_timeout(s->db, 30000) != SQLITE_OK) {
        vb_store_fail(s, err, "busy timeout");
        goto fail;
    }
    if (vb_store_schema_version(s, version, &nobjects, err)) {
        *sqlite_rc = sqlite3_extended_errcode(s->db);
        goto fail;
    }
    if (*version > VB_SCHEMA_VERSION) {
        vb_err_set(err, VB_E_DB, "database '%s' has schema %d, newer than this varbench's %d", path,
                   *version, VB_SCHEMA_VERSION);
        vb_err_hint(err, "use a newer varbench, or another --db");
        goto fail;
    }
    if (*version == 0 && nobjects > 0) {
        vb_err_set(err, VB_E_DB, "database '%s' is an SQLite file but not a varbench database",
                   path);
        vb_err_hint(err, "pass --db with another path (varbench does not touch this file)");
        goto fail;
    }
    return s;
fail:
    vb_store_close(s);
    return NULL;
}

int vb_store_copy_migrated(struct vb_store *s, sqlite3 **out, char *uri, struct vb_err *err)
{
    struct vb_store *m = calloc(1, sizeof *m);
    sqlite3_backup *b;
    int rc;
    *out = NULL;
    if (!m) return vb_err_set(err, VB_E_SYS, "out of memory");
    /* a named in-memory database, so that merge's connection can attach this very copy */
    snprintf(uri, 64, "file:vb-migrated-%p?mode=memory&cache=shared", (void *)m);
    snprintf(m->path, sizeof m->path, "%s", s->path);
    if (sqlite3_open_v2(uri, &m->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI,
                        NULL) != SQLITE_OK ||
        no_quoted_strings(m->db) != SQLITE_OK) {
        vb_err_set(err, VB_E_SYS, "database '%s': no memory for a migrated copy", s->path);
        goto fail;
    }
    if (!(b = sqlite3_backup_init(m->db, "main", s->db, "main"))) {
        vb_err_set(err, VB_E_DB, "database '%s': copying it to migrate: %s", s->path,
                   sqlite3_errmsg(m->db));
        goto fail;
    }
    rc = sqlite3_backup_step(b, -1);
    sqlite3_backup_finish(b);
    if (rc != SQLITE_DONE) {
        vb_err_set(err, VB_E_DB, "database '%s': copying it to migrate: %s", s->path,
                   sqlite3_errstr(rc));
        goto fail;
    }
    if (vb_store_schema_ready(m, err)) {
        vb_err_context(err, "migrating a copy in memory");
        goto fail;
    }
    *out = m->db; /* schema_ready caches no statement: the struct goes, the connection stays */
    free(m);
    return 0;
fail:
    sqlite3_close(m->db);
    free(m);
    uri[0] = '\0';
    return -1;
}

/* read_migrated replaces s's connection (a file of an older schema, opened read-only) with a
 * copy of the file in memory brought to VB_SCHEMA_VERSION, so that a reader reads any schema
 * this project wrote without writing the file. 0 or -1 with err (s unchanged). */
static int read_migrated(struct vb_store *s, struct vb_err *err)
{
    sqlite3 *mem;
    if (vb_store_copy_migrated(s, &mem, s->migrated_uri, err)) return -1;
    sqlite3_close(s->db);
    s->db = mem;
    return 0;
}

int vb_store_file_uri(const char *path, const char *query, char *buf, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    /* an absolute path gets an empty authority ("file:///..."): "//x" is never read as a host */
    size_t k = (size_t)snprintf(buf, n, "file:%s", path[0] == '/' ? "//" : "");
    for (; *path; path++) {
        unsigned char ch = (unsigned char)*path;
        if (k + 4 >= n) return -1;
        if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
            strchr("/._-", ch)) {
            buf[k++] = (char)ch;
        } else {
            buf[k++] = '%';
            buf[k++] = hex[ch >> 4];
            buf[k++] = hex[ch & 15];
        }
    }
    if (k + strlen(query) + 2 > n) return -1;
    snprintf(buf + k, n - k, "?%s", query);
    return 0;
}

/* read_only_fallback opens path as immutable after a read-only open was refused for want of
 * write access (a WAL file needs its -shm, made beside it: a read-only folder, or a -shm another
 * user made). Nothing can be writing such a file, but what its -wal holds is not read that way:
 * a -wal with content (a writer killed before its last checkpoint) is refused with the fix.
 * Returns the store or NULL with err. */
static struct vb_store *read_only_fallback(const char *path, int *version, struct vb_err *err)
{
    char wal[1100], uri[3200];
    struct stat sb;
    int rc;
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (stat(wal, &sb) == 0 && sb.st_size > 0) {
        vb_err_set(err, VB_E_DB,
                   "database '%s': its last writes are in '%s', which cannot be read here (the "
                   "file or its folder is read-only and SQLite needs to write '%s-shm' beside it)",
                   path, wal, path);
        vb_err_hint(err, "copy the database with its -wal file to a writable folder and read "
                         "it there, or run 'varbench migrate' on it where it is writable");
        return NULL;
    }
    if (vb_store_file_uri(path, "immutable=1", uri, sizeof uri)) {
        vb_err_set(err, VB_E_DB, "database path '%s' is too long", path);
        return NULL;
    }
    vb_err_clear(err);
    return connect(path, uri, SQLITE_OPEN_READONLY, version, &rc, err);
}

int vb_store_open_ro(const char *path, struct vb_store **out, struct vb_err *err)
{
    struct vb_store *s;
    int v, rc;
    *out = NULL;
    if (plain_path(path, err)) return -1;
    if (access(path, F_OK) != 0) {
        vb_err_set(err, VB_E_DB, "database '%s' does not exist", path);
        return vb_err_hint(err, "pass the path of a database written by 'varbench run'");
    }
    s = connect(path, path, SQLITE_OPEN_READONLY, &v, &rc, err);
    if (!s && ((rc & 0xff) == SQLITE_READONLY || (rc & 0xff) == SQLITE_CANTOPEN))
        s = read_only_fallback(path, &v, err);
    if (!s) return -1;
    if (!v) {
        vb_err_set(err, VB_E_DB, "database '%s' is empty: no varbench runs in it", path);
        vb_err_hint(err, "pass the path of a database written by 'varbench run'");
        vb_store_close(s);
        return -1;
    }
    /* an older schema is read through a migrated copy: the file itself is never written */
    if (v < VB_SCHEMA_VERSION && read_migrated(s, err)) {
        vb_store_close(s);
        return -1;
    }
    *out = s;
    return 0;
}

/* to_wal puts the file in WAL mode (a no-op once it is). Leaving a rollback journal takes an
 * exclusive lock that SQLite does not wait for: with other writers starting at the same time
 * (four runs on an old file) it answers "locked" at once, so this waits itself, up to the busy
 * timeout. 0 or -1 with err. */
static int to_wal(struct vb_store *s, struct vb_err *err)
{
    int tries;
    for (tries = 0; tries < 3000; tries++) {
        int rc = sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
        if (rc == SQLITE_OK) return 0;
        if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) break;
        usleep(10000);
    }
    return vb_store_fail(s, err, "PRAGMA journal_mode = WAL");
}

int vb_store_open(const char *path, struct vb_store **out, struct vb_err *err)
{
    struct vb_store *s;
    int v, rc;
    *out = NULL;
    if (!(s = connect(path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &v, &rc, err)))
        return -1;
    s->writer = strcmp(path, ":memory:") != 0;
    /* WAL: readers never block a writer, and a writer killed mid-transaction leaves the last
     * committed state readable by read-only commands (a rollback journal would have to be
     * rolled back by a writer first). The file was checked to be ours (or empty) above. */
    if (strcmp(path, ":memory:") && to_wal(s, err)) goto fail;
    /* the write lock is taken now: an unwritable file fails here, before any work is done */
    if (vb_store_schema_ready(s, err)) goto fail;
    if (vb_store_exec(s, "PRAGMA foreign_keys = ON", err)) goto fail;
    *out = s;
    return 0;
fail:
    vb_store_close(s);
    return -1;
}

int vb_store_remove(const char *path, struct vb_err *err)
{
    static const char *const sidecars[] = {"", "-wal", "-shm", "-journal"};
    struct vb_store *s;
    char p[4200];
    size_t i;
    if (vb_store_open_ro(path, &s, err)) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        vb_err_set(err, VB_E_USAGE, "'%s' is not replaced: %s", path, why);
        return vb_err_hint(err, "name a new file, or a varbench database to replace");
    }
    vb_store_close(s);
    for (i = 0; i < sizeof sidecars / sizeof sidecars[0]; i++) {
        snprintf(p, sizeof p, "%s%s", path, sidecars[i]);
        if (unlink(p) && errno != ENOENT)
            return vb_err_set(err, VB_E_DB, "cannot remove '%s': %s", p, strerror(errno));
    }
    return 0;
}

void vb_store_close(struct vb_store *s)
{
    int i;
    if (!s) return;
    for (i = 0; i < s->ncache; i++)
        sqlite3_finalize(s->cache[i].st);
    vb_store_forget_strings(s);
    /* The last writer out leaves one self-contained file: back to a rollback journal, which
     * checkpoints the WAL and removes -wal and -shm, so the .db alone is the whole database
     * (an artifact, a copy) and a reader of it, even in a read-only folder, makes no file
     * beside it. It needs the file to itself: while another connection has it open the mode
     * stays WAL (tried once, no wait) and the last one to close switches it. */
    if (s->db && s->writer && sqlite3_busy_timeout(s->db, 0) == SQLITE_OK)
        sqlite3_exec(s->db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
    if (s->db) sqlite3_close(s->db);
    free(s);
}

void vb_store_col_text(sqlite3_stmt *st, int c, char *buf, size_t n)
{
    const unsigned char *t = sqlite3_column_text(st, c);
    snprintf(buf, n, "%s", t ? (const char *)t : "");
}

double vb_store_col_double(sqlite3_stmt *st, int c)
{
    return sqlite3_column_type(st, c) == SQLITE_NULL ? NAN : sqlite3_column_double(st, c);
}

/* grow_rows makes room for one more row of size sz in *arr (count n, capacity *cap). */
static int grow_rows(void **arr, int n, int *cap, size_t sz, struct vb_err *err)
{
    void *p;
    if (n < *cap) return 0;
    p = realloc(*arr, sz * (size_t)(*cap ? *cap * 2 : 16));
    if (!p) return vb_err_set(err, VB_E_SYS, "out of memory reading the database");
    *arr = p;
    *cap = *cap ? *cap * 2 : 16;
    return 0;
}

int vb_store_read_rows(struct vb_store *s, sqlite3_stmt *st, size_t sz,
                       void (*fill)(sqlite3_stmt *, void *), void **rows, int *n,
                       struct vb_err *err)
{
    void *out = NULL;
    int cap = 0, cnt = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (grow_rows(&out, cnt, &cap, sz, err)) {
            free(out);
            sqlite3_reset(st);
            return -1;
        }
        memset((char *)out + sz * (size_t)cnt, 0, sz);
        fill(st, (char *)out + sz * (size_t)cnt++);
    }
    if (rc != SQLITE_DONE) {
        free(out);
        vb_store_fail(s, err, "reading");
        sqlite3_reset(st);
        return -1;
    }
    sqlite3_reset(st);
    *rows = out;
    *n = cnt;
    return 0;
}

int vb_store_run_rows(struct vb_store *s, const char *q, int64_t run_id, size_t sz,
                      void (*fill)(sqlite3_stmt *, void *), void **rows, int *n, struct vb_err *err)
{
    sqlite3_stmt *st = vb_store_once(s, q, err);
    int rc;
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) {
        vb_store_fail(s, err, "bind");
        sqlite3_finalize(st);
        return -1;
    }
    rc = vb_store_read_rows(s, st, sz, fill, rows, n, err);
    sqlite3_finalize(st);
    return rc;
}

int vb_store_count_query(struct vb_store *s, const char *q, int64_t bind, int64_t *n,
                         struct vb_err *err)
{
    sqlite3_stmt *st = vb_store_once(s, q, err);
    int rc;
    if (!st) return -1;
    if (bind > 0 && sqlite3_bind_int64(st, 1, bind) != SQLITE_OK) {
        vb_store_fail(s, err, "bind");
        sqlite3_finalize(st);
        return -1;
    }
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *n = sqlite3_column_int64(st, 0);
    else
        vb_store_fail(s, err, q);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

int vb_store_first_id(struct vb_store *s, const char *q, int64_t *id, struct vb_err *err)
{
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    int rc;
    if (!st) return -1;
    rc = sqlite3_step(st);
    *id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) vb_store_fail(s, err, "reading runs");
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}
