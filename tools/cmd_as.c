/*
 * cmd_as.c - `vc4kit as`: vc4asm-dialect QPU source to instruction words.
 *
 *   vc4kit as FILE... -o OUT         raw little-endian bytes
 *   vc4kit as --hex FILE [-o OUT]    "0xLO, 0xHI," lines, one instruction each
 *   -I DIR  -D NAME[=VALUE]  --check [--kind fragment|vertex|coordinate|user]
 *   vc4asm's own options (one block below): -i FILE, -C FILE, -V
 */
#define _POSIX_C_SOURCE 200809L /* access */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"
#include "vc4kit/qpu.h"

static void usage(FILE *f)
{
    fputs("usage: vc4kit as [--hex] [-I DIR]... [-D NAME[=VALUE]]... [-i FILE]... [--check [--kind KIND]]\n"
          "                 [-o OUT] [-C HEXOUT] FILE...\n"
          "Assemble QPU source in the vc4asm dialect (docs/assembly.md). Several FILEs\n"
          "are assembled one after the other into one program, as vc4asm does.\n"
          "  -o OUT       output file (default: stdout with --hex; required otherwise)\n"
          "  --hex        write \"0xLO, 0xHI,\" lines, one instruction per line\n"
          "  -I DIR       search DIR for .include files (after the including file's dir)\n"
          "  -D NAME=VAL  predefine a symbol, as .set NAME, VAL (VAL defaults to 1)\n"
          "  --check      run the hardware-rule validator on the result\n"
          "  --kind KIND  shader kind for --check: fragment, vertex, coordinate, user\n"
          "               (default: rules that hold for any program)\n"
          "vc4asm's options, with its meaning and output:\n"
          "  -i FILE      assemble FILE first, found like .include (-I dirs, share/vc4kit),\n"
          "               e.g. -i vc4.qinc\n"
          "  -C HEXOUT    write \"0xLO, 0xHI\" lines joined by \",\" (no comma after the\n"
          "               last), byte for byte what vc4asm -C writes\n"
          "  -V           the same as --check\n",
          f);
}

/* ---- vc4asm's command-line options (kept together so that they can move
 * onto a shared option table): -i FILE, -C FILE, -V.  Facts: vc4asm V0.3
 * src/vc4asm.cpp (getopt "o:c:e:C:h:H:vI:i:VsQP:") and src/WriteC.cpp. ---- */

struct vc4asm_opts {
    const char *pre[64]; /* -i FILEs in order */
    int npre;
    const char *cout;    /* -C FILE */
};

/* Consume argv[*i] if it is one of vc4asm's options: 1 taken, 0 not one of
 * them, -1 taken but bad (message printed). */
static int vc4asm_option(struct vc4asm_opts *o, int argc, char **argv, int *i, bool *check)
{
    const char *a = argv[*i];
    if (a[0] != '-' || !a[1] || (a[2] && a[1] != 'i' && a[1] != 'C'))
        return 0;
    if (a[1] == 'V') {
        *check = true;
        return 1;
    }
    if (a[1] != 'i' && a[1] != 'C')
        return 0;
    const char *v = a[2] ? a + 2 : *i + 1 < argc ? argv[++*i] : NULL;
    if (!v) {
        tool_error("option '%s' needs a file name", a);
        return -1;
    }
    if (a[1] == 'C') {
        o->cout = v;
    } else if (o->npre < (int)(sizeof o->pre / sizeof o->pre[0])) {
        o->pre[o->npre++] = v;
    } else {
        tool_error("too many -i files");
        return -1;
    }
    return 1;
}

/* -i FILE: assembled before the inputs and searched like ".include" (vc4asm
 * FindIncludePath: the include path, then its share/include). */
static enum vc4_status vc4asm_preinclude(struct vc4_asm *as, const char *file)
{
    char src[1200];
    int n = snprintf(src, sizeof src, ".include \"%s\"\n", file);
    if (n < 0 || (size_t)n >= sizeof src || strchr(file, '"')) {
        tool_error("bad -i file name '%s'", file);
        return VC4_ERR_INVALID;
    }
    return vc4_asm_source(as, "-i", src, (size_t)n);
}

/* vc4asm -C: "0x%08x, 0x%08x" per instruction, ",\n" between, "\n" after
 * the last (WriteX without O_WriteTrailingComma).  vc4asm's output is whole
 * 64-bit words: a partial last word is padded with zero bytes. */
static bool vc4asm_write_hex(const char *path, const uint8_t *bytes, size_t size)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!f) {
        tool_error("cannot write %s", path);
        return false;
    }
    for (size_t k = 0; k < size; k += 8) {
        uint8_t w[8] = {0};
        memcpy(w, bytes + k, size - k < 8 ? size - k : 8);
        uint64_t x = vc4_qpu_load_le(w);
        fprintf(f, "0x%08x, 0x%08x%s\n", (unsigned)(x & 0xffffffffu), (unsigned)(x >> 32),
                k + 8 < size ? "," : "");
    }
    bool ok = !ferror(f);
    if (f != stdout)
        ok = fclose(f) == 0 && ok;
    if (!ok)
        tool_error("cannot write %s", path);
    return ok;
}

/* ---- end of vc4asm's options ---- */

int cmd_as(int argc, char **argv)
{
    const char *ins[64], *out = NULL;
    int nin = 0;
    bool hex = false, check = false;
    struct vc4asm_opts vo4 = {0};
    enum vc4_shader_kind kind = VC4_SHADER_ANY;
    struct tool_diags diags = {0};
    struct vc4_asm_options opts = {0};
    opts.sink = tool_stderr_sink(&diags);
    opts.read_file = tool_asm_read; /* a directory or unreadable file is said so (issue 17) */
    struct vc4_asm *as = vc4_asm_create(&opts);
    if (!as) {
        tool_error("out of memory");
        return 2;
    }
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int taken = vc4asm_option(&vo4, argc, argv, &i, &check);
        if (taken) {
            if (taken < 0)
                rc = 2;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            vc4_asm_destroy(as);
            return 0;
        } else if (!strcmp(a, "--hex")) {
            hex = true;
        } else if (!strcmp(a, "--check")) {
            check = true;
        } else if (!strcmp(a, "--kind") && i + 1 < argc) {
            const char *k = argv[++i];
            if (!strcmp(k, "fragment")) kind = VC4_SHADER_FRAGMENT;
            else if (!strcmp(k, "vertex")) kind = VC4_SHADER_VERTEX;
            else if (!strcmp(k, "coordinate")) kind = VC4_SHADER_COORDINATE;
            else if (!strcmp(k, "user")) kind = VC4_SHADER_USER;
            else if (!strcmp(k, "any")) kind = VC4_SHADER_ANY;
            else {
                tool_error("unknown --kind '%s'", k);
                rc = 2;
            }
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if ((!strcmp(a, "-I") && i + 1 < argc) || (!strncmp(a, "-I", 2) && a[2])) {
            const char *dir = a[2] ? a + 2 : argv[++i];
            if (vc4_asm_add_include_dir(as, dir) != VC4_OK)
                rc = 2;
        } else if ((!strcmp(a, "-D") && i + 1 < argc) || (!strncmp(a, "-D", 2) && a[2])) {
            const char *def = a[2] ? a + 2 : argv[++i];
            char name[256];
            const char *eq = strchr(def, '=');
            size_t nl = eq ? (size_t)(eq - def) : strlen(def);
            uint32_t v = 1;
            if (!nl || nl >= sizeof name || (eq && !tool_parse_u32_value(eq + 1, &v))) {
                tool_error("bad -D '%s' (want NAME=VALUE)", def);
                rc = 2;
                continue;
            }
            memcpy(name, def, nl);
            name[nl] = 0;
            /* negative decimals come back as 32-bit two's complement */
            int64_t val = (eq && eq[1] == '-') ? (int64_t)(int32_t)v : (int64_t)v;
            if (vc4_asm_define(as, name, val) != VC4_OK)
                rc = 2;
        } else if (a[0] == '-' && a[1]) {
            tool_error("unknown option '%s' (see --help)", a);
            rc = 2;
        } else if (nin < (int)(sizeof ins / sizeof ins[0])) {
            ins[nin++] = a;
        } else {
            tool_error("too many input files");
            rc = 2;
        }
    }
    if (!rc && !nin) {
        tool_error("no input file");
        usage(stderr);
        rc = 2;
    }
    if (!rc && !out && !hex && !vo4.cout) {
        tool_error("raw output needs -o OUT (or use --hex or -C HEXOUT)");
        rc = 2;
    }
    if (rc) {
        vc4_asm_destroy(as);
        return rc;
    }
    for (int k = 0; k < nin; k++)
        if (access(ins[k], R_OK) != 0) { /* name the file and the reason (issue 18) */
            tool_error("as: %s: %s", ins[k], strerror(errno));
            vc4_asm_destroy(as);
            return 2;
        }
    enum vc4_status st = VC4_OK;
    for (int k = 0; k < vo4.npre && st == VC4_OK; k++)
        st = vc4asm_preinclude(as, vo4.pre[k]);
    for (int k = 0; k < nin && st == VC4_OK; k++)
        st = vc4_asm_file(as, ins[k]);
    const char *in = ins[nin - 1];
    size_t size = 0;
    const uint8_t *bytes = vc4_asm_output(as, &size);
    if (st != VC4_OK) {
        vc4_asm_destroy(as);
        return st == VC4_ERR_IO ? 2 : 1; /* a file error, or errors in the source */
    }
    if (size == 0) { /* an empty file, NULs, /dev/null: nothing to write (issue 17) */
        tool_error("as: %s: no instructions or data", in);
        vc4_asm_destroy(as);
        return 1;
    }
    if (check) {
        size_t n = size / 8;
        uint64_t *words = malloc((n ? n : 1) * sizeof *words);
        if (!words) {
            tool_error("out of memory");
            vc4_asm_destroy(as);
            return 2;
        }
        for (size_t k = 0; k < n; k++)
            words[k] = vc4_qpu_load_le(bytes + 8 * k);
        struct vc4_validate_options vo = {.kind = kind, .file = in};
        unsigned violations = 0;
        struct vc4_diag_sink sink = tool_stderr_sink(&diags);
        if (vc4_qpu_validate(words, n, &vo, &sink, &violations) != VC4_OK || violations)
            rc = 1;
        free(words);
    }
    if (hex) {
        FILE *f = out && strcmp(out, "-") ? fopen(out, "w") : stdout;
        if (!f) {
            tool_error("cannot write %s", out);
            rc = 2;
        } else {
            size_t k = 0;
            for (; k + 8 <= size; k += 8)
                fprintf(f, "0x%08x, 0x%08x,\n", (unsigned)(bytes[k] | bytes[k + 1] << 8 |
                        bytes[k + 2] << 16 | (uint32_t)bytes[k + 3] << 24),
                        (unsigned)(bytes[k + 4] | bytes[k + 5] << 8 | bytes[k + 6] << 16 |
                                   (uint32_t)bytes[k + 7] << 24));
            for (; k < size; k++) /* trailing data that is not a whole word */
                fprintf(f, "0x%02x,%s", bytes[k], k + 1 == size ? "\n" : " ");
            if (f != stdout && fclose(f) != 0) {
                tool_error("cannot write %s", out);
                rc = 2;
            }
        }
    } else if (out && !tool_write_file(out, bytes, size)) {
        rc = 2;
    }
    if (vo4.cout && !vc4asm_write_hex(vo4.cout, bytes, size))
        rc = 2;
    vc4_asm_destroy(as);
    return rc;
}
