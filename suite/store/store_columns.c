/*
 * store_columns: a case's columns, declared once (see store_columns.h): the table, and what is
 * made of it for the store (the INSERT of vb_store_case and its binding, the SELECT of
 * vb_store_cases and its fill of a row) and for export (the cells, the names a summary may not
 * take). Migrations stay by hand (store_schema.c): test_store_columns_distinct holds the table's
 * columns to the migrated schema's one to one, writes a case with a distinct value in every
 * column and reads each back by its field and by its SQL name; test_export_fixtures holds
 * export to its bytes from before the table (plus the CSV columns added since, empty there).
 */
#include "store_int.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "result.h"
#include "store_columns.h"

/* What a written value is computed from: the case, its run and its variants row. */
struct case_ctx {
    const struct vb_case_result *r;
    int64_t run_id, variant_id;
};

/* cache_name: what the case did to the L2 before its samples ("cold", "warm"), NULL for a CPU
 * or skipped case or when unknown. */
static const char *cache_name(const struct vb_case_result *r)
{
    if (!(r->variant->flags & VB_GPU) || r->status == VB_STATUS_SKIPPED || r->cold < 0) return NULL;
    return r->cold ? "cold" : "warm";
}

/* floored: the case has a floor (floor.h), whose four columns are written together. */
static int floored(const struct vb_case_result *r)
{
    return r->floor_ns > 0 && r->floor_bound[0];
}

static double bytes_per_second(const struct vb_case_row *r);
static double items_per_second(const struct vb_case_row *r);

/* How a column is written from struct case_ctx *x (its case: r), with its NULL rule. */
#define W_NONE       (void)0             /* another writer's, or computed */
#define W_INT(e)     put_int(v, (e))     /* an integer */
#define W_INT_NN(e)  put_int_nn(v, (e))  /* an integer, NULL when negative */
#define W_REAL(e)    put_real(v, (e))    /* a number, NULL when not finite */
#define W_REAL_NZ(e) put_real_nz(v, (e)) /* a number, NULL when 0 or not finite */
#define W_UINT_NZ(e) put_uint_nz(v, (e)) /* an unsigned count, NULL when 0 */
#define W_TEXT(e)    put_text(v, (e))    /* a text, NULL for NULL */
#define W_TEXT_NE(e) put_text_ne(v, (e)) /* a text, NULL for NULL or "" */
/* ... and whether it is (the name pasted to the row's write: WRITTEN_W_REAL(e) is 1) */
#define WRITTEN_W_NONE       0
#define WRITTEN_W_INT(e)     1
#define WRITTEN_W_INT_NN(e)  1
#define WRITTEN_W_REAL(e)    1
#define WRITTEN_W_REAL_NZ(e) 1
#define WRITTEN_W_UINT_NZ(e) 1
#define WRITTEN_W_TEXT(e)    1
#define WRITTEN_W_TEXT_NE(e) 1

/* How a value is read: R(type, field) from column c.<name>, RS(expr, type, field) from its own
 * expression; the field's C type is checked against the type (_Generic has no other match). */
#define FIELD_OF(f)    (((struct vb_case_row *)0)->f)
#define AT(f, ctype)   _Generic(FIELD_OF(f), ctype : offsetof(struct vb_case_row, f))
#define AT_INT(f)      AT(f, int)
#define AT_INT_NEG(f)  AT(f, int)
#define AT_I64(f)      AT(f, int64_t)
#define AT_I64_POS(f)  AT(f, int64_t)
#define AT_DOUBLE(f)   AT(f, double)
#define AT_TEXT(f)     AT(f, char *)
#define R(type, f)     .field = VB_FIELD_##type, .offset = AT_##type(f), .size = sizeof FIELD_OF(f)
#define RS(e, type, f) .select = e, R(type, f)
#define R_NONE         .field = VB_FIELD_NONE

/* Its cell in export: NO_CELL; CSV(header) and CSV_MS(header) (ns as ms) in the CSV only;
 * CELL(header, per, key, rank, digits, when) in both; OPTIONAL(name, rank, digits) in both, the
 * JSON key only where known (the CSV column is in every export, its cell empty where unknown);
 * DERIVED(name, rank, fn) the same, computed from the row; OWN(headers) cells that export
 * writes itself. */
/* clang-format off */
#define NO_CELL   .cell = {.kind = VB_CELL_NONE}
#define CSV(h)    .cell = {.kind = VB_CELL_FIELD, .csv = h, .per = 1}
#define CSV_MS(h) .cell = {.kind = VB_CELL_FIELD, .csv = h, .per = 1e6}
#define CELL(h, p, key, rank, dg, w)                                                               \
    .cell = {.kind = VB_CELL_FIELD, .csv = h, .per = p, .json = key, .json_rank = rank,            \
             .digits = dg, .when = VB_JSON_##w}
#define OPTIONAL(key, rank, dg)                                                                    \
    .cell = {.kind = VB_CELL_FIELD, .csv = key, .per = 1, .json = key, .json_rank = rank,          \
             .digits = dg, .when = VB_JSON_KNOWN}
#define DERIVED(key, rank, fn)                                                                     \
    .cell = {.kind = VB_CELL_DERIVED, .csv = key, .per = 1, .json = key, .json_rank = rank,        \
             .digits = 9, .when = VB_JSON_KNOWN, .derive = fn}
#define OWN(h)    .cell = {.kind = VB_CELL_OWN, .csv = h}
/* clang-format on */

/* The run's cases, as vb_store_cases reads them (the select expressions' aliases). */
#define CASES_FROM                                                                                 \
    " FROM cases c JOIN variants v ON v.id = c.variant_id "                                        \
    "LEFT JOIN host_env h ON h.run_id = c.run_id "                                                 \
    "LEFT JOIN TARGET_INFO_GPU g ON g.run_id = c.run_id AND g.id = c.device_id "                   \
    "WHERE c.run_id = ? ORDER BY c.id"
#define MEMCPY_PAGEABLE(kind, side)                                                                \
    "(SELECT max(" side "Kind = 1) FROM CUPTI_ACTIVITY_KIND_MEMCPY m WHERE m.case_id = c.id "      \
    "AND m.copyKind = " kind ")"

/*
 * VB_CASE_COLUMNS(X): X(name, SQL type, written, read, cell) for each column of cases (type
 * INTEGER, REAL or TEXT, as its migration declares it) and each value read beside them
 * (COMPUTED), in the order of export's CSV cells; the others anywhere. A write is an expression
 * of the case r (struct vb_case_result) or of x (its run_id, variant_id).
 * Adding a column: a row here, its migration (store_schema.c), its field (store.h's struct
 * vb_case_row, result.h's struct vb_case_result); test_store_columns_distinct then asks for its
 * distinct value. A CSV cell goes after the last one (power_w's today), a JSON key takes the
 * next rank: existing exports keep their columns and their order, and every export, of any
 * database, gains the new column (tests/fixtures' export-*.csv.gz with it).
 */
/* LEDGER(f): the ledger's energy or power where it was measured, else NaN; READ(f): what its
 * readings say, NaN without any (a CPU case, a traced one, no NVML) */
#define LEDGER(f) (r->ledger.measured ? r->ledger.f : NAN)
#define READ(f)   (r->ledger.readings ? r->ledger.f : NAN)

/* ledger_reasons: the clock-event reasons its readings saw, as words; NULL without readings */
static const char *ledger_reasons(const struct vb_case_result *r)
{
    static char buf[128];
    return r->ledger.readings ? vb_ledger_reasons(r->ledger.reasons, buf, sizeof buf) : NULL;
}

/* clang-format off */
#define VB_CASE_COLUMNS(X)                                                                         \
    X(id,               INTEGER,  W_NONE,                      R(I64, id),            NO_CELL)     \
    X(run,              COMPUTED, W_NONE,                      R_NONE,                OWN("run_uuid,run_id")) \
    X(run_id,           INTEGER,  W_INT(x->run_id),            R(I64, run_id),        NO_CELL)     \
    X(variant_id,       INTEGER,  W_INT(x->variant_id),        R_NONE,                NO_CELL)     \
    X(family,           COMPUTED, W_NONE,                      RS("v.family", TEXT, family), NO_CELL) \
    X(name,             COMPUTED, W_NONE,                      RS("v.name", TEXT, name), NO_CELL) \
    X(variant,          COMPUTED, W_NONE,                                                          \
      RS("v.family || '/' || v.name", TEXT, variant),                               CSV("variant")) \
    X(axes,             TEXT,     W_TEXT(r->axes),             R(TEXT, axes),         CSV("axes")) \
    X(device_id,        INTEGER,  W_INT_NN(r->device),         R(INT_NEG, device_id), NO_CELL)     \
    X(device,           COMPUTED, W_NONE,                                                          \
      RS("CASE WHEN c.device_id IS NULL THEN 'cpu: ' || IFNULL(h.cpu_model, '?') "                 \
         "ELSE IFNULL(g.name, '?') END", TEXT, device),                             CSV("device")) \
    X(status,           TEXT,     W_TEXT(vb_status_name(r->status)), R(TEXT, status), CSV("status")) \
    X(samples,          INTEGER,  W_INT(r->ntimed),            R(INT, samples),       CSV("samples")) \
    X(e2e_median_ns,    REAL,     W_REAL(r->e2e_ms.median * 1e6), R(DOUBLE, e2e_median_ns),        \
      CSV_MS("e2e_median_ms"))                                                                     \
    X(e2e_mean_ns,      REAL,     W_REAL(r->e2e_ms.mean * 1e6), R(DOUBLE, e2e_mean_ns),            \
      CSV_MS("e2e_mean_ms"))                                                                       \
    X(e2e_stdev_ns,     REAL,     W_REAL(r->e2e_ms.stdev * 1e6), R(DOUBLE, e2e_stdev_ns),          \
      CSV_MS("e2e_stdev_ms"))                                                                      \
    X(e2e_min_ns,       REAL,     W_REAL(r->e2e_ms.min * 1e6), R(DOUBLE, e2e_min_ns),              \
      CSV_MS("e2e_min_ms"))                                                                        \
    X(e2e_max_ns,       REAL,     W_REAL(r->e2e_ms.max * 1e6), R(DOUBLE, e2e_max_ns),              \
      CSV_MS("e2e_max_ms"))                                                                        \
    X(e2e_noise,        REAL,     W_REAL(r->e2e_ms.noise),     R_NONE,                NO_CELL)     \
    X(kernel_median_ns, REAL,     W_REAL(r->kernel_ms.median * 1e6), R(DOUBLE, kernel_median_ns),  \
      CELL("kernel_median_ms", 1e6, "kernel_ms", 3, 9, ALWAYS))                                    \
    X(h2d_median_ns,    REAL,     W_REAL(r->h2d_ms.median * 1e6), R(DOUBLE, h2d_median_ns),        \
      CSV_MS("h2d_median_ms"))                                                                     \
    X(d2h_median_ns,    REAL,     W_REAL(r->d2h_ms.median * 1e6), R(DOUBLE, d2h_median_ns),        \
      CSV_MS("d2h_median_ms"))                                                                     \
    X(gpu_median_ns,    REAL,     W_REAL(r->have_records ? r->gpu_ms.median * 1e6 : NAN),          \
      R(DOUBLE, gpu_median_ns),   CELL("gpu_median_ms", 1e6, "gpu_ms", 4, 9, ALWAYS))              \
    X(memset_median_ns, REAL,     W_REAL(r->have_records ? r->memset_ms.median * 1e6 : NAN),       \
      R(DOUBLE, memset_median_ns), CSV_MS("memset_median_ms"))                                     \
    X(h2d_bytes,        INTEGER,  W_INT((int64_t)r->h2d_bytes), R(I64, h2d_bytes),                 \
      CELL("h2d_bytes", 1, "h2d_bytes", 1, 0, ALWAYS))                                             \
    X(h2d_count,        INTEGER,  W_INT(r->h2d_count),         R(I64, h2d_count),     CSV("h2d_count")) \
    X(d2h_bytes,        INTEGER,  W_INT((int64_t)r->d2h_bytes), R(I64, d2h_bytes),                 \
      CELL("d2h_bytes", 1, "d2h_bytes", 2, 0, ALWAYS))                                             \
    X(d2h_count,        INTEGER,  W_INT(r->d2h_count),         R(I64, d2h_count),     CSV("d2h_count")) \
    X(kernel_count,     INTEGER,  W_INT(r->kernel_count),      R_NONE,                NO_CELL)     \
    X(traffic_varies,   INTEGER,  W_INT(r->traffic_varies),    R_NONE,                NO_CELL)     \
    X(max_abs_err,      REAL,     W_REAL(r->max_abs_err),      R(DOUBLE, max_abs_err), CSV("max_abs_err")) \
    X(max_rel_err,      REAL,     W_REAL(r->max_rel_err),      R(DOUBLE, max_rel_err), CSV("max_rel_err")) \
    X(gst_efficiency,   REAL,     W_REAL(r->gst_efficiency),   R(DOUBLE, gst_efficiency),          \
      CSV("gst_efficiency_pct"))                                                                   \
    X(metrics_status,   TEXT,     W_TEXT(vb_metrics_status_name(r->metrics_status)),               \
      R(TEXT, metrics_status),    CSV("metrics_status"))                                           \
    X(metrics_reason,   TEXT,     W_TEXT_NE(r->metrics_reason), R(TEXT, metrics_reason), NO_CELL)  \
    X(metrics_ns,       REAL,     W_REAL(r->metrics_status == VB_METRICS_OK ? r->metrics_ns : NAN), \
      R_NONE,                     NO_CELL)                                                         \
    X(cache,            TEXT,     W_TEXT(cache_name(r)),       R(TEXT, cache),                     \
      CELL("cache", 1, "cache", 5, 0, ALWAYS))                                                     \
    X(gpu_ci_pct,       REAL,     W_REAL(r->gpu_ci_pct),       R(DOUBLE, gpu_ci_pct), CSV("gpu_ci_pct")) \
    X(stop_reason,      TEXT,     W_TEXT(r->stop_reason),                                          \
      RS("c.stop_reason || IFNULL(' (' || c.stop_detail || ')', '')", TEXT, stop_reason),          \
      CSV("stop_reason"))                                                                          \
    X(stop_detail,      TEXT,     W_TEXT_NE(r->stop_detail),   R_NONE,                NO_CELL)     \
    X(clock_min_mhz,    REAL,     W_REAL(r->clock_min_mhz),    R(DOUBLE, clock_min_mhz),           \
      CELL("sm_clock_min_mhz", 1, "sm_clock_min_mhz", 6, 6, ALWAYS))                               \
    X(clock_median_mhz, REAL,     W_REAL(r->clock_median_mhz), R(DOUBLE, clock_median_mhz),        \
      CELL("sm_clock_median_mhz", 1, "sm_clock_median_mhz", 7, 6, ALWAYS))                         \
    X(dropped_samples,  INTEGER,  W_INT(r->dropped),           R(INT, dropped_samples),            \
      CELL("dropped_samples", 1, "dropped_samples", 8, 0, ALWAYS))                                 \
    X(throttled,        COMPUTED, W_NONE,          RS("c.dropped_samples > 0", INT, throttled), NO_CELL) \
    X(floor_ns,         REAL,     W_REAL(floored(r) ? r->floor_ns : NAN),                          \
      RS("c.floor_ns / 1e6", DOUBLE, floor_ms), CELL("floor_ms", 1, "floor_ms", 9, 9, FLOOR))      \
    X(floor_ratio,      REAL,     W_REAL(floored(r) ? r->floor_ratio : NAN), R(DOUBLE, floor_ratio), \
      CELL("floor_ratio", 1, "floor_ratio", 10, 6, FLOOR))                                         \
    X(floor_bound,      TEXT,     W_TEXT(floored(r) ? r->floor_bound : NULL), R(TEXT, floor_bound), \
      CELL("floor_bound", 1, "floor_bound", 11, 0, FLOOR))                                         \
    X(floor_of,         TEXT,     W_TEXT(floored(r) ? r->floor_of : NULL), R(TEXT, floor_of),      \
      CELL("floor_of", 1, "floor_of", 12, 0, FLOOR))                                               \
    X(reason,           TEXT,     W_TEXT_NE(r->reason),        R(TEXT, reason),       CSV("reason")) \
    X(crossover,        COMPUTED, W_NONE,                      R_NONE,                             \
      OWN("crossover_axis,crossover_kind,crossover_size,crossover_without_graph_kind,"             \
          "crossover_without_graph_size"))                                                         \
    /* schema 8: the work one sample declares, and the rates of it */                              \
    X(elements,         REAL,     W_REAL_NZ(r->elements),      R(DOUBLE, elements),                \
      OPTIONAL("elements", 13, 9))                                                                 \
    X(flops,            REAL,     W_REAL_NZ(r->flops),         R(DOUBLE, flops),      OPTIONAL("flops", 14, 9)) \
    X(gmem_read_bytes,  INTEGER,  W_UINT_NZ(r->gmem_read_bytes), R(I64_POS, gmem_read_bytes),      \
      OPTIONAL("gmem_read_bytes", 15, 0))                                                          \
    X(gmem_write_bytes, INTEGER,  W_UINT_NZ(r->gmem_write_bytes), R(I64_POS, gmem_write_bytes),    \
      OPTIONAL("gmem_write_bytes", 16, 0))                                                         \
    X(bytes_per_second, COMPUTED, W_NONE,          R_NONE,     DERIVED("bytes_per_second", 17, bytes_per_second)) \
    X(items_per_second, COMPUTED, W_NONE,          R_NONE,     DERIVED("items_per_second", 18, items_per_second)) \
    /* not exported */                                                                             \
    X(start,            INTEGER,  W_INT((int64_t)r->start_ns), R_NONE,                NO_CELL)     \
    X(end,              INTEGER,  W_INT((int64_t)r->end_ns),   R_NONE,                NO_CELL)     \
    X(have_records,     INTEGER,  W_INT(r->have_records),      R(INT, have_records),  NO_CELL)     \
    X(is_reference,     COMPUTED, W_NONE,          RS("v.is_reference", INT, is_reference), NO_CELL) \
    X(needs_gpu,        COMPUTED, W_NONE,          RS("v.needs_gpu", INT, needs_gpu), NO_CELL)     \
    X(problem,          COMPUTED, W_NONE,          RS("v.problem", TEXT, problem), NO_CELL)        \
    X(flags,            COMPUTED, W_NONE,          RS("v.flags", INT_NEG, flags), NO_CELL)         \
    /* CUpti_ActivityMemoryKind 1 is pageable; NULL: no copy records of that direction */         \
    X(h2d_pageable,     COMPUTED, W_NONE,          RS(MEMCPY_PAGEABLE("1", "src"), INT_NEG, h2d_pageable), NO_CELL) \
    X(d2h_pageable,     COMPUTED, W_NONE,          RS(MEMCPY_PAGEABLE("2", "dst"), INT_NEG, d2h_pageable), NO_CELL) \
    X(board,            COMPUTED, W_NONE,          RS("g.busLocation", TEXT, board), NO_CELL)     \
    /* a traced process's cost: written by vb_store_trace_cost */                                  \
    X(has_trace_cost,   COMPUTED, W_NONE,  RS("c.trace_init_ns IS NOT NULL", INT, has_trace_cost), NO_CELL) \
    X(trace_init_ns,    REAL,     W_NONE,          R(DOUBLE, trace_cost.init_ns), NO_CELL)         \
    X(trace_flush_ns,   REAL,     W_NONE,          R(DOUBLE, trace_cost.flush_ns), NO_CELL)        \
    X(trace_store_ns,   REAL,     W_NONE,          R(DOUBLE, trace_cost.store_ns), NO_CELL)        \
    X(cupti_overhead_ns, REAL,    W_NONE,          R(DOUBLE, trace_cost.cupti_overhead_ns), NO_CELL) \
    X(cupti_overhead_count, INTEGER, W_NONE,       R(I64, trace_cost.cupti_overhead_count), NO_CELL) \
    X(dropped_records,  INTEGER,  W_NONE,          R(I64, trace_cost.dropped_records), NO_CELL)    \
    X(cupti_client,     TEXT,     W_NONE,          R(TEXT, trace_cost.client), NO_CELL)            \
    X(cupti_client_kernels, INTEGER, W_NONE,       R(I64, trace_cost.client_kernels), NO_CELL)     \
    X(cupti_client_copies, INTEGER, W_NONE,        R(I64, trace_cost.client_copies), NO_CELL)      \
    X(cupti_client_memsets, INTEGER, W_NONE,       R(I64, trace_cost.client_memsets), NO_CELL)     \
    X(cupti_client_records, INTEGER, W_NONE,       R(I64, trace_cost.client_records), NO_CELL)     \
    X(cupti_overhead_detail, TEXT, W_NONE,         R(TEXT, trace_cost.overhead_detail), NO_CELL) \
    /* schema 11: the board's ledger over the timed samples (ledger.h) */                          \
    X(energy_j,         REAL,     W_REAL(LEDGER(energy_j)),    R(DOUBLE, energy_j),                \
      OPTIONAL("energy_j", 19, 6))                                                                 \
    X(power_w,          REAL,     W_REAL(LEDGER(power_w)),     R(DOUBLE, power_w),                 \
      OPTIONAL("power_w", 20, 4))                                                                  \
    X(power_read_w,     REAL,     W_REAL(READ(power_read_w)), R(DOUBLE, power_read_w), NO_CELL) \
    X(energy_unc_j,     REAL,     W_REAL(LEDGER(energy_unc_j)), R(DOUBLE, energy_unc_j), NO_CELL) \
    X(energy_work_j,    REAL,     W_REAL(LEDGER(work_j)),  R(DOUBLE, energy_work_j), NO_CELL) \
    X(energy_work_unc_j, REAL,    W_REAL(LEDGER(work_unc_j)), R(DOUBLE, energy_work_unc_j), NO_CELL) \
    X(temp_max_c,       REAL,     W_REAL(READ(temp_max_c)), R(DOUBLE, temp_max_c), NO_CELL)    \
    X(nvml_sm_mhz_median, REAL,   W_REAL(READ(sm_mhz_median)), R(DOUBLE, nvml_sm_mhz_median), NO_CELL) \
    X(nvml_mem_mhz_median, REAL,  W_REAL(READ(mem_mhz_median)), R(DOUBLE, nvml_mem_mhz_median), NO_CELL) \
    X(power_limit_w,    REAL,     W_REAL(READ(limit_w)),   R(DOUBLE, power_limit_w), NO_CELL)  \
    X(clock_reasons,    TEXT,     W_TEXT(ledger_reasons(r)),   R(TEXT, clock_reasons), NO_CELL)    \
    X(co_tenants,       TEXT,     W_TEXT_NE(r->ledger.others), R(TEXT, co_tenants), NO_CELL)       \
    X(ledger_note,      TEXT,     W_TEXT_NE(r->ledger.why),    R(TEXT, ledger_note), NO_CELL)    \
    X(quiet_wait,       TEXT,     W_TEXT_NE(r->ledger.quiet),  R(TEXT, quiet_wait), NO_CELL)
/* clang-format on */

enum {
#define X(c, type, write, read, cell) COL_##c,
    VB_CASE_COLUMNS(X)
#undef X
        COL_COUNT
};

const struct vb_case_column vb_case_columns[] = {
#define X(c, type, write, read, cell)                                                              \
    {.name = #c, .sql = VB_COL_##type, .written = WRITTEN_##write, read, cell},
    VB_CASE_COLUMNS(X)
#undef X
};
const int vb_case_ncolumns = COL_COUNT;

/* The keys export's JSON writes itself on a benchmark object (Google Benchmark's), which no
 * summary may take; test_export_columns holds this list to what export writes. */
/* clang-format off */
static const char *const json_own[] = {
    "name", "run_name", "run_type", "family_index", "per_family_instance_index", "repetitions",
    "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit",
    "aggregate_name", "aggregate_unit", "error_occurred", "error_message", "label", NULL};
/* clang-format on */

/* A value to bind: type 0 (NULL), 'i', 'd' or 't'. */
struct value {
    char type;
    int64_t i;
    double d;
    const char *t;
};

static void put_int(struct value *v, int64_t i)
{
    v->type = 'i';
    v->i = i;
}

static void put_int_nn(struct value *v, int64_t i)
{
    if (i >= 0) put_int(v, i);
}

static void put_real(struct value *v, double d)
{
    if (!isfinite(d)) return;
    v->type = 'd';
    v->d = d;
}

static void put_real_nz(struct value *v, double d)
{
    if (d != 0) put_real(v, d);
}

static void put_uint_nz(struct value *v, uint64_t u)
{
    if (u) put_int(v, (int64_t)u);
}

static void put_text(struct value *v, const char *t)
{
    if (!t) return;
    v->type = 't';
    v->t = t;
}

static void put_text_ne(struct value *v, const char *t)
{
    if (t && *t) put_text(v, t);
}

/* case_value sets *v to what column k stores for x (type 0: NULL, or not written). */
static void case_value(int k, const struct case_ctx *x, struct value *v)
{
    const struct vb_case_result *r = x->r;
    memset(v, 0, sizeof *v);
    switch (k) {
#define X(c, type, write, read, cell)                                                              \
    case COL_##c:                                                                                  \
        write;                                                                                     \
        break;
        VB_CASE_COLUMNS(X)
#undef X
    }
    (void)r;
}

/* The SQL made of the table, once a process (static texts: the statement cache's keys). */
static char insert_sql[2048], select_sql[8192];
static pthread_once_t built = PTHREAD_ONCE_INIT;

/* append adds text to buf (n bytes), which must hold it: the texts are the table's, fixed. */
static void append(char *buf, size_t n, const char *text)
{
    size_t len = strlen(buf);
    assert(len + strlen(text) < n);
    snprintf(buf + len, n - len, "%s", text);
}

static void build(void)
{
    int k, first_w = 1, first_r = 1;
    append(insert_sql, sizeof insert_sql, "INSERT INTO cases(");
    append(select_sql, sizeof select_sql, "SELECT ");
    for (k = 0; k < COL_COUNT; k++) {
        const struct vb_case_column *c = &vb_case_columns[k];
        assert(c->sql != VB_COL_COMPUTED || (!c->written && (c->select || !c->field)));
        if (c->written) {
            append(insert_sql, sizeof insert_sql, first_w ? "" : ", ");
            append(insert_sql, sizeof insert_sql, c->name);
            first_w = 0;
        }
        if (c->field != VB_FIELD_NONE) {
            append(select_sql, sizeof select_sql, first_r ? "" : ", ");
            if (!c->select) append(select_sql, sizeof select_sql, "c.");
            append(select_sql, sizeof select_sql, c->select ? c->select : c->name);
            first_r = 0;
        }
    }
    append(insert_sql, sizeof insert_sql, ") VALUES (");
    for (k = 0, first_w = 1; k < COL_COUNT; k++)
        if (vb_case_columns[k].written) {
            append(insert_sql, sizeof insert_sql, first_w ? "?" : ", ?");
            first_w = 0;
        }
    append(insert_sql, sizeof insert_sql, ")");
    append(select_sql, sizeof select_sql, CASES_FROM);
}

int vb_store_case_insert(struct vb_store *s, int64_t run_id, int64_t variant_id,
                         const struct vb_case_result *r, int64_t *case_id, struct vb_err *err)
{
    const struct case_ctx x = {r, run_id, variant_id};
    sqlite3_stmt *st;
    int k, p = 0, rc = SQLITE_OK;
    pthread_once(&built, build);
    if (!(st = vb_store_stmt(s, insert_sql, err))) return -1;
    for (k = 0; k < COL_COUNT && rc == SQLITE_OK; k++) {
        struct value v;
        if (!vb_case_columns[k].written) continue;
        case_value(k, &x, &v);
        p++;
        rc = v.type == 'i'   ? sqlite3_bind_int64(st, p, v.i)
             : v.type == 'd' ? sqlite3_bind_double(st, p, v.d)
             : v.type == 't' ? sqlite3_bind_text(st, p, v.t, -1, SQLITE_TRANSIENT)
                             : sqlite3_bind_null(st, p);
    }
    if (rc != SQLITE_OK) return vb_store_fail(s, err, "bind");
    assert(p == sqlite3_bind_parameter_count(st));
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    }
    if (rc != SQLITE_DONE) return vb_store_fail(s, err, "write");
    *case_id = sqlite3_last_insert_rowid(s->db);
    sqlite3_reset(st);
    return 0;
}

const char *vb_store_cases_sql(void)
{
    pthread_once(&built, build);
    return select_sql;
}

void vb_store_fill_case(sqlite3_stmt *st, void *row)
{
    int k, c = 0;
    for (k = 0; k < COL_COUNT; k++) {
        const struct vb_case_column *col = &vb_case_columns[k];
        void *f = (char *)row + col->offset;
        int null;
        if (col->field == VB_FIELD_NONE) continue;
        null = sqlite3_column_type(st, c) == SQLITE_NULL;
        switch (col->field) {
        case VB_FIELD_INT:
            *(int *)f = sqlite3_column_int(st, c);
            break;
        case VB_FIELD_INT_NEG:
            *(int *)f = null ? -1 : sqlite3_column_int(st, c);
            break;
        case VB_FIELD_I64:
        case VB_FIELD_I64_POS:
            *(int64_t *)f = sqlite3_column_int64(st, c);
            break;
        case VB_FIELD_DOUBLE:
            *(double *)f = vb_store_col_double(st, c);
            break;
        case VB_FIELD_TEXT:
            vb_store_col_text(st, c, f, col->size);
            break;
        case VB_FIELD_NONE:
            break;
        }
        c++;
    }
    assert(c == sqlite3_column_count(st));
}

/* bytes_per_second: the global-memory bytes the kernels declare over their median time. */
static double bytes_per_second(const struct vb_case_row *r)
{
    double b = (double)r->gmem_read_bytes + (double)r->gmem_write_bytes;
    return b > 0 && r->kernel_median_ns > 0 ? b * 1e9 / r->kernel_median_ns : NAN;
}

/* items_per_second: the declared elements over the sample's GPU time (a CPU-only case's: its
 * end-to-end time, the only one it has). */
static double items_per_second(const struct vb_case_row *r)
{
    double t = r->device_id < 0 ? r->e2e_median_ns : r->gpu_median_ns;
    return r->elements > 0 && t > 0 ? r->elements * 1e9 / t : NAN;
}

int vb_case_cell_value(const struct vb_case_column *c, const struct vb_case_row *r,
                       struct vb_cell_value *v)
{
    const char *f = (const char *)r + c->offset;
    memset(v, 0, sizeof *v);
    v->type = 'd';
    if (c->cell.kind == VB_CELL_DERIVED) {
        v->d = c->cell.derive(r);
        return v->known = !isnan(v->d);
    }
    if (c->cell.kind != VB_CELL_FIELD) return 0;
    switch (c->field) {
    case VB_FIELD_INT:
    case VB_FIELD_INT_NEG:
        v->type = 'i';
        v->i = *(const int *)f;
        v->known = c->field == VB_FIELD_INT || v->i >= 0;
        break;
    case VB_FIELD_I64:
    case VB_FIELD_I64_POS:
        v->type = 'i';
        v->i = *(const int64_t *)f;
        v->known = c->field == VB_FIELD_I64 || v->i > 0;
        break;
    case VB_FIELD_DOUBLE:
        v->d = *(const double *)f / c->cell.per;
        v->known = !isnan(v->d);
        break;
    case VB_FIELD_TEXT:
        v->type = 't';
        v->t = f;
        v->known = 1;
        break;
    case VB_FIELD_NONE:
        break;
    }
    return v->known;
}

int vb_case_cell_in_json(const struct vb_case_column *c, const struct vb_case_row *r)
{
    struct vb_cell_value v;
    if (!c->cell.json) return 0;
    switch (c->cell.when) {
    case VB_JSON_ALWAYS:
        return 1;
    case VB_JSON_KNOWN:
        return vb_case_cell_value(c, r, &v);
    case VB_JSON_FLOOR:
        return isfinite(r->floor_ms) && isfinite(r->floor_ratio);
    }
    return 0;
}

int vb_case_json_order(int *idx)
{
    int k, n = 0, rank;
    for (rank = 1; rank <= COL_COUNT; rank++)
        for (k = 0; k < COL_COUNT; k++)
            if (vb_case_columns[k].cell.json && vb_case_columns[k].cell.json_rank == rank)
                idx[n++] = k;
    return n;
}

/* in_list: name is one of the comma-separated names of list (case aside). */
static int in_list(const char *name, const char *list)
{
    size_t len = strlen(name);
    const char *p = list, *end;
    for (; p; p = *end ? end + 1 : NULL) {
        end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        if ((size_t)(end - p) == len && !strncasecmp(p, name, len)) return 1;
    }
    return 0;
}

/* clash says what name is of column c (a column of cases, a value read with a case, a cell of
 * export), or NULL when it is none of these. */
static const char *clash(const struct vb_case_column *c, const char *name)
{
    if (in_list(name, c->name))
        return c->sql != VB_COL_COMPUTED ? "a column of the cases table"
                                         : "a value read with a case";
    if ((c->cell.csv && in_list(name, c->cell.csv)) ||
        (c->cell.json && in_list(name, c->cell.json)))
        return "a cell of export";
    return NULL;
}

int vb_store_summary_name_ok(const char *name, char *why, size_t n)
{
    char scratch[1];
    const char *p;
    int k;
    if (!why) why = scratch, n = sizeof scratch;
    if (!*name || strlen(name) >= VB_SUMMARY_NAME_MAX) {
        snprintf(why, n, "a summary's name has 1 to %d characters", VB_SUMMARY_NAME_MAX - 1);
        return 0;
    }
    for (p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '.' || *p == '-')) {
            snprintf(why, n, "'%s': a summary's name is made of A-Z, a-z, 0-9, '_', '.' and '-'",
                     name);
            return 0;
        }
    for (k = 0; k < COL_COUNT; k++) {
        const struct vb_case_column *c = &vb_case_columns[k];
        const char *what = clash(c, name);
        if (what) {
            snprintf(why, n, "'%s' is %s: a summary cannot take its name", name, what);
            return 0;
        }
    }
    for (k = 0; json_own[k]; k++)
        if (in_list(name, json_own[k])) {
            snprintf(why, n, "'%s' is a key of export's JSON: a summary cannot take its name",
                     name);
            return 0;
        }
    return 1;
}
