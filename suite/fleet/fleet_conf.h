/*
 * fleet_conf: DIR/fleet.conf, what `varbench fleet submit` submitted, so that `fleet status`
 * and `fleet merge` (the merge job) know which tasks to expect: key=value lines, one value a
 * line, written whole to a temporary file and renamed over the old one (a reader never sees
 * half of it). Unknown keys are kept out of the way, not refused: a newer varbench may add some.
 */
#ifndef VB_FLEET_CONF_H
#define VB_FLEET_CONF_H

#include <stddef.h>
#include <stdint.h>

struct vb_err;

#define VB_FLEET_CONF "fleet.conf"

struct vb_fleet_conf {
    int tasks;              /* array tasks 0..tasks-1 */
    int64_t array_job;      /* sbatch's id of the array job; 0: not submitted */
    int64_t merge_job;      /* the merge job's; 0: not submitted */
    char submitted_utc[40]; /* when ("2026-01-31T12:00:00Z") */
    char varbench[4096];    /* the binary the tasks run */
    char run_options[4096]; /* the run options, as shell words (shown, never run) */
};

/* vb_fleet_conf_path writes DIR/fleet.conf into buf (n bytes); -1 when it does not fit. */
int vb_fleet_conf_path(const char *dir, char *buf, size_t n);

/* vb_fleet_conf_write writes c into DIR/fleet.conf (replacing it whole). 0, or -1 with err
 * (VB_E_SYS) and the old file, if any, left as it was. */
int vb_fleet_conf_write(const char *dir, const struct vb_fleet_conf *c, struct vb_err *err);

/* vb_fleet_conf_read reads DIR/fleet.conf into c. 0, or -1 with err: VB_E_USAGE when DIR holds
 * no fleet (no such file: with the hint to submit one), VB_E_SYS when it cannot be read or
 * lacks its tasks or array job. */
int vb_fleet_conf_read(const char *dir, struct vb_fleet_conf *c, struct vb_err *err);

#endif
