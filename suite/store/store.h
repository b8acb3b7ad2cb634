/*
 * store: the SQLite database, the only module that speaks SQL (suite/store/store_*.c, one file
 * per job, sharing the private store_int.h; this header is the whole API, with store_columns.h
 * for what export reads of a case's columns). One file holds many runs;
 * each run keeps its environment, ceilings, cases, every raw sample and every CUPTI record,
 * with names after the Nsight Systems export where they overlap (TARGET_INFO_GPU,
 * CUPTI_ACTIVITY_KIND_KERNEL/_MEMCPY/_MEMSET, NVTX_EVENTS, StringIds). A case is written in
 * one transaction with cached prepared statements, so a run of thousands of samples and
 * records stays fast, and an interrupted run is marked so and never read as complete.
 * Opening never modifies a file that is not a varbench database.
 */
#ifndef VB_STORE_H
#define VB_STORE_H

#include <stdint.h>

#include "control.h"
#include "err.h"

/* What the writers take, defined where it is made (result.h, env.h): a reader of the database
 * (compare, export, report, summary) includes none of them. */
struct vb_case_result;
struct vb_code_entry;
struct vb_gpu_env;
struct vb_host_env;
struct vb_metric_value;
struct vb_summary_value;

#define VB_SCHEMA_VERSION 14

/* A case of `varbench trace` (family "trace") is a whole process, one sample that no verdict is
 * drawn from, unless its axes begin with "range=" or "kernel=": one NVTX range's instances or
 * one kernel's launches, a sample each (trace/samples.h), judged as a suite case is. The rule in
 * C, and in SQL over the cases table c (an alias with its dot, "c.") of runs of kind 'trace'. */
int vb_store_whole_process(const char *family, const char *axes);
/* vb_store_sampled_case: a traced case that is an NVTX range's instances or a kernel's launches
 * (the rule above: family "trace", axes beginning "range=" or "kernel="). */
int vb_store_sampled_case(const char *family, const char *axes);
#define VB_STORE_SAMPLED_SQL(c) "(" c "axes LIKE 'range=%' OR " c "axes LIKE 'kernel=%')"

/* The device's ceilings as the store keeps them (a row each in `ceilings`), measured by
 * ceilings.h's vb_ceilings_measure and read by the report: their names and one's values. */
#define VB_CEILINGS(X)                                                                             \
    X(H2D_PINNED, "h2d_pinned")                                                                    \
    X(D2H_PINNED, "d2h_pinned")                                                                    \
    X(H2D_PAGEABLE, "h2d_pageable")                                                                \
    X(D2H_PAGEABLE, "d2h_pageable")                                                                \
    X(D2D, "d2d")                                                                                  \
    X(DRAM, "dram")                                                                                \
    X(LAUNCH, "launch")                                                                            \
    X(MAPPED, "mapped")                                                                            \
    X(ROUNDTRIP, "roundtrip")                                                                      \
    X(ROUNDTRIP_GRAPH, "roundtrip_graph")                                                          \
    X(ROUNDTRIP_TRACED, "roundtrip_traced")                                                        \
    X(ROUNDTRIP_GRAPH_TRACED, "roundtrip_graph_traced")                                            \
    X(ROUNDTRIP_MAPPED, "roundtrip_mapped")                                                        \
    X(ROUNDTRIP_MAPPED_TRACED, "roundtrip_mapped_traced")                                          \
    X(KERNEL_EMPTY, "kernel_empty")                                                                \
    X(DRAM_1MIB, "dram_1mib")                                                                      \
    X(DRAM_4MIB, "dram_4mib")                                                                      \
    X(DRAM_16MIB, "dram_16mib")                                                                    \
    X(DRAM_64MIB, "dram_64mib")                                                                    \
    X(H2D_PAGEABLE_1MIB, "h2d_pageable_1mib")                                                      \
    X(H2D_PAGEABLE_4MIB, "h2d_pageable_4mib")                                                      \
    X(H2D_PAGEABLE_16MIB, "h2d_pageable_16mib")                                                    \
    X(H2D_PAGEABLE_64MIB, "h2d_pageable_64mib")                                                    \
    X(D2H_PAGEABLE_1MIB, "d2h_pageable_1mib")                                                      \
    X(D2H_PAGEABLE_4MIB, "d2h_pageable_4mib")                                                      \
    X(D2H_PAGEABLE_16MIB, "d2h_pageable_16mib")                                                    \
    X(D2H_PAGEABLE_64MIB, "d2h_pageable_64mib")

enum vb_ceiling_id {
#define X(id, name) VB_CEIL_##id,
    VB_CEILINGS(X)
#undef X
        VB_CEIL_COUNT
};

/* The curves: three rates (the streaming kernel's DRAM copy, pageable H2D and D2H) at the
 * VB_CEIL_CURVE_SIZES sizes 1, 4, 16 and 64 MiB, each curve's ids in a row from the first of the
 * curve ids (their 256 MiB point is the plain ceiling: dram, h2d_pageable, d2h_pageable). */
#define VB_CEIL_CURVE_SIZES 4
#define VB_CEIL_CURVES      VB_CEIL_DRAM_1MIB

/* vb_ceiling_curve_bytes: the bytes of the curves' k-th size (1 MiB << 2k) */
#define vb_ceiling_curve_bytes(k) ((uint64_t)1 << (20 + 2 * (k)))

/* vb_ceiling_name: the stored name of ceiling id ("h2d_pinned", ..., "launch"). */
const char *vb_ceiling_name(enum vb_ceiling_id id);

/* vb_ceilings_text writes the ceilings before the curves of gbps and ns (indexed by ceiling id;
 * 0: not measured) as " h2d_pinned 55.1 GB/s, ..., launch 4.02 us, ..." into buf: a copy by its
 * rate, a time (the launch, the round trips, an empty kernel) in us; returns buf. */
char *vb_ceilings_text(const double gbps[VB_CEIL_COUNT], const double ns[VB_CEIL_COUNT], char *buf,
                       size_t n);

/* vb_ceilings_curves_text writes the curves of gbps (indexed by ceiling id, 0: not measured) as
 * "curves, GB/s at 1, 4, 16, 64 MiB: dram 1210/2350/2780/2890, h2d_pageable ..." into buf, or ""
 * when none was measured; returns buf. */
char *vb_ceilings_curves_text(const double gbps[VB_CEIL_COUNT], char *buf, size_t n);

struct vb_ceiling {
    const char *name;
    uint64_t bytes;   /* bytes of one copy */
    int reps;         /* timed repetitions */
    double median_ns; /* median time of one copy */
    double gbps;      /* counted bytes / median time; D2D counts 2 x bytes */
};

struct vb_store;

struct vb_run_info {
    const char *kind; /* "suite" or "trace" */
    const char *command_line;
    const char *cwd;
    const char *git_commit;
    const char *version;
    const char *options; /* the effective options, one line */
};

#define VB_CASE_AXES 8 /* axes a case row holds (the registry's VB_MAX_AXES) */

/* One axis of a case as read back (table case_axes): value is the number, or for a string axis
 * the index of its label, and label is then its text ("" for a number axis). */
struct vb_case_axis {
    char name[32], label[64];
    int64_t value;
};

/* A case as read back, for the stages that read the database (compare, export, report) and
 * the tests. device is the GPU's name, or "cpu: <host CPU model>" for CPU-only variants. axes
 * is the point as text ("nx=1000,ny=1000"), axis[0..naxes) the same point structured, in the
 * family's axis order. */
/* What tracing cost one process (varbench trace), NaN where not measured: CUPTI's start in
 * the process, the flush of its records at exit, the write of its case, and CUPTI's own
 * overhead records (their summed duration and count); records CUPTI dropped. */
struct vb_trace_cost {
    double init_ns, flush_ns, store_ns, cupti_overhead_ns;
    int64_t cupti_overhead_count, dropped_records;
    /* schema 6: the program's own CUPTI client that shared CUPTI ("" none), what it was handed */
    char client[160];
    int64_t client_kernels, client_copies, client_memsets, client_records;
    char overhead_detail[320]; /* CUPTI's overhead records by kind ("" when none) */
};

struct vb_case_row {
    int64_t id, run_id;
    char variant[160], family[64], name[96], axes[256], status[16], reason[256];
    struct vb_case_axis axis[VB_CASE_AXES];
    int naxes;
    char device[256];
    int is_reference, needs_gpu, have_records;
    int samples;
    double e2e_median_ns, e2e_mean_ns, e2e_stdev_ns, e2e_min_ns, e2e_max_ns;
    double kernel_median_ns, h2d_median_ns, d2h_median_ns;
    /* schema 3: the sample's GPU time (H2D + kernel + D2H + memset, CUPTI) and memsets; NaN
     * without records */
    double gpu_median_ns, memset_median_ns;
    double gpu_ci_pct;     /* half-width of the 95% confidence interval of gpu's median, % of it */
    char stop_reason[192]; /* with a traced process's capture ("exit (pid 7); capture ...") */
    char cache[8];         /* "cold" (L2 flushed before each sample), "warm", "" */
    double clock_min_mhz, clock_median_mhz; /* SM clock over the timed samples; NaN unknown */
    int dropped_samples;                    /* timed samples dropped: SM clock under 75% of peak */
    int throttled;                          /* any dropped: the case's times are not comparable */
    int h2d_pageable, d2h_pageable;         /* its kept copy records move pageable host memory: 1,
                                               0; -1 without records */
    double max_abs_err, max_rel_err;
    int64_t h2d_bytes, d2h_bytes, h2d_count, d2h_count;
    double gst_efficiency;            /* %, NaN without a metrics pass */
    double floor_ms, floor_ratio;     /* the case's floor (floor.h) and time over it; NaN unknown */
    char floor_bound[8], floor_of[8]; /* "dram"/"pcie"/"launch"/"latency", "kernel"/"e2e" */
    char metrics_status[16];          /* "" (none), ok, off, unavailable, failed */
    char metrics_reason[256];
    int device_id;  /* the CUDA device it ran on; -1 for a CPU-only case */
    char board[64]; /* that GPU's PCI bus location ("0000:18:00.0"), or "" */
    /* schema 5: a traced process's cost (vb_trace_cost); has_trace_cost 0 for other cases */
    int has_trace_cost;
    struct vb_trace_cost trace_cost;
    /* schema 11: the board over the timed samples (ledger.h); NaN or "" where not measured */
    double energy_j, power_w, power_read_w, temp_max_c, nvml_sm_mhz_median, nvml_mem_mhz_median;
    double power_limit_w;
    double energy_unc_j; /* schema 14: energy_j's uncertainty (the counter's period / window) */
    double energy_work_j, energy_work_unc_j; /* --energy: energy_j above the idle draw, +- */
    char clock_reasons[128];                 /* "sw power cap, hw thermal", "none" */
    char co_tenants[160];                    /* other processes on the board: "pid 123 (512 MiB)" */
    char ledger_note[160]; /* why energy was not measured ("window 12 ms: ...", "no NVML: ...") */
    char quiet_wait[160];  /* what --quiet-gpu waited for ("waited 1.20 s: pid 7 (9 MiB) left") */
    /* schema 8: the variant's problem ("" unknown) and flags (registry.h's VB_GPU, ...; -1
     * unknown); the work one sample declares (result.h): global-memory bytes (0 unknown),
     * elements and floating-point operations (NaN unknown) */
    char problem[64];
    int flags;
    int64_t gmem_read_bytes, gmem_write_bytes;
    double elements, flops;
};

/* A run as read back. */
struct vb_run_row {
    int64_t id;
    char uuid[40], kind[16], status[16], command_line[512], git_commit[64], start_utc[40];
    char host[256], cpu[256], gpu[256]; /* gpu: device 0's name, "" without one */
    int exit_code, cpu_count;
};

/* One measured ceiling of a run. */
struct vb_ceiling_row {
    int64_t run_id;
    int device;
    char name[32];
    double gbps;
    double median_ns; /* one repetition's median: what a time ceiling (launch, a round trip) is */
};

/* vb_store_open_ro opens an existing database read-only (never creating or changing it);
 * refuses files that are not varbench databases of this schema. Returns 0 or -1 (VB_E_DB). */
int vb_store_open_ro(const char *path, struct vb_store **out, struct vb_err *err);

/* What vb_store_migrate did. */
struct vb_migrate_result {
    int from, to;    /* the file's schema before, and this varbench's */
    int written;     /* 1: the file was rewritten (from < to); 0: it was already current */
    int64_t running; /* runs still marked 'running' in it */
    char bak[4200];  /* where the old file is kept (FILE.bak, by its real path) */
};

/* vb_store_migrate rewrites the database at path, of an older schema, in this one's: the runs
 * as every reader reads them, written to a new file, synced and renamed over path, the old file
 * kept as path.bak (store_migrate.c says how and why). A current file is left untouched.
 * Refuses (path unchanged) a file another process has open, one with a run still 'running'
 * unless force, an existing path.bak, a foreign, empty or newer database. 0 or -1 with err. */
int vb_store_migrate(const char *path, int force, struct vb_migrate_result *res,
                     struct vb_err *err);

/* vb_store_remove deletes the varbench database at path with its -wal, -shm and -journal files
 * (what `trace -o FILE -f` replaces); refuses, untouched, a file that is not one (a source file
 * named by mistake). Returns 0 or -1 with err. */
int vb_store_remove(const char *path, struct vb_err *err);

/* vb_store_open opens (or creates) the database at path (":memory:" allowed), creating the
 * schema in an empty file and refusing, untouched, a file that is not a varbench database, is
 * corrupt, has a newer schema, or cannot be written. Returns 0 with *out set, or -1 (VB_E_DB). */
int vb_store_open(const char *path, struct vb_store **out, struct vb_err *err);
/* vb_store_close finalizes the store's statements and closes the file (NULL allowed). This
 * can't fail: what was committed stays, an open transaction is rolled back. */
void vb_store_close(struct vb_store *s);

/* Runs: begin inserts a 'running' row; end sets status ("complete", "interrupted", "failed"). */
int vb_store_run_begin(struct vb_store *s, const struct vb_run_info *info, int64_t *run_id,
                       struct vb_err *err);
int vb_store_run_end(struct vb_store *s, int64_t run_id, const char *status, int exit_code,
                     const char *message, struct vb_err *err);

/* The run's environment, written once per run after vb_store_run_begin: its host (one row), each
 * GPU it uses (one row per device id) and the VB_CEIL_COUNT measured ceilings of `device`. 0 or
 * -1 (VB_E_DB; a second row for the same run and device is refused). */
int vb_store_host(struct vb_store *s, int64_t run_id, const struct vb_host_env *h,
                  struct vb_err *err);
int vb_store_gpu(struct vb_store *s, int64_t run_id, const struct vb_gpu_env *g,
                 struct vb_err *err);
int vb_store_ceilings(struct vb_store *s, int64_t run_id, int device, const struct vb_ceiling *c,
                      struct vb_err *err); /* VB_CEIL_COUNT */

/* vb_store_case writes a case with its axes, samples and records in one transaction; on
 * failure nothing of the case is kept. Sets *case_id when not NULL. */
int vb_store_case(struct vb_store *s, int64_t run_id, const struct vb_case_result *r,
                  int64_t *case_id, struct vb_err *err);

/* vb_store_case_metrics adds metric values m[0..n) to stored case case_id and ns to its
 * metrics time, in one transaction (the run's second metrics sweep: the DRAM counters);
 * with failure (not NULL) the case's metrics become 'failed' with that reason, else note (not
 * NULL) becomes its metrics reason, its metrics still ok. */
int vb_store_case_metrics(struct vb_store *s, int64_t case_id, const struct vb_metric_value *m,
                          size_t n, double ns, const char *failure, const char *note,
                          struct vb_err *err);

/* Readers. vb_store_runs returns a malloc'd array of every run, oldest first (caller frees):
 * by start time, then id, the order vb_store_latest_run takes its newest by. */
int vb_store_runs(struct vb_store *s, struct vb_run_row **rows, int *n, struct vb_err *err);
/* "Newest" means one thing in every reader: the latest start time, and of runs started in the
 * same millisecond the larger id (not the larger id alone: after a merge that is the last run
 * merged). vb_store_latest_run sets *run_id to the newest complete suite run (the newest
 * complete trace run when there is none); -1 (VB_E_DB) if there is no complete run. */
int vb_store_latest_run(struct vb_store *s, int64_t *run_id, struct vb_err *err);

/* One run as `varbench runs` lists it: what it was and the tally of its cases. */
struct vb_run_list_row {
    int64_t id;
    char uuid[40];
    char kind[16];      /* "suite" or "trace" */
    char status[16];    /* running (or its writer died), complete, interrupted, failed */
    char start_utc[40]; /* ISO 8601 UTC, "2025-01-31T12:00:00.123Z" */
    char gpu[256];      /* the run's first GPU's name (device 0 when it has one), "" without */
    /* that GPU's NVML energy counter and power reading update periods (ms) as the run's start
     * measured them (schema 14); NaN where not measured */
    double energy_period_ms, power_period_ms;
    char git_commit[64]; /* "" when unknown */
    int cases;           /* all its cases: the sum of the six counts below */
    int ok;
    int wrong;      /* wrong-result, not on purpose: what fails a run */
    int on_purpose; /* wrong-result of a variant wrong on purpose (calx/naive-inner) */
    int failed, skipped, interrupted;
};

/* vb_store_run_list returns a malloc'd array of every run, newest first (the rule above), with
 * its cases counted in one pass; free it with vb_store_run_list_free. 0 or -1 (VB_E_DB). */
int vb_store_run_list(struct vb_store *s, struct vb_run_list_row **rows, int *n,
                      struct vb_err *err);
/* vb_store_run_list_free frees what vb_store_run_list returned (NULL allowed). */
void vb_store_run_list_free(struct vb_run_list_row *rows);
/* vb_store_ceiling_rows returns a malloc'd array of the ceilings of every run (caller frees). */
int vb_store_ceiling_rows(struct vb_store *s, struct vb_ceiling_row **rows, int *n,
                          struct vb_err *err);
/* vb_store_samples returns the case's timed samples of one phase in ns, in the order taken, as
 * a malloc'd array (caller frees): "e2e" (host clock), or from CUPTI's records "gpu" (the sum
 * of the others), "kernel", "h2d", "d2h", "memset" (these exist only with records), "comm" (of
 * the kernel time, collective kernels': traced samples since schema 9). Samples
 * dropped for a low SM clock are left out, and so is a stored value that is no number (text, a
 * blob: what varbench never writes). VB_E_USAGE for another name. */
int vb_store_samples(struct vb_store *s, int64_t case_id, const char *metric, double **x, int *n,
                     struct vb_err *err);

/* One timed sample of a case as the judges read it (compare, ranks): each phase in ns (NaN where
 * the sample has none or holds no number: GPU phases without records, comm before schema 9) and
 * its controls (control.h; NaN where not measured: before schema 12, a traced case). */
struct vb_sample_row {
    double e2e, gpu, kernel, h2d, d2h, memset, comm;
    double ctl[VB_CTL_COUNT];
};
/* vb_store_sample_rows returns the case's timed samples that were not dropped for a low SM clock,
 * in the order taken, as a malloc'd array (caller frees; NULL and 0 without any). 0 or -1. */
int vb_store_sample_rows(struct vb_store *s, int64_t case_id, struct vb_sample_row **rows, int *n,
                         struct vb_err *err);

/* One run of a case's history. */
struct vb_history_point {
    int64_t run_id;
    char start_utc[40], git_commit[64];
    double value_ns; /* the case's stored median of the metric in that run */
    int64_t case_id; /* the case in that run */
};
/* One case (variant, axes) on one GPU model (gpu: the run's device 0 name, "" for a CPU-only
 * run) across runs, oldest first (the store's newest rule reversed). */
struct vb_history {
    char variant[160], axes[256], gpu[256];
    struct vb_history_point *pts;
    int n;
};
/* vb_store_history returns every case of the complete suite runs whose "family/variant" matches
 * glob (fnmatch; a glob without '/' also matches the family, as `run --filter`; NULL = all), its
 * metric ("e2e", "gpu", "kernel", "h2d", "d2h"; the cases' *_median_ns columns) per run where the
 * case is ok and has that median (suite runs' cases, and traced runs' sampled ones) (a median of 0,
 * a phase the case lacks, is none; a median that is no time (+Inf, negative, text, a blob) is
 * missing: left out, and a successful call that left any out says so in err with code VB_E_OK: the
 * first case, run and column, and how many more; err->msg is "" otherwise); series ordered by
 * variant, axes, gpu. A run that ran the case on several devices gives its device 0's. Malloc'd;
 * free with vb_store_history_free. 0 or -1 (VB_E_USAGE for an unknown metric, VB_E_DB, VB_E_SYS out
 * of memory). */
int vb_store_history(struct vb_store *s, const char *glob, const char *metric,
                     struct vb_history **out, int *n, struct vb_err *err);
/* vb_store_history_free frees what vb_store_history returned (NULL allowed). */
void vb_store_history_free(struct vb_history *h, int n);
/* vb_store_run_pool writes run_id, then the complete runs of its kind (suite, or trace: a
 * program's earlier traces) before it by the newest rule on the same GPU model (device 0's name; ""
 * matches "") newest first, into ids: at most cap in all, *n of them. The base side of a pooled
 * baseline (compare --baseline-runs). 0 or -1 (VB_E_USAGE when the database has no run run_id,
 * VB_E_DB). */
int vb_store_run_pool(struct vb_store *s, int64_t run_id, int64_t *ids, int cap, int *n,
                      struct vb_err *err);

/* vb_store_merge copies every run of the database at `path` whose uuid this database lacks,
 * with everything that belongs to it, in one transaction; `path` is opened read-only. A run
 * this database holds a partial copy of (still 'running' here and finished there, or with
 * fewer cases) is replaced by the source's copy. Sets *added to the runs copied anew and
 * *replaced (may be NULL) to those replaced. Merging the same file twice adds nothing. */
int vb_store_merge(struct vb_store *s, const char *path, int *added, int *replaced,
                   struct vb_err *err);

/* vb_store_cases returns a malloc'd array of the run's cases (caller frees), by id. Its
 * columns are store_columns.c's table. */
int vb_store_cases(struct vb_store *s, int64_t run_id, struct vb_case_row **rows, int *n,
                   struct vb_err *err);
/* A kernel a run launched and the hash of its SASS (code_id.h), as vb_store_run_code reads it:
 * known 0 when the run stored no code for it (a run before schema 10, a traced program, a
 * module CUPTI gave no cubin of) or two (one name in two modules of other code: which ran is
 * not known). */
struct vb_run_kernel {
    char name[2048]; /* mangled */
    uint64_t hash;
    int known;
};

/* vb_store_kernel_code stores kernels' code hashes (e[0..n), code_id.h's entries) with run
 * run_id, a kernel stored before with the same hash kept once. 0 or -1 (VB_E_DB). */
int vb_store_kernel_code(struct vb_store *s, int64_t run_id, const struct vb_code_entry *e,
                         size_t n, struct vb_err *err);
/* vb_store_run_code returns the kernels run run_id's cases launched (by their records), in name
 * order, each with its stored hash (a name with two: none), as a malloc'd array (caller
 * frees; NULL and 0 without any); *recorded 1 when the run stored any code at all. 0 or -1
 * (VB_E_DB). */
int vb_store_run_code(struct vb_store *s, int64_t run_id, struct vb_run_kernel **out, int *n,
                      int *recorded, struct vb_err *err);
/* vb_store_case_code sets *digest to case case_id's code identity: a 64-bit FNV-1a digest over
 * each distinct kernel its records launched (mangled name, grid, block, shared memory,
 * registers, and its launches a sample: its records over the samples they fall in) with its
 * run's SASS hash, in name order; *state 1 when every such kernel has one
 * hash, 0 when the case launched no kernel, -1 when one has none (digest then 0). Two cases of
 * one digest ran the same machine code the same way. 0 or -1 (VB_E_DB). */
int vb_store_case_code(struct vb_store *s, int64_t case_id, uint64_t *digest, int *state,
                       struct vb_err *err);
/* vb_store_case_summaries returns case case_id's named numbers (table case_summaries, what the
 * benchmark gave vb_summary) as a malloc'd array in name order (caller frees; *out NULL and *n 0
 * without any): value NaN where none was stored, unit "" without one. 0 or -1 (VB_E_DB). */
int vb_store_case_summaries(struct vb_store *s, int64_t case_id, struct vb_summary_value **out,
                            int *n, struct vb_err *err);
/* vb_store_summary_name_ok: 1 when name can name a summary: [A-Za-z0-9_.-], 1 to 63 characters,
 * and, case aside, not the name of a column of cases, of a value read with them or of a cell of
 * export's CSV or JSON (store_columns.c's table, and the keys export writes itself). Else 0 with
 * the reason in why (n bytes; why may be NULL). Export writes summaries as JSON keys beside its
 * own: a name that took one of theirs would make two keys of one. */
int vb_store_summary_name_ok(const char *name, char *why, size_t n);
/* vb_store_count counts rows of table (one of the schema's tables) for a case (case_id > 0) or
 * overall (case_id == 0). */
int vb_store_count(struct vb_store *s, const char *table, int64_t case_id, int64_t *n,
                   struct vb_err *err);
/* vb_store_run_status copies the run's status into buf. */
int vb_store_run_status(struct vb_store *s, int64_t run_id, char *buf, size_t n,
                        struct vb_err *err);

/* One CUPTI record of a timeline: what (VB_TL_*), on which stream, when (ns from the sample's
 * start, or from a traced process's first record), and the bytes of a copy or memset. */
enum { VB_TL_KERNEL, VB_TL_H2D, VB_TL_D2H, VB_TL_MEMSET, VB_TL_OTHER_COPY };
struct vb_tl_event {
    int kind, stream;
    double start_ns, end_ns;
    int64_t bytes;
};
/* vb_store_timeline returns (malloc'd, caller frees, in start order) the records of one sample
 * of case case_id: the timed sample with records kept whose e2e is nearest the case's median,
 * or all the records of a traced case with each idle gap over VB_TL_GAP_NS cut to
 * VB_TL_GAP_SHOWN_NS (its start-up and JIT pauses); *span_ns is that sample's e2e (at least
 * its last record's end). No records: *n 0. 0 or -1 (VB_E_DB). */
#define VB_TL_GAP_NS       10e6
#define VB_TL_GAP_SHOWN_NS 0.5e6
int vb_store_timeline(struct vb_store *s, int64_t case_id, struct vb_tl_event **ev, int *n,
                      double *span_ns, struct vb_err *err);

/* Trace summaries (varbench trace and summary). */

/* A run's row as `varbench summary` heads its tables. */
struct vb_run_info_row {
    int64_t id;
    char kind[16], status[16], command_line[1024], start_utc[40], end_utc[40];
    char message[1024], gpu[256]; /* gpu: device 0's name, "" without one */
    char nvml[1024]; /* every board's NVML update periods (VB_STORE_RUN_NVML), "" unmeasured */
    int exit_code, has_exit_code, ncases;
    int nprocesses; /* of a trace run: its whole-process cases (vb_store_whole_process) */
};

/* What vb_store_summary aggregates, per run over all its cases. */
enum vb_summary_kind {
    VB_SUM_KERNEL, /* name: the kernel's mangled name */
    VB_SUM_MEMCPY, /* sub: the CUpti_ActivityMemcpyKind (1 HtoD, 2 DtoH, 8 DtoD, ...) */
    VB_SUM_MEMSET,
    VB_SUM_API,   /* name: CUPTI's name of the function ("cudaMemcpy_v3020"); sub: 1 driver API */
    VB_SUM_RANGE, /* name: the NVTX range's text (ended ranges only) */
};

/* One line of a summary table; durations in ns, bytes for copies and memsets only. */
struct vb_summary_row {
    int kind, sub;
    char name[2048];
    int64_t calls, bytes, min_bytes, max_bytes;
    double total_ns, min_ns, max_ns;
};

/* vb_store_trace_gpu records a GPU of a traced run unless the run has it already (each traced
 * process describes the devices it saw). */
int vb_store_trace_gpu(struct vb_store *s, int64_t run_id, const struct vb_gpu_env *g,
                       struct vb_err *err);
/* vb_store_latest_trace sets *run_id to the newest run of kind 'trace' (the rule of
 * vb_store_latest_run), whatever its status; -1 (VB_E_DB, with a hint) if there is none. */
int vb_store_latest_trace(struct vb_store *s, int64_t *run_id, struct vb_err *err);

/* vb_store_trace_cost records c on a traced case (after vb_store_case: the write's own time is
 * part of it). 0 or -1 with err. */
int vb_store_trace_cost(struct vb_store *s, int64_t case_id, const struct vb_trace_cost *c,
                        struct vb_err *err);
/* vb_store_run_info reads one run; -1 with VB_E_USAGE when the database has no such run. */
int vb_store_run_info(struct vb_store *s, int64_t run_id, struct vb_run_info_row *r,
                      struct vb_err *err);
/* vb_store_summary returns a malloc'd array (caller frees) of the run's summary lines, in no
 * particular order: one per kernel, kind of copy, memsets, API function and NVTX text. */
int vb_store_summary(struct vb_store *s, int64_t run_id, long rank, struct vb_summary_row **rows,
                     int *n, struct vb_err *err);

/* One counter of one launch of a case's metrics pass (the metrics table). */
struct vb_counter_row {
    int64_t launch;   /* the launch's number in the profiled sample */
    char kernel[512]; /* the profiler's name of it ("" unknown) */
    char metric[128]; /* the Nsight Compute name */
    double value;
};

/* vb_store_case_counters returns a malloc'd array (caller frees) of case case_id's counter
 * values, by launch then metric; values that are no number are left out. 0, or -1 with err. */
int vb_store_case_counters(struct vb_store *s, int64_t case_id, struct vb_counter_row **rows,
                           int *n, struct vb_err *err);

/* One launch configuration of a kernel of a case (its kept CUPTI records). */
struct vb_launch_row {
    char kernel[512];                           /* its short name */
    int64_t blocks, threads, registers, shared; /* a grid's blocks, a block's threads, registers a
                                                  thread, shared memory a block (bytes) */
    int cc_major, cc_minor, sms; /* its device's compute capability and SMs; 0 unknown */
};

/* vb_store_case_launches returns a malloc'd array (caller frees) of the distinct launch
 * configurations of case case_id's kernels, by kernel. 0, or -1 with err. */
int vb_store_case_launches(struct vb_store *s, int64_t case_id, struct vb_launch_row **rows, int *n,
                           struct vb_err *err);

/* One metric of one kernel over a run's metrics passes: nvprof's "Metric result" line. */
struct vb_metric_row {
    char kernel[2048]; /* the profiler's name of the range (the kernel) */
    char metric[128];
    int64_t invocations;
    double min, max, avg;
};

/* vb_store_metric_summary returns a malloc'd array (caller frees) of the run's metric values
 * aggregated per kernel and metric, ordered by kernel then metric. */
int vb_store_metric_summary(struct vb_store *s, int64_t run_id, struct vb_metric_row **rows, int *n,
                            struct vb_err *err);

/* Records one at a time (store_activity.c), for the print modes that list every record
 * (nvprof's --print-gpu-trace and --print-api-trace). Each reader steps one case's records in
 * start order (ties by correlation id) and hands each row to fn, which returns 0 to go on or
 * -1 (with err filled) to stop; a row's text is valid during its call only. Rows are never
 * gathered: a traced process may hold millions. 0, or -1 with err (fn's, or VB_E_DB). */

/* One kernel, copy or memset of a case. */
enum vb_act_kind { VB_ACT_KERNEL, VB_ACT_MEMCPY, VB_ACT_MEMSET };
struct vb_gpu_act {
    int kind;                                 /* vb_act_kind */
    int64_t start, end;                       /* ns, CUPTI's clock (CLOCK_REALTIME) */
    int grid[3], block[3];                    /* kernels only */
    int registers, static_smem, dynamic_smem; /* kernels only: per thread, bytes per block */
    int64_t bytes;                            /* copies and memsets */
    int copy_kind;          /* copies: CUpti_ActivityMemcpyKind (1 HtoD, 2 DtoH, ...) */
    int src_kind, dst_kind; /* CUpti_ActivityMemoryKind; -1 none (a memset's source,
                               a kernel's); a memset's memory is its dst_kind */
    int device, context, stream;
    int src_device, dst_device; /* a peer copy's (copy_kind 10) two devices; -1 otherwise */
    int64_t correlation;
    const char *name;        /* a kernel's mangled name; "" otherwise */
    const char *device_name; /* the run's TARGET_INFO_GPU name of device; "" unknown */
};
/* One CUDA API call of a case. */
struct vb_api_call {
    int64_t start, end; /* ns */
    int driver;         /* 1 driver API, 0 runtime API */
    int64_t correlation, process, thread;
    int ret;          /* the call's return code */
    const char *name; /* CUPTI's name ("cudaMemcpy_v3020") */
};

/* vb_store_case_origin sets *t0 to where a case's trace starts, what its records' start times
 * are shown from: the case's start (a traced process's window), or, without one, its first
 * record's start (0 without records). VB_E_USAGE when there is no case case_id. */
int vb_store_case_origin(struct vb_store *s, int64_t case_id, int64_t *t0, struct vb_err *err);
/* vb_store_gpu_trace hands each kernel, copy and memset of case case_id to fn. */
int vb_store_gpu_trace(struct vb_store *s, int64_t case_id,
                       int (*fn)(void *ctx, const struct vb_gpu_act *a, struct vb_err *err),
                       void *ctx, struct vb_err *err);
/* vb_store_api_trace hands each CUDA API call of case case_id to fn. */
int vb_store_api_trace(struct vb_store *s, int64_t case_id,
                       int (*fn)(void *ctx, const struct vb_api_call *a, struct vb_err *err),
                       void *ctx, struct vb_err *err);

/* Trace export (varbench export --format trace, export_trace.c): a run's records read back in
 * time order, one row at a time, for cases chosen by a --case glob (the rule of glob.h on
 * "family/variant"; NULL or "" chooses every case). Workload: up to millions of API calls and
 * kernels a run, so nothing is read into memory but the run's cases and GPUs: two cursors (the
 * GPU's records, the host's) walk SQLite's own sort of the rows. */

/* The kinds of records an export writes, in the order of its counts. */
enum vb_export_kind {
    VB_EXPORT_KERNEL,
    VB_EXPORT_MEMCPY,
    VB_EXPORT_MEMSET,
    VB_EXPORT_RANGE, /* an NVTX range */
    VB_EXPORT_API,   /* a CUDA runtime or driver API call */
    VB_EXPORT_KINDS
};

/* One case chosen for an export; start and end are its window on the records' clock (CUPTI
 * ns), 0 where the case has none. */
struct vb_export_case {
    int64_t id, start, end;
    char variant[160], axes[256], status[16];
};

/* One GPU of a run (TARGET_INFO_GPU); numbers are 0 where unknown. */
struct vb_export_gpu {
    int id, cc_major, cc_minor, sm_count, clock_khz, mem_clock_khz, bus_width;
    int64_t total_mem, l2_bytes;
    char name[256], uuid[64], bus[64], driver[64];
};

/* One record. GPU records (kernel, copy, memset) fill device to value, host records (range,
 * API call) process to ret; -1 marks a process or thread the database does not hold. */
struct vb_export_rec {
    int kind; /* enum vb_export_kind */
    int64_t case_id, start, end, correlation;
    /* flow: a GPU record whose correlation id an API call of its case has, or the first API
     * call of its case with a correlation id that a GPU record has (the two ends of an arrow) */
    int flow;
    int device, context, stream;
    int grid[3], block[3], registers;
    int64_t static_smem, dynamic_smem, bytes, value;
    int copy_kind, src_kind, dst_kind, mem_kind; /* CUPTI's memcpy and memory kinds */
    int src_device, dst_device;                  /* a peer copy's two devices; -1 otherwise */
    int64_t process, thread;
    int driver, open;          /* open: a range never closed (end is then its case's end) */
    int64_t ret, name_id;      /* name_id: the name's StringIds id (a cache key), 0 for none */
    char name[2048];           /* kernel: the mangled name; API call: CUPTI's; range: its text */
    int64_t graph, graph_node; /* GPU: the CUDA graph and node that launched it (0: none) */
    char sass[24];             /* kernel: its SASS hash (kernel_code), "" where not recorded */
    int nvtx_type;             /* range: NVTX_EVENTS.eventType (34 mark, 59, 60 ranges) */
    char domain[128];          /* range: its NVTX domain ("" the default) */
};

struct vb_export_cursor;

/* vb_store_export_cases returns (malloc'd, caller frees) the cases of run run_id that glob
 * chooses, by id. 0 or -1 (VB_E_DB, VB_E_SYS out of memory). */
int vb_store_export_cases(struct vb_store *s, int64_t run_id, const char *glob,
                          struct vb_export_case **rows, int *n, struct vb_err *err);
/* vb_store_export_no_case refuses an export whose --case glob matched none of run run_id's
 * cases: -1 with err (VB_E_USAGE, naming the glob, and a hint). */
int vb_store_export_no_case(int64_t run_id, const char *glob, struct vb_err *err);
/* vb_store_export_gpus returns (malloc'd, caller frees) the run's GPUs, by id. 0 or -1. */
int vb_store_export_gpus(struct vb_store *s, int64_t run_id, struct vb_export_gpu **rows, int *n,
                         struct vb_err *err);
/* vb_store_export_counts sets n[VB_EXPORT_KINDS] to the stored records of each kind of cases
 * c[0..nc), by COUNT queries apart from the cursors (what an export checks its own counts
 * against). 0 or -1. */
int vb_store_export_counts(struct vb_store *s, const struct vb_export_case *c, int nc, int64_t *n,
                           struct vb_err *err);
/* vb_store_export_open starts a walk over the GPU records of cases c[0..nc) (host 0: kernels,
 * copies and memsets, by start, then end) or their host records (host 1: NVTX ranges and API
 * calls, by start, the longer first, so a range comes before what it holds). The cursor
 * belongs to the caller (vb_store_export_close); 0 or -1 with err. */
int vb_store_export_open(struct vb_store *s, const struct vb_export_case *c, int nc, int host,
                         struct vb_export_cursor **cur, struct vb_err *err);
/* vb_store_export_next fills *r with the next record: 1, 0 at the end, or -1 with err. */
int vb_store_export_next(struct vb_export_cursor *c, struct vb_export_rec *r, struct vb_err *err);
/* vb_store_export_close ends a walk (NULL allowed). This can't fail. */
void vb_store_export_close(struct vb_export_cursor *c);

#endif
