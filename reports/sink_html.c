/*
 * sink_html: index.html. Every text goes through vb_put_xml. The page counts its loaded plots
 * into its title after the load event, which tests/report_check.py reads in a headless
 * browser; each figure carries its kind (data-kind) for that check.
 */
#include "escape.h"
#include "sink.h"

static const char css[] =
    "body{font-family:sans-serif;margin:2em;max-width:1200px;color:#222}"
    "table{border-collapse:collapse;margin:1em 0;font-size:13px}"
    "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}"
    "td:first-child,th:first-child{text-align:left}tr.bad td{background:#fde2e2}"
    "img.plot{max-width:100%;border:1px solid #eee}p.run{font-size:13px;color:#555}"
    "p.note{color:#8a5a00}";

/* The page's count of its loaded plots, in its title and in body's data-plots. */
static const char count_plots[] =
    "<script>window.addEventListener('load',function(){var im=document.querySelectorAll("
    "'img.plot'),ok=0;im.forEach(function(i){if(i.complete&&i.naturalWidth>0)ok++;});"
    "document.title='varbench report: '+ok+'/'+im.length+' plots loaded';"
    "document.body.setAttribute('data-plots',ok+'/'+im.length);});</script>\n";

static void head(FILE *f)
{
    fprintf(f,
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            "<title>varbench report</title><style>%s</style></head><body>\n"
            "<h1>varbench report</h1>\n",
            css);
}

static void tail(FILE *f)
{
    fprintf(f, "%s</body></html>\n", count_plots);
}

static void heading(FILE *f, int level, const char *id, const char *text)
{
    if (id)
        fprintf(f, "<h%d id=\"%s\">", level, id);
    else
        fprintf(f, "<h%d>", level);
    vb_put_xml(f, text);
    fprintf(f, "</h%d>\n", level);
}

static void para(FILE *f, const char *cls, const char *text)
{
    if (cls)
        fprintf(f, "<p class=\"%s\">", cls);
    else
        fprintf(f, "<p>");
    vb_put_xml(f, text);
    fprintf(f, "</p>\n");
}

static void item(FILE *f, int first, const char *text)
{
    if (first) fprintf(f, "<ul>\n");
    fprintf(f, "<li>");
    vb_put_xml(f, text);
    fprintf(f, "</li>\n");
}

static void list_end(FILE *f)
{
    fprintf(f, "</ul>\n");
}

/* cells writes one <tr attrs> of ncols <tag> cells. */
static void cells(FILE *f, int ncols, const char *attrs, const char *tag, const char *const *text)
{
    int k;
    fprintf(f, "<tr%s>", attrs);
    for (k = 0; k < ncols; k++) {
        fprintf(f, "<%s>", tag);
        vb_put_xml(f, text[k]);
        fprintf(f, "</%s>", tag);
    }
    fprintf(f, "</tr>\n");
}

static void table(FILE *f, int ncols, const char *const *head_, const char *align)
{
    (void)align; /* the style sheet aligns */
    fprintf(f, "<table>");
    cells(f, ncols, "", "th", head_);
}

static void row(FILE *f, int ncols, int bad, const char *const *text)
{
    cells(f, ncols, bad ? " class=\"bad\"" : "", "td", text);
}

static void table_end(FILE *f)
{
    fprintf(f, "</table>\n");
}

static void figure(FILE *f, const char *id, const char *kind, const char *title)
{
    fprintf(f, "<figure class=\"plot\" data-kind=\"%s\"><img class=\"plot\" src=\"%s.svg\" alt=\"",
            kind, id);
    vb_put_xml(f, title);
    fprintf(f, "\"><figcaption>");
    vb_put_xml(f, title);
    fprintf(f, "</figcaption></figure>\n");
}

static void fold(FILE *f, const char *summary)
{
    fprintf(f, "<details><summary>");
    vb_put_xml(f, summary);
    fprintf(f, "</summary>\n");
}

static void fold_end(FILE *f)
{
    fprintf(f, "</details>\n");
}

const struct vb_sink vb_sink_html = {"index.html", head,     tail,    heading, para,
                                     item,         list_end, table,   row,     table_end,
                                     figure,       fold,     fold_end};
