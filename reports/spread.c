/*
 * spread: boards of one GPU model side by side (a `--device all` run of an 8-GPU node, or runs
 * named with --run on several boards), as suite/judge/boards.c computes it. Per case correct on two
 * or more boards of the model: the min, median and max of its time over the boards (its kernel
 * when its floor is the kernel's, else end to end, as the hardware comparison) and the slowest
 * board named; then the board that is slowest most often. A board is a device of a run, named
 * by its host, run, CUDA id and PCI bus location.
 */
#include <stdlib.h>

#include "boards.h"
#include "report_int.h"
#include "fmt.h"

/* model writes the spread of the boards of one model. */
static void model(struct ctx *c, const struct vb_boards_model *m)
{
    static const char *const head[] = {"variant",   "axes",   "boards",    "min ms",
                                       "median ms", "max ms", "max / min", "slowest board"};
    char cell[5][32];
    const char *row[8] = {NULL, NULL, cell[0], cell[1], cell[2], cell[3], cell[4], NULL};
    int i;
    vb_page_heading(&c->page, "%s: %d boards", m->model, m->nboards);
    if (!m->ncases) return;
    vb_page_table(&c->page, 8, head, "llrrrrrl");
    for (i = 0; i < m->ncases; i++) {
        const struct vb_boards_case *bc = &m->cases[i];
        row[0] = bc->variant;
        row[1] = bc->axes;
        snprintf(cell[0], sizeof cell[0], "%d", bc->nboards);
        vb_fmt_ms(bc->min, cell[1], sizeof cell[1]);
        vb_fmt_ms(bc->median, cell[2], sizeof cell[2]);
        vb_fmt_ms(bc->max, cell[3], sizeof cell[3]);
        snprintf(cell[4], sizeof cell[4], "%.3f", bc->max / bc->min);
        row[7] = m->boards[bc->slowest].label;
        vb_page_row(&c->page, 0, row);
    }
    vb_page_table_end(&c->page);
    vb_page_para(&c->page, NULL, "The slowest board most often: %s, in %d of %d cases.",
                 m->boards[m->most].label, m->boards[m->most].slowest, m->ncases);
}

int vb_section_spread(struct ctx *c, const struct run_data *rd, int nr)
{
    struct vb_boards_run *runs = calloc((size_t)nr + 1, sizeof *runs);
    struct vb_boards b;
    int k, shown = 0;
    if (!runs) return vb_err_set(c->err, VB_E_SYS, "out of memory");
    for (k = 0; k < nr; k++)
        runs[k] = (struct vb_boards_run){rd[k].run.id, rd[k].run.host, rd[k].cases, rd[k].n};
    if (vb_boards_compute(runs, nr, 2, &b, c->err)) {
        free(runs);
        return -1;
    }
    for (k = 0; k < b.nmodels; k++) {
        if (b.models[k].nboards < 2) continue;
        if (!shown++) {
            vb_page_section(&c->page, "spread", "Boards of one model");
            vb_page_para(&c->page, NULL,
                         "Per case correct on two or more boards of one GPU model: its time "
                         "(kernel when its floor is the kernel's, else end to end) over the "
                         "boards and the slowest board.");
        }
        model(c, &b.models[k]);
    }
    vb_boards_free(&b);
    free(runs);
    return 0;
}
