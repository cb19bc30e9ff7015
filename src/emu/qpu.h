/*
 * qpu.h - one QPU (internal): register files A and B (32 x 16 elements
 * each), accumulators r0-r5, per-element Z/N/C flags, PC with the branch
 * and thread-end delay-slot pipelines, the uniforms pointer, r4's SFU
 * latency, and the decoded-instruction cache shared by all QPUs.
 */
#ifndef VC4_EMU_QPU_H
#define VC4_EMU_QPU_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "emu/qpu_alu.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

struct vc4_v3d;
struct vc4_qpu;

#define VC4_QPU_REGS 32u
#define VC4_QPU_BRANCH_SLOTS 3u  /* delay slots after a branch (facts 18) */
#define VC4_QPU_THREND_SLOTS 2u  /* delay slots after thrend (facts 19) */
#define VC4_QPU_UNIF_HAZARD 2u   /* no uniform reads for 2 instrs after unif_addr (facts 22) */
#define VC4_QPU_INSTR_BYTES 8u

enum { VC4_QPU_FLAG_Z = 1, VC4_QPU_FLAG_N = 2, VC4_QPU_FLAG_C = 3 };

/*
 * The execution record: what vc4_qpu_step does with one cached word,
 * decided once when the word is decoded (DESIGN.md "decode once"), so that
 * the hot path tests a few small fields instead of re-deriving them from
 * the instruction on every issue.  Built by qpu.c from the decoded
 * struct vc4_qpu_instr; nothing here is a second decoder.
 */
enum vc4_qpu_xi_form {
    VC4_XI_ALU,      /* ALU, ALU with small immediate */
    VC4_XI_NOP,      /* ALU form with no effect beyond its signal */
    VC4_XI_LDI,      /* load immediate, semaphore (after its blocking test) */
    VC4_XI_BRANCH,
    VC4_XI_RESERVED, /* an encoding with no meaning: fault */
};
enum vc4_qpu_xi_read {
    VC4_XI_RD_REG,  /* physical register raddr (< 32) */
    VC4_XI_RD_ZERO, /* NOP register: zeros, no side effect */
    VC4_XI_RD_ELEM, /* ELEMENT_NUMBER (file A) */
    VC4_XI_RD_IMM,  /* small immediate (file B): xi.vec */
    VC4_XI_RD_IO,   /* anything with a side effect or a QPU-dependent value */
};
enum vc4_qpu_xi_write {
    VC4_XI_W_NONE, /* no write (nop op, .never, waddr nop) */
    VC4_XI_W_A,    /* physical register file A [idx] */
    VC4_XI_W_B,    /* physical register file B [idx] */
    VC4_XI_W_ACC,  /* r0-r3 [idx] */
    VC4_XI_W_IO,   /* r5, peripherals, ...: the general write path */
};
enum vc4_qpu_xi_sf { VC4_XI_SF_NONE, VC4_XI_SF_ADD, VC4_XI_SF_MUL };
/* Features that need the general ALU path. */
enum {
    VC4_XI_UNPACK_ADD = 1u << 0, /* an add operand goes through the unpacker */
    VC4_XI_UNPACK_MUL = 1u << 1,
    VC4_XI_ROTATE = 1u << 2,     /* mul inputs rotated (small immediate 48-63) */
    VC4_XI_PACK_A = 1u << 3,     /* PM 0 regfile-A pack */
    VC4_XI_PACK_MUL = 1u << 4,   /* PM 1 mul pack */
    VC4_XI_THREND = 1u << 5,     /* thread-end rule check */
};
/*
 * The fast path (qpu.c step): instructions whose whole effect is "read
 * plain operands or a uniform, run the two ALUs, write plain registers
 * under the conditions, set the flags", branches without links, and the
 * commonest TMU and VPM accesses (an ldtmu, a general lookup, a row
 * written) when the unit reports nothing.
 * Decided at decode; at issue only the rules that depend on the previous
 * instructions (regfile read-after-write, r4 read during an SFU, uniform
 * read after a uniforms-address write or in thread-end delay slots, branch
 * spacing) are tested, and the general path runs when one may apply (or a
 * uniform read faults).  Both paths give identical results
 * (tests/unit/test_qpu_fastpath.c).
 */
enum vc4_qpu_xi_fast {
    VC4_XI_FAST_NONE, /* the general path */
    VC4_XI_FAST_NOP,  /* no effect at all (a nop without a signal) */
    VC4_XI_FAST_ALU,  /* ALU form: no signal, blocking, I/O read or write,
                       * unpack, rotate, pack, thread-end rule or mnop quirk */
    VC4_XI_FAST_ALU_PLAIN, /* ... without flags, every write unconditional */
    VC4_XI_FAST_ALU_VARY, /* an ALU form (plain or not) reading a varying
                           * (VC4_XI_IO_VARY_A/B): the port's post after it */
    VC4_XI_FAST_BRANCH, /* a branch without register target, links or flags */
    /* I/O accesses, fast when the unit would report nothing (else the
     * general path runs them); the writes (TMU_S to VPM_RD_SETUP) are also
     * a load immediate's (form LDI: the add side's write alone, its value): */
    VC4_XI_FAST_LDTMU, /* an ldtmu signal on a fast-path ALU form or nop
                        * (io_alu: which), no uniform read; not with an SFU
                        * result in flight or an empty FIFO */
    VC4_XI_FAST_TMU_S, /* one ALU's result written to TMU0_S/TMU1_S always,
                        * the other ALU idle, no flags, uniform or quirk: a
                        * general lookup (tmu.h vc4_tmu_try_lookup) */
    VC4_XI_FAST_VPM_W, /* ... written to VPM_WRITE: a whole row (vpm.h
                        * vc4_vpm_try_write), not in thread-end slots */
    VC4_XI_FAST_VPM_SETUP, /* ... written to VPMVCD_WR_SETUP (file B): a setup
                            * that reports nothing (vpm.h vc4_vpm_try_wr_setup),
                            * not in thread-end slots */
    VC4_XI_FAST_SFU, /* ... written to an SFU register (waddr 52-55): the
                      * function of every element into sfu_result, r4 two
                      * instructions later (sfu.h); not with an SFU result
                      * in flight (the r4 rule); the QPU's own state only */
    VC4_XI_FAST_VPM_RD_SETUP, /* ... written to VPMVCD_RD_SETUP (file A): a
                               * VDR setup or taken generic read setup that
                               * reports nothing (vpm.h vc4_vpm_try_rd_setup),
                               * not in thread-end slots */
    VC4_XI_FAST_LDI, /* a load immediate (not a semaphore) whose writes are
                      * registers, without pack or scoreboard wait: its
                      * per-element values (vec) written under the
                      * conditions, flags from them */
    VC4_XI_FAST_EXEC, /* an ALU form or load immediate with pack, unpack
                       * or the mnop quirk, and nothing else a rule or a
                       * unit could see (no signal, blocking resource,
                       * I/O read or write, rotation or thread-end rule):
                       * the general executor's own code (qpu.c
                       * exec_alu, exec_ldi), run without step_general */
};
/* The fast path's operand reads from outside the register files (struct
 * vc4_qpu_xi unif): a uniform (files A and B reading it take one value),
 * a VPM read by one file (vpm.h vc4_vpm_try_read) or a varying read by one
 * file (the port's vary; its C lands in r5 after the instruction, the
 * port's post), one kind at most. */
enum vc4_xi_io_read {
    VC4_XI_IO_UNIF_A = 1u << 0,
    VC4_XI_IO_UNIF_B = 1u << 1,
    VC4_XI_IO_VPM_A = 1u << 2,
    VC4_XI_IO_VPM_B = 1u << 3,
    VC4_XI_IO_VARY_A = 1u << 4,
    VC4_XI_IO_VARY_B = 1u << 5,
    VC4_XI_IO_UNIF = VC4_XI_IO_UNIF_A | VC4_XI_IO_UNIF_B,
    VC4_XI_IO_VPM = VC4_XI_IO_VPM_A | VC4_XI_IO_VPM_B,
    VC4_XI_IO_VARY = VC4_XI_IO_VARY_A | VC4_XI_IO_VARY_B,
};
/* The instruction cache and the memory under it as they were when
 * something about the code was last worked out (struct vc4_v3d code_gen,
 * the decode count): while both are the same, nothing it looked at has
 * changed (qpu.c code_stamp, code_unchanged). */
struct vc4_code_stamp {
    uint64_t gen, decodes;
};
/* Signals with an effect in vc4_qpu_step (others are no-ops there). */
enum vc4_qpu_xi_block {
    VC4_XI_BLOCK_NONE,
    VC4_XI_BLOCK_SEMA,
    VC4_XI_BLOCK_MUTEX,
    VC4_XI_BLOCK_SB, /* scoreboard wait: sbwait or a TLB access (fsi.c) */
};

/* The fast path's view of an ALU form's writes (struct vc4_qpu_xi plain):
 * which ALU writes a register, and which kernel writes it directly. */
enum {
    VC4_XI_PLAIN_ADD_W = 1u << 0,      /* w_add != VC4_XI_W_NONE */
    VC4_XI_PLAIN_ADD_DIRECT = 1u << 1, /* add_direct */
    VC4_XI_PLAIN_MUL_W = 1u << 2,      /* w_mul != VC4_XI_W_NONE */
    VC4_XI_PLAIN_MUL_DIRECT = 1u << 3, /* mul_direct */
};

/*
 * The execution record.  Its first 40 bytes are what the fast path reads
 * for a plain ALU form (qpu.c step(), step_fast_plain, run_fast): with the
 * cache entry's 24-byte header they are the entry's first cache line, so
 * that a step touches one line of its instruction, not three: twelve QPUs'
 * records, registers and TMU FIFOs do not all fit the host's L1 data cache
 * (docs/emulator.md "Data layout").  Fields summarised there (wreg, wacc,
 * plain) are set from the others once, at decode (qpu.c build_xi).
 */
struct vc4_qpu_xi {
    /* ---- hot: the fast path */
    uint64_t rmask;          /* physical registers read: A bits 0-31, B 32-63 (RAW rule) */
    uint64_t wreg;           /* wreg_add | wreg_mul */
    /* where each operand is, as a byte offset into struct vc4_qpu:
     * add a, add b, mul a, mul b, then the regfile A and B sources */
    uint16_t off[6];
    uint16_t w_off_add, w_off_mul; /* W_A/W_B/W_ACC destinations, offsets as above */
    uint8_t fast;            /* enum vc4_qpu_xi_fast */
    uint8_t rd_b;            /* enum vc4_qpu_xi_read */
    uint8_t unif;            /* fast path: operand reads, enum vc4_xi_io_read */
    bool reads_r4;           /* a used operand is r4 (SFU latency rule) */
    uint8_t op_add, op_mul;  /* ALU op codes (0 = nop: not run) */
    uint8_t plain;           /* VC4_XI_PLAIN_* bits */
    uint8_t wacc;            /* wacc_add | wacc_mul */
    /* ---- the rest */
    uint8_t form;            /* enum vc4_qpu_xi_form */
    uint8_t block;           /* enum vc4_qpu_xi_block: acquired before execution */
    uint8_t rd_a;            /* enum vc4_qpu_xi_read */
    uint8_t add_a, add_b;    /* operand muxes; add_b = add_a for unary ops */
    uint8_t mul_a, mul_b;
    uint8_t w_add, w_mul;    /* enum vc4_qpu_xi_write */
    uint8_t wi_add, wi_mul;  /* register / accumulator index */
    uint8_t wacc_add, wacc_mul; /* W_ACC: the accumulator's bit (read-after-write and rotate rules) */
    uint8_t cond_add, cond_mul; /* write conditions */
    uint8_t cidx_add, cidx_mul; /* ... as struct vc4_qpu flag[] index and inversion mask */
    uint16_t cinv_add, cinv_mul;
    uint8_t sf;              /* enum vc4_qpu_xi_sf: which ALU sets the flags */
    bool add_direct, mul_direct; /* fast path: the kernel writes the register itself */
    uint8_t features;        /* VC4_XI_* bits */
    bool sig;                /* the signal has an effect (thrend, ldtmu, TLB) */
    bool mul_quirk;          /* mul nop whose result is used: previous mul (facts 20) */
    bool n_flag;             /* N flag from bit 31 (not for clz, facts 16) */
    uint8_t io_alu;          /* FAST_LDTMU: the ALU part's fast kind (NOP, ALU, ALU_PLAIN) */
    uint8_t io_unit;         /* FAST_LDTMU, FAST_TMU_S: the TMU as the instruction names it */
    bool io_on_mul;          /* FAST_TMU_S, FAST_VPM_W: the mul ALU writes it (else the add) */
    uint64_t wreg_add, wreg_mul; /* W_A/W_B: the register's bit, A 0-31, B 32-63 */
    uint32_t vec[16];        /* small-immediate or load-immediate values per element */
};

/* One decoded instruction, cached by RAM offset.  gen is the memory
 * generation (struct vc4_v3d code_gen) at which the word was last seen in
 * memory: while memory has not been written since, the entry is used as
 * is; after a write the word is compared again (and decoded again if it
 * changed). */
struct vc4_icache_entry {
    /* (the header and xi's first 40 bytes: the slot's first cache line) */
    uint64_t gen;
    struct vc4_jit_block *jit; /* a compiled block holding this instruction, or NULL */
    uint32_t addr; /* RAM offset (meaningful while live: vc4_icache_live) */
    uint16_t jit_heat; /* times run_fast reached this address as a block head (jit.h) */
    uint8_t jit_off;   /* ... this instruction's place in it */
    bool jit_none;     /* the head is settled: jit or nothing */
    struct vc4_qpu_xi xi;
    uint64_t word;
    uint16_t warned;   /* rule warnings already given at this address */
    struct vc4_qpu_instr in;
    /* qpu.c epoch_span's answer from this address, valid while the code
     * is as span_at says: its length, its unit class, where its first
     * instruction of that class and its first that could stop the run are
     * (span_n when none) */
    struct vc4_code_stamp span_at;
    uint16_t span_n, span_io_at, span_stops_at;
    uint8_t span_units;
};

#define VC4_ICACHE_ENTRIES 4096u /* power of two; 32 KB of code */

/* Entries padded to a power-of-two size so that finding one is a shift. */
#define VC4_ICACHE_SLOT_BYTES 256u
/* What the fast path reads of an entry is its first cache line (above). */
static_assert(offsetof(struct vc4_icache_entry, xi) + offsetof(struct vc4_qpu_xi, form) <= VC4_HOST_CACHE_LINE,
              "the fast path's fields fit the entry's first cache line");
static_assert(VC4_ICACHE_SLOT_BYTES % VC4_HOST_CACHE_LINE == 0, "slots start cache lines");
struct vc4_icache_slot {
    struct vc4_icache_entry e;
    uint8_t pad[VC4_ICACHE_SLOT_BYTES - sizeof(struct vc4_icache_entry)];
};

/* Cleared by generation, not by writing the entries (1 MiB: start-up
 * time): vc4_icache_clear bumps the memory generation, so no entry passes
 * fetch()'s fast check, and records it in valid_from; an entry last seen
 * before valid_from is decoded again (and its warned bits reset) even if
 * its word is unchanged.  Zeroed entries (gen 0) are never live, as
 * valid_from >= 1 once the emulator was reset. */
struct vc4_icache {
    struct vc4_icache_slot *s;
    void *block; /* the allocation s lies in (vc4_calloc_aligned) */
    uint64_t valid_from; /* entries with gen < valid_from are empty */
    uint32_t lo, hi;     /* RAM offsets [lo, hi) hold every word filled since the clear (lo > hi: none) */
};

/*
 * The QPU's port to the rest of the machine.  The core (qpu.c) owns its
 * registers, the uniforms stream, the SFU, and reaches the units every
 * program may use (VPM, VCD, TMU, semaphores, mutex, host interrupt)
 * directly; what depends on who started the thread goes through the port
 * the owner installs with vc4_qpu_start: the fragment-shader I/O registers
 * and signals, the scoreboard, thread switches, and the program end.  The
 * scheduler installs its port for user programs (sched.c), fragment shading
 * its own (fsi.c), vertex and coordinate shading its own (vsi.c); the core
 * names none of them, as mGBA's ARM core sees its machine only through
 * ARMMemory and ARMInterruptHandler.  The port is called only on I/O,
 * never on the fast path.  vc4_qpu_port_none supplies the "nothing here"
 * entries for owners without fragment-shader I/O.
 */
struct vc4_qpu_port {
    /* Read of a fragment-payload register (raddr 35 VARYING_READ, 41 X/Y_PIXEL_COORD, 42 MS_FLAGS /
     * REV_FLAG): false when the owner has none (the core then reads 0, a rule in a user program).
     * used: an ALU of the instruction takes the value (a read muxed nowhere still pops a FIFO). */
    bool (*read)(struct vc4_v3d *v, struct vc4_qpu *q, unsigned file, unsigned raddr, bool used, uint32_t *out);
    /* The fast path's VARYING_READ: read's, when it reports nothing (a varying is left); else false
     * with nothing done. */
    bool (*vary)(struct vc4_v3d *v, struct vc4_qpu *q, uint32_t *out);
    /* Write of a TLB / fragment register (waddr 41-47; mask = elements whose condition passed):
     * false when the owner has none. */
    bool (*write)(struct vc4_v3d *v, struct vc4_qpu *q, unsigned file, unsigned waddr, const uint32_t *val,
                  uint16_t mask);
    /* A fragment signal (thread switches, scoreboard unlock, colour / coverage / alpha-mask loads)
     * after the instruction's ALU work: false when the owner has none. */
    bool (*signal)(struct vc4_v3d *v, struct vc4_qpu *q, unsigned sig);
    /* After the signals of an instruction that has any (a varying read's C lands in r5). */
    void (*post)(struct vc4_v3d *v, struct vc4_qpu *q);
    /* Before an instruction that waits on the scoreboard: true when it may go ahead. */
    bool (*sb_wait)(struct vc4_v3d *v, struct vc4_qpu *q);
    /* A thread switch's delay slots have passed. */
    void (*thread_switch)(struct vc4_v3d *v, struct vc4_qpu *q);
    /* The thread end's delay slots have passed: the owner gives the QPU its next work or makes it
     * idle. */
    void (*program_end)(struct vc4_v3d *v, struct vc4_qpu *q);
    /* A user program (SRQ): fragment-shader I/O there is a rule violation (user-program-no-tlb). */
    bool user;
};

/* The entries of a port for owners without fragment-shader I/O. */
bool vc4_qpu_port_no_read(struct vc4_v3d *v, struct vc4_qpu *q, unsigned file, unsigned raddr, bool used,
                          uint32_t *out);
bool vc4_qpu_port_no_vary(struct vc4_v3d *v, struct vc4_qpu *q, uint32_t *out);
bool vc4_qpu_port_no_write(struct vc4_v3d *v, struct vc4_qpu *q, unsigned file, unsigned waddr,
                           const uint32_t *val, uint16_t mask);
bool vc4_qpu_port_no_signal(struct vc4_v3d *v, struct vc4_qpu *q, unsigned sig);
void vc4_qpu_port_no_post(struct vc4_v3d *v, struct vc4_qpu *q);
bool vc4_qpu_port_no_sb_wait(struct vc4_v3d *v, struct vc4_qpu *q);
void vc4_qpu_port_no_thread_switch(struct vc4_v3d *v, struct vc4_qpu *q);

struct vc4_qpu {
    /* hot scalar state first */
    uint32_t pc;
    enum vc4_emu_qpu_state state;
    uint64_t time;             /* its clock: cycles run, busy or idle (all QPUs: one time base) */
    uint64_t stall_until;      /* blocked until this cycle (VPM wait, TMU) */
    uint64_t prev_w;           /* physical regs written by the previous instruction (A 0-31, B 32-63) */
    uint8_t prev_acc;          /* accumulators written by the previous instruction */
    /* Per-element flags, bit i = element i: flag[VC4_QPU_FLAG_Z/N/C];
     * flag[0] stays 0 so that a write condition c selects flag[c >> 1]
     * inverted when c is odd (never = 0, always = ~0, zs = Z, zc = ~Z...). */
    uint16_t flag[4];
    /* The delay pipelines, one word so that "nothing pending" is one test. */
    union {
        struct {
            uint8_t sfu_left;    /* instructions until sfu_result lands in r4 */
            uint8_t unif_hazard; /* instructions left in which uniform reads are early */
            uint8_t thrend_left; /* 0 = no thread end pending; else delay slots + 1 */
            uint8_t br_left;     /* br[0]: instructions before it takes effect; 0 = none */
            uint8_t thrsw_left;  /* fragment-shader thread switch: delay slots + 1 (fsi.c) */
        };
        uint64_t pending;
    };
    uint8_t br1_left;          /* a second branch queued behind br[0] */
    uint32_t br_target[2];
    uint64_t instructions;

    unsigned num;
    const struct vc4_qpu_port *port; /* the owner of the running thread (vc4_qpu_start) */
    /* what a BLOCKED QPU waits on; NULL in every other state (each write
     * of one writes the other: qpu.c set_running relies on it) */
    const char *blocked_on;
    uint32_t unif;          /* next uniform's bus address */
    uint32_t unif_len;
    bool user;                 /* running a user program from the SRQ */
    bool general_only;         /* never take the fast path (tests compare the two) */
    bool step_only;            /* one instruction per step(), never run_fast (tests) */
    bool jit_head;             /* the next instruction is a block head (jit.h): after the general
                                * path, a uniform read, a branch landing, the program's start */

    /* Operand sources, all inside this struct so that the execution record
     * can name each operand by its offset here: the accumulators, the
     * register files, constant vectors, and the values read this
     * instruction from I/O addresses and small immediates. */
    /* (each 16-element vector on one cache line: the vectors below are
     * all 64 bytes, so aligning the first aligns them all; unaligned, every
     * register read or written touched two lines, and a 64-byte host
     * vector load straddled them) */
    _Alignas(VC4_HOST_CACHE_LINE) uint32_t acc[6][VC4_QPU_SIMD];
    uint32_t zero[VC4_QPU_SIMD];   /* zeros (NOP and undefined reads) */
    uint32_t elem[VC4_QPU_SIMD];   /* ELEMENT_NUMBER */
    uint32_t in_a[VC4_QPU_SIMD];   /* this instruction's I/O read on file A */
    uint32_t in_b[VC4_QPU_SIMD];   /* ... on file B, or its small immediate */
    uint32_t ra[VC4_QPU_REGS][VC4_QPU_SIMD];
    uint32_t rb[VC4_QPU_REGS][VC4_QPU_SIMD];
    uint32_t sfu_result[VC4_QPU_SIMD];
    uint32_t last_mul[VC4_QPU_SIMD]; /* previous mul result (mnop quirk, facts 20) */
    /* The NOP registers ra39 / rb39: elements 12-15 hold the last values
     * register file A / B gave elements 12-15 (small immediates and I/O
     * reads included; branches and load immediates leave them); a read of
     * raddr 39 gives them repeated per quad (vc4asm addendum, facts 20). */
    uint32_t rf_nop[2][VC4_QPU_SIMD];
};
static_assert(offsetof(struct vc4_qpu, ra) % VC4_HOST_CACHE_LINE == 0 &&
                  offsetof(struct vc4_qpu, rb) % VC4_HOST_CACHE_LINE == 0 &&
                  offsetof(struct vc4_qpu, rf_nop) % VC4_HOST_CACHE_LINE == 0 &&
                  sizeof(struct vc4_qpu) % VC4_HOST_CACHE_LINE == 0,
              "register vectors on cache lines of their own");

enum vc4_qpu_step {
    VC4_QPU_STEP_OK,
    VC4_QPU_STEP_BLOCKED, /* nothing happened; retry next cycle */
    VC4_QPU_STEP_ENDED,   /* thread end completed */
    VC4_QPU_STEP_FAULT,   /* stopped; a diagnostic was given */
};

enum vc4_status vc4_icache_init(struct vc4_icache *c, const struct vc4_allocator *alloc);
void vc4_icache_fini(struct vc4_icache *c, const struct vc4_allocator *alloc);
void vc4_icache_clear(struct vc4_icache *c, uint64_t *code_gen);
/* Whether entry e holds a decoded word (was filled since the last clear). */
bool vc4_icache_live(const struct vc4_icache *c, const struct vc4_icache_entry *e);
/* Memory [bus, bus + span) was written: when it may hold a cached
 * instruction word, *code_gen moves on (every cached word is compared with
 * memory again at its next fetch); elsewhere nothing can have changed. */
void vc4_icache_written(const struct vc4_icache *c, uint64_t *code_gen, uint32_t bus, uint64_t span);

void vc4_qpu_reset(struct vc4_qpu *q, unsigned num);
/* Start a program owned by port's owner (registers keep their contents, as
 * on hardware). */
void vc4_qpu_start(struct vc4_qpu *q, const struct vc4_qpu_port *port, uint32_t pc, uint32_t unif,
                   uint32_t unif_len);
/* Issue one instruction (or stall). */
enum vc4_qpu_step vc4_qpu_step(struct vc4_v3d *v, struct vc4_qpu *q);
/*
 * Run whole cycles: in each, the QPUs act[0..nact) issue one instruction
 * each in that order (lock-step, deterministic); a QPU whose thread end
 * completes is handed to its port's program_end at once.  Stops after the
 * cycle in which a program ended (*ended = true), after max_cycles cycles,
 * or in the middle of a cycle at a fault (v->fault set; that cycle is not
 * counted).  Counts cycles and idle QPU cycles; returns the cycles run.
 */
uint64_t vc4_qpu_run_cycles(struct vc4_v3d *v, const uint8_t *act, unsigned nact, uint64_t max_cycles,
                            bool *ended);
/* Decode (through the cache) the instruction at bus address pc; false if
 * outside memory. */
bool vc4_qpu_fetch(struct vc4_v3d *v, uint32_t pc, struct vc4_icache_entry **out);
/* The instruction cache's entry for RAM offset off if it is current (as
 * the fast path would find it), without fetching: false otherwise. */
bool vc4_qpu_cached(struct vc4_v3d *v, uint32_t off, struct vc4_icache_entry **out);

#endif
