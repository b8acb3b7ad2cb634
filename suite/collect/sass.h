/*
 * sass: a kernel's machine code identity (issue 43's code identity). A CUDA module's cubin is an
 * ELF64 file in which each kernel's SASS is its own section, ".text.<mangled name>"; the same
 * source compiled the same way gives the same bytes there, and a kernel whose code changed
 * (another launch bound, another constant, another compiler) gives other bytes, while the other
 * kernels of the module keep theirs. vb_sass_each hashes each such section (64-bit FNV-1a), so
 * that two runs can say which kernels' code is unchanged. The cubin is read, never trusted: any
 * offset or size outside it ends the walk with an error, never a read past it. The module
 * comes from CUPTI's module-loaded callback at run time (code_id.c). Workload: a module at load
 * time, a few kernels each.
 */
#ifndef VB_SASS_H
#define VB_SASS_H

#include <stddef.h>
#include <stdint.h>

/* Called once per kernel of the module: its mangled name (not NUL-terminated beyond len: name
 * points into the cubin) and the hash of its code. */
typedef void (*vb_sass_fn)(void *arg, const char *name, size_t len, uint64_t hash);

/* vb_sass_each calls fn for each ".text.<name>" section of the ELF64 cubin[0..size), in section
 * order. Returns how many, or -1 when cubin is no little-endian ELF64 file or a header points
 * outside it (fn may have been called for the sections before). */
int vb_sass_each(const void *cubin, size_t size, vb_sass_fn fn, void *arg);

/* vb_sass_fnv1a: the 64-bit FNV-1a hash of p[0..n); vb_sass_fnv1a_more goes on hashing p[0..n)
 * from h (a hash of what came before, or VB_FNV1A_BASIS: a digest of several pieces). */
#define VB_FNV1A_BASIS 14695981039346656037ull
uint64_t vb_sass_fnv1a(const void *p, size_t n);
uint64_t vb_sass_fnv1a_more(uint64_t h, const void *p, size_t n);

#endif
