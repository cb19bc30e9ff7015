/*
 * v3d.h - the emulated V3D device (internal): owns the bus memory and every
 * hardware unit, one state struct each.  The public handle struct vc4_emu
 * wraps it (include/vc4kit/emu.h).
 *
 * Units hang off struct vc4_v3d; each has a reset.  The QPU calls the VPM
 * unit (src/emu/vpm.h) for I/O registers 48-50 and the TMU unit
 * (src/emu/tmu.h) for TMU writes 56-63, tmu_noswap (36) and ldtmu0/1.
 */
#ifndef VC4_EMU_V3D_H
#define VC4_EMU_V3D_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "emu/mem.h"
#include "emu/qpu.h"
#include "emu/regs.h"
#include "emu/sched.h"
#include "emu/sema.h"
#include "emu/vpm.h"
#include "emu/tmu.h"
#include "emu/ptb.h"
#include "emu/ctl.h"
#include "emu/fsi.h"
#include "emu/tlb.h"
#include "emu/vsi.h"
#include "emu/prof.h"
#include "vc4kit/emu.h"

/* BCM2835: 3 slices of 4 QPUs; the register map has room for 16. */
#define VC4_V3D_MAX_QPUS 16
#define VC4_V3D_QPUS_PER_SLICE 4
#define VC4_V3D_DEFAULT_QPUS 12
#define VC4_V3D_DEFAULT_BUDGET UINT64_C(100000000)

struct vc4_v3d {
    struct vc4_mem mem;
    unsigned num_qpus;
    bool strict;
    bool cycle_by_cycle;            /* vc4_emu_options.cycle_by_cycle: no sleeping QPUs (qpu.c) */
    struct vc4_diag_sink sink;      /* the caller's */
    struct vc4_diag_sink unit_sink; /* counts, then forwards to sink: given to units */
    const struct vc4_allocator *alloc;
    uint64_t default_budget;

    struct vc4_regs regs;   /* register file values (regs.c) */
    struct vc4_sched sched; /* user-program queue, QPU interleaving (sched.c) */
    struct vc4_sema sema;   /* 16 semaphores and the mutex (sema.c) */
    struct vc4_icache icache; /* decoded instructions by address (qpu.c) */
    /* Memory generation: bumped whenever memory may have been written
     * (vc4_emu_mem_write, a VDW store, and at the start of each run once
     * vc4_emu_mem_ptr has handed out a pointer the host may write through);
     * cached instruction words are compared with memory again after it
     * changes. */
    uint64_t code_gen;
    /* Bumped by every step that takes the general path and by every
     * decode: the only steps that can change a semaphore, the mutex or
     * memory, or fill the instruction cache.  The sleeping scheduler
     * (qpu.c awake_from) looks for what a step changed only when this
     * moved. */
    uint32_t slow_steps;
    bool mem_exposed;
    struct vc4_vpm vpm;     /* VPM, VDR, VDW (vpm.c) */
    struct vc4_tmu tmu;     /* general-memory TMU lookups (tmu.c) */
    struct vc4_ptb ptb;     /* binner: tile lists, tile state, overflow (ptb.c) */
    struct vc4_ctl ctl;     /* CT0/CT1 control-list threads, rendering state (ctl.c) */
    struct vc4_tlb tlb;     /* tile buffer: colour, Z/stencil, loads/stores (tlb.c) */
    struct vc4_fsi fsi;     /* fragment shading on the QPUs (fsi.c) */
    struct vc4_vsi vsi;     /* GL mode: vertex / coordinate shading on the QPUs (vsi.c, vcd.c) */
    struct vc4_qpu qpu[VC4_V3D_MAX_QPUS];
    /* the QPUs as a free run found them, to take a run back (qpu.c run_free) */
    struct vc4_qpu free_from[VC4_V3D_MAX_QPUS];
    uint64_t free_taken_back; /* runs taken back, since the emulator was made (tests) */
    unsigned free_skip, free_backoff; /* speculative free runs to skip; the next skip, 0: 1 (qpu.c run_blocks) */

    /* ALU kernels for this run: host-arithmetic ones when the floating-point
     * environment allows them (vc4_alu_fp_enter), else the exact ones */
    const struct vc4_alu_kernels *alu;
    struct vc4_jit *jit; /* compiled QPU code (jit.h); NULL: the interpreter only */
    struct vc4_par *par; /* the second host thread (par.h); NULL: one thread */
    unsigned par_min; /* the helper's least share of a free run (par.h; tests lower it) */
    uint64_t helper_base; /* the JIT's helper count at the last reset (vc4_emu_host_stats) */
    /* QPU instructions by the way the engine ran them, since reset
     * (vc4_emu_host_stats; counted per stretch in qpu.c, not per step) */
    uint64_t ran_alone, ran_side_by_side, ran_lockstep;
    struct vc4_prof prof; /* the QPU code profiler (prof.h; vc4_emu_options.profile) */

    struct vc4_emu_stats stats;
    enum vc4_status fault; /* first fault / strict-mode error of this run */
};

struct vc4_emu {
    struct vc4_v3d v3d;
    void *block; /* the allocation it lies in (aligned: vc4_calloc_aligned) */
};

/* Run whole cycles of the QPUs in act (vc4_qpu_run_cycles) for a unit that
 * knows which kind of program they run (sched.c: user programs, vsi.c:
 * coordinate / vertex shaders, fsi.c: fragment shaders), and charge the
 * cycles, instructions and stall cycles to that kind's counters t (and
 * the profiler's samples to that kind).  (A user program still running
 * from an earlier timed-out vc4_emu_run while the lists shade is charged to
 * the shading kind: the units run all busy QPUs.) */
static inline uint64_t vc4_v3d_run_kind(struct vc4_v3d *v, enum vc4_emu_program_kind kind, struct vc4_emu_qpu_time *t,
                                        const uint8_t *act, unsigned nact, uint64_t max_cycles, bool *ended)
{
    v->prof.kind = (uint8_t)kind; /* (what the profiler's samples in this run are of) */
    uint64_t i0 = v->stats.instructions, s0 = v->stats.stall_cycles;
    uint64_t ran = vc4_qpu_run_cycles(v, act, nact, max_cycles, ended);
    t->cycles += ran;
    t->instructions += v->stats.instructions - i0;
    t->stall_cycles += v->stats.stall_cycles - s0;
    return ran;
}

/* A run's host floating-point environment and ALU kernels (vc4_emu_run's):
 * the C default environment with the host kernels when it allows them,
 * the caller's environment back after.  Code that drives a unit directly
 * (a benchmark of one unit) brackets it with these too, or runs on the
 * exact kernels, which give the same bits more slowly. */
void vc4_v3d_fp_enter(struct vc4_v3d *v, struct vc4_alu_fpenv *env);
void vc4_v3d_fp_leave(struct vc4_v3d *v, struct vc4_alu_fpenv *env);

/* Diagnostics from the QPUs: unit "qpu", location = QPU and PC, the
 * disassembled instruction appended to the message.  vc4_v3d_rule warns (or,
 * in strict mode, errors and stops the run). */
void vc4_v3d_qpu_diag(struct vc4_v3d *v, const struct vc4_qpu *q, enum vc4_severity sev,
                      enum vc4_diag_class cls, const char *rule, const char *source,
                      const char *fmt, ...) VC4_PRINTF(7, 8);
/* A guest fault: reported as an error; the run stops with VC4_ERR_FAULT. */
#define vc4_v3d_fault(v, q, ...) \
    vc4_v3d_qpu_diag((v), (q), VC4_ERROR, VC4_DIAG_FAULT, NULL, NULL, __VA_ARGS__)

#endif
