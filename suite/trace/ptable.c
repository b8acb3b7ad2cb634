/* ptable: aligned or CSV tables of nvprof's print modes (see ptable.h). */
#include "ptable.h"

#include <assert.h>
#include <string.h>

#include "escape.h"

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
    vb_put_term_csv(out, s);
}

/* pad writes n blanks. */
static void pad(FILE *out, size_t n)
{
    while (n--)
        fputc(' ', out);
}

/* put writes one row: CSV with the columns of mask quoted, or aligned text. Every cell is shown
 * as escape.h's vb_put_term shows it (a stored name may hold a newline or ESC): a row is one line
 * and sends the terminal nothing; its width is what is shown. */
static void put(struct vb_ptable *t, const char *const *cells, unsigned mask)
{
    int k;
    for (k = 0; k < t->ncols; k++) {
        const char *c = cells[k] ? cells[k] : "";
        size_t len = t->csv ? 0 : vb_term_len(c);
        if (t->csv) {
            if (k) fputc(',', t->out);
            if ((mask >> k & 1u) && *c)
                vb_ptable_quote(t->out, c);
            else
                vb_put_term(t->out, c);
            continue;
        }
        if (k) fputs("  ", t->out);
        if (!(t->left >> k & 1u) && len < t->width[k]) pad(t->out, t->width[k] - len);
        vb_put_term(t->out, c);
        /* the last column is not padded: no trailing blanks */
        if ((t->left >> k & 1u) && k + 1 < t->ncols && len < t->width[k])
            pad(t->out, t->width[k] - len);
    }
    fputc('\n', t->out);
}

/* measure widens the columns to the cells of one row, as shown. */
static void measure(struct vb_ptable *t, const char *const *cells)
{
    int k;
    for (k = 0; k < t->ncols; k++) {
        size_t len = cells[k] ? vb_term_len(cells[k]) : 0;
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
