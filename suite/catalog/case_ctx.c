/* case_ctx: the hooks' summaries and skips of the current case (see case_ctx.h). */
#include "case_ctx.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local struct vb_case_said said;
static _Thread_local int ctx_open;

void vb_case_ctx_open(void)
{
    memset(&said, 0, sizeof said);
    ctx_open = 1;
}

void vb_case_ctx_take(struct vb_case_said *out)
{
    *out = said;
    memset(&said, 0, sizeof said);
    ctx_open = 0;
}

/* misuse keeps the first misuse of the case (the runner fails the case with it) */
static void misuse(const char *fmt, const char *name)
{
    if (!said.misuse[0]) snprintf(said.misuse, sizeof said.misuse, fmt, name);
}

void vb_summary(const char *name, double value, const char *unit)
{
    size_t len = name ? strlen(name) : 0;
    int i;
    if (!ctx_open) return; /* outside a case (a test's own call): nothing to store it with */
    /* a name the slot cannot hold; what a name may be is the store's rule, which the runner
     * applies to every name kept (vb_store_summary_name_ok) */
    if (!len || len >= VB_SUMMARY_NAME_MAX) {
        misuse("vb_summary: bad name '%.80s' (1 to 63 characters)", name ? name : "(null)");
        return;
    }
    for (i = 0; i < said.nsummaries && strcmp(said.summaries[i].name, name); i++) {
    }
    if (i == VB_MAX_SUMMARIES) {
        misuse("vb_summary: more than 16 summaries (at '%.80s')", name);
        return;
    }
    if (i == said.nsummaries) said.nsummaries++;
    snprintf(said.summaries[i].name, sizeof said.summaries[i].name, "%s", name);
    snprintf(said.summaries[i].unit, sizeof said.summaries[i].unit, "%s", unit ? unit : "");
    said.summaries[i].value = value;
}

int vb_skip(struct vb_err *err, const char *fmt, ...)
{
    va_list ap;
    char msg[sizeof err->msg];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    said.skipped = 1;
    return vb_err_set(err, VB_E_USAGE, "%s", msg);
}
