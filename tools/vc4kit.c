/*
 * vc4kit.c - the `vc4kit` command: one program, one subcommand per tool.
 */
#include <stdio.h>
#include <string.h>

#include "tool.h"

#ifndef VC4KIT_VERSION
#define VC4KIT_VERSION "0"
#endif

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} commands[] = {
    {"as", cmd_as, "assemble QPU code (vc4asm dialect)"},
    {"dis", cmd_dis, "disassemble QPU instruction words"},
    {"run", cmd_run, "run QPU user programs on the emulator"},
    {"render", cmd_render, "run binning + rendering control lists to a PNG"},
    {"cl", cmd_cl, "dump and validate control lists"},
    {"tex", cmd_tex, "convert images to and from texture formats"},
    {"exec", cmd_exec, "run an unmodified Pi GPU program on a virtual Pi"},
    {"boot", cmd_boot, "run a bare-metal Pi kernel image (ARM + V3D)"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: vc4kit COMMAND [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n`vc4kit COMMAND --help` describes each.\n"
               "\nEvery command:\n"
               "  exit status  0 done; 1 the input is wrong (assembly errors, an invalid list,\n"
               "               a guest fault or timeout, a broken rule with --strict, a\n"
               "               --expect mismatch); 2 a usage or file error (unknown option,\n"
               "               bad value, missing, unreadable or unwritable file). Every\n"
               "               non-zero exit says why on stderr, naming the file.\n"
               "  numbers      decimal, 0x hex or 0b binary; a bad or out-of-range value is\n"
               "               refused with the range (\"--qpus takes 1..%u\")\n"
               "  --qpus N     1..%u QPUs everywhere (the Pi's V3D has %u, the default device)\n"
               "  -o -         stdout, where the output is text; '-' as an input is stdin\n"
               "  inputs       at most %zu MiB (program text %zu MiB), checked before reading\n"
               "Hardware terms the output uses (VPM, VDW, NV/GL mode, P0/P1, ...) are explained\n"
               "in docs/glossary.md.\n",
            TOOL_QPUS_MAX, TOOL_QPUS_MAX, TOOL_QPUS_DEFAULT, TOOL_MAX_INPUT >> 20, TOOL_MAX_TEXT >> 20);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        tool_error("no COMMAND given");
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("vc4kit %s\n", VC4KIT_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    tool_error("unknown command '%s' (try `vc4kit --help`)", argv[1]);
    return 2;
}
