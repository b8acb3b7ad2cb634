/* fleet_script: the sbatch scripts of `varbench fleet submit` (see fleet_script.h). */
#include "fleet_script.h"

#include <string.h>

#include "err.h"
#include "escape.h"

/* plain: is s one of Slurm's plain names (a partition, account, time: "gpu", "1-00:00:00")? */
static int plain(const char *s)
{
    return s[0] && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:,+-"
                             "") == strlen(s);
}

/* owned: is a a run option that fleet sets itself (--db, --device, in either form)? */
static const char *owned(const char *a)
{
    static const char *const own[] = {"--db", "--device", NULL};
    int i;
    for (i = 0; own[i]; i++) {
        size_t k = strlen(own[i]);
        if (!strncmp(a, own[i], k) && (a[k] == '\0' || a[k] == '=')) return own[i];
    }
    return NULL;
}

int vb_fleet_spec_check(const struct vb_fleet_spec *s, struct vb_err *err)
{
    const char *names[] = {"--partition", "--time", "--account"};
    const char *vals[] = {s->partition, s->time, s->account};
    int i;
    if (vb_sh_unsafe(s->dir)) {
        vb_err_set(err, VB_E_USAGE, "the folder '%s' holds a control character (0x%02x)", s->dir,
                   vb_sh_unsafe(s->dir));
        return vb_err_hint(err, "Slurm's logs and listings are lines: pick a folder name "
                                "without newlines or tabs");
    }
    if (strchr(s->dir, '%')) {
        vb_err_set(err, VB_E_USAGE, "the folder '%s' holds a '%%'", s->dir);
        return vb_err_hint(err, "Slurm reads '%%' in a job's log path (under the folder) as one "
                                "of its patterns (%%A, %%j): pick a folder name without it");
    }
    if (vb_sh_unsafe(s->varbench))
        return vb_err_set(err, VB_E_USAGE, "the path of varbench '%s' holds a control character",
                          s->varbench);
    for (i = 0; i < 3; i++)
        if (vals[i] && !plain(vals[i])) {
            vb_err_set(err, VB_E_USAGE, "%s '%s' is not a Slurm name", names[i], vals[i]);
            return vb_err_hint(err, "letters, digits and _ . : , + - only ('sinfo' lists the "
                                    "partitions, 'sacctmgr show assoc' the accounts)");
        }
    for (i = 0; i < s->nrun; i++) {
        const char *a = s->run_args[i];
        if (vb_sh_unsafe(a)) {
            vb_err_set(err, VB_E_USAGE, "run option %d holds a control character (0x%02x)", i + 1,
                       vb_sh_unsafe(a));
            return vb_err_hint(err, "the task script carries each option on one line: write "
                                    "it without newlines or tabs");
        }
        if (owned(a)) {
            vb_err_set(err, VB_E_USAGE, "run option '%s' is set by fleet", a);
            return vb_err_hint(err,
                               "each task runs 'varbench run --device all --db "
                               "DIR/runs/<host>-<job>_<task>.db': leave %s out",
                               owned(a));
        }
    }
    return 0;
}

/* limits writes the #SBATCH lines both jobs share: where they run and for how long. */
static void limits(FILE *f, const struct vb_fleet_spec *s)
{
    if (s->partition) fprintf(f, "#SBATCH --partition=%s\n", s->partition);
    if (s->time) fprintf(f, "#SBATCH --time=%s\n", s->time);
    if (s->account) fprintf(f, "#SBATCH --account=%s\n", s->account);
}

/* paths writes the shell variables vb and dir, each one quoted word. */
static void paths(FILE *f, const struct vb_fleet_spec *s)
{
    fputs("vb=", f);
    vb_put_sh(f, s->varbench);
    fputs("\ndir=", f);
    vb_put_sh(f, s->dir);
    fputs("\n", f);
}

int vb_fleet_script_task(FILE *f, const struct vb_fleet_spec *s)
{
    int i;
    fprintf(f,
            "#!/bin/bash\n"
            "# varbench fleet: the array job, one task per node, written by 'varbench fleet "
            "submit'\n"
            "# and submitted from the fleet's folder. Each task runs the suite on every GPU of "
            "its\n"
            "# node into runs/<host>-<array job>_<task>.db. --exclusive: no other job shares "
            "the\n"
            "# node while it measures (its kernels and copies would be timed as ours).\n"
            "#SBATCH --job-name=varbench-fleet\n"
            "#SBATCH --array=0-%d\n"
            "#SBATCH --nodes=1\n"
            "#SBATCH --ntasks=1\n"
            "#SBATCH --exclusive\n"
            "#SBATCH --output=logs/%%A_%%a.out\n",
            s->tasks - 1);
    limits(f, s);
    if (s->gpus > 0) fprintf(f, "#SBATCH --gres=gpu:%d\n", s->gpus);
    paths(f, s);
    fputs("host=$(hostname -s)\n"
          "db=\"$dir/runs/$host-${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}.db\"\n"
          "echo \"varbench fleet: task $SLURM_ARRAY_TASK_ID of job $SLURM_ARRAY_JOB_ID on "
          "$host: $db\"\n"
          "# scancel and the time limit send SIGTERM: varbench then ends its run as "
          "'interrupted'\n"
          "\"$vb\" run --device all --db \"$db\"",
          f);
    for (i = 0; i < s->nrun; i++) {
        fputc(' ', f);
        vb_put_sh(f, s->run_args[i]);
    }
    fputs(" &\n"
          "pid=$!\n"
          "trap 'kill -TERM \"$pid\" 2>/dev/null' TERM INT\n"
          "wait \"$pid\"\n"
          "rc=$?\n"
          "while kill -0 \"$pid\" 2>/dev/null; do wait \"$pid\"; rc=$?; done\n"
          "echo \"varbench fleet: varbench run exited $rc\"\n"
          "# 0 all verified, 1 a wrong result (stored), 4 no GPU (CPU references stored): the "
          "task\n"
          "# ran, and Slurm records it COMPLETED; any other status is the task's own\n"
          "case $rc in 0 | 1 | 4) exit 0 ;; *) exit \"$rc\" ;; esac\n",
          f);
    return ferror(f);
}

int vb_fleet_script_merge(FILE *f, const struct vb_fleet_spec *s)
{
    fputs("#!/bin/bash\n"
          "# varbench fleet: the merge job, written by 'varbench fleet submit' and submitted "
          "with\n"
          "# --dependency=afterany:<array job>, so it runs however the tasks ended: every "
          "task's\n"
          "# database into fleet.db, the report into report/, the tasks' table into "
          "report/fleet.txt.\n"
          "#SBATCH --job-name=varbench-fleet-merge\n"
          "#SBATCH --nodes=1\n"
          "#SBATCH --ntasks=1\n"
          "#SBATCH --output=logs/merge_%j.out\n",
          f);
    limits(f, s);
    paths(f, s);
    fputs("\"$vb\" fleet merge \"$dir\"\n"
          "rc=$?\n"
          "# 1: merged, with a task missing or failed (named in report/fleet.txt): the merge "
          "ran\n"
          "case $rc in 0 | 1) exit 0 ;; *) exit \"$rc\" ;; esac\n",
          f);
    return ferror(f);
}
