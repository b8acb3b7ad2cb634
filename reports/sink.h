/*
 * sink: one output format of the report (nvbench's printer pattern). page.c formats each
 * heading, sentence, list item, table row and figure once and hands it to every sink; a sink
 * only writes it in its format, escaped for it (vb_put_xml, vb_put_md: every name comes from a
 * database). Two sinks exist: sink_html.c (index.html) and sink_md.c (report.md). A new format
 * is a new struct vb_sink and one line in page.c's list.
 */
#ifndef VB_SINK_H
#define VB_SINK_H

#include <stdio.h>

struct vb_sink {
    const char *file; /* the page's name in the report folder: "index.html" */
    /* head and tail open and close the page; tail only after a complete report */
    void (*head)(FILE *f);
    void (*tail)(FILE *f);
    /* heading: level 2 or 3; id (level 2, [a-z0-9-], may be NULL) is its anchor */
    void (*heading)(FILE *f, int level, const char *id, const char *text);
    void (*para)(FILE *f, const char *cls, const char *text); /* cls: an HTML class or NULL */
    void (*item)(FILE *f, int first, const char *text);       /* first: opens the list */
    void (*list_end)(FILE *f);
    /* table: ncols columns, align[k] 'l' or 'r'; row: bad marks a wrong result */
    void (*table)(FILE *f, int ncols, const char *const *head, const char *align);
    void (*row)(FILE *f, int ncols, int bad, const char *const *cells);
    void (*table_end)(FILE *f);
    /* figure: id.svg, its kind (ladder, timeline, ...) and its title */
    void (*figure)(FILE *f, const char *id, const char *kind, const char *title);
    /* fold: what follows, until fold_end, is shown on demand behind summary (HTML's <details>);
     * a format that cannot fold writes it in place, summary included */
    void (*fold)(FILE *f, const char *summary);
    void (*fold_end)(FILE *f);
};

extern const struct vb_sink vb_sink_html, vb_sink_md;

#endif
