/*
 * escape: writing names taken from a database into HTML/XML and Markdown safely. Every
 * name a report or a JUnit file shows goes through these (a variant or axis could hold '<').
 * And words into a POSIX shell script (the sbatch scripts of `varbench fleet`): a path or an
 * option there is one single-quoted word whatever it holds. And names into a terminal or a line of
 * text (an aligned table, a CSV row, an "==...==" line): a database can be merged or shared, so a
 * stored name may hold ESC ]0; (a window title), ESC [31m (colours) or a newline (a line a
 * line-by-line parser then misreads); every table printed to a terminal shows its names through
 * vb_put_term or vb_term_str.
 */
#ifndef VB_ESCAPE_H
#define VB_ESCAPE_H

#include <stdio.h>

/* vb_put_xml writes s with & < > " ' escaped (HTML and XML); a C0 control other than tab and
 * newlines, and DEL, as the text \xHH (XML 1.0 cannot hold them at all). */
void vb_put_xml(FILE *f, const char *s);
/* vb_put_md writes s for Markdown text or a table cell: | \ < > * _ ` [ ] escaped, newlines as
 * spaces, other control characters shown as vb_put_term shows them (\t, \x1b). */
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

/* vb_put_term writes s for a terminal or one line of text: its control characters shown, never
 * sent. A newline, carriage return and tab as \n, \r and \t; every other C0 byte, DEL and each
 * byte of a C1 control (U+0080 to U+009F in UTF-8, or a lone byte 0x80 to 0x9f, which an 8-bit
 * terminal takes for one: 0x9b is CSI) as \xHH (ESC: \x1b). Every other byte as it is, valid
 * UTF-8 and backslashes included, so an ordinary name prints byte for byte as before: what it
 * writes is for reading, not for parsing back. NULL writes nothing. */
void vb_put_term(FILE *f, const char *s);
/* vb_term_len returns how many bytes vb_put_term writes for s (a column's width). */
size_t vb_term_len(const char *s);
/* vb_term_str writes what vb_put_term would into buf (n bytes, n > 0), cut where it does not
 * fit at the last whole character or escape (never half an escape), NUL-terminated; returns buf.
 * A buffer of 4 x strlen(s) + 1 bytes always holds all of it. */
char *vb_term_str(const char *s, char *buf, size_t n);
/* vb_put_term_csv writes s as one quoted CSV field (RFC 4180: its quotes doubled) shown as
 * vb_put_term shows it: a field that never spans two lines, for nvprof --csv's readers, who drop
 * the "==" lines and parse the rest line by line. */
void vb_put_term_csv(FILE *f, const char *s);

#endif
