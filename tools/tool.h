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
};
struct vc4_diag_sink tool_stderr_sink(struct tool_diags *state);

/* Read a whole file ("-" = stdin). Returns NULL and prints an error. */
uint8_t *tool_read_file(const char *path, size_t *len);
/* Write a whole file ("-" = stdout). Prints an error and returns false. */
bool tool_write_file(const char *path, const void *data, size_t len);

/* Parse an unsigned number: decimal, 0x hex, 0b binary. */
bool tool_parse_u64(const char *s, uint64_t *out);
/* Parse a 32-bit value: hex, decimal (signed allowed), or a float with '.'. */
bool tool_parse_u32_value(const char *s, uint32_t *out);

/* "vc4kit: error: ..." on stderr. */
void tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

struct vc4_asm;
/* Assemble vc4asm-dialect text at bus address base into malloc'd bytes;
 * NULL on errors (reported to sink). With keep, the assembler is returned
 * (for label look-ups) and the caller destroys it. */
uint8_t *tool_assemble(const char *path, const uint8_t *text, size_t len, uint32_t base,
                       struct vc4_diag_sink sink, size_t *out_len, struct vc4_asm **keep);

/* Does the file look like assembly source text (not a raw binary)? */
bool tool_looks_like_text(const uint8_t *data, size_t len);

#endif
