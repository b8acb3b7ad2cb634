/* Store tests: a full round trip on :memory:, persistence in a file, and the refusals that
 * must leave a foreign, corrupt or newer file byte-for-byte untouched. */
#include <sqlite3.h>
#include <stdlib.h>
#include <unistd.h>

#include "fixtures.h"
#include "store.h"
#include "test.h"
#include "tests.h"

/* fake_case builds a GPU case of 3 samples (verify, warm-up, timed) with records in each and
 * one memset outside every sample. */
static void fake_case(struct vb_case_result *r, struct vb_sample *s, struct vb_copy_rec *c,
                      struct vb_kernel_rec *k, struct vb_memset_rec *m, struct vb_range_rec *n)
{
    int i;
    const struct vb_family *f = fx_family("mesh");
    memset(r, 0, sizeof *r);
    r->family = f;
    r->variant = &f->variants[1];
    r->point.v[0] = r->point.v[1] = 1000;
    snprintf(r->axes, sizeof r->axes, "nx=1000,ny=1000");
    r->device = 0;
    r->status = VB_STATUS_OK;
    r->max_abs_err = 1e-19;
    r->max_rel_err = 1e-15;
    r->stop_reason = "converged";
    r->have_records = 1;
    r->samples = s;
    r->nsamples = 3;
    r->ntimed = 1;
    for (i = 0; i < 3; i++) {
        memset(&s[i], 0, sizeof s[i]);
        s[i].kind = i == 0 ? VB_SAMPLE_VERIFY : i == 1 ? VB_SAMPLE_WARMUP : VB_SAMPLE_TIMED;
        s[i].start = 1000 * (uint64_t)(i + 1);
        s[i].end = s[i].start + 500;
        s[i].e2e_ns = 500;
        s[i].h2d_bytes = 32000000;
        s[i].h2d_count = 1;
        memset(&c[i], 0, sizeof c[i]);
        c[i].start = s[i].start + 10;
        c[i].end = s[i].start + 20;
        c[i].bytes = 32000000;
        c[i].copy_kind = 1;
        memset(&k[i], 0, sizeof k[i]);
        k[i].start = s[i].start + 30;
        k[i].end = s[i].start + 40;
        k[i].name = "_Z21mesh_host_mesh_kernelPKdS0_S0_S0_Pdm";
        n[i].start = s[i].start + 1;
        n[i].end = s[i].start + 2;
        n[i].id = (uint32_t)i;
        n[i].text = "H2D";
    }
    memset(m, 0, sizeof *m);
    m->start = 50; /* before every sample: poisoning */
    m->end = 60;
    m->bytes = 8000000;
    r->activity.copies = c;
    r->activity.ncopies = 3;
    r->activity.kernels = k;
    r->activity.nkernels = 3;
    r->activity.memsets = m;
    r->activity.nmemsets = 1;
    r->activity.ranges = n;
    r->activity.nranges = 3;
    r->e2e_ms.median = r->e2e_ms.min = r->e2e_ms.max = r->e2e_ms.mean = 0.0005;
    r->e2e_ms.stdev = r->e2e_ms.noise = NAN;
    r->kernel_ms = r->h2d_ms = r->d2h_ms = r->e2e_ms;
    r->h2d_bytes = 32000000;
    r->h2d_count = 1;
}

int test_store_roundtrip(const char *arg)
{
    struct vb_store *st;
    struct vb_err err;
    struct vb_run_info info = {"suite", "varbench run --quick", "/tmp", "abc123", "0.1.0", "quick=1"};
    struct vb_host_env host = {"h", "Debian", "Linux", "cpu", 2, 1 << 30};
    struct vb_gpu_env gpu;
    struct vb_ceiling ceil[VB_CEIL_COUNT];
    struct vb_case_result r;
    struct vb_sample s[3];
    struct vb_copy_rec c[3];
    struct vb_kernel_rec k[3];
    struct vb_memset_rec m;
    struct vb_range_rec n[3];
    struct vb_case_row *rows;
    int64_t run_id, case_id, cnt;
    int nrows, i;
    char status[32];
    memset(&gpu, 0, sizeof gpu);
    snprintf(gpu.name, sizeof gpu.name, "NVIDIA H200");
    memset(ceil, 0, sizeof ceil);
    for (i = 0; i < VB_CEIL_COUNT; i++) ceil[i].name = i ? "d2h_pinned" : "h2d_pinned";
    ceil[2].name = "h2d_pageable", ceil[3].name = "d2h_pageable", ceil[4].name = "d2d";
    ASSERT_OK(vb_store_open(":memory:", &st, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &run_id, &err));
    ASSERT_OK(vb_store_run_status(st, run_id, status, sizeof status, &err));
    ASSERT_STR_EQ(status, "running");
    ASSERT_OK(vb_store_host(st, run_id, &host, &err));
    ASSERT_OK(vb_store_gpu(st, run_id, &gpu, &err));
    ASSERT_OK(vb_store_ceilings(st, run_id, 0, ceil, &err));
    fake_case(&r, s, c, k, &m, n);
    ASSERT_OK(vb_store_case(st, run_id, &r, &case_id, &err));
    ASSERT_OK(vb_store_case(st, run_id, &r, NULL, &err)); /* names stored once */
    ASSERT_OK(vb_store_run_end(st, run_id, "complete", 0, "2 cases", &err));
    ASSERT_OK(vb_store_run_status(st, run_id, status, sizeof status, &err));
    ASSERT_STR_EQ(status, "complete");
    ASSERT_OK(vb_store_cases(st, run_id, &rows, &nrows, &err));
    ASSERT_INT_EQ(nrows, 2);
    ASSERT_STR_EQ(rows[0].variant, "mesh/host-mesh");
    ASSERT_STR_EQ(rows[0].axes, "nx=1000,ny=1000");
    ASSERT_STR_EQ(rows[0].status, "ok");
    ASSERT_INT_EQ(rows[0].samples, 1);
    ASSERT_INT_EQ(rows[0].h2d_bytes, 32000000);
    ASSERT_NEAR(rows[0].e2e_median_ns, 500, 1e-9);
    ASSERT_NEAR(rows[0].max_abs_err, 1e-19, 1e-30);
    free(rows);
    ASSERT_OK(vb_store_count(st, "samples", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "CUPTI_ACTIVITY_KIND_MEMCPY", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "CUPTI_ACTIVITY_KIND_KERNEL", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "CUPTI_ACTIVITY_KIND_MEMSET", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 1);
    ASSERT_OK(vb_store_count(st, "NVTX_EVENTS", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "case_axes", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 2);
    ASSERT_OK(vb_store_count(st, "variants", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 1);
    ASSERT_OK(vb_store_count(st, "StringIds", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3); /* short and mangled kernel name and the NVTX text, once each */
    ASSERT_OK(vb_store_count(st, "ceilings", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, VB_CEIL_COUNT);
    ASSERT_INT_EQ(vb_store_count(st, "sqlite_master; DROP TABLE runs", 0, &cnt, &err), -1);
    vb_store_close(st);
    return 0;
}

static long file_bytes(const char *path, unsigned char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    long n;
    if (!f) return -1;
    n = (long)fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

int test_store_persists(const char *arg)
{
    struct vb_store *st;
    struct vb_err err;
    struct vb_run_info info = {"suite", "varbench run", NULL, "x", "0.1.0", ""};
    int64_t a, b, cnt;
    char path[512], status[32];
    fx_tmp_path(path, sizeof path, "persist.db");
    ASSERT_OK(vb_store_open(path, &st, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &a, &err));
    vb_store_close(st); /* never ended: must read as 'running', not complete */
    ASSERT_OK(vb_store_open(path, &st, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &b, &err));
    ASSERT(b > a);
    ASSERT_OK(vb_store_count(st, "runs", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 2);
    ASSERT_OK(vb_store_run_status(st, a, status, sizeof status, &err));
    ASSERT_STR_EQ(status, "running");
    vb_store_close(st);
    unlink(path);
    return 0;
}

/* refused opens path, expects a VB_E_DB refusal containing `what`, and the file unchanged. */
static int refused(const char *path, const char *what)
{
    static unsigned char before[1 << 16], after[1 << 16];
    struct vb_store *st = NULL;
    struct vb_err err;
    long nb = file_bytes(path, before, sizeof before), na;
    char journal[600];
    ASSERT(nb >= 0);
    ASSERT_INT_EQ(vb_store_open(path, &st, &err), -1);
    ASSERT(st == NULL);
    ASSERT_INT_EQ(err.code, VB_E_DB);
    ASSERT_CONTAINS(err.msg, what);
    ASSERT(err.hint[0]);
    na = file_bytes(path, after, sizeof after);
    ASSERT_INT_EQ(na, nb);
    ASSERT(memcmp(before, after, (size_t)nb) == 0);
    snprintf(journal, sizeof journal, "%s-journal", path);
    ASSERT(access(journal, F_OK) != 0);
    return 0;
}

int test_store_refuses_foreign(const char *arg)
{
    char path[512];
    sqlite3 *db;
    fx_tmp_path(path, sizeof path, "foreign.db");
    ASSERT_INT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    ASSERT_INT_EQ(sqlite3_exec(db, "CREATE TABLE notes(x); INSERT INTO notes VALUES (1);", NULL,
                               NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    if (refused(path, "not a varbench database")) return 1;
    unlink(path);
    return 0;
}

int test_store_refuses_newer(const char *arg)
{
    char path[512];
    sqlite3 *db;
    fx_tmp_path(path, sizeof path, "newer.db");
    ASSERT_INT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    ASSERT_INT_EQ(sqlite3_exec(db, "CREATE TABLE runs(x); PRAGMA user_version = 99;", NULL, NULL,
                               NULL), SQLITE_OK);
    sqlite3_close(db);
    if (refused(path, "newer")) return 1;
    unlink(path);
    return 0;
}

int test_store_refuses_corrupt(const char *arg)
{
    char path[512];
    unsigned char junk[8192];
    FILE *f;
    size_t i;
    fx_tmp_path(path, sizeof path, "corrupt.db");
    for (i = 0; i < sizeof junk; i++) junk[i] = (unsigned char)(i * 2654435761u >> 13);
    f = fopen(path, "wb");
    ASSERT(f);
    ASSERT_INT_EQ(fwrite(junk, 1, sizeof junk, f), sizeof junk);
    fclose(f);
    if (refused(path, "not a database")) return 1;
    unlink(path);
    return 0;
}

int test_store_refuses_unopenable(const char *arg)
{
    struct vb_store *st = NULL;
    struct vb_err err;
    ASSERT_INT_EQ(vb_store_open("/nonexistent-dir/sub/x.db", &st, &err), -1);
    ASSERT_INT_EQ(err.code, VB_E_DB);
    ASSERT(err.hint[0]);
    ASSERT_INT_EQ(vb_store_open("/tmp", &st, &err), -1); /* a folder, not a file */
    ASSERT_CONTAINS(err.msg, "not a regular file");
    return 0;
}

/* A case that fails to store (rolled back) leaves the store usable: the next case and its
 * records are written (the string-id cache is emptied, not freed twice). */
int test_store_after_rollback(const char *arg)
{
    struct vb_store *st;
    struct vb_err err;
    struct vb_run_info info = {"suite", "test", NULL, "x", "0", ""};
    struct vb_case_result r;
    struct vb_sample s[3];
    struct vb_copy_rec c[3];
    struct vb_kernel_rec k[3];
    struct vb_memset_rec m;
    struct vb_range_rec n[3];
    int64_t run_id, case_id, cnt;
    ASSERT_OK(vb_store_open(":memory:", &st, &err));
    ASSERT_OK(vb_store_run_begin(st, &info, &run_id, &err));
    fake_case(&r, s, c, k, &m, n);
    ASSERT_OK(vb_store_case(st, run_id, &r, NULL, &err));
    r.status = VB_STATUS_COUNT; /* not a status the schema accepts: the insert fails */
    ASSERT_INT_EQ(vb_store_case(st, run_id, &r, NULL, &err), -1);
    ASSERT_CONTAINS(err.msg, "CHECK");
    r.status = VB_STATUS_OK;
    ASSERT_OK(vb_store_case(st, run_id, &r, &case_id, &err));
    ASSERT_OK(vb_store_case(st, run_id, &r, NULL, &err));
    ASSERT_OK(vb_store_count(st, "cases", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "NVTX_EVENTS", case_id, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    ASSERT_OK(vb_store_count(st, "StringIds", 0, &cnt, &err));
    ASSERT_INT_EQ(cnt, 3);
    vb_store_close(st);
    return 0;
}
