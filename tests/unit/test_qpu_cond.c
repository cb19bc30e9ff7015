/* test_qpu_cond.c - QPU conditions, branch conditions, the flag rules and
 * every add/mul op, run as user programs on the emulator (code and uniforms
 * in memory, started through SRQPC, results read from the QPU's registers).
 * Expected values are literal tables worked out from the rules in
 * ../shared/reference/qpu-isa-facts.md (numbers in brackets), not computed
 * with the emulator's own functions. */
#include "harness.h"
#include "emu/v3d.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#include "qpu_prog.h"

/* Flags with three different per-element patterns from one sub.setf:
 * r0 = elem << 28, r1 = 0x70000000, r0 - r1:
 *   elements 0-6: negative and borrow  (N, C)
 *   element 7:    zero                 (Z)
 *   elements 8-14: positive, no borrow
 *   element 15:   0xF0000000 - 0x70000000 = 0x80000000: N, no borrow */
#define Z_MIXED 0x0080u
#define N_MIXED 0x807Fu
#define C_MIXED 0x007Fu
static void set_mixed_flags(struct prog *p)
{
    /* shl r0, elem, -4: the small immediate -4 (code 28) shifts by 28 */
    emit(p, I(.sig = SMALL, .op_add = VC4_QPU_A_SHL, .waddr_add = R0, .raddr_a = ELEM, .raddr_b = 28,
              .add_a = MUX_A, .add_b = MUX_B));
    emit(p, ldi(R1, 0x70000000u));
    emit(p, I(.op_add = VC4_QPU_A_SUB, .add_a = 0, .add_b = 1, .sf = 1));
}

static void check_flags(struct vc4_emu *e, uint16_t z, uint16_t n, uint16_t c, const char *what)
{
    const struct vc4_qpu *q = &e->v3d.qpu[0];
    CHECK_MSG(q->flag[VC4_QPU_FLAG_Z] == z && q->flag[VC4_QPU_FLAG_N] == n && q->flag[VC4_QPU_FLAG_C] == c,
              "%s: Z %04x N %04x C %04x, want %04x %04x %04x", what, q->flag[VC4_QPU_FLAG_Z],
              q->flag[VC4_QPU_FLAG_N], q->flag[VC4_QPU_FLAG_C], z, n, c);
}

/* Every add-ALU and mul-ALU write condition against per-element flags:
 * element i is written exactly where its condition holds. */
static void test_write_conditions(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    set_mixed_flags(&p);
    emit(&p, ldi(R3, 0x11u));
    /* or.c ra[c], r3, r3 ; v8min.c rb[c], r3, r3 */
    for (unsigned c = 0; c < 8; c++)
        emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = (uint8_t)c, .add_a = 3, .add_b = 3, .cond_add = (uint8_t)c,
                   .op_mul = VC4_QPU_M_V8MIN, .waddr_mul = (uint8_t)c, .mul_a = 3, .mul_b = 3,
                   .cond_mul = (uint8_t)c));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    check_flags(e, Z_MIXED, N_MIXED, C_MIXED, "mixed flags");
    static const uint16_t want[8] = {
        [NEVER] = 0x0000, [ALWAYS] = 0xFFFF, [ZS] = Z_MIXED, [ZC] = (uint16_t)~Z_MIXED,
        [NS] = N_MIXED,   [NC] = (uint16_t)~N_MIXED, [CS] = C_MIXED, [CC] = (uint16_t)~C_MIXED,
    };
    const struct vc4_qpu *q = &e->v3d.qpu[0];
    for (unsigned c = 0; c < 8; c++)
        for (unsigned i = 0; i < 16; i++) {
            uint32_t w = (want[c] >> i) & 1 ? 0x11u : 0;
            CHECK_MSG(q->ra[c][i] == w, "add cond %u elem %u: %x want %x", c, i, q->ra[c][i], w);
            CHECK_MSG(q->rb[c][i] == w, "mul cond %u elem %u: %x want %x", c, i, q->rb[c][i], w);
        }
    vc4_emu_destroy(e);
}

/* Every branch condition (all/any of Z/N/C set/clear, 15 = always) under
 * three flag states: mixed (some set, some clear), all Z (or.setf of 0),
 * all N and C (0 - 1). */
static void test_branch_conditions(void)
{
    enum { MIXED, ALLZ, ALLNC, STATES };
    static const unsigned conds[13] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15};
    /* taken? [state][cond index] */
    static const bool taken[STATES][13] = {
        /*         allz  allnz anyz anynz alln allnn anyn anynn allc allnc anyc anync always */
        [MIXED] = {0,    0,    1,   1,    0,   0,    1,   1,    0,   0,    1,   1,    1},
        [ALLZ] = {1,     0,    1,   0,    0,   1,    0,   1,    0,   1,    0,   1,    1},
        [ALLNC] = {0,    1,    0,   1,    1,   0,    1,   0,    1,   0,    1,   0,    1},
    };
    for (unsigned s = 0; s < STATES; s++)
        for (unsigned k = 0; k < 13; k++) {
            struct harness_diags d;
            struct vc4_emu *e = mk(1, &d);
            struct prog p = {0};
            if (s == MIXED) {
                set_mixed_flags(&p);
            } else if (s == ALLZ) {
                emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_OR, .raddr_b = 0, .add_a = MUX_B, .add_b = MUX_B, .sf = 1));
            } else {
                emit(&p, ldi(R0, 0));
                emit(&p, ldi(R1, 1));
                emit(&p, I(.op_add = VC4_QPU_A_SUB, .add_a = 0, .add_b = 1, .sf = 1));
            }
            /* brr.cond +4 instructions past the link; raddr_a even: no sf */
            emit(&p, vc4_qpu_encode(&(struct vc4_qpu_instr){.sig = 15, .cond_br = (uint8_t)conds[k], .rel = 1,
                                                             .waddr_add = WNOP, .waddr_mul = WNOP, .imm = 32}));
            emit(&p, NOP);
            emit(&p, NOP);
            emit(&p, NOP);
            emit(&p, ldi(R2, 1)); /* not taken */
            emit_end(&p);
            emit(&p, NOP); /* keeps the target 4 instructions past the link */
            emit(&p, ldi(R2, 2)); /* taken */
            emit_end(&p);
            CHECK(run(e, &p) == VC4_OK);
            uint32_t got = e->v3d.qpu[0].acc[2][0];
            CHECK_MSG(got == (taken[s][k] ? 2u : 1u), "state %u branch cond %u: %s", s, conds[k],
                      got == 2 ? "taken" : "not taken");
            vc4_emu_destroy(e);
        }
}

/* Flags change only in the elements whose write condition passes [15]. */
static void test_flags_only_where_condition_passes(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    /* sub.setf r0, elem, 8: N and C (borrow) for 0-7, Z for 8 */
    emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .waddr_add = R0, .raddr_a = ELEM, .raddr_b = 8,
               .add_a = MUX_A, .add_b = MUX_B, .sf = 1));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    check_flags(e, 0x0100, 0x00FF, 0x00FF, "sub.setf elem - 8");
    vc4_emu_destroy(e);

    /* then or.setf.ifn nop, 0, 0: elements 0-7 get Z=1 N=0 C=0; 8-15 keep theirs */
    e = mk(1, &d);
    p.n = 1;
    emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_OR, .raddr_b = 0, .add_a = MUX_B, .add_b = MUX_B,
               .cond_add = NS, .sf = 1));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    check_flags(e, 0x01FF, 0x0000, 0x0000, "or.setf.ifn 0");
    vc4_emu_destroy(e);

    /* the mul ALU's condition selects the elements when it sets the flags:
     * v8min.setf.ifnc nop, r1, r1 with r1 = 0: elements 8-15 (N clear) */
    e = mk(1, &d);
    p.n = 1;
    emit(&p, ldi(R1, 0));
    emit(&p, I(.op_mul = VC4_QPU_M_V8MIN, .mul_a = 1, .mul_b = 1, .cond_mul = NC, .sf = 1));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    check_flags(e, 0xFF00, 0x00FF, 0x00FF, "mul v8min.setf.ifnc 0");
    vc4_emu_destroy(e);
}

/* The mul ALU sets the flags only when the add op is nop; an add op with
 * .never still owns them (and so changes none) [14]. */
static void test_mul_flags_only_with_add_nop(void)
{
    struct harness_diags d;
    for (int variant = 0; variant < 3; variant++) {
        struct vc4_emu *e = mk(1, &d);
        struct prog p = {0};
        /* r0 = elem - 8; then all Z by or.setf 0 */
        emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .waddr_add = R0, .raddr_a = ELEM, .raddr_b = 8,
                   .add_a = MUX_A, .add_b = MUX_B));
        emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_OR, .raddr_b = 0, .add_a = MUX_B, .add_b = MUX_B, .sf = 1));
        if (variant == 0) /* add nop ; v8min.setf: the mul result sets the flags */
            emit(&p, I(.op_mul = VC4_QPU_M_V8MIN, .mul_a = 0, .mul_b = 0, .sf = 1));
        else if (variant == 1) /* or.never ; v8min.setf: the add ALU owns the flags, updates none */
            emit(&p, I(.op_add = VC4_QPU_A_OR, .add_a = 0, .add_b = 0, .cond_add = NEVER,
                       .op_mul = VC4_QPU_M_V8MIN, .mul_a = 0, .mul_b = 0, .sf = 1));
        else /* or r2 (always) ; v8min.setf: flags from the add result (r0 | r0) */
            emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_OR, .waddr_add = R2, .add_a = MUX_B, .add_b = MUX_B,
                       .raddr_b = 1, .op_mul = VC4_QPU_M_V8MIN, .mul_a = 0, .mul_b = 0, .sf = 1));
        emit_end(&p);
        CHECK(run(e, &p) == VC4_OK);
        if (variant == 0) /* r0 = elem - 8: v8min keeps it; Z at 8, N for 0-7, C = 0 */
            check_flags(e, 0x0100, 0x00FF, 0x0000, "add nop, mul setf");
        else if (variant == 1)
            check_flags(e, 0xFFFF, 0x0000, 0x0000, "add .never, mul setf");
        else /* the add result is 1 everywhere */
            check_flags(e, 0x0000, 0x0000, 0x0000, "add op, mul setf");
        vc4_emu_destroy(e);
    }
}

/* A load immediate with sf: Z and N from the value, C cleared (VC4C
 * generateImmediateFlags [3]); per-element signed values give per-element N. */
static void test_ldi_flags(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    emit(&p, ldi(R0, 0));
    emit(&p, ldi(R1, 1));
    emit(&p, I(.op_add = VC4_QPU_A_SUB, .add_a = 0, .add_b = 1, .sf = 1)); /* N, C everywhere */
    /* per-element signed: elements 0-3 -1, 4-7 -2, 8-11 1, 12-15 0 */
    emit(&p, I(.sig = LDI, .unpack = VC4_QPU_LDI_PER_ELEMENT_SIGNED, .waddr_add = R2, .imm = 0x00FF0F0Fu, .sf = 1));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    check_flags(e, 0xF000, 0x00FF, 0x0000, "ldi.setf per-element signed");
    CHECK_EQ_U64(e->v3d.qpu[0].acc[2][0], 0xFFFFFFFFu);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[2][4], 0xFFFFFFFEu);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[2][8], 1);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[2][12], 0);
    vc4_emu_destroy(e);
}

/* Every add and mul op through the emulator: a in ra0, b in rb0, the op
 * writes r0 with sf; the result and its C flag [16] are checked, Z and N
 * follow from the result. */
struct op_case {
    bool mul;
    unsigned op;
    uint32_t a, b, r;
    int c; /* expected C, -1 = not checked (no rule in the sources) */
};

static const struct op_case op_cases[] = {
    {false, VC4_QPU_A_NOP, 1, 2, 0, 0},
    {false, VC4_QPU_A_FADD, 0x40400000u, 0xC0000000u, 0x3F800000u, 1},   /* 3 + -2 = 1, C: > 0 */
    {false, VC4_QPU_A_FADD, 0x3F800000u, 0xB3000000u, 0x3F7FFFFFu, 1},   /* 1 - 2^-25 truncates (nearest: 1.0) */
    {false, VC4_QPU_A_FADD, 0xBF800000u, 0x3F800000u, 0x00000000u, 0},   /* -1 + 1 = +0, C: not > 0 */
    {false, VC4_QPU_A_FSUB, 0x40400000u, 0xC0000000u, 0x40A00000u, 1},   /* 3 - -2 = 5 */
    {false, VC4_QPU_A_FSUB, 0x3F800000u, 0x40000000u, 0xBF800000u, 0},   /* 1 - 2 = -1 */
    {false, VC4_QPU_A_FMIN, 0x40400000u, 0xC0000000u, 0xC0000000u, 1},   /* C: src1 > src2 */
    {false, VC4_QPU_A_FMAX, 0x40400000u, 0xC0000000u, 0x40400000u, 1},
    {false, VC4_QPU_A_FMAX, 0xC0000000u, 0x40400000u, 0x40400000u, 0},
    {false, VC4_QPU_A_FMINABS, 0x40400000u, 0xC0000000u, 0x40000000u, 1}, /* |2|, C: |3| > |-2| */
    {false, VC4_QPU_A_FMAXABS, 0x40400000u, 0xC0000000u, 0x40400000u, 1},
    {false, VC4_QPU_A_FTOI, 0xC06CCCCDu, 0, 0xFFFFFFFDu, 0},             /* -3.7 -> -3 */
    {false, VC4_QPU_A_ITOF, 0x7FFFFFFFu, 0, 0x4EFFFFFFu, 1},             /* truncated (nearest 0x4F000000); C: > 0 (measured) */
    {false, VC4_QPU_A_ADD, 0xFFFFFFFFu, 2, 1, 1},                        /* unsigned carry out */
    {false, VC4_QPU_A_ADD, 5, 6, 11, 0},
    {false, VC4_QPU_A_SUB, 1, 2, 0xFFFFFFFFu, 1},                        /* C: src1 < src2 unsigned */
    {false, VC4_QPU_A_SUB, 2, 1, 1, 0},
    {false, VC4_QPU_A_SHR, 0x80000001u, 1, 0x40000000u, 1},              /* C: last bit out */
    {false, VC4_QPU_A_SHR, 0x80000002u, 33, 0x40000001u, 0},             /* low 5 bits: by 1 */
    {false, VC4_QPU_A_ASR, 0x80000001u, 1, 0xC0000000u, 1},
    {false, VC4_QPU_A_ROR, 0x80000001u, 1, 0xC0000000u, -1},
    {false, VC4_QPU_A_SHL, 0xC0000001u, 1, 0x80000002u, 1},
    {false, VC4_QPU_A_MIN, 0xFFFFFFFFu, 5, 0xFFFFFFFFu, 0},              /* signed; C: src1 > src2 */
    {false, VC4_QPU_A_MAX, 0xFFFFFFFFu, 5, 5, 0},
    {false, VC4_QPU_A_MAX, 5, 0xFFFFFFFFu, 5, 1},
    {false, VC4_QPU_A_AND, 0xF0F0u, 0xFF00u, 0xF000u, 0},
    {false, VC4_QPU_A_OR, 0xF0F0u, 0xFF00u, 0xFFF0u, 0},
    {false, VC4_QPU_A_XOR, 0xF0F0u, 0xFF00u, 0x0FF0u, 0},
    {false, VC4_QPU_A_NOT, 0xF0F0u, 0, 0xFFFF0F0Fu, 0},
    {false, VC4_QPU_A_CLZ, 0x00010000u, 0, 15, 0},
    {false, VC4_QPU_A_CLZ, 0, 0, 32, 0},
    {false, VC4_QPU_A_V8ADDS, 0xFF80FF01u, 0x01800102u, 0xFFFFFF03u, 0}, /* per byte, saturating */
    {false, VC4_QPU_A_V8SUBS, 0x01800102u, 0xFF80FF01u, 0x00000001u, 0},
    {true, VC4_QPU_M_FMUL, 0x40400000u, 0xC0000000u, 0xC0C00000u, 0},    /* 3 * -2 = -6 */
    {true, VC4_QPU_M_FMUL, 0x3FC00000u, 0x3F800001u, 0x3FC00001u, 0},    /* 1.5*(1+2^-23) truncates (nearest ...02) */
    {true, VC4_QPU_M_MUL24, 0xFFFFFFFFu, 16, 268435440u, 1},             /* low 24 bits; C: > 0xFFFFFF */
    {true, VC4_QPU_M_MUL24, 0x1000u, 0x0FFFu, 0x00FFF000u, 0},
    {true, VC4_QPU_M_V8MULD, 0xFF80FF00u, 0xFF80807Fu, 0xFF408000u, 0},
    {true, VC4_QPU_M_V8MIN, 0x10FF2030u, 0x2001FF00u, 0x10012000u, 0},
    {true, VC4_QPU_M_V8MAX, 0x10FF2030u, 0x2001FF00u, 0x20FFFF30u, 0},
    {true, VC4_QPU_M_V8ADDS, 0xFF80FF01u, 0x01800102u, 0xFFFFFF03u, 0},
    {true, VC4_QPU_M_V8SUBS, 0x01800102u, 0xFF80FF01u, 0x00000001u, 0},
};

static void test_every_op(void)
{
    for (size_t k = 0; k < sizeof op_cases / sizeof op_cases[0]; k++) {
        const struct op_case *t = &op_cases[k];
        struct harness_diags d;
        struct vc4_emu *e = mk(1, &d);
        struct prog p = {0};
        emit(&p, ldi(R0, 0xDEADBEEFu)); /* overwritten */
        emit(&p, ldi(0, t->a));         /* ra0 */
        emit(&p, ldi_b(0, t->b));       /* rb0 */
        emit(&p, NOP);
        if (t->mul)
            emit(&p, I(.op_mul = (uint8_t)t->op, .waddr_mul = R0, .raddr_a = 0, .raddr_b = 0, .mul_a = MUX_A,
                       .mul_b = MUX_B, .sf = 1));
        else
            emit(&p, I(.op_add = (uint8_t)t->op, .waddr_add = R0, .raddr_a = 0, .raddr_b = 0, .add_a = MUX_A,
                       .add_b = MUX_B, .sf = t->op != VC4_QPU_A_NOP));
        emit_end(&p);
        CHECK(run(e, &p) == VC4_OK);
        const struct vc4_qpu *q = &e->v3d.qpu[0];
        uint32_t want = t->op == 0 && !t->mul ? 0xDEADBEEFu : t->r; /* nop writes nothing */
        for (int i = 0; i < 16; i++)
            CHECK_MSG(q->acc[0][i] == want, "%s op %u (%08x, %08x) elem %d: %08x want %08x",
                      t->mul ? "mul" : "add", t->op, t->a, t->b, i, q->acc[0][i], want);
        if (t->op != 0 || t->mul) {
            uint16_t z = t->r == 0 ? 0xFFFF : 0;
            uint16_t n = (t->r >> 31) && !(t->op == VC4_QPU_A_CLZ && !t->mul) ? 0xFFFF : 0;
            CHECK_MSG(q->flag[VC4_QPU_FLAG_Z] == z && q->flag[VC4_QPU_FLAG_N] == n,
                      "%s op %u: Z %04x N %04x", t->mul ? "mul" : "add", t->op, q->flag[VC4_QPU_FLAG_Z],
                      q->flag[VC4_QPU_FLAG_N]);
            if (t->c >= 0)
                CHECK_MSG(q->flag[VC4_QPU_FLAG_C] == (t->c ? 0xFFFF : 0), "%s op %u (%08x, %08x): C %04x want %d",
                          t->mul ? "mul" : "add", t->op, t->a, t->b, q->flag[VC4_QPU_FLAG_C], t->c);
        }
        CHECK_EQ_INT(d.errors, 0);
        vc4_emu_destroy(e);
    }
}

TEST_LIST(test_write_conditions, test_branch_conditions, test_flags_only_where_condition_passes,
          test_mul_flags_only_with_add_nop, test_ldi_flags, test_every_op)
