/*
 * qpu.c - one QPU executing decoded instructions (see qpu.h).
 *
 * Per instruction, in the hardware's order: fetch (decoded once, cached by
 * address), read regfile A and B (with their side effects: uniforms, VPM,
 * mutex), mux the ALU operands (unpack: PM 0 regfile A, PM 1 r4), run the
 * add and mul ALUs (mul inputs rotated for small immediates 48-63), pack,
 * evaluate both write conditions on the old flags, write both results, set
 * the flags (add ALU, or mul when the add op is nop), then signals and the
 * delay-slot pipelines (branches 3, thrend 2, SFU->r4 2).
 * Rules are from ../shared/reference/qpu-isa-facts.md (numbers in brackets).
 */
#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "base/base.h"
#include "emu/jit.h"
#include "emu/par.h"
#include "emu/qpu_lanes.h"
#include "emu/sfu.h"
#include "emu/v3d.h"
#include "spec/qpu_spec.h"
#include "spec/rules.h"

#define N VC4_QPU_SIMD
#define ALL_ELEMS VC4_LANES_ALL

/* (VC4_NOINLINE below: kept out of the run loop, whose registers it would
 * otherwise crowd; VC4_ALWAYS_INLINE: kept in it.) */

/* ---- rules the hardware enforces by misbehaving --------------------------- */

/* The rules the QPU checks as it runs (id, source: src/spec/rules.c), warned
 * once per instruction address (icache entry's warned bits). */
enum qpu_rule {
    RULE_REGFILE_RAW,
    RULE_R4_EARLY,
    RULE_R4_OVERLAP,
    RULE_UNIF_EARLY,
    RULE_ROTATE_R5,
    RULE_ROTATE_ACC,
    RULE_THREND_REGFILE,
    RULE_THREND_SLOT_IO,
    RULE_BRANCH_SPACING,
    RULE_NO_TLB,
    RULE_BRANCH_FLAGS,
    RULE_COUNT
};

struct rule_desc {
    enum vc4_rule_id id;
    const char *what;
};

static const struct rule_desc rules[RULE_COUNT] = {
    [RULE_REGFILE_RAW] = {VC4_RULE_REGFILE_READ_AFTER_WRITE,
                          "regfile location read in the instruction after it was written"},
    [RULE_R4_EARLY] = {VC4_RULE_SFU_R4_EARLY, "r4 read within 2 instructions of an SFU write"},
    [RULE_R4_OVERLAP] = {VC4_RULE_SFU_R4_CONFLICT,
                         "r4 written (SFU/ldtmu) while an SFU result is still pending"},
    [RULE_UNIF_EARLY] = {VC4_RULE_UNIF_AFTER_UNIF_ADDR,
                         "uniform read within 2 instructions of a uniforms-address write"},
    [RULE_ROTATE_R5] = {VC4_RULE_ROT_R5_AFTER_WRITE,
                        "vector rotate by r5 right after r5 was written"},
    [RULE_ROTATE_ACC] = {VC4_RULE_ROT_ACC_AFTER_WRITE,
                         "vector rotate of an accumulator written by the previous instruction"},
    [RULE_THREND_REGFILE] = {VC4_RULE_THREND_REGFILE_WRITE, "thread-end instruction writes register file A or B"},
    [RULE_THREND_SLOT_IO] = {VC4_RULE_THREND_DELAY_IO, "uniform/VPM access in the thread end or its delay slots"},
    [RULE_BRANCH_SPACING] = {VC4_RULE_BRANCH_SPACING, "fewer than 2 non-branch instructions between branches"},
    [RULE_NO_TLB] = {VC4_RULE_USER_PROGRAM_NO_TLB,
                     "fragment-shader register or signal (TLB, varyings) in a user program"},
    [RULE_BRANCH_FLAGS] = {VC4_RULE_BRANCH_ODD_RADDR_SF,
                           "branch through an odd register sets flags (sf shares bit 45)"},
};
static_assert(RULE_COUNT <= 16, "rules fit the icache entry's warned bits");

struct exec {
    struct vc4_v3d *v;
    struct vc4_qpu *q;
    struct vc4_icache_entry *e;
    const struct vc4_qpu_instr *in;
    uint64_t cur_w; /* physical regs written by this instruction: A bits 0-31, B 32-63 */
    uint8_t cur_acc;
    bool failed;             /* fault: stop */
    bool stop;               /* a strict-mode rule error (v->fault set): stop after this instruction */
    bool unif_read;          /* a uniform was already read (shared by A and B) */
    uint32_t unif_val;
};

static void rule(struct exec *x, enum qpu_rule r)
{
    struct vc4_v3d *v = x->v;
    if (!v->strict && (x->e->warned & (1u << r)))
        return; /* once per instruction address */
    x->e->warned |= (uint16_t)(1u << r);
    vc4_v3d_qpu_diag(v, x->q, v->strict ? VC4_ERROR : VC4_WARNING, VC4_DIAG_RULE, vc4_rule_table[rules[r].id].id,
                     vc4_rule_table[rules[r].id].source, "%s", rules[r].what);
    if (v->strict) {
        x->stop = true;
        if (v->fault == VC4_OK)
            v->fault = VC4_ERR_RULE;
    }
}

/* (built in place, not from vc4_location_none(): an out-of-line call per
 * TMU or VPM access showed in profiles) */
static inline struct vc4_location loc_of(const struct vc4_qpu *q)
{
    return (struct vc4_location){.file = NULL, .line = 0, .col = 0, .addr = q->pc, .qpu = (int)q->num,
                                 .thread = 0};
}

/* Events reported by the VPM/TMU units: errors stop the run; warnings are
 * rule violations (errors in strict mode). */
static void unit_events(struct exec *x, unsigned ev, unsigned error_mask, unsigned note_mask)
{
    if (ev & error_mask) {
        x->failed = true;
        if (x->v->fault == VC4_OK)
            x->v->fault = VC4_ERR_FAULT;
    } else if ((ev & ~note_mask) && x->v->strict) {
        x->stop = true;
        if (x->v->fault == VC4_OK)
            x->v->fault = VC4_ERR_RULE;
    }
}
#define VPM_ERRORS (VC4_VPM_EV_DMA_FAULT | VC4_VPM_EV_BAD_QPU)
#define VPM_NOTES VC4_VPM_EV_NOTES
#define TMU_ERRORS (VC4_TMU_EV_OVERFLOW | VC4_TMU_EV_UNDERFLOW | VC4_TMU_EV_FAULT | VC4_TMU_EV_BAD_QPU)

/* ---- the decoded-instruction cache ------------------------------------------ */

enum vc4_status vc4_icache_init(struct vc4_icache *c, const struct vc4_allocator *alloc)
{
    /* (each slot on cache lines of its own: its first line holds what the
     * fast path reads, qpu.h) */
    c->s = vc4_calloc_aligned(alloc, VC4_ICACHE_ENTRIES * sizeof *c->s, VC4_HOST_CACHE_LINE, &c->block);
    return c->s ? VC4_OK : VC4_ERR_NOMEM;
}

void vc4_icache_fini(struct vc4_icache *c, const struct vc4_allocator *alloc)
{
    vc4_free(alloc, c->block);
    c->s = NULL;
    c->block = NULL;
}

void vc4_icache_clear(struct vc4_icache *c, uint64_t *code_gen)
{
    c->valid_from = ++*code_gen;
    c->lo = UINT32_MAX;
    c->hi = 0;
}

void vc4_icache_written(const struct vc4_icache *c, uint64_t *code_gen, uint32_t bus, uint64_t span)
{
    uint64_t off = bus & VC4_BUS_OFFSET_MASK;
    if (span == 0)
        return;
    /* (a range that runs past the offsets' end wraps to other aliases:
     * taken as everything) */
    if (off + span > (uint64_t)VC4_BUS_OFFSET_MASK + 1 || (off < c->hi && off + span > c->lo))
        ++*code_gen;
}

bool vc4_icache_live(const struct vc4_icache *c, const struct vc4_icache_entry *e)
{
    return e->gen != 0 && e->gen >= c->valid_from;
}

/* Encodings with no meaning: reserved add ops, reserved mul packs, branch
 * conditions 12-14, load-immediate mode 2. */
static bool is_reserved(const struct vc4_qpu_instr *in)
{
    switch (in->kind) {
    case VC4_QPU_KIND_ALU:
    case VC4_QPU_KIND_ALU_SMALL_IMM:
        return !vc4_qpu_op_add_valid(in->op_add) ||
               (in->pm && vc4_qpu_pack_suffix(1, in->pack) == NULL);
    case VC4_QPU_KIND_LOAD_IMM:
        return in->unpack == 2 || (in->pm && vc4_qpu_pack_suffix(1, in->pack) == NULL);
    case VC4_QPU_KIND_BRANCH:
        return vc4_qpu_branch_cond_suffix(in->cond_br) == NULL;
    default:
        return false;
    }
}

/* How a read address is served (see read_io for the IO ones). */
static uint8_t read_kind(unsigned file, unsigned raddr)
{
    if (raddr < VC4_QPU_REGS)
        return VC4_XI_RD_REG;
    switch (raddr) {
    case VC4_QPU_R_ELEM_QPU:
        return file ? VC4_XI_RD_IO : VC4_XI_RD_ELEM; /* B: QPU_NUMBER */
    case VC4_QPU_R_UNIF: case VC4_QPU_R_VARY: case VC4_QPU_R_XY_COORD: case VC4_QPU_R_MS_REV:
    case VC4_QPU_R_VPM: case VC4_QPU_R_VPM_BUSY: case VC4_QPU_R_VPM_WAIT:
        return VC4_XI_RD_IO;
    default:
        return VC4_XI_RD_ZERO; /* NOP, MUTEX_ACQUIRE (acquired before), undefined ones */
    }
}

static uint8_t write_kind(unsigned file, unsigned waddr, uint8_t *idx)
{
    *idx = 0;
    if (waddr < VC4_QPU_REGS) {
        *idx = (uint8_t)waddr;
        return file ? VC4_XI_W_B : VC4_XI_W_A;
    }
    if (waddr >= VC4_QPU_W_ACC0 && waddr <= VC4_QPU_W_ACC3) {
        *idx = (uint8_t)(waddr - VC4_QPU_W_ACC0);
        return VC4_XI_W_ACC;
    }
    return waddr == VC4_QPU_W_NOP ? VC4_XI_W_NONE : VC4_XI_W_IO;
}

#define VEC_BYTES (VC4_QPU_SIMD * sizeof(uint32_t))
#define QOFF(member) ((uint16_t)offsetof(struct vc4_qpu, member))

/* Offset of a mux's vector in struct vc4_qpu: r0-r5, or the regfile A / B
 * source already chosen in off[4] / off[5]. */
static uint16_t mux_off(unsigned mux, const uint16_t *off)
{
    if (mux < VC4_QPU_MUX_A)
        return (uint16_t)(QOFF(acc) + mux * VEC_BYTES);
    return mux == VC4_QPU_MUX_A ? off[4] : off[5];
}

static uint16_t write_off(uint8_t kind, uint8_t idx)
{
    switch (kind) {
    case VC4_XI_W_A: return (uint16_t)(QOFF(ra) + idx * VEC_BYTES);
    case VC4_XI_W_B: return (uint16_t)(QOFF(rb) + idx * VEC_BYTES);
    case VC4_XI_W_ACC: return (uint16_t)(QOFF(acc) + idx * VEC_BYTES);
    default: return 0;
    }
}

/* Destination offsets and the bits a write sets in prev_w / prev_acc. */
static void write_bits(struct vc4_qpu_xi *xi)
{
    xi->w_off_add = write_off(xi->w_add, xi->wi_add);
    xi->w_off_mul = write_off(xi->w_mul, xi->wi_mul);
    xi->wacc_add = xi->w_add == VC4_XI_W_ACC ? (uint8_t)(1u << xi->wi_add) : 0;
    xi->wacc_mul = xi->w_mul == VC4_XI_W_ACC ? (uint8_t)(1u << xi->wi_mul) : 0;
    xi->wreg_add = xi->w_add == VC4_XI_W_A ? UINT64_C(1) << xi->wi_add
                 : xi->w_add == VC4_XI_W_B ? UINT64_C(1) << (32 + xi->wi_add) : 0;
    xi->wreg_mul = xi->w_mul == VC4_XI_W_A ? UINT64_C(1) << xi->wi_mul
                 : xi->w_mul == VC4_XI_W_B ? UINT64_C(1) << (32 + xi->wi_mul) : 0;
}

static inline const uint32_t *qvec(const struct vc4_qpu *q, uint16_t off)
{
    return (const uint32_t *)((const char *)q + off);
}

static bool sig_has_effect(unsigned sig)
{
    switch (sig) {
    case VC4_QPU_SIG_PROG_END: case VC4_QPU_SIG_COLOR_LOAD_END:
    case VC4_QPU_SIG_LOAD_TMU0: case VC4_QPU_SIG_LOAD_TMU1:
    case VC4_QPU_SIG_COVERAGE_LOAD: case VC4_QPU_SIG_COLOR_LOAD: case VC4_QPU_SIG_ALPHA_MASK_LOAD:
    case VC4_QPU_SIG_THREAD_SWITCH: case VC4_QPU_SIG_LAST_THREAD_SWITCH:
    case VC4_QPU_SIG_SCOREBOARD_UNLOCK:
        return true; /* (the fragment-shader ones act through the port) */
    default:
        return false; /* breakpoint; sbwait blocks before the instruction (the port) */
    }
}

/* The I/O writes with a fast kind (VC4_XI_FAST_TMU_S, _VPM_W, _VPM_SETUP,
 * _SFU, _VPM_RD_SETUP), by register file (waddr 49 is VPMVCD_RD_SETUP in
 * A, _WR_SETUP in B), else NONE. */
static uint8_t fast_io_write(unsigned waddr, unsigned file)
{
    switch (waddr) {
    case VC4_QPU_W_TMU0_S: case VC4_QPU_W_TMU1_S: return VC4_XI_FAST_TMU_S;
    case VC4_QPU_W_SFU_RECIP: case VC4_QPU_W_SFU_RECIPSQRT:
    case VC4_QPU_W_SFU_EXP: case VC4_QPU_W_SFU_LOG: return VC4_XI_FAST_SFU;
    case VC4_QPU_W_VPM: return VC4_XI_FAST_VPM_W;
    case VC4_QPU_W_VPMVCD_SETUP: return file ? VC4_XI_FAST_VPM_SETUP : VC4_XI_FAST_VPM_RD_SETUP;
    default: return VC4_XI_FAST_NONE;
    }
}

/* The function an SFU register (waddr 52-55) starts: they are in the
 * order of enum vc4_sfu_fn. */
static_assert(VC4_QPU_W_SFU_RECIPSQRT == VC4_QPU_W_SFU_RECIP + VC4_SFU_RECIPSQRT &&
                  VC4_QPU_W_SFU_EXP == VC4_QPU_W_SFU_RECIP + VC4_SFU_EXP2 &&
                  VC4_QPU_W_SFU_LOG == VC4_QPU_W_SFU_RECIP + VC4_SFU_LOG2,
              "SFU registers in the order of enum vc4_sfu_fn");
static inline enum vc4_sfu_fn sfu_fn(unsigned waddr)
{
    return (enum vc4_sfu_fn)(waddr - VC4_QPU_W_SFU_RECIP);
}

/* The record's fast kind for a write of waddr (fast_io_write) and the
 * unit or function that kind names (io_unit). */
static void set_fast_io_write(struct vc4_qpu_xi *xi, unsigned waddr, unsigned file)
{
    xi->fast = fast_io_write(waddr, file);
    if (xi->fast == VC4_XI_FAST_TMU_S)
        xi->io_unit = (uint8_t)((waddr - VC4_QPU_W_TMU0_S) / 4u);
    if (xi->fast == VC4_XI_FAST_SFU)
        xi->io_unit = (uint8_t)sfu_fn(waddr);
}

/* The fast I/O kinds (qpu.h), decided after the rest of the record. */
static void fast_io(const struct vc4_qpu_instr *in, struct vc4_qpu_xi *xi, bool add_used, bool mul_used)
{
    /* (an ldtmu's record has xi->sig for the signal alone: a varying read
     * is an I/O read) */
    bool ldtmu = in->sig == VC4_QPU_SIG_LOAD_TMU0 || in->sig == VC4_QPU_SIG_LOAD_TMU1;
    if (ldtmu && xi->fast == VC4_XI_FAST_NONE && xi->block == VC4_XI_BLOCK_NONE &&
        !xi->features && !xi->mul_quirk && xi->rd_a != VC4_XI_RD_IO && xi->rd_b != VC4_XI_RD_IO &&
        xi->w_add != VC4_XI_W_IO && xi->w_mul != VC4_XI_W_IO) {
        xi->io_alu = xi->form == VC4_XI_NOP ? VC4_XI_FAST_NOP
                     : xi->sf == VC4_XI_SF_NONE &&
                             (xi->w_add == VC4_XI_W_NONE || in->cond_add == VC4_QPU_COND_ALWAYS) &&
                             (xi->w_mul == VC4_XI_W_NONE || in->cond_mul == VC4_QPU_COND_ALWAYS)
                         ? VC4_XI_FAST_ALU_PLAIN
                         : VC4_XI_FAST_ALU;
        xi->io_unit = (uint8_t)(in->sig - VC4_QPU_SIG_LOAD_TMU0);
        xi->fast = VC4_XI_FAST_LDTMU;
        return;
    }
    /* the one write is the unit's (W_IO on one side, nothing on the other) */
    unsigned file_add = vc4_qpu_add_wfile(in), file_mul = vc4_qpu_mul_wfile(in);
    bool on_add = add_used && xi->w_add == VC4_XI_W_IO && fast_io_write(in->waddr_add, file_add) &&
                  in->cond_add == VC4_QPU_COND_ALWAYS && !mul_used && xi->w_mul == VC4_XI_W_NONE;
    bool on_mul = mul_used && xi->w_mul == VC4_XI_W_IO && fast_io_write(in->waddr_mul, file_mul) &&
                  in->cond_mul == VC4_QPU_COND_ALWAYS && !add_used && xi->w_add == VC4_XI_W_NONE;
    if ((on_add || on_mul) && !xi->sig && xi->block == VC4_XI_BLOCK_NONE && !xi->features && !xi->mul_quirk &&
        xi->sf == VC4_XI_SF_NONE && xi->rd_a != VC4_XI_RD_IO && xi->rd_b != VC4_XI_RD_IO) {
        unsigned waddr = on_mul ? in->waddr_mul : in->waddr_add;
        xi->io_on_mul = on_mul;
        set_fast_io_write(xi, waddr, on_mul ? file_mul : file_add);
    }
}

static void build_xi_forms(const struct vc4_qpu_instr *in, struct vc4_qpu_xi *xi);

/* Build the execution record of a decoded instruction (qpu.h): its fields
 * form by form, then what the fast path reads summarised in its first
 * bytes (struct vc4_qpu_xi wreg, wacc, plain). */
static void build_xi(const struct vc4_qpu_instr *in, struct vc4_qpu_xi *xi)
{
    build_xi_forms(in, xi);
    xi->wreg = xi->wreg_add | xi->wreg_mul;
    xi->wacc = (uint8_t)(xi->wacc_add | xi->wacc_mul);
    xi->plain = (uint8_t)((xi->w_add != VC4_XI_W_NONE ? VC4_XI_PLAIN_ADD_W : 0) |
                          (xi->add_direct ? VC4_XI_PLAIN_ADD_DIRECT : 0) |
                          (xi->w_mul != VC4_XI_W_NONE ? VC4_XI_PLAIN_MUL_W : 0) |
                          (xi->mul_direct ? VC4_XI_PLAIN_MUL_DIRECT : 0));
}

static void build_xi_forms(const struct vc4_qpu_instr *in, struct vc4_qpu_xi *xi)
{
    memset(xi, 0, sizeof *xi);
    if (is_reserved(in)) {
        xi->form = VC4_XI_RESERVED;
        return;
    }
    unsigned file_add = vc4_qpu_add_wfile(in), file_mul = vc4_qpu_mul_wfile(in);
    if (in->kind == VC4_QPU_KIND_BRANCH) {
        xi->form = VC4_XI_BRANCH;
        /* the fast path: no register target, links or flags */
        if (!in->reg && in->waddr_add == VC4_QPU_W_NOP && in->waddr_mul == VC4_QPU_W_NOP && !in->sf)
            xi->fast = VC4_XI_FAST_BRANCH;
        return;
    }
    xi->cond_add = in->cond_add;
    xi->cond_mul = in->cond_mul;
    /* condition c: flag[c >> 1], inverted when c is odd (struct vc4_qpu) */
    xi->cidx_add = (uint8_t)((in->cond_add >> 1) & 3);
    xi->cidx_mul = (uint8_t)((in->cond_mul >> 1) & 3);
    xi->cinv_add = (in->cond_add & 1) ? 0xFFFFu : 0;
    xi->cinv_mul = (in->cond_mul & 1) ? 0xFFFFu : 0;
    xi->off[4] = xi->off[5] = QOFF(zero);
    if (in->pack)
        xi->features |= in->pm ? VC4_XI_PACK_MUL : VC4_XI_PACK_A;
    if (in->kind == VC4_QPU_KIND_LOAD_IMM || in->kind == VC4_QPU_KIND_SEMAPHORE) {
        xi->form = VC4_XI_LDI;
        xi->block = in->kind == VC4_QPU_KIND_SEMAPHORE ? VC4_XI_BLOCK_SEMA
                  : (in->cond_add && vc4_qpu_waddr_waits_sb(in->waddr_add)) ||
                            (in->cond_mul && vc4_qpu_waddr_waits_sb(in->waddr_mul))
                      ? VC4_XI_BLOCK_SB
                      : VC4_XI_BLOCK_NONE;
        unsigned mode = in->kind == VC4_QPU_KIND_SEMAPHORE ? VC4_QPU_LDI_32 : in->unpack;
        for (unsigned i = 0; i < VC4_QPU_SIMD; i++) {
            uint32_t ms = (in->imm >> (16 + i)) & 1, ls = (in->imm >> i) & 1;
            /* per-element modes (facts 3, VC4C LoadImmediate) */
            xi->vec[i] = mode == VC4_QPU_LDI_PER_ELEMENT_SIGNED ? ls - 2u * ms
                       : mode == VC4_QPU_LDI_PER_ELEMENT_UNSIGNED ? 2 * ms + ls
                       : in->imm;
        }
        /* the value goes to both waddrs under their own conditions (facts 3) */
        if (in->cond_add && in->waddr_add != VC4_QPU_W_NOP)
            xi->w_add = write_kind(file_add, in->waddr_add, &xi->wi_add);
        if (in->cond_mul && in->waddr_mul != VC4_QPU_W_NOP)
            xi->w_mul = write_kind(file_mul, in->waddr_mul, &xi->wi_mul);
        write_bits(xi);
        /* Z, N from the value, C clear (VC4C generateImmediateFlags), where
         * the add's condition passes, or the mul's when the add's is never */
        xi->sf = !in->sf ? VC4_XI_SF_NONE : in->cond_add ? VC4_XI_SF_ADD : VC4_XI_SF_MUL;
        xi->n_flag = true;
        /* the fast path: register writes only (an I/O write, a pack or a
         * scoreboard wait is the general path's) */
        if (in->kind == VC4_QPU_KIND_LOAD_IMM && xi->block == VC4_XI_BLOCK_NONE && xi->w_add != VC4_XI_W_IO &&
            xi->w_mul != VC4_XI_W_IO)
            xi->fast = xi->features ? VC4_XI_FAST_EXEC : VC4_XI_FAST_LDI;
        /* ... and the I/O writes with fast kinds (vc4asm's `mov vw_setup,
         * vpm_setup(...)`, `vdw_setup_0(...)`, `mov tmu0_s, address`): an
         * unconditional write by the add side alone, without flags or pack
         * (io_write_fast) */
        if (in->kind == VC4_QPU_KIND_LOAD_IMM && xi->block == VC4_XI_BLOCK_NONE && !xi->features &&
            xi->sf == VC4_XI_SF_NONE && xi->w_add == VC4_XI_W_IO && in->cond_add == VC4_QPU_COND_ALWAYS &&
            xi->w_mul == VC4_XI_W_NONE)
            set_fast_io_write(xi, in->waddr_add, file_add);
        return;
    }

    bool small_imm = in->kind == VC4_QPU_KIND_ALU_SMALL_IMM;
    bool add_used = in->op_add != VC4_QPU_A_NOP, mul_used = in->op_mul != VC4_QPU_M_NOP;
    bool unary = vc4_qpu_op_add_is_unary(in->op_add);
    xi->form = VC4_XI_ALU;
    xi->rd_a = read_kind(0, in->raddr_a);
    xi->rmask = in->raddr_a < VC4_QPU_REGS ? UINT64_C(1) << in->raddr_a : 0;
    if (small_imm) {
        xi->rd_b = VC4_XI_RD_IMM;
        for (unsigned i = 0; i < VC4_QPU_SIMD; i++)
            xi->vec[i] = vc4_qpu_small_imm_value(in->raddr_b);
    } else {
        xi->rd_b = read_kind(1, in->raddr_b);
        xi->rmask |= in->raddr_b < VC4_QPU_REGS ? UINT64_C(1) << (32 + in->raddr_b) : 0;
    }
    /* raddr 39 muxed into an ALU: the NOP register's last values (read_file) */
    bool mux_a = in->add_a == VC4_QPU_MUX_A || in->add_b == VC4_QPU_MUX_A || in->mul_a == VC4_QPU_MUX_A ||
                 in->mul_b == VC4_QPU_MUX_A;
    bool mux_b = in->add_a == VC4_QPU_MUX_B || in->add_b == VC4_QPU_MUX_B || in->mul_a == VC4_QPU_MUX_B ||
                 in->mul_b == VC4_QPU_MUX_B;
    if (in->raddr_a == VC4_QPU_R_NOP && mux_a)
        xi->rd_a = VC4_XI_RD_IO;
    if (!small_imm && in->raddr_b == VC4_QPU_R_NOP && mux_b)
        xi->rd_b = VC4_XI_RD_IO;
    if (in->raddr_a == VC4_QPU_R_MUTEX_ACQUIRE || (!small_imm && in->raddr_b == VC4_QPU_R_MUTEX_ACQUIRE))
        xi->block = VC4_XI_BLOCK_MUTEX;
    else if (in->sig == VC4_QPU_SIG_WAIT_FOR_SCOREBOARD || in->sig == VC4_QPU_SIG_COLOR_LOAD ||
             in->sig == VC4_QPU_SIG_COLOR_LOAD_END || in->sig == VC4_QPU_SIG_COVERAGE_LOAD ||
             in->sig == VC4_QPU_SIG_ALPHA_MASK_LOAD ||
             (add_used && in->cond_add && vc4_qpu_waddr_waits_sb(in->waddr_add)) ||
             (in->cond_mul && vc4_qpu_waddr_waits_sb(in->waddr_mul)))
        /* (fragment shaders: the tile-buffer registers wait on the
         * scoreboard at their first access, like the sbwait signal and the
         * TLB loads; not the stencil setup: spec/qpu_spec.h) */
        xi->block = VC4_XI_BLOCK_SB;
    xi->op_add = in->op_add;
    xi->op_mul = in->op_mul;
    xi->add_a = in->add_a;
    xi->add_b = unary ? in->add_a : in->add_b; /* unary ops read only a */
    xi->mul_a = in->mul_a;
    xi->mul_b = in->mul_b;
    /* operand sources: regfile A / B (or what was read from an I/O address
     * or the small immediate, copied into the QPU first) */
    xi->off[4] = xi->rd_a == VC4_XI_RD_REG ? (uint16_t)(QOFF(ra) + in->raddr_a * VEC_BYTES)
               : xi->rd_a == VC4_XI_RD_ZERO ? (in->raddr_a == VC4_QPU_R_NOP ? QOFF(rf_nop[0]) : QOFF(zero))
               : xi->rd_a == VC4_XI_RD_ELEM ? QOFF(elem) : QOFF(in_a);
    xi->off[5] = xi->rd_b == VC4_XI_RD_REG ? (uint16_t)(QOFF(rb) + in->raddr_b * VEC_BYTES)
               : xi->rd_b == VC4_XI_RD_ZERO ? (in->raddr_b == VC4_QPU_R_NOP ? QOFF(rf_nop[1]) : QOFF(zero))
               : QOFF(in_b);
    xi->off[0] = mux_off(xi->add_a, xi->off);
    xi->off[1] = mux_off(xi->add_b, xi->off);
    xi->off[2] = mux_off(xi->mul_a, xi->off);
    xi->off[3] = mux_off(xi->mul_b, xi->off);
    if (in->unpack) {
        /* PM 0 unpacks regfile A, PM 1 unpacks r4 (facts 11) */
        unsigned upk = in->pm ? VC4_QPU_MUX_R4 : VC4_QPU_MUX_A;
        if (add_used && (xi->add_a == upk || xi->add_b == upk))
            xi->features |= VC4_XI_UNPACK_ADD;
        if (mul_used && (in->mul_a == upk || in->mul_b == upk))
            xi->features |= VC4_XI_UNPACK_MUL;
    }
    xi->reads_r4 = (add_used && (in->add_a == VC4_QPU_MUX_R4 || (!unary && in->add_b == VC4_QPU_MUX_R4))) ||
                   (mul_used && (in->mul_a == VC4_QPU_MUX_R4 || in->mul_b == VC4_QPU_MUX_R4));
    if (small_imm && in->raddr_b >= VC4_QPU_SMALL_IMM_ROT_R5 && mul_used)
        xi->features |= VC4_XI_ROTATE;
    if ((in->sig == VC4_QPU_SIG_PROG_END || in->sig == VC4_QPU_SIG_COLOR_LOAD_END) &&
        ((in->waddr_add < VC4_QPU_REGS && in->cond_add) || (in->waddr_mul < VC4_QPU_REGS && in->cond_mul)))
        xi->features |= VC4_XI_THREND;
    /* writes: add only when its op runs; mul also when nop (facts 20) */
    if (add_used && in->cond_add)
        xi->w_add = write_kind(file_add, in->waddr_add, &xi->wi_add);
    if (in->cond_mul && in->waddr_mul != VC4_QPU_W_NOP)
        xi->w_mul = write_kind(file_mul, in->waddr_mul, &xi->wi_mul);
    write_bits(xi);
    /* flags: add ALU, or mul when the add op is nop (.never does not count;
     * facts 14) */
    if (in->sf)
        xi->sf = add_used ? VC4_XI_SF_ADD : VC4_XI_SF_MUL;
    xi->n_flag = !(xi->sf == VC4_XI_SF_ADD && in->op_add == VC4_QPU_A_CLZ); /* clz: N = 0 (facts 16) */
    xi->mul_quirk = !mul_used && (xi->w_mul != VC4_XI_W_NONE || xi->sf == VC4_XI_SF_MUL);
    /* (a varying read gives r5 its C after the instruction: the port's post) */
    xi->sig = sig_has_effect(in->sig) || in->raddr_a == VC4_QPU_R_VARY ||
              (!small_imm && in->raddr_b == VC4_QPU_R_VARY);
    if (!add_used && !mul_used && xi->w_add == VC4_XI_W_NONE && xi->w_mul == VC4_XI_W_NONE &&
        xi->sf == VC4_XI_SF_NONE && xi->rd_a == VC4_XI_RD_ZERO && xi->rd_b == VC4_XI_RD_ZERO &&
        xi->block == VC4_XI_BLOCK_NONE &&
        !(xi->features & VC4_XI_THREND))
        xi->form = VC4_XI_NOP;
    /* the fast path (qpu.h): nothing but operands (uniforms included),
     * ALUs, plain writes, flags */
    bool unif_a = in->raddr_a == VC4_QPU_R_UNIF, unif_b = !small_imm && in->raddr_b == VC4_QPU_R_UNIF;
    bool vpm_a = in->raddr_a == VC4_QPU_R_VPM, vpm_b = !small_imm && in->raddr_b == VC4_QPU_R_VPM;
    bool vary_a = in->raddr_a == VC4_QPU_R_VARY, vary_b = !small_imm && in->raddr_b == VC4_QPU_R_VARY;
    /* (a varying read alone sets xi->sig, for the port's post; the fast
     * path calls that itself) */
    bool real_sig = sig_has_effect(in->sig);
    unsigned io_kinds = (unif_a || unif_b) + (vpm_a || vpm_b) + (vary_a || vary_b);
    if (xi->block == VC4_XI_BLOCK_NONE && !real_sig && !xi->features && !xi->mul_quirk &&
        (xi->rd_a != VC4_XI_RD_IO || unif_a || vpm_a || vary_a) &&
        (xi->rd_b != VC4_XI_RD_IO || unif_b || vpm_b || vary_b) && io_kinds <= 1 && !(vpm_a && vpm_b) &&
        !(vary_a && vary_b) && xi->w_add != VC4_XI_W_IO && xi->w_mul != VC4_XI_W_IO) {
        xi->fast = xi->form == VC4_XI_NOP ? VC4_XI_FAST_NOP : VC4_XI_FAST_ALU;
        xi->unif = (uint8_t)((unif_a ? VC4_XI_IO_UNIF_A : 0) | (unif_b ? VC4_XI_IO_UNIF_B : 0) |
                             (vpm_a ? VC4_XI_IO_VPM_A : 0) | (vpm_b ? VC4_XI_IO_VPM_B : 0) |
                             (vary_a ? VC4_XI_IO_VARY_A : 0) | (vary_b ? VC4_XI_IO_VARY_B : 0));
        if (xi->fast == VC4_XI_FAST_ALU && xi->sf == VC4_XI_SF_NONE &&
            (xi->w_add == VC4_XI_W_NONE || in->cond_add == VC4_QPU_COND_ALWAYS) &&
            (xi->w_mul == VC4_XI_W_NONE || in->cond_mul == VC4_QPU_COND_ALWAYS))
            xi->fast = VC4_XI_FAST_ALU_PLAIN;
        if (vary_a || vary_b) /* (its own kind: the port's post after it) */
            xi->fast = VC4_XI_FAST_ALU_VARY;
        /* results computed straight into their register: written to every
         * element, no flags from it, and not an operand of a kernel that
         * runs after it (the add runs first; its copy, if any, is made
         * after the mul ran, so the mul writes directly only if the add
         * does not write the same register later); it may be one of the
         * kernel's own operands (qpu_alu.h) */
        bool add_w = xi->w_add != VC4_XI_W_NONE;
        xi->add_direct = add_w && in->cond_add == VC4_QPU_COND_ALWAYS && xi->sf != VC4_XI_SF_ADD &&
                         (!mul_used || (xi->w_off_add != xi->off[2] && xi->w_off_add != xi->off[3]));
        xi->mul_direct = mul_used && xi->w_mul != VC4_XI_W_NONE && in->cond_mul == VC4_QPU_COND_ALWAYS &&
                         xi->sf != VC4_XI_SF_MUL &&
                         !(add_w && !xi->add_direct && xi->w_off_add == xi->w_off_mul);
    } else if (xi->block == VC4_XI_BLOCK_NONE && !xi->sig && (xi->features || xi->mul_quirk) &&
               !(xi->features & (VC4_XI_ROTATE | VC4_XI_THREND)) && xi->rd_a != VC4_XI_RD_IO &&
               xi->rd_b != VC4_XI_RD_IO && xi->w_add != VC4_XI_W_IO && xi->w_mul != VC4_XI_W_IO) {
        /* pack, unpack, the mnop quirk: no rule of their own (rotation has
         * two, on the accumulators written before) */
        xi->fast = VC4_XI_FAST_EXEC;
    }
    fast_io(in, xi, add_used, mul_used);
}

static inline uint64_t load_le64(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w;
    memcpy(&w, p, 8);
    return w;
#else
    return vc4_qpu_load_le(p);
#endif
}

static void icache_fill(struct vc4_v3d *v, struct vc4_icache_entry *e, uint32_t off,
                        uint64_t word)
{
    e->addr = off;
    e->word = word;
    e->warned = 0;
    if (off < v->icache.lo)
        v->icache.lo = off;
    if (off + VC4_QPU_INSTR_BYTES > v->icache.hi)
        v->icache.hi = off + VC4_QPU_INSTR_BYTES;
    e->jit_heat = 0;
    e->jit_none = false;
    e->jit_off = 0;
    e->jit = NULL;
    vc4_qpu_decode(word, &e->in);
    build_xi(&e->in, &e->xi);
    v->stats.decodes++;
    v->slow_steps++;
}

/* Memory may have changed since the entry was checked: compare the word. */
static bool fetch_check(struct vc4_v3d *v, uint32_t pc, struct vc4_icache_entry *e,
                        struct vc4_icache_entry **out)
{
    uint32_t off;
    if (!vc4_mem_span(&v->mem, pc, VC4_QPU_INSTR_BYTES, &off))
        return false;
    uint64_t word = load_le64(v->mem.ram + off);
    if (e->addr != off || e->word != word || e->gen < v->icache.valid_from)
        icache_fill(v, e, off, word);
    e->gen = v->code_gen;
    *out = e;
    return true;
}

/* The entry for the word at pc.  Decoded once; checked against memory
 * again only after memory was written (host writes, host pointers handed
 * out, VDW DMA: v3d.h code_gen), as DESIGN.md asks: "invalidate when the
 * caches would be flushed or memory is written".  An entry whose addr
 * matches was in range when it was filled (RAM does not shrink). */
static inline bool fetch(struct vc4_v3d *v, uint32_t pc, struct vc4_icache_entry **out)
{
    uint32_t off = pc & VC4_BUS_OFFSET_MASK;
    struct vc4_icache_entry *e = &v->icache.s[(off >> 3) & (VC4_ICACHE_ENTRIES - 1)].e;
    if (VC4_LIKELY(e->addr == off && e->gen == v->code_gen)) {
        *out = e;
        return true;
    }
    return fetch_check(v, pc, e, out);
}

bool vc4_qpu_fetch(struct vc4_v3d *v, uint32_t pc, struct vc4_icache_entry **out)
{
    return fetch(v, pc, out);
}

/* ---- state ------------------------------------------------------------------ */

void vc4_qpu_reset(struct vc4_qpu *q, unsigned num)
{
    memset(q, 0, sizeof *q);
    q->num = num;
    q->state = VC4_EMU_QPU_IDLE;
    for (unsigned i = 0; i < VC4_QPU_SIMD; i++)
        q->elem[i] = i;
}

void vc4_qpu_start(struct vc4_qpu *q, const struct vc4_qpu_port *port, uint32_t pc, uint32_t unif,
                   uint32_t unif_len)
{
    q->port = port;
    q->state = VC4_EMU_QPU_RUNNING;
    q->blocked_on = NULL;
    q->pc = pc & ~(VC4_QPU_INSTR_BYTES - 1);
    q->unif = unif;
    q->unif_len = unif_len;
    q->pending = 0; /* SFU, uniforms hazard, thread end, branch */
    q->br1_left = 0;
    q->prev_w = 0;
    q->prev_acc = 0;
    q->user = port->user;
    q->stall_until = 0;
    q->jit_head = true;
    /* A program starts with zero NOP registers (UNVERIFIED: the addendum
     * does not say; seed 000's pass-through vertex shader, run on hardware,
     * reads rb39 as an operand of its movs with no file-B read before, and
     * its output is right only if that reads 0). */
    memset(q->rf_nop, 0, sizeof q->rf_nop);
}

/* ---- the port's "nothing here" entries ------------------------------------------------ */

bool vc4_qpu_port_no_read(struct vc4_v3d *v, struct vc4_qpu *q, unsigned file, unsigned raddr, bool used,
                          uint32_t *out)
{
    (void)v, (void)q, (void)file, (void)raddr, (void)used, (void)out;
    return false;
}

bool vc4_qpu_port_no_vary(struct vc4_v3d *v, struct vc4_qpu *q, uint32_t *out)
{
    (void)v, (void)q, (void)out;
    return false;
}

bool vc4_qpu_port_no_write(struct vc4_v3d *v, struct vc4_qpu *q, unsigned file, unsigned waddr,
                           const uint32_t *val, uint16_t mask)
{
    (void)v, (void)q, (void)file, (void)waddr, (void)val, (void)mask;
    return false;
}

bool vc4_qpu_port_no_signal(struct vc4_v3d *v, struct vc4_qpu *q, unsigned sig)
{
    (void)v, (void)q, (void)sig;
    return false;
}

void vc4_qpu_port_no_post(struct vc4_v3d *v, struct vc4_qpu *q)
{
    (void)v, (void)q;
}

bool vc4_qpu_port_no_sb_wait(struct vc4_v3d *v, struct vc4_qpu *q)
{
    (void)v, (void)q;
    return true; /* no scoreboard outside fragment shading */
}

void vc4_qpu_port_no_thread_switch(struct vc4_v3d *v, struct vc4_qpu *q)
{
    (void)v, (void)q; /* no other thread: this one carries on */
}

/* ---- register reads ------------------------------------------------------------ */

static bool read_uniform(struct exec *x, uint32_t *val)
{
    struct vc4_qpu *q = x->q;
    if (x->unif_read) { /* regfile A and B reading UNIFORM_READ take one value */
        *val = x->unif_val;
        return true;
    }
    if (q->unif_hazard)
        rule(x, RULE_UNIF_EARLY);
    if (q->thrend_left)
        rule(x, RULE_THREND_SLOT_IO);
    if (!vc4_mem_read32(&x->v->mem, q->unif, val)) {
        vc4_v3d_fault(x->v, q, "uniform read outside memory at 0x%08x", q->unif);
        x->failed = true;
        return false;
    }
    q->unif += 4;
    x->unif_read = true;
    x->unif_val = *val;
    return true;
}

static inline void fill(uint32_t *d, uint32_t v)
{
    for (int i = 0; i < N; i++)
        d[i] = v;
}

/* An operand vector of the kernels k, broadcast or copied as their loads
 * want it (vc4_alu_kernels.fill, .copy). */
static inline void operand_fill(const struct vc4_alu_kernels *k, uint32_t *d, uint32_t v)
{
    if (k->fill)
        k->fill(d, v);
    else
        fill(d, v);
}
static inline void operand_copy(const struct vc4_alu_kernels *k, uint32_t *d, const uint32_t *s)
{
    if (k->copy)
        k->copy(d, s);
    else
        memcpy(d, s, N * sizeof d[0]);
}

/* Read register file `file` at raddr into tmp (or return a pointer to the
 * register itself). */
static const uint32_t *read_file(struct exec *x, unsigned file, unsigned raddr, uint32_t *tmp)
{
    struct vc4_qpu *q = x->q;
    struct vc4_v3d *v = x->v;
    if (raddr < VC4_QPU_REGS) {
        if (q->prev_w & (UINT64_C(1) << (raddr + (file ? 32 : 0))))
            rule(x, RULE_REGFILE_RAW);
        return file ? q->rb[raddr] : q->ra[raddr];
    }
    uint32_t u = 0;
    switch (raddr) {
    case VC4_QPU_R_UNIF:
        read_uniform(x, &u);
        operand_fill(v->alu, tmp, u);
        return tmp;
    case VC4_QPU_R_ELEM_QPU:
        if (file)
            fill(tmp, q->num);
        else
            for (int i = 0; i < N; i++)
                tmp[i] = (uint32_t)i;
        return tmp;
    case VC4_QPU_R_VPM: {
        if (q->thrend_left)
            rule(x, RULE_THREND_SLOT_IO);
        struct vc4_location l = loc_of(q);
        uint64_t ready;
        unsigned ev = vc4_vpm_read(&v->vpm, q->num, tmp, q->time, &ready, &v->unit_sink, &l);
        unit_events(x, ev, VPM_ERRORS, VPM_NOTES);
        /* an early read waits for its data; a read whose data never comes
         * hangs, as on hardware (vpm.h) */
        if (ready > q->stall_until)
            q->stall_until = ready;
        if (ev & VC4_VPM_EV_DEADLOCK) {
            q->state = VC4_EMU_QPU_BLOCKED;
            q->blocked_on = "VPM read after an ignored read setup (hardware deadlock)";
        }
        return tmp;
    }
    case VC4_QPU_R_VPM_BUSY:
        fill(tmp, file ? vc4_vpm_st_busy(&v->vpm, q->num, q->time)
                       : vc4_vpm_ld_busy(&v->vpm, q->num, q->time));
        return tmp;
    case VC4_QPU_R_VPM_WAIT: {
        /* stalls until the DMA completes; modelled as a stall after the instruction */
        uint64_t t = file ? vc4_vpm_st_wait(&v->vpm, q->num, q->time)
                          : vc4_vpm_ld_wait(&v->vpm, q->num, q->time);
        if (t > q->stall_until)
            q->stall_until = t;
        fill(tmp, 0);
        return tmp;
    }
    case VC4_QPU_R_MUTEX_ACQUIRE: /* acquired before execution (blocking); reads a constant */
        fill(tmp, 0);
        return tmp;
    case VC4_QPU_R_VARY:
    case VC4_QPU_R_XY_COORD:
    case VC4_QPU_R_MS_REV:
        /* a fragment shader's payload; whether an ALU takes the value comes
         * from the decoded instruction */
        if (q->port->read(v, q, file, raddr, file ? vc4_qpu_reads_b(x->in) : vc4_qpu_reads_a(x->in), tmp))
            return tmp;
        if (q->user)
            rule(x, RULE_NO_TLB);
        fill(tmp, 0);
        return tmp;
    case VC4_QPU_R_NOP: /* the last values read by elements 12-15, per quad (vc4asm addendum) */
        for (int i = 0; i < N; i++)
            tmp[i] = q->rf_nop[file][12 + (i & 3)];
        return tmp;
    default:
        fill(tmp, 0); /* undefined on hardware; 0 here */
        return tmp;
    }
}

/* ---- register writes -------------------------------------------------------------- */

static uint32_t *target_reg(struct vc4_qpu *q, unsigned file, unsigned waddr)
{
    if (waddr < VC4_QPU_REGS)
        return file ? q->rb[waddr] : q->ra[waddr];
    if (waddr >= VC4_QPU_W_ACC0 && waddr <= VC4_QPU_W_ACC3)
        return q->acc[waddr - VC4_QPU_W_ACC0];
    if (waddr == VC4_QPU_W_ACC5)
        return q->acc[5];
    return NULL;
}

static void write_reg(struct exec *x, unsigned file, unsigned waddr, const uint32_t *val,
                      uint16_t mask)
{
    struct vc4_qpu *q = x->q;
    struct vc4_v3d *v = x->v;
    /* A write no element's condition let through changes nothing, but a
     * TLB access is the instruction's, whatever its elements do (as its
     * implicit scoreboard wait is): Mesa's shaders with discard write
     * TLB_Z and the colour under the discard condition (vc4_program.c
     * emit_frag_end), so a batch that discards every pixel makes a TLB_Z
     * write with no element in it, and has written TLB_Z (fsi.c
     * resolve_z; piglit's glsl-fs-discard-only was reported as breaking
     * fs-depth-without-tlb-z). */
    if (mask == 0 && waddr != VC4_QPU_W_VPM && !(waddr >= VC4_QPU_W_TMU0_S) && !vc4_qpu_waddr_is_tlb(waddr))
        return;
    if (waddr < VC4_QPU_REGS) {
        vc4_lanes_masked_copy(file ? q->rb[waddr] : q->ra[waddr], val, mask);
        if (file)
            x->cur_w |= UINT64_C(1) << (32 + waddr);
        else
            x->cur_w |= UINT64_C(1) << waddr;
        return;
    }
    struct vc4_location l;
    switch (waddr) {
    case VC4_QPU_W_ACC0: case VC4_QPU_W_ACC1: case VC4_QPU_W_ACC2: case VC4_QPU_W_ACC3:
        vc4_lanes_masked_copy(q->acc[waddr - VC4_QPU_W_ACC0], val, mask);
        x->cur_acc |= (uint8_t)(1u << (waddr - VC4_QPU_W_ACC0));
        return;
    case VC4_QPU_W_TMU_NOSWAP:
        if (mask & 1)
            vc4_tmu_write_noswap(&v->tmu, q->num, val[0]);
        return;
    case VC4_QPU_W_ACC5:
        /* r5 (facts 9): file A = per quad from elements 0/4/8/12, file B =
         * element 0 to all; gated by element 0's condition (VC4C). */
        if (mask & 1) {
            for (int i = 0; i < N; i++)
                q->acc[5][i] = file ? val[0] : val[i & ~3];
            x->cur_acc |= 1u << 5;
        }
        return;
    case VC4_QPU_W_HOST_INT:
        /* needs a non-zero value; conditional writes work (facts 21) */
        for (int i = 0; i < N; i++) {
            if ((mask & (1u << i)) && val[i]) {
                uint32_t *itc = &v->regs.val[VC4_V3D_DBQITC / 4];
                *itc |= 1u << q->num;
                v->stats.host_interrupts++;
                break;
            }
        }
        return;
    case VC4_QPU_W_NOP:
        return;
    case VC4_QPU_W_UNIFORMS_ADDRESS:
        /* element 0; no uniform reads in the next 2 instructions (facts 22) */
        if (mask & 1) {
            q->unif = val[0];
            q->unif_hazard = VC4_QPU_UNIF_HAZARD + 1;
        }
        return;
    case VC4_QPU_W_VPM:
        if (q->thrend_left)
            rule(x, RULE_THREND_SLOT_IO);
        l = loc_of(q);
        unit_events(x, vc4_vpm_write(&v->vpm, q->num, mask, val, q->time, &v->unit_sink, &l),
                    VPM_ERRORS, VPM_NOTES);
        return;
    case VC4_QPU_W_VPMVCD_SETUP:
        if (q->thrend_left)
            rule(x, RULE_THREND_SLOT_IO);
        l = loc_of(q);
        unit_events(x, file ? vc4_vpm_wr_setup(&v->vpm, q->num, val[0], q->time, &v->unit_sink, &l)
                            : vc4_vpm_rd_setup(&v->vpm, q->num, val[0], q->time, &v->unit_sink, &l),
                    VPM_ERRORS, VPM_NOTES);
        return;
    case VC4_QPU_W_VPM_ADDR:
        if (q->thrend_left)
            rule(x, RULE_THREND_SLOT_IO);
        l = loc_of(q);
        unit_events(x, file ? vc4_vpm_st_addr(&v->vpm, &v->mem, q->num, val[0], q->time,
                                              &v->unit_sink, &l)
                            : vc4_vpm_ld_addr(&v->vpm, &v->mem, q->num, val[0], q->time,
                                              &v->unit_sink, &l),
                    VPM_ERRORS, VPM_NOTES);
        if (file) /* the VDW store wrote memory: cached words there are checked again */
            vc4_icache_written(&v->icache, &v->code_gen, v->vpm.vdw_last_bus, v->vpm.vdw_last_span);
        return;
    case VC4_QPU_W_MUTEX_RELEASE:
        vc4_mutex_release(&v->sema, q->num);
        return;
    case VC4_QPU_W_SFU_RECIP: case VC4_QPU_W_SFU_RECIPSQRT:
    case VC4_QPU_W_SFU_EXP: case VC4_QPU_W_SFU_LOG: {
        if (q->sfu_left)
            rule(x, RULE_R4_OVERLAP);
        vc4_sfu16(sfu_fn(waddr), val, q->sfu_result);
        q->sfu_left = VC4_SFU_LATENCY + 1; /* counted down after this instruction */
        return;
    }
    default:
        if (waddr >= VC4_QPU_W_TMU0_S) {
            unsigned unit = (waddr - VC4_QPU_W_TMU0_S) / 4;
            enum vc4_tmu_reg reg = (enum vc4_tmu_reg)((waddr - VC4_QPU_W_TMU0_S) % 4);
            uint32_t param = 0;
            if (vc4_tmu_write_takes_uniform(&v->tmu, q->num, unit, reg) && !read_uniform(x, &param))
                return;
            l = loc_of(q);
            unit_events(x, vc4_tmu_write(&v->tmu, &v->mem, q->num, unit, reg, mask, val, param,
                                         q->time, &v->unit_sink, &l),
                        TMU_ERRORS, 0);
            return;
        }
        /* 41-47: TLB and fragment-shader registers */
        if (q->port->write(v, q, file, waddr, val, mask))
            return;
        if (q->user)
            rule(x, RULE_NO_TLB);
        return;
    }
}

/* ---- conditions and flags ------------------------------------------------------------ */

/* Flags only where the write condition passes (qpu_lanes.h). */
static_assert(VC4_QPU_FLAG_Z == 1 && VC4_QPU_FLAG_N == 2 && VC4_QPU_FLAG_C == 3, "qpu_lanes.h's flag indices");
static inline void set_flags(struct vc4_qpu *q, const uint32_t *r, uint16_t carry, uint16_t mask,
                             bool n_from_bit31)
{
    vc4_lanes_set_flags(q->flag, r, carry, mask, n_from_bit31);
}

static bool branch_taken(const struct vc4_qpu *q, unsigned cond)
{
    return vc4_lanes_branch_taken(q->flag, cond);
}

/* ---- the instruction forms ------------------------------------------------------------- */

/* A write through the execution record: physical registers and r0-r3
 * directly (at their offset in the QPU), everything else by write_reg. */
static inline void write_to(struct exec *x, uint8_t kind, uint16_t off, uint64_t wreg, uint8_t wacc,
                            unsigned file, unsigned waddr, const uint32_t *val, uint16_t mask)
{
    if (VC4_UNLIKELY(kind == VC4_XI_W_IO)) {
        write_reg(x, file, waddr, val, mask);
        return;
    }
    if (!mask)
        return;
    vc4_lanes_masked_copy((uint32_t *)((char *)x->q + off), val, mask);
    x->cur_w |= wreg;
    x->cur_acc |= wacc;
}

/* Unpack and rotation of the ALU operands (the uncommon features). */
static void operand_features(struct exec *x, const uint32_t **aa, const uint32_t **ab,
                             const uint32_t **ma, const uint32_t **mb, uint32_t *up_add,
                             uint32_t *up_mul, uint32_t *rot_a, uint32_t *rot_b)
{
    struct vc4_qpu *q = x->q;
    const struct vc4_qpu_instr *in = x->in;
    const struct vc4_qpu_xi *xi = &x->e->xi;
    /* unpack: PM 0 unpacks regfile A, PM 1 unpacks r4 (facts 11); the
     * float conversions for float-consuming ops */
    unsigned upk = in->pm ? VC4_QPU_MUX_R4 : VC4_QPU_MUX_A;
    const uint32_t *upk_src = qvec(q, mux_off(upk, xi->off));
    if (xi->features & VC4_XI_UNPACK_ADD) {
        bool add_f = vc4_qpu_op_add_is_float(in->op_add);
        vc4_unpack_vec(in->unpack, upk_src, up_add, add_f);
        if (xi->add_a == upk) *aa = up_add;
        if (xi->add_b == upk) *ab = up_add;
    }
    if (xi->features & VC4_XI_UNPACK_MUL) {
        bool mul_f = vc4_qpu_op_mul_is_float(in->op_mul);
        vc4_unpack_vec(in->unpack, upk_src, up_mul, mul_f);
        if (in->mul_a == upk) *ma = up_mul;
        if (in->mul_b == upk) *mb = up_mul;
    }
    /* mul-input rotation (facts 6-8) */
    if (xi->features & VC4_XI_ROTATE) {
        unsigned n = in->raddr_b == VC4_QPU_SMALL_IMM_ROT_R5 ? (q->acc[5][0] & 15)
                                                              : (unsigned)in->raddr_b - VC4_QPU_SMALL_IMM_ROT_1 + 1u;
        if (in->raddr_b == VC4_QPU_SMALL_IMM_ROT_R5 && (q->prev_acc & (1u << 5)))
            rule(x, RULE_ROTATE_R5);
        bool full = in->mul_a < VC4_QPU_MUX_R4 && in->mul_b < VC4_QPU_MUX_R4;
        if (full && ((q->prev_acc >> in->mul_a) & 1 || (q->prev_acc >> in->mul_b) & 1))
            rule(x, RULE_ROTATE_ACC);
        for (int i = 0; i < N; i++) {
            int j = full ? (int)((unsigned)(i - (int)n) & 15) : (i & ~3) | (int)((unsigned)(i - (int)n) & 3);
            rot_a[i] = (*ma)[j];
            rot_b[i] = (*mb)[j];
        }
        *ma = rot_a;
        *mb = rot_b;
    }
}

/* After an ALU instruction's regfile reads, before any write: elements
 * 12-15 of what each file gave become its NOP register's (an unused raddr
 * 39 copies the NOP register onto itself). */
static inline void nop_regs_read(struct vc4_qpu *q, const struct vc4_qpu_xi *xi)
{
    memcpy(&q->rf_nop[0][12], qvec(q, xi->off[4]) + 12, 4 * sizeof(uint32_t));
    memcpy(&q->rf_nop[1][12], qvec(q, xi->off[5]) + 12, 4 * sizeof(uint32_t));
}

/* (inlined into step_general and step_fast_exec alike: a call here cost
 * the FFT 0.2% more host instructions) */
static VC4_ALWAYS_INLINE void exec_alu(struct exec *x)
{
    struct vc4_qpu *q = x->q;
    const struct vc4_qpu_instr *in = x->in;
    const struct vc4_qpu_xi *xi = &x->e->xi;
    const struct vc4_alu_kernels *k = x->v->alu;

    /* regfile reads (side effects happen whenever the address is given):
     * I/O reads land in q->in_a / in_b, small immediates are copied to
     * in_b; then every operand is at its offset in the QPU */
    if (VC4_UNLIKELY(q->prev_w & xi->rmask & UINT32_MAX))
        rule(x, RULE_REGFILE_RAW);
    if (VC4_UNLIKELY(xi->rd_a == VC4_XI_RD_IO))
        read_file(x, 0, in->raddr_a, q->in_a);
    if (VC4_UNLIKELY((q->prev_w & xi->rmask) >> 32))
        rule(x, RULE_REGFILE_RAW);
    if (xi->rd_b == VC4_XI_RD_IMM)
        operand_copy(k, q->in_b, xi->vec);
    else if (VC4_UNLIKELY(xi->rd_b == VC4_XI_RD_IO))
        read_file(x, 1, in->raddr_b, q->in_b);
    if (VC4_UNLIKELY(x->failed))
        return;
    nop_regs_read(q, xi);

    const uint32_t *aa = qvec(q, xi->off[0]), *ab = qvec(q, xi->off[1]);
    const uint32_t *ma = qvec(q, xi->off[2]), *mb = qvec(q, xi->off[3]);
    uint32_t up_add[N], up_mul[N], rot_a[N], rot_b[N];
    if (q->sfu_left && xi->reads_r4)
        rule(x, RULE_R4_EARLY);
    if (VC4_UNLIKELY(xi->features & (VC4_XI_UNPACK_ADD | VC4_XI_UNPACK_MUL | VC4_XI_ROTATE)))
        operand_features(x, &aa, &ab, &ma, &mb, up_add, up_mul, rot_a, rot_b);

    /* the two ALUs */
    uint32_t ra[N], rm[N];
    uint16_t ca = 0, cm = 0;
    if (xi->op_add)
        k->add[xi->op_add](aa, ab, ra, xi->sf == VC4_XI_SF_ADD ? &ca : NULL);
    if (xi->op_mul) {
        k->mul[xi->op_mul](ma, mb, rm, xi->sf == VC4_XI_SF_MUL ? &cm : NULL);
    } else if (xi->mul_quirk) {
        /* mnop with a waddr writes the previous mul result's elements 12-15 (facts 20) */
        for (int i = 0; i < N; i++)
            rm[i] = q->last_mul[12 + (i & 3)];
    }

    /* conditions on the old flags */
    uint16_t mask_add = q->flag[xi->cidx_add] ^ xi->cinv_add, mask_mul = q->flag[xi->cidx_mul] ^ xi->cinv_mul;

    /* pack (only a result that is written is packed) */
    uint32_t pk[N];
    const uint32_t *wa = ra, *wm = rm;
    if (VC4_UNLIKELY(xi->features & VC4_XI_PACK_A)) {
        /* regfile-A pack: the ALU writing file A (facts 12) */
        bool on_add = vc4_qpu_add_wfile(in) == 0;
        if (on_add ? xi->w_add != VC4_XI_W_NONE : xi->w_mul != VC4_XI_W_NONE) {
            unsigned op = on_add ? in->op_add : in->op_mul;
            const uint32_t *res = on_add ? ra : rm;
            const uint32_t *old = target_reg(q, 0, on_add ? in->waddr_add : in->waddr_mul);
            bool isf = on_add ? vc4_alu_add_result_is_float(op) : vc4_alu_mul_result_is_float(op);
            bool wide = on_add && (op == VC4_QPU_A_ADD || op == VC4_QPU_A_SUB);
            for (int i = 0; i < N; i++) {
                int64_t w = 0;
                if (wide) {
                    int64_t s1 = (int32_t)aa[i], s2 = (int32_t)ab[i];
                    w = op == VC4_QPU_A_ADD ? s1 + s2 : s1 - s2;
                }
                pk[i] = vc4_pack_a(in->pack, res[i], old ? old[i] : 0, isf, w, wide,
                                   op == VC4_QPU_A_SUB && wide);
            }
            if (on_add)
                wa = pk;
            else
                wm = pk;
        }
    } else if (VC4_UNLIKELY(xi->features & VC4_XI_PACK_MUL) && xi->w_mul != VC4_XI_W_NONE) {
        vc4_pack_mul_vec(in->pack, rm, target_reg(q, vc4_qpu_mul_wfile(in), in->waddr_mul), pk);
        wm = pk;
    }

    if (VC4_UNLIKELY(xi->features & VC4_XI_THREND))
        rule(x, RULE_THREND_REGFILE);

    /* writes: add, then mul (both to one target: mul wins, facts 20a) */
    if (xi->w_add)
        write_to(x, xi->w_add, xi->w_off_add, xi->wreg_add, xi->wacc_add, vc4_qpu_add_wfile(in),
                 in->waddr_add, wa, mask_add);
    if (xi->w_mul)
        write_to(x, xi->w_mul, xi->w_off_mul, xi->wreg_mul, xi->wacc_mul, vc4_qpu_mul_wfile(in),
                 in->waddr_mul, wm, mask_mul);
    if (xi->op_mul)
        memcpy(&q->last_mul[12], &rm[12], 4 * sizeof rm[0]);

    /* flags where the condition passes (facts 14, 15) */
    if (xi->sf == VC4_XI_SF_ADD)
        set_flags(q, ra, ca, mask_add, xi->n_flag);
    else if (xi->sf == VC4_XI_SF_MUL)
        set_flags(q, rm, cm, mask_mul, true);
}

static VC4_ALWAYS_INLINE void exec_ldi(struct exec *x)
{
    struct vc4_qpu *q = x->q;
    const struct vc4_qpu_instr *in = x->in;
    const struct vc4_qpu_xi *xi = &x->e->xi;
    const uint32_t *val = xi->vec; /* per-element values, built at decode (facts 3) */
    uint16_t mask_add = q->flag[xi->cidx_add] ^ xi->cinv_add, mask_mul = q->flag[xi->cidx_mul] ^ xi->cinv_mul;
    unsigned file_add = vc4_qpu_add_wfile(in), file_mul = vc4_qpu_mul_wfile(in);
    uint32_t pk[N];
    const uint32_t *wa = val, *wm = val;
    if (VC4_UNLIKELY(xi->features & VC4_XI_PACK_A)) {
        bool on_add = file_add == 0;
        const uint32_t *old = target_reg(q, 0, on_add ? in->waddr_add : in->waddr_mul);
        for (int i = 0; i < N; i++)
            pk[i] = vc4_pack_a(in->pack, val[i], old ? old[i] : 0, false, 0, false, false);
        if (on_add) wa = pk; else wm = pk;
    } else if (VC4_UNLIKELY(xi->features & VC4_XI_PACK_MUL)) {
        vc4_pack_mul_vec(in->pack, val, target_reg(q, file_mul, in->waddr_mul), pk);
        wm = pk;
    }
    if (xi->w_add)
        write_to(x, xi->w_add, xi->w_off_add, xi->wreg_add, xi->wacc_add, file_add, in->waddr_add, wa,
                 mask_add);
    if (xi->w_mul)
        write_to(x, xi->w_mul, xi->w_off_mul, xi->wreg_mul, xi->wacc_mul, file_mul, in->waddr_mul, wm,
                 mask_mul);
    if (xi->sf != VC4_XI_SF_NONE) /* (which condition: build_xi_forms) */
        set_flags(q, val, 0, xi->sf == VC4_XI_SF_ADD ? mask_add : mask_mul, true);
}

/* A taken branch: to target after its delay slots; a second one may queue
 * behind (facts 18). */
static inline void branch_queue(struct vc4_qpu *q, uint32_t target)
{
    unsigned k = q->br_left ? 1 : 0;
    q->br_target[k] = target & ~(VC4_QPU_INSTR_BYTES - 1);
    if (k)
        q->br1_left = VC4_QPU_BRANCH_SLOTS + 1;
    else
        q->br_left = VC4_QPU_BRANCH_SLOTS + 1;
}

/* The link address of a branch at pc (after its delay slots), the base of a
 * relative target. */
static inline uint32_t branch_link(uint32_t pc)
{
    return pc + (VC4_QPU_BRANCH_SLOTS + 1) * VC4_QPU_INSTR_BYTES;
}

static void exec_branch(struct exec *x)
{
    struct vc4_qpu *q = x->q;
    const struct vc4_qpu_instr *in = x->in;
    if (q->br_left > 1)
        rule(x, RULE_BRANCH_SPACING);
    if (!branch_taken(q, in->cond_br))
        return; /* links and flags only when taken (facts 18) */
    uint32_t link = branch_link(q->pc);
    uint32_t target = (in->rel ? link : 0) + in->imm;
    if (in->reg) {
        /* element 15 of regfile A (vc4asm addendum) */
        if (q->prev_w & (UINT64_C(1) << (in->raddr_a & 31)))
            rule(x, RULE_REGFILE_RAW);
        target += q->ra[in->raddr_a & 31][15];
    }
    uint32_t lv[N];
    fill(lv, link);
    if (in->waddr_add != VC4_QPU_W_NOP)
        write_reg(x, vc4_qpu_add_wfile(in), in->waddr_add, lv, ALL_ELEMS);
    if (in->waddr_mul != VC4_QPU_W_NOP)
        write_reg(x, vc4_qpu_mul_wfile(in), in->waddr_mul, lv, ALL_ELEMS);
    if (in->sf) {
        /* odd raddr_a sets flags; from the link value (UNVERIFIED) */
        rule(x, RULE_BRANCH_FLAGS);
        set_flags(q, lv, 0, ALL_ELEMS, true);
    }
    branch_queue(q, target);
}

/* ---- one step ------------------------------------------------------------------ */

/* The end of a fast ALU form or load immediate: the add's result ra and
 * the mul's rm written under the conditions on the old flags (add first,
 * mul wins: facts 20a; a result computed straight into its register,
 * add_direct / mul_direct, is not copied), then the flags from the side
 * that sets them (carries ca, cm).  Sets prev_acc and returns the
 * registers written. */
static inline uint64_t fast_writes(struct vc4_qpu *q, const struct vc4_qpu_xi *xi, const uint32_t *ra, uint16_t ca,
                                   const uint32_t *rm, uint16_t cm)
{
    uint16_t mask_add = q->flag[xi->cidx_add] ^ xi->cinv_add, mask_mul = q->flag[xi->cidx_mul] ^ xi->cinv_mul;
    uint64_t w = 0;
    uint8_t acc = 0;
    if (xi->w_add != VC4_XI_W_NONE && mask_add) {
        if (!xi->add_direct)
            vc4_lanes_masked_copy((uint32_t *)((char *)q + xi->w_off_add), ra, mask_add);
        w = xi->wreg_add;
        acc = xi->wacc_add;
    }
    if (xi->w_mul != VC4_XI_W_NONE && mask_mul) {
        if (!xi->mul_direct)
            vc4_lanes_masked_copy((uint32_t *)((char *)q + xi->w_off_mul), rm, mask_mul);
        w |= xi->wreg_mul;
        acc |= xi->wacc_mul;
    }
    if (xi->sf == VC4_XI_SF_ADD)
        set_flags(q, ra, ca, mask_add, xi->n_flag);
    else if (xi->sf == VC4_XI_SF_MUL)
        set_flags(q, rm, cm, mask_mul, true);
    q->prev_acc = acc;
    return w;
}

/*
 * The fast path of an ALU instruction (qpu.h VC4_XI_FAST_ALU): the same
 * steps as exec_alu with everything the execution record excludes left
 * out.  Run only when neither issue-time rule can apply (regfile
 * read-after-write, r4 read during an SFU: step() tests them), so no
 * diagnostic is ever due here.  An add whose result is neither written nor
 * sets flags is not computed (the ALU ops have no side effects); a mul
 * always is, for the next mnop's quirk (last_mul).  Sets prev_acc and
 * returns the registers written (the next prev_w).
 */
VC4_NOINLINE static uint64_t step_fast_alu(const struct vc4_v3d *v, struct vc4_qpu *q, const struct vc4_qpu_xi *xi)
{
    const struct vc4_alu_kernels *k = v->alu;
    if (xi->rd_b == VC4_XI_RD_IMM)
        operand_copy(v->alu, q->in_b, xi->vec);
    nop_regs_read(q, xi);
    uint32_t ra_tmp[N], rm_tmp[N];
    uint32_t *ra = xi->add_direct ? (uint32_t *)((char *)q + xi->w_off_add) : ra_tmp;
    uint32_t *rm = xi->mul_direct ? (uint32_t *)((char *)q + xi->w_off_mul) : rm_tmp;
    uint16_t ca = 0, cm = 0;
    if (xi->w_add != VC4_XI_W_NONE || xi->sf == VC4_XI_SF_ADD)
        k->add[xi->op_add](qvec(q, xi->off[0]), qvec(q, xi->off[1]), ra, xi->sf == VC4_XI_SF_ADD ? &ca : NULL);
    if (xi->op_mul) {
        k->mul[xi->op_mul](qvec(q, xi->off[2]), qvec(q, xi->off[3]), rm, xi->sf == VC4_XI_SF_MUL ? &cm : NULL);
        memcpy(&q->last_mul[12], &rm[12], 4 * sizeof rm[0]);
    }
    return fast_writes(q, xi, ra, ca, rm, cm);
}

/* The fast path of a load immediate (VC4_XI_FAST_LDI): exec_ldi without
 * pack or I/O writes, its value written by both sides. */
static inline uint64_t step_fast_ldi(struct vc4_qpu *q, const struct vc4_qpu_xi *xi)
{
    return fast_writes(q, xi, xi->vec, 0, xi->vec, 0);
}

/* The fast path of VC4_XI_FAST_EXEC: the general executor's ALU form or
 * load immediate, where no rule can apply (the fast path's entry tests
 * read-after-write and r4 during an SFU; q->prev_w must be current, as
 * exec_alu tests it again) and no unit is touched.  Sets prev_acc and
 * returns the registers written. */
static uint64_t step_fast_exec(struct vc4_v3d *v, struct vc4_qpu *q, struct vc4_icache_entry *e)
{
    struct exec x = {.v = v, .q = q, .e = e, .in = &e->in};
    if (e->xi.form == VC4_XI_LDI)
        exec_ldi(&x);
    else
        exec_alu(&x);
    q->prev_acc = x.cur_acc;
    return x.cur_w;
}

/* A pipeline byte read on its own: a wider load that spans a byte just
 * stored (as compilers make of tests of neighbouring bytes) cannot take
 * the value from the store buffer and waits for the store to complete. */
static inline uint8_t one_byte(const uint8_t *p)
{
    return *(const volatile uint8_t *)p;
}

/* The pipelines that move with every instruction issued: the SFU result
 * lands in r4, the uniforms-address hazard passes, branches take effect
 * after their delay slots (*pc).  Each counter is read once and written
 * back as a byte (see one_byte); returns whether any is still running. */
static inline bool issue_pipelines(struct vc4_qpu *q, uint32_t *pc)
{
    uint8_t sfu = q->sfu_left, unif = q->unif_hazard, br = q->br_left, br1 = q->br1_left;
    if (sfu && --sfu == 0)
        memcpy(q->acc[4], q->sfu_result, sizeof q->acc[4]);
    if (unif)
        unif--;
    bool take = br && --br == 0;
    if (br1)
        br1--;
    if (take) {
        *pc = q->br_target[0];
        q->jit_head = true;
        q->br_target[0] = q->br_target[1];
        br = br1;
        br1 = 0;
    }
    q->sfu_left = sfu;
    q->unif_hazard = unif;
    q->br_left = br;
    q->br1_left = br1;
    return sfu || unif || br;
}

/* The delay pipelines after an instruction: SFU result to r4, the
 * uniforms-address hazard, branch delay slots (3), thread-end delay slots
 * (2).  Returns true when the thread end has completed. */
static inline bool pipelines(struct vc4_v3d *v, struct vc4_qpu *q)
{
    issue_pipelines(q, &q->pc);
    bool ended = q->thrend_left && --q->thrend_left == 0;
    /* a fragment shader's thread switch after its 2 delay slots (the port) */
    if (!ended && q->thrsw_left && --q->thrsw_left == 0)
        q->port->thread_switch(v, q);
    return ended;
}

/* The fast path's uniform read (regfile A and/or B reading UNIFORM_READ
 * take one value, as read_uniform): false, with nothing changed, when a
 * rule applies (uniforms-address hazard, thread-end delay slot) or the
 * read faults, for the general path to report. */
static inline bool fast_uniform_read(const struct vc4_v3d *v, struct vc4_qpu *q, unsigned reads)
{
    uint32_t u;
    if (!vc4_mem_read32(&v->mem, q->unif, &u))
        return false;
    q->unif += 4;
    if (reads & VC4_XI_IO_UNIF_A)
        operand_fill(v->alu, q->in_a, u);
    if (reads & VC4_XI_IO_UNIF_B)
        operand_fill(v->alu, q->in_b, u);
    return true;
}
/* The fast path's VPM read (VC4_XI_IO_VPM_A/B, read_file's VPM_READ) at
 * cycle now, into the file's operand: false, with nothing changed, when
 * the VPM would report or stall, for the general path.  (Not in thread-end
 * slots: run_fast never runs there, step() tests.) */
static inline bool fast_vpm_read(struct vc4_v3d *v, struct vc4_qpu *q, unsigned reads, uint64_t now)
{
    return vc4_vpm_try_read(&v->vpm, q->num, reads & VC4_XI_IO_VPM_A ? q->in_a : q->in_b, now);
}
/* The fast path's varying read into the file's operand (its C lands in
 * r5 after the instruction: the port's post, which the caller makes):
 * false, with nothing changed, when the port would report (no varying
 * left) or has none. */
static inline bool fast_vary_read(struct vc4_v3d *v, struct vc4_qpu *q, unsigned reads)
{
    return q->port->vary(v, q, reads & VC4_XI_IO_VARY_A ? q->in_a : q->in_b);
}
/* A VPM or varying read (reads: the record's unif bits, one of them set),
 * at cycle now.  (A call: step() is inlined into every scheduler loop,
 * and these are rarer than uniforms.) */
#define FAST_UNIT_READS (VC4_XI_IO_VPM | VC4_XI_IO_VARY)
static VC4_NOINLINE bool fast_unit_read(struct vc4_v3d *v, struct vc4_qpu *q, unsigned reads, uint64_t now)
{
    return reads & VC4_XI_IO_VPM ? fast_vpm_read(v, q, reads, now) : fast_vary_read(v, q, reads);
}
/* step()'s operand read from outside (xi->unif set): a uniform, a VPM or
 * a varying read, false for the general path. */
static VC4_ALWAYS_INLINE bool fast_operand(struct vc4_v3d *v, struct vc4_qpu *q, const struct vc4_qpu_xi *xi)
{
    if (q->thrend_left)
        return false; /* (a rule) */
    if (VC4_UNLIKELY(xi->unif & FAST_UNIT_READS))
        return fast_unit_read(v, q, xi->unif, q->time);
    return !q->unif_hazard && fast_uniform_read(v, q, xi->unif);
}

/* The fast path of the commonest ALU instructions (VC4_XI_FAST_ALU_PLAIN):
 * step_fast_alu when no flags are set and every write is unconditional.
 * Sets prev_acc and returns the registers written. */
static VC4_ALWAYS_INLINE uint64_t step_fast_plain(const struct vc4_v3d *v, struct vc4_qpu *q, const struct vc4_qpu_xi *xi)
{
    const struct vc4_alu_kernels *k = v->alu;
    if (xi->rd_b == VC4_XI_RD_IMM)
        operand_copy(v->alu, q->in_b, xi->vec);
    nop_regs_read(q, xi);
    uint32_t ra_tmp[N], rm_tmp[N];
    uint32_t *wa = (uint32_t *)((char *)q + xi->w_off_add), *wm = (uint32_t *)((char *)q + xi->w_off_mul);
    /* (only the record's first cache line is read here: qpu.h) */
    unsigned p = xi->plain;
    if (p & VC4_XI_PLAIN_ADD_W)
        k->add[xi->op_add](qvec(q, xi->off[0]), qvec(q, xi->off[1]), p & VC4_XI_PLAIN_ADD_DIRECT ? wa : ra_tmp,
                           NULL);
    if (xi->op_mul) {
        uint32_t *rm = p & VC4_XI_PLAIN_MUL_DIRECT ? wm : rm_tmp;
        k->mul[xi->op_mul](qvec(q, xi->off[2]), qvec(q, xi->off[3]), rm, NULL);
        memcpy(&q->last_mul[12], &rm[12], 4 * sizeof rm[0]);
    }
    /* add writes first, mul wins (facts 20a) */
    if ((p & (VC4_XI_PLAIN_ADD_W | VC4_XI_PLAIN_ADD_DIRECT)) == VC4_XI_PLAIN_ADD_W)
        operand_copy(k, wa, ra_tmp);
    if ((p & (VC4_XI_PLAIN_MUL_W | VC4_XI_PLAIN_MUL_DIRECT)) == VC4_XI_PLAIN_MUL_W)
        operand_copy(k, wm, rm_tmp);
    q->prev_acc = xi->wacc;
    return xi->wreg;
}

/*
 * The fast I/O kinds (qpu.h VC4_XI_FAST_LDTMU, _TMU_S, _VPM_W,
 * _VPM_SETUP): the same steps as step_general's for them, taken only when
 * no rule can apply and the unit reports nothing.  An ldtmu runs its ALU
 * part, then pops the result into r4 and stalls until the data is there
 * (the port's post after a signal, as ever); a TMU_S, VPM_W or VPM_SETUP
 * write computes its value and queues the lookup, writes the row or takes
 * the setup (element 0).  In step() and run_fast alike
 * (they change the TMU, its cache and the VPM in the order of the steps,
 * and run_fast runs only with no other QPU stepping).
 */
/* The ldtmu instruction at cycle now: false when the load would report
 * or an SFU result is in flight (a rule), with nothing done; else true,
 * *w the registers written. */
static inline bool ldtmu_fast(struct vc4_v3d *v, struct vc4_qpu *q, const struct vc4_qpu_xi *xi, uint64_t now,
                              uint64_t *w)
{
    /* (the load pops r4 after the ALU part has read it: into a copy
     * first, so that nothing is done when it would report) */
    uint32_t r4[N];
    uint64_t ready;
    if (q->sfu_left || !vc4_tmu_try_load(&v->tmu, q->num, xi->io_unit, r4, now, &ready))
        return false;
    if (xi->io_alu == VC4_XI_FAST_ALU_PLAIN)
        *w = step_fast_plain(v, q, xi);
    else if (xi->io_alu == VC4_XI_FAST_ALU)
        *w = step_fast_alu(v, q, xi);
    else {
        *w = 0;
        q->prev_acc = 0;
    }
    memcpy(q->acc[4], r4, sizeof r4);
    if (ready > q->stall_until)
        q->stall_until = ready;
    q->port->post(v, q);
    return true;
}

/* The TMU_S, VPM_W, VPM_SETUP, VPM_RD_SETUP or SFU write at cycle now;
 * false when the unit would report (or a VPM access is in thread-end
 * slots, an SFU write with a result in flight: rules): the general path
 * then runs it (nothing changed here but the nop-read copies and in_b,
 * which it makes again alike). */
static VC4_ALWAYS_INLINE bool io_write_fast(struct vc4_v3d *v, struct vc4_qpu *q, const struct vc4_qpu_xi *xi, uint64_t now)
{
    const struct vc4_alu_kernels *k = v->alu;
    /* (the pipelines tested first: mostly idle) */
    if (q->thrend_left &&
        (xi->fast == VC4_XI_FAST_VPM_W || xi->fast == VC4_XI_FAST_VPM_SETUP || xi->fast == VC4_XI_FAST_VPM_RD_SETUP))
        return false; /* (a VPM access in thread-end slots: a rule) */
    if (q->sfu_left && xi->fast == VC4_XI_FAST_SFU)
        return false; /* (the r4 rule: the general path reports it) */
    uint32_t val[N];
    if (xi->form == VC4_XI_LDI) {
        /* (a load immediate's setup: its value, no operand read) */
        memcpy(val, xi->vec, sizeof val);
    } else {
        if (xi->rd_b == VC4_XI_RD_IMM)
            operand_copy(v->alu, q->in_b, xi->vec);
        nop_regs_read(q, xi);
        if (xi->io_on_mul)
            k->mul[xi->op_mul](qvec(q, xi->off[2]), qvec(q, xi->off[3]), val, NULL);
        else
            k->add[xi->op_add](qvec(q, xi->off[0]), qvec(q, xi->off[1]), val, NULL);
    }
    if (xi->fast == VC4_XI_FAST_SFU) {
        /* as the general path's write (exec_write): every element, r4 two
         * instructions on (issue_pipelines) */
        vc4_sfu16((enum vc4_sfu_fn)xi->io_unit, val, q->sfu_result);
        q->sfu_left = VC4_SFU_LATENCY + 1;
    } else {
        bool done = xi->fast == VC4_XI_FAST_TMU_S       ? vc4_tmu_try_lookup(&v->tmu, &v->mem, q->num, xi->io_unit, val, now)
                    : xi->fast == VC4_XI_FAST_VPM_W     ? vc4_vpm_try_write(&v->vpm, q->num, val)
                    : xi->fast == VC4_XI_FAST_VPM_SETUP ? vc4_vpm_try_wr_setup(&v->vpm, q->num, val[0], now)
                                                        : vc4_vpm_try_rd_setup(&v->vpm, q->num, val[0], now);
        if (!done)
            return false;
    }
    if (xi->io_on_mul)
        memcpy(&q->last_mul[12], &val[12], 4 * sizeof val[0]);
    q->prev_acc = 0;
    return true;
}

/*
 * The same accesses for compiled blocks (jit_io.h): the unit calls of
 * io_write_fast and ldtmu_fast, the block doing the ALU parts around them.
 * Each counts towards the JIT's statistics when made.
 */
static bool jit_tmu_s(void *vp, unsigned char *qp, unsigned unit, const uint32_t *val, uint64_t now)
{
    struct vc4_v3d *v = vp;
    struct vc4_qpu *q = (struct vc4_qpu *)qp;
    if (!vc4_tmu_try_lookup(&v->tmu, &v->mem, q->num, unit, val, now))
        return false;
    v->jit->stats.io++;
    return true;
}
static bool jit_vpm_w(void *vp, unsigned char *qp, const uint32_t *val, uint64_t now)
{
    struct vc4_v3d *v = vp;
    (void)now;
    if (!vc4_vpm_try_write(&v->vpm, ((struct vc4_qpu *)qp)->num, val))
        return false;
    v->jit->stats.io++;
    return true;
}
static bool jit_vpm_setup(void *vp, unsigned char *qp, const uint32_t *val, uint64_t now)
{
    struct vc4_v3d *v = vp;
    if (!vc4_vpm_try_wr_setup(&v->vpm, ((struct vc4_qpu *)qp)->num, val[0], now))
        return false;
    v->jit->stats.io++;
    return true;
}
static bool jit_ldtmu(void *vp, unsigned char *qp, unsigned unit, uint32_t *r4v, uint64_t now, uint64_t *ready)
{
    struct vc4_v3d *v = vp;
    /* (no SFU result is in flight at a block's ldtmu: jit.c sfu_window) */
    if (!vc4_tmu_try_load(&v->tmu, ((struct vc4_qpu *)qp)->num, unit, r4v, now, ready))
        return false;
    v->jit->stats.io++;
    return true;
}
static bool jit_ldtmu_after(void *vp, unsigned char *qp, uint64_t ready, uint64_t now)
{
    struct vc4_v3d *v = vp;
    struct vc4_qpu *q = (struct vc4_qpu *)qp;
    if (ready > q->stall_until)
        q->stall_until = ready;
    q->port->post(v, q);
    return q->stall_until > now;
}

/* (inside a block no uniforms-address hazard or thread end is pending:
 * blocks start with no pipeline moving and hold no such write) */
static bool jit_operand(void *vp, unsigned char *qp, unsigned reads, uint64_t now)
{
    struct vc4_v3d *v = vp;
    struct vc4_qpu *q = (struct vc4_qpu *)qp;
    if (!(reads & FAST_UNIT_READS ? fast_unit_read(v, q, reads, now) : fast_uniform_read(v, q, reads)))
        return false;
    v->jit->stats.io++;
    return true;
}
static void jit_post(void *vp, unsigned char *qp)
{
    struct vc4_qpu *q = (struct vc4_qpu *)qp;
    q->port->post(vp, q);
}

static const struct vc4_jit_ops jit_ops = {.tmu_s = jit_tmu_s, .vpm_w = jit_vpm_w, .vpm_setup = jit_vpm_setup,
                                           .ldtmu = jit_ldtmu, .ldtmu_after = jit_ldtmu_after,
                                           .operand = jit_operand, .post = jit_post};

static inline struct vc4_jit_io jit_io_port(struct vc4_v3d *v, uint64_t base)
{
    return (struct vc4_jit_io){.v = v, .base = base, .ops = &jit_ops};
}

/* A semaphore instruction's operand (facts 4): bit 4 = acquire, bits 0-3
 * the semaphore. */
static inline bool sema_acquire(const struct vc4_qpu_instr *in) { return (in->imm >> 4) & 1; }
static inline unsigned sema_num(const struct vc4_qpu_instr *in) { return in->imm & 15; }

/* The QPU issued an instruction: running (blocked_on is set only with
 * state BLOCKED, qpu.h, so a running QPU's line is left alone). */
static inline void set_running(struct vc4_qpu *q)
{
    if (VC4_UNLIKELY(q->state != VC4_EMU_QPU_RUNNING)) {
        q->state = VC4_EMU_QPU_RUNNING;
        q->blocked_on = NULL;
    }
}

/* After an instruction (prev_w / prev_acc already set): count it, advance
 * the PC, run the delay pipelines. */
static inline enum vc4_qpu_step step_end(struct vc4_v3d *v, struct vc4_qpu *q, bool stop)
{
    q->instructions++;
    v->stats.instructions++;
    q->pc += VC4_QPU_INSTR_BYTES;
    /* (a second branch is only ever pending behind br_left) */
    if (VC4_UNLIKELY(q->pending) && pipelines(v, q))
        return VC4_QPU_STEP_ENDED;
    return VC4_UNLIKELY(stop) ? VC4_QPU_STEP_FAULT : VC4_QPU_STEP_OK;
}

/* Everything but the fast path: an instruction the record does not
 * exclude from anything, with every rule checked. */
static enum vc4_qpu_step step_general(struct vc4_v3d *v, struct vc4_qpu *q, struct vc4_icache_entry *e)
{
    struct exec x = {.v = v, .q = q, .e = e, .in = &e->in};
    const struct vc4_qpu_instr *in = x.in;
    const struct vc4_qpu_xi *xi = &e->xi;
    v->slow_steps++;
    q->jit_head = true;
    if (VC4_UNLIKELY(xi->form == VC4_XI_RESERVED)) {
        vc4_v3d_fault(v, q, "invalid instruction (reserved encoding)");
        return VC4_QPU_STEP_FAULT;
    }

    /* blocking resources first, so a stalled instruction has no effects */
    if (VC4_UNLIKELY(xi->block != VC4_XI_BLOCK_NONE)) {
        if (xi->block == VC4_XI_BLOCK_SEMA) {
            bool acquire = sema_acquire(in);
            if (!vc4_sema_try(&v->sema, sema_num(in), acquire)) {
                q->state = VC4_EMU_QPU_BLOCKED;
                q->blocked_on = acquire ? "semaphore acquire" : "semaphore release";
                v->stats.stall_cycles++;
                return VC4_QPU_STEP_BLOCKED;
            }
        } else if (xi->block == VC4_XI_BLOCK_SB) {
            if (!q->port->sb_wait(v, q)) {
                q->state = VC4_EMU_QPU_BLOCKED;
                q->blocked_on = "scoreboard";
                v->stats.stall_cycles++;
                return VC4_QPU_STEP_BLOCKED;
            }
        } else if (!vc4_mutex_try_acquire(&v->sema, q->num)) {
            q->state = VC4_EMU_QPU_BLOCKED;
            q->blocked_on = "mutex";
            v->stats.stall_cycles++;
            return VC4_QPU_STEP_BLOCKED;
        }
    }
    q->state = VC4_EMU_QPU_RUNNING;
    q->blocked_on = NULL;

    switch (xi->form) {
    case VC4_XI_ALU:
        exec_alu(&x);
        break;
    case VC4_XI_LDI:
        exec_ldi(&x);
        break;
    case VC4_XI_BRANCH:
        exec_branch(&x);
        break;
    default: /* VC4_XI_NOP */
        break;
    }
    if (VC4_UNLIKELY(x.failed))
        return VC4_QPU_STEP_FAULT;

    /* signals */
    if (VC4_UNLIKELY(xi->sig)) {
        switch (in->sig) {
        case VC4_QPU_SIG_PROG_END:
            q->thrend_left = VC4_QPU_THREND_SLOTS + 1;
            break;
        case VC4_QPU_SIG_LOAD_TMU0:
        case VC4_QPU_SIG_LOAD_TMU1: {
            if (q->sfu_left)
                rule(&x, RULE_R4_OVERLAP);
            struct vc4_location l = loc_of(q);
            uint64_t ready = 0;
            unsigned ev = vc4_tmu_load(&v->tmu, q->num, in->sig - VC4_QPU_SIG_LOAD_TMU0, q->acc[4],
                                       q->time, &ready, &v->unit_sink, &l);
            unit_events(&x, ev, TMU_ERRORS, 0);
            if (ready > q->stall_until)
                q->stall_until = ready;
            break;
        }
        case VC4_QPU_SIG_COLOR_LOAD_END:
            q->thrend_left = VC4_QPU_THREND_SLOTS + 1;
            if (!q->port->signal(v, q, in->sig) && q->user)
                rule(&x, RULE_NO_TLB);
            break;
        case VC4_QPU_SIG_COVERAGE_LOAD:
        case VC4_QPU_SIG_COLOR_LOAD:
        case VC4_QPU_SIG_ALPHA_MASK_LOAD:
            if (!q->port->signal(v, q, in->sig) && q->user)
                rule(&x, RULE_NO_TLB);
            break;
        default:
            /* thread switches, scoreboard unlock: fragment shaders only */
            q->port->signal(v, q, in->sig);
            break;
        }
        q->port->post(v, q); /* r5 = C after a varying read */
    }
    if (VC4_UNLIKELY(x.failed))
        return VC4_QPU_STEP_FAULT;

    q->prev_w = x.cur_w;
    q->prev_acc = x.cur_acc;
    return step_end(v, q, x.stop);
}

/* (inlined into each cycle loop: gcc's heuristics would call it from some) */
static VC4_ALWAYS_INLINE enum vc4_qpu_step step(struct vc4_v3d *v, struct vc4_qpu *q)
{
    q->time++;
    if (q->stall_until >= q->time) {
        v->stats.stall_cycles++;
        return VC4_QPU_STEP_BLOCKED;
    }
    struct vc4_icache_entry *e;
    if (VC4_UNLIKELY(!fetch(v, q->pc, &e))) {
        vc4_v3d_fault(v, q, "instruction fetch outside memory (PC 0x%08x)", q->pc);
        return VC4_QPU_STEP_FAULT;
    }
    const struct vc4_qpu_xi *xi = &e->xi;
    /* the fast path unless a rule may apply (qpu.h) */
    if (VC4_LIKELY(xi->fast != VC4_XI_FAST_NONE) && VC4_LIKELY(!(q->prev_w & xi->rmask)) &&
        !(q->sfu_left && xi->reads_r4) && !q->general_only) {
        if (VC4_UNLIKELY(xi->unif) && !fast_operand(v, q, xi))
            return step_general(v, q, e);
        /* (the commonest kind tested first, as in run_fast) */
        if (VC4_LIKELY(xi->fast == VC4_XI_FAST_ALU_PLAIN)) {
            q->prev_w = step_fast_plain(v, q, xi);
        } else switch (xi->fast) {
        case VC4_XI_FAST_ALU:
            q->prev_w = step_fast_alu(v, q, xi);
            break;
        case VC4_XI_FAST_LDI:
            q->prev_w = step_fast_ldi(q, xi);
            break;
        case VC4_XI_FAST_ALU_VARY:
            q->prev_w = step_fast_alu(v, q, xi);
            q->port->post(v, q); /* (r5 = the varying's C) */
            break;
        case VC4_XI_FAST_EXEC: /* (not in compiled blocks: the next one is a head) */
            q->prev_w = step_fast_exec(v, q, e);
            q->jit_head = true;
            break;
        case VC4_XI_FAST_LDTMU:
            if (!ldtmu_fast(v, q, xi, q->time, &q->prev_w))
                return step_general(v, q, e);
            break;
        case VC4_XI_FAST_TMU_S:
        case VC4_XI_FAST_VPM_W:
        case VC4_XI_FAST_VPM_SETUP:
        case VC4_XI_FAST_VPM_RD_SETUP:
        case VC4_XI_FAST_SFU:
            if (!io_write_fast(v, q, xi, q->time))
                return step_general(v, q, e);
            q->prev_w = 0;
            break;
        case VC4_XI_FAST_BRANCH:
            if (q->br_left > 1)
                return step_general(v, q, e); /* the branch-spacing rule */
            if (branch_taken(q, e->in.cond_br))
                branch_queue(q, (e->in.rel ? branch_link(q->pc) : 0) + e->in.imm);
            q->prev_w = 0;
            q->prev_acc = 0;
            break;
        default: /* VC4_XI_FAST_NOP */
            q->prev_w = 0;
            q->prev_acc = 0;
            break;
        }
        set_running(q);
        return step_end(v, q, false);
    }
    return step_general(v, q, e);
}

enum vc4_qpu_step vc4_qpu_step(struct vc4_v3d *v, struct vc4_qpu *q)
{
    return step(v, q);
}

/* fetch() without the check against memory: the entry for pc if it is
 * current (generation gen), else NULL. */
static inline struct vc4_icache_entry *cached(struct vc4_icache_slot *slots, uint32_t pc, uint64_t gen)
{
    uint32_t off = pc & VC4_BUS_OFFSET_MASK;
    struct vc4_icache_entry *e = &slots[(off >> 3) & (VC4_ICACHE_ENTRIES - 1)].e;
    return VC4_LIKELY(e->addr == off && e->gen == gen) ? e : NULL;
}

bool vc4_qpu_cached(struct vc4_v3d *v, uint32_t off, struct vc4_icache_entry **out)
{
    *out = cached(v->icache.s, off, v->code_gen);
    return *out != NULL;
}

/* Compiled blocks run where the host kernels do (they are compiled with
 * the same source; the exact table means the host arithmetic was not
 * available for this run). */
static inline struct vc4_jit *blocks_jit(const struct vc4_v3d *v)
{
    return v->alu != &vc4_alu_kernels_exact ? v->jit : NULL;
}

/* May the compiled block b run from its instruction o, at pc (jit.h)?
 * Its words from there on are still those in the instruction cache, each
 * current (a fetch would neither decode again nor count: unchanged while
 * neither memory nor the cache has changed since the last look), and the
 * instruction reads no register the previous one wrote. */
static inline struct vc4_code_stamp code_stamp(const struct vc4_v3d *v)
{
    return (struct vc4_code_stamp){v->code_gen, v->stats.decodes};
}
static inline bool code_unchanged(const struct vc4_v3d *v, struct vc4_code_stamp s)
{
    return s.gen == v->code_gen && s.decodes == v->stats.decodes;
}
static inline bool block_verified(const struct vc4_v3d *v, const struct vc4_jit_block *b)
{
    return code_unchanged(v, b->verified);
}
static inline bool block_ready(struct vc4_v3d *v, struct vc4_jit_block *b, unsigned o, uint32_t pc, uint64_t prev_w)
{
    if (prev_w & b->rmask[o])
        return false;
    if (block_verified(v, b))
        return true;
    uint32_t first = pc - o * VC4_QPU_INSTR_BYTES;
    for (uint32_t i = 0; i < b->n; i++) {
        const struct vc4_icache_entry *e = cached(v->icache.s, first + i * VC4_QPU_INSTR_BYTES, v->code_gen);
        if (!e || e->word != b->words[i])
            return false;
    }
    b->verified = code_stamp(v);
    return true;
}

/* block_ready without marking the block verified: false when it is not
 * verified since the last change (for a thread beside the emulator's). */
static inline bool block_ready_quiet(const struct vc4_v3d *v, const struct vc4_jit_block *b, unsigned o,
                                     uint64_t prev_w)
{
    return !(prev_w & b->rmask[o]) && block_verified(v, b);
}

/* After block b ran m instructions from its instruction o at pc: where the
 * QPU goes on.  When the run ended the block's branch and its slots and the
 * branch went, as the pipeline leaves a branch taken (issue_pipelines). */
static inline uint32_t block_next_pc(struct vc4_qpu *q, const struct vc4_jit_block *b, unsigned o, unsigned m,
                                     uint32_t pc, unsigned taken)
{
    if (b->br_at < 0 || o + m < b->n || !taken)
        return pc + m * VC4_QPU_INSTR_BYTES;
    uint32_t at = pc + ((unsigned)b->br_at - o) * VC4_QPU_INSTR_BYTES; /* the branch */
    q->br_target[0] = q->br_target[1];
    q->jit_head = true;
    return ((b->br_rel ? branch_link(at) : 0) + b->br_imm) & ~(VC4_QPU_INSTR_BYTES - 1);
}

/*
 * One QPU's cycles back to back on the fast path (vc4_qpu_run_cycles with
 * one QPU): the same steps as step() for the instructions its fast path
 * takes, with the PC and the written-register bits held in locals, the
 * delay pipelines moved only while one runs, the cycle and instruction
 * counts added once, and only what the fast path needs tested per
 * instruction.  Nothing here ends: it runs only when no stall, thread end
 * or thread switch is pending (those come from the general path), stops
 * after an ldtmu whose data is not there yet (the next step() stalls),
 * and stops before the first instruction that needs step() (a decode, a
 * rule that may apply, anything beyond the fast path).  Returns
 * the cycles run, each an issued instruction (< budget when it stopped
 * early).  (Kept out of line: its loop gets the host registers to itself.)
 */
/* What a free run counted (run_free adds it to the statistics when the
 * run is kept). */
struct run_counts {
    uint64_t instructions; /* QPU instructions */
    uint64_t runs, loop_passes, compiled; /* the JIT's: block runs, loop passes, instructions */
};

/* run_fast itself (rc NULL), or a free run's part (run_pure: rc, the
 * counts go there, and it stops before every TMU and VPM access); shared:
 * it may change what other threads read (count heads, compile and install
 * blocks, mark a block verified), false while the helper runs too. */
static VC4_ALWAYS_INLINE uint64_t run_fast_as(struct vc4_v3d *v, struct vc4_qpu *q, uint64_t budget,
                                             struct run_counts *rc, bool shared)
{
    const bool pure = rc != NULL;
    uint32_t pc = q->pc;
    /* (the commonest way out first: an instruction for the general path) */
    struct vc4_icache_entry *e = cached(v->icache.s, pc, v->code_gen);
    if (!e || e->xi.fast == VC4_XI_FAST_NONE || budget == 0 || q->stall_until > q->time || q->general_only ||
        q->step_only || one_byte(&q->thrend_left) || one_byte(&q->thrsw_left))
        return 0;
    uint64_t prev_w = q->prev_w, left = budget;
    /* (br1_left only behind br_left) */
    bool busy = one_byte(&q->sfu_left) || one_byte(&q->unif_hazard) || one_byte(&q->br_left);
    uint64_t cut = 0; /* budget given up when an ldtmu's data is not there yet */
    /* compiled blocks (jit.h) start at heads: here, where a branch lands,
     * where a block ended; they run with no delay pipeline moving */
    struct vc4_jit *jit = blocks_jit(v);
    bool head = jit != NULL && shared;
    if (jit && shared)
        vc4_jit_poll(v, jit);
    /* (the JIT's counts, where they go) */
    uint64_t *c_runs = rc ? &rc->runs : jit ? &jit->stats.runs : NULL;
    uint64_t *c_passes = rc ? &rc->loop_passes : jit ? &jit->stats.loop_passes : NULL;
    uint64_t *c_compiled = rc ? &rc->compiled : jit ? &jit->stats.instructions : NULL;
    for (;;) {
        if (VC4_UNLIKELY(jit != NULL) && !busy && (e->jit || (head && !e->jit_none))) {
            struct vc4_jit_block *b = e->jit;
            unsigned o = e->jit_off;
            if (!b) {
                b = vc4_jit_heat(v, e, pc & VC4_BUS_OFFSET_MASK);
                o = 0;
            }
            head = false;
            unsigned m = !b ? 0 : pure ? vc4_jit_span_pure(b, o, left) : vc4_jit_span(b, o, left);
            if (m && (shared ? block_ready(v, b, o, pc, prev_w) : block_ready_quiet(v, b, o, prev_w))) {
                unsigned taken = 0;
                uint64_t ran = m;
                if (b->loop && o == b->loop_at && o + m == b->n && left / m >= 2 && e->jit == b) {
                    /* a loop block (jit.h vc4_jit_loop_fn): its whole
                     * passes back to back, each what one more turn of
                     * this loop would run */
                    uint64_t passes;
                    prev_w = b->loop((unsigned char *)q, left / m, &passes, &taken);
                    ran = passes * m;
                    *c_runs += passes - 1;
                    *c_passes += passes;
                } else {
                    uint64_t w0 = prev_w;
                    uint8_t acc0 = q->prev_acc;
                    struct vc4_jit_io io = jit_io_port(v, q->time + (budget - left));
                    prev_w = b->run((unsigned char *)q, o, o + m, &taken, &io);
                    if (VC4_UNLIKELY(io.stopped)) {
                        /* at an access the fast way cannot make (step()
                         * makes it), or after an ldtmu that stalls; never
                         * inside a branch's slots, so the PC just moves on */
                        *c_runs += io.ran != 0;
                        *c_compiled += io.ran;
                        pc += io.ran * VC4_QPU_INSTR_BYTES;
                        left -= io.ran;
                        if (io.ran == 0) { /* (nothing ran: the previous instruction's) */
                            prev_w = w0;
                            q->prev_acc = acc0;
                        }
                        if (io.stalled) { /* as the interpreted ldtmu's stall below */
                            cut = left;
                            left = 0;
                        }
                        break;
                    }
                }
                ++*c_runs;
                *c_compiled += ran;
                pc = block_next_pc(q, b, o, m, pc, taken);
                left -= ran;
                if (left == 0)
                    break;
                e = cached(v->icache.s, pc, v->code_gen);
                if (VC4_UNLIKELY(!e))
                    break;
                head = shared;
                continue;
            }
        }
        const struct vc4_qpu_xi *xi = &e->xi;
        if (VC4_UNLIKELY(xi->fast == VC4_XI_FAST_NONE || (prev_w & xi->rmask) || (xi->reads_r4 && q->sfu_left)))
            break;
        if (VC4_UNLIKELY(xi->unif)) {
            /* (a VPM or varying read changes its unit: not in a free run's part) */
            if (xi->unif & FAST_UNIT_READS ? pure || !fast_unit_read(v, q, xi->unif, q->time + (budget - left) + 1)
                                           : q->unif_hazard || !fast_uniform_read(v, q, xi->unif))
                break;
        }
        /* (the commonest kind tested first: the switch's table costs more) */
        if (VC4_LIKELY(xi->fast == VC4_XI_FAST_ALU_PLAIN)) {
            prev_w = step_fast_plain(v, q, xi);
        } else switch (xi->fast) {
        case VC4_XI_FAST_ALU:
            prev_w = step_fast_alu(v, q, xi);
            break;
        case VC4_XI_FAST_LDI:
            prev_w = step_fast_ldi(q, xi);
            break;
        case VC4_XI_FAST_ALU_VARY:
            prev_w = step_fast_alu(v, q, xi);
            q->port->post(v, q); /* (r5 = the varying's C) */
            break;
        case VC4_XI_FAST_EXEC:
            q->prev_w = prev_w; /* (exec_alu's read-after-write test reads it: none here) */
            prev_w = step_fast_exec(v, q, e);
            head = jit && shared; /* (not in compiled blocks: the next one is a head) */
            break;
        case VC4_XI_FAST_LDTMU: {
            if (pure)
                goto done;
            uint64_t now = q->time + (budget - left) + 1; /* (this instruction's cycle) */
            if (!ldtmu_fast(v, q, xi, now, &prev_w))
                goto done;
            if (q->stall_until > now) {
                /* the next instruction waits: this one is the last (the
                 * budget cut to it, and no test per instruction) */
                cut = left - 1;
                left = 1;
            }
            break;
        }
        case VC4_XI_FAST_TMU_S:
        case VC4_XI_FAST_VPM_W:
        case VC4_XI_FAST_VPM_SETUP:
        case VC4_XI_FAST_VPM_RD_SETUP:
            if (pure || !io_write_fast(v, q, xi, q->time + (budget - left) + 1))
                goto done;
            prev_w = 0;
            break;
        case VC4_XI_FAST_SFU: /* (the QPU's own: in free runs too) */
            if (!io_write_fast(v, q, xi, q->time + (budget - left) + 1))
                goto done;
            prev_w = 0;
            busy = true;
            break;
        case VC4_XI_FAST_BRANCH:
            if (q->br_left > 1)
                goto done; /* the branch-spacing rule */
            if (branch_taken(q, e->in.cond_br)) {
                branch_queue(q, (e->in.rel ? branch_link(pc) : 0) + e->in.imm);
                busy = true;
            }
            prev_w = 0;
            q->prev_acc = 0;
            break;
        default: /* VC4_XI_FAST_NOP */
            prev_w = 0;
            q->prev_acc = 0;
            break;
        }
        pc += VC4_QPU_INSTR_BYTES;
        if (VC4_UNLIKELY(busy)) {
            uint32_t next = pc;
            busy = issue_pipelines(q, &pc); /* (no thread end or switch is pending) */
            /* a branch landed, or the pipelines drained (an SFU result
             * in r4): where blocks start */
            head |= jit && shared && (pc != next || !busy);
        }
        if (--left == 0)
            break;
        e = cached(v->icache.s, pc, v->code_gen);
        if (VC4_UNLIKELY(!e))
            break;
    }
done:;
    uint64_t n = budget - left - cut;
    if (n) {
        q->pc = pc;
        q->time += n;
        q->instructions += n;
        if (rc)
            rc->instructions += n;
        else
            v->stats.instructions += n;
        q->prev_w = prev_w;
        set_running(q);
    }
    return n;
}

VC4_NOINLINE static uint64_t run_fast(struct vc4_v3d *v, struct vc4_qpu *q, uint64_t budget)
{
    return run_fast_as(v, q, budget, NULL, true);
}

/* run_fast stopping before every TMU and VPM access, its counts into rc:
 * what it runs touches only the QPU's own registers, flags, PC and counts
 * (and reads memory, through uniforms and instruction fetches, which
 * nothing writes while all the awake QPUs run such code: run_free). */
VC4_NOINLINE static uint64_t run_pure(struct vc4_v3d *v, struct vc4_qpu *q, uint64_t budget, struct run_counts *rc)
{
    return run_fast_as(v, q, budget, rc, true);
}
/* ... changing nothing another thread reads (no head counted, no block
 * installed or marked verified: a block not found verified stops it). */
VC4_NOINLINE static uint64_t run_pure_quiet(struct vc4_v3d *v, struct vc4_qpu *q, uint64_t budget,
                                            struct run_counts *rc)
{
    return run_fast_as(v, q, budget, rc, false);
}

/* Is the instruction at the PC a decoded one for the fast path?  (Tested
 * before calling run_fast, which an instruction for the general path would
 * enter and leave for nothing.) */
static inline bool fast_next(const struct vc4_v3d *v, const struct vc4_qpu *q)
{
    const struct vc4_icache_entry *e = cached(v->icache.s, q->pc, v->code_gen);
    return e && e->xi.fast != VC4_XI_FAST_NONE;
}

/* The cycle counters, added once per call rather than every cycle:
 * started cycles count their idle QPUs, completed ones count as cycles. */
static void count_cycles(struct vc4_v3d *v, uint64_t idle, uint64_t started, uint64_t completed)
{
    v->stats.idle_cycles += idle * started;
    v->sched.cycle += completed;
    v->stats.cycles += completed;
}

/* After a step that neither issued nor stalled: an ended program goes to
 * the scheduler, a faulted QPU is marked.  False when the run stops at
 * once (v->fault set). */
static bool step_after(struct vc4_v3d *v, struct vc4_qpu *q, enum vc4_qpu_step r, bool *end)
{
    if (r == VC4_QPU_STEP_ENDED) {
        q->port->program_end(v, q);
        *end = true;
    } else if (v->fault == VC4_OK || v->fault == VC4_ERR_FAULT) {
        q->state = VC4_EMU_QPU_FAULTED;
        v->fault = VC4_ERR_FAULT;
    }
    return v->fault == VC4_OK;
}

/*
 * Several QPUs with waiting ones asleep (the default; v->cycle_by_cycle
 * selects the loop below it, the reference).  A QPU that waits does nothing
 * in a cycle but count it: a stalled one (stall_until: TMU data, VPM read
 * latency, VDR/VDW wait) until a cycle known in advance, one blocked on a
 * semaphore or the mutex until another QPU changes one (struct vc4_sema
 * sema_gen, mutex_gen).  Such a QPU sleeps: it is not stepped, and its time and stall
 * cycles are caught up when it is next visited (or when the call returns),
 * by the cycles it skipped, which is what stepping it would have counted.
 * A blocked QPU's step also fetches its instruction, which matters only
 * when the fetch would decode again (its cache slot was taken by another
 * word, or memory under it was written); after any step that decoded or
 * wrote memory such sleepers are checked and woken if it would.  A change
 * wakes only the sleepers it can let through (wake_blocked).  A woken
 * QPU steps in the same cycle if it comes after the waker (QPU order, as
 * the reference steps them), else in the next.  When all sleep, time jumps
 * to the first wake (or to the budget: a deadlock); when one alone is
 * awake, it runs alone (run_alone) up to the first timed wake or until its
 * step wakes another, as nobody else acts in those cycles.  Stalls shorter
 * than SLEEP_MIN_STALL are stepped, and while nobody has slept for
 * PLAIN_AFTER cycles the cycles run plain (every QPU stepped, watching for
 * one that waits long), which costs least when nobody waits.  Results,
 * counts and diagnostics are those of the reference
 * (tests/unit/test_qpu_sleep.c, test_qpu_fastpath.c).
 */
#define SLEEP_NONE UINT64_MAX /* sleep_from: awake */
#define WAKE_NEVER UINT64_MAX /* wake_at: until a semaphore / mutex change */
#define SLEEP_MIN_STALL 12u   /* shorter stalls are stepped */
#define PLAIN_AFTER 64u       /* cycles without a sleep before the plain loop again */

/* Would fetch() decode the word at pc again (a cache miss that fills)? */
static bool fetch_would_fill(const struct vc4_v3d *v, uint32_t pc)
{
    uint32_t off = pc & VC4_BUS_OFFSET_MASK;
    const struct vc4_icache_entry *e = &v->icache.s[(off >> 3) & (VC4_ICACHE_ENTRIES - 1)].e;
    if (e->addr == off && e->gen == v->code_gen)
        return false;
    if (!vc4_mem_span(&v->mem, pc, VC4_QPU_INSTR_BYTES, &off))
        return true; /* (a fetch fault: step it) */
    return e->addr != off || e->word != load_le64(v->mem.ram + off) || e->gen < v->icache.valid_from;
}

struct sleepers {
    struct vc4_qpu *qs[VC4_V3D_MAX_QPUS];
    uint64_t sleep_from[VC4_V3D_MAX_QPUS]; /* first cycle skipped, or SLEEP_NONE */
    uint64_t wake_at[VC4_V3D_MAX_QPUS];    /* first cycle it steps again, or WAKE_NEVER */
    bool on_mutex[VC4_V3D_MAX_QPUS];       /* WAKE_NEVER: on the mutex (else a semaphore) */
    uint32_t awake;                        /* bit k: qs[k] is stepped */
    uint64_t next_wake;                    /* the earliest timed wake_at */
    uint64_t last_sleep;                   /* the last cycle a QPU went to sleep */
    unsigned n;
};

/* Count the cycles qs[k] skipped up to cycle c (not included). */
static void catch_up(struct vc4_v3d *v, struct sleepers *z, unsigned k, uint64_t c)
{
    if (z->sleep_from[k] == SLEEP_NONE)
        return;
    uint64_t d = c - z->sleep_from[k];
    z->qs[k]->time += d;
    v->stats.stall_cycles += d;
    z->sleep_from[k] = SLEEP_NONE;
}

static void wake(struct sleepers *z, unsigned k) { z->awake |= 1u << k; }

/* Wake the QPUs whose timed wait ends by cycle c; recompute next_wake. */
static void wake_timed(struct sleepers *z, uint64_t c)
{
    z->next_wake = WAKE_NEVER;
    for (unsigned k = 0; k < z->n; k++) {
        if (z->awake & (1u << k) || z->wake_at[k] == WAKE_NEVER)
            continue;
        if (z->wake_at[k] <= c)
            wake(z, k);
        else if (z->wake_at[k] < z->next_wake)
            z->next_wake = z->wake_at[k];
    }
}

/* After qs[k] stepped in cycle c: put it to sleep if it waits. */
static void maybe_sleep(struct vc4_v3d *v, struct sleepers *z, unsigned k, uint64_t c, enum vc4_qpu_step r,
                        uint64_t budget)
{
    struct vc4_qpu *q = z->qs[k];
    uint64_t wake_at;
    if (q->stall_until > q->time) {
        /* stalled for the next stall_until - time cycles (step(): time++, then the test) */
        uint64_t left = q->stall_until - q->time;
        if (left < SLEEP_MIN_STALL)
            return; /* (stepping a few stalled cycles costs less than a sleep and a wake) */
        wake_at = left >= budget - c ? WAKE_NEVER - 1 : c + 1 + left; /* (past the budget: never) */
    } else if (r == VC4_QPU_STEP_BLOCKED && q->state == VC4_EMU_QPU_BLOCKED) {
        const struct vc4_icache_entry *e = cached(v->icache.s, q->pc, v->code_gen);
        if (!e || (e->xi.block != VC4_XI_BLOCK_SEMA && e->xi.block != VC4_XI_BLOCK_MUTEX))
            return; /* the scoreboard: the owner's state, stepped */
        wake_at = WAKE_NEVER;
        z->on_mutex[k] = e->xi.block == VC4_XI_BLOCK_MUTEX;
    } else {
        return;
    }
    if (wake_at == c + 1)
        return;
    z->awake &= ~(1u << k);
    z->sleep_from[k] = c + 1;
    z->wake_at[k] = wake_at;
    z->last_sleep = c;
    if (wake_at != WAKE_NEVER && wake_at < z->next_wake)
        z->next_wake = wake_at;
}

/* Would qs[k], asleep on a semaphore, get through it now? */
static bool sema_would_pass(const struct vc4_v3d *v, const struct sleepers *z, unsigned k)
{
    const struct vc4_icache_entry *e = cached(v->icache.s, z->qs[k]->pc, v->code_gen);
    if (!e || e->xi.block != VC4_XI_BLOCK_SEMA)
        return true; /* (its instruction changed: it steps to find out) */
    return vc4_sema_ready(&v->sema, sema_num(&e->in), sema_acquire(&e->in));
}

/*
 * Something a blocked QPU waits on may have changed in qs[from]'s step:
 * wake the QPUs blocked on a semaphore that would now get through it (the
 * others would only fail again), the first QPU blocked on the mutex in
 * step order after qs[from] when the mutex was released (the others would
 * find it taken, by that one or by an awake QPU before it), and those
 * whose fetch would now decode when code changed.  A woken QPU that finds
 * its way taken after all sleeps again; a later release wakes the next.
 */
static void wake_blocked(const struct vc4_v3d *v, struct sleepers *z, unsigned from, bool sema, bool mutex,
                         bool code)
{
    bool mutex_woken = false;
    for (unsigned i = 1; i <= z->n; i++) {
        unsigned k = from + i < z->n ? from + i : from + i - z->n; /* (no division: a profile showed it) */
        if ((z->awake & (1u << k)) || z->wake_at[k] != WAKE_NEVER)
            continue;
        bool go = code && fetch_would_fill(v, z->qs[k]->pc);
        if (z->on_mutex[k] && mutex && !mutex_woken)
            go = mutex_woken = true;
        else if (!z->on_mutex[k] && sema)
            go |= sema_would_pass(v, z, k);
        if (go)
            wake(z, k);
    }
}

/* A look (run_blocks, run_epoch) that did not pay is repeated after 1, 2,
 * 4 ... RETRY_MAX cycles: the later, the longer it has not paid. */
#define RETRY_MAX 64u
struct retry {
    uint64_t from, gap; /* the next cycle to look; the gap after that if it fails */
};
static inline void retry_paid(struct retry *r) { r->gap = 1; }
static inline void retry_later(struct retry *r, uint64_t c)
{
    r->from = c + r->gap;
    if (r->gap < RETRY_MAX)
        r->gap *= 2;
}

/* After qs[k] stepped (only while compiled blocks may run): a QPU at a
 * head (qpu.h jit_head) counts it towards compiling its block. */
static inline void track_head(struct vc4_v3d *v, struct vc4_qpu *q)
{
    if (VC4_LIKELY(!q->jit_head))
        return;
    q->jit_head = false;
    vc4_jit_poll(v, v->jit);
    struct vc4_icache_entry *h = cached(v->icache.s, q->pc, v->code_gen);
    if (h && !h->jit && !h->jit_none && h->xi.fast != VC4_XI_FAST_NONE)
        vc4_jit_heat(v, h, q->pc & VC4_BUS_OFFSET_MASK);
}

/*
 * Free runs: the awake QPUs' next cycles, each QPU's on its own, through
 * run_pure (compiled blocks and their loops, and the fast path between
 * them), when all of them run such code.  What run_pure runs touches only
 * the QPU's own registers, flags, PC and counts; it reads memory
 * (uniforms, instruction words) that nothing writes while every awake QPU
 * runs it, decodes nothing (a word not in the instruction cache stops it)
 * and reports nothing (an instruction a rule may apply to stops it).  So
 * in those cycles no QPU can see what another does, and running each
 * QPU's cycles after another's, or at the same time on two host threads,
 * is the lock-step.  How far all of them get is known only by running
 * them: each runs as far as it can (at most as far as those before it on
 * its thread got), and the ones that got further than the last are taken
 * back (their state as the run found it: v->free_from) and run again to
 * where all can be.  With a second host thread, the later half of the
 * QPUs run there (run_pure_quiet on both threads: nothing another thread
 * reads changes; the runs taken back run again here).  The counts of a
 * run go to the statistics only when it is kept.  Returns the cycles run
 * (0: not now, every QPU as it was).
 */
#define FREE_RUN_MAX 4096u /* cycles at most (a run taken back costs up to this) */

struct free_part {            /* QPUs [from, to) of a free run, on one thread */
    struct vc4_v3d *v;
    struct vc4_qpu **qs;
    unsigned from, to;
    uint64_t lim;             /* in: the most cycles; out: the fewest any ran */
    uint64_t *ran;
    struct run_counts *rc;
    bool shared;              /* run_pure (on the emulator's thread alone), else run_pure_quiet */
};

/* The awake QPUs' indices in z, in QPU order, into ks, each caught up to
 * cycle c (a run of several starts there); returns how many. */
static unsigned awake_caught_up(struct vc4_v3d *v, struct sleepers *z, uint64_t c, unsigned *ks)
{
    unsigned n = 0;
    for (unsigned k = 0; k < z->n; k++) {
        if (!(z->awake & (1u << k)))
            continue;
        catch_up(v, z, k, c);
        ks[n++] = k;
    }
    return n;
}

/* Does the helper take QPUs [split, n) of a run of at most `cycles`
 * cycles each (enough of them: par.h VC4_PAR_MIN_HELPER_INSTRUCTIONS)? */
static bool helper_takes(struct vc4_v3d *v, unsigned split, unsigned n, uint64_t cycles)
{
    return v->par && split > 0 && split < n && (uint64_t)(n - split) * cycles >= v->par_min &&
           vc4_par_awake(v->par);
}

static void free_part_run(void *arg)
{
    struct free_part *p = arg;
    for (unsigned i = p->from; i < p->to; i++) {
        p->rc[i] = (struct run_counts){0};
        p->ran[i] = !p->lim     ? 0
                    : p->shared ? run_pure(p->v, p->qs[i], p->lim, &p->rc[i])
                                : run_pure_quiet(p->v, p->qs[i], p->lim, &p->rc[i]);
        if (p->ran[i] < p->lim)
            p->lim = p->ran[i];
    }
}

/* A QPU as its free run found it. */
static void free_take_back(struct vc4_v3d *v, struct vc4_qpu *q)
{
    memcpy(q, &v->free_from[q->num], sizeof *q);
    v->free_taken_back++;
}

static uint64_t run_free(struct vc4_v3d *v, struct sleepers *z, uint64_t c, uint64_t most)
{
    struct vc4_qpu *qs[VC4_V3D_MAX_QPUS];
    uint64_t ran[VC4_V3D_MAX_QPUS];
    struct run_counts rc[VC4_V3D_MAX_QPUS];
    unsigned ks[VC4_V3D_MAX_QPUS];
    unsigned n = awake_caught_up(v, z, c, ks);
    for (unsigned i = 0; i < n; i++) {
        qs[i] = z->qs[ks[i]];
        memcpy(&v->free_from[qs[i]->num], qs[i], sizeof *qs[i]);
    }
    uint64_t lim = most < FREE_RUN_MAX ? most : FREE_RUN_MAX;
    unsigned split = n / 2; /* (the helper's part: from split on) */
    bool two = helper_takes(v, split, n, lim);
    if (two) {
        struct free_part mine = {v, qs, 0, split, lim, ran, rc, false};
        struct free_part theirs = {v, qs, split, n, lim, ran, rc, false};
        uint64_t job = vc4_par_post(v->par, free_part_run, &theirs);
        free_part_run(&mine);
        vc4_par_wait(v->par, job);
        lim = mine.lim < theirs.lim ? mine.lim : theirs.lim;
    } else {
        struct free_part all = {v, qs, 0, n, lim, ran, rc, true};
        free_part_run(&all);
        lim = all.lim;
    }
    /* the ones that got further, again to lim (which a shorter run, one
     * that stops before a branch rather than in its slots, may lower) */
    bool helped[VC4_V3D_MAX_QPUS];
    for (unsigned i = 0; i < n; i++)
        helped[i] = two && i >= split;
    for (bool again = true; again && lim > 0;) {
        again = false;
        for (unsigned i = 0; i < n; i++) {
            if (ran[i] == lim)
                continue;
            free_take_back(v, qs[i]);
            helped[i] = false;
            rc[i] = (struct run_counts){0};
            ran[i] = run_pure(v, qs[i], lim, &rc[i]);
            if (ran[i] < lim) {
                lim = ran[i];
                again = true;
            }
        }
    }
    if (lim == 0) { /* (some QPU could not run at all: every one as it was) */
        for (unsigned i = 0; i < n; i++)
            if (ran[i] != 0)
                free_take_back(v, qs[i]);
        return 0;
    }
    struct vc4_jit *j = v->jit;
    for (unsigned i = 0; i < n; i++) {
        v->stats.instructions += rc[i].instructions;
        j->stats.runs += rc[i].runs;
        j->stats.loop_passes += rc[i].loop_passes;
        j->stats.instructions += rc[i].compiled;
        if (helped[i])
            j->stats.helper += rc[i].compiled;
    }
    j->stats.free_runs++;
    return lim;
}

/*
 * A free run every QPU is known to finish: each runs the next m
 * instructions of its block bs[k] from os[k] (run_blocks: each holds them,
 * before any access, not splitting a branch from its slots), the block
 * called directly, the later half on the helper when there is enough;
 * then the PCs, clocks, counts and heads here, in QPU order.  Nothing is
 * copied or taken back.
 */
struct exact_part {
    struct vc4_qpu **qs;
    struct vc4_jit_block **bs;
    const uint8_t *os;
    unsigned from, to, m;
    uint64_t *w;
    unsigned *taken;
};

static void exact_part_run(void *arg)
{
    const struct exact_part *p = arg;
    for (unsigned i = p->from; i < p->to; i++)
        p->w[i] = p->bs[i]->run((unsigned char *)p->qs[i], p->os[i], p->os[i] + p->m, &p->taken[i], NULL);
}

static uint64_t run_exact(struct vc4_v3d *v, struct sleepers *z, uint64_t c, struct vc4_jit_block *const *bk,
                          const uint8_t *ok, unsigned m)
{
    struct vc4_qpu *qs[VC4_V3D_MAX_QPUS];
    struct vc4_jit_block *bs[VC4_V3D_MAX_QPUS];
    uint8_t os[VC4_V3D_MAX_QPUS];
    uint64_t w[VC4_V3D_MAX_QPUS];
    unsigned taken[VC4_V3D_MAX_QPUS] = {0};
    unsigned ks[VC4_V3D_MAX_QPUS];
    unsigned n = awake_caught_up(v, z, c, ks);
    for (unsigned i = 0; i < n; i++) {
        qs[i] = z->qs[ks[i]];
        bs[i] = bk[ks[i]];
        os[i] = ok[ks[i]];
    }
    unsigned split = n / 2; /* (the helper's part: from split on) */
    bool two = helper_takes(v, split, n, m);
    struct exact_part theirs = {qs, bs, os, split, n, m, w, taken};
    uint64_t job = two ? vc4_par_post(v->par, exact_part_run, &theirs) : 0;
    exact_part_run(&(struct exact_part){qs, bs, os, 0, two ? split : n, m, w, taken});
    if (two)
        vc4_par_wait(v->par, job);
    struct vc4_jit *j = v->jit;
    for (unsigned i = 0; i < n; i++) {
        struct vc4_qpu *q = qs[i];
        q->prev_w = w[i];
        q->pc = block_next_pc(q, bs[i], os[i], m, q->pc, taken[i]);
        q->time += m;
        q->instructions += m;
        v->stats.instructions += m;
        set_running(q);
        j->stats.runs++;
        j->stats.instructions += m;
        if (two && i >= split)
            j->stats.helper += m;
        if (os[i] + m == bs[i]->n) { /* the block ended: a head */
            q->jit_head = true;
            track_head(v, q);
        }
    }
    return m;
}

/*
 * Several awake QPUs in compiled code (jit.h): when every one is inside a
 * ready compiled block, with no delay pipeline moving and no stall, and
 * has at least two instructions before its block's first TMU or VPM
 * access (jit.h vc4_jit_span_pure), they run on their own.  Each block
 * holds m of those instructions at least (m the fewest, not splitting a
 * branch from its slots), so every QPU gets m cycles far for certain:
 * run_exact runs them, copying and taking back nothing.  Further, up to
 * the first timed wake or the budget, only a free run (run_free) finds out
 * how far all get; it is tried when the last ones paid (went
 * FREE_SPEC_GAIN cycles or more), else only every 2nd, 4th ... 256th
 * time: in a loop where some QPU leaves compiled code every few
 * instructions (an SFU access, say) the copies and the runs taken back
 * would cost more than they save.  Returns the cycles run (0: not now).
 */
#define FREE_SPEC_GAIN 64u
#define FREE_SPEC_BACKOFF_MAX 256u
static uint64_t run_blocks(struct vc4_v3d *v, struct sleepers *z, uint64_t c, uint64_t max_cycles)
{
    struct vc4_jit_block *bs[VC4_V3D_MAX_QPUS];
    uint8_t os[VC4_V3D_MAX_QPUS];
    uint64_t most = (z->next_wake < max_cycles ? z->next_wake : max_cycles) - c;
    uint64_t m = most;
    for (unsigned k = 0; k < z->n; k++) {
        if (!(z->awake & (1u << k)))
            continue;
        struct vc4_qpu *q = z->qs[k];
        struct vc4_icache_entry *e = cached(v->icache.s, q->pc, v->code_gen);
        if (!e || !e->jit || q->pending || q->stall_until > q->time || q->general_only || q->step_only ||
            !block_ready(v, e->jit, e->jit_off, q->pc, q->prev_w))
            return 0;
        bs[k] = e->jit;
        os[k] = e->jit_off;
        if (e->jit->n - e->jit_off < m)
            m = e->jit->n - e->jit_off;
    }
    /* (a run stops before a block's branch or after its slots) */
    for (bool again = true; again && m >= 2;) {
        again = false;
        for (unsigned k = 0; k < z->n; k++) {
            if (!(z->awake & (1u << k)))
                continue;
            unsigned span = vc4_jit_span_pure(bs[k], os[k], m);
            if (span < m) {
                m = span;
                again = true;
            }
        }
    }
    if (m < 2)
        return 0;
    if (most <= m || v->free_skip) {
        if (v->free_skip)
            v->free_skip--;
        return run_exact(v, z, c, bs, os, (unsigned)m);
    }
    uint64_t ran = run_free(v, z, c, most);
    if (ran >= m + FREE_SPEC_GAIN) {
        v->free_backoff = 0;
    } else {
        unsigned b = v->free_backoff ? v->free_backoff : 1;
        v->free_skip = b;
        v->free_backoff = b < FREE_SPEC_BACKOFF_MAX ? 2 * b : b;
    }
    return ran;
}

/*
 * Runs on disjoint units ("epochs").  Several awake QPUs whose next
 * instructions touch units no other of them touches run one after another,
 * each on its own clock, as far as all of them certainly can: what each
 * does commutes with what the others do in those cycles, so the order the
 * host runs them in is not seen.  GPU_FFT's pattern is the case it is
 * for: the QPU that has the mutex writes its rows to the VPM while the one
 * that let the mutex go starts its next butterflies with TMU lookups (in
 * bench_fft 4096, 11,500 of the 15,400 lock-stepped steps of a transform
 * were two such QPUs side by side).
 *
 * A QPU takes part with its span (epoch_span): the straight-line run of
 * fast-path instructions from its PC (to the end of a branch's delay
 * slots), each in the instruction cache, that touch one unit class at
 * most: the TMU (lookups, ldtmu; with uniform reads), the VPM (row writes,
 * setups), or neither.  An epoch of m cycles needs m <= every span, at
 * most one QPU on the TMU, at most one on the VPM.  Why that is exact:
 *  - TMU lookups change the slice's cache tags and the QPU's own FIFOs and
 *    read RAM; VPM row writes and setups change the VPM; nothing in a span
 *    writes RAM (VDW stores are vw_addr writes, the general path), so
 *    lookups and uniform reads see the same bytes in any order;
 *  - the fast path reports nothing; an instruction it cannot run stops
 *    that QPU's run (run_fast) and runs later, at its own cycle, by step();
 *  - only the TMU QPU's later step could stop the run (a lookup outside
 *    RAM, an empty FIFO, a uniform outside memory are errors): it runs
 *    first, and the others run no further than it got, so when it steps
 *    again nobody is ahead of it.  The others' steps inside their spans
 *    (a VPM access or an ALU instruction the fast path gave up on) report
 *    warnings at most, never stop (not in strict mode, where warnings are
 *    errors: no epochs there), and touch only their own unit;
 *  - nobody else acts before the epoch's end: the sleepers' timed wakes
 *    are after it, and only general-path steps (semaphores, the mutex, a
 *    thread end, DMA, a decode) wake the others or change code, and spans
 *    hold none.
 * A QPU that got further than the slowest sleeps until its own cycle (its
 * clock already there: woken by wake_timed, with nothing to catch up),
 * and the slowest go on stepping inside their spans meanwhile.  User
 * programs only (shaders' VPM and TLB traffic goes through their
 * owners' ports).  Returns true when any QPU ran; *ran: how far all did
 * (the cycles the loop moves on).
 */
#define EPOCH_MIN 3u   /* cycles at least (fewer cost more than lock-step) */
#define EPOCH_MAX 256u /* the longest span looked at */
#define SPAN_NONE UINT16_MAX
enum { SPAN_TMU = 1u, SPAN_VPM = 2u };

/* The span from entry e at pc (see above), worked out once per entry and
 * kept there (qpu.h span_*) until a decode or a change of code. */
static void epoch_span(struct vc4_v3d *v, struct vc4_icache_entry *e, uint32_t pc)
{
    if (VC4_LIKELY(code_unchanged(v, e->span_at)))
        return;
    unsigned n = 0, u = 0, end = EPOCH_MAX, io_at = SPAN_NONE, stops_at = SPAN_NONE;
    for (; n < end; n++, pc += VC4_QPU_INSTR_BYTES) {
        const struct vc4_icache_entry *f = cached(v->icache.s, pc, v->code_gen);
        if (!f)
            break;
        const struct vc4_qpu_xi *xi = &f->xi;
        unsigned k = 0;
        bool stops = (xi->unif & VC4_XI_IO_UNIF) != 0; /* (a uniform outside memory: an error) */
        switch (xi->fast) {
        case VC4_XI_FAST_ALU_PLAIN: case VC4_XI_FAST_ALU: case VC4_XI_FAST_LDI: case VC4_XI_FAST_EXEC:
        case VC4_XI_FAST_NOP: case VC4_XI_FAST_SFU: /* (an SFU write: the QPU's own; with one in
                                                     * flight the r4 rule, a warning) */
            break;
        case VC4_XI_FAST_BRANCH: /* (where it lands is not looked at) */
            if (n + 1 + VC4_QPU_BRANCH_SLOTS < end)
                end = n + 1 + VC4_QPU_BRANCH_SLOTS;
            break;
        case VC4_XI_FAST_TMU_S: case VC4_XI_FAST_LDTMU: /* (a lookup outside RAM, an empty FIFO: errors) */
            k = SPAN_TMU;
            stops = true;
            break;
        case VC4_XI_FAST_VPM_W: case VC4_XI_FAST_VPM_SETUP: case VC4_XI_FAST_VPM_RD_SETUP:
            k = SPAN_VPM;
            break;
        default: /* the general path, varyings */
            goto out;
        }
        if (xi->unif & (VC4_XI_IO_VPM | VC4_XI_IO_VARY))
            break;
        if (k && u && k != u)
            break; /* (one unit class a span) */
        if (k && !u) {
            u = k;
            io_at = n;
        }
        if (stops && stops_at == SPAN_NONE)
            stops_at = n;
    }
out:
    e->span_at = code_stamp(v);
    e->span_n = (uint16_t)n;
    e->span_units = (uint8_t)u;
    e->span_io_at = (uint16_t)(io_at == SPAN_NONE ? n : io_at);
    e->span_stops_at = (uint16_t)(stops_at == SPAN_NONE ? n : stops_at);
}

/* A list's two smallest, kept as it is read (*lo <= *lo2): true when x
 * is the new smallest. */
static bool two_smallest(unsigned x, unsigned *lo, unsigned *lo2)
{
    if (x < *lo) {
        *lo2 = *lo;
        *lo = x;
        return true;
    }
    if (x < *lo2)
        *lo2 = x;
    return false;
}

static bool run_epoch(struct vc4_v3d *v, struct sleepers *z, uint64_t c, uint64_t max_cycles, uint64_t *ran)
{
    uint64_t most = (z->next_wake < max_cycles ? z->next_wake : max_cycles) - c;
    unsigned m = most < EPOCH_MAX ? (unsigned)most : EPOCH_MAX;
    unsigned ks[VC4_V3D_MAX_QPUS];
    unsigned n = awake_caught_up(v, z, c, ks); /* (what stepping cycle c does first, too) */
    /* m: within every span, before the second QPU's first instruction that
     * could stop the run and the second QPU's first VPM access */
    unsigned s_lo = EPOCH_MAX, s_lo2 = EPOCH_MAX, v_lo = EPOCH_MAX, v_lo2 = EPOCH_MAX, first = n;
    for (unsigned i = 0; i < n; i++) {
        struct vc4_qpu *q = z->qs[ks[i]];
        struct vc4_icache_entry *e = cached(v->icache.s, q->pc, v->code_gen);
        if (!e || !q->user || q->pending || q->general_only || q->step_only || q->stall_until > q->time)
            return false;
        epoch_span(v, e, q->pc);
        if (e->span_n < m)
            m = e->span_n;
        if (m < EPOCH_MIN)
            return false;
        if (two_smallest(e->span_stops_at, &s_lo, &s_lo2))
            first = i;
        if (e->span_units == SPAN_VPM)
            two_smallest(e->span_io_at, &v_lo, &v_lo2);
    }
    m = s_lo2 < m ? s_lo2 : m;
    m = v_lo2 < m ? v_lo2 : m;
    if (m < EPOCH_MIN)
        return false;
    /* the QPU with an instruction that could stop the run inside the epoch
     * (m is at most the second smallest: at most the smallest's) runs
     * first, the others no further than it got */
    if (s_lo >= m)
        first = n;
    uint64_t got[VC4_V3D_MAX_QPUS], bound = m, i0 = v->stats.instructions;
    if (first < n)
        bound = got[first] = run_fast(v, z->qs[ks[first]], m);
    uint64_t lo = bound;
    for (unsigned i = 0; i < n; i++) {
        if (i != first)
            got[i] = bound ? run_fast(v, z->qs[ks[i]], bound) : 0;
        if (got[i] < lo)
            lo = got[i];
    }
    v->ran_side_by_side += v->stats.instructions - i0;
    if (v->stats.instructions == i0)
        return false;
    /* the ones that got further sleep until their own cycle */
    for (unsigned i = 0; i < n; i++) {
        if (got[i] == lo)
            continue;
        unsigned k = ks[i];
        z->awake &= ~(1u << k);
        z->wake_at[k] = c + got[i];
        if (z->wake_at[k] < z->next_wake)
            z->next_wake = z->wake_at[k];
        z->last_sleep = c;
    }
    *ran = lo;
    return true;
}

/*
 * Cycle c's steps of the awake QPUs from index k0 on, in order, z->awake
 * read again after each (one woken by an earlier one steps in this cycle).
 * False when the run stops in this cycle (v->fault set): the sleepers are
 * then caught up (those before the stopper had the cycle counted).
 */
static bool awake_from(struct vc4_v3d *v, struct sleepers *z, unsigned k0, uint64_t c, uint64_t max_cycles,
                       bool blocks, bool *end)
{
    /* (what a step may change, read again only after a step that went
     * the general way or decoded: v3d.h slow_steps) */
    uint32_t sgen = v->sema.sema_gen, mgen = v->sema.mutex_gen;
    uint64_t cgen = v->code_gen, dec = v->stats.decodes;
    for (unsigned k = k0; (z->awake >> k) != 0; k++) {
        k += (unsigned)__builtin_ctz(z->awake >> k);
        struct vc4_qpu *q = z->qs[k];
        catch_up(v, z, k, c);
        uint32_t slow = v->slow_steps;
        enum vc4_qpu_step r = step(v, q);
        if (blocks)
            track_head(v, q);
        if (VC4_UNLIKELY(r > VC4_QPU_STEP_BLOCKED)) {
            if (!step_after(v, q, r, end)) {
                for (unsigned j = 0; j < z->n; j++)
                    catch_up(v, z, j, c + (j < k));
                return false;
            }
            if (*end)
                z->awake = (uint32_t)((1u << z->n) - 1); /* the owner may have started anything */
        } else {
            maybe_sleep(v, z, k, c, r, max_cycles);
        }
        if (VC4_LIKELY(v->slow_steps == slow && r <= VC4_QPU_STEP_BLOCKED))
            continue;
        bool sema = v->sema.sema_gen != sgen, mutex = v->sema.mutex_gen != mgen;
        bool code = v->code_gen != cgen || v->stats.decodes != dec;
        if (VC4_UNLIKELY(sema || mutex || code)) {
            wake_blocked(v, z, k, sema, mutex, code);
            sgen = v->sema.sema_gen;
            mgen = v->sema.mutex_gen;
            cgen = v->code_gen;
            dec = v->stats.decodes;
        }
    }
    return true;
}

/* A stalled QPU's cycles, at most `most`, at once, counted as step()
 * counts them (nobody else runs in them); returns the cycles skipped. */
static uint64_t skip_stall(struct vc4_v3d *v, struct vc4_qpu *q, uint64_t most)
{
    uint64_t d = q->stall_until - q->time;
    if (d > most)
        d = most;
    q->time += d;
    v->stats.stall_cycles += d;
    return d;
}

/*
 * One QPU awake, the others asleep: its cycles back to back from cycle c,
 * up to the first timed wake or the budget, while it stays the only one
 * awake.  Its fast-path stretches run in run_fast; a short stall is
 * skipped at once (stepping it would only count the cycles: nobody else
 * runs in them); its other instructions step in awake_from, which also
 * steps, in the same cycle, a later QPU its step wakes.  Returns the next
 * cycle to run; *stop when the run stopped in the returned cycle (v->fault
 * set).
 */
static uint64_t run_alone(struct vc4_v3d *v, struct sleepers *z, uint64_t c, uint64_t max_cycles, bool blocks,
                          bool *end, bool *stop)
{
    unsigned k = (unsigned)__builtin_ctz(z->awake);
    uint32_t alone = z->awake;
    struct vc4_qpu *q = z->qs[k];
    uint64_t lim;
    catch_up(v, z, k, c);
    /* (the first timed wake read again each cycle: a QPU that a step woke
     * may have gone back to sleep in it, with a wake of its own) */
    while (c < (lim = z->next_wake < max_cycles ? z->next_wake : max_cycles) && z->awake == alone && !*end) {
        if (q->stall_until > q->time) {
            c += skip_stall(v, q, lim - c);
            continue;
        }
        if (fast_next(v, q)) {
            c += run_fast(v, q, lim - c);
            if (c >= lim)
                break;
        }
        if (!awake_from(v, z, k, c, max_cycles, blocks, end)) {
            *stop = true;
            return c;
        }
        c++;
    }
    return c;
}

VC4_NOINLINE static uint64_t run_cycles_sleeping(struct vc4_v3d *v, const uint8_t *act, unsigned nact, uint64_t max_cycles,
                                    bool *end, uint64_t idle)
{
    struct sleepers z;
    z.n = nact;
    z.awake = (uint32_t)((1u << nact) - 1);
    z.next_wake = WAKE_NEVER;
    z.last_sleep = 0;
    bool blocks = blocks_jit(v) != NULL;
    struct retry blocks_retry = {0, 1}, epoch_retry = {0, 1};
    bool plain = true; /* nobody asleep, nobody waiting long lately: the reference's cycle */
    for (unsigned k = 0; k < nact; k++) {
        z.qs[k] = &v->qpu[act[k]];
        z.sleep_from[k] = SLEEP_NONE;
        z.wake_at[k] = WAKE_NEVER;
    }
    uint64_t c = 0;
    while (c < max_cycles && !*end) {
        if (c >= z.next_wake)
            wake_timed(&z, c);
        if (z.awake == 0) {
            /* all wait: on to the first timed wake, or to the budget */
            c = z.next_wake < max_cycles ? z.next_wake : max_cycles;
            continue;
        }
        if (blocks && (z.awake & (z.awake - 1)) != 0 && c >= blocks_retry.from) {
            uint64_t i0 = v->stats.instructions;
            uint64_t ran = run_blocks(v, &z, c, max_cycles);
            v->ran_side_by_side += v->stats.instructions - i0;
            if (ran) {
                c += ran;
                retry_paid(&blocks_retry);
                continue;
            }
            retry_later(&blocks_retry, c); /* (not all in blocks; entering mid-block loses nothing) */
        }
        if (!v->strict && (z.awake & (z.awake - 1)) != 0 && c >= epoch_retry.from) {
            uint64_t ran = 0;
            if (run_epoch(v, &z, c, max_cycles, &ran)) {
                c += ran;
                retry_paid(&epoch_retry);
                if (z.awake != (uint32_t)((1u << nact) - 1))
                    plain = false; /* (the plain loop steps every QPU: some sleep now) */
                continue;
            }
            retry_later(&epoch_retry, c);
        }
        if ((z.awake & (z.awake - 1)) == 0) {
            /* one awake: its cycles back to back up to the first timed wake */
            bool stop = false;
            uint64_t i0 = v->stats.instructions;
            c = run_alone(v, &z, c, max_cycles, blocks, end, &stop);
            v->ran_alone += v->stats.instructions - i0;
            if (stop) {
                count_cycles(v, idle, c + 1, c);
                return c;
            }
            continue;
        }
        if (plain) {
            /* every QPU stepped, watching for one that waits long (a sleeper next cycle) */
            bool waits = false;
            for (unsigned k = 0; k < nact; k++) {
                struct vc4_qpu *q = z.qs[k];
                enum vc4_qpu_step r = step(v, q);
                if (blocks)
                    track_head(v, q);
                if (VC4_UNLIKELY(r > VC4_QPU_STEP_BLOCKED)) {
                    if (!step_after(v, q, r, end)) {
                        count_cycles(v, idle, c + 1, c);
                        return c;
                    }
                } else if (VC4_UNLIKELY(q->stall_until >= q->time + SLEEP_MIN_STALL ||
                                        (r == VC4_QPU_STEP_BLOCKED && q->state == VC4_EMU_QPU_BLOCKED))) {
                    waits = true;
                }
            }
            if (waits) {
                plain = false;
                z.last_sleep = c;
            }
            c++;
            continue;
        }
        /* the awake QPUs in order, z.awake read again after each (one woken
         * by an earlier one steps in this cycle) */
        if (!awake_from(v, &z, 0, c, max_cycles, blocks, end)) {
            count_cycles(v, idle, c + 1, c);
            return c;
        }
        c++;
        if (z.awake == (uint32_t)((1u << nact) - 1) && c - z.last_sleep > PLAIN_AFTER) {
            /* all awake a while: the plain loop again once every one is caught up */
            bool caught_up = true;
            for (unsigned k = 0; k < nact; k++)
                caught_up &= z.sleep_from[k] == SLEEP_NONE;
            plain = caught_up;
        }
    }
    /* the cycles the sleepers skipped, up to the last one run */
    for (unsigned k = 0; k < nact; k++)
        catch_up(v, &z, k, c);
    count_cycles(v, idle, c, c);
    return c;
}

/* The QPUs outside act count the cycles too (their clocks run while they
 * idle): every QPU's time stays the device's cycle count, the one time
 * base the shared DMA engines' completion times are in (vpm.c). */
static uint64_t idle_time(struct vc4_v3d *v, const uint8_t *act, unsigned nact, uint64_t c)
{
    uint32_t busy = 0;
    for (unsigned k = 0; k < nact; k++)
        busy |= 1u << act[k];
    for (unsigned i = 0; i < v->num_qpus; i++)
        if (!(busy & (1u << i)))
            v->qpu[i].time += c;
    return c;
}

static uint64_t run_cycles(struct vc4_v3d *v, const uint8_t *act, unsigned nact, uint64_t max_cycles,
                           bool *ended);

/*
 * With the profiler on (prof.h): the cycles in stretches that end at each
 * sample's cycle, where every busy QPU is sampled.  A run stopped at a
 * cycle boundary goes on as it would have (the callers of vc4_emu_run
 * slice runs anyhow), so the QPUs do the same; test_qpu_sleep.c compares.
 */
static uint64_t run_sampled(struct vc4_v3d *v, const uint8_t *act, unsigned nact, uint64_t max_cycles,
                            bool *ended)
{
    struct vc4_prof *p = &v->prof;
    uint64_t c = 0;
    while (c < max_cycles) {
        uint64_t now = v->sched.cycle, span = max_cycles - c;
        while (p->next <= now) /* (a guard: only run_cycles counts cycles, and stops at next) */
            vc4_prof_advance(p);
        if (p->next - now < span)
            span = p->next - now;
        bool end = false;
        uint64_t ran = run_cycles(v, act, nact, span, &end);
        c += ran;
        if (v->sched.cycle >= p->next) {
            for (unsigned k = 0; k < nact; k++) {
                const struct vc4_qpu *q = &v->qpu[act[k]];
                if (q->state == VC4_EMU_QPU_IDLE || q->state == VC4_EMU_QPU_FAULTED)
                    continue;
                uint8_t w[VC4_QPU_INSTR_BYTES];
                vc4_prof_sample(p, v->alloc, q, vc4_mem_read(&v->mem, q->pc, w, sizeof w) ? load_le64(w) : 0);
            }
            vc4_prof_advance(p);
        }
        if (end) {
            *ended = true;
            break;
        }
        if (ran < span || v->fault != VC4_OK)
            break; /* (stopped: a fault, or a strict rule) */
    }
    return c;
}

uint64_t vc4_qpu_run_cycles(struct vc4_v3d *v, const uint8_t *act, unsigned nact, uint64_t max_cycles,
                            bool *ended)
{
    /* (the instructions by the way they ran, vc4_emu_host_stats, counted
     * per call: one busy QPU runs alone; with several, run_cycles_sleeping
     * counts its stretches alone (run_alone) and side by side (run_blocks),
     * and the rest were lock-stepped) */
    uint64_t i0 = v->stats.instructions, a0 = v->ran_alone, s0 = v->ran_side_by_side;
    uint64_t c = VC4_UNLIKELY(v->prof.on) ? run_sampled(v, act, nact, max_cycles, ended)
                                          : run_cycles(v, act, nact, max_cycles, ended);
    uint64_t ran = v->stats.instructions - i0;
    if (nact == 1)
        v->ran_alone += ran;
    else
        v->ran_lockstep += ran - (v->ran_alone - a0) - (v->ran_side_by_side - s0);
    return idle_time(v, act, nact, c);
}

static uint64_t run_cycles(struct vc4_v3d *v, const uint8_t *act, unsigned nact, uint64_t max_cycles,
                           bool *ended)
{
    uint64_t idle = v->num_qpus - nact, c;
    bool end = false;
    if (nact == 1) {
        /* one QPU: its cycles back to back */
        struct vc4_qpu *q = &v->qpu[act[0]];
        for (c = 0; c < max_cycles && !end;) {
            if (q->stall_until > q->time) {
                c += skip_stall(v, q, max_cycles - c);
                continue;
            }
            if (fast_next(v, q)) {
                c += run_fast(v, q, max_cycles - c);
                if (c >= max_cycles)
                    break;
            }
            enum vc4_qpu_step r = step(v, q);
            if (VC4_UNLIKELY(r > VC4_QPU_STEP_BLOCKED) && !step_after(v, q, r, &end)) {
                count_cycles(v, idle, c + 1, c); /* (this cycle is not counted) */
                return c;
            }
            c++;
        }
    } else if (!v->cycle_by_cycle) {
        c = run_cycles_sleeping(v, act, nact, max_cycles, &end, idle);
        if (end)
            *ended = true;
        return c;
    } else {
        /* cycle by cycle, every busy QPU stepped (the reference); the QPUs
         * as pointers (loaded, not recomputed from the index at every
         * access) */
        struct vc4_qpu *qs[VC4_V3D_MAX_QPUS];
        if (nact > VC4_V3D_MAX_QPUS)
            nact = VC4_V3D_MAX_QPUS;
        for (unsigned k = 0; k < nact; k++)
            qs[k] = &v->qpu[act[k]];
        for (c = 0; c < max_cycles && !end; c++) {
            for (unsigned k = 0; k < nact; k++) {
                enum vc4_qpu_step r = step(v, qs[k]);
                if (VC4_UNLIKELY(r > VC4_QPU_STEP_BLOCKED) && !step_after(v, qs[k], r, &end)) {
                    count_cycles(v, idle, c + 1, c);
                    return c;
                }
            }
        }
    }
    count_cycles(v, idle, c, c);
    if (end)
        *ended = true;
    return c;
}
