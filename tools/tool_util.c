/*
 * tool_util.c - file I/O, number parsing and diagnostic printing for the
 * vc4kit command.
 */
#define _POSIX_C_SOURCE 200809L /* stat, isatty */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/mem.h" /* VC4_BUS_OFFSET_MASK */
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
    if (st->file && !d->loc.file && !d->loc.line) /* name the file (issue 18): "bin.cl: cl: 0x...: error: ..." */
        fprintf(stderr, "%s: ", st->file);
    fputs(line, stderr);
    if (n >= sizeof line)
        fputs("...", stderr);
    fputc('\n', stderr);
}

struct vc4_diag_sink tool_stderr_sink(struct tool_diags *state)
{
    return (struct vc4_diag_sink){stderr_diag, state};
}

__attribute__((format(printf, 2, 0))) static void tool_vmsg(const char *kind, const char *fmt, va_list ap)
{
    fprintf(stderr, "vc4kit: %s", kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void tool_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tool_vmsg("error: ", fmt, ap);
    va_end(ap);
}

void tool_warning(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tool_vmsg("warning: ", fmt, ap);
    va_end(ap);
}

void tool_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tool_vmsg("", fmt, ap);
    va_end(ap);
}

bool tool_stderr_is_tty(void)
{
    return isatty(STDERR_FILENO) == 1;
}

uint8_t *tool_read_file_max(const char *path, size_t max, size_t *len)
{
    bool is_stdin = strcmp(path, "-") == 0;
    size_t cap = 1 << 16;
    if (!is_stdin) {
        /* what the path is, before reading a byte of it */
        struct stat st;
        if (stat(path, &st) != 0) {
            tool_error("%s: %s", path, strerror(errno));
            return NULL;
        }
        if (S_ISDIR(st.st_mode)) {
            tool_error("%s: %s (a file is wanted)", path, strerror(EISDIR));
            return NULL;
        }
        if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
            tool_error("%s: %llu bytes, more than the %zu this command can use", path,
                       (unsigned long long)st.st_size, max);
            return NULL;
        }
        if (S_ISREG(st.st_mode))
            cap = (size_t)st.st_size + 2;
    }
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) {
        tool_error("%s: %s", path, strerror(errno));
        return NULL;
    }
    /* a stream (stdin, a pipe, /dev/zero) is read no further than max + 1 */
    size_t n = 0;
    bool too_big = false;
    uint8_t *p = malloc(cap);
    while (p) {
        size_t room = cap - n - 1;
        if (n + room > max + 1)
            room = max + 1 - n;
        size_t k = room ? fread(p + n, 1, room, f) : 0;
        n += k;
        if (n > max) {
            too_big = true;
            break;
        }
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
    int err = ferror(f) ? errno : 0;
    if (f != stdin)
        fclose(f);
    if (too_big) {
        free(p);
        tool_error("%s: more than the %zu bytes this command can use", path, max);
        return NULL;
    }
    if (!p || err) {
        free(p);
        tool_error("%s: cannot read: %s", path, p ? strerror(err) : "out of memory");
        return NULL;
    }
    p[n] = 0; /* text users may treat it as a string */
    *len = n;
    return p;
}

uint8_t *tool_read_file(const char *path, size_t *len)
{
    return tool_read_file_max(path, TOOL_MAX_INPUT, len);
}

bool tool_load_read(const char *cmd, const char *spec, struct tool_load *out)
{
    *out = (struct tool_load){0};
    const char *at = strrchr(spec, '@');
    uint64_t addr;
    if (!at || at == spec || !tool_parse_u64(at + 1, &addr) || addr > UINT32_MAX) {
        tool_error("%s: bad --load '%s' (want FILE@ADDR)", cmd, spec);
        return false;
    }
    /* bits 31:30 of a bus address pick the cache alias (0x40000000, 0xC0000000
     * are the same RAM as 0): the offset in RAM is what must fit */
    uint32_t off = (uint32_t)addr & VC4_BUS_OFFSET_MASK;
    if (off >= TOOL_EMU_MEM) {
        tool_error("%s: --load '%s': 0x%08llx is outside memory (0x%08x bytes at bus address 0)", cmd, spec,
                   (unsigned long long)addr, TOOL_EMU_MEM);
        return false;
    }
    size_t n = (size_t)(at - spec);
    out->file = malloc(n + 1);
    if (!out->file) {
        tool_error("%s: out of memory", cmd);
        return false;
    }
    memcpy(out->file, spec, n);
    out->file[n] = 0;
    out->addr = (uint32_t)addr;
    out->data = tool_read_file_max(out->file, TOOL_EMU_MEM - off, &out->len);
    if (!out->data) {
        tool_load_free(out);
        return false;
    }
    return true;
}

void tool_load_free(struct tool_load *l)
{
    free(l->file);
    free(l->data);
    *l = (struct tool_load){0};
}

bool tool_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
    if (!f) {
        tool_error("%s: cannot write: %s", path, strerror(errno));
        return false;
    }
    /* fwrite's buffer is declared non-null: an empty output writes nothing */
    bool ok = len == 0 || fwrite(data, 1, len, f) == len;
    if (f != stdout)
        ok = (fclose(f) == 0) && ok;
    else
        ok = (fflush(f) == 0) && ok;
    if (!ok)
        tool_error("%s: write failed: %s", path, strerror(errno));
    return ok;
}

FILE *tool_open_output(const char *cmd, const char *path)
{
    if (!strcmp(path, "-"))
        return stdout;
    FILE *f = fopen(path, "w");
    if (!f)
        tool_error("%s: %s: cannot write: %s", cmd, path, strerror(errno));
    return f;
}

bool tool_close_output(const char *cmd, const char *path, FILE *f)
{
    bool ok = !ferror(f);
    ok = (f == stdout ? fflush(f) == 0 : fclose(f) == 0) && ok;
    if (!ok)
        tool_error("%s: %s: write failed: %s", cmd, path, strerror(errno));
    return ok;
}

int tool_parse_args(const struct tool_cmd *c, int argc, char **argv, int first, tool_opt_fn fn,
                    void *user)
{
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        const struct tool_opt *o = NULL;
        const char *attached = NULL; /* "-Ifoo": a short option's value written onto it */
        for (size_t k = 0; k < c->nopts && !o; k++)
            if (!strcmp(a, c->opts[k].name) || (c->opts[k].alt && !strcmp(a, c->opts[k].alt)))
                o = &c->opts[k];
        for (size_t k = 0; k < c->nopts && !o; k++) {
            const char *n = c->opts[k].name;
            if (c->opts[k].kind == TOOL_OPT_STRING && n[0] == '-' && n[1] != '-' && n[2] == 0 &&
                a[0] == '-' && a[1] == n[1] && a[2]) {
                o = &c->opts[k];
                attached = a + 2;
            }
        }
        int r;
        if (!o) {
            if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
                c->usage(stdout);
                return 0;
            }
            if (a[0] == '-' && a[1]) {
                tool_error("%s: unknown option '%s' (see `vc4kit %s --help`)", c->name, a, c->name);
                return 2;
            }
            r = fn(user, TOOL_ARG_POSITIONAL, a, 0);
        } else if (o->kind == TOOL_OPT_FLAG) {
            r = fn(user, o->id, a, 0);
        } else if (attached) {
            r = fn(user, o->id, attached, 0);
        } else {
            if (i + 1 >= argc) {
                tool_error("%s: %s needs a value (see `vc4kit %s --help`)", c->name, a, c->name);
                return 2;
            }
            const char *v = argv[++i];
            uint64_t n = 0;
            if (o->kind == TOOL_OPT_NUMBER && (!tool_parse_u64(v, &n) || n < o->min || n > o->max)) {
                if (o->max > 0xFFFF)
                    tool_error("%s: %s takes 0x%llx..0x%llx, not '%s'", c->name, a,
                               (unsigned long long)o->min, (unsigned long long)o->max, v);
                else
                    tool_error("%s: %s takes %llu..%llu, not '%s'", c->name, a, (unsigned long long)o->min,
                               (unsigned long long)o->max, v);
                return 2;
            }
            r = fn(user, o->id, v, n);
        }
        if (r >= 0)
            return r;
    }
    return -1;
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
        errno = 0;
        float f = strtof(s, &end);
        if (*end || end == s || errno == ERANGE) /* 1e400 is no float */
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
    struct vc4_asm_options o = {.sink = sink, .base_addr = base, .read_file = tool_asm_read};
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

enum vc4_status tool_asm_read(void *user, const char *path, char **data, size_t *len)
{
    (void)user;
    struct stat st;
    if (stat(path, &st) != 0)
        return VC4_ERR_IO; /* not there: the assembler tries the next directory quietly */
    size_t n = 0;
    uint8_t *p = tool_read_file_max(path, TOOL_MAX_TEXT, &n); /* a directory, unreadable, too big: said here */
    if (!p)
        return VC4_ERR_IO;
    *data = (char *)p;
    *len = n;
    return VC4_OK;
}

/* ---- the emulator's reports ---- */

typedef enum vc4_status (*report_fn)(const struct vc4_emu *, const char *, char *, size_t, size_t *);

/* A report fn makes into a buffer of its size, to f. */
static bool print_report(FILE *f, const struct vc4_emu *emu, const char *prefix, const char *option, report_fn fn)
{
    size_t need = 0;
    fn(emu, prefix, NULL, 0, &need);
    char *text = malloc(need + 1);
    bool ok = text && fn(emu, prefix, text, need + 1, NULL) == VC4_OK;
    if (ok)
        fputs(text, f);
    else
        tool_error("%s: out of memory", option);
    free(text);
    return ok;
}

static enum vc4_status profile_top(const struct vc4_emu *emu, const char *prefix, char *buf, size_t size,
                                   size_t *needed)
{
    return vc4_emu_profile_report(emu, TOOL_PROFILE_TOP, prefix, buf, size, needed);
}

bool tool_print_stats(FILE *f, const struct vc4_emu *emu, const char *prefix)
{
    return print_report(f, emu, prefix, "--stats", vc4_emu_stats_report);
}

bool tool_print_profile(FILE *f, const struct vc4_emu *emu, const char *prefix)
{
    return print_report(f, emu, prefix, "--profile", profile_top);
}
