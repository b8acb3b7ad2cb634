/*
 * nvprof_flags: nvprof's command line, for people who arrive at `varbench trace` with
 * nvprof's flags in their fingers (nvprof refuses GPUs of compute capability 8.0 and up). One
 * table lists every nvprof flag: the ones varbench trace takes under the same name, the ones it
 * accepts because they describe what it always does, and the ones it refuses with the nearest
 * equivalent. The table gives both the option rows that answer the refused flags (opt.h) and
 * the mapping printed by `varbench trace --help`, so the two cannot disagree.
 */
#ifndef VB_NVPROF_FLAGS_H
#define VB_NVPROF_FLAGS_H

#include <stddef.h>

#include "opt.h"

/* VB_NVPROF_ROWS: how many option rows vb_nvprof_rows may write */
#define VB_NVPROF_ROWS 48

/* vb_nvprof_rows writes the option rows of the nvprof flags varbench trace refuses or accepts
 * without effect (hidden from the option list: the mapping table shows them) into rows, at most
 * cap; returns how many. A refused flag's row fails the parse with "nvprof's --FLAG is not
 * supported: ..." and a hint naming the nearest equivalent. */
size_t vb_nvprof_rows(struct vb_opt *rows, size_t cap);

/* vb_nvprof_table writes the mapping table (nvprof flag -> varbench) for trace --help. Returns
 * buf. */
char *vb_nvprof_table(char *buf, size_t n);

#endif
