/*
 * fmt: numbers as varbench prints them everywhere (run's table, the report, compare, history,
 * a floor's line): milliseconds at a precision that fits, bytes with thousands separators.
 */
#ifndef VB_FMT_H
#define VB_FMT_H

#include <stddef.h>

/* vb_fmt_ms writes ns as milliseconds with a precision that fits the size ("-" if not finite). */
char *vb_fmt_ms(double ns, char *buf, size_t len);

/* vb_fmt_num writes x with fmt (one double conversion, "%.0f"), or "-" when x is not finite
 * (NaN: not measured); returns buf. */
char *vb_fmt_num(double x, const char *fmt, char *buf, size_t len);

/* vb_fmt_bytes writes n with thousands separators into buf; returns buf. */
char *vb_fmt_bytes(unsigned long long n, char *buf, size_t len);

#endif
