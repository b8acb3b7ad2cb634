/* Export tests (no GPU): the placement of events on tracks, and `export --format trace` of the
 * export fixture (fixtures.c) checked against what the fixture wrote (the JSON itself is checked
 * by tests/trace_json_check.py from cli.sh's export-trace case); the cases' CSV and JSON of the
 * fixtures byte for byte as before the columns' table, and the new cells and summaries. */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "export_trace.h"
#include "fixtures.h"
#include "result.h"
#include "code_id.h"
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
        "\"name\":\"Memcpy PtoP (GPU 1 -> GPU 0)\"",
        "\"src device\":1,\"dst device\":0,\"src kind\":\"Device\"",
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

/* slurp returns the file at path as a malloc'd string, or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *s = NULL;
    long n;
    if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
        (s = calloc(1, (size_t)n + 1)) && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (f) fclose(f);
    return s;
}

/* gunzip returns tests/fixtures/<name> (gzip) decompressed into a malloc'd string, or NULL. */
static char *gunzip(const char *name)
{
    char cmd[1024], out[512];
    char *s;
    fx_tmp_path(out, sizeof out, "gunzip.out");
    snprintf(cmd, sizeof cmd, "gzip -dc '%s/fixtures/%s' > '%s'", VB_TESTS_DIR, name, out);
    s = system(cmd) == 0 ? slurp(out) : NULL;
    unlink(out);
    return s;
}

/* export_cmd runs `varbench export --db db [--run run] --format format` into a malloc'd string
 * (NULL when it fails). */
static char *export_cmd(const char *db, const char *run, const char *format)
{
    char out[512], *s;
    char *argv[] = {"export", "--db", (char *)db,           "--format",  (char *)format,
                    "-o",     out,    run ? "--run" : NULL, (char *)run, NULL};
    fx_tmp_path(out, sizeof out, "export.out");
    s = vb_cmd_export(run ? 9 : 7, argv) == 0 ? slurp(out) : NULL;
    unlink(out);
    return s;
}

/* same_as_gold: export of db in format is golden file `gold` (gzip) byte for byte. */
static int same_as_gold(const char *db, const char *format, const char *gold)
{
    char *got = export_cmd(db, NULL, format), *want = gunzip(gold);
    int same = got && want && !strcmp(got, want);
    if (!same)
        fprintf(stderr, "export --format %s of %s differs from fixtures/%s\n", format, db, gold);
    free(got);
    free(want);
    return same;
}

/* work_case fills *r with case `variant` at nx = ny = 1000 (device dev, -1 CPU-only), ok, one
 * sample, with the work declared (elements and flops; gmem bytes read and written) and
 * summaries names[0..ns). 0, or -1 with err for a variant the catalog lacks. */
static int work_case(struct vb_case_result *r, const char *variant, int dev, double elements,
                     uint64_t rd, uint64_t wr, const char *const *names, const double *values,
                     int ns, struct vb_err *err)
{
    double e2e = 1.0, kernel = 0.5, gpu = 0.6;
    int k;
    memset(r, 0, sizeof *r);
    if (fx_variant(variant, &r->family, &r->variant))
        return vb_err_set(err, VB_E_USAGE, "no variant");
    r->point.v[0] = r->point.v[1] = 1000;
    vb_point_format(r->variant->problem, &r->point, r->axes, sizeof r->axes);
    r->device = dev;
    r->status = VB_STATUS_OK;
    r->stop_reason = "fixture";
    r->have_records = dev >= 0;
    r->ntimed = 1;
    vb_stats_compute(&e2e, 1, &r->e2e_ms);
    vb_stats_compute(dev >= 0 ? &kernel : &e2e, 1, &r->kernel_ms);
    vb_stats_compute(dev >= 0 ? &gpu : &e2e, 1, &r->gpu_ms);
    r->elements = elements, r->flops = 2 * elements;
    r->gmem_read_bytes = rd, r->gmem_write_bytes = wr;
    for (k = 0; k < ns; k++) {
        snprintf(r->summaries[k].name, sizeof r->summaries[k].name, "%s", names[k]);
        r->summaries[k].value = values[k];
    }
    r->nsummaries = ns;
    return 0;
}

/* put_work_case writes work_case's case into run. 0, or -1 with err. */
static int put_work_case(struct vb_store *s, int64_t run, const char *variant, int dev,
                         double elements, uint64_t rd, uint64_t wr, const char *const *names,
                         const double *values, int ns, struct vb_err *err)
{
    struct vb_case_result r;
    if (work_case(&r, variant, dev, elements, rd, wr, names, values, ns, err)) return -1;
    return vb_store_case(s, run, &r, NULL, err);
}

/* ends_with: the line of text that holds `key` ends with `tail` (before its newline). */
static int line_ends(const char *text, const char *key, const char *tail)
{
    const char *p = strstr(text, key), *end;
    size_t n = strlen(tail);
    if (!p) return 0;
    end = strchr(p, '\n');
    return end && (size_t)(end - text) >= n && !strncmp(end - n, tail, n);
}

/* Every CSV header and JSON key export writes, but the summaries', is refused as a summary's
 * name: what keeps a summary from making two keys of one. */
static int names_refused(const char *csv, const char *json)
{
    char name[128], why[160];
    const char *p;
    size_t n;
    for (p = csv; *p && *p != '\n'; p += n + (p[n] == ',')) {
        n = strcspn(p, ",\n");
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        if (strncmp(name, "summary:", 8) && vb_store_summary_name_ok(name, why, sizeof why))
            TEST_FAIL_("CSV column '%s' is a name a summary may take", name);
    }
    for (p = strstr(json, "\n      \""); p; p = strstr(p + 1, "\n      \"")) {
        n = strcspn(p + 8, "\"");
        snprintf(name, sizeof name, "%.*s", (int)n, p + 8);
        if (strcmp(name, "iters") && strcmp(name, "occupancy") &&
            vb_store_summary_name_ok(name, why, sizeof why))
            TEST_FAIL_("JSON key '%s' is a name a summary may take", name);
    }
    return 0;
}

/* The work a case declares and its summaries in export: the CSV's columns after the others
 * (elements, flops, gmem bytes read and written, their rates, the ledger's energy and power,
 * then a summary:<name> column per name in the run), the JSON's keys where known (Google
 * Benchmark's bytes_per_second, items_per_second, and the summaries as user counters); merge
 * carries them; a summary cannot take a name export writes. */
int test_export_columns(const char *arg)
{
    static const char *const names[] = {"occupancy", "iters"};
    static const double values[] = {0.75, 12, 3};
    struct vb_run_info info = {"suite", "work", NULL, "x", "0", ""};
    struct vb_host_env host = {"h", "Debian", "Linux", "Fixture CPU", 2, 1 << 30};
    struct vb_gpu_env g;
    struct vb_store *s;
    struct vb_err err;
    char db[512], merged[512], why[160], *csv, *json, *again;
    int64_t run, count;
    int added;
    (void)arg;
    fx_tmp_path(db, sizeof db, "work.db");
    fx_tmp_path(merged, sizeof merged, "work-merged.db");
    vb_env_gpu_clear(&g);
    snprintf(g.name, sizeof g.name, "NVIDIA H100 80GB HBM3");
    ASSERT_OK(vb_store_open(db, &s, &err));
    ASSERT_OK(vb_store_run_begin(s, &info, &run, &err));
    ASSERT_OK(vb_store_host(s, run, &host, &err));
    ASSERT_OK(vb_store_gpu(s, run, &g, &err));
    ASSERT_OK(put_work_case(s, run, "mesh/device-mesh", 0, 1e6, 3000000, 1000000, names, values, 2,
                            &err));
    ASSERT_OK(
        put_work_case(s, run, "mesh/cpu-reference", -1, 5e5, 0, 0, names + 1, values + 2, 1, &err));
    ASSERT_OK(put_work_case(s, run, "mesh/host-mesh", 0, 0, 0, 0, NULL, NULL, 0, &err));
    /* a bad name keeps nothing of its case */
    ASSERT_INT_EQ(put_work_case(s, run, "mesh/host-mesh", 0, 0, 0, 0,
                                (const char *const[]){"kernel_ms"}, values, 1, &err),
                  -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    ASSERT_CONTAINS(err.msg, "'kernel_ms' is a cell of export");
    ASSERT_OK(vb_store_count(s, "cases", 0, &count, &err));
    ASSERT_INT_EQ(count, 3);
    ASSERT_OK(vb_store_run_end(s, run, "complete", 0, "", &err));
    vb_store_close(s);

    ASSERT((csv = export_cmd(db, NULL, "csv")) != NULL);
    ASSERT(line_ends(csv, "run_uuid,",
                     ",reason,crossover_axis,crossover_kind,crossover_size,"
                     "crossover_without_graph_kind,crossover_without_graph_size,"
                     "elements,flops,gmem_read_bytes,gmem_write_bytes,"
                     "bytes_per_second,items_per_second,energy_j,power_w,summary:iters,"
                     "summary:occupancy"));
    /* 4e6 B in 0.5 ms; 1e6 elements in 0.6 ms of GPU time, 5e5 in a CPU case's 1 ms; no
     * ledger: its two cells empty */
    ASSERT(line_ends(csv, "mesh/device-mesh,",
                     ",1000000,2000000,3000000,1000000,8e+09,1.66666667e+09,,,12,0.75"));
    ASSERT(line_ends(csv, "mesh/cpu-reference,", ",500000,1000000,,,,500000000,,,3,"));
    ASSERT(line_ends(csv, "mesh/host-mesh,", ",,,,,,,,,,"));
    ASSERT((json = export_cmd(db, NULL, "json")) != NULL);
    ASSERT_CONTAINS(json, "\"dropped_samples\": 0,\n      \"elements\": 1000000,\n"
                          "      \"flops\": 2000000,\n      \"gmem_read_bytes\": 3000000,\n"
                          "      \"gmem_write_bytes\": 1000000,\n"
                          "      \"bytes_per_second\": 8e+09,\n"
                          "      \"items_per_second\": 1.66666667e+09,\n      \"iters\": 12,\n"
                          "      \"occupancy\": 0.75\n    }");
    ASSERT_CONTAINS(json, "\"flops\": 1000000,\n      \"items_per_second\": 500000000,\n"
                          "      \"iters\": 3\n    }");
    ASSERT_CONTAINS(json, "\"dropped_samples\": 0\n    }"); /* host-mesh: nothing declared */
    if (names_refused(csv, json)) return 1;

    /* merged into a new file: the same export */
    ASSERT_OK(vb_store_open(merged, &s, &err));
    ASSERT_OK(vb_store_merge(s, db, &added, NULL, &err));
    ASSERT_INT_EQ(added, 1);
    ASSERT_OK(vb_store_count(s, "case_summaries", 0, &count, &err));
    ASSERT_INT_EQ(count, 3);
    vb_store_close(s);
    ASSERT((again = export_cmd(merged, NULL, "csv")) != NULL);
    ASSERT_STR_EQ(again, csv);
    free(again);
    ASSERT((again = export_cmd(merged, NULL, "json")) != NULL);
    ASSERT_STR_EQ(again, json);
    free(again);
    free(csv);
    free(json);
    unlink(db);
    unlink(merged);

    /* the names a summary may take */
    ASSERT(vb_store_summary_name_ok("bandwidth_hint", why, sizeof why));
    ASSERT(vb_store_summary_name_ok("a.b-c_9", NULL, 0));
    ASSERT(!vb_store_summary_name_ok("", why, sizeof why));
    ASSERT(!vb_store_summary_name_ok("a b", why, sizeof why));
    ASSERT_CONTAINS(why, "A-Z, a-z, 0-9");
    ASSERT(!vb_store_summary_name_ok("summary:x", why, sizeof why));
    ASSERT(!vb_store_summary_name_ok(
        "x234567890123456789012345678901234567890123456789012345678901234", why, sizeof why));
    ASSERT_CONTAINS(why, "1 to 63 characters");
    ASSERT(!vb_store_summary_name_ok("E2E_MEDIAN_NS", why, sizeof why));
    ASSERT_CONTAINS(why, "a column of the cases table");
    ASSERT(!vb_store_summary_name_ok("crossover_kind", why, sizeof why));
    ASSERT(!vb_store_summary_name_ok("real_time", why, sizeof why));
    ASSERT_CONTAINS(why, "a key of export's JSON");
    return 0;
}

/* header returns the first line of text, without its newline, in a malloc'd string. */
static char *header(const char *text)
{
    return strndup(text, strcspn(text, "\n"));
}

/* One CSV header for every database: a run without a GPU (a CPU case, a GPU case skipped; no
 * NVML, no work declared, no device row) exports the same header as a GPU run whose case has
 * everything (declared work, the ledger's energy and power, a floor), and as the golden exports
 * of old schemas (fixtures/export-*.csv.gz): the cells are empty where unknown. Only the
 * summary:NAME columns come from the data (none here). */
int test_export_header(const char *arg)
{
    struct vb_run_info info = {"suite", "header", NULL, "x", "0", ""};
    struct vb_gpu_env g;
    struct vb_case_result r;
    struct vb_store *s;
    struct vb_err err;
    char cpu_db[512], gpu_db[512], *cpu, *gpu, *h[4];
    int64_t run;
    int k;
    (void)arg;
    fx_tmp_path(cpu_db, sizeof cpu_db, "header-cpu.db");
    fx_tmp_path(gpu_db, sizeof gpu_db, "header-gpu.db");
    unlink(cpu_db);
    unlink(gpu_db);
    ASSERT_OK(vb_store_open(cpu_db, &s, &err));
    ASSERT_OK(vb_store_run_begin(s, &info, &run, &err));
    ASSERT_OK(put_work_case(s, run, "mesh/cpu-reference", -1, 0, 0, 0, NULL, NULL, 0, &err));
    ASSERT_OK(work_case(&r, "mesh/device-mesh", -1, 0, 0, 0, NULL, NULL, 0, &err));
    r.status = VB_STATUS_SKIPPED;
    snprintf(r.reason, sizeof r.reason, "no CUDA device");
    ASSERT_OK(vb_store_case(s, run, &r, NULL, &err));
    ASSERT_OK(vb_store_run_end(s, run, "complete", 0, "", &err));
    vb_store_close(s);

    vb_env_gpu_clear(&g);
    snprintf(g.name, sizeof g.name, "NVIDIA H200");
    ASSERT_OK(vb_store_open(gpu_db, &s, &err));
    ASSERT_OK(vb_store_run_begin(s, &info, &run, &err));
    ASSERT_OK(vb_store_gpu(s, run, &g, &err));
    ASSERT_OK(work_case(&r, "mesh/device-mesh", 0, 1e6, 3000000, 1000000, NULL, NULL, 0, &err));
    r.ledger.measured = 1, r.ledger.energy_j = 41.5, r.ledger.power_w = 415.5;
    r.floor_ns = 250000, r.floor_ratio = 2;
    snprintf(r.floor_bound, sizeof r.floor_bound, "dram");
    snprintf(r.floor_of, sizeof r.floor_of, "kernel");
    ASSERT_OK(vb_store_case(s, run, &r, NULL, &err));
    ASSERT_OK(vb_store_run_end(s, run, "complete", 0, "", &err));
    vb_store_close(s);

    ASSERT((cpu = export_cmd(cpu_db, NULL, "csv")) != NULL);
    ASSERT((gpu = export_cmd(gpu_db, NULL, "csv")) != NULL);
    ASSERT(line_ends(gpu, "mesh/device-mesh,", ",8e+09,1.66666667e+09,41.5,415.5"));
    ASSERT(line_ends(cpu, "mesh/device-mesh,", ",,,,,,,,"));
    ASSERT((h[0] = header(cpu)) != NULL && (h[1] = header(gpu)) != NULL);
    ASSERT((h[2] = gunzip("export-v7.csv.gz")) != NULL);
    ASSERT((h[3] = gunzip("export-ladders-h100.csv.gz")) != NULL);
    h[2][strcspn(h[2], "\n")] = h[3][strcspn(h[3], "\n")] = '\0';
    ASSERT_CONTAINS(h[0], ",floor_ms,");
    ASSERT_CONTAINS(h[0], ",energy_j,power_w");
    for (k = 1; k < 4; k++)
        ASSERT_STR_EQ(h[k], h[0]);
    for (k = 0; k < 4; k++)
        free(h[k]);
    free(cpu);
    free(gpu);
    unlink(cpu_db);
    unlink(gpu_db);
    return 0;
}

/* A case's cells come from the store's table of columns; export writes what it wrote before the
 * table, byte for byte (the golden files are 6eeff88's varbench export, the last commit before
 * it, with the CSV columns every export has since appended, empty: test_export_header): of the
 * schema-7 fixture read through its migration in memory, and of the ladders fixture (GPU cases
 * with floors and crossovers). `varbench migrate` brings the schema-7 file to this schema, the
 * table's columns and case_summaries with it, and exports it as before too; a merge into it
 * fills its variants' problem and flags. */
int test_export_fixtures(const char *arg)
{
    char db[512], src[512], cmd[1200], *sql;
    struct vb_run_info info = {"suite", "v8", NULL, "x", "0", ""};
    const struct vb_family *f;
    const struct vb_variant *v;
    struct vb_store *s;
    struct vb_err err;
    struct vb_migrate_result res;
    struct vb_run_row *runs;
    struct vb_case_row *rows;
    sqlite3 *h;
    int n, nr, i;
    int64_t count, run;
    (void)arg;
    fx_tmp_path(db, sizeof db, "v7.db");
    snprintf(cmd, sizeof cmd, "gzip -dc '%s/fixtures/schema-v7.db.gz' > '%s'", VB_TESTS_DIR, db);
    ASSERT_INT_EQ(system(cmd), 0);
    ASSERT(same_as_gold(db, "csv", "export-v7.csv.gz"));
    ASSERT(same_as_gold(db, "json", "export-v7.json.gz"));
    /* read through the migration: the new fields unknown */
    ASSERT_OK(vb_store_open_ro(db, &s, &err));
    ASSERT_OK(vb_store_runs(s, &runs, &nr, &err));
    ASSERT_INT_EQ(nr, 3);
    for (i = 0; i < nr; i++) {
        ASSERT_OK(vb_store_cases(s, runs[i].id, &rows, &n, &err));
        ASSERT_INT_EQ(n, i < 2 ? 2 : 0);
        if (n) {
            ASSERT_STR_EQ(rows[0].variant, "mesh/cpu-reference");
            ASSERT(rows[0].device_id == -1 && rows[0].is_reference && !rows[0].needs_gpu);
            ASSERT(!rows[0].problem[0] && rows[0].flags == -1 && !rows[0].gmem_read_bytes);
            ASSERT(isnan(rows[0].elements) && isnan(rows[1].flops) && !rows[1].gmem_write_bytes);
        }
        free(rows);
    }
    free(runs);
    ASSERT_OK(vb_store_count(s, "case_summaries", 0, &count, &err));
    ASSERT_INT_EQ(count, 0);
    vb_store_close(s);
    /* migrated on disk: schema 8, the same export */
    ASSERT_OK(vb_store_migrate(db, 0, &res, &err));
    ASSERT(res.from == 7 && res.to == VB_SCHEMA_VERSION && res.written);
    ASSERT(same_as_gold(db, "csv", "export-v7.csv.gz"));
    ASSERT_INT_EQ(sqlite3_open(db, &h), SQLITE_OK);
    ASSERT_INT_EQ(
        sqlite3_exec(h, "SELECT elements, problem, flags FROM cases, variants", NULL, NULL, NULL),
        SQLITE_OK);
    sqlite3_close(h);
    /* merged into: the variant the old file knew takes the source's problem and flags */
    fx_tmp_path(src, sizeof src, "v7-src.db");
    ASSERT_OK(vb_store_open(src, &s, &err));
    ASSERT_OK(vb_store_run_begin(s, &info, &run, &err));
    ASSERT_OK(put_work_case(s, run, "mesh/cpu-reference", -1, 0, 0, 0, NULL, NULL, 0, &err));
    ASSERT_OK(vb_store_run_end(s, run, "complete", 0, "", &err));
    vb_store_close(s);
    ASSERT_OK(vb_store_open(db, &s, &err));
    ASSERT_OK(vb_store_merge(s, src, &n, NULL, &err));
    ASSERT_OK(vb_store_cases(s, 1, &rows, &n, &err));
    ASSERT_OK(fx_variant("mesh/cpu-reference", &f, &v));
    ASSERT(n == 2 && !strcmp(rows[0].problem, v->problem->name) && rows[0].flags == (int)v->flags);
    free(rows);
    vb_store_close(s);
    unlink(src);
    unlink(db);
    unlink(res.bak);
    /* the ladders: an SQL dump of a schema-6 database */
    fx_tmp_path(db, sizeof db, "ladders.db");
    ASSERT((sql = gunzip("ladders-h100.sql.gz")) != NULL);
    ASSERT_INT_EQ(sqlite3_open(db, &h), SQLITE_OK);
    ASSERT_INT_EQ(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(h);
    free(sql);
    ASSERT(same_as_gold(db, "csv", "export-ladders-h100.csv.gz"));
    ASSERT(same_as_gold(db, "json", "export-ladders-h100.json.gz"));
    unlink(db);
    return 0;
}

/* The trace export's kernel events carry their SASS hash where the run stored one (the run's
 * code identity, exported), and no key where it did not. */
int test_export_sass(const char *arg)
{
    struct vb_store *s;
    struct vb_err err;
    struct vb_run_info info = {"suite", "export", NULL, "x", "0", ""};
    struct vb_case_result r;
    struct vb_sample smp[3];
    struct vb_copy_rec c[3];
    struct vb_kernel_rec k[3];
    struct vb_memset_rec m;
    struct vb_range_rec n[3];
    struct vb_export_trace_stats st;
    struct vb_code_entry code = {(char *)"_Z21mesh_host_mesh_kernelPKdS0_S0_S0_Pdm", 0xfeedull};
    int64_t run[2];
    char path[512], *out;
    int i;
    (void)arg;
    fx_tmp_path(path, sizeof path, "export-sass.db");
    ASSERT_OK(vb_store_open(path, &s, &err));
    for (i = 0; i < 2; i++) {
        fx_fake_case(&r, smp, c, k, &m, n);
        ASSERT_OK(vb_store_run_begin(s, &info, &run[i], &err));
        ASSERT_OK(vb_store_case(s, run[i], &r, NULL, &err));
        if (!i) ASSERT_OK(vb_store_kernel_code(s, run[i], &code, 1, &err));
        ASSERT_OK(vb_store_run_end(s, run[i], "complete", 0, "", &err));
    }
    ASSERT_OK(export_to(s, run[0], NULL, &out, &st, &err));
    ASSERT(strstr(out, "\"sass\":\"000000000000feed\""));
    free(out);
    ASSERT_OK(export_to(s, run[1], NULL, &out, &st, &err));
    ASSERT(strstr(out, "\"registers per thread\""));
    ASSERT(!strstr(out, "\"sass\""));
    free(out);
    vb_store_close(s);
    unlink(path);
    return 0;
}
