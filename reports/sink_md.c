/* sink_md: report.md, GitHub-flavoured Markdown. Every text goes through vb_put_md. */
#include "escape.h"
#include "sink.h"

static void head(FILE *f)
{
    fprintf(f, "# varbench report\n\n");
}

static void tail(FILE *f)
{
    (void)f;
}

static void heading(FILE *f, int level, const char *id, const char *text)
{
    (void)id; /* GitHub derives anchors from the text */
    fprintf(f, "%s ", level == 2 ? "##" : "###");
    vb_put_md(f, text);
    fprintf(f, "\n\n");
}

static void para(FILE *f, const char *cls, const char *text)
{
    (void)cls;
    vb_put_md(f, text);
    fprintf(f, "\n\n");
}

static void item(FILE *f, int first, const char *text)
{
    (void)first;
    fprintf(f, "- ");
    vb_put_md(f, text);
    fprintf(f, "\n");
}

static void list_end(FILE *f)
{
    fprintf(f, "\n");
}

static void row(FILE *f, int ncols, int bad, const char *const *text)
{
    int k;
    (void)bad; /* the status column says it */
    fprintf(f, "|");
    for (k = 0; k < ncols; k++) {
        fprintf(f, " ");
        vb_put_md(f, text[k]);
        fprintf(f, " |");
    }
    fprintf(f, "\n");
}

static void table(FILE *f, int ncols, const char *const *head_, const char *align)
{
    int k;
    row(f, ncols, 0, head_);
    fprintf(f, "|");
    for (k = 0; k < ncols; k++)
        fprintf(f, " %s |", align[k] == 'r' ? "---:" : "---");
    fprintf(f, "\n");
}

static void table_end(FILE *f)
{
    fprintf(f, "\n");
}

static void figure(FILE *f, const char *id, const char *kind, const char *title)
{
    (void)kind;
    fprintf(f, "![");
    vb_put_md(f, title);
    fprintf(f, "](%s.svg)\n\n", id);
}

static void fold(FILE *f, const char *summary)
{
    vb_put_md(f, summary);
    fprintf(f, "\n\n");
}

static void fold_end(FILE *f)
{
    (void)f;
}

const struct vb_sink vb_sink_md = {"report.md", head, tail,      heading, para, item,    list_end,
                                   table,       row,  table_end, figure,  fold, fold_end};
