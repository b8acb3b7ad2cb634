/* Tests of a case's code identity: suite/store/store_code.c's digest of the kernels a case
 * launched and how, and suite/judge/code_diff.c's hold of compare's verdicts on it. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "code_diff.h"
#include "fixtures.h"
#include "result.h"
#include "code_id.h"
#include "store.h"
#include "test.h"
#include "tests.h"

/* A case's code identity (vb_store_case_code) and compare's hold on it (vb_code_hold): three
 * runs of one GPU case, the second with the same code and launch, the third launched with
 * another block; a fourth whose run stored no code. */
int test_store_case_code(const char *arg)
{
    struct vb_store *st;
    struct vb_err err;
    struct vb_run_info info = {"suite", "code", NULL, "x", "0", ""};
    struct vb_case_result r;
    struct vb_sample s[3];
    struct vb_copy_rec c[3];
    struct vb_kernel_rec k[3];
    struct vb_memset_rec m;
    struct vb_range_rec n[3];
    struct vb_cmp_row row;
    struct vb_code_entry code = {(char *)"_Z21mesh_host_mesh_kernelPKdS0_S0_S0_Pdm", 0x1234};
    uint64_t d[4];
    int64_t run, id[4];
    int i, j, state[4], same;
    char path[512];
    (void)arg;
    fx_tmp_path(path, sizeof path, "case-code.db");
    ASSERT_OK(vb_store_open(path, &st, &err));
    for (i = 0; i < 4; i++) {
        fx_fake_case(&r, s, c, k, &m, n);
        for (j = 0; j < 3; j++) {
            k[j].grid[0] = 4000, k[j].grid[1] = k[j].grid[2] = 1;
            k[j].block[0] = i == 2 ? 128 : 256, k[j].block[1] = k[j].block[2] = 1;
            k[j].registers = 16;
        }
        ASSERT_OK(vb_store_run_begin(st, &info, &run, &err));
        ASSERT_OK(vb_store_case(st, run, &r, &id[i], &err));
        if (i < 3) ASSERT_OK(vb_store_kernel_code(st, run, &code, 1, &err));
        ASSERT_OK(vb_store_run_end(st, run, "complete", 0, "", &err));
        ASSERT_OK(vb_store_case_code(st, id[i], &d[i], &state[i], &err));
    }
    ASSERT(state[0] == 1 && state[1] == 1 && state[2] == 1 && d[0] == d[1] && d[0] != d[2]);
    ASSERT(state[3] == -1 && d[3] == 0); /* its run stored no code */
    ASSERT_OK(vb_code_case(st, id[0], st, id[1], &same, &err));
    ASSERT_INT_EQ(same, 1);
    ASSERT_OK(vb_code_case(st, id[0], st, id[2], &same, &err));
    ASSERT_INT_EQ(same, 0);
    ASSERT_OK(vb_code_case(st, id[0], st, id[3], &same, &err));
    ASSERT_INT_EQ(same, -1);
    vb_store_close(st);
    unlink(path);

    /* the hold: with the same code a kernel or GPU time that moved stays as judged and says
     * what the same code leaves open; a copy is judged as it was; with other code, or unknown,
     * nothing changes */
    for (same = -1; same <= 1; same++) {
        static const char *const ph[] = {"gpu", "kernel", "h2d"};
        memset(&row, 0, sizeof row);
        row.nphases = 3;
        for (j = 0; j < 3; j++) {
            snprintf(row.phases[j].name, sizeof row.phases[j].name, "%s", ph[j]);
            row.phases[j].verdict = VB_VERDICT_SLOWER;
            row.phases[j].ratio = 1.05;
        }
        vb_code_hold(&row, same);
        ASSERT_INT_EQ(row.code_same, same);
        for (j = 0; j < 3; j++)
            ASSERT_INT_EQ(row.phases[j].verdict, VB_VERDICT_SLOWER);
        ASSERT_STR_EQ(row.phases[1].why, same == 1 ? "the same SASS and launch: the work it was "
                                                     "given, or the machine"
                                                   : "");
        vb_cmp_decide(&row);
        ASSERT_INT_EQ(row.verdict, VB_VERDICT_SLOWER);
        ASSERT_STR_EQ(row.phase, "gpu");
        {
            char text[512];
            ASSERT_STR_EQ(vb_cmp_row_text(&row, text, sizeof text),
                          same == 1 ? "slower (GPU +5%; the same SASS and launch: the work it "
                                      "was given, or the machine)"
                                    : "slower (GPU +5%)");
        }
    }
    return 0;
}
