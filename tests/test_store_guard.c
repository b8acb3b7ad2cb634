/* Store tests of the guards around a database file (store_open.c, store_migrate.c,
 * store_conn.c): a file cut short refused by every opener, untouched; the migration lock that
 * keeps a second migrate and a writer off a file being migrated, naming the migrating pid; the
 * leftovers of a migrate that died cleaned without touching a live one's. The migrating
 * process is a child (fork): a process never conflicts with its own POSIX locks. The command
 * line's side (two migrates of a large file at once) is tests/store_guard.sh. */
#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixtures.h"
#include "store.h"
#include "test.h"
#include "tests.h"

/* The store's own names beside a database (store_migrate.c, store_conn.c). */
#define LOCK_SUFFIX ".migrate-lock"

/* take_lock takes path's migration lock as a migrating varbench does (store_conn.c: a POSIX
 * write lock on the real path + LOCK_SUFFIX); returns its descriptor, -1 on failure. */
static int take_lock(const char *path)
{
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
    char real[PATH_MAX], name[PATH_MAX + 16];
    int fd;
    if (!realpath(path, real)) return -1;
    snprintf(name, sizeof name, "%s" LOCK_SUFFIX, real);
    if ((fd = open(name, O_RDWR | O_CREAT, 0644)) < 0) return -1;
    if (fcntl(fd, F_SETLK, &fl)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* drop_lock removes the lock file, then releases it, as a migration ends. */
static void drop_lock(const char *path, int fd)
{
    char real[PATH_MAX], name[PATH_MAX + 16];
    if (realpath(path, real)) {
        snprintf(name, sizeof name, "%s" LOCK_SUFFIX, real);
        unlink(name);
    }
    close(fd);
}

static long size_of(const char *path)
{
    struct stat sb;
    return stat(path, &sb) ? -1 : (long)sb.st_size;
}

static int exists(const char *path, const char *suffix)
{
    char p[600];
    snprintf(p, sizeof p, "%s%s", path, suffix);
    return access(p, F_OK) == 0;
}

static void remove_all(const char *path)
{
    static const char *const sides[] = {"", "-wal", "-shm", "-journal", ".bak", LOCK_SUFFIX};
    char p[600];
    size_t i;
    for (i = 0; i < sizeof sides / sizeof sides[0]; i++) {
        snprintf(p, sizeof p, "%s%s", path, sides[i]);
        unlink(p);
    }
}

/* write_v1 writes a schema-1 database with one complete run at path (tests/schema_v1.sql). */
static int write_v1(const char *path)
{
    remove_all(path);
    return fx_write_v1(VB_TESTS_DIR "/schema_v1.sql", path);
}

/* write_current writes a database of this schema with one fixture run at path. */
static int write_current(const char *path)
{
    struct vb_store *s;
    struct vb_err err;
    int64_t id;
    remove_all(path);
    ASSERT_OK(vb_store_open(path, &s, &err));
    ASSERT_OK(fx_write_run(s, "NVIDIA H100", fx_mesh_cases, 3, &id, &err));
    vb_store_close(s);
    ASSERT(!exists(path, "-wal"));
    return 0;
}

/* cut_refused: every opener refuses path (cut short) with VB_E_DB naming it, its size and the
 * header's, and leaves it as it was. */
static int cut_refused(const char *path, long size, const char *header)
{
    struct vb_migrate_result res;
    struct vb_store *s = NULL;
    struct vb_err err;
    char want[700];
    snprintf(want, sizeof want, "is cut short: %ld bytes, but its header says %s", size, header);
    ASSERT_INT_EQ(vb_store_open_ro(path, &s, &err), -1);
    ASSERT_INT_EQ(err.code, VB_E_DB);
    ASSERT_CONTAINS(err.msg, path);
    ASSERT_CONTAINS(err.msg, want);
    ASSERT_CONTAINS(err.hint, "truncated");
    ASSERT_INT_EQ(vb_store_open(path, &s, &err), -1);
    ASSERT(s == NULL);
    ASSERT_INT_EQ(err.code, VB_E_DB);
    ASSERT_CONTAINS(err.msg, want);
    ASSERT_INT_EQ(vb_store_migrate(path, 0, &res, &err), -1);
    ASSERT_INT_EQ(err.code, VB_E_DB);
    ASSERT_CONTAINS(err.msg, want);
    ASSERT_INT_EQ(size_of(path), size);
    ASSERT(!exists(path, "-wal") && !exists(path, "-journal") && !exists(path, ".bak"));
    return 0;
}

int test_store_refuses_cut(const char *arg)
{
    char path[512], header[64];
    long full;
    (void)arg;
    fx_tmp_path(path, sizeof path, "cut.db");
    if (write_current(path)) return 1;
    full = size_of(path);
    ASSERT(full > 0 && full % 4096 == 0);
    snprintf(header, sizeof header, "%ld pages of 4096 bytes (%ld bytes)", full / 4096, full);
    /* one byte: SQLite alone reads the last page's missing byte as a zero */
    ASSERT_INT_EQ(truncate(path, full - 1), 0);
    if (cut_refused(path, full - 1, header)) return 1;
    /* a page and a byte: SQLite alone calls it malformed; the cut is said all the same */
    ASSERT_INT_EQ(truncate(path, full - 4097), 0);
    if (cut_refused(path, full - 4097, header)) return 1;
    /* an older schema goes through the migrated copy: refused before it is made */
    if (write_v1(path)) return 1;
    full = size_of(path);
    snprintf(header, sizeof header, "%ld pages of %ld bytes", full / 4096, 4096L);
    ASSERT_INT_EQ(truncate(path, full - 1), 0);
    if (cut_refused(path, full - 1, header)) return 1;
    remove_all(path);
    return 0;
}

/* A file longer than its header says, and a live -wal (the file is shorter than the database
 * until the next checkpoint): both open. */
int test_store_size_not_refused(const char *arg)
{
    struct vb_store *w, *r;
    struct vb_err err;
    char path[512];
    int64_t id, n;
    FILE *fp;
    (void)arg;
    fx_tmp_path(path, sizeof path, "size-ok.db");
    if (write_current(path)) return 1;
    ASSERT((fp = fopen(path, "ab")));
    ASSERT_INT_EQ(fwrite("tail", 1, 4, fp), 4);
    fclose(fp);
    ASSERT_OK(vb_store_open_ro(path, &r, &err));
    vb_store_close(r);
    if (write_current(path)) return 1;
    ASSERT_OK(vb_store_open(path, &w, &err));
    ASSERT_OK(fx_write_run(w, "NVIDIA H100", fx_mesh_cases, 3, &id, &err));
    ASSERT(exists(path, "-wal"));
    ASSERT_OK(vb_store_open_ro(path, &r, &err));
    ASSERT_OK(vb_store_count(r, "runs", 0, &n, &err));
    ASSERT_INT_EQ(n, 2);
    vb_store_close(r);
    vb_store_close(w);
    remove_all(path);
    return 0;
}

/* holder forks a child that takes path's migration lock (as `varbench migrate` does), says so
 * on a pipe and holds it until *release is written to or closed. Returns the child's pid. */
static pid_t holder(const char *path, int *release)
{
    int ready[2], go[2];
    char c;
    pid_t pid;
    if (pipe(ready) || pipe(go)) return -1;
    if ((pid = fork()) == 0) {
        int fd;
        close(ready[0]);
        close(go[1]);
        if ((fd = take_lock(path)) < 0 || write(ready[1], "x", 1) != 1) _exit(1);
        if (read(go[0], &c, 1) < 0) _exit(1);
        drop_lock(path, fd);
        _exit(0);
    }
    close(ready[1]);
    close(go[0]);
    if (pid < 0 || read(ready[0], &c, 1) != 1) pid = -1;
    close(ready[0]);
    *release = go[1];
    return pid;
}

int test_store_migrate_lock(const char *arg)
{
    struct vb_migrate_result res;
    struct vb_store *s = NULL;
    struct vb_err err;
    char path[512], want[64];
    int release, status;
    long size;
    pid_t pid;
    (void)arg;
    fx_tmp_path(path, sizeof path, "locked.db");
    if (write_v1(path)) return 1;
    size = size_of(path);
    ASSERT((pid = holder(path, &release)) > 0);
    snprintf(want, sizeof want, "is being migrated by pid %ld", (long)pid);
    /* a second migrate: refused before it writes anything */
    ASSERT_INT_EQ(vb_store_migrate(path, 0, &res, &err), -1);
    ASSERT_INT_EQ(err.code, VB_E_DB);
    ASSERT_CONTAINS(err.msg, want);
    ASSERT(err.hint[0]);
    ASSERT(!exists(path, ".bak"));
    /* a writer: refused with the same words, not a symptom */
    ASSERT_INT_EQ(vb_store_open(path, &s, &err), -1);
    ASSERT(s == NULL);
    ASSERT_INT_EQ(err.code, VB_E_DB);
    ASSERT_CONTAINS(err.msg, want);
    ASSERT_CONTAINS(err.hint, "varbench migrate");
    /* a reader reads the old file meanwhile */
    ASSERT_OK(vb_store_open_ro(path, &s, &err));
    vb_store_close(s);
    ASSERT_INT_EQ(size_of(path), size);
    ASSERT(!exists(path, "-wal"));
    /* the migration ends: its lock file goes with it, and both go ahead */
    close(release);
    ASSERT_INT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ASSERT(!exists(path, LOCK_SUFFIX));
    ASSERT_OK(vb_store_migrate(path, 0, &res, &err));
    ASSERT_INT_EQ(res.written, 1);
    ASSERT(!exists(path, LOCK_SUFFIX));
    ASSERT_OK(vb_store_open(path, &s, &err));
    vb_store_close(s);
    remove_all(path);
    return 0;
}

/* A writer that opened the file just before a migration took it: the migration's read lock
 * keeps it waiting (to WAL mode), and it stops waiting with the migration's refusal, not after
 * the busy timeout with a symptom. The child reads the file (as a migration does while it
 * copies) and takes the lock 0.3 s later. */
int test_store_writer_meets_migration(const char *arg)
{
    struct vb_store *s = NULL;
    struct vb_err err;
    char path[512], want[64], c;
    int ready[2], go[2], status;
    pid_t pid;
    (void)arg;
    fx_tmp_path(path, sizeof path, "meets.db");
    if (write_current(path)) return 1;
    ASSERT(pipe(ready) == 0 && pipe(go) == 0);
    if ((pid = fork()) == 0) {
        sqlite3 *db;
        int fd;
        close(ready[0]);
        close(go[1]);
        if (sqlite3_open(path, &db) != SQLITE_OK ||
            sqlite3_exec(db, "BEGIN; SELECT count(*) FROM runs", NULL, NULL, NULL) != SQLITE_OK ||
            write(ready[1], "x", 1) != 1)
            _exit(1);
        usleep(300000);
        if ((fd = take_lock(path)) < 0 || read(go[0], &c, 1) < 0) _exit(1);
        drop_lock(path, fd);
        sqlite3_close(db);
        _exit(0);
    }
    close(ready[1]);
    close(go[0]);
    ASSERT(pid > 0);
    ASSERT_INT_EQ(read(ready[0], &c, 1), 1);
    snprintf(want, sizeof want, "is being migrated by pid %ld", (long)pid);
    ASSERT_INT_EQ(vb_store_open(path, &s, &err), -1);
    ASSERT_CONTAINS(err.msg, want);
    close(go[1]);
    ASSERT_INT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(ready[0]);
    ASSERT_OK(vb_store_open(path, &s, &err));
    vb_store_close(s);
    remove_all(path);
    return 0;
}

/* A migrate that was killed leaves its temporary file and an unlocked lock file: they stop no
 * one, and the next migrate removes them; a live migrator's temporary file is left alone. */
int test_store_migrate_leftovers(const char *arg)
{
    struct vb_migrate_result res;
    struct vb_store *s;
    struct vb_err err;
    char path[512], dead[600], live[600], lock[600];
    int status;
    pid_t gone;
    FILE *fp;
    (void)arg;
    fx_tmp_path(path, sizeof path, "leftovers.db");
    if (write_v1(path)) return 1;
    if ((gone = fork()) == 0) _exit(0);
    ASSERT(gone > 0);
    ASSERT_INT_EQ(waitpid(gone, &status, 0), gone);
    snprintf(dead, sizeof dead, "%s.migrating.%ld.0badf00d", path, (long)gone);
    snprintf(live, sizeof live, "%s.migrating.%ld.0000beef", path, (long)getpid());
    snprintf(lock, sizeof lock, "%s" LOCK_SUFFIX, path);
    ASSERT((fp = fopen(dead, "w")) && fclose(fp) == 0);
    ASSERT((fp = fopen(live, "w")) && fclose(fp) == 0);
    ASSERT((fp = fopen(lock, "w")) && fputs("12345\n", fp) >= 0 && fclose(fp) == 0);
    ASSERT_OK(vb_store_migrate(path, 0, &res, &err));
    ASSERT_INT_EQ(res.written, 1);
    ASSERT(access(dead, F_OK) != 0);
    ASSERT(access(live, F_OK) == 0);
    ASSERT(access(lock, F_OK) != 0);
    /* an unlocked lock file is no migration: a writer goes ahead */
    ASSERT((fp = fopen(lock, "w")) && fputs("12345\n", fp) >= 0 && fclose(fp) == 0);
    ASSERT_OK(vb_store_open(path, &s, &err));
    vb_store_close(s);
    unlink(live);
    remove_all(path);
    return 0;
}
