/*
 * sass: see sass.h.
 */
#include "sass.h"

#include <elf.h>
#include <string.h>

uint64_t vb_sass_fnv1a(const void *p, size_t n)
{
    return vb_sass_fnv1a_more(VB_FNV1A_BASIS, p, n);
}

uint64_t vb_sass_fnv1a_more(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* inside: [off, off + len) lies within [0, size) */
static int inside(uint64_t off, uint64_t len, size_t size)
{
    return off <= size && len <= size - off;
}

int vb_sass_each(const void *cubin, size_t size, vb_sass_fn fn, void *arg)
{
    const unsigned char *c = cubin;
    Elf64_Ehdr eh;
    Elf64_Shdr strtab;
    int i, n = 0;
    if (!c || size < sizeof eh) return -1;
    memcpy(&eh, c, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shstrndx >= eh.e_shnum ||
        !inside(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), size))
        return -1;
    memcpy(&strtab, c + eh.e_shoff + (uint64_t)eh.e_shstrndx * sizeof(Elf64_Shdr), sizeof strtab);
    if (!inside(strtab.sh_offset, strtab.sh_size, size)) return -1;
    for (i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh;
        const char *name;
        size_t room, len;
        memcpy(&sh, c + eh.e_shoff + (uint64_t)i * sizeof(Elf64_Shdr), sizeof sh);
        if (sh.sh_name >= strtab.sh_size) return -1;
        name = (const char *)c + strtab.sh_offset + sh.sh_name;
        room = (size_t)(strtab.sh_size - sh.sh_name);
        len = strnlen(name, room);
        if (len == room) return -1; /* a name that runs off its table */
        if (len <= 6 || memcmp(name, ".text.", 6) || sh.sh_type == SHT_NOBITS) continue;
        if (!inside(sh.sh_offset, sh.sh_size, size)) return -1;
        fn(arg, name + 6, len - 6, vb_sass_fnv1a(c + sh.sh_offset, (size_t)sh.sh_size));
        n++;
    }
    return n;
}
