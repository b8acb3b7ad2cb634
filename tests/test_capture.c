/* Capture tests (no GPU): --profile-from-start off and --capture-range nvtx:NAME cut a traced
 * process's records to the windows between cudaProfilerStart and Stop, or inside the NVTX
 * ranges of one name; GPU records follow the API call that launched them. And the API calls
 * recorded by default (api_set), which those windows are cut by. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

#include "api_set.h"
#include "capture.h"
#include "test.h"
#include "tests.h"

/* fx_capture fills a with: cudaProfilerStart [100,110] wrapping cuProfilerStart [102,108], a
 * launch [120,125] (corr 5) of a kernel that runs [200,300] past the stop, cudaProfilerStop
 * [400,410], a launch [500,505] (corr 6) of a kernel [600,700], a copy without a launch record
 * at [150,160], the NVTX ranges "compute" [115,450] and "other" [480,510], and "tail" never
 * closed from 900. */
static int fx_capture(struct vb_activity *a)
{
    static const struct {
        const char *name;
        uint64_t start, end;
        uint32_t corr;
    } api[] = {{"cudaProfilerStart_v4000", 100, 110, 1}, {"cuProfilerStart", 102, 108, 2},
               {"cudaLaunchKernel_v7000", 120, 125, 5},  {"cudaProfilerStop_v4000", 400, 410, 3},
               {"cuProfilerStop", 402, 408, 4},          {"cudaLaunchKernel_v7000", 500, 505, 6}};
    static const struct {
        const char *text;
        uint64_t start, end;
    } nvtx[] = {{"compute", 115, 450}, {"other", 480, 510}, {"tail", 900, 0}};
    size_t i;
    memset(a, 0, sizeof *a);
    a->apis = calloc(6, sizeof *a->apis);
    a->kernels = calloc(2, sizeof *a->kernels);
    a->copies = calloc(1, sizeof *a->copies);
    a->ranges = calloc(3, sizeof *a->ranges);
    if (!a->apis || !a->kernels || !a->copies || !a->ranges) return -1;
    for (i = 0; i < 6; i++) {
        a->apis[i].name = strdup(api[i].name);
        a->apis[i].start = api[i].start;
        a->apis[i].end = api[i].end;
        a->apis[i].correlation = api[i].corr;
    }
    a->napis = a->cap_apis = 6;
    for (i = 0; i < 2; i++) {
        a->kernels[i].name = strdup(i ? "_Z1bv" : "_Z1av");
        a->kernels[i].start = i ? 600 : 200;
        a->kernels[i].end = i ? 700 : 300;
        a->kernels[i].correlation = i ? 6 : 5;
    }
    a->nkernels = a->cap_kernels = 2;
    a->copies[0] = (struct vb_copy_rec){.start = 150, .end = 160, .bytes = 8};
    a->ncopies = a->cap_copies = 1;
    for (i = 0; i < 3; i++) {
        a->ranges[i].text = strdup(nvtx[i].text);
        a->ranges[i].start = nvtx[i].start;
        a->ranges[i].end = nvtx[i].end;
    }
    a->nranges = a->cap_ranges = 3;
    return 0;
}

int test_capture(const char *arg)
{
    struct vb_activity a;
    struct vb_capture c;
    struct vb_capture_result r;
    struct vb_err err;
    char buf[160];
    (void)arg;
    /* parsing, both ways */
    ASSERT_OK(vb_capture_parse("nvtx:compute", &c, &err));
    ASSERT_INT_EQ(c.kind, VB_CAPTURE_NVTX);
    ASSERT_STR_EQ(vb_capture_format(&c, buf, sizeof buf), "nvtx:compute");
    ASSERT_OK(vb_capture_parse("cudaProfilerApi", &c, &err));
    ASSERT_INT_EQ(c.kind, VB_CAPTURE_PROFILER_API);
    ASSERT(vb_capture_parse("nvtx:", &c, &err) == -1);
    ASSERT_CONTAINS(err.msg, "bad capture range 'nvtx:'");
    ASSERT(vb_capture_parse("hotkey", &c, &err) == -1);

    /* between the profiler calls: the first launch and its kernel (which ends past the stop),
     * the copy inside, the "compute" range that overlaps; not the second launch */
    ASSERT_OK(fx_capture(&a));
    ASSERT_OK(vb_capture_parse("cudaProfilerApi", &c, &err));
    ASSERT_OK(vb_capture_apply(&a, &c, 1000, &r));
    ASSERT_INT_EQ(r.windows, 1);
    ASSERT_INT_EQ(r.first, 110);
    ASSERT_INT_EQ(r.last, 400);
    ASSERT_INT_EQ(a.napis, 1);
    ASSERT_INT_EQ(a.apis[0].correlation, 5);
    ASSERT_INT_EQ(a.nkernels, 1);
    ASSERT_STR_EQ(a.kernels[0].name, "_Z1av");
    ASSERT_INT_EQ(a.ncopies, 1);
    ASSERT_INT_EQ(a.nranges, 1);
    ASSERT_STR_EQ(a.ranges[0].text, "compute");
    ASSERT_INT_EQ(r.dropped, 5 + 1 + 2);
    vb_activity_free(&a);

    /* inside "other": the second launch and its kernel, which runs after the range ends */
    ASSERT_OK(fx_capture(&a));
    ASSERT_OK(vb_capture_parse("nvtx:other", &c, &err));
    ASSERT_OK(vb_capture_apply(&a, &c, 1000, &r));
    ASSERT_INT_EQ(r.windows, 1);
    ASSERT_INT_EQ(a.napis, 1);
    ASSERT_INT_EQ(a.apis[0].correlation, 6);
    ASSERT_INT_EQ(a.nkernels, 1);
    ASSERT_STR_EQ(a.kernels[0].name, "_Z1bv");
    ASSERT_INT_EQ(a.ncopies, 0);
    vb_activity_free(&a);

    /* a kernel launched before the window that runs inside it stays out: it follows its
     * launch, which is on record (outside); only a record with no launch goes by its start */
    ASSERT_OK(fx_capture(&a));
    a.ranges[1].start = 190, a.ranges[1].end = 260; /* "other" over kernel a's start */
    ASSERT_OK(vb_capture_parse("nvtx:other", &c, &err));
    ASSERT_OK(vb_capture_apply(&a, &c, 1000, &r));
    ASSERT_INT_EQ(r.windows, 1);
    ASSERT_INT_EQ(a.napis, 0);
    ASSERT_INT_EQ(a.nkernels, 0);
    vb_activity_free(&a);

    /* a range never closed runs to the exit; a name never opened keeps nothing */
    ASSERT_OK(fx_capture(&a));
    ASSERT_OK(vb_capture_parse("nvtx:tail", &c, &err));
    ASSERT_OK(vb_capture_apply(&a, &c, 1000, &r));
    ASSERT_INT_EQ(r.last, 1000);
    ASSERT_INT_EQ(a.napis + a.nkernels + a.ncopies, 0);
    vb_activity_free(&a);
    ASSERT_OK(fx_capture(&a));
    ASSERT_OK(vb_capture_parse("nvtx:nowhere", &c, &err));
    ASSERT_OK(vb_capture_apply(&a, &c, 1000, &r));
    ASSERT_INT_EQ(r.windows, 0);
    ASSERT_INT_EQ(a.napis + a.nkernels + a.ncopies + a.nranges, 0);
    ASSERT_INT_EQ(r.dropped, 12);
    vb_activity_free(&a);

    /* the default keeps everything */
    ASSERT_OK(fx_capture(&a));
    ASSERT_OK(vb_capture_parse("all", &c, &err));
    ASSERT_OK(vb_capture_apply(&a, &c, 1000, &r));
    ASSERT_INT_EQ(a.napis + a.nkernels + a.ncopies + a.nranges, 12);
    vb_activity_free(&a);
    return 0;
}

/* named: how many runtime and driver functions this CUPTI names start with prefix (and, with
 * keep, that keep accepts) */
static size_t named(const char *prefix, int (*keep)(const char *))
{
    const CUpti_CallbackDomain domains[] = {CUPTI_CB_DOMAIN_RUNTIME_API,
                                            CUPTI_CB_DOMAIN_DRIVER_API};
    const uint32_t sizes[] = {CUPTI_RUNTIME_TRACE_CBID_SIZE, CUPTI_DRIVER_TRACE_CBID_SIZE};
    size_t d, n = 0;
    uint32_t cbid;
    for (d = 0; d < 2; d++)
        for (cbid = 1; cbid < sizes[d]; cbid++) {
            const char *name = NULL;
            if (cuptiGetCallbackName(domains[d], cbid, &name) == CUPTI_SUCCESS && name &&
                !strncmp(name, prefix, strlen(prefix)) && (!keep || keep(name)))
                n++;
        }
    return n;
}

static int count_call(CUpti_CallbackDomain dom, CUpti_CallbackId cbid, void *arg)
{
    (void)dom;
    (void)cbid;
    ++*(size_t *)arg;
    return 0;
}

/* The default set of traced API calls: every prefix names at least one function of this CUPTI
 * (a misspelt prefix keeps nothing), the calls that do work are in, the queries frameworks make
 * thousands of times a step are out, and the canary's call is in. And the calls the runner's
 * sample marks watch: each prefix names a function, and they are calls of the set. */
int test_api_set(const char *arg)
{
    static const char *const in[] = {"cudaLaunchKernel_v7000",
                                     "cudaLaunchKernelExC_v11060",
                                     "cudaMemcpyAsync_v3020",
                                     "cudaMemsetAsync_v3020",
                                     "cudaStreamSynchronize_v3020",
                                     "cudaGraphLaunch_v10000",
                                     "cudaProfilerStart_v4000",
                                     "cuLaunchKernel",
                                     "cuMemcpyHtoD_v2",
                                     "cuModuleLoadData",
                                     "cuDriverGetVersion"};
    static const char *const out[] = {
        "cudaGetDevice_v3020",      "cudaGetLastError_v3020",      "cudaPeekAtLastError_v3020",
        "cudaGetErrorString_v3020", "cudaFuncGetAttributes_v3020", "cudaStreamIsCapturing_v10000",
        "cuCtxGetCurrent",          "cuDevicePrimaryCtxGetState",  "cuKernelGetName",
        "cuKernelGetAttribute"};
    size_t i, names = named("", NULL), work = 0;
    const char *p;
    (void)arg;
    for (i = 0; i < sizeof in / sizeof in[0]; i++)
        if (!vb_api_set_keeps(in[i])) TEST_FAIL_("%s is not in the set", in[i]);
    for (i = 0; i < sizeof out / sizeof out[0]; i++)
        if (vb_api_set_keeps(out[i])) TEST_FAIL_("%s is in the set", out[i]);
    for (i = 0; (p = vb_api_set_prefix(i)); i++)
        if (!named(p, NULL)) TEST_FAIL_("prefix '%s' names no CUDA API function CUPTI knows", p);
    if (names < 500) TEST_FAIL_("CUPTI named only %zu API functions", names);
    for (i = 0; (p = vb_api_work_prefix(i)); i++) {
        if (!named(p, NULL)) TEST_FAIL_("work prefix '%s' names no CUDA API function", p);
        if (!vb_api_set_keeps(p)) TEST_FAIL_("work prefix '%s' is outside the set", p);
    }
    ASSERT(vb_api_each_work_call(count_call, &work) == 0);
    ASSERT(work >= 40); /* the launches, copies and memsets of both APIs, their variants */
    printf("api_set: %zu of %zu runtime and driver functions recorded by default; %zu put work "
           "on a GPU (the runner's sample marks)\n",
           named("", vb_api_set_keeps), names, work);
    return 0;
}
