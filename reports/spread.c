/*
 * spread: boards of one GPU model side by side (a `--device all` run of an 8-GPU node, or runs
 * named with --run on several boards). Per case correct on two or more boards of the model: the
 * min, median and max of its time over the boards (its kernel when its floor is the kernel's,
 * else end to end, as the hardware comparison) and the slowest board named; then the board that
 * is slowest most often. A board is a device of a run (its CUDA id and PCI bus location).
 */
#include <stdlib.h>

#include "report_int.h"
#include "stats.h"
#include "table.h"

#define MAX_BOARDS 64

/* One board: the run it is in and its device. */
struct board {
    const struct run_data *rd;
    int device;
    const char *model, *bus;
    int slowest; /* cases it was the slowest board of */
};

/* boards_of fills b with every (run, device) of the GPU cases of rd[0..nr); returns how many. */
static int boards_of(const struct run_data *rd, int nr, struct board *b)
{
    int k, i, j, n = 0;
    for (k = 0; k < nr; k++)
        for (i = 0; i < rd[k].n; i++) {
            const struct vb_case_row *r = &rd[k].cases[i];
            if (r->device_id < 0) continue;
            for (j = 0; j < n && !(b[j].rd == &rd[k] && b[j].device == r->device_id); j++) {
            }
            if (j < n || n == MAX_BOARDS) continue;
            b[n] = (struct board){&rd[k], r->device_id, r->device, r->board, 0};
            n++;
        }
    return n;
}

/* on_board: the ok and timed case of board b with r's variant and point, or NULL. */
static const struct vb_case_row *on_board(const struct board *b, const struct vb_case_row *r)
{
    const struct vb_case_row *x = vb_case_on(b->rd, r, b->device);
    return x && compared_ns(x) > 0 ? x : NULL;
}

/* model writes the spread of the boards b[0..n) of one model. */
static void model(struct ctx *c, struct board *b, int n)
{
    static const char *const head[] = {"variant",   "axes",   "boards",    "min ms",
                                       "median ms", "max ms", "max / min", "slowest board"};
    const struct board *first = &b[0];
    char cell[6][96];
    const char *row[8] = {NULL, NULL, cell[0], cell[1], cell[2], cell[3], cell[4], cell[5]};
    double t[MAX_BOARDS], worst = 0;
    struct vb_stats st;
    int i, k, m, slow, rows = 0, most = 0;
    vb_page_heading(&c->page, "%s: %d boards", first->model, n);
    for (i = 0; i < first->rd->n; i++) {
        const struct vb_case_row *r = &first->rd->cases[i], *x;
        if (r->device_id != first->device || !is_ok(r)) continue;
        for (m = 0, slow = -1, k = 0; k < n; k++)
            if ((x = on_board(&b[k], r))) {
                t[m] = compared_ns(x);
                if (slow < 0 || t[m] > worst) {
                    slow = k;
                    worst = t[m];
                }
                m++;
            }
        if (m < 2) continue;
        b[slow].slowest++;
        if (!rows++) vb_page_table(&c->page, 8, head, "llrrrrrl");
        row[0] = r->variant;
        row[1] = r->axes;
        snprintf(cell[0], sizeof cell[0], "%d", m);
        vb_stats_compute(t, (size_t)m, &st);
        vb_fmt_ms(st.min, cell[1], sizeof cell[1]);
        vb_fmt_ms(st.median, cell[2], sizeof cell[2]);
        vb_fmt_ms(st.max, cell[3], sizeof cell[3]);
        snprintf(cell[4], sizeof cell[4], "%.3f", st.max / st.min);
        snprintf(cell[5], sizeof cell[5], "run %lld device %d%s%s", (long long)b[slow].rd->run.id,
                 b[slow].device, b[slow].bus[0] ? " " : "", b[slow].bus);
        vb_page_row(&c->page, 0, row);
    }
    if (rows) vb_page_table_end(&c->page);
    for (k = 1; k < n; k++)
        if (b[k].slowest > b[most].slowest) most = k;
    if (rows)
        vb_page_para(&c->page, NULL,
                     "The slowest board most often: run %lld device %d%s%s, in %d of %d cases.",
                     (long long)b[most].rd->run.id, b[most].device, b[most].bus[0] ? " " : "",
                     b[most].bus, b[most].slowest, rows);
}

void vb_section_spread(struct ctx *c, const struct run_data *rd, int nr)
{
    struct board b[MAX_BOARDS], same[MAX_BOARDS];
    char *done = NULL;
    int n = boards_of(rd, nr, b), i, j, ns, shown = 0;
    if (n < 2 || !(done = calloc((size_t)n, 1))) return;
    for (i = 0; i < n; i++) {
        if (done[i]) continue;
        for (ns = 0, j = i; j < n; j++)
            if (!done[j] && !strcmp(b[j].model, b[i].model)) {
                done[j] = 1;
                same[ns++] = b[j];
            }
        if (ns < 2) continue;
        if (!shown++) {
            vb_page_section(&c->page, "spread", "Boards of one model");
            vb_page_para(&c->page, NULL,
                         "Per case correct on two or more boards of one GPU model: its time "
                         "(kernel when its floor is the kernel's, else end to end) over the "
                         "boards and the slowest board.");
        }
        model(c, same, ns);
    }
    free(done);
}
