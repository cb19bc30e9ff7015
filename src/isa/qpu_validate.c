/*
 * qpu_validate.c - the static QPU program validator: every instruction
 * restriction the seed posts and the reference facts state.  Each rule's id,
 * summary, source and severity are a row of the registry (src/spec/rules.c);
 * its scope is a row of rule_scope[] below.
 *
 * Sources and severities: see src/spec/rules.c.
 *
 * How the program is walked: every word is decoded once (vc4_qpu_decode)
 * into an array; one linear pass keeps the state windowed rules need (last
 * SFU write, last TMU_NOSWAP write, VPM read setup, TMU FIFO contents,
 * scoreboard, thread switches).  Control flow is treated as straight-line
 * code, plus "branch target awareness": for every branch whose target is
 * known statically (relative or absolute, not through a register) and lies
 * inside the program, the one-instruction hazards (regfile read-after-write,
 * rotation after an accumulator / r5 write) are also checked between the
 * branch's last delay slot and the target, the pair that executes back to
 * back when the branch is taken.  Windowed and FIFO state is not propagated
 * along branch edges (a loop body is seen once).
 *
 * The library does not print: every finding goes to the caller's sink.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "spec/qpu_spec.h"
#include "spec/rules.h"
#include "isa/qpu_kernel.h"

/* ---- the rule table ---------------------------------------------------- */

/* The validator's rules are the registry's first VC4_RULE_QPU_STATIC_COUNT
 * (src/spec/rules.c: id, severity, summary, source); R_ names them here. */
enum rule_id {
    /* encoding */
    R_RESERVED_OP_ADD = VC4_RULE_RESERVED_OP_ADD,
    R_RESERVED_PACK = VC4_RULE_RESERVED_PACK,
    R_RESERVED_LDI_MODE = VC4_RULE_RESERVED_LDI_MODE,
    R_RESERVED_BRANCH_COND = VC4_RULE_RESERVED_BRANCH_COND,
    R_READ_UNDEFINED = VC4_RULE_READ_UNDEFINED_REG,
    /* program end */
    R_NO_THREND = VC4_RULE_NO_THREND,
    R_THREND_DELAY_SLOTS = VC4_RULE_THREND_DELAY_SLOTS,
    R_THREND_REGFILE_WRITE = VC4_RULE_THREND_REGFILE_WRITE,
    R_THREND_SB_WAIT = VC4_RULE_THREND_SB_WAIT,
    R_THREND_DELAY_IO = VC4_RULE_THREND_DELAY_IO,
    R_THREND_REG14 = VC4_RULE_THREND_REG14,
    R_LAST_TLB_Z = VC4_RULE_LAST_TLB_Z,
    R_THREND_BRANCH = VC4_RULE_THREND_BRANCH,
    /* fragment shaders */
    R_FS_SB_WAIT_FIRST_TWO = VC4_RULE_FS_SCOREBOARD_FIRST_TWO,
    R_FS_VPM_ACCESS = VC4_RULE_FS_VPM_ACCESS,
    R_THREADED_UPPER_REGS = VC4_RULE_THREADED_UPPER_REGS,
    /* register hazards */
    R_REGFILE_RAW = VC4_RULE_REGFILE_READ_AFTER_WRITE,
    R_SFU_R4_READ = VC4_RULE_SFU_R4_EARLY,
    R_SFU_R4_CONFLICT = VC4_RULE_SFU_R4_CONFLICT,
    R_ROT_QUAD_ONLY = VC4_RULE_ROT_QUAD_ONLY,
    R_ROT_R5_AFTER_WRITE = VC4_RULE_ROT_R5_AFTER_WRITE,
    R_ROT_ACC_AFTER_WRITE = VC4_RULE_ROT_ACC_AFTER_WRITE,
    R_DUAL_WRITE_INVERSE = VC4_RULE_DUAL_WRITE_INVERSE,
    /* peripherals */
    R_ONE_PERIPHERAL = VC4_RULE_ONE_PERIPHERAL,
    R_PERIPH_COND_WRITE = VC4_RULE_PERIPH_COND_WRITE,
    R_UNIF_AFTER_UNIF_ADDR = VC4_RULE_UNIF_AFTER_UNIF_ADDR,
    R_TMU_NOSWAP_LATE = VC4_RULE_TMU_NOSWAP_LATE,
    R_TMU_FIFO_OVERFLOW = VC4_RULE_TMU_FIFO_OVERFLOW,
    R_TMU_FIFO_DEEP = VC4_RULE_TMU_FIFO_DEEP,
    R_TLB_Z_MS_FLAGS = VC4_RULE_TLBZ_MS_FLAGS,
    R_HOST_INT_ZERO = VC4_RULE_HOST_INT_ZERO,
    /* branches */
    R_BRANCH_SPACING = VC4_RULE_BRANCH_SPACING,
    /* thread switches */
    R_THRSW_SB_LOCKED = VC4_RULE_THRSW_SB_LOCKED,
    R_THRSW_AFTER_LTHRSW = VC4_RULE_THRSW_AFTER_LTHRSW,
    R_THRSW_SPACING = VC4_RULE_THRSW_SPACING,
    R_THRSW_TMU_PENDING = VC4_RULE_THRSW_TMU_PENDING,
    /* VPM */
    R_VPM_READ_TOO_EARLY = VC4_RULE_VPM_READ_TOO_EARLY,
    R_VPM_SETUP_OUTSTANDING = VC4_RULE_VPM_SETUP_OUTSTANDING,
    R_VPM_READ_OVERRUN = VC4_RULE_VPM_READ_OVERRUN,
    R_VPM_READ_UNCONSUMED = VC4_RULE_VPM_READ_UNCONSUMED,
    R_VPM_CONCURRENT = VC4_RULE_VPM_CONCURRENT,
    /* pack */
    R_PACK_MUL_IO = VC4_RULE_PACK_MUL_IO,
    R_PACK_A_TARGET = VC4_RULE_PACK_A_TARGET,
    R_PACK_32S_OP = VC4_RULE_PACK_32S_OP,
    R_COUNT = VC4_RULE_QPU_STATIC_COUNT
};
static_assert(R_PACK_32S_OP + 1 == R_COUNT, "the validator names every static rule");

static_assert(R_COUNT <= 64, "rules fit the per-instruction dedup mask");

/* Where a rule applies. */
enum rule_scope {
    SCOPE_ALL,           /* every program (VC4_SHADER_ANY included) */
    SCOPE_FRAGMENT,      /* opts->kind == VC4_SHADER_FRAGMENT */
    SCOPE_THREADED_FS,   /* fragment shader with opts->threaded */
};

/* Where each rule applies (severity: the registry). */
static const enum rule_scope rule_scope[] = {
    [R_RESERVED_OP_ADD] = SCOPE_ALL,
    [R_RESERVED_PACK] = SCOPE_ALL,
    [R_RESERVED_LDI_MODE] = SCOPE_ALL,
    [R_RESERVED_BRANCH_COND] = SCOPE_ALL,
    [R_READ_UNDEFINED] = SCOPE_ALL,
    [R_NO_THREND] = SCOPE_ALL,
    [R_THREND_DELAY_SLOTS] = SCOPE_ALL,
    [R_THREND_REGFILE_WRITE] = SCOPE_ALL,
    [R_THREND_SB_WAIT] = SCOPE_ALL,
    [R_THREND_DELAY_IO] = SCOPE_ALL,
    [R_THREND_REG14] = SCOPE_ALL,
    [R_LAST_TLB_Z] = SCOPE_ALL,
    [R_THREND_BRANCH] = SCOPE_ALL,
    [R_FS_SB_WAIT_FIRST_TWO] = SCOPE_FRAGMENT,
    [R_FS_VPM_ACCESS] = SCOPE_FRAGMENT,
    [R_THREADED_UPPER_REGS] = SCOPE_THREADED_FS,
    [R_REGFILE_RAW] = SCOPE_ALL,
    [R_SFU_R4_READ] = SCOPE_ALL,
    [R_SFU_R4_CONFLICT] = SCOPE_ALL,
    [R_ROT_QUAD_ONLY] = SCOPE_ALL,
    [R_ROT_R5_AFTER_WRITE] = SCOPE_ALL,
    [R_ROT_ACC_AFTER_WRITE] = SCOPE_ALL,
    [R_DUAL_WRITE_INVERSE] = SCOPE_ALL,
    [R_ONE_PERIPHERAL] = SCOPE_ALL,
    [R_PERIPH_COND_WRITE] = SCOPE_ALL,
    [R_UNIF_AFTER_UNIF_ADDR] = SCOPE_ALL,
    [R_TMU_NOSWAP_LATE] = SCOPE_ALL,
    [R_TMU_FIFO_OVERFLOW] = SCOPE_ALL,
    [R_TMU_FIFO_DEEP] = SCOPE_ALL,
    [R_TLB_Z_MS_FLAGS] = SCOPE_ALL,
    [R_HOST_INT_ZERO] = SCOPE_ALL,
    [R_BRANCH_SPACING] = SCOPE_ALL,
    [R_THRSW_SB_LOCKED] = SCOPE_THREADED_FS,
    [R_THRSW_AFTER_LTHRSW] = SCOPE_THREADED_FS,
    [R_THRSW_SPACING] = SCOPE_THREADED_FS,
    [R_THRSW_TMU_PENDING] = SCOPE_THREADED_FS,
    [R_VPM_READ_TOO_EARLY] = SCOPE_ALL,
    [R_VPM_SETUP_OUTSTANDING] = SCOPE_ALL,
    [R_VPM_READ_OVERRUN] = SCOPE_ALL,
    [R_VPM_READ_UNCONSUMED] = SCOPE_ALL,
    [R_VPM_CONCURRENT] = SCOPE_ALL,
    [R_PACK_MUL_IO] = SCOPE_ALL,
    [R_PACK_A_TARGET] = SCOPE_ALL,
    [R_PACK_32S_OP] = SCOPE_ALL,
};
static_assert(VC4_ARRAY_SIZE(rule_scope) == R_COUNT, "one scope per rule id");

const struct vc4_rule *vc4_qpu_rules(size_t *count)
{
    if (count)
        *count = R_COUNT;
    return vc4_rule_table;
}

/* ---- hardware facts the rules use, as data ------------------------------ */

/* Regfile-A / regfile-B index into vc4_qpu_read_regs / write_regs. */
enum { FILE_A = 0, FILE_B = 1 };

/* Physical register file size: 32 per file (facts 6.9); threaded fragment
 * shaders own the lower half (facts 9). */
enum { REGFILE_SIZE = 32, REGFILE_THREAD_HALF = 16, REG_NEXT_W = 14 };

/* Windows, in instructions after the triggering one (guide p.37 via Mesa). */
enum {
    THREND_DELAY_SLOTS = 2,  /* thrend + 2 delay slots */
    SFU_LATENCY = 2,         /* r4 valid 2 instructions after the SFU write */
    UNIF_ADDR_LATENCY = 2,   /* 2 non-uniform-reading instructions */
    TLB_Z_MS_WINDOW = 2,
    TMU_NOSWAP_LEAD = 3,     /* write >= 3 instructions before the TMU write */
    BRANCH_MIN_GAP = 3,      /* >= 2 non-branch instructions in between */
    BRANCH_DELAY_SLOTS = 3,  /* facts 6.1 */
    BRANCH_PC_OFFSET = 4,    /* relative target = PC + 4 instructions + imm */
    THRSW_MIN_GAP = 3,       /* facts 6.10.13 */
    VPM_READ_SETUP_WAIT = 3, /* seed 003: >= 3 instructions between */
    FIRST_TWO = 2,           /* first two fragment instructions */
    INSTR_BYTES = 8,
};

/* TMU FIFO (seed 004, addendum): 8 entries, more than 4 requests unreliable;
 * threaded shaders share the FIFO and should use half. */
enum { TMU_FIFO_ENTRIES = 8, TMU_RELIABLE_REQUESTS = 4, TMU_COUNT = 2, TMU_QUEUE_CAP = 64 };

/* VPMVCD_RD_SETUP generic block read (facts 8.2): bits 31:30 = 00 select the
 * generic setup; bits 23:20 = number of vectors, 0 meaning 16. */
struct bitfield { uint8_t shift, width; };
static const struct bitfield VPM_RD_SETUP_ID = {30, 2};
static const struct bitfield VPM_RD_SETUP_NUM = {20, 4};
enum { VPM_RD_SETUP_ID_GENERIC = 0, VPM_RD_SETUP_NUM_ZERO_MEANS = 16 };
/* Read setups outstanding at once: Mesa's vc4 vertex shaders queue up to 4
 * ("There's a 4-entry FIFO for VPMVCD reads", vc4_qpu_emit.c); which are
 * taken is the emulator's UNVERIFIED model (src/emu/vpm.c
 * vc4_vpm_rd_setup, docs/vpm.md). */
enum { VPM_READ_SETUPS = 4 };

static uint32_t field_of(uint32_t v, struct bitfield f) { return vc4_bits(v, f.shift, f.width); }

/* The inverse of each ALU condition (none for never/always). */
static const uint8_t inverse_cond[VC4_QPU_COND_COUNT] = {
    [VC4_QPU_COND_NEVER] = VC4_QPU_COND_COUNT, [VC4_QPU_COND_ALWAYS] = VC4_QPU_COND_COUNT,
    [VC4_QPU_COND_ZS] = VC4_QPU_COND_ZC, [VC4_QPU_COND_ZC] = VC4_QPU_COND_ZS,
    [VC4_QPU_COND_NS] = VC4_QPU_COND_NC, [VC4_QPU_COND_NC] = VC4_QPU_COND_NS,
    [VC4_QPU_COND_CS] = VC4_QPU_COND_CC, [VC4_QPU_COND_CC] = VC4_QPU_COND_CS,
};

/* Write-address classes (facts 6.9). */
static bool waddr_is_tmu(unsigned w) { return w >= VC4_QPU_W_TMU0_S && w <= VC4_QPU_W_TMU1_B; }
static bool waddr_is_tmu_s(unsigned w) { return w == VC4_QPU_W_TMU0_S || w == VC4_QPU_W_TMU1_S; }
static unsigned waddr_tmu_unit(unsigned w) { return w >= VC4_QPU_W_TMU1_S ? 1u : 0u; }
static bool waddr_is_sfu(unsigned w) { return w >= VC4_QPU_W_SFU_RECIP && w <= VC4_QPU_W_SFU_LOG; }
/* VPM data, VPM/VCD setup, VDR/VDW address. */
static bool waddr_is_vpm(unsigned w) { return w >= VC4_QPU_W_VPM && w <= VC4_QPU_W_VPM_ADDR; }
static bool raddr_is_vpm(unsigned r) { return r >= VC4_QPU_R_VPM && r <= VC4_QPU_R_VPM_WAIT; }
static bool waddr_is_acc(unsigned w)
{
    return (w >= VC4_QPU_W_ACC0 && w <= VC4_QPU_W_ACC3) || w == VC4_QPU_W_ACC5;
}
/* Peripherals whose conditional write still triggers the FIFO (addendum).
 * TLB writes are excluded: Mesa's discard writes TLB Z/colour conditionally
 * on hardware.  HOST_INT is excluded: the addendum says conditional writes
 * to it work.  TMU_NOSWAP and the uniforms address only use element 0. */
static bool waddr_cond_unsafe(unsigned w) { return waddr_is_tmu(w) || waddr_is_vpm(w) || waddr_is_sfu(w); }
/* I/O targets for the MUL byte pack: anything but an accumulator, a physical
 * register or NOP. */
static bool waddr_is_io(unsigned w)
{
    return w >= REGFILE_SIZE && !waddr_is_acc(w) && w != VC4_QPU_W_NOP;
}

/* ---- decoded instruction plus derived facts ------------------------------ */

struct wslot {
    bool on;       /* the write may happen (cond != never, waddr != NOP) */
    uint8_t waddr;
    uint8_t file;  /* FILE_A / FILE_B the address is interpreted in */
    uint8_t cond;  /* VC4_QPU_COND_* (ALWAYS for branch links) */
};

struct vins {
    struct vc4_qpu_instr q;
    struct wslot w[2]; /* [0] add ALU (or ldi/branch waddr_add), [1] mul */
    bool reads_a, reads_b; /* a used operand reads regfile A / B */
    bool reads_r4;
    uint8_t sig;           /* the signal; VC4_QPU_SIG_NONE for ldi/branch */
    bool rotates;          /* MUL vector rotation in effect */
    bool is_target;        /* a statically known branch target */
};

static bool is_alu_form(const struct vc4_qpu_instr *q)
{
    return q->kind == VC4_QPU_KIND_ALU || q->kind == VC4_QPU_KIND_ALU_SMALL_IMM;
}

static bool mul_reads_mux(const struct vc4_qpu_instr *q, unsigned m) { return vc4_qpu_mul_reads_mux(q, m); }
static bool any_reads_mux(const struct vc4_qpu_instr *q, unsigned m)
{
    return vc4_qpu_add_reads_mux(q, m) || vc4_qpu_mul_reads_mux(q, m);
}

static void derive(struct vins *v)
{
    const struct vc4_qpu_instr *q = &v->q;
    memset(v->w, 0, sizeof v->w);
    v->sig = is_alu_form(q) ? q->sig : VC4_QPU_SIG_NONE;
    unsigned add_file = vc4_qpu_add_wfile(q), mul_file = vc4_qpu_mul_wfile(q);
    if (q->kind == VC4_QPU_KIND_BRANCH) {
        /* links are written when the branch is taken (qpu-isa-facts 18) */
        v->w[0] = (struct wslot){q->waddr_add != VC4_QPU_W_NOP, q->waddr_add, (uint8_t)add_file,
                                 VC4_QPU_COND_ALWAYS};
        v->w[1] = (struct wslot){q->waddr_mul != VC4_QPU_W_NOP, q->waddr_mul, (uint8_t)mul_file,
                                 VC4_QPU_COND_ALWAYS};
    } else {
        /* An ALU with op nop still counts when its condition lets it write:
         * `mnop r2` writes the previous mul result (addendum). */
        v->w[0] = (struct wslot){q->cond_add != VC4_QPU_COND_NEVER && q->waddr_add != VC4_QPU_W_NOP,
                                 q->waddr_add, (uint8_t)add_file, q->cond_add};
        v->w[1] = (struct wslot){q->cond_mul != VC4_QPU_COND_NEVER && q->waddr_mul != VC4_QPU_W_NOP,
                                 q->waddr_mul, (uint8_t)mul_file, q->cond_mul};
    }
    v->reads_a = vc4_qpu_reads_a(q);
    v->reads_b = vc4_qpu_reads_b(q);
    v->reads_r4 = any_reads_mux(q, VC4_QPU_MUX_R4);
    v->rotates = q->kind == VC4_QPU_KIND_ALU_SMALL_IMM && q->raddr_b >= VC4_QPU_SMALL_IMM_ROT_R5 &&
                 q->op_mul != VC4_QPU_M_NOP;
}

/* Does the instruction read (file, raddr)?  Branch raddr_a is 5 bits. */
static bool reads_reg(const struct vins *v, unsigned file, unsigned raddr)
{
    if (file == FILE_A)
        return v->reads_a && v->q.raddr_a == raddr;
    return v->reads_b && v->q.raddr_b == raddr;
}
static bool reads_any(const struct vins *v, unsigned raddr)
{
    return reads_reg(v, FILE_A, raddr) || reads_reg(v, FILE_B, raddr);
}
static unsigned count_reads(const struct vins *v, unsigned raddr)
{
    return (unsigned)reads_reg(v, FILE_A, raddr) + (unsigned)reads_reg(v, FILE_B, raddr);
}
/* Writes an I/O address (32-63: the same in both files unless noted). */
static bool writes_addr(const struct vins *v, unsigned waddr)
{
    return (v->w[0].on && v->w[0].waddr == waddr) || (v->w[1].on && v->w[1].waddr == waddr);
}
static unsigned count_writes(const struct vins *v, bool (*pred)(unsigned))
{
    return (unsigned)(v->w[0].on && pred(v->w[0].waddr)) + (unsigned)(v->w[1].on && pred(v->w[1].waddr));
}
static bool writes_class(const struct vins *v, bool (*pred)(unsigned)) { return count_writes(v, pred) > 0; }

static bool sig_is_thrend(unsigned s) { return s == VC4_QPU_SIG_PROG_END || s == VC4_QPU_SIG_COLOR_LOAD_END; }
static bool sig_is_ldtmu(unsigned s) { return s == VC4_QPU_SIG_LOAD_TMU0 || s == VC4_QPU_SIG_LOAD_TMU1; }
static bool sig_is_tlb_read(unsigned s)
{
    return s == VC4_QPU_SIG_COVERAGE_LOAD || s == VC4_QPU_SIG_COLOR_LOAD ||
           s == VC4_QPU_SIG_COLOR_LOAD_END || s == VC4_QPU_SIG_ALPHA_MASK_LOAD;
}
static bool sig_is_thrsw(unsigned s) { return s == VC4_QPU_SIG_THREAD_SWITCH || s == VC4_QPU_SIG_LAST_THREAD_SWITCH; }

/* A tile-buffer access: implicitly waits on the scoreboard (seed 002; not
 * a stencil setup: spec/qpu_spec.h vc4_qpu_waddr_waits_sb). */
static bool is_tlb_access(const struct vins *v)
{
    return sig_is_tlb_read(v->sig) || writes_class(v, vc4_qpu_waddr_waits_sb);
}
/* Writes r4 (other than through the SFU): TMU and TLB loads (guide p.37). */
static bool writes_r4(const struct vins *v)
{
    return writes_class(v, waddr_is_sfu) || sig_is_ldtmu(v->sig) || sig_is_tlb_read(v->sig);
}
/* Writes accumulator r5, explicitly or by a varying read (seed 002: reading
 * VARYING_READ writes the C coefficient to r5). */
static bool writes_r5(const struct vins *v) { return writes_addr(v, VC4_QPU_W_ACC5) || reads_any(v, VC4_QPU_R_VARY); }
static bool any_vpm_access(const struct vins *v)
{
    return (v->reads_a && raddr_is_vpm(v->q.raddr_a)) || (v->reads_b && raddr_is_vpm(v->q.raddr_b)) ||
           writes_class(v, waddr_is_vpm);
}

/* ---- context and reporting ----------------------------------------------- */

struct tmu_req { uint8_t entries; uint32_t epoch; };
struct tmu_state {
    struct tmu_req q[TMU_QUEUE_CAP];
    unsigned head, count; /* ring of outstanding requests */
    unsigned pending;     /* T/R/B entries written before the S write */
};

struct vctx {
    const struct vc4_validate_options *opts;
    const struct vc4_diag_sink *sink;
    const struct vins *ins;
    size_t n;
    unsigned violations, errors;
    size_t mask_at;   /* instruction the dedup mask belongs to */
    uint64_t mask;    /* rules already reported there */
};

static bool rule_applies(const struct vctx *c, enum rule_id r)
{
    switch (rule_scope[r]) {
    case SCOPE_ALL:
        return true;
    case SCOPE_FRAGMENT:
        return c->opts->kind == VC4_SHADER_FRAGMENT;
    case SCOPE_THREADED_FS:
        return c->opts->kind == VC4_SHADER_FRAGMENT && c->opts->threaded;
    }
    return false;
}

static void report(struct vctx *c, enum rule_id r, size_t i, const char *fmt, ...) VC4_PRINTF(4, 5);

static void report(struct vctx *c, enum rule_id r, size_t i, const char *fmt, ...)
{
    if (!rule_applies(c, r))
        return;
    if (c->mask_at != i) {
        c->mask_at = i;
        c->mask = 0;
    }
    if (c->mask & (UINT64_C(1) << r))
        return;
    c->mask |= UINT64_C(1) << r;
    if (vc4_rule_table[r].severity != VC4_NOTE) /* a note is not a violation */
        c->violations++;
    if (vc4_rule_table[r].severity == VC4_ERROR)
        c->errors++;
    if (!c->sink || !c->sink->fn)
        return;

    char what[256], dis[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    uint32_t pc = c->opts->base_addr + (uint32_t)(INSTR_BYTES * i);
    if (i < c->n)
        vc4_qpu_disasm(&c->ins[i].q, pc, 0, dis, sizeof dis);
    else
        snprintf(dis, sizeof dis, "(end of program)");

    struct vc4_location loc = vc4_location_none();
    loc.addr = (int64_t)c->opts->base_addr + (int64_t)(INSTR_BYTES * i);
    loc.file = c->opts->file;
    if (c->opts->lines && i < c->n)
        loc.line = c->opts->lines[i];
    const struct vc4_rule *rd = &vc4_rule_table[r];
    vc4_diag_rule(c->sink, rd->severity, "validate", rd->id, rd->source, &loc,
                  "%s: `%s`", what, dis);
}

static const char *wname(unsigned file, unsigned waddr)
{
    const char *s = vc4_qpu_waddr_name(file, waddr);
    return s ? s : "?";
}

/* ---- per-instruction rules ------------------------------------------------ */

static void check_encoding(struct vctx *c, size_t i)
{
    const struct vins *v = &c->ins[i];
    const struct vc4_qpu_instr *q = &v->q;

    if (is_alu_form(q) && !vc4_qpu_op_add_valid(q->op_add))
        report(c, R_RESERVED_OP_ADD, i, "add op code %u is reserved", q->op_add);
    if (q->kind != VC4_QPU_KIND_BRANCH && vc4_qpu_pack_suffix(q->pm, q->pack) == NULL)
        report(c, R_RESERVED_PACK, i, "pack code %u with pm=%u is reserved", q->pack, q->pm);
    if ((q->kind == VC4_QPU_KIND_LOAD_IMM && q->unpack != VC4_QPU_LDI_32 &&
         q->unpack != VC4_QPU_LDI_PER_ELEMENT_SIGNED && q->unpack != VC4_QPU_LDI_PER_ELEMENT_UNSIGNED) ||
        (q->kind == VC4_QPU_KIND_SEMAPHORE && q->unpack != VC4_QPU_LDI_SEMAPHORE))
        report(c, R_RESERVED_LDI_MODE, i, "load-immediate mode %u is reserved", q->unpack);
    if (q->kind == VC4_QPU_KIND_BRANCH && vc4_qpu_branch_cond_suffix(q->cond_br) == NULL)
        report(c, R_RESERVED_BRANCH_COND, i, "branch condition %u is reserved", q->cond_br);

    for (unsigned f = FILE_A; f <= FILE_B; f++) {
        bool rd = f == FILE_A ? v->reads_a : v->reads_b;
        unsigned a = f == FILE_A ? q->raddr_a : q->raddr_b;
        if (rd && vc4_qpu_raddr_name(f, a) == NULL)
            report(c, R_READ_UNDEFINED, i, "reads r%c%u, which has no read meaning", f == FILE_A ? 'a' : 'b', a);
    }
}

static void check_local(struct vctx *c, size_t i)
{
    const struct vins *v = &c->ins[i];
    const struct vc4_qpu_instr *q = &v->q;

    /* one closely coupled peripheral access per instruction (guide p.37) */
    unsigned acc = count_writes(v, waddr_is_tmu) + count_writes(v, vc4_qpu_waddr_is_tlb) + count_writes(v, waddr_is_sfu) +
                   (unsigned)sig_is_ldtmu(v->sig) + (unsigned)sig_is_tlb_read(v->sig) +
                   count_reads(v, VC4_QPU_R_MUTEX_ACQUIRE) + (unsigned)(q->kind == VC4_QPU_KIND_SEMAPHORE);
    if (acc > 1)
        report(c, R_ONE_PERIPHERAL, i, "%u closely coupled peripheral accesses in one instruction", acc);

    /* VPM: only one read + one write may share an instruction (addendum,
     * "Concurrent access to VPM registers").  A VPM access with ldtmu is
     * not one of them: the addendum names VPM registers only, and its
     * author's GPU_FFT (vc4asm samples) pairs `read vw_wait` and `mov
     * vw_setup, ...` with ldtmu0 and runs on Pis. */
    unsigned vpm_reads = count_reads(v, VC4_QPU_R_VPM);
    unsigned vpm_other = count_reads(v, VC4_QPU_R_VPM_BUSY) + count_reads(v, VC4_QPU_R_VPM_WAIT);
    unsigned vpm_wdata = 0, vpm_wother = 0;
    for (int k = 0; k < 2; k++) {
        if (!v->w[k].on || !waddr_is_vpm(v->w[k].waddr))
            continue;
        if (v->w[k].waddr == VC4_QPU_W_VPM)
            vpm_wdata++;
        else
            vpm_wother++;
    }
    unsigned vpm_total = vpm_reads + vpm_other + vpm_wdata + vpm_wother;
    bool read_plus_write = vpm_reads == 1 && vpm_wdata == 1 && vpm_total == 2;
    if (vpm_total > 1 && !read_plus_write)
        report(c, R_VPM_CONCURRENT, i, "concurrent VPM accesses in one instruction");

    for (int k = 0; k < 2; k++) {
        const struct wslot *w = &v->w[k];
        if (w->on && w->cond != VC4_QPU_COND_ALWAYS && waddr_cond_unsafe(w->waddr))
            report(c, R_PERIPH_COND_WRITE, i, "conditional write to %s", wname(w->file, w->waddr));
    }

    /* both ALUs, one target, inverse conditions (addendum) */
    if (q->kind != VC4_QPU_KIND_BRANCH && v->w[0].on && v->w[1].on) {
        const struct wslot *a = &v->w[0], *m = &v->w[1];
        bool same;
        if (a->waddr < REGFILE_SIZE || m->waddr < REGFILE_SIZE)
            same = a->waddr == m->waddr && a->file == m->file;
        else {
            /* I/O addresses: the same target when both files name it alike
             * (r5quad/r5rep are both ACC5; vr_setup/vw_setup differ) */
            const char *ha = vc4_qpu_waddr_hw_name(a->file, a->waddr);
            const char *hm = vc4_qpu_waddr_hw_name(m->file, m->waddr);
            same = a->waddr == m->waddr && ha && hm && strcmp(ha, hm) == 0;
        }
        if (same && inverse_cond[a->cond] == m->cond)
            report(c, R_DUAL_WRITE_INVERSE, i, "both ALUs write %s under inverse conditions", wname(a->file, a->waddr));
    }

    /* pack placement */
    if (q->kind != VC4_QPU_KIND_BRANCH && q->pack != 0) {
        if (q->pm) {
            bool partial = q->pack >= VC4_QPU_PACK_MUL_8A && q->pack <= VC4_QPU_PACK_MUL_8D;
            if (partial && v->w[1].on && waddr_is_io(v->w[1].waddr))
                report(c, R_PACK_MUL_IO, i, "byte-partial mul pack to I/O target %s", wname(v->w[1].file, v->w[1].waddr));
        } else {
            /* the ALU whose result goes to file A: add when ws = 0, mul when ws = 1 */
            const struct wslot *wa = &v->w[q->ws ? 1 : 0];
            if (wa->on && wa->waddr >= REGFILE_SIZE)
                report(c, R_PACK_A_TARGET, i, "regfile-A pack on a write to %s, not a regfile-A register",
                       wname(wa->file, wa->waddr));
            bool add_sub = q->ws == 0 && (q->op_add == VC4_QPU_A_ADD || q->op_add == VC4_QPU_A_SUB);
            if (q->pack == VC4_QPU_PACK_A_32_SAT && is_alu_form(q) && wa->on && !add_sub)
                report(c, R_PACK_32S_OP, i, ".32s pack on a result that is not an add/sub");
        }
    }

    /* vector rotation needs r0-r3 inputs for a full rotate */
    if (v->rotates && (q->mul_a > VC4_QPU_MUX_R3 || q->mul_b > VC4_QPU_MUX_R3))
        report(c, R_ROT_QUAD_ONLY, i, "rotation with a MUL input outside r0-r3 rotates within quads only");

    /* fragment shaders */
    if (any_vpm_access(v))
        report(c, R_FS_VPM_ACCESS, i, "VPM/VCD access in a fragment shader");
    if (i < FIRST_TWO && (v->sig == VC4_QPU_SIG_WAIT_FOR_SCOREBOARD || is_tlb_access(v)))
        report(c, R_FS_SB_WAIT_FIRST_TWO, i, "scoreboard wait in instruction %zu of a fragment shader", i);
    bool upper = (v->reads_a && q->raddr_a >= REGFILE_THREAD_HALF && q->raddr_a < REGFILE_SIZE) ||
                 (v->reads_b && q->raddr_b >= REGFILE_THREAD_HALF && q->raddr_b < REGFILE_SIZE);
    for (int k = 0; k < 2; k++)
        upper |= v->w[k].on && v->w[k].waddr >= REGFILE_THREAD_HALF && v->w[k].waddr < REGFILE_SIZE;
    if (upper)
        report(c, R_THREADED_UPPER_REGS, i, "register 16-31 in a threaded fragment shader");
}

/* Hazards between two instructions that execute back to back. */
static void check_pair(struct vctx *c, size_t p, size_t i)
{
    const struct vins *pv = &c->ins[p], *v = &c->ins[i];
    for (int k = 0; k < 2; k++) {
        const struct wslot *w = &pv->w[k];
        if (w->on && w->waddr < REGFILE_SIZE && reads_reg(v, w->file, w->waddr))
            report(c, R_REGFILE_RAW, i, "reads r%c%u written by the previous instruction (0x%08x)",
                   w->file == FILE_A ? 'a' : 'b', w->waddr,
                   (unsigned)(c->opts->base_addr + INSTR_BYTES * p));
    }
    if (!v->rotates)
        return;
    if (v->q.raddr_b == VC4_QPU_SMALL_IMM_ROT_R5 && writes_r5(pv))
        report(c, R_ROT_R5_AFTER_WRITE, i, "rotate by r5 right after r5 was written");
    static const uint8_t acc_of_mux[VC4_QPU_MUX_COUNT] = {
        [VC4_QPU_MUX_R0] = VC4_QPU_W_ACC0, [VC4_QPU_MUX_R1] = VC4_QPU_W_ACC1,
        [VC4_QPU_MUX_R2] = VC4_QPU_W_ACC2, [VC4_QPU_MUX_R3] = VC4_QPU_W_ACC3,
        [VC4_QPU_MUX_R4] = 0,              [VC4_QPU_MUX_R5] = VC4_QPU_W_ACC5,
        [VC4_QPU_MUX_A] = 0,               [VC4_QPU_MUX_B] = 0,
    };
    for (unsigned m = VC4_QPU_MUX_R0; m <= VC4_QPU_MUX_R5; m++) {
        if (!acc_of_mux[m] || !mul_reads_mux(&v->q, m))
            continue;
        bool w = writes_addr(pv, acc_of_mux[m]) || (m == VC4_QPU_MUX_R5 && writes_r5(pv));
        if (w)
            report(c, R_ROT_ACC_AFTER_WRITE, i, "rotates r%u right after it was written", m);
    }
}

/* ---- the walk ---------------------------------------------------------- */

struct walk {
    long last_sfu, last_unif_addr, last_tlbz, last_noswap, last_branch, last_thrsw;
    long thrend_at;          /* index of the latest thread end */
    bool seen_thrend;
    bool sb_locked, seen_lthrsw;
    uint32_t epoch;          /* thread-switch count */
    struct tmu_state tmu[TMU_COUNT];
    long vpm_setup_at;       /* latest VPM read setup */
    bool vpm_known;          /* vpm_left is known (ldi constant setup) */
    unsigned vpm_left;       /* VPM reads still programmed (all setups) */
    unsigned vpm_pend[VPM_READ_SETUPS]; /* ... per accepted setup, oldest first */
    unsigned vpm_npend;      /* setups with reads still programmed */
    bool vpm_last_full;      /* the latest setup asked for 16 (NUM = 0) */
    /* Values known to be in registers: ldi constants and small immediates,
     * followed through unconditional movs; forgotten at branch targets. */
    struct known { uint32_t val; bool ok; } reg[2][REGFILE_SIZE], acc[VC4_QPU_MUX_R3 + 1];
};

/* vreads VPM reads take values from the oldest outstanding setups. */
static void vpm_drain(struct walk *s, unsigned vreads)
{
    s->vpm_left = vreads > s->vpm_left ? 0 : s->vpm_left - vreads;
    while (vreads && s->vpm_npend) {
        unsigned take = vreads < s->vpm_pend[0] ? vreads : s->vpm_pend[0];
        s->vpm_pend[0] -= take;
        vreads -= take;
        if (s->vpm_pend[0] == 0) {
            s->vpm_npend--;
            memmove(&s->vpm_pend[0], &s->vpm_pend[1], s->vpm_npend * sizeof s->vpm_pend[0]);
        }
    }
}

/* The value an operand mux supplies, if known. */
static bool src_value(const struct walk *s, const struct vc4_qpu_instr *q, unsigned mux, uint32_t *out)
{
    const struct known *kn = NULL;
    if (mux <= VC4_QPU_MUX_R3) {
        kn = &s->acc[mux];
    } else if (mux == VC4_QPU_MUX_A) {
        /* pm = 0 unpack applies to regfile-A reads */
        if (q->raddr_a < REGFILE_SIZE && (q->pm || q->unpack == VC4_QPU_UNPACK_NOP))
            kn = &s->reg[FILE_A][q->raddr_a];
    } else if (mux == VC4_QPU_MUX_B) {
        if (q->kind == VC4_QPU_KIND_ALU_SMALL_IMM) {
            if (q->raddr_b >= VC4_QPU_SMALL_IMM_ROT_R5)
                return false;
            *out = vc4_qpu_small_imm_value(q->raddr_b);
            return true;
        }
        if (q->raddr_b < REGFILE_SIZE)
            kn = &s->reg[FILE_B][q->raddr_b];
    }
    if (!kn || !kn->ok)
        return false;
    *out = kn->val;
    return true;
}

/* The value write slot k of the instruction stores, if known: an
 * unconditional 32-bit ldi, or a vc4asm `mov` (add or / mul v8min with both
 * operands the same) of a known value, without pack. */
static bool known_value(const struct walk *s, const struct vins *v, int k, uint32_t *out)
{
    const struct vc4_qpu_instr *q = &v->q;
    if (v->w[k].cond != VC4_QPU_COND_ALWAYS || q->pack != 0)
        return false;
    if (q->kind == VC4_QPU_KIND_LOAD_IMM && q->unpack == VC4_QPU_LDI_32) {
        *out = q->imm;
        return true;
    }
    if (!is_alu_form(q))
        return false;
    if (k == 0 && q->op_add == VC4_QPU_A_OR && q->add_a == q->add_b)
        return src_value(s, q, q->add_a, out);
    if (k == 1 && q->op_mul == VC4_QPU_M_V8MIN && q->mul_a == q->mul_b)
        return src_value(s, q, q->mul_a, out);
    return false;
}

static void track_values(struct walk *s, const struct vins *v)
{
    struct known val[2];
    for (int k = 0; k < 2; k++)
        val[k].ok = v->w[k].on && known_value(s, v, k, &val[k].val);
    for (int k = 0; k < 2; k++) {
        const struct wslot *w = &v->w[k];
        if (!w->on)
            continue;
        if (w->waddr < REGFILE_SIZE)
            s->reg[w->file][w->waddr] = val[k];
        else if (w->waddr >= VC4_QPU_W_ACC0 && w->waddr <= VC4_QPU_W_ACC3)
            s->acc[w->waddr - VC4_QPU_W_ACC0] = val[k];
    }
}

static bool within(long from, size_t i, long window) { return from >= 0 && (long)i - from <= window; }

static void tmu_write(struct vctx *c, struct walk *s, size_t i, unsigned waddr)
{
    struct tmu_state *t = &s->tmu[waddr_tmu_unit(waddr)];
    t->pending++;
    if (waddr_is_tmu_s(waddr)) {
        /* S submits the request with the T/R/B entries before it (seed 004) */
        if (t->count < TMU_QUEUE_CAP) {
            struct tmu_req *r = &t->q[(t->head + t->count) % TMU_QUEUE_CAP];
            r->entries = (uint8_t)(t->pending > UINT8_MAX ? UINT8_MAX : t->pending);
            r->epoch = s->epoch;
            t->count++;
        }
        t->pending = 0;
    }
    unsigned entries = t->pending;
    for (unsigned k = 0; k < t->count; k++)
        entries += t->q[(t->head + k) % TMU_QUEUE_CAP].entries;
    unsigned share = c->opts->threaded ? 2u : 1u;
    if (entries > TMU_FIFO_ENTRIES / share)
        report(c, R_TMU_FIFO_OVERFLOW, i, "%u TMU%u FIFO entries outstanding (limit %u)", entries,
               waddr_tmu_unit(waddr), TMU_FIFO_ENTRIES / share);
    if (t->count > TMU_RELIABLE_REQUESTS / share)
        report(c, R_TMU_FIFO_DEEP, i, "%u TMU%u requests outstanding without ldtmu", t->count, waddr_tmu_unit(waddr));
}

static void walk_one(struct vctx *c, struct walk *s, size_t i)
{
    const struct vins *v = &c->ins[i];
    const struct vc4_qpu_instr *q = &v->q;

    if (v->is_target) {
        memset(s->reg, 0, sizeof s->reg);
        memset(s->acc, 0, sizeof s->acc);
        /* a loop head or a join: how many VPM reads ran before is not known
         * (a loop reading the VPM each turn is correct code) */
        s->vpm_known = false;
    }

    /* HOST_INT needs a non-zero value (addendum) */
    for (int k = 0; k < 2; k++) {
        uint32_t val;
        if (v->w[k].on && v->w[k].waddr == VC4_QPU_W_HOST_INT && known_value(s, v, k, &val) && val == 0)
            report(c, R_HOST_INT_ZERO, i, "writes zero to the host interrupt");
    }

    /* -- thread end window: thrend and its two delay slots -- */
    bool thrend = sig_is_thrend(v->sig);
    if (thrend) {
        s->seen_thrend = true;
        s->thrend_at = (long)i;
    }
    bool in_end = s->seen_thrend && (long)i - s->thrend_at <= THREND_DELAY_SLOTS;
    if (in_end) {
        if (reads_any(v, VC4_QPU_R_UNIF) || reads_any(v, VC4_QPU_R_VARY) || any_vpm_access(v))
            report(c, R_THREND_DELAY_IO, i, "uniform/varying/VPM access in the last 3 instructions");
        bool r14 = reads_any(v, REG_NEXT_W);
        for (int k = 0; k < 2; k++)
            r14 |= v->w[k].on && v->w[k].waddr == REG_NEXT_W;
        if (r14)
            report(c, R_THREND_REG14, i, "register address 14 used in the last 3 instructions");
        if ((long)i != s->thrend_at && q->kind == VC4_QPU_KIND_BRANCH)
            report(c, R_THREND_BRANCH, i, "branch in a thread-end delay slot");
        if ((long)i - s->thrend_at == THREND_DELAY_SLOTS && writes_addr(v, VC4_QPU_W_TLB_Z))
            report(c, R_LAST_TLB_Z, i, "TLB Z write in the last instruction");
    }

    /* -- windows opened by earlier instructions -- */
    if (within(s->last_sfu, i, SFU_LATENCY)) {
        if (v->reads_r4)
            report(c, R_SFU_R4_READ, i, "reads r4 within %d instructions of the SFU write", SFU_LATENCY);
        if (writes_r4(v))
            report(c, R_SFU_R4_CONFLICT, i, "writes r4 within %d instructions of the SFU write", SFU_LATENCY);
    }
    if (within(s->last_unif_addr, i, UNIF_ADDR_LATENCY) && reads_any(v, VC4_QPU_R_UNIF))
        report(c, R_UNIF_AFTER_UNIF_ADDR, i, "reads a uniform within %d instructions of a unif_addr write",
               UNIF_ADDR_LATENCY);
    if (within(s->last_tlbz, i, TLB_Z_MS_WINDOW) && reads_reg(v, FILE_A, VC4_QPU_R_MS_REV))
        report(c, R_TLB_Z_MS_FLAGS, i, "reads MS_FLAGS within %d instructions of a TLB Z write", TLB_Z_MS_WINDOW);
    if (writes_class(v, waddr_is_tmu) && within(s->last_noswap, i, TMU_NOSWAP_LEAD - 1))
        report(c, R_TMU_NOSWAP_LATE, i, "TMU write fewer than %d instructions after the TMU_NOSWAP write",
               TMU_NOSWAP_LEAD);
    if (q->kind == VC4_QPU_KIND_BRANCH) {
        if (within(s->last_branch, i, BRANCH_MIN_GAP - 1))
            report(c, R_BRANCH_SPACING, i, "fewer than 2 instructions since the previous branch at 0x%08x",
                   (unsigned)(c->opts->base_addr + INSTR_BYTES * (size_t)s->last_branch));
        s->last_branch = (long)i;
    }

    /* -- VPM reads (reads happen before this instruction's writes) -- */
    unsigned vreads = count_reads(v, VC4_QPU_R_VPM);
    if (vreads) {
        if (within(s->vpm_setup_at, i, VPM_READ_SETUP_WAIT))
            report(c, R_VPM_READ_TOO_EARLY, i,
                   "VPM read %ld instruction(s) after its read setup: the BCM2835 stalls until the data is there",
                   (long)i - s->vpm_setup_at);
        if (s->vpm_known) {
            if (vreads > s->vpm_left)
                report(c, R_VPM_READ_OVERRUN, i, "VPM read beyond the setup's vector count");
            vpm_drain(s, vreads);
        }
    }
    for (int k = 0; k < 2; k++) {
        if (!v->w[k].on || v->w[k].waddr != VC4_QPU_W_VPMVCD_SETUP || v->w[k].file != FILE_A)
            continue;
        uint32_t val;
        bool known = known_value(s, v, k, &val);
        if (known && field_of(val, VPM_RD_SETUP_ID) != VPM_RD_SETUP_ID_GENERIC)
            continue; /* a VDR DMA setup: not a generic read setup */
        /* a value computed at run time may be a VDR setup, which leaves the
         * read FIFO alone: only a known generic setup is checked */
        /* ignored while the latest setup asked for fewer than 16 and more
         * than one of its reads is outstanding [addendum: 2 then 2 ->
         * ignored; 1 then 3 -> taken], or while 4 setups are outstanding;
         * queued behind a 16-read setup [Mesa: 16, 16, 16, n back to back] */
        if (!known || !s->vpm_known) { /* what is outstanding is not known */
            s->vpm_left = 0;
            s->vpm_npend = 0;
        }
        unsigned last = s->vpm_npend ? s->vpm_pend[s->vpm_npend - 1] : 0;
        bool ignored = (last > 1 && !s->vpm_last_full) || (last > 0 && s->vpm_npend == VPM_READ_SETUPS);
        if (known && ignored)
            report(c, R_VPM_SETUP_OUTSTANDING, i, "new VPM read setup while %u reads of the previous are outstanding",
                   last);
        s->vpm_setup_at = (long)i;
        s->vpm_known = known;
        if (known && !ignored) {
            unsigned num = field_of(val, VPM_RD_SETUP_NUM);
            s->vpm_last_full = num == 0;
            s->vpm_pend[s->vpm_npend++] = num ? num : VPM_RD_SETUP_NUM_ZERO_MEANS;
            s->vpm_left += num ? num : VPM_RD_SETUP_NUM_ZERO_MEANS;
        }
    }

    /* -- TMU FIFO -- */
    if (sig_is_ldtmu(v->sig)) {
        struct tmu_state *t = &s->tmu[v->sig == VC4_QPU_SIG_LOAD_TMU1 ? 1 : 0];
        if (t->count) {
            t->head = (t->head + 1) % TMU_QUEUE_CAP;
            t->count--;
        }
    }
    for (int k = 0; k < 2; k++)
        if (v->w[k].on && waddr_is_tmu(v->w[k].waddr))
            tmu_write(c, s, i, v->w[k].waddr);

    /* -- scoreboard and thread switches -- */
    if (sig_is_thrsw(v->sig)) {
        if (s->sb_locked)
            report(c, R_THRSW_SB_LOCKED, i, "thread switch while the scoreboard is locked");
        if (s->seen_lthrsw)
            report(c, R_THRSW_AFTER_LTHRSW, i, "thread switch after the last thread switch");
        if (within(s->last_thrsw, i, THRSW_MIN_GAP - 1))
            report(c, R_THRSW_SPACING, i, "thread switch within 2 instructions of the previous one");
        for (unsigned u = 0; u < TMU_COUNT; u++) {
            const struct tmu_state *t = &s->tmu[u];
            for (unsigned k = 0; k < t->count; k++) {
                if (t->q[(t->head + k) % TMU_QUEUE_CAP].epoch < s->epoch) {
                    report(c, R_THRSW_TMU_PENDING, i, "TMU%u result requested before the previous switch is unread", u);
                    break;
                }
            }
        }
        s->epoch++;
        s->last_thrsw = (long)i;
        if (v->sig == VC4_QPU_SIG_LAST_THREAD_SWITCH)
            s->seen_lthrsw = true;
    }
    bool tlb = is_tlb_access(v);
    if (thrend) {
        if (tlb && !s->sb_locked)
            report(c, R_THREND_SB_WAIT, i, "thread end with the first TLB access (implicit scoreboard wait)");
        for (int k = 0; k < 2; k++)
            if (v->w[k].on && v->w[k].waddr < REGFILE_SIZE)
                report(c, R_THREND_REGFILE_WRITE, i, "thread end writes %s", wname(v->w[k].file, v->w[k].waddr));
        if (i + THREND_DELAY_SLOTS >= c->n)
            report(c, R_THREND_DELAY_SLOTS, i, "thread end has %zu of its %d delay slots", c->n - 1 - i,
                   THREND_DELAY_SLOTS);
        if (s->vpm_known && s->vpm_left > 0)
            report(c, R_VPM_READ_UNCONSUMED, i, "%u programmed VPM reads not consumed at program end", s->vpm_left);
        /* the rest of the file may be another program */
        s->vpm_known = false;
        s->vpm_setup_at = -1;
    }
    if (v->sig == VC4_QPU_SIG_WAIT_FOR_SCOREBOARD || tlb)
        s->sb_locked = true;
    if (v->sig == VC4_QPU_SIG_SCOREBOARD_UNLOCK)
        s->sb_locked = false;

    /* -- open windows -- */
    if (writes_class(v, waddr_is_sfu))
        s->last_sfu = (long)i;
    if (writes_addr(v, VC4_QPU_W_UNIFORMS_ADDRESS))
        s->last_unif_addr = (long)i;
    if (writes_addr(v, VC4_QPU_W_TLB_Z))
        s->last_tlbz = (long)i;
    if (writes_addr(v, VC4_QPU_W_TMU_NOSWAP))
        s->last_noswap = (long)i;
    track_values(s, v);
}

/* Index of a branch's statically known target, or -1. */
static long branch_target(const struct vctx *c, size_t i)
{
    const struct vc4_qpu_instr *q = &c->ins[i].q;
    if (q->kind != VC4_QPU_KIND_BRANCH || q->reg)
        return -1;
    int64_t target;
    if (q->rel)
        target = (int64_t)c->opts->base_addr + (int64_t)INSTR_BYTES * ((int64_t)i + BRANCH_PC_OFFSET) +
                 (int64_t)(int32_t)q->imm;
    else
        target = (int64_t)q->imm;
    int64_t off = target - (int64_t)c->opts->base_addr;
    if (off < 0 || off % INSTR_BYTES != 0 || off / INSTR_BYTES >= (int64_t)c->n)
        return -1;
    return (long)(off / INSTR_BYTES);
}

/* The Linux kernel's shader rules (isa/qpu_kernel.c), and the fragment
 * shader's thread mode against the record's (vc4_validate.c
 * validate_gl_shader_rec): one more violation each. */
static enum vc4_status kernel_rules(const uint64_t *words, size_t n, const struct vc4_validate_options *o,
                                    const struct vc4_diag_sink *sink, unsigned *violations)
{
    const struct vc4_kshader_report rep = {.unit = "validate", .base_addr = o->base_addr, .file = o->file,
                                           .lines = o->lines};
    struct vc4_kshader_info info;
    enum vc4_status st = vc4_kshader_validate(words, n, NULL, &rep, sink, &info);
    if (st != VC4_OK) {
        if (st == VC4_ERR_RULE)
            ++*violations;
        return st;
    }
    bool threaded = info.is_threaded;
    vc4_kshader_info_fini(NULL, &info);
    if (threaded == o->threaded || (o->kind != VC4_SHADER_FRAGMENT && !o->threaded))
        return VC4_OK;
    struct vc4_location loc = vc4_location_none();
    loc.addr = o->base_addr;
    loc.file = o->file;
    if (o->lines && n)
        loc.line = o->lines[0];
    vc4_rule_report(sink, VC4_ERROR, "validate", VC4_RULE_KERNEL_THREAD_MODE, &loc, "%s",
                    o->threaded ? "a threaded fragment shader (--threaded) with no thread switch"
                                : "a fragment shader with thread switches, but not declared threaded (--threaded)");
    ++*violations;
    return VC4_ERR_RULE;
}

enum vc4_status vc4_qpu_validate(const uint64_t *words, size_t n, const struct vc4_validate_options *opts,
                                 struct vc4_diag_sink *sink, unsigned *violations)
{
    static const struct vc4_validate_options defaults = {.kind = VC4_SHADER_ANY};
    if (violations)
        *violations = 0;
    if (!words && n)
        return VC4_ERR_INVALID;
    if (n > SIZE_MAX / sizeof(struct vins))
        return VC4_ERR_NOMEM;

    struct vins *ins = n ? vc4_malloc(NULL, n * sizeof *ins) : NULL;
    if (n && !ins)
        return VC4_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        vc4_qpu_decode(words[i], &ins[i].q); /* the one decode of each word */
        derive(&ins[i]);
        ins[i].is_target = false;
    }

    struct vctx c = {.opts = opts ? opts : &defaults, .sink = sink, .ins = ins, .n = n,
                     .mask_at = SIZE_MAX};
    for (size_t b = 0; b < n; b++) {
        long t = branch_target(&c, b);
        if (t >= 0)
            ins[t].is_target = true;
    }
    struct walk s = {.last_sfu = -1, .last_unif_addr = -1, .last_tlbz = -1, .last_noswap = -1,
                     .last_branch = -1, .last_thrsw = -1, .thrend_at = -1, .vpm_setup_at = -1};

    for (size_t i = 0; i < n; i++) {
        check_encoding(&c, i);
        check_local(&c, i);
        if (i > 0)
            check_pair(&c, i - 1, i);
        walk_one(&c, &s, i);
    }
    if (!s.seen_thrend)
        report(&c, R_NO_THREND, n ? n - 1 : 0, "the program has no thread end");

    /* branch edges: the last delay slot runs right before the target */
    for (size_t b = 0; b < n; b++) {
        long t = branch_target(&c, b);
        size_t last = b + BRANCH_DELAY_SLOTS;
        if (t < 0 || last >= n || (size_t)t == last + 1)
            continue;
        c.mask_at = SIZE_MAX; /* a fresh dedup scope for the edge */
        check_pair(&c, last, (size_t)t);
    }

    vc4_free(NULL, ins);
    if (c.opts->kernel_rules) {
        enum vc4_status ks = kernel_rules(words, n, c.opts, sink, &c.violations);
        if (ks == VC4_ERR_NOMEM)
            return ks;
    }
    if (violations)
        *violations = c.violations;
    return c.violations ? VC4_ERR_RULE : VC4_OK;
}
