/* fleet_conf: DIR/fleet.conf, written whole and read back (see fleet_conf.h). */
#include "fleet_conf.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

int vb_fleet_conf_path(const char *dir, char *buf, size_t n)
{
    return (size_t)snprintf(buf, n, "%s/%s", dir, VB_FLEET_CONF) < n ? 0 : -1;
}

int vb_fleet_conf_write(const char *dir, const struct vb_fleet_conf *c, struct vb_err *err)
{
    char path[4200], tmp[4210];
    FILE *f;
    int bad;
    if (vb_fleet_conf_path(dir, path, sizeof path))
        return vb_err_set(err, VB_E_SYS, "the folder '%s' is too long a path", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (!(f = fopen(tmp, "w")))
        return vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", tmp, strerror(errno));
    fprintf(f,
            "# varbench fleet: what 'varbench fleet submit' submitted; read by 'varbench fleet\n"
            "# status' and 'varbench fleet merge' (key=value, one a line)\n"
            "tasks=%d\narray_job=%" PRId64 "\nmerge_job=%" PRId64 "\nsubmitted_utc=%s\n"
            "varbench=%s\nrun_options=%s\n",
            c->tasks, c->array_job, c->merge_job, c->submitted_utc, c->varbench, c->run_options);
    bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, path)) {
        vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}

/* value copies a line's value (after "key=") into buf without its newline. */
static void value(const char *v, char *buf, size_t n)
{
    snprintf(buf, n, "%.*s", (int)strcspn(v, "\n"), v);
}

int vb_fleet_conf_read(const char *dir, struct vb_fleet_conf *c, struct vb_err *err)
{
    char path[4200], line[8300], num[32];
    FILE *f;
    memset(c, 0, sizeof *c);
    if (vb_fleet_conf_path(dir, path, sizeof path))
        return vb_err_set(err, VB_E_SYS, "the folder '%s' is too long a path", dir);
    if (!(f = fopen(path, "r"))) {
        if (errno == ENOENT) {
            vb_err_set(err, VB_E_USAGE, "'%s' holds no fleet (no %s)", dir, VB_FLEET_CONF);
            return vb_err_hint(err, "submit one: varbench fleet submit --dir DIR -- [run "
                                    "options]");
        }
        return vb_err_set(err, VB_E_SYS, "cannot read '%s': %s", path, strerror(errno));
    }
    while (fgets(line, sizeof line, f)) {
        char *eq = strchr(line, '=');
        if (line[0] == '#' || !eq) continue;
        *eq++ = '\0';
        if (!strcmp(line, "tasks")) {
            value(eq, num, sizeof num);
            c->tasks = atoi(num);
        } else if (!strcmp(line, "array_job")) {
            value(eq, num, sizeof num);
            c->array_job = strtoll(num, NULL, 10);
        } else if (!strcmp(line, "merge_job")) {
            value(eq, num, sizeof num);
            c->merge_job = strtoll(num, NULL, 10);
        } else if (!strcmp(line, "submitted_utc")) {
            value(eq, c->submitted_utc, sizeof c->submitted_utc);
        } else if (!strcmp(line, "varbench")) {
            value(eq, c->varbench, sizeof c->varbench);
        } else if (!strcmp(line, "run_options")) {
            value(eq, c->run_options, sizeof c->run_options);
        }
    }
    if (ferror(f)) {
        fclose(f);
        return vb_err_set(err, VB_E_SYS, "cannot read '%s': %s", path, strerror(errno));
    }
    fclose(f);
    if (c->tasks < 1 || c->array_job < 1) {
        vb_err_set(err, VB_E_SYS,
                   "'%s' names no submitted array job (tasks=%d, array_job=%" PRId64 ")", path,
                   c->tasks, c->array_job);
        return vb_err_hint(err, "the submission failed part way: submit again with "
                                "'varbench fleet submit --force --dir DIR ...'");
    }
    return 0;
}
