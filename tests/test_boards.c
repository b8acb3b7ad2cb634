/* boards, compare's device selection and diagnose over fixture runs of several boards: the
 * spread of a 3-board run with one board 20% slower names that board; a fleet keeps its nodes'
 * boards apart; compare refuses a side of several boards unless one is named, and judges the
 * named one; diagnose flags exactly the slow board against a baseline without it, and no board
 * on a rerun of the baseline. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "boards.h"
#include "compare.h"
#include "diagnose.h"
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

int test_compare_devices(const char *arg)
{
    struct vb_store *b, *c;
    struct vb_err err;
    struct vb_cmp_opts o;
    struct vb_cmp_result res;
    struct fx_boards one = node_a, three = node_a2;
    int64_t rb, rc;
    one.ndev = 1;
    three.slow = 2;
    three.factor = 1.2;
    ASSERT_OK(vb_store_open(":memory:", &b, &err));
    ASSERT_OK(vb_store_open(":memory:", &c, &err));
    ASSERT_OK(fx_write_boards_run(b, &one, cases, NCASES, 1, &rb, &err));
    ASSERT_OK(fx_write_boards_run(c, &three, cases, NCASES, 1, &rc, &err));
    vb_cmp_opts_default(&o);
    /* a side of three boards and none named: refused, saying how to choose */
    ASSERT(vb_compare_runs(b, 0, c, 0, &o, &res, &err) == -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    ASSERT_CONTAINS(err.msg, "candidate run 1 has cases on 3 devices (0, 1, 2)");
    ASSERT_CONTAINS(err.hint, "--cand-device N");
    /* a device it lacks */
    o.cand_device = 5;
    ASSERT(vb_compare_runs(b, 0, c, 0, &o, &res, &err) == -1);
    ASSERT_CONTAINS(err.msg, "no GPU case on device 5 (its devices: 0, 1, 2)");
    /* the slow board, named: every GPU case slower, each matched once, the CPU case kept */
    o.cand_device = 2;
    ASSERT_OK(vb_compare_runs(b, 0, c, 0, &o, &res, &err));
    ASSERT_INT_EQ(res.dev_cand, 2);
    ASSERT_INT_EQ(res.ndev_cand, 3);
    ASSERT_INT_EQ(res.count[VB_VERDICT_SLOWER], NCASES);
    ASSERT_INT_EQ(res.count[VB_VERDICT_ONLY_CAND] + res.count[VB_VERDICT_ONLY_BASE], 0);
    ASSERT_INT_EQ(res.nrows, NCASES + 1);
    ASSERT_INT_EQ(vb_cmp_exit(&res), 1);
    vb_cmp_result_free(&res);
    /* its device 0, the base's twin: no regression */
    o.cand_device = 0;
    ASSERT_OK(vb_compare_runs(b, 0, c, 0, &o, &res, &err));
    ASSERT_INT_EQ(vb_cmp_exit(&res), 0);
    ASSERT_INT_EQ(res.count[VB_VERDICT_SAME], NCASES + 1);
    vb_cmp_result_free(&res);
    /* across devices with none named: its lowest device, said so */
    o.cand_device = -1;
    o.across_devices = 1;
    ASSERT_OK(vb_compare_runs(b, 0, c, 0, &o, &res, &err));
    ASSERT_INT_EQ(res.dev_cand, 0);
    ASSERT_CONTAINS(res.dev_note[1], "verdicts on device 0");
    ASSERT_STR_EQ(res.dev_note[0], "");
    vb_cmp_result_free(&res);
    vb_store_close(b);
    vb_store_close(c);
    return 0;
}

int test_diagnose(const char *arg)
{
    struct vb_store *base, *fleet, *other;
    struct vb_err err;
    struct vb_diag_opts o;
    struct vb_diag_result res;
    struct fx_boards cut = node_a2;
    int64_t r;
    int k;
    ASSERT_OK(vb_store_open(":memory:", &base, &err));
    ASSERT_OK(vb_store_open(":memory:", &fleet, &err));
    ASSERT_OK(vb_store_open(":memory:", &other, &err));
    ASSERT_OK(fx_write_boards_run(base, &node_a, cases, NCASES, 1, &r, &err));
    ASSERT_OK(fx_write_boards_run(fleet, &node_b, cases, NCASES, 1, &r, &err));
    ASSERT_OK(fx_write_boards_run(fleet, &node_c, cases, NCASES, 1, &r, &err));
    vb_diag_opts_default(&o);
    /* node-b's device 1 (20% slower) is flagged, nothing else: on its kernel-floored case (its
     * end-to-end ones are held to compare's 100% floor for host-clock times) */
    ASSERT_OK(vb_diagnose(base, fleet, &o, &res, &err));
    ASSERT_INT_EQ(res.n, 4);
    ASSERT_INT_EQ(res.judged, 3);
    ASSERT_INT_EQ(res.flagged, 1);
    ASSERT_INT_EQ(res.base_boards, 3);
    ASSERT_STR_EQ(res.base_models, H200 ": 3 boards");
    for (k = 0; k < 3; k++) {
        ASSERT_INT_EQ(res.boards[k].judged, 1);
        ASSERT_INT_EQ(res.boards[k].checked, NCASES);
        ASSERT_INT_EQ(res.boards[k].outside, k == 1 ? 1 : 0);
    }
    ASSERT_STR_EQ(res.boards[1].b.label, "node-b run 1 device 1 0000:28:00.0");
    ASSERT_NEAR(res.boards[1].worst.dev, 0.2, 0.03);
    ASSERT_NEAR(res.boards[1].out[0].margin, 0.05, 1e-12); /* +-1% jitter: 3x its IQR < 5% */
    ASSERT(res.boards[1].out[0].value > res.boards[1].out[0].hi);
    ASSERT_INT_EQ(res.boards[3].judged, 0);
    ASSERT_STR_EQ(res.boards[3].b.model, H100);
    ASSERT_INT_EQ(res.boards[1].faster, 0);
    vb_diag_result_free(&res);
    /* a board 20% faster than every baseline board is counted, not flagged (the job is the slow
     * board; a host-bound case runs faster alone than beside other workers) */
    {
        struct fx_boards fast = node_b;
        struct vb_store *quick;
        fast.factor = 0.8;
        ASSERT_OK(vb_store_open(":memory:", &quick, &err));
        ASSERT_OK(fx_write_boards_run(quick, &fast, cases, NCASES, 1, &r, &err));
        ASSERT_OK(vb_diagnose(base, quick, &o, &res, &err));
        ASSERT_INT_EQ(res.flagged, 0);
        ASSERT_INT_EQ(res.boards[1].outside, 0);
        ASSERT_INT_EQ(res.boards[1].faster, 1);
        ASSERT_INT_EQ(res.boards[0].faster, 0);
        vb_diag_result_free(&res);
        vb_store_close(quick);
    }
    /* a threshold of 25%: the slow board is inside */
    o.threshold = 0.25;
    ASSERT_OK(vb_diagnose(base, fleet, &o, &res, &err));
    ASSERT_INT_EQ(res.flagged, 0);
    vb_diag_result_free(&res);
    o.threshold = 0.05;
    /* the baseline against itself, and a rerun of its node: nothing flagged */
    ASSERT_OK(vb_diagnose(base, base, &o, &res, &err));
    ASSERT_INT_EQ(res.judged, 3);
    ASSERT_INT_EQ(res.flagged, 0);
    vb_diag_result_free(&res);
    ASSERT_OK(fx_write_boards_run(other, &node_a2, cases, NCASES, 1, &r, &err));
    ASSERT_OK(vb_diagnose(base, other, &o, &res, &err));
    ASSERT_INT_EQ(res.flagged, 0);
    ASSERT_INT_EQ(res.boards[0].checked, NCASES);
    vb_diag_result_free(&res);
    /* an interrupted run of the fleet: left out and named; named with --run: refused */
    cut.status = "interrupted";
    ASSERT_OK(fx_write_boards_run(other, &cut, cases, NCASES, 1, &r, &err));
    ASSERT_OK(vb_diagnose(base, other, &o, &res, &err));
    ASSERT_INT_EQ(res.nruns, 1);
    ASSERT_STR_EQ(res.left_out[1], "run 2 ('interrupted')");
    vb_diag_result_free(&res);
    o.run = 2;
    ASSERT(vb_diagnose(base, other, &o, &res, &err) == -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    ASSERT_CONTAINS(err.msg, "fleet run 2 is a suite run, 'interrupted': diagnose reads");
    o.run = 0;
    vb_store_close(other);
    /* no model in common: refused, naming both */
    ASSERT_OK(vb_store_open(":memory:", &other, &err));
    ASSERT_OK(fx_write_boards_run(other, &node_c, cases, NCASES, 1, &r, &err));
    ASSERT(vb_diagnose(base, other, &o, &res, &err) == -1);
    ASSERT_INT_EQ(err.code, VB_E_USAGE);
    ASSERT_CONTAINS(err.msg,
                    "no GPU model in common: the baseline has " H200 ": 3 boards, the fleet " H100);
    vb_store_close(other);
    vb_store_close(base);
    vb_store_close(fleet);
    return 0;
}

int test_make_boards_fixture(const char *dir)
{
    /* file, then up to two runs of boards (ndev 0: none) */
    struct fx_boards one = node_a, cut = node_a2;
    const struct {
        const char *file;
        const struct fx_boards *b[2];
    } sets[] = {{"boards-base.db", {&node_a, NULL}},   {"boards-fleet.db", {&node_b, &node_c}},
                {"boards-rerun.db", {&node_a2, NULL}}, {"boards-one.db", {&one, NULL}},
                {"boards-h100.db", {&node_c, NULL}},   {"boards-cut.db", {&node_a2, &cut}}};
    struct vb_err err;
    size_t i, k;
    one.ndev = 1;
    cut.status = "interrupted";
    if (!dir) TEST_FAIL_("%s", "make_boards_fixture needs a folder");
    for (i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        struct vb_store *s;
        char path[1024];
        int64_t r;
        snprintf(path, sizeof path, "%s/%s", dir, sets[i].file);
        unlink(path);
        ASSERT_OK(vb_store_open(path, &s, &err));
        for (k = 0; k < 2 && sets[i].b[k]; k++)
            ASSERT_OK(fx_write_boards_run(s, sets[i].b[k], cases, NCASES, 1, &r, &err));
        vb_store_close(s);
    }
    return 0;
}
