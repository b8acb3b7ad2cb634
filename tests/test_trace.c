/* Trace tests (no GPU): the default names of traced programs, a traced process as a case, the
 * store's summary readers, and `varbench summary`'s exact tables on a fixture run. The
 * injection's exit paths are tested by cli.sh through trace_fake_driver. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"
#include "store.h"
#include "summary.h"
#include "test.h"
#include "tests.h"
#include "samples.h"
#include "trace.h"

#define T0 1700000000000000000ull /* a CLOCK_REALTIME ns timestamp */

static int label_is(const char *want, int argc, char *const *argv)
{
    char buf[96];
    vb_trace_label(argc, argv, buf, sizeof buf);
    if (strcmp(buf, want)) {
        fprintf(stderr, "label of '%s ...' is '%s', expected '%s'\n", argv[0], buf, want);
        return 1;
    }
    return 0;
}

int test_trace_label(const char *arg)
{
    char *a[] = {"/usr/bin/python3", "-u", "t38.py", "--n", "5"};
    char *b[] = {"python3", "-m", "pkg.tool", "x"};
    char *c[] = {"python3.12", "-W", "ignore", "/home/u/work/t2.py"};
    char *d[] = {"./build/tests/trace/trace_prog_c", "100"};
    char *e[] = {"env", "CUDA_VISIBLE_DEVICES=1", "-u", "X", "python", "run.py"};
    char *f[] = {"bash", "-c", "echo hi"};
    char *g[] = {"sh", "script.sh"};
    char *h[] = {"python3"};
    char *i[] = {"env"};
    (void)arg;
    return label_is("t38.py", 5, a) || label_is("pkg.tool", 4, b) || label_is("t2.py", 4, c) ||
           label_is("trace_prog_c", 2, d) || label_is("run.py", 6, e) || label_is("bash", 3, f) ||
           label_is("script.sh", 2, g) || label_is("python3", 1, h) || label_is("program", 1, i);
}

/* fx_trace_activity fills a with the records of a small traced program starting at t0: two
 * kernels (one C++, one extern "C" like CuPy's), 2 HtoD + 1 DtoH copies of 4,000,000 bytes, a
 * memset, two NVTX ranges and 9 API calls (runtime and driver), one of them at t0 - 500. */
static int fx_trace_activity(struct vb_activity *a, uint64_t t0)
{
    static const struct {
        const char *name;
        uint64_t at, dur;
    } kern[] = {{"_Z5saxpyifPKfPf", 10000, 1000},
                {"_Z5saxpyifPKfPf", 12000, 1200},
                {"_Z5saxpyifPKfPf", 14000, 1400},
                {"vb_saxpy", 16000, 800}};
    static const struct {
        uint64_t at, dur, bytes;
        int kind;
    } copy[] = {{2000, 2000, 4000000, 1}, {5000, 3000, 4000000, 1}, {20000, 2500, 4000000, 2}};
    static const struct {
        const char *name;
        int driver;
        uint64_t at, dur;
    } api[] = {{"cudaMalloc_v3020", 0, 0, 0},
               {"cudaMalloc_v3020", 0, 600, 400},
               {"cudaMemcpy_v3020", 0, 1900, 2200},
               {"cudaMemcpy_v3020", 0, 4900, 3200},
               {"cudaLaunchKernel_v7000", 0, 9000, 50},
               {"cudaLaunchKernel_v7000", 0, 9100, 30},
               {"cudaLaunchKernel_ptsz_v7000", 0, 9200, 40},
               {"cuLaunchKernel", 1, 15900, 20},
               {"cudaMemcpy_v3020", 0, 19000, 4000}};
    size_t k;
    memset(a, 0, sizeof *a);
    a->nkernels = sizeof kern / sizeof kern[0];
    a->ncopies = sizeof copy / sizeof copy[0];
    a->nmemsets = 1;
    a->nranges = 2;
    a->napis = sizeof api / sizeof api[0];
    a->kernels = calloc(a->nkernels, sizeof *a->kernels);
    a->copies = calloc(a->ncopies, sizeof *a->copies);
    a->memsets = calloc(1, sizeof *a->memsets);
    a->ranges = calloc(2, sizeof *a->ranges);
    a->apis = calloc(a->napis, sizeof *a->apis);
    if (!a->kernels || !a->copies || !a->memsets || !a->ranges || !a->apis) return -1;
    for (k = 0; k < a->nkernels; k++) {
        a->kernels[k].start = t0 + kern[k].at;
        a->kernels[k].end = t0 + kern[k].at + kern[k].dur;
        a->kernels[k].name = strdup(kern[k].name);
        a->kernels[k].grid[0] = 3907, a->kernels[k].block[0] = 256;
    }
    for (k = 0; k < a->ncopies; k++) {
        a->copies[k].start = t0 + copy[k].at;
        a->copies[k].end = t0 + copy[k].at + copy[k].dur;
        a->copies[k].bytes = copy[k].bytes;
        a->copies[k].copy_kind = (uint8_t)copy[k].kind;
    }
    a->memsets[0].start = t0 + 1000;
    a->memsets[0].end = t0 + 1500;
    a->memsets[0].bytes = 4000000;
    a->ranges[0].start = t0 + 500, a->ranges[0].end = t0 + 9000, a->ranges[0].id = 1;
    a->ranges[0].text = strdup("setup");
    a->ranges[1].start = t0 + 9000, a->ranges[1].end = t0 + 18000, a->ranges[1].id = 2;
    a->ranges[1].text = strdup("compute");
    for (k = 0; k < a->napis; k++) {
        /* the first call started before the injection's window: the window must grow */
        a->apis[k].start = k ? t0 + api[k].at : t0 - 500;
        a->apis[k].end = k ? t0 + api[k].at + api[k].dur : t0 + 100;
        a->apis[k].name = strdup(api[k].name);
        a->apis[k].driver = (uint8_t)api[k].driver;
        a->apis[k].correlation = (uint32_t)k + 1;
    }
    return 0;
}

int test_trace_case(const char *arg)
{
    struct vb_activity a;
    struct vb_trace_case t;
    (void)arg;
    ASSERT(fx_trace_activity(&a, T0) == 0);
    a.kernels[3].device = 1; /* one of four kernels elsewhere: the case is on device 0 */
    vb_trace_case_init(&t, "t38.py", &a, T0, T0 + 25000, "exit (pid 7)");
    ASSERT(a.kernels == NULL); /* moved */
    ASSERT_STR_EQ(t.r.family->name, "trace");
    ASSERT_STR_EQ(t.r.variant->name, "t38.py");
    ASSERT(t.r.variant->problem); /* what the store reads the case's axes from: none */
    ASSERT_INT_EQ(t.r.variant->problem->naxes, 0);
    ASSERT_STR_EQ(t.r.stop_reason, "exit (pid 7)");
    ASSERT_INT_EQ(t.r.status, VB_STATUS_OK);
    ASSERT_INT_EQ(t.r.nsamples, 1);
    ASSERT_INT_EQ(t.r.device, 0);
    ASSERT_INT_EQ(t.sample.start, T0 - 500); /* grown to the early API call */
    ASSERT_INT_EQ(t.sample.end, T0 + 25000);
    ASSERT_NEAR(t.r.e2e_ms.median, 25500 / 1e6, 1e-12);
    ASSERT_INT_EQ(t.r.h2d_count, 2);
    ASSERT_INT_EQ(t.r.h2d_bytes, 8000000);
    ASSERT_INT_EQ(t.r.d2h_count, 1);
    ASSERT_INT_EQ(t.r.d2h_bytes, 4000000);
    ASSERT_INT_EQ(t.r.kernel_count, 4);
    ASSERT_NEAR(t.r.kernel_ms.median, 4400 / 1e6, 1e-12);
    ASSERT_INT_EQ(t.sample.memset_count, 1);
    ASSERT(vb_sample_find(&t.r, T0 - 500) == 0 && vb_sample_find(&t.r, T0 + 25000) == 0);
    vb_trace_case_free(&t);
    vb_trace_case_untraced(&t, "t38.py", T0, T0 + 10, "exit (pid 8)", "another CUPTI client");
    ASSERT_INT_EQ(t.r.status, VB_STATUS_SKIPPED);
    ASSERT_STR_EQ(t.r.reason, "another CUPTI client");
    ASSERT_INT_EQ(t.r.have_records, 0);
    vb_trace_case_free(&t);
    return 0;
}

int test_summary_format(const char *arg)
{
    char b[64];
    (void)arg;
    ASSERT_STR_EQ(vb_summary_time(864, b, sizeof b), "864ns");
    ASSERT_STR_EQ(vb_summary_time(1184, b, sizeof b), "1.1840us");
    ASSERT_STR_EQ(vb_summary_time(787770, b, sizeof b), "787.77us");
    ASSERT_STR_EQ(vb_summary_time(999999, b, sizeof b), "1.0000ms");
    ASSERT_STR_EQ(vb_summary_time(11418000, b, sizeof b), "11.418ms");
    ASSERT_STR_EQ(vb_summary_time(183550000, b, sizeof b), "183.55ms");
    ASSERT_STR_EQ(vb_summary_time(2.5e9, b, sizeof b), "2.5000s");
    ASSERT_STR_EQ(vb_summary_time(NAN, b, sizeof b), "-");
    ASSERT_STR_EQ(vb_summary_api_name("cudaMemcpy_v3020", b, sizeof b), "cudaMemcpy");
    ASSERT_STR_EQ(vb_summary_api_name("cudaLaunchKernel_ptsz_v7000", b, sizeof b),
                  "cudaLaunchKernel");
    ASSERT_STR_EQ(vb_summary_api_name("cuMemcpyHtoDAsync_v2_ptsz", b, sizeof b),
                  "cuMemcpyHtoDAsync");
    ASSERT_STR_EQ(vb_summary_api_name("cuLaunchKernel", b, sizeof b), "cuLaunchKernel");
    ASSERT_STR_EQ(vb_summary_api_name("cuMemAlloc_v2", b, sizeof b), "cuMemAlloc");
    ASSERT_STR_EQ(vb_summary_api_name("cudaGraphAddMemcpyNode1D_v11010", b, sizeof b),
                  "cudaGraphAddMemcpyNode1D");
    ASSERT_STR_EQ(vb_summary_copy_name(1), "[CUDA memcpy HtoD]");
    ASSERT_STR_EQ(vb_summary_copy_name(8), "[CUDA memcpy DtoD]");
    ASSERT_STR_EQ(vb_summary_copy_name(99), "[CUDA memcpy Unknown]");
    return 0;
}

/* nvprof's print modes (summary --print-gpu-trace, the tracing cost line): what the GPU trace
 * shows of fx_trace_activity's records, and what tracing the first process cost. Kept apart
 * from fx_trace_activity so the two grow without touching each other. */
static const struct vb_trace_cost fx_cost = {85.3e6, 3.4e6, 41.0e6, 2.1e6, 14, 0};

/* fx_nvprof_fields fills the fields the GPU trace prints: the saxpy kernels (3907 1 1) x
 * (256 1 1), 32 registers, stream 7; vb_saxpy (20000 1 1) x (64 1 1), 16 registers, 1024 B
 * static and 256 B dynamic shared memory, on device 1 (which the run does not describe) and
 * stream 13; a pageable and a pinned HtoD, a DtoH to pageable memory, a memset of device
 * memory; correlation ids those of the API calls that launched them. */
static void fx_nvprof_fields(struct vb_activity *a)
{
    static const uint8_t src[] = {1, 2, 3}, dst[] = {3, 3, 1};
    static const uint32_t copy_corr[] = {3, 4, 9};
    size_t k;
    for (k = 0; k < a->nkernels; k++) {
        struct vb_kernel_rec *x = &a->kernels[k];
        int saxpy = k < 3;
        x->grid[0] = saxpy ? 3907 : 20000, x->grid[1] = x->grid[2] = 1;
        x->block[0] = saxpy ? 256 : 64, x->block[1] = x->block[2] = 1;
        x->registers = saxpy ? 32 : 16;
        x->static_smem = saxpy ? 0 : 1024, x->dynamic_smem = saxpy ? 0 : 256;
        x->device = saxpy ? 0 : 1, x->context = 1, x->stream = saxpy ? 7 : 13;
        x->correlation = (uint32_t)k + 5;
    }
    for (k = 0; k < a->ncopies && k < 3; k++) {
        a->copies[k].src_kind = src[k], a->copies[k].dst_kind = dst[k];
        a->copies[k].context = 1, a->copies[k].stream = 7;
        a->copies[k].correlation = copy_corr[k];
    }
    a->memsets[0].memory_kind = 3, a->memsets[0].context = 1, a->memsets[0].stream = 7;
    a->memsets[0].correlation = 2;
}

/* write_trace_run writes a trace run of two processes (the second untraced) on an H100 into s,
 * then a suite run; *trace_run is the trace run's id. */
static int write_trace_run(struct vb_store *s, int64_t *trace_run, struct vb_err *err)
{
    struct vb_run_info info = {
        "trace", "varbench trace -- python3 t38.py", "/tmp", "fixture", "0", "name=t38.py"};
    struct vb_host_env host = {"fixture-host", "Debian", "Linux", "Fixture CPU", 4, 1 << 30};
    static const struct fx_case suite[] = {{"device-mesh", 1000, 5, 2.0, "ok"}};
    struct vb_gpu_env g;
    struct vb_activity a;
    struct vb_trace_case t;
    int64_t suite_run, case_id;
    int rc;
    vb_env_gpu_clear(&g);
    snprintf(g.name, sizeof g.name, "NVIDIA H100 80GB HBM3");
    g.sm_clock_mhz = NAN;
    if (vb_store_run_begin(s, &info, trace_run, err) || vb_store_host(s, *trace_run, &host, err) ||
        vb_store_trace_gpu(s, *trace_run, &g, err) || vb_store_trace_gpu(s, *trace_run, &g, err))
        return -1;
    if (fx_trace_activity(&a, T0)) return vb_err_set(err, VB_E_SYS, "out of memory");
    fx_nvprof_fields(&a);
    vb_trace_case_init(&t, "t38.py", &a, T0, T0 + 25000, "exit (pid 7)");
    rc = vb_store_case(s, *trace_run, &t.r, &case_id, err);
    vb_trace_case_free(&t);
    if (rc || vb_store_trace_cost(s, case_id, &fx_cost, err)) return -1;
    vb_trace_case_untraced(&t, "t38.py", T0 + 30000, T0 + 40000, "exit (pid 8)",
                           "another CUPTI client is attached");
    rc = vb_store_case(s, *trace_run, &t.r, NULL, err);
    vb_trace_case_free(&t);
    if (rc ||
        vb_store_run_end(s, *trace_run, "complete", 0, "the program exited with status 0", err))
        return -1;
    return fx_write_run(s, "NVIDIA H100 80GB HBM3", suite, 1, &suite_run, err);
}

/* The summary of the fixture, every line (run header lines 1 and 2 vary with the clock). */
static const char *const want_summary[] = {
    "==varbench== the program exited with status 0",
    "==varbench== 2 traced processes",
    "  trace/t38.py: ok, 25.500us traced on NVIDIA H100 80GB HBM3 (device 0)",
    "  trace/t38.py: skipped, 10.000us traced on NVIDIA H100 80GB HBM3 (device 0): another CUPTI "
    "client is "
    "attached",
    "==varbench== tracing cost (pid 7): CUPTI start 85.3 ms, CUPTI overhead records 2.1 ms (14), "
    "flush at exit 3.4 ms, writing 41.0 ms, 0 records dropped",
    "==varbench== Profiling result:",
    "            Type  Time(%)      Time     Calls       Avg       Min       Max  Name",
    " GPU activities:   40.32%  5.0000us         2  2.5000us  2.0000us  3.0000us  [CUDA memcpy "
    "HtoD]",
    "                   29.03%  3.6000us         3  1.2000us  1.0000us  1.4000us  saxpy(int, "
    "float, float const*, float*)",
    "                   20.16%  2.5000us         1  2.5000us  2.5000us  2.5000us  [CUDA memcpy "
    "DtoH]",
    "                    6.45%     800ns         1     800ns     800ns     800ns  vb_saxpy",
    "                    4.03%     500ns         1     500ns     500ns     500ns  [CUDA memset]",
    "      API calls:   89.18%  9.4000us         3  3.1333us  2.2000us  4.0000us  cudaMemcpy",
    "                    9.49%  1.0000us         2     500ns     400ns     600ns  cudaMalloc",
    "                    1.14%     120ns         3      40ns      30ns      50ns  cudaLaunchKernel",
    "                    0.19%      20ns         1      20ns      20ns      20ns  cuLaunchKernel",
    "    NVTX ranges:   51.43%  9.0000us         1  9.0000us  9.0000us  9.0000us  compute",
    "                   48.57%  8.5000us         1  8.5000us  8.5000us  8.5000us  setup",
    "",
    "     Data moved:     Calls           Bytes     Avg bytes     Min bytes     Max bytes   "
    "Throughput  Name",
    "                         2         8000000       4000000       4000000       4000000  "
    "1600.00GB/s  [CUDA memcpy HtoD]",
    "                         1         4000000       4000000       4000000       4000000  "
    "1600.00GB/s  [CUDA memcpy DtoH]",
    "                         1         4000000       4000000       4000000       4000000  "
    "8000.00GB/s  [CUDA memset]",
    NULL};

/* check_summary compares the summary in file f (from line 3 on) with want_summary. */
static int check_summary(FILE *f)
{
    char line[4096];
    int k = 0, n = 0;
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (n++ < 2) continue;
        if (!want_summary[k]) TEST_FAIL_("extra summary line '%s'", line);
        if (strcmp(line, want_summary[k]))
            TEST_FAIL_("summary line %d:\n  got  '%s'\n  want '%s'", n, line, want_summary[k]);
        k++;
    }
    if (want_summary[k]) TEST_FAIL_("summary ends before '%s'", want_summary[k]);
    return 0;
}

int test_trace_summary(const char *arg)
{
    struct vb_store *s;
    struct vb_err err;
    struct vb_run_info_row info;
    struct vb_summary_row *rows;
    int64_t trace_run, latest, n;
    int nrows, rc;
    FILE *f;
    (void)arg;
    ASSERT_OK(vb_store_open(":memory:", &s, &err));
    ASSERT(vb_store_latest_trace(s, &latest, &err) == -1);
    ASSERT_CONTAINS(err.msg, "has no traced run");
    ASSERT_OK(write_trace_run(s, &trace_run, &err));
    ASSERT_OK(vb_store_latest_trace(s, &latest, &err));
    ASSERT_INT_EQ(latest, trace_run);
    ASSERT_OK(vb_store_count(s, "TARGET_INFO_GPU", 0, &n, &err));
    ASSERT_INT_EQ(n,
                  2); /* one for the trace run (written twice, kept once), one for the suite run */
    ASSERT_OK(vb_store_count(s, "CUPTI_ACTIVITY_KIND_RUNTIME", 0, &n, &err));
    ASSERT_INT_EQ(n, 9);
    ASSERT_OK(vb_store_run_info(s, trace_run, &info, &err));
    ASSERT_STR_EQ(info.kind, "trace");
    ASSERT_INT_EQ(info.ncases, 2);
    ASSERT_STR_EQ(info.gpu, "NVIDIA H100 80GB HBM3");
    ASSERT(vb_store_run_info(s, 99, &info, &err) == -1 && err.code == VB_E_USAGE);
    ASSERT_OK(vb_store_summary(s, trace_run, -1, &rows, &nrows, &err));
    ASSERT_INT_EQ(nrows, 2 + 2 + 1 + 5 + 2); /* kernels, copy kinds, memsets, API names, ranges */
    free(rows);
    f = tmpfile();
    ASSERT(f != NULL);
    ASSERT_OK(vb_summary_print(f, s, trace_run, &err));
    rc = check_summary(f);
    fclose(f);
    vb_store_close(s);
    return rc;
}

int test_make_trace_fixture(const char *dir)
{
    struct vb_store *s;
    struct vb_err err;
    char path[1024];
    int64_t run;
    if (!dir) TEST_FAIL_("%s", "make_trace_fixture needs a folder");
    snprintf(path, sizeof path, "%s/trace.db", dir);
    unlink(path);
    ASSERT_OK(vb_store_open(path, &s, &err));
    ASSERT_OK(write_trace_run(s, &run, &err));
    vb_store_close(s);
    return 0;
}

/* A process of three steps (NVTX 'step' at 0-10, 10-20, 20-30 us): in each step a runtime launch
 * and the driver call under it (one correlation id), a kernel and an NCCL kernel launched there;
 * step 2's work runs after the step's end (it counts for step 2); an H2D copy in step 1; in
 * step 2 a launch CUPTI made no record of (corr 6) and an event record (corr 7, no work); a
 * range 'rare' of 2 instances, a mark. */
static int three_steps(struct vb_activity *a)
{
    static const struct {
        uint64_t at;
        uint32_t corr;
        const char *name;
    } calls[] = {{1000, 1, "cudaLaunchKernel"},  {1100, 1, "cuLaunchKernel"},
                 {2000, 2, "cudaMemcpyAsync"},   {12000, 3, "cudaLaunchKernel"},
                 {12100, 3, "cuLaunchKernel"},   {22000, 4, "cudaLaunchKernel"},
                 {22500, 5, "cudaLaunchKernel"}, {15000, 6, "cudaLaunchKernel"},
                 {15500, 7, "cudaEventRecord"}};
    size_t k, ncalls = sizeof calls / sizeof calls[0];
    memset(a, 0, sizeof *a);
    a->apis = calloc(ncalls, sizeof *a->apis);
    a->kernels = calloc(5, sizeof *a->kernels);
    a->copies = calloc(1, sizeof *a->copies);
    a->ranges = calloc(6, sizeof *a->ranges);
    if (!a->apis || !a->kernels || !a->copies || !a->ranges) return -1;
    for (k = 0; k < ncalls; k++) {
        a->apis[k] = (struct vb_api_rec){.start = T0 + calls[k].at,
                                         .end = T0 + calls[k].at + 50,
                                         .correlation = calls[k].corr,
                                         .driver = (uint8_t)(calls[k].name[1] == 'u')};
        a->apis[k].name = strdup(calls[k].name);
    }
    a->napis = ncalls;
    /* kernels: corr 1 (1000 ns), 3 (2000 ns), 4 (NCCL 4000 ns, after step 2 ends), 5 (500) */
    a->kernels[0] = (struct vb_kernel_rec){.start = T0 + 3000, .end = T0 + 4000, .correlation = 1};
    a->kernels[1] =
        (struct vb_kernel_rec){.start = T0 + 14000, .end = T0 + 16000, .correlation = 3};
    a->kernels[2] =
        (struct vb_kernel_rec){.start = T0 + 29000, .end = T0 + 33000, .correlation = 4};
    a->kernels[3] =
        (struct vb_kernel_rec){.start = T0 + 33000, .end = T0 + 33500, .correlation = 5};
    a->kernels[0].name = strdup("_Z6matmulPKfS0_Pfi");
    a->kernels[1].name = strdup("_Z6matmulPKfS0_Pfi");
    a->kernels[2].name = strdup("ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    a->kernels[3].name = strdup("_Z4axpyfPKfPf");
    a->nkernels = 4;
    a->copies[0] = (struct vb_copy_rec){.start = T0 + 2500,
                                        .end = T0 + 2900,
                                        .bytes = 64,
                                        .correlation = 2,
                                        .copy_kind = VB_COPY_HTOD};
    a->ncopies = 1;
    for (k = 0; k < 3; k++)
        a->ranges[k] = (struct vb_range_rec){.start = T0 + 10000 * k,
                                             .end = T0 + 10000 * (k + 1),
                                             .type = VB_NVTX_PUSHPOP,
                                             .text = strdup("step")};
    a->ranges[3] = (struct vb_range_rec){
        .start = T0, .end = T0 + 100, .type = VB_NVTX_PUSHPOP, .text = strdup("rare")};
    a->ranges[4] = (struct vb_range_rec){
        .start = T0 + 200, .end = T0 + 300, .type = VB_NVTX_PUSHPOP, .text = strdup("rare")};
    a->ranges[5] = (struct vb_range_rec){
        .start = T0 + 5, .end = T0 + 5, .type = VB_NVTX_MARK, .text = strdup("mark")};
    a->nranges = 6;
    return 0;
}

int test_trace_samples(const char *arg)
{
    struct vb_activity a;
    struct vb_trace_pick p;
    struct vb_trace_case *x;
    struct vb_trace_who who = {"rank", 3};
    struct vb_err err;
    char note[512], buf[600];
    size_t n, i;
    (void)arg;
    ASSERT(three_steps(&a) == 0);
    /* auto: 'step' has 3 instances, under VB_TRACE_MIN_INSTANCES: nothing; named: the case */
    ASSERT_OK(vb_trace_pick_parse(NULL, NULL, &p, &err));
    ASSERT(p.automatic == 1);
    ASSERT_OK(vb_trace_sampled(&a, &p, "train.py", &who, 1, 1, 0, "exit (pid 9)", &x, &n, note,
                               sizeof note));
    ASSERT_INT_EQ(n, 0);
    ASSERT_OK(vb_trace_pick_parse("step\nnope", "*matmul*\nzz*", &p, &err));
    ASSERT_STR_EQ(vb_trace_pick_format(&p, 0, buf, sizeof buf), "step\nnope");
    ASSERT_OK(vb_trace_sampled(&a, &p, "train.py", &who, 1, 1, 0, "exit (pid 9)", &x, &n, note,
                               sizeof note));
    ASSERT_INT_EQ(n, 2);
    ASSERT_CONTAINS(note, "range 'nope': no instance");
    ASSERT_CONTAINS(note, "--kernel 'zz*': no kernel matched");
    ASSERT_STR_EQ(x[0].r.axes, "range=step,rank=3");
    ASSERT_INT_EQ(x[0].r.nsamples, 3);
    ASSERT_INT_EQ(x[0].r.device, 1);
    ASSERT_CONTAINS(x[0].r.stop_reason, "(pid 9)");
    ASSERT_INT_EQ(x[0].r.variant->problem->naxes, 2);
    /* step 1: corr 1 (once, though two calls carry it) and the copy; step 2: corr 3; step 3:
     * corr 4 and 5, run after the step's end */
    ASSERT_NEAR(x[0].samples[0].kernel_ns, 1000, 1e-9);
    ASSERT_INT_EQ(x[0].samples[0].kernel_count, 1);
    ASSERT_INT_EQ(x[0].samples[0].h2d_count, 1);
    ASSERT_NEAR(x[0].samples[0].h2d_ns, 400, 1e-9);
    ASSERT_NEAR(x[0].samples[1].kernel_ns, 2000, 1e-9);
    ASSERT_NEAR(x[0].samples[2].kernel_ns, 4500, 1e-9);
    ASSERT_NEAR(x[0].samples[2].comm_ns, 4000, 1e-9);
    ASSERT_NEAR(x[0].samples[2].gpu_ns, 4500, 1e-9);
    ASSERT_NEAR(x[0].samples[1].e2e_ns, 10000, 1e-9);
    ASSERT_NEAR(x[0].r.kernel_ms.median, 2000 / 1e6, 1e-12);
    /* the kernel glob: matmul's two launches, by its demangled name */
    ASSERT_STR_EQ(x[1].r.axes, "kernel=matmul,rank=3");
    ASSERT_INT_EQ(x[1].r.nsamples, 2);
    ASSERT_NEAR(x[1].samples[1].kernel_ns, 2000, 1e-9);
    for (i = 0; i < n; i++)
        vb_trace_case_free(&x[i]);
    free(x);
    /* CUPTI's records taken, its last kernel record at 19 us: step 2 launched a kernel with no
     * record, step 3 began after the last one: both have no GPU times (their counts stay), the
     * medians are step 1's */
    ASSERT_OK(vb_trace_pick_parse("step", NULL, &p, &err));
    ASSERT_OK(vb_trace_sampled(&a, &p, "train.py", &who, 1, 1, T0 + 19000, "exit (pid 9)", &x, &n,
                               note, sizeof note));
    ASSERT_INT_EQ(n, 1);
    ASSERT_CONTAINS(note, "range 'step': 2 of 3 instances launched work whose records are missing");
    ASSERT(isnan(x[0].samples[1].kernel_ns) && isnan(x[0].samples[1].gpu_ns));
    ASSERT(isnan(x[0].samples[2].kernel_ns) && isnan(x[0].samples[2].h2d_ns));
    ASSERT_INT_EQ(x[0].samples[1].kernel_count, 1);
    ASSERT_NEAR(x[0].samples[2].e2e_ns, 10000, 1e-9);
    ASSERT_NEAR(x[0].r.kernel_ms.median, 1000 / 1e6, 1e-12);
    ASSERT_INT_EQ((int)x[0].r.kernel_ms.n, 1);
    for (i = 0; i < n; i++)
        vb_trace_case_free(&x[i]);
    free(x);
    /* the same with CUPTI's last kernel record after the three steps: step 2's missing launch */
    ASSERT_OK(vb_trace_sampled(&a, &p, "train.py", &who, 1, 1, T0 + 40000, "exit (pid 9)", &x, &n,
                               note, sizeof note));
    ASSERT_CONTAINS(note, "1 of 3 instances");
    ASSERT(!isnan(x[0].samples[0].kernel_ns) && isnan(x[0].samples[1].kernel_ns));
    ASSERT_NEAR(x[0].samples[2].kernel_ns, 4500, 1e-9);
    /* without records (a process without CUDA): host times only */
    for (i = 0; i < n; i++)
        vb_trace_case_free(&x[i]);
    free(x);
    ASSERT_OK(vb_trace_pick_parse("step", NULL, &p, &err));
    ASSERT_OK(vb_trace_sampled(&a, &p, "train.py", NULL, -1, 0, 0, "exit (pid 9)", &x, &n, note,
                               sizeof note));
    ASSERT_INT_EQ(n, 1);
    ASSERT_STR_EQ(x[0].r.axes, "range=step");
    ASSERT_INT_EQ(x[0].r.have_records, 0);
    ASSERT_NEAR(x[0].samples[0].kernel_ns, 0, 1e-9);
    vb_trace_case_free(&x[0]);
    free(x);
    /* bad names */
    ASSERT(vb_trace_pick_add(&p, 0, "", &err) == -1 && err.code == VB_E_USAGE);
    ASSERT_OK(vb_trace_pick_parse("none", NULL, &p, &err));
    ASSERT(!vb_trace_pick_any(&p));
    ASSERT_STR_EQ(vb_trace_pick_format(&p, 0, buf, sizeof buf), "none");
    /* which processes are whole */
    ASSERT(vb_store_whole_process("trace", "rank=1") && vb_store_whole_process("trace", ""));
    ASSERT(!vb_store_whole_process("trace", "range=step,rank=1"));
    ASSERT(!vb_store_whole_process("trace", "kernel=matmul"));
    ASSERT(!vb_store_whole_process("mesh", "nx=1000"));
    ASSERT(vb_store_sampled_case("trace", "range=step,rank=1"));
    ASSERT(!vb_store_sampled_case("trace", "rank=1") && !vb_store_sampled_case("mesh", "nx=1"));
    vb_activity_free(&a);
    return 0;
}
