/* Tests of suite/collect/sass.c: each kernel's code hashed from a cubin; and of
 * suite/judge/code_diff.c and compare's line of it, on those hashes. tests/sass/a.cu and
 * b.cu differ in one kernel (shift); the build compiles both for sm_90 (nvcc -cubin) into
 * VB_SASS_DIR. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmp_print.h"
#include "code_diff.h"
#include "code_id.h"
#include "fixtures.h"
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
    ASSERT(vb_sass_fnv1a_more(vb_sass_fnv1a("a", 1), "b", 1) == vb_sass_fnv1a("ab", 2));
    free(ca);
    free(cb);
    return 0;
}

/* as_run: k's kernels as vb_store_run_code gives a run's (name order), leaving out skip */
static int as_run(const struct kernels *k, const char *skip, struct vb_run_kernel *out)
{
    int i, j, n = 0;
    for (i = 0; i < k->n; i++) {
        if (skip && !strcmp(k->name[i], skip)) continue;
        snprintf(out[n].name, sizeof out[n].name, "%s", k->name[i]);
        out[n].hash = k->hash[i];
        out[n++].known = 1;
    }
    for (i = 1; i < n; i++) /* insertion sort by name */
        for (j = i; j > 0 && strcmp(out[j - 1].name, out[j].name) > 0; j--) {
            struct vb_run_kernel t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* printed: vb_cmp_print_code's line of d, into buf */
static const char *printed(const struct vb_code_diff *d, char *buf, size_t n)
{
    FILE *f = tmpfile();
    buf[0] = '\0';
    if (!f) return buf;
    vb_cmp_print_code(f, d, 0);
    return fx_read_back(f, buf, n);
}

/* Two builds of one module (a.cubin, b.cubin: shift changed) as two runs' kernels: unchanged
 * against itself, one of three changed against the other, named; a run without code, or
 * without kernels; a kernel one run launched alone. */
int test_code_diff(const char *arg)
{
    struct kernels a = {0}, b = {0};
    struct vb_run_kernel ra[8], rb[8];
    struct vb_code_diff d;
    size_t na = 0, nb = 0;
    unsigned char *ca = slurp(VB_SASS_DIR "/a.cubin", &na),
                  *cb = slurp(VB_SASS_DIR "/b.cubin", &nb);
    char line[512];
    int n1, n2;
    (void)arg;
    ASSERT(ca && cb);
    ASSERT_INT_EQ(vb_sass_each(ca, na, take, &a), 3);
    ASSERT_INT_EQ(vb_sass_each(cb, nb, take, &b), 3);
    free(ca);
    free(cb);
    n1 = as_run(&a, NULL, ra);
    n2 = as_run(&b, NULL, rb);
    vb_code_diff(ra, n1, 1, ra, n1, 1, &d);
    ASSERT_INT_EQ(d.state, VB_CODE_SAME);
    ASSERT_INT_EQ(d.kernels, 3);
    ASSERT(
        strstr(printed(&d, line, sizeof line),
               "GPU code: unchanged: each of the 3 kernels both runs launched has the same SASS"));
    vb_code_diff(ra, n1, 1, rb, n2, 1, &d);
    ASSERT_INT_EQ(d.state, VB_CODE_CHANGED);
    ASSERT_INT_EQ(d.changed, 1);
    ASSERT_STR_EQ(d.name[0], "shift");
    ASSERT(d.from[0] == hash_of(&a, "shift") && d.to[0] == hash_of(&b, "shift"));
    ASSERT(
        strstr(printed(&d, line, sizeof line), "GPU code: 1 of 3 kernels changed: shift (SASS "));
    /* the demangled name of a C++ kernel */
    n2 = as_run(&b, "shift", rb);
    rb[0].hash ^= 1;
    vb_code_diff(ra, n1, 1, rb, n2, 1, &d);
    ASSERT_INT_EQ(d.changed, 1);
    ASSERT_INT_EQ(d.only_base, 1);
    ASSERT(strstr(printed(&d, line, sizeof line), "twice<float>(float*) (SASS "));
    ASSERT(strstr(line, "launched by one run only: 1 by the base, 0 by the candidate"));
    vb_code_diff(ra, n1, 0, ra, n1, 1, &d);
    ASSERT_INT_EQ(d.state, VB_CODE_UNRECORDED);
    ASSERT(strstr(printed(&d, line, sizeof line), "GPU code: not recorded in the base run"));
    ra[1].known = 0;
    vb_code_diff(ra, n1, 1, ra, n1, 1, &d);
    ASSERT_INT_EQ(d.state, VB_CODE_SAME);
    ASSERT_INT_EQ(d.unknown, 1);
    vb_code_diff(ra, 1, 1, ra + 2, 1, 1, &d); /* no kernel launched by both */
    ASSERT_INT_EQ(d.state, VB_CODE_UNKNOWN);
    ASSERT(strstr(printed(&d, line, sizeof line),
                  "GPU code: unknown: no kernel both runs launched has one hash on both sides"));
    vb_code_diff(NULL, 0, 1, NULL, 0, 1, &d);
    ASSERT_INT_EQ(d.state, VB_CODE_NONE);
    ASSERT_STR_EQ(printed(&d, line, sizeof line), "");
    return 0;
}

/* The module hook's table (code_id.c) from the two cubins: a's three kernels, a again adding
 * nothing, b adding only its changed kernel; since() from the middle; a file that is no cubin
 * counted unreadable. */
int test_code_id(const char *arg)
{
    struct vb_code_entry *e;
    size_t na = 0, nb = 0, n, next, next2;
    unsigned char *ca = slurp(VB_SASS_DIR "/a.cubin", &na),
                  *cb = slurp(VB_SASS_DIR "/b.cubin", &nb);
    (void)arg;
    ASSERT(ca && cb);
    vb_code_id_module(ca, na);
    ASSERT_INT_EQ(vb_code_id_since(0, &e, &n, &next), 0);
    ASSERT(n == 3 && next == 3);
    vb_code_id_free(e, n);
    vb_code_id_module(ca, na);
    vb_code_id_module(cb, nb);
    ASSERT_INT_EQ(vb_code_id_since(next, &e, &n, &next2), 0);
    ASSERT(n == 1 && next2 == 4);
    ASSERT_STR_EQ(e[0].name, "shift");
    vb_code_id_free(e, n);
    ASSERT_INT_EQ(vb_code_id_unreadable(), 0);
    vb_code_id_module("not a cubin", 11);
    ASSERT_INT_EQ(vb_code_id_unreadable(), 1);
    free(ca);
    free(cb);
    return 0;
}

/* synthetic: an ELF64 of n sections ".text.k<i>" (section 0 the names), each 8 bytes of code
 * (i + salt), into a malloc'd buffer; *size its bytes */
static unsigned char *synthetic(int n, unsigned salt, size_t *size)
{
    size_t names = 1 + (size_t)n * 16, code = (size_t)n * 8, off_names = sizeof(Elf64_Ehdr),
           off_code = off_names + names, off_sh = off_code + code;
    unsigned char *b;
    Elf64_Ehdr eh;
    Elf64_Shdr sh;
    size_t at = 1;
    int i;
    *size = off_sh + (size_t)(n + 1) * sizeof sh;
    if (!(b = calloc(1, *size))) return NULL;
    memset(&eh, 0, sizeof eh);
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_shoff = off_sh;
    eh.e_shentsize = sizeof sh;
    eh.e_shnum = (Elf64_Half)(n + 1);
    eh.e_shstrndx = 0;
    memcpy(b, &eh, sizeof eh);
    memset(&sh, 0, sizeof sh); /* section 0: the names */
    sh.sh_type = SHT_STRTAB;
    sh.sh_offset = off_names;
    sh.sh_size = names;
    memcpy(b + off_sh, &sh, sizeof sh);
    for (i = 0; i < n; i++) {
        uint64_t word = (uint64_t)i + salt;
        memset(&sh, 0, sizeof sh);
        sh.sh_name = (Elf64_Word)at;
        at += (size_t)snprintf((char *)b + off_names + at, 16, ".text.k%d", i) + 1;
        sh.sh_type = SHT_PROGBITS;
        sh.sh_offset = off_code + (size_t)i * 8;
        sh.sh_size = 8;
        memcpy(b + sh.sh_offset, &word, 8);
        memcpy(b + off_sh + (size_t)(i + 1) * sizeof sh, &sh, sizeof sh);
    }
    return b;
}

/* The module table past its hash set's first sizes (256 slots, grown at 128 kernels): 1000
 * kernels of one module, the same module again adding none, a build of it with other code
 * adding all 1000 again (same names, other hashes); each found once. */
int test_code_id_many(const char *arg)
{
    struct vb_code_entry *e;
    size_t size, n, next, base;
    unsigned char *m = synthetic(1000, 0, &size), *m2;
    (void)arg;
    ASSERT(m);
    ASSERT_INT_EQ(vb_code_id_since(0, &e, &n, &base),
                  0); /* what other tests of this process left */
    vb_code_id_free(e, n);
    vb_code_id_module(m, size);
    vb_code_id_module(m, size);
    ASSERT_INT_EQ(vb_code_id_since(base, &e, &n, &next), 0);
    ASSERT(n == 1000 && next == base + 1000);
    ASSERT_STR_EQ(e[999].name, "k999");
    vb_code_id_free(e, n);
    ASSERT((m2 = synthetic(1000, 7, &size)));
    vb_code_id_module(m2, size);
    vb_code_id_module(m, size);
    ASSERT_INT_EQ(vb_code_id_since(next, &e, &n, &next), 0);
    ASSERT_INT_EQ((int)n, 1000);
    vb_code_id_free(e, n);
    ASSERT_INT_EQ(vb_code_id_lost(), 0);
    free(m);
    free(m2);
    return 0;
}
