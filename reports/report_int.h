/*
 * report_int: what the files of the report share, and nothing outside reports/ includes.
 * report.c picks and loads the runs and lays out the pages; page.c hands each heading,
 * sentence, table row and figure, formatted once, to every sink (sink.h: HTML, Markdown);
 * plot.c holds the figure primitives, the ladder and the sweep, timeline.c the timelines;
 * family.c writes a family of one run (per problem and point: sentences, ladder, timeline,
 * table; the sweeps), traced.c the traced programs, hardware.c the comparison by bound and the
 * metrics, history.c the trends and change points.
 */
#ifndef VB_REPORT_INT_H
#define VB_REPORT_INT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "boards.h"
#include "crossover.h"
#include "store.h"
#include "report.h"
#include "sink.h"

#define VB_REPORT_MAX_RUNS 16

/* One selected run: its row, its cases (owned) and device 0's measured ceilings. */
struct run_data {
    struct vb_run_row run;
    struct vb_case_row *cases;
    int n;
    double gbps[VB_CEIL_COUNT]; /* GB/s; 0 when not measured */
    double ns[VB_CEIL_COUNT];   /* a time ceiling's median (launch, round trips); 0: none */
    const char **problem;       /* problem[i]: the problem cases[i] computes (the registry's
                                 * name; the family's for a variant it does not know):
                                 * cross->problem */
    struct vb_cross_run *cross; /* its crossover groups (crossover.h), made once; owned */
};

#define VB_PAGE_SINKS    2  /* sink.h: index.html, report.md */
#define VB_PAGE_SECTIONS 64 /* the section list `report` prints */

/* The pages, written side by side through their sinks (page.c). A table or a list is open
 * between its first call and its end; nothing else is written inside it. */
struct page {
    FILE *f[VB_PAGE_SINKS];
    int ncols;   /* columns of the open table; 0 when none is open */
    int in_list; /* a list is open */
    int folded;  /* a fold is open (vb_page_fold) */
    char sections[VB_PAGE_SECTIONS][160];
    int nsections;
};

/* The report being written. */
struct ctx {
    struct page page;
    const char *dir, *gnuplot; /* output folder (no quotes in it), the gnuplot program */
    int nplots, no_plots;      /* figures written so far; tables and text only */
    struct vb_store *store;    /* the database, read for the timelines */
    struct vb_err *err;
};

/* ms converts ns to ms; 0 for NaN (a phase without records). */
static inline double ms(double ns)
{
    return isfinite(ns) ? ns / 1e6 : 0;
}

/* other_ms: the part of the end-to-end time outside the copies and kernels (host work). */
static inline double other_ms(const struct vb_case_row *c)
{
    double o = ms(c->e2e_median_ns) - ms(c->h2d_median_ns) - ms(c->kernel_median_ns) -
               ms(c->d2h_median_ns);
    return o > 0 ? o : 0;
}

static inline int is_ok(const struct vb_case_row *c)
{
    return !strcmp(c->status, "ok");
}

/* gpu_skipped: a GPU case recorded as skipped (no device in its run, or its own skip) */
static inline int gpu_skipped(const struct vb_case_row *r)
{
    return r->needs_gpu && !strcmp(r->status, "skipped");
}

/* head_len: the length of reason's head, the text before its first " (" detail. */
static inline int head_len(const char *reason)
{
    size_t k = strcspn(reason, "(");
    while (k && reason[k - 1] == ' ')
        k--;
    return (int)k;
}

/* has_time: correct and timed (a --quick CPU reference past its budget verified untimed). */
static inline int has_time(const struct vb_case_row *c)
{
    return is_ok(c) && c->e2e_median_ns > 0;
}

/* is_bad: a wrong answer or a failure (red in the tables); skipped and interrupted are not. */
static inline int is_bad(const struct vb_case_row *c)
{
    return !strcmp(c->status, "wrong-result") || !strcmp(c->status, "failed");
}

/* page.c. vb_page_open creates each sink's page in dir with its head; 0, or -1 with err
 * (VB_E_SYS) and nothing left open. */
int vb_page_open(struct page *p, const char *dir, struct vb_err *err);
/* vb_page_close writes the tails (tails: the report is complete) and closes the pages (also
 * after a failure); 0, or -1 with err (VB_E_SYS) when a write failed. */
int vb_page_close(struct page *p, const char *dir, int tails, struct vb_err *err);
/* vb_page_section starts a section (level 2; id: its anchor, [a-z0-9-], or NULL) and adds it
 * to the section list; vb_page_heading a subsection (level 3); vb_page_para a paragraph (cls:
 * its HTML class, or NULL). They take printf formats; the text is escaped after formatting
 * and cut at 4 KiB. */
void vb_page_section(struct page *p, const char *id, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void vb_page_heading(struct page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vb_page_para(struct page *p, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* vb_page_item adds an item to the open list, opening one first when none is; vb_page_list_end
 * ends it (nothing when none is open, so an empty list writes nothing). */
void vb_page_item(struct page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vb_page_list_end(struct page *p);
/* vb_page_table opens a table of ncols columns named head[0..ncols); align[k] is 'l' or 'r'.
 * vb_page_row writes one row (bad: marked as a wrong result) and vb_page_table_end closes it. */
void vb_page_table(struct page *p, int ncols, const char *const *head, const char *align);
void vb_page_row(struct page *p, int bad, const char *const *cells);
void vb_page_table_end(struct page *p);
/* vb_page_fold starts a part shown on demand behind its summary (HTML's <details>; Markdown
 * writes the summary as a paragraph and the part in place); vb_page_fold_end ends it, closing
 * an open table or list first (nothing more when none is open). Folds do not nest. */
void vb_page_fold(struct page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vb_page_fold_end(struct page *p);
/* vb_page_figure embeds id.svg of kind (ladder, timeline, hardware, history, sweep, traced,
 * spread) with title as its caption and alt text. */
void vb_page_figure(struct page *p, const char *id, const char *kind, const char *title);

/* plot.c: the figures. A figure is figNN.dat (numbers) and figNN.gp (its script) in the
 * folder; gnuplot draws figNN.svg from them and the pages embed it. With no_plots every
 * vb_plot_* but the primitives returns 0 at once. 0, or -1 with c->err (VB_E_SYS: a file not
 * writable, gnuplot missing or failing). */

/* vb_plot_safe copies s into out keeping only characters that need no quoting in gnuplot
 * strings (the rest become '_'); s and out may be the same buffer. */
void vb_plot_safe(const char *s, char *out, size_t n);
/* vb_plot_append formats onto buf[*len..cap), never past its end (the text is cut instead). */
void vb_plot_append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* vb_plot_data names the next figure (id: "figNN") and opens its .dat file; NULL with c->err. */
FILE *vb_plot_data(struct ctx *c, char *id, size_t n);
/* vb_plot_data_end closes a figure's .dat file, checking its writes; 0, or -1 with c->err. */
int vb_plot_data_end(struct ctx *c, FILE *f, const char *id);
/* vb_plot_render writes id.gp (the common head: w x h SVG, title; then body), runs gnuplot and
 * embeds the figure as kind; a body cut at its buffer's end (len + 2 >= cap) is refused. */
int vb_plot_render(struct ctx *c, const char *id, const char *kind, const char *title, int w, int h,
                   const char *body, size_t len, size_t cap);

/* vb_plot_ladder: the point's rungs cs[0..n) as bars of end-to-end time on a log axis (every
 * rung readable), each labelled with its x over the previous correct rung and over its floor,
 * the floor drawn on the bar; wrong or failed rungs red and not compared, skipped ones left
 * out. */
int vb_plot_ladder(struct ctx *c, const char *title, struct vb_case_row *const *cs, int n);

/* A case of a sweep and its value on the swept axis. */
struct sweep_pt {
    const struct vb_case_row *r;
    int64_t x;
};

/* vb_plot_sweep_floors: does the sweep pts[0..n) of run rd get the device's floors (a GPU run
 * with its pinned D2H and D2D ceilings, and a GPU case with output)? */
int vb_plot_sweep_floors(const struct run_data *rd, const struct sweep_pt *pts, int n);
/* vb_plot_sweep: end-to-end time over axis, one line per variant names[0..nv) (its ok cases
 * among pts[0..n)), with the device's pinned D2H and HBM floors when vb_plot_sweep_floors. */
int vb_plot_sweep(struct ctx *c, const struct run_data *rd, const char *title, const char *axis,
                  const struct sweep_pt *pts, int n, const char *const *names, int nv);

/* timeline.c. vb_plot_timeline: one sample of each GPU case of cs[0..n) (the store's
 * vb_store_timeline) on one time axis, a lane per variant and stream, H2D, kernel, D2H and
 * memset coloured; nothing when no case has records. vb_plot_traced_timeline: the same for
 * traced programs, a lane per program and stream, from each process's first record. */
int vb_plot_timeline(struct ctx *c, const struct run_data *rd, const char *title,
                     struct vb_case_row *const *cs, int n);
int vb_plot_traced_timeline(struct ctx *c, const char *title, struct vb_case_row *const *cs, int n);

/* family.c. vb_section_family: every problem and point of one family in one run (a heading,
 * the ladder's sentences, chart and timeline, the case table), then its sweeps; 0 or -1. */
int vb_section_family(struct ctx *c, const struct run_data *rd, const char *family);

/* traced.c. vb_section_traced: the traced programs of runs rd[0..nr) (kind trace), grouped by
 * program: their GPU time in ms as bars, each process's life as a number, their timeline and
 * their metrics; 0 or -1 (err). */
int vb_section_traced(struct ctx *c, const struct run_data *rd, int nr);

/* spread.c. vb_section_spread: for each GPU model with two or more boards among the suite
 * runs rd[0..nr) (a board: a device of a run), per case the min/median/max over the boards and
 * the slowest board named; nothing with one board per model. 0, or -1 with err (memory). */
int vb_section_spread(struct ctx *c, const struct run_data *rd, int nr);

/* fleet.c. vb_section_fleet: the tasks of a fleet t[0..n) (fleet_tasks.h): a sentence with
 * the counts, a table of every task (host, Slurm's state, its run's status, cases, database;
 * those not complete marked) and a list naming each task missing, failed or still running. */
void vb_section_fleet(struct ctx *c, const struct vb_fleet_task *t, int n);

/* history.c. vb_section_history: the trend of every GPU case over the database's complete
 * suite runs (three or more) with its change points, a chart per family and GPU model and a
 * table of the changes; nothing with fewer runs. 0 or -1 (err). */
int vb_section_history(struct ctx *c);

/* hardware.c. vb_hardware_compare: the cases that every suite run rd[0..nr) holds, each run
 * of another GPU model than the first's against it (runs of its model are the spread's): per case
 * the measured ratio beside the one its bound's measured ceilings predict, grouped by bound, with
 * its chart; 0 or -1 (err). vb_hardware_metrics: the stored hardware metric of every case that has
 * one, or a sentence saying none is stored and why. */
int vb_hardware_compare(struct ctx *c, const struct run_data *rd, int nr);
/* vb_case_on: the correct case of run rd with a's variant and point on device (its CUDA id; -1
 * for a CPU-only case), or NULL: the same case on another board or GPU model. */
const struct vb_case_row *vb_case_on(const struct run_data *rd, const struct vb_case_row *a,
                                     int device);
void vb_hardware_metrics(struct ctx *c, const struct run_data *rd, int nr);
/* vb_case_joules: a case's energy a result, a timed sample's share of what the board's ledger
 * measured (ledger.h); NaN where it did not measure. */
double vb_case_joules(const struct vb_case_row *r);
/* vb_case_joules_unc: its uncertainty (the board's counter period over the window, schema 14),
 * NaN where that period was not measured */
double vb_case_joules_unc(const struct vb_case_row *r);
/* vb_hardware_headline: per run of rd[1..nr) of another GPU model than rd[0]'s, against rd[0]
 * (oldest first), a row per bound: the
 * cases correct in both, the median measured and predicted ratios and measured / predicted
 * (median, range); 0 or -1 (err). */
int vb_hardware_headline(struct ctx *c, const struct run_data *rd, int nr);

/* answer.c. vb_section_answer: the report's first section: per suite run of rd[0..nr), per
 * group (crossover.c) at its largest size, the fastest correct GPU rung, its time over its
 * floor, its speed-up over the CPU reference and over the seed's rung, and the crossover. */
void vb_section_answer(struct ctx *c, const struct run_data *rd, int nr);

#endif
