/*
 * run: `varbench run`, the suite's collection stage. Parses and checks every option before
 * touching the database, opens the store (refusing a bad file untouched), records the run
 * and its environment, measures the device's ceilings, then runs each selected case and
 * stores it as soon as it is done, so an interrupted run keeps what it measured.
 */
#include <cuda_runtime_api.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ab_worker.h"
#include "axes.h"
#include "ceilings.h"
#include "clock.h"
#include "cmd.h"
#include "code_id.h"
#include "ledger.h"
#include "crossover.h"
#include "crash.h"
#include "activity.h"
#include "env.h"
#include "floor.h"
#include "gpu.h"
#include "varbench.h"
#include "opt.h"
#include "phase.h"
#include "progress.h"
#include "run_opts.h"
#include "run_gpus.h"
#include "run_metrics.h"
#include "runner.h"
#include "store.h"
#include "sweep.h"
#include "table.h"
#include "timing.h"
#include "workers.h"

#define MAX_DEVICES VB_RUN_MAX_DEVICES

static void on_signal(int sig)
{
    (void)sig;
    vb_interrupted = 1;
}

/* setup_phases prints the case's setup phases (saxpy/nvrtc-driver's NVRTC compile and module
 * load), which the table's per-sample columns leave out. Their NVTX ranges are stored in
 * NVTX_EVENTS with no sample, unless a metrics pass dropped them. */
static void setup_phases(void)
{
    char buf[512];
    if (vb_phase_setup_take(buf, sizeof buf)) printf("    setup: %s\n", buf);
}

/* floor_line prints the case's floor and how far it is from it (floor.h). */
static void floor_line(const struct vb_floor_ceil *c, const struct vb_case_result *r)
{
    char line[512];
    if (vb_floor_line(c, r, line, sizeof line)[0]) printf("    %s\n", line);
}

static void ratio(const char *what, double base, double x)
{
    if (isfinite(base) && isfinite(x) && base > 0 && x > 0)
        printf(" %s %.*fx", what, base / x >= 10 ? 1 : 3, base / x);
}

/* ladder prints, for a point with two or more verified GPU variants, how many times faster
 * than the first (the seed's first rung) each of the others is, in kernel and e2e time. */
static void ladder(void *ctx, const struct vb_family *f, const struct vb_rung *r, int n)
{
    int i;
    (void)ctx;
    if (n < 2) return;
    printf("    speedup over %s/%s (kernel, e2e):", f->name, r[0].name);
    for (i = 1; i < n; i++) {
        printf("%s %s", i > 1 ? ";" : "", r[i].name);
        ratio("kernel", r[0].kernel_ms, r[i].kernel_ms);
        ratio("e2e", r[0].e2e_ms, r[i].e2e_ms);
    }
    printf("\n");
}

/* The problems of a run's plan, for the progress line's estimate (eta.h): each one's group
 * number is its index; a CPU one's reference rate, timed at the point plan_small chose. */
#define PLAN_PROBLEMS 64
#define CALIBRATE     131072.0 /* elements enough to time a reference's arithmetic */
struct plan {
    struct vb_eta *eta;
    const struct vb_problem *pb[PLAN_PROBLEMS];
    struct vb_point small[PLAN_PROBLEMS];
    double small_work[PLAN_PROBLEMS], rate[PLAN_PROBLEMS];
    int n;
};

/* problem_of: pb's index in the plan, added when new (-1: too many) */
static int problem_of(struct plan *pl, const struct vb_problem *pb)
{
    int i;
    for (i = 0; i < pl->n && pl->pb[i] != pb; i++) {
    }
    if (i == pl->n && pl->n < PLAN_PROBLEMS) {
        pl->pb[pl->n] = pb;
        pl->small_work[pl->n++] = -1;
    }
    return i < pl->n ? i : -1;
}

/* calibrates_better: is a point of w elements a better place to time a reference than the one
 * of cur (-1: none yet)? The smallest of CALIBRATE elements or more, else the largest: a smaller
 * one times the reference's fixed costs (calx at 960 elements: 6x its rate at 1e7). */
static int calibrates_better(double w, double cur)
{
    if (cur < 0) return 1;
    if ((w >= CALIBRATE) != (cur >= CALIBRATE)) return w >= CALIBRATE;
    return w >= CALIBRATE ? w < cur : w > cur;
}

/* plan_small notes each CPU problem's point to time its reference at (calibrates_better) */
static int plan_small(void *arg, const struct vb_family *f, const struct vb_problem *pb,
                      const struct vb_variant *v, const struct vb_point *p, int dev)
{
    struct plan *pl = arg;
    int i = problem_of(pl, pb);
    double w = pb->out_len ? (double)pb->out_len(p) : 1.0;
    (void)f, (void)dev;
    if (i >= 0 && !(v->flags & VB_GPU) && calibrates_better(w, pl->small_work[i])) {
        pl->small[i] = *p;
        pl->small_work[i] = w;
    }
    return 0;
}

static int plan_case(void *arg, const struct vb_family *f, const struct vb_problem *pb,
                     const struct vb_variant *v, const struct vb_point *p, int dev)
{
    struct plan *pl = arg;
    int i = problem_of(pl, pb), gpu = !!(v->flags & VB_GPU);
    double w = pb->out_len ? (double)pb->out_len(p) : 1.0;
    (void)f, (void)dev;
    return vb_eta_add(pl->eta, i, gpu, w, !gpu && i >= 0 ? pl->rate[i] * w : 0);
}

/* start_progress starts the progress line over sw's cases; when it is shown, with the plan's
 * estimate, each CPU problem's reference timed once (plan_small's point: milliseconds). */
static void start_progress(struct vb_run_opts *o, struct vb_sweep *sw)
{
    static struct plan pl;
    int total = vb_sweep_count(sw), i;
    vb_eta_free(&o->eta);
    if (vb_progress_wanted(stderr) && total > 0) {
        memset(&pl, 0, sizeof pl);
        pl.eta = &o->eta;
        vb_sweep_plan(sw, plan_small, &pl);
        for (i = 0; i < pl.n; i++)
            pl.rate[i] = pl.small_work[i] > 0 ? vb_sweep_reference_rate(pl.pb[i], &pl.small[i]) : 0;
        o->eta.rule = (struct vb_eta_rule){o->sampling.cpu_min_samples, o->sampling.max_samples,
                                           o->sampling.cpu_min_time_s, o->sampling.cpu_budget_s,
                                           VB_RUNNER_CPU_CAP_S};
        if (vb_sweep_plan(sw, plan_case, &pl) < 0) vb_eta_free(&o->eta); /* out of memory */
    }
    vb_progress_begin(&o->progress, stderr, total, o->eta.n ? &o->eta : NULL);
}

/* What the case callbacks need: the command's options, the database, the run. */
struct run_ctx {
    struct vb_run_opts *o;
    struct vb_store *st;
    int64_t run_id;
    const struct vb_floor_ceil *floors; /* each device's ceilings, for the floor line */
    struct vb_timing timing;
    size_t code_next; /* code_id's entries stored so far */
};

/* store_code stores the code hashes of the kernels loaded since the last case (code_id.h) with
 * the run; memory running out leaves them for the next case. 0, or -1 with err (the database). */
static int store_code(struct run_ctx *c, struct vb_err *err)
{
    struct vb_code_entry *e;
    size_t n, next;
    int rc;
    if (vb_code_id_since(c->code_next, &e, &n, &next)) return 0; /* memory: the next case's */
    rc = vb_store_kernel_code(c->st, c->run_id, e, n, err);
    if (!rc) c->code_next = next;
    vb_code_id_free(e, n);
    return rc;
}

static void case_begin(void *ctx, const char *label)
{
    struct run_ctx *c = ctx;
    vb_crash_case(label);
    vb_progress_case(&c->o->progress, label);
}

/* case_done prints the case's row (and its setup phases and bandwidth) and stores it, with its
 * metrics deferred to the second sweep. 0 or -1 with err (the database). */
static int case_done(void *ctx, const struct vb_family *f, int device,
                     const struct vb_case_result *r, struct vb_err *err)
{
    struct run_ctx *c = ctx;
    int64_t case_id = 0;
    double t0;
    vb_progress_clear(&c->o->progress);
    vb_progress_done(&c->o->progress);
    vb_table_row(stdout, r);
    vb_run_metrics_add(&c->o->metrics, r);
    setup_phases();
    if (device >= 0 && device < MAX_DEVICES) floor_line(&c->floors[device], r);
    vb_table_ledger(stdout, r);
    t0 = vb_mono_ns();
    if (vb_store_case(c->st, c->run_id, r, &case_id, err) || store_code(c, err) ||
        vb_run_metrics_defer(&c->o->metrics, r, case_id, err))
        return -1;
    vb_timing_case(&c->timing, r, vb_mono_ns() - t0);
    return 0;
}

/* devices finds the devices to run on (*first..*last, -1 when there is none: nodev then says
 * why, and *why with its hint, which the caller tells the user once the database is open). 0,
 * or -1 with err (a device asked for that does not exist, or CUDA failing). */
static int devices(const struct vb_run_opts *o, int *first, int *last, char *nodev, size_t n,
                   struct vb_err *why, struct vb_err *err)
{
    int ndev = 0;
    vb_err_clear(why);
    *first = *last = -1;
    if (vb_gpu_count(&ndev, why)) {
        if (why->code != VB_E_NODEV) {
            *err = *why;
            return -1;
        }
        if (o->device > 0) { /* a device asked for by number, and there is none */
            vb_err_set(err, VB_E_USAGE, "device %d does not exist (no CUDA device here: %s)",
                       o->device, why->msg);
            return vb_err_hint(err,
                               "leave --device out (device 0) to run the CPU references alone");
        }
        snprintf(nodev, n, VB_NODEV_REASON " (%s)", why->msg);
        return 0;
    }
    vb_err_clear(why);
    if (o->device >= ndev) {
        vb_err_set(err, VB_E_USAGE, "device %d does not exist (%d device%s here)", o->device, ndev,
                   ndev == 1 ? "" : "s");
        return vb_err_hint(err, "use --device 0..%d or --device all", ndev - 1);
    }
    *first = o->device < 0 ? 0 : o->device;
    *last = o->device < 0 ? ndev - 1 : o->device;
    if (*last >= MAX_DEVICES) *last = MAX_DEVICES - 1; /* the per-device tables' size */
    return 0;
}

/* collectors starts CUPTI activity tracing (host clocks only, with a warning, when it cannot)
 * and the metrics pass on the first device. 0 or -1 with err. */
static int collectors(struct vb_run_opts *o, int first, struct vb_err *err)
{
    struct vb_err why;
    int traced = vb_activity_start(&why) == 0;
    if (traced && vb_code_id_start(&why))
        fprintf(stderr, "%s run: warning: kernels' code identity unavailable: %s\n", vb_program,
                why.msg);
    if (!traced) {
        fprintf(stderr, "%s run: warning: CUPTI activity tracing unavailable: %s\n%s%s%s",
                vb_program, why.msg, why.hint[0] ? "hint: " : "", why.hint,
                why.hint[0] ? "\n" : "");
        printf("CUPTI unavailable: cases are timed with host clocks only (no per-copy or kernel "
               "records)\n");
    }
    /* the metrics pass, checked once on the first device before any case */
    if (VB_CUDA(err, cudaSetDevice(first)) ||
        vb_run_metrics_start(&o->metrics, first, traced ? NULL : &why, &o->sampling, stderr, err))
        return -1;
    return 0;
}

/* print_gpu prints a device's line and its ceilings (run_gpus.h's done) */
static void print_gpu(const struct vb_gpu_env *g, const struct vb_ceiling *c)
{
    vb_table_gpu(stdout, g, c);
}

/* measure runs the sweep in this process on devices first..last (-1: none): each device's
 * environment and ceilings, the collectors, the cases, the metrics pass. 0 or -1 with err. */
static int measure(struct vb_run_opts *o, struct run_ctx *ctx, struct vb_sweep *sw, int first,
                   int last, struct vb_err *err)
{
    static struct vb_floor_ceil floors[MAX_DEVICES]; /* each device's ceilings */
    static double peak[MAX_DEVICES]; /* each device's measured SM clock, MHz (the throttle rule) */
    double t0 = vb_mono_ns(), t1, t2;
    vb_timing_init(&ctx->timing);
    o->metrics.timing = ctx->timing.on ? stderr : NULL;
    ctx->floors = floors;
    sw->peak_mhz = peak;
    sw->floors = floors;
    if (vb_run_gpus(ctx->st, ctx->run_id, first, last, o->sampling.energy_updates > 0, peak, err) ||
        (first >= 0 && collectors(o, first, err)) ||
        vb_run_gpus_traced(ctx->st, ctx->run_id, first, last, &o->sampling, floors, print_gpu, err))
        return -1;
    sw->first = first;
    sw->last = last;
    if (!o->worker_run) vb_table_header(stdout); /* a worker's parent printed it */
    start_progress(o, sw);
    t1 = vb_mono_ns();
    if (vb_sweep_run(sw, &(struct vb_sweep_events){ctx, case_begin, case_done, ladder}, err))
        return -1;
    vb_progress_clear(&o->progress);
    vb_crash_case("the metrics pass's second sweep");
    t2 = vb_mono_ns();
    if (vb_run_metrics_sweep(&o->metrics, &o->sampling, ctx->st, err)) return -1;
    vb_timing_run(&ctx->timing, t1 - t0, t2 - t1, vb_mono_ns() - t2);
    vb_runner_release(&o->sampling); /* before the profiler it holds a session of goes */
    vb_run_metrics_finish(&o->metrics, stdout);
    vb_timing_families(&sw->tally);
    vb_activity_stop();
    return 0;
}

static void add_tally(struct vb_tally *to, const struct vb_tally *t)
{
    to->cases += t->cases;
    to->ok += t->ok;
    to->wrong += t->wrong;
    to->expected_wrong += t->expected_wrong;
    to->failed += t->failed;
    to->skipped += t->skipped;
    to->gpu_skipped += t->gpu_skipped;
    to->interrupted += t->interrupted;
    to->throttled += t->throttled;
}

/* fleet runs a --device all run of two or more devices: a worker process per device at once
 * (workers.h), then the CPU variants here, alone on the host, so that their host times share
 * it with no worker. Sums the tallies into sw->tally; *failed_code is set (and why[] says
 * which device) when a worker ended badly. 0 or -1 with err (workers that could not start,
 * the CPU pass). */
static int fleet(int argc, char **argv, struct vb_run_opts *o, struct run_ctx *ctx,
                 struct vb_sweep *sw, int first, int last, int *failed_code, char *why, size_t n,
                 struct vb_err *err)
{
    static struct vb_worker w[VB_WORKERS_MAX];
    struct vb_tally sum;
    char how[96];
    int i, nw = 0;
    printf("%d device%s at once: one worker process each (lines prefixed [gpu N]); then the CPU "
           "variants here\n",
           last - first + 1, last > first ? "s" : "");
    vb_table_header(stdout);
    if (vb_workers_run(argc, argv, ctx->run_id, first, last, w, &nw, err)) return -1;
    memset(&sum, 0, sizeof sum);
    printf("workers:");
    for (i = 0; i < nw; i++) {
        printf(" gpu %d %.1f s%s", w[i].device, w[i].seconds, i + 1 < nw ? "," : "\n");
        if (w[i].have_tally) add_tally(&sum, &w[i].t);
        if (!vb_worker_exit_ok(&w[i], how, sizeof how) && !*failed_code) {
            *failed_code = WIFEXITED(w[i].status) && WEXITSTATUS(w[i].status) >= 2
                               ? WEXITSTATUS(w[i].status)
                               : vb_code_exit(VB_E_SYS);
            snprintf(why, n, "device %d's worker %s%s (its lines above say why)", w[i].device, how,
                     w[i].have_tally ? "" : " before its end");
        }
        if (WIFEXITED(w[i].status) && WEXITSTATUS(w[i].status) == 130) vb_interrupted = 1;
    }
    sw->only = VB_SWEEP_CPU;
    sw->first = sw->last = -1;
    sw->nodev = NULL;
    if (!vb_interrupted && vb_sweep_count(sw)) {
        start_progress(o, sw);
        if (vb_sweep_run(sw, &(struct vb_sweep_events){ctx, case_begin, case_done, ladder}, err))
            return -1;
        vb_progress_clear(&o->progress);
        vb_timing_families(&sw->tally);
    } else {
        memset(&sw->tally, 0, sizeof sw->tally);
    }
    add_tally(&sw->tally, &sum);
    return 0;
}

/* print_crossovers prints, per problem the run swept, from which size its best GPU rung beats
 * the CPU reference end to end (crossover.h), read back from the store; nothing when no
 * problem has one (a run without a GPU), and a note on stderr when the cases cannot be read. */
static void print_crossovers(struct vb_store *st, int64_t run_id)
{
    static struct vb_cross_run cr; /* static: 40 KB of groups */
    struct vb_case_row *rows = NULL;
    struct vb_err err;
    char name[320], wins[360];
    int i, n, shown = 0;
    vb_err_clear(&err);
    if (vb_store_cases(st, run_id, &rows, &n, &err) || vb_crossover_run(rows, n, &cr)) {
        fprintf(stderr, "%s run: the crossovers are not shown: %s\n", vb_program,
                err.msg[0] ? err.msg : "out of memory");
        free(rows);
        return;
    }
    for (i = 0; i < cr.ng; i++) {
        if (cr.g[i].cross.kind == VB_CROSS_UNKNOWN) continue;
        if (!shown++)
            printf("crossover (the CPU reference against the best GPU rung, end to end):\n");
        printf("  %s: the GPU wins %s\n", vb_cross_group_name(&cr.g[i], name, sizeof name),
               vb_cross_group_wins(&cr.g[i], ", ", wins, sizeof wins));
    }
    vb_crossover_run_free(&cr);
    free(rows);
}

/* attach checks that a worker's run is there and running (its parent began it). 0 or -1. */
static int attach(struct vb_store *st, int64_t run_id, struct vb_err *err)
{
    struct vb_run_info_row ri;
    if (vb_store_run_info(st, run_id, &ri, err)) return -1;
    if (!strcmp(ri.status, "running")) return 0;
    vb_err_set(err, VB_E_USAGE, "run %lld is '%s', not running: a worker joins a run in progress",
               (long long)run_id, ri.status);
    return vb_err_hint(err, "--worker is for `varbench run --device all` itself; leave it out");
}

int vb_cmd_run(int argc, char **argv)
{
    struct vb_run_opts o;
    struct vb_err err, end_err, nogpu;
    struct vb_store *st = NULL;
    struct vb_run_info info;
    struct vb_host_env host;
    struct vb_sweep sw;
    struct sigaction sa;
    char cwd[1024], optline[1024], nodev[1200] = "", why[256] = "";
    struct run_ctx ctx = {.o = &o};
    struct vb_ab_worker abw = {0};
    int64_t run_id = 0;
    int rc, first = -1, last = -1, code, failed = 0, gpu_cases;
    const struct vb_tally *t = &sw.tally;
    char *args[256]; /* the command line as given, for the workers (parse reorders argv) */
    if (argc > (int)(sizeof args / sizeof args[0]))
        return vb_opt_error(&vb_run_usage, "too many arguments");
    memcpy(args, argv, sizeof *argv * (size_t)argc);
    vb_err_clear(&err);
    if ((rc = vb_run_opts_parse(argc, argv, &o))) return rc == 1 ? 0 : rc;
    memset(&sw, 0, sizeof sw);
    sw.filter = o.filter;
    sw.axes = &o.axes;
    sw.all_devices = o.device < 0;
    sw.sampling = &o.sampling;
    if (vb_sweep_check(&sw, &err)) return vb_opt_error_hint(&vb_run_usage, err.hint, "%s", err.msg);
    setvbuf(stdout, NULL, _IOLBF, 0); /* every finished case on disk and on screen at once */
    vb_crash_install();
    /* the devices before the database: a device that does not exist leaves no run behind */
    if (devices(&o, &first, &last, nodev, sizeof nodev, &nogpu, &err)) {
        if (err.code != VB_E_USAGE && err.code != VB_E_SYS) err.code = VB_E_CUDA;
        return vb_report_error("run", &err);
    }
    if (o.worker_run && first < 0) {
        vb_err_set(&err, VB_E_NODEV, "a worker for device %d, and no CUDA device here (%s)",
                   o.device, nodev);
        return vb_report_error("run", &err);
    }
    if (vb_store_open(o.db, &st, &err)) return vb_report_error("run", &err);
    if (first < 0) { /* no GPU: said once the database is known good, not before its error */
        fprintf(stderr, "%s run: %s\nhint: %s\n", vb_program, nogpu.msg, nogpu.hint);
        printf("no CUDA device: CPU references run; GPU variants are recorded as skipped\n");
    }
    ctx.st = st;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    if (o.worker_run) { /* a worker: the parent's run, its device's GPU cases (workers.h) */
        run_id = ctx.run_id = o.worker_run;
        if (attach(st, run_id, &err)) goto fail;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sw.only = VB_SWEEP_GPU;
        if (measure(&o, &ctx, &sw, first, last, &err)) goto fail;
        vb_worker_tally_print(t);
        vb_store_close(st);
        return vb_interrupted            ? vb_code_exit(VB_E_INTERRUPTED)
               : (t->wrong || t->failed) ? vb_code_exit(VB_E_WRONG)
                                         : 0;
    }
    vb_run_opts_line(&o, optline, sizeof optline);
    if (vb_pinned_pageable())
        fprintf(stderr,
                "%s run: VARBENCH_TEST_PAGEABLE=1: the pinned rungs' host buffers "
                "are pageable in this run (a test of the gates, not a measurement)\n",
                vb_program);
    info.kind = "suite";
    info.command_line = vb_command_line;
    info.cwd = getcwd(cwd, sizeof cwd) ? cwd : NULL;
    info.git_commit = vb_git_commit;
    info.version = VB_VERSION;
    info.options = optline;
    if (vb_store_run_begin(st, &info, &run_id, &err)) goto fail;
    ctx.run_id = run_id;
    if (o.ab) { /* a side of varbench ab: its run and its plan, then the rounds ab paces */
        sw.first = first;
        sw.last = last;
        if (vb_ab_worker_open(o.ab, &abw, &err) || vb_ab_worker_begin(&abw, run_id, &sw, &err))
            goto fail;
        o.sampling.rounds = &abw.rounds;
    }
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    vb_env_host(&host);
    if (vb_store_host(st, run_id, &host, &err)) goto fail;
    printf("%s run %lld -> %s (host %s, %s)\n", vb_program, (long long)run_id, o.db, host.hostname,
           host.cpu);
    sw.nodev = nodev[0] ? nodev : NULL;
    sw.only = VB_SWEEP_GPU; /* to count the GPU cases */
    gpu_cases = vb_sweep_count(&sw);
    sw.only = VB_SWEEP_BOTH;
    if (!o.worker_run && gpu_cases > 0 && vb_ledger_open(&nogpu)) /* once; cases' then empty */
        printf("ledger: %s: energy, power and clocks are not recorded\n", nogpu.msg);
    if (first >= 0 && o.device < 0 && gpu_cases > 0) { /* --device all */
        if (fleet(argc, args, &o, &ctx, &sw, first, last, &failed, why, sizeof why, &err))
            goto fail;
    } else {
        if (measure(&o, &ctx, &sw, first, last, &err)) goto fail;
    }
    code = failed                          ? failed
           : vb_interrupted                ? vb_code_exit(VB_E_INTERRUPTED)
           : (t->wrong || t->failed)       ? vb_code_exit(VB_E_WRONG)
           : (t->gpu_skipped && first < 0) ? vb_code_exit(VB_E_NODEV)
                                           : 0;
    snprintf(optline, sizeof optline,
             "%d cases: %d ok, %d wrong-result, %d wrong on purpose, %d failed, %d skipped, "
             "%d throttled%s%s%s",
             t->cases, t->ok, t->wrong, t->expected_wrong, t->failed, t->skipped, t->throttled,
             vb_interrupted ? ", interrupted" : "", failed ? "; " : "", why);
    if (vb_store_run_end(st, run_id,
                         failed           ? "failed"
                         : vb_interrupted ? "interrupted"
                                          : "complete",
                         code, optline, &err))
        goto fail;
    printf("run %lld stored in %s: %s\n", (long long)run_id, o.db, optline);
    if (first < 0) printf("%d GPU cases recorded as skipped: %s\n", t->skipped, nodev);
    print_crossovers(st, run_id);
    vb_store_close(st);
    vb_ab_worker_end(&abw);
    vb_eta_free(&o.eta);
    return code;

fail: /* one way out: what was started is stopped, the run is marked failed if it can be */
    vb_progress_clear(&o.progress);
    vb_runner_release(&o.sampling);
    vb_run_metrics_finish(&o.metrics, stdout);
    vb_activity_stop();
    if (err.code != VB_E_DB && err.code != VB_E_NODEV && err.code != VB_E_SYS &&
        err.code != VB_E_USAGE)
        err.code = VB_E_CUDA;
    code = vb_report_error("run", &err);
    /* best effort: a database that failed is left alone; a worker's run is its parent's */
    if (run_id && err.code != VB_E_DB && !o.worker_run)
        vb_store_run_end(st, run_id, "failed", code, err.msg, &end_err);
    vb_store_close(st);
    vb_ab_worker_end(&abw);
    vb_eta_free(&o.eta);
    return code;
}
