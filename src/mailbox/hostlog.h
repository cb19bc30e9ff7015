/*
 * hostlog.h - what a host runtime of vc4kit prints: the virtual Pi of
 * `vc4kit exec` (mailbox.c, for programs that drive the V3D through the
 * mailbox and /dev/mem) and the DRM backend (src/drmshim/vc4kit_drm.c, for
 * OpenGL programs through Mesa) report alike, from the same options
 * (docs/exec.md):
 *
 *   VC4KIT_DIAG       off | error | warn (default) | all: what is printed
 *   VC4KIT_DIAG_FILE  diagnostics and statistics go there (appended), not
 *                     to stderr
 *   VC4KIT_STATS      0 | 1: the statistics at exit
 *   VC4KIT_PROFILE    0 | 1: where the QPUs spent their cycles, by
 *                     instruction, at exit (vc4_emu_options.profile)
 *
 * A diagnostic the level shows is printed the first time its kind (rule
 * id, else unit, or for host messages their format) occurs at an address,
 * and counted; at exit the counts are listed.  What the level hides is
 * neither printed nor counted.  These layers print by
 * design (they stand in for a device, so nobody else would); the library
 * under them never does.  Not thread-safe: the caller holds its own lock.
 */
#ifndef VC4_MAILBOX_HOSTLOG_H
#define VC4_MAILBOX_HOSTLOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vc4kit/diag.h"
#include "vc4kit/emu.h"

enum vc4_hostlog_level { VC4_HOSTLOG_OFF, VC4_HOSTLOG_ERROR, VC4_HOSTLOG_WARN, VC4_HOSTLOG_ALL };

#define VC4_HOSTLOG_KEYS 256

/* One kind of diagnostic at one address: printed once, counted. */
struct vc4_hostlog_key {
    const void *kind; /* rule id, unit or format string (stable pointers) */
    int cls;
    int64_t addr;
    uint64_t count;
    char what[48]; /* rule id, the call the message names, or unit */
};

struct vc4_hostlog {
    enum vc4_hostlog_level level;
    FILE *out; /* stderr, or VC4KIT_DIAG_FILE */
    bool stats;
    bool profile; /* the emulator is made with vc4_emu_options.profile */
    struct vc4_hostlog_key keys[VC4_HOSTLOG_KEYS];
    unsigned nkeys;
    uint64_t unkeyed; /* diagnostics beyond the key table (each printed) */
};

/* The options from the environment.  False for a bad one, with why set to
 * what to say ("VC4KIT_STATS=x: expected 0 or 1"); the caller says it,
 * when it matters to the program (the DRM backend only once a program uses
 * the render node: it is loaded into every program `vc4kit exec` runs). */
bool vc4_hostlog_open(struct vc4_hostlog *l, char *why, size_t why_size);
/* VC4KIT_DIAG_FILE closed (stderr stays open). */
void vc4_hostlog_close(struct vc4_hostlog *l);

/* Count d under (kind, class, address); print it if it is the first and
 * the level shows it. */
void vc4_hostlog_record(struct vc4_hostlog *l, const void *kind, const struct vc4_diag *d);
/* A diagnostic sink for an emulator: kind = rule id, else unit.  user = the log. */
void vc4_hostlog_sink(void *user, const struct vc4_diag *d);

/* At exit: the counts of the diagnostics printed, each once. */
void vc4_hostlog_summary(struct vc4_hostlog *l);
/* The emulator's counters (vc4_emu_stats_report), each line starting
 * "vc4kit stats: "; the caller adds its own "vc4kit stats: host: ..." line. */
void vc4_hostlog_stats(struct vc4_hostlog *l, const struct vc4_emu *emu);
/* The QPU code profile (vc4_emu_profile_report, the 30 instructions with
 * most samples), each line starting "vc4kit: ". */
void vc4_hostlog_profile(struct vc4_hostlog *l, const struct vc4_emu *emu);

#endif
