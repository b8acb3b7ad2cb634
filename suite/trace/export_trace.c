/* export_trace: a run as Chrome trace-event JSON (see export_trace.h; the ids in tracks.h). */
#include "export_trace.h"

#include <stdlib.h>
#include <string.h>

#include "activity.h"
#include "escape.h"
#include "summary.h"
#include "tracks.h"

#define NAME_CACHE 256 /* demangled kernel names kept, by StringIds id (a kernel repeats) */

/* Sort indexes: the run's own process first, then host processes, then the GPUs. */
#define SORT_RUN  0
#define SORT_HOST 1
#define SORT_GPU  100

/* An export under way (export_trace.h's struct vb_export_trace); w in the functions below. */
struct vb_export_trace {
    FILE *f;
    const struct vb_run_row *run;
    const char *glob;
    struct vb_export_cursor *gc, *hc; /* the GPU's records, the host's */
    int trace_run; /* a run of `varbench trace`: each case is a process of its own */
    struct vb_export_case *cases;
    int ncases;
    int64_t *lo, *hi; /* per case: the extent of its records (lo > hi: none) */
    struct vb_export_gpu *gpus;
    int ngpus;
    struct vb_tracks *tracks;
    struct vb_export_trace_stats stats, *st; /* st: &stats */
    int64_t origin;
    int first; /* no event written yet */
    struct {
        int64_t id;
        char *name;
    } names[NAME_CACHE];
};

static int oom(struct vb_err *err)
{
    return vb_err_set(err, VB_E_SYS, "out of memory");
}

/* put_us writes ns (from the origin) as microseconds with three decimals: exact, no float. */
static void put_us(FILE *f, int64_t ns)
{
    if (ns < 0) {
        fputc('-', f);
        ns = -ns;
    }
    fprintf(f, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
}

/* next_event starts an element of traceEvents. */
static void next_event(struct vb_export_trace *w)
{
    fputs(w->first ? "\n" : ",\n", w->f);
    w->first = 0;
}

/* meta_name writes a metadata event `what` ("process_name", "thread_name") naming name. */
static void meta_name(struct vb_export_trace *w, const char *what, int64_t pid, int64_t tid,
                      const char *name)
{
    next_event(w);
    fprintf(w->f, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%lld,\"tid\":%lld,\"args\":{\"name\":\"",
            what, (long long)pid, (long long)tid);
    vb_put_json(w->f, name);
    fputs("\"}}", w->f);
}

/* meta_sort writes a metadata event `what` ("process_sort_index", ...) with index i. */
static void meta_sort(struct vb_export_trace *w, const char *what, int64_t pid, int64_t tid,
                      int64_t i)
{
    next_event(w);
    fprintf(w->f,
            "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%lld,\"tid\":%lld,\"args\":{\"sort_index\":"
            "%lld}}",
            what, (long long)pid, (long long)tid, (long long)i);
}

/* begin_x writes a complete event up to its open args object. */
static void begin_x(struct vb_export_trace *w, const char *cat, const char *name,
                    const struct vb_track *t, int64_t start, int64_t end)
{
    next_event(w);
    fprintf(w->f, "{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"", cat);
    vb_put_json(w->f, name);
    fprintf(w->f, "\",\"pid\":%lld,\"tid\":%lld,\"ts\":", (long long)t->pid, (long long)t->tid);
    put_us(w->f, start - w->origin);
    fputs(",\"dur\":", w->f);
    put_us(w->f, end - start);
    fputs(",\"args\":{", w->f);
}

/* flow writes one end of an arrow (ph "s" or "f") on track t at ts. */
static void flow(struct vb_export_trace *w, char ph, int64_t id, const struct vb_track *t,
                 int64_t ts)
{
    next_event(w);
    fprintf(w->f, "{\"ph\":\"%c\",\"id\":%lld,\"pid\":%lld,\"tid\":%lld,\"ts\":", ph, (long long)id,
            (long long)t->pid, (long long)t->tid);
    put_us(w->f, ts - w->origin);
    fprintf(w->f, ",\"cat\":\"ac2g\",\"name\":\"ac2g\"%s}", ph == 'f' ? ",\"bp\":\"e\"" : "");
}

/* case_index returns the index of case id in w->cases (by id), or -1. */
static int case_index(const struct vb_export_trace *w, int64_t id)
{
    int lo = 0, hi = w->ncases - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (w->cases[mid].id == id) return mid;
        if (w->cases[mid].id < id)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* flow_id: one arrow per case and correlation id (CUPTI's ids restart in every process). */
static int64_t flow_id(int ci, int64_t correlation)
{
    return ((int64_t)(ci + 1) << 32) | (int64_t)(uint32_t)correlation;
}

/* extent grows case ci's record extent to [start, end]. */
static void extent(struct vb_export_trace *w, int ci, int64_t start, int64_t end)
{
    if (ci < 0) return;
    if (start < w->lo[ci]) w->lo[ci] = start;
    if (end > w->hi[ci]) w->hi[ci] = end;
}

/* program returns case ci's program name (a traced case's variant without "trace/"). */
static const char *program(const struct vb_export_trace *w, int ci)
{
    const char *v = ci >= 0 ? w->cases[ci].variant : "?", *slash = strchr(v, '/');
    return slash ? slash + 1 : v;
}

/* kernel_name returns r's kernel demangled (kept in w's cache; r's own name when out of
 * memory or not a C++ name). */
static const char *kernel_name(struct vb_export_trace *w, const struct vb_export_rec *r)
{
    size_t slot = (size_t)((uint64_t)r->name_id % NAME_CACHE);
    char *d;
    if (w->names[slot].name && w->names[slot].id == r->name_id) return w->names[slot].name;
    if (!(d = vb_summary_demangle(r->name))) return r->name;
    free(w->names[slot].name);
    w->names[slot].name = d;
    w->names[slot].id = r->name_id;
    return d;
}

static const char *copy_kind(int k)
{
    static const char *const names[] = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                        "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
    return k >= 0 && k < (int)(sizeof names / sizeof names[0]) ? names[k] : names[0];
}

/* mem_kind names a CUpti_ActivityMemoryKind as Kineto does. */
static const char *mem_kind(int k)
{
    static const char *const names[] = {"Unknown", "Pageable", "Pinned",        "Device",
                                        "Array",   "Managed",  "Device Static", "Managed Static"};
    return k >= 0 && k < (int)(sizeof names / sizeof names[0]) ? names[k] : names[0];
}

/* gpu_track_names writes the names of a new GPU stream track (and of its GPU, when new). */
static int gpu_track_names(struct vb_export_trace *w, const struct vb_track *t,
                           const struct vb_export_rec *r, int ci, struct vb_err *err)
{
    char name[512];
    int i, k = vb_tracks_process(w->tracks, t->pid);
    if (k < 0) return oom(err);
    if (k) {
        snprintf(name, sizeof name, "GPU %d", r->device);
        for (i = 0; i < w->ngpus; i++)
            if (w->gpus[i].id == r->device && w->gpus[i].name[0])
                snprintf(name, sizeof name, "GPU %d: %s", r->device, w->gpus[i].name);
        meta_name(w, "process_name", t->pid, 0, name);
        meta_sort(w, "process_sort_index", t->pid, 0, SORT_GPU + r->device);
    }
    if (t->lane)
        snprintf(name, sizeof name, "stream %d (context %d, concurrent %d)", r->stream, r->context,
                 t->lane);
    else if (t->tid == r->stream)
        snprintf(name, sizeof name, "stream %d", r->stream);
    else if (w->trace_run)
        snprintf(name, sizeof name, "stream %d (%s, context %d)", r->stream, program(w, ci),
                 r->context);
    else
        snprintf(name, sizeof name, "stream %d (context %d)", r->stream, r->context);
    meta_name(w, "thread_name", t->pid, t->tid, name);
    meta_sort(w, "thread_sort_index", t->pid, t->tid, t->sort);
    return 0;
}

/* Overlap on one stream beyond this is work that ran at once (a programmatic dependent launch);
 * below it, CUPTI's timestamps of back-to-back work (measured: up to a few hundred ns). A CUDA
 * graph's work overlaps at any amount: its branches run concurrently. */
#define JITTER_NS 1000

/* gpu_event writes GPU record r on its stream's track and the end of its arrow. Work that ran
 * at the same time as the stream's previous work (a graph's branches) goes to a lane of the
 * stream, as it happened; overlap within timestamp jitter is clamped to start where the record
 * before it ends (it would break the viewer's nesting). */
static int gpu_event(struct vb_export_trace *w, const struct vb_export_rec *r, struct vb_err *err)
{
    int ci = case_index(w, r->case_id), is_new;
    int64_t proc = w->trace_run ? r->case_id : 0;
    struct vb_track *t = vb_tracks_gpu(w->tracks, r->device, proc, r->context, r->stream, &is_new);
    int64_t start = r->start, end = r->end, moved = 0, dur = r->end - r->start;
    char name[64];
    if (!t) return oom(err);
    if (is_new && gpu_track_names(w, t, r, ci, err)) return -1;
    if (t->last_end > start && (r->graph || t->last_end - start > JITTER_NS)) {
        t = vb_tracks_gpu_lane(w->tracks, r->device, proc, r->context, r->stream, start, &is_new);
        if (!t) return oom(err);
        if (is_new && gpu_track_names(w, t, r, ci, err)) return -1;
        w->st->concurrent++;
    }
    if (t->last_end > start) {
        moved = t->last_end - start;
        start = t->last_end;
        if (end < start) end = start;
        w->st->clamped++;
        if (moved > w->st->clamped_max) w->st->clamped_max = moved;
    }
    t->last_end = end;
    extent(w, ci, r->start, r->end);
    if (r->kind == VB_EXPORT_KERNEL) {
        begin_x(w, "kernel", kernel_name(w, r), t, start, end);
    } else if (r->kind == VB_EXPORT_MEMCPY) {
        if (r->src_device >= 0 && r->dst_device >= 0) /* a peer copy: its two GPUs */
            snprintf(name, sizeof name, "Memcpy %s (GPU %d -> GPU %d)", copy_kind(r->copy_kind),
                     r->src_device, r->dst_device);
        else
            snprintf(name, sizeof name, "Memcpy %s (%s -> %s)", copy_kind(r->copy_kind),
                     mem_kind(r->src_kind), mem_kind(r->dst_kind));
        begin_x(w, "gpu_memcpy", name, t, start, end);
    } else {
        snprintf(name, sizeof name, "Memset (%s)", mem_kind(r->mem_kind));
        begin_x(w, "gpu_memset", name, t, start, end);
    }
    fprintf(w->f, "\"device\":%d,\"context\":%d,\"stream\":%d,\"correlation\":%lld", r->device,
            r->context, r->stream, (long long)r->correlation);
    if (r->graph)
        fprintf(w->f, ",\"graph\":%lld,\"graph node\":%lld", (long long)r->graph,
                (long long)r->graph_node);
    if (r->kind == VB_EXPORT_KERNEL) {
        fprintf(w->f,
                ",\"registers per thread\":%d,\"shared memory\":%lld,\"grid\":[%d,%d,%d],"
                "\"block\":[%d,%d,%d]",
                r->registers, (long long)(r->static_smem + r->dynamic_smem), r->grid[0], r->grid[1],
                r->grid[2], r->block[0], r->block[1], r->block[2]);
        if (r->sass[0]) fprintf(w->f, ",\"sass\":\"%s\"", r->sass);
    } else {
        fprintf(w->f, ",\"bytes\":%lld", (long long)r->bytes);
        if (dur > 0) /* bytes per ns are GB/s */
            fprintf(w->f, ",\"memory bandwidth (GB/s)\":%.6g", (double)r->bytes / (double)dur);
        if (r->kind == VB_EXPORT_MEMCPY && r->src_device >= 0 && r->dst_device >= 0)
            fprintf(w->f, ",\"src device\":%d,\"dst device\":%d", r->src_device, r->dst_device);
        if (r->kind == VB_EXPORT_MEMCPY)
            fprintf(w->f, ",\"src kind\":\"%s\",\"dst kind\":\"%s\"", mem_kind(r->src_kind),
                    mem_kind(r->dst_kind));
        else
            fprintf(w->f, ",\"memory kind\":\"%s\",\"value\":%lld", mem_kind(r->mem_kind),
                    (long long)r->value);
    }
    if (moved) fprintf(w->f, ",\"clamped (ns)\":%lld", (long long)moved);
    fputs("}}", w->f);
    w->st->written[r->kind]++;
    if (r->flow && ci >= 0) {
        flow(w, 'f', flow_id(ci, r->correlation), t, start);
        w->st->flow_ends++;
    }
    return 0;
}

/* host_track_names writes the names of a new host lane (and of its process, when new). */
static int host_track_names(struct vb_export_trace *w, const struct vb_track *t, int ci,
                            struct vb_err *err)
{
    char name[512];
    int n, k = vb_tracks_process(w->tracks, t->pid);
    if (k < 0) return oom(err);
    if (k) {
        if (w->trace_run)
            snprintf(name, sizeof name, "%s (pid %lld)", program(w, ci), (long long)t->pid);
        else
            snprintf(name, sizeof name, "varbench (pid %lld)", (long long)t->pid);
        meta_name(w, "process_name", t->pid, 0, name);
        meta_sort(w, "process_sort_index", t->pid, 0, SORT_HOST);
    }
    if (t->thread == -2)
        n = snprintf(name, sizeof name, "cases");
    else if (t->thread < 0)
        n = snprintf(name, sizeof name, "host (thread not recorded)");
    else
        n = snprintf(name, sizeof name, "thread %lld", (long long)t->thread);
    if (t->lane && n > 0 && (size_t)n < sizeof name)
        snprintf(name + n, sizeof name - (size_t)n, " (overlaps %d)", t->lane);
    meta_name(w, "thread_name", t->pid, t->tid, name);
    meta_sort(w, "thread_sort_index", t->pid, t->tid, t->thread == -2 ? t->lane - 1000 : t->sort);
    return 0;
}

/* host_event writes host record r (an NVTX range or an API call) on its thread, on the first
 * lane where it nests, and the start of its arrow. */
static int host_event(struct vb_export_trace *w, const struct vb_export_rec *r, struct vb_err *err)
{
    int ci = case_index(w, r->case_id), is_new;
    int64_t pid = r->process > 0 ? r->process : VB_TRACKS_RUN_PID;
    struct vb_track *t = vb_tracks_place(w->tracks, pid, r->thread, r->start, r->end, &is_new);
    char name[256];
    if (!t) return oom(err);
    if (is_new && host_track_names(w, t, ci, err)) return -1;
    if (t->lane) w->st->lane_events++;
    extent(w, ci, r->start, r->end);
    if (r->kind == VB_EXPORT_RANGE && r->nvtx_type == VB_NVTX_MARK) {
        next_event(w); /* an instant: a mark */
        fputs("{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"user_annotation\",\"name\":\"", w->f);
        vb_put_json(w->f, r->name);
        fprintf(w->f, "\",\"pid\":%lld,\"tid\":%lld,\"ts\":", (long long)t->pid, (long long)t->tid);
        put_us(w->f, r->start - w->origin);
        fputs(",\"args\":{\"mark\":true", w->f);
    } else if (r->kind == VB_EXPORT_RANGE) {
        begin_x(w, "user_annotation", r->name, t, r->start, r->end);
        fprintf(w->f, "\"nvtx\":\"%s\"",
                r->nvtx_type == VB_NVTX_STARTEND ? "start/end" : "push/pop");
        if (r->open) {
            fputs(",\"open\":true", w->f);
            w->st->open_ranges++;
        }
    } else {
        begin_x(w, r->driver ? "cuda_driver" : "cuda_runtime",
                vb_summary_api_name(r->name, name, sizeof name), t, r->start, r->end);
        fprintf(w->f, "\"correlation\":%lld,\"return value\":%lld", (long long)r->correlation,
                (long long)r->ret);
    }
    if (r->kind == VB_EXPORT_RANGE && r->domain[0]) {
        fputs(",\"domain\":\"", w->f);
        vb_put_json(w->f, r->domain);
        fputc('"', w->f);
    }
    fputs("}}", w->f);
    w->st->written[r->kind]++;
    if (r->flow && ci >= 0) {
        flow(w, 's', flow_id(ci, r->correlation), t, r->start);
        w->st->flows++;
    }
    return 0;
}

/* A case's window on the "cases" track. */
struct span {
    int64_t lo, hi;
    int i;
};

static int by_start(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    return x->hi > y->hi ? -1 : x->hi < y->hi; /* the longer first, as placing wants */
}

/* case_spans writes one event per case on the run's "cases" track (lanes where cases ran at
 * once, as the processes of a traced program can): its window, grown to its records. */
static int case_spans(struct vb_export_trace *w, struct vb_err *err)
{
    struct span *sp = malloc((size_t)(w->ncases ? w->ncases : 1) * sizeof *sp);
    char name[512];
    int i, n = 0, rc = 0;
    if (!sp) return oom(err);
    for (i = 0; i < w->ncases; i++) {
        const struct vb_export_case *c = &w->cases[i];
        struct span x = {w->lo[i], w->hi[i], i};
        if (c->start > 0 && c->start < x.lo) x.lo = c->start;
        if (c->end > 0 && c->end > x.hi) x.hi = c->end;
        if (x.lo <= x.hi) sp[n++] = x; /* a case without records or window is not drawn */
    }
    qsort(sp, (size_t)n, sizeof *sp, by_start);
    for (i = 0; i < n && !rc; i++) {
        const struct vb_export_case *c = &w->cases[sp[i].i];
        int is_new;
        struct vb_track *t =
            vb_tracks_place(w->tracks, VB_TRACKS_RUN_PID, -2, sp[i].lo, sp[i].hi, &is_new);
        if (!t) {
            rc = oom(err);
            break;
        }
        if (is_new && (rc = host_track_names(w, t, sp[i].i, err))) break;
        snprintf(name, sizeof name, "%s%s%s", c->variant, c->axes[0] ? " " : "", c->axes);
        begin_x(w, "case", name, t, sp[i].lo, sp[i].hi);
        fprintf(w->f, "\"case\":%lld,\"variant\":\"", (long long)c->id);
        vb_put_json(w->f, c->variant);
        fputs("\",\"axes\":\"", w->f);
        vb_put_json(w->f, c->axes);
        fprintf(w->f, "\",\"status\":\"%s\"}}", c->status);
        w->st->spans++;
    }
    free(sp);
    return rc;
}

static void put_str(FILE *f, const char *key, const char *v, const char *sep)
{
    fprintf(f, "\"%s\":\"", key);
    vb_put_json(f, v);
    fprintf(f, "\"%s", sep);
}

/* device_properties writes Kineto's deviceProperties from the run's GPUs. */
static void device_properties(struct vb_export_trace *w)
{
    int i;
    fputs("\"deviceProperties\":[", w->f);
    for (i = 0; i < w->ngpus; i++) {
        const struct vb_export_gpu *g = &w->gpus[i];
        fprintf(w->f, "%s\n{\"id\":%d,", i ? "," : "", g->id);
        put_str(w->f, "name", g->name, ",");
        fprintf(w->f,
                "\"totalGlobalMem\":%lld,\"computeMajor\":%d,\"computeMinor\":%d,\"numSms\":%d,"
                "\"l2CacheSize\":%lld,\"clockRateKHz\":%d,\"memoryClockRateKHz\":%d,"
                "\"memoryBusWidth\":%d,",
                (long long)g->total_mem, g->cc_major, g->cc_minor, g->sm_count,
                (long long)g->l2_bytes, g->clock_khz, g->mem_clock_khz, g->bus_width);
        put_str(w->f, "uuid", g->uuid, ",");
        put_str(w->f, "busLocation", g->bus, ",");
        put_str(w->f, "driverVersion", g->driver, "}");
    }
    fputs("],\n", w->f);
}

/* varbench_meta writes the file's "varbench" object: the run, the export, the counts. */
static void varbench_meta(struct vb_export_trace *w, const char *command_line)
{
    static const char *const keys[] = {"kernels", "copies", "memsets", "nvtx_ranges", "api_calls"};
    const struct vb_export_trace_stats *st = w->st;
    FILE *f = w->f;
    int i;
    fprintf(f, "\"varbench\":{\"run\":%lld,", (long long)w->run->id);
    put_str(f, "uuid", w->run->uuid, ",");
    put_str(f, "kind", w->run->kind, ",");
    put_str(f, "status", w->run->status, ",");
    put_str(f, "command_line", w->run->command_line, ",");
    put_str(f, "git_commit", w->run->git_commit, ",");
    put_str(f, "start_utc", w->run->start_utc, ",");
    put_str(f, "host", w->run->host, ",\n");
    put_str(f, "export_command_line", command_line ? command_line : "", ",");
    put_str(f, "case_glob", w->glob ? w->glob : "", ",\n");
    fprintf(f,
            "\"origin_ns\":%lld,\"clock\":\"CUPTI timestamps: ns since the Unix epoch; ts and dur "
            "are us from origin_ns\",\n\"pids\":{\"run\":%d,\"gpu\":\"%d + device id\"},\n"
            "\"cases\":[",
            (long long)st->origin_ns, VB_TRACKS_RUN_PID, (int)VB_TRACKS_GPU_PID(0));
    for (i = 0; i < w->ncases; i++) {
        fprintf(f, "%s\n{\"id\":%lld,", i ? "," : "", (long long)w->cases[i].id);
        put_str(f, "variant", w->cases[i].variant, ",");
        put_str(f, "axes", w->cases[i].axes, ",");
        put_str(f, "status", w->cases[i].status, "}");
    }
    fputs("],\n\"records\":{", f);
    for (i = 0; i < VB_EXPORT_KINDS; i++)
        fprintf(f, "%s\"%s\":{\"stored\":%lld,\"exported\":%lld}", i ? "," : "", keys[i],
                (long long)st->stored[i], (long long)st->written[i]);
    fprintf(f,
            "},\n\"flows\":%lld,\"flow_ends\":%lld,\"case_spans\":%lld,\"clamped\":%lld,"
            "\"clamped_max_ns\":%lld,\"overlap_lane_events\":%lld,\"open_ranges\":%lld,"
            "\"concurrent_gpu_events\":%lld}",
            (long long)st->flows, (long long)st->flow_ends, (long long)st->spans,
            (long long)st->clamped, (long long)st->clamped_max, (long long)st->lane_events,
            (long long)st->open_ranges, (long long)st->concurrent);
}

/* origin_of returns the earliest time of the export: the first record of either walk (each
 * comes by start) or a case's window. */
static int64_t origin_of(const struct vb_export_trace *w, const struct vb_export_rec *g, int have_g,
                         const struct vb_export_rec *h, int have_h)
{
    int64_t o = INT64_MAX;
    int i;
    if (have_g) o = g->start;
    if (have_h && h->start < o) o = h->start;
    for (i = 0; i < w->ncases; i++)
        if (w->cases[i].start > 0 && w->cases[i].start < o) o = w->cases[i].start;
    return o == INT64_MAX ? 0 : o;
}

/* run_names names the run's own process (its "cases" track and host records without a
 * process). */
static int run_names(struct vb_export_trace *w, struct vb_err *err)
{
    char name[160];
    if (vb_tracks_process(w->tracks, VB_TRACKS_RUN_PID) < 0) return oom(err);
    snprintf(name, sizeof name, "varbench run %lld (%s)", (long long)w->run->id, w->run->kind);
    meta_name(w, "process_name", VB_TRACKS_RUN_PID, 0, name);
    meta_sort(w, "process_sort_index", VB_TRACKS_RUN_PID, 0, SORT_RUN);
    return 0;
}

int vb_export_trace_open(struct vb_store *s, const struct vb_run_row *run, const char *glob,
                         struct vb_export_trace **out, struct vb_err *err)
{
    struct vb_export_trace *w = calloc(1, sizeof *w);
    int i;
    *out = NULL;
    if (!w) return oom(err);
    w->run = run;
    w->glob = glob && *glob ? glob : NULL;
    w->st = &w->stats;
    w->first = 1;
    w->trace_run = !strcmp(run->kind, "trace");
    if (vb_store_export_cases(s, run->id, w->glob, &w->cases, &w->ncases, err)) goto fail;
    w->st->ncases = w->ncases;
    if (w->glob && !w->ncases) {
        vb_store_export_no_case(run->id, w->glob, err);
        goto fail;
    }
    if (!(w->lo = malloc((size_t)(w->ncases + 1) * sizeof *w->lo)) ||
        !(w->hi = malloc((size_t)(w->ncases + 1) * sizeof *w->hi)) ||
        !(w->tracks = vb_tracks_new())) {
        oom(err);
        goto fail;
    }
    for (i = 0; i < w->ncases; i++)
        w->lo[i] = INT64_MAX, w->hi[i] = INT64_MIN;
    if (vb_store_export_gpus(s, run->id, &w->gpus, &w->ngpus, err) ||
        vb_store_export_counts(s, w->cases, w->ncases, w->st->stored, err) ||
        vb_store_export_open(s, w->cases, w->ncases, 0, &w->gc, err) ||
        vb_store_export_open(s, w->cases, w->ncases, 1, &w->hc, err))
        goto fail;
    *out = w;
    return 0;
fail:
    vb_export_trace_close(w);
    return -1;
}

int vb_export_trace_write(struct vb_export_trace *w, FILE *f, const char *command_line,
                          struct vb_export_trace_stats *st, struct vb_err *err)
{
    struct vb_export_rec g, h;
    int have_g, have_h = 0, rc = -1;
    w->f = f;
    if ((have_g = vb_store_export_next(w->gc, &g, err)) < 0 ||
        (have_h = vb_store_export_next(w->hc, &h, err)) < 0)
        goto out;
    w->origin = w->st->origin_ns = origin_of(w, &g, have_g, &h, have_h);
    fprintf(f, "{\"schemaVersion\":1,\"displayTimeUnit\":\"ns\",\"baseTimeNanoseconds\":%lld,\n",
            (long long)w->origin);
    device_properties(w);
    fputs("\"traceEvents\":[", f);
    if (run_names(w, err)) goto out;
    for (; have_g > 0; have_g = vb_store_export_next(w->gc, &g, err))
        if (gpu_event(w, &g, err)) goto out;
    if (have_g < 0) goto out;
    for (; have_h > 0; have_h = vb_store_export_next(w->hc, &h, err))
        if (host_event(w, &h, err)) goto out;
    if (have_h < 0 || case_spans(w, err)) goto out;
    fputs("\n],\n", f);
    varbench_meta(w, command_line);
    fputs("}\n", f);
    rc = ferror(f) ? vb_err_set(err, VB_E_SYS, "writing the trace failed") : 0;
out:
    *st = w->stats;
    return rc;
}

void vb_export_trace_close(struct vb_export_trace *w)
{
    int i;
    if (!w) return;
    vb_store_export_close(w->gc);
    vb_store_export_close(w->hc);
    vb_tracks_free(w->tracks);
    for (i = 0; i < NAME_CACHE; i++)
        free(w->names[i].name);
    free(w->cases);
    free(w->gpus);
    free(w->lo);
    free(w->hi);
    free(w);
}

char *vb_export_trace_kind_name(int k, int64_t n, char *buf, size_t size)
{
    static const char *const one[] = {"kernel", "copy", "memset", "NVTX range", "API call"};
    static const char *const many[] = {"kernels", "copies", "memsets", "NVTX ranges", "API calls"};
    if (k < 0 || k >= VB_EXPORT_KINDS)
        snprintf(buf, size, "%lld records", (long long)n);
    else
        snprintf(buf, size, "%lld %s", (long long)n, n == 1 ? one[k] : many[k]);
    return buf;
}
