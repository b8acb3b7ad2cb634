/*
 * suggest: "did you mean" for a mistyped name, as git and perf answer one (git's help.c): the
 * candidates nearest the word by edit distance (insertions, deletions, substitutions and
 * swaps of two neighbours count one each: "rnu" is one from "run"), or that contain it ("size"
 * is in "model_size"). Used for commands, options, --filter values and axis names.
 * Workload: a few hundred candidates once, on an error path.
 */
#ifndef VB_SUGGEST_H
#define VB_SUGGEST_H

#include <stddef.h>

/* vb_suggest writes into out (size n) the hint for word among cands[0..ncands): "did you mean
 * 'run'?", "did you mean one of 'a', 'b', 'c'?" (the nearest, at most three, in the candidates'
 * order), or "" when none is near enough: within a third of the word's length (at least one
 * edit), or containing it (a word of 3 or more characters). Returns out. */
const char *vb_suggest(const char *word, const char *const *cands, size_t ncands, char *out,
                       size_t n);

/* vb_edit_distance: the optimal-string-alignment distance between a and b (each edit and each
 * swap of neighbours counts one); strings longer than 127 characters count as far apart. */
int vb_edit_distance(const char *a, const char *b);

#endif
