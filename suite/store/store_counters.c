/* store_counters: a case's counters and launches as a regression's explanation reads them
 * (judge/moved.h; see store.h). */
#include <sqlite3.h>

#include "store.h"
#include "store_int.h"

static void fill_counter(sqlite3_stmt *st, void *p)
{
    struct vb_counter_row *r = p;
    r->launch = sqlite3_column_int64(st, 0);
    vb_store_col_text(st, 1, r->kernel, sizeof r->kernel);
    vb_store_col_text(st, 2, r->metric, sizeof r->metric);
    r->value = vb_store_col_double(st, 3);
}

int vb_store_case_counters(struct vb_store *s, int64_t case_id, struct vb_counter_row **rows,
                           int *n, struct vb_err *err)
{
    /* a value that is no number (what varbench never writes) is not a measurement */
    static const char q[] =
        "SELECT m.launch, IFNULL(sn.value, ''), m.metric, m.value FROM metrics m "
        "LEFT JOIN StringIds sn ON sn.id = m.kernelId WHERE m.case_id = ?1 AND "
        "typeof(m.value) IN ('integer', 'real') ORDER BY m.launch, m.metric";
    return vb_store_run_rows(s, q, case_id, sizeof **rows, fill_counter, (void **)rows, n, err);
}

static void fill_launch(sqlite3_stmt *st, void *p)
{
    struct vb_launch_row *r = p;
    vb_store_col_text(st, 0, r->kernel, sizeof r->kernel);
    r->blocks = sqlite3_column_int64(st, 1);
    r->threads = sqlite3_column_int64(st, 2);
    r->registers = sqlite3_column_int64(st, 3);
    r->shared = sqlite3_column_int64(st, 4);
    r->cc_major = sqlite3_column_int(st, 5);
    r->cc_minor = sqlite3_column_int(st, 6);
    r->sms = sqlite3_column_int(st, 7);
}

int vb_store_case_launches(struct vb_store *s, int64_t case_id, struct vb_launch_row **rows, int *n,
                           struct vb_err *err)
{
    /* one row per distinct configuration of each kernel of the case's kept records */
    static const char q[] =
        "SELECT DISTINCT IFNULL(sn.value, ''), k.gridX * k.gridY * k.gridZ, "
        "k.blockX * k.blockY * k.blockZ, k.registersPerThread, "
        "IFNULL(k.staticSharedMemory, 0) + IFNULL(k.dynamicSharedMemory, 0), "
        "IFNULL(g.computeMajor, 0), IFNULL(g.computeMinor, 0), IFNULL(g.smCount, 0) "
        "FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds sn ON sn.id = k.shortName "
        "LEFT JOIN cases c ON c.id = k.case_id LEFT JOIN TARGET_INFO_GPU g ON g.run_id = c.run_id "
        "AND g.id = IFNULL(k.deviceId, c.device_id) "
        "WHERE k.case_id = ?1 ORDER BY 1, 2, 3, 4, 5";
    return vb_store_run_rows(s, q, case_id, sizeof **rows, fill_launch, (void **)rows, n, err);
}
