/* store_code: the kernels' code hashes of a run, written and read (see store.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_id.h"
#include "sass.h"
#include "store_int.h"

int vb_store_kernel_code(struct vb_store *s, int64_t run_id, const struct vb_code_entry *e,
                         size_t n, struct vb_err *err)
{
    static const char q[] =
        "INSERT OR IGNORE INTO kernel_code(run_id, name, sass_hash) VALUES (?, ?, ?)";
    char hex[17];
    size_t i;
    if (!n) return 0;
    if (vb_store_begin(s, err)) return -1;
    for (i = 0; i < n; i++) {
        snprintf(hex, sizeof hex, "%016" PRIx64, e[i].hash);
        if (vb_store_put(s, q, NULL, err, "itt", run_id, e[i].name, hex)) {
            vb_store_rollback(s);
            return -1;
        }
    }
    if (vb_store_commit(s, err)) {
        vb_store_rollback(s);
        return -1;
    }
    return 0;
}

/* fill_kernel reads a row of vb_store_run_code's query */
static void fill_kernel(sqlite3_stmt *st, void *p)
{
    struct vb_run_kernel *k = p;
    char hex[32];
    vb_store_col_text(st, 0, k->name, sizeof k->name);
    vb_store_col_text(st, 1, hex, sizeof hex);
    k->known = hex[0] != '\0';
    k->hash = k->known ? strtoull(hex, NULL, 16) : 0;
}

int vb_store_run_code(struct vb_store *s, int64_t run_id, struct vb_run_kernel **out, int *n,
                      int *recorded, struct vb_err *err)
{
    static const char launched[] = "SELECT sn.value, " VB_STORE_KERNEL_HASH(
        "?1", "sn.value") " FROM StringIds sn "
                          "WHERE sn.id IN (SELECT DISTINCT k.mangledName "
                          "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN cases c ON c.id = k.case_id "
                          "WHERE c.run_id = ?1) "
                          "ORDER BY sn.value";
    static const char any[] = "SELECT count(*) FROM kernel_code WHERE run_id = ?";
    sqlite3_stmt *st = vb_store_stmt(s, any, err);
    *out = NULL;
    *n = *recorded = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) return vb_store_fail(s, err, "bind");
    if (sqlite3_step(st) != SQLITE_ROW) return vb_store_fail(s, err, "reading kernel_code");
    *recorded = sqlite3_column_int(st, 0) > 0;
    sqlite3_reset(st);
    if (!(st = vb_store_stmt(s, launched, err))) return -1;
    if (sqlite3_bind_int64(st, 1, run_id) != SQLITE_OK) return vb_store_fail(s, err, "bind");
    return vb_store_read_rows(s, st, sizeof **out, fill_kernel, (void **)out, n, err);
}

int vb_store_case_code(struct vb_store *s, int64_t case_id, uint64_t *digest, int *state,
                       struct vb_err *err)
{
    /* per launch configuration: how often a sample launches it (its records over the samples
     * they fall in), so that a sample that launches the same kernel three times is other work */
    static const char q[] =
        "SELECT l.sig || '|' || CAST(round(1.0 * count(l.sample_id) / "
        "max(1, count(DISTINCT l.sample_id))) AS INTEGER), " VB_STORE_KERNEL_HASH(
            "l.run_id", "l.name") " FROM (SELECT sn.value || '|' || k.gridX || ',' || k.gridY || "
                                  "',' || k.gridZ || '|' || k.blockX || ',' || k.blockY || ',' || "
                                  "k.blockZ || '|' || ifnull(k.staticSharedMemory, '') || ',' || "
                                  "ifnull(k.dynamicSharedMemory, '') || ',' || "
                                  "ifnull(k.registersPerThread, '') AS sig, sn.value AS name, "
                                  "k.sample_id, c.run_id FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                  "JOIN cases c ON c.id = k.case_id JOIN StringIds sn ON sn.id = "
                                  "k.mangledName WHERE k.case_id = ?) l GROUP BY l.sig ORDER BY "
                                  "l.sig";
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    uint64_t h = VB_FNV1A_BASIS;
    int rc, rows = 0, unknown = 0, c;
    *digest = 0;
    *state = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, case_id) != SQLITE_OK) return vb_store_fail(s, err, "bind");
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *parts[2] = {sqlite3_column_text(st, 0), sqlite3_column_text(st, 1)};
        rows++;
        unknown |= !parts[1];
        for (c = 0; c < 2; c++) {
            const char *p = parts[c] ? (const char *)parts[c] : "";
            h = vb_sass_fnv1a_more(vb_sass_fnv1a_more(h, p, strlen(p)), "\n", 1);
        }
    }
    sqlite3_reset(st);
    if (rc != SQLITE_DONE) return vb_store_fail(s, err, "reading a case's kernels");
    *state = !rows ? 0 : unknown ? -1 : 1;
    *digest = *state == 1 ? h : 0;
    return 0;
}
