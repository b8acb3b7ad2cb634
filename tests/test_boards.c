/* boards over fixture runs of several boards: the spread of a 3-board run with one board 20%
 * slower names that board; a fleet keeps its nodes' boards apart. */
#include <math.h>
#include <stdlib.h>

#include "boards.h"
#include "fixtures.h"
#include "test.h"
#include "tests.h"

#define H200 "NVIDIA H200"
#define H100 "NVIDIA H100 80GB HBM3"

/* Three GPU cases; device-mesh-pinned is held on its kernel (its floor is the kernel's). */
static const struct fx_case cases[] = {
    {"host-mesh", 1000, 20, 20.0, "ok"},
    {"device-mesh", 1000, 20, 0.6, "ok"},
    {"device-mesh-pinned", 1000, 20, 0.18, "ok"},
};
#define NCASES 3

/* The boards of the fixtures: a node of 3 H200s, the same node again, a node of 3 H200s whose
 * device 1 is 20% slower, a node of one H100. */
static const struct fx_boards node_a = {"node-a", H200, 3, -1, 1, 1, NULL};
static const struct fx_boards node_a2 = {"node-a", H200, 3, -1, 1, 2, NULL};
static const struct fx_boards node_b = {"node-b", H200, 3, 1, 1.2, 3, NULL};
static const struct fx_boards node_c = {"node-c", H100, 1, -1, 1, 4, NULL};

/* spread_of reads run `run` of s and computes its boards (cases on min_boards or more). */
static int spread_of(struct vb_store *s, const int64_t *runs, int nr, int min_boards,
                     struct vb_boards_src *src, struct vb_boards *b, struct vb_err *err)
{
    if (vb_boards_read(s, runs, nr, src, err)) return -1;
    if (vb_boards_compute(src->runs, src->n, min_boards, b, err)) {
        vb_boards_src_free(src);
        return -1;
    }
    return 0;
}

int test_boards_spread(const char *arg)
{
    struct vb_store *s;
    struct vb_err err;
    struct vb_boards_src src;
    struct vb_boards b;
    const struct vb_boards_model *m;
    struct fx_boards slow = node_a;
    int64_t run;
    int c, k;
    slow.slow = 2;
    slow.factor = 1.2;
    ASSERT_OK(vb_store_open(":memory:", &s, &err));
    ASSERT_OK(fx_write_boards_run(s, &slow, cases, NCASES, 1, &run, &err));
    ASSERT_OK(spread_of(s, &run, 1, 2, &src, &b, &err));
    ASSERT_INT_EQ(b.nmodels, 1);
    m = &b.models[0];
    ASSERT_STR_EQ(m->model, H200);
    ASSERT_INT_EQ(m->nboards, 3);
    ASSERT_STR_EQ(m->boards[0].label, "node-a run 1 device 0 0000:18:00.0");
    ASSERT_STR_EQ(m->boards[2].label, "node-a run 1 device 2 0000:38:00.0");
    ASSERT_INT_EQ(m->ncases, NCASES); /* the CPU reference is no board's */
    for (c = 0; c < NCASES; c++) {
        const struct vb_boards_case *bc = &m->cases[c];
        double t[3];
        ASSERT_STR_EQ(bc->variant, c == 0   ? "mesh/host-mesh"
                                   : c == 1 ? "mesh/device-mesh"
                                            : "mesh/device-mesh-pinned");
        ASSERT_STR_EQ(bc->axes, "nx=1000,ny=1000");
        ASSERT_INT_EQ(bc->nboards, 3);
        for (k = 0; k < 3; k++)
            t[k] = vb_boards_time(m, c, k);
        /* boards at 1.00, 1.02 and 1.04 x 1.2 of the case's time (samples +-1%) */
        ASSERT(t[0] < t[1] && t[1] < t[2]);
        ASSERT_NEAR(bc->min, t[0], 0);
        ASSERT_NEAR(bc->median, t[1], 0);
        ASSERT_NEAR(bc->max, t[2], 0);
        ASSERT_NEAR(bc->max / bc->min, 1.04 * 1.2, 0.03);
        ASSERT_INT_EQ(bc->slowest, 2);
    }
    /* held on the kernel (half the end-to-end time) where the floor is the kernel's */
    ASSERT_NEAR(m->cases[2].median, 0.18e6 * 1.02 / 2, 0.18e6 * 0.02);
    ASSERT_NEAR(m->cases[1].median, 0.6e6 * 1.02, 0.6e6 * 0.02);
    ASSERT_INT_EQ(m->most, 2);
    ASSERT_INT_EQ(m->boards[2].slowest, 3);
    ASSERT_INT_EQ(m->boards[0].slowest, 0);
    vb_boards_free(&b);
    vb_boards_src_free(&src);
    vb_store_close(s);
    return 0;
}

int test_boards_fleet(const char *arg)
{
    struct vb_store *s;
    struct vb_err err;
    struct vb_boards_src src;
    struct vb_boards b;
    const struct vb_boards_model *m;
    int64_t runs[3];
    ASSERT_OK(vb_store_open(":memory:", &s, &err));
    ASSERT_OK(fx_write_boards_run(s, &node_a, cases, NCASES, 1, &runs[0], &err));
    ASSERT_OK(fx_write_boards_run(s, &node_b, cases, NCASES, 1, &runs[1], &err));
    ASSERT_OK(fx_write_boards_run(s, &node_c, cases, NCASES, 1, &runs[2], &err));
    ASSERT_OK(spread_of(s, runs, 3, 2, &src, &b, &err));
    ASSERT_INT_EQ(b.nmodels, 2);
    ASSERT(!vb_boards_find(&b, "NVIDIA A100"));
    ASSERT((m = vb_boards_find(&b, H200)));
    /* one bus location on two nodes: two boards, told apart by host and run */
    ASSERT_INT_EQ(m->nboards, 6);
    ASSERT_STR_EQ(m->boards[3].label, "node-b run 2 device 0 0000:18:00.0");
    ASSERT_INT_EQ(m->ncases, NCASES);
    ASSERT_INT_EQ(m->cases[0].nboards, 6);
    ASSERT_INT_EQ(m->cases[0].slowest, 4); /* node-b device 1: 1.02 x 1.2 */
    ASSERT_INT_EQ(m->most, 4);
    ASSERT_INT_EQ(vb_boards_case_index(m, "mesh/device-mesh", "nx=1000,ny=1000"), 1);
    ASSERT_INT_EQ(vb_boards_case_index(m, "mesh/device-mesh", "nx=4000,ny=4000"), -1);
    /* one H100 board: the model is there, no case is on two of its boards */
    ASSERT((m = vb_boards_find(&b, H100)));
    ASSERT_INT_EQ(m->nboards, 1);
    ASSERT_INT_EQ(m->ncases, 0);
    ASSERT_INT_EQ(m->most, -1);
    vb_boards_free(&b);
    vb_boards_src_free(&src);
    /* a run the database lacks is a usage error */
    runs[0] = 99;
    ASSERT(vb_boards_read(s, runs, 1, &src, &err) == -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    ASSERT_CONTAINS(err.msg, "no run 99");
    vb_store_close(s);
    return 0;
}
