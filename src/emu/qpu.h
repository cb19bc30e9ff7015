/*
 * qpu.h - one QPU (internal): register files A and B (32 x 16 elements
 * each), accumulators r0-r5, per-element Z/N/C flags, PC with the branch
 * and thread-end delay-slot pipelines, the uniforms pointer, r4's SFU
 * latency, and the decoded-instruction cache shared by all QPUs.
 */
#ifndef VC4_EMU_QPU_H
#define VC4_EMU_QPU_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/qpu_alu.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

struct vc4_v3d;

#define VC4_QPU_REGS 32u
#define VC4_QPU_BRANCH_SLOTS 3u  /* delay slots after a branch (facts 18) */
#define VC4_QPU_THREND_SLOTS 2u  /* delay slots after thrend (facts 19) */
#define VC4_QPU_UNIF_HAZARD 2u   /* no uniform reads for 2 instrs after unif_addr (facts 22) */
#define VC4_QPU_INSTR_BYTES 8u

/* One decoded instruction, cached by address; the word is compared on each
 * fetch so a changed word (host write, DMA) is decoded again. */
struct vc4_icache_entry {
    uint64_t word;
    uint32_t addr; /* RAM offset */
    bool valid;
    bool reserved;     /* an invalid/reserved encoding (fault) */
    uint16_t warned;   /* rule warnings already given at this address */
    struct vc4_qpu_instr in;
};

#define VC4_ICACHE_ENTRIES 4096u /* power of two; 32 KB of code */

struct vc4_icache {
    struct vc4_icache_entry *e;
};

/* A branch taken after its delay slots. */
struct vc4_qpu_branch {
    uint32_t target;
    uint8_t left; /* instructions still to execute before it takes effect; 0 = none */
};

struct vc4_qpu {
    uint32_t ra[VC4_QPU_REGS][VC4_QPU_SIMD];
    uint32_t rb[VC4_QPU_REGS][VC4_QPU_SIMD];
    uint32_t acc[6][VC4_QPU_SIMD];
    uint16_t zf, nf, cf; /* per-element flags, bit i = element i */

    unsigned num;
    enum vc4_emu_qpu_state state;
    const char *blocked_on;
    uint32_t pc;
    uint32_t unif;          /* next uniform's bus address */
    uint32_t unif_len;
    uint8_t unif_hazard;    /* instructions left in which uniform reads are early */

    struct vc4_qpu_branch br[2];
    uint8_t thrend_left;    /* 0 = no thread end pending; else delay slots + 1 */
    uint32_t sfu_result[VC4_QPU_SIMD];
    uint8_t sfu_left;       /* instructions until sfu_result lands in r4 */
    uint32_t last_mul[VC4_QPU_SIMD]; /* previous mul result (mnop quirk, facts 20) */
    uint32_t prev_wa, prev_wb; /* physical regs written by the previous instruction */
    uint8_t prev_acc;          /* accumulators written by the previous instruction */
    uint8_t tmu_noswap_age;    /* instructions since a TMU_NOSWAP write (rule 6) */
    bool user;                 /* running a user program from the SRQ */
    uint64_t time;             /* this QPU's cycle count */
    uint64_t stall_until;      /* blocked until this cycle (VPM wait, TMU) */
    uint64_t instructions;
};

enum vc4_qpu_step {
    VC4_QPU_STEP_OK,
    VC4_QPU_STEP_BLOCKED, /* nothing happened; retry next cycle */
    VC4_QPU_STEP_ENDED,   /* thread end completed */
    VC4_QPU_STEP_FAULT,   /* stopped; a diagnostic was given */
};

enum vc4_status vc4_icache_init(struct vc4_icache *c, const struct vc4_allocator *alloc);
void vc4_icache_fini(struct vc4_icache *c, const struct vc4_allocator *alloc);
void vc4_icache_clear(struct vc4_icache *c);

void vc4_qpu_reset(struct vc4_qpu *q, unsigned num);
/* Start a program (registers keep their contents, as on hardware). */
void vc4_qpu_start(struct vc4_qpu *q, uint32_t pc, uint32_t unif, uint32_t unif_len, bool user);
/* Issue one instruction (or stall). */
enum vc4_qpu_step vc4_qpu_step(struct vc4_v3d *v, struct vc4_qpu *q);
/* Decode (through the cache) the instruction at bus address pc; false if
 * outside memory. */
bool vc4_qpu_fetch(struct vc4_v3d *v, uint32_t pc, struct vc4_icache_entry **out);

#endif
