/*
 * code_id: the SASS hash of every kernel of every CUDA module this process loads (issue 43's
 * code identity), from CUPTI's module-loaded callback: each module's cubin is walked by sass.c
 * (a hash a ".text.<mangled name>" section) while CUPTI holds it. The run stores the table
 * with the run (store.h's vb_store_kernel_code), and compare and ab say from two runs' tables
 * whether the compared cases' GPU code is unchanged, or which kernels changed. A module that is
 * no ELF cubin (PTX the driver compiles at load time is given as the compiled cubin; anything
 * else) adds nothing and is counted. Workload: a module at load time, on the loading thread.
 */
#ifndef VB_CODE_ID_H
#define VB_CODE_ID_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"

/* One kernel's code: its mangled name and the FNV-1a hash of its SASS. */
struct vb_code_entry {
    char *name;
    uint64_t hash;
};

/* vb_code_id_start hooks module loading (CUPTI's resource callback); modules loaded before it
 * are not seen (call it before the first kernel of a case runs). 0, or -1 with err (CUPTI's
 * subscriber held by another tool: no code identity, the run goes on). */
int vb_code_id_start(struct vb_err *err);

/* vb_code_id_module adds the kernels of one module's cubin (what the hook does with each module
 * CUPTI loads; a kernel seen before with the same hash is kept once). This can't fail: a cubin
 * that is no ELF file counts as unreadable, memory running out loses entries (vb_code_id_lost). */
void vb_code_id_module(const void *cubin, size_t size);

/* vb_code_id_since copies the entries from the from-th on (in load order) into a malloc'd
 * array the caller frees with vb_code_id_free; *n their count, *next what to pass next time.
 * A kernel whose name was seen before with the same hash is listed once. 0, or -1 when out of
 * memory for the copy (nothing is then taken: the next call lists them again). */
int vb_code_id_since(size_t from, struct vb_code_entry **out, size_t *n, size_t *next);
void vb_code_id_free(struct vb_code_entry *e, size_t n);

/* vb_code_id_lost: 1 when memory ran out and some kernel's entry was lost (its hash then reads
 * as not recorded). */
int vb_code_id_lost(void);
/* vb_code_id_unreadable: modules whose cubin could not be walked, so far. */
int vb_code_id_unreadable(void);

#endif
