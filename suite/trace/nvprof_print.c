/* nvprof_print: nvprof's print modes over a run of the database (see nvprof_print.h). */
#include "nvprof_print.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "escape.h"
#include "ptable.h"
#include "store.h"
#include "summary.h"

/* What the aligned GPU trace says under its table: its starred columns, and the units of its
 * exact numbers (nvprof's notes, with what varbench shows differently). */
static const char gpu_notes[] =
    "Regs: registers per CUDA thread, as CUPTI reports them (with those the driver and tools add, "
    "so possibly more than the compiler shows).\n"
    "SSMem: static shared memory per CUDA block, in bytes.\n"
    "DSMem: dynamic shared memory per CUDA block, in bytes.\n"
    "SrcMemType: the kind of memory a copy reads.\n"
    "DstMemType: the kind of memory a copy or memset writes.\n"
    "Start: from the start of the process's trace.\n"
    "Size: exact bytes.\n"
    "Throughput: Size over Duration, in GB/s of 10^9 bytes (decimal).\n";

enum { GPU_COLS = 15, GPU_CSV_COLS = 20, API_COLS = 3, API_CSV_COLS = 4 };
static const char *const gpu_names[GPU_COLS] = {
    "Start",      "Duration",   "Grid Size",  "Block Size", "Regs*",   "SSMem*", "DSMem*", "Size",
    "Throughput", "SrcMemType", "DstMemType", "Device",     "Context", "Stream", "Name"};
static const char *const gpu_csv_names[GPU_CSV_COLS] = {
    "Start",       "Duration",      "Grid X",
    "Grid Y",      "Grid Z",        "Block X",
    "Block Y",     "Block Z",       "Registers Per Thread",
    "Static SMem", "Dynamic SMem",  "Size",
    "Throughput",  "SrcMemType",    "DstMemType",
    "Device",      "Context",       "Stream",
    "Name",        "Correlation_ID"};
static const char *const gpu_csv_units[GPU_CSV_COLS] = {
    "ms", "us", "", "", "", "", "", "", "", "B", "B", "B", "GB/s", "", "", "", "", "", "", ""};
static const char *const api_names[API_CSV_COLS] = {"Start", "Duration", "Name", "Correlation_ID"};
static const char *const api_csv_units[API_CSV_COLS] = {"ms", "us", "", ""};

const char *vb_nvprof_mem_kind(int kind)
{
    static const char *const names[] = {"Unknown", "Pageable", "Pinned",        "Device",
                                        "Array",   "Managed",  "Device Static", "Managed Static"};
    if (kind < 0) return "-";
    return kind < (int)(sizeof names / sizeof names[0]) ? names[kind] : names[0];
}

/* A few demangled kernel names: a trace repeats a handful of kernels many times, and each row is
 * formatted twice when aligned. */
#define NAME_CACHE 8
struct name_cache {
    char mangled[NAME_CACHE][512];
    char shown[NAME_CACHE][2048];
    int next;
};

/* kernel_name returns the demangled name of mangled, from the cache when it is there. */
static const char *kernel_name(struct name_cache *c, const char *mangled)
{
    int k;
    if (strlen(mangled) >= sizeof c->mangled[0]) { /* not cached: its slot forgets its name */
        c->mangled[c->next][0] = '\0';
        return vb_summary_kernel_name(mangled, c->shown[c->next], sizeof c->shown[0]);
    }
    for (k = 0; k < NAME_CACHE; k++)
        if (c->mangled[k][0] && !strcmp(c->mangled[k], mangled)) return c->shown[k];
    k = c->next;
    c->next = (c->next + 1) % NAME_CACHE;
    snprintf(c->mangled[k], sizeof c->mangled[k], "%s", mangled);
    return vb_summary_kernel_name(mangled, c->shown[k], sizeof c->shown[k]);
}

/* One section of one process: its table, where its times start, and how it is named. */
struct section {
    struct vb_ptable t;
    int csv;
    int64_t t0;
    struct name_cache *names;
    const char *tag; /* the ==TAG== of its lines */
    const char *const *head, *const *units;
    int headed; /* its heading is printed */
};

/* heading prints the section's heading and its table's header, once: before its first row, so
 * a section without rows has none (it has nvprof's warning instead). */
static void heading(struct section *sec)
{
    if (sec->headed || !sec->t.printing) return;
    sec->headed = 1;
    fprintf(sec->t.out, "==%s== Profiling result:\n", sec->tag);
    vb_ptable_header(&sec->t, sec->head);
    vb_ptable_units(&sec->t, sec->units);
}

/* gbps writes a throughput of GB/s with nvprof's five significant digits ("2000.0GB/s"). */
static char *gbps(double v, char *buf, size_t n)
{
    int prec = v < 10 ? 4 : v < 100 ? 3 : v < 1000 ? 2 : v < 10000 ? 1 : 0;
    snprintf(buf, n, "%.*fGB/s", prec, v);
    return buf;
}

/* gpu_row formats one kernel, copy or memset for the section's table (see nvprof_print.h). */
static int gpu_row(void *ctx, const struct vb_gpu_act *a, struct vb_err *err)
{
    struct section *sec = ctx;
    char c[GPU_CSV_COLS][64], peer[96];
    const char *cells[GPU_CSV_COLS], *name;
    double dur = (double)(a->end - a->start), start = (double)(a->start - sec->t0);
    int k, kernel = a->kind == VB_ACT_KERNEL;
    (void)err;
    for (k = 0; k < GPU_CSV_COLS; k++)
        c[k][0] = '\0', cells[k] = c[k];
    name = kernel                     ? kernel_name(sec->names, a->name)
           : a->kind == VB_ACT_MEMCPY ? vb_summary_copy_name(a->copy_kind)
                                      : "[CUDA memset]";
    if (a->src_device >= 0 && a->dst_device >= 0) { /* a peer copy: nvprof's Src/Dst Dev */
        snprintf(peer, sizeof peer, "%s (GPU %d -> GPU %d)", name, a->src_device, a->dst_device);
        name = peer;
    }
    if (sec->csv) {
        snprintf(c[0], 64, "%.6f", start / 1e6);
        snprintf(c[1], 64, "%.3f", dur / 1e3);
        if (kernel) {
            for (k = 0; k < 3; k++) {
                snprintf(c[2 + k], 64, "%d", a->grid[k]);
                snprintf(c[5 + k], 64, "%d", a->block[k]);
            }
            snprintf(c[8], 64, "%d", a->registers);
            snprintf(c[9], 64, "%d", a->static_smem);
            snprintf(c[10], 64, "%d", a->dynamic_smem);
        } else {
            snprintf(c[11], 64, "%lld", (long long)a->bytes);
            if (dur > 0) snprintf(c[12], 64, "%.9g", (double)a->bytes / dur);
            if (a->src_kind >= 0) cells[13] = vb_nvprof_mem_kind(a->src_kind);
            cells[14] = vb_nvprof_mem_kind(a->dst_kind);
        }
        snprintf(c[15], 64, "%s (%d)", a->device_name[0] ? a->device_name : "GPU", a->device);
        snprintf(c[16], 64, "%d", a->context);
        snprintf(c[17], 64, "%d", a->stream);
        cells[18] = name;
        snprintf(c[19], 64, "%lld", (long long)a->correlation);
    } else {
        vb_summary_time(start, c[0], 64);
        vb_summary_time(dur, c[1], 64);
        for (k = 2; k <= 10; k++)
            cells[k] = "-";
        if (kernel) {
            snprintf(c[2], 64, "(%d %d %d)", a->grid[0], a->grid[1], a->grid[2]);
            snprintf(c[3], 64, "(%d %d %d)", a->block[0], a->block[1], a->block[2]);
            snprintf(c[4], 64, "%d", a->registers);
            snprintf(c[5], 64, "%dB", a->static_smem);
            snprintf(c[6], 64, "%dB", a->dynamic_smem);
            for (k = 2; k <= 6; k++)
                cells[k] = c[k];
        } else {
            snprintf(c[7], 64, "%lldB", (long long)a->bytes);
            cells[7] = c[7];
            if (dur > 0) cells[8] = gbps((double)a->bytes / dur, c[8], 64);
            cells[9] = vb_nvprof_mem_kind(a->src_kind);
            cells[10] = vb_nvprof_mem_kind(a->dst_kind);
        }
        snprintf(c[11], 64, "%s (%d)", a->device_name[0] ? a->device_name : "GPU", a->device);
        snprintf(c[12], 64, "%d", a->context);
        snprintf(c[13], 64, "%d", a->stream);
        cells[11] = c[11], cells[12] = c[12], cells[13] = c[13];
        cells[14] = name;
    }
    heading(sec);
    vb_ptable_row(&sec->t, cells);
    return 0;
}

/* api_row formats one CUDA API call for the section's table. */
static int api_row(void *ctx, const struct vb_api_call *a, struct vb_err *err)
{
    struct section *sec = ctx;
    char start[32], dur[32], name[256], corr[32];
    const char *cells[API_CSV_COLS] = {start, dur, name, corr};
    (void)err;
    vb_summary_api_name(a->name, name, sizeof name);
    if (sec->csv) {
        snprintf(start, sizeof start, "%.6f", (double)(a->start - sec->t0) / 1e6);
        snprintf(dur, sizeof dur, "%.3f", (double)(a->end - a->start) / 1e3);
        snprintf(corr, sizeof corr, "%lld", (long long)a->correlation);
    } else {
        vb_summary_time((double)(a->start - sec->t0), start, sizeof start);
        vb_summary_time((double)(a->end - a->start), dur, sizeof dur);
    }
    heading(sec);
    vb_ptable_row(&sec->t, cells);
    return 0;
}

/* case_tag writes the ==TAG== of case c: its process id, or "case ID". */
static void case_tag(const struct vb_case_row *c, char *buf, size_t n)
{
    long pid = vb_summary_pid(c);
    if (pid > 0)
        snprintf(buf, n, "%ld", pid);
    else
        snprintf(buf, n, "case %lld", (long long)c->id);
}

/* trace_case prints the GPU trace (api 0) or the API trace (api 1) of case c: its heading and
 * its table, or nvprof's warning when it has no such records. *rows gets the rows printed. 0 or
 * -1 with err. */
static int trace_case(FILE *out, struct vb_store *s, const struct vb_case_row *c, int api, int csv,
                      struct name_cache *names, long long *rows, struct vb_err *err)
{
    struct section sec;
    char tag[48];
    int ncols = api ? (csv ? API_CSV_COLS : API_COLS) : (csv ? GPU_CSV_COLS : GPU_COLS), pass;
    memset(&sec, 0, sizeof sec);
    sec.csv = csv;
    sec.names = names;
    case_tag(c, tag, sizeof tag);
    if (vb_store_case_origin(s, c->id, &sec.t0, err)) return -1;
    /* the stored names shown (escape.h): a section line stays one line, whatever they hold */
    fprintf(out, "==%s== Profiling application: ", tag);
    vb_put_term(out, c->variant);
    fputs(c->axes[0] ? " " : "", out);
    vb_put_term(out, c->axes);
    fputc('\n', out);
    sec.tag = tag;
    sec.head = api ? api_names : csv ? gpu_csv_names : gpu_names;
    sec.units = api ? api_csv_units : gpu_csv_units;
    /* CSV: one pass; aligned: the first pass measures the header and the rows */
    vb_ptable_init(&sec.t, out, csv, ncols, 1u << (ncols - 1), /* aligned: Name, the last */
                   api ? 1u << 2 : 1u << 13 | 1u << 14 | 1u << 15 | 1u << 18);
    for (pass = csv ? 1 : 0; pass < 2; pass++) {
        if (pass == 0) vb_ptable_header(&sec.t, sec.head);
        if (pass == 1 && !csv) {
            if (!sec.t.rows) break;
            vb_ptable_print(&sec.t);
        }
        if (api ? vb_store_api_trace(s, c->id, api_row, &sec, err)
                : vb_store_gpu_trace(s, c->id, gpu_row, &sec, err))
            return -1;
    }
    *rows = sec.t.rows;
    if (!sec.t.rows) {
        fprintf(out, "==%s== Warning: No profile data collected%s", tag, c->reason[0] ? " (" : ".");
        vb_put_term(out, c->reason);
        fputs(c->reason[0] ? ").\n" : "\n", out);
    }
    return 0;
}

/* traces prints the GPU trace (api 0) or API trace (api 1) of every case of the run, then, for
 * an aligned GPU trace with rows, its notes. 0 or -1 with err. */
static int traces(FILE *out, struct vb_store *s, int64_t run_id, int api, int csv,
                  struct vb_err *err)
{
    struct vb_case_row *c;
    struct name_cache *names = calloc(1, sizeof *names);
    long long rows = 0, all = 0;
    int n, i, rc = 0;
    if (!names) return vb_err_set(err, VB_E_SYS, "out of memory for the trace");
    if (vb_store_cases(s, run_id, &c, &n, err)) {
        free(names);
        return -1;
    }
    for (i = 0; i < n && !rc; i++) {
        rc = trace_case(out, s, &c[i], api, csv, names, &rows, err);
        all += rows;
    }
    free(c);
    free(names);
    if (!rc && !api && !csv && all) fputs(gpu_notes, out);
    return rc;
}

int vb_nvprof_print(FILE *out, struct vb_store *s, int64_t run_id, const struct vb_print_opts *o,
                    struct vb_err *err)
{
    int summary = o->summary || (!o->gpu_trace && !o->api_trace);
    struct vb_run_info_row run;
    if (vb_store_run_info(s, run_id, &run, err)) return -1; /* the run exists */
    if (!o->no_head && vb_summary_head(out, s, run_id, o->csv, err)) return -1;
    if (!o->no_head && o->after_head && o->after_head(out, s, run_id, o->csv, err)) return -1;
    if (o->gpu_trace && traces(out, s, run_id, 0, o->csv, err)) return -1;
    if (o->api_trace && traces(out, s, run_id, 1, o->csv, err)) return -1;
    if (summary && vb_summary_tables(out, s, run_id, o->rank, o->csv, err)) return -1;
    return 0;
}
