/*
 * timeline: the report's timelines, nvprof's and Nsight Systems' picture of one sample: every
 * copy, kernel and memset of it on one time axis, a lane per variant (or traced program) and
 * CUDA stream, so an overlap (the D2H of one chunk under the next chunk's kernel) and a removed
 * copy show at a glance. A suite case's sample is the store's pick (vb_store_timeline: the
 * kept timed sample nearest the median); its span (the host's e2e) is drawn grey behind its
 * lanes. Each kind of record is one block of the .dat file, so the key names the colours.
 */
#include <stdlib.h>

#include "report_int.h"

#define MAX_LANES 48
#define NKINDS    5

static const char *const kind_name[NKINDS] = {"kernel", "H2D", "D2H", "memset", "other copy"};
static const char *const kind_color[NKINDS] = {"#e15759", "#4e79a7", "#f28e2b", "#76b7b2",
                                               "#b07aa1"};

/* One case's sample: its records and span. */
struct lane_src {
    const char *name;
    struct vb_tl_event *ev;
    int n;
    double span_ns;
    int first_lane, nlanes;
    int streams[MAX_LANES];
};

/* lanes_of gives each distinct stream of src its lane, from *next on; 0, or -1 when the
 * figure would hold more than MAX_LANES lanes (the rest are left out). */
static int lanes_of(struct lane_src *src, int *next)
{
    int i, k;
    src->first_lane = *next;
    src->nlanes = 0;
    for (i = 0; i < src->n; i++) {
        for (k = 0; k < src->nlanes && src->streams[k] != src->ev[i].stream; k++) {
        }
        if (k < src->nlanes) continue;
        if (*next + src->nlanes >= MAX_LANES) return -1;
        src->streams[src->nlanes++] = src->ev[i].stream;
    }
    *next += src->nlanes;
    return 0;
}

/* lane_y: lanes count down from the top (the first variant on top). */
static double lane_y(const struct lane_src *src, int stream, int total)
{
    int k;
    for (k = 0; k < src->nlanes && src->streams[k] != stream; k++) {
    }
    return total - (src->first_lane + k);
}

/* draw writes the figure of src[0..ns): the .dat blocks (spans, then one per kind), the
 * script (a ytic per lane) and the SVG. 0 or -1 (c->err). */
static int draw(struct ctx *c, const char *kind, const char *title, struct lane_src *src, int ns,
                int spans)
{
    char id[16], lab[200], body[16000];
    size_t len = 0;
    int s, i, k, total = 0;
    FILE *f;
    for (s = 0; s < ns; s++)
        if (lanes_of(&src[s], &total)) break;
    ns = s; /* the sources that fit */
    if (!total) return 0;
    if (!(f = vb_plot_data(c, id, sizeof id))) return -1;
    /* block 0: the spans (x0 x1 y0 y1); blocks 1..NKINDS: the records of each kind */
    for (s = 0; s < ns; s++)
        if (spans)
            fprintf(f, "0 %.6f %.2f %.2f\n", src[s].span_ns / 1e6,
                    total - src[s].first_lane - src[s].nlanes + 1 - 0.45,
                    (double)total - src[s].first_lane + 0.45);
    fprintf(f, "0 0 -10 -10\n\n\n"); /* never empty: gnuplot refuses an empty block */
    for (k = 0; k < NKINDS; k++) {
        for (s = 0; s < ns; s++)
            for (i = 0; i < src[s].n; i++)
                if (src[s].ev[i].kind == k) {
                    double y = lane_y(&src[s], src[s].ev[i].stream, total);
                    fprintf(f, "%.6f %.6f %.2f %.2f\n", src[s].ev[i].start_ns / 1e6,
                            src[s].ev[i].end_ns / 1e6, y - 0.35, y + 0.35);
                }
        fprintf(f, "0 0 -10 -10\n\n\n");
    }
    if (vb_plot_data_end(c, f, id)) return -1;
    vb_plot_append(body, sizeof body, &len,
                   "set xlabel '%s'\nset yrange [0.4:%d.6]\n"
                   "set xrange [0:*]\nset grid xtics\nset ytics (",
                   spans ? "ms from the start of the sample"
                         : "ms from the first GPU record, idle gaps cut",
                   total);
    for (s = 0; s < ns; s++)
        for (k = 0; k < src[s].nlanes; k++) {
            vb_plot_safe(src[s].name, lab, sizeof lab);
            vb_plot_append(body, sizeof body, &len, "%s'%s s%d' %d", s || k ? ", " : "", lab,
                           src[s].streams[k], total - src[s].first_lane - k);
        }
    vb_plot_append(body, sizeof body, &len,
                   ") font ',9'\nset style fill solid 0.9 noborder\nset key below horizontal\n"
                   "plot '%s.dat' index 0 using (($1+$2)/2):(($3+$4)/2):1:2:3:4 with "
                   "boxxyerror lc rgb '#e8e8e8' title '%s'",
                   id, spans ? "the sample (host clock)" : "");
    for (k = 0; k < NKINDS; k++)
        vb_plot_append(body, sizeof body, &len,
                       ", '' index %d using (($1+$2)/2):(($3+$4)/2):1:2:3:4 with boxxyerror lc rgb "
                       "'%s' title '%s'",
                       k + 1, kind_color[k], kind_name[k]);
    vb_plot_append(body, sizeof body, &len, "\n");
    return vb_plot_render(c, id, kind, title, 960, 190 + 22 * total, body, len, sizeof body);
}

/* zoom draws the fast rungs again on their own axis when the slow ones flatten them: the
 * sources whose span is under a tenth of the longest (mesh: a 2.5 ms overlapped sample beside a
 * 560 ms host-built one), when there are any. 0 or -1. */
static int zoom(struct ctx *c, const char *kind, const char *title, const struct lane_src *src,
                int ns, int spans)
{
    struct lane_src *fast = calloc((size_t)ns, sizeof *fast);
    char t[900];
    double longest = 0;
    int i, nf = 0, rc;
    if (!fast) return vb_err_set(c->err, VB_E_SYS, "out of memory");
    for (i = 0; i < ns; i++)
        if (src[i].span_ns > longest) longest = src[i].span_ns;
    for (i = 0; i < ns; i++)
        if (src[i].span_ns < longest / 10) fast[nf++] = src[i]; /* shares the records */
    snprintf(t, sizeof t, "%s (the rungs under a tenth of the longest sample, zoomed)", title);
    rc = nf ? draw(c, kind, t, fast, nf, spans) : 0;
    free(fast);
    return rc;
}

/* timeline loads the records of cs[0..n) (those that have any) and draws them; 0 or -1. */
static int timeline(struct ctx *c, const char *kind, const char *title,
                    struct vb_case_row *const *cs, int n, int spans)
{
    struct lane_src *src = calloc((size_t)n + 1, sizeof *src);
    int i, ns = 0, rc = -1;
    if (!src) return vb_err_set(c->err, VB_E_SYS, "out of memory");
    for (i = 0; i < n; i++) {
        struct lane_src *t = &src[ns];
        if (!cs[i]->have_records || !is_ok(cs[i])) continue;
        if (vb_store_timeline(c->store, cs[i]->id, &t->ev, &t->n, &t->span_ns, c->err)) goto out;
        t->name = cs[i]->name;
        if (t->n) {
            ns++;
        } else {
            free(t->ev);
            t->ev = NULL;
        }
    }
    rc = ns ? draw(c, kind, title, src, ns, spans) : 0;
    if (!rc && ns > 1) rc = zoom(c, kind, title, src, ns, spans);
out:
    for (i = 0; i <= ns && i < n; i++)
        free(src[i].ev);
    free(src);
    return rc;
}

int vb_plot_timeline(struct ctx *c, const struct run_data *rd, const char *title,
                     struct vb_case_row *const *cs, int n)
{
    if (c->no_plots || !rd->run.gpu[0]) return 0;
    return timeline(c, "timeline", title, cs, n, 1);
}

int vb_plot_traced_timeline(struct ctx *c, const char *title, struct vb_case_row *const *cs, int n)
{
    if (c->no_plots) return 0;
    return timeline(c, "timeline", title, cs, n, 0);
}
