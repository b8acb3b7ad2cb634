/*
 * escape: writing names taken from a database into HTML/XML and Markdown safely. Every
 * name a report or a JUnit file shows goes through these (a variant or axis could hold '<').
 * And words into a POSIX shell script (the sbatch scripts of `varbench fleet`): a path or an
 * option there is one single-quoted word whatever it holds.
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

/* vb_put_sh writes s as one single-quoted POSIX shell word: 'it'\''s $HOME' keeps every byte,
 * spaces, quotes, '$', '`', backslashes and newlines included ('' for an empty s). A caller that
 * hands the word to something other than sh (Slurm reading a job's files) refuses what that
 * cannot take first (vb_sh_unsafe). */
void vb_put_sh(FILE *f, const char *s);
/* vb_sh_unsafe returns the first control character of s (a newline, a tab, ...) or 0 when it
 * has none: what a word may not hold when it also ends up in a line-based format (Slurm's
 * logs and its squeue/sacct output, a key=value file). */
int vb_sh_unsafe(const char *s);

#endif
