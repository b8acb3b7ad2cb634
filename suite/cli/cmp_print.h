/*
 * cmp_print: a comparison's verdicts as people and CI read them, shared by `varbench compare`
 * and `varbench ab`: the table (aligned, or Markdown for a pull-request comment) of one row a
 * case, the phases of the cases that moved, the verdicts' counts; and the JUnit XML file
 * (slower and broken cases fail, noisy and not compared ones are skipped). Each command prints
 * its own title above the table.
 */
#ifndef VB_CMP_PRINT_H
#define VB_CMP_PRINT_H

#include <stdio.h>

#include "code_diff.h"
#include "compare.h"

/* vb_cmp_print_rows prints res's table on stdout (md: Markdown), its column of sample counts
 * headed ncol ("samples", "rounds"), then the phases of the cases that moved, the counts line,
 * and why nothing was compared when nothing was. */
void vb_cmp_print_rows(const struct vb_cmp_result *res, int md, const char *ncol);

/* vb_cmp_print_code prints d as one line on f ("GPU code: unchanged ...", "GPU code: 1 of 7
 * kernels changed: NAME ...", "GPU code: not recorded ..."), nothing for VB_CODE_NONE (md: a
 * Markdown paragraph). */
void vb_cmp_print_code(FILE *f, const struct vb_code_diff *d, int md);

/* vb_cmp_code reads the kernels of run rb of base and rc of cand (vb_store_run_code), diffs them
 * and prints the line (vb_cmp_print_code) on stdout. 0, or -1 with err (the database). */
int vb_cmp_code(struct vb_store *base, int64_t rb, struct vb_store *cand, int64_t rc, int md,
                struct vb_err *err);

/* vb_cmp_write_junit writes res to path as JUnit XML, one test suite named suite. 0, or -1
 * when the file cannot be written. */
int vb_cmp_write_junit(const char *path, const struct vb_cmp_result *res, const char *suite);

#endif
