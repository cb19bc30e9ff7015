/*
 * cmd_as.c - `vc4kit as`: vc4asm-dialect QPU source to instruction words.
 *
 *   vc4kit as FILE -o OUT           raw little-endian bytes
 *   vc4kit as --hex FILE [-o OUT]   "0xLO, 0xHI," lines, one instruction each
 *   -I DIR  -D NAME[=VALUE]  --check [--kind fragment|vertex|coordinate|user]
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
    fputs("usage: vc4kit as [--hex] [-I DIR]... [-D NAME[=VALUE]]... [--check [--kind KIND]]\n"
          "                 [-o OUT] FILE\n"
          "Assemble QPU source in the vc4asm dialect (docs/assembly.md).\n"
          "  -o OUT       output file (default: stdout with --hex; required otherwise)\n"
          "  --hex        write \"0xLO, 0xHI,\" lines, one instruction per line\n"
          "  -I DIR       search DIR for .include files (after the including file's dir)\n"
          "  -D NAME=VAL  predefine a symbol, as .set NAME, VAL (VAL defaults to 1)\n"
          "  --check      run the hardware-rule validator on the result\n"
          "  --kind KIND  shader kind for --check: fragment, vertex, coordinate, user\n"
          "               (default: rules that hold for any program)\n",
          f);
}

int cmd_as(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    bool hex = false, check = false;
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
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
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
        } else if (!in) {
            in = a;
        } else {
            tool_error("more than one input file");
            rc = 2;
        }
    }
    if (!rc && !in) {
        usage(stderr);
        rc = 2;
    }
    if (!rc && !out && !hex) {
        tool_error("raw output needs -o OUT (or use --hex)");
        rc = 2;
    }
    if (rc) {
        vc4_asm_destroy(as);
        return rc;
    }
    if (access(in, R_OK) != 0) { /* name the file and the reason (issue 18) */
        tool_error("as: %s: %s", in, strerror(errno));
        vc4_asm_destroy(as);
        return 2;
    }
    enum vc4_status st = vc4_asm_file(as, in);
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
    } else if (!tool_write_file(out, bytes, size)) {
        rc = 2;
    }
    vc4_asm_destroy(as);
    return rc;
}
