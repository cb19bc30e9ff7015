/*
 * cmd_run.c - `vc4kit run`: a QPU user program on the emulated V3D,
 * started through the user-program request queue as bare metal does.
 *
 *   vc4kit run PROGRAM [--qpus N] [--uniforms LIST]... [--load FILE@ADDR]...
 *                      [--dump ADDR:BYTES]... [--max-cycles N] [--strict]
 */
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

/* Where the program and the uniform streams go (bus addresses). */
#define RUN_CODE_ADDR 0x00100000u
#define RUN_UNIF_ADDR 0x00200000u
#define RUN_UNIF_STRIDE 0x00010000u /* 16K uniforms per QPU stream */
#define RUN_MAX_LIST 64

static void usage(FILE *f)
{
    fputs("usage: vc4kit run PROGRAM [--qpus N] [--uniforms LIST]... [--load FILE@ADDR]...\n"
          "                  [--dump ADDR:BYTES]... [--max-cycles N] [--strict]\n"
          "Run a QPU user program on the emulated V3D (queued through SRQUA/SRQUL/SRQPC).\n"
          "  PROGRAM            raw little-endian instruction words, or assembly source\n"
          "  --qpus N           start the program on N QPUs (default 1, at most 12)\n"
          "  --uniforms LIST    comma-separated 32-bit values (0x hex, decimal, 1.0 floats);\n"
          "                     the i-th option is QPU i's stream, the last serves the rest\n"
          "  --load FILE@ADDR   copy FILE into memory at bus address ADDR first\n"
          "  --dump ADDR:BYTES  after the run, print memory as 0x%08x words\n"
          "  --max-cycles N     cycle budget (default 100000000)\n"
          "  --strict           hardware-rule violations are errors\n"
          "The program is placed at 0x00100000; uniform stream i at 0x00200000 + i*0x10000.\n"
          "Exit status: 0 when every program ended, 1 on a guest error or timeout, 2 on\n"
          "bad arguments or files.\n",
          f);
}

struct dump { uint32_t addr, bytes; };

static bool parse_at(const char *s, char sep, char **left, uint64_t *right)
{
    const char *p = strrchr(s, sep);
    if (!p || p == s)
        return false;
    if (!tool_parse_u64(p + 1, right))
        return false;
    size_t n = (size_t)(p - s);
    *left = malloc(n + 1);
    if (!*left)
        return false;
    memcpy(*left, s, n);
    (*left)[n] = 0;
    return true;
}

static uint32_t *parse_list(const char *s, size_t *count)
{
    size_t cap = 16, n = 0;
    uint32_t *v = malloc(cap * sizeof *v);
    char *copy = malloc(strlen(s) + 1);
    if (!v || !copy) {
        free(v);
        free(copy);
        return NULL;
    }
    strcpy(copy, s);
    for (char *tok = strtok(copy, ", \t"); tok; tok = strtok(NULL, ", \t")) {
        if (n == cap) {
            uint32_t *w = realloc(v, (cap *= 2) * sizeof *v);
            if (!w)
                goto fail;
            v = w;
        }
        if (!tool_parse_u32_value(tok, &v[n])) {
            tool_error("run: bad uniform value '%s'", tok);
            goto fail;
        }
        n++;
    }
    free(copy);
    *count = n;
    return v;
fail:
    free(copy);
    free(v);
    return NULL;
}

/*
 * A `.word` listing as the seed posts print programs (the examples/seeds .hex files):
 * only `.word A, B, ...` lines with ';', '#' or '//' comments.  vc4asm reads
 * ';' as a statement separator, so these are taken as data here; NULL if
 * any other line appears (the text is then assembled).
 */
static uint8_t *read_words(const char *path, const uint8_t *text, size_t len, size_t *out_len)
{
    size_t cap = 256, n = 0;
    uint8_t *out = malloc(cap);
    unsigned line = 1;
    size_t i = 0;
    while (out && i < len) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        char buf[1024];
        size_t l = e - i < sizeof buf - 1 ? e - i : sizeof buf - 1;
        memcpy(buf, text + i, l);
        buf[l] = 0;
        for (char *c = buf; *c; c++)
            if (*c == ';' || *c == '#' || (c[0] == '/' && c[1] == '/')) {
                *c = 0;
                break;
            }
        char *p = buf;
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (*p) {
            if (strncmp(p, ".word", 5) != 0 || (p[5] != ' ' && p[5] != '\t')) {
                free(out); /* not a .word listing: assemble it */
                return NULL;
            }
            for (char *tok = strtok(p + 5, ", \t\r"); tok; tok = strtok(NULL, ", \t\r")) {
                uint32_t v;
                if (!tool_parse_u32_value(tok, &v)) {
                    fprintf(stderr, "%s:%u: error: bad value '%s'\n", path, line, tok);
                    free(out);
                    return NULL;
                }
                if (n + 4 > cap) {
                    uint8_t *w = realloc(out, cap *= 2);
                    if (!w) {
                        free(out);
                        return NULL;
                    }
                    out = w;
                }
                for (int k = 0; k < 4; k++)
                    out[n++] = (uint8_t)(v >> (8 * k));
            }
        }
        i = e + 1;
        line++;
    }
    *out_len = n;
    return out;
}


int cmd_run(int argc, char **argv)
{
    const char *prog = NULL;
    unsigned qpus = 1;
    uint64_t max_cycles = 0;
    bool strict = false;
    const char *unif_opts[RUN_MAX_LIST];
    const char *load_opts[RUN_MAX_LIST];
    struct dump dumps[RUN_MAX_LIST];
    size_t nunif = 0, nload = 0, ndump = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--strict")) {
            strict = true;
        } else if (!strcmp(a, "--qpus") || !strcmp(a, "--uniforms") || !strcmp(a, "--load") ||
                   !strcmp(a, "--dump") || !strcmp(a, "--max-cycles")) {
            if (!val) {
                tool_error("run: %s needs a value", a);
                return 2;
            }
            i++;
            uint64_t n;
            if (!strcmp(a, "--qpus")) {
                if (!tool_parse_u64(val, &n) || n < 1 || n > 12) {
                    tool_error("run: --qpus takes 1..12, not '%s'", val);
                    return 2;
                }
                qpus = (unsigned)n;
            } else if (!strcmp(a, "--max-cycles")) {
                if (!tool_parse_u64(val, &n) || n == 0) {
                    tool_error("run: bad --max-cycles '%s'", val);
                    return 2;
                }
                max_cycles = n;
            } else if (!strcmp(a, "--uniforms")) {
                if (nunif == RUN_MAX_LIST) { tool_error("run: too many --uniforms"); return 2; }
                unif_opts[nunif++] = val;
            } else if (!strcmp(a, "--load")) {
                if (nload == RUN_MAX_LIST) { tool_error("run: too many --load"); return 2; }
                load_opts[nload++] = val;
            } else {
                char *addr_s = NULL;
                uint64_t bytes, addr;
                if (ndump == RUN_MAX_LIST || !parse_at(val, ':', &addr_s, &bytes) ||
                    !tool_parse_u64(addr_s, &addr) || addr > UINT32_MAX || bytes > UINT32_MAX) {
                    free(addr_s);
                    tool_error("run: bad --dump '%s' (want ADDR:BYTES)", val);
                    return 2;
                }
                free(addr_s);
                dumps[ndump++] = (struct dump){(uint32_t)addr, (uint32_t)bytes};
            }
        } else if (a[0] == '-' && a[1]) {
            tool_error("run: unknown option '%s'", a);
            usage(stderr);
            return 2;
        } else if (!prog) {
            prog = a;
        } else {
            tool_error("run: more than one PROGRAM ('%s')", a);
            return 2;
        }
    }
    if (!prog) {
        usage(stderr);
        return 2;
    }

    struct tool_diags diags = {.quiet_notes = true}; /* notes only with as --check */
    struct vc4_diag_sink sink = tool_stderr_sink(&diags);
    size_t len;
    uint8_t *data = tool_read_file(prog, &len);
    if (!data)
        return 2;
    if (tool_looks_like_text(data, len)) {
        size_t n = 0;
        uint8_t *code = read_words(prog, data, len, &n);
        if (!code)
            code = tool_assemble(prog, data, len, RUN_CODE_ADDR, sink, &n, NULL);
        free(data);
        if (!code)
            return 2;
        data = code;
        len = n;
    }
    if (len == 0 || len % 8) {
        tool_error("run: %s: %zu bytes is not a whole number of instructions", prog, len);
        free(data);
        return 2;
    }

    struct vc4_emu_options eo = {.sink = sink, .strict = strict, .max_cycles = max_cycles};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    if (!emu) {
        free(data);
        return 2;
    }
    int rc = 0;
    if (vc4_emu_mem_write(emu, RUN_CODE_ADDR, data, len) != VC4_OK) {
        tool_error("run: program too large");
        rc = 2;
    }
    free(data);

    for (size_t i = 0; rc == 0 && i < nload; i++) {
        char *file = NULL;
        uint64_t addr;
        if (!parse_at(load_opts[i], '@', &file, &addr) || addr > UINT32_MAX) {
            tool_error("run: bad --load '%s' (want FILE@ADDR)", load_opts[i]);
            free(file);
            rc = 2;
            break;
        }
        size_t n;
        uint8_t *d = tool_read_file(file, &n);
        if (!d || vc4_emu_mem_write(emu, (uint32_t)addr, d, n) != VC4_OK) {
            if (d)
                tool_error("run: --load %s: 0x%08x+%zu is outside memory", file, (unsigned)addr, n);
            rc = 2;
        }
        free(d);
        free(file);
    }

    /* uniform streams */
    for (unsigned q = 0; rc == 0 && q < qpus && nunif; q++) {
        if (q >= nunif && q > 0)
            break; /* the last stream serves the rest */
        size_t n = 0;
        uint32_t *u = parse_list(unif_opts[q], &n);
        if (!u) {
            rc = 2;
            break;
        }
        if (n > RUN_UNIF_STRIDE / 4) {
            tool_error("run: more than %u uniforms for QPU %u", RUN_UNIF_STRIDE / 4, q);
            rc = 2;
        }
        for (size_t k = 0; rc == 0 && k < n; k++) {
            uint8_t b[4] = {(uint8_t)u[k], (uint8_t)(u[k] >> 8), (uint8_t)(u[k] >> 16), (uint8_t)(u[k] >> 24)};
            vc4_emu_mem_write(emu, RUN_UNIF_ADDR + q * RUN_UNIF_STRIDE + 4 * (uint32_t)k, b, 4);
        }
        free(u);
    }

    if (rc == 0) {
        /* as hello_fft launches user programs (hardware facts 11) */
        vc4_emu_reg_write(emu, VC4_V3D_DBCFG, 0);
        vc4_emu_reg_write(emu, VC4_V3D_DBQITE, 0);
        vc4_emu_reg_write(emu, VC4_V3D_DBQITC, ~0u);
        vc4_emu_reg_write(emu, VC4_V3D_L2CACTL, 4);
        vc4_emu_reg_write(emu, VC4_V3D_SLCACTL, ~0u);
        vc4_emu_reg_write(emu, VC4_V3D_SRQCS, (1u << 7) | (1u << 8) | (1u << 16));
        for (unsigned q = 0; q < qpus; q++) {
            unsigned stream = nunif == 0 ? 0 : (q < nunif ? q : (unsigned)nunif - 1);
            vc4_emu_reg_write(emu, VC4_V3D_SRQUA, RUN_UNIF_ADDR + stream * RUN_UNIF_STRIDE);
            vc4_emu_reg_write(emu, VC4_V3D_SRQUL, RUN_UNIF_STRIDE / 4);
            vc4_emu_reg_write(emu, VC4_V3D_SRQPC, RUN_CODE_ADDR);
        }
        enum vc4_status st = vc4_emu_run(emu, max_cycles);
        uint32_t srqcs = 0;
        vc4_emu_reg_read(emu, VC4_V3D_SRQCS, &srqcs);
        unsigned done = (srqcs >> VC4_V3D_SRQCS_QPURQCC_SHIFT) & 0xFF;
        if (st != VC4_OK) {
            tool_error("run: %s (%u of %u programs completed)", vc4_status_name(st), done, qpus);
            rc = 1;
        }
        for (size_t i = 0; i < ndump; i++) {
            uint32_t words = dumps[i].bytes / 4;
            for (uint32_t w = 0; w < words; w++) {
                uint8_t b[4];
                if (vc4_emu_mem_read(emu, dumps[i].addr + 4 * w, b, 4) != VC4_OK) {
                    tool_error("run: --dump 0x%08x: outside memory", dumps[i].addr + 4 * w);
                    rc = rc ? rc : 2;
                    break;
                }
                printf("0x%08x%c", (unsigned)(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24),
                       (w % 8 == 7 || w + 1 == words) ? '\n' : ' ');
            }
        }
    }
    vc4_emu_destroy(emu);
    return rc;
}
