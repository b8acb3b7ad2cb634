/* ab_explain: see ab_explain.h. */
#include "ab_explain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moved.h"
#include "proc.h"
#include "progress.h"
#include "store.h"

#define MAX_EXTRA 64  /* RUN-OPTIONS (cmd_ab.c takes as many) */
#define RUN_S     900 /* one case's short run, its metrics pass among it, at most */

const struct vb_case_row *vb_ab_case_row(const struct vb_case_row *rows, int n, const char *label)
{
    char l[512];
    int i;
    for (i = 0; i < n; i++) {
        snprintf(l, sizeof l, "%s/%s %s", rows[i].family, rows[i].name, rows[i].axes);
        if (!strcmp(l, label)) return &rows[i];
    }
    return NULL;
}

/* measure runs side k on r's case alone with the metrics pass and sets *id to that case in the
 * run it made; 1 with why (the row's text) when it could not, 0, or -1 with err (the database) */
static int measure(const struct vb_ab_sides *s, int k, struct vb_store *st,
                   const struct vb_cmp_row *r, int64_t *id, char *why, size_t n, struct vb_err *err)
{
    /* 11 words, two a point's axis (at most one a character pair of r->axes), the extras */
    char *av[12 + sizeof r->axes + MAX_EXTRA], dev[16], axes[sizeof r->axes], label[512], *tok,
        *save = NULL, *line;
    const char *side = k ? "B" : "A";
    struct vb_case_row *rows = NULL;
    const struct vb_case_row *c;
    struct vb_proc p;
    struct vb_err perr;
    long long run = -1;
    int a = 0, i, nrows = 0;
    if (s->nextra > MAX_EXTRA) {
        snprintf(why, n, "counters not measured: more than %d RUN-OPTIONS", MAX_EXTRA);
        return 1;
    }
    snprintf(dev, sizeof dev, "%d", s->device);
    snprintf(axes, sizeof axes, "%s", r->axes);
    av[a++] = (char *)s->exe[k];
    av[a++] = "run";
    av[a++] = "--db", av[a++] = (char *)s->db;
    av[a++] = "--device", av[a++] = dev;
    av[a++] = "--quick";
    av[a++] = "--metrics", av[a++] = "default";
    av[a++] = "--filter", av[a++] = (char *)r->variant;
    /* the case's point, "n=1024,dtype=f32", one --axis each */
    for (tok = strtok_r(axes, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        av[a++] = "--axis", av[a++] = tok;
    for (i = 0; i < s->nextra; i++)
        av[a++] = s->extra[i];
    av[a] = NULL;
    if (vb_proc_run(av, NULL, NULL, RUN_S, &p, &perr)) {
        snprintf(why, n, "counters not measured: %s's metrics run: %s", side, perr.msg);
        return 1;
    }
    if (p.status != 0 && p.status != 1) {
        snprintf(why, n,
                 "counters not measured: %s's metrics run (%s run --quick --metrics "
                 "default) exited %d: %s",
                 side, s->exe[k], p.status, p.errtail);
        vb_proc_free(&p);
        return 1;
    }
    /* the run it made: its last line, "run N stored in DB: ..." (another writer's run may be
     * newer) */
    for (line = p.out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        long long x;
        int end = 0;
        if (sscanf(line, "run %lld stored in %n", &x, &end) == 1 && end > 0) run = x;
    }
    vb_proc_free(&p);
    if (run < 0) {
        snprintf(why, n, "counters not measured: %s's metrics run did not say its run", side);
        return 1;
    }
    if (vb_store_cases(st, run, &rows, &nrows, err)) return -1;
    snprintf(label, sizeof label, "%s %s", r->variant, r->axes);
    c = vb_ab_case_row(rows, nrows, label);
    if (!c || strcmp(c->metrics_status, "ok")) {
        snprintf(why, n, "counters not measured: %s's metrics run (run %lld) %s", side,
                 (long long)run,
                 !c             ? "did not make the case"
                 : c->reason[0] ? c->reason
                                : c->metrics_status);
        free(rows);
        return 1;
    }
    *id = c->id;
    free(rows);
    return 0;
}

int vb_ab_explain(const struct vb_ab_sides *s, struct vb_store *st, struct vb_cmp_result *res,
                  double threshold, struct vb_err *err)
{
    int i, k, rc = 0;
    for (i = 0; i < res->nrows; i++) {
        struct vb_cmp_row *r = &res->rows[i];
        int64_t id[2];
        if ((r->verdict != VB_VERDICT_SLOWER && r->verdict != VB_VERDICT_FASTER) || !r->needs_gpu ||
            !r->phase[0] || !strcmp(r->phase, "e2e") || !(r->ratio > 0))
            continue;
        if (vb_progress_wanted(stderr))
            fprintf(stderr, "ab: %s %s %s: each side's metrics pass, one after the other\n",
                    r->variant, r->axes, vb_verdict_name(r->verdict));
        for (k = 0; k < 2; k++)
            if ((rc = measure(s, k, st, r, &id[k], r->moved, sizeof r->moved, err))) break;
        if (rc < 0) return -1;
        if (rc) continue;
        if (vb_moved_line(st, id[0], st, id[1], r->ratio, fmax(threshold, VB_MOVED_THRESHOLD),
                          r->moved, sizeof r->moved, err))
            return -1;
    }
    return 0;
}
