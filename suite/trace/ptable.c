/* ptable: aligned or CSV tables of nvprof's print modes (see ptable.h). */
#include "ptable.h"

#include <assert.h>
#include <string.h>

void vb_ptable_init(struct vb_ptable *t, FILE *out, int csv, int ncols, unsigned left,
                    unsigned quoted)
{
    assert(ncols > 0 && ncols <= VB_PTABLE_MAX_COLS);
    memset(t, 0, sizeof *t);
    t->out = out;
    t->csv = csv;
    t->ncols = ncols;
    t->printing = csv;
    t->left = left;
    t->quoted = quoted;
}

void vb_ptable_print(struct vb_ptable *t)
{
    t->printing = 1;
    t->rows = 0;
}

void vb_ptable_quote(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* put writes one row: CSV with the columns of mask quoted, or aligned text. */
static void put(struct vb_ptable *t, const char *const *cells, unsigned mask)
{
    int k;
    for (k = 0; k < t->ncols; k++) {
        const char *c = cells[k] ? cells[k] : "";
        if (t->csv) {
            if (k) fputc(',', t->out);
            if ((mask >> k & 1u) && *c)
                vb_ptable_quote(t->out, c);
            else
                fputs(c, t->out);
        } else if (t->left >> k & 1u) {
            /* the last column is not padded: no trailing blanks */
            fprintf(t->out, "%s%-*s", k ? "  " : "", k + 1 < t->ncols ? (int)t->width[k] : 0, c);
        } else {
            fprintf(t->out, "%s%*s", k ? "  " : "", (int)t->width[k], c);
        }
    }
    fputc('\n', t->out);
}

/* measure widens the columns to the cells of one row. */
static void measure(struct vb_ptable *t, const char *const *cells)
{
    int k;
    for (k = 0; k < t->ncols; k++) {
        size_t len = cells[k] ? strlen(cells[k]) : 0;
        if (len > t->width[k]) t->width[k] = len;
    }
}

void vb_ptable_header(struct vb_ptable *t, const char *const *names)
{
    if (!t->printing)
        measure(t, names);
    else
        put(t, names, ~0u);
}

void vb_ptable_units(struct vb_ptable *t, const char *const *units)
{
    if (t->csv) put(t, units, 0);
}

void vb_ptable_row(struct vb_ptable *t, const char *const *cells)
{
    t->rows++;
    if (!t->printing)
        measure(t, cells);
    else
        put(t, cells, t->quoted);
}
