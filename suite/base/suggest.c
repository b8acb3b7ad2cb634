/* suggest: did you mean (see suggest.h). */
#include "suggest.h"

#include <stdio.h>
#include <string.h>

#define MAX_LEN   127
#define MAX_SHOWN 3

int vb_edit_distance(const char *a, const char *b)
{
    int d[MAX_LEN + 1][MAX_LEN + 1];
    int la = (int)strlen(a), lb = (int)strlen(b), i, j;
    if (la > MAX_LEN || lb > MAX_LEN) return MAX_LEN + 1;
    for (i = 0; i <= la; i++)
        d[i][0] = i;
    for (j = 0; j <= lb; j++)
        d[0][j] = j;
    for (i = 1; i <= la; i++)
        for (j = 1; j <= lb; j++) {
            int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* score: how near candidate c is to word w (0: c contains w), or -1 when not near enough */
static int score(const char *w, const char *c)
{
    int len = (int)strlen(w), dist, limit = len / 3 > 1 ? len / 3 : 1;
    if (!strcmp(w, c)) return -1; /* the word itself is no suggestion */
    if (len >= 3 && strstr(c, w)) return 0;
    dist = vb_edit_distance(w, c);
    return dist <= limit ? dist : -1;
}

/* repeated: is cands[i] the same as an earlier candidate (an axis several families have)? */
static int repeated(const char *const *cands, size_t i)
{
    size_t j;
    for (j = 0; j < i; j++)
        if (cands[j] && !strcmp(cands[j], cands[i])) return 1;
    return 0;
}

const char *vb_suggest(const char *word, const char *const *cands, size_t ncands, char *out,
                       size_t n)
{
    int best = -1, shown = 0, s;
    size_t i, k = 0;
    if (n) out[0] = '\0';
    if (!word || !n) return out;
    for (i = 0; i < ncands; i++)
        if (cands[i] && (s = score(word, cands[i])) >= 0 && (best < 0 || s < best)) best = s;
    if (best < 0) return out;
    for (i = 0; i < ncands; i++)
        if (cands[i] && score(word, cands[i]) == best && !repeated(cands, i)) shown++;
    k = (size_t)snprintf(out, n, "did you mean %s", shown > 1 ? "one of " : "");
    for (i = 0, s = 0; i < ncands && s < MAX_SHOWN && k < n; i++)
        if (cands[i] && score(word, cands[i]) == best && !repeated(cands, i))
            k += (size_t)snprintf(out + k, n - k, "%s'%s'", s++ ? ", " : "", cands[i]);
    if (k < n) snprintf(out + k, n - k, "?");
    return out;
}
