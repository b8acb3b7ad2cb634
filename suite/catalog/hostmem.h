/*
 * hostmem: the page-locked host buffers of the variants' pinned rungs, in one place so that a
 * run can be told to make them pageable instead: VARBENCH_TEST_PAGEABLE=1 in the environment
 * turns every vb_pinned_alloc into malloc (read once per process). It is the regression the
 * history and compare gates must catch (a pinned rung that silently lost its page-locked
 * buffers), injected into real runs without changing the code under test; `run` prints a
 * warning and writes it into the run's options line.
 */
#ifndef VB_HOSTMEM_H
#define VB_HOSTMEM_H

#include <stddef.h>

#include "err.h"

/* vb_pinned_pageable: 1 when VARBENCH_TEST_PAGEABLE=1 is set (pinned buffers are pageable). */
int vb_pinned_pageable(void);
/* vb_pinned_alloc allocates bytes of page-locked host memory (pageable under the test switch)
 * into *p; 0, or -1 with err (*p NULL). */
int vb_pinned_alloc(void **p, size_t bytes, struct vb_err *err);
/* vb_pinned_free frees what vb_pinned_alloc returned (NULL allowed). */
void vb_pinned_free(void *p);

/* vb_mapped_alloc allocates bytes of page-locked host memory mapped into the current device's
 * address space into *p, and its device pointer into *dev: a kernel reads and writes it over
 * PCIe, with no copy (a zero-copy rung). Page-locked whatever the test switch says: such a
 * kernel cannot reach pageable memory. 0, or -1 with err (*p, *dev NULL). Free with
 * vb_mapped_free (NULL allowed). */
int vb_mapped_alloc(void **p, void **dev, size_t bytes, struct vb_err *err);
void vb_mapped_free(void *p);

#endif
