/*
 * run_opts: see run_opts.h.
 */
#include "run_opts.h"

#include <stdio.h>
#include <string.h>

#include "varbench.h"
#include "run_gpus.h"

#define MAX_DEVICES VB_RUN_MAX_DEVICES

static const int codes[] = {0, 1, 2, 3, 4, 5, 6, 130, -1};
const struct vb_usage vb_run_usage = {
    .cmd = "run",
    .synopsis = "[options]",
    .about =
        "Runs the selected variants at every point of their axes: each case is verified against\n"
        "the CPU reference, then timed under CUPTI (activity records, NVTX phases): warm-up, then\n"
        "samples, each after an L2 flush and an SM clock reading, until the median GPU time\n"
        "(H2D + kernel + D2H + memset) and each phase holding >= 5% of it is known to the "
        "precision\n"
        "(95% confidence interval of the median), or the case's budget is spent. GPU cases also "
        "get a\n"
        "metrics pass (hardware counters, store efficiency first). Everything goes into the "
        "database.\n",
    .notes =
        "Samples whose SM clock is under 75% of the device's measured peak are kept but dropped\n"
        "from the statistics; such a case is marked 'throttled' (compare calls it noisy). On a\n"
        "terminal, stderr shows one progress line; stdout is line-buffered (each case on disk and "
        "on\n"
        "screen as soon as it is done). Exit 1 means a case gave a wrong result or failed (see "
        "its\n"
        "status and reason); variants wrong on purpose (calx/naive-inner, the seed's race) are\n"
        "stored as wrong-result but do not count. Counters that cannot be read here do not fail\n"
        "the run: cases record why. Exit 4: CPU references ran and were stored, GPU variants were\n"
        "recorded as skipped.\n",
    .codes = codes,
};

static int option_axis(void *ctx, const char *arg, struct vb_err *err)
{
    return vb_axes_parse(ctx, arg, err);
}

static int option_metrics(void *ctx, const char *arg, struct vb_err *err)
{
    return vb_run_metrics_option(ctx, arg, err);
}

int vb_run_opts_parse(int argc, char **argv, struct vb_run_opts *o)
{
    static const char *const caches[] = {"warm", "cold", NULL};
    double noise = -1, tmo = -1, cpub = -1;
    int mins = -1, maxs = -1, cache = -1, keep = -2, energy = 0, n, rc;
    const struct vb_opt opts[] = {
        VB_OPT_STR('f', "filter", "GLOB", &o->filter,
                   "variants to run, as family/variant globs ('mesh/*', 'mesh')"),
        VB_OPT_DB(&o->db, "database (default " VB_DEFAULT_DB "; created if missing)"),
        VB_OPT_INT_ALL(0, "device", "N|all", &o->device, 0, MAX_DEVICES - 1,
                       "CUDA device index (default 0), or every device at once: one worker\n"
                       "process each, into this run, then the CPU references alone (README)"),
        VB_OPT_CALL(0, "axis", "NAME=V1,V2", &o->axes, option_axis,
                    "axis values instead of the defaults (repeatable, one axis each; 1e7,\n"
                    "2^20, ranges LO:HI[:STEP] and 2^A:2^B[:STEP], floats on a float axis;\n"
                    "no hex, no value twice)"),
        VB_OPT_FLAG(0, "quick", &o->quick,
                    "a short budget: 2% precision, 5 samples, 0.15 s a GPU case, 2\n"
                    "warm-ups, 1000 samples; CPU cases one sample (0.3 s), none after\n"
                    "a verified sample that took longer (it is the oracle); and no\n"
                    "metrics pass unless --metrics is given"),
        VB_OPT_FLAG(0, "energy", &energy,
                    "energy before speed: each GPU case's timed samples last 10 updates\n"
                    "of its board's energy counter (its period measured at the run's\n"
                    "start; 1 s where it was not), for energy within 10%; and the\n"
                    "boards' idle draw measured at rest first (1.5 s), each case's\n"
                    "energy above it beside its own (README)"),
        VB_OPT_NUM(0, "precision", "PCT", &noise, 0, 100,
                   "stop when the median's 95% CI is within PCT (default 0.5; a copy\n"
                   "of pageable host memory 5%, unless PCT is given)"),
        VB_OPT_OLD_NUM("max-noise", "PCT", &noise, 0, 100),
        VB_OPT_INT(0, "min-samples", "N", &mins, 1, 1e7,
                   "at least N timed samples before converging (default 10; not more\n"
                   "than --max-samples)"),
        VB_OPT_NUM(0, "budget", "S", &tmo, 0.001, 86400,
                   "at most S seconds of timed samples a GPU case (default 0.5; a\n"
                   "phase that never settles, like a pageable copy, ends here and the\n"
                   "case says how precise it got)"),
        VB_OPT_OLD_NUM("timeout", "S", &tmo, 0.001, 86400),
        VB_OPT_NUM(0, "cpu-budget", "S", &cpub, 0.001, 86400,
                   "S seconds a CPU case (default 1; it stops sooner at 3 samples\n"
                   "and 0.2 s, and goes on to 3 samples when they are slow, up to 20 s)"),
        VB_OPT_INT(0, "max-samples", "N", &maxs, 1, 1e7,
                   "stop sampling a case at N timed samples (default 10000)"),
        VB_OPT_CHOICE(0, "cache", "cold|warm", &cache, caches,
                      "cold (default): flush L2 before each sample and each profiled\n"
                      "launch; warm: leave what the last sample left"),
        VB_OPT_NUM(0, "quiet-gpu", "C", &o->sampling.quiet_c, 1, 150,
                   "before each GPU case's timed samples, wait (at most 60 s) until no\n"
                   "other process is on its board and it is at most C degrees; the case\n"
                   "says what it waited for (needs NVML)"),
        VB_OPT_INT_ALL(0, "keep-records", "N|all", &keep, 0, 1e9,
                       "store the CUPTI records of the first N timed samples of a case\n"
                       "(default 100); every sample's per-phase times are always stored"),
        VB_OPT_CALL(0, "metrics", "LIST", &o->metrics, option_metrics,
                    "hardware counters of the metrics pass (one more sample per GPU\n"
                    "case, under CUPTI's range profiler; see README): nvprof\n"
                    "names (gst_efficiency, ...), Nsight Compute names, 'default'\n"
                    "(default: the default set; see 'varbench list --metrics')"),
        VB_OPT_CALL(0, "no-metrics", NULL, &o->metrics, option_metrics, "skip the metrics pass"),
        {.type = VB_OPT_T_STR,
         .long_name = "worker",
         .arg = "RUN:DEVICE",
         .value = &o->worker,
         .flags = VB_OPT_HIDDEN}, /* workers.h: what the parent of a --device all run passes */
        {.type = VB_OPT_T_STR,
         .long_name = "ab-worker",
         .arg = "RFD,WFD",
         .value = &o->ab,
         .flags = VB_OPT_HIDDEN}, /* ab_worker.h: what varbench ab passes its two sides */
        VB_OPT_END()};
    memset(o, 0, sizeof *o);
    o->db = VB_DEFAULT_DB;
    vb_run_metrics_init(&o->metrics);
    if ((rc = vb_opt_parse(&vb_run_usage, opts, argc, argv, &n))) return rc;
    if (o->quick)
        vb_sampling_quick(&o->sampling);
    else
        vb_sampling_default(&o->sampling);
    /* --quick is a look, not a record: no counters unless asked for (the pass costs ~0.2 s a
     * case, a quarter of a quick run) */
    if (o->quick && !o->metrics.given) o->metrics.off = 1;
    if (noise >= 0) /* the precision asked for holds for every phase, a copy's too */
        o->sampling.precision = o->sampling.precision_pageable = o->sampling.precision_copy =
            noise / 100;
    if (mins >= 0) o->sampling.min_samples = mins;
    if (tmo >= 0) o->sampling.budget_s = tmo;
    if (cpub >= 0) o->sampling.cpu_budget_s = cpub;
    if (maxs >= 0) o->sampling.max_samples = maxs;
    if (cache >= 0) o->sampling.cold = cache;
    if (energy) o->sampling.energy_updates = LEDGER_MIN_UPDATES;
    if (keep > -2) o->sampling.keep_records = keep;
    if (mins >= 0 && maxs >= 0 && mins > maxs)
        return vb_opt_error(&vb_run_usage, "--min-samples %d is larger than --max-samples %d", mins,
                            maxs);
    if (o->sampling.min_samples > o->sampling.max_samples) /* --max-samples under the default */
        o->sampling.min_samples = o->sampling.max_samples;
    if (o->worker) {
        long long run;
        int dev, end = 0;
        if (sscanf(o->worker, "%lld:%d%n", &run, &dev, &end) != 2 || o->worker[end] || run < 1 ||
            dev < 0 || dev >= MAX_DEVICES)
            return vb_opt_error(&vb_run_usage,
                                "--worker '%s': RUN:DEVICE (given by a --device all run)",
                                o->worker);
        o->worker_run = run;
        o->device = dev;
    }
    if (o->ab && (o->worker || o->device < 0))
        return vb_opt_error(&vb_run_usage, "--ab-worker is one process on one device (varbench ab "
                                           "passes it): not with --worker or --device all");
    return 0;
}

void vb_run_opts_line(const struct vb_run_opts *o, char *buf, size_t n)
{
    size_t used = 0;
    int i, k;
    used +=
        (size_t)snprintf(buf, n,
                         "filter=%s device=%d quick=%d precision=%g min_samples=%d "
                         "budget=%g cpu_budget=%g max_samples=%d cache=%s keep_records=%d"
                         "%s",
                         o->filter ? o->filter : "*", o->device, o->quick, o->sampling.precision,
                         o->sampling.min_samples, o->sampling.budget_s, o->sampling.cpu_budget_s,
                         o->sampling.max_samples, o->sampling.cold ? "cold" : "warm",
                         o->sampling.keep_records, o->sampling.energy_updates ? " energy=1" : "");
    if (vb_pinned_pageable() && used < n) /* the test switch: this run is not a measurement */
        used += (size_t)snprintf(buf + used, n - used, " test:VARBENCH_TEST_PAGEABLE=1");
    for (i = 0; i < o->axes.n && used < n; i++) {
        used += (size_t)snprintf(buf + used, n - used, " axis:%s=", o->axes.o[i].name);
        for (k = 0; k < o->axes.o[i].n && used < n; k++)
            used +=
                (size_t)snprintf(buf + used, n - used, "%s%s", k ? "," : "", o->axes.o[i].tok[k]);
    }
}
