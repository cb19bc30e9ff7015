/*
 * tool.h - shared pieces of the `vc4kit` command: the only code that has
 * main(), argv, stdout/stderr and exit codes.
 */
#ifndef VC4_TOOL_H
#define VC4_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vc4kit/diag.h"
#include "vc4kit/emu.h"

/* The emulator's reports to f (vc4kit run / render / boot): every counter
 * (vc4_emu_stats_report, each line after prefix) and the QPU code profile
 * (vc4_emu_profile_report, the TOOL_PROFILE_TOP instructions with most
 * samples).  False when the text could not be made (said on stderr). */
#define TOOL_PROFILE_TOP 20u
bool tool_print_stats(FILE *f, const struct vc4_emu *emu, const char *prefix);
bool tool_print_profile(FILE *f, const struct vc4_emu *emu, const char *prefix);

/* Each subcommand: argv[0] is the subcommand name. Returns the exit status. */
int cmd_as(int argc, char **argv);
int cmd_dis(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_cl(int argc, char **argv);
int cmd_tex(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_boot(int argc, char **argv);

/* Prints diagnostics to stderr in the one format (vc4_diag_format). */
struct tool_diags {
    unsigned errors, warnings;
    bool quiet_notes;
    const char *file; /* the input a diagnostic without a source position is about, or NULL */
};
struct vc4_diag_sink tool_stderr_sink(struct tool_diags *state);

/* The most any input file may hold unless a command says less: the
 * emulated bus memory's default size; nothing larger can be used. */
#define TOOL_MAX_INPUT ((size_t)VC4_EMU_DEFAULT_MEM_SIZE)
/* ... and of program text or words (the assembler's own include limit). */
#define TOOL_MAX_TEXT ((size_t)64 << 20)

/* Read a whole file ("-" = stdin) of at most max bytes. Returns NULL and
 * prints an error naming the file (missing, a directory, larger than max:
 * checked before reading, and a stream is read no further than max). */
uint8_t *tool_read_file_max(const char *path, size_t max, size_t *len);
/* tool_read_file_max(path, TOOL_MAX_INPUT, len) */
uint8_t *tool_read_file(const char *path, size_t *len);
/* Write a whole file ("-" = stdout). Prints an error and returns false. */
bool tool_write_file(const char *path, const void *data, size_t len);
/* fopen(path, "w") for an output ("-" = stdout); NULL after an error naming
 * it. tool_close_output flushes/closes it and reports a failed write. */
FILE *tool_open_output(const char *cmd, const char *path);
bool tool_close_output(const char *cmd, const char *path, FILE *f);

/*
 * One option table per command, parsed by one function: no strcmp chains.
 * A NUMBER option's value is checked against [min, max] here, so every
 * command words a bad value the same way ("run: --qpus takes 1..16, not 'x'").
 */
enum tool_opt_kind { TOOL_OPT_FLAG, TOOL_OPT_STRING, TOOL_OPT_NUMBER };
struct tool_opt {
    const char *name;        /* "--qpus" */
    const char *alt;         /* a second spelling ("-q"), or NULL */
    enum tool_opt_kind kind;
    int id;                  /* what the command's handler switches on */
    uint64_t min, max;       /* TOOL_OPT_NUMBER: the accepted range */
};
struct tool_cmd {
    const char *name;              /* "run", "cl dump": the prefix of messages */
    void (*usage)(FILE *f);
    const struct tool_opt *opts;
    size_t nopts;
};
/* TOOL_ARG_POSITIONAL: an argument that is not an option (arg is it). */
#define TOOL_ARG_POSITIONAL (-1)
/* Called per option / positional argument: -1 to go on, else an exit status. */
typedef int (*tool_opt_fn)(void *user, int id, const char *arg, uint64_t num);
/* Parse argv[first..argc): a string option named by one letter ("-I") also
 * takes its value written onto it ("-Idir"); --help / -h (unless the table has them) print the
 * usage and give 0; an unknown option, a missing or bad value give 2 with a
 * message. Returns -1 when every argument was taken. */
int tool_parse_args(const struct tool_cmd *c, int argc, char **argv, int first, tool_opt_fn fn,
                    void *user);
#define TOOL_NOPTS(t) (sizeof(t) / sizeof((t)[0]))

/* Valid --qpus values of every command: V3D has at most 16 QPUs (4 slices
 * of 4); the BCM2835 has 12, the default. */
#define TOOL_QPUS_MAX 16u
#define TOOL_QPUS_DEFAULT 12u

/* The emulated device's memory as run and render create it
 * (vc4_emu_options.mem_size 0): what --load FILE@ADDR may fill. */
#define TOOL_EMU_MEM ((uint32_t)VC4_EMU_DEFAULT_MEM_SIZE)

/* --load FILE@ADDR: parsed, and FILE read (at most the bytes between ADDR
 * and the end of memory), before any device exists. */
struct tool_load {
    char *file;
    uint32_t addr;
    uint8_t *data;
    size_t len;
};
/* false after a message naming the option or the file */
bool tool_load_read(const char *cmd, const char *spec, struct tool_load *out);
void tool_load_free(struct tool_load *l);

/* Parse an unsigned number: decimal, 0x hex, 0b binary. */
bool tool_parse_u64(const char *s, uint64_t *out);
/* Parse a 32-bit value: hex, decimal (signed allowed), or a float with '.'. */
bool tool_parse_u32_value(const char *s, uint32_t *out);

/* "vc4kit: error: ..." / "vc4kit: warning: ..." / "vc4kit: ..." on stderr. */
void tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tool_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tool_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Is stderr a terminal (progress lines are printed only there)? */
bool tool_stderr_is_tty(void);

struct vc4_asm;
/* Assemble vc4asm-dialect text at bus address base into malloc'd bytes;
 * NULL on errors (reported to sink). With keep, the assembler is returned
 * (for label look-ups) and the caller destroys it. */
uint8_t *tool_assemble(const char *path, const uint8_t *text, size_t len, uint32_t base,
                       struct vc4_diag_sink sink, size_t *out_len, struct vc4_asm **keep);

/* The assembler's .include reader: a directory or an unreadable file is
 * refused with a message naming it; files are read up to TOOL_MAX_INPUT. */
enum vc4_status tool_asm_read(void *user, const char *path, char **data, size_t *len);

/* Does the file look like assembly source text (not a raw binary)? */
bool tool_looks_like_text(const uint8_t *data, size_t len);

#endif
