/*
 * page: the report's pages, one per sink (sink.h: index.html, report.md), written side by
 * side. A section states each heading, sentence, table row and figure once; this file formats
 * it once and hands it to every sink, checks the calls' order (no heading inside a table) and
 * collects the section list that `varbench report` prints.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>

#include "report_int.h"

#define TEXT_MAX 4096

static const struct vb_sink *const sinks[VB_PAGE_SINKS] = {&vb_sink_html, &vb_sink_md};

int vb_page_open(struct page *p, const char *dir, struct vb_err *err)
{
    char path[1200];
    int k;
    memset(p, 0, sizeof *p);
    for (k = 0; k < VB_PAGE_SINKS; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, sinks[k]->file);
        if (!(p->f[k] = fopen(path, "w"))) {
            vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
            while (k--) {
                fclose(p->f[k]);
                p->f[k] = NULL;
            }
            return -1;
        }
        sinks[k]->head(p->f[k]);
    }
    return 0;
}

int vb_page_close(struct page *p, const char *dir, int tails, struct vb_err *err)
{
    int k, rc = 0;
    for (k = 0; k < VB_PAGE_SINKS; k++) {
        int bad;
        if (!p->f[k]) continue;
        if (tails) sinks[k]->tail(p->f[k]);
        bad = ferror(p->f[k]);
        bad |= fclose(p->f[k]);
        p->f[k] = NULL;
        if (bad && !rc) rc = vb_err_set(err, VB_E_SYS, "cannot write '%s/%s'", dir, sinks[k]->file);
    }
    return rc;
}

/* The text of a call, formatted once. */
#define FORMAT(s, fmt)                                                                             \
    do {                                                                                           \
        va_list ap;                                                                                \
        va_start(ap, fmt);                                                                         \
        vsnprintf(s, sizeof s, fmt, ap);                                                           \
        va_end(ap);                                                                                \
    } while (0)

void vb_page_section(struct page *p, const char *id, const char *fmt, ...)
{
    char s[TEXT_MAX];
    int k;
    assert(!p->ncols && !p->in_list);
    FORMAT(s, fmt);
    for (k = 0; k < VB_PAGE_SINKS; k++)
        sinks[k]->heading(p->f[k], 2, id, s);
    if (p->nsections < VB_PAGE_SECTIONS)
        snprintf(p->sections[p->nsections++], sizeof p->sections[0], "%s", s);
}

void vb_page_heading(struct page *p, const char *fmt, ...)
{
    char s[TEXT_MAX];
    int k;
    assert(!p->ncols && !p->in_list);
    FORMAT(s, fmt);
    for (k = 0; k < VB_PAGE_SINKS; k++)
        sinks[k]->heading(p->f[k], 3, NULL, s);
}

void vb_page_para(struct page *p, const char *cls, const char *fmt, ...)
{
    char s[TEXT_MAX];
    int k;
    assert(!p->ncols && !p->in_list);
    FORMAT(s, fmt);
    for (k = 0; k < VB_PAGE_SINKS; k++)
        sinks[k]->para(p->f[k], cls, s);
}

void vb_page_item(struct page *p, const char *fmt, ...)
{
    char s[TEXT_MAX];
    int k;
    assert(!p->ncols);
    FORMAT(s, fmt);
    for (k = 0; k < VB_PAGE_SINKS; k++)
        sinks[k]->item(p->f[k], !p->in_list, s);
    p->in_list = 1;
}

void vb_page_list_end(struct page *p)
{
    int k;
    if (!p->in_list) return;
    for (k = 0; k < VB_PAGE_SINKS; k++)
        sinks[k]->list_end(p->f[k]);
    p->in_list = 0;
}

void vb_page_table(struct page *p, int ncols, const char *const *head, const char *align)
{
    int k;
    assert(!p->ncols && !p->in_list && ncols > 0 && strlen(align) == (size_t)ncols);
    p->ncols = ncols;
    for (k = 0; k < VB_PAGE_SINKS; k++)
        sinks[k]->table(p->f[k], ncols, head, align);
}

void vb_page_row(struct page *p, int bad, const char *const *text)
{
    int k;
    assert(p->ncols);
    for (k = 0; k < VB_PAGE_SINKS; k++)
        sinks[k]->row(p->f[k], p->ncols, bad, text);
}

void vb_page_table_end(struct page *p)
{
    int k;
    assert(p->ncols);
    for (k = 0; k < VB_PAGE_SINKS; k++)
        sinks[k]->table_end(p->f[k]);
    p->ncols = 0;
}

void vb_page_figure(struct page *p, const char *id, const char *kind, const char *title)
{
    int k;
    assert(!p->ncols && !p->in_list);
    for (k = 0; k < VB_PAGE_SINKS; k++)
        sinks[k]->figure(p->f[k], id, kind, title);
}

void vb_page_fold(struct page *p, const char *fmt, ...)
{
    char s[TEXT_MAX];
    int k;
    assert(!p->ncols && !p->in_list && !p->folded);
    FORMAT(s, fmt);
    for (k = 0; k < VB_PAGE_SINKS; k++)
        sinks[k]->fold(p->f[k], s);
    p->folded = 1;
}

void vb_page_fold_end(struct page *p)
{
    int k;
    if (p->ncols) vb_page_table_end(p); /* a section that failed mid-table */
    vb_page_list_end(p);
    if (!p->folded) return;
    for (k = 0; k < VB_PAGE_SINKS; k++)
        sinks[k]->fold_end(p->f[k]);
    p->folded = 0;
}
