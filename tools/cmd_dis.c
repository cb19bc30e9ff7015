/*
 * cmd_dis.c - `vc4kit dis`: QPU words to vc4asm text.
 *
 *   vc4kit dis FILE            raw little-endian 64-bit words
 *   vc4kit dis --hex FILE      text with "0xLO, 0xHI" pairs (';' '//' '#' comments)
 *   --explain  --fields  --addr ADDR  --no-addr  -o OUT
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "vc4kit/qpu.h"

static void usage(FILE *f)
{
    fputs("usage: vc4kit dis [--hex] [--explain] [--fields] [--addr ADDR] [--no-addr] [-o OUT] FILE\n"
          "Disassemble QPU instructions into vc4asm syntax; the output assembles back\n"
          "to the identical words (`vc4kit as`).\n"
          "  --hex        FILE is text holding 0xLO, 0xHI pairs (as in .word lines)\n"
          "  --explain    add the field-by-field account of each instruction\n"
          "  --fields     add name=value for every raw field\n"
          "  --addr ADDR  byte address of the first instruction (default 0)\n"
          "  --no-addr    do not print the address/word comment column\n"
          "  -o OUT       write to OUT instead of stdout\n",
          f);
}

/* Collects every 0x... number in the text (outside comments) and pairs them. */
static uint64_t *parse_hex_pairs(const char *path, const char *text, size_t len, size_t *count)
{
    size_t cap = 256, n = 0, halves = 0;
    uint64_t *w = malloc(cap * sizeof *w);
    uint32_t lo = 0;
    unsigned line = 1;
    for (size_t i = 0; w && i < len;) {
        char c = text[i];
        if (c == '\n') {
            line++;
            i++;
        } else if (c == ';' || c == '#' || (c == '/' && i + 1 < len && text[i + 1] == '/')) {
            while (i < len && text[i] != '\n')
                i++;
        } else if (c == '0' && i + 1 < len && (text[i + 1] == 'x' || text[i + 1] == 'X') &&
                   (i == 0 || !isalnum((unsigned char)text[i - 1]))) {
            i += 2;
            uint64_t v = 0;
            int digits = 0;
            while (i < len && isxdigit((unsigned char)text[i])) {
                int d = isdigit((unsigned char)text[i]) ? text[i] - '0' : (tolower((unsigned char)text[i]) - 'a' + 10);
                v = (v << 4) | (uint64_t)d;
                if (++digits > 8) {
                    fprintf(stderr, "%s:%u: error: hex value wider than 32 bits\n", path, line);
                    free(w);
                    return NULL;
                }
                i++;
            }
            if (!digits) {
                fprintf(stderr, "%s:%u: error: '0x' without digits\n", path, line);
                free(w);
                return NULL;
            }
            if (halves++ % 2 == 0) {
                lo = (uint32_t)v;
            } else {
                if (n == cap) {
                    uint64_t *q = realloc(w, (cap *= 2) * sizeof *w);
                    if (!q) {
                        free(w);
                        return NULL;
                    }
                    w = q;
                }
                w[n++] = ((uint64_t)v << 32) | lo;
            }
        } else {
            i++;
        }
    }
    if (w && halves % 2) {
        fprintf(stderr, "%s: error: odd number of 32-bit halves (%zu): the last word is incomplete\n",
                path, halves);
        free(w);
        return NULL;
    }
    *count = n;
    return w;
}

enum dis_opt { DIS_HEX, DIS_EXPLAIN, DIS_FIELDS, DIS_NO_ADDR, DIS_ADDR, DIS_OUT };

static const struct tool_opt dis_opts[] = {
    {.name = "--hex", .kind = TOOL_OPT_FLAG, .id = DIS_HEX},
    {.name = "--explain", .kind = TOOL_OPT_FLAG, .id = DIS_EXPLAIN},
    {.name = "--fields", .kind = TOOL_OPT_FLAG, .id = DIS_FIELDS},
    {.name = "--no-addr", .kind = TOOL_OPT_FLAG, .id = DIS_NO_ADDR},
    {.name = "--addr", .kind = TOOL_OPT_NUMBER, .id = DIS_ADDR, .min = 0, .max = 0xFFFFFFFFu},
    {.name = "-o", .kind = TOOL_OPT_STRING, .id = DIS_OUT},
};
static const struct tool_cmd dis_cmd = {"dis", usage, dis_opts, TOOL_NOPTS(dis_opts)};

struct dis_args {
    bool hex, addr_col;
    unsigned flags;
    uint64_t base;
    const char *in, *out;
};

static int dis_arg(void *user, int id, const char *arg, uint64_t num)
{
    struct dis_args *a = user;
    switch (id) {
    case TOOL_ARG_POSITIONAL:
        if (a->in) {
            tool_error("dis: more than one input file");
            return 2;
        }
        a->in = arg;
        return -1;
    case DIS_HEX: a->hex = true; return -1;
    case DIS_EXPLAIN: a->flags |= VC4_DIS_EXPLAIN; return -1;
    case DIS_FIELDS: a->flags |= VC4_DIS_FIELDS; return -1;
    case DIS_NO_ADDR: a->addr_col = false; return -1;
    case DIS_ADDR: a->base = num; return -1;
    case DIS_OUT: a->out = arg; return -1;
    }
    return 2;
}

int cmd_dis(int argc, char **argv)
{
    struct dis_args a = {.addr_col = true, .out = "-"};
    int rc = tool_parse_args(&dis_cmd, argc, argv, 1, dis_arg, &a);
    if (rc >= 0)
        return rc;
    bool hex = a.hex, addr_col = a.addr_col;
    unsigned flags = a.flags;
    uint64_t base = a.base;
    const char *in = a.in, *out = a.out;
    if (!in) {
        usage(stderr);
        return 2;
    }
    size_t len;
    uint8_t *data = tool_read_file_max(in, TOOL_MAX_TEXT, &len);
    if (!data)
        return 2;
    size_t n = 0;
    uint64_t *words = NULL;
    if (hex) {
        words = parse_hex_pairs(in, (const char *)data, len, &n);
        if (!words) {
            free(data);
            return 1;
        }
    } else {
        if (len % 8) {
            tool_error("dis: %s: size %zu is not a multiple of 8 bytes", in, len);
            free(data);
            return 1;
        }
        n = len / 8;
        words = malloc((n ? n : 1) * sizeof *words);
        for (size_t i = 0; words && i < n; i++)
            words[i] = vc4_qpu_load_le(data + 8 * i);
    }
    free(data);
    if (!words) {
        tool_error("dis: out of memory");
        return 1;
    }
    if (n == 0) { /* an input with nothing to disassemble is an error (issue 17) */
        tool_error("dis: %s: %s", in, hex ? "no 0xLO, 0xHI pairs found" : "empty: no instructions");
        free(words);
        return 1;
    }
    FILE *f = tool_open_output("dis", out);
    if (!f) {
        free(words);
        return 2;
    }
    char line[2048];
    for (size_t i = 0; i < n; i++) {
        struct vc4_qpu_instr ins;
        vc4_qpu_decode(words[i], &ins);
        uint32_t pc = (uint32_t)(base + 8 * i);
        vc4_qpu_disasm(&ins, pc, flags, line, sizeof line);
        if (addr_col)
            fprintf(f, "\t%-52s # %04x: 0x%08x, 0x%08x\n", line, pc, (uint32_t)words[i],
                    (uint32_t)(words[i] >> 32));
        else
            fprintf(f, "\t%s\n", line);
    }
    free(words);
    return tool_close_output("dis", out, f) ? 0 : 2;
}
