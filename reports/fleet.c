/*
 * fleet: the Fleet section of a report written by `varbench fleet merge`: the array's tasks as
 * fleet_tasks.c judged them (the merge job hands them over in vb_report_opts; see
 * cmd_fleet_merge.c for why they are not in the database), so a reader of the report sees
 * which nodes' runs it holds and which tasks are missing or failed, and why.
 */
#include "fleet_tasks.h"
#include "report_int.h"

void vb_section_fleet(struct ctx *c, const struct vb_fleet_task *t, int n)
{
    static const char *const head[] = {"task", "host", "Slurm", "run", "cases", "database"};
    char idx[16], cases[16];
    const char *row[6] = {idx, NULL, NULL, NULL, cases, NULL};
    int i, counts[4] = {0, 0, 0, 0};
    for (i = 0; i < n; i++)
        counts[t[i].verdict]++;
    vb_page_section(&c->page, "fleet", "Fleet: %d task%s", n, n == 1 ? "" : "s");
    vb_page_para(&c->page, counts[0] == n ? NULL : "bad",
                 "%d complete, %d running, %d missing, %d failed. A task's run counts only when "
                 "its own database says it is complete; the report below holds the runs "
                 "merged into fleet.db.",
                 counts[0], counts[1], counts[2], counts[3]);
    vb_page_table(&c->page, 6, head, "llllrl");
    for (i = 0; i < n; i++) {
        snprintf(idx, sizeof idx, "%d", t[i].index);
        snprintf(cases, sizeof cases, "%d", t[i].cases);
        row[1] = t[i].host[0] ? t[i].host : "-";
        row[2] = t[i].slurm.state[0] ? t[i].slurm.state : "-";
        row[3] = t[i].run[0] ? t[i].run : "-";
        row[5] = t[i].db[0] ? t[i].db : "-";
        vb_page_row(&c->page, t[i].verdict != VB_FLEET_COMPLETE, row);
    }
    vb_page_table_end(&c->page);
    for (i = 0; i < n; i++)
        if (t[i].verdict != VB_FLEET_COMPLETE)
            vb_page_item(&c->page, "%s: task %d (%s)", vb_fleet_verdict_name(t[i].verdict),
                         t[i].index, t[i].why);
    vb_page_list_end(&c->page);
}
