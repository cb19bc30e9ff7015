/* test_qpu_regs.c - r5 quad/replicate writes, vector rotation, the TMU
 * swap and TMU_NOSWAP, uniforms-address reset, branch links and register
 * targets, semaphores across QPUs, the host interrupt: user programs run on
 * the emulator (code and uniforms in memory, started through SRQPC).
 * Expected values are literal, from ../shared/reference/qpu-isa-facts.md
 * (numbers in brackets) and the sources it cites. */
#include "harness.h"
#include "emu/v3d.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#include "qpu_prog.h"

#define DATA 0x9000u

static enum vc4_status run_n(struct vc4_emu *e, const struct prog *p, unsigned programs)
{
    load(e, CODE, p);
    for (unsigned i = 0; i < programs; i++)
        queue(e, CODE);
    return vc4_emu_run(e, 100000);
}

static uint64_t branch(unsigned cond, bool rel, bool reg, unsigned raddr_a, unsigned link_a, unsigned link_b,
                       uint32_t imm)
{
    return vc4_qpu_encode(&(struct vc4_qpu_instr){.sig = 15, .cond_br = (uint8_t)cond, .rel = rel, .reg = reg,
                                                   .raddr_a = (uint8_t)raddr_a, .waddr_add = (uint8_t)link_a,
                                                   .waddr_mul = (uint8_t)link_b, .imm = imm});
}

/* r0 = elem * 4 + 1 (distinct small values, bytes for v8min) */
static void elem_values(struct prog *p)
{
    emit(p, I(.sig = SMALL, .op_add = VC4_QPU_A_SHL, .waddr_add = R0, .raddr_a = ELEM, .raddr_b = 2,
              .add_a = MUX_A, .add_b = MUX_B));
    emit(p, I(.sig = SMALL, .op_add = VC4_QPU_A_OR, .waddr_add = R0, .raddr_b = 1, .add_a = 0, .add_b = MUX_B));
}
#define EV(i) (4u * (unsigned)(i) + 1u)

/* ---- r5: quad and replicate writes, gated by element 0 [9] ------------------- */

static void test_r5_quad_and_replicate(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    elem_values(&p);
    /* or r5, r0, r0 through regfile A (add ALU, ws = 0): per quad */
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R5, .add_a = 0, .add_b = 0));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R1, .add_a = 5, .add_b = 5)); /* r1 = r5 */
    /* v8min r5, r0, r0 through regfile B (mul ALU, ws = 0): element 0 to all */
    emit(&p, I(.op_mul = VC4_QPU_M_V8MIN, .waddr_mul = R5, .mul_a = 0, .mul_b = 0));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R2, .add_a = 5, .add_b = 5)); /* r2 = r5 */
    /* the add ALU writing file B (ws = 1) replicates too; the mul ALU writing file A quads */
    emit(&p, I(.ws = 1, .op_add = VC4_QPU_A_OR, .waddr_add = R5, .add_a = 0, .add_b = 0));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R3, .add_a = 5, .add_b = 5)); /* r3 = r5 */
    emit(&p, I(.ws = 1, .op_mul = VC4_QPU_M_V8MIN, .waddr_mul = R5, .mul_a = 0, .mul_b = 0));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    const struct vc4_qpu *q = &e->v3d.qpu[0];
    for (unsigned i = 0; i < 16; i++) {
        CHECK_MSG(q->acc[1][i] == EV(i & ~3u), "quad via add/A: elem %u = %u", i, q->acc[1][i]);
        CHECK_MSG(q->acc[2][i] == EV(0), "replicate via mul/B: elem %u = %u", i, q->acc[2][i]);
        CHECK_MSG(q->acc[3][i] == EV(0), "replicate via add/B: elem %u = %u", i, q->acc[3][i]);
        CHECK_MSG(q->acc[5][i] == EV(i & ~3u), "quad via mul/A: elem %u = %u", i, q->acc[5][i]);
    }
    vc4_emu_destroy(e);

    /* the write happens, for all elements, exactly when element 0's
     * condition passes (VC4C hardware tests) */
    for (int only0 = 0; only0 < 2; only0++) {
        e = mk(1, &d);
        p.n = 0;
        elem_values(&p);
        emit(&p, ldi_b(R5, 0x55u));
        /* Z only at element 0: sub.setf nop, elem, 0 */
        emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .raddr_a = ELEM, .raddr_b = 0, .add_a = MUX_A,
                   .add_b = MUX_B, .sf = 1));
        emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R5, .add_a = 0, .add_b = 0, .cond_add = only0 ? ZS : ZC));
        emit_end(&p);
        CHECK(run(e, &p) == VC4_OK);
        for (unsigned i = 0; i < 16; i++) {
            uint32_t want = only0 ? EV(i & ~3u) : 0x55u;
            CHECK_MSG(e->v3d.qpu[0].acc[5][i] == want, "r5 .%s elem %u: %u want %u", only0 ? "ifz" : "ifnz", i,
                      e->v3d.qpu[0].acc[5][i], want);
        }
        vc4_emu_destroy(e);
    }
}

/* ---- load-immediate flags: the add's condition, or the mul's when the add's
 * is never [3; VC4C generateImmediateFlags: Z, N from the value, C clear] --- */

static void test_ldi_flags_condition(void)
{
    /* sub.setf -, elem, 8: N and C (borrow) at elements 0-7, Z at 8; then
     * ldi 0x80000000 with flags, written by the add under one condition and
     * by the mul under another */
    static const struct {
        uint8_t cond_add, cond_mul;
        uint16_t z, n, c; /* the flags after it */
    } cases[] = {
        /* add never, mul .ifn: elements 0-7 take Z 0, N 1, C 0; 8-15 keep theirs */
        {NEVER, NS, 0x0100, 0x00FF, 0x0000},
        /* add always: every element (the mul's condition does not count) */
        {ALWAYS, NEVER, 0x0000, 0xFFFF, 0x0000},
        /* add .ifnn (elements 8-15), mul .ifn: the add's */
        {NC, NS, 0x0000, 0xFFFF, 0x00FF},
        /* both never: nothing */
        {NEVER, NEVER, 0x0100, 0x00FF, 0x00FF},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        for (int general = 0; general < 2; general++) {
            struct harness_diags d;
            struct vc4_emu *e = mk(1, &d);
            e->v3d.qpu[0].general_only = general;
            struct prog p = {0};
            emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .raddr_a = ELEM, .raddr_b = 8, .add_a = MUX_A,
                       .add_b = MUX_B, .sf = 1));
            emit(&p, I(.sig = LDI, .waddr_add = R1, .waddr_mul = R2, .cond_add = cases[k].cond_add,
                       .cond_mul = cases[k].cond_mul, .sf = 1, .imm = 0x80000000u));
            emit_end(&p);
            CHECK(run(e, &p) == VC4_OK);
            const uint16_t *f = e->v3d.qpu[0].flag;
            CHECK_MSG(f[VC4_QPU_FLAG_Z] == cases[k].z && f[VC4_QPU_FLAG_N] == cases[k].n &&
                          f[VC4_QPU_FLAG_C] == cases[k].c,
                      "case %zu (%s path): Z %04x N %04x C %04x, want %04x %04x %04x", k,
                      general ? "general" : "fast", f[VC4_QPU_FLAG_Z], f[VC4_QPU_FLAG_N], f[VC4_QPU_FLAG_C],
                      cases[k].z, cases[k].n, cases[k].c);
            vc4_emu_destroy(e);
        }
}

/* ---- vector rotation [6-8] ----------------------------------------------------- */

static void test_rotation_by_immediate(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    elem_values(&p);
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = 0, .add_a = 0, .add_b = 0)); /* ra0 = r0 */
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R1, .add_a = 0, .add_b = 0)); /* r1 = r0 */
    /* rotate by n = 1..15 (small immediates 49..63): both inputs r0-r3 ->
     * full 16-lane rotation into rb[n]; from ra0 -> within each quad into
     * rb[16 + n].  The add ALU in the same instruction sees the immediate's
     * value -16 + (code - 48) [5]: r2 = r1 + that. */
    for (unsigned n = 1; n < 16; n++) {
        emit(&p, I(.sig = SMALL, .raddr_b = (uint8_t)(48 + n), .op_mul = VC4_QPU_M_V8MIN, .waddr_mul = (uint8_t)n,
                   .mul_a = 0, .mul_b = 1));
        emit(&p, I(.sig = SMALL, .raddr_b = (uint8_t)(48 + n), .raddr_a = 0, .op_mul = VC4_QPU_M_V8MIN,
                   .waddr_mul = (uint8_t)(16 + n), .mul_a = MUX_A, .mul_b = MUX_A));
    }
    emit(&p, I(.sig = SMALL, .raddr_b = 49, .op_add = VC4_QPU_A_ADD, .waddr_add = R2, .add_a = 1, .add_b = MUX_B,
               .op_mul = VC4_QPU_M_V8MIN, .waddr_mul = R3, .mul_a = 1, .mul_b = 1));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    const struct vc4_qpu *q = &e->v3d.qpu[0];
    for (unsigned n = 1; n < 16; n++)
        for (unsigned i = 0; i < 16; i++) {
            /* result[i] = src[(i - n) mod 16] (py-videocore) */
            uint32_t full = EV((i - n) & 15u), quad = EV((i & ~3u) | ((i - n) & 3u));
            CHECK_MSG(q->rb[n][i] == full, "full rotate %u elem %u: %u want %u", n, i, q->rb[n][i], full);
            CHECK_MSG(q->rb[16 + n][i] == quad, "quad rotate %u elem %u: %u want %u", n, i, q->rb[16 + n][i], quad);
        }
    for (unsigned i = 0; i < 16; i++) {
        CHECK_EQ_U64(q->acc[2][i], EV(i) - 15u); /* code 49 = -15 to the add ALU, not rotated */
        CHECK_EQ_U64(q->acc[3][i], EV((i - 1) & 15u));
    }
    CHECK_EQ_INT(d.errors, 0);
    vc4_emu_destroy(e);
}

static void test_rotation_by_r5(void)
{
    /* r5 element 0, bits 3:0 (Broadcom p.30 via VC4C); 0x13 rotates by 3;
     * r5 written per quad so that only element 0 is 6 */
    static const struct { uint32_t r5; unsigned n; bool quad; } c[] = {
        {5, 5, false}, {0x13, 3, false}, {16, 0, false}, {6, 6, true},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        struct harness_diags d;
        struct vc4_emu *e = mk(1, &d);
        struct prog p = {0};
        elem_values(&p);
        if (c[k].quad) {
            /* r1 = 6 in element 0 only (or.ifz after Z at element 0), then r5 = r1 per quad */
            emit(&p, ldi(R1, 9));
            emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .raddr_a = ELEM, .raddr_b = 0, .add_a = MUX_A,
                       .add_b = MUX_B, .sf = 1));
            emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_OR, .waddr_add = R1, .raddr_b = 6, .add_a = MUX_B,
                       .add_b = MUX_B, .cond_add = ZS));
            emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R5, .add_a = 1, .add_b = 1));
        } else {
            emit(&p, ldi_b(R5, c[k].r5));
        }
        emit(&p, NOP); /* no rotate by r5 right after writing it [8] */
        emit(&p, I(.sig = SMALL, .raddr_b = 48, .op_mul = VC4_QPU_M_V8MIN, .waddr_mul = R2, .mul_a = 0, .mul_b = 0));
        emit_end(&p);
        CHECK(run(e, &p) == VC4_OK);
        for (unsigned i = 0; i < 16; i++) {
            uint32_t want = EV((i - c[k].n) & 15u);
            CHECK_MSG(e->v3d.qpu[0].acc[2][i] == want, "rotate by r5=%x elem %u: %u want %u", c[k].r5, i,
                      e->v3d.qpu[0].acc[2][i], want);
        }
        CHECK_EQ_INT(d.warnings, 0);
        vc4_emu_destroy(e);
    }
}

/* ---- TMU: ldtmu0/1, the swap for QPUs 2 and 3 of a slice, TMU_NOSWAP [23] ---- */

/* The program: optionally tmu_noswap = 1 (three instructions ahead), then
 * TMU<unit>_S = DATA + 4 * qpu number ... (a general lookup per element),
 * then ldtmu<unit>, r0 = r4. */
static void tmu_prog(struct prog *p, unsigned unit, bool noswap)
{
    if (noswap) {
        emit(p, ldi(36, 1)); /* TMU_NOSWAP: element 0 non-zero */
        emit(p, NOP);
        emit(p, NOP);
    }
    emit(p, ldi(R1, DATA));
    /* r2 = qpu number * 4 + DATA (QPU_NUMBER is raddr 38 of file B) */
    emit(p, I(.sig = SMALL, .op_add = VC4_QPU_A_SHL, .waddr_add = R2, .raddr_b = 2, .add_a = MUX_B, .add_b = MUX_B));
    emit(p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R2, .raddr_b = ELEM, .add_a = MUX_B, .add_b = MUX_B));
    emit(p, I(.sig = SMALL, .op_add = VC4_QPU_A_SHL, .waddr_add = R2, .raddr_b = 2, .add_a = 2, .add_b = MUX_B));
    emit(p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = (uint8_t)(56 + 4 * unit), .add_a = 2, .add_b = 1));
    emit(p, NOP);
    emit(p, I(.sig = (uint8_t)(VC4_QPU_SIG_LOAD_TMU0 + unit)));
    emit(p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R0, .add_a = 4, .add_b = 4));
    emit_end(p);
}

static void test_tmu_swap_and_noswap(void)
{
    for (int noswap = 0; noswap < 2; noswap++)
        for (unsigned unit = 0; unit < 2; unit++) {
            struct harness_diags d;
            struct vc4_emu *e = mk(4, &d);
            for (uint32_t i = 0; i < 4; i++) {
                uint32_t w = 0x1000u + i;
                vc4_emu_mem_write(e, DATA + 4 * i, &w, 4);
            }
            struct prog p = {0};
            tmu_prog(&p, unit, noswap);
            load(e, CODE, &p);
            for (int i = 0; i < 4; i++)
                queue(e, CODE);
            /* stop after the S write and before ldtmu: which physical TMU
             * holds each QPU's request? QPUs 2, 3 (id % 4 >= 2) use the
             * other one by default (VC4C); TMU_NOSWAP disables that */
            unsigned before_ld = (noswap ? 3u : 0u) + 6u;
            CHECK(vc4_emu_run(e, before_ld) == VC4_ERR_TIMEOUT);
            for (unsigned qn = 0; qn < 4; qn++) {
                unsigned phys = (!noswap && qn >= 2) ? unit ^ 1u : unit;
                CHECK_MSG(e->v3d.tmu.q[qn].fifo[phys].count == 1 && e->v3d.tmu.q[qn].fifo[phys ^ 1u].count == 0,
                          "noswap %d unit %u QPU %u: request not on TMU%u", noswap, unit, qn, phys);
            }
            CHECK(vc4_emu_run(e, 1000) == VC4_OK);
            for (unsigned qn = 0; qn < 4; qn++)
                for (int i = 0; i < 16; i++)
                    CHECK_MSG(e->v3d.qpu[qn].acc[0][i] == 0x1000u + qn, "QPU %u r4 elem %d: %x", qn, i,
                              e->v3d.qpu[qn].acc[0][i]);
            vc4_emu_destroy(e);
        }
}

/* ldtmu1 after a TMU0 request finds nothing on QPU 0 (names TMU1) and on
 * QPU 2 (swapped: names TMU0): the signal addresses the swapped unit too. */
static void test_ldtmu_unit_after_swap(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(3, &d);
    struct prog p = {0};
    emit(&p, ldi(56, DATA));
    emit(&p, NOP);
    emit(&p, I(.sig = VC4_QPU_SIG_LOAD_TMU1));
    emit_end(&p);
    load(e, CODE, &p);
    queue(e, CODE);
    queue(e, CODE);
    queue(e, CODE);
    CHECK(vc4_emu_run(e, 1000) != VC4_OK);
    CHECK_CONTAINS(d.text, "ldtmu1 with no TMU1 request");
    CHECK(strstr(d.text, "ldtmu1 with no TMU0 request") == NULL); /* QPU 0 stopped the run first */
    vc4_emu_destroy(e);

    e = mk(3, &d);
    load(e, CODE + 0x100, &p);
    p.n = 0;
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, NOP);
    emit_end(&p);
    load(e, CODE, &p);
    queue(e, CODE);         /* QPU 0, 1: harmless */
    queue(e, CODE);
    queue(e, CODE + 0x100); /* QPU 2: swapped */
    CHECK(vc4_emu_run(e, 1000) != VC4_OK);
    CHECK_CONTAINS(d.text, "qpu2");
    CHECK_CONTAINS(d.text, "ldtmu1 with no TMU0 request");
    vc4_emu_destroy(e);
}

/* ---- uniforms: the address reset takes element 0 [22] -------------------------- */

static void test_uniforms_address_reset(void)
{
    const uint32_t u[4] = {111, 222, 333, 444};
    for (int cond_fails = 0; cond_fails < 2; cond_fails++) {
        struct harness_diags d;
        struct vc4_emu *e = mk(1, &d);
        vc4_emu_mem_write(e, UNIF, u, sizeof u);
        struct prog p = {0};
        /* r0 = elem * 4 + UNIF + 8: element 0 is UNIF + 8 (u[2]), the others differ */
        emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SHL, .waddr_add = R0, .raddr_a = ELEM, .raddr_b = 2,
                   .add_a = MUX_A, .add_b = MUX_B));
        emit(&p, ldi(R1, UNIF + 8));
        emit(&p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = R0, .add_a = 0, .add_b = 1));
        /* Z only at element 0 */
        emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .raddr_a = ELEM, .raddr_b = 0, .add_a = MUX_A,
                   .add_b = MUX_B, .sf = 1));
        /* unif_addr = r0, .ifz (element 0 passes) or .ifnz (element 0 fails: no reset) */
        emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = 40, .add_a = 0, .add_b = 0, .cond_add = cond_fails ? ZC : ZS));
        emit(&p, NOP);
        emit(&p, NOP); /* no uniform read in the next 2 instructions */
        emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R2, .raddr_a = 32, .add_a = MUX_A, .add_b = MUX_A));
        emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = R3, .raddr_b = 32, .add_a = MUX_B, .add_b = MUX_B));
        emit_end(&p);
        CHECK(run(e, &p) == VC4_OK);
        for (int i = 0; i < 16; i++) {
            CHECK_EQ_U64(e->v3d.qpu[0].acc[2][i], cond_fails ? 111u : 333u);
            CHECK_EQ_U64(e->v3d.qpu[0].acc[3][i], cond_fails ? 222u : 444u);
        }
        CHECK_EQ_INT(d.warnings, 0);
        vc4_emu_destroy(e);
    }
}

/* ---- branch links: written only when taken; register targets from element 15 [18] */

static void test_branch_links_only_when_taken(void)
{
    for (int taken = 0; taken < 2; taken++) {
        struct harness_diags d;
        struct vc4_emu *e = mk(1, &d);
        struct prog p = {0};
        emit(&p, ldi(1, 0x1234u));     /* ra1 */
        emit(&p, ldi_b(2, 0x5678u));   /* rb2 */
        /* Z everywhere (taken) or nowhere (not taken) */
        emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_OR, .raddr_b = (uint8_t)(taken ? 0 : 1), .add_a = MUX_B,
                   .add_b = MUX_B, .sf = 1));
        size_t at = p.n;
        /* brr.allz ra1 (link via the add waddr, file A), rb2 (mul waddr, file B) */
        emit(&p, branch(VC4_QPU_BCOND_ALL_ZS, true, false, 0, 1, 2, 4 * 8));
        emit(&p, NOP);
        emit(&p, NOP);
        emit(&p, NOP);
        emit(&p, ldi(R0, 1));
        emit_end(&p);
        emit(&p, NOP);
        emit(&p, ldi(R0, 2));
        emit_end(&p);
        CHECK(run(e, &p) == VC4_OK);
        const struct vc4_qpu *q = &e->v3d.qpu[0];
        uint32_t link = CODE + 8 * (uint32_t)(at + 4); /* PC + 4 instructions */
        CHECK_EQ_U64(q->acc[0][0], taken ? 2u : 1u);
        for (int i = 0; i < 16; i++) {
            CHECK_EQ_U64(q->ra[1][i], taken ? link : 0x1234u);
            CHECK_EQ_U64(q->rb[2][i], taken ? link : 0x5678u);
        }
        vc4_emu_destroy(e);
    }
}

static void test_branch_register_element_15(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    /* ra2 = 32 in element 15 only, 0 elsewhere */
    emit(&p, ldi(2, 0));
    emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .raddr_a = ELEM, .raddr_b = 15, .add_a = MUX_A,
               .add_b = MUX_B, .sf = 1));
    emit(&p, I(.sig = LDI, .waddr_add = 2, .cond_add = ZS, .imm = 32));
    emit(&p, NOP);
    /* brr through ra2 (even: no sf), offset 0: target = link + ra2[15] */
    emit(&p, branch(VC4_QPU_BCOND_ALWAYS, true, true, 2, WNOP, WNOP, 0));
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, ldi(R0, 1)); /* link: element 0's offset (0) would come here */
    emit_end(&p);
    emit(&p, NOP);
    emit(&p, ldi(R0, 2)); /* link + 32 */
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[0][0], 2);
    vc4_emu_destroy(e);
}

/* ---- semaphores block across QPUs [4] ------------------------------------------ */

static void test_semaphore_blocks_across_qpus(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(2, &d);
    struct prog a = {0}, b = {0};
    /* QPU 0: sacq 2 ; r0 = 7 */
    emit(&a, I(.sig = LDI, .unpack = VC4_QPU_LDI_SEMAPHORE, .imm = 0x10 | 2, .cond_add = 0, .cond_mul = 0));
    emit(&a, ldi(R0, 7));
    emit_end(&a);
    /* QPU 1: 30 nops ; srel 2 */
    for (int i = 0; i < 30; i++)
        emit(&b, NOP);
    emit(&b, I(.sig = LDI, .unpack = VC4_QPU_LDI_SEMAPHORE, .imm = 2, .cond_add = 0, .cond_mul = 0));
    emit_end(&b);
    load(e, CODE, &a);
    load(e, CODE + 0x400, &b);
    queue(e, CODE);
    queue(e, CODE + 0x400);
    CHECK(vc4_emu_run(e, 20) == VC4_ERR_TIMEOUT);
    struct vc4_emu_qpu_info info;
    CHECK(vc4_emu_qpu_info(e, 0, &info) == VC4_OK);
    CHECK(info.state == VC4_EMU_QPU_BLOCKED);
    CHECK_STR(info.blocked_on, "semaphore acquire");
    CHECK_EQ_U64(info.pc, CODE);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[0][0], 0);
    CHECK(vc4_emu_run(e, 1000) == VC4_OK); /* continues: QPU 1 releases */
    CHECK_EQ_U64(e->v3d.qpu[0].acc[0][0], 7);
    CHECK_EQ_U64(e->v3d.sema.count[2], 0);
    /* QPU 0 could not pass before QPU 1's release (instruction 31) */
    CHECK(e->v3d.qpu[0].time > 31);
    vc4_emu_destroy(e);

    /* release blocks at 15: 16 releases wait for another QPU's acquire */
    e = mk(2, &d);
    a.n = b.n = 0;
    for (int i = 0; i < 16; i++)
        emit(&a, I(.sig = LDI, .unpack = VC4_QPU_LDI_SEMAPHORE, .imm = 5, .cond_add = 0, .cond_mul = 0));
    emit_end(&a);
    for (int i = 0; i < 40; i++)
        emit(&b, NOP);
    emit(&b, I(.sig = LDI, .unpack = VC4_QPU_LDI_SEMAPHORE, .imm = 0x10 | 5, .cond_add = 0, .cond_mul = 0));
    emit_end(&b);
    load(e, CODE, &a);
    load(e, CODE + 0x400, &b);
    queue(e, CODE);
    queue(e, CODE + 0x400);
    CHECK(vc4_emu_run(e, 30) == VC4_ERR_TIMEOUT);
    CHECK(vc4_emu_qpu_info(e, 0, &info) == VC4_OK);
    CHECK(info.state == VC4_EMU_QPU_BLOCKED);
    CHECK_STR(info.blocked_on, "semaphore release");
    CHECK_EQ_U64(e->v3d.sema.count[5], 15);
    CHECK(vc4_emu_run(e, 1000) == VC4_OK);
    CHECK_EQ_U64(e->v3d.sema.count[5], 15);
    vc4_emu_destroy(e);
}

/* ---- host interrupt: a non-zero value, conditional writes work [21] ------------ */

static void test_host_interrupt(void)
{
    struct harness_diags d;
    /* per QPU: 0 = write 1, 1 = write 0, 2 = .ifz with zero values only where
     * Z passes, 3 = .ifz with a non-zero value in element 0 only */
    for (int k = 0; k < 4; k++) {
        struct vc4_emu *e = mk(2, &d);
        struct prog p = {0};
        emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .waddr_add = R0, .raddr_a = ELEM, .raddr_b = 0,
                   .add_a = MUX_A, .add_b = MUX_B, .sf = 1)); /* r0 = elem, Z at 0 */
        if (k == 0)
            emit(&p, ldi(38, 1));
        else if (k == 1)
            emit(&p, ldi(38, 0));
        else if (k == 2) /* element 0 passes, its value is 0 */
            emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = 38, .add_a = 0, .add_b = 0, .cond_add = ZS));
        else /* elements 1-15 pass with non-zero values */
            emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = 38, .add_a = 0, .add_b = 0, .cond_add = ZC));
        emit_end(&p);
        CHECK(run_n(e, &p, 2) == VC4_OK);
        uint32_t itc = 0;
        CHECK(vc4_emu_reg_read(e, VC4_V3D_DBQITC, &itc) == VC4_OK);
        bool raised = k == 0 || k == 3;
        CHECK_MSG(itc == (raised ? 3u : 0u), "case %d: DBQITC %x", k, itc);
        struct vc4_emu_stats s;
        vc4_emu_stats(e, &s);
        CHECK_EQ_U64(s.host_interrupts, raised ? 2 : 0);
        /* write 1 to clear, per QPU */
        vc4_emu_reg_write(e, VC4_V3D_DBQITC, 1);
        vc4_emu_reg_read(e, VC4_V3D_DBQITC, &itc);
        CHECK_EQ_U64(itc, raised ? 2u : 0u);
        vc4_emu_destroy(e);
    }
}

/* ---- instruction words changed in memory are seen (decoded-instruction cache) -- */

/* Regression for the generation-checked instruction cache (qpu.c fetch):
 * a word rewritten between runs by vc4_emu_mem_write, through a
 * vc4_emu_mem_ptr pointer (no API call in between), and by the program's
 * own VDW store during a run, is executed as the new word. */
static void test_code_rewritten_is_seen(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    emit(&p, ldi(R0, 1));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[0][0], 1);
    uint8_t b[8];
    vc4_qpu_store_le(b, ldi(R0, 2));
    vc4_emu_mem_write(e, CODE, b, 8);
    queue(e, CODE);
    CHECK(vc4_emu_run(e, 1000) == VC4_OK);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[0][0], 2);
    uint8_t *code = vc4_emu_mem_ptr(e, CODE, 8);
    CHECK(code != NULL);
    for (uint32_t k = 3; k < 5 && code; k++) { /* twice through the same pointer */
        vc4_qpu_store_le(code, ldi(R0, k));
        queue(e, CODE);
        CHECK(vc4_emu_run(e, 1000) == VC4_OK);
        CHECK_EQ_U64(e->v3d.qpu[0].acc[0][0], k);
    }
    vc4_emu_destroy(e);

    /* self-modifying through VDW: TARGET runs once (and is cached), the
     * program stores a new word over it with a VDW DMA, then runs it again */
    e = mk(1, &d);
    p.n = 0;
    uint64_t neww = ldi(R2, 2);
    emit(&p, ldi(R3, 0));
    emit(&p, I(.sig = SMALL, .op_add = VC4_QPU_A_SUB, .raddr_a = ELEM, .raddr_b = 0, .add_a = MUX_A,
               .add_b = MUX_B, .sf = 1)); /* Z at element 0 */
    emit(&p, ldi(R0, (uint32_t)(neww >> 32)));
    emit(&p, I(.sig = LDI, .waddr_add = R0, .cond_add = ZS, .imm = (uint32_t)neww)); /* element 0: low word */
    emit(&p, ldi(7, 0));                                       /* ra7: pass */
    size_t target = p.n;
    emit(&p, ldi(R2, 1));                                      /* TARGET */
    emit(&p, I(.op_add = VC4_QPU_A_ADD, .waddr_add = R3, .add_a = 3, .add_b = 2));
    emit(&p, I(.op_add = VC4_QPU_A_OR, .raddr_a = 7, .add_a = MUX_A, .add_b = MUX_A, .sf = 1));
    emit(&p, ldi(7, 1));
    size_t br = p.n;
    emit(&p, branch(VC4_QPU_BCOND_ALL_ZC, true, false, 0, WNOP, WNOP, 0)); /* second pass: to END */
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, ldi_b(49, 0x00001A00u));                          /* VPM write: row 0, 32-bit horizontal */
    emit(&p, I(.op_add = VC4_QPU_A_OR, .waddr_add = 48, .add_a = 0, .add_b = 0));
    emit(&p, ldi_b(49, 0x80824000u));                          /* VDW basic: 1 unit of 2 words, horizontal */
    emit(&p, ldi_b(50, CODE + 8 * (uint32_t)target));          /* VPM_ST_ADDR: store */
    emit(&p, I(.raddr_b = 50, .op_add = VC4_QPU_A_OR, .add_a = MUX_B, .add_b = MUX_B)); /* VPM_ST_WAIT */
    size_t back = p.n;
    emit(&p, branch(VC4_QPU_BCOND_ALWAYS, true, false, 0, WNOP, WNOP,
                    (uint32_t)(8 * ((int32_t)target - (int32_t)(back + 4)))));
    emit(&p, NOP);
    emit(&p, NOP);
    emit(&p, NOP);
    size_t end = p.n;
    emit_end(&p);
    p.w[br] = branch(VC4_QPU_BCOND_ALL_ZC, true, false, 0, WNOP, WNOP, (uint32_t)(8 * (end - (br + 4))));
    CHECK(run(e, &p) == VC4_OK);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[3][0], 3); /* 1 (old word) + 2 (stored word) */
    uint8_t wb[8];
    vc4_emu_mem_read(e, CODE + 8 * (uint32_t)target, wb, 8);
    CHECK_EQ_U64(vc4_qpu_load_le(wb), neww);
    CHECK_EQ_INT(d.errors, 0);
    vc4_emu_destroy(e);
}

TEST_LIST(test_r5_quad_and_replicate, test_ldi_flags_condition, test_rotation_by_immediate, test_rotation_by_r5, test_tmu_swap_and_noswap,
          test_ldtmu_unit_after_swap, test_uniforms_address_reset, test_branch_links_only_when_taken,
          test_branch_register_element_15, test_semaphore_blocks_across_qpus, test_host_interrupt,
          test_code_rewritten_is_seen)
