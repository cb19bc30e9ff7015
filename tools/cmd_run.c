/*
 * cmd_run.c - `vc4kit run`: a QPU user program on the emulated V3D,
 * started through the user-program request queue as bare metal does.
 *
 *   vc4kit run PROGRAM [--qpus N] [--uniforms LIST]... [--load FILE@ADDR]...
 *                      [--dump ADDR:BYTES]... [--max-cycles N] [--strict] [--stats] [--profile]
 */
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"
#include "base/base.h"
#include "spec/rules.h"
#include "emu/jit_env.h"

/* Where the program and the uniform streams go (bus addresses). */
#define RUN_CODE_ADDR 0x00100000u
#define RUN_UNIF_ADDR 0x00200000u
#define RUN_UNIF_STRIDE 0x00010000u /* 16K uniforms per QPU stream */
#define RUN_MAX_LIST 64

static void usage(FILE *f)
{
    fputs("usage: vc4kit run PROGRAM [--qpus N] [--uniforms LIST]... [--load FILE@ADDR]...\n"
          "                  [--dump ADDR:BYTES]... [--max-cycles N] [--strict] [--stats]\n"
          "                  [--profile]\n"
          "Run a QPU user program on the emulated V3D (queued through SRQUA/SRQUL/SRQPC).\n"
          "  PROGRAM            raw little-endian instruction words, a `.word` listing, or\n"
          "                     assembly source (at most 1 MiB of code)\n"
          "  --qpus N           start the program on N QPUs (1..16, default 1; the device\n"
          "                     has 12 QPUs as a Pi, or N when N is larger)\n"
          "  --uniforms LIST    comma-separated 32-bit values (0x hex, decimal, 1.0 floats);\n"
          "                     the i-th option is QPU i's stream, the last serves the rest.\n"
          "                     A program that reads more uniforms than its stream holds\n"
          "                     gets a unif-read-past-end warning (an error with --strict)\n"
          "  --load FILE@ADDR   copy FILE into memory at bus address ADDR first\n"
          "  --dump ADDR:BYTES  after the run, print memory as 0x%08x words\n"
          "  --max-cycles N     cycle budget (default 100000000)\n"
          "  --strict           hardware-rule violations are errors\n"
          "  --stats            after the run, print every counter of the V3D to stdout\n"
          "                     (QPU cycles, instructions and stalls, TMU, VPM; as\n"
          "                     `vc4kit render --stats`)\n"
          "  --profile          after the run, print where the QPUs spent their cycles, by\n"
          "                     instruction: the 20 with most samples (one about every 61\n"
          "                     cycles per busy QPU), issuing, stalled on a unit or blocked\n"
          "                     on another QPU, disassembled\n"
          "The program is placed at 0x00100000; uniform stream i at 0x00200000 + i*0x10000.\n"
          "Exit status: 0 when every program ended, 1 on a guest error, a timeout or (with\n"
          "--strict) a broken rule, 2 on bad arguments or files.\n",
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

/* "1, 2.0,0x3": every comma-separated item must be a value; an empty list
 * or an empty item ("1,,2", ",") is refused, as is a float out of range. */
static uint32_t *parse_list(const char *s, size_t *count)
{
    size_t cap = 16, n = 0;
    uint32_t *v = malloc(cap * sizeof *v);
    char *copy = malloc(strlen(s) + 1);
    if (!v || !copy) {
        free(v);
        free(copy);
        tool_error("run: out of memory");
        return NULL;
    }
    strcpy(copy, s);
    for (char *tok = copy, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = 0;
        while (*tok == ' ' || *tok == '\t')
            tok++;
        size_t l = strlen(tok);
        while (l && (tok[l - 1] == ' ' || tok[l - 1] == '\t'))
            tok[--l] = 0;
        if (!*tok) {
            tool_error("run: --uniforms '%s': an empty value (want V1,V2,...)", s);
            goto fail;
        }
        if (n == cap) {
            uint32_t *w = realloc(v, (cap *= 2) * sizeof *v);
            if (!w)
                goto fail;
            v = w;
        }
        if (!tool_parse_u32_value(tok, &v[n])) {
            tool_error("run: --uniforms: bad value '%s' (a 32-bit integer or a float)", tok);
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


enum { OPT_QPUS, OPT_UNIFORMS, OPT_LOAD, OPT_DUMP, OPT_MAX_CYCLES, OPT_STRICT, OPT_STATS, OPT_PROFILE };
static const struct tool_opt run_opts[] = {
    {"--qpus", NULL, TOOL_OPT_NUMBER, OPT_QPUS, 1, TOOL_QPUS_MAX},
    {"--uniforms", NULL, TOOL_OPT_STRING, OPT_UNIFORMS, 0, 0},
    {"--load", NULL, TOOL_OPT_STRING, OPT_LOAD, 0, 0},
    {"--dump", NULL, TOOL_OPT_STRING, OPT_DUMP, 0, 0},
    {"--max-cycles", NULL, TOOL_OPT_NUMBER, OPT_MAX_CYCLES, 1, UINT64_MAX},
    {"--strict", NULL, TOOL_OPT_FLAG, OPT_STRICT, 0, 0},
    {"--stats", NULL, TOOL_OPT_FLAG, OPT_STATS, 0, 0},
    {"--profile", NULL, TOOL_OPT_FLAG, OPT_PROFILE, 0, 0},
};
static const struct tool_cmd run_cmd = {"run", usage, run_opts, TOOL_NOPTS(run_opts)};

struct run_args {
    const char *prog;
    unsigned qpus;
    uint64_t max_cycles;
    bool strict, stats, profile;
    const char *unif_opts[RUN_MAX_LIST];
    const char *load_opts[RUN_MAX_LIST];
    struct dump dumps[RUN_MAX_LIST];
    size_t nunif, nload, ndump;
};

static int run_arg(void *user, int id, const char *arg, uint64_t num)
{
    struct run_args *a = user;
    switch (id) {
    case OPT_QPUS:
        a->qpus = (unsigned)num;
        break;
    case OPT_MAX_CYCLES:
        a->max_cycles = num;
        break;
    case OPT_STRICT:
        a->strict = true;
        break;
    case OPT_STATS:
        a->stats = true;
        break;
    case OPT_PROFILE:
        a->profile = true;
        break;
    case OPT_UNIFORMS:
    case OPT_LOAD: {
        size_t *n = id == OPT_UNIFORMS ? &a->nunif : &a->nload;
        if (*n == RUN_MAX_LIST) {
            tool_error("run: more than %u %s options", RUN_MAX_LIST, id == OPT_UNIFORMS ? "--uniforms" : "--load");
            return 2;
        }
        (id == OPT_UNIFORMS ? a->unif_opts : a->load_opts)[(*n)++] = arg;
        break;
    }
    case OPT_DUMP: {
        char *addr_s = NULL;
        uint64_t bytes, addr;
        if (a->ndump == RUN_MAX_LIST || !parse_at(arg, ':', &addr_s, &bytes) || !tool_parse_u64(addr_s, &addr) ||
            addr > UINT32_MAX || bytes > UINT32_MAX) {
            free(addr_s);
            tool_error("run: bad --dump '%s' (want ADDR:BYTES)", arg);
            return 2;
        }
        free(addr_s);
        a->dumps[a->ndump++] = (struct dump){(uint32_t)addr, (uint32_t)bytes};
        break;
    }
    default: /* PROGRAM */
        if (a->prog) {
            tool_error("run: more than one PROGRAM ('%s')", arg);
            return 2;
        }
        a->prog = arg;
    }
    return -1;
}

/* The program as instruction bytes (words, a .word listing or assembly). */
static uint8_t *load_program(const char *prog, struct vc4_diag_sink sink, size_t *out_len)
{
    size_t len;
    uint8_t *data = tool_read_file_max(prog, TOOL_MAX_TEXT, &len);
    if (!data)
        return NULL;
    if (len && tool_looks_like_text(data, len)) {
        size_t n = 0;
        uint8_t *code = read_words(prog, data, len, &n);
        if (!code)
            code = tool_assemble(prog, data, len, RUN_CODE_ADDR, sink, &n, NULL);
        free(data);
        if (!code)
            return NULL;
        data = code;
        len = n;
    }
    const char *why = len == 0 ? "holds no instructions"
                      : len % 8 ? "is not a whole number of 8-byte instructions"
                      : len > RUN_UNIF_ADDR - RUN_CODE_ADDR ? "is more than the 1 MiB of code below the uniforms"
                      : NULL;
    if (why) {
        tool_error("run: %s: %zu bytes %s", prog, len, why);
        free(data);
        return NULL;
    }
    *out_len = len;
    return data;
}

/*
 * Uniforms read past the stream given (issue 18): each QPU's uniforms
 * pointer after the run says how many it read. On hardware the uniform
 * stream is plain memory read onwards from SRQUA (SRQUL only sizes the
 * request, reference guide "QPU user program requests"), so a program that
 * reads past the values it was given computes with whatever follows: 0 here.
 * A program that moved its uniforms pointer itself (writes unif_addr) is
 * not checked. Checked after the run, so the QPU's fast path is untouched.
 */
static unsigned check_uniforms(struct vc4_emu *emu, const size_t *given, size_t nstreams, bool strict,
                               const struct vc4_diag_sink *sink)
{
    unsigned found = 0;
    size_t streams = nstreams ? nstreams : 1;
    for (unsigned q = 0; q < vc4_emu_num_qpus(emu); q++) {
        struct vc4_emu_qpu_info qi;
        if (vc4_emu_qpu_info(emu, q, &qi) != VC4_OK || qi.instructions == 0 || qi.uniforms_addr < RUN_UNIF_ADDR ||
            qi.uniforms_addr > RUN_UNIF_ADDR + streams * RUN_UNIF_STRIDE)
            continue;
        uint32_t off = qi.uniforms_addr - RUN_UNIF_ADDR;
        size_t s = off / RUN_UNIF_STRIDE;
        if (s == streams) /* read exactly to the end of the last stream's space */
            s--;
        size_t read = (off - s * RUN_UNIF_STRIDE) / 4, have = nstreams ? given[s] : 0;
        if (read <= have)
            continue;
        struct vc4_location loc = vc4_location_none();
        loc.qpu = (int)q;
        vc4_rule_report(sink, strict ? VC4_ERROR : VC4_WARNING, "qpu", VC4_RULE_UNIF_READ_PAST_END, &loc,
                      "the program read %zu uniform%s, but its stream at 0x%08x holds %zu (%s): the "
                      "rest are whatever memory holds there (0 here)",
                      read, read == 1 ? "" : "s", RUN_UNIF_ADDR + (uint32_t)s * RUN_UNIF_STRIDE, have,
                      nstreams ? "--uniforms" : "no --uniforms given");
        found++;
    }
    return found;
}

int cmd_run(int argc, char **argv)
{
    struct run_args a = {.qpus = 1};
    int prc = tool_parse_args(&run_cmd, argc, argv, 1, run_arg, &a);
    if (prc >= 0)
        return prc;
    if (!a.prog) {
        tool_error("run: no PROGRAM given");
        usage(stderr);
        return 2;
    }

    /* the uniform lists first: their errors need no device */
    uint32_t *unif[RUN_MAX_LIST] = {0};
    size_t given[RUN_MAX_LIST] = {0};
    int rc = 0;
    for (unsigned q = 0; rc == 0 && q < a.nunif; q++) {
        if (!(unif[q] = parse_list(a.unif_opts[q], &given[q]))) {
            rc = 2;
        } else if (given[q] > RUN_UNIF_STRIDE / 4) {
            tool_error("run: more than %u uniforms for QPU %u", RUN_UNIF_STRIDE / 4, q);
            rc = 2;
        }
    }
    /* then the --load files, and the program */
    struct tool_load loads[RUN_MAX_LIST] = {{0}};
    for (size_t i = 0; rc == 0 && i < a.nload; i++)
        if (!tool_load_read("run", a.load_opts[i], &loads[i]))
            rc = 2;
    struct tool_diags diags = {.file = a.prog, .quiet_notes = true}; /* notes only with as --check */
    struct vc4_diag_sink sink = tool_stderr_sink(&diags);
    size_t len = 0;
    uint8_t *data = rc ? NULL : load_program(a.prog, sink, &len);
    struct vc4_emu *emu = NULL;
    if (data) {
        struct vc4_emu_options eo = {.sink = sink, .strict = a.strict, .max_cycles = a.max_cycles,
                                     .num_qpus = a.qpus > TOOL_QPUS_DEFAULT ? a.qpus : 0, .profile = a.profile};
        char jit_dir[4096];
        vc4_jit_options_from_env(&eo, jit_dir, sizeof jit_dir);
        if (!(emu = vc4_emu_create(&eo)))
            tool_error("run: cannot create the emulated device");
    }
    if (!emu) {
        free(data);
        for (unsigned q = 0; q < a.nunif; q++)
            free(unif[q]);
        for (size_t i = 0; i < a.nload; i++)
            tool_load_free(&loads[i]);
        return 2;
    }

    vc4_emu_mem_write(emu, RUN_CODE_ADDR, data, len); /* fits: load_program checked the size */
    free(data);

    for (size_t i = 0; rc == 0 && i < a.nload; i++)
        if (vc4_emu_mem_write(emu, loads[i].addr, loads[i].data, loads[i].len) != VC4_OK) {
            tool_error("run: --load %s: 0x%08x+%zu is outside memory", loads[i].file, loads[i].addr, loads[i].len);
            rc = 2;
        }
    /* uniform streams (parsed before the device exists) */
    for (unsigned q = 0; rc == 0 && q < a.nunif; q++) {
        for (size_t k = 0; k < given[q]; k++) {
            uint8_t b[4] = {(uint8_t)unif[q][k], (uint8_t)(unif[q][k] >> 8), (uint8_t)(unif[q][k] >> 16),
                            (uint8_t)(unif[q][k] >> 24)};
            vc4_emu_mem_write(emu, RUN_UNIF_ADDR + q * RUN_UNIF_STRIDE + 4 * (uint32_t)k, b, 4);
        }
    }
    if (rc == 0 && a.nunif > a.qpus)
        tool_warning("run: %zu --uniforms streams for %u QPU%s: the last %zu are not used", a.nunif, a.qpus,
                     a.qpus > 1 ? "s" : "", a.nunif - a.qpus);

    if (rc == 0) {
        /* as hello_fft launches user programs (hardware facts 11) */
        vc4_emu_reg_write(emu, VC4_V3D_DBCFG, 0);
        vc4_emu_reg_write(emu, VC4_V3D_DBQITE, 0);
        vc4_emu_reg_write(emu, VC4_V3D_DBQITC, ~0u);
        vc4_emu_reg_write(emu, VC4_V3D_L2CACTL, 4);
        vc4_emu_reg_write(emu, VC4_V3D_SLCACTL, ~0u);
        vc4_emu_reg_write(emu, VC4_V3D_SRQCS, (1u << 7) | (1u << 8) | (1u << 16));
        for (unsigned q = 0; q < a.qpus; q++) {
            unsigned stream = a.nunif == 0 ? 0 : (q < a.nunif ? q : (unsigned)a.nunif - 1);
            vc4_emu_reg_write(emu, VC4_V3D_SRQUA, RUN_UNIF_ADDR + stream * RUN_UNIF_STRIDE);
            vc4_emu_reg_write(emu, VC4_V3D_SRQUL, RUN_UNIF_STRIDE / 4);
            vc4_emu_reg_write(emu, VC4_V3D_SRQPC, RUN_CODE_ADDR);
        }
        enum vc4_status st = vc4_emu_run(emu, a.max_cycles);
        uint32_t srqcs = 0;
        vc4_emu_reg_read(emu, VC4_V3D_SRQCS, &srqcs);
        unsigned done = (srqcs >> VC4_V3D_SRQCS_QPURQCC_SHIFT) & 0xFF;
        if (st != VC4_OK) {
            tool_error("run: %s: %s (%u of %u programs completed)", a.prog, vc4_status_name(st), done, a.qpus);
            rc = 1;
        }
        if (check_uniforms(emu, given, a.nunif, a.strict, &sink) && a.strict) {
            tool_error("run: %s: uniforms read past the end of the stream given (--strict)", a.prog);
            rc = 1;
        }
        for (size_t i = 0; i < a.ndump; i++) {
            uint32_t words = a.dumps[i].bytes / 4;
            for (uint32_t w = 0; w < words; w++) {
                uint8_t b[4];
                if (vc4_emu_mem_read(emu, a.dumps[i].addr + 4 * w, b, 4) != VC4_OK) {
                    tool_error("run: --dump 0x%08x: outside memory", a.dumps[i].addr + 4 * w);
                    rc = rc ? rc : 2;
                    break;
                }
                printf("0x%08x%c", (unsigned)(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24),
                       (w % 8 == 7 || w + 1 == words) ? '\n' : ' ');
            }
        }
        if (a.stats) {
            fputs("run stats:\n", stdout);
            tool_print_stats(stdout, emu, "  ");
        }
        if (a.profile)
            tool_print_profile(stdout, emu, "");
    }
    vc4_emu_destroy(emu);
    for (unsigned q = 0; q < a.nunif; q++)
        free(unif[q]);
    for (size_t i = 0; i < a.nload; i++)
        tool_load_free(&loads[i]);
    return rc;
}
