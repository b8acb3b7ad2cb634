/*
 * glob: the one rule by which a --filter glob selects variants (`run`, `history`): fnmatch on
 * "family/name", and a glob without '/' also on the family alone, so "mesh" is mesh/\*. A
 * header, not a module: the registry and the store (which links into the injection library
 * without the registry) both use it.
 */
#ifndef VB_GLOB_H
#define VB_GLOB_H

#include <fnmatch.h>
#include <string.h>

/* vb_variant_glob: does variant full ("family/name") of family match glob? NULL or "" matches
 * every variant. */
static inline int vb_variant_glob(const char *glob, const char *family, const char *full)
{
    if (!glob || !*glob) return 1;
    if (!strchr(glob, '/') && fnmatch(glob, family, 0) == 0) return 1;
    return fnmatch(glob, full, 0) == 0;
}

#endif
