/* escape: HTML/XML, Markdown, JSON, shell and terminal escaping (see escape.h). */
#include "escape.h"

#include <string.h>

/* unit measures the character at s (len > 0 bytes left): returns its length in bytes and sets
 * *show when each of its bytes is shown escaped rather than written. A well-formed UTF-8
 * sequence is one character (shown when it is a C1 control); an ill-formed byte is one on its
 * own (shown when it is 0x80 to 0x9f, a C1 control to an 8-bit terminal; Latin-1 text passes). */
static size_t unit(const unsigned char *s, size_t len, int *show)
{
    unsigned c = s[0], cp;
    size_t need, i;
    *show = c < 0x20 || c == 0x7f;
    if (c < 0x80) return 1;
    need = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (need && need <= len) {
        cp = c & (0x7fu >> need);
        for (i = 1; i < need && (s[i] & 0xc0) == 0x80; i++)
            cp = cp << 6 | (s[i] & 0x3fu);
        /* not overlong, no surrogate, at most U+10FFFF */
        if (i == need && !(need == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) &&
            !(need == 4 && (cp < 0x10000 || cp > 0x10ffff))) {
            *show = cp <= 0x9f;
            return need;
        }
    }
    *show = c <= 0x9f;
    return 1;
}

/* shown writes byte c escaped into out (4 bytes at least; not terminated) and returns its
 * length: 2 or 4. */
static size_t shown(unsigned char c, char *out)
{
    static const char hex[] = "0123456789abcdef";
    const char *short_form = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : NULL;
    if (short_form) {
        memcpy(out, short_form, 2);
        return 2;
    }
    out[0] = '\\', out[1] = 'x', out[2] = hex[c >> 4], out[3] = hex[c & 15];
    return 4;
}

void vb_put_xml(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        case '\'':
            fputs("&#39;", f);
            break;
        default:
            /* XML 1.0 cannot carry C0 controls but tab and newlines, even as references */
            if (((unsigned char)*s < 0x20 && !strchr("\t\n\r", *s)) || *s == 0x7f)
                fprintf(f, "\\x%02x", (unsigned char)*s);
            else
                fputc(*s, f);
        }
    }
}

void vb_put_md(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = s ? strlen(s) : 0, u, k;
    for (; len; p += u, len -= u) {
        char esc[4];
        int show;
        u = unit(p, len, &show);
        if (*p == '\n' || *p == '\r') {
            fputc(' ', f);
        } else if (show) { /* a control character: shown as vb_put_term shows it */
            for (k = 0; k < u; k++)
                fwrite(esc, 1, shown(p[k], esc), f);
        } else {
            if (strchr("|\\<>*_`[]", *p)) fputc('\\', f);
            fwrite(p, 1, u, f);
        }
    }
}

void vb_put_json(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
}

void vb_put_sh(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '\'')
            fputs("'\\''", f); /* close the quote, a quoted quote, open again */
        else
            fputc(*s, f);
    }
    fputc('\'', f);
}

int vb_sh_unsafe(const char *s)
{
    for (; s && *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) return (unsigned char)*s;
    return 0;
}

/* term walks s (len bytes) as vb_put_term shows it: into f when f is not NULL, doubling quotes
 * when csv; into buf (n bytes, n > 0) when buf is not NULL, stopping before what does not fit.
 * Returns the bytes shown (written to buf, or that f got or would get). */
static size_t term(FILE *f, char *buf, size_t n, const char *s, int csv)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = s ? strlen(s) : 0, out = 0;
    while (len) {
        char esc[16]; /* a C1 control in UTF-8: 2 bytes, 8 shown */
        int show;
        size_t u = unit(p, len, &show), w = 0, k;
        if (show) {
            for (k = 0; k < u; k++)
                w += shown(p[k], esc + w);
        } else if (csv && *p == '"') {
            esc[0] = esc[1] = '"';
            w = 2;
        }
        if (buf && out + (w ? w : u) >= n) break;
        if (buf) memcpy(buf + out, w ? esc : (const char *)p, w ? w : u);
        if (f) fwrite(w ? esc : (const char *)p, 1, w ? w : u, f);
        out += w ? w : u;
        p += u;
        len -= u;
    }
    if (buf) buf[out] = '\0';
    return out;
}

void vb_put_term(FILE *f, const char *s)
{
    term(f, NULL, 0, s, 0);
}

size_t vb_term_len(const char *s)
{
    return term(NULL, NULL, 0, s, 0);
}

char *vb_term_str(const char *s, char *buf, size_t n)
{
    term(NULL, buf, n, s, 0);
    return buf;
}

void vb_put_term_csv(FILE *f, const char *s)
{
    fputc('"', f);
    term(f, NULL, 0, s, 1);
    fputc('"', f);
}
