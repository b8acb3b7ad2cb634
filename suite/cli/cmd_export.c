/*
 * export: `varbench export`: one run's cases as CSV (one row per case) or as JSON in Google
 * Benchmark's layout (context + benchmarks with mean/median/stddev/cv aggregates), so existing
 * dashboards and trackers read varbench's results; or one run's records as a Chrome trace
 * (export_trace.c), so Perfetto, chrome://tracing and Holistic Trace Analysis show its timeline.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <unistd.h>

#include "cmd.h"
#include "crossover.h"
#include "escape.h"
#include "export_trace.h"
#include "opt.h"
#include "store.h"

static const int codes[] = {0, 2, 3, 6, -1};
static const struct vb_usage usage = {
    .cmd = "export",
    .synopsis = "[--db FILE] [--run ID] --format csv|json [-o FILE]\n"
                "[--db FILE] [--run ID] [--case GLOB] --format trace [-o FILE.json]",
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

/* cross_cells writes case i's crossover columns (its group's swept axis, kind and size: the
 * interpolated size; the smallest where the GPU wins at every size; the largest where it wins at
 * none); empty ones where its problem was not swept */
static void cross_cells(FILE *f, const struct vb_cross_run *cr, int i)
{
    static const char *const kind[] = {"", "at", "every size", "no size"};
    static const struct vb_crossover none = {VB_CROSS_UNKNOWN, 0, 0, 0};
    int j = cr->member ? cr->member[i] : -1, k;
    const struct vb_crossover *x = j >= 0 ? &cr->g[j].cross : NULL;
    if (!x || x->kind == VB_CROSS_UNKNOWN) {
        fputs(",,,,,", f);
        return;
    }
    fputc(',', f);
    put_csv(f, cr->g[j].axis);
    for (k = 0; k < 2; k++, x = &cr->g[j].plain) { /* then without its graph rungs */
        if (k && !cr->g[j].graph) x = &none;
        fprintf(f, ",%s,", kind[x->kind]);
        if (x->kind != VB_CROSS_UNKNOWN)
            put_num(f, x->kind == VB_CROSS_AT ? x->at : x->kind == VB_CROSS_ALWAYS ? x->lo : x->hi);
    }
}

static void export_csv(FILE *f, const struct vb_run_row *run, const struct vb_case_row *c, int n)
{
    static struct vb_cross_run cr; /* static: 40 KB of groups */
    int i;
    if (vb_crossover_run(c, n, &cr))
        fprintf(stderr, "varbench export: out of memory: the crossover columns are empty\n");
    fputs("run_uuid,run_id,variant,axes,device,status,samples,e2e_median_ms,e2e_mean_ms,"
          "e2e_stdev_ms,e2e_min_ms,e2e_max_ms,kernel_median_ms,h2d_median_ms,d2h_median_ms,"
          "gpu_median_ms,memset_median_ms,"
          "h2d_bytes,h2d_count,d2h_bytes,d2h_count,max_abs_err,max_rel_err,gst_efficiency_pct,"
          "metrics_status,cache,gpu_ci_pct,stop_reason,sm_clock_min_mhz,sm_clock_median_mhz,"
          "dropped_samples,floor_ms,floor_ratio,floor_bound,floor_of,reason,crossover_axis,"
          "crossover_kind,crossover_size,crossover_without_graph_kind,"
          "crossover_without_graph_size\n",
          f);
    for (i = 0; i < n; i++) {
        const double v[] = {c[i].e2e_median_ns,   c[i].e2e_mean_ns,   c[i].e2e_stdev_ns,
                            c[i].e2e_min_ns,      c[i].e2e_max_ns,    c[i].kernel_median_ns,
                            c[i].h2d_median_ns,   c[i].d2h_median_ns, c[i].gpu_median_ns,
                            c[i].memset_median_ns};
        size_t k;
        fprintf(f, "%s,%lld,", run->uuid, (long long)run->id);
        put_csv(f, c[i].variant);
        fputc(',', f);
        put_csv(f, c[i].axes);
        fputc(',', f);
        put_csv(f, c[i].device);
        fprintf(f, ",%s,%d", c[i].status, c[i].samples);
        for (k = 0; k < sizeof v / sizeof v[0]; k++) {
            fputc(',', f);
            put_num(f, v[k] / 1e6);
        }
        fprintf(f, ",%lld,%lld,%lld,%lld,", (long long)c[i].h2d_bytes, (long long)c[i].h2d_count,
                (long long)c[i].d2h_bytes, (long long)c[i].d2h_count);
        put_num(f, c[i].max_abs_err);
        fputc(',', f);
        put_num(f, c[i].max_rel_err);
        fputc(',', f);
        put_num(f, c[i].gst_efficiency);
        fprintf(f, ",%s,%s,", c[i].metrics_status, c[i].cache);
        put_num(f, c[i].gpu_ci_pct);
        fputc(',', f);
        put_csv(f, c[i].stop_reason);
        fputc(',', f);
        put_num(f, c[i].clock_min_mhz);
        fputc(',', f);
        put_num(f, c[i].clock_median_mhz);
        fprintf(f, ",%d,", c[i].dropped_samples);
        put_num(f, c[i].floor_ms);
        fputc(',', f);
        put_num(f, c[i].floor_ratio);
        fprintf(f, ",%s,%s,", c[i].floor_bound, c[i].floor_of);
        put_csv(f, c[i].reason);
        cross_cells(f, &cr, i);
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

static void export_json(FILE *f, const struct vb_run_row *run, const struct vb_case_row *c, int n)
{
    static const char *const aggs[] = {"mean", "median", "stddev", "cv"};
    int i, k, first = 1;
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
            fprintf(f,
                    ",\n      \"time_unit\": \"ms\",\n      \"h2d_bytes\": %lld,\n"
                    "      \"d2h_bytes\": %lld,\n      \"kernel_ms\": ",
                    (long long)c[i].h2d_bytes, (long long)c[i].d2h_bytes);
            fprintf(f, isfinite(c[i].kernel_median_ns) ? "%.9g" : "0", c[i].kernel_median_ns / 1e6);
            fprintf(f, ",\n      \"gpu_ms\": ");
            fprintf(f, isfinite(c[i].gpu_median_ns) ? "%.9g" : "0", c[i].gpu_median_ns / 1e6);
            fprintf(f, ",\n      \"cache\": \"%s\",\n      \"sm_clock_min_mhz\": ", c[i].cache);
            fprintf(f, isfinite(c[i].clock_min_mhz) ? "%.6g" : "0", c[i].clock_min_mhz);
            fprintf(f, ",\n      \"sm_clock_median_mhz\": ");
            fprintf(f, isfinite(c[i].clock_median_mhz) ? "%.6g" : "0", c[i].clock_median_mhz);
            fprintf(f, ",\n      \"dropped_samples\": %d", c[i].dropped_samples);
            if (isfinite(c[i].floor_ms) && isfinite(c[i].floor_ratio))
                fprintf(f,
                        ",\n      \"floor_ms\": %.9g,\n      \"floor_ratio\": %.6g,\n"
                        "      \"floor_bound\": \"%s\",\n      \"floor_of\": \"%s\"",
                        c[i].floor_ms, c[i].floor_ratio, c[i].floor_bound, c[i].floor_of);
            fprintf(f, "\n    }");
        }
    }
    fprintf(f, "\n  ]\n}\n");
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
    struct vb_store *s;
    struct vb_err err;
    struct vb_run_row *runs = NULL, *run = NULL;
    struct vb_case_row *cases = NULL;
    int64_t want = 0;
    int format = -1, n, nr, nc, i, code = 0;
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
                   "trace: the cases whose \"family/variant\" matches GLOB only"),
        VB_OPT_STR('o', NULL, "FILE", &outpath, "write there instead of standard output"),
        VB_OPT_END()};
    if ((code = vb_opt_parse(&usage, opts, argc, argv, &n))) return code == 1 ? 0 : code;
    if (format < 0) return vb_opt_error(&usage, "--format is needed (csv, json or trace)");
    if (glob && format != 2) return vb_opt_error(&usage, "--case goes with --format trace");
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
    if (outpath && !(f = fopen(outpath, "w"))) {
        vb_err_set(&err, VB_E_SYS, "cannot write '%s'", outpath);
        goto fail;
    }
    if (format == 0)
        export_csv(f, run, cases, nc);
    else
        export_json(f, run, cases, nc);
    if (f != stdout && fclose(f)) {
        vb_err_set(&err, VB_E_SYS, "cannot write '%s'", outpath);
        goto fail;
    }
    goto out;
fail:
    code = vb_report_error("export", &err);
out:
    free(runs);
    free(cases);
    vb_store_close(s);
    return code;
}
