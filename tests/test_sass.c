/* Tests of suite/collect/sass.c: each kernel's code hashed from a cubin. tests/sass/a.cu and
 * b.cu differ in one kernel (shift); the build compiles both for sm_90 (nvcc -cubin) into
 * VB_SASS_DIR. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sass.h"
#include "test.h"
#include "tests.h"

struct kernels {
    char name[8][64];
    uint64_t hash[8];
    int n;
};

static void take(void *arg, const char *name, size_t len, uint64_t hash)
{
    struct kernels *k = arg;
    if (k->n < 8 && len < sizeof k->name[0]) {
        memcpy(k->name[k->n], name, len);
        k->name[k->n][len] = '\0';
        k->hash[k->n++] = hash;
    }
}

static uint64_t hash_of(const struct kernels *k, const char *name)
{
    int i;
    for (i = 0; i < k->n; i++)
        if (!strcmp(k->name[i], name)) return k->hash[i];
    return 0;
}

/* slurp reads a file whole; NULL when it cannot */
static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *b = NULL;
    long n;
    if (!f) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (b = malloc((size_t)n)) && fread(b, 1, (size_t)n, f) == (size_t)n)
        *size = (size_t)n;
    else {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

int test_sass(const char *arg)
{
    struct kernels a = {0}, b = {0}, cut = {0};
    size_t na = 0, nb = 0;
    unsigned char *ca = slurp(VB_SASS_DIR "/a.cubin", &na),
                  *cb = slurp(VB_SASS_DIR "/b.cubin", &nb);
    size_t i;
    (void)arg;
    ASSERT(ca && cb);
    /* three kernels each, named as the launch records name them (mangled, or extern "C") */
    ASSERT_INT_EQ(vb_sass_each(ca, na, take, &a), 3);
    ASSERT_INT_EQ(vb_sass_each(cb, nb, take, &b), 3);
    ASSERT(hash_of(&a, "scale") && hash_of(&a, "shift") && hash_of(&a, "_Z5twiceIfEvPT_"));
    /* the unchanged kernels keep their hash; the changed one does not */
    ASSERT(hash_of(&a, "scale") == hash_of(&b, "scale"));
    ASSERT(hash_of(&a, "_Z5twiceIfEvPT_") == hash_of(&b, "_Z5twiceIfEvPT_"));
    ASSERT(hash_of(&a, "shift") != hash_of(&b, "shift"));
    /* not a cubin, or one cut short anywhere: -1, never a read past its end (ASan's build) */
    ASSERT_INT_EQ(
        vb_sass_each("not an ELF file at all, but long enough for a header......", 60, take, &cut),
        -1);
    ASSERT_INT_EQ(vb_sass_each(NULL, 0, take, &cut), -1);
    for (i = 1; i < na; i += 97) {
        unsigned char *part = malloc(i);
        int n;
        ASSERT(part);
        memcpy(part, ca, i);
        cut.n = 0;
        n = vb_sass_each(part, i, take, &cut);
        free(part);
        ASSERT(n <= 3);
    }
    /* FNV-1a's published vectors: "" and "a" */
    ASSERT(vb_sass_fnv1a("", 0) == 0xcbf29ce484222325ull);
    ASSERT(vb_sass_fnv1a("a", 1) == 0xaf63dc4c8601ec8cull);
    free(ca);
    free(cb);
    return 0;
}
