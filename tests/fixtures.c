/* fixtures: synthetic runs (see fixtures.h). */
#include "fixtures.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "varbench.h"
#include "test.h"
#include "trace.h"

const struct vb_family *fx_family(const char *name)
{
    int i;
    for (i = 0; vb_families[i]; i++)
        if (!strcmp(vb_families[i]->name, name)) return vb_families[i];
    return NULL;
}

const struct vb_problem *fx_problem(const char *fam, const char *name)
{
    const struct vb_family *f = fx_family(fam);
    int j;
    for (j = 0; f && j < f->nvariants; j++)
        if (!name || !strcmp(f->variants[j].problem->name, name)) return f->variants[j].problem;
    return NULL;
}

int fx_variant(const char *full, const struct vb_family **f, const struct vb_variant **v)
{
    const char *slash = strchr(full, '/');
    char fam[64];
    int j;
    if (!slash || (size_t)(slash - full) >= sizeof fam) return -1;
    snprintf(fam, sizeof fam, "%.*s", (int)(slash - full), full);
    if (!(*f = fx_family(fam))) return -1;
    for (j = 0; j < (*f)->nvariants; j++)
        if (!strcmp((*f)->variants[j].name, slash + 1)) {
            *v = &(*f)->variants[j];
            return 0;
        }
    return -1;
}

void fx_tmp_path(char *buf, size_t n, const char *name)
{
    const char *d = getenv("TMPDIR");
    snprintf(buf, n, "%s/vbtest-%d-%s", d && *d ? d : "/tmp", (int)getpid(), name);
    unlink(buf);
}

char *fx_read_back(FILE *f, char *buf, size_t n)
{
    size_t got;
    rewind(f);
    got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

static enum vb_status status_of(const char *s)
{
    int k;
    for (k = 0; k < VB_STATUS_COUNT; k++)
        if (!strcmp(vb_status_name((enum vb_status)k), s)) return (enum vb_status)k;
    return VB_STATUS_FAILED;
}

const struct fx_case fx_mesh_cases[3] = {
    {"host-mesh", 1000, 50, 20.0, "ok"},
    {"device-mesh", 1000, 50, 0.6, "ok"},
    {"device-mesh-pinned", 1000, 50, 0.18, "ok"},
};

int fx_write_run(struct vb_store *s, const char *gpu, const struct fx_case *cases, int n,
                 int64_t *run_id, struct vb_err *err)
{
    struct vb_run_info info = {"suite", "fixture", NULL, "fixture", "0", ""};
    /* a hostile host name: every page must escape what it takes from a database */
    struct vb_host_env host = {"<b>fixture&host</b>", "Debian", "Linux", "Fixture CPU", 4, 1 << 30};
    struct vb_gpu_env g;
    struct vb_ceiling c[VB_CEIL_COUNT];
    int i, k;
    vb_env_gpu_clear(&g);
    snprintf(g.name, sizeof g.name, "%s", gpu);
    memset(c, 0, sizeof c);
    for (k = 0; k < VB_CEIL_COUNT; k++)
        c[k].name = vb_ceiling_name((enum vb_ceiling_id)k), c[k].gbps = 50.0 * (k + 1),
        c[k].bytes = 1 << 20, c[k].reps = 3;
    if (vb_store_run_begin(s, &info, run_id, err) || vb_store_host(s, *run_id, &host, err) ||
        vb_store_gpu(s, *run_id, &g, err) || vb_store_ceilings(s, *run_id, 0, c, err))
        return -1;
    for (i = 0; i < n; i++) {
        struct vb_case_result r;
        struct vb_sample *smp = calloc((size_t)cases[i].samples + 1, sizeof *smp);
        double *ms = calloc((size_t)cases[i].samples + 1, sizeof *ms);
        int rc;
        memset(&r, 0, sizeof r);
        char full[128];
        snprintf(full, sizeof full, "mesh/%s", cases[i].variant);
        if (!smp || !ms || fx_variant(full, &r.family, &r.variant)) {
            free(smp);
            free(ms);
            return vb_err_set(err, VB_E_USAGE, "fixture: bad case %d", i);
        }
        r.point.v[0] = r.point.v[1] = cases[i].n;
        vb_point_format(r.variant->problem, &r.point, r.axes, sizeof r.axes);
        r.device = 0;
        r.status = status_of(cases[i].status);
        r.max_abs_err = r.max_rel_err = 0;
        r.stop_reason = "fixture";
        r.have_records = 1;
        r.samples = smp;
        r.nsamples = r.ntimed = cases[i].samples;
        for (k = 0; k < cases[i].samples; k++) {
            ms[k] = cases[i].median_ms *
                    (1 + vb_data_uniform((uint64_t)i + 7, (uint64_t)k, -0.01, 0.01));
            smp[k].kind = VB_SAMPLE_TIMED;
            smp[k].start = 1000000 * (uint64_t)(k + 1);
            smp[k].end = smp[k].start + (uint64_t)(ms[k] * 1e6);
            smp[k].e2e_ns = ms[k] * 1e6;
            smp[k].kernel_ns = ms[k] * 1e6 / 2;
            smp[k].gpu_ns = smp[k].kernel_ns; /* the whole GPU time: judged on it, not e2e */
            smp[k].sm_clock_mhz = 1980;
            smp[k].kernel_count = 1;
        }
        vb_stats_compute(ms, (size_t)cases[i].samples, &r.e2e_ms);
        r.kernel_ms = r.h2d_ms = r.d2h_ms = r.e2e_ms;
        rc = vb_store_case(s, *run_id, &r, NULL, err);
        free(smp);
        free(ms);
        if (rc) return -1;
    }
    return vb_store_run_end(s, *run_id, "complete", 0, "fixture", err);
}

/* put_board_case writes case c on device dev (-1: CPU-only) of run run_id, its median scaled
 * by scale, the samples' jitter seeded by seed; see fx_write_boards_run. */
static int put_board_case(struct vb_store *s, int64_t run_id, const struct fx_case *c, int dev,
                          double scale, uint64_t seed, struct vb_err *err)
{
    struct vb_case_result r;
    struct vb_sample *smp = calloc((size_t)c->samples + 1, sizeof *smp);
    double *ms = calloc((size_t)c->samples + 1, sizeof *ms);
    double *kms = calloc((size_t)c->samples + 1, sizeof *kms);
    char full[128];
    int k, rc = -1;
    memset(&r, 0, sizeof r);
    snprintf(full, sizeof full, "mesh/%s", c->variant);
    if (!smp || !ms || !kms || fx_variant(full, &r.family, &r.variant)) {
        vb_err_set(err, VB_E_USAGE, "fixture: bad case '%s'", c->variant);
        goto out;
    }
    r.point.v[0] = r.point.v[1] = c->n;
    vb_point_format(r.variant->problem, &r.point, r.axes, sizeof r.axes);
    r.device = dev;
    r.status = status_of(c->status);
    r.stop_reason = "fixture";
    r.have_records = dev >= 0;
    r.samples = smp;
    r.nsamples = r.ntimed = c->samples;
    for (k = 0; k < c->samples; k++) {
        ms[k] = c->median_ms * scale * (1 + vb_data_uniform(seed, (uint64_t)k, -0.01, 0.01));
        kms[k] = ms[k] / 2;
        smp[k].kind = VB_SAMPLE_TIMED;
        smp[k].start = 1000000 * (uint64_t)(k + 1);
        smp[k].end = smp[k].start + (uint64_t)(ms[k] * 1e6);
        smp[k].e2e_ns = ms[k] * 1e6;
        smp[k].kernel_ns = smp[k].gpu_ns = dev >= 0 ? kms[k] * 1e6 : 0;
        smp[k].sm_clock_mhz = 1980;
        smp[k].kernel_count = dev >= 0;
    }
    if (vb_stats_compute(ms, (size_t)c->samples, &r.e2e_ms) ||
        vb_stats_compute(kms, (size_t)c->samples, &r.kernel_ms)) {
        vb_err_set(err, VB_E_SYS, "out of memory");
        goto out;
    }
    r.gpu_ms = r.kernel_ms;
    if (dev >= 0 && !strcmp(c->variant, "device-mesh-pinned")) {
        r.floor_ns = r.kernel_ms.median * 1e6 / 2;
        r.floor_ratio = 2;
        snprintf(r.floor_bound, sizeof r.floor_bound, "dram");
        snprintf(r.floor_of, sizeof r.floor_of, "kernel");
    }
    rc = vb_store_case(s, run_id, &r, NULL, err);
out:
    free(smp);
    free(ms);
    free(kms);
    return rc;
}

int fx_write_boards_run(struct vb_store *s, const struct fx_boards *b, const struct fx_case *cases,
                        int n, int cpu_case, int64_t *run_id, struct vb_err *err)
{
    struct vb_run_info info = {"suite", "varbench run --device all", NULL, "fixture", "0", ""};
    struct vb_host_env host = {"", "Debian", "Linux", "Fixture CPU", 4, 1 << 30};
    struct vb_gpu_env g;
    int d, i;
    snprintf(host.hostname, sizeof host.hostname, "%s", b->host);
    if (vb_store_run_begin(s, &info, run_id, err) || vb_store_host(s, *run_id, &host, err))
        return -1;
    for (d = 0; d < b->ndev; d++) {
        vb_env_gpu_clear(&g);
        g.id = d;
        snprintf(g.name, sizeof g.name, "%s", b->gpu);
        snprintf(g.bus, sizeof g.bus, "0000:%02x:00.0", 0x18 + 0x10 * d);
        if (vb_store_gpu(s, *run_id, &g, err)) return -1;
    }
    for (d = 0; d < b->ndev; d++)
        for (i = 0; i < n; i++)
            if (put_board_case(s, *run_id, &cases[i], d,
                               (1 + 0.02 * d) * (d == b->slow ? b->factor : 1),
                               b->seed * 1000u + (unsigned)(d * 100 + i), err))
                return -1;
    if (cpu_case && n) {
        struct fx_case cpu = {"cpu-reference", cases[0].n, cases[0].samples, 20.0, "ok"};
        if (put_board_case(s, *run_id, &cpu, -1, 1, b->seed * 1000u + 999, err)) return -1;
    }
    return vb_store_run_end(s, *run_id, b->status ? b->status : "complete", 0, "fixture", err);
}

#define FX_T0 1700000000000000000ull /* a CUPTI (CLOCK_REALTIME ns) timestamp */

/* One record of the export fixture's traced program: kind (k kernel, c copy, m memset, r NVTX
 * range, a runtime API call, d driver API call), process (0, 1), thread, device, stream,
 * [at, end] ns from FX_T0 (end 0: a range never closed), correlation id, and sub: a copy's
 * kind * 100 + source kind * 10 + destination kind, a memset's memory kind, a call's return
 * value. */
static const struct fx_xrec {
    char kind;
    int proc, thread, dev, stream;
    uint64_t at, end;
    uint32_t corr;
    int sub;
    const char *name;
} xrecs[] = {
    /* process 0, thread 11 */
    {'r', 0, 11, 0, 0, 50, 30000, 0, 0, "epoch"},
    {'a', 0, 11, 0, 0, 100, 600, 1, 0, "cudaMalloc_v3020"},
    {'r', 0, 11, 0, 0, 900, 9000, 0, 0, "forward"},
    {'a', 0, 11, 0, 0, 1000, 4200, 2, 0, "cudaMemcpy_v3020"},
    {'c', 0, 0, 0, 7, 1200, 4000, 2, 113, NULL}, /* HtoD, pageable -> device */
    {'r', 0, 11, 0, 0, 4900, 5140, 0, 0, "matmul"},
    {'a', 0, 11, 0, 0, 5000, 5040, 3, 0, "cudaLaunchKernel_v7000"},
    {'d', 0, 11, 0, 0, 5010, 5030, 4, 0, "cuLaunchKernel"}, /* inside the runtime's call */
    {'k', 0, 0, 0, 7, 5100, 8100, 3, 0, "_Z6matmulPKfS0_Pfi"},
    {'a', 0, 11, 0, 0, 5100, 5130, 5, 0, "cudaLaunchKernel_v7000"},
    {'k', 0, 0, 0, 7, 8098, 9000, 5, 0, "_Z4reluPfi"}, /* starts 2 ns before matmul ends */
    {'a', 0, 11, 0, 0, 5200, 5230, 6, 0, "cudaMemsetAsync_v3020"},
    {'m', 0, 0, 0, 7, 9000, 9300, 6, 3, NULL},
    {'a', 0, 11, 0, 0, 5300, 5340, 7, 0, "cudaGraphLaunch_v10000"}, /* two kernels */
    {'k', 0, 0, 0, 7, 9400, 9800, 7, 0, "_Z4fillPfi"},
    {'k', 0, 0, 0, 7, 9800, 10400, 7, 0, "vb_fused"},
    {'r', 0, 11, 0, 0, 9500, 13000, 0, 0, "backward"},
    {'a', 0, 11, 0, 0, 10000, 12500, 8, 0, "cudaMemcpy_v3020"},
    {'c', 0, 0, 0, 7, 10500, 12400, 8, 232, NULL},            /* DtoH, device -> pinned */
    {'a', 0, 11, 0, 0, 12600, 12700, 9, 1, "cudaFree_v3020"}, /* failed */
    {'r', 0, 11, 0, 0, 20000, 26000, 0, 0, "load"},
    {'r', 0, 11, 0, 0, 24000, 29000, 0, 0, "prefetch"}, /* overlaps load, not nested */
    /* process 0, thread 12 */
    {'r', 0, 12, 0, 0, 3000, 0, 0, 0, "worker loop"}, /* never closed */
    {'r', 0, 12, 0, 0, 5900, 6200, 0, 0, "worker step"},
    {'a', 0, 12, 0, 0, 6000, 6050, 10, 0, "cudaLaunchKernel_v7000"},
    {'k', 0, 0, 0, 13, 6100, 7000, 10, 0, "_Z6reducePfS_i"},
    /* process 1, at once with process 0's end: its correlation ids start again */
    {'r', 1, 21, 0, 0, 40500, 46000, 0, 0, "child"},
    {'a', 1, 21, 0, 0, 41000, 41030, 3, 0, "cudaLaunchKernel_v7000"},
    {'k', 1, 0, 0, 7, 41100, 42000, 3, 0, "_Z4reluPfi"},
    {'a', 1, 21, 0, 0, 43000, 43030, 4, 0, "cudaLaunchKernel_v7000"},
    {'k', 1, 0, 1, 7, 43100, 44000, 4, 0, "_Z4reluPfi"},
    {'a', 1, 21, 0, 0, 44000, 45100, 5, 0, "cudaMemcpyPeer_v4000"},
    {'c', 1, 0, 1, 7, 44100, 45000, 5, 1033, NULL}, /* PtoP, GPU 1 -> GPU 0 */
};
#define NXRECS (sizeof xrecs / sizeof xrecs[0])

static const uint32_t xpids[] = {4242, 4343};
static const uint64_t xwindow[][2] = {{0, 60000}, {40000, 80000}};

/* grow_one makes room for one more element of *p (n in use, *cap allocated, sz bytes each) and
 * returns it zeroed, or NULL. */
static void *grow_one(void **p, size_t n, size_t *cap, size_t sz)
{
    if (n == *cap) {
        size_t c = *cap ? *cap * 2 : 8;
        void *q = realloc(*p, c * sz);
        if (!q) return NULL;
        *p = q;
        *cap = c;
    }
    return memset((char *)*p + n * sz, 0, sz);
}

/* add_xrec appends record x (at base ns) to a; 0 or -1 (out of memory). */
static int add_xrec(struct vb_activity *a, const struct fx_xrec *x, uint64_t base, uint32_t pid)
{
    uint64_t start = base + x->at, end = x->end ? base + x->end : 0;
    if (x->kind == 'k') {
        struct vb_kernel_rec *k =
            grow_one((void **)&a->kernels, a->nkernels, &a->cap_kernels, sizeof *k);
        if (!k || !(k->name = strdup(x->name))) return -1;
        a->nkernels++;
        k->start = start, k->end = end, k->device = (uint32_t)x->dev, k->context = 1;
        k->stream = (uint32_t)x->stream, k->correlation = x->corr;
        k->grid[0] = 256, k->grid[1] = k->grid[2] = 1, k->block[0] = 128;
        k->block[1] = k->block[2] = 1, k->static_smem = 1024, k->dynamic_smem = 2048;
        k->registers = 32;
    } else if (x->kind == 'c') {
        struct vb_copy_rec *c =
            grow_one((void **)&a->copies, a->ncopies, &a->cap_copies, sizeof *c);
        if (!c) return -1;
        a->ncopies++;
        c->start = start, c->end = end, c->bytes = 4000000, c->device = (uint32_t)x->dev;
        c->context = 1, c->stream = (uint32_t)x->stream, c->correlation = x->corr;
        c->copy_kind = (uint8_t)(x->sub / 100), c->src_kind = (uint8_t)(x->sub / 10 % 10);
        c->dst_kind = (uint8_t)(x->sub % 10);
        /* a peer copy: from its device to the other one */
        c->src_device = c->copy_kind == VB_COPY_PTOP ? x->dev : -1;
        c->dst_device = c->copy_kind == VB_COPY_PTOP ? 1 - x->dev : -1;
    } else if (x->kind == 'm') {
        struct vb_memset_rec *m =
            grow_one((void **)&a->memsets, a->nmemsets, &a->cap_memsets, sizeof *m);
        if (!m) return -1;
        a->nmemsets++;
        m->start = start, m->end = end, m->bytes = 1000000, m->device = (uint32_t)x->dev;
        m->context = 1, m->stream = (uint32_t)x->stream, m->correlation = x->corr;
        m->memory_kind = (uint16_t)x->sub;
    } else if (x->kind == 'r') {
        struct vb_range_rec *r =
            grow_one((void **)&a->ranges, a->nranges, &a->cap_ranges, sizeof *r);
        if (!r || !(r->text = strdup(x->name))) return -1;
        a->nranges++;
        r->start = start, r->end = end, r->id = (uint32_t)a->nranges;
        r->process = pid, r->thread = (uint32_t)x->thread;
    } else {
        struct vb_api_rec *c = grow_one((void **)&a->apis, a->napis, &a->cap_apis, sizeof *c);
        if (!c || !(c->name = strdup(x->name))) return -1;
        a->napis++;
        c->start = start, c->end = end, c->correlation = x->corr, c->process = pid;
        c->thread = (uint32_t)x->thread, c->ret = x->sub, c->driver = x->kind == 'd';
    }
    return 0;
}

/* is_gpu: a kernel, copy or memset record. */
static int is_gpu(char kind)
{
    return kind == 'k' || kind == 'c' || kind == 'm';
}

/* count_xrecs fills *w from xrecs: records by kind, and the arrows counted from the
 * correlation ids (one per process and id: its first API call, its GPU records). */
static void count_xrecs(struct fx_export_want *w)
{
    static const char kinds[] = "kcmr"; /* VB_EXPORT_KERNEL ... RANGE; the rest are calls */
    size_t i, j;
    memset(w, 0, sizeof *w);
    for (i = 0; i < NXRECS; i++) {
        const struct fx_xrec *x = &xrecs[i];
        const char *k = strchr(kinds, x->kind);
        int first = 1, has_gpu = 0, has_api = 0;
        w->n[k ? k - kinds : VB_EXPORT_API]++;
        w->driver_calls += x->kind == 'd';
        for (j = 0; j < NXRECS; j++) {
            const struct fx_xrec *y = &xrecs[j];
            if (y->proc != x->proc || y->corr != x->corr || !x->corr) continue;
            has_gpu |= is_gpu(y->kind);
            has_api |= !is_gpu(y->kind) && y->kind != 'r';
            if (j < i && !is_gpu(y->kind) && y->kind != 'r') first = 0;
        }
        w->flows += !is_gpu(x->kind) && x->kind != 'r' && first && has_gpu;
        w->flow_ends += is_gpu(x->kind) && has_api;
    }
    w->clamped = 1;     /* relu after matmul */
    w->lane_events = 1; /* prefetch */
    w->open_ranges = 1; /* worker loop */
    w->cases = 2;
}

/* write_export_trace writes the traced program of xrecs: one case per process. */
static int write_export_trace(struct vb_store *s, int64_t *run_id, struct vb_err *err)
{
    struct vb_run_info info = {
        "trace", "varbench trace -- python3 train.py", "/tmp", "fixture", "0", "name=train.py"};
    struct vb_host_env host = {"fixture-host", "Debian", "Linux", "Fixture CPU", 4, 1 << 30};
    struct vb_gpu_env g;
    int p;
    size_t i;
    if (vb_store_run_begin(s, &info, run_id, err) || vb_store_host(s, *run_id, &host, err))
        return -1;
    for (p = 0; p < 2; p++) {
        vb_env_gpu_clear(&g);
        g.id = p, g.cc_major = 9, g.sm_count = 132, g.total_mem = 85520809984ull;
        g.sm_clock_mhz = NAN;
        snprintf(g.name, sizeof g.name, "NVIDIA H100 80GB HBM3");
        if (vb_store_trace_gpu(s, *run_id, &g, err)) return -1;
    }
    for (p = 0; p < 2; p++) {
        struct vb_activity a;
        struct vb_trace_case t;
        char how[64];
        int rc;
        memset(&a, 0, sizeof a);
        for (i = 0; i < NXRECS; i++)
            if (xrecs[i].proc == p && add_xrec(&a, &xrecs[i], FX_T0, xpids[p])) {
                vb_activity_free(&a);
                return vb_err_set(err, VB_E_SYS, "out of memory");
            }
        snprintf(how, sizeof how, "exit (pid %u)", (unsigned)xpids[p]);
        vb_trace_case_init(&t, "train.py", &a, FX_T0 + xwindow[p][0], FX_T0 + xwindow[p][1], how);
        rc = vb_store_case(s, *run_id, &t.r, NULL, err);
        vb_trace_case_free(&t);
        if (rc) return -1;
    }
    return vb_store_run_end(s, *run_id, "complete", 0, "the program exited with status 0", err);
}

/* The records of each case of the export fixture's suite run: no API calls (a suite run takes
 * none), an NVTX range that names no process or thread (as files before schema 5). */
static const struct fx_xrec xsuite[] = {
    {'r', 0, 0, 0, 0, 100, 19000, 0, 0, "varbench: timed sample"},
    {'m', 0, 0, 0, 7, 500, 900, 0, 3, NULL},
    {'c', 0, 0, 0, 7, 1000, 5000, 0, 123, NULL}, /* HtoD, pinned -> device */
    {'k', 0, 0, 0, 7, 6000, 12000, 0, 0, "_Z11mesh_kernelPKfPfii"},
    {'c', 0, 0, 0, 7, 13000, 18000, 0, 232, NULL}, /* DtoH, device -> pinned */
};
#define NXSUITE (sizeof xsuite / sizeof xsuite[0])

/* write_export_suite writes a suite run of two mesh cases (host-mesh, device-mesh), 10 us
 * apart, each with xsuite. */
static int write_export_suite(struct vb_store *s, int64_t *run_id, struct vb_err *err)
{
    static const char *const variants[] = {"mesh/host-mesh", "mesh/device-mesh"};
    struct vb_run_info info = {"suite", "varbench run --filter mesh", NULL, "fixture", "0", ""};
    struct vb_host_env host = {"fixture-host", "Debian", "Linux", "Fixture CPU", 4, 1 << 30};
    struct vb_gpu_env g;
    int i, rc = 0;
    size_t k;
    vb_env_gpu_clear(&g);
    snprintf(g.name, sizeof g.name, "NVIDIA H100 80GB HBM3");
    if (vb_store_run_begin(s, &info, run_id, err) || vb_store_host(s, *run_id, &host, err) ||
        vb_store_gpu(s, *run_id, &g, err))
        return -1;
    for (i = 0; i < 2 && !rc; i++) {
        uint64_t base = FX_T0 + 100000 + 30000 * (uint64_t)i;
        struct vb_case_result r;
        struct vb_sample smp;
        double ms = 0.02;
        memset(&r, 0, sizeof r);
        memset(&smp, 0, sizeof smp);
        if (fx_variant(variants[i], &r.family, &r.variant))
            return vb_err_set(err, VB_E_USAGE, "fixture: no %s", variants[i]);
        r.point.v[0] = r.point.v[1] = 1000 * (i + 1);
        vb_point_format(r.variant->problem, &r.point, r.axes, sizeof r.axes);
        r.status = VB_STATUS_OK;
        r.stop_reason = "fixture";
        r.have_records = 1;
        r.start_ns = smp.start = base;
        r.end_ns = smp.end = base + 20000;
        smp.kind = VB_SAMPLE_TIMED;
        smp.e2e_ns = 20000;
        smp.kernel_ns = smp.gpu_ns = 6000;
        smp.kernel_count = 1;
        smp.sm_clock_mhz = 1980;
        r.samples = &smp;
        r.nsamples = r.ntimed = 1;
        vb_stats_compute(&ms, 1, &r.e2e_ms);
        r.kernel_ms = r.h2d_ms = r.d2h_ms = r.gpu_ms = r.memset_ms = r.e2e_ms;
        for (k = 0; k < NXSUITE && !rc; k++)
            if (add_xrec(&r.activity, &xsuite[k], base, 0))
                rc = vb_err_set(err, VB_E_SYS, "out of memory");
        if (!rc) rc = vb_store_case(s, *run_id, &r, NULL, err);
        vb_activity_free(&r.activity);
    }
    return rc ? -1 : vb_store_run_end(s, *run_id, "complete", 0, "fixture", err);
}

int fx_write_export_runs(struct vb_store *s, int64_t *trace_run, struct fx_export_want *trace,
                         int64_t *suite_run, struct fx_export_want *suite, struct vb_err *err)
{
    count_xrecs(trace);
    memset(suite, 0, sizeof *suite);
    suite->n[VB_EXPORT_KERNEL] = suite->n[VB_EXPORT_MEMSET] = suite->n[VB_EXPORT_RANGE] = 2;
    suite->n[VB_EXPORT_MEMCPY] = 4;
    suite->cases = 2;
    return write_export_trace(s, trace_run, err) || write_export_suite(s, suite_run, err) ? -1 : 0;
}

int fx_write_v1(const char *sqlfile, const char *path)
{
    FILE *fp = fopen(sqlfile, "rb");
    char *sql;
    long len;
    sqlite3 *db;
    ASSERT(fp);
    ASSERT_INT_EQ(fseek(fp, 0, SEEK_END), 0);
    len = ftell(fp);
    rewind(fp);
    ASSERT((sql = calloc(1, (size_t)len + 1)));
    ASSERT_INT_EQ(fread(sql, 1, (size_t)len, fp), len);
    fclose(fp);
    unlink(path);
    ASSERT_INT_EQ(sqlite3_open(path, &db), SQLITE_OK);
    ASSERT_INT_EQ(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    ASSERT_INT_EQ(sqlite3_exec(db,
                               "INSERT INTO runs(uuid, kind, status, command_line, start_utc) "
                               "VALUES ('u-1', 'suite', 'complete', 'varbench run', "
                               "'2026-11-01T00:00:00Z')",
                               NULL, NULL, NULL),
                  SQLITE_OK);
    sqlite3_close(db);
    free(sql);
    return 0;
}

/* fx_fake_case builds a GPU case of 3 samples (verify, warm-up, timed) with records in each and
 * one memset outside every sample. */
void fx_fake_case(struct vb_case_result *r, struct vb_sample *s, struct vb_copy_rec *c,
                  struct vb_kernel_rec *k, struct vb_memset_rec *m, struct vb_range_rec *n)
{
    int i;
    const struct vb_family *f = fx_family("mesh");
    memset(r, 0, sizeof *r);
    r->family = f;
    r->variant = &f->variants[1];
    r->point.v[0] = r->point.v[1] = 1000;
    snprintf(r->axes, sizeof r->axes, "nx=1000,ny=1000");
    r->device = 0;
    r->status = VB_STATUS_OK;
    r->max_abs_err = 1e-19;
    r->max_rel_err = 1e-15;
    r->stop_reason = "converged";
    r->have_records = 1;
    r->samples = s;
    r->nsamples = 3;
    r->ntimed = 1;
    for (i = 0; i < 3; i++) {
        memset(&s[i], 0, sizeof s[i]);
        s[i].kind = i == 0 ? VB_SAMPLE_VERIFY : i == 1 ? VB_SAMPLE_WARMUP : VB_SAMPLE_TIMED;
        s[i].start = 1000 * (uint64_t)(i + 1);
        s[i].end = s[i].start + 500;
        s[i].e2e_ns = 500;
        s[i].h2d_bytes = 32000000;
        s[i].h2d_count = 1;
        memset(&c[i], 0, sizeof c[i]);
        c[i].start = s[i].start + 10;
        c[i].end = s[i].start + 20;
        c[i].bytes = 32000000;
        c[i].copy_kind = 1;
        memset(&k[i], 0, sizeof k[i]);
        k[i].start = s[i].start + 30;
        k[i].end = s[i].start + 40;
        k[i].name = "_Z21mesh_host_mesh_kernelPKdS0_S0_S0_Pdm";
        n[i].start = s[i].start + 1;
        n[i].end = s[i].start + 2;
        n[i].id = (uint32_t)i;
        n[i].text = "H2D";
    }
    memset(m, 0, sizeof *m);
    m->start = 50; /* before every sample: poisoning */
    m->end = 60;
    m->bytes = 8000000;
    r->activity.copies = c;
    r->activity.ncopies = 3;
    r->activity.kernels = k;
    r->activity.nkernels = 3;
    r->activity.memsets = m;
    r->activity.nmemsets = 1;
    r->activity.ranges = n;
    r->activity.nranges = 3;
    r->e2e_ms.median = r->e2e_ms.min = r->e2e_ms.max = r->e2e_ms.mean = 0.0005;
    r->e2e_ms.stdev = r->e2e_ms.noise = NAN;
    r->kernel_ms = r->h2d_ms = r->d2h_ms = r->e2e_ms;
    r->h2d_bytes = 32000000;
    r->h2d_count = 1;
}
