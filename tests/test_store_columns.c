/* Tests of the cases table's columns (suite/store/store_columns.c): every column written and
 * read back as itself, by the row struct and by SQL name, and the schema's columns the table's. */
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "env.h"
#include "fixtures.h"
#include "result.h"
#include "store.h"
#include "store_columns.h"
#include "test.h"
#include "tests.h"

/* The columns test's case: a value in every column of cases that no other column holds (a
 * swap of two columns anywhere then shows), on device 4 of run_id with one H2D copy from pageable
 * memory and one D2H copy to pinned memory (h2d_pageable 1, d2h_pageable 0), and two summaries. */
static void distinct_case(struct vb_case_result *r, struct vb_copy_rec *c)
{
    memset(r, 0, sizeof *r);
    fx_variant("mesh/device-mesh", &r->family, &r->variant);
    r->point.v[0] = 23, r->point.v[1] = 29;
    snprintf(r->axes, sizeof r->axes, "nx=23,ny=29");
    r->device = 4;
    r->status = VB_STATUS_WRONG; /* "ok" is metrics_status's */
    snprintf(r->reason, sizeof r->reason, "a reason");
    r->max_abs_err = 1.5e-9, r->max_rel_err = 2.5e-12;
    r->start_ns = 1000000001, r->end_ns = 1000000099;
    r->ntimed = 7;
    r->stop_reason = "converged";
    snprintf(r->stop_detail, sizeof r->stop_detail, "gpu +-1.5%%");
    r->have_records = 17;
    r->e2e_ms.median = 1.25, r->e2e_ms.mean = 1.375, r->e2e_ms.stdev = 0.0625;
    r->e2e_ms.min = 1.0625, r->e2e_ms.max = 1.5, r->e2e_ms.noise = 0.045;
    r->kernel_ms.median = 0.75, r->h2d_ms.median = 0.125, r->d2h_ms.median = 0.1875;
    r->gpu_ms.median = 0.875, r->memset_ms.median = 0.03125;
    r->gpu_ci_pct = 1.75;
    r->cold = 1;
    r->clock_min_mhz = 1755, r->clock_median_mhz = 1980;
    r->dropped = 37;
    r->h2d_bytes = 4000001, r->d2h_bytes = 4000003;
    r->h2d_count = 19, r->d2h_count = 23, r->kernel_count = 29, r->traffic_varies = 31;
    r->metrics_status = VB_METRICS_OK;
    snprintf(r->metrics_reason, sizeof r->metrics_reason, "metrics reason");
    r->gst_efficiency = 87.5, r->metrics_ns = 3.5e6;
    r->floor_ns = 625000, r->floor_ratio = 1.2;
    snprintf(r->floor_bound, sizeof r->floor_bound, "latency");
    snprintf(r->floor_of, sizeof r->floor_of, "e2e");
    r->gmem_read_bytes = 8000005, r->gmem_write_bytes = 8000007;
    r->elements = 1000003, r->flops = 2000003;
    r->ledger.measured = 1, r->ledger.readings = 3;
    r->ledger.energy_j = 41.5, r->ledger.power_w = 415.5, r->ledger.power_read_w = 409.5;
    r->ledger.energy_unc_j = 2.25, r->ledger.work_j = 31.5, r->ledger.work_unc_j = 3.25;
    r->ledger.temp_max_c = 61.5, r->ledger.sm_mhz_median = 1965, r->ledger.mem_mhz_median = 2619;
    r->ledger.limit_w = 700.5, r->ledger.reasons = VB_REASON_SW_POWER_CAP | VB_REASON_HW_THERMAL;
    snprintf(r->ledger.others, sizeof r->ledger.others, "pid 4242 (1024 MiB)");
    snprintf(r->ledger.why, sizeof r->ledger.why, "ledger note");
    snprintf(r->ledger.quiet, sizeof r->ledger.quiet, "quiet wait");
    r->summaries[0] = (struct vb_summary_value){"iters.max", "", 42};
    r->summaries[1] = (struct vb_summary_value){"bandwidth_hint", "GB/s", 3.25};
    r->nsummaries = 2;
    memset(c, 0, 2 * sizeof *c);
    c[0].start = 10, c[0].end = 20, c[0].copy_kind = 1, c[0].src_kind = 1, c[0].dst_kind = 3;
    c[1].start = 30, c[1].end = 40, c[1].copy_kind = 2, c[1].src_kind = 3, c[1].dst_kind = 2;
    r->activity.copies = c;
    r->activity.ncopies = 2;
}

/* One column of cases as the columns test expects it, by its SQL name: a number (t NULL) or a
 * text. */
struct want_col {
    const char *name;
    double v;
    const char *t;
};

/* check_by_name reads column w->name of case id with a SELECT of its own and compares. */
static int check_by_name(sqlite3 *db, int64_t id, const struct want_col *w)
{
    sqlite3_stmt *st;
    const unsigned char *t;
    char q[160], held[128];
    int ok;
    snprintf(q, sizeof q, "SELECT \"%s\" FROM cases WHERE id = ?", w->name);
    ASSERT_INT_EQ(sqlite3_prepare_v2(db, q, -1, &st, NULL), SQLITE_OK);
    sqlite3_bind_int64(st, 1, id);
    ASSERT_INT_EQ(sqlite3_step(st), SQLITE_ROW);
    ok = sqlite3_column_type(st, 0) != SQLITE_NULL &&
         (w->t ? !strcmp((const char *)sqlite3_column_text(st, 0), w->t)
               : sqlite3_column_double(st, 0) == w->v);
    t = sqlite3_column_text(st, 0);
    snprintf(held, sizeof held, "%s", t ? (const char *)t : "NULL");
    sqlite3_finalize(st);
    if (!ok && w->t) TEST_FAIL_("cases.%s holds '%s', not '%s'", w->name, held, w->t);
    if (!ok) TEST_FAIL_("cases.%s holds %s, not %.17g", w->name, held, w->v);
    return 0;
}

#define ASSERT_DBL_EQ(a, b) ASSERT_NEAR(a, b, 0)

/* The declared type of a column of cases, by its vb_col_sql. */
static const char *const col_type[] = {"", "INTEGER", "REAL", "TEXT"};

/* A case whose every column holds a distinct value is read back (a) field by field with
 * vb_store_cases and (b) column by column with a SELECT of each SQL name, against this test's own
 * list, not store_columns.c's table: a swap between the writer and the reader fails (a), a swap
 * of two rows' values inside the table fails (b). Every column of the schema must be in the
 * list, and the table's columns must be the schema's, one to one and of the same type. */
int test_store_columns_distinct(const char *arg)
{
    struct vb_run_info info = {"suite", "columns", NULL, "x", "0", ""};
    struct vb_host_env host = {"h", "Debian", "Linux", "Fixture CPU", 2, 1 << 30};
    struct vb_trace_cost tc = {11.5,         12.5, 13.5, 14.5, 101, 103,
                               "client lib", 107,  109,  113,  127, "overhead detail"};
    struct vb_store *st;
    struct vb_err err;
    struct vb_gpu_env gpu;
    struct vb_case_result r, other;
    struct vb_copy_rec c[2];
    struct vb_case_row *rows, *x;
    struct vb_summary_value *sum;
    int64_t run, id, scratch;
    int n, i, k, nsum;
    char path[512];
    sqlite3 *db;
    sqlite3_stmt *cols;
    fx_tmp_path(path, sizeof path, "columns.db");
    ASSERT_OK(vb_store_open(path, &st, &err));
    /* ids apart from every other integer: run 3, variant 2, case 5 (run 1 holds 4 cases) */
    ASSERT_OK(vb_store_run_begin(st, &info, &run, &err));
    memset(&other, 0, sizeof other);
    ASSERT_OK(fx_variant("mesh/host-mesh", &other.family, &other.variant));
    other.status = VB_STATUS_OK;
    for (i = 0; i < 4; i++)
        ASSERT_OK(vb_store_case(st, run, &other, NULL, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &run, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &run, &err));
    memset(&gpu, 0, sizeof gpu);
    gpu.id = 4;
    snprintf(gpu.name, sizeof gpu.name, "NVIDIA H200");
    snprintf(gpu.bus, sizeof gpu.bus, "0000:42:00.0");
    ASSERT_OK(vb_store_host(st, run, &host, &err));
    ASSERT_OK(vb_store_gpu(st, run, &gpu, &err));
    distinct_case(&r, c);
    ASSERT_OK(vb_store_case(st, run, &r, &id, &err));
    ASSERT_OK(vb_store_trace_cost(st, id, &tc, &err));
    ASSERT_INT_EQ(run, 3);
    ASSERT_INT_EQ(id, 5);
    /* (a) field by field */
    ASSERT_OK(vb_store_cases(st, run, &rows, &n, &err));
    ASSERT_INT_EQ(n, 1);
    x = &rows[0];
    ASSERT_INT_EQ(x->id, 5);
    ASSERT_INT_EQ(x->run_id, 3);
    ASSERT_STR_EQ(x->variant, "mesh/device-mesh");
    ASSERT_STR_EQ(x->family, "mesh");
    ASSERT_STR_EQ(x->name, "device-mesh");
    ASSERT_STR_EQ(x->problem, r.variant->problem->name);
    ASSERT_INT_EQ(x->flags, r.variant->flags);
    ASSERT_INT_EQ(x->is_reference, 0);
    ASSERT_INT_EQ(x->needs_gpu, 1);
    ASSERT_STR_EQ(x->axes, "nx=23,ny=29");
    ASSERT_INT_EQ(x->naxes, 2);
    ASSERT_INT_EQ(x->axis[1].value, 29);
    ASSERT_STR_EQ(x->status, "wrong-result");
    ASSERT_STR_EQ(x->reason, "a reason");
    ASSERT_STR_EQ(x->device, "NVIDIA H200");
    ASSERT_INT_EQ(x->device_id, 4);
    ASSERT_STR_EQ(x->board, "0000:42:00.0");
    ASSERT_INT_EQ(x->have_records, 17);
    ASSERT_INT_EQ(x->samples, 7);
    ASSERT_DBL_EQ(x->e2e_median_ns, 1250000);
    ASSERT_DBL_EQ(x->e2e_mean_ns, 1375000);
    ASSERT_DBL_EQ(x->e2e_stdev_ns, 62500);
    ASSERT_DBL_EQ(x->e2e_min_ns, 1062500);
    ASSERT_DBL_EQ(x->e2e_max_ns, 1500000);
    ASSERT_DBL_EQ(x->kernel_median_ns, 750000);
    ASSERT_DBL_EQ(x->h2d_median_ns, 125000);
    ASSERT_DBL_EQ(x->d2h_median_ns, 187500);
    ASSERT_DBL_EQ(x->gpu_median_ns, 875000);
    ASSERT_DBL_EQ(x->memset_median_ns, 31250);
    ASSERT_DBL_EQ(x->gpu_ci_pct, 1.75);
    ASSERT_STR_EQ(x->stop_reason, "converged (gpu +-1.5%)");
    ASSERT_STR_EQ(x->cache, "cold");
    ASSERT_DBL_EQ(x->clock_min_mhz, 1755);
    ASSERT_DBL_EQ(x->clock_median_mhz, 1980);
    ASSERT_INT_EQ(x->dropped_samples, 37);
    ASSERT_INT_EQ(x->throttled, 1);
    ASSERT_INT_EQ(x->h2d_pageable, 1);
    ASSERT_INT_EQ(x->d2h_pageable, 0);
    ASSERT_DBL_EQ(x->max_abs_err, 1.5e-9);
    ASSERT_DBL_EQ(x->max_rel_err, 2.5e-12);
    ASSERT_INT_EQ(x->h2d_bytes, 4000001);
    ASSERT_INT_EQ(x->d2h_bytes, 4000003);
    ASSERT_INT_EQ(x->h2d_count, 19);
    ASSERT_INT_EQ(x->d2h_count, 23);
    ASSERT_DBL_EQ(x->gst_efficiency, 87.5);
    ASSERT_DBL_EQ(x->floor_ms, 0.625);
    ASSERT_DBL_EQ(x->floor_ratio, 1.2);
    ASSERT_STR_EQ(x->floor_bound, "latency");
    ASSERT_STR_EQ(x->floor_of, "e2e");
    ASSERT_STR_EQ(x->metrics_status, "ok");
    ASSERT_STR_EQ(x->metrics_reason, "metrics reason");
    ASSERT_INT_EQ(x->has_trace_cost, 1);
    ASSERT_DBL_EQ(x->trace_cost.init_ns, 11.5);
    ASSERT_DBL_EQ(x->trace_cost.flush_ns, 12.5);
    ASSERT_DBL_EQ(x->trace_cost.store_ns, 13.5);
    ASSERT_DBL_EQ(x->trace_cost.cupti_overhead_ns, 14.5);
    ASSERT_INT_EQ(x->trace_cost.cupti_overhead_count, 101);
    ASSERT_INT_EQ(x->trace_cost.dropped_records, 103);
    ASSERT_STR_EQ(x->trace_cost.client, "client lib");
    ASSERT_INT_EQ(x->trace_cost.client_kernels, 107);
    ASSERT_INT_EQ(x->trace_cost.client_copies, 109);
    ASSERT_INT_EQ(x->trace_cost.client_memsets, 113);
    ASSERT_INT_EQ(x->trace_cost.client_records, 127);
    ASSERT_STR_EQ(x->trace_cost.overhead_detail, "overhead detail");
    ASSERT_INT_EQ(x->gmem_read_bytes, 8000005);
    ASSERT_INT_EQ(x->gmem_write_bytes, 8000007);
    ASSERT_DBL_EQ(x->elements, 1000003);
    ASSERT_DBL_EQ(x->flops, 2000003);
    ASSERT_DBL_EQ(x->energy_j, 41.5);
    ASSERT_DBL_EQ(x->power_w, 415.5);
    ASSERT_DBL_EQ(x->power_read_w, 409.5);
    ASSERT_DBL_EQ(x->energy_unc_j, 2.25);
    ASSERT_DBL_EQ(x->energy_work_j, 31.5);
    ASSERT_DBL_EQ(x->energy_work_unc_j, 3.25);
    ASSERT_DBL_EQ(x->temp_max_c, 61.5);
    ASSERT_DBL_EQ(x->nvml_sm_mhz_median, 1965);
    ASSERT_DBL_EQ(x->nvml_mem_mhz_median, 2619);
    ASSERT_DBL_EQ(x->power_limit_w, 700.5);
    ASSERT_STR_EQ(x->clock_reasons, "sw power cap, hw thermal");
    ASSERT_STR_EQ(x->co_tenants, "pid 4242 (1024 MiB)");
    ASSERT_STR_EQ(x->ledger_note, "ledger note");
    ASSERT_STR_EQ(x->quiet_wait, "quiet wait");
    free(rows);
    ASSERT_OK(vb_store_case_summaries(st, id, &sum, &nsum, &err));
    ASSERT_INT_EQ(nsum, 2); /* by name */
    ASSERT(!strcmp(sum[0].name, "bandwidth_hint") && !strcmp(sum[0].unit, "GB/s"));
    ASSERT(!strcmp(sum[1].name, "iters.max") && !sum[1].unit[0] && sum[1].value == 42);
    ASSERT_DBL_EQ(sum[0].value, 3.25);
    free(sum);
    vb_store_close(st);
    {
        /* (b) column by column, by SQL name; no two numbers alike (nor two texts) */
        const struct want_col want[] = {
            {"run_id", 3},
            {"variant_id", 2},
            {"device_id", 4},
            {"axes", 0, "nx=23,ny=29"},
            {"status", 0, "wrong-result"},
            {"reason", 0, "a reason"},
            {"max_abs_err", 1.5e-9},
            {"max_rel_err", 2.5e-12},
            {"start", 1000000001},
            {"end", 1000000099},
            {"samples", 7},
            {"stop_reason", 0, "converged"},
            {"have_records", 17},
            {"e2e_median_ns", 1250000},
            {"e2e_min_ns", 1062500},
            {"e2e_max_ns", 1500000},
            {"e2e_mean_ns", 1375000},
            {"e2e_stdev_ns", 62500},
            {"e2e_noise", 0.045},
            {"kernel_median_ns", 750000},
            {"h2d_median_ns", 125000},
            {"d2h_median_ns", 187500},
            {"h2d_bytes", 4000001},
            {"h2d_count", 19},
            {"d2h_bytes", 4000003},
            {"d2h_count", 23},
            {"kernel_count", 29},
            {"traffic_varies", 31},
            {"metrics_status", 0, "ok"},
            {"metrics_reason", 0, "metrics reason"},
            {"gst_efficiency", 87.5},
            {"metrics_ns", 3.5e6},
            {"cache", 0, "cold"},
            {"gpu_median_ns", 875000},
            {"memset_median_ns", 31250},
            {"gpu_ci_pct", 1.75},
            {"stop_detail", 0, "gpu +-1.5%"},
            {"clock_min_mhz", 1755},
            {"clock_median_mhz", 1980},
            {"dropped_samples", 37},
            {"floor_ns", 625000},
            {"floor_ratio", 1.2},
            {"floor_bound", 0, "latency"},
            {"floor_of", 0, "e2e"},
            {"trace_init_ns", 11.5},
            {"trace_flush_ns", 12.5},
            {"trace_store_ns", 13.5},
            {"cupti_overhead_ns", 14.5},
            {"cupti_overhead_count", 101},
            {"dropped_records", 103},
            {"cupti_client", 0, "client lib"},
            {"cupti_client_kernels", 107},
            {"cupti_client_copies", 109},
            {"cupti_client_memsets", 113},
            {"cupti_client_records", 127},
            {"cupti_overhead_detail", 0, "overhead detail"},
            {"gmem_read_bytes", 8000005},
            {"gmem_write_bytes", 8000007},
            {"elements", 1000003},
            {"flops", 2000003},
            {"energy_j", 41.5},
            {"power_w", 415.5},
            {"power_read_w", 409.5},
            {"energy_unc_j", 2.25},
            {"energy_work_j", 31.5},
            {"energy_work_unc_j", 3.25},
            {"temp_max_c", 61.5},
            {"nvml_sm_mhz_median", 1965},
            {"nvml_mem_mhz_median", 2619},
            {"power_limit_w", 700.5},
            {"clock_reasons", 0, "sw power cap, hw thermal"},
            {"co_tenants", 0, "pid 4242 (1024 MiB)"},
            {"ledger_note", 0, "ledger note"},
            {"quiet_wait", 0, "quiet wait"},
        };
        const int nw = (int)(sizeof want / sizeof want[0]);
        for (i = 0; i < nw; i++)
            for (k = 0; k < i; k++)
                if (want[i].t ? want[k].t && !strcmp(want[i].t, want[k].t)
                              : !want[k].t && want[i].v == want[k].v)
                    TEST_FAIL_("the test's '%s' and '%s' hold one value", want[k].name,
                               want[i].name);
        ASSERT_INT_EQ(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
        for (i = 0; i < nw; i++)
            if (check_by_name(db, id, &want[i])) return 1;
        /* every column of the schema is in the list; the table's are the schema's */
        ASSERT_INT_EQ(sqlite3_prepare_v2(db, "SELECT name, type FROM pragma_table_info('cases')",
                                         -1, &cols, NULL),
                      SQLITE_OK);
        for (scratch = 0; sqlite3_step(cols) == SQLITE_ROW; scratch++) {
            const char *name = (const char *)sqlite3_column_text(cols, 0);
            const char *type = (const char *)sqlite3_column_text(cols, 1);
            for (i = 0; i < nw && strcmp(want[i].name, name); i++) {
            }
            if (i == nw && strcmp(name, "id"))
                TEST_FAIL_("column '%s' of cases is not in this test's list: give it a value",
                           name);
            for (k = 0; k < vb_case_ncolumns && strcmp(vb_case_columns[k].name, name); k++) {
            }
            if (k == vb_case_ncolumns)
                TEST_FAIL_("column '%s' of cases is not in store_columns.c's table", name);
            ASSERT_STR_EQ(type, col_type[vb_case_columns[k].sql]);
        }
        sqlite3_finalize(cols);
        sqlite3_close(db);
        for (k = i = 0; k < vb_case_ncolumns; k++)
            i += vb_case_columns[k].sql != VB_COL_COMPUTED;
        ASSERT_INT_EQ(i, scratch);
    }
    unlink(path);
    return 0;
}
