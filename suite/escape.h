/*
 * escape: writing names taken from a database into HTML/XML and Markdown safely. Every
 * name a report or a JUnit file shows goes through these (a variant or axis could hold '<').
 */
#ifndef VB_ESCAPE_H
#define VB_ESCAPE_H

#include <stdio.h>

/* vb_put_xml writes s with & < > " ' escaped (HTML and XML). */
void vb_put_xml(FILE *f, const char *s);
/* vb_put_md writes s for Markdown text or a table cell: | \ < > * _ ` [ ] escaped, newlines as
 * spaces. */
void vb_put_md(FILE *f, const char *s);

/* vb_put_json writes s as the inside of a JSON string. */
void vb_put_json(FILE *f, const char *s);

#endif
