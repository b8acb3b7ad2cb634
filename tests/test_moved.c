/* occupancy.h's figures, and moved.h's explanations over fixture databases: per plant (uncoalesced
 * loads, more registers a thread, a quarter of the blocks, a second DRAM pass, a dependent chain, a
 * shared-memory tile without its padding), the counter that is the cause named first with its
 * before -> after; a move inside the counters' measured noise names none; a counter that moved the
 * other way is not a cause; a counter measured on one launch says its noise is unmeasured. */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fixtures.h"
#include "ab_explain.h"
#include "moved.h"
#include "occupancy.h"
#include "store.h"
#include "test.h"
#include "tests.h"

#define GLD_EFF     "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"
#define GLD_SEC     "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
#define DRAM_RD     "dram__bytes_read.sum"
#define OCC         "sm__warps_active.avg.pct_of_peak_sustained_active"
#define DUR         "gpu__time_duration.sum"
#define FMA         "smsp__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"
#define BANK_LD     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
#define STALL(r)    "smsp__warp_issue_stalled_" r "_per_warp_active.pct"
#define STALL_WAIT  STALL("wait")
#define STALL_MATH  STALL("math_pipe_throttle")
#define STALL_SHORT STALL("short_scoreboard")

static sqlite3 *db;

/* counter: case c's launch l of kernel k measured metric m at v */
static void counter(int c, int l, const char *k, const char *m, double v)
{
    char q[512];
    snprintf(q, sizeof q,
             "INSERT OR IGNORE INTO StringIds(value) VALUES ('%s');"
             "INSERT INTO metrics(case_id, launch, kernelId, metric, value) VALUES "
             "(%d, %d, (SELECT id FROM StringIds WHERE value = '%s'), '%s', %.17g);",
             k, c, l, k, m, v);
    sqlite3_exec(db, q, NULL, NULL, NULL);
}

/* both: cases b and c's one launch of kernel k measured metric m at before and after */
static void both(int b, int c, const char *k, const char *m, double before, double after)
{
    counter(b, 0, k, m, before);
    counter(c, 0, k, m, after);
}

/* on_device: cases b and c of run 1 (variant 1), on its device 0 (TARGET_INFO_GPU's row, which
 * the registers plant inserts) */
static void on_device(int b, int c)
{
    char q[256];
    snprintf(q, sizeof q,
             "INSERT INTO cases(id, run_id, variant_id, device_id, axes, status, samples, "
             "have_records) VALUES (%d, 1, 1, 0, '', 'ok', 1, 1), (%d, 1, 1, 0, '', 'ok', 1, 1);",
             b, c);
    sqlite3_exec(db, q, NULL, NULL, NULL);
}

/* launch: case c launched kernel k with that grid, registers a thread and shared memory */
static void launch(int c, const char *k, int blocks, int regs, int smem)
{
    char q[512];
    snprintf(q, sizeof q,
             "INSERT OR IGNORE INTO StringIds(value) VALUES ('%s');"
             "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL(case_id, start, end, gridX, gridY, gridZ, "
             "blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, "
             "registersPerThread, shortName) VALUES (%d, 1, 2, %d, 1, 1, 256, 1, 1, %d, 0, %d, "
             "(SELECT id FROM StringIds WHERE value = '%s'));",
             k, c, blocks, smem, regs, k);
    sqlite3_exec(db, q, NULL, NULL, NULL);
}

/* first: the explanation of case b against c at time ratio t, its first counter's name */
static const char *first(struct vb_store *s, int b, int c, double t, struct vb_moved *m, char *text,
                         size_t n)
{
    struct vb_err err;
    vb_err_clear(&err);
    if (vb_moved_explain(s, b, s, c, t, 0.05, m, &err)) return "error";
    vb_moved_text(m, text, n);
    printf("  %d -> %d (time x%.2f): %s\n", b, c, t, m->n ? text : "(none)");
    return m->n ? m->item[0].metric : "";
}

int test_moved_causes(const char *arg)
{
    char path[512], text[640];
    struct vb_store *s = NULL;
    struct vb_moved m;
    struct vb_err err;
    int l;
    (void)arg;
    fx_tmp_path(path, sizeof path, "moved.db");
    ASSERT_OK(vb_store_open(path, &s, &err));
    ASSERT(sqlite3_open(path, &db) == SQLITE_OK);
    /* uncoalesced loads (cases 1 -> 2): efficiency 100% -> 12.5%, sectors x8, DRAM +20% */
    for (l = 0; l < 2; l++) {
        counter(1, l, "ld", GLD_EFF, 100);
        counter(2, l, "ld", GLD_EFF, 12.5);
        counter(1, l, "ld", GLD_SEC, 1e6 * (1 + 0.01 * l));
        counter(2, l, "ld", GLD_SEC, 8e6 * (1 + 0.01 * l));
        counter(1, l, "ld", DRAM_RD, 4e6);
        counter(2, l, "ld", DRAM_RD, 4.8e6);
        counter(1, l, "ld", DUR, 10e3);
        counter(2, l, "ld", DUR, 25e3);
    }
    ASSERT_STR_EQ(first(s, 1, 2, 2.5, &m, text, sizeof text), GLD_EFF);
    ASSERT_CONTAINS(text, "global load efficiency (" GLD_EFF ") 100% -> 12.5%");
    ASSERT(!strstr(text, DUR)); /* the duration is the time itself, never a cause */
    ASSERT(m.noise_measured);
    /* more registers a thread (3 -> 4): occupancy falls with them; the launch is the cause,
     * with the theoretical occupancy it sets on the run's device (cc 9.0, 132 SMs) */
    sqlite3_exec(db,
                 "INSERT INTO TARGET_INFO_GPU(run_id, id, computeMajor, computeMinor, smCount) "
                 "VALUES (1, 0, 9, 0, 132);"
                 "INSERT INTO variants(id, family, name, is_reference, needs_gpu) "
                 "VALUES (1, 'm', 'loads', 0, 1);",
                 NULL, NULL, NULL);
    on_device(3, 4);
    launch(3, "k", 4096, 32, 0);
    launch(4, "k", 4096, 128, 0);
    counter(3, 0, "k", OCC, 95);
    counter(4, 0, "k", OCC, 30);
    ASSERT_STR_EQ(first(s, 3, 4, 1.8, &m, text, sizeof text), "launch__registers_per_thread");
    ASSERT_CONTAINS(text, "registers a thread (launch__registers_per_thread) 32 -> 128 "
                          "(theoretical occupancy 100% -> 25%, limited by registers a thread "
                          "(was threads a block))");
    ASSERT_CONTAINS(text, "achieved occupancy");
    /* a quarter of the blocks (5 -> 6) */
    launch(5, "k", 4096, 32, 0);
    launch(6, "k", 1024, 32, 0);
    counter(5, 0, "k", OCC, 95);
    counter(6, 0, "k", OCC, 40);
    ASSERT_STR_EQ(first(s, 5, 6, 2.0, &m, text, sizeof text), "launch__grid_size");
    ASSERT_CONTAINS(text, "4.1 k -> 1.02 k");
    /* a second pass over DRAM (7 -> 8): DRAM bytes before the L1 sectors that show it */
    for (l = 0; l < 2; l++) {
        counter(7, l, "p", DRAM_RD, 64e6);
        counter(8, l, "p", DRAM_RD, 128e6);
        counter(7, l, "p", GLD_SEC, 2e6);
        counter(8, l, "p", GLD_SEC, 4e6);
    }
    ASSERT_STR_EQ(first(s, 7, 8, 1.9, &m, text, sizeof text), DRAM_RD);
    ASSERT_CONTAINS(text, "DRAM bytes read (" DRAM_RD ") 64 MB -> 128 MB a launch");
    /* inside the counters' own noise (9 -> 10): its launches spread 10%, it moved 8% */
    counter(9, 0, "n", DRAM_RD, 100e6);
    counter(9, 1, "n", DRAM_RD, 110e6);
    counter(10, 0, "n", DRAM_RD, 108e6);
    counter(10, 1, "n", DRAM_RD, 119e6);
    ASSERT_STR_EQ(first(s, 9, 10, 1.2, &m, text, sizeof text), "");
    /* the other way (11 -> 12): slower while the loads grew more efficient: no cause */
    counter(11, 0, "o", GLD_EFF, 50);
    counter(12, 0, "o", GLD_EFF, 100);
    ASSERT_STR_EQ(first(s, 11, 12, 1.5, &m, text, sizeof text), "");
    /* one launch a side (13 -> 14): named, its noise said unmeasured; faster names the cause
     * of the gain the same way */
    counter(13, 0, "u", OCC, 30);
    counter(14, 0, "u", OCC, 90);
    ASSERT_STR_EQ(first(s, 13, 14, 0.5, &m, text, sizeof text), OCC);
    ASSERT_CONTAINS(text, "achieved occupancy (" OCC ") 30% -> 90%");
    ASSERT_CONTAINS(text, "noise not measured");
    /* a dependent chain (15 -> 16), as m/chain measured on the H200 (x2.05): the stall reason
     * that grew (1 / (100% - s): 5.52% -> 55.4% predicts x2.12) before the FMA pipe's use that
     * fell with it; a stall reason from 0% to 0.04% did not move (under a point) */
    both(15, 16, "c", STALL_WAIT, 5.52, 55.4);
    both(15, 16, "c", STALL_MATH, 0, 0.0354);
    both(15, 16, "c", FMA, 39.4, 19.2);
    ASSERT_STR_EQ(first(s, 15, 16, 2.05, &m, text, sizeof text), STALL_WAIT);
    ASSERT_CONTAINS(text,
                    "warps stalled on a dependent instruction (" STALL_WAIT ") 5.52% -> 55.4%");
    ASSERT(!strstr(text, STALL_MATH));
    /* a shared-memory tile without its padding (17 -> 18), as m/transpose measured (x2.48):
     * the bank conflicts, before the stall reason they show as */
    both(17, 18, "t", BANK_LD, 39.3e3, 16.5e6);
    both(17, 18, "t", STALL_SHORT, 1.48, 18.5);
    ASSERT_STR_EQ(first(s, 17, 18, 2.48, &m, text, sizeof text), BANK_LD);
    ASSERT_CONTAINS(text,
                    "shared-memory load bank conflicts (" BANK_LD ") 39.3 k -> 16.5 M a launch");
    /* registers 24 -> 32 that leave the theoretical occupancy at 100% (19 -> 20) cost no time:
     * the second DRAM pass that came with them is the cause, registers not named */
    on_device(19, 20);
    launch(19, "r", 4096, 24, 0);
    launch(20, "r", 4096, 32, 0);
    both(19, 20, "r", DRAM_RD, 64e6, 128e6);
    ASSERT_STR_EQ(first(s, 19, 20, 1.1, &m, text, sizeof text), DRAM_RD);
    ASSERT(!strstr(text, "launch__registers_per_thread"));
    /* the same case against itself: nothing moved */
    ASSERT_STR_EQ(first(s, 1, 1, 1.3, &m, text, sizeof text), "");
    /* two traced processes (21 -> 22, trace --metrics): conv's launches 50% longer as its
     * occupancy halved, gemm's the same, old_k gone and new_k new */
    for (l = 0; l < 3; l++) {
        counter(21, 4 * l, "conv", DUR, 100e3 + l);
        counter(22, 4 * l, "conv", DUR, 150e3 + l);
        counter(21, 4 * l, "conv", OCC, 80 + 0.1 * l);
        counter(22, 4 * l, "conv", OCC, 40 + 0.1 * l);
        counter(21, 4 * l + 1, "gemm", DUR, 200e3 + l);
        counter(22, 4 * l + 1, "gemm", DUR, 201e3 + l);
        counter(21, 4 * l + 1, "gemm", OCC, 50);
        counter(22, 4 * l + 1, "gemm", OCC, 25); /* moved, but its kernel's time did not */
        counter(21, 4 * l + 2, "old_k", DUR, 30e3);
        counter(22, 4 * l + 2, "new_k", DUR, 40e3);
    }
    vb_err_clear(&err);
    ASSERT_OK(vb_moved_kernels(s, 21, s, 22, 0.05, text, sizeof text, &err));
    printf("  traced 21 -> 22: %s\n", text);
    ASSERT_CONTAINS(text, "kernel conv: duration +50.0% (3 -> 3 launches): achieved occupancy (" OCC
                          ") 80.1% -> 40.1%");
    ASSERT_CONTAINS(text, "kernel new_k: only in the candidate (3 launches, 0.12 ms)");
    ASSERT_CONTAINS(text, "kernel old_k: only in the base (3 launches, 0.09 ms)");
    ASSERT(!strstr(text, "gemm"));
    ASSERT(strstr(text, "kernel conv") < strstr(text, "kernel new_k")); /* the largest move first */
    ASSERT_OK(vb_moved_kernels(s, 21, s, 21, 0.05, text, sizeof text, &err));
    ASSERT_STR_EQ(text, "");
    sqlite3_close(db);
    vb_store_close(s);
    remove(path);
    return 0;
}

/* The theoretical occupancy of the plants' launches on an H200 (cc 9.0, 132 SMs), and what
 * limits it, as CUDA's occupancy calculator reckons it. */
int test_occupancy(const char *arg)
{
    struct vb_occupancy o;
    (void)arg;
    /* m/loads: 256 threads, 24 registers: the warps (8 blocks of 8) */
    ASSERT(vb_occupancy_of(9, 0, 132, 65536, 256, 24, 0, &o) == 0);
    ASSERT(o.pct == 100 && o.by == VB_OCC_WARPS && o.blocks == 8);
    /* its build of 176 registers: 5632 a warp, 11 warps: one block of 8 */
    ASSERT(vb_occupancy_of(9, 0, 132, 65536, 256, 176, 0, &o) == 0);
    ASSERT(o.pct == 12.5 && o.by == VB_OCC_REGISTERS);
    /* a 256th of the blocks: 256 over 132 SMs, 2 an SM at most */
    ASSERT(vb_occupancy_of(9, 0, 132, 256, 256, 24, 0, &o) == 0);
    ASSERT(o.pct == 25 && o.by == VB_OCC_GRID);
    /* 48 KiB a block of 128 threads: 49 KiB with the reserve, 4 blocks in 228 KiB */
    ASSERT(vb_occupancy_of(9, 0, 132, 4096, 128, 32, 48 * 1024, &o) == 0);
    ASSERT(o.pct == 25 && o.by == VB_OCC_SHARED && o.blocks == 4);
    /* m/transpose's padded tile (4224 bytes) limits nothing */
    ASSERT(vb_occupancy_of(9, 0, 132, 16384, 256, 32, 32 * 33 * 4, &o) == 0);
    ASSERT(o.pct == 100 && o.by == VB_OCC_WARPS);
    /* 32-thread blocks: the SM's 32 blocks, half its warps */
    ASSERT(vb_occupancy_of(9, 0, 132, 1 << 20, 32, 16, 0, &o) == 0);
    ASSERT(o.pct == 50 && o.by == VB_OCC_BLOCKS);
    /* registers by sub-partition: 64-thread blocks at 48 registers, 1536 a warp, 10 warps in
     * each quarter's 16384: 40 warps, 20 blocks (65536 / 1536 would have said 21) */
    ASSERT(vb_occupancy_of(9, 0, 132, 1 << 20, 64, 48, 0, &o) == 0);
    ASSERT(o.pct == 62.5 && o.by == VB_OCC_REGISTERS && o.blocks == 20);
    /* Turing: 32 warps an SM */
    ASSERT(vb_occupancy_of(7, 5, 40, 4096, 1024, 32, 0, &o) == 0);
    ASSERT(o.pct == 100 && o.blocks == 1);
    /* a compute capability not in the table, and no launch */
    ASSERT(vb_occupancy_of(6, 1, 20, 4096, 256, 32, 0, &o) == -1);
    ASSERT(vb_occupancy_of(9, 0, 132, 4096, 0, 32, 0, &o) == -1);
    ASSERT_STR_EQ(vb_occ_limit_name(VB_OCC_REGISTERS), "registers a thread");
    return 0;
}

/* script writes an executable shell script at path that prints `out` on stdout and exits rc */
static int script(const char *path, const char *out, int rc)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "#!/bin/sh\nprintf '%s'\necho 'its stderr' >&2\nexit %d\n", out, rc);
    return fclose(f) || chmod(path, 0755) ? -1 : 0;
}

/* ab_explain's counters step with two programs that stand for A and B's metrics runs (each
 * prints the run it made, as run does): a case ab called slower is named from those two runs'
 * counters, never from the newest run of the database (run 9, a third writer's); a side whose
 * run fails is said in its row. */
int test_ab_explain(const char *arg)
{
    char path[512], pa[512], pb[512], pf[512];
    struct vb_store *s = NULL;
    struct vb_cmp_row row;
    struct vb_cmp_result res;
    struct vb_ab_sides sides;
    struct vb_err err;
    int l;
    (void)arg;
    fx_tmp_path(path, sizeof path, "ab_explain.db");
    fx_tmp_path(pa, sizeof pa, "ab_explain_a.sh");
    fx_tmp_path(pb, sizeof pb, "ab_explain_b.sh");
    fx_tmp_path(pf, sizeof pf, "ab_explain_f.sh");
    ASSERT(!script(pa, "m/loads n=16 ...\\nrun 2 stored in x.db: 1 cases\\n", 0));
    ASSERT(!script(pb, "run 3 stored in x.db: 1 cases\\n", 0));
    ASSERT(!script(pf, "", 5));
    ASSERT_OK(vb_store_open(path, &s, &err));
    ASSERT(sqlite3_open(path, &db) == SQLITE_OK);
    sqlite3_exec(db,
                 "INSERT INTO variants(id, family, name, is_reference, needs_gpu) "
                 "VALUES (2, 'm', 'loads', 0, 1);"
                 "INSERT INTO cases(id, run_id, variant_id, axes, status, samples, have_records, "
                 "metrics_status) VALUES (31, 2, 2, 'n=16', 'ok', 1, 1, 'ok'), "
                 "(32, 3, 2, 'n=16', 'ok', 1, 1, 'ok'), (39, 9, 2, 'n=16', 'ok', 1, 1, 'ok');",
                 NULL, NULL, NULL);
    for (l = 0; l < 2; l++) {
        counter(31, l, "ld", GLD_EFF, 100);
        counter(32, l, "ld", GLD_EFF, 12.5);
        counter(39, l, "ld", GLD_EFF, 100);
    }
    memset(&row, 0, sizeof row);
    snprintf(row.variant, sizeof row.variant, "m/loads");
    snprintf(row.axes, sizeof row.axes, "n=16");
    snprintf(row.phase, sizeof row.phase, "GPU");
    row.verdict = VB_VERDICT_SLOWER;
    row.needs_gpu = 1;
    row.ratio = 5.2;
    memset(&res, 0, sizeof res);
    res.rows = &row;
    res.nrows = 1;
    memset(&sides, 0, sizeof sides);
    sides.exe[0] = pa;
    sides.exe[1] = pb;
    sides.db = path;
    vb_err_clear(&err);
    ASSERT_OK(vb_ab_explain(&sides, s, &res, 0.02, &err));
    printf("  %s\n", row.moved);
    ASSERT_CONTAINS(row.moved, "global load efficiency (" GLD_EFF ") 100% -> 12.5%");
    sides.exe[1] = pf;
    row.moved[0] = '\0';
    ASSERT_OK(vb_ab_explain(&sides, s, &res, 0.02, &err));
    printf("  %s\n", row.moved);
    ASSERT_CONTAINS(row.moved, "counters not measured: B's metrics run");
    ASSERT_CONTAINS(row.moved, "exited 5: its stderr");
    sqlite3_close(db);
    vb_store_close(s);
    remove(path);
    remove(pa);
    remove(pb);
    remove(pf);
    return 0;
}
