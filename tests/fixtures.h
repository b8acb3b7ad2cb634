/* fixtures: synthetic runs written through the store API, for the tests of the stages that
 * read databases (compare, merge, export, report). */
#ifndef VB_FIXTURES_H
#define VB_FIXTURES_H

#include <stdio.h>

#include "ceilings.h"
#include "env.h"
#include "result.h"
#include "store.h"

/* One case of a fixture run: mesh variant `variant` at nx = ny = n, with `samples` timed
 * samples spread +-1% around median_ms (deterministic), and the given status. */
struct fx_case {
    const char *variant;
    long n;
    int samples;
    double median_ms;
    const char *status; /* "ok", "wrong-result", ... */
};

/* A mesh run of three cases at nx = 1000, 50 samples each: host-mesh 20 ms, device-mesh 0.6 ms,
 * device-mesh-pinned 0.18 ms, all ok (compare's and merge's base run). */
extern const struct fx_case fx_mesh_cases[3];

/* fx_family returns the family called name, or NULL. */
const struct vb_family *fx_family(const char *name);
/* fx_problem returns problem name of family fam (name NULL: the family's first, the only one of
 * a one-function family), or NULL. */
const struct vb_problem *fx_problem(const char *fam, const char *name);
/* fx_variant finds "family/variant"; 0, or -1 when the catalog has no such variant. */
int fx_variant(const char *full, const struct vb_family **f, const struct vb_variant **v);
/* fx_write_v1 writes a schema-1 database at path from the SQL file sql (tests/schema_v1.sql)
 * with one complete run; what was at path is replaced. 0, or 1 (a failed ASSERT). */
int fx_write_v1(const char *sql, const char *path);
/* fx_tmp_path writes a fresh path for `name` in $TMPDIR (or /tmp), removing what was there. */
void fx_tmp_path(char *buf, size_t n, const char *name);
/* fx_read_back reads what was written to f (a tmpfile()) into buf (at most n - 1 bytes, then a
 * NUL) and closes f. Returns buf. */
char *fx_read_back(FILE *f, char *buf, size_t n);

/* fx_write_run writes a complete run on GPU `gpu` with the cases; sets *run_id. 0 or -1. */
int fx_write_run(struct vb_store *s, const char *gpu, const struct fx_case *cases, int n,
                 int64_t *run_id, struct vb_err *err);

/* A run of several boards (`run --device all` on one node): ndev devices of model gpu on host
 * host, bus "0000:%02x:00.0" with 0x18 + 0x10 x device. Every case of fx_write_boards_run is
 * on each device, its median scaled by 1 + 0.02 x device (the boards of one model differ a
 * little) and by factor on device slow (-1: none); seed shifts the samples' jitter (+-1%), so
 * that a rerun of the same boards is not the same samples. */
struct fx_boards {
    const char *host, *gpu;
    int ndev, slow;
    double factor;
    unsigned seed;
    const char *status; /* how the run ends: NULL "complete", or "interrupted", ... */
};

/* fx_write_boards_run writes a complete run of the boards b with cases[0..n) on each device,
 * and with cpu_case mesh/cpu-reference at the first case's point once (device -1); a case whose
 * variant is "device-mesh-pinned" has its floor on the kernel (its compared time is its kernel,
 * half of its end-to-end time). Sets *run_id. 0 or -1. */
int fx_write_boards_run(struct vb_store *s, const struct fx_boards *b, const struct fx_case *cases,
                        int n, int cpu_case, int64_t *run_id, struct vb_err *err);

/* What fx_write_export_runs wrote into one run, as a trace export must show it: records of
 * each kind (VB_EXPORT_*) and the driver API calls among the API calls; the arrows (API calls
 * whose case has a GPU record of their correlation id: one "s" each) and their "f" ends (GPU
 * records whose case has an API call of theirs), counted from the records; and by
 * construction the GPU records that overlap the one before on their stream, the host events
 * that overlap without nesting, and the ranges never closed. */
struct fx_export_want {
    int64_t n[VB_EXPORT_KINDS];
    int64_t driver_calls, flows, flow_ends, clamped, lane_events, open_ranges, cases;
};

/* fx_write_export_runs writes two runs for the trace export's tests: a traced program of two
 * processes on two GPUs (threads, nested and overlapping NVTX ranges, one never closed,
 * launches with correlation ids, a graph launch of two kernels, two kernels 2 ns apart the
 * wrong way, CUPTI's correlation ids repeated in the second process), then a suite run of two
 * mesh cases one after the other (host-mesh, device-mesh), with records but no API calls. Sets the
 * run ids and what each holds. 0 or -1. */
int fx_write_export_runs(struct vb_store *s, int64_t *trace_run, struct fx_export_want *trace,
                         int64_t *suite_run, struct fx_export_want *suite, struct vb_err *err);

/* fx_fake_case builds a GPU case of mesh's second variant (3 samples: verify, warm-up, timed) with
 * a copy, a kernel and an NVTX range in each and one memset outside every sample, into the
 * caller's arrays (3 of each, 1 memset). */
void fx_fake_case(struct vb_case_result *r, struct vb_sample *s, struct vb_copy_rec *c,
                  struct vb_kernel_rec *k, struct vb_memset_rec *m, struct vb_range_rec *n);

#endif
