/*
 * table: the results table `varbench run` prints, one row per case as it finishes, in
 * units a reader of nvprof's tables expects (bytes with separators, milliseconds).
 */
#ifndef VB_TABLE_H
#define VB_TABLE_H

#include <stdio.h>

#include "ceilings.h"
#include "env.h"
#include "result.h"

void vb_table_header(FILE *out);
void vb_table_row(FILE *out, const struct vb_case_result *r);
void vb_table_gpu(FILE *out, const struct vb_gpu_env *g, const struct vb_ceiling c[VB_CEIL_COUNT]);

/* vb_fmt_ms writes ns as milliseconds with a precision that fits the size ("-" if not finite). */
char *vb_fmt_ms(double ns, char *buf, size_t len);

/* vb_fmt_bytes writes n with thousands separators into buf; returns buf. */
char *vb_fmt_bytes(unsigned long long n, char *buf, size_t len);

#endif
