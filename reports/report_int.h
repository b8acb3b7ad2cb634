/*
 * report_int: what the files of the report share, and nothing outside reports/ includes.
 * report.c picks and loads the runs and lays out the pages; page.c writes the two pages
 * (index.html, report.md) from one call per heading, sentence, table row and figure; plot.c
 * writes the gnuplot figures; sections.c the sections of one run (per family and point the
 * ladder, the case table and the breakdown; per family the sweeps; a traced run's processes);
 * hardware.c the sections across runs (the hardware comparison, the stored hardware metrics).
 */
#ifndef VB_REPORT_INT_H
#define VB_REPORT_INT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ceilings.h"
#include "report.h"

#define VB_REPORT_MAX_RUNS 16

/* One selected run: its row, its cases (owned) and device 0's measured ceilings. */
struct run_data {
    struct vb_run_row run;
    struct vb_case_row *cases;
    int n;
    double gbps[VB_CEIL_COUNT]; /* GB/s; 0 when not measured */
};

/* The two pages, written side by side: every call writes both, escaped for each. A table or a
 * list is open between its first call and its end; nothing else is written inside it. */
struct page {
    FILE *html, *md;
    int ncols;   /* columns of the open table; 0 when none is open */
    int in_list; /* a list is open */
};

/* The report being written. */
struct ctx {
    struct page page;
    const char *dir, *gnuplot; /* output folder (no quotes in it), the gnuplot program */
    int nplots, no_plots;      /* figures written so far; tables and text only */
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

/* page.c. vb_page_open creates dir/index.html and dir/report.md with their heads; 0, or -1
 * with err (VB_E_SYS) and nothing left open. */
int vb_page_open(struct page *p, const char *dir, struct vb_err *err);
/* vb_page_close writes the tails and closes both pages (also after a failure, when they are
 * left without tails); 0, or -1 with err (VB_E_SYS) when a write failed. */
int vb_page_close(struct page *p, const char *dir, int tails, struct vb_err *err);
/* vb_page_heading writes a heading of level 2 or 3; vb_page_para a paragraph (cls: its HTML
 * class, or NULL). Both take printf formats; the text is escaped after formatting and cut at
 * 4 KiB. */
void vb_page_heading(struct page *p, int level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void vb_page_para(struct page *p, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* vb_page_item adds an item to the open list, opening one first when none is; vb_page_list_end
 * ends it (nothing when none is open, so an empty list writes nothing). */
void vb_page_item(struct page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vb_page_list_end(struct page *p);
/* vb_page_table opens a table of ncols columns named head[0..ncols); align[k] is 'l' or 'r'
 * (Markdown's alignment; the HTML page aligns by its style sheet). vb_page_row writes one row
 * (bad: marked as a wrong result) and vb_page_table_end closes the table. */
void vb_page_table(struct page *p, int ncols, const char *const *head, const char *align);
void vb_page_row(struct page *p, int bad, const char *const *cells);
void vb_page_table_end(struct page *p);
/* vb_page_figure embeds id.svg with title as its caption (HTML) and alt text (both). */
void vb_page_figure(struct page *p, const char *id, const char *title);

/* plot.c. Each writes figNN.dat and figNN.gp into the folder, runs gnuplot on it (figNN.svg)
 * and embeds the figure; with no_plots each returns 0 at once. 0, or -1 with c->err (VB_E_SYS:
 * a file not writable, gnuplot missing or failing). */

/* vb_plot_breakdown: one stacked bar per case of where its time goes (H2D, kernel, D2H, the
 * rest on the host). */
int vb_plot_breakdown(struct ctx *c, const char *title, struct vb_case_row *const *cs, int n);

/* A case of a sweep and its value on the swept axis. */
struct sweep_pt {
    const struct vb_case_row *r;
    int64_t x;
};

/* vb_plot_sweep: end-to-end time over axis, one line per variant names[0..nv) (its ok cases
 * among pts[0..n)), with the device's pinned D2H and HBM floors for each GPU case's output. */
int vb_plot_sweep(struct ctx *c, const struct run_data *rd, const char *title, const char *axis,
                  const struct sweep_pt *pts, int n, const char *const *names, int nv);

/* vb_plot_hardware: the end-to-end time of the same cases on nr devices, clustered bars on a log
 * scale; m[i * nr + k] is row i's case on device k (rd[k]). */
int vb_plot_hardware(struct ctx *c, const struct run_data *rd, int nr,
                     const struct vb_case_row *const *m, int nrows);

/* sections.c. vb_section_family: every point of one family in one run (a heading, the ladder's
 * sentences, the case table, the breakdown), then its sweeps. vb_section_trace: the processes
 * of a run of `varbench trace` in the same columns, and where their time went. 0 or -1 (err). */
int vb_section_family(struct ctx *c, const struct run_data *rd, const char *family);
int vb_section_trace(struct ctx *c, const struct run_data *rd);

/* hardware.c. vb_hardware_compare: the GPU cases that every run rd[0..nr) holds, in ms and
 * against each device's floor, with their plot; 0 or -1 (err). vb_hardware_metrics: the stored
 * hardware metric of every case that has one, or a sentence saying none is stored. */
int vb_hardware_compare(struct ctx *c, const struct run_data *rd, int nr);
void vb_hardware_metrics(struct ctx *c, const struct run_data *rd, int nr);

#endif
