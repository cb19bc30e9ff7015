/*
 * jit_io.h - the unit accesses a compiled block makes (jit.h, jit.c):
 * the fast I/O kinds of qpu.h (a general TMU lookup, an ldtmu, a VPM row
 * write, a VPM write setup, an ALU form's uniform, VPM or varying read)
 * called back into the emulator through this port, the block knowing
 * nothing of the units.  Included by the emulator and by the prelude
 * every block is compiled with (jit_prelude.inc), so that both see one
 * layout.
 *
 * Each access is the fast path's own (qpu.c io_write_fast, ldtmu_fast):
 * it happens only when the unit would report nothing, and returns false
 * with nothing done otherwise; the block then stops before the
 * instruction (ran = the instructions it did run), and the interpreter
 * takes it the general way, with its diagnostics.  An ldtmu whose data
 * is not there yet ends the run after it (stalled: the next instruction
 * waits, as run_fast cuts its budget there).  Blocks holding these run
 * only where run_fast runs: one QPU alone, nobody else stepping, so the
 * order of the accesses between QPUs (the shared TMU cache, the VPM) is
 * that of the steps.
 */
#ifndef VC4_EMU_JIT_IO_H
#define VC4_EMU_JIT_IO_H

#include <stdbool.h>
#include <stdint.h>

/* The accesses, one table for every run (jit_io_port). */
struct vc4_jit_ops {
    /* a general lookup of TMU<unit> (as the instruction names it) */
    bool (*tmu_s)(void *v, unsigned char *q, unsigned unit, const uint32_t *val, uint64_t now);
    /* a VPM row write, a VPM write setup (its element 0) */
    bool (*vpm_w)(void *v, unsigned char *q, const uint32_t *val, uint64_t now);
    bool (*vpm_setup)(void *v, unsigned char *q, const uint32_t *val, uint64_t now);
    /* ldtmu<unit>: the result into r4v (r4 itself is written after the
     * instruction's ALU part has read it), *ready when it is there */
    bool (*ldtmu)(void *v, unsigned char *q, unsigned unit, uint32_t *r4v, uint64_t now, uint64_t *ready);
    /* after the ldtmu's ALU part and r4: the stall and the port's post
     * (a fragment shader's r5); true when the data is not there yet */
    bool (*ldtmu_after)(void *v, unsigned char *q, uint64_t ready, uint64_t now);
    /* an ALU form's operand read from outside the register files (qpu.h
     * enum vc4_xi_io_read: a uniform, a VPM or a varying read) into the
     * QPU's in_a / in_b, before its ALU part */
    bool (*operand)(void *v, unsigned char *q, unsigned reads, uint64_t now);
    /* after an instruction that read a varying: its C into r5 (the port's post) */
    void (*post)(void *v, unsigned char *q);
};

struct vc4_jit_io {
    void *v;       /* struct vc4_v3d */
    /* the cycle before the run's first instruction: instruction from + k
     * issues in cycle base + k + 1 (run_fast's "now") */
    uint64_t base;
    /* set by the block when it stops early (else it ran from .. to - 1) */
    unsigned ran;
    bool stopped, stalled;
    const struct vc4_jit_ops *ops; /* (a table: a run's port is five words to set up) */
};

#endif
