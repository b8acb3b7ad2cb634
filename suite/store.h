/*
 * store: the SQLite database, the only module that speaks SQL. One file holds many runs;
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

#include "ceilings.h"
#include "env.h"
#include "result.h"

#define VB_SCHEMA_VERSION 1

struct vb_store;

struct vb_run_info {
    const char *kind; /* "suite" or "trace" */
    const char *command_line;
    const char *cwd;
    const char *git_commit;
    const char *version;
    const char *options; /* the effective options, one line */
};

/* A case as read back (for the tests and any reader that needs no SQL of its own). */
struct vb_case_row {
    int64_t id;
    char variant[160], axes[256], status[16], reason[256];
    int samples;
    double e2e_median_ns, kernel_median_ns, h2d_median_ns, d2h_median_ns;
    double max_abs_err;
    int64_t h2d_bytes, d2h_bytes, h2d_count, d2h_count;
};

/* vb_store_open opens (or creates) the database at path (":memory:" allowed), creating the
 * schema in an empty file and refusing, untouched, a file that is not a varbench database, is
 * corrupt, has a newer schema, or cannot be written. Returns 0 with *out set, or -1 (VB_E_DB). */
int vb_store_open(const char *path, struct vb_store **out, struct vb_err *err);
void vb_store_close(struct vb_store *s);

/* Runs: begin inserts a 'running' row; end sets status ("complete", "interrupted", "failed"). */
int vb_store_run_begin(struct vb_store *s, const struct vb_run_info *info, int64_t *run_id,
                       struct vb_err *err);
int vb_store_run_end(struct vb_store *s, int64_t run_id, const char *status, int exit_code,
                     const char *message, struct vb_err *err);

int vb_store_host(struct vb_store *s, int64_t run_id, const struct vb_host_env *h,
                  struct vb_err *err);
int vb_store_gpu(struct vb_store *s, int64_t run_id, const struct vb_gpu_env *g,
                 struct vb_err *err);
int vb_store_ceilings(struct vb_store *s, int64_t run_id, int device,
                      const struct vb_ceiling c[VB_CEIL_COUNT], struct vb_err *err);

/* vb_store_case writes a case with its axes, samples and records in one transaction; on
 * failure nothing of the case is kept. Sets *case_id when not NULL. */
int vb_store_case(struct vb_store *s, int64_t run_id, const struct vb_case_result *r,
                  int64_t *case_id, struct vb_err *err);

/* Readers. vb_store_cases returns a malloc'd array of the run's cases (caller frees). */
int vb_store_cases(struct vb_store *s, int64_t run_id, struct vb_case_row **rows, int *n,
                   struct vb_err *err);
/* vb_store_count counts rows of table (one of the schema's tables) for a case (case_id > 0) or
 * overall (case_id == 0). */
int vb_store_count(struct vb_store *s, const char *table, int64_t case_id, int64_t *n,
                   struct vb_err *err);
/* vb_store_run_status copies the run's status into buf. */
int vb_store_run_status(struct vb_store *s, int64_t run_id, char *buf, size_t n,
                        struct vb_err *err);

#endif
