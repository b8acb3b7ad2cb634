/*
 * store_write: what a run writes (see store.h): the run's row and its end, its host, GPUs and
 * ceilings, and each case (its columns: store_columns.c) with its axes, samples, CUPTI records,
 * metric values and summaries in one transaction, so that an interrupted or failed write keeps
 * nothing of the case. Workload: a case of thousands of samples and records is written in a few ms
 * through the statement cache; kernel names and NVTX texts go to StringIds once each.
 */
#include "store_int.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "env.h"
#include "result.h"

/* utc_now writes the time as ISO 8601 UTC with milliseconds ("2025-01-31T12:00:00.123Z"): the
 * text that sorts as it reads, which the "newest run" rule (store_int.h) relies on. */
static void utc_now(char *buf, size_t n)
{
    struct timespec ts;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &ts);
    gmtime_r(&ts.tv_sec, &tm);
    snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
}

/* make_uuid writes a random (version 4) UUID: the run's identity across databases, so that
 * runs merged from several machines are never confused or duplicated. */
static int make_uuid(char *buf, size_t n)
{
    unsigned char b[16];
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = f ? fread(b, 1, sizeof b, f) : 0;
    if (f) fclose(f);
    if (got != sizeof b) return -1;
    b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
    b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
    snprintf(buf, n, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
    return 0;
}

int vb_store_run_begin(struct vb_store *s, const struct vb_run_info *info, int64_t *run_id,
                       struct vb_err *err)
{
    static const char sql[] =
        "INSERT INTO runs(uuid, kind, status, command_line, cwd, git_commit, "
        "varbench_version, options, start_utc) VALUES (?,?,'running',?,?,?,?,?,?)";
    char now[40], uuid[40];
    utc_now(now, sizeof now);
    if (make_uuid(uuid, sizeof uuid))
        return vb_err_set(err, VB_E_SYS, "no random bytes for a run id");
    return vb_store_put(s, sql, run_id, err, "tttttttt", uuid, info->kind, info->command_line,
                        info->cwd, info->git_commit, info->version, info->options, now);
}

int vb_store_run_end(struct vb_store *s, int64_t run_id, const char *status, int exit_code,
                     const char *message, struct vb_err *err)
{
    static const char sql[] =
        "UPDATE runs SET status = ?, end_utc = ?, exit_code = ?, message = ? WHERE id = ?";
    char now[40];
    utc_now(now, sizeof now);
    return vb_store_put(s, sql, NULL, err, "ttnti", status, now, exit_code, message, run_id);
}

int vb_store_host(struct vb_store *s, int64_t run_id, const struct vb_host_env *h,
                  struct vb_err *err)
{
    static const char sql[] = "INSERT INTO host_env VALUES (?,?,?,?,?,?,?)";
    return vb_store_put(s, sql, NULL, err, "ittttnu", run_id, h->hostname, h->os, h->kernel, h->cpu,
                        h->ncpu, h->mem_bytes);
}

int vb_store_put_gpu(struct vb_store *s, const char *sql, int64_t run_id,
                     const struct vb_gpu_env *g, struct vb_err *err)
{
    return vb_store_put(s, sql, NULL, err, "intttnnnuundnntnntnnuddddd", run_id, g->id, g->name,
                        g->uuid, g->bus, g->cc_major, g->cc_minor, g->sm_count, g->total_mem,
                        g->l2_bytes, g->clock_khz, g->sm_clock_mhz, g->mem_clock_khz,
                        g->mem_bus_width, g->pcie_speed, g->pcie_gen, g->pcie_width, g->driver,
                        g->cuda_driver_version, g->cuda_runtime_version, (uint64_t)g->cupti_version,
                        g->energy_period_ms, g->energy_step_mj, g->power_period_ms, g->idle_w,
                        g->idle_unc_w);
}

int vb_store_gpu(struct vb_store *s, int64_t run_id, const struct vb_gpu_env *g, struct vb_err *err)
{
    static const char sql[] = "INSERT INTO TARGET_INFO_GPU VALUES " VB_GPU_VALUES;
    return vb_store_put_gpu(s, sql, run_id, g, err);
}

int vb_store_ceilings(struct vb_store *s, int64_t run_id, int device, const struct vb_ceiling *c,
                      struct vb_err *err)
{
    static const char sql[] = "INSERT INTO ceilings VALUES (?,?,?,?,?,?,?)";
    int i;
    for (i = 0; i < VB_CEIL_COUNT; i++)
        if (vb_store_put(s, sql, NULL, err, "intundd", run_id, device, c[i].name, c[i].bytes,
                         c[i].reps, c[i].median_ns, c[i].gbps))
            return -1;
    return 0;
}

/* variant_id sets *id to the variants row of f/v, inserting it or refreshing its summary, seed,
 * problem and flags (a row of a file older than schema 8 has none until then). 0 or -1 with
 * err. */
static int variant_id(struct vb_store *s, const struct vb_family *f, const struct vb_variant *v,
                      int64_t *id, struct vb_err *err)
{
    static const char ins[] =
        "INSERT INTO variants(family, name, summary, seed, is_reference, needs_gpu, problem, "
        "flags) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT(family, name) DO UPDATE SET "
        "summary = excluded.summary, seed = excluded.seed, is_reference = excluded.is_reference, "
        "needs_gpu = excluded.needs_gpu, problem = excluded.problem, flags = excluded.flags "
        "RETURNING id";
    sqlite3_stmt *st = vb_store_stmt(s, ins, err);
    int rc;
    if (!st) return -1;
    if (sqlite3_bind_text(st, 1, f->name, -1, SQLITE_STATIC) ||
        sqlite3_bind_text(st, 2, v->name, -1, SQLITE_STATIC) ||
        sqlite3_bind_text(st, 3, v->summary, -1, SQLITE_STATIC) ||
        sqlite3_bind_text(st, 4, f->seed, -1, SQLITE_STATIC) ||
        sqlite3_bind_int(st, 5, !!(v->flags & VB_REFERENCE)) ||
        sqlite3_bind_int(st, 6, !!(v->flags & VB_GPU)) ||
        sqlite3_bind_text(st, 7, v->problem ? v->problem->name : NULL, -1, SQLITE_STATIC) ||
        sqlite3_bind_int64(st, 8, (int64_t)v->flags))
        return vb_store_fail(s, err, "bind");
    rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) return vb_store_fail(s, err, "variants");
    *id = sqlite3_column_int64(st, 0);
    while (sqlite3_step(st) == SQLITE_ROW) {
    }
    sqlite3_reset(st);
    return 0;
}

/* put_summaries writes the case's named numbers (r->summaries[0..nsummaries)) inside the
 * caller's transaction, refusing a name vb_store_summary_name_ok refuses or one given twice (the
 * runner checks them as the benchmark gives them: this is the last guard). 0 or -1 with err. */
static int put_summaries(struct vb_store *s, int64_t case_id, const struct vb_case_result *r,
                         struct vb_err *err)
{
    static const char q[] = "INSERT INTO case_summaries(case_id, name, value, unit) "
                            "VALUES (?,?,?,?)";
    char why[160];
    int k, j;
    if (r->nsummaries < 0 || r->nsummaries > VB_MAX_SUMMARIES)
        return vb_err_set(err, VB_E_DB, "internal: %d summaries (at most %d)", r->nsummaries,
                          VB_MAX_SUMMARIES);
    for (k = 0; k < r->nsummaries; k++) {
        const struct vb_summary_value *x = &r->summaries[k];
        if (!memchr(x->name, '\0', sizeof x->name) || !memchr(x->unit, '\0', sizeof x->unit))
            return vb_err_set(err, VB_E_USAGE, "summary %d: its name or unit is too long", k);
        if (!vb_store_summary_name_ok(x->name, why, sizeof why))
            return vb_err_set(err, VB_E_USAGE, "summary %d: %s", k, why);
        for (j = 0; j < k; j++)
            if (!strcmp(r->summaries[j].name, x->name))
                return vb_err_set(err, VB_E_USAGE, "summary '%s' is given twice", x->name);
        if (vb_store_put(s, q, NULL, err, "itdt", case_id, x->name, x->value,
                         x->unit[0] ? x->unit : NULL))
            return -1;
    }
    return 0;
}

static const char *const sample_kinds[] = {"verify", "warmup", "timed"};

/* short_name extracts the identifier from an Itanium-mangled name ("_Z18mesh_a_kernelPKd..."),
 * or copies an unmangled one. */
static void short_name(const char *mangled, char *buf, size_t n)
{
    const char *p = mangled;
    long len;
    char *end;
    if (strncmp(p, "_Z", 2) == 0) {
        p += 2;
        if (*p == 'N') p++; /* nested: take the first component */
        len = strtol(p, &end, 10);
        if (len > 0 && (size_t)len < n && strlen(end) >= (size_t)len) {
            memcpy(buf, end, (size_t)len);
            buf[len] = '\0';
            return;
        }
    }
    snprintf(buf, n, "%s", mangled);
}

/* put_records writes the case's CUPTI records (kernels, copies, memsets, NVTX ranges, API calls)
 * and metric values, each tied to its sample's row (sample_ids[k] is r->samples[k]'s id), inside
 * the caller's transaction. 0 or -1 with err. */
static int put_records(struct vb_store *s, int64_t case_id, const struct vb_case_result *r,
                       const int64_t *sample_ids, struct vb_err *err)
{
    static const char kq[] = "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES "
                             "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    static const char cq[] =
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    static const char mq[] =
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)";
    /* eventType as in the Nsight Systems export (34 mark, 59 push/pop, 60 start/end range); the
     * text and the domain's name are registered in StringIds (textId, domainId) */
    static const char nq[] = "INSERT INTO NVTX_EVENTS VALUES (?,?,?,?,NULL,?,?,?,?,?,?,?,?)";
    static const char rq[] = "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,?,?,?,?)";
    static const char xq[] = "INSERT INTO metrics VALUES (?,?,?,?,?)";
    const struct vb_activity *a = &r->activity;
    size_t i;
    int k;
/* records outside every sample (poisoning, set-up) get a NULL sample_id (bound as 0); those of
 * a timed sample past --keep-records are not stored (the sample row keeps their sums) */
#define SAMPLE_ID(t) ((k = vb_sample_find(r, (t))) >= 0 ? sample_ids[k] : (int64_t)0)
#define SKIP(t)      ((k = vb_sample_find(r, (t))) >= 0 && r->samples[k].records_dropped)
    for (i = 0; i < a->nkernels; i++) {
        const struct vb_kernel_rec *x = &a->kernels[i];
        char sn[256];
        int64_t sid, mid, smp;
        if (SKIP(x->start)) continue;
        smp = SAMPLE_ID(x->start);
        short_name(x->name, sn, sizeof sn);
        if (vb_store_string_id(s, sn, &sid, err) || vb_store_string_id(s, x->name, &mid, err))
            return -1;
        if (vb_store_put(s, kq, NULL, err, "iUuunnnnnnnnnnnnniiUU", case_id, (uint64_t)smp,
                         x->start, x->end, (int)x->device, (int)x->context, (int)x->stream,
                         (int)x->correlation, x->grid[0], x->grid[1], x->grid[2], x->block[0],
                         x->block[1], x->block[2], x->static_smem, x->dynamic_smem,
                         (int)x->registers, sid, mid, (uint64_t)x->graph, x->graph_node))
            return -1;
    }
    for (i = 0; i < a->ncopies; i++) {
        const struct vb_copy_rec *x = &a->copies[i];
        if (SKIP(x->start)) continue;
        int peer = x->copy_kind == VB_COPY_PTOP; /* its two devices; NULL for the others */
        if (vb_store_put(s, cq, NULL, err, "iUuunnnnunnnUUdd", case_id,
                         (uint64_t)SAMPLE_ID(x->start), x->start, x->end, (int)x->device,
                         (int)x->context, (int)x->stream, (int)x->correlation, x->bytes,
                         (int)x->copy_kind, (int)x->src_kind, (int)x->dst_kind, (uint64_t)x->graph,
                         x->graph_node, peer ? (double)x->src_device : NAN,
                         peer ? (double)x->dst_device : NAN))
            return -1;
    }
    for (i = 0; i < a->nmemsets; i++) {
        const struct vb_memset_rec *x = &a->memsets[i];
        if (SKIP(x->start)) continue;
        if (vb_store_put(s, mq, NULL, err, "iUuunnnnnunUU", case_id, (uint64_t)SAMPLE_ID(x->start),
                         x->start, x->end, (int)x->device, (int)x->context, (int)x->stream,
                         (int)x->correlation, (int)x->value, x->bytes, (int)x->memory_kind,
                         (uint64_t)x->graph, x->graph_node))
            return -1;
    }
    for (i = 0; i < a->nranges; i++) {
        const struct vb_range_rec *x = &a->ranges[i];
        int64_t tid, did = 0;
        if (SKIP(x->start)) continue;
        if (vb_store_string_id(s, x->text, &tid, err) ||
            (x->domain && vb_store_string_id(s, x->domain, &did, err)) ||
            vb_store_put(s, nq, NULL, err, "iUuUinUUUUUU", case_id, (uint64_t)SAMPLE_ID(x->start),
                         x->start, x->end, tid, x->type ? (int)x->type : VB_NVTX_PUSHPOP,
                         (uint64_t)x->process, (uint64_t)x->thread, (uint64_t)did,
                         (uint64_t)x->category, (uint64_t)x->color, (uint64_t)x->end_thread))
            return -1;
    }
    for (i = 0; i < a->napis; i++) {
        const struct vb_api_rec *x = &a->apis[i];
        int64_t nid;
        if (vb_store_string_id(s, x->name, &nid, err) ||
            vb_store_put(s, rq, NULL, err, "iuunnininn", case_id, x->start, x->end, (int)x->driver,
                         (int)x->cbid, nid, (int)x->correlation, (int64_t)x->process,
                         (int)x->thread, (int)x->ret))
            return -1;
    }
    for (i = 0; i < r->nmetrics; i++) {
        const struct vb_metric_value *x = &r->metrics[i];
        int64_t kid;
        if (vb_store_string_id(s, x->kernel, &kid, err) ||
            vb_store_put(s, xq, NULL, err, "initd", case_id, x->launch, kid, x->metric, x->value))
            return -1;
    }
#undef SKIP
#undef SAMPLE_ID
    return 0;
}

int vb_store_case(struct vb_store *s, int64_t run_id, const struct vb_case_result *r,
                  int64_t *case_id, struct vb_err *err)
{
    static const char aq[] = "INSERT INTO case_axes VALUES (?,?,?,?)";
#define CTL_COL(id, col, what)  ", " col
#define CTL_ARG(id, col, what)  ",?"
#define CTL_TYPE(id, col, what) "d"
    static const char sq[] =
        "INSERT INTO samples(case_id, idx, kind, start, end, e2e_ns, h2d_bytes, h2d_count, h2d_ns, "
        "d2h_bytes, d2h_count, d2h_ns, kernel_count, kernel_ns, memset_bytes, memset_count, "
        "memset_ns, gpu_ns, sm_clock_mhz, dropped, records_kept, comm_ns" VB_CONTROLS(
            CTL_COL) ") "
                     "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?" VB_CONTROLS(CTL_ARG) ")";
    static const char stypes[] = "intuudundundndundddnnd" VB_CONTROLS(CTL_TYPE);
#undef CTL_COL
#undef CTL_ARG
#undef CTL_TYPE
    int64_t vid = 0, cid = 0, *sids = NULL;
    int i;
    /* the write lock first (waiting for other writers) and then reads: a concurrent writer can
     * never make this transaction's upgrade fail */
    if (vb_store_begin(s, err)) return -1;
    if (variant_id(s, r->family, r->variant, &vid, err)) goto fail;
    /* the row of cases: its columns are store_columns.c's table */
    if (vb_store_case_insert(s, run_id, vid, r, &cid, err)) goto fail;
    for (i = 0; i < r->variant->problem->naxes; i++) {
        const struct vb_axis *x = &r->variant->problem->axes[i]; /* the case's axes */
        char text[64];
        /* a string axis's label; a float axis's value as text (its long holds the double's bits:
         * readers take a labelled axis as categorical, never as a number to interpolate) */
        if (vb_store_put(s, aq, NULL, err, "itit", cid, x->name, (int64_t)r->point.v[i],
                         x->labels || x->kind == VB_AXIS_FLOAT
                             ? vb_axis_value_name(x, r->point.v[i], text, sizeof text)
                             : NULL))
            goto fail;
    }
    sids = malloc(sizeof *sids * (size_t)(r->nsamples ? r->nsamples : 1));
    if (!sids) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto fail;
    }
    for (i = 0; i < r->nsamples; i++) {
        const struct vb_sample *x = &r->samples[i];
        int have = r->have_records;
        /* a control that is no time (a copy whose records never came: 0) is not measured */
#define CTL(c) (x->ctl[c] > 0 ? x->ctl[c] : NAN)
        _Static_assert(VB_CTL_COUNT == 5, "one argument per control below");
        if (vb_store_put(s, sq, &sids[i], err, stypes, cid, i, sample_kinds[x->kind], x->start,
                         x->end, x->e2e_ns, x->h2d_bytes, x->h2d_count, have ? x->h2d_ns : NAN,
                         x->d2h_bytes, x->d2h_count, have ? x->d2h_ns : NAN, x->kernel_count,
                         have ? x->kernel_ns : NAN, x->memset_bytes, x->memset_count,
                         have ? x->memset_ns : NAN, have ? x->gpu_ns : NAN, x->sm_clock_mhz,
                         x->dropped, !x->records_dropped, have ? x->comm_ns : NAN, CTL(VB_CTL_CPU),
                         CTL(VB_CTL_MEM), CTL(VB_CTL_H2D), CTL(VB_CTL_D2H), CTL(VB_CTL_THR)))
#undef CTL
            goto fail;
    }
    if (put_records(s, cid, r, sids, err) || put_summaries(s, cid, r, err)) goto fail;
    /* the crash-safety test's hook: die here, inside the case's write, as a SIGKILL would */
    if (getenv("VARBENCH_TEST_KILL_IN_WRITE")) raise(SIGKILL);
    if (vb_store_commit(s, err)) goto fail;
    free(sids);
    if (case_id) *case_id = cid;
    return 0;
fail:
    free(sids);
    vb_store_rollback(s);
    return -1;
}

int vb_store_case_metrics(struct vb_store *s, int64_t case_id, const struct vb_metric_value *m,
                          size_t n, double ns, const char *failure, const char *note,
                          struct vb_err *err)
{
    static const char xq[] = "INSERT INTO metrics VALUES (?,?,?,?,?)";
    size_t i;
    if (vb_store_begin(s, err)) return -1;
    for (i = 0; i < n; i++) {
        int64_t kid;
        if (vb_store_string_id(s, m[i].kernel, &kid, err) ||
            vb_store_put(s, xq, NULL, err, "initd", case_id, m[i].launch, kid, m[i].metric,
                         m[i].value))
            goto fail;
    }
    if (failure ? vb_store_put(s,
                               "UPDATE cases SET metrics_status = 'failed', metrics_reason = ?, "
                               "metrics_ns = NULL WHERE id = ?",
                               NULL, err, "ti", failure, case_id)
                : vb_store_put(s,
                               "UPDATE cases SET metrics_ns = metrics_ns + ?, metrics_reason = "
                               "coalesce(?, metrics_reason) WHERE id = ?",
                               NULL, err, "dti", ns, note, case_id))
        goto fail;
    if (vb_store_commit(s, err)) goto fail;
    return 0;
fail:
    vb_store_rollback(s);
    return -1;
}
