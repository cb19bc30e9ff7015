/*
 * prof.h - the QPU code profiler (internal): where the QPUs spend their
 * cycles, by instruction address (vc4_emu_options.profile; the public view
 * is vc4_emu_profile / vc4_emu_profile_report in vc4kit/emu.h).
 *
 * A sampler, as perf is, not a counter on every instruction: the QPU core's
 * fast paths (run_fast, compiled blocks, sleeping QPUs) stay as they are,
 * and cost nothing when the profiler is off.  About every
 * VC4_PROF_MEAN_PERIOD cycles, vc4_qpu_run_cycles stops at a cycle boundary
 * and each busy QPU is sampled: the instruction it is at (the next it
 * issues, or the one that waits) and what it does in that cycle:
 *   - issuing: it will issue that instruction;
 *   - stalled: it waits for a unit until a known cycle (stall_until: TMU
 *     data, a VPM read, a VDR / VDW wait);
 *   - blocked: it waits for another QPU (a semaphore, the mutex, the
 *     scoreboard: state BLOCKED).
 * The gaps between samples vary (a fixed sequence, the same in every run)
 * so that a loop whose length divides the mean is not always caught at the
 * same instruction.  The samples are a function of the emulated cycles
 * alone: the same on every host, engine (interpreter, compiled blocks,
 * cycle by cycle) and thread count, and stopping at a cycle boundary
 * changes nothing the QPUs do (test_qpu_sleep.c compares the runs;
 * test_prof.c checks the samples against programs whose time is known).
 */
#ifndef VC4_EMU_PROF_H
#define VC4_EMU_PROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

struct vc4_qpu;

#define VC4_PROF_MEAN_PERIOD 61u /* cycles between samples on average (a prime) */

/* One instruction's samples: an address and the word there (code loaded
 * again at an address is another instruction). */
struct vc4_prof_slot {
    uint32_t pc;   /* bus address */
    bool used;
    uint64_t word; /* the instruction */
    uint64_t issuing, stalled, blocked;
    uint8_t kind; /* enum vc4_emu_program_kind of its first sample */
};

struct vc4_prof {
    bool on;
    uint8_t kind;    /* enum vc4_emu_program_kind: what the running QPUs run (vc4_v3d_run_kind) */
    uint64_t next;   /* device cycle (vc4_sched.cycle) of the next sample */
    uint32_t rng;    /* the gaps' sequence */
    struct vc4_prof_slot *slots; /* open addressing by (pc, word) */
    size_t cap, used;            /* cap: a power of two, or 0 */
    uint64_t samples;            /* taken (the ones a full table dropped included) */
    uint64_t dropped;            /* not recorded: the table could not grow */
};

/* Off, no memory. */
void vc4_prof_init(struct vc4_prof *p, bool on);
void vc4_prof_fini(struct vc4_prof *p, const struct vc4_allocator *alloc);
/* Samples cleared, the gaps' sequence from its start; the first sample
 * falls after its first gap from cycle now. */
void vc4_prof_reset(struct vc4_prof *p, uint64_t now);
/* Sample qpu q, whose word at its PC is word (0 if unreadable). */
void vc4_prof_sample(struct vc4_prof *p, const struct vc4_allocator *alloc, const struct vc4_qpu *q,
                     uint64_t word);
/* After the samples of cycle p->next: the next sample's cycle. */
void vc4_prof_advance(struct vc4_prof *p);

#endif
