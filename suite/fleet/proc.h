/*
 * proc: runs another program without a shell and waits for it, with a time limit: what
 * `varbench fleet` needs to call Slurm's CLIs (sbatch, squeue, sacct) and varbench itself.
 * The program's arguments go to execvp as they are, so no word is ever re-split or expanded.
 * Workload: a few calls per command, each answering a few KiB.
 */
#ifndef VB_PROC_H
#define VB_PROC_H

#include <stddef.h>

struct vb_err;

/* What a finished program left. out: its stdout (NUL-terminated, malloc'd; NULL when it went
 * to a file), errtail: the end of its stderr, status: its exit code, or 128 + the signal that
 * ended it. */
struct vb_proc {
    char *out;
    char errtail[512];
    int status;
};

/* vb_proc_run runs argv[0] (looked up on PATH) with argv in folder cwd (NULL: this one) and
 * waits at most timeout_s seconds, then kills it (SIGKILL) and fails. Its stdout goes to
 * out_path (created or truncated) when not NULL, else into p->out. Returns 0 with p filled
 * whatever the program's exit status, or -1 with err and nothing held: VB_E_SYS when it is
 * not on PATH ("'sacct' not found on PATH"), cannot start, cannot be waited for, or ran past
 * its time. */
int vb_proc_run(char *const *argv, const char *cwd, const char *out_path, int timeout_s,
                struct vb_proc *p, struct vb_err *err);
/* vb_proc_free frees p's output (NULL allowed). This can't fail. */
void vb_proc_free(struct vb_proc *p);

/* vb_proc_on_path: is name an executable file in a folder of PATH? 1 or 0. */
int vb_proc_on_path(const char *name);

/* vb_proc_tmp_template writes "$TMPDIR/NAME-XXXXXX" (/tmp where TMPDIR is unset or empty) into
 * buf (n bytes, truncated to fit), a template for mkstemp or mkdtemp. This can't fail. */
void vb_proc_tmp_template(char *buf, size_t n, const char *name);

#endif
