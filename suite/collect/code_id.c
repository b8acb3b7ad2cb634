/* code_id: each loaded kernel's SASS hash, from CUPTI's module callback (see code_id.h). */
#include "code_id.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "callbacks.h"
#include "sass.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct vb_code_entry *table;
static size_t count, cap;
/* an open-addressing set over table's entries (index + 1, 0 empty), keyed by name and hash: a
 * framework loads thousands of kernels (PyTorch's modules), each looked up once */
static size_t *slots, nslots;
static int unreadable, lost;

static size_t key(const char *name, size_t len, uint64_t hash)
{
    return (size_t)(vb_sass_fnv1a(name, len) ^ (hash * 0x9e3779b97f4a7c15ull));
}

/* grow_slots rehashes into twice the slots (at least 256); 0, or -1 when out of memory */
static int grow_slots(void)
{
    size_t n = nslots ? 2 * nslots : 256, i;
    size_t *s = calloc(n, sizeof *s);
    if (!s) return -1;
    for (i = 0; i < count; i++) {
        size_t h = key(table[i].name, strlen(table[i].name), table[i].hash) & (n - 1);
        while (s[h])
            h = (h + 1) & (n - 1);
        s[h] = i + 1;
    }
    free(slots);
    slots = s;
    nslots = n;
    return 0;
}

/* add: one kernel of a module being loaded (mu held) */
static void add(void *arg, const char *name, size_t len, uint64_t hash)
{
    size_t h;
    char *copy;
    (void)arg;
    if ((count + 1) * 2 > nslots && grow_slots()) {
        lost = 1;
        return;
    }
    for (h = key(name, len, hash) & (nslots - 1); slots[h]; h = (h + 1) & (nslots - 1)) {
        const struct vb_code_entry *e = &table[slots[h] - 1];
        if (e->hash == hash && !strncmp(e->name, name, len) && !e->name[len])
            return; /* the same module loaded again (another context, another device) */
    }
    if (count == cap) {
        size_t c = cap ? 2 * cap : 64;
        struct vb_code_entry *t = realloc(table, c * sizeof *t);
        if (!t) {
            lost = 1;
            return;
        }
        table = t;
        cap = c;
    }
    if (!(copy = malloc(len + 1))) {
        lost = 1;
        return;
    }
    memcpy(copy, name, len);
    copy[len] = '\0';
    table[count].name = copy;
    table[count++].hash = hash;
    slots[h] = count;
}

void vb_code_id_module(const void *cubin, size_t size)
{
    pthread_mutex_lock(&mu);
    if (!cubin || vb_sass_each(cubin, size, add, NULL) < 0) unreadable++;
    pthread_mutex_unlock(&mu);
}

static void on_module(CUpti_CallbackId cbid, const CUpti_ResourceData *rd)
{
    const CUpti_ModuleResourceData *m;
    if (cbid != CUPTI_CBID_RESOURCE_MODULE_LOADED || !rd || !rd->resourceDescriptor) return;
    m = rd->resourceDescriptor;
    vb_code_id_module(m->pCubin, m->cubinSize);
}

int vb_code_id_start(struct vb_err *err)
{
    return vb_cb_resource(on_module, CUPTI_CBID_RESOURCE_MODULE_LOADED, err);
}

int vb_code_id_since(size_t from, struct vb_code_entry **out, size_t *n, size_t *next)
{
    size_t i;
    int rc = 0;
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&mu);
    *next = count;
    if (from < count && !(*out = calloc(count - from, sizeof **out))) rc = -1;
    for (i = from; !rc && i < count; i++) {
        if (!((*out)[*n].name = strdup(table[i].name))) {
            rc = -1;
            break;
        }
        (*out)[(*n)++].hash = table[i].hash;
    }
    pthread_mutex_unlock(&mu);
    if (rc) {
        vb_code_id_free(*out, *n);
        *out = NULL;
        *n = 0;
        *next = from;
    }
    return rc;
}

void vb_code_id_free(struct vb_code_entry *e, size_t n)
{
    size_t i;
    for (i = 0; e && i < n; i++)
        free(e[i].name);
    free(e);
}

/* locked reads *v under mu (the module callback writes it on CUDA's thread) */
static int locked(const int *v)
{
    int n;
    pthread_mutex_lock(&mu);
    n = *v;
    pthread_mutex_unlock(&mu);
    return n;
}

int vb_code_id_lost(void)
{
    return locked(&lost);
}

int vb_code_id_unreadable(void)
{
    return locked(&unreadable);
}
