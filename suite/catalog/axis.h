/*
 * axis: one axis's values (varbench.h's struct vb_axis) as text and back. The one grammar of a
 * declared spec and of `--axis name=...`: values separated by commas, each a label (a string
 * axis), an integer ("4000", "1e7", "2^20"), a float (a float axis), or a range: "LO:HI[:STEP]"
 * (integers, inclusive), "2^A:2^B[:STEP]" (powers of two, STEP over the exponent), "LO:HI:STEP"
 * (a float axis). A float axis's double is held in the point's long, bit for bit.
 */
#ifndef VB_AXIS_H
#define VB_AXIS_H

#include <stddef.h>

#include "err.h"
#include "varbench.h"

/* vb_axis_parse reads text into out[0..cap) as values of x, checked against x's range and for
 * repeats. Returns how many, or -1 (VB_E_USAGE) naming the axis and the bad part. */
int vb_axis_parse(const struct vb_axis *x, const char *text, long *out, int cap,
                  struct vb_err *err);

/* vb_axis_defaults writes x's declared values (its list, or its spec parsed) into out[0..cap).
 * Returns how many, or -1 (VB_E_USAGE). */
int vb_axis_defaults(const struct vb_axis *x, long *out, int cap, struct vb_err *err);

/* vb_axis_in_range: may x take v? (int and string axes: [min, max], or >= 0 when unbounded; a
 * float axis: a finite double in [fmin, fmax], any when both are 0) */
int vb_axis_in_range(const struct vb_axis *x, long v);
/* vb_axis_unbounded: x declares no range (min = max = 0 without labels; fmin = fmax = 0) */
int vb_axis_unbounded(const struct vb_axis *x);

/* vb_axis_value_name writes axis x's value v ("4000", a label, or a float's shortest exact
 * text) into buf; returns buf. */
char *vb_axis_value_name(const struct vb_axis *x, long v, char *buf, size_t n);

/* A float axis's value and its long, bit for bit. */
long vb_axis_pack(double d);
double vb_axis_unpack(long v);

#endif
