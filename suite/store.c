/*
 * store: SQLite persistence (see store.h). Every value is a bound parameter; statements
 * are prepared once per store and reused (keyed by the address of their SQL text).
 */
#include "store.h"

#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_STMTS 64
#define MAX_STRINGS 64

struct vb_store {
    sqlite3 *db;
    char path[1024];
    struct {
        const char *sql;
        sqlite3_stmt *st;
    } cache[MAX_STMTS];
    int ncache;
    /* StringIds already written (kernel names and NVTX texts repeat in every sample); emptied
     * when a transaction rolls back, since its ids may then not exist */
    struct {
        char *text;
        int64_t id;
    } strings[MAX_STRINGS];
    int nstrings, next_string;
};

static void forget_strings(struct vb_store *s);

static const char schema[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
    "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE);\n"
    "CREATE TABLE runs(id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE,\n"
    "  kind TEXT NOT NULL CHECK(kind IN ('suite','trace')),\n"
    "  status TEXT NOT NULL CHECK(status IN ('running','complete','interrupted','failed')),\n"
    "  command_line TEXT NOT NULL, cwd TEXT, git_commit TEXT, varbench_version TEXT,\n"
    "  options TEXT, start_utc TEXT NOT NULL, end_utc TEXT, exit_code INTEGER, message TEXT);\n"
    "CREATE TABLE host_env(run_id INTEGER PRIMARY KEY REFERENCES runs(id), hostname TEXT,\n"
    "  os TEXT, kernel TEXT, cpu_model TEXT, cpu_count INTEGER, memory_bytes INTEGER);\n"
    "CREATE TABLE TARGET_INFO_GPU(run_id INTEGER NOT NULL REFERENCES runs(id), id INTEGER NOT NULL,\n"
    "  name TEXT, uuid TEXT, busLocation TEXT, computeMajor INTEGER, computeMinor INTEGER,\n"
    "  smCount INTEGER, totalMemory INTEGER, l2CacheSize INTEGER, clockRate INTEGER,\n"
    "  smClockMeasuredMHz REAL, memoryClockRate INTEGER, memoryBusWidth INTEGER,\n"
    "  pcieLinkSpeed TEXT, pcieGen INTEGER, pcieWidth INTEGER, driverVersion TEXT,\n"
    "  cudaDriverVersion INTEGER, cudaRuntimeVersion INTEGER, cuptiVersion INTEGER,\n"
    "  PRIMARY KEY(run_id, id));\n"
    "CREATE TABLE ceilings(run_id INTEGER NOT NULL REFERENCES runs(id), device_id INTEGER NOT NULL,\n"
    "  name TEXT NOT NULL, bytes INTEGER, reps INTEGER, median_ns REAL, gbps REAL,\n"
    "  PRIMARY KEY(run_id, device_id, name));\n"
    "CREATE TABLE variants(id INTEGER PRIMARY KEY, family TEXT NOT NULL, name TEXT NOT NULL,\n"
    "  summary TEXT, seed TEXT, is_reference INTEGER NOT NULL, needs_gpu INTEGER NOT NULL,\n"
    "  UNIQUE(family, name));\n"
    "CREATE TABLE cases(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),\n"
    "  variant_id INTEGER NOT NULL REFERENCES variants(id), device_id INTEGER, axes TEXT NOT NULL,\n"
    "  status TEXT NOT NULL CHECK(status IN ('ok','wrong-result','skipped','failed','interrupted')),\n"
    "  reason TEXT, max_abs_err REAL, max_rel_err REAL, start INTEGER, end INTEGER,\n"
    "  samples INTEGER NOT NULL, stop_reason TEXT, have_records INTEGER NOT NULL,\n"
    "  e2e_median_ns REAL, e2e_min_ns REAL, e2e_max_ns REAL, e2e_mean_ns REAL, e2e_stdev_ns REAL,\n"
    "  e2e_noise REAL, kernel_median_ns REAL, h2d_median_ns REAL, d2h_median_ns REAL,\n"
    "  h2d_bytes INTEGER, h2d_count INTEGER, d2h_bytes INTEGER, d2h_count INTEGER,\n"
    "  kernel_count INTEGER, traffic_varies INTEGER);\n"
    "CREATE INDEX cases_run ON cases(run_id);\n"
    "CREATE TABLE case_axes(case_id INTEGER NOT NULL REFERENCES cases(id), name TEXT NOT NULL,\n"
    "  value INTEGER NOT NULL, label TEXT, PRIMARY KEY(case_id, name));\n"
    "CREATE TABLE samples(id INTEGER PRIMARY KEY, case_id INTEGER NOT NULL REFERENCES cases(id),\n"
    "  idx INTEGER NOT NULL, kind TEXT NOT NULL CHECK(kind IN ('verify','warmup','timed')),\n"
    "  start INTEGER, end INTEGER, e2e_ns REAL NOT NULL, h2d_bytes INTEGER, h2d_count INTEGER,\n"
    "  h2d_ns REAL, d2h_bytes INTEGER, d2h_count INTEGER, d2h_ns REAL, kernel_count INTEGER,\n"
    "  kernel_ns REAL, memset_bytes INTEGER, memset_count INTEGER, memset_ns REAL);\n"
    "CREATE INDEX samples_case ON samples(case_id);\n"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(case_id INTEGER NOT NULL REFERENCES cases(id),\n"
    "  sample_id INTEGER REFERENCES samples(id), start INTEGER NOT NULL, end INTEGER NOT NULL,\n"
    "  deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,\n"
    "  gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER,\n"
    "  staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, registersPerThread INTEGER,\n"
    "  shortName INTEGER REFERENCES StringIds(id), mangledName INTEGER REFERENCES StringIds(id));\n"
    "CREATE INDEX kernel_case ON CUPTI_ACTIVITY_KIND_KERNEL(case_id);\n"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(case_id INTEGER NOT NULL REFERENCES cases(id),\n"
    "  sample_id INTEGER REFERENCES samples(id), start INTEGER NOT NULL, end INTEGER NOT NULL,\n"
    "  deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,\n"
    "  bytes INTEGER NOT NULL, copyKind INTEGER REFERENCES ENUM_CUDA_MEMCPY_OPER(id),\n"
    "  srcKind INTEGER, dstKind INTEGER);\n"
    "CREATE INDEX memcpy_case ON CUPTI_ACTIVITY_KIND_MEMCPY(case_id);\n"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(case_id INTEGER NOT NULL REFERENCES cases(id),\n"
    "  sample_id INTEGER REFERENCES samples(id), start INTEGER NOT NULL, end INTEGER NOT NULL,\n"
    "  deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,\n"
    "  value INTEGER, bytes INTEGER NOT NULL, memKind INTEGER);\n"
    "CREATE INDEX memset_case ON CUPTI_ACTIVITY_KIND_MEMSET(case_id);\n"
    "CREATE TABLE NVTX_EVENTS(case_id INTEGER NOT NULL REFERENCES cases(id),\n"
    "  sample_id INTEGER REFERENCES samples(id), start INTEGER NOT NULL, end INTEGER,\n"
    "  text TEXT, textId INTEGER REFERENCES StringIds(id), eventType INTEGER NOT NULL);\n"
    "CREATE INDEX nvtx_case ON NVTX_EVENTS(case_id);\n"
    "CREATE TABLE ENUM_CUDA_MEMCPY_OPER(id INTEGER PRIMARY KEY, name TEXT NOT NULL,\n"
    "  label TEXT NOT NULL);\n"
    "INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (0,'CUDA_MEMCPY_OPER_UNKNOWN','Unknown'),\n"
    "  (1,'CUDA_MEMCPY_OPER_HTOD','Host-to-Device'),(2,'CUDA_MEMCPY_OPER_DTOH','Device-to-Host'),\n"
    "  (3,'CUDA_MEMCPY_OPER_HTOA','Host-to-Array'),(4,'CUDA_MEMCPY_OPER_ATOH','Array-to-Host'),\n"
    "  (5,'CUDA_MEMCPY_OPER_ATOA','Array-to-Array'),(6,'CUDA_MEMCPY_OPER_ATOD','Array-to-Device'),\n"
    "  (7,'CUDA_MEMCPY_OPER_DTOA','Device-to-Array'),(8,'CUDA_MEMCPY_OPER_DTOD','Device-to-Device'),\n"
    "  (9,'CUDA_MEMCPY_OPER_HTOH','Host-to-Host'),(10,'CUDA_MEMCPY_OPER_PTOP','Peer-to-Peer');\n"
    "CREATE VIEW case_summary AS SELECT c.run_id, c.id AS case_id, v.family || '/' || v.name AS\n"
    "  variant, c.axes, c.status, c.samples, c.e2e_median_ns / 1e6 AS e2e_ms,\n"
    "  c.kernel_median_ns / 1e6 AS kernel_ms, c.h2d_bytes, c.h2d_count,\n"
    "  c.h2d_median_ns / 1e6 AS h2d_ms, c.d2h_bytes, c.d2h_count, c.d2h_median_ns / 1e6 AS d2h_ms,\n"
    "  c.max_abs_err, c.max_rel_err, c.reason FROM cases c JOIN variants v ON v.id = c.variant_id;\n"
    "INSERT INTO meta VALUES ('application', 'varbench');\n";

/* sql_fail fills err from the connection's last error; returns -1. */
static int sql_fail(struct vb_store *s, struct vb_err *err, const char *what)
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

static int exec(struct vb_store *s, const char *sql, struct vb_err *err)
{
    char what[72];
    if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK) return 0;
    /* the statement's start names it; the whole text would crowd out SQLite's message */
    snprintf(what, sizeof what, "%.60s%s", sql, strlen(sql) > 60 ? "..." : "");
    return sql_fail(s, err, what);
}

/* stmt returns the cached prepared statement for sql (reset, bindings cleared), or NULL. */
static sqlite3_stmt *stmt(struct vb_store *s, const char *sql, struct vb_err *err)
{
    sqlite3_stmt *st = NULL;
    int i;
    for (i = 0; i < s->ncache; i++)
        if (s->cache[i].sql == sql) {
            sqlite3_reset(s->cache[i].st);
            sqlite3_clear_bindings(s->cache[i].st);
            return s->cache[i].st;
        }
    if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
        sql_fail(s, err, "prepare");
        return NULL;
    }
    if (s->ncache < MAX_STMTS) {
        s->cache[s->ncache].sql = sql;
        s->cache[s->ncache++].st = st;
    }
    return st;
}

/* bind binds arguments by type letter: i int64, n int, u uint64, U uint64 (0 -> NULL),
 * d double (non-finite -> NULL), t text (NULL -> NULL). */
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
            rc = t ? sqlite3_bind_text(st, col, t, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, col);
            break;
        }
        default:
            rc = SQLITE_MISUSE;
        }
    }
    return rc;
}

/* put runs a cached statement with bound arguments to completion; sets *rowid if not NULL. */
static int put(struct vb_store *s, const char *sql, int64_t *rowid, struct vb_err *err,
               const char *types, ...)
{
    sqlite3_stmt *st = stmt(s, sql, err);
    va_list ap;
    int rc;
    if (!st) return -1;
    if ((int)strlen(types) != sqlite3_bind_parameter_count(st))
        return vb_err_set(err, VB_E_DB, "internal: %d values bound to '%.60s...'", (int)strlen(types),
                          sql);
    va_start(ap, types);
    rc = bind(st, types, ap);
    va_end(ap);
    if (rc != SQLITE_OK) return sql_fail(s, err, "bind");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {}
    if (rc != SQLITE_DONE) return sql_fail(s, err, "write");
    if (rowid) *rowid = sqlite3_last_insert_rowid(s->db);
    sqlite3_reset(st);
    return 0;
}

static int user_version(struct vb_store *s, int *v, int *ntables, struct vb_err *err)
{
    sqlite3_stmt *st = NULL;
    int rc;
    *v = *ntables = 0;
    if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
        return sql_fail(s, err, "reading the schema version");
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) return sql_fail(s, err, "reading the schema version");
    if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) != SQLITE_OK)
        return sql_fail(s, err, "reading the schema");
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) *ntables = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) return sql_fail(s, err, "reading the schema");
    return 0;
}

/* Migrations from schema version k to k+1, index k-1. A new database gets the version-1
 * schema and then every migration, so old and new files end in the same shape. */
static const char *const migrations[] = {
    /* 1 -> 2: the metrics pass (per launch and per case) and traced CUDA API calls */
    "ALTER TABLE cases ADD COLUMN metrics_status TEXT CHECK(metrics_status IN\n"
    "  ('ok','off','unavailable','failed'));\n"
    "ALTER TABLE cases ADD COLUMN metrics_reason TEXT;\n"
    "ALTER TABLE cases ADD COLUMN gst_efficiency REAL;\n"
    "ALTER TABLE cases ADD COLUMN metrics_ns REAL;\n"
    "CREATE TABLE metrics(case_id INTEGER NOT NULL REFERENCES cases(id), launch INTEGER NOT NULL,\n"
    "  kernelId INTEGER REFERENCES StringIds(id), metric TEXT NOT NULL, value REAL,\n"
    "  PRIMARY KEY(case_id, launch, metric));\n"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(case_id INTEGER NOT NULL REFERENCES cases(id),\n"
    "  start INTEGER NOT NULL, end INTEGER NOT NULL, driver INTEGER NOT NULL, cbid INTEGER,\n"
    "  nameId INTEGER REFERENCES StringIds(id), correlationId INTEGER, processId INTEGER,\n"
    "  threadId INTEGER, returnValue INTEGER);\n"
    "CREATE INDEX runtime_case ON CUPTI_ACTIVITY_KIND_RUNTIME(case_id);\n"
    "DROP VIEW case_summary;\n"
    "CREATE VIEW case_summary AS SELECT c.run_id, c.id AS case_id, v.family || '/' || v.name AS\n"
    "  variant, c.axes, c.status, c.samples, c.e2e_median_ns / 1e6 AS e2e_ms,\n"
    "  c.kernel_median_ns / 1e6 AS kernel_ms, c.h2d_bytes, c.h2d_count,\n"
    "  c.h2d_median_ns / 1e6 AS h2d_ms, c.d2h_bytes, c.d2h_count, c.d2h_median_ns / 1e6 AS d2h_ms,\n"
    "  c.gst_efficiency, c.metrics_status, c.max_abs_err, c.max_rel_err, c.reason\n"
    "  FROM cases c JOIN variants v ON v.id = c.variant_id;\n",
    /* 2 -> 3: measurement v2: each sample's GPU time (the sum of its phases), the SM clock
     * before it and whether it was dropped for a low clock, whether its records were kept; per
     * case the cache state, the clocks, the dropped count, the GPU-time and memset medians and
     * the precision reached. Old samples get their GPU time from their phases. */
    "ALTER TABLE samples ADD COLUMN gpu_ns REAL;\n"
    "ALTER TABLE samples ADD COLUMN sm_clock_mhz REAL;\n"
    "ALTER TABLE samples ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;\n"
    "ALTER TABLE samples ADD COLUMN records_kept INTEGER NOT NULL DEFAULT 1;\n"
    "UPDATE samples SET gpu_ns = kernel_ns + IFNULL(h2d_ns, 0) + IFNULL(d2h_ns, 0) +\n"
    "  IFNULL(memset_ns, 0) WHERE kernel_ns IS NOT NULL;\n"
    "ALTER TABLE cases ADD COLUMN cache TEXT CHECK(cache IN ('cold','warm'));\n"
    "ALTER TABLE cases ADD COLUMN gpu_median_ns REAL;\n"
    "ALTER TABLE cases ADD COLUMN memset_median_ns REAL;\n"
    "ALTER TABLE cases ADD COLUMN gpu_ci_pct REAL;\n"
    "ALTER TABLE cases ADD COLUMN stop_detail TEXT;\n"
    "ALTER TABLE cases ADD COLUMN clock_min_mhz REAL;\n"
    "ALTER TABLE cases ADD COLUMN clock_median_mhz REAL;\n"
    "ALTER TABLE cases ADD COLUMN dropped_samples INTEGER NOT NULL DEFAULT 0;\n"
    "CREATE TEMP TABLE vb_gpu_rank AS SELECT case_id, gpu_ns, row_number() OVER\n"
    "  (PARTITION BY case_id ORDER BY gpu_ns) AS k, count(*) OVER (PARTITION BY case_id) AS c\n"
    "  FROM samples WHERE kind = 'timed' AND gpu_ns IS NOT NULL;\n"
    "UPDATE cases SET gpu_median_ns = (SELECT avg(gpu_ns) FROM vb_gpu_rank m WHERE\n"
    "  m.case_id = cases.id AND m.k IN ((m.c + 1) / 2, (m.c + 2) / 2)) WHERE have_records;\n"
    "DROP TABLE vb_gpu_rank;\n"
    "DROP VIEW case_summary;\n"
    "CREATE VIEW case_summary AS SELECT c.run_id, c.id AS case_id, v.family || '/' || v.name AS\n"
    "  variant, c.axes, c.status, c.samples, c.stop_reason, c.e2e_median_ns / 1e6 AS e2e_ms,\n"
    "  c.gpu_median_ns / 1e6 AS gpu_ms, c.kernel_median_ns / 1e6 AS kernel_ms, c.h2d_bytes,\n"
    "  c.h2d_count, c.h2d_median_ns / 1e6 AS h2d_ms, c.d2h_bytes, c.d2h_count,\n"
    "  c.d2h_median_ns / 1e6 AS d2h_ms, c.cache, c.clock_min_mhz, c.clock_median_mhz,\n"
    "  c.dropped_samples, c.gst_efficiency, c.metrics_status, c.max_abs_err, c.max_rel_err,\n"
    "  c.reason FROM cases c JOIN variants v ON v.id = c.variant_id;\n",
};

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

/* connect opens path with flags into a fresh store and reads its schema version and table count;
 * refuses a non-regular file, a foreign or newer database. Returns the store or NULL. */
static struct vb_store *connect(const char *path, int flags, int *version, struct vb_err *err)
{
    struct vb_store *s = calloc(1, sizeof *s);
    int ntables, memory = !strcmp(path, ":memory:");
    struct stat sb;
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
    if (sqlite3_open_v2(path, &s->db, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
        if (s->db)
            sql_fail(s, err, "cannot open");
        else
            vb_err_set(err, VB_E_DB, "database '%s': cannot open", path);
        vb_store_close(s);
        return NULL;
    }
    sqlite3_extended_result_codes(s->db, 1);
    /* writers take turns per case (a few ms each); ten runs started together wait that long */
    sqlite3_busy_timeout(s->db, 30000);
    if (user_version(s, version, &ntables, err)) goto fail;
    if (*version > VB_SCHEMA_VERSION) {
        vb_err_set(err, VB_E_DB, "database '%s' has schema %d, newer than this varbench's %d", path,
                   *version, VB_SCHEMA_VERSION);
        vb_err_hint(err, "use a newer varbench, or another --db");
        goto fail;
    }
    if (*version == 0 && ntables > 0) {
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

int vb_store_open_ro(const char *path, struct vb_store **out, struct vb_err *err)
{
    struct vb_store *s;
    int v;
    *out = NULL;
    if (plain_path(path, err)) return -1;
    if (access(path, F_OK) != 0) {
        vb_err_set(err, VB_E_DB, "database '%s' does not exist", path);
        return vb_err_hint(err, "pass the path of a database written by 'varbench run'");
    }
    if (!(s = connect(path, SQLITE_OPEN_READONLY, &v, err))) return -1;
    if (v != VB_SCHEMA_VERSION) {
        vb_err_set(err, VB_E_DB, "database '%s' %s", path,
                   v ? "has an older schema" : "is empty: no varbench runs in it");
        vb_err_hint(err, v ? "open it once with 'varbench run' to migrate it"
                           : "pass the path of a database written by 'varbench run'");
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
    return sql_fail(s, err, "PRAGMA journal_mode = WAL");
}

int vb_store_open(const char *path, struct vb_store **out, struct vb_err *err)
{
    struct vb_store *s;
    int v;
    char sql[64];
    int ntables;
    *out = NULL;
    if (!(s = connect(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, &v, err))) return -1;
    /* WAL: readers never block a writer, and a writer killed mid-transaction leaves the last
     * committed state readable by read-only commands (a rollback journal would have to be
     * rolled back by a writer first). The file was checked to be ours (or empty) above. */
    if (strcmp(path, ":memory:") && to_wal(s, err)) goto fail;
    /* Take the write lock now: an unwritable file fails here, before any work is done. The
     * version is read again under the lock: another writer may have created or migrated the
     * schema since connect() looked. */
    if (exec(s, "BEGIN IMMEDIATE", err) || user_version(s, &v, &ntables, err)) goto fail;
    if (v > VB_SCHEMA_VERSION || (v == 0 && ntables > 0)) {
        vb_err_set(err, VB_E_DB, "database '%s' changed while it was opened (schema %d)", path, v);
        vb_err_hint(err, "another program writes to it; pass --db with another path");
        goto rollback;
    }
    if (v == 0) {
        if (exec(s, schema, err) || exec(s, "PRAGMA user_version = 1", err)) goto rollback;
        v = 1;
    }
    for (; v < VB_SCHEMA_VERSION; v++) {
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v + 1);
        if (exec(s, migrations[v - 1], err) || exec(s, sql, err)) goto rollback;
    }
    if (exec(s, "COMMIT", err)) goto rollback;
    if (exec(s, "PRAGMA foreign_keys = ON", err)) goto fail;
    *out = s;
    return 0;
rollback:
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
fail:
    vb_store_close(s);
    return -1;
}

void vb_store_close(struct vb_store *s)
{
    int i;
    if (!s) return;
    for (i = 0; i < s->ncache; i++) sqlite3_finalize(s->cache[i].st);
    forget_strings(s);
    if (s->db) sqlite3_close(s->db);
    free(s);
}

static void utc_now(char *buf, size_t n)
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
}

/* make_uuid writes a random (version 4) UUID: the run's identity across databases, so that
 * runs merged from several machines are never confused or duplicated. */
static int make_uuid(char *buf, size_t n)
{
    unsigned char b[16];
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = f ? fread(b, 1, sizeof b, f) : 0;
    if (f) fclose(f);
    if (got != sizeof b) return -1;
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    snprintf(buf, n, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
             b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return 0;
}

int vb_store_run_begin(struct vb_store *s, const struct vb_run_info *info, int64_t *run_id,
                       struct vb_err *err)
{
    static const char sql[] = "INSERT INTO runs(uuid, kind, status, command_line, cwd, git_commit, "
                              "varbench_version, options, start_utc) VALUES (?,?,'running',?,?,?,?,?,?)";
    char now[40], uuid[40];
    utc_now(now, sizeof now);
    if (make_uuid(uuid, sizeof uuid)) return vb_err_set(err, VB_E_SYS, "no random bytes for a run id");
    return put(s, sql, run_id, err, "tttttttt", uuid, info->kind, info->command_line, info->cwd,
               info->git_commit, info->version, info->options, now);
}

int vb_store_run_end(struct vb_store *s, int64_t run_id, const char *status, int exit_code,
                     const char *message, struct vb_err *err)
{
    static const char sql[] =
        "UPDATE runs SET status = ?, end_utc = ?, exit_code = ?, message = ? WHERE id = ?";
    char now[40];
    utc_now(now, sizeof now);
    return put(s, sql, NULL, err, "ttnti", status, now, exit_code, message, run_id);
}

int vb_store_host(struct vb_store *s, int64_t run_id, const struct vb_host_env *h,
                  struct vb_err *err)
{
    static const char sql[] = "INSERT INTO host_env VALUES (?,?,?,?,?,?,?)";
    return put(s, sql, NULL, err, "ittttnu", run_id, h->hostname, h->os, h->kernel, h->cpu,
               h->ncpu, h->mem_bytes);
}

/* put_gpu writes g as a TARGET_INFO_GPU row of run_id with sql, an INSERT of all 21 columns. */
static int put_gpu(struct vb_store *s, const char *sql, int64_t run_id, const struct vb_gpu_env *g,
                   struct vb_err *err)
{
    return put(s, sql, NULL, err, "intttnnnuundnntnntnnu", run_id, g->id, g->name, g->uuid, g->bus,
               g->cc_major, g->cc_minor, g->sm_count, g->total_mem, g->l2_bytes, g->clock_khz,
               g->sm_clock_mhz, g->mem_clock_khz, g->mem_bus_width, g->pcie_speed, g->pcie_gen,
               g->pcie_width, g->driver, g->cuda_driver_version, g->cuda_runtime_version,
               (uint64_t)g->cupti_version);
}

int vb_store_gpu(struct vb_store *s, int64_t run_id, const struct vb_gpu_env *g,
                 struct vb_err *err)
{
    static const char sql[] = "INSERT INTO TARGET_INFO_GPU VALUES "
                              "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    return put_gpu(s, sql, run_id, g, err);
}

int vb_store_ceilings(struct vb_store *s, int64_t run_id, int device,
                      const struct vb_ceiling c[VB_CEIL_COUNT], struct vb_err *err)
{
    static const char sql[] = "INSERT INTO ceilings VALUES (?,?,?,?,?,?,?)";
    int i;
    for (i = 0; i < VB_CEIL_COUNT; i++)
        if (put(s, sql, NULL, err, "intundd", run_id, device, c[i].name, c[i].bytes, c[i].reps,
                c[i].median_ns, c[i].gbps))
            return -1;
    return 0;
}

static int string_id_db(struct vb_store *s, const char *text, int64_t *id, struct vb_err *err);

/* string_id returns the StringIds id of text, inserting it once. */
static int string_id(struct vb_store *s, const char *text, int64_t *id, struct vb_err *err)
{
    int k;
    for (k = 0; k < s->nstrings; k++)
        if (s->strings[k].text && !strcmp(s->strings[k].text, text)) {
            *id = s->strings[k].id;
            return 0;
        }
    if (string_id_db(s, text, id, err)) return -1;
    k = s->nstrings < MAX_STRINGS ? s->nstrings++ : s->next_string++ % MAX_STRINGS;
    free(s->strings[k].text);
    s->strings[k].text = strdup(text);
    s->strings[k].id = *id;
    return 0; /* out of memory for the copy: the slot stays empty, nothing is cached */
}

/* forget_strings empties the cache (after a rollback its ids may not exist). */
static void forget_strings(struct vb_store *s)
{
    int k;
    for (k = 0; k < MAX_STRINGS; k++) {
        free(s->strings[k].text);
        s->strings[k].text = NULL;
    }
    s->nstrings = s->next_string = 0;
}

/* string_id_db looks text up in (or adds it to) StringIds. */
static int string_id_db(struct vb_store *s, const char *text, int64_t *id, struct vb_err *err)
{
    static const char ins[] = "INSERT INTO StringIds(value) VALUES (?) ON CONFLICT(value) DO "
                              "UPDATE SET value = excluded.value RETURNING id";
    sqlite3_stmt *st = stmt(s, ins, err);
    int rc;
    if (!st) return -1;
    if (sqlite3_bind_text(st, 1, text, -1, SQLITE_TRANSIENT) != SQLITE_OK)
        return sql_fail(s, err, "bind");
    rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) return sql_fail(s, err, "StringIds");
    *id = sqlite3_column_int64(st, 0);
    while (sqlite3_step(st) == SQLITE_ROW) {}
    sqlite3_reset(st);
    return 0;
}

static int variant_id(struct vb_store *s, const struct vb_family *f, const struct vb_variant *v,
                      int64_t *id, struct vb_err *err)
{
    static const char ins[] =
        "INSERT INTO variants(family, name, summary, seed, is_reference, needs_gpu) "
        "VALUES (?,?,?,?,?,?) ON CONFLICT(family, name) DO UPDATE SET summary = excluded.summary, "
        "seed = excluded.seed RETURNING id";
    sqlite3_stmt *st = stmt(s, ins, err);
    int rc;
    if (!st) return -1;
    if (sqlite3_bind_text(st, 1, f->name, -1, SQLITE_STATIC) ||
        sqlite3_bind_text(st, 2, v->name, -1, SQLITE_STATIC) ||
        sqlite3_bind_text(st, 3, v->summary, -1, SQLITE_STATIC) ||
        sqlite3_bind_text(st, 4, f->seed, -1, SQLITE_STATIC) ||
        sqlite3_bind_int(st, 5, !!(v->flags & VB_REFERENCE)) ||
        sqlite3_bind_int(st, 6, !!(v->flags & VB_GPU)))
        return sql_fail(s, err, "bind");
    rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) return sql_fail(s, err, "variants");
    *id = sqlite3_column_int64(st, 0);
    while (sqlite3_step(st) == SQLITE_ROW) {}
    sqlite3_reset(st);
    return 0;
}

static const char *const sample_kinds[] = {"verify", "warmup", "timed"};

/* short_name extracts the identifier from an Itanium-mangled name ("_Z18mesh_a_kernelPKd..."),
 * or copies an unmangled one. */
static void short_name(const char *mangled, char *buf, size_t n)
{
    const char *p = mangled;
    long len;
    char *end;
    if (strncmp(p, "_Z", 2) == 0) {
        p += 2;
        if (*p == 'N') p++; /* nested: take the first component */
        len = strtol(p, &end, 10);
        if (len > 0 && (size_t)len < n && strlen(end) >= (size_t)len) {
            memcpy(buf, end, (size_t)len);
            buf[len] = '\0';
            return;
        }
    }
    snprintf(buf, n, "%s", mangled);
}

static int put_records(struct vb_store *s, int64_t case_id, const struct vb_case_result *r,
                       const int64_t *sample_ids, struct vb_err *err)
{
    static const char kq[] = "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES "
                             "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    static const char cq[] = "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?,?,?,?,?,?,?,?,?,?,?,?)";
    static const char mq[] = "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?,?,?,?,?,?,?,?,?,?,?)";
    /* eventType 59 is NvtxPushPopRange in the Nsight Systems export; the text is registered
     * in StringIds (textId), as nsys does for registered strings */
    static const char nq[] = "INSERT INTO NVTX_EVENTS VALUES (?,?,?,?,NULL,?,59)";
    static const char rq[] = "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,?,?,?,?)";
    static const char xq[] = "INSERT INTO metrics VALUES (?,?,?,?,?)";
    const struct vb_activity *a = &r->activity;
    size_t i;
    int k;
/* records outside every sample (poisoning, set-up) get a NULL sample_id (bound as 0); those of
 * a timed sample past --keep-records are not stored (the sample row keeps their sums) */
#define SAMPLE_ID(t) ((k = vb_sample_find(r, (t))) >= 0 ? sample_ids[k] : (int64_t)0)
#define SKIP(t) ((k = vb_sample_find(r, (t))) >= 0 && r->samples[k].records_dropped)
    for (i = 0; i < a->nkernels; i++) {
        const struct vb_kernel_rec *x = &a->kernels[i];
        char sn[256];
        int64_t sid, mid, smp;
        if (SKIP(x->start)) continue;
        smp = SAMPLE_ID(x->start);
        short_name(x->name, sn, sizeof sn);
        if (string_id(s, sn, &sid, err) || string_id(s, x->name, &mid, err)) return -1;
        if (put(s, kq, NULL, err, "iUuunnnnnnnnnnnnnii", case_id, (uint64_t)smp, x->start, x->end,
                (int)x->device, (int)x->context, (int)x->stream, (int)x->correlation, x->grid[0],
                x->grid[1], x->grid[2], x->block[0], x->block[1], x->block[2], x->static_smem,
                x->dynamic_smem, (int)x->registers, sid, mid))
            return -1;
    }
    for (i = 0; i < a->ncopies; i++) {
        const struct vb_copy_rec *x = &a->copies[i];
        if (SKIP(x->start)) continue;
        if (put(s, cq, NULL, err, "iUuunnnnunnn", case_id, (uint64_t)SAMPLE_ID(x->start), x->start, x->end,
                (int)x->device, (int)x->context, (int)x->stream, (int)x->correlation, x->bytes,
                (int)x->copy_kind, (int)x->src_kind, (int)x->dst_kind))
            return -1;
    }
    for (i = 0; i < a->nmemsets; i++) {
        const struct vb_memset_rec *x = &a->memsets[i];
        if (SKIP(x->start)) continue;
        if (put(s, mq, NULL, err, "iUuunnnnnun", case_id, (uint64_t)SAMPLE_ID(x->start), x->start, x->end,
                (int)x->device, (int)x->context, (int)x->stream, (int)x->correlation,
                (int)x->value, x->bytes, (int)x->memory_kind))
            return -1;
    }
    for (i = 0; i < a->nranges; i++) {
        const struct vb_range_rec *x = &a->ranges[i];
        int64_t tid;
        if (SKIP(x->start)) continue;
        if (string_id(s, x->text, &tid, err) ||
            put(s, nq, NULL, err, "iUuUi", case_id, (uint64_t)SAMPLE_ID(x->start), x->start,
                x->end, tid))
            return -1;
    }
    for (i = 0; i < a->napis; i++) {
        const struct vb_api_rec *x = &a->apis[i];
        int64_t nid;
        if (string_id(s, x->name, &nid, err) ||
            put(s, rq, NULL, err, "iuunnininn", case_id, x->start, x->end, (int)x->driver,
                (int)x->cbid, nid, (int)x->correlation, (int64_t)x->process, (int)x->thread,
                (int)x->ret))
            return -1;
    }
    for (i = 0; i < r->nmetrics; i++) {
        const struct vb_metric_value *x = &r->metrics[i];
        int64_t kid;
        if (string_id(s, x->kernel, &kid, err) ||
            put(s, xq, NULL, err, "initd", case_id, x->launch, kid, x->metric, x->value))
            return -1;
    }
#undef SKIP
#undef SAMPLE_ID
    return 0;
}

int vb_store_case(struct vb_store *s, int64_t run_id, const struct vb_case_result *r,
                  int64_t *case_id, struct vb_err *err)
{
    static const char cq[] =
        "INSERT INTO cases(run_id, variant_id, device_id, axes, status, reason, max_abs_err, "
        "max_rel_err, start, end, samples, stop_reason, have_records, e2e_median_ns, e2e_min_ns, "
        "e2e_max_ns, e2e_mean_ns, e2e_stdev_ns, e2e_noise, kernel_median_ns, h2d_median_ns, "
        "d2h_median_ns, h2d_bytes, h2d_count, d2h_bytes, d2h_count, kernel_count, traffic_varies, "
        "metrics_status, metrics_reason, gst_efficiency, metrics_ns, cache, gpu_median_ns, "
        "memset_median_ns, gpu_ci_pct, stop_detail, clock_min_mhz, clock_median_mhz, "
        "dropped_samples) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    static const char aq[] = "INSERT INTO case_axes VALUES (?,?,?,?)";
    static const char sq[] =
        "INSERT INTO samples(case_id, idx, kind, start, end, e2e_ns, h2d_bytes, h2d_count, h2d_ns, "
        "d2h_bytes, d2h_count, d2h_ns, kernel_count, kernel_ns, memset_bytes, memset_count, "
        "memset_ns, gpu_ns, sm_clock_mhz, dropped, records_kept) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    const struct vb_problem *pb = r->variant->problem; /* the case's axes */
    int64_t vid = 0, cid = 0, *sids = NULL;
    int i, dev_null = r->device < 0;
    /* IMMEDIATE: take the write lock (waiting for other writers) before reading anything, so a
     * concurrent writer can never make this transaction's upgrade fail */
    if (exec(s, "BEGIN IMMEDIATE", err)) return -1;
    if (variant_id(s, r->family, r->variant, &vid, err)) goto fail;
    if (put(s, cq, &cid, err, "iiitttdduuntndddddddddununnnttddtdddtddn", run_id, vid,
            (int64_t)(dev_null ? 0 : r->device), r->axes, vb_status_name(r->status),
            r->reason[0] ? r->reason : NULL, r->max_abs_err, r->max_rel_err, r->start_ns,
            r->end_ns, r->ntimed, r->stop_reason, r->have_records, r->e2e_ms.median * 1e6,
            r->e2e_ms.min * 1e6, r->e2e_ms.max * 1e6, r->e2e_ms.mean * 1e6, r->e2e_ms.stdev * 1e6,
            r->e2e_ms.noise, r->kernel_ms.median * 1e6, r->h2d_ms.median * 1e6,
            r->d2h_ms.median * 1e6, r->h2d_bytes, r->h2d_count, r->d2h_bytes, r->d2h_count,
            r->kernel_count, r->traffic_varies, vb_metrics_status_name(r->metrics_status),
            r->metrics_reason[0] ? r->metrics_reason : NULL, r->gst_efficiency,
            r->metrics_status == VB_METRICS_OK ? r->metrics_ns : NAN,
            !(r->variant->flags & VB_GPU) || r->status == VB_STATUS_SKIPPED || r->cold < 0 ? NULL
            : r->cold ? "cold"
                      : "warm",
            r->have_records ? r->gpu_ms.median * 1e6 : NAN,
            r->have_records ? r->memset_ms.median * 1e6 : NAN, r->gpu_ci_pct,
            r->stop_detail[0] ? r->stop_detail : NULL, r->clock_min_mhz, r->clock_median_mhz,
            r->dropped))
        goto fail;
    if (dev_null && put(s, "UPDATE cases SET device_id = NULL WHERE id = ?", NULL, err, "i", cid))
        goto fail;
    for (i = 0; i < pb->naxes; i++)
        if (put(s, aq, NULL, err, "itit", cid, pb->axes[i].name, (int64_t)r->point.v[i],
                pb->axes[i].labels ? pb->axes[i].labels[r->point.v[i]] : NULL))
            goto fail;
    sids = malloc(sizeof *sids * (size_t)(r->nsamples ? r->nsamples : 1));
    if (!sids) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto fail;
    }
    for (i = 0; i < r->nsamples; i++) {
        const struct vb_sample *x = &r->samples[i];
        int have = r->have_records;
        if (put(s, sq, &sids[i], err, "intuudundundndundddnn", cid, i, sample_kinds[x->kind],
                x->start, x->end, x->e2e_ns, x->h2d_bytes, x->h2d_count,
                have ? x->h2d_ns : NAN, x->d2h_bytes, x->d2h_count, have ? x->d2h_ns : NAN,
                x->kernel_count, have ? x->kernel_ns : NAN, x->memset_bytes, x->memset_count,
                have ? x->memset_ns : NAN, have ? x->gpu_ns : NAN, x->sm_clock_mhz, x->dropped,
                !x->records_dropped))
            goto fail;
    }
    if (put_records(s, cid, r, sids, err)) goto fail;
    /* the crash-safety test's hook: die here, inside the case's write, as a SIGKILL would */
    if (getenv("VARBENCH_TEST_KILL_IN_WRITE")) raise(SIGKILL);
    if (exec(s, "COMMIT", err)) goto fail;
    free(sids);
    if (case_id) *case_id = cid;
    return 0;
fail:
    free(sids);
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    forget_strings(s);
    return -1;
}

int vb_store_case_metrics(struct vb_store *s, int64_t case_id, const struct vb_metric_value *m,
                          size_t n, double ns, const char *failure, struct vb_err *err)
{
    static const char xq[] = "INSERT INTO metrics VALUES (?,?,?,?,?)";
    size_t i;
    if (exec(s, "BEGIN IMMEDIATE", err)) return -1;
    for (i = 0; i < n; i++) {
        int64_t kid;
        if (string_id(s, m[i].kernel, &kid, err) ||
            put(s, xq, NULL, err, "initd", case_id, m[i].launch, kid, m[i].metric, m[i].value))
            goto fail;
    }
    if (failure ? put(s, "UPDATE cases SET metrics_status = 'failed', metrics_reason = ?, "
                         "metrics_ns = NULL WHERE id = ?", NULL, err, "ti", failure, case_id)
                : put(s, "UPDATE cases SET metrics_ns = metrics_ns + ? WHERE id = ?", NULL, err,
                      "di", ns, case_id))
        goto fail;
    if (exec(s, "COMMIT", err)) goto fail;
    return 0;
fail:
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    forget_strings(s);
    return -1;
}

static void col_text(sqlite3_stmt *st, int c, char *buf, size_t n)
{
    const unsigned char *t = sqlite3_column_text(st, c);
    snprintf(buf, n, "%s", t ? (const char *)t : "");
}

static double col_double(sqlite3_stmt *st, int c)
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

/* read_rows steps st (bound by the caller) and calls fill for each row into a growing array of
 * rows of size sz; on success *rows/ *n hold it (caller frees). */
static int read_rows(struct vb_store *s, sqlite3_stmt *st, size_t sz,
                     void (*fill)(sqlite3_stmt *, void *), void **rows, int *n, struct vb_err *err)
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
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) {
        free(out);
        return sql_fail(s, err, "reading");
    }
    *rows = out;
    *n = cnt;
    return 0;
}

static void fill_case(sqlite3_stmt *st, void *p)
{
    struct vb_case_row *r = p;
    r->id = sqlite3_column_int64(st, 0);
    r->run_id = sqlite3_column_int64(st, 1);
    col_text(st, 2, r->family, sizeof r->family);
    col_text(st, 3, r->name, sizeof r->name);
    snprintf(r->variant, sizeof r->variant, "%s/%s", r->family, r->name);
    col_text(st, 4, r->axes, sizeof r->axes);
    col_text(st, 5, r->status, sizeof r->status);
    col_text(st, 6, r->reason, sizeof r->reason);
    col_text(st, 7, r->device, sizeof r->device);
    r->is_reference = sqlite3_column_int(st, 8);
    r->needs_gpu = sqlite3_column_int(st, 9);
    r->have_records = sqlite3_column_int(st, 10);
    r->samples = sqlite3_column_int(st, 11);
    r->e2e_median_ns = col_double(st, 12);
    r->e2e_mean_ns = col_double(st, 13);
    r->e2e_stdev_ns = col_double(st, 14);
    r->e2e_min_ns = col_double(st, 15);
    r->e2e_max_ns = col_double(st, 16);
    r->kernel_median_ns = col_double(st, 17);
    r->h2d_median_ns = col_double(st, 18);
    r->d2h_median_ns = col_double(st, 19);
    r->max_abs_err = col_double(st, 20);
    r->max_rel_err = col_double(st, 21);
    r->h2d_bytes = sqlite3_column_int64(st, 22);
    r->d2h_bytes = sqlite3_column_int64(st, 23);
    r->h2d_count = sqlite3_column_int64(st, 24);
    r->d2h_count = sqlite3_column_int64(st, 25);
    r->gst_efficiency = col_double(st, 26);
    col_text(st, 27, r->metrics_status, sizeof r->metrics_status);
    col_text(st, 28, r->metrics_reason, sizeof r->metrics_reason);
    r->gpu_median_ns = col_double(st, 29);
    r->memset_median_ns = col_double(st, 30);
    r->gpu_ci_pct = col_double(st, 31);
    col_text(st, 32, r->stop_reason, sizeof r->stop_reason);
    col_text(st, 33, r->cache, sizeof r->cache);
    r->clock_min_mhz = col_double(st, 34);
    r->clock_median_mhz = col_double(st, 35);
    r->dropped_samples = sqlite3_column_int(st, 36);
    r->throttled = r->dropped_samples > 0;
    /* CUpti_ActivityMemoryKind 1 is pageable; NULL: no copy records of that direction */
    r->h2d_pageable = sqlite3_column_type(st, 37) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 37);
    r->d2h_pageable = sqlite3_column_type(st, 38) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 38);
}

int vb_store_cases(struct vb_store *s, int64_t run_id, struct vb_case_row **rows, int *n,
                   struct vb_err *err)
{
    static const char q[] =
        "SELECT c.id, c.run_id, v.family, v.name, c.axes, c.status, c.reason, "
        "CASE WHEN c.device_id IS NULL THEN 'cpu: ' || IFNULL(h.cpu_model, '?') "
        "ELSE IFNULL(g.name, '?') END, v.is_reference, v.needs_gpu, c.have_records, c.samples, "
        "c.e2e_median_ns, c.e2e_mean_ns, c.e2e_stdev_ns, c.e2e_min_ns, c.e2e_max_ns, "
        "c.kernel_median_ns, c.h2d_median_ns, c.d2h_median_ns, c.max_abs_err, c.max_rel_err, "
        "c.h2d_bytes, c.d2h_bytes, c.h2d_count, c.d2h_count, c.gst_efficiency, "
        "c.metrics_status, c.metrics_reason, c.gpu_median_ns, c.memset_median_ns, c.gpu_ci_pct, "
        "c.stop_reason || IFNULL(' (' || c.stop_detail || ')', ''), c.cache, c.clock_min_mhz, "
        "c.clock_median_mhz, c.dropped_samples, "
        "(SELECT max(srcKind = 1) FROM CUPTI_ACTIVITY_KIND_MEMCPY m WHERE m.case_id = c.id AND "
        "m.copyKind = 1), (SELECT max(dstKind = 1) FROM CUPTI_ACTIVITY_KIND_MEMCPY m WHERE "
        "m.case_id = c.id AND m.copyKind = 2) FROM cases c "
        "JOIN variants v ON v.id = c.variant_id LEFT JOIN host_env h ON h.run_id = c.run_id "
        "LEFT JOIN TARGET_INFO_GPU g ON g.run_id = c.run_id AND g.id = c.device_id "
        "WHERE c.run_id = ? ORDER BY c.id";
    sqlite3_stmt *st = stmt(s, q, err);
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) return sql_fail(s, err, "bind");
    return read_rows(s, st, sizeof **rows, fill_case, (void **)rows, n, err);
}

static void fill_run(sqlite3_stmt *st, void *p)
{
    struct vb_run_row *r = p;
    r->id = sqlite3_column_int64(st, 0);
    col_text(st, 1, r->uuid, sizeof r->uuid);
    col_text(st, 2, r->kind, sizeof r->kind);
    col_text(st, 3, r->status, sizeof r->status);
    col_text(st, 4, r->command_line, sizeof r->command_line);
    col_text(st, 5, r->git_commit, sizeof r->git_commit);
    col_text(st, 6, r->start_utc, sizeof r->start_utc);
    col_text(st, 7, r->host, sizeof r->host);
    col_text(st, 8, r->cpu, sizeof r->cpu);
    col_text(st, 9, r->gpu, sizeof r->gpu);
    r->exit_code = sqlite3_column_int(st, 10);
    r->cpu_count = sqlite3_column_int(st, 11);
}

int vb_store_runs(struct vb_store *s, struct vb_run_row **rows, int *n, struct vb_err *err)
{
    static const char q[] =
        "SELECT r.id, r.uuid, r.kind, r.status, r.command_line, r.git_commit, r.start_utc, "
        "h.hostname, h.cpu_model, (SELECT name FROM TARGET_INFO_GPU g WHERE g.run_id = r.id "
        "ORDER BY g.id LIMIT 1), r.exit_code, h.cpu_count FROM runs r "
        "LEFT JOIN host_env h ON h.run_id = r.id "
        "ORDER BY r.id";
    sqlite3_stmt *st = stmt(s, q, err);
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    return read_rows(s, st, sizeof **rows, fill_run, (void **)rows, n, err);
}

/* newest_run sets *run_id from the first row of query q (a run id), or -1 without rows. */
static int newest_run(struct vb_store *s, const char *q, int64_t *run_id, struct vb_err *err)
{
    sqlite3_stmt *st = stmt(s, q, err);
    int rc;
    if (!st) return -1;
    rc = sqlite3_step(st);
    *run_id = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : sql_fail(s, err, "reading runs");
}

int vb_store_latest_run(struct vb_store *s, int64_t *run_id, struct vb_err *err)
{
    /* newest by start time: after a merge the largest id is the last run merged, not the last
     * run; a suite run before any trace run (compare and export want the suite's cases) */
    static const char q[] = "SELECT id FROM runs WHERE status = 'complete' "
                            "ORDER BY kind = 'suite' DESC, start_utc DESC, id DESC LIMIT 1";
    if (newest_run(s, q, run_id, err)) return -1;
    if (*run_id < 0) {
        vb_err_set(err, VB_E_DB, "database '%s' has no complete run", s->path);
        return vb_err_hint(err, "run 'varbench run --db %s' first", s->path);
    }
    return 0;
}

static void fill_ceiling(sqlite3_stmt *st, void *p)
{
    struct vb_ceiling_row *r = p;
    r->run_id = sqlite3_column_int64(st, 0);
    r->device = sqlite3_column_int(st, 1);
    col_text(st, 2, r->name, sizeof r->name);
    r->gbps = col_double(st, 3);
}

int vb_store_ceiling_rows(struct vb_store *s, struct vb_ceiling_row **rows, int *n,
                          struct vb_err *err)
{
    static const char q[] = "SELECT run_id, device_id, name, gbps FROM ceilings ORDER BY run_id";
    sqlite3_stmt *st = stmt(s, q, err);
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    return read_rows(s, st, sizeof **rows, fill_ceiling, (void **)rows, n, err);
}

static void fill_double(sqlite3_stmt *st, void *p)
{
    *(double *)p = sqlite3_column_double(st, 0);
}

int vb_store_samples(struct vb_store *s, int64_t case_id, const char *metric, double **x, int *n,
                     struct vb_err *err)
{
    /* one statement per phase: the column name cannot be a bound parameter */
#define PHASE_Q(col)                                                                       \
    "SELECT " col " FROM samples WHERE case_id = ? AND kind = 'timed' AND NOT dropped "    \
    "AND " col " IS NOT NULL ORDER BY idx"
    static const char *const names[] = {"e2e", "gpu", "kernel", "h2d", "d2h", "memset"};
    static const char *const qs[] = {PHASE_Q("e2e_ns"), PHASE_Q("gpu_ns"), PHASE_Q("kernel_ns"),
                                     PHASE_Q("h2d_ns"), PHASE_Q("d2h_ns"), PHASE_Q("memset_ns")};
#undef PHASE_Q
    sqlite3_stmt *st;
    size_t k;
    *x = NULL;
    *n = 0;
    for (k = 0; k < sizeof names / sizeof names[0] && strcmp(metric, names[k]); k++) {}
    if (k == sizeof names / sizeof names[0])
        return vb_err_set(err, VB_E_USAGE,
                          "unknown metric '%s' (gpu, kernel, h2d, d2h, memset or e2e)", metric);
    if (!(st = stmt(s, qs[k], err))) return -1;
    if (sqlite3_bind_int64(st, 1, case_id) != SQLITE_OK) return sql_fail(s, err, "bind");
    return read_rows(s, st, sizeof **x, fill_double, (void **)x, n, err);
}

/* Merging. Rows keep their values; ids of runs, cases and samples move up by the target's
 * largest id, and names (variants, StringIds) are matched by value. */
struct merge_off {
    int64_t run, kase, sample;
};

/* column_expr gives the SELECT expression copying column col from src into main. */
static void column_expr(const char *table, const char *col, char *buf, size_t n)
{
    static const char sid[] = "(SELECT m.id FROM main.StringIds m JOIN src.StringIds x ON "
                              "x.value = m.value WHERE x.id = %s)";
    if (!strcmp(col, "id") && !strcmp(table, "runs")) snprintf(buf, n, "id + :offr");
    else if (!strcmp(col, "id") && !strcmp(table, "cases")) snprintf(buf, n, "id + :offc");
    else if (!strcmp(col, "id") && !strcmp(table, "samples")) snprintf(buf, n, "id + :offs");
    else if (!strcmp(col, "run_id")) snprintf(buf, n, "run_id + :offr");
    else if (!strcmp(col, "case_id")) snprintf(buf, n, "case_id + :offc");
    else if (!strcmp(col, "sample_id")) snprintf(buf, n, "sample_id + :offs");
    else if (!strcmp(col, "variant_id"))
        snprintf(buf, n, "(SELECT m.id FROM main.variants m JOIN src.variants x ON x.family = "
                         "m.family AND x.name = m.name WHERE x.id = variant_id)");
    else if (!strcmp(col, "shortName") || !strcmp(col, "mangledName") || !strcmp(col, "textId") ||
             !strcmp(col, "kernelId") || !strcmp(col, "nameId"))
        snprintf(buf, n, sid, col);
    else snprintf(buf, n, "\"%s\"", col);
}

/* copy_table copies the rows of table that belong to the runs listed in temp.merge_runs. */
static int copy_table(struct vb_store *s, const char *table, const struct merge_off *off,
                      struct vb_err *err)
{
    char cols[4096] = "", exprs[8192] = "", sql[16384], q[160], e[512];
    const char *where;
    sqlite3_stmt *st = NULL;
    int rc, has_run = 0, has_case = 0, k;
    snprintf(q, sizeof q, "PRAGMA main.table_info(%s)", table);
    if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) != SQLITE_OK) return sql_fail(s, err, q);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *col = (const char *)sqlite3_column_text(st, 1);
        has_run |= !strcmp(col, "run_id");
        has_case |= !strcmp(col, "case_id");
        column_expr(table, col, e, sizeof e);
        snprintf(cols + strlen(cols), sizeof cols - strlen(cols), "%s\"%s\"", cols[0] ? "," : "", col);
        snprintf(exprs + strlen(exprs), sizeof exprs - strlen(exprs), "%s%s", exprs[0] ? "," : "", e);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) return sql_fail(s, err, q);
    where = !strcmp(table, "runs") ? "id IN (SELECT id FROM temp.merge_runs)"
            : has_run ? "run_id IN (SELECT id FROM temp.merge_runs)"
            : has_case ? "case_id IN (SELECT id FROM src.cases WHERE run_id IN "
                         "(SELECT id FROM temp.merge_runs))"
            : NULL;
    if (!where) return vb_err_set(err, VB_E_DB, "internal: table '%s' belongs to no run", table);
    snprintf(sql, sizeof sql, "INSERT INTO main.\"%s\"(%s) SELECT %s FROM src.\"%s\" WHERE %s",
             table, cols, exprs, table, where);
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return sql_fail(s, err, table);
    for (k = 1; k <= sqlite3_bind_parameter_count(st); k++) {
        const char *name = sqlite3_bind_parameter_name(st, k);
        sqlite3_bind_int64(st, k, !strcmp(name, ":offr") ? off->run
                                  : !strcmp(name, ":offc") ? off->kase : off->sample);
    }
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : sql_fail(s, err, table);
}

static int max_id(struct vb_store *s, const char *table, int64_t *out, struct vb_err *err)
{
    char q[96];
    sqlite3_stmt *st;
    int rc;
    snprintf(q, sizeof q, "SELECT IFNULL(max(id), 0) FROM main.%s", table);
    if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) != SQLITE_OK) return sql_fail(s, err, q);
    rc = sqlite3_step(st);
    *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : sql_fail(s, err, q);
}

/* ro_uri writes "file:PATH?mode=ro" with PATH percent-encoded, so ATTACH opens it read-only. */
static int ro_uri(const char *path, char *buf, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t k = (size_t)snprintf(buf, n, "file:");
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
    if (k + 9 >= n) return -1;
    memcpy(buf + k, "?mode=ro", 9);
    return 0;
}

/* drop_partial deletes from main every run listed in temp.merge_replace (a partial copy of a
 * run the source holds more of), children first. */
static int drop_partial(struct vb_store *s, struct vb_err *err)
{
    static const char *const by_case[] = {"metrics", "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS",
        "CUPTI_ACTIVITY_KIND_MEMSET", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_KERNEL",
        "samples", "case_axes"};
    static const char *const by_run[] = {"cases", "ceilings", "TARGET_INFO_GPU", "host_env"};
    char q[256];
    size_t i;
    for (i = 0; i < sizeof by_case / sizeof by_case[0]; i++) {
        snprintf(q, sizeof q, "DELETE FROM main.%s WHERE case_id IN (SELECT id FROM main.cases "
                              "WHERE run_id IN (SELECT id FROM temp.merge_replace))", by_case[i]);
        if (exec(s, q, err)) return -1;
    }
    for (i = 0; i < sizeof by_run / sizeof by_run[0]; i++) {
        snprintf(q, sizeof q, "DELETE FROM main.%s WHERE run_id IN (SELECT id FROM "
                              "temp.merge_replace)", by_run[i]);
        if (exec(s, q, err)) return -1;
    }
    return exec(s, "DELETE FROM main.runs WHERE id IN (SELECT id FROM temp.merge_replace)", err);
}

/* count_rows sets *n to the first column of q's first row (0 without). */
static void count_rows(struct vb_store *s, const char *q, int *n)
{
    sqlite3_stmt *st = NULL;
    *n = 0;
    if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        *n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
}

int vb_store_merge(struct vb_store *s, const char *path, int *added, int *replaced,
                   struct vb_err *err)
{
    /* in the order the foreign keys need */
    static const char *const tables[] = {"runs", "host_env", "TARGET_INFO_GPU", "ceilings",
        "cases", "case_axes", "samples", "CUPTI_ACTIVITY_KIND_KERNEL",
        "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET", "NVTX_EVENTS", "metrics",
        "CUPTI_ACTIVITY_KIND_RUNTIME"};
    struct vb_store *in;
    struct merge_off off;
    sqlite3_stmt *st = NULL;
    char uri[4200];
    size_t i;
    int nrep = 0;
    *added = 0;
    if (replaced) *replaced = 0;
    /* the input must be a varbench database of this schema; it is only ever read */
    if (vb_store_open_ro(path, &in, err)) return -1;
    vb_store_close(in);
    if (ro_uri(path, uri, sizeof uri))
        return vb_err_set(err, VB_E_DB, "database path '%s' is too long", path);
    if (sqlite3_prepare_v2(s->db, "ATTACH DATABASE ? AS src", -1, &st, NULL) != SQLITE_OK)
        return sql_fail(s, err, "attach");
    if (sqlite3_bind_text(st, 1, uri, -1, SQLITE_TRANSIENT) != SQLITE_OK || sqlite3_step(st) != SQLITE_DONE) {
        sqlite3_finalize(st);
        return sql_fail(s, err, "attach");
    }
    sqlite3_finalize(st);
    if (exec(s, "BEGIN IMMEDIATE", err)) goto detach;
    /* a run merged while it was still being written (or from a file whose writer died) is
     * replaced by a more complete copy: one that finished, or one with more cases */
    if (exec(s, "CREATE TEMP TABLE merge_replace AS SELECT m.id AS id FROM main.runs m JOIN "
                "src.runs x ON x.uuid = m.uuid WHERE (m.status = 'running' AND x.status <> "
                "'running') OR (m.status = x.status AND (SELECT count(*) FROM src.cases c WHERE "
                "c.run_id = x.id) > (SELECT count(*) FROM main.cases c WHERE c.run_id = m.id))",
             err) ||
        drop_partial(s, err) ||
        exec(s, "CREATE TEMP TABLE merge_runs AS SELECT id FROM src.runs WHERE uuid NOT IN "
                "(SELECT uuid FROM main.runs)", err) ||
        exec(s, "INSERT OR IGNORE INTO main.StringIds(value) SELECT value FROM src.StringIds", err) ||
        exec(s, "INSERT OR IGNORE INTO main.variants(family, name, summary, seed, is_reference, "
                "needs_gpu) SELECT family, name, summary, seed, is_reference, needs_gpu FROM "
                "src.variants", err) ||
        max_id(s, "runs", &off.run, err) || max_id(s, "cases", &off.kase, err) ||
        max_id(s, "samples", &off.sample, err))
        goto rollback;
    for (i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (copy_table(s, tables[i], &off, err)) goto rollback;
    count_rows(s, "SELECT count(*) FROM temp.merge_replace", &nrep);
    count_rows(s, "SELECT count(*) FROM temp.merge_runs", added);
    *added -= nrep;
    if (replaced) *replaced = nrep;
    if (exec(s, "DROP TABLE temp.merge_runs", err) || exec(s, "DROP TABLE temp.merge_replace", err) ||
        exec(s, "COMMIT", err))
        goto rollback;
    forget_strings(s);
    exec(s, "DETACH DATABASE src", err);
    return 0;
rollback:
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_exec(s->db, "DROP TABLE IF EXISTS temp.merge_runs", NULL, NULL, NULL);
    sqlite3_exec(s->db, "DROP TABLE IF EXISTS temp.merge_replace", NULL, NULL, NULL);
    forget_strings(s);
detach:
    sqlite3_exec(s->db, "DETACH DATABASE src", NULL, NULL, NULL);
    return vb_err_context(err, "merging '%s'", path);
}

int vb_store_count(struct vb_store *s, const char *table, int64_t case_id, int64_t *n,
                   struct vb_err *err)
{
    static const char *const tables[] = {"runs", "cases", "samples", "variants", "StringIds",
        "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
        "NVTX_EVENTS", "case_axes", "TARGET_INFO_GPU", "host_env", "ceilings", "metrics",
        "CUPTI_ACTIVITY_KIND_RUNTIME"};
    char q[160];
    sqlite3_stmt *st = NULL;
    size_t i;
    int rc;
    for (i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (!strcmp(table, tables[i])) break;
    if (i == sizeof tables / sizeof tables[0])
        return vb_err_set(err, VB_E_USAGE, "no table '%s' in the schema", table);
    /* the table name comes from the list above, never from the caller's text */
    snprintf(q, sizeof q, "SELECT count(*) FROM %s%s", tables[i],
             case_id > 0 ? " WHERE case_id = ?" : "");
    if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) != SQLITE_OK) return sql_fail(s, err, q);
    if (case_id > 0) sqlite3_bind_int64(st, 1, case_id);
    rc = sqlite3_step(st);
    *n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : sql_fail(s, err, q);
}

int vb_store_run_status(struct vb_store *s, int64_t run_id, char *buf, size_t n,
                        struct vb_err *err)
{
    static const char q[] = "SELECT status FROM runs WHERE id = ?";
    sqlite3_stmt *st = stmt(s, q, err);
    int rc;
    if (!st) return -1;
    sqlite3_bind_int64(st, 1, run_id);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) col_text(st, 0, buf, n);
    sqlite3_reset(st);
    if (rc != SQLITE_ROW)
        return vb_err_set(err, VB_E_DB, "database '%s' has no run %lld", s->path, (long long)run_id);
    return 0;
}

/* Trace summaries: what `varbench trace` writes besides its cases, and what `varbench summary`
 * reads. These statements run once per command, so they are prepared and finalized here rather
 * than taking slots of the statement cache. */

/* once prepares sql (finalized by the caller); NULL with err on failure. */
static sqlite3_stmt *once(struct vb_store *s, const char *sql, struct vb_err *err)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
        sql_fail(s, err, "prepare");
        return NULL;
    }
    return st;
}

int vb_store_trace_gpu(struct vb_store *s, int64_t run_id, const struct vb_gpu_env *g,
                       struct vb_err *err)
{
    /* every process of a traced program describes the GPUs it used: the first one wins */
    static const char sql[] = "INSERT OR IGNORE INTO TARGET_INFO_GPU VALUES "
                              "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    return put_gpu(s, sql, run_id, g, err);
}

int vb_store_latest_trace(struct vb_store *s, int64_t *run_id, struct vb_err *err)
{
    static const char q[] = "SELECT id FROM runs WHERE kind = 'trace' ORDER BY start_utc DESC, "
                            "id DESC LIMIT 1";
    if (newest_run(s, q, run_id, err)) return -1;
    if (*run_id < 0) {
        vb_err_set(err, VB_E_DB, "database '%s' has no traced run", s->path);
        return vb_err_hint(err, "trace a program first: varbench trace --db %s -- COMMAND, or pass "
                                "--run with a run of 'varbench run'", s->path);
    }
    return 0;
}

int vb_store_run_info(struct vb_store *s, int64_t run_id, struct vb_run_info_row *r,
                      struct vb_err *err)
{
    static const char q[] =
        "SELECT r.id, r.kind, r.status, r.command_line, r.start_utc, r.end_utc, r.exit_code, "
        "r.message, (SELECT name FROM TARGET_INFO_GPU g WHERE g.run_id = r.id ORDER BY g.id "
        "LIMIT 1), (SELECT count(*) FROM cases c WHERE c.run_id = r.id) FROM runs r WHERE r.id = ?";
    sqlite3_stmt *st = once(s, q, err);
    int rc;
    memset(r, 0, sizeof *r);
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) {
        sqlite3_finalize(st);
        return sql_fail(s, err, "bind");
    }
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        r->id = sqlite3_column_int64(st, 0);
        col_text(st, 1, r->kind, sizeof r->kind);
        col_text(st, 2, r->status, sizeof r->status);
        col_text(st, 3, r->command_line, sizeof r->command_line);
        col_text(st, 4, r->start_utc, sizeof r->start_utc);
        col_text(st, 5, r->end_utc, sizeof r->end_utc);
        r->has_exit_code = sqlite3_column_type(st, 6) != SQLITE_NULL;
        r->exit_code = sqlite3_column_int(st, 6);
        col_text(st, 7, r->message, sizeof r->message);
        col_text(st, 8, r->gpu, sizeof r->gpu);
        r->ncases = sqlite3_column_int(st, 9);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW) return 0;
    if (rc != SQLITE_DONE) return sql_fail(s, err, "reading runs");
    vb_err_set(err, VB_E_USAGE, "database '%s' has no run %lld", s->path, (long long)run_id);
    return vb_err_hint(err, "'varbench export --db %s --format csv' lists the runs", s->path);
}

static void fill_summary(sqlite3_stmt *st, void *p)
{
    struct vb_summary_row *r = p;
    r->kind = sqlite3_column_int(st, 0);
    r->sub = sqlite3_column_int(st, 1);
    col_text(st, 2, r->name, sizeof r->name);
    r->calls = sqlite3_column_int64(st, 3);
    r->total_ns = col_double(st, 4);
    r->min_ns = col_double(st, 5);
    r->max_ns = col_double(st, 6);
    r->bytes = sqlite3_column_int64(st, 7);
    r->min_bytes = sqlite3_column_int64(st, 8);
    r->max_bytes = sqlite3_column_int64(st, 9);
}

int vb_store_summary(struct vb_store *s, int64_t run_id, struct vb_summary_row **rows, int *n,
                     struct vb_err *err)
{
    /* one row per kernel (by mangled name), kind of copy, memset, API function and NVTX text */
#define DUR(t) "count(*), sum(" t ".end - " t ".start), min(" t ".end - " t ".start), max(" t ".end - " t ".start)"
    static const char q[] =
        "SELECT 0, 0, sn.value, " DUR("k") ", 0, 0, 0 FROM CUPTI_ACTIVITY_KIND_KERNEL k "
        "JOIN cases c ON c.id = k.case_id JOIN StringIds sn ON sn.id = k.mangledName "
        "WHERE c.run_id = ?1 GROUP BY k.mangledName "
        "UNION ALL SELECT 1, m.copyKind, '', " DUR("m") ", sum(m.bytes), min(m.bytes), max(m.bytes) "
        "FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN cases c ON c.id = m.case_id "
        "WHERE c.run_id = ?1 GROUP BY m.copyKind "
        "UNION ALL SELECT 2, 0, '', " DUR("x") ", sum(x.bytes), min(x.bytes), max(x.bytes) "
        "FROM CUPTI_ACTIVITY_KIND_MEMSET x JOIN cases c ON c.id = x.case_id "
        "WHERE c.run_id = ?1 GROUP BY c.run_id "
        "UNION ALL SELECT 3, a.driver, sn.value, " DUR("a") ", 0, 0, 0 "
        "FROM CUPTI_ACTIVITY_KIND_RUNTIME a JOIN cases c ON c.id = a.case_id "
        "JOIN StringIds sn ON sn.id = a.nameId WHERE c.run_id = ?1 GROUP BY a.nameId "
        "UNION ALL SELECT 4, 0, IFNULL(t.text, sn.value), " DUR("t") ", 0, 0, 0 "
        "FROM NVTX_EVENTS t JOIN cases c ON c.id = t.case_id LEFT JOIN StringIds sn "
        "ON sn.id = t.textId WHERE c.run_id = ?1 AND t.end IS NOT NULL "
        "GROUP BY IFNULL(t.text, sn.value)";
#undef DUR
    sqlite3_stmt *st = once(s, q, err);
    int rc;
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) {
        sqlite3_finalize(st);
        return sql_fail(s, err, "bind");
    }
    rc = read_rows(s, st, sizeof **rows, fill_summary, (void **)rows, n, err);
    sqlite3_finalize(st);
    return rc;
}

static void fill_metric_row(sqlite3_stmt *st, void *p)
{
    struct vb_metric_row *r = p;
    col_text(st, 0, r->kernel, sizeof r->kernel);
    col_text(st, 1, r->metric, sizeof r->metric);
    r->invocations = sqlite3_column_int64(st, 2);
    r->min = col_double(st, 3);
    r->max = col_double(st, 4);
    r->avg = col_double(st, 5);
}

int vb_store_metric_summary(struct vb_store *s, int64_t run_id, struct vb_metric_row **rows,
                            int *n, struct vb_err *err)
{
    static const char q[] =
        "SELECT sn.value, m.metric, count(m.value), min(m.value), max(m.value), avg(m.value) "
        "FROM metrics m JOIN cases c ON c.id = m.case_id JOIN StringIds sn ON sn.id = m.kernelId "
        "WHERE c.run_id = ? GROUP BY m.kernelId, m.metric ORDER BY sn.value, m.metric";
    sqlite3_stmt *st = stmt(s, q, err);
    *rows = NULL;
    *n = 0;
    if (!st) return -1;
    sqlite3_bind_int64(st, 1, run_id);
    return read_rows(s, st, sizeof **rows, fill_metric_row, (void **)rows, n, err);
}
