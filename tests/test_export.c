/* Trace export tests (no GPU): the placement of events on tracks, and `export --format trace`
 * of the export fixture (fixtures.c) checked against what the fixture wrote; the JSON itself
 * is checked by tests/trace_json_check.py from cli.sh's export-trace case. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export_trace.h"
#include "fixtures.h"
#include "store.h"
#include "test.h"
#include "tests.h"
#include "trace.h"
#include "tracks.h"

/* place puts [start, end] on thread (pid, thread) and checks its tid and whether it is new. */
#define PLACE(pid, thread, start, end, want_tid, want_new)                                         \
    do {                                                                                           \
        int new_;                                                                                  \
        struct vb_track *t_ = vb_tracks_place(t, pid, thread, start, end, &new_);                  \
        ASSERT(t_ != NULL);                                                                        \
        ASSERT_INT_EQ(t_->tid, want_tid);                                                          \
        ASSERT_INT_EQ(new_, want_new);                                                             \
    } while (0)

int test_export_lanes(const char *arg)
{
    struct vb_tracks *t = vb_tracks_new();
    struct vb_track *a, *b;
    int is_new, i;
    (void)arg;
    ASSERT(t != NULL);
    ASSERT_INT_EQ(vb_tracks_process(t, 5), 1);
    ASSERT_INT_EQ(vb_tracks_process(t, 5), 0);
    PLACE(5, 11, 0, 100, 1, 1);   /* a thread's first event: its track, tid 1 */
    PLACE(5, 11, 10, 50, 1, 0);   /* nests */
    PLACE(5, 11, 20, 30, 1, 0);   /* nests deeper */
    PLACE(5, 11, 40, 60, 2, 1);   /* overlaps [10, 50] without nesting: a lane */
    PLACE(5, 11, 50, 80, 1, 0);   /* [10, 50] has ended: nests in [0, 100] */
    PLACE(5, 11, 55, 58, 1, 0);   /* the first lane that holds it */
    PLACE(5, 11, 100, 120, 1, 0); /* follows */
    PLACE(5, 11, 110, 130, 2, 0); /* overlaps [100, 120]: the lane, empty again by now */
    PLACE(5, 12, 0, 10, 3, 1);    /* another thread of the process */
    PLACE(6, 11, 0, 10, 1, 1);    /* another process: its own tids */
    PLACE(5, -1, 5, 5, 4, 1);     /* no thread recorded, an event of no length */
    PLACE(5, -1, 5, 5, 4, 0);     /* an equal one nests */
    a = vb_tracks_gpu(t, 0, 0, 1, 7, &is_new);
    ASSERT(a && is_new && a->pid == VB_TRACKS_GPU_PID(0) && a->tid == 7 && a->last_end == -1);
    a->last_end = 99;
    b = vb_tracks_gpu(t, 0, 0, 1, 7, &is_new);
    ASSERT(b == a && !is_new && b->last_end == 99);
    b = vb_tracks_gpu(t, 0, 3, 1, 7, &is_new); /* stream 7 of another process on GPU 0 */
    ASSERT(b && is_new && b->tid == VB_TRACKS_DUP_TID + 1);
    b = vb_tracks_gpu(t, 0, 0, 2, 7, &is_new); /* and of another context */
    ASSERT(b && is_new && b->tid == VB_TRACKS_DUP_TID + 2);
    b = vb_tracks_gpu(t, 1, 0, 1, 7, &is_new); /* stream 7 on GPU 1 */
    ASSERT(b && is_new && b->pid == VB_TRACKS_GPU_PID(1) && b->tid == 7);
    for (i = 0; i < 20000; i++) { /* the table grows; earlier tracks stay where they are */
        int tid;
        struct vb_track *x = vb_tracks_place(t, 7, 1000 + i, i, i + 1, &is_new);
        ASSERT(x && is_new);
        tid = (int)x->tid;
        ASSERT_INT_EQ(tid, i + 1);
    }
    ASSERT(vb_tracks_gpu(t, 0, 0, 1, 7, &is_new) == a && !is_new && a->last_end == 99);
    vb_tracks_free(t);
    return 0;
}

/* export_to runs the trace export of run into a malloc'd string *out. */
static int export_to(struct vb_store *s, int64_t run, const char *glob, char **out,
                     struct vb_export_trace_stats *st, struct vb_err *err)
{
    struct vb_run_row *runs = NULL, *r = NULL;
    struct vb_export_trace *x;
    FILE *f = tmpfile();
    long n;
    int nr, i, rc = -1;
    *out = NULL;
    if (!f || vb_store_runs(s, &runs, &nr, err)) goto out;
    for (i = 0; i < nr; i++)
        if (runs[i].id == run) r = &runs[i];
    if (!r || vb_export_trace_open(s, r, glob, &x, err)) goto out;
    rc = vb_export_trace_write(x, f, "vbtest", st, err);
    vb_export_trace_close(x);
    if (rc) goto out;
    rc = -1;
    n = ftell(f);
    rewind(f);
    if (n < 0 || !(*out = calloc(1, (size_t)n + 1)) || fread(*out, 1, (size_t)n, f) != (size_t)n)
        goto out;
    rc = 0;
out:
    if (f) fclose(f);
    free(runs);
    return rc;
}

/* check_stats compares what an export says it wrote with what the fixture wrote. */
static int check_stats(const struct vb_export_trace_stats *st, const struct fx_export_want *w)
{
    int k;
    for (k = 0; k < VB_EXPORT_KINDS; k++) {
        ASSERT_INT_EQ(st->written[k], w->n[k]);
        ASSERT_INT_EQ(st->stored[k], w->n[k]);
    }
    ASSERT_INT_EQ(st->flows, w->flows);
    ASSERT_INT_EQ(st->flow_ends, w->flow_ends);
    ASSERT_INT_EQ(st->clamped, w->clamped);
    ASSERT_INT_EQ(st->lane_events, w->lane_events);
    ASSERT_INT_EQ(st->open_ranges, w->open_ranges);
    ASSERT_INT_EQ(st->spans, w->cases);
    ASSERT_INT_EQ(st->ncases, w->cases);
    return 0;
}

int test_export_trace(const char *arg)
{
    static const char *const want[] = {
        "\"name\":\"matmul(float const*, float const*, float*, int)\"",
        "\"name\":\"vb_fused\"",
        "\"name\":\"Memcpy HtoD (Pageable -> Device)\"",
        "\"name\":\"Memcpy DtoH (Device -> Pinned)\"",
        "\"name\":\"Memcpy PtoP (Device -> Device)\"",
        "\"name\":\"Memset (Device)\"",
        "\"clamped (ns)\":2}",
        "\"shared memory\":3072,\"grid\":[256,1,1],\"block\":[128,1,1]",
        "\"name\":\"GPU 1: NVIDIA H100 80GB HBM3\"",
        "\"name\":\"stream 7 (train.py, context 1)\"",
        "\"name\":\"train.py (pid 4343)\"",
        "\"name\":\"thread 11 (overlaps 1)\"",
        "\"name\":\"cases (overlaps 1)\"",
        "\"cat\":\"cuda_driver\",\"name\":\"cuLaunchKernel\"",
        "\"cat\":\"cuda_runtime\",\"name\":\"cudaFree\"",
        "\"return value\":1}",
        "\"open\":true}",
        "\"ts\":0.000,",
        "\"baseTimeNanoseconds\":1700000000000000000,",
        NULL};
    struct vb_store *s;
    struct vb_err err;
    struct fx_export_want tw, sw;
    struct vb_export_trace_stats st;
    int64_t trace_run, suite_run;
    char *out;
    int k;
    (void)arg;
    ASSERT_OK(vb_store_open(":memory:", &s, &err));
    ASSERT_OK(fx_write_export_runs(s, &trace_run, &tw, &suite_run, &sw, &err));
    ASSERT_OK(export_to(s, trace_run, NULL, &out, &st, &err));
    if (check_stats(&st, &tw)) return 1;
    for (k = 0; want[k]; k++)
        ASSERT_CONTAINS(out, want[k]);
    free(out);
    /* a glob on "family/variant", and on the family alone */
    ASSERT_OK(export_to(s, trace_run, "trace/train.*", &out, &st, &err));
    ASSERT_INT_EQ(st.ncases, 2);
    free(out);
    ASSERT(export_to(s, trace_run, "mesh/*", &out, &st, &err) == -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    ASSERT_CONTAINS(err.msg, "has no case matching 'mesh/*'");
    ASSERT_OK(export_to(s, suite_run, "mesh", &out, &st, &err));
    if (check_stats(&st, &sw)) return 1;
    ASSERT_CONTAINS(out, "\"name\":\"mesh/device-mesh nx=2000,ny=2000\"");
    ASSERT_CONTAINS(out, "\"name\":\"host (thread not recorded)\""); /* NVTX of schema < 5 */
    ASSERT(!strstr(out, "overlaps"));
    free(out);
    vb_store_close(s);
    return 0;
}

int test_make_export_fixture(const char *dir)
{
    static const char *const cats[] = {"kernel", "gpu_memcpy", "gpu_memset", "user_annotation"};
    struct vb_store *s;
    struct vb_err err;
    struct fx_export_want w[2];
    int64_t run[2];
    char path[1024];
    int i, k;
    if (!dir) TEST_FAIL_("%s", "make_export_fixture needs a folder");
    snprintf(path, sizeof path, "%s/export.db", dir);
    unlink(path);
    ASSERT_OK(vb_store_open(path, &s, &err));
    ASSERT_OK(fx_write_export_runs(s, &run[0], &w[0], &run[1], &w[1], &err));
    vb_store_close(s);
    /* what each run holds, as trace_json_check.py --expect takes it */
    for (i = 0; i < 2; i++) {
        printf("run %lld ", (long long)run[i]);
        for (k = 0; k < VB_EXPORT_API; k++)
            printf("%s=%lld,", cats[k], (long long)w[i].n[k]);
        printf("cuda_runtime=%lld,cuda_driver=%lld,flows=%lld,flow_ends=%lld,case=%lld\n",
               (long long)(w[i].n[VB_EXPORT_API] - w[i].driver_calls), (long long)w[i].driver_calls,
               (long long)w[i].flows, (long long)w[i].flow_ends, (long long)w[i].cases);
    }
    return 0;
}

/* One kernel of test_export_graph: [start, end] on stream 7, from graph g (0: none). */
static void put_kernel(struct vb_activity *a, uint64_t start, uint64_t end, uint32_t g)
{
    struct vb_kernel_rec *k = &a->kernels[a->nkernels++];
    memset(k, 0, sizeof *k);
    k->start = start, k->end = end, k->context = 1, k->stream = 7, k->graph = g;
    k->graph_node = g ? 100 + a->nkernels : 0;
    k->correlation = (uint32_t)a->nkernels;
    k->name = strdup("k");
}

/* Work that ran at the same time on one stream goes to a lane of it, as it happened: a CUDA
 * graph's branches at any overlap, other work past the timestamps' jitter (1 us); overlap
 * within the jitter is clamped as before. */
int test_export_graph(const char *arg)
{
    struct vb_store *s;
    struct vb_err err;
    struct vb_activity a;
    struct vb_trace_case t;
    struct vb_export_trace_stats st;
    struct vb_run_info info = {"trace", "varbench trace -- python3 g.py", NULL, NULL, NULL, NULL};
    int64_t run;
    char *out;
    (void)arg;
    memset(&a, 0, sizeof a);
    ASSERT((a.kernels = calloc(8, sizeof *a.kernels)) != NULL);
    a.cap_kernels = 8;
    put_kernel(&a, 1000, 2000, 3); /* a graph's first node */
    put_kernel(&a, 1500, 2500, 3); /* a branch beside it: a lane */
    put_kernel(&a, 2500, 3000, 3); /* after the first: its stream's track */
    put_kernel(&a, 2998, 4000, 0); /* 2 ns of jitter: clamped */
    put_kernel(&a, 10000, 20000, 0);
    put_kernel(&a, 13000, 24000, 0); /* 7 us at once (a dependent launch): a lane */
    vb_trace_case_init(&t, "g.py", &a, 900, 30000, "exit");
    ASSERT_OK(vb_store_open(":memory:", &s, &err));
    ASSERT_OK(vb_store_run_begin(s, &info, &run, &err));
    ASSERT_OK(vb_store_case(s, run, &t.r, NULL, &err));
    ASSERT_OK(vb_store_run_end(s, run, "complete", 0, "", &err));
    vb_trace_case_free(&t);
    ASSERT_OK(export_to(s, run, NULL, &out, &st, &err));
    ASSERT_INT_EQ(st.written[VB_EXPORT_KERNEL], 6);
    ASSERT_INT_EQ(st.concurrent, 2);
    ASSERT_INT_EQ(st.clamped, 1);
    ASSERT_CONTAINS(out, "\"name\":\"stream 7 (context 1, concurrent 1)\"");
    ASSERT_CONTAINS(out, "\"graph\":3,\"graph node\":102");
    ASSERT(!strstr(out, "concurrent 2")); /* one lane serves both: free again by the second */
    free(out);
    vb_store_close(s);
    return 0;
}
