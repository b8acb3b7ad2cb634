/* summary: nvprof's tables from the database (see summary.h). */
#include "summary.h"

#include "metric_set.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "ptable.h"

char *vb_summary_time(double ns, char *buf, size_t n)
{
    static const char *const units[] = {"us", "ms", "s"};
    double v;
    int u;
    if (!isfinite(ns)) {
        snprintf(buf, n, "-");
        return buf;
    }
    if (ns < 999.5) {
        snprintf(buf, n, "%.0fns", ns);
        return buf;
    }
    v = ns / 1e3;
    for (u = 0; u < 2 && v >= 999.995; u++)
        v /= 1e3;
    snprintf(buf, n, v >= 99.9995 ? "%.2f%s" : v >= 9.99995 ? "%.3f%s" : "%.4f%s", v, units[u]);
    return buf;
}

char *vb_summary_api_name(const char *cupti_name, char *buf, size_t n)
{
    int changed = 1;
    snprintf(buf, n, "%s", cupti_name);
    while (changed) {
        char *us = strrchr(buf, '_');
        changed = 0;
        if (!us || us == buf) break;
        if (!strcmp(us, "_ptsz") || !strcmp(us, "_ptds")) {
            *us = '\0';
            changed = 1;
        } else if (us[1] == 'v' && us[2] && strspn(us + 2, "0123456789") == strlen(us + 2)) {
            *us = '\0';
            changed = 1;
        }
    }
    return buf;
}

const char *vb_summary_copy_name(int copy_kind)
{
    static const char *const names[] = {
        "[CUDA memcpy Unknown]", "[CUDA memcpy HtoD]", "[CUDA memcpy DtoH]", "[CUDA memcpy HtoA]",
        "[CUDA memcpy AtoH]",    "[CUDA memcpy AtoA]", "[CUDA memcpy AtoD]", "[CUDA memcpy DtoA]",
        "[CUDA memcpy DtoD]",    "[CUDA memcpy HtoH]", "[CUDA memcpy PtoP]"};
    return copy_kind >= 0 && copy_kind < (int)(sizeof names / sizeof names[0]) ? names[copy_kind]
                                                                               : names[0];
}

char *vb_summary_kernel_name(const char *mangled, char *buf, size_t n)
{
    char *d = vb_summary_demangle(mangled);
    snprintf(buf, n, "%s", d ? d : mangled);
    free(d);
    return buf;
}

long vb_summary_pid(const struct vb_case_row *c)
{
    const char *p = strstr(c->stop_reason, "(pid ");
    char *end;
    long pid;
    if (!p) return -1;
    pid = strtol(p + 5, &end, 10);
    return end != p + 5 && *end == ')' && pid > 0 ? pid : -1;
}

/* put_line writes s shown for a terminal (escape.h: a stored string may hold a newline or ESC)
 * and ends the line. */
static void put_line(FILE *out, const char *s)
{
    vb_put_term(out, s);
    fputc('\n', out);
}

/* display_name writes what the Name column shows for row r. */
static void display_name(const struct vb_summary_row *r, char *buf, size_t n)
{
    switch (r->kind) {
    case VB_SUM_KERNEL:
        vb_summary_kernel_name(r->name, buf, n);
        break;
    case VB_SUM_MEMCPY: /* a peer copy's row names its two GPUs ("GPU 0 -> GPU 1") */
        snprintf(buf, n, "%s%s%s", vb_summary_copy_name(r->sub), r->name[0] ? " " : "", r->name);
        break;
    case VB_SUM_MEMSET:
        snprintf(buf, n, "[CUDA memset]");
        break;
    case VB_SUM_API:
        vb_summary_api_name(r->name, buf, n);
        break;
    default:
        snprintf(buf, n, "%s", r->name);
    }
}

/* A table line: the row's numbers under the name it is shown by. */
struct line {
    char name[2048];
    const struct vb_summary_row *row;
    int64_t calls, bytes, min_bytes, max_bytes;
    double total_ns, min_ns, max_ns;
};

static int by_time(const void *a, const void *b)
{
    const struct line *x = a, *y = b;
    if (x->total_ns != y->total_ns) return x->total_ns < y->total_ns ? 1 : -1;
    return strcmp(x->name, y->name);
}

static int by_bytes(const void *a, const void *b)
{
    const struct line *x = a, *y = b;
    if (x->bytes != y->bytes) return x->bytes < y->bytes ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* gather makes the lines of the rows whose kind is in kinds (a bit mask), merging rows shown
 * under one name (an API function traced under two CUPTI names). Returns the count, or -1. */
static int gather(const struct vb_summary_row *rows, int n, unsigned kinds, struct line **out)
{
    struct line *l = calloc((size_t)n + 1, sizeof *l);
    int i, k, m = 0;
    *out = l;
    if (!l) return -1;
    for (i = 0; i < n; i++) {
        char name[sizeof l->name];
        if (!(kinds & (1u << rows[i].kind))) continue;
        display_name(&rows[i], name, sizeof name);
        for (k = 0; k < m && strcmp(l[k].name, name); k++) {
        }
        if (k == m) {
            memcpy(l[m].name, name, sizeof name);
            l[m].row = &rows[i];
            l[m].min_ns = rows[i].min_ns;
            l[m].max_ns = rows[i].max_ns;
            l[m].min_bytes = rows[i].min_bytes;
            l[m].max_bytes = rows[i].max_bytes;
            m++;
        } else {
            if (rows[i].min_ns < l[k].min_ns) l[k].min_ns = rows[i].min_ns;
            if (rows[i].max_ns > l[k].max_ns) l[k].max_ns = rows[i].max_ns;
            if (rows[i].min_bytes < l[k].min_bytes) l[k].min_bytes = rows[i].min_bytes;
            if (rows[i].max_bytes > l[k].max_bytes) l[k].max_bytes = rows[i].max_bytes;
        }
        l[k].calls += rows[i].calls;
        l[k].total_ns += rows[i].total_ns;
        l[k].bytes += rows[i].bytes;
    }
    return m;
}

/* The CSV shapes of the summary's tables (nvprof --csv): names, units, quoted columns. */
static const char *const timed_names[] = {"Type", "Time(%)", "Time", "Calls",
                                          "Avg",  "Min",     "Max",  "Name"};
static const char *const timed_units[] = {"", "%", "us", "", "us", "us", "us", ""};
static const char *const bytes_names[] = {"Calls",     "Bytes",      "Avg bytes", "Min bytes",
                                          "Max bytes", "Throughput", "Name"};
static const char *const bytes_units[] = {"", "B", "B", "B", "B", "GB/s", ""};

/* us writes ns as microseconds for a CSV cell ("" when not finite). */
static char *us(double ns, char *buf, size_t n)
{
    if (isfinite(ns))
        snprintf(buf, n, "%.3f", ns / 1e3);
    else
        buf[0] = '\0';
    return buf;
}

/* timed_table prints one nvprof section ("GPU activities:", "API calls:"), as text or, with csv
 * (the table's header already written), as CSV rows; returns its lines, or -1 out of memory. */
static int timed_table(FILE *out, struct vb_ptable *csv, const char *type,
                       const struct vb_summary_row *rows, int n, unsigned kinds)
{
    struct line *l;
    double total = 0;
    int m = gather(rows, n, kinds, &l), i;
    if (m < 0) return -1;
    qsort(l, (size_t)m, sizeof *l, by_time);
    for (i = 0; i < m; i++)
        total += l[i].total_ns;
    for (i = 0; i < m; i++) {
        char t[32], avg[32], mn[32], mx[32], pct[32], calls[32];
        double pc = total > 0 ? 100 * l[i].total_ns / total : 0.0;
        double a = l[i].calls ? l[i].total_ns / (double)l[i].calls : NAN;
        if (csv) {
            char ty[32];
            const char *cells[8] = {ty,
                                    pct,
                                    us(l[i].total_ns, t, sizeof t),
                                    calls,
                                    us(a, avg, sizeof avg),
                                    us(l[i].min_ns, mn, sizeof mn),
                                    us(l[i].max_ns, mx, sizeof mx),
                                    l[i].name};
            snprintf(ty, sizeof ty, "%.*s", (int)strcspn(type, ":"), type);
            snprintf(pct, sizeof pct, "%.6f", pc);
            snprintf(calls, sizeof calls, "%lld", (long long)l[i].calls);
            vb_ptable_row(csv, cells);
            continue;
        }
        fprintf(out, "%16s%8.2f%%%10s%10lld%10s%10s%10s  ", i ? "" : type, pc,
                vb_summary_time(l[i].total_ns, t, sizeof t), (long long)l[i].calls,
                vb_summary_time(a, avg, sizeof avg), vb_summary_time(l[i].min_ns, mn, sizeof mn),
                vb_summary_time(l[i].max_ns, mx, sizeof mx));
        put_line(out, l[i].name);
    }
    free(l);
    return m;
}

/* bytes_table prints every kind of copy and the memsets with their exact byte counts. */
static int bytes_table(FILE *out, int csv, const struct vb_summary_row *rows, int n)
{
    struct line *l;
    struct vb_ptable t;
    int m = gather(rows, n, 1u << VB_SUM_MEMCPY | 1u << VB_SUM_MEMSET, &l), i;
    if (m < 0) return -1;
    qsort(l, (size_t)m, sizeof *l, by_bytes);
    if (csv) {
        fprintf(out, "==varbench== Data moved:\n");
        vb_ptable_init(&t, out, 1, 7, 0, 1u << 6);
        vb_ptable_header(&t, bytes_names);
        vb_ptable_units(&t, bytes_units);
    } else if (m) {
        fprintf(out, "\n%16s%10s%16s%14s%14s%14s%13s  %s\n", "Data moved:", "Calls", "Bytes",
                "Avg bytes", "Min bytes", "Max bytes", "Throughput", "Name");
    }
    for (i = 0; i < m; i++) {
        char c[5][32], gbps[32];
        long long v[5] = {(long long)l[i].calls, (long long)l[i].bytes,
                          (long long)(l[i].calls ? l[i].bytes / l[i].calls : 0),
                          (long long)l[i].min_bytes, (long long)l[i].max_bytes};
        int k;
        if (csv) {
            const char *cells[7] = {c[0], c[1], c[2], c[3], c[4], gbps, l[i].name};
            for (k = 0; k < 5; k++)
                snprintf(c[k], sizeof c[k], "%lld", v[k]);
            gbps[0] = '\0';
            if (l[i].total_ns > 0)
                snprintf(gbps, sizeof gbps, "%.9g", (double)l[i].bytes / l[i].total_ns);
            vb_ptable_row(&t, cells);
            continue;
        }
        if (l[i].total_ns > 0)
            snprintf(gbps, sizeof gbps, "%.2fGB/s", (double)l[i].bytes / l[i].total_ns);
        else
            snprintf(gbps, sizeof gbps, "-");
        fprintf(out, "%16s%10lld%16lld%14lld%14lld%14lld%13s  ", "", v[0], v[1], v[2], v[3], v[4],
                gbps);
        put_line(out, l[i].name);
    }
    free(l);
    return m;
}

/* cost_ms writes a tracing cost in ns as milliseconds with one decimal ("-" when not measured),
 * or, for csv, in full ("" when not measured). */
static char *cost_ms(double ns, int csv, char *buf, size_t n)
{
    if (!isfinite(ns))
        snprintf(buf, n, "%s", csv ? "" : "-");
    else
        snprintf(buf, n, csv ? "%.6f" : "%.1f ms", ns / 1e6);
    return buf;
}

/* case_who writes how a line names case c: "pid 1234" for a traced process, else "case ID". */
static char *case_who(const struct vb_case_row *c, char *buf, size_t n)
{
    long pid = vb_summary_pid(c);
    if (pid > 0)
        snprintf(buf, n, "pid %ld", pid);
    else
        snprintf(buf, n, "case %lld", (long long)c->id);
    return buf;
}

/* trace_costs prints what tracing cost each traced process that recorded it: one line each,
 * or a CSV table. */
static void trace_costs(FILE *out, int csv, const struct vb_case_row *c, int n)
{
    static const char *const names[] = {
        "Process",       "CUPTI start", "CUPTI overhead", "CUPTI overhead records",
        "Flush at exit", "Writing",     "Dropped records"};
    static const char *const units[] = {"", "ms", "ms", "", "ms", "ms", ""};
    struct vb_ptable t;
    int i, shown = 0;
    for (i = 0; i < n; i++) {
        const struct vb_trace_cost *x = &c[i].trace_cost;
        char who[48], a[32], b[32], f[32], w[32], cnt[32], drop[32];
        if (!c[i].has_trace_cost) continue;
        case_who(&c[i], who, sizeof who);
        cost_ms(x->init_ns, csv, a, sizeof a);
        cost_ms(x->cupti_overhead_ns, csv, b, sizeof b);
        cost_ms(x->flush_ns, csv, f, sizeof f);
        cost_ms(x->store_ns, csv, w, sizeof w);
        snprintf(cnt, sizeof cnt, "%lld", (long long)x->cupti_overhead_count);
        snprintf(drop, sizeof drop, "%lld", (long long)x->dropped_records);
        if (!csv) {
            fprintf(out,
                    "==varbench== tracing cost (%s): CUPTI start %s, CUPTI overhead records %s "
                    "(%s), flush at exit %s, writing %s, %s record%s dropped\n",
                    who, a, b, cnt, f, w, drop, x->dropped_records == 1 ? "" : "s");
            if (x->overhead_detail[0]) {
                fprintf(out, "==varbench== CUPTI overhead (%s): ", who);
                put_line(out, x->overhead_detail);
            }
            if (x->client[0]) {
                fprintf(out, "==varbench== the program's own CUPTI client (%s, ", who);
                vb_put_term(out, x->client);
                fprintf(out,
                        ") shared CUPTI: it was handed %lld kernels, %lld copies, %lld memsets "
                        "(%lld records)\n",
                        (long long)x->client_kernels, (long long)x->client_copies,
                        (long long)x->client_memsets, (long long)x->client_records);
            }
            continue;
        }
        if (!shown++) {
            fprintf(out, "==varbench== tracing cost:\n");
            vb_ptable_init(&t, out, 1, 7, 0, 1u);
            vb_ptable_header(&t, names);
            vb_ptable_units(&t, units);
        }
        {
            const char *cells[7] = {who, a, b, cnt, f, w, drop};
            vb_ptable_row(&t, cells);
        }
    }
}

/* sampled prints one line per sampled case of a traced run (samples.h): its samples, and the
 * medians of its host time and, with records, of its GPU time and kernel time */
static void sampled(FILE *out, int csv, const struct vb_case_row *c, int n)
{
    int i, shown = 0;
    for (i = 0; i < n; i++) {
        char a[32], b[32], k[32];
        if (!vb_store_sampled_case(c[i].family, c[i].axes)) continue;
        if (!shown++)
            fprintf(out, "==varbench== samples (an NVTX range's instances, a kernel's "
                         "launches; medians):\n");
        fputs(csv ? "==varbench== " : "  ", out);
        vb_put_term(out, c[i].variant);
        fputc(' ', out);
        vb_put_term(out, c[i].axes);
        fprintf(out, ": %d samples, e2e %s", c[i].samples,
                vb_summary_time(c[i].e2e_median_ns, a, sizeof a));
        if (c[i].have_records)
            fprintf(out, ", GPU %s (kernel %s)", vb_summary_time(c[i].gpu_median_ns, b, sizeof b),
                    vb_summary_time(c[i].kernel_median_ns, k, sizeof k));
        if (c[i].device[0] && strcmp(c[i].device, "?") && c[i].have_records) {
            fputs(" on ", out);
            vb_put_term(out, c[i].device);
        }
        fputc('\n', out);
    }
}

/* processes prints one line per traced process of a trace run (per case of another run), what
 * tracing each cost, and the sampled cases. In CSV each line is a section line (==varbench==). */
static int processes(FILE *out, int csv, struct vb_store *s, int64_t run_id, struct vb_err *err)
{
    struct vb_case_row *c;
    int n, i;
    if (vb_store_cases(s, run_id, &c, &n, err)) return -1;
    for (i = 0; i < n; i++) {
        char e2e[32];
        const char *cap = strstr(c[i].stop_reason, "; capture ");
        if (vb_store_sampled_case(c[i].family, c[i].axes)) continue; /* below */
        fputs(csv ? "==varbench== " : "  ", out);
        vb_put_term(out, c[i].variant);
        if (c[i].axes[0]) { /* a suite case's point; a traced process's rank or pid */
            fputc(' ', out);
            vb_put_term(out, c[i].axes);
        }
        fputs(": ", out);
        vb_put_term(out, c[i].status);
        fprintf(out, ", %s %s", vb_summary_time(c[i].e2e_median_ns, e2e, sizeof e2e),
                strcmp(c[i].family, "trace") ? "end to end (median)" : "traced");
        if (c[i].device[0] && strcmp(c[i].device, "?")) {
            fputs(" on ", out);
            vb_put_term(out, c[i].device);
            /* a traced process's device: which board a rank ran on */
            if (!strcmp(c[i].family, "trace") && c[i].device_id >= 0)
                fprintf(out, " (device %d)", c[i].device_id);
        }
        if (cap) { /* what --capture-range kept */
            fputs(" (", out);
            vb_put_term(out, cap + 2);
            fputs(")", out);
        }
        if (c[i].reason[0]) {
            fputs(": ", out);
            vb_put_term(out, c[i].reason);
        }
        fprintf(out, "\n");
    }
    trace_costs(out, csv, c, n);
    sampled(out, csv, c, n);
    free(c);
    return n;
}

/* metric_table prints nvprof's "Metric result" for the run's metrics passes, if it has any:
 * per kernel, each metric's invocations, name (nvprof's where it has one), min, max, avg; in CSV
 * one row per kernel and metric (no units row: the metrics' units differ). */
static int metric_table(FILE *out, int csv, struct vb_store *s, int64_t run_id, struct vb_err *err)
{
    static const char *const names[] = {"Kernel", "Invocations", "Metric Name",
                                        "Min",    "Max",         "Avg"};
    struct vb_metric_row *m;
    struct vb_ptable t;
    int n, i;
    if (vb_store_metric_summary(s, run_id, &m, &n, err)) return -1;
    if (n) {
        fprintf(out, "==varbench== Metric result:\n");
        if (csv) {
            vb_ptable_init(&t, out, 1, 6, 0, 1u | 1u << 2);
            vb_ptable_header(&t, names);
        } else {
            fprintf(out, "%-12s %-72s %14s %14s %14s\n", "Invocations", "Metric Name", "Min", "Max",
                    "Avg");
        }
    }
    for (i = 0; i < n; i++) {
        const struct vb_metric_def *d = vb_metric_def_find(m[i].metric);
        const char *pc = d && d->is_pct ? "%" : "",
                   *mname = d && d->nvprof ? d->nvprof : m[i].metric;
        char name[2048], shown[4 * 128 + 1];
        vb_summary_kernel_name(m[i].kernel, name, sizeof name);
        if (csv) {
            char inv[32], mn[32], mx[32], avg[32];
            const char *cells[6] = {name, inv, mname, mn, mx, avg};
            snprintf(inv, sizeof inv, "%lld", (long long)m[i].invocations);
            snprintf(mn, sizeof mn, "%.9g", m[i].min);
            snprintf(mx, sizeof mx, "%.9g", m[i].max);
            snprintf(avg, sizeof avg, "%.9g", m[i].avg);
            vb_ptable_row(&t, cells);
            continue;
        }
        if (!i || strcmp(m[i].kernel, m[i - 1].kernel)) {
            fputs("    Kernel: ", out);
            put_line(out, name);
        }
        fprintf(out, "%12lld %-72s %13.6g%s %13.6g%s %13.6g%s\n", (long long)m[i].invocations,
                vb_term_str(mname, shown, sizeof shown), m[i].min, pc, m[i].max, pc, m[i].avg, pc);
    }
    free(m);
    return n;
}

int vb_summary_head(FILE *out, struct vb_store *s, int64_t run_id, int csv, struct vb_err *err)
{
    struct vb_run_info_row run;
    if (vb_store_run_info(s, run_id, &run, err)) return -1;
    /* every stored string shown (escape.h): each line stays one "==" line, in text and CSV */
    fprintf(out, "==varbench== run %lld (", (long long)run.id);
    vb_put_term(out, run.kind);
    fputs(", ", out);
    vb_put_term(out, run.status);
    if (run.has_exit_code) fprintf(out, ", exit code %d", run.exit_code);
    fputs("), started ", out);
    vb_put_term(out, run.start_utc);
    fputs(run.gpu[0] ? ", GPU " : "", out);
    put_line(out, run.gpu);
    fputs("==varbench== command: ", out);
    put_line(out, run.command_line);
    if (run.message[0]) {
        fputs("==varbench== ", out);
        put_line(out, run.message);
    }
    if (run.nvml[0]) { /* what the run's energy figures can support (ledger.h) */
        fputs("==varbench== NVML update periods: ", out);
        put_line(out, run.nvml);
    }
    if (!strcmp(run.kind, "trace"))
        fprintf(out, "==varbench== %d traced process%s\n", run.nprocesses,
                run.nprocesses == 1 ? "" : "es");
    else
        fprintf(out, "==varbench== %d case%s\n", run.ncases, run.ncases == 1 ? "" : "s");
    return processes(out, csv, s, run_id, err) < 0 ? -1 : 0;
}

int vb_summary_tables(FILE *out, struct vb_store *s, int64_t run_id, long rank, int csv,
                      struct vb_err *err)
{
    struct vb_summary_row *rows = NULL;
    struct vb_ptable t, *tp = NULL;
    int n = 0, shown, rc = -1;
    if (vb_store_summary(s, run_id, rank, &rows, &n, err)) return -1;
    if (rank >= 0)
        fprintf(out, "==varbench== Profiling result (rank %ld):\n", rank);
    else
        fprintf(out, "==varbench== Profiling result:\n");
    if (csv) {
        vb_ptable_init(&t, out, 1, 8, 0, 1u | 1u << 7);
        vb_ptable_header(&t, timed_names);
        vb_ptable_units(&t, timed_units);
        tp = &t;
    } else {
        fprintf(out, "%16s%9s%10s%10s%10s%10s%10s  %s\n", "Type", "Time(%)", "Time", "Calls", "Avg",
                "Min", "Max", "Name");
    }
    if ((shown = timed_table(out, tp, "GPU activities:", rows, n,
                             1u << VB_SUM_KERNEL | 1u << VB_SUM_MEMCPY | 1u << VB_SUM_MEMSET)) <
            0 ||
        timed_table(out, tp, "API calls:", rows, n, 1u << VB_SUM_API) < 0 ||
        timed_table(out, tp, "NVTX ranges:", rows, n, 1u << VB_SUM_RANGE) < 0 ||
        bytes_table(out, csv, rows, n) < 0) {
        vb_err_set(err, VB_E_SYS, "out of memory for the summary");
        goto out;
    }
    if (!shown && !csv)
        fprintf(out, "%16s  no kernels, copies or memsets were recorded\n", "GPU activities:");
    if (metric_table(out, csv, s, run_id, err) < 0) goto out;
    rc = 0;
out:
    free(rows);
    return rc;
}

int vb_summary_print(FILE *out, struct vb_store *s, int64_t run_id, struct vb_err *err)
{
    return vb_summary_head(out, s, run_id, 0, err) || vb_summary_tables(out, s, run_id, -1, 0, err)
               ? -1
               : 0;
}
