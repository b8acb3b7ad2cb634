/*
 * page: the report's two pages, index.html and report.md, written side by side. A section
 * states each heading, sentence, table row and figure once; this file writes it to both,
 * escaped for each (vb_put_xml, vb_put_md: every name comes from a database and may hold '<'
 * or '|'). The HTML page counts its loaded plots into its title after the load event, which
 * tests/report_check.py reads in a headless browser.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>

#include "escape.h"
#include "report_int.h"

#define TEXT_MAX 4096

static const char css[] =
    "body{font-family:sans-serif;margin:2em;max-width:1100px;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;font-size:13px}"
    "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}"
    "td:first-child,th:first-child{text-align:left}tr.bad td{background:#fde2e2}"
    "img.plot{max-width:100%;border:1px solid #eee}p.run{font-size:13px;color:#555}";

/* The page's count of its loaded plots, in its title and in body's data-plots. */
static const char count_plots[] =
    "<script>window.addEventListener('load',function(){var im=document.querySelectorAll("
    "'img.plot'),ok=0;im.forEach(function(i){if(i.complete&&i.naturalWidth>0)ok++;});"
    "document.title='varbench report: '+ok+'/'+im.length+' plots loaded';"
    "document.body.setAttribute('data-plots',ok+'/'+im.length);});</script>\n";

/* open_one opens dir/name for writing into *f; 0, or -1 with err. */
static int open_one(FILE **f, const char *dir, const char *name, struct vb_err *err)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if ((*f = fopen(path, "w"))) return 0;
    return vb_err_set(err, VB_E_SYS, "cannot write '%s': %s", path, strerror(errno));
}

int vb_page_open(struct page *p, const char *dir, struct vb_err *err)
{
    memset(p, 0, sizeof *p);
    if (open_one(&p->html, dir, "index.html", err)) return -1;
    if (open_one(&p->md, dir, "report.md", err)) {
        fclose(p->html);
        p->html = NULL;
        return -1;
    }
    fprintf(p->html,
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            "<title>varbench report</title><style>%s</style></head><body>\n"
            "<h1>varbench report</h1>\n",
            css);
    fprintf(p->md, "# varbench report\n\n");
    return 0;
}

/* close_one closes *f (when open) after a check of its writes; 0, or -1 with err. */
static int close_one(FILE **f, const char *dir, const char *name, struct vb_err *err)
{
    int bad;
    if (!*f) return 0;
    bad = ferror(*f);
    bad |= fclose(*f);
    *f = NULL;
    return bad ? vb_err_set(err, VB_E_SYS, "cannot write '%s/%s'", dir, name) : 0;
}

int vb_page_close(struct page *p, const char *dir, int tails, struct vb_err *err)
{
    int rc;
    if (tails && p->html) fprintf(p->html, "%s</body></html>\n", count_plots);
    rc = close_one(&p->html, dir, "index.html", err);
    if (close_one(&p->md, dir, "report.md", rc ? NULL : err)) rc = -1;
    return rc;
}

/* both writes s, escaped, to both pages. */
static void both(struct page *p, const char *s)
{
    vb_put_xml(p->html, s);
    vb_put_md(p->md, s);
}

void vb_page_heading(struct page *p, int level, const char *fmt, ...)
{
    char s[TEXT_MAX];
    va_list ap;
    assert(!p->ncols && !p->in_list && (level == 2 || level == 3));
    va_start(ap, fmt);
    vsnprintf(s, sizeof s, fmt, ap);
    va_end(ap);
    fprintf(p->html, "<h%d>", level);
    fprintf(p->md, "%s ", level == 2 ? "##" : "###");
    both(p, s);
    fprintf(p->html, "</h%d>\n", level);
    fprintf(p->md, "\n\n");
}

void vb_page_para(struct page *p, const char *cls, const char *fmt, ...)
{
    char s[TEXT_MAX];
    va_list ap;
    assert(!p->ncols && !p->in_list);
    va_start(ap, fmt);
    vsnprintf(s, sizeof s, fmt, ap);
    va_end(ap);
    if (cls)
        fprintf(p->html, "<p class=\"%s\">", cls);
    else
        fprintf(p->html, "<p>");
    both(p, s);
    fprintf(p->html, "</p>\n");
    fprintf(p->md, "\n\n");
}

void vb_page_item(struct page *p, const char *fmt, ...)
{
    char s[TEXT_MAX];
    va_list ap;
    assert(!p->ncols);
    va_start(ap, fmt);
    vsnprintf(s, sizeof s, fmt, ap);
    va_end(ap);
    if (!p->in_list) fprintf(p->html, "<ul>\n");
    p->in_list = 1;
    fprintf(p->html, "<li>");
    fprintf(p->md, "- ");
    both(p, s);
    fprintf(p->html, "</li>\n");
    fprintf(p->md, "\n");
}

void vb_page_list_end(struct page *p)
{
    if (!p->in_list) return;
    fprintf(p->html, "</ul>\n");
    fprintf(p->md, "\n");
    p->in_list = 0;
}

/* cells writes one row of p->ncols cells: an HTML <tr attrs> of <tag> cells, a Markdown
 * "| a | b |" line. */
static void cells(struct page *p, const char *attrs, const char *tag, const char *const *text)
{
    int k;
    fprintf(p->html, "<tr%s>", attrs);
    fprintf(p->md, "|");
    for (k = 0; k < p->ncols; k++) {
        fprintf(p->html, "<%s>", tag);
        fprintf(p->md, " ");
        both(p, text[k]);
        fprintf(p->html, "</%s>", tag);
        fprintf(p->md, " |");
    }
    fprintf(p->html, "</tr>\n");
    fprintf(p->md, "\n");
}

void vb_page_table(struct page *p, int ncols, const char *const *head, const char *align)
{
    int k;
    assert(!p->ncols && !p->in_list && ncols > 0 && strlen(align) == (size_t)ncols);
    p->ncols = ncols;
    fprintf(p->html, "<table>");
    cells(p, "", "th", head);
    fprintf(p->md, "|");
    for (k = 0; k < ncols; k++)
        fprintf(p->md, " %s |", align[k] == 'r' ? "---:" : "---");
    fprintf(p->md, "\n");
}

void vb_page_row(struct page *p, int bad, const char *const *text)
{
    assert(p->ncols);
    cells(p, bad ? " class=\"bad\"" : "", "td", text);
}

void vb_page_table_end(struct page *p)
{
    assert(p->ncols);
    fprintf(p->html, "</table>\n");
    fprintf(p->md, "\n");
    p->ncols = 0;
}

void vb_page_figure(struct page *p, const char *id, const char *title)
{
    assert(!p->ncols && !p->in_list);
    fprintf(p->html, "<figure><img class=\"plot\" src=\"%s.svg\" alt=\"", id);
    vb_put_xml(p->html, title);
    fprintf(p->html, "\"><figcaption>");
    vb_put_xml(p->html, title);
    fprintf(p->html, "</figcaption></figure>\n");
    fprintf(p->md, "![");
    vb_put_md(p->md, title);
    fprintf(p->md, "](%s.svg)\n\n", id);
}
