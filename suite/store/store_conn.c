/*
 * store_conn: the store's connection once open (see store.h, store_int.h): errors, the
 * statement cache, the typed put, the StringIds cache, transactions, URIs of a file, closing
 * and the row readers. Workload: a run writes thousands of samples and records per case through
 * a few dozen statements, so statements are prepared once per store and reused (keyed by the
 * address of their SQL text), and every value is a bound parameter. Also the migration lock
 * that `varbench migrate` holds and writers check (below). Opening is store_open.c's; nothing
 * here calls it or the schema's code.
 */
#include "store_int.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>

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

const char *vb_store_migrated_uri(const struct vb_store *s)
{
    return s->migrated_uri;
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

/*
 * The migration lock. `varbench migrate FILE` holds a POSIX write lock on FILE.migrate-lock
 * (FILE by its real path) from before it reads FILE until the new file is renamed over it, in
 * any journal mode: a second migrate of the file, and a writer (vb_store_open) starting
 * meanwhile, are refused naming the holder's pid (F_GETLK gives it). The lock file is removed
 * while still locked, then closed (unlocked): one that opened it before the removal and gets
 * the lock afterwards sees that its file is no longer the name's, and starts again. A migrate
 * that was killed leaves the file unlocked: it then stops no one, and the next migrate removes
 * it. A POSIX lock is safe here because SQLite never opens this file and the migrating process
 * opens it once (closing any descriptor of a file drops all of the process's POSIX locks on
 * it: never lock the database itself this way), and F_GETLK names the holder's pid, which a
 * flock lock would not.
 */

/* lock_name writes path's lock file name (its real path + ".migrate-lock"); -1 when path does
 * not resolve (no file: nothing can be migrating it) or the name does not fit. */
static int lock_name(const char *path, char *buf, size_t n)
{
    char real[PATH_MAX];
    if (!realpath(path, real)) return -1;
    return (size_t)snprintf(buf, n, "%s.migrate-lock", real) < n ? 0 : -1;
}

/* holder returns the pid of another process holding a lock on fd's file, 0 when none does and
 * -1 when one does but its pid is unknown (a lock of another host, over NFS). */
static long holder(int fd)
{
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    if (fcntl(fd, F_GETLK, &fl)) return 0;
    if (fl.l_type == F_UNLCK) return 0;
    return fl.l_pid > 0 ? (long)fl.l_pid : -1;
}

/* busy fills err: path is being migrated by pid (or by a process of unknown pid: -1). */
static int busy(const char *path, long pid, const char *hint, struct vb_err *err)
{
    if (pid > 0)
        vb_err_set(err, VB_E_DB, "'%s' is being migrated by pid %ld", path, pid);
    else
        vb_err_set(err, VB_E_DB, "'%s' is being migrated by another process", path);
    return vb_err_hint(err, "%s", hint);
}

int vb_store_migration_busy(const char *path, struct vb_err *err)
{
    char name[PATH_MAX + 16];
    long pid;
    int fd;
    if (!strcmp(path, ":memory:") || lock_name(path, name, sizeof name)) return 0;
    if ((fd = open(name, O_RDONLY | O_CLOEXEC)) < 0) return 0; /* none, or not ours to read */
    pid = holder(fd);
    close(fd);
    if (!pid) return 0;
    return busy(path, pid,
                "wait for 'varbench migrate' to finish (it replaces the file with one of this "
                "schema), then run again",
                err);
}

int vb_store_migration_lock(const char *path, int *fd, struct vb_err *err)
{
    char name[PATH_MAX + 16], pid[32];
    int tries;
    *fd = -1;
    if (lock_name(path, name, sizeof name))
        return vb_err_set(err, VB_E_DB, "database '%s': no lock file name for it", path);
    for (tries = 0; tries < 1000; tries++) {
        struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
        struct stat a, b;
        long who;
        int f = open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (f < 0) {
            vb_err_set(err, VB_E_DB, "cannot create the lock '%s': %s", name, strerror(errno));
            return vb_err_hint(err, "migrate writes beside the file: its folder must be writable");
        }
        if (!fcntl(f, F_SETLK, &fl)) {
            /* locked: still the file of that name, or one a finished migrate removed? */
            if (!fstat(f, &a) && !stat(name, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
                int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
                /* the pid is for a person reading the file (F_GETLK is what others ask): not
                 * writing it is harmless */
                ssize_t w = ftruncate(f, 0) ? -1 : write(f, pid, (size_t)n);
                (void)w;
                *fd = f;
                return 0;
            }
            close(f);
            continue;
        }
        if (errno != EACCES && errno != EAGAIN) {
            vb_err_set(err, VB_E_DB, "locking '%s': %s", name, strerror(errno));
            close(f);
            return -1;
        }
        who = holder(f);
        close(f);
        if (who)
            return busy(path, who,
                        "wait for it to finish: the file then has this varbench's schema, and "
                        "needs no migration",
                        err);
        usleep(1000); /* released between the two calls: try again */
    }
    return vb_err_set(err, VB_E_DB, "cannot lock '%s': it changes hands too often", name);
}

void vb_store_migration_unlock(const char *path, int fd)
{
    char name[PATH_MAX + 16];
    if (fd < 0) return;
    /* removed while locked, then unlocked by the close (see above) */
    if (!lock_name(path, name, sizeof name)) unlink(name);
    close(fd);
}
