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

#include "spec/rules.h"
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
          "  --kernel       validate: a binning list as handed to the Linux kernel, and the\n"
          "                 kernel's rules (vc4_validate.c: whitelist, GEM handles 254, ...)\n"
          "  --mem          validate: FILE is the whole memory image: every address\n"
          "                 must fall inside it, and shader records, attribute arrays\n"
          "                 and index buffers are read from it\n"
          "  --mem-size N   validate: memory is [ADDR, ADDR+N): addresses are checked\n"
          "                 against it (with --mem, FILE's bytes are read as well)\n"
          "  -o OUT         output file (default stdout)\n"
          "Both stop where the executor stops: at a Halt or Branch (or a byte that is no\n"
          "packet), and say where on stderr; dump prints the bytes after it as .byte data.\n"
          "dump prints assembler text: `vc4kit as` with v3d_cl.qinc gives back the bytes.\n"
          "qinc prints share/vc4kit/v3d_cl.qinc, the macros that text uses.\n"
          "Exit status: 0 fine, 1 a malformed or invalid list, 2 usage or file errors.\n",
          f);
}

struct cl_args {
    const char *verb, *file, *out;
    uint64_t addr, start, end, mem_size;
    bool has_start, has_end, has_mem_size, no_comments, kernel, mem;
    unsigned list;
};

enum { OPT_BIN, OPT_RENDER, OPT_NO_COMMENTS, OPT_KERNEL, OPT_MEM, OPT_START, OPT_END, OPT_MEM_SIZE, OPT_OUT };
#define CL_ADDR_MAX (UINT32_MAX + UINT64_C(1)) /* one past the last bus address */
#define CL_LIST_OPTS                                                         \
    {"--bin", NULL, TOOL_OPT_FLAG, OPT_BIN, 0, 0},                           \
    {"--render", NULL, TOOL_OPT_FLAG, OPT_RENDER, 0, 0},                     \
    {"--start", NULL, TOOL_OPT_NUMBER, OPT_START, 0, CL_ADDR_MAX},           \
    {"--end", NULL, TOOL_OPT_NUMBER, OPT_END, 0, CL_ADDR_MAX}
static const struct tool_opt dump_opts[] = {
    CL_LIST_OPTS,
    {"--no-comments", NULL, TOOL_OPT_FLAG, OPT_NO_COMMENTS, 0, 0},
    {"-o", NULL, TOOL_OPT_STRING, OPT_OUT, 0, 0},
};
static const struct tool_opt validate_opts[] = {
    CL_LIST_OPTS,
    {"--kernel", NULL, TOOL_OPT_FLAG, OPT_KERNEL, 0, 0},
    {"--mem", NULL, TOOL_OPT_FLAG, OPT_MEM, 0, 0},
    {"--mem-size", NULL, TOOL_OPT_NUMBER, OPT_MEM_SIZE, 0, CL_ADDR_MAX},
};
static const struct tool_opt qinc_opts[] = {
    {"-o", NULL, TOOL_OPT_STRING, OPT_OUT, 0, 0},
};
static const struct tool_cmd cl_cmds[] = {
    {"cl dump", usage, dump_opts, TOOL_NOPTS(dump_opts)},
    {"cl validate", usage, validate_opts, TOOL_NOPTS(validate_opts)},
    {"cl qinc", usage, qinc_opts, TOOL_NOPTS(qinc_opts)},
};

static int cl_arg(void *user, int id, const char *arg, uint64_t num)
{
    struct cl_args *a = user;
    switch (id) {
    case OPT_BIN: a->list = VC4_CL_LIST_BIN; break;
    case OPT_RENDER: a->list = VC4_CL_LIST_RENDER; break;
    case OPT_NO_COMMENTS: a->no_comments = true; break;
    case OPT_KERNEL: a->kernel = true; break;
    case OPT_MEM: a->mem = true; break;
    case OPT_START: a->start = num, a->has_start = true; break;
    case OPT_END: a->end = num, a->has_end = true; break;
    case OPT_MEM_SIZE: a->mem_size = num, a->has_mem_size = true; break;
    case OPT_OUT: a->out = arg; break;
    default:
        if (!strcmp(a->verb, "qinc")) {
            tool_error("cl qinc: takes no FILE ('%s'); -o OUT names the output", arg);
            return 2;
        }
        if (a->file) {
            tool_error("cl %s: more than one input file ('%s' and '%s')", a->verb, a->file, arg);
            return 2;
        }
        a->file = arg;
    }
    return -1;
}

/* Where the list ended and why, said the same way by dump and validate. */
static void say_extent(const char *verb, const char *path, uint64_t start, size_t len,
                       const struct vc4_cl_extent *e)
{
    if (e->stop == VC4_CL_STOP_END || e->stop == VC4_CL_STOP_BAD)
        return; /* the whole range, or a framing error reported as one */
    size_t rest = len - e->len;
    if (rest == 0)
        return;
    tool_note("cl %s: %s: the list ends at the %s at 0x%08llx (+%zu); the %zu byte%s after it %s "
              "(--start/--end choose another range)",
              verb, path, vc4_cl_stop_name(e), (unsigned long long)(start + e->stop_offset), e->stop_offset,
              rest, rest == 1 ? "" : "s", !strcmp(verb, "dump") ? "are dumped as .byte data" : "were not checked");
}

/* Passes on only the reader's framing errors (unknown opcode, truncated
 * packet, malformed items). */
struct framing_filter {
    const struct vc4_diag_sink *next;
};
static void framing_only(void *user, const struct vc4_diag *d)
{
    const struct framing_filter *ff = user;
    static const enum vc4_rule_id framing[] = {VC4_RULE_CL_UNKNOWN_OPCODE, VC4_RULE_CL_TRUNCATED,
                                               VC4_RULE_CL_BAD_ITEMS};
    for (size_t i = 0; d->rule && i < sizeof framing / sizeof framing[0]; i++)
        if (!strcmp(d->rule, vc4_rule_table[framing[i]].id)) {
            ff->next->fn(ff->next->user, d);
            return;
        }
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
        if (argc < 2)
            tool_error("cl: which one: dump, validate or qinc?");
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
    struct cl_args a = {.verb = verb};
    int rc = tool_parse_args(&cl_cmds[dump ? 0 : validate ? 1 : 2], argc, argv, 2, cl_arg, &a);
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
        tool_error("cl %s: no FILE given", verb);
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
    if (size == 0) { /* nothing the command can use is an error (issue 17) */
        tool_error("cl %s: %s: empty: no control list", verb, path);
        free(data);
        free(path);
        return 1;
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
    struct tool_diags diags = {.file = path};
    struct vc4_diag_sink sink = tool_stderr_sink(&diags);
    struct vc4_cl_extent ext;
    vc4_cl_list_extent(list, len, &ext);
    say_extent(verb, path, start, len, &ext);

    if (dump) {
        /* the whole file is the memory shader records are read from */
        struct vc4_cl_dump_options o = {.base_addr = (uint32_t)start, .lists = a.list,
                                        .no_comments = a.no_comments, .list_only = true,
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
        /* a list that stops at a byte that is no packet is reported, too */
        if (rc == 0 && ext.stop == VC4_CL_STOP_BAD) {
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
            fprintf(stderr, "%s: %zu bytes of list checked, no problems found\n", path,
                    a.kernel ? len : ext.len); /* the extent stops at the kernel's packet 254 */
    }
    free(data);
    free(path);
    return rc;
}
