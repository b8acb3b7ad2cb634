/*
 * axes: the --axis name=v1,v2,... overrides of `varbench run`, and the expansion of a
 * problem's axes (defaults or overrides, cartesian product, zipped "same_as" axes) into
 * the points its cases run at. Values are written in axis.h's grammar (integers as 4000, 1e7
 * or 2^20, ranges LO:HI[:STEP] and 2^A:2^B, floats, labels); they are checked against the axis
 * they name at expansion.
 */
#ifndef VB_AXES_H
#define VB_AXES_H

#include "registry.h"

#define VB_MAX_OVERRIDES 16
#define VB_AXIS_TOKEN    48

struct vb_axis_override {
    char name[64];
    char tok[VB_MAX_AXIS_VALUES][VB_AXIS_TOKEN]; /* the values as written */
    int n;
    int used; /* set by vb_axes_expand when some problem has this axis */
};

struct vb_overrides {
    struct vb_axis_override o[VB_MAX_OVERRIDES];
    int n;
};

/* vb_axes_parse adds one "name=v1,v2" argument to ov. Returns 0, or -1 (VB_E_USAGE) naming the
 * bad part; a name given twice is refused (it would silently drop the first values). */
int vb_axes_parse(struct vb_overrides *ov, const char *arg, struct vb_err *err);

/* vb_axes_expand fills pts (caller-owned, capacity cap) with the points of problem pb of family
 * f (f names the family in messages), each point's problem set to pb. Override values are read
 * for the axis (vb_axis_parse), checked against its range, and refused when one value comes
 * twice ("100,1e2": two identical cases). Returns the number of points, or -1
 * (VB_E_USAGE). */
int vb_axes_expand(const struct vb_family *f, const struct vb_problem *pb, struct vb_overrides *ov,
                   struct vb_point *pts, int cap, struct vb_err *err);

#endif
