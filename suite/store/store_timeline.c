/*
 * store_timeline: the CUPTI records of one sample of a case, for the report's timelines
 * (store.h, vb_store_timeline). A suite case's sample is the timed one with records kept whose
 * end-to-end time is nearest the case's median, so the timeline shows a typical sample; a
 * traced case (one process) has no samples and gives all of its records.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "store_int.h"

/* fill_event reads a row of the union below: kind, stream, start, end, bytes. */
static void fill_event(sqlite3_stmt *st, void *p)
{
    struct vb_tl_event *e = p;
    e->kind = sqlite3_column_int(st, 0);
    e->stream = sqlite3_column_int(st, 1);
    e->start_ns = (double)sqlite3_column_int64(st, 2);
    e->end_ns = (double)sqlite3_column_int64(st, 3);
    e->bytes = sqlite3_column_int64(st, 4);
}

/* pick_sample sets *sample to the kept timed sample of case_id nearest its e2e median, with
 * its start and e2e; *sample 0 when the case has none or is a traced process (whose one sample
 * is its whole life, start-up included). 0 or -1 with err. */
static int pick_sample(struct vb_store *s, int64_t case_id, int64_t *sample, int64_t *start,
                       double *e2e, struct vb_err *err)
{
    static const char q[] =
        "SELECT sa.id, sa.start, sa.e2e_ns FROM samples sa JOIN cases c ON c.id = sa.case_id "
        "JOIN runs r ON r.id = c.run_id "
        "WHERE sa.case_id = ? AND r.kind = 'suite' AND sa.kind = 'timed' AND sa.records_kept "
        "AND NOT sa.dropped "
        "AND sa.start IS NOT NULL ORDER BY abs(sa.e2e_ns - IFNULL(c.e2e_median_ns, 0)), sa.idx "
        "LIMIT 1";
    sqlite3_stmt *st = vb_store_stmt(s, q, err);
    int rc;
    *sample = 0;
    if (!st) return -1;
    if (sqlite3_bind_int64(st, 1, case_id)) return vb_store_fail(s, err, "timeline sample");
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        *sample = sqlite3_column_int64(st, 0);
        *start = sqlite3_column_int64(st, 1);
        *e2e = vb_store_col_double(st, 2);
    }
    sqlite3_reset(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : vb_store_fail(s, err, "timeline sample");
}

/* cut_gaps shortens every idle gap of a traced process's records ev[0..n) (in start order)
 * longer than VB_TL_GAP_NS to VB_TL_GAP_SHOWN_NS, moving what follows: a Numba program copies
 * its inputs, compiles for half a second, then launches; on a true axis its kernel and copies
 * are hairlines a second apart. Returns the gaps cut. */
static int cut_gaps(struct vb_tl_event *ev, int n)
{
    double end = -INFINITY, shift = 0, gap;
    int i, cut = 0;
    for (i = 0; i < n; i++) {
        ev[i].start_ns -= shift;
        ev[i].end_ns -= shift;
        if (i && (gap = ev[i].start_ns - end) > VB_TL_GAP_NS) {
            shift += gap - VB_TL_GAP_SHOWN_NS;
            ev[i].start_ns -= gap - VB_TL_GAP_SHOWN_NS;
            ev[i].end_ns -= gap - VB_TL_GAP_SHOWN_NS;
            cut++;
        }
        if (ev[i].end_ns > end) end = ev[i].end_ns;
    }
    return cut;
}

int vb_store_timeline(struct vb_store *s, int64_t case_id, struct vb_tl_event **ev, int *n,
                      double *span_ns, struct vb_err *err)
{
    /* clang-format off */
#define SEL(kind, t) "SELECT " kind ", IFNULL(streamId, 0), start, end, "
    static const char q[] =
        SEL("CASE copyKind WHEN 1 THEN 1 WHEN 2 THEN 2 ELSE 4 END", "m") "bytes "
        "FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE case_id = ?1 AND (?2 = 0 OR sample_id = ?2) "
        "UNION ALL " SEL("0", "k") "0 FROM CUPTI_ACTIVITY_KIND_KERNEL "
        "WHERE case_id = ?1 AND (?2 = 0 OR sample_id = ?2) "
        "UNION ALL " SEL("3", "x") "bytes FROM CUPTI_ACTIVITY_KIND_MEMSET "
        "WHERE case_id = ?1 AND (?2 = 0 OR sample_id = ?2) ORDER BY 3";
#undef SEL
    /* clang-format on */
    sqlite3_stmt *st;
    int64_t sample = 0, start = 0;
    double e2e = NAN, t0, end = 0;
    int i;
    *ev = NULL;
    *n = 0;
    *span_ns = 0;
    if (pick_sample(s, case_id, &sample, &start, &e2e, err)) return -1;
    if (!(st = vb_store_stmt(s, q, err))) return -1;
    if (sqlite3_bind_int64(st, 1, case_id) || sqlite3_bind_int64(st, 2, sample))
        return vb_store_fail(s, err, "timeline records");
    if (vb_store_read_rows(s, st, sizeof **ev, fill_event, (void **)ev, n, err)) return -1;
    if (!sample) cut_gaps(*ev, *n); /* a traced process: its idle gaps cut short */
    /* a sample's clock starts at the sample; a traced process's at its first record */
    t0 = sample ? (double)start : *n ? (*ev)[0].start_ns : 0;
    for (i = 0; i < *n; i++) {
        (*ev)[i].start_ns -= t0;
        (*ev)[i].end_ns -= t0;
        if ((*ev)[i].end_ns > end) end = (*ev)[i].end_ns;
    }
    *span_ns = sample && isfinite(e2e) && e2e > end ? e2e : end;
    return 0;
}
