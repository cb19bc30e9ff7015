/* test_qpu_pack.c - every pack mode (regfile A with PM 0, the mul colour
 * pack with PM 1) and every unpack mode (regfile A with PM 0, r4 with PM 1,
 * for integer and float consumers), run as user programs on the emulator.
 * Expected values are literal, from ../shared/reference/qpu-isa-facts.md
 * (numbers in brackets) and the sources it cites. */
#include "harness.h"
#include "emu/v3d.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#include "qpu_prog.h"


#define DATA 0x9000u

/* ---- regfile-A pack (PM 0) [12] ------------------------------------------- */

/* op ra3.pack(mode), r0 = a, r1 = b on the add ALU (or, with on_mul, the
 * mul ALU writing file A through ws); ra3 holds old before.  Element 0. */
static uint32_t pack_a(unsigned mode, bool on_mul, unsigned op, uint32_t a, uint32_t b, uint32_t old)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    emit(&p, ldi(R0, a));
    emit(&p, ldi(R1, b));
    emit(&p, ldi(3, old));
    emit(&p, NOP);
    if (on_mul)
        emit(&p, I(.ws = 1, .pack = (uint8_t)mode, .op_mul = (uint8_t)op, .waddr_mul = 3, .mul_a = 0, .mul_b = 1));
    else
        emit(&p, I(.pack = (uint8_t)mode, .op_add = (uint8_t)op, .waddr_add = 3, .add_a = 0, .add_b = 1));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    CHECK_EQ_INT(d.errors, 0);
    uint32_t r = e->v3d.qpu[0].ra[3][0];
    for (int i = 1; i < 16; i++)
        CHECK_EQ_U64(e->v3d.qpu[0].ra[3][i], r);
    vc4_emu_destroy(e);
    return r;
}

struct pack_case {
    unsigned mode, op;
    bool on_mul;
    uint32_t a, b, old, want;
    const char *why;
};

#define OLD 0xAABBCCDDu
static const struct pack_case pack_cases[] = {
    {VC4_QPU_PACK_A_NOP, VC4_QPU_A_ADD, false, 5, 6, OLD, 11, "no pack"},
    /* integer 16a/16b: the low half into one half, the other half kept */
    {VC4_QPU_PACK_A_16A, VC4_QPU_A_OR, false, 0x12345678u, 0, OLD, 0xAABB5678u, "16a int"},
    {VC4_QPU_PACK_A_16B, VC4_QPU_A_OR, false, 0x12345678u, 0, OLD, 0x5678CCDDu, "16b int"},
    /* float 16a/16b: float -> half (VC4C hardware tests) */
    {VC4_QPU_PACK_A_16A, VC4_QPU_A_FMAX, false, 0x3F800000u, 0x3F800000u, OLD, 0xAABB3C00u, "16a 1.0"},
    {VC4_QPU_PACK_A_16B, VC4_QPU_A_FMAX, false, 0x40000000u, 0x40000000u, OLD, 0x4000CCDDu, "16b 2.0"},
    {VC4_QPU_PACK_A_16A, VC4_QPU_A_FMAX, false, 0x80000000u, 0x80000000u, OLD, 0xAABB0000u, "16a -0 -> +0"},
    {VC4_QPU_PACK_A_16A, VC4_QPU_A_FMAX, false, 0x7FC00000u, 0x7FC00000u, OLD, 0xAABB7C00u, "16a NaN -> Inf"},
    {VC4_QPU_PACK_A_16A, VC4_QPU_A_FMAX, false, 0x47800000u, 0x47800000u, OLD, 0xAABB7C00u, "16a 65536 -> Inf"},
    {VC4_QPU_PACK_A_16A, VC4_QPU_A_FMAX, false, 0xCE6E6B28u, 0xCE6E6B28u, OLD, 0xAABBFC00u, "16a -1e9 -> -Inf"},
    {VC4_QPU_PACK_A_16A, VC4_QPU_A_FMAX, false, 0x30800000u, 0x30800000u, OLD, 0xAABB0000u, "16a 2^-30 -> +0"},
    {VC4_QPU_PACK_A_16A, VC4_QPU_A_FMAX, false, 0x3F801000u, 0x3F801000u, OLD, 0xAABB3C01u, "16a 1+2^-11: away"},
    {VC4_QPU_PACK_A_16A, VC4_QPU_A_FMAX, false, 0x3F800800u, 0x3F800800u, OLD, 0xAABB3C00u, "16a 1+2^-12"},
    {VC4_QPU_PACK_A_16A, VC4_QPU_A_ITOF, false, 3, 0, OLD, 0xAABB4200u, "16a after itof (float result)"},
    /* 8888 replicates the low byte; 8a-8d put it in one byte */
    {VC4_QPU_PACK_A_8888, VC4_QPU_A_OR, false, 0x12345678u, 0, OLD, 0x78787878u, "8888"},
    {VC4_QPU_PACK_A_8A, VC4_QPU_A_OR, false, 0x12345678u, 0, OLD, 0xAABBCC78u, "8a"},
    {VC4_QPU_PACK_A_8B, VC4_QPU_A_OR, false, 0x12345678u, 0, OLD, 0xAABB78DDu, "8b"},
    {VC4_QPU_PACK_A_8C, VC4_QPU_A_OR, false, 0x12345678u, 0, OLD, 0xAA78CCDDu, "8c"},
    {VC4_QPU_PACK_A_8D, VC4_QPU_A_OR, false, 0x12345678u, 0, OLD, 0x78BBCCDDu, "8d"},
    /* 32-bit saturation of the exact add/sub result (VC4C hardware tests) */
    {VC4_QPU_PACK_A_32_SAT, VC4_QPU_A_ADD, false, 0x7FFFFFFFu, 1, OLD, 0x7FFFFFFFu, "32s add overflow"},
    {VC4_QPU_PACK_A_32_SAT, VC4_QPU_A_ADD, false, 0x80000000u, 0xFFFFFFFFu, OLD, 0x80000000u, "32s add underflow"},
    {VC4_QPU_PACK_A_32_SAT, VC4_QPU_A_ADD, false, 5, 6, OLD, 11, "32s add in range"},
    /* sub's clamp range is shifted: min(0x80000000, max(-0x80000001, x)) (vc4asm) */
    {VC4_QPU_PACK_A_32_SAT, VC4_QPU_A_SUB, false, 0x7FFFFFFFu, 0xFFFFFFFFu, OLD, 0x80000000u, "32s sub overflow"},
    {VC4_QPU_PACK_A_32_SAT, VC4_QPU_A_SUB, false, 0x80000000u, 1, OLD, 0x7FFFFFFFu, "32s sub underflow"},
    {VC4_QPU_PACK_A_32_SAT, VC4_QPU_A_OR, false, 0x12345678u, 0, OLD, 0x12345678u, "32s of another op"},
    /* saturating 16/8-bit packs: 32-bit saturation first, then the clamp */
    {VC4_QPU_PACK_A_16A_SAT, VC4_QPU_A_OR, false, 70000, 0, OLD, 0xAABB7FFFu, "16as 70000"},
    {VC4_QPU_PACK_A_16A_SAT, VC4_QPU_A_OR, false, (uint32_t)-70000, 0, OLD, 0xAABB8000u, "16as -70000"},
    {VC4_QPU_PACK_A_16A_SAT, VC4_QPU_A_OR, false, (uint32_t)-5, 0, OLD, 0xAABBFFFBu, "16as -5"},
    /* after a 32-bit overflow the saturating packs give 0 unless W fits (measured, VC4C opcode_pack_test.h) */
    {VC4_QPU_PACK_A_16A_SAT, VC4_QPU_A_ADD, false, 0x7FFFFFFFu, 1, OLD, 0xAABB0000u, "16as of a 32-bit overflow"},
    {VC4_QPU_PACK_A_16B_SAT, VC4_QPU_A_OR, false, 70000, 0, OLD, 0x7FFFCCDDu, "16bs 70000"},
    {VC4_QPU_PACK_A_16B_SAT, VC4_QPU_A_OR, false, (uint32_t)-70000, 0, OLD, 0x8000CCDDu, "16bs -70000"},
    {VC4_QPU_PACK_A_8888_SAT, VC4_QPU_A_OR, false, 300, 0, OLD, 0xFFFFFFFFu, "8888s 300"},
    {VC4_QPU_PACK_A_8888_SAT, VC4_QPU_A_OR, false, (uint32_t)-5, 0, OLD, 0, "8888s -5"},
    {VC4_QPU_PACK_A_8888_SAT, VC4_QPU_A_OR, false, 0x42, 0, OLD, 0x42424242u, "8888s 0x42"},
    {VC4_QPU_PACK_A_8A_SAT, VC4_QPU_A_OR, false, 300, 0, OLD, 0xAABBCCFFu, "8as 300"},
    {VC4_QPU_PACK_A_8B_SAT, VC4_QPU_A_OR, false, (uint32_t)-1, 0, OLD, 0xAABB00DDu, "8bs -1"},
    {VC4_QPU_PACK_A_8C_SAT, VC4_QPU_A_OR, false, 0x7F, 0, OLD, 0xAA7FCCDDu, "8cs 0x7f"},
    {VC4_QPU_PACK_A_8D_SAT, VC4_QPU_A_OR, false, 256, 0, OLD, 0xFFBBCCDDu, "8ds 256"},
    {VC4_QPU_PACK_A_8D_SAT, VC4_QPU_A_ADD, false, 0x7FFFFFFFu, 0x7FFFFFFFu, OLD, 0x00BBCCDDu, "8ds of a 32-bit overflow"},
    /* the mul ALU writing file A (ws = 1) gets the regfile-A pack */
    {VC4_QPU_PACK_A_8888, VC4_QPU_M_V8MIN, true, 0x12345678u, 0x12345678u, OLD, 0x78787878u, "mul 8888"},
    {VC4_QPU_PACK_A_16B, VC4_QPU_M_FMUL, true, 0x3F000000u, 0x40000000u, OLD, 0x3C00CCDDu, "mul fmul 16b 0.5*2"},
    {VC4_QPU_PACK_A_8C_SAT, VC4_QPU_M_MUL24, true, 20, 20, OLD, 0xAAFFCCDDu, "mul mul24 400 -> 8cs"},
};

static void test_regfile_a_pack_modes(void)
{
    bool seen[16] = {0};
    for (size_t k = 0; k < sizeof pack_cases / sizeof pack_cases[0]; k++) {
        const struct pack_case *t = &pack_cases[k];
        uint32_t r = pack_a(t->mode, t->on_mul, t->op, t->a, t->b, t->old);
        CHECK_MSG(r == t->want, "%s: pack %u op %u (%08x, %08x): %08x want %08x", t->why, t->mode, t->op, t->a,
                  t->b, r, t->want);
        seen[t->mode] = true;
    }
    for (unsigned m = 0; m < 16; m++)
        CHECK_MSG(seen[m], "pack mode %u not covered", m);
}

/* ---- mul pack (PM 1): float -> colour byte, sat(x * 255) rounded [13] ------ */

/* fmul rb3.pack(mode), r0 = f, 1.0 with rb3 = old (or r2 when to_acc). */
static uint32_t pack_mul(unsigned mode, uint32_t f, uint32_t old, bool to_acc)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    emit(&p, ldi(R0, f));
    emit(&p, to_acc ? ldi(R2, old) : ldi_b(3, old));
    emit(&p, NOP);
    /* small immediate 32 = 1.0 */
    emit(&p, I(.sig = SMALL, .pm = 1, .pack = (uint8_t)mode, .op_mul = VC4_QPU_M_FMUL,
               .waddr_mul = (uint8_t)(to_acc ? R2 : 3), .raddr_b = 32, .mul_a = 0, .mul_b = MUX_B));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    CHECK_EQ_INT(d.errors, 0);
    uint32_t r = to_acc ? e->v3d.qpu[0].acc[2][0] : e->v3d.qpu[0].rb[3][0];
    vc4_emu_destroy(e);
    return r;
}

static void test_mul_colour_pack(void)
{
    static const struct {
        unsigned mode;
        uint32_t f, old, want;
        const char *why;
    } c[] = {
        {VC4_QPU_PACK_MUL_8888, 0x00000000u, OLD, 0x00000000u, "0.0"},
        {VC4_QPU_PACK_MUL_8888, 0x3F800000u, OLD, 0xFFFFFFFFu, "1.0"},
        {VC4_QPU_PACK_MUL_8888, 0x40000000u, OLD, 0xFFFFFFFFu, "2.0 saturates"},
        {VC4_QPU_PACK_MUL_8888, 0xBF000000u, OLD, 0x00000000u, "-0.5 saturates to 0"},
        /* vc4asm issue #23: 1/128 * 255 = 1.99 -> 2, not truncated */
        {VC4_QPU_PACK_MUL_8888, 0x3C000000u, OLD, 0x02020202u, "1/128 rounds to 2"},
        {VC4_QPU_PACK_MUL_8888, 0x3E800000u, OLD, 0x40404040u, "0.25 -> 63.75 -> 64"},
        {VC4_QPU_PACK_MUL_8888, 0x3B008080u, OLD, 0x00000000u, "x*255 = 0.49999997 -> 0"},
        {VC4_QPU_PACK_MUL_8888, 0x3B008081u, OLD, 0x01010101u, "x*255 = 0.50000003 -> 1"},
        {VC4_QPU_PACK_MUL_8888, 0x3B808081u, OLD, 0x01010101u, "1/255 -> 1"},
        {VC4_QPU_PACK_MUL_8A, 0x3F800000u, OLD, 0xAABBCCFFu, "8a 1.0"},
        {VC4_QPU_PACK_MUL_8B, 0x3F800000u, OLD, 0xAABBFFDDu, "8b 1.0"},
        {VC4_QPU_PACK_MUL_8C, 0x3E800000u, OLD, 0xAA40CCDDu, "8c 0.25"},
        {VC4_QPU_PACK_MUL_8D, 0x3C000000u, OLD, 0x02BBCCDDu, "8d 1/128"},
        {VC4_QPU_PACK_MUL_NOP, 0x3E800000u, OLD, 0x3E800000u, "no pack"},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        uint32_t r = pack_mul(c[k].mode, c[k].f, c[k].old, false);
        CHECK_MSG(r == c[k].want, "mul pack %u %s (%08x): %08x want %08x", c[k].mode, c[k].why, c[k].f, r,
                  c[k].want);
    }
    /* to an accumulator too */
    CHECK_EQ_U64(pack_mul(VC4_QPU_PACK_MUL_8B, 0x3F800000u, 0x11223344u, true), 0x1122FF44u);
}

/* ---- unpack (PM 0: regfile A, PM 1: r4) [11] ---------------------------------- */

/* or r1, X.unpack, X.unpack (int) or fmax (float) where X is ra0 (src_r4
 * false) or r4 loaded by a TMU lookup of a word holding value; pm as given. */
static uint32_t unpack_run(bool src_r4, unsigned pm, unsigned mode, bool to_float, uint32_t value)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    unsigned op = to_float ? VC4_QPU_A_FMAX : VC4_QPU_A_OR;
    if (src_r4) {
        uint32_t w = value;
        vc4_emu_mem_write(e, DATA, &w, 4);
        emit(&p, ldi(56, DATA)); /* TMU0_S: a general lookup of DATA per element */
        emit(&p, NOP);
        emit(&p, I(.sig = VC4_QPU_SIG_LOAD_TMU0));
        emit(&p, I(.pm = (uint8_t)pm, .unpack = (uint8_t)mode, .op_add = (uint8_t)op, .waddr_add = R1, .add_a = 4,
                   .add_b = 4));
    } else {
        emit(&p, ldi(0, value));
        emit(&p, NOP);
        emit(&p, I(.pm = (uint8_t)pm, .unpack = (uint8_t)mode, .op_add = (uint8_t)op, .waddr_add = R1,
                   .raddr_a = 0, .add_a = MUX_A, .add_b = MUX_A));
    }
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    CHECK_EQ_INT(d.errors, 0);
    uint32_t r = e->v3d.qpu[0].acc[1][0];
    vc4_emu_destroy(e);
    return r;
}

#define VI 0x8001FF80u  /* bytes 80 FF 01 80, halves FF80 8001 */
#define VF16 0x3C00C000u /* halves -2.0 (a), 1.0 (b) */
#define VF8 0xFF800140u  /* bytes 40 01 80 FF */

static void test_unpack_modes(void)
{
    /* int consumers: 16a/16b sign-extend, 8a-8d zero-extend, 8dr replicates byte 3 */
    static const uint32_t want_int[8] = {VI, 0xFFFFFF80u, 0xFFFF8001u, 0x80808080u, 0x80u, 0xFFu, 0x01u, 0x80u};
    /* float consumers: half -> float; 8888 replicates the byte; byte / 255 (measured, VC4C unpack_test.h:
     * truncated, but 0x3b808081 for byte 1) */
    static const uint32_t in_float[8] = {0x3F800000u, VF16, VF16, VF8, VF8, VF8, VF8, VF8};
    static const uint32_t want_float[8] = {0x3F800000u, 0xC0000000u, 0x3F800000u, 0xFFFFFFFFu,
                                           0x3E808080u, 0x3B808081u, 0x3F008080u, 0x3F800000u};
    for (unsigned src = 0; src < 2; src++) /* 0: regfile A with PM 0, 1: r4 with PM 1 */
        for (unsigned m = 0; m < 8; m++) {
            uint32_t r = unpack_run(src, src, m, false, VI);
            CHECK_MSG(r == want_int[m], "%s unpack %u int: %08x want %08x", src ? "r4" : "ra", m, r, want_int[m]);
            r = unpack_run(src, src, m, true, in_float[m]);
            CHECK_MSG(r == want_float[m], "%s unpack %u float: %08x want %08x", src ? "r4" : "ra", m, r,
                      want_float[m]);
        }
    /* PM selects the source: PM 1 leaves regfile A alone, PM 0 leaves r4 alone */
    CHECK_EQ_U64(unpack_run(false, 1, VC4_QPU_UNPACK_16A, false, VI), VI);
    CHECK_EQ_U64(unpack_run(true, 0, VC4_QPU_UNPACK_16A, false, VI), VI);
    CHECK_EQ_U64(unpack_run(true, 0, VC4_QPU_UNPACK_8B, false, VI), VI);
}

/* The mul ALU's operands from regfile A are unpacked too, for its own
 * consumer type: v8min (int) and fmul (float, the small immediate 1.0 from
 * regfile B is not unpacked). */
static void test_unpack_on_mul_alu(void)
{
    struct harness_diags d;
    struct vc4_emu *e = mk(1, &d);
    struct prog p = {0};
    emit(&p, ldi(0, VI));
    emit(&p, ldi(1, VF16));
    emit(&p, NOP);
    emit(&p, I(.unpack = VC4_QPU_UNPACK_8B, .op_mul = VC4_QPU_M_V8MIN, .waddr_mul = R1, .raddr_a = 0,
               .mul_a = MUX_A, .mul_b = MUX_A));
    emit(&p, I(.sig = SMALL, .unpack = VC4_QPU_UNPACK_16B, .op_mul = VC4_QPU_M_FMUL, .waddr_mul = R2,
               .raddr_a = 1, .raddr_b = 33 /* 2.0 */, .mul_a = MUX_A, .mul_b = MUX_B));
    emit_end(&p);
    CHECK(run(e, &p) == VC4_OK);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[1][0], 0xFFu);
    CHECK_EQ_U64(e->v3d.qpu[0].acc[2][0], 0x40000000u); /* 1.0 * 2.0 */
    vc4_emu_destroy(e);
}

TEST_LIST(test_regfile_a_pack_modes, test_mul_colour_pack, test_unpack_modes, test_unpack_on_mul_alu)
