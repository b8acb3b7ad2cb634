/*
 * ptable: a table of nvprof's print modes in either of its two shapes: columns aligned to their
 * widest cell, two spaces apart (the text nvprof prints), or CSV as `nvprof --csv` writes it (a
 * quoted header row, a units row, then rows with text cells quoted and numbers bare). The caller
 * formats each cell for the shape asked; ptable only places them. An aligned table is handed its
 * rows twice, first to measure and then to print, so a trace of millions of records is never
 * held in memory: the caller runs its reader once per pass. Workload: up to millions of rows of
 * up to VB_PTABLE_MAX_COLS cells.
 */
#ifndef VB_PTABLE_H
#define VB_PTABLE_H

#include <stddef.h>
#include <stdio.h>

#define VB_PTABLE_MAX_COLS 24

struct vb_ptable {
    FILE *out;
    int csv;         /* CSV rather than aligned text */
    int ncols;       /* cells in each row */
    int printing;    /* aligned: 0 while measuring, 1 while printing; CSV: always 1 */
    unsigned left;   /* aligned: bit k set, column k is aligned left (a Name); else right */
    unsigned quoted; /* CSV: bit k set, the non-empty cells of column k are text, quoted */
    size_t width[VB_PTABLE_MAX_COLS];
    long long rows; /* rows handed over in the current pass (the header not counted) */
};

/* vb_ptable_init starts table t of ncols (at most VB_PTABLE_MAX_COLS) columns on out: measuring
 * when aligned, printing when csv. This can't fail. */
void vb_ptable_init(struct vb_ptable *t, FILE *out, int csv, int ncols, unsigned left,
                    unsigned quoted);
/* vb_ptable_print ends an aligned table's measuring pass: the rows handed over next are printed
 * with the widths measured. The row count starts again. This can't fail. */
void vb_ptable_print(struct vb_ptable *t);
/* vb_ptable_header hands over the column names: CSV quotes every one; aligned, they are measured
 * and printed as a row is (a header is as wide as its column). Not counted as a row. */
void vb_ptable_header(struct vb_ptable *t, const char *const *names);
/* vb_ptable_units writes CSV's units row (one unit per column, "" where a column has none);
 * nothing when aligned. */
void vb_ptable_units(struct vb_ptable *t, const char *const *units);
/* vb_ptable_row hands over one row of ncols cells: measured or printed (see above). */
void vb_ptable_row(struct vb_ptable *t, const char *const *cells);

/* vb_ptable_quote writes s as one quoted CSV field, its quotes doubled (RFC 4180), its control
 * characters shown escaped (escape.h's vb_put_term_csv): a field never spans lines. Every cell
 * of a table, aligned or CSV, is shown so. */
void vb_ptable_quote(FILE *out, const char *s);

#endif
