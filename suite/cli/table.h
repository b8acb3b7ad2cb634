/*
 * table: the results table `varbench run` prints, one row per case as it finishes, in
 * units a reader of nvprof's tables expects (bytes with separators, milliseconds).
 */
#ifndef VB_TABLE_H
#define VB_TABLE_H

#include <stdio.h>

#include "ceilings.h"
#include "env.h"
#include "fmt.h"
#include "result.h"

void vb_table_header(FILE *out);
void vb_table_row(FILE *out, const struct vb_case_result *r);
/* vb_table_ledger prints a GPU case's ledger line (ledger.h): energy over the timed samples, a
 * sample's and an element's where measured (else why not), the power read, the hottest
 * temperature, NVML's clocks, the power limit, the clock-event reasons and the other processes
 * on the board. Nothing for a CPU case, or where NVML is missing (the run said so once). */
void vb_table_ledger(FILE *out, const struct vb_case_result *r);
void vb_table_gpu(FILE *out, const struct vb_gpu_env *g, const struct vb_ceiling c[VB_CEIL_COUNT]);

#endif
