/*
 * cmd_cl.c - `vc4kit cl`: dump and validate V3D control lists.
 *
 *   vc4kit cl dump FILE[@ADDR] [--start A] [--end A] [--bin|--render] [-o OUT]
 *   vc4kit cl validate FILE[@ADDR] [--start A] [--end A] [--bin|--render]
 *                      [--kernel] [--mem] [--mem-size N]
 *   vc4kit cl qinc [-o OUT]
 *
 * FILE holds raw bytes loaded at bus address ADDR (default 0); --start and
 * --end are bus addresses inside it (default: the whole file).
 */
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include "vc4kit/cl.h"

static void usage(FILE *f)
{
    fputs("usage: vc4kit cl dump FILE[@ADDR] [--start A] [--end A] [--bin|--render]\n"
          "                      [--no-comments] [-o OUT]\n"
          "       vc4kit cl validate FILE[@ADDR] [--start A] [--end A] [--bin|--render]\n"
          "                      [--kernel] [--mem] [--mem-size N]\n"
          "       vc4kit cl qinc [-o OUT]\n"
          "Dump or check a V3D 2.1 control list (docs/control-lists.md).\n"
          "  FILE@ADDR      raw bytes, loaded at bus address ADDR (default 0)\n"
          "  --start A      address of the list's first byte (default ADDR)\n"
          "  --end A        address one past its last byte (default: end of FILE)\n"
          "  --bin/--render which list it is: binning (CT0) or rendering (CT1);\n"
          "                 validate guesses from the packets when neither is given\n"
          "  --no-comments  dump: only the assembler text, no offsets and names\n"
          "  --kernel       validate: also the Linux kernel's submit-time rules\n"
          "  --mem          validate: FILE is the whole memory image: every address\n"
          "                 must fall inside it, and shader records, attribute arrays\n"
          "                 and index buffers are read from it\n"
          "  --mem-size N   validate: memory is [ADDR, ADDR+N): addresses are checked\n"
          "                 against it (with --mem, FILE's bytes are read as well)\n"
          "  -o OUT         output file (default stdout)\n"
          "dump prints assembler text: `vc4kit as` with v3d_cl.qinc gives back the bytes.\n"
          "qinc prints share/vc4kit/v3d_cl.qinc, the macros that text uses.\n"
          "Exit status: 0 fine, 1 a malformed or invalid list, 2 usage or file errors.\n",
          f);
}

struct cl_args {
    const char *file, *out;
    uint64_t addr, start, end, mem_size;
    bool has_start, has_end, has_mem_size, no_comments, kernel, mem;
    unsigned list;
};

static int parse_args(int argc, char **argv, struct cl_args *a)
{
    for (int i = 2; i < argc; i++) {
        const char *s = argv[i];
        uint64_t v;
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(s, "--bin")) {
            a->list = VC4_CL_LIST_BIN;
        } else if (!strcmp(s, "--render")) {
            a->list = VC4_CL_LIST_RENDER;
        } else if (!strcmp(s, "--no-comments")) {
            a->no_comments = true;
        } else if (!strcmp(s, "--kernel")) {
            a->kernel = true;
        } else if (!strcmp(s, "--mem")) {
            a->mem = true;
        } else if ((!strcmp(s, "--start") || !strcmp(s, "--end") || !strcmp(s, "--mem-size")) &&
                   i + 1 < argc) {
            if (!tool_parse_u64(argv[i + 1], &v) || v > UINT32_MAX + UINT64_C(1)) {
                tool_error("%s: bad number '%s'", s, argv[i + 1]);
                return 2;
            }
            if (!strcmp(s, "--start"))
                a->start = v, a->has_start = true;
            else if (!strcmp(s, "--end"))
                a->end = v, a->has_end = true;
            else
                a->mem_size = v, a->has_mem_size = true;
            i++;
        } else if (!strcmp(s, "-o") && i + 1 < argc) {
            a->out = argv[++i];
        } else if (s[0] == '-' && s[1]) {
            tool_error("unknown option '%s' (see `vc4kit cl --help`)", s);
            return 2;
        } else if (!a->file) {
            a->file = s;
        } else {
            tool_error("more than one input file");
            return 2;
        }
    }
    return -1; /* go on */
}

/* Passes on only the reader's framing errors (unknown opcode, truncated
 * packet, malformed items). */
struct framing_filter {
    const struct vc4_diag_sink *next;
};
static void framing_only(void *user, const struct vc4_diag *d)
{
    const struct framing_filter *ff = user;
    if (d->rule && (!strcmp(d->rule, "cl-unknown-opcode") || !strcmp(d->rule, "cl-truncated") ||
                    !strcmp(d->rule, "cl-bad-items")))
        ff->next->fn(ff->next->user, d);
}

/* Split FILE@ADDR (the last '@' followed by a number). */
static char *split_addr(const char *spec, uint64_t *addr, bool *bad)
{
    *addr = 0;
    *bad = false;
    char *name = malloc(strlen(spec) + 1);
    if (!name)
        return NULL;
    strcpy(name, spec);
    char *at = strrchr(name, '@');
    if (at) {
        uint64_t v;
        if (tool_parse_u64(at + 1, &v) && v <= UINT32_MAX) {
            *at = 0;
            *addr = v;
        } else {
            *bad = true;
        }
    }
    return name;
}

int cmd_cl(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *verb = argv[1];
    bool dump = !strcmp(verb, "dump"), validate = !strcmp(verb, "validate"),
         qinc = !strcmp(verb, "qinc");
    if (!dump && !validate && !qinc) {
        tool_error("cl: unknown subcommand '%s' (dump, validate, qinc)", verb);
        return 2;
    }
    struct cl_args a = {0};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;
    const char *out = a.out ? a.out : "-";

    if (qinc) {
        size_t n = vc4_cl_qinc(NULL, 0);
        char *text = malloc(n + 1);
        if (!text) {
            tool_error("out of memory");
            return 2;
        }
        vc4_cl_qinc(text, n + 1);
        rc = tool_write_file(out, text, n) ? 0 : 2;
        free(text);
        return rc;
    }
    if (!a.file) {
        usage(stderr);
        return 2;
    }
    bool bad;
    char *path = split_addr(a.file, &a.addr, &bad);
    if (!path) {
        tool_error("out of memory");
        return 2;
    }
    if (bad) {
        tool_error("%s: bad load address (want FILE@ADDR)", a.file);
        free(path);
        return 2;
    }
    size_t size = 0;
    uint8_t *data = tool_read_file(path, &size);
    if (!data) {
        free(path);
        return 2;
    }
    uint64_t lo = a.addr, hi = a.addr + size;
    uint64_t start = a.has_start ? a.start : lo, end = a.has_end ? a.end : hi;
    if (start < lo || start > hi || end < start || end > hi) {
        tool_error("%s: the list 0x%llx..0x%llx is not inside the file (0x%llx..0x%llx)", path,
                   (unsigned long long)start, (unsigned long long)end, (unsigned long long)lo,
                   (unsigned long long)hi);
        free(data);
        free(path);
        return 2;
    }
    const uint8_t *list = data + (start - lo);
    size_t len = (size_t)(end - start);
    struct tool_diags diags = {0};
    struct vc4_diag_sink sink = tool_stderr_sink(&diags);

    if (dump) {
        /* the whole file is the memory shader records are read from */
        struct vc4_cl_dump_options o = {.base_addr = (uint32_t)start, .lists = a.list,
                                        .no_comments = a.no_comments,
                                        .mem_base = (uint32_t)lo, .mem_size = size, .mem = data};
        size_t n = vc4_cl_dump(list, len, &o, NULL, 0);
        char *text = malloc(n + 1);
        if (!text) {
            tool_error("out of memory");
            rc = 2;
        } else {
            vc4_cl_dump(list, len, &o, text, n + 1);
            rc = tool_write_file(out, text, n) ? 0 : 2;
            free(text);
        }
        /* a list the reader cannot walk to its end is reported, too */
        struct vc4_cl_reader r;
        vc4_cl_reader_init(&r, list, len);
        while (vc4_cl_next(&r, NULL)) {
        }
        if (rc == 0 && r.error != VC4_CL_LEN_OK) {
            /* the validator words the problem the same way as `validate`;
             * only its framing diagnostics are wanted here */
            struct framing_filter ff = {.next = &sink};
            struct vc4_diag_sink fs = {framing_only, &ff};
            struct vc4_cl_validate_options vo = {.list = a.list, .base_addr = (uint32_t)start};
            vc4_cl_validate(list, len, &vo, &fs);
            rc = 1;
        }
    } else {
        struct vc4_cl_validate_options vo = {
            .list = a.list,
            .base_addr = (uint32_t)start,
            .mem_base = (uint32_t)lo,
            .mem_size = a.has_mem_size ? a.mem_size : a.mem ? size : 0,
            .mem = a.mem ? data : NULL,
            .kernel_rules = a.kernel,
        };
        if (vo.mem && vo.mem_size > size)
            vo.mem = NULL; /* memory larger than the file: only ranges are checked */
        rc = vc4_cl_validate(list, len, &vo, &sink) == VC4_OK && diags.errors == 0 ? 0 : 1;
        if (rc == 0 && diags.warnings == 0)
            fprintf(stderr, "%s: %zu bytes, no problems found\n", path, len);
    }
    free(data);
    free(path);
    return rc;
}
