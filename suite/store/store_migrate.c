/*
 * store_migrate: `varbench migrate FILE`, a database of an older schema rewritten on disk in
 * this one's (see store.h). Every reader already reads old files through a copy migrated in
 * memory without writing them; this is for those who want the file itself upgraded (a
 * baseline kept for years, a file to hand to tools that read SQL directly). Workload: once
 * per file, files of up to a few GB (the copy is made in memory, as the readers make it).
 *
 * Atomic and losing nothing: no one can commit to the file while it is read; the migrated copy
 * is written to FILE.migrating.PID.RANDOM (a name no other migration uses) and synced; the old
 * file gets a second name, FILE.bak (a hard link); the new file is renamed over FILE (one
 * rename(2): FILE is the old or the new file at every instant) and the folder synced. A file in
 * WAL mode is first folded into one file (checkpoint, rollback journal): its -wal and -shm must
 * not outlive it beside the new file, where SQLite would read them as the new file's. That
 * switch needs the file to ourselves, so another process that has it open in WAL mode (every
 * varbench writer, a reader of a WAL file) stops the migration, as does a run still marked
 * 'running' (a writer now, or one killed) unless forced: a writer that has the file open goes
 * on writing into the old file, FILE.bak after the rename.
 *
 * One migration at a time, in any journal mode: the whole migration holds FILE's migration lock
 * (store_conn.c): a second `migrate` of the file is refused at once ("being migrated by pid N",
 * nothing written), and so is a writer that starts meanwhile (vb_store_open asks). Readers are
 * not refused: one that opened the old file reads it to its end (the copy is made under a read
 * lock, so what it reads is what is copied), one that opens after the rename reads the new file.
 * Under the lock, a temporary file of this name's pattern whose migration died is removed.
 */
#include "store_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* sync_path fsyncs the file or folder at path (flags: O_RDONLY, or with O_DIRECTORY). 0 or -1
 * with errno. */
static int sync_path(const char *path, int flags)
{
    int fd = open(path, flags), rc;
    if (fd < 0) return -1;
    rc = fsync(fd);
    close(fd);
    return rc;
}

/* open_file opens the file (never creating it) with flags and reads its schema version into
 * *version; refuses one that is not a varbench database, empty, or newer. Returns the store or
 * NULL with err. */
static struct vb_store *open_file(const char *path, int flags, int *version, struct vb_err *err)
{
    struct vb_store *s = calloc(1, sizeof *s);
    int nobjects;
    if (!s) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        return NULL;
    }
    snprintf(s->path, sizeof s->path, "%s", path);
    if (sqlite3_open_v2(path, &s->db, flags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK ||
        sqlite3_extended_result_codes(s->db, 1) != SQLITE_OK ||
        sqlite3_busy_timeout(s->db, 2000) != SQLITE_OK) {
        if (s->db)
            vb_store_fail(s, err, "cannot open it");
        else
            vb_err_set(err, VB_E_DB, "database '%s': cannot open it", path);
        goto fail;
    }
    if (vb_store_check_size(s, err) || vb_store_schema_version(s, version, &nobjects, err))
        goto fail;
    if (*version == 0) {
        vb_err_set(err, VB_E_DB, "database '%s' is %s", path,
                   nobjects ? "an SQLite file but not a varbench database" : "empty");
        vb_err_hint(err, "migrate takes a database written by varbench");
        goto fail;
    }
    if (*version > VB_SCHEMA_VERSION) {
        vb_err_set(err, VB_E_DB, "database '%s' has schema %d, newer than this varbench's %d", path,
                   *version, VB_SCHEMA_VERSION);
        vb_err_hint(err, "use a newer varbench");
        goto fail;
    }
    return s;
fail:
    vb_store_close(s);
    return NULL;
}

/* intact runs PRAGMA quick_check on s's file: a page broken inside is refused here rather than
 * copied into the new file for keeps. Its cost, measured on a 296 MB schema-7 file (2 CPUs,
 * warm page cache): quick_check(1) alone 1.5-1.7 s; the migration 1.3-1.7 s without it and
 * 2.5-2.8 s with it. Twice the time of a command run once per file, which reads every page
 * anyway and writes the result for keeps: worth it here, and only here (readers open that file
 * in 4 ms and do not run it: store_open.c). 0 or -1 with err. */
static int intact(struct vb_store *s, struct vb_err *err)
{
    sqlite3_stmt *st = vb_store_once(s, "PRAGMA quick_check(1)", err);
    char what[200] = "";
    int rc;
    if (!st) return -1;
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) vb_store_col_text(st, 0, what, sizeof what);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) return vb_store_fail(s, err, "PRAGMA quick_check");
    if (!strcmp(what, "ok")) return 0;
    vb_err_set(err, VB_E_DB, "database '%s' is not intact (quick_check: %s)", s->path, what);
    return vb_err_hint(err, "the file is unchanged: migrate an intact copy of it");
}

/* hold opens the file read-write, folds a WAL into it (rollback journal: refused while another
 * process has it open in WAL mode) and holds a read transaction on it: no other connection
 * commits to it until hold's connection ends that transaction. Sets *version. Returns the
 * store or NULL with err. */
static struct vb_store *hold(const char *path, int *version, struct vb_err *err)
{
    struct vb_store *s = open_file(path, SQLITE_OPEN_READWRITE, version, err);
    sqlite3_stmt *st;
    char mode[16] = "";
    if (!s || *version == VB_SCHEMA_VERSION) return s;
    if (vb_store_exec(s, "PRAGMA wal_checkpoint(TRUNCATE)", err)) goto fail;
    if (!(st = vb_store_once(s, "PRAGMA journal_mode = DELETE", err))) goto fail;
    if (sqlite3_step(st) == SQLITE_ROW) vb_store_col_text(st, 0, mode, sizeof mode);
    sqlite3_finalize(st);
    /* a read transaction: its SHARED lock lets no one commit to the file while it is copied
     * (a write transaction would keep the backup from reading it) */
    if (strcmp(mode, "delete") || vb_store_exec(s, "BEGIN; SELECT count(*) FROM runs", err)) {
        vb_err_set(err, VB_E_DB, "database '%s' is open in another process (a run or a reader)",
                   path);
        vb_err_hint(err, "migrate it when nothing else uses it");
        goto fail;
    }
    if (intact(s, err)) goto fail;
    return s;
fail:
    vb_store_close(s);
    return NULL;
}

/* peek reads, without writing anything and without migrating a copy, the file's schema and
 * its runs still 'running' (runs.status is in every schema), so that a refusal leaves the file
 * as it was. 0 or -1 with err. */
static int peek(const char *path, struct vb_migrate_result *res, struct vb_err *err)
{
    struct vb_store *s = open_file(path, SQLITE_OPEN_READONLY, &res->from, err);
    int rc;
    if (!s) return -1;
    rc = vb_store_count_query(s, "SELECT count(*) FROM runs WHERE status = 'running'", 0,
                              &res->running, err);
    vb_store_close(s);
    return rc;
}

/* temp_name writes FILE.migrating.PID.RANDOM for real (FILE): a name no other migration
 * writes (VACUUM INTO refuses an existing file, so a clash fails rather than overwrites). */
static void temp_name(const char *real, char *buf, size_t n)
{
    struct timespec ts;
    unsigned r;
    clock_gettime(CLOCK_REALTIME, &ts);
    r = (unsigned)ts.tv_nsec ^ (unsigned)ts.tv_sec * 2654435761u ^ (unsigned)getpid() << 16;
    snprintf(buf, n, "%s.migrating.%ld.%08x", real, (long)getpid(), r);
}

/* clean_stale removes what migrations of real that died left: FILE.migrating.PID.RANDOM files
 * whose PID is no live process. Called under the migration lock, so no live migration of this
 * varbench writes one (the PID test spares one of a process that holds no lock: an older
 * varbench's, or one on another host of a shared folder). This can't fail: a file it cannot
 * remove stays. */
static void clean_stale(const char *real)
{
    char dir[PATH_MAX], base[PATH_MAX], prefix[PATH_MAX + 16], p[PATH_MAX * 2];
    const char *folder;
    struct dirent *e;
    size_t np;
    DIR *d;
    snprintf(dir, sizeof dir, "%s", real);
    snprintf(base, sizeof base, "%s", real);
    np = (size_t)snprintf(prefix, sizeof prefix, "%s.migrating.", basename(base));
    folder = dirname(dir);
    if (!(d = opendir(folder))) return;
    while ((e = readdir(d))) {
        char *end;
        long pid;
        if (strncmp(e->d_name, prefix, np)) continue;
        pid = strtol(e->d_name + np, &end, 10);
        if (pid <= 0 || *end != '.' || !(kill((pid_t)pid, 0) && errno == ESRCH))
            continue; /* not of the pattern, or its process lives */
        snprintf(p, sizeof p, "%s/%s", folder, e->d_name);
        unlink(p);
    }
    closedir(d);
}

/* write_copy writes the database mem to the new file tmp (VACUUM INTO: compact, a rollback
 * journal, the schema version kept) with the old file's permission bits, and syncs it. */
static int write_copy(struct vb_store *s, sqlite3 *mem, const char *tmp, mode_t perm,
                      struct vb_err *err)
{
    sqlite3_stmt *st;
    int rc;
    if (sqlite3_prepare_v2(mem, "VACUUM INTO ?", -1, &st, NULL) != SQLITE_OK)
        return vb_err_set(err, VB_E_DB, "database '%s': VACUUM INTO: %s", s->path,
                          sqlite3_errmsg(mem));
    rc = sqlite3_bind_text(st, 1, tmp, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        vb_err_set(err, VB_E_DB, "writing '%s': %s", tmp, sqlite3_errmsg(mem));
        unlink(tmp);
        return vb_err_hint(err, "check the free space and that the folder is writable");
    }
    if (chmod(tmp, perm) || sync_path(tmp, O_RDONLY)) {
        vb_err_set(err, VB_E_SYS, "syncing '%s': %s", tmp, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

/* swap gives path's file the second name bak and renames tmp over path, then syncs the folder. */
static int swap(const char *path, const char *tmp, const char *bak, struct vb_err *err)
{
    char dir[PATH_MAX];
    if (link(path, bak)) {
        vb_err_set(err, VB_E_SYS, "keeping the old file as '%s': %s", bak, strerror(errno));
        unlink(tmp);
        return vb_err_hint(err, "the file is unchanged; a folder that allows hard links is needed");
    }
    if (rename(tmp, path)) {
        vb_err_set(err, VB_E_SYS, "renaming '%s' to '%s': %s", tmp, path, strerror(errno));
        unlink(tmp);
        unlink(bak);
        return vb_err_hint(err, "the file is unchanged");
    }
    snprintf(dir, sizeof dir, "%s", path);
    if (sync_path(dirname(dir), O_RDONLY | O_DIRECTORY))
        return vb_err_set(err, VB_E_SYS, "syncing the folder of '%s': %s", path, strerror(errno));
    return 0;
}

int vb_store_migrate(const char *path, int force, struct vb_migrate_result *res, struct vb_err *err)
{
    char real[PATH_MAX], tmp[PATH_MAX + 48], uri[64];
    struct vb_store *s = NULL;
    struct stat sb;
    sqlite3 *mem = NULL;
    int rc = -1, lock = -1;
    memset(res, 0, sizeof *res);
    if (!realpath(path, real) || stat(real, &sb) || !S_ISREG(sb.st_mode)) {
        vb_err_set(err, VB_E_DB, "database '%s' %s", path,
                   errno == ENOENT ? "does not exist" : "is not a regular file");
        return vb_err_hint(err, "pass the path of a database written by varbench");
    }
    snprintf(res->bak, sizeof res->bak, "%s.bak", real);
    temp_name(real, tmp, sizeof tmp);
    res->to = VB_SCHEMA_VERSION;
    if (peek(real, res, err)) return -1;
    if (res->from == VB_SCHEMA_VERSION) return 0; /* nothing to do: the file is not touched */
    /* one migration at a time: a second is refused here, before it writes anything */
    if (vb_store_migration_lock(path, &lock, err)) return -1;
    /* read again under the lock: a migration that ended just before may have done the work */
    if (peek(real, res, err)) goto out;
    if (res->from == VB_SCHEMA_VERSION) {
        rc = 0;
        goto out;
    }
    if (access(res->bak, F_OK) == 0) {
        vb_err_set(err, VB_E_USAGE, "'%s' exists: migrate keeps the old file under that name",
                   res->bak);
        vb_err_hint(err, "move it away, then migrate again");
        goto out;
    }
    if (res->running && !force) {
        vb_err_set(err, VB_E_USAGE,
                   "database '%s' has %lld run(s) still 'running': a run writing to it now, or "
                   "one that was killed",
                   path, (long long)res->running);
        vb_err_hint(err, "wait for the run to end, or pass --force if no process writes "
                         "to it (one that does would go on writing into the old file)");
        goto out;
    }
    clean_stale(real);
    /* from here the file is written (its WAL folded in), under a read lock */
    if (!(s = hold(real, &res->from, err))) goto out;
    if (vb_store_copy_migrated(s, &mem, uri, err)) goto out;
    if (write_copy(s, mem, tmp, sb.st_mode & 07777, err) || swap(real, tmp, res->bak, err))
        goto out;
    res->written = 1;
    rc = 0;
out:
    sqlite3_close(mem);
    if (s) vb_store_rollback(s); /* the old file was only read: its lock goes */
    vb_store_close(s);
    /* after the old file's connection: a writer waiting for that file finds it renamed, with
     * the lock still held or the name's file changed (store_open.c) */
    vb_store_migration_unlock(real, lock);
    return rc;
}
