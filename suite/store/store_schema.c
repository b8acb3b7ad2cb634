/*
 * store_schema: the database's shape, in one place. The version-1 schema and the migrations
 * that follow it are the only description of the tables: a new database gets the version-1
 * schema and then every migration, so old and new files end in the same shape, and what
 * reads the shape (merge, count) asks the file (PRAGMA table_info, foreign_key_list) rather
 * than keeping lists of its own. The rules a table must follow for that are below, beside the
 * one list of the tables that belong to no run.
 */
#include "store_int.h"

#include <stdio.h>

/* Rules of the schema, which merge relies on and test_store_string_columns checks:
 * - a table belongs to a run through a REFERENCES chain to runs(id) (run_id REFERENCES
 *   runs(id), case_id REFERENCES cases(id), ...), or it is listed in vb_store_shared_tables;
 * - a column that holds a StringIds id says so: INTEGER REFERENCES StringIds(id); so does
 *   every other column holding another table's id;
 * - a table of a run has its own ids only as an INTEGER PRIMARY KEY (merge shifts them).
 * Adding a table of a run, or a column, is then one edit: the migration that creates it. */

const struct vb_store_shared_table vb_store_shared_tables[] = {
    {"meta", VB_TABLE_FILE},                   /* the file's own: never merged */
    {"StringIds", VB_TABLE_NAMES},             /* matched by value */
    {"variants", VB_TABLE_NAMES},              /* matched by (family, name) */
    {"ENUM_CUDA_MEMCPY_OPER", VB_TABLE_FIXED}, /* the same rows in every file */
    {NULL, VB_TABLE_FILE},
};

/* The version-1 schema, what an empty file gets first; every later change is a migration. */
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
    "CREATE TABLE TARGET_INFO_GPU(run_id INTEGER NOT NULL REFERENCES runs(id), id INTEGER NOT "
    "NULL,\n"
    "  name TEXT, uuid TEXT, busLocation TEXT, computeMajor INTEGER, computeMinor INTEGER,\n"
    "  smCount INTEGER, totalMemory INTEGER, l2CacheSize INTEGER, clockRate INTEGER,\n"
    "  smClockMeasuredMHz REAL, memoryClockRate INTEGER, memoryBusWidth INTEGER,\n"
    "  pcieLinkSpeed TEXT, pcieGen INTEGER, pcieWidth INTEGER, driverVersion TEXT,\n"
    "  cudaDriverVersion INTEGER, cudaRuntimeVersion INTEGER, cuptiVersion INTEGER,\n"
    "  PRIMARY KEY(run_id, id));\n"
    "CREATE TABLE ceilings(run_id INTEGER NOT NULL REFERENCES runs(id), device_id INTEGER NOT "
    "NULL,\n"
    "  name TEXT NOT NULL, bytes INTEGER, reps INTEGER, median_ns REAL, gbps REAL,\n"
    "  PRIMARY KEY(run_id, device_id, name));\n"
    "CREATE TABLE variants(id INTEGER PRIMARY KEY, family TEXT NOT NULL, name TEXT NOT NULL,\n"
    "  summary TEXT, seed TEXT, is_reference INTEGER NOT NULL, needs_gpu INTEGER NOT NULL,\n"
    "  UNIQUE(family, name));\n"
    "CREATE TABLE cases(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),\n"
    "  variant_id INTEGER NOT NULL REFERENCES variants(id), device_id INTEGER, axes TEXT NOT "
    "NULL,\n"
    "  status TEXT NOT NULL CHECK(status IN "
    "('ok','wrong-result','skipped','failed','interrupted')),\n"
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
    "  gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ "
    "INTEGER,\n"
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
    "  "
    "(5,'CUDA_MEMCPY_OPER_ATOA','Array-to-Array'),(6,'CUDA_MEMCPY_OPER_ATOD','Array-to-Device'),\n"
    "  "
    "(7,'CUDA_MEMCPY_OPER_DTOA','Device-to-Array'),(8,'CUDA_MEMCPY_OPER_DTOD','Device-to-Device'),"
    "\n"
    "  (9,'CUDA_MEMCPY_OPER_HTOH','Host-to-Host'),(10,'CUDA_MEMCPY_OPER_PTOP','Peer-to-Peer');\n"
    "CREATE VIEW case_summary AS SELECT c.run_id, c.id AS case_id, v.family || '/' || v.name AS\n"
    "  variant, c.axes, c.status, c.samples, c.e2e_median_ns / 1e6 AS e2e_ms,\n"
    "  c.kernel_median_ns / 1e6 AS kernel_ms, c.h2d_bytes, c.h2d_count,\n"
    "  c.h2d_median_ns / 1e6 AS h2d_ms, c.d2h_bytes, c.d2h_count, c.d2h_median_ns / 1e6 AS "
    "d2h_ms,\n"
    "  c.max_abs_err, c.max_rel_err, c.reason FROM cases c JOIN variants v ON v.id = "
    "c.variant_id;\n"
    "INSERT INTO meta VALUES ('application', 'varbench');\n";

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
    "  c.h2d_median_ns / 1e6 AS h2d_ms, c.d2h_bytes, c.d2h_count, c.d2h_median_ns / 1e6 AS "
    "d2h_ms,\n"
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
    /* 3 -> 4: each case's floor (floor.h): the least time its bytes allow at the run's
     * measured ceilings, what bounds it, and the measured time over it */
    "ALTER TABLE cases ADD COLUMN floor_ns REAL;\n"
    "ALTER TABLE cases ADD COLUMN floor_ratio REAL;\n"
    "ALTER TABLE cases ADD COLUMN floor_bound TEXT CHECK(floor_bound IN "
    "('dram','pcie','launch'));\n"
    "ALTER TABLE cases ADD COLUMN floor_of TEXT CHECK(floor_of IN ('kernel','e2e'));\n",
    /* 4 -> 5: varbench trace v2: what tracing a process cost it (CUPTI's start in the process,
     * CUPTI's own overhead records, the flush and the write at its exit, records dropped), and
     * the thread of each NVTX range (the timeline export nests ranges per thread) */
    "ALTER TABLE cases ADD COLUMN trace_init_ns REAL;\n"
    "ALTER TABLE cases ADD COLUMN trace_flush_ns REAL;\n"
    "ALTER TABLE cases ADD COLUMN trace_store_ns REAL;\n"
    "ALTER TABLE cases ADD COLUMN cupti_overhead_ns REAL;\n"
    "ALTER TABLE cases ADD COLUMN cupti_overhead_count INTEGER;\n"
    "ALTER TABLE cases ADD COLUMN dropped_records INTEGER;\n"
    "ALTER TABLE NVTX_EVENTS ADD COLUMN processId INTEGER;\n"
    "ALTER TABLE NVTX_EVENTS ADD COLUMN threadId INTEGER;\n",
    /* 5 -> 6: varbench trace v3: NVTX events as the program made them (marks and start/end
     * ranges beside push/pop, in eventType; the domain, category, color, and the thread that
     * ended a range); the CUDA graph and node that launched a GPU record; and per traced
     * process the program's own CUPTI client that shared CUPTI, with what it was handed, and
     * CUPTI's overhead records by kind (and inside the capture window) */
    "ALTER TABLE NVTX_EVENTS ADD COLUMN domainId INTEGER REFERENCES StringIds(id);\n"
    "ALTER TABLE NVTX_EVENTS ADD COLUMN category INTEGER;\n"
    "ALTER TABLE NVTX_EVENTS ADD COLUMN color INTEGER;\n"
    "ALTER TABLE NVTX_EVENTS ADD COLUMN endThreadId INTEGER;\n"
    "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphId INTEGER;\n"
    "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphNodeId INTEGER;\n"
    "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY ADD COLUMN graphId INTEGER;\n"
    "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY ADD COLUMN graphNodeId INTEGER;\n"
    "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMSET ADD COLUMN graphId INTEGER;\n"
    "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMSET ADD COLUMN graphNodeId INTEGER;\n"
    "ALTER TABLE cases ADD COLUMN cupti_client TEXT;\n"
    "ALTER TABLE cases ADD COLUMN cupti_client_kernels INTEGER;\n"
    "ALTER TABLE cases ADD COLUMN cupti_client_copies INTEGER;\n"
    "ALTER TABLE cases ADD COLUMN cupti_client_memsets INTEGER;\n"
    "ALTER TABLE cases ADD COLUMN cupti_client_records INTEGER;\n"
    "ALTER TABLE cases ADD COLUMN cupti_overhead_detail TEXT;\n",
    /* 6 -> 7: a floor bound by the measured round trip (floor.h, "latency"). SQLite alters no
     * CHECK constraint; widening one that every stored row meets is the case its ALTER TABLE
     * page gives the schema-text edit for (section 7, "making other kinds of table schema
     * changes"): the text of the table's CREATE, then the schema reloaded */
    "PRAGMA writable_schema = ON;\n"
    "UPDATE sqlite_schema SET sql = replace(sql, '''launch''))', '''launch'',''latency''))') "
    "WHERE type = 'table' AND name = 'cases';\n"
    "PRAGMA writable_schema = RESET;\n"
    /* the edit took (a schema text that differs, edited by hand, would leave the old CHECK and
     * every later 'latency' refused: fail the migration instead) */
    "CREATE TEMP TABLE vb_widened(ok INTEGER CHECK(ok = 1));\n"
    "INSERT INTO vb_widened SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND "
    "name = 'cases' AND sql LIKE '%''latency''%';\n"
    "DROP TABLE vb_widened;\n"
    /* and the schema's cookie moved on (a table made and dropped), so that another connection
     * open on the file rereads the schema: the page's recipe increments schema_version */
    "CREATE TABLE vb_schema_bump(x);\n"
    "DROP TABLE vb_schema_bump;\n",
    /* 7 -> 8: the work one sample declares (result.h: global-memory bytes its kernels read and
     * write, elements, floating-point operations; NULL undeclared), what the variant computes
     * and its flags (registry.h's VB_GPU, ...; NULL in rows written before: the next run of the
     * variant sets them), and the benchmark's own named numbers, by name (vb_summary) */
    "ALTER TABLE cases ADD COLUMN gmem_read_bytes INTEGER;\n"
    "ALTER TABLE cases ADD COLUMN gmem_write_bytes INTEGER;\n"
    "ALTER TABLE cases ADD COLUMN elements REAL;\n"
    "ALTER TABLE cases ADD COLUMN flops REAL;\n"
    "ALTER TABLE variants ADD COLUMN problem TEXT;\n"
    "ALTER TABLE variants ADD COLUMN flags INTEGER;\n"
    "CREATE TABLE case_summaries(case_id INTEGER NOT NULL REFERENCES cases(id),\n"
    "  name TEXT NOT NULL, value REAL, unit TEXT, PRIMARY KEY(case_id, name));\n",
    /* 8 -> 9: traced programs gated (trace/samples.h): a peer copy's two devices, as in the
     * Nsight Systems export (NULL for other copies); a sample's time in collective kernels
     * (NCCL's: the time a rank waited for the others, among others; NULL unmeasured) */
    "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY ADD COLUMN srcDeviceId INTEGER;\n"
    "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY ADD COLUMN dstDeviceId INTEGER;\n"
    "ALTER TABLE samples ADD COLUMN comm_ns REAL;\n",
    /* 9 -> 10: each kernel's code identity (code_id.h): the 64-bit FNV-1a hash of its SASS, as
     * 16 hex digits, for every kernel of every module the run's process loaded */
    "CREATE TABLE kernel_code(run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL,\n"
    "  sass_hash TEXT NOT NULL, PRIMARY KEY(run_id, name, sass_hash));\n",
    /* 10 -> 11: the board's ledger over a case's timed samples (ledger.h): energy (J) and the
     * mean power it implies where the window was long enough, the mean power read, the hottest
     * temperature, NVML's SM and memory clocks, the enforced power limit, the clock-event
     * reasons seen, the other processes on the board, why energy was not measured, and what
     * --quiet-gpu waited for */
    "ALTER TABLE cases ADD COLUMN energy_j REAL;\n"
    "ALTER TABLE cases ADD COLUMN power_w REAL;\n"
    "ALTER TABLE cases ADD COLUMN power_read_w REAL;\n"
    "ALTER TABLE cases ADD COLUMN temp_max_c REAL;\n"
    "ALTER TABLE cases ADD COLUMN nvml_sm_mhz_median REAL;\n"
    "ALTER TABLE cases ADD COLUMN nvml_mem_mhz_median REAL;\n"
    "ALTER TABLE cases ADD COLUMN power_limit_w REAL;\n"
    "ALTER TABLE cases ADD COLUMN clock_reasons TEXT;\n"
    "ALTER TABLE cases ADD COLUMN co_tenants TEXT;\n"
    "ALTER TABLE cases ADD COLUMN ledger_note TEXT;\n"
    "ALTER TABLE cases ADD COLUMN quiet_wait TEXT;\n",
    /* 11 -> 12: each timed sample's controls (control.h): what the host (an arithmetic chain, a
     * walk of its memory) and the copies of the sample's size and kind took just before it, so
     * that compare judges a host-bound phase by its ratio to its control (NULL: not measured) */
    "ALTER TABLE samples ADD COLUMN ctl_cpu_ns REAL;\n"
    "ALTER TABLE samples ADD COLUMN ctl_mem_ns REAL;\n"
    "ALTER TABLE samples ADD COLUMN ctl_h2d_ns REAL;\n"
    "ALTER TABLE samples ADD COLUMN ctl_d2h_ns REAL;\n",
    /* 12 -> 13: the host's throughput control beside the chain (control.h: what shares the
     * core's ports, which the chain's latency does not see; NULL in older samples) */
    "ALTER TABLE samples ADD COLUMN ctl_thr_ns REAL;\n",
    /* 13 -> 14: how often each board's NVML energy counter and power reading update, measured
     * at the run's start (ledger.h): what an energy figure over a window can support; and a
     * case's energy's uncertainty from it (J; NULL: its period not measured) */
    "ALTER TABLE TARGET_INFO_GPU ADD COLUMN energyPeriodMs REAL;\n"
    "ALTER TABLE TARGET_INFO_GPU ADD COLUMN energyStepMj REAL;\n"
    "ALTER TABLE TARGET_INFO_GPU ADD COLUMN powerPeriodMs REAL;\n"
    "ALTER TABLE cases ADD COLUMN energy_unc_j REAL;\n"
    /* ... and with --energy, the board's idle draw (W) and its uncertainty, probed at rest after
     * the ceilings, and each case's energy above it with its uncertainty (J) */
    "ALTER TABLE TARGET_INFO_GPU ADD COLUMN idlePowerW REAL;\n"
    "ALTER TABLE TARGET_INFO_GPU ADD COLUMN idlePowerUncW REAL;\n"
    "ALTER TABLE cases ADD COLUMN energy_work_j REAL;\n"
    "ALTER TABLE cases ADD COLUMN energy_work_unc_j REAL;\n",
};

_Static_assert(sizeof migrations / sizeof migrations[0] == VB_SCHEMA_VERSION - 1,
               "one migration per schema version after the first");

int vb_store_schema_version(struct vb_store *s, int *version, int *nobjects, struct vb_err *err)
{
    /* one statement, one snapshot: read apart, a writer creating the schema between the two
     * made a new file look foreign (version 0 with objects in it) to a run starting beside it */
    static const char q[] = "SELECT (SELECT user_version FROM pragma_user_version),\n"
                            "  (SELECT count(*) FROM sqlite_master)";
    sqlite3_stmt *st = NULL;
    int rc;
    *version = *nobjects = 0;
    if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) != SQLITE_OK)
        return vb_store_fail(s, err, "reading the schema version");
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *version = sqlite3_column_int(st, 0);
        *nobjects = sqlite3_column_int(st, 1);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) return vb_store_fail(s, err, "reading the schema version");
    return 0;
}

int vb_store_schema_ready(struct vb_store *s, struct vb_err *err)
{
    char sql[64];
    int v, nobjects;
    if (vb_store_begin(s, err)) return -1;
    if (vb_store_schema_version(s, &v, &nobjects, err)) goto rollback;
    if (v > VB_SCHEMA_VERSION || (v == 0 && nobjects > 0)) {
        vb_err_set(err, VB_E_DB, "database '%s' changed while it was opened (schema %d)", s->path,
                   v);
        vb_err_hint(err, "another program writes to it; pass --db with another path");
        goto rollback;
    }
    if (v == 0) {
        if (vb_store_exec(s, schema, err) || vb_store_exec(s, "PRAGMA user_version = 1", err))
            goto rollback;
        v = 1;
    }
    for (; v < VB_SCHEMA_VERSION; v++) {
        snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v + 1);
        if (vb_store_exec(s, migrations[v - 1], err) || vb_store_exec(s, sql, err)) goto rollback;
    }
    if (vb_store_commit(s, err)) goto rollback;
    return 0;
rollback:
    vb_store_rollback(s);
    return -1;
}
