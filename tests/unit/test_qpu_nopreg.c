/* test_qpu_nopreg.c - reading the NOP registers ra39 / rb39 gives the last
 * values their register file gave SIMD elements 12-15, repeated per quad
 * (vc4asm's VideoCoreIV-addendum, "Secret access to previous input values
 * with vector rotation through the NOP register"): register, element-number
 * and small-immediate reads set them, load immediates do not, and a later
 * write to the register read does not change them.  Run as user programs. */
#include "harness.h"
#include "emu/v3d.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#include "qpu_prog.h"

#define RNOP 39

static void check_vec(struct vc4_emu *e, unsigned acc, const uint32_t *want, const char *what)
{
    const struct vc4_qpu *q = &e->v3d.qpu[0];
    for (unsigned i = 0; i < 16; i++)
        CHECK_MSG(q->acc[acc][i] == want[i], "%s: r%u[%u] = %08x want %08x", what, acc, i, q->acc[acc][i], want[i]);
}

/* The addendum's example: "read elem_num ; mov r0, ra39" gives
 * [12,13,14,15] in every quad. */
static void test_ra39_after_elem_num(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    emit(&p, ldi(R0, 0xDEADBEEFu));
    emit(&p, I(.raddr_a = ELEM)); /* a read without ALU work */
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R0, .raddr_a = RNOP, .add_a = MUX_A, .add_b = MUX_A));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    static const uint32_t want[16] = {12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15};
    check_vec(e, 0, want, "ra39 after elem_num");
    CHECK_EQ_INT(d.errors, 0);
    vc4_emu_destroy(e);
}

/* rb39 after a small immediate (the addendum: "add ra1, ra1, rb39" adds
 * the previous instruction's immediate), a load immediate in between
 * leaving it; ra39 keeps the value read even after the register read is
 * written again. */
static void test_nop_regs_keep_the_read_values(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    emit(&p, ldi(5, 0x55u));    /* ra5 = 0x55 */
    emit(&p, ldi_b(5, 0x77u));  /* rb5 = 0x77 */
    emit(&p, I(.sig = SMALL, .raddr_b = 8, .op_add = VC4_QPU_A_OR, .waddr_add = R1, .add_a = MUX_B,
               .add_b = MUX_B));    /* r1 = 8 (small immediate: a file B read) */
    emit(&p, ldi(R2, 0x1234u)); /* load immediates do not read the files */
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R2, .raddr_b = RNOP, .add_a = MUX_B, .add_b = MUX_B));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R3, .raddr_a = 5, .add_a = MUX_A, .add_b = MUX_A));
    emit(&p, ldi(5, 0x66u));    /* ra5 written again after the read */
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R0, .raddr_a = RNOP, .add_a = MUX_A, .add_b = MUX_A,
               .op_mul = VC4_QPU_M_V8MIN, .waddr_mul = R1, .raddr_b = 5, .mul_a = MUX_B, .mul_b = MUX_B));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R2, .raddr_b = RNOP, .add_a = MUX_B, .add_b = MUX_B));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    uint32_t w[16];
    for (unsigned i = 0; i < 16; i++)
        w[i] = 0x55u;
    check_vec(e, 0, w, "ra39 after ra5 was read, then written");
    for (unsigned i = 0; i < 16; i++)
        w[i] = 0x77u;
    check_vec(e, 1, w, "rb5 read alongside");
    check_vec(e, 2, w, "rb39 after that rb5 read");
    vc4_emu_destroy(e);
    /* the first rb39: the small immediate 8, not the load immediate */
    e = mk(1, &d);
    p.n = 0;
    emit(&p, I(.sig = SMALL, .raddr_b = 8, .op_add = VC4_QPU_A_OR, .waddr_add = R1, .add_a = MUX_B,
               .add_b = MUX_B));
    emit(&p, ldi(R2, 0x1234u));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R2, .raddr_b = RNOP, .add_a = MUX_B, .add_b = MUX_B));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    for (unsigned i = 0; i < 16; i++)
        w[i] = 8;
    check_vec(e, 2, w, "rb39 after a small immediate and a load immediate");
    vc4_emu_destroy(e);
}

/* A program starts with zero NOP registers (the model's choice, which seed
 * 000's vertex shader needs: its movs read rb39 as their second operand):
 * the values of the QPU's previous program do not carry over. */
static void test_nop_regs_zero_at_program_start(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    emit(&p, I(.sig = SMALL, .raddr_b = 8, .raddr_a = ELEM, .op_add = VC4_QPU_A_OR, .waddr_add = R1,
               .add_a = MUX_A, .add_b = MUX_B));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    p.n = 0;
    emit(&p, ldi(R2, 0x1234u));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R2, .raddr_a = RNOP, .raddr_b = RNOP, .add_a = MUX_A,
               .add_b = MUX_B));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    static const uint32_t zero[16] = {0};
    check_vec(e, 2, zero, "ra39 | rb39 at the start of the next program");
    CHECK_EQ_INT(d.errors, 0);
    vc4_emu_destroy(e);
}

TEST_LIST(test_ra39_after_elem_num, test_nop_regs_keep_the_read_values, test_nop_regs_zero_at_program_start)
