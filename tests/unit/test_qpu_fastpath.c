/* test_qpu_fastpath.c - the QPU's fast path (qpu.c step_fast_alu and the
 * fast branch, chosen at decode) against the general path: random
 * instruction streams run three times from the same random register
 * contents: as usual (one QPU: run_fast, fast-path instructions back to
 * back), one instruction per step() (struct vc4_qpu step_only: step()'s
 * own fast path, as with several QPUs), and with every instruction on the
 * general path (general_only), each stream twice (the second time from
 * decoded words: run_fast); registers, accumulators, flags, the mnop
 * quirk's last mul result, the SFU result, PC, counts, cycles and every
 * diagnostic must be identical.  Also: the ALU kernels writing one of
 * their own operands (the fast path's results go straight into their
 * register), and the host float kernels where they stop using the host's
 * arithmetic as it is (products near 2^-126, sums near the top of the
 * range).  The streams favour what the fast path decides on:
 * few registers (destinations that are operands, both ALUs writing one
 * register, a mul reading what the add writes), every condition, flags from
 * either ALU, small immediates, reads right after writes (the
 * read-after-write rule makes the fast path step aside), branches in
 * delay slots, SFU writes with r4 reads (the r4 rule), and the general
 * features (pack, unpack, rotation, r5, uniforms) in between. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <time.h>

#include "harness.h"
#include "emu/v3d.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#include "qpu_prog.h"

static uint64_t rng = 0x2545F4914F6CDD1Du;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}
static unsigned pick(unsigned n) { return rnd() % n; }

/* Register values: floats of every kind (normal, denormal, zero, Inf/NaN
 * patterns, near 1.0 so that sums cancel), small and large integers. */
/* The operands of VC4C's hardware-measured tables (tests/data/vc4c_*.txt):
 * the edge cases whose results are known bit-exact, negative denormals
 * included. */
static const uint32_t hw_table_values[] = {0x80000000u, 0x7FFFFFFFu, 0, 0xFFFFFFFFu, 1, 0x70000000u,
                                           0x90000000u, 0x7FFFu, 0x80007FFFu, 0x8000u, 0x7Fu, 0x8000007Fu,
                                           0x80u, 0x3F800000u, 0xBF800000u, 0x40000000u, 0xF0000000u};

static uint32_t rnd_value(void)
{
    uint32_t s = rnd() & 0x80000000u;
    switch (pick(9)) {
    case 8: return hw_table_values[pick(sizeof hw_table_values / sizeof hw_table_values[0])];
    case 0: return rnd();
    case 1: return s | (127u + pick(8) - 4u) << 23 | (rnd() & 0x7FFFFFu);
    case 2: return s | pick(256) << 23 | (rnd() & 0x7FFFFFu);
    case 3: return s | (rnd() & 0x7FFFFFu); /* denormal or zero */
    case 4: return s | 0x7F800000u | (pick(2) ? 0 : rnd() & 0x7FFFFFu);
    case 5: return pick(64);
    case 6: return (uint32_t)0 - pick(64);
    default: return s | (1u + pick(40)) << 23 | (rnd() & 0x7FFFFFu); /* products below 2^-126 */
    }
}

/* Streams for compiled blocks (test_jit_matches_interpreter): mostly
 * what the fast path runs (no uniform, I/O, r5 or SFU access, no pack,
 * unpack or rotation), registers colliding less (a read of the previous
 * instruction's register ends a block). */
static bool plain_only;

/* Register addresses: mostly 0-3, so that they collide. */
static uint8_t rnd_reg(void) { return (uint8_t)(pick(plain_only ? 2 : 4) ? pick(4) : pick(plain_only ? 31 : 32)); }
static uint8_t rnd_raddr(void)
{
    unsigned r = pick(16);
    if (plain_only && r == 12)
        r = 0;
    return (uint8_t)(r < 12 ? rnd_reg() : r == 12 ? VC4_QPU_R_UNIF : r == 13 ? VC4_QPU_R_ELEM_QPU : VC4_QPU_R_NOP);
}
static uint8_t rnd_waddr(void)
{
    unsigned r = pick(24);
    if (r < 10)
        return rnd_reg();
    if (r < 18)
        return (uint8_t)(VC4_QPU_W_ACC0 + pick(4));
    if (r < 20 || plain_only)
        return VC4_QPU_W_NOP;
    if (r < 22)
        return VC4_QPU_W_ACC5;
    return (uint8_t)(VC4_QPU_W_SFU_RECIP + pick(4));
}
static uint8_t rnd_cond(void) { return (uint8_t)(pick(2) ? VC4_QPU_COND_ALWAYS : pick(8)); }

static uint64_t rnd_alu(void)
{
    struct vc4_qpu_instr in = {0};
    do
        in.op_add = (uint8_t)pick(32);
    while (!vc4_qpu_op_add_valid(in.op_add));
    if (pick(6) == 0)
        in.op_add = VC4_QPU_A_NOP;
    in.op_mul = (uint8_t)pick(8);
    in.sig = pick(3) == 0 ? VC4_QPU_SIG_SMALL_IMM : pick(8) == 0 && !plain_only ? VC4_QPU_SIG_BREAK : VC4_QPU_SIG_NONE;
    in.raddr_a = rnd_raddr();
    /* small immediates: values mostly, rotations (48-63) sometimes */
    in.raddr_b = in.sig == VC4_QPU_SIG_SMALL_IMM ? (uint8_t)(pick(6) || plain_only ? pick(48) : 48 + pick(16))
                                                 : rnd_raddr();
    in.add_a = (uint8_t)pick(8);
    in.add_b = (uint8_t)pick(8);
    in.mul_a = (uint8_t)pick(8);
    in.mul_b = (uint8_t)pick(8);
    in.waddr_add = rnd_waddr();
    in.waddr_mul = rnd_waddr();
    in.ws = (uint8_t)pick(2);
    in.cond_add = rnd_cond();
    in.cond_mul = rnd_cond();
    in.sf = (uint8_t)(pick(3) == 0);
    if (pick(10) == 0 && !plain_only) { /* pack / unpack: the general path */
        in.pm = (uint8_t)pick(2);
        in.unpack = (uint8_t)pick(8);
        do
            in.pack = (uint8_t)pick(16);
        while (!vc4_qpu_pack_suffix(in.pm, in.pack));
    }
    return vc4_qpu_encode(&in);
}

static uint64_t rnd_ldi(void)
{
    static const uint8_t modes[] = {VC4_QPU_LDI_32, VC4_QPU_LDI_PER_ELEMENT_SIGNED,
                                    VC4_QPU_LDI_PER_ELEMENT_UNSIGNED};
    return vc4_qpu_encode(&(struct vc4_qpu_instr){
        .sig = VC4_QPU_SIG_LOAD_IMM, .unpack = modes[pick(3)], .waddr_add = rnd_waddr(),
        .waddr_mul = rnd_waddr(), .ws = (uint8_t)pick(2), .cond_add = rnd_cond(), .cond_mul = rnd_cond(),
        .sf = (uint8_t)(pick(4) == 0), .imm = rnd_value()});
}

/* A branch 0-3 instructions beyond its delay slots (never past the end). */
static uint64_t rnd_branch(void)
{
    uint8_t cond;
    do
        cond = (uint8_t)pick(16);
    while (!vc4_qpu_branch_cond_suffix(cond));
    bool link = pick(4) == 0;
    return vc4_qpu_encode(&(struct vc4_qpu_instr){
        .sig = VC4_QPU_SIG_BRANCH, .cond_br = cond, .rel = 1, .imm = 8 * pick(4),
        .waddr_add = link ? rnd_reg() : VC4_QPU_W_NOP, .waddr_mul = VC4_QPU_W_NOP});
}

/* A uniforms-address write: back into the uniforms, or (rarely) outside
 * memory so that the next uniform read faults. */
static uint64_t rnd_unif_addr(void)
{
    uint32_t addr = pick(8) ? UNIF + 4 * pick(64) : 0x3FFFFFF0u;
    return vc4_qpu_encode(&(struct vc4_qpu_instr){.sig = VC4_QPU_SIG_LOAD_IMM, .waddr_add = VC4_QPU_W_UNIFORMS_ADDRESS,
                                                   .waddr_mul = VC4_QPU_W_NOP, .cond_add = VC4_QPU_COND_ALWAYS,
                                                   .imm = addr});
}

/* TMU traffic (test_fast_tmu_matches_general): general lookups of DATA,
 * and ldtmu signals, for the fast TMU kinds (qpu.h VC4_XI_FAST_LDTMU,
 * _TMU_S) and the general path beside them. */
static bool tmu_mix;
#define DATA 0x20000u
#define DATA_WORDS 0x4000u

/* r0 = an address (rarely outside the 1 MiB: a fault), then a write of
 * r0 + element number to TMU0_S or TMU1_S: by the add ALU or the mul
 * ALU (v8min r0, r0: r0), mostly unconditional and alone (the fast
 * kind), sometimes conditional, setting flags or beside a second write
 * (the general path); or the address written by a load immediate (one
 * word for every element: `mov tmu0_s, address`, a fast kind too). */
static void emit_tmu_write(struct prog *p, unsigned unit)
{
    uint32_t base = pick(24) ? DATA + 4 * pick(DATA_WORDS - 16) : 0x00200000u;
    uint8_t waddr = (uint8_t)(VC4_QPU_W_TMU0_S + 4 * unit);
    if (pick(6) == 0) {
        emit(p, ldi(waddr, base));
        return;
    }
    emit(p, ldi(R0, base));
    unsigned how = pick(8);
    struct vc4_qpu_instr in;
    vc4_qpu_nop(&in);
    if (how < 2) {
        in.op_mul = VC4_QPU_M_V8MIN;
        in.waddr_mul = waddr;
        in.ws = (uint8_t)pick(2); /* (either file: TMU0_S/TMU1_S are the same in both) */
    } else {
        in.op_add = VC4_QPU_A_ADD;
        in.add_a = VC4_QPU_MUX_R0;
        in.add_b = VC4_QPU_MUX_A;
        in.raddr_a = VC4_QPU_R_ELEM_QPU;
        in.waddr_add = waddr;
        if (how == 7) { /* a second write: r1 = r0 * r0 */
            in.op_mul = VC4_QPU_M_V8MIN;
            in.waddr_mul = VC4_QPU_W_ACC1;
        }
    }
    in.cond_add = in.cond_mul = VC4_QPU_COND_ALWAYS;
    if (how == 6)
        in.cond_add = rnd_cond();
    if (how == 5)
        in.sf = 1;
    emit(p, vc4_qpu_encode(&in));
}

/* A write setup word: a generic one (32-bit horizontal, vertical, 8-bit,
 * 16-bit or the reserved size 3), a VDW setup (a random word: its MODEW
 * is sometimes 1, no element mode), a VDW stride (sometimes beyond the
 * guide's 13 bits: a note) or the reserved ID 01. */
static uint32_t rnd_wr_setup(void)
{
    static const uint32_t layouts[] = {0xA00u, 0xA00u, 0xA00u, 0x200u, 0x800u, 0x900u, 0xB00u};
    switch (pick(8)) {
    case 0: case 1: return 0x80000000u | (rnd() & 0x3FFFFFFFu);
    case 2: case 3: return 0xC0000000u | (uint32_t)pick(pick(2) ? 0x2000 : 0x10000);
    case 4: return 0x40000000u | (rnd() & 0x3FFFFFFFu);
    default: return 0x1000u | layouts[pick(7)] | pick(64); /* stride 1 */
    }
}

/* A VPM write setup: a load immediate (the general path), or r2 written
 * by either ALU to VPMVCD_WR_SETUP (file B: the fast kind's when the
 * setup reports nothing and the write is unconditional) or rarely to
 * VPMVCD_RD_SETUP (file A); then writes of r0-r3 or a register to
 * VPM_WRITE by either ALU, mostly unconditional.  Mostly 32-bit horizontal
 * generic setups at a random row (the fast VPM_WRITE kind's). */
static void emit_vpm_reads(struct prog *p);
static void emit_vpm(struct prog *p)
{
    uint32_t setup = pick(2) ? 0x1A00u | pick(64) : rnd_wr_setup();
    if (pick(3) == 0) {
        emit_vpm_reads(p);
        return;
    }
    switch (pick(3)) {
    case 0:
        emit(p, I(.sig = LDI, .ws = 1, .waddr_add = VC4_QPU_W_VPMVCD_SETUP, .imm = setup));
        break;
    case 1: {
        emit(p, ldi(VC4_QPU_W_ACC2, setup));
        struct vc4_qpu_instr in;
        vc4_qpu_nop(&in);
        bool file_b = pick(10) != 0;
        if (pick(2)) { /* or vw_setup, r2, r2 (add: ws 1 writes file B) */
            in.op_add = VC4_QPU_A_OR;
            in.add_a = in.add_b = VC4_QPU_MUX_R2;
            in.waddr_add = VC4_QPU_W_VPMVCD_SETUP;
            in.ws = file_b;
        } else { /* v8min vw_setup, r2, r2 (mul: ws 0 writes file B) */
            in.op_mul = VC4_QPU_M_V8MIN;
            in.mul_a = in.mul_b = VC4_QPU_MUX_R2;
            in.waddr_mul = VC4_QPU_W_VPMVCD_SETUP;
            in.ws = !file_b;
        }
        in.cond_add = in.cond_mul = pick(8) ? VC4_QPU_COND_ALWAYS : rnd_cond();
        emit(p, vc4_qpu_encode(&in));
        break;
    }
    default:
        break;
    }
    for (unsigned n = 1 + pick(3); n; n--) {
        struct vc4_qpu_instr in;
        vc4_qpu_nop(&in);
        if (pick(3) == 0) {
            in.op_mul = VC4_QPU_M_V8MIN;
            in.mul_a = in.mul_b = VC4_QPU_MUX_A;
            in.raddr_a = rnd_reg();
            in.waddr_mul = VC4_QPU_W_VPM;
        } else {
            in.op_add = VC4_QPU_A_OR;
            in.add_a = in.add_b = (uint8_t)pick(4); /* r0-r3 */
            in.waddr_add = VC4_QPU_W_VPM;
        }
        in.ws = (uint8_t)pick(2); /* (VPM_WRITE is the same in both files) */
        in.cond_add = in.cond_mul = pick(8) ? VC4_QPU_COND_ALWAYS : rnd_cond();
        emit(p, vc4_qpu_encode(&in));
    }
}

/* VPM reads (the fast path's when their data is there: vpm.h
 * vc4_vpm_try_read): mostly a read setup of 1-4 rows (32-bit horizontal,
 * file A's VPMVCD_RD_SETUP), sometimes none (reads past the count: a
 * warning); then 1-4 random ALU instructions reading VPM_READ through
 * file A or B (the first often too early: a stall), sometimes also a
 * uniform or with flags and conditions. */
static void emit_vpm_reads(struct prog *p)
{
    if (pick(5)) {
        uint32_t num = 1 + pick(4);
        emit(p, I(.sig = LDI, .ws = 0, .waddr_add = VC4_QPU_W_VPMVCD_SETUP,
                  .imm = (pick(8) ? num : pick(16)) << 20 | 0xA00u | 1u << 12 | pick(64)));
        if (pick(2))
            emit(p, NOP);
    }
    for (unsigned n = 1 + pick(4); n; n--) {
        struct vc4_qpu_instr in;
        vc4_qpu_decode(rnd_alu(), &in);
        if (in.sig == VC4_QPU_SIG_SMALL_IMM || pick(3) == 0) {
            in.sig = VC4_QPU_SIG_NONE;
            in.raddr_a = VC4_QPU_R_VPM;
            in.raddr_b = pick(4) ? rnd_reg() : VC4_QPU_R_UNIF;
        } else {
            in.raddr_b = VC4_QPU_R_VPM;
            in.raddr_a = pick(4) ? rnd_reg() : VC4_QPU_R_UNIF;
        }
        emit(p, vc4_qpu_encode(&in));
    }
}

/* An ldtmu<unit> on a random ALU instruction (or a nop). */
static uint64_t rnd_ldtmu(unsigned unit)
{
    struct vc4_qpu_instr in;
    vc4_qpu_decode(pick(4) ? rnd_alu() : NOP, &in);
    if (in.sig == VC4_QPU_SIG_SMALL_IMM)
        vc4_qpu_decode(NOP, &in);
    in.sig = (uint8_t)(VC4_QPU_SIG_LOAD_TMU0 + unit);
    return vc4_qpu_encode(&in);
}

/* TMU traffic that mostly keeps to the FIFO's rules (loads of queued
 * requests, at most four queued; branches may skip some), sometimes not:
 * a load of an empty FIFO stops the run (hardware hangs), a fifth request
 * is a warning. */
static void emit_tmu(struct prog *p, unsigned queued[2])
{
    unsigned u = pick(2);
    bool load = queued[u] >= 4 || (queued[u] > 0 && pick(2));
    if (pick(40) == 0)
        load = !load;
    if (load) {
        emit(p, rnd_ldtmu(u));
        queued[u] -= queued[u] > 0;
    } else {
        emit_tmu_write(p, u);
        queued[u]++;
    }
}

static void rnd_prog(struct prog *p, size_t len)
{
    p->n = 0;
    unsigned queued[2] = {0, 0};
    while (p->n < len) {
        if (tmu_mix && pick(4) == 0) {
            if (pick(4))
                emit_tmu(p, queued);
            else
                emit_vpm(p);
            continue;
        }
        unsigned r = plain_only ? pick(10) ? 0 : 30 + pick(10) : pick(40);
        emit(p, r < 30 ? rnd_alu() : r < 34 ? rnd_ldi() : r < 38 ? rnd_branch() : r < 39 ? rnd_unif_addr() : NOP);
    }
    /* room for the last branch's delay slots and target, then the end,
     * whose delay slots may compute (and read uniforms: a rule) */
    for (int i = 0; i < 8; i++)
        emit(p, NOP);
    emit(p, I(.sig = VC4_QPU_SIG_PROG_END));
    emit(p, pick(2) ? rnd_alu() : NOP);
    /* (a rule: a VPM write, or a setup of r0's value, in a thread-end slot) */
    emit(p, tmu_mix && pick(2) ? I(.op_add = VC4_QPU_A_OR, .ws = (uint8_t)pick(2),
                                   .waddr_add = pick(2) ? VC4_QPU_W_VPM : VC4_QPU_W_VPMVCD_SETUP)
                               : pick(2) ? rnd_alu() : NOP);
}

struct outcome {
    enum vc4_status st;
    uint32_t ra[VC4_QPU_REGS][VC4_QPU_SIMD], rb[VC4_QPU_REGS][VC4_QPU_SIMD];
    uint32_t acc[6][VC4_QPU_SIMD], sfu[VC4_QPU_SIMD], last_mul[VC4_QPU_SIMD];
    uint16_t flag[4];
    uint32_t pc;
    /* the delay pipelines a run leaves moving (a later run goes on from
     * them): instructions until the SFU result lands, the uniforms-address
     * hazard, a taken branch's slots */
    uint8_t sfu_left, unif_hazard, br_left, br1_left;
    uint64_t instructions, stat_instructions, time, cycles, stall_cycles, idle_cycles;
    struct harness_diags d;
    struct vc4_tmu_stats tmu;
    uint32_t vpm[VC4_VPM_MAX_ROWS * VC4_VPM_ROW_WORDS];
    struct vc4_vpm_generic vpm_wr, vpm_rd; /* QPU 0's VPM setups */
    uint32_t vdw_basic, vdw_stride;
    unsigned fast_entries; /* decoded words that take the fast path */
    unsigned fast_tmu_entries; /* ... of the fast TMU kinds */
    uint64_t jit_instructions; /* run as compiled code (PATH_JIT) */
    uint64_t jit_io;           /* ... of them TMU and VPM accesses */
    uint64_t jit_loop_passes;  /* passes of loop blocks run inside compiled code */
};

/* PATH_JIT: as PATH_RUN with compiled blocks (src/emu/jit.c), each block
 * compiled the first time its head is reached. */
enum path { PATH_RUN, PATH_STEP, PATH_GENERAL, PATH_JIT };

static struct vc4_emu *mk_path(enum path path, struct harness_diags *d)
{
    if (path != PATH_JIT)
        return mk(1, d);
    struct vc4_emu_options o = {.mem_size = 1u << 20, .num_qpus = 1, .sink = harness_sink(d),
                                .jit = VC4_EMU_JIT_ON, .jit_threshold = 1, .jit_dir = "jit-cache"};
    return vc4_emu_create(&o);
}

/* A QPU's registers, flags, PC and counts into o. */
static void record_qpu(struct outcome *o, const struct vc4_qpu *q)
{
    memcpy(o->ra, q->ra, sizeof o->ra);
    memcpy(o->rb, q->rb, sizeof o->rb);
    memcpy(o->acc, q->acc, sizeof o->acc);
    memcpy(o->sfu, q->sfu_result, sizeof o->sfu);
    memcpy(o->last_mul, q->last_mul, sizeof o->last_mul);
    memcpy(o->flag, q->flag, sizeof o->flag);
    o->pc = q->pc;
    o->sfu_left = q->sfu_left;
    o->unif_hazard = q->unif_hazard;
    o->br_left = q->br_left;
    o->br1_left = q->br1_left;
    o->instructions = q->instructions;
    o->time = q->time;
}

/* Random streams run twice (queued twice): the first run decodes each
 * word as it reaches it, in step(); the second finds them decoded, so that
 * run_fast runs its stretches (the streams do not loop). */
static bool run_twice;

/* Run p on one QPU from the registers in init, on the given path, within
 * budget cycles. */
static void run_budget(const struct prog *p, const struct vc4_qpu *init, enum path path, uint64_t budget,
                       struct outcome *o)
{
    memset(o, 0, sizeof *o);
    struct vc4_emu *e = mk_path(path, &o->d);
    if (!e) {
        o->st = VC4_ERR_NOMEM;
        return;
    }
    struct vc4_v3d *v = &e->v3d;
    struct vc4_qpu *q = &v->qpu[0];
    memcpy(q->ra, init->ra, sizeof q->ra);
    memcpy(q->rb, init->rb, sizeof q->rb);
    memcpy(q->acc, init->acc, sizeof q->acc);
    memcpy(q->flag, init->flag, sizeof q->flag);
    q->general_only = path == PATH_GENERAL;
    q->step_only = path == PATH_STEP;
    uint8_t unif[4 * 64];
    for (size_t i = 0; i < sizeof unif; i += 4) {
        uint32_t u = init->sfu_result[(i / 4) % VC4_QPU_SIMD] + (uint32_t)i;
        memcpy(unif + i, &u, 4);
    }
    vc4_emu_mem_write(e, UNIF, unif, sizeof unif);
    for (uint32_t i = 0; i < DATA_WORDS; i++) { /* TMU data: the word's own address, scrambled */
        uint32_t w = (DATA + 4 * i) * 0x9E3779B1u;
        vc4_emu_mem_write(e, DATA + 4 * i, &w, 4);
    }
    load(e, CODE, p);
    queue(e, CODE);
    if (run_twice)
        queue(e, CODE);
    o->st = vc4_emu_run(e, budget);
    record_qpu(o, q);
    o->stat_instructions = v->stats.instructions;
    o->cycles = v->stats.cycles;
    o->stall_cycles = v->stats.stall_cycles;
    o->idle_cycles = v->stats.idle_cycles;
    o->tmu = v->tmu.stats;
    memcpy(o->vpm, v->vpm.words, sizeof o->vpm);
    o->vpm_wr = v->vpm.q[0].wr;
    o->vpm_rd = v->vpm.q[0].rd;
    o->vdw_basic = v->vpm.q[0].vdw_basic;
    o->vdw_stride = v->vpm.q[0].vdw_stride;
    for (unsigned i = 0; i < VC4_ICACHE_ENTRIES; i++) {
        const struct vc4_icache_entry *ce = &v->icache.s[i].e;
        if (vc4_icache_live(&v->icache, ce) && ce->xi.fast != VC4_XI_FAST_NONE)
            o->fast_entries++;
        if (vc4_icache_live(&v->icache, ce) &&
            (ce->xi.fast == VC4_XI_FAST_LDTMU || ce->xi.fast == VC4_XI_FAST_TMU_S ||
             ce->xi.fast == VC4_XI_FAST_VPM_W || ce->xi.fast == VC4_XI_FAST_VPM_SETUP))
            o->fast_tmu_entries++;
    }
    struct vc4_emu_jit_stats js;
    vc4_emu_jit_stats(e, &js);
    o->jit_instructions = js.instructions;
    o->jit_io = js.io;
    o->jit_loop_passes = js.loop_passes;
    vc4_emu_destroy(e);
}
static void run_one(const struct prog *p, const struct vc4_qpu *init, enum path path, struct outcome *o)
{
    run_budget(p, init, path, 100000, o);
}

static bool same_generic(const struct vc4_vpm_generic *a, const struct vc4_vpm_generic *b)
{
    return a->valid == b->valid && a->horiz == b->horiz && a->laned == b->laned && a->size == b->size &&
           a->stride == b->stride && a->addr == b->addr && a->left == b->left && a->full == b->full &&
           a->setup_at == b->setup_at;
}

static bool same_outcome(const struct outcome *a, const struct outcome *b, unsigned seed)
{
    bool same = a->st == b->st && memcmp(a->ra, b->ra, sizeof a->ra) == 0 && memcmp(a->rb, b->rb, sizeof a->rb) == 0 &&
                memcmp(a->acc, b->acc, sizeof a->acc) == 0 && memcmp(a->sfu, b->sfu, sizeof a->sfu) == 0 &&
                memcmp(a->last_mul, b->last_mul, sizeof a->last_mul) == 0 &&
                memcmp(a->flag, b->flag, sizeof a->flag) == 0 && a->pc == b->pc && a->sfu_left == b->sfu_left &&
                a->unif_hazard == b->unif_hazard && a->br_left == b->br_left && a->br1_left == b->br1_left &&
                a->instructions == b->instructions && a->stat_instructions == b->stat_instructions &&
                a->time == b->time && a->cycles == b->cycles && a->stall_cycles == b->stall_cycles &&
                a->idle_cycles == b->idle_cycles && memcmp(&a->tmu, &b->tmu, sizeof a->tmu) == 0 &&
                memcmp(a->vpm, b->vpm, sizeof a->vpm) == 0 && same_generic(&a->vpm_wr, &b->vpm_wr) &&
                same_generic(&a->vpm_rd, &b->vpm_rd) && a->vdw_basic == b->vdw_basic &&
                a->vdw_stride == b->vdw_stride &&
                a->d.errors == b->d.errors && a->d.warnings == b->d.warnings && a->d.len == b->d.len &&
                memcmp(a->d.text, b->d.text, a->d.len) == 0;
    if (!same) {
        fprintf(stderr, "stream %u: fast and general paths differ (status %d/%d, %llu/%llu instructions, "
                        "%llu/%llu cycles, %llu/%llu stalled, pc %08x/%08x, flags Z %04x/%04x N %04x/%04x "
                        "C %04x/%04x, pipelines %u%u%u%u/%u%u%u%u)\n", seed, (int)a->st, (int)b->st,
                (unsigned long long)a->instructions, (unsigned long long)b->instructions,
                (unsigned long long)a->cycles, (unsigned long long)b->cycles, (unsigned long long)a->stall_cycles,
                (unsigned long long)b->stall_cycles, a->pc, b->pc, a->flag[1], b->flag[1],
                a->flag[2], b->flag[2], a->flag[3], b->flag[3], a->sfu_left, a->unif_hazard, a->br_left,
                a->br1_left, b->sfu_left, b->unif_hazard, b->br_left, b->br1_left);
        for (unsigned r = 0; r < VC4_QPU_REGS; r++)
            for (unsigned i = 0; i < VC4_QPU_SIMD; i++) {
                if (a->ra[r][i] != b->ra[r][i])
                    fprintf(stderr, "  ra%u[%u]: %08x / %08x\n", r, i, a->ra[r][i], b->ra[r][i]);
                if (a->rb[r][i] != b->rb[r][i])
                    fprintf(stderr, "  rb%u[%u]: %08x / %08x\n", r, i, a->rb[r][i], b->rb[r][i]);
                if (r < 6 && a->acc[r][i] != b->acc[r][i])
                    fprintf(stderr, "  r%u[%u]: %08x / %08x\n", r, i, a->acc[r][i], b->acc[r][i]);
            }
        if (a->d.len != b->d.len || memcmp(a->d.text, b->d.text, a->d.len))
            fprintf(stderr, "  diagnostics:\n%.*s\n  /\n%.*s\n", (int)a->d.len, a->d.text, (int)b->d.len, b->d.text);
    }
    return same;
}

static void rnd_state(struct vc4_qpu *init)
{
    memset(init, 0, sizeof *init);
    for (unsigned r = 0; r < VC4_QPU_REGS; r++)
        for (unsigned i = 0; i < VC4_QPU_SIMD; i++) {
            init->ra[r][i] = rnd_value();
            init->rb[r][i] = rnd_value();
        }
    for (unsigned r = 0; r < 6; r++)
        for (unsigned i = 0; i < VC4_QPU_SIMD; i++)
            init->acc[r][i] = rnd_value();
    for (unsigned i = 0; i < VC4_QPU_SIMD; i++)
        init->sfu_result[i] = rnd(); /* (seeds the uniforms) */
    for (unsigned f = 1; f < 4; f++)
        init->flag[f] = (uint16_t)rnd();
}

/* A random stream from random registers on the three paths: true when
 * they agree; *fast: the usual path's outcome. */
static bool three_paths_agree(unsigned seed, struct outcome *fast)
{
    static struct vc4_qpu init;
    static struct outcome stepped, general;
    static struct prog p;
    rnd_state(&init);
    rnd_prog(&p, 40 + pick(160));
    run_one(&p, &init, PATH_RUN, fast);
    run_one(&p, &init, PATH_STEP, &stepped);
    run_one(&p, &init, PATH_GENERAL, &general);
    return same_outcome(fast, &general, seed) && same_outcome(&stepped, &general, seed);
}

/* Random streams: both paths agree on everything, and the fast path was
 * taken (most decoded words qualify). */
static void test_fast_matches_general(void)
{
    static struct outcome fast;
    unsigned differ = 0, fast_entries = 0, ok_runs = 0;
    run_twice = true;
    for (unsigned seed = 0; seed < 300; seed++) {
        differ += !three_paths_agree(seed, &fast);
        fast_entries += fast.fast_entries;
        ok_runs += fast.st == VC4_OK;
    }
    run_twice = false;
    CHECK_EQ_INT(differ, 0);
    CHECK(fast_entries > 300 * 10); /* the streams do exercise the fast path */
    CHECK(ok_runs > 200);           /* and mostly run to their end */
}

/* Random streams with TMU and VPM traffic: general lookups, ldtmu signals
 * and VPM writes on the fast I/O kinds agree with the general path on
 * everything (the TMU's statistics and the VPM's contents included), with
 * and without the reasons to step aside in them: an empty FIFO, an SFU
 * result in flight, a fifth request, an element outside RAM, a conditional
 * write, flags, a second write, an 8-bit VPM setup, thread-end slots. */
static void test_fast_tmu_matches_general(void)
{
    static struct outcome fast;
    unsigned differ = 0, fast_tmu = 0, ok_runs = 0, stalls = 0;
    uint64_t loads = 0, misses = 0;
    tmu_mix = run_twice = true;
    for (unsigned seed = 0; seed < 300; seed++) {
        differ += !three_paths_agree(seed, &fast);
        fast_tmu += fast.fast_tmu_entries;
        ok_runs += fast.st == VC4_OK;
        stalls += fast.tmu.stall_cycles > 0;
        loads += fast.tmu.loads;
        misses += fast.tmu.cache_misses;
    }
    tmu_mix = run_twice = false;
    printf("TMU and VPM streams: %u fast I/O words decoded, %llu loads, %llu misses, %u of 300 ran to the end, %u stalled\n",
           fast_tmu, (unsigned long long)loads, (unsigned long long)misses, ok_runs, stalls);
    CHECK_EQ_INT(differ, 0);
    CHECK(fast_tmu > 300 * 3); /* the fast TMU kinds are decoded ... */
    CHECK(loads > 300 * 3);    /* ... loads happen ... */
    CHECK(stalls > 100);       /* ... and wait for their data */
    CHECK(ok_runs > 50);
}

/* The end of a loop whose body starts at top, counted by ra31 (set to 3
 * before it): ra31 - 1 setting flags, a branch back while it is not zero,
 * three delay slots (random ALU instructions or nops), the program end. */
static void loop_tail(struct prog *p, size_t top, bool alu_slots)
{
    emit(p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .waddr_add = 31, .raddr_a = 31, .raddr_b = 1,
              .add_a = MUX_A, .add_b = MUX_B, .sf = 1));
    emit(p, vc4_qpu_encode(&(struct vc4_qpu_instr){.sig = VC4_QPU_SIG_BRANCH, .cond_br = VC4_QPU_BCOND_ANY_ZC,
                                                    .rel = 1, .imm = (uint32_t)-(int32_t)(8 * (p->n + 4 - top)),
                                                    .waddr_add = WNOP, .waddr_mul = WNOP}));
    for (int i = 0; i < 3; i++)
        emit(p, alu_slots && pick(2) ? rnd_alu() : NOP);
    emit_end(p);
}

/* Random streams run with compiled blocks (each compiled at its first
 * head): the interpreter's registers, flags, counts and diagnostics.  Fewer
 * streams than above: every block is a compiler run (0.1-0.2 s). */
static void test_jit_matches_interpreter(void)
{
    static struct vc4_qpu init;
    static struct outcome jit, general;
    static struct prog p;
    unsigned differ = 0;
    uint64_t compiled = 0, looped = 0;
    rng = 0x9E3779B97F4A7C15u;
    plain_only = true;
    for (unsigned seed = 0; seed < 16; seed++) {
        rnd_state(&init);
        /* a loop run three times (a block is cut from instructions already
         * fetched: the first pass runs interpreted) around a random body
         * of ALU instructions and load immediates; ra31 counts */
        p.n = 0;
        emit(&p, ldi(31, 3));
        size_t top = p.n, len = 8 + pick(40);
        while (p.n < top + len)
            emit(&p, pick(8) ? rnd_alu() : rnd_ldi());
        loop_tail(&p, top, true);
        run_one(&p, &init, PATH_JIT, &jit);
        run_one(&p, &init, PATH_GENERAL, &general);
        differ += !same_outcome(&jit, &general, 1000 + seed);
        compiled += jit.jit_instructions;
        looped += jit.jit_loop_passes;
    }
    plain_only = false;
    CHECK_EQ_INT(differ, 0);
    printf("%llu instructions ran as compiled code, %llu passes of loop blocks\n", (unsigned long long)compiled,
           (unsigned long long)looped);
    CHECK(compiled > 16 * 8); /* blocks were compiled and run */
}

/* Load immediates in compiled blocks (qpu.h VC4_XI_FAST_LDI, jit.c
 * put_ldi): loops whose bodies are half load immediates (the three modes,
 * random conditions, flags set a quarter of the time, also with the add
 * condition never, when the mul's condition gates the flags) and half ALU
 * instructions that read what they wrote and write under the flags they
 * set.  The compiled runs match the interpreter's fast path and the
 * general path. */
static void test_jit_load_immediates(void)
{
    static struct vc4_qpu init;
    static struct outcome jit, fast, general;
    static struct prog p;
    unsigned differ = 0, with_flags = 0;
    uint64_t compiled = 0;
    rng = 0xD1B54A32D192ED03u;
    plain_only = true;
    for (unsigned seed = 0; seed < 12; seed++) {
        rnd_state(&init);
        p.n = 0;
        emit(&p, ldi(31, 3));
        size_t top = p.n, len = 12 + pick(24);
        while (p.n < top + len)
            emit(&p, pick(2) ? rnd_ldi() : rnd_alu());
        for (size_t i = top; i < p.n; i++) {
            struct vc4_qpu_instr in;
            vc4_qpu_decode(p.w[i], &in);
            with_flags += in.sig == VC4_QPU_SIG_LOAD_IMM && in.sf && in.cond_add == VC4_QPU_COND_NEVER;
        }
        loop_tail(&p, top, true);
        run_one(&p, &init, PATH_JIT, &jit);
        run_one(&p, &init, PATH_RUN, &fast);
        run_one(&p, &init, PATH_GENERAL, &general);
        differ += !same_outcome(&jit, &general, 3000 + seed);
        differ += !same_outcome(&fast, &general, 3100 + seed);
        compiled += jit.jit_instructions;
    }
    plain_only = false;
    CHECK_EQ_INT(differ, 0);
    printf("load immediates: %llu instructions ran compiled, %u flag-setting ones under the mul's condition\n",
           (unsigned long long)compiled, with_flags);
    CHECK(compiled > 12 * 12); /* blocks with load immediates were compiled and run */
    CHECK(with_flags >= 2);
}

/* Compiled blocks holding TMU and VPM accesses (jit.h, jit_io.h): a loop
 * run three times around a random body of ALU instructions (some reading
 * a uniform) and the TMU and VPM traffic of test_fast_tmu_matches_general
 * (VPM reads among it; general lookups and
 * ldtmu, mostly of the fast kinds, their data often not there yet: a
 * stall ends a run; VPM setups and row writes; sometimes what makes an
 * access step aside: a conditional write, flags, a fifth request, an
 * element outside RAM, a load of an empty FIFO), the queued requests
 * loaded at the end of each pass.  The registers, flags, counts, cycles,
 * stalls, TMU statistics, VPM contents and setups and every diagnostic
 * are the interpreter's, and accesses did run compiled. */
static void test_jit_io_matches_interpreter(void)
{
    static struct vc4_qpu init;
    static struct outcome jit, general;
    static struct prog p;
    unsigned differ = 0, stalled = 0;
    uint64_t compiled = 0, io = 0;
    rng = 0x6A09E667F3BCC909u;
    for (unsigned seed = 0; seed < 16; seed++) {
        rnd_state(&init);
        p.n = 0;
        emit(&p, ldi(31, 3));
        size_t top = p.n, len = 12 + pick(40);
        unsigned queued[2] = {0, 0};
        while (p.n < top + len) {
            unsigned r = pick(8);
            if (r < 3) {
                plain_only = true;
                uint64_t w = rnd_alu();
                plain_only = false;
                if (r == 2) { /* a uniform read (jit_io.h operand) */
                    struct vc4_qpu_instr in;
                    vc4_qpu_decode(w, &in);
                    if (in.sig == VC4_QPU_SIG_SMALL_IMM || pick(2))
                        in.raddr_a = VC4_QPU_R_UNIF;
                    else
                        in.raddr_b = VC4_QPU_R_UNIF;
                    w = vc4_qpu_encode(&in);
                }
                emit(&p, w);
            } else if (r < 7) {
                emit_tmu(&p, queued);
            } else {
                emit_vpm(&p);
            }
        }
        for (unsigned u = 0; u < 2; u++)
            for (; queued[u]; queued[u]--)
                emit(&p, rnd_ldtmu(u));
        loop_tail(&p, top, false);
        run_one(&p, &init, PATH_JIT, &jit);
        run_one(&p, &init, PATH_GENERAL, &general);
        differ += !same_outcome(&jit, &general, 2000 + seed);
        compiled += jit.jit_instructions;
        io += jit.jit_io;
        stalled += jit.tmu.stall_cycles > 0;
    }
    CHECK_EQ_INT(differ, 0);
    printf("%llu instructions ran as compiled code, %llu of them TMU and VPM accesses; %u of 16 streams stalled\n",
           (unsigned long long)compiled, (unsigned long long)io, stalled);
    CHECK(io > 16 * 4);       /* accesses were made from compiled blocks */
    CHECK(compiled - io > 16 * 4); /* beside compiled ALU work */
    CHECK(stalled > 8);
}

/* An SFU write (qpu.h VC4_XI_FAST_SFU when alone and unconditional):
 * one of the four functions of an accumulator pair by the add ALU or the
 * mul ALU, sometimes with a small immediate, or a load immediate; rarely
 * conditional or with a second write (the general path). */
static uint64_t rnd_sfu_write(void)
{
    uint8_t waddr = (uint8_t)(VC4_QPU_W_SFU_RECIP + pick(4));
    if (pick(6) == 0)
        return I(.sig = LDI, .waddr_add = waddr, .imm = rnd_value());
    bool small = pick(4) == 0, mul = pick(3) == 0, odd = pick(10) == 0;
    struct vc4_qpu_instr in = {.sig = small ? VC4_QPU_SIG_SMALL_IMM : VC4_QPU_SIG_NONE,
                               .raddr_a = VC4_QPU_R_NOP, .raddr_b = small ? (uint8_t)pick(48) : VC4_QPU_R_NOP,
                               .waddr_add = VC4_QPU_W_NOP, .waddr_mul = VC4_QPU_W_NOP,
                               .cond_add = VC4_QPU_COND_ALWAYS, .cond_mul = VC4_QPU_COND_ALWAYS};
    uint8_t a = (uint8_t)pick(4), b = small ? MUX_B : (uint8_t)pick(4);
    if (mul) {
        static const uint8_t ops[] = {VC4_QPU_M_FMUL, VC4_QPU_M_V8MIN, VC4_QPU_M_MUL24};
        in.op_mul = ops[pick(3)];
        in.mul_a = a;
        in.mul_b = b;
        in.waddr_mul = waddr;
        in.ws = 1; /* (the mul writes file A) */
    } else {
        static const uint8_t ops[] = {VC4_QPU_A_OR, VC4_QPU_A_FADD, VC4_QPU_A_FMAX, VC4_QPU_A_ITOF};
        in.op_add = ops[pick(4)];
        in.add_a = a;
        in.add_b = b;
        in.waddr_add = waddr;
    }
    if (odd) { /* conditional, or both ALUs busy: the general path's */
        if (pick(2)) {
            in.cond_add = in.cond_mul = (uint8_t)(2 + pick(6));
        } else if (mul) {
            in.op_add = VC4_QPU_A_ADD;
            in.waddr_add = R0;
        } else {
            in.op_mul = VC4_QPU_M_FMUL;
            in.waddr_mul = R1;
        }
    }
    return vc4_qpu_encode(&in);
}

/* Compiled blocks holding SFU writes (jit.c sfu_window): loops run three
 * times around random ALU work and load immediates with SFU writes among
 * them, the two instructions behind a write (its window) random too: a
 * read of r4 there or a second SFU write is the r4 rule (the block ends
 * before the write and the general path reports), else the block holds the
 * write and lands r4 after the window.  Registers (r4 and the SFU result
 * among them), flags, counts, cycles and diagnostics are the general
 * path's and the fast path's.  Then the bench's finite loop
 * (bench_qpu sfuf1): its SFU write inside a loop block, every pass after
 * the first inside compiled code, also cut short by every budget; and a
 * loop that branches into a window, and a window whose access stops the
 * run. */
static void test_jit_sfu_writes(void)
{
    static struct vc4_qpu init;
    static struct outcome jit, fast, general;
    static struct prog p;
    unsigned differ = 0, writes = 0;
    uint64_t compiled = 0, looped = 0;
    rng = 0x13198A2E03707344u;
    plain_only = true;
    uint64_t io = 0;
    for (unsigned seed = 0; seed < 48; seed++) {
        /* (the second half with TMU, VPM and uniform accesses among them,
         * in windows too: an access there that the fast way cannot make
         * stops the run with the result in flight, a fifth lookup, a VPM
         * write of another size) */
        bool with_io = seed >= 24;
        rnd_state(&init);
        p.n = 0;
        emit(&p, ldi(31, 3));
        size_t top = p.n, len = 8 + pick(32);
        unsigned queued[2] = {0, 0};
        while (p.n < top + len) {
            unsigned r = pick(10);
            if (r < 3) {
                emit(&p, rnd_sfu_write());
                writes++;
            } else if (!with_io || r >= 7) {
                emit(&p, r < 9 ? rnd_alu() : rnd_ldi());
            } else if (r < 6) {
                plain_only = false;
                if (r < 5)
                    emit_tmu(&p, queued);
                else
                    emit_vpm(&p);
                plain_only = true;
            } else { /* a uniform read */
                struct vc4_qpu_instr in;
                vc4_qpu_decode(rnd_alu(), &in);
                in.raddr_a = VC4_QPU_R_UNIF;
                if (in.sig == VC4_QPU_SIG_SMALL_IMM)
                    in.sig = VC4_QPU_SIG_NONE;
                emit(&p, vc4_qpu_encode(&in));
            }
        }
        for (unsigned u = 0; u < 2; u++)
            for (; queued[u]; queued[u]--)
                emit(&p, rnd_ldtmu(u));
        loop_tail(&p, top, true);
        run_one(&p, &init, PATH_JIT, &jit);
        run_one(&p, &init, PATH_RUN, &fast);
        run_one(&p, &init, PATH_GENERAL, &general);
        differ += !same_outcome(&jit, &general, 4000 + seed);
        differ += !same_outcome(&fast, &general, 4100 + seed);
        compiled += jit.jit_instructions;
        looped += jit.jit_loop_passes;
        io += jit.jit_io;
    }
    plain_only = false;
    CHECK_EQ_INT(differ, 0);
    printf("SFU writes: %u in the streams, %llu instructions ran compiled (%llu accesses), %llu loop passes\n",
           writes, (unsigned long long)compiled, (unsigned long long)io, (unsigned long long)looped);
    CHECK(compiled > 48 * 8);
    CHECK(io > 24);

    /* r2 = 2.0, then 40 passes of: r2 += 1.0; r3 = r2 * r2; recip(r3);
     * two ALU instructions; r1 = r4 * r3 (each pass's own result: a
     * landing one instruction late would read the last pass's, 5% off) */
    p.n = 0;
    emit(&p, ldi(31, 40));
    emit(&p, ldi(R2, 0x40000000u));
    size_t top = p.n;
    emit(&p, I(.sig = SMALL, .raddr_b = 32 /* 1.0 */, .op_add = VC4_QPU_A_FADD, .waddr_add = R2, .add_a = 2,
               .add_b = MUX_B));
    emit(&p, I(.op_mul = VC4_QPU_M_FMUL, .waddr_mul = R3, .mul_a = 2, .mul_b = 2, .op_add = VC4_QPU_A_FADD,
               .waddr_add = R0, .add_a = 2, .add_b = 2));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = VC4_QPU_W_SFU_RECIP, .add_a = 3, .add_b = 3));
    emit(&p, I(.op_add = VC4_QPU_A_FADD, .waddr_add = R0, .add_a = 0, .add_b = 2));
    emit(&p, I(.op_mul = VC4_QPU_M_FMUL, .waddr_mul = R0, .mul_a = 0, .mul_b = 0));
    emit(&p, I(.op_mul = VC4_QPU_M_FMUL, .waddr_mul = R1, .mul_a = 4, .mul_b = 3));
    emit(&p, I(.op_add = VC4_QPU_A_FADD, .waddr_add = 5, .add_a = 1, .add_b = 0));
    loop_tail(&p, top, false);
    rnd_state(&init);
    run_one(&p, &init, PATH_JIT, &jit);
    run_one(&p, &init, PATH_GENERAL, &general);
    CHECK(same_outcome(&jit, &general, 4999));
    /* r2 = 42, r3 = 1764, recip to 13 mantissa bits 0x3A149C00, the
     * product truncated */
    CHECK_EQ_U64(jit.acc[1][0], 0x3F80005Eu);
    CHECK(jit.jit_loop_passes >= 36); /* the loop block holds the write: passes back to back */
    /* every budget: a run is never cut inside a window (jit.h nostop) */
    differ = 0;
    for (uint64_t budget = 1; budget < 300; budget += 1 + budget / 16) {
        run_budget(&p, &init, PATH_JIT, budget, &jit);
        run_budget(&p, &init, PATH_GENERAL, budget, &general);
        differ += !same_outcome(&jit, &general, 5000 + (unsigned)budget);
    }
    CHECK_EQ_INT(differ, 0);

    /* A branch into a window is no entry (jit.c link_block): the loop goes
     * back to the instruction after the write, where no result is in
     * flight, and r4 there holds what the pass's ldtmu loaded, read after
     * the window (a block entered there would land the old SFU result). */
    p.n = 0;
    emit(&p, ldi(31, 6));
    emit(&p, ldi(R0, DATA + 64));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = VC4_QPU_W_SFU_EXP, .add_a = 3, .add_b = 3));
    top = p.n;
    emit(&p, I(.op_add = VC4_QPU_A_FADD, .waddr_add = R2, .add_a = 2, .add_b = 1));
    emit(&p, I(.op_mul = VC4_QPU_M_FMUL, .waddr_mul = R3, .mul_a = 3, .mul_b = 2));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R1, .add_a = 4, .add_b = 4));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = VC4_QPU_W_TMU0_S, .add_a = 0, .add_b = 0));
    emit(&p, NOP);
    emit(&p, I(.sig = VC4_QPU_SIG_LOAD_TMU0));
    emit(&p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = 6, .add_a = 1, .add_b = 4));
    loop_tail(&p, top, false);
    rnd_state(&init);
    run_twice = true; /* (the second time the program's start is hot: its block holds the write) */
    run_one(&p, &init, PATH_JIT, &jit);
    run_one(&p, &init, PATH_GENERAL, &general);
    run_twice = false;
    CHECK(same_outcome(&jit, &general, 5999));
    CHECK(jit.jit_instructions > 4 * 6);
    CHECK_EQ_U64(jit.acc[1][0], (DATA + 64) * 0x9E3779B1u); /* the data, not 2^r3 */

    /* A VPM write in a window that the fast way does not make (16-bit
     * rows): the run stops there with the result in flight, and the
     * interpreter lands it (jit.c put_block: sfu_left left in the QPU) */
    p.n = 0;
    emit(&p, ldi(31, 5));
    emit(&p, I(.sig = LDI, .ws = 1, .waddr_add = VC4_QPU_W_VPMVCD_SETUP, .imm = 0x1900u)); /* 16-bit rows */
    top = p.n;
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = VC4_QPU_W_SFU_RECIPSQRT, .add_a = 3, .add_b = 3));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = VC4_QPU_W_VPM, .add_a = 0, .add_b = 0));
    emit(&p, I(.op_add = VC4_QPU_A_FADD, .waddr_add = R3, .add_a = 3, .add_b = 2));
    emit(&p, I(.op_mul = VC4_QPU_M_FMUL, .waddr_mul = R1, .mul_a = 4, .mul_b = 4));
    emit(&p, I(.op_add = VC4_QPU_A_FADD, .waddr_add = R2, .add_a = 1, .add_b = 2));
    loop_tail(&p, top, false);
    rnd_state(&init);
    run_twice = true;
    run_one(&p, &init, PATH_JIT, &jit);
    run_one(&p, &init, PATH_GENERAL, &general);
    run_twice = false;
    CHECK(same_outcome(&jit, &general, 6999));
    CHECK(jit.jit_instructions > 5 * 2);
}

/* A loop of float and integer work run `count` times (ra1 counts) and its
 * start registers in init. */
static void loop_prog(struct prog *p, uint32_t count, struct vc4_qpu *init)
{
    enum { RA1 = 1 };
    p->n = 0;
    emit(p, ldi(RA1, count)); /* counter */
    emit(p, I(.op_add = VC4_QPU_A_FADD, .waddr_add = R0, .add_a = 0, .add_b = 1,
              .op_mul = VC4_QPU_M_FMUL, .waddr_mul = R1, .mul_a = 0, .mul_b = 2)); /* r0 = r0 + r1; r1 = r0 * r2 */
    emit(p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = R2, .add_a = 2, .add_b = 3,
              .op_mul = VC4_QPU_M_MUL24, .waddr_mul = R2, .mul_a = 2, .mul_b = 3)); /* both to r2: mul wins */
    emit(p, I(.op_add = VC4_QPU_A_FSUB, .waddr_add = R3, .add_a = 0, .add_b = 3,
              .op_mul = VC4_QPU_M_FMUL, .waddr_mul = R0, .mul_a = 3, .mul_b = 1)); /* mul reads r3 (old) */
    emit(p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .waddr_add = RA1, .raddr_a = RA1, .raddr_b = 1,
              .add_a = MUX_A, .add_b = MUX_B, .sf = 1));
    emit(p, vc4_qpu_encode(&(struct vc4_qpu_instr){.sig = VC4_QPU_SIG_BRANCH, .cond_br = VC4_QPU_BCOND_ANY_ZC,
                                                    .rel = 1, .imm = (uint32_t)-(8 * 8),
                                                    .waddr_add = WNOP, .waddr_mul = WNOP}));
    emit(p, NOP);
    emit(p, NOP);
    emit(p, NOP);
    emit_end(p);
    memset(init, 0, sizeof *init);
    for (unsigned i = 0; i < VC4_QPU_SIMD; i++) {
        init->acc[0][i] = 0x3F800000u + i * 0x1357u; /* ~1.0 */
        init->acc[1][i] = 0xBF7FFFFFu - i * 0x2468u; /* ~-1.0: sums cancel */
        init->acc[2][i] = 0x40490FDBu ^ (i << 3);    /* ~pi */
        init->acc[3][i] = 0x00C00000u + i;           /* tiny: products flush */
    }
}

/* A loop of float and integer work that stays on the fast path (besides
 * its counter), with destinations that are operands, both ALUs on one
 * register and a mul reading the add's destination: same results, and the
 * fast path gives the values the scalar rules give. */
static void test_fast_loop_values(void)
{
    static struct vc4_qpu init;
    static struct outcome fast, general;
    static struct prog p;
    loop_prog(&p, 5, &init);
    run_one(&p, &init, PATH_RUN, &fast);
    run_one(&p, &init, PATH_GENERAL, &general);
    CHECK(fast.st == VC4_OK);
    CHECK(same_outcome(&fast, &general, 0));
    CHECK(fast.fast_entries >= 4);
    static struct outcome jit;
    run_one(&p, &init, PATH_JIT, &jit);
    CHECK(same_outcome(&jit, &general, 0));
    CHECK(jit.jit_instructions >= 4 * 4); /* the loop body ran compiled from its second pass */
    CHECK_EQ_U64(jit.jit_loop_passes, 4); /* ... as one loop block: passes 2-5 inside it */
    /* the first pass by the scalar rules: element 0 */
    uint32_t r0 = init.acc[0][0], r1 = init.acc[1][0], r2 = init.acc[2][0], r3 = init.acc[3][0];
    for (int it = 0; it < 5; it++) {
        uint32_t s = vc4_alu_fadd(r0, r1), m = vc4_alu_fmul(r0, r2);
        r0 = s;
        r1 = m;
        r2 = vc4_alu_mul24(r2, r3);
        uint32_t d = vc4_alu_fsub(r0, r3), m2 = vc4_alu_fmul(r3, r1);
        r3 = d;
        r0 = m2;
    }
    CHECK_EQ_U64(fast.acc[0][0], r0);
    CHECK_EQ_U64(fast.acc[1][0], r1);
    CHECK_EQ_U64(fast.acc[2][0], r2);
    CHECK_EQ_U64(fast.acc[3][0], r3);
}

/* Loop blocks (jit.c block_loops, run_fast): a loop whose body, counter,
 * branch and slots are one block runs its passes inside the compiled
 * code.  Against the general path: (a) loop_prog under budgets that end
 * anywhere in a pass, in the slots or between passes; (b) a loop whose
 * last slot writes ra5 where Z is set (the counter's low bit, tested in
 * the first slot) and whose first instruction reads ra5: on those passes
 * the read-after-write rule applies at the top, so the compiled loop must
 * leave after them and the interpreter report it, on the others it goes
 * on; (c) the same with the slot always writing (the loop never goes
 * round inside); (d) random loops whose bodies have a nop between
 * instructions (no read-after-write inside: one block, unless an
 * instruction is none a block holds), slots with random ALU work.  Same
 * registers, flags, counts and diagnostics. */
static void test_jit_loop_blocks(void)
{
    static struct vc4_qpu init;
    static struct outcome jit, general;
    static struct prog p;
    unsigned differ = 0;
    uint64_t looped = 0;
    loop_prog(&p, 40, &init);
    for (uint64_t budget = 1; budget < 400; budget += 1 + budget / 8) {
        run_budget(&p, &init, PATH_JIT, budget, &jit);
        run_budget(&p, &init, PATH_GENERAL, budget, &general);
        differ += !same_outcome(&jit, &general, (unsigned)budget);
        looped += jit.jit_loop_passes;
    }
    CHECK_EQ_INT(differ, 0);
    CHECK(looped > 100);
    enum { RA1 = 1, RA5 = 5 };
    for (unsigned always = 0; always < 2; always++) {
        p.n = 0;
        emit(&p, ldi(RA1, 12));
        emit(&p, ldi(RA5, 7));
        emit(&p, NOP); /* (the ldi's write is not the rule's case) */
        size_t top = p.n;
        emit(&p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = R0, .raddr_a = RA5, .add_a = MUX_A, .add_b = 0)); /* reads ra5 */
        emit(&p, I(.op_add = VC4_QPU_A_FADD, .waddr_add = R1, .add_a = 1, .add_b = 2,
                   .op_mul = VC4_QPU_M_FMUL, .waddr_mul = R2, .mul_a = 2, .mul_b = 3));
        emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .waddr_add = RA1, .raddr_a = RA1, .raddr_b = 1,
                   .add_a = MUX_A, .add_b = MUX_B, .sf = 1));
        emit(&p, vc4_qpu_encode(&(struct vc4_qpu_instr){.sig = VC4_QPU_SIG_BRANCH, .cond_br = VC4_QPU_BCOND_ANY_ZC,
                                                        .rel = 1, .imm = (uint32_t)-(int32_t)(8 * (p.n + 4 - top)),
                                                        .waddr_add = WNOP, .waddr_mul = WNOP}));
        emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_AND, .waddr_add = WNOP, .raddr_a = RA1, .raddr_b = 1,
                   .add_a = MUX_A, .add_b = MUX_B, .sf = 1)); /* Z where the counter is even */
        emit(&p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = R3, .add_a = 3, .add_b = 0));
        emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = RA5, .add_a = 1, .add_b = 1,
                   .cond_add = always ? ALWAYS : ZS)); /* ra5, read by the next pass's first instruction */
        emit_end(&p);
        run_one(&p, &init, PATH_JIT, &jit);
        run_one(&p, &init, PATH_GENERAL, &general);
        CHECK(jit.st == VC4_OK);
        CHECK(same_outcome(&jit, &general, 100 + always));
        CHECK(general.d.warnings + general.d.errors > 0); /* the rule was reported */
        if (always)
            CHECK_EQ_U64(jit.jit_loop_passes, 0);
        else
            CHECK(jit.jit_loop_passes > 0);
    }
    rng = 0x243F6A8885A308D3u;
    plain_only = true;
    looped = 0;
    unsigned loops = 0;
    for (unsigned seed = 0; seed < 24; seed++) {
        rnd_state(&init);
        p.n = 0;
        emit(&p, ldi(31, 6));
        size_t top = p.n, len = 1 + pick(5);
        while (p.n < top + 2 * len) {
            emit(&p, rnd_alu());
            emit(&p, NOP);
        }
        loop_tail(&p, top, true);
        run_one(&p, &init, PATH_JIT, &jit);
        run_one(&p, &init, PATH_GENERAL, &general);
        differ += !same_outcome(&jit, &general, 3000 + seed);
        looped += jit.jit_loop_passes;
        loops += jit.jit_loop_passes > 0;
    }
    plain_only = false;
    CHECK_EQ_INT(differ, 0);
    printf("random loops: %u of 24 ran passes inside a loop block, %llu passes\n", loops, (unsigned long long)looped);
    CHECK(loops >= 6);
}

/* Blocks compiled on the JIT's own thread (vc4_emu_options.jit_async): the
 * run goes on interpreted meanwhile, in budget slices with pauses so that
 * the compiler finishes while it runs, and the outcome is the
 * interpreter's, with the loop body run compiled once it is there. */
static void test_jit_async(void)
{
    static struct vc4_qpu init;
    static struct outcome general;
    static struct prog p;
    loop_prog(&p, 200000, &init);
    run_budget(&p, &init, PATH_GENERAL, 10000000, &general);
    CHECK(general.st == VC4_OK);

    struct harness_diags d = {0};
    struct vc4_emu_options o = {.mem_size = 1u << 20, .num_qpus = 1, .sink = harness_sink(&d),
                                .jit = VC4_EMU_JIT_ON, .jit_threshold = 10, .jit_dir = "jit-cache",
                                .jit_async = true};
    struct vc4_emu *e = vc4_emu_create(&o);
    CHECK(e != NULL);
    if (!e)
        return;
    struct vc4_qpu *q = &e->v3d.qpu[0];
    memcpy(q->acc, init.acc, sizeof q->acc);
    load(e, CODE, &p);
    queue(e, CODE);
    enum vc4_status st = VC4_ERR_TIMEOUT;
    struct vc4_emu_jit_stats js = {0};
    int slices = 0;
    while (slices < 20000 && st == VC4_ERR_TIMEOUT) {
        slices++;
        st = vc4_emu_run(e, 2000);
        vc4_emu_jit_stats(e, &js);
        if (js.compiled + js.loaded == 0) {
            struct timespec ts = {0, 5000000}; /* (the compiler's turn) */
            nanosleep(&ts, NULL);
        }
    }
    CHECK(st == VC4_OK);
    CHECK(memcmp(q->acc, general.acc, sizeof q->acc) == 0);
    CHECK(memcmp(q->flag, general.flag, sizeof q->flag) == 0);
    CHECK_EQ_U64(q->instructions, general.instructions);
    CHECK_EQ_U64(e->v3d.stats.cycles, general.cycles);
    CHECK_EQ_INT(d.errors, slices - 1); /* (each slice but the last ends with a timeout report) */
    CHECK_EQ_INT(d.warnings, 0);
    printf("async: %llu of %llu instructions ran compiled\n", (unsigned long long)js.instructions,
           (unsigned long long)q->instructions);
    CHECK(js.instructions * 3 > q->instructions); /* the loop body (5 of its 8 instructions) */
    vc4_emu_destroy(e);
}

/* A loop that never ends, stopped by cycle budgets that fall anywhere in
 * it (in a run of fast-path instructions, in a branch's delay slots, on a
 * TMU stall): the same timeout, PC, registers and counts on every path. */
static void test_fast_budget_stop(void)
{
    static struct vc4_qpu init;
    static struct outcome fast, stepped, general;
    struct prog p = {0};
    emit(&p, ldi(VC4_QPU_W_TMU0_S, UNIF));                                   /* a TMU lookup: a stall */
    emit(&p, I(.sig = VC4_QPU_SIG_LOAD_TMU0));
    emit(&p, I(.op_add = VC4_QPU_A_FADD, .waddr_add = R0, .add_a = 0, .add_b = 1,
               .op_mul = VC4_QPU_M_FMUL, .waddr_mul = R1, .mul_a = 1, .mul_b = 2));
    emit(&p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = R2, .add_a = 2, .add_b = 4));
    emit(&p, vc4_qpu_encode(&(struct vc4_qpu_instr){.sig = VC4_QPU_SIG_BRANCH, .cond_br = VC4_QPU_BCOND_ALWAYS,
                                                     .rel = 1, .imm = (uint32_t)-(8 * 8),
                                                     .waddr_add = WNOP, .waddr_mul = WNOP}));
    emit(&p, I(.op_add = VC4_QPU_A_SUB, .waddr_add = R3, .add_a = 3, .add_b = 0));
    emit(&p, NOP);
    emit(&p, NOP);
    memset(&init, 0, sizeof init);
    unsigned differ = 0, timeouts = 0;
    uint64_t jit_instructions = 0;
    for (uint64_t budget = 1; budget < 200; budget += 1 + budget / 16) {
        run_budget(&p, &init, PATH_RUN, budget, &fast);
        run_budget(&p, &init, PATH_STEP, budget, &stepped);
        run_budget(&p, &init, PATH_GENERAL, budget, &general);
        if (!same_outcome(&fast, &general, (unsigned)budget) || !same_outcome(&stepped, &general, (unsigned)budget))
            differ++;
        static struct outcome jit;
        run_budget(&p, &init, PATH_JIT, budget, &jit);
        differ += !same_outcome(&jit, &general, (unsigned)budget);
        jit_instructions += jit.jit_instructions;
        timeouts += fast.st == VC4_ERR_TIMEOUT;
        CHECK(fast.cycles <= budget);
    }
    CHECK_EQ_INT(differ, 0);
    CHECK(timeouts > 20);
    CHECK(fast.stall_cycles > 0); /* the TMU stall was among them */
    CHECK(jit_instructions > 0);  /* and compiled blocks, cut short by budgets or not */
}

/* Every kernel of both tables with its output one of its operands (a, b
 * or both) gives what it gives into a separate vector: the fast path
 * computes a register's new value straight into it. */
static void test_kernels_in_place(void)
{
    struct vc4_alu_fpenv env;
    vc4_alu_fp_enter(&env);
    const struct vc4_alu_kernels *tabs[2] = {&vc4_alu_kernels_exact, &vc4_alu_kernels_host};
    unsigned bad = 0;
    for (int it = 0; it < 200; it++) {
        uint32_t a[VC4_QPU_SIMD], b[VC4_QPU_SIMD];
        for (int i = 0; i < VC4_QPU_SIMD; i++) {
            a[i] = rnd_value();
            b[i] = rnd_value();
        }
        for (int t = 0; t < 2; t++)
            for (unsigned op = 0; op < 32 + 8; op++) {
                vc4_alu_kernel *k = op < 32 ? tabs[t]->add[op] : tabs[t]->mul[op - 32];
                uint32_t want[VC4_QPU_SIMD], wsame[VC4_QPU_SIMD], x[VC4_QPU_SIMD], y[VC4_QPU_SIMD];
                uint16_t cw = 0, cs = 0, cx = 0, cy = 0, cz = 0;
                k(a, b, want, &cw);
                k(a, a, wsame, &cs);
                memcpy(x, a, sizeof x);
                k(x, b, x, &cx); /* out = a */
                memcpy(y, b, sizeof y);
                k(a, y, y, &cy); /* out = b */
                bad += memcmp(x, want, sizeof x) != 0 || memcmp(y, want, sizeof y) != 0 || cx != cw || cy != cw;
                memcpy(x, a, sizeof x);
                k(x, x, x, &cz); /* out = a = b */
                bad += memcmp(x, wsame, sizeof x) != 0 || cz != cs;
                memcpy(x, a, sizeof x);
                k(x, b, x, NULL); /* without the carry */
                bad += memcmp(x, want, sizeof x) != 0;
                if (bad && bad < 4)
                    fprintf(stderr, "table %d op %u in place differs\n", t, op);
            }
    }
    vc4_alu_fp_leave(&env);
    CHECK_EQ_INT(bad, 0);
}

/* The host float kernels where they leave the host's arithmetic: fmul
 * products from just below to just above 2^-126 (a signed zero below,
 * the one that rounds up to 2^-126 included) and products that overflow,
 * fadd/fsub with operands from 2^126 to 2^128 (sums that may overflow),
 * Inf/NaN patterns; against the scalar rules. */
static void test_host_float_edges(void)
{
    struct vc4_alu_fpenv env;
    bool host = vc4_alu_fp_enter(&env);
    unsigned bad = 0;
    for (int it = 0; it < 20000; it++) {
        uint32_t a[VC4_QPU_SIMD], b[VC4_QPU_SIMD], r[VC4_QPU_SIMD];
        for (int i = 0; i < VC4_QPU_SIMD; i++) {
            uint32_t s = rnd() & 0x80000000u, m1 = rnd() & 0x7FFFFFu, m2 = rnd() & 0x7FFFFFu;
            if (pick(4) == 0)
                m1 = 0x7FFFFFu - pick(4); /* mantissa products near the next power of two */
            if (pick(4) == 0)
                m2 = 0x7FFFFFu - pick(4);
            unsigned e1 = 1 + pick(253), e2;
            if (it & 1) /* fmul: exponents that sum to about -126 (or 128) */
                e2 = (unsigned)((int)(pick(2) ? 127 - 126 + 127 : 127 + 128 + 127) - (int)e1 + (int)pick(3) - 1);
            else /* fadd: near the top */
                e1 = 252 + pick(3), e2 = 252 + pick(3);
            if (e2 < 1 || e2 > 254)
                e2 = 1 + pick(254);
            if (pick(32) == 0)
                e1 = 255;
            a[i] = s | e1 << 23 | m1;
            b[i] = (rnd() & 0x80000000u) | e2 << 23 | m2;
        }
        vc4_alu_kernels_host.mul[VC4_QPU_M_FMUL](a, b, r, NULL);
        for (int i = 0; i < VC4_QPU_SIMD; i++)
            bad += r[i] != vc4_alu_fmul(a[i], b[i]);
        vc4_alu_kernels_host.add[VC4_QPU_A_FADD](a, b, r, NULL);
        for (int i = 0; i < VC4_QPU_SIMD; i++)
            bad += r[i] != vc4_alu_fadd(a[i], b[i]);
        vc4_alu_kernels_host.add[VC4_QPU_A_FSUB](a, b, r, NULL);
        for (int i = 0; i < VC4_QPU_SIMD; i++)
            bad += r[i] != vc4_alu_fsub(a[i], b[i]);
    }
    /* the tie: (1 - 2^-24) * 2^-126 = 2^-126 - 2^-150, halfway between the
     * largest denormal and 2^-126, which rounds to nearest (even) up to
     * 2^-126: +0 by the rule (a zero result is +0, measured) */
    uint32_t a[VC4_QPU_SIMD], b[VC4_QPU_SIMD], r[VC4_QPU_SIMD];
    for (int i = 0; i < VC4_QPU_SIMD; i++) {
        a[i] = (uint32_t)(i & 1) << 31 | 0x3F7FFFFFu; /* 1 - 2^-24 */
        b[i] = 0x00800000u + (uint32_t)i / 2;        /* 2^-126 (+ ulps) */
    }
    vc4_alu_kernels_host.mul[VC4_QPU_M_FMUL](a, b, r, NULL);
    for (int i = 0; i < VC4_QPU_SIMD; i++)
        bad += r[i] != vc4_alu_fmul(a[i], b[i]);
    vc4_alu_fp_leave(&env);
    CHECK_EQ_U64(vc4_alu_fmul(0x3F7FFFFFu, 0x00800000u), 0); /* below 2^-126: +0 */
    CHECK_EQ_U64(r[0], 0);
    CHECK_EQ_U64(r[1], 0); /* -(...): +0 as well */
    CHECK_EQ_INT(bad, 0);
    (void)host;
}

/* The same random streams on three QPUs at once, each from its own
 * registers, flags and uniforms (so their paths and ends differ), some
 * behind a mutex acquire or a TMU lookup: with
 * waiting QPUs asleep and a lone awake one on the fast path (the default)
 * and cycle by cycle (vc4_emu_options.cycle_by_cycle), every QPU's
 * registers, flags, PC and counts, the statistics and the diagnostics are
 * identical (tests/unit/test_qpu_sleep.c has the I/O-heavy programs). */
struct multi_outcome {
    enum vc4_status st;
    struct outcome q[3];
    struct vc4_emu_stats stats;
    struct harness_diags d;
};

static void run_multi(const struct prog *p, const struct vc4_qpu *init, bool cycle_by_cycle, uint64_t budget,
                      struct multi_outcome *o)
{
    memset(o, 0, sizeof *o);
    struct vc4_emu_options opt = {.mem_size = 1u << 20, .num_qpus = 3, .sink = harness_sink(&o->d),
                                  .cycle_by_cycle = cycle_by_cycle};
    struct vc4_emu *e = vc4_emu_create(&opt);
    if (!e) {
        o->st = VC4_ERR_NOMEM;
        return;
    }
    struct vc4_v3d *v = &e->v3d;
    for (unsigned k = 0; k < 3; k++) {
        struct vc4_qpu *q = &v->qpu[k];
        memcpy(q->ra, init->ra, sizeof q->ra);
        memcpy(q->rb, init->rb, sizeof q->rb);
        memcpy(q->acc, init->acc, sizeof q->acc);
        for (unsigned f = 1; f < 4; f++) /* "all" and "any" branch conditions go other ways */
            q->flag[f] = k == 0 ? init->flag[f] : k == 1 ? 0 : 0xFFFF;
        for (unsigned r = 0; r < 4 && k; r++) /* the registers the streams use most */
            for (unsigned i = 0; i < VC4_QPU_SIMD; i++) {
                q->ra[r][i] = (uint32_t)0 - q->ra[r][i] * k;
                q->acc[r][i] ^= 0x80000000u * (k & 1) + k;
            }
    }
    uint8_t unif[4 * 80];
    for (size_t i = 0; i < sizeof unif; i += 4) {
        uint32_t u = init->sfu_result[(i / 4) % VC4_QPU_SIMD] * (uint32_t)(i + 1);
        memcpy(unif + i, &u, 4);
    }
    vc4_emu_mem_write(e, UNIF, unif, sizeof unif);
    for (uint32_t i = 0; i < DATA_WORDS; i++) { /* TMU data: the word's own address, scrambled */
        uint32_t w = (DATA + 4 * i) * 0x9E3779B1u;
        vc4_emu_mem_write(e, DATA + 4 * i, &w, 4);
    }
    load(e, CODE, p);
    for (unsigned k = 0; k < 3; k++) {
        vc4_emu_reg_write(e, VC4_V3D_SRQUA, UNIF + 16 * k);
        vc4_emu_reg_write(e, VC4_V3D_SRQPC, CODE);
    }
    o->st = vc4_emu_run(e, budget);
    for (unsigned k = 0; k < 3; k++)
        record_qpu(&o->q[k], &v->qpu[k]);
    vc4_emu_stats(e, &o->stats);
    vc4_emu_destroy(e);
}

static void test_multi_qpu_sleep_matches(void)
{
    static struct vc4_qpu init;
    static struct multi_outcome sleeping, stepped;
    static struct prog p;
    unsigned differ = 0, ended_apart = 0;
    for (unsigned seed = 0; seed < 120; seed++) {
        rnd_state(&init);
        /* some start with the mutex (the others sleep until the first one's end; it runs alone)
         * or a TMU lookup (all stall at once) */
        p.n = 0;
        if (pick(2))
            emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = WNOP, .raddr_a = VC4_QPU_R_MUTEX_ACQUIRE,
                       .add_a = MUX_A, .add_b = MUX_A));
        if (pick(2)) {
            emit(&p, ldi(VC4_QPU_W_TMU0_S, UNIF));
            emit(&p, I(.sig = VC4_QPU_SIG_LOAD_TMU0));
        }
        struct prog body;
        rnd_prog(&body, 40 + pick(160));
        for (size_t i = 0; i < body.n; i++)
            emit(&p, body.w[i]);
        uint64_t budget = pick(3) ? 100000 : 1 + pick(400);
        run_multi(&p, &init, false, budget, &sleeping);
        run_multi(&p, &init, true, budget, &stepped);
        bool same = sleeping.st == stepped.st &&
                    memcmp(&sleeping.stats, &stepped.stats, sizeof sleeping.stats) == 0 &&
                    sleeping.d.len == stepped.d.len && memcmp(sleeping.d.text, stepped.d.text, sleeping.d.len) == 0;
        for (unsigned k = 0; k < 3; k++)
            same = same && same_outcome(&sleeping.q[k], &stepped.q[k], seed);
        if (!same) {
            fprintf(stderr, "stream %u on 3 QPUs: sleeping and cycle by cycle differ (status %d/%d, %llu/%llu cycles)\n",
                    seed, (int)sleeping.st, (int)stepped.st, (unsigned long long)sleeping.stats.cycles,
                    (unsigned long long)stepped.stats.cycles);
            differ++;
        }
        ended_apart += sleeping.q[0].instructions != sleeping.q[1].instructions ||
                       sleeping.q[1].instructions != sleeping.q[2].instructions;
    }
    CHECK_EQ_INT(differ, 0);
    printf("%u of 120 streams ran apart on the three QPUs\n", ended_apart);
    CHECK(ended_apart > 30); /* the QPUs did run apart (a lone one on at the end) */
}

TEST_LIST(test_fast_matches_general, test_fast_tmu_matches_general, test_jit_matches_interpreter, test_jit_load_immediates, test_jit_io_matches_interpreter, test_jit_sfu_writes, test_jit_loop_blocks, test_jit_async, test_fast_loop_values, test_fast_budget_stop, test_kernels_in_place,
          test_host_float_edges, test_multi_qpu_sleep_matches)
