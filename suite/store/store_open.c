/*
 * store_open: opening a store (see store.h): a file read-only or read-write without ever
 * modifying one that is not a varbench database, an older schema read through a migrated
 * in-memory copy, WAL and busy handling for several writers on one file, removing a file and its
 * companions. Calls the schema (store_schema.c) and the connection (store_conn.c), neither of
 * which calls it.
 */
#include "store_int.h"
#include <errno.h>
#include <stdint.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* be32 reads the big-endian 32-bit number at p (the SQLite header's byte order). */
static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* nonempty: the file at path+suffix exists and holds bytes. */
static int nonempty(const char *path, const char *suffix)
{
    char p[1100];
    struct stat sb;
    snprintf(p, sizeof p, "%s%s", path, suffix);
    return stat(p, &sb) == 0 && sb.st_size > 0;
}

/*
 * The size check. SQLite reads bytes past a file's end as zeros and fails only when whole pages
 * are missing (the header's page count above the pages the length rounds up to): a file cut
 * inside its last page reads as intact, wrong values and all. So the header (fileformat2.html:
 * page size at 16, 1 for 65536; page count at 28, valid while the version-valid-for number at
 * 92 equals the change counter at 24) is held to the file's length, read through the
 * connection's own file handle (a descriptor of ours opened and closed on the file would drop
 * SQLite's POSIX locks on it). Under a read transaction no writer writes the file (rollback
 * journal: SHARED lock; WAL: a reader of an empty WAL holds checkpoints off) and a hot journal
 * has been rolled back. Not checked, honestly unknown: with a -wal holding frames (the newest
 * pages are there and the file catches up at the next checkpoint, so it may legitimately be
 * shorter than a header the WAL has since replaced), with a -journal holding content (a
 * rollback-journal writer between its writes), when the read transaction waits on a writer
 * (busy), or with a header whose count is not valid (a writer older than SQLite 3.7.0).
 * Measured cost: a read transaction and one read of 100 bytes; `varbench runs` on a 291 MB
 * file takes 3.6-4.3 ms with the check and without it (2 CPUs, warm page cache). PRAGMA
 * quick_check would also find pages broken inside, but quick_check(1) took 1.5-1.7 s on a 296 MB
 * file: some 400 times a reader's open, so readers do not run it (migrate does:
 * store_migrate.c).
 */
int vb_store_check_size(struct vb_store *s, struct vb_err *err)
{
    sqlite3_file *f = NULL;
    sqlite3_int64 size = 0;
    unsigned char h[100];
    uint32_t psz, pages;
    int rc = 0, sel;
    if (!strcmp(s->path, ":memory:") ||
        sqlite3_file_control(s->db, "main", SQLITE_FCNTL_FILE_POINTER, &f) != SQLITE_OK || !f ||
        !f->pMethods)
        return 0;
    if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) return 0;
    sel = sqlite3_exec(s->db, "SELECT 1 FROM sqlite_master LIMIT 1", NULL, NULL, NULL);
    /* busy: a writer holds the file, the header may be mid-write; a failure of another kind
     * (a file cut by pages fails SQLite's own check) is still worth the clearer message */
    if ((sel & 0xff) == SQLITE_BUSY || (sel & 0xff) == SQLITE_LOCKED) goto done;
    if (nonempty(s->path, "-wal") || nonempty(s->path, "-journal")) goto done;
    if (f->pMethods->xFileSize(f, &size) != SQLITE_OK || size < (sqlite3_int64)sizeof h ||
        f->pMethods->xRead(f, h, (int)sizeof h, 0) != SQLITE_OK || memcmp(h, "SQLite format 3", 16))
        goto done; /* empty (a new file), or not SQLite's: SQLite says what it is */
    psz = (uint32_t)h[16] << 8 | h[17];
    if (psz == 1) psz = 65536;
    pages = be32(h + 28);
    if (psz < 512 || (psz & (psz - 1)) || !pages || be32(h + 24) != be32(h + 92)) goto done;
    if (size >= (sqlite3_int64)psz * pages) goto done;
    vb_err_set(err, VB_E_DB,
               "database '%s' is cut short: %lld bytes, but its header says %u pages of %u "
               "bytes (%lld bytes)",
               s->path, (long long)size, pages, psz, (long long)psz * pages);
    rc = vb_err_hint(err, "the file was truncated (a copy, a download or a disk that filled up): "
                          "copy it again from where it was written; varbench does not read or "
                          "write a file cut short");
done:
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
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
    if (vb_store_check_size(s, err)) goto fail;
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
 * timeout. A migration holds the file that long too (its read lock while it copies): asked
 * before every try, it ends the wait at once with its own refusal. 0 or -1 with err. */
static int to_wal(struct vb_store *s, struct vb_err *err)
{
    int tries;
    for (tries = 0; tries < 3000; tries++) {
        int rc;
        if (vb_store_migration_busy(s->path, err)) return -1;
        rc = sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
        if (rc == SQLITE_OK) return 0;
        if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) break;
        usleep(10000);
    }
    return vb_store_fail(s, err, "PRAGMA journal_mode = WAL");
}

/* writer_busy is a writer's busy handler: SQLite's busy timeout (30 s, the same steps), except
 * that a migration of the file ends the wait at once: its read lock can last the seconds it
 * takes to copy a large file, and the writer is refused anyway (to_wal says why). */
static int writer_busy(void *arg, int n)
{
    static const int steps_ms[] = {1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100};
    const int nsteps = (int)(sizeof steps_ms / sizeof steps_ms[0]);
    const struct vb_store *s = arg;
    struct vb_err ignored;
    int waited = 0, k;
    for (k = 0; k < n && k < nsteps; k++)
        waited += steps_ms[k];
    if (n > nsteps) waited += (n - nsteps) * steps_ms[nsteps - 1];
    if (waited >= 30000 || vb_store_migration_busy(s->path, &ignored)) return 0;
    usleep(1000 * (unsigned)steps_ms[n < nsteps ? n : nsteps - 1]);
    return 1;
}

/* same_file: path still names the file that `at` describes. */
static int same_file(const char *path, const struct stat *at)
{
    struct stat now;
    return stat(path, &now) == 0 && now.st_dev == at->st_dev && now.st_ino == at->st_ino;
}

/*
 * open_writer is one try of vb_store_open. A writer and `varbench migrate` of one file: a
 * writer refuses to start while a migration holds the file's migration lock (asked before it
 * opens the file, while it waits for the file, and once it holds it), with the migration's
 * message; a migration refuses a file a writer holds (open in WAL mode: store_migrate.c's hold).
 * A writer that opened the old file before a migration renamed the new one over it (SQLite then
 * refuses to write the moved file: "readonly database") sets *again: the name now holds the
 * migrated file, to be opened afresh. 0 or -1 with err.
 */
static int open_writer(const char *path, struct vb_store **out, int *again, struct vb_err *err)
{
    struct vb_store *s;
    struct stat before, at = {0};
    int v, rc, file = strcmp(path, ":memory:") != 0;
    int had = file && stat(path, &before) == 0;
    struct vb_err why;
    *again = 0;
    if (file && vb_store_migration_busy(path, err)) return -1;
    if (!(s = connect(path, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &v, &rc, err)))
        goto fail;
    s->writer = file;
    if (file && sqlite3_busy_handler(s->db, writer_busy, s) != SQLITE_OK) {
        vb_store_fail(s, err, "busy handler");
        goto fail;
    }
    if (file &&
        (stat(path, &at) || (had && (before.st_dev != at.st_dev || before.st_ino != at.st_ino)))) {
        *again = 1; /* renamed over between the two looks */
        goto fail;
    }
    /* WAL: readers never block a writer, and a writer killed mid-transaction leaves the last
     * committed state readable by read-only commands (a rollback journal would have to be
     * rolled back by a writer first). The file was checked to be ours (or empty) above. */
    if (file && to_wal(s, err)) goto fail;
    /* the write lock is taken now: an unwritable file fails here, before any work is done */
    if (vb_store_schema_ready(s, err)) goto fail;
    if (vb_store_exec(s, "PRAGMA foreign_keys = ON", err)) goto fail;
    /* in WAL mode now, which a migration starting from here refuses: one that began meanwhile
     * has either stopped or renamed its file over this one */
    if (file && (vb_store_migration_busy(path, err) || !same_file(path, &at))) goto fail;
    *out = s;
    return 0;
fail:
    if (file && vb_store_migration_busy(path, &why))
        *err = why; /* a migration explains whatever failed: say so, not its symptom */
    else if (s && !*again && !same_file(path, &at))
        *again = 1;
    if (s && *again) s->writer = 0; /* the old file: its journal mode is not ours to change */
    vb_store_close(s);
    return -1;
}

int vb_store_open(const char *path, struct vb_store **out, struct vb_err *err)
{
    int tries, again = 0;
    *out = NULL;
    for (tries = 0; tries < 3; tries++) {
        if (!open_writer(path, out, &again, err)) return 0;
        if (!again) return -1;
    }
    vb_err_set(err, VB_E_DB, "database '%s' was replaced three times while it was opened", path);
    return vb_err_hint(err, "something renames files over it (a migration): run again when it "
                            "stops");
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
