/*
 * store_export: what `varbench export --format trace` reads: a run's cases chosen by a glob,
 * its GPUs, and its CUPTI records in time order through two cursors (GPU records; NVTX ranges
 * and API calls), each one SQL statement whose UNION ALL SQLite sorts itself, so the export
 * holds one row at a time. Workload: up to millions of API calls and kernels a run; the arrows
 * from an API call to its GPU records are found by SQL (a join on the case and correlation id,
 * over an automatic index), not by a table in memory.
 */
#include "store_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glob.h"

struct vb_export_cursor {
    struct vb_store *s;
    sqlite3_stmt *st;
    int host;
    char *ids; /* ",3,5,": the chosen cases, bound as ?1 (instr) */
};

/* The chosen cases as a CTE `sel`, from the id list bound as ?1. */
#define SEL "WITH sel AS (SELECT c.id FROM cases c WHERE instr(?1, ',' || c.id || ',') > 0)"

/* id_list returns ",id1,id2,...," for cases c[0..nc) (malloc'd), or NULL with err. */
static char *id_list(const struct vb_export_case *c, int nc, struct vb_err *err)
{
    size_t cap = 2 + (size_t)nc * 21, k = 1;
    char *s = malloc(cap);
    int i;
    if (!s) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        return NULL;
    }
    s[0] = ',';
    s[1] = '\0';
    for (i = 0; i < nc; i++)
        k += (size_t)snprintf(s + k, cap - k, "%lld,", (long long)c[i].id);
    return s;
}

/* prepare_ids prepares q (run once, finalized by the caller) with ?1 bound to ids; NULL with
 * err. ids must outlive the statement. */
static sqlite3_stmt *prepare_ids(struct vb_store *s, const char *q, const char *ids,
                                 struct vb_err *err)
{
    sqlite3_stmt *st = vb_store_once(s, q, err);
    if (st && sqlite3_bind_text(st, 1, ids, -1, SQLITE_STATIC) != SQLITE_OK) {
        vb_store_fail(s, err, "bind");
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

/* A case of the run and its "family/variant", before the glob chooses. */
struct run_case {
    struct vb_export_case c;
    char family[64];
};

/* fill_case reads a row of vb_store_export_cases' query. */
static void fill_case(sqlite3_stmt *st, void *p)
{
    struct run_case *r = p;
    r->c.id = sqlite3_column_int64(st, 0);
    r->c.start = sqlite3_column_int64(st, 1);
    r->c.end = sqlite3_column_int64(st, 2);
    vb_store_col_text(st, 3, r->family, sizeof r->family);
    vb_store_col_text(st, 4, r->c.variant, sizeof r->c.variant);
    vb_store_col_text(st, 5, r->c.axes, sizeof r->c.axes);
    vb_store_col_text(st, 6, r->c.status, sizeof r->c.status);
}

int vb_store_export_cases(struct vb_store *s, int64_t run_id, const char *glob,
                          struct vb_export_case **rows, int *n, struct vb_err *err)
{
    static const char q[] =
        "SELECT c.id, IFNULL(c.start, 0), IFNULL(c.end, 0), v.family, v.family || '/' || v.name, "
        "c.axes, c.status FROM cases c JOIN variants v ON v.id = c.variant_id WHERE c.run_id = ? "
        "ORDER BY c.id";
    struct run_case *all = NULL;
    int nall = 0, i, k = 0;
    *rows = NULL;
    *n = 0;
    if (vb_store_run_rows(s, q, run_id, sizeof *all, fill_case, (void **)&all, &nall, err))
        return -1;
    if (nall && !(*rows = malloc((size_t)nall * sizeof **rows))) {
        free(all);
        return vb_err_set(err, VB_E_SYS, "out of memory");
    }
    for (i = 0; i < nall; i++)
        if (vb_variant_glob(glob, all[i].family, all[i].c.variant)) (*rows)[k++] = all[i].c;
    free(all);
    *n = k;
    return 0;
}

/* fill_gpu reads a row of vb_store_export_gpus' query. */
static void fill_gpu(sqlite3_stmt *st, void *p)
{
    struct vb_export_gpu *g = p;
    g->id = sqlite3_column_int(st, 0);
    vb_store_col_text(st, 1, g->name, sizeof g->name);
    vb_store_col_text(st, 2, g->uuid, sizeof g->uuid);
    vb_store_col_text(st, 3, g->bus, sizeof g->bus);
    g->cc_major = sqlite3_column_int(st, 4);
    g->cc_minor = sqlite3_column_int(st, 5);
    g->sm_count = sqlite3_column_int(st, 6);
    g->total_mem = sqlite3_column_int64(st, 7);
    g->l2_bytes = sqlite3_column_int64(st, 8);
    g->clock_khz = sqlite3_column_int(st, 9);
    g->mem_clock_khz = sqlite3_column_int(st, 10);
    g->bus_width = sqlite3_column_int(st, 11);
    vb_store_col_text(st, 12, g->driver, sizeof g->driver);
}

int vb_store_export_gpus(struct vb_store *s, int64_t run_id, struct vb_export_gpu **rows, int *n,
                         struct vb_err *err)
{
    static const char q[] =
        "SELECT id, name, uuid, busLocation, computeMajor, computeMinor, smCount, totalMemory, "
        "l2CacheSize, clockRate, memoryClockRate, memoryBusWidth, driverVersion "
        "FROM TARGET_INFO_GPU WHERE run_id = ? ORDER BY id";
    return vb_store_run_rows(s, q, run_id, sizeof **rows, fill_gpu, (void **)rows, n, err);
}

int vb_store_export_counts(struct vb_store *s, const struct vb_export_case *c, int nc, int64_t *n,
                           struct vb_err *err)
{
    /* clang-format off */
#define COUNT(t) "(SELECT count(*) FROM " t " WHERE case_id IN sel)"
    static const char q[] = SEL " SELECT " COUNT("CUPTI_ACTIVITY_KIND_KERNEL") ", "
        COUNT("CUPTI_ACTIVITY_KIND_MEMCPY") ", " COUNT("CUPTI_ACTIVITY_KIND_MEMSET") ", "
        COUNT("NVTX_EVENTS") ", " COUNT("CUPTI_ACTIVITY_KIND_RUNTIME");
#undef COUNT
    /* clang-format on */
    char *ids = id_list(c, nc, err);
    sqlite3_stmt *st = ids ? prepare_ids(s, q, ids, err) : NULL;
    int k, rc;
    if (!st) {
        free(ids);
        return -1;
    }
    rc = sqlite3_step(st);
    for (k = 0; rc == SQLITE_ROW && k < VB_EXPORT_KINDS; k++)
        n[k] = sqlite3_column_int64(st, k);
    if (rc != SQLITE_ROW) vb_store_fail(s, err, "counting the records");
    sqlite3_finalize(st);
    free(ids);
    return rc == SQLITE_ROW ? 0 : -1;
}

/* The GPU records, one row shape for the three tables: kind, case, start, end, device, context,
 * stream, correlation, flow, grid, block, shared memory, registers, bytes, copy kind, source
 * and destination kinds, memory kind, value, name id, name, graph and node, a peer copy's source
 * and destination devices. An arrow ends at a GPU record when
 * an API call of its case has its correlation id. */
/* clang-format off */
#define GPU_COMMON(t)                                                                              \
    t ".case_id, " t ".start AS t0, " t ".end AS t1, " t ".deviceId, " t ".contextId, "           \
    t ".streamId, " t ".correlationId, EXISTS(SELECT 1 FROM ac WHERE ac.case_id = " t ".case_id " \
    "AND ac.correlationId = " t ".correlationId)"
static const char gpu_q[] = SEL ", ac AS (SELECT DISTINCT case_id, correlationId FROM "
    "CUPTI_ACTIVITY_KIND_RUNTIME WHERE case_id IN sel AND correlationId > 0) "
    "SELECT * FROM (SELECT 0 AS kind, " GPU_COMMON("k") ", k.gridX, k.gridY, k.gridZ, k.blockX, "
    "k.blockY, k.blockZ, k.staticSharedMemory, k.dynamicSharedMemory, k.registersPerThread, 0, 0, "
    "0, 0, 0, 0, k.mangledName, sn.value, k.graphId, k.graphNodeId, NULL, NULL, "
    VB_STORE_KERNEL_HASH("(SELECT kcc.run_id FROM cases kcc WHERE kcc.id = k.case_id)",
                         "sn.value") " "
    "FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds sn "
    "ON sn.id = k.mangledName WHERE k.case_id IN sel "
    "UNION ALL SELECT 1, " GPU_COMMON("m") ", 0, 0, 0, 0, 0, 0, 0, 0, 0, m.bytes, m.copyKind, "
    "m.srcKind, m.dstKind, 0, 0, 0, NULL, m.graphId, m.graphNodeId, m.srcDeviceId, "
    "m.dstDeviceId, NULL "
    "FROM CUPTI_ACTIVITY_KIND_MEMCPY m WHERE m.case_id IN sel "
    "UNION ALL SELECT 2, " GPU_COMMON("x") ", 0, 0, 0, 0, 0, 0, 0, 0, 0, x.bytes, 0, 0, 0, "
    "x.memKind, x.value, 0, NULL, x.graphId, x.graphNodeId, NULL, NULL, NULL "
    "FROM CUPTI_ACTIVITY_KIND_MEMSET x "
    "WHERE x.case_id IN sel) ORDER BY t0, t1, kind";
#undef GPU_COMMON

/* The host records: kind, case, start, end, process, thread, correlation, flow, driver, return
 * value, open, name id, name. Thread ids are CUPTI's 32-bit values (stored signed by older
 * writers, hence the mask). An arrow starts at the first API call (by rowid) of a case and
 * correlation id that a GPU record of the case has: the API calls are the outer loop, gc is
 * looked up through an automatic index (a join from gc would scan the case's calls once per
 * GPU record). A range never closed ends with its case. */
static const char host_q[] = SEL ", gc AS (SELECT case_id, correlationId FROM "
    "CUPTI_ACTIVITY_KIND_KERNEL WHERE case_id IN sel AND correlationId > 0 UNION SELECT case_id, "
    "correlationId FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE case_id IN sel AND correlationId > 0 "
    "UNION SELECT case_id, correlationId FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE case_id IN sel AND "
    "correlationId > 0), fa AS (SELECT min(a.rowid) AS rid FROM CUPTI_ACTIVITY_KIND_RUNTIME a "
    "WHERE a.case_id IN sel AND EXISTS(SELECT 1 FROM gc WHERE gc.case_id = a.case_id AND "
    "gc.correlationId = a.correlationId) GROUP BY a.case_id, a.correlationId) "
    "SELECT * FROM (SELECT 4 AS kind, a.case_id, a.start AS t0, a.end AS t1, "
    "a.processId & 4294967295, a.threadId & 4294967295, a.correlationId, "
    "a.rowid IN (SELECT rid FROM fa), a.driver, a.returnValue, 0, a.nameId, sn.value, 0, '' "
    "FROM CUPTI_ACTIVITY_KIND_RUNTIME a LEFT JOIN StringIds sn ON sn.id = a.nameId "
    "WHERE a.case_id IN sel "
    "UNION ALL SELECT 3, t.case_id, t.start, COALESCE(t.end, c.end, t.start), "
    "t.processId & 4294967295, t.threadId & 4294967295, 0, 0, 0, 0, t.end IS NULL, t.textId, "
    "IFNULL(t.text, sn.value), t.eventType, IFNULL(dn.value, '') "
    "FROM NVTX_EVENTS t JOIN cases c ON c.id = t.case_id "
    "LEFT JOIN StringIds sn ON sn.id = t.textId LEFT JOIN StringIds dn ON dn.id = t.domainId "
    "WHERE t.case_id IN sel) ORDER BY t0, t1 DESC, kind";
/* clang-format on */

int vb_store_export_open(struct vb_store *s, const struct vb_export_case *c, int nc, int host,
                         struct vb_export_cursor **cur, struct vb_err *err)
{
    struct vb_export_cursor *x = calloc(1, sizeof *x);
    *cur = NULL;
    if (!x) return vb_err_set(err, VB_E_SYS, "out of memory");
    x->s = s;
    x->host = host;
    if (!(x->ids = id_list(c, nc, err)) ||
        !(x->st = prepare_ids(s, host ? host_q : gpu_q, x->ids, err))) {
        vb_store_export_close(x);
        return -1;
    }
    *cur = x;
    return 0;
}

/* id_or_none returns column c as an integer, or -1 for NULL or 0 (not recorded). */
static int64_t id_or_none(sqlite3_stmt *st, int c)
{
    int64_t v = sqlite3_column_int64(st, c);
    return sqlite3_column_type(st, c) == SQLITE_NULL || v == 0 ? -1 : v;
}

/* fill_gpu_rec reads a row of gpu_q into r. */
static void fill_gpu_rec(sqlite3_stmt *st, struct vb_export_rec *r)
{
    int k;
    r->device = sqlite3_column_int(st, 4);
    r->context = sqlite3_column_int(st, 5);
    r->stream = sqlite3_column_int(st, 6);
    r->correlation = sqlite3_column_int64(st, 7);
    r->flow = sqlite3_column_int(st, 8);
    for (k = 0; k < 3; k++) {
        r->grid[k] = sqlite3_column_int(st, 9 + k);
        r->block[k] = sqlite3_column_int(st, 12 + k);
    }
    r->static_smem = sqlite3_column_int64(st, 15);
    r->dynamic_smem = sqlite3_column_int64(st, 16);
    r->registers = sqlite3_column_int(st, 17);
    r->bytes = sqlite3_column_int64(st, 18);
    r->copy_kind = sqlite3_column_int(st, 19);
    r->src_kind = sqlite3_column_int(st, 20);
    r->dst_kind = sqlite3_column_int(st, 21);
    r->mem_kind = sqlite3_column_int(st, 22);
    r->value = sqlite3_column_int64(st, 23);
    r->name_id = sqlite3_column_int64(st, 24);
    vb_store_col_text(st, 25, r->name, sizeof r->name);
    r->graph = sqlite3_column_int64(st, 26);
    r->graph_node = sqlite3_column_int64(st, 27);
    r->src_device = sqlite3_column_type(st, 28) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 28);
    r->dst_device = sqlite3_column_type(st, 29) == SQLITE_NULL ? -1 : sqlite3_column_int(st, 29);
    vb_store_col_text(st, 30, r->sass, sizeof r->sass);
    r->process = r->thread = -1;
}

/* fill_host_rec reads a row of host_q into r. */
static void fill_host_rec(sqlite3_stmt *st, struct vb_export_rec *r)
{
    r->process = id_or_none(st, 4);
    r->thread = id_or_none(st, 5);
    r->correlation = sqlite3_column_int64(st, 6);
    r->flow = sqlite3_column_int(st, 7);
    r->driver = sqlite3_column_int(st, 8);
    r->ret = sqlite3_column_int64(st, 9);
    r->open = sqlite3_column_int(st, 10);
    r->name_id = sqlite3_column_int64(st, 11);
    vb_store_col_text(st, 12, r->name, sizeof r->name);
    r->nvtx_type = sqlite3_column_int(st, 13);
    vb_store_col_text(st, 14, r->domain, sizeof r->domain);
    r->device = r->context = r->stream = -1;
}

int vb_store_export_next(struct vb_export_cursor *c, struct vb_export_rec *r, struct vb_err *err)
{
    const char *what = c->host ? "reading the host records" : "reading the GPU records";
    int rc = sqlite3_step(c->st);
    if (rc == SQLITE_DONE) return 0;
    if (rc != SQLITE_ROW) return vb_store_fail(c->s, err, what);
    memset(r, 0, sizeof *r);
    r->kind = sqlite3_column_int(c->st, 0);
    r->case_id = sqlite3_column_int64(c->st, 1);
    r->start = sqlite3_column_int64(c->st, 2);
    r->end = sqlite3_column_int64(c->st, 3);
    if (c->host)
        fill_host_rec(c->st, r);
    else
        fill_gpu_rec(c->st, r);
    /* an open range of a case without a window (or a record that ends before it starts): no
     * negative durations, which no viewer draws */
    if (r->end < r->start) r->end = r->start;
    return 1;
}

void vb_store_export_close(struct vb_export_cursor *c)
{
    if (!c) return;
    sqlite3_finalize(c->st);
    free(c->ids);
    free(c);
}

int vb_store_export_no_case(int64_t run_id, const char *glob, struct vb_err *err)
{
    vb_err_set(err, VB_E_USAGE, "run %lld has no case matching '%s'", (long long)run_id, glob);
    return vb_err_hint(err,
                       "the glob is matched on \"family/variant\" (a glob without '/' on the "
                       "family too); 'varbench export --run %lld --format csv' lists the cases",
                       (long long)run_id);
}
