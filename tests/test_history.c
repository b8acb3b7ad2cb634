/* History tests: change points of per-run medians (changepoint.h) on seeded series of known
 * truth: no step (none found, outliers included), one step (found at its run), two steps, and
 * the edges (constant, short, invalid, the newest runs); the store's history of a case across
 * runs (store.h); and the 10-run database cli.sh reads. Every series comes from the suite's
 * splitmix64 (vb_data_uniform) through Box-Muller, so a failure is reproducible by its seed. */
#include <stdlib.h>
#include <unistd.h>

#include "changepoint.h"
#include "varbench.h"
#include "fixtures.h"
#include "test.h"
#include "tests.h"

#define MAX_N 64

static const double noises[] = {0.005, 0.02, 0.05}; /* sigma of log x: 0.5%, 2%, 5% */
static const int lengths[] = {20, 30, 60};

/* gauss returns the i-th standard normal value of stream seed (Box-Muller). */
static double gauss(uint64_t seed, int i)
{
    double u = 1 - vb_data_uniform(seed, 2 * (uint64_t)i, 0, 1); /* (0, 1]: log is finite */
    double v = vb_data_uniform(seed, 2 * (uint64_t)i + 1, 0, 1);
    return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* series fills x[0..n) with a median of 0.171 ms times level(i) times lognormal noise: level is
 * 1, then step1 from run k1 (k1 > 0), then step1 * step2 from run k2 (k2 > 0). */
static void series(uint64_t seed, int n, double noise, int k1, double step1, int k2, double step2,
                   double *x)
{
    int i;
    for (i = 0; i < n; i++) {
        double level = (k1 > 0 && i >= k1 ? step1 : 1) * (k2 > 0 && i >= k2 ? step2 : 1);
        x[i] = 0.171e6 * level * exp(noise * gauss(seed, i));
    }
}

/* outliers makes two isolated runs 3x slower: one in the first half (runs 2 and on), one 3 to
 * n/2 runs later (isolated: normal runs on both sides of each). */
static void outliers(uint64_t seed, int n, double *x)
{
    int a = 2 + (int)vb_data_uniform(seed, 1000, 0, n / 2 - 3);
    int b = a + 3 + (int)vb_data_uniform(seed, 1001, 0, n / 2 - 3);
    x[a] *= 3;
    x[b] *= 3;
}

/* Without an argument: 500 series per noise level, length and outlier choice (9,000 in all),
 * none with a change point. `vbtest changepoint_noise N` runs N per configuration and prints
 * how many had one (changepoint.h quotes N = 10,000). */
int test_changepoint_noise(const char *arg)
{
    const struct vb_cp_opts o = VB_CP_OPTS_DEFAULT;
    int nseeds = arg ? atoi(arg) : 500, a, b, out, s, total = 0;
    double x[MAX_N];
    int cp[MAX_N];
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++)
            for (out = 0; out < 2; out++) {
                int hits = 0, n = lengths[b];
                for (s = 0; s < nseeds; s++) {
                    uint64_t seed = 1000000 * (uint64_t)(1 + a * 6 + b * 2 + out) + (uint64_t)s;
                    int k;
                    series(seed, n, noises[a], 0, 1, 0, 1, x);
                    if (out) outliers(seed, n, x);
                    k = vb_changepoints(x, n, &o, cp, MAX_N);
                    ASSERT(k >= 0);
                    if (k && !arg)
                        TEST_FAIL_("noise %g%%, n %d%s, seed %llu: %d change points, first at %d",
                                   noises[a] * 100, n, out ? ", outliers" : "",
                                   (unsigned long long)seed, k, cp[0]);
                    hits += k > 0;
                }
                if (arg)
                    printf("noise %.1f%% n %d%s: %d of %d series with a change point\n",
                           noises[a] * 100, n, out ? " outliers" : "", hits, nseeds);
                total += hits;
            }
    if (arg) printf("total: %d of %d series\n", total, 18 * nseeds);
    return 0;
}

/* One step of x1.3, x1.85 or x0.7 at run 5, 10 or n - 3, at each noise level and length: 20
 * series each. Exactly one change point, at the step's run; but a x1.3 step under 5% noise is
 * 5.2 sigma: its boundary run lies nearer the other level in about 1% of series, and a newest
 * segment of 3 runs goes unseen in some; there 90% or more exactly, none elsewhere. `vbtest
 * changepoint_steps N` runs N series each and prints the counts instead (changepoint.h quotes
 * N = 2,000). */
int test_changepoint_steps(const char *arg)
{
    static const double steps[] = {1.3, 1.85, 0.7};
    const struct vb_cp_opts o = VB_CP_OPTS_DEFAULT;
    int nseeds = arg ? atoi(arg) : 20, a, b, st, kk, s, hard = 0, hard_exact = 0;
    double x[MAX_N];
    int cp[MAX_N];
    for (a = 0; a < 3; a++)
        for (b = 0; b < 3; b++)
            for (st = 0; st < 3; st++)
                for (kk = 0; kk < 3; kk++) {
                    int n = lengths[b], k = kk == 0 ? 5 : kk == 1 ? 10 : n - 3;
                    int is_hard = st == 0 && a == 2, exact = 0, near = 0, none = 0, more = 0;
                    for (s = 0; s < nseeds; s++) {
                        uint64_t seed = 100000 * (uint64_t)(1 + ((a * 3 + b) * 3 + st) * 3 + kk) +
                                        (uint64_t)s + 50000000;
                        int found;
                        series(seed, n, noises[a], k, steps[st], 0, 1, x);
                        found = vb_changepoints(x, n, &o, cp, MAX_N);
                        exact += found == 1 && cp[0] == k;
                        near += found == 1 && abs(cp[0] - k) == 1;
                        none += found == 0;
                        more += found > 1 || (found == 1 && abs(cp[0] - k) > 1);
                        if (arg || (is_hard && found <= 1 && (!found || abs(cp[0] - k) <= 1)) ||
                            (found == 1 && cp[0] == k))
                            continue;
                        TEST_FAIL_("x%.2f at %d, noise %g%%, n %d, seed %llu: %d change points, "
                                   "first at %d",
                                   steps[st], k, noises[a] * 100, n, (unsigned long long)seed,
                                   found, found ? cp[0] : -1);
                    }
                    if (arg && exact < nseeds)
                        printf("x%.2f at %d, noise %.1f%%, n %d: %d exact, %d one run off, %d "
                               "none, %d other, of %d\n",
                               steps[st], k, noises[a] * 100, n, exact, near, none, more, nseeds);
                    if (is_hard) hard += nseeds, hard_exact += exact;
                }
    if (arg) printf("x1.3 at 5%% noise: %d of %d exactly at the step\n", hard_exact, hard);
    ASSERT(hard_exact >= 0.9 * hard);
    return 0;
}

/* Two steps (x1.5 at run 8, then x0.6 of that at run 20 of 30; at runs 10 and 40 of 60): both
 * found at their runs, at every noise level, 20 series each. */
int test_changepoint_two_steps(const char *arg)
{
    const struct vb_cp_opts o = VB_CP_OPTS_DEFAULT;
    int a, b, s;
    double x[MAX_N];
    int cp[MAX_N];
    for (a = 0; a < 3; a++)
        for (b = 1; b < 3; b++)
            for (s = 0; s < 20; s++) {
                int n = lengths[b], k1 = n == 30 ? 8 : 10, k2 = n == 30 ? 20 : 40, found;
                uint64_t seed = 90000000 + 1000 * (uint64_t)(a * 3 + b) + (uint64_t)s;
                series(seed, n, noises[a], k1, 1.5, k2, 0.6, x);
                found = vb_changepoints(x, n, &o, cp, MAX_N);
                if (found != 2 || cp[0] != k1 || cp[1] != k2)
                    TEST_FAIL_("steps at %d and %d, noise %g%%, n %d, seed %llu: %d change "
                               "points (%d, %d)",
                               k1, k2, noises[a] * 100, n, (unsigned long long)seed, found,
                               found > 0 ? cp[0] : -1, found > 1 ? cp[1] : -1);
            }
    return 0;
}

/* The edges: identical medians, too few runs, values that are no medians, the cap, and the
 * newest runs (one slow newest run is an outlier; two are a change). */
int test_changepoint_edges(const char *arg)
{
    const struct vb_cp_opts o = VB_CP_OPTS_DEFAULT;
    struct vb_cp_opts loose = VB_CP_OPTS_DEFAULT;
    double x[MAX_N];
    int cp[MAX_N], i;
    /* (d) constant: no change, the noise at its floor */
    for (i = 0; i < 30; i++)
        x[i] = 0.171e6;
    ASSERT_INT_EQ(vb_changepoints(x, 30, &o, cp, MAX_N), 0);
    ASSERT_NEAR(vb_cp_sigma(x, 30), VB_CP_SIGMA_FLOOR, 1e-15);
    /* a 1% step between identical medians: found by the search, dropped under min change */
    for (i = 15; i < 30; i++)
        x[i] = 0.171e6 * 1.01;
    ASSERT_INT_EQ(vb_changepoints(x, 30, &o, cp, MAX_N), 0);
    loose.min_change = 0.005;
    ASSERT_INT_EQ(vb_changepoints(x, 30, &loose, cp, MAX_N), 1);
    ASSERT_INT_EQ(cp[0], 15);
    loose.min_change = 0; /* none: every change the search finds */
    ASSERT_INT_EQ(vb_changepoints(x, 30, &loose, cp, MAX_N), 1);
    /* fewer than 4 runs: none, whatever they hold */
    x[0] = 1, x[1] = 1, x[2] = 100;
    ASSERT_INT_EQ(vb_changepoints(x, 3, &o, cp, MAX_N), 0);
    ASSERT_INT_EQ(vb_changepoints(x, 0, &o, cp, MAX_N), 0);
    /* not a median: refused */
    series(7, 20, 0.02, 0, 1, 0, 1, x);
    x[4] = 0;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), -1);
    x[4] = NAN;
    ASSERT_INT_EQ(vb_changepoints(x, 20, NULL, cp, MAX_N), -1);
    x[4] = INFINITY;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), -1);
    /* the count beyond the cap, the cap respected; NULL options are the defaults */
    series(8, 30, 0.005, 8, 1.5, 20, 0.6, x);
    cp[1] = -7;
    ASSERT_INT_EQ(vb_changepoints(x, 30, NULL, cp, 1), 2);
    ASSERT_INT_EQ(cp[0], 8);
    ASSERT_INT_EQ(cp[1], -7);
    ASSERT_INT_EQ(vb_changepoints(x, 30, &o, NULL, 0), 2);
    /* the newest run alone 3x slower: an outlier, no change; the newest two 1.85x: a change at
     * the first of them (a segment has 2 runs at least); likewise the oldest */
    series(9, 20, 0.02, 0, 1, 0, 1, x);
    x[19] *= 3;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), 0);
    x[19] /= 3;
    x[18] *= 1.85, x[19] *= 1.85;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), 1);
    ASSERT_INT_EQ(cp[0], 18);
    series(9, 20, 0.02, 0, 1, 0, 1, x);
    x[0] *= 3;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), 0);
    x[0] /= 3;
    x[0] /= 1.85, x[1] /= 1.85;
    ASSERT_INT_EQ(vb_changepoints(x, 20, &o, cp, MAX_N), 1);
    ASSERT_INT_EQ(cp[0], 2);
    /* two outliers one run apart are two outliers, not a segment */
    series(10, 30, 0.02, 0, 1, 0, 1, x);
    x[10] *= 3, x[12] *= 3;
    ASSERT_INT_EQ(vb_changepoints(x, 30, &o, cp, MAX_N), 0);
    /* a 2% noise estimate from 60 runs is 2% within a fifth */
    series(11, 60, 0.02, 0, 1, 0, 1, x);
    ASSERT_NEAR(vb_cp_sigma(x, 60), 0.02, 0.004);
    return 0;
}

/* One case of a history run: mesh/<variant> at nx = ny = 1000 with 5 timed samples whose median
 * is gpu_ms (0: no GPU time, a CPU-only case) and e2e_ms exactly. */
struct hx_case {
    const char *variant;
    double gpu_ms, e2e_ms;
    const char *status;
    double occupancy; /* its metrics pass: two launches at this achieved occupancy (%) and
                         0.5 points apart, global loads 100% efficient; 0: no metrics pass */
};

static int put_case(struct vb_store *s, int64_t run, const struct hx_case *c, struct vb_err *err)
{
    struct vb_case_result r;
    struct vb_sample smp[5];
    double e2e[5], gpu[5];
    char full[128];
    int k;
    memset(&r, 0, sizeof r);
    memset(smp, 0, sizeof smp);
    snprintf(full, sizeof full, "mesh/%s", c->variant);
    if (fx_variant(full, &r.family, &r.variant))
        return vb_err_set(err, VB_E_USAGE, "fixture: no variant '%s'", full);
    r.point.v[0] = r.point.v[1] = 1000;
    vb_point_format(r.variant->problem, &r.point, r.axes, sizeof r.axes);
    r.device = (r.variant->flags & VB_GPU) ? 0 : -1;
    for (k = 0; k < VB_STATUS_COUNT; k++)
        if (!strcmp(vb_status_name((enum vb_status)k), c->status)) r.status = (enum vb_status)k;
    r.stop_reason = "converged";
    r.have_records = c->gpu_ms > 0;
    r.cold = 1;
    r.clock_min_mhz = r.clock_median_mhz = 1980;
    r.gst_efficiency = r.floor_ns = r.floor_ratio = NAN;
    r.samples = smp;
    r.nsamples = r.ntimed = 5;
    for (k = 0; k < 5; k++) { /* the middle sample is the median */
        e2e[k] = c->e2e_ms * (1 + (k - 2) * 0.001);
        gpu[k] = c->gpu_ms * (1 + (k - 2) * 0.001);
        smp[k].kind = VB_SAMPLE_TIMED;
        smp[k].start = 10000000 * (uint64_t)(k + 1);
        smp[k].end = smp[k].start + (uint64_t)(e2e[k] * 1e6);
        smp[k].e2e_ns = e2e[k] * 1e6;
        smp[k].gpu_ns = smp[k].kernel_ns = gpu[k] * 1e6;
        smp[k].kernel_count = c->gpu_ms > 0;
        smp[k].sm_clock_mhz = 1980;
    }
    vb_stats_compute(e2e, 5, &r.e2e_ms);
    vb_stats_compute(gpu, 5, &r.gpu_ms);
    r.kernel_ms = r.gpu_ms;
    if (c->occupancy > 0) {
        static char kernel[] = "mesh_kernel",
                    occ[] = "sm__warps_active.avg.pct_of_peak_sustained_active",
                    eff[] = "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct";
        struct vb_metric_value m[4] = {{0, kernel, occ, c->occupancy},
                                       {1, kernel, occ, c->occupancy + 0.5},
                                       {0, kernel, eff, 100},
                                       {1, kernel, eff, 100}};
        r.metrics_status = VB_METRICS_OK;
        r.metrics = m;
        r.nmetrics = 4;
        k = vb_store_case(s, run, &r, NULL, err);
        r.metrics = NULL; /* the fixture's, not the result's to free */
        return k;
    }
    return vb_store_case(s, run, &r, NULL, err);
}

/* put_run writes a suite run of the cases on GPU `gpu` (NULL: none) at git commit `commit`,
 * ended with status (NULL: left 'running'). */
static int put_run(struct vb_store *s, const char *gpu, const char *commit,
                   const struct hx_case *cases, int n, const char *status, struct vb_err *err)
{
    struct vb_run_info info = {"suite", "history fixture", NULL, commit, "0", ""};
    struct vb_host_env host = {"fixture-host", "Debian", "Linux", "Fixture CPU", 4, 1 << 30};
    struct vb_gpu_env g;
    int64_t run;
    int i;
    vb_env_gpu_clear(&g);
    snprintf(g.name, sizeof g.name, "%s", gpu ? gpu : "");
    if (vb_store_run_begin(s, &info, &run, err) || vb_store_host(s, run, &host, err) ||
        (gpu && vb_store_gpu(s, run, &g, err)))
        return -1;
    for (i = 0; i < n; i++)
        if (put_case(s, run, &cases[i], err)) return -1;
    return status ? vb_store_run_end(s, run, status, 0, "fixture", err) : 0;
}

/* write_history writes the history database: runs 1-10 on an H200 with device-mesh-pinned's GPU
 * time 0.171 ms in runs 1-5 and 0.316 ms (1.85x) from run 6, e2e 0.25 -> 0.40 ms, its achieved
 * occupancy 90% -> 45% with it (the counters that moved at the change point); device-mesh
 * flat at 0.6 ms (wrong in run 3); cpu-reference flat at 20 ms (no GPU time); every median
 * within 0.2% of its level, the middle run of each level exactly on it. Runs 11-12 on an H100
 * (device-mesh-pinned, 0.5 ms), 13 on the H200 left 'running' (5 ms: no history shows it), 14-15
 * without a GPU (cpu-reference). */
static int write_history(struct vb_store *s, struct vb_err *err)
{
    static const double jitter[] = {1.001, 0.999, 1.0, 1.002, 0.998,
                                    0.999, 1.001, 1.0, 0.998, 1.002};
    const struct hx_case h100 = {"device-mesh-pinned", 0.5, 0.7, "ok"};
    const struct hx_case late = {"device-mesh-pinned", 5.0, 7.0, "ok"};
    const struct hx_case cpu = {"cpu-reference", 0, 20, "ok"};
    char commit[48];
    int i;
    for (i = 0; i < 10; i++) {
        double j = jitter[i], j2 = jitter[(i + 3) % 10];
        struct hx_case c[3] = {{"device-mesh", 0.6 * j2, 0.9 * j2, i == 2 ? "wrong-result" : "ok"},
                               {"device-mesh-pinned", (i < 5 ? 0.171 : 0.316) * j,
                                (i < 5 ? 0.25 : 0.40) * j, "ok", i < 5 ? 90 : 45},
                               {"cpu-reference", 0, 20 * j2, "ok"}};
        snprintf(commit, sizeof commit, "c0ffee%02d89abcdef0123456789abcdef01234567", i + 1);
        if (put_run(s, "NVIDIA H200", commit, c, 3, "complete", err)) return -1;
    }
    for (i = 0; i < 2; i++)
        if (put_run(s, "NVIDIA H100 80GB HBM3", "", &h100, 1, "complete", err)) return -1;
    if (put_run(s, "NVIDIA H200", "", &late, 1, NULL, err)) return -1;
    for (i = 0; i < 2; i++)
        if (put_run(s, NULL, "", &cpu, 1, "complete", err)) return -1;
    return 0;
}

int test_make_history_fixture(const char *dir)
{
    struct vb_store *s;
    struct vb_err err;
    char path[1024];
    snprintf(path, sizeof path, "%s/history.db", dir);
    unlink(path);
    ASSERT_OK(vb_store_open(path, &s, &err));
    ASSERT_OK(write_history(s, &err));
    vb_store_close(s);
    return 0;
}

int test_store_history(const char *arg)
{
    struct vb_store *s;
    struct vb_history *h;
    struct vb_err err;
    int64_t ids[100];
    int n, i, cp[8];
    ASSERT_OK(vb_store_open(":memory:", &s, &err));
    ASSERT_OK(write_history(s, &err));
    /* GPU time: the cases that have it, by variant, axes, GPU; the 'running' run left out */
    ASSERT_OK(vb_store_history(s, NULL, "gpu", &h, &n, &err));
    ASSERT_INT_EQ(n, 3);
    ASSERT_STR_EQ(h[0].variant, "mesh/device-mesh");
    ASSERT_STR_EQ(h[0].axes, "nx=1000,ny=1000");
    ASSERT_INT_EQ(h[0].n, 9); /* wrong in run 3 */
    ASSERT_INT_EQ(h[0].pts[2].run_id, 4);
    ASSERT_STR_EQ(h[1].gpu, "NVIDIA H100 80GB HBM3");
    ASSERT_INT_EQ(h[1].n, 2);
    ASSERT_INT_EQ(h[1].pts[0].run_id, 11);
    ASSERT_STR_EQ(h[2].variant, "mesh/device-mesh-pinned");
    ASSERT_STR_EQ(h[2].gpu, "NVIDIA H200");
    ASSERT_INT_EQ(h[2].n, 10);
    for (i = 0; i < 10; i++)
        ASSERT_INT_EQ(h[2].pts[i].run_id, i + 1); /* oldest first */
    ASSERT_STR_EQ(h[2].pts[0].git_commit, "c0ffee0189abcdef0123456789abcdef01234567");
    ASSERT_NEAR(h[2].pts[2].value_ns, 0.171e6, 1e-6);
    ASSERT_NEAR(h[2].pts[7].value_ns, 0.316e6, 1e-6);
    ASSERT(h[2].pts[0].start_utc[0] == '2');
    /* the step from run 6 is the one change point; device-mesh has none */
    {
        double x[10];
        for (i = 0; i < 10; i++)
            x[i] = h[2].pts[i].value_ns;
        ASSERT_INT_EQ(vb_changepoints(x, 10, NULL, cp, 8), 1);
        ASSERT_INT_EQ(cp[0], 5);
        for (i = 0; i < 9; i++)
            x[i] = h[0].pts[i].value_ns;
        ASSERT_INT_EQ(vb_changepoints(x, 9, NULL, cp, 8), 0);
    }
    vb_store_history_free(h, n);
    /* e2e: every case, the CPU-only one too, on the runs' GPUs ("" without one) */
    ASSERT_OK(vb_store_history(s, NULL, "e2e", &h, &n, &err));
    ASSERT_INT_EQ(n, 5);
    ASSERT_STR_EQ(h[0].variant, "mesh/cpu-reference");
    ASSERT_STR_EQ(h[0].gpu, "");
    ASSERT_INT_EQ(h[0].n, 2);
    ASSERT_STR_EQ(h[1].gpu, "NVIDIA H200");
    ASSERT_INT_EQ(h[1].n, 10);
    ASSERT_NEAR(h[4].pts[9].value_ns, 0.40e6 * 1.002, 1e-6);
    vb_store_history_free(h, n);
    /* globs as `run --filter` takes them; a phase the cases lack has no history */
    ASSERT_OK(vb_store_history(s, "mesh/*-pinned", "gpu", &h, &n, &err));
    ASSERT_INT_EQ(n, 2);
    vb_store_history_free(h, n);
    ASSERT_OK(vb_store_history(s, "mesh", "e2e", &h, &n, &err));
    ASSERT_INT_EQ(n, 5);
    vb_store_history_free(h, n);
    ASSERT_OK(vb_store_history(s, "calx/*", "gpu", &h, &n, &err));
    ASSERT_INT_EQ(n, 0);
    vb_store_history_free(h, n);
    ASSERT_OK(vb_store_history(s, NULL, "h2d", &h, &n, &err));
    ASSERT_INT_EQ(n, 0);
    vb_store_history_free(h, n);
    ASSERT_INT_EQ(vb_store_history(s, NULL, "memset", &h, &n, &err), -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    ASSERT_CONTAINS(err.msg, "unknown metric 'memset'");
    /* the pool of a baseline: the run, then the complete runs before it on its GPU model */
    ASSERT_OK(vb_store_run_pool(s, 10, ids, 3, &n, &err));
    ASSERT_INT_EQ(n, 3);
    ASSERT_INT_EQ(ids[0], 10);
    ASSERT_INT_EQ(ids[1], 9);
    ASSERT_INT_EQ(ids[2], 8);
    ASSERT_OK(vb_store_run_pool(s, 10, ids, 100, &n, &err));
    ASSERT_INT_EQ(n, 10);
    ASSERT_INT_EQ(ids[9], 1);
    ASSERT_OK(vb_store_run_pool(s, 13, ids, 100, &n, &err)); /* H200: not the H100 runs */
    ASSERT_INT_EQ(n, 11);
    ASSERT_INT_EQ(ids[1], 10);
    ASSERT_OK(vb_store_run_pool(s, 12, ids, 100, &n, &err));
    ASSERT_INT_EQ(n, 2);
    ASSERT_INT_EQ(ids[1], 11);
    ASSERT_OK(vb_store_run_pool(s, 15, ids, 100, &n, &err)); /* no GPU: the runs without one */
    ASSERT_INT_EQ(n, 2);
    ASSERT_INT_EQ(ids[1], 14);
    ASSERT_OK(vb_store_run_pool(s, 2, ids, 1, &n, &err));
    ASSERT_INT_EQ(n, 1);
    ASSERT_INT_EQ(vb_store_run_pool(s, 99, ids, 3, &n, &err), -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    vb_store_close(s);
    return 0;
}
