/*
 * tool_util.c - file I/O, number parsing and diagnostic printing for the
 * vc4kit command.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "vc4kit/qpu.h"

static void stderr_diag(void *user, const struct vc4_diag *d)
{
    struct tool_diags *st = user;
    if (d->severity == VC4_ERROR)
        st->errors++;
    else if (d->severity == VC4_WARNING)
        st->warnings++;
    else if (st->quiet_notes)
        return;
    char line[1024];
    size_t n = vc4_diag_format(d, line, sizeof line);
    fputs(line, stderr);
    if (n >= sizeof line)
        fputs("...", stderr);
    fputc('\n', stderr);
}

struct vc4_diag_sink tool_stderr_sink(struct tool_diags *state)
{
    return (struct vc4_diag_sink){stderr_diag, state};
}

void tool_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("vc4kit: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

uint8_t *tool_read_file(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        tool_error("%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *p = malloc(cap);
    while (p) {
        size_t k = fread(p + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0)
            break;
        if (cap - n < 2) {
            uint8_t *q = realloc(p, cap * 2);
            if (!q) {
                free(p);
                p = NULL;
                break;
            }
            p = q;
            cap *= 2;
        }
    }
    bool err = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!p || err) {
        free(p);
        tool_error("%s: cannot read", path);
        return NULL;
    }
    p[n] = 0; /* text users may treat it as a string */
    *len = n;
    return p;
}

bool tool_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    if (!f) {
        tool_error("%s: %s", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(data, 1, len, f) == len;
    if (f != stdout)
        ok = (fclose(f) == 0) && ok;
    else
        ok = (fflush(f) == 0) && ok;
    if (!ok)
        tool_error("%s: write failed", path);
    return ok;
}

bool tool_parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s)
        return false;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s += 2;
    }
    if (!*s)
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, base);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

bool tool_parse_u32_value(const char *s, uint32_t *out)
{
    if (!s || !*s)
        return false;
    if (strchr(s, '.') || ((strchr(s, 'e') || strchr(s, 'E')) && !strchr(s, 'x') && !strchr(s, 'X'))) {
        char *end;
        float f = strtof(s, &end);
        if (*end)
            return false;
        memcpy(out, &f, sizeof *out);
        return true;
    }
    const char *p = s;
    bool neg = false;
    if (*p == '-') {
        neg = true;
        p++;
    }
    uint64_t v;
    if (!tool_parse_u64(p, &v))
        return false;
    if (neg ? v > UINT64_C(0x80000000) : v > UINT64_C(0xFFFFFFFF))
        return false;
    *out = neg ? (uint32_t)(-(int64_t)v) : (uint32_t)v;
    return true;
}

bool tool_looks_like_text(const uint8_t *data, size_t len)
{
    if (len == 0)
        return true;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = data[i];
        if (c == 0)
            return false;
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v')
            return false;
    }
    return true;
}

/* Assemble vc4asm-dialect source into bytes (malloc'd) at base; errors go
 * to the sink. With keep, the assembler is handed over for symbol look-ups. */
uint8_t *tool_assemble(const char *path, const uint8_t *text, size_t len, uint32_t base,
                         struct vc4_diag_sink sink, size_t *out_len, struct vc4_asm **keep)
{
    struct vc4_asm_options o = {.sink = sink, .base_addr = base};
    struct vc4_asm *as = vc4_asm_create(&o);
    if (!as)
        return NULL;
    uint8_t *bytes = NULL;
    if (vc4_asm_source(as, path, (const char *)text, len) == VC4_OK) {
        size_t n = 0;
        const uint8_t *p = vc4_asm_output(as, &n);
        bytes = malloc(n ? n : 1);
        if (bytes) {
            if (n)
                memcpy(bytes, p, n);
            *out_len = n;
        }
    }
    if (keep && bytes)
        *keep = as;
    else
        vc4_asm_destroy(as);
    return bytes;
}
