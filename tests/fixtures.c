/* fixtures: synthetic runs (see fixtures.h). */
#include "fixtures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "data.h"

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

static enum vb_status status_of(const char *s)
{
    int k;
    for (k = 0; k < VB_STATUS_COUNT; k++)
        if (!strcmp(vb_status_name((enum vb_status)k), s)) return (enum vb_status)k;
    return VB_STATUS_FAILED;
}

int fx_write_run(struct vb_store *s, const char *gpu, const struct fx_case *cases, int n,
                 int64_t *run_id, struct vb_err *err)
{
    struct vb_run_info info = {"suite", "fixture", NULL, "fixture", "0", ""};
    /* a hostile host name: every page must escape what it takes from a database */
    struct vb_host_env host = {"<b>fixture&host</b>", "Debian", "Linux", "Fixture CPU", 4, 1 << 30};
    struct vb_gpu_env g;
    struct vb_ceiling c[VB_CEIL_COUNT];
    int i, k;
    memset(&g, 0, sizeof g);
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
