/*
 * store_open: opening a store (see store.h): a file read-only or read-write without ever
 * modifying one that is not a varbench database, an older schema read through a migrated
 * in-memory copy, WAL and busy handling for several writers on one file, removing a file and its
 * companions. Calls the schema (store_schema.c) and the connection (store_conn.c), neither of
 * which calls it.
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
