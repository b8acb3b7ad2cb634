/*
 * export: `varbench export`: one run's cases as CSV (one row per case) or as JSON in Google
 * Benchmark's layout (context + benchmarks with mean/median/stddev/cv aggregates), so existing
 * dashboards and trackers read varbench's results; or one run's records as a Chrome trace
 * (export_trace.c), so Perfetto, chrome://tracing and Holistic Trace Analysis show its timeline.
 * A case's cells (the CSV's columns, the JSON's keys beyond Google Benchmark's own) are the
 * store's table of a case's columns (store_columns.h), then the case's summaries by name. The
 * CSV's header is the table's whatever the database holds (a run without NVML or without
 * declared work has the same columns as one with them, the cells empty), so exports join.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <unistd.h>

#include "cmd.h"
#include "crossover.h"
#include "glob.h"
#include "ranks.h"
#include "escape.h"
#include "export_trace.h"
#include "opt.h"
#include "result.h"
#include "store.h"
#include "store_columns.h"

static const int codes[] = {0, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "export",
    .synopsis = "[--db FILE] [--run ID] [--case GLOB] --format csv|json|trace [-o FILE]",
    .about = "Writes one run of the database for other tools. csv: one row per case; json: Google\n"
             "Benchmark's JSON (aggregates per case); trace: the run's CUPTI records as Chrome\n"
             "trace-event JSON, the format of PyTorch's profiler (Kineto). Needs no GPU.\n",
    .notes =
        "The trace format: open the file in https://ui.perfetto.dev (\"Open trace file\"), in\n"
        "chrome://tracing (\"Load\") or with Holistic Trace Analysis. Its tracks:\n"
        "  GPU d: NAME      one process per GPU (pid 1000000000 + d), one track per CUDA stream\n"
        "                   (tid = the stream id): kernels (demangled; args grid, block,\n"
        "                   registers, shared memory), copies (\"Memcpy HtoD (Pinned -> "
        "Device)\",\n"
        "                   bytes, GB/s) and memsets. Records that overlap the one before on\n"
        "                   their stream by a few ns are moved to its end: \"clamped (ns)\".\n"
        "  PROGRAM (pid N)  one process per traced process, one track per thread: CUDA API\n"
        "                   calls (cuda_runtime, cuda_driver) and NVTX ranges (user_annotation)\n"
        "                   nested as pushed; one that overlaps without nesting goes to a track\n"
        "                   of its own, \"thread T (overlaps 1)\". Arrows (ac2g) join each\n"
        "                   launching call to its GPU records by correlation id.\n"
        "  varbench run N   the cases one after another on the \"cases\" track, and host\n"
        "                   records that name no process.\n"
        "Times are us from the export's earliest record (baseTimeNanoseconds, CUPTI's clock: ns\n"
        "since the Unix epoch). The \"varbench\" object holds the run, its cases and the\n"
        "records stored and exported of each kind; export says both on stderr, and exits 3\n"
        "when they differ. --case GLOB takes the cases whose \"family/variant\" matches (a\n"
        "glob without '/' also matches the family): 'varbench export --case \"mesh/*\"'.\n",
    .codes = codes,
};

/* put_csv writes one CSV field, quoted when it holds a comma, quote or newline. */
static void put_csv(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void put_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.9g", v);
}

/* cross_cells writes case i's crossover cells (its group's swept axis, kind and size: the
 * interpolated size; the smallest where the GPU wins at every size; the largest where it wins at
 * none), five with a comma between; empty ones where its problem was not swept */
static void cross_cells(FILE *f, const struct vb_cross_run *cr, int i)
{
    static const char *const kind[] = {"", "at", "every size", "no size"};
    static const struct vb_crossover none = {VB_CROSS_UNKNOWN, 0, 0, 0};
    int j = cr->member ? cr->member[i] : -1, k;
    const struct vb_crossover *x = j >= 0 ? &cr->g[j].cross : NULL;
    if (!x || x->kind == VB_CROSS_UNKNOWN) {
        fputs(",,,,", f);
        return;
    }
    put_csv(f, cr->g[j].axis);
    for (k = 0; k < 2; k++, x = &cr->g[j].plain) { /* then without its graph rungs */
        if (k && !cr->g[j].graph) x = &none;
        fprintf(f, ",%s,", kind[x->kind]);
        if (x->kind != VB_CROSS_UNKNOWN)
            put_num(f, x->kind == VB_CROSS_AT ? x->at : x->kind == VB_CROSS_ALWAYS ? x->lo : x->hi);
    }
}

/* The summaries of a run's cases (case i's: v[i][0..n[i])), and the names among them, sorted. */
struct sums {
    struct vb_summary_value **v;
    int *n;
    const char **names;
    int nnames;
};

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void sums_free(struct sums *x, int n)
{
    int i;
    for (i = 0; x->v && i < n; i++)
        free(x->v[i]);
    free(x->v);
    free(x->n);
    free(x->names);
    memset(x, 0, sizeof *x);
}

/* read_sums reads the summaries of cases c[0..n) into *x (sums_free frees them). 0 or -1. */
static int read_sums(struct vb_store *s, const struct vb_case_row *c, int n, struct sums *x,
                     struct vb_err *err)
{
    int i, k, all = 0;
    memset(x, 0, sizeof *x);
    x->v = calloc((size_t)n + 1, sizeof *x->v);
    x->n = calloc((size_t)n + 1, sizeof *x->n);
    if (!x->v || !x->n) goto oom;
    for (i = 0; i < n; i++) {
        if (vb_store_case_summaries(s, c[i].id, &x->v[i], &x->n[i], err)) {
            sums_free(x, n);
            return -1;
        }
        all += x->n[i];
    }
    if (!(x->names = calloc((size_t)all + 1, sizeof *x->names))) goto oom;
    for (i = 0; i < n; i++)
        for (k = 0; k < x->n[i]; k++)
            x->names[x->nnames++] = x->v[i][k].name;
    qsort(x->names, (size_t)x->nnames, sizeof *x->names, by_name);
    for (i = k = 0; i < x->nnames; i++) /* each name once */
        if (!k || strcmp(x->names[k - 1], x->names[i])) x->names[k++] = x->names[i];
    x->nnames = k;
    return 0;
oom:
    sums_free(x, n);
    return vb_err_set(err, VB_E_SYS, "out of memory");
}

/* sum_of returns case i's summary called name, or NULL. */
static const struct vb_summary_value *sum_of(const struct sums *x, int i, const char *name)
{
    int k;
    for (k = 0; k < x->n[i]; k++)
        if (!strcmp(x->v[i][k].name, name)) return &x->v[i][k];
    return NULL;
}

/* csv_cell writes column col's cells of case i (of run), an unknown one empty. */
static void csv_cell(FILE *f, const struct vb_case_column *col, const struct vb_run_row *run,
                     const struct vb_case_row *c, int i, const struct vb_cross_run *cr)
{
    struct vb_cell_value v;
    if (col->cell.kind == VB_CELL_OWN) {
        if (!strcmp(col->name, "run"))
            fprintf(f, "%s,%lld", run->uuid, (long long)run->id);
        else if (!strcmp(col->name, "crossover"))
            cross_cells(f, cr, i);
        else
            assert(!"a cell of export's own that export does not write");
        return;
    }
    if (!vb_case_cell_value(col, &c[i], &v)) return;
    if (v.type == 't')
        put_csv(f, v.t);
    else if (v.type == 'i')
        fprintf(f, "%lld", (long long)v.i);
    else
        put_num(f, v.d);
}

/* export_csv writes the CSV of run's cases c[0..n) with their summaries sm: the table's cells,
 * every one whatever the cases hold (one header for every database, an unknown cell empty), then
 * a summary:NAME column for each name the cases stored. This can't fail. */
static void export_csv(FILE *f, const struct vb_run_row *run, const struct vb_case_row *c, int n,
                       const struct sums *sm)
{
    static struct vb_cross_run cr; /* static: 40 KB of groups */
    int i, k, j, first;
    if (vb_crossover_run(c, n, &cr))
        fprintf(stderr, "varbench export: out of memory: the crossover columns are empty\n");
    for (k = 0, first = 1; k < vb_case_ncolumns; k++)
        if (vb_case_columns[k].cell.csv) {
            fprintf(f, "%s%s", first ? "" : ",", vb_case_columns[k].cell.csv);
            first = 0;
        }
    for (j = 0; j < sm->nnames; j++)
        fprintf(f, ",summary:%s", sm->names[j]);
    fputc('\n', f);
    for (i = 0; i < n; i++) {
        for (k = 0, first = 1; k < vb_case_ncolumns; k++)
            if (vb_case_columns[k].cell.csv) {
                if (!first) fputc(',', f);
                csv_cell(f, &vb_case_columns[k], run, c, i, &cr);
                first = 0;
            }
        for (j = 0; j < sm->nnames; j++) {
            const struct vb_summary_value *x = sum_of(sm, i, sm->names[j]);
            fputc(',', f);
            if (x) put_num(f, x->value);
        }
        fputc('\n', f);
    }
    vb_crossover_run_free(&cr);
}

/* bench_name: "mesh/host-mesh/nx:1000/ny:1000", Google Benchmark's arg:value naming. */
static void bench_name(const struct vb_case_row *c, char *buf, size_t n)
{
    size_t k = (size_t)snprintf(buf, n, "%s/", c->variant);
    const char *a;
    for (a = c->axes; *a && k + 1 < n; a++)
        buf[k++] = *a == '=' ? ':' : *a == ',' ? '/' : *a;
    buf[k < n ? k : n - 1] = '\0';
}

static void json_str(FILE *f, const char *key, const char *v, int comma)
{
    fprintf(f, "      \"%s\": \"", key);
    vb_put_json(f, v);
    fprintf(f, "\"%s\n", comma ? "," : "");
}

/* open_bench starts one benchmark object (a comma before all but the first). */
static void open_bench(FILE *f, int *first, const char *name, const char *run_name)
{
    fprintf(f, "%s\n    {\n", *first ? "" : ",");
    *first = 0;
    json_str(f, "name", name, 1);
    json_str(f, "run_name", run_name, 1);
}

/* json_cells writes case r's keys beyond Google Benchmark's (the table's, in their order[0..no),
 * then its summaries), each after a comma. */
static void json_cells(FILE *f, const struct vb_case_row *r, const int *order, int no,
                       const struct vb_summary_value *sum, int nsum)
{
    int k;
    for (k = 0; k < no; k++) {
        const struct vb_case_column *col = &vb_case_columns[order[k]];
        struct vb_cell_value v;
        int known;
        if (!vb_case_cell_in_json(col, r)) continue;
        known = vb_case_cell_value(col, r, &v);
        fprintf(f, ",\n      \"%s\": ", col->cell.json);
        if (v.type == 't') {
            fputc('"', f);
            vb_put_json(f, v.t);
            fputc('"', f);
        } else if (v.type == 'i') {
            fprintf(f, "%lld", (long long)v.i);
        } else if (known && isfinite(v.d)) {
            fprintf(f, "%.*g", col->cell.digits, v.d);
        } else {
            fputc('0', f);
        }
    }
    for (k = 0; k < nsum; k++) /* Google Benchmark's user counters */
        if (isfinite(sum[k].value)) {
            fprintf(f, ",\n      \"");
            vb_put_json(f, sum[k].name);
            fprintf(f, "\": %.9g", sum[k].value);
        }
}

/* rank_lines writes the run's straggler lines (judge/ranks.h), "; " between them ("" for
 * none). 0 or -1 with err. */
static int rank_lines(struct vb_store *s, int64_t run_id, char *buf, size_t n, struct vb_err *err)
{
    struct vb_rank_spread *x;
    char line[1024];
    size_t used = 0;
    int nx, i;
    buf[0] = '\0';
    if (vb_rank_spreads(s, run_id, &x, &nx, err)) return -1;
    for (i = 0; i < nx && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? "; " : "",
                                 vb_rank_spread_text(&x[i], line, sizeof line));
    free(x);
    return 0;
}

/* export_json writes run's cases c[0..n) with their summaries sm as Google Benchmark's JSON. 0
 * or -1 with err. */
static int export_json(FILE *f, const struct vb_run_row *run, const struct vb_case_row *c, int n,
                       const struct sums *sm, const char *ranks, struct vb_err *err)
{
    static const char *const aggs[] = {"mean", "median", "stddev", "cv"};
    int *order = malloc(sizeof *order * (size_t)vb_case_ncolumns);
    int i, k, no, first = 1;
    if (!order) return vb_err_set(err, VB_E_SYS, "out of memory");
    no = vb_case_json_order(order);
    fprintf(f, "{\n  \"context\": {\n    \"date\": \"%s\",\n    \"host_name\": \"", run->start_utc);
    vb_put_json(f, run->host);
    fprintf(
        f,
        "\",\n    \"executable\": \"varbench\",\n    \"num_cpus\": %d,\n    \"mhz_per_cpu\": 0,\n"
        "    \"cpu_scaling_enabled\": false,\n    \"caches\": [],\n    \"load_avg\": [],\n"
        "    \"library_build_type\": \"release\",\n    \"varbench_run_uuid\": \"%s\",\n"
        "    \"varbench_git_commit\": \"",
        run->cpu_count, run->uuid);
    vb_put_json(f, run->git_commit);
    fprintf(f, "\",\n    \"gpu\": \"");
    vb_put_json(f, run->gpu);
    fprintf(f, "\",\n    \"varbench_crossover\": \"");
    {
        static struct vb_cross_run cr; /* static: 40 KB of groups */
        char line[4096];
        if (!vb_crossover_run(c, n, &cr)) {
            vb_crossover_line(cr.g, cr.ng, line, sizeof line);
            vb_put_json(f, line);
            vb_crossover_run_free(&cr);
        }
    }
    if (ranks[0]) { /* a multi-rank traced job: its straggler per range (judge/ranks.h) */
        fprintf(f, "\",\n    \"varbench_ranks\": \"");
        vb_put_json(f, ranks);
    }
    fprintf(f, "\"\n  },\n  \"benchmarks\": [");
    for (i = 0; i < n; i++) {
        char name[512];
        double mean = c[i].e2e_mean_ns / 1e6, sd = c[i].e2e_stdev_ns / 1e6;
        const double val[] = {mean, c[i].e2e_median_ns / 1e6, sd, mean > 0 ? sd / mean : NAN};
        bench_name(&c[i], name, sizeof name);
        if (strcmp(c[i].status, "ok")) {
            open_bench(f, &first, name, name);
            fprintf(f,
                    "      \"run_type\": \"iteration\",\n      \"family_index\": %d,\n"
                    "      \"per_family_instance_index\": 0,\n      \"repetitions\": 0,\n"
                    "      \"threads\": 1,\n      \"iterations\": 0,\n      \"error_occurred\": "
                    "true,\n",
                    i);
            {
                char msg[320];
                snprintf(msg, sizeof msg, "%s: %s", c[i].status, c[i].reason);
                json_str(f, "error_message", msg, 0);
            }
            fprintf(f, "    }");
            continue;
        }
        for (k = 0; k < 4; k++) {
            char full[600];
            snprintf(full, sizeof full, "%s_%s", name, aggs[k]);
            open_bench(f, &first, full, name);
            fprintf(f,
                    "      \"run_type\": \"aggregate\",\n      \"family_index\": %d,\n"
                    "      \"per_family_instance_index\": 0,\n      \"repetitions\": %d,\n"
                    "      \"threads\": 1,\n      \"aggregate_name\": \"%s\",\n"
                    "      \"aggregate_unit\": \"%s\",\n      \"iterations\": %d,\n",
                    i, c[i].samples, aggs[k], k == 3 ? "percentage" : "time", c[i].samples);
            fprintf(f, "      \"real_time\": ");
            fprintf(f, isfinite(val[k]) ? "%.9g" : "0", val[k]);
            fprintf(f, ",\n      \"cpu_time\": ");
            fprintf(f, isfinite(val[k]) ? "%.9g" : "0", val[k]);
            fprintf(f, ",\n      \"time_unit\": \"ms\"");
            json_cells(f, &c[i], order, no, sm->v[i], sm->n[i]);
            fprintf(f, "\n    }");
        }
    }
    fprintf(f, "\n  ]\n}\n");
    free(order);
    return 0;
}

/* say_counts writes n[VB_EXPORT_KINDS] as "12 kernels, 4 copies, ..." to stderr. */
static void say_counts(const int64_t *n)
{
    char buf[64];
    int k;
    for (k = 0; k < VB_EXPORT_KINDS; k++)
        fprintf(stderr, "%s%s", k ? ", " : "", vb_export_trace_kind_name(k, n[k], buf, sizeof buf));
}

/* say_stats writes what an export wrote, and what the database holds, on stderr. */
static void say_stats(const struct vb_export_trace_stats *st, int64_t run_id, const char *outpath)
{
    int64_t events = 0;
    int k;
    for (k = 0; k < VB_EXPORT_KINDS; k++)
        events += st->written[k];
    fprintf(stderr, "export: run %lld: ", (long long)run_id);
    say_counts(st->written);
    fprintf(stderr, " -> %lld events (+ %lld flows, %lld case span%s) in %s; stored records: ",
            (long long)events, (long long)st->flows, (long long)st->spans,
            st->spans == 1 ? "" : "s", outpath ? outpath : "standard output");
    say_counts(st->stored);
    fputc('\n', stderr);
    if (st->clamped)
        fprintf(stderr,
                "export: %lld GPU record%s overlapped the one before on its stream, by up to "
                "%lld ns: moved to its end (\"clamped (ns)\" in its args)\n",
                (long long)st->clamped, st->clamped == 1 ? "" : "s", (long long)st->clamped_max);
    if (st->concurrent)
        fprintf(stderr,
                "export: %lld GPU record%s ran at the same time as work of %s stream (a CUDA "
                "graph's branches): on a lane of the stream (\"concurrent\")\n",
                (long long)st->concurrent, st->concurrent == 1 ? "" : "s",
                st->concurrent == 1 ? "its" : "their");
    if (st->lane_events)
        fprintf(stderr,
                "export: %lld host event%s overlapped without nesting: on a track of %s own "
                "(\"overlaps\")\n",
                (long long)st->lane_events, st->lane_events == 1 ? "" : "s",
                st->lane_events == 1 ? "its" : "their");
}

/* export_trace writes the trace of run to outpath (NULL: standard output), refusing what it
 * can before the file is touched and removing a file it left half written, and says what it
 * wrote on stderr. 0 or -1 with err; VB_E_DB when the events written are not the records
 * stored. */
static int export_trace(const char *outpath, struct vb_store *s, const struct vb_run_row *run,
                        const char *glob, struct vb_err *err)
{
    struct vb_export_trace *x;
    struct vb_export_trace_stats st;
    FILE *f = stdout;
    char buf[64];
    int k, rc;
    if (vb_export_trace_open(s, run, glob, &x, err)) return -1;
    if (outpath && !(f = fopen(outpath, "w"))) {
        vb_export_trace_close(x);
        return vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", outpath, strerror(errno));
    }
    rc = vb_export_trace_write(x, f, vb_command_line, &st, err);
    vb_export_trace_close(x);
    if (outpath && fclose(f) && !rc)
        rc = vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", outpath, strerror(errno));
    if (rc) {
        if (outpath) unlink(outpath);
        return -1;
    }
    say_stats(&st, run->id, outpath);
    for (k = 0; k < VB_EXPORT_KINDS; k++)
        if (st.written[k] != st.stored[k]) {
            vb_err_set(err, VB_E_DB, "run %lld: the trace holds %s but the database %lld",
                       (long long)run->id,
                       vb_export_trace_kind_name(k, st.written[k], buf, sizeof buf),
                       (long long)st.stored[k]);
            return vb_err_hint(err, "a bug of export: please report it with the database");
        }
    return 0;
}

int vb_cmd_export(int argc, char **argv)
{
    static const char *const formats[] = {"csv", "json", "trace", NULL};
    const char *db = VB_DEFAULT_DB, *outpath = NULL, *glob = NULL;
    static char ranks[8192]; /* the straggler lines of a multi-rank traced run */
    struct vb_store *s;
    struct vb_err err;
    struct vb_run_row *runs = NULL, *run = NULL;
    struct vb_case_row *cases = NULL;
    struct sums sm = {NULL, NULL, NULL, 0};
    int64_t want = 0;
    int format = -1, n, nr, nc = 0, i, k, code = 0;
    FILE *f = stdout;
    const struct vb_opt opts[] = {
        VB_OPT_DB(&db, "database (default " VB_DEFAULT_DB ")"),
        VB_OPT_RUN("run", &want,
                   "run to export (default: the newest complete run; 'varbench runs'\n"
                   "lists them)"),
        VB_OPT_CHOICE(0, "format", "F", &format, formats,
                      "csv: one row per case; json: Google Benchmark's JSON layout;\n"
                      "trace: the records as Chrome trace JSON (Perfetto; see below)"),
        VB_OPT_STR(0, "case", "GLOB", &glob,
                   "the cases whose \"family/variant\" matches GLOB only (every format)"),
        VB_OPT_STR('o', NULL, "FILE", &outpath, "write there instead of standard output"),
        VB_OPT_END()};
    if ((code = vb_opt_parse(&usage, opts, argc, argv, &n))) return code == 1 ? 0 : code;
    if (format < 0) return vb_opt_error(&usage, "--format is needed (csv, json or trace)");
    if (outpath && !strcmp(outpath, "-")) outpath = NULL;
    if (vb_store_open_ro(db, &s, &err)) return vb_report_error("export", &err);
    if (!want && vb_store_latest_run(s, &want, &err)) goto fail;
    if (vb_store_runs(s, &runs, &nr, &err)) goto fail;
    for (i = 0; i < nr; i++)
        if (runs[i].id == want) run = &runs[i];
    if (!run) {
        vb_err_set(&err, VB_E_USAGE, "database '%s' has no run %lld", db, (long long)want);
        vb_err_hint(&err, "'varbench runs --db %s' lists its runs", db);
        goto fail;
    }
    if (format == 2) {
        if (export_trace(outpath, s, run, glob, &err)) goto fail;
        goto out;
    }
    if (vb_store_cases(s, run->id, &cases, &nc, &err)) goto fail;
    for (i = k = 0; glob && i < nc; i++) /* --case: the matching cases, in order */
        if (vb_variant_glob(glob, cases[i].family, cases[i].variant)) cases[k++] = cases[i];
    if (glob) nc = k;
    if (glob && !nc) {
        vb_store_export_no_case(run->id, glob, &err);
        goto fail;
    }
    if (read_sums(s, cases, nc, &sm, &err) || rank_lines(s, run->id, ranks, sizeof ranks, &err))
        goto fail;
    if (outpath && !(f = fopen(outpath, "w"))) {
        vb_err_set(&err, VB_E_SYS, "cannot write '%s'", outpath);
        goto fail;
    }
    i = 0;
    if (format == 0)
        export_csv(f, run, cases, nc, &sm);
    else
        i = export_json(f, run, cases, nc, &sm, ranks, &err);
    if (f != stdout && fclose(f) && !i)
        i = vb_err_set(&err, VB_E_SYS, "cannot write '%s'", outpath);
    if (i) goto fail;
    goto out;
fail:
    code = vb_report_error("export", &err);
out:
    sums_free(&sm, nc);
    free(runs);
    free(cases);
    vb_store_close(s);
    return code;
}
