/*
 * cmd_as.c - `vc4kit as`: vc4asm-dialect QPU source to instruction words.
 *
 *   vc4kit as FILE... -o OUT         raw little-endian bytes
 *   vc4kit as --hex FILE [-o OUT]    "0xLO, 0xHI," lines, one instruction each
 *   -I DIR  -D NAME[=VALUE]  --check [--kind fragment|vertex|coordinate|user] [--kernel] [--threaded]
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
    fputs("usage: vc4kit as [--hex] [-I DIR]... [-D NAME[=VALUE]]... [-i FILE]... [--check [--kind KIND] [--kernel] [--threaded]]\n"
          "                 [-o OUT] [-C HEXOUT] FILE...\n"
          "Assemble QPU source in the vc4asm dialect (docs/assembly.md). Several FILEs\n"
          "are assembled one after the other into one program, as vc4asm does.\n"
          "  -o OUT       output file (default: stdout with --hex; required otherwise)\n"
          "  --hex        write \"0xLO, 0xHI,\" lines, one instruction per line\n"
          "  -I DIR       search DIR for .include files (after the including file's dir)\n"
          "  -D NAME=VAL  predefine a symbol, as .set NAME, VAL (VAL defaults to 1)\n"
          "  --check      run the hardware-rule validator on the result\n"
          "  --kind KIND  shader kind for --check: fragment, vertex, coordinate, user\n"
          "  --kernel     --check: also the Linux kernel's shader rules (vc4_validate_shaders.c)\n"
          "  --threaded   --check: a threaded fragment shader (two threads a QPU)\n"
          "               (default: rules that hold for any program)\n"
          "vc4asm's options, with its meaning and output:\n"
          "  -i FILE      assemble FILE first, found like .include (-I dirs, share/vc4kit),\n"
          "               e.g. -i vc4.qinc\n"
          "  -C HEXOUT    write \"0xLO, 0xHI\" lines joined by \",\" (no comma after the\n"
          "               last), byte for byte what vc4asm -C writes\n"
          "  -V           the same as --check\n",
          f);
}

/* ---- vc4asm's own command-line options (-i FILE, -C FILE, -V: rows of the
 * option table below).  Facts: vc4asm V0.3 src/vc4asm.cpp (getopt
 * "o:c:e:C:h:H:vI:i:VsQP:") and src/WriteC.cpp. ---- */

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

enum as_opt { AS_HEX, AS_CHECK, AS_KERNEL, AS_THREADED, AS_KIND, AS_OUT, AS_INCLUDE_DIR, AS_DEFINE, AS_PRE_INCLUDE, AS_C_OUT };

static const struct tool_opt as_opts[] = {
    {.name = "--hex", .kind = TOOL_OPT_FLAG, .id = AS_HEX},
    {.name = "--check", .alt = "-V", .kind = TOOL_OPT_FLAG, .id = AS_CHECK}, /* -V: vc4asm's */
    {.name = "--kernel", .kind = TOOL_OPT_FLAG, .id = AS_KERNEL},
    {.name = "--threaded", .kind = TOOL_OPT_FLAG, .id = AS_THREADED},
    {.name = "--kind", .kind = TOOL_OPT_STRING, .id = AS_KIND},
    {.name = "-o", .kind = TOOL_OPT_STRING, .id = AS_OUT},
    {.name = "-I", .kind = TOOL_OPT_STRING, .id = AS_INCLUDE_DIR},
    {.name = "-D", .kind = TOOL_OPT_STRING, .id = AS_DEFINE},
    {.name = "-i", .kind = TOOL_OPT_STRING, .id = AS_PRE_INCLUDE}, /* vc4asm's */
    {.name = "-C", .kind = TOOL_OPT_STRING, .id = AS_C_OUT},       /* vc4asm's */
};
static const struct tool_cmd as_cmd = {"as", usage, as_opts, TOOL_NOPTS(as_opts)};

struct as_args {
    struct vc4_asm *as;
    const char *ins[64], *out, *pre[64], *c_out;
    int nin, npre;
    bool hex, check, kernel, threaded;
    enum vc4_shader_kind kind;
};

/* -D NAME[=VALUE]: as .set NAME, VALUE (VALUE defaults to 1) */
static bool as_define(struct vc4_asm *as, const char *def)
{
    char name[256];
    const char *eq = strchr(def, '=');
    size_t nl = eq ? (size_t)(eq - def) : strlen(def);
    uint32_t v = 1;
    if (!nl || nl >= sizeof name || (eq && !tool_parse_u32_value(eq + 1, &v))) {
        tool_error("as: bad -D '%s' (want NAME=VALUE)", def);
        return false;
    }
    memcpy(name, def, nl);
    name[nl] = 0;
    /* negative decimals come back as 32-bit two's complement */
    int64_t val = (eq && eq[1] == '-') ? (int64_t)(int32_t)v : (int64_t)v;
    return vc4_asm_define(as, name, val) == VC4_OK;
}

static int as_arg(void *user, int id, const char *arg, uint64_t num)
{
    (void)num;
    struct as_args *a = user;
    switch (id) {
    case TOOL_ARG_POSITIONAL:
        if (a->nin == (int)(sizeof a->ins / sizeof a->ins[0])) {
            tool_error("as: too many input files");
            return 2;
        }
        a->ins[a->nin++] = arg;
        return -1;
    case AS_HEX: a->hex = true; return -1;
    case AS_CHECK: a->check = true; return -1;
    case AS_KERNEL: a->kernel = true; return -1;
    case AS_THREADED: a->threaded = true; return -1;
    case AS_OUT: a->out = arg; return -1;
    case AS_C_OUT: a->c_out = arg; return -1;
    case AS_KIND: {
        static const struct { const char *name; enum vc4_shader_kind kind; } kinds[] = {
            {"fragment", VC4_SHADER_FRAGMENT}, {"vertex", VC4_SHADER_VERTEX},
            {"coordinate", VC4_SHADER_COORDINATE}, {"user", VC4_SHADER_USER}, {"any", VC4_SHADER_ANY},
        };
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            if (!strcmp(arg, kinds[k].name)) {
                a->kind = kinds[k].kind;
                return -1;
            }
        tool_error("as: unknown --kind '%s'", arg);
        return 2;
    }
    case AS_INCLUDE_DIR: return vc4_asm_add_include_dir(a->as, arg) == VC4_OK ? -1 : 2;
    case AS_DEFINE: return as_define(a->as, arg) ? -1 : 2;
    case AS_PRE_INCLUDE:
        if (a->npre == (int)(sizeof a->pre / sizeof a->pre[0])) {
            tool_error("as: too many -i files");
            return 2;
        }
        a->pre[a->npre++] = arg;
        return -1;
    }
    return 2;
}

int cmd_as(int argc, char **argv)
{
    struct tool_diags diags = {0};
    struct vc4_asm_options opts = {0};
    opts.sink = tool_stderr_sink(&diags);
    opts.read_file = tool_asm_read; /* a directory or unreadable file is said so (issue 17) */
    struct as_args a = {.kind = VC4_SHADER_ANY};
    a.as = vc4_asm_create(&opts);
    if (!a.as) {
        tool_error("out of memory");
        return 2;
    }
    struct vc4_asm *as = a.as;
    const char *const *ins = a.ins;
    int rc = tool_parse_args(&as_cmd, argc, argv, 1, as_arg, &a);
    if (rc >= 0) {
        vc4_asm_destroy(as);
        return rc;
    }
    rc = 0;
    int nin = a.nin;
    const char *out = a.out;
    bool hex = a.hex, check = a.check;
    enum vc4_shader_kind kind = a.kind;
    if (!rc && !nin) {
        tool_error("no input file");
        usage(stderr);
        rc = 2;
    }
    if (!rc && !out && !hex && !a.c_out) {
        tool_error("raw output needs -o OUT (or use --hex or -C HEXOUT)");
        rc = 2;
    }
    if (!rc && (a.kernel || a.threaded) && !check) {
        tool_error("as: --kernel and --threaded go with --check");
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
    for (int k = 0; k < a.npre && st == VC4_OK; k++)
        st = vc4asm_preinclude(as, a.pre[k]);
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
        struct vc4_validate_options vo = {.kind = kind, .file = in, .kernel_rules = a.kernel,
                                          .threaded = a.threaded};
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
    if (a.c_out && !vc4asm_write_hex(a.c_out, bytes, size))
        rc = 2;
    vc4_asm_destroy(as);
    return rc;
}
