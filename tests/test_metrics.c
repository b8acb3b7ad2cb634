/* Tests of the metrics pass: metric names and nvprof aliases, the schema's metrics tables and
 * the migration from version 1 (cpu), and store efficiency measured on the GPU (gpu): the
 * gufunc ladder's 25% / 100% and the mesh kernels' 100%, the product card's headline. */
#include <sqlite3.h>
#include <stdlib.h>

#include "activity.h"
#include "axes.h"
#include "fixtures.h"
#include "gpu.h"
#include "metric_set.h"
#include "profiler.h"
#include "runner.h"
#include "store.h"
#include "test.h"
#include "tests.h"

int test_metric_set_parse(const char *arg)
{
    struct vb_metric_set s, d;
    struct vb_err err;
    ASSERT_OK(vb_metric_set_parse("gst_efficiency,achieved_occupancy", &s, &err));
    ASSERT_INT_EQ(s.n, 2);
    ASSERT_STR_EQ(s.names[0], VB_METRIC_GST_EFF);
    ASSERT_STR_EQ(s.names[1], "sm__warps_active.avg.pct_of_peak_sustained_active");
    vb_metric_set_default(&d);
    ASSERT_INT_EQ(d.n, 23);
    /* "default" expands, and a name given twice is kept once */
    ASSERT_OK(vb_metric_set_parse("default,gst_efficiency,smsp__inst_executed.sum", &s, &err));
    ASSERT_INT_EQ(s.n, d.n + 1);
    ASSERT_STR_EQ(s.names[d.n], "smsp__inst_executed.sum");
    /* "all" (nvprof's --metrics all) is every known metric, the default set among them */
    ASSERT_OK(vb_metric_set_parse("all", &s, &err));
    ASSERT_INT_EQ(s.n, vb_metric_ndefs);
    ASSERT(s.n > d.n);
    ASSERT_OK(vb_metric_set_parse("dram_read_bytes,dram__bytes_read.sum", &s, &err));
    ASSERT_INT_EQ(s.n, 1);
    /* bad lists name the bad part */
    ASSERT(vb_metric_set_parse("gst_eficiency", &s, &err) < 0);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    ASSERT_CONTAINS(err.msg, "'gst_eficiency'");
    ASSERT(vb_metric_set_parse("gst_efficiency,,ipc", &s, &err) < 0);
    ASSERT_CONTAINS(err.msg, "empty");
    ASSERT(vb_metric_set_parse("", &s, &err) < 0);
    ASSERT(vb_metric_set_parse("dram__bytes;drop", &s, &err) < 0);
    return 0;
}

int test_metric_defs(const char *arg)
{
    int i, j, ndefault = 0;
    for (i = 0; i < vb_metric_ndefs; i++) {
        const struct vb_metric_def *a = &vb_metric_defs[i];
        ASSERT(a->doc && a->doc[0]);
        ASSERT(vb_metric_def_find(a->name) == a);
        ndefault += a->in_default;
        /* the default set comes first, so list --metrics shows it as one block */
        if (i > 0) ASSERT(a->in_default <= vb_metric_defs[i - 1].in_default);
        for (j = 0; j < i; j++) {
            ASSERT(strcmp(a->name, vb_metric_defs[j].name));
            if (a->nvprof && vb_metric_defs[j].nvprof)
                ASSERT(strcmp(a->nvprof, vb_metric_defs[j].nvprof));
        }
    }
    ASSERT_INT_EQ(ndefault, 23);
    return 0;
}

/* The metrics pass's split: DRAM and L2 counters (cache-state dependent: user replay with a
 * flush before every pass) apart from the rest, each side in the given order. */
int test_metric_set_split(const char *arg)
{
    struct vb_metric_set all, cache, rest;
    struct vb_err err;
    (void)arg;
    ASSERT_INT_EQ(vb_metric_set_parse("gst_efficiency,dram_read_bytes,l2_read_transactions,"
                                      "ipc,dram__bytes_write.sum,xdram__x.sum",
                                      &all, &err),
                  0);
    vb_metric_set_split(&all, &cache, &rest);
    ASSERT_INT_EQ(cache.n, 3);
    ASSERT_STR_EQ(cache.names[0], "dram__bytes_read.sum");
    ASSERT_STR_EQ(cache.names[1], "lts__t_sectors_op_read.sum");
    ASSERT_STR_EQ(cache.names[2], "dram__bytes_write.sum");
    ASSERT_INT_EQ(rest.n, 3);
    ASSERT_STR_EQ(rest.names[0], VB_METRIC_GST_EFF);
    ASSERT_STR_EQ(rest.names[1], "smsp__inst_executed.avg.per_cycle_active");
    ASSERT_STR_EQ(rest.names[2], "xdram__x.sum");
    vb_metric_set_default(&all);
    vb_metric_set_split(&all, &cache, &rest);
    ASSERT_INT_EQ(cache.n, 2);
    ASSERT_INT_EQ(rest.n, 21);
    return 0;
}

/* A database written by a version-1 varbench opens, migrates to the current schema, and keeps
 * its run. arg: the path of tests/schema_v1.sql. */
/* fail_row stops sqlite3_exec at its first row (exec then answers SQLITE_ABORT) */
static int fail_row(void *u, int n, char **v, char **c)
{
    (void)u, (void)n, (void)v, (void)c;
    return 1;
}

int test_store_migrates_v1(const char *arg)
{
    char path[512];
    sqlite3 *db;
    struct vb_store *s;
    struct vb_err err;
    struct vb_run_row *runs = NULL;
    int n = 0;
    int64_t count;
    fx_tmp_path(path, sizeof path, "vb_migrate_v1.db");
    ASSERT_OK(fx_write_v1(arg, path));
    /* read-only stages read a migrated copy in memory; the file stays as it was */
    ASSERT_OK(vb_store_open_ro(path, &s, &err));
    ASSERT_OK(vb_store_count(s, "metrics", 0, &count, &err));
    ASSERT_INT_EQ(count, 0);
    vb_store_close(s);
    ASSERT_INT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    ASSERT_INT_EQ(sqlite3_exec(db, "SELECT 1 FROM sqlite_master WHERE name = 'metrics'", fail_row,
                               NULL, NULL),
                  SQLITE_OK);
    sqlite3_close(db);
    ASSERT_OK(vb_store_open(path, &s, &err));
    ASSERT_OK(vb_store_count(s, "metrics", 0, &count, &err));
    ASSERT_INT_EQ(count, 0);
    ASSERT_OK(vb_store_runs(s, &runs, &n, &err));
    ASSERT_INT_EQ(n, 1);
    ASSERT_STR_EQ(runs[0].uuid, "u-1");
    free(runs);
    vb_store_close(s);
    ASSERT_OK(vb_store_open_ro(path, &s, &err));
    vb_store_close(s);
    remove(path);
    return 0;
}

/* A case's metric values are stored per launch, with its status and store efficiency. */
int test_store_metrics(const char *arg)
{
    const struct vb_family *f = fx_family("gufunc");
    struct vb_case_result r;
    struct vb_metric_value m[4];
    struct vb_store *s;
    struct vb_err err;
    struct vb_run_info info = {"suite", "test", NULL, "test", "test", ""};
    int64_t run_id, case_id, count;
    char k0[] = "gufunc_row_sliced_kernel", n0[] = VB_METRIC_GST_EFF, n1[] = VB_METRIC_ST_SECTORS;
    ASSERT(f);
    memset(&r, 0, sizeof r);
    r.family = f;
    r.variant = &f->variants[1];
    snprintf(r.axes, sizeof r.axes, "func=powsum,rows=1280000,cols=4");
    r.status = VB_STATUS_OK;
    r.stop_reason = "converged";
    r.max_abs_err = r.max_rel_err = 0;
    r.metrics_status = VB_METRICS_OK;
    r.gst_efficiency = 25.0;
    r.metrics_ns = 1e6;
    m[0] = (struct vb_metric_value){0, k0, n0, 25.0};
    m[1] = (struct vb_metric_value){0, k0, n1, 640000};
    m[2] = (struct vb_metric_value){1, k0, n0, 25.0};
    m[3] = (struct vb_metric_value){1, k0, n1, NAN}; /* no value: stored as NULL */
    r.metrics = m;
    r.nmetrics = 4;
    ASSERT_OK(vb_store_open(":memory:", &s, &err));
    ASSERT_OK(vb_store_run_begin(s, &info, &run_id, &err));
    ASSERT_OK(vb_store_case(s, run_id, &r, &case_id, &err));
    ASSERT_OK(vb_store_count(s, "metrics", case_id, &count, &err));
    ASSERT_INT_EQ(count, 4);
    /* the same (launch, metric) twice is refused, and the case with it */
    m[2].launch = 0;
    m[2].metric = n0;
    ASSERT(vb_store_case(s, run_id, &r, NULL, &err) < 0);
    ASSERT_OK(vb_store_count(s, "cases", 0, &count, &err));
    ASSERT_INT_EQ(count, 1);
    vb_store_close(s);
    return 0;
}

/* measure runs variant full at point arg (e.g. "rows=1280000") with the default metric set and
 * returns its case result in *r (caller frees). */
static int measure(struct vb_profiler *prof, const char *full, const char *axes,
                   struct vb_case_result *r)
{
    const struct vb_family *f;
    const struct vb_variant *v;
    struct vb_overrides ov;
    struct vb_point p;
    struct vb_sampling cfg;
    struct vb_err err;
    double *ref;
    char buf[256], *tok, *save = NULL;
    ASSERT_INT_EQ(fx_variant(full, &f, &v), 0);
    memset(&ov, 0, sizeof ov);
    snprintf(buf, sizeof buf, "%s", axes);
    for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
        ASSERT_OK(vb_axes_parse(&ov, tok, &err));
    ASSERT_INT_EQ(vb_axes_expand(f, v->problem, &ov, &p, 1, &err), 1);
    ASSERT((ref = malloc(sizeof *ref * v->problem->out_len(&p))));
    ASSERT_OK(v->problem->reference(&p, ref, &err));
    vb_sampling_quick(&cfg);
    cfg.max_samples = 3;
    cfg.profiler = prof;
    vb_runner_case(f, v, &p, 0, NULL, ref, NULL, &cfg, r);
    free(ref);
    if (r->metrics_reason[0]) fprintf(stderr, "%s: metrics: %s\n", full, r->metrics_reason);
    ASSERT_STR_EQ(vb_status_name(r->status), "ok");
    ASSERT_INT_EQ(r->metrics_status, VB_METRICS_OK);
    /* timing samples never ran under the profiler: they carry real kernel times */
    ASSERT(r->have_records && r->kernel_ms.median > 0);
    printf("%-28s %-34s store efficiency %6.2f%% (%zu values, metrics pass %.1f ms), kernel "
           "%.4f ms\n",
           full, r->axes, r->gst_efficiency, r->nmetrics, r->metrics_ns / 1e6, r->kernel_ms.median);
    return 0;
}

/* value returns metric name of launch 0 in r, or NaN. */
static double value(const struct vb_case_result *r, const char *name)
{
    size_t i;
    for (i = 0; i < r->nmetrics; i++)
        if (r->metrics[i].launch == 0 && !strcmp(r->metrics[i].metric, name))
            return r->metrics[i].value;
    return NAN;
}

int test_store_efficiency(const char *arg)
{
    static const struct {
        const char *variant, *axes;
        double gst;
    } cases[] = {
        {"gufunc/row-sliced", "func=powsum rows=1280000 cols=4", 25.0},
        {"gufunc/column-sliced", "func=powsum rows=1280000 cols=4", 100.0},
        {"gufunc/row-sliced-smem", "func=powsum rows=1280000 cols=4", 100.0},
        {"mesh/host-mesh", "nx=1000", 100.0},
        {"mesh/broadcast-scalars", "nx=1000", 100.0},
        {"mesh/device-mesh", "nx=1000", 100.0},
        {"mesh/device-mesh-pinned", "nx=1000", 100.0},
        {"mesh/device-mesh-overlap", "nx=1000", 100.0},
    };
    struct vb_metric_set set;
    struct vb_profiler *prof;
    struct vb_case_result r;
    struct vb_err err;
    double row_sectors = 0;
    size_t i;
    int ndev, k;
    if (vb_gpu_count(&ndev, &err)) {
        fprintf(stderr, "skip: %s\n", err.msg);
        return VB_TEST_SKIP;
    }
    ASSERT_OK(vb_activity_start(&err));
    vb_metric_set_default(&set);
    ASSERT((prof = vb_profiler_create(&set)));
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double sectors;
        if (measure(prof, cases[i].variant, cases[i].axes, &r)) return 1;
        ASSERT(fabs(r.gst_efficiency - cases[i].gst) <= 0.5);
        /* every default metric has a value for every launch */
        ASSERT_INT_EQ(r.nmetrics % (size_t)set.n, 0);
        ASSERT(r.nmetrics >= (size_t)set.n);
        for (k = 0; k < (int)r.nmetrics; k++)
            ASSERT(isfinite(r.metrics[k].value));
        sectors = value(&r, VB_METRIC_ST_SECTORS);
        /* 1,280,000 rows x 4 floats = 20,480,000 bytes: 640,000 sectors when coalesced, four
         * times as many when every warp store touches 32 rows */
        if (i == 0) row_sectors = sectors;
        if (i == 1) {
            ASSERT(fabs(sectors - 640000) <= 640000 * 0.01);
            ASSERT(fabs(row_sectors - 4 * sectors) <= sectors * 0.04);
        }
        vb_case_result_free(&r);
    }
    vb_profiler_destroy(prof);
    vb_activity_stop();
    return 0;
}

/* vb_activity_append moves records (and their names) from one set to another. */
int test_activity_append(const char *arg)
{
    struct vb_activity a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    ASSERT((a.kernels = calloc(1, sizeof *a.kernels)));
    a.nkernels = a.cap_kernels = 1;
    ASSERT((a.kernels[0].name = strdup("first")));
    ASSERT((b.kernels = calloc(2, sizeof *b.kernels)));
    b.nkernels = b.cap_kernels = 2;
    ASSERT((b.kernels[0].name = strdup("second")) && (b.kernels[1].name = strdup("third")));
    ASSERT((b.ranges = calloc(1, sizeof *b.ranges)));
    b.nranges = b.cap_ranges = 1;
    ASSERT((b.ranges[0].text = strdup("kernel")));
    b.dropped = 3;
    vb_activity_append(&a, &b);
    ASSERT_INT_EQ(a.nkernels, 3);
    ASSERT_STR_EQ(a.kernels[0].name, "first");
    ASSERT_STR_EQ(a.kernels[2].name, "third");
    ASSERT_INT_EQ(a.nranges, 1);
    ASSERT_STR_EQ(a.ranges[0].text, "kernel");
    ASSERT_INT_EQ(a.dropped, 3);
    ASSERT_INT_EQ(b.nkernels, 0); /* emptied, and freed: nothing of it is freed twice */
    ASSERT(b.kernels == NULL);
    vb_activity_free(&a);
    return 0;
}
