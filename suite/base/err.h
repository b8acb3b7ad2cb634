/*
 * err: the one error type of varbench. A struct vb_err is filled where a call fails
 * (library, call text, file, line, the library's own error name) and gains context on
 * its way up ("variant 'mesh/host-mesh': cudaMemcpy: out of memory"). Library code never
 * prints or exits; only main() prints the message and its hint and picks the exit code. The
 * type, the exit-code table and the checkers a benchmark uses are public (varbench.h); the rest
 * is here.
 */
#ifndef VB_ERR_H
#define VB_ERR_H

#include <stddef.h>

#include "varbench.h"

/* vb_code_exit returns the process exit status documented for code. */
int vb_code_exit(enum vb_code code);
const char *vb_code_desc(enum vb_code code);

/* vb_err_line writes err as one line into buf (n bytes): "message (hint: hint)", or the message
 * alone without a hint; what a stored reason or a one-line warning holds. */
void vb_err_line(const struct vb_err *err, char *buf, size_t n);

/* CUPTI's checker (the others are public: varbench.h). */
int vb_err_cupti(struct vb_err *err, int rc, const char *call, const char *file, int line);
#define VB_CUPTI(err, call) vb_err_cupti((err), (int)(call), #call, __FILE__, __LINE__)

#endif
