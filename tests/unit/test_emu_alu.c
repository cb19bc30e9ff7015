/* test_emu_alu.c - bit-exact ALU, pack and unpack tables (src/emu/qpu_alu.c). */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "harness.h"
#include "emu/qpu_alu.h"
#include "spec/half.h"
#include "emu/sfu.h"
#include "vc4kit/qpu.h"

struct t2 { uint32_t a, b, r; };

static void test_float_add_sub_rtz(void)
{
    /* seed 003 printed on hardware: 32*(2/639) - 1 and 448*(2/479) - 1 */
    CHECK_EQ_U64(vc4_alu_fsub(vc4_alu_fmul(0x42000000u, 0x3B4D1ED9u), 0x3F800000u), 0xBF665C24u);
    CHECK_EQ_U64(vc4_alu_fsub(vc4_alu_fmul(0x43E00000u, 0x3B88D181u), 0x3F800000u), 0x3F5EDD42u);
    static const struct t2 add[] = {
        {0x3F800000u, 0x3F800000u, 0x40000000u},     /* 1 + 1 */
        {0x3F800000u, 0xBF800000u, 0x00000000u},     /* 1 - 1 = +0 */
        {0x80000000u, 0x80000000u, 0x00000000u},     /* -0 + -0 = +0 (measured, VC4C opcode_test.h) */
        {0x00000001u, 0x00000000u, 0x00000000u},     /* denormal input flushed */
        {0x00000000u, 0x7FC00000u, 0x7F800000u},     /* 0 + NaN = +Inf */
        {0x7F7FFFFFu, 0x7F7FFFFFu, 0x7F800000u},     /* overflow */
        {0x3F800000u, 0x33800000u, 0x3F800000u},     /* 1 + 2^-24 truncates */
        {0x3F800000u, 0xB3800000u, 0x3F7FFFFFu},     /* 1 - 2^-24 truncates toward 0 */
        {0x00800000u, 0x80000001u, 0x00800000u},
        {0x00800001u, 0x80800000u, 0x00000000u},     /* result denormal: flushed */
    };
    for (size_t i = 0; i < sizeof add / sizeof add[0]; i++)
        CHECK_MSG(vc4_alu_fadd(add[i].a, add[i].b) == add[i].r, "fadd %08x %08x = %08x, want %08x",
                  add[i].a, add[i].b, vc4_alu_fadd(add[i].a, add[i].b), add[i].r);
}

static void test_float_mul(void)
{
    CHECK_EQ_U64(vc4_alu_fmul(0x3FAAAAABu, 0x40400000u), 0x40800000u); /* 1.3333334*3 = 4.0000005 -> trunc 4.0 */
    CHECK_EQ_U64(vc4_alu_fmul(0xBF800000u, 0x3F800000u), 0xBF800000u);
    CHECK_EQ_U64(vc4_alu_fmul(0x00400000u, 0x4F000000u), 0x00000000u); /* denormal in */
    CHECK_EQ_U64(vc4_alu_fmul(0x7F800000u, 0xBF800000u), 0xFF800000u);
    CHECK_EQ_U64(vc4_alu_fmul(0x1F800000u, 0x1F800000u), 0x00000000u); /* 2^-128: flushed */
    CHECK_EQ_U64(vc4_alu_fmul(0x20000000u, 0x20000000u), 0x00800000u);
    CHECK_EQ_U64(vc4_alu_fmul(0x3F800001u, 0x3F800001u), 0x3F800002u); /* 1+2^-22+2^-46 trunc */
}

static void test_minmax_conv(void)
{
    CHECK_EQ_U64(vc4_alu_fmin(0xBF800000u, 0x3F800000u), 0xBF800000u);
    CHECK_EQ_U64(vc4_alu_fmax(0xBF800000u, 0x3F800000u), 0x3F800000u);
    CHECK_EQ_U64(vc4_alu_fminabs(0xC0000000u, 0x3F800000u), 0x3F800000u);
    CHECK_EQ_U64(vc4_alu_fmaxabs(0xC0000000u, 0x3F800000u), 0x40000000u);
    CHECK_EQ_U64(vc4_alu_ftoi(0x40490FDBu), 3);
    CHECK_EQ_U64(vc4_alu_ftoi(0xC0490FDBu), 0xFFFFFFFDu);
    CHECK_EQ_U64(vc4_alu_ftoi(0x4F000000u), 0); /* 2^31: out of range */
    CHECK_EQ_U64(vc4_alu_ftoi(0x3F000000u), 0);
    CHECK_EQ_U64(vc4_alu_itof(0xFFFFFFFFu), 0xBF800000u);
    CHECK_EQ_U64(vc4_alu_itof(0x7FFFFFFFu), 0x4EFFFFFFu); /* truncated */
    CHECK_EQ_U64(vc4_alu_itof(0x80000000u), 0xCF000000u);
    CHECK_EQ_U64(vc4_alu_itof(32), 0x42000000u);
}

static void test_int_ops(void)
{
    uint32_t a[16], b[16], r[16];
    uint16_t c;
    for (int i = 0; i < 16; i++) { a[i] = 0x80000001u; b[i] = (uint32_t)(i + 31); }
    CHECK(vc4_alu_add_vec(VC4_QPU_A_SHR, a, b, r, &c));
    CHECK_EQ_U64(r[0], 0x1);             /* shift by 31 */
    CHECK_EQ_U64(r[1], 0x80000001u);     /* shift by 32 = by 0 */
    CHECK_EQ_U64(r[2], 0x40000000u);     /* by 33 = by 1 */
    CHECK_EQ_U64(c & 7, 0x4);            /* last bit out: bit 30 (0) for 31, none for 0, bit 0 for 1 */
    CHECK(vc4_alu_add_vec(VC4_QPU_A_ASR, a, b, r, NULL));
    CHECK_EQ_U64(r[0], 0xFFFFFFFFu);
    CHECK_EQ_U64(r[2], 0xC0000000u);
    CHECK(vc4_alu_add_vec(VC4_QPU_A_ROR, a, b, r, NULL));
    CHECK_EQ_U64(r[2], 0xC0000000u);
    CHECK(vc4_alu_add_vec(VC4_QPU_A_SHL, a, b, r, &c));
    CHECK_EQ_U64(r[0], 0x80000000u);
    for (int i = 0; i < 16; i++) { a[i] = 0xFFFFFFFFu; b[i] = 1; }
    CHECK(vc4_alu_add_vec(VC4_QPU_A_ADD, a, b, r, &c));
    CHECK_EQ_U64(r[0], 0); CHECK_EQ_U64(c, 0xFFFF);
    CHECK(vc4_alu_add_vec(VC4_QPU_A_SUB, b, a, r, &c));
    CHECK_EQ_U64(r[0], 2); CHECK_EQ_U64(c, 0xFFFF); /* 1 < 0xFFFFFFFF unsigned */
    CHECK(vc4_alu_add_vec(VC4_QPU_A_MIN, a, b, r, &c));
    CHECK_EQ_U64(r[0], 0xFFFFFFFFu); CHECK_EQ_U64(c, 0);
    CHECK(vc4_alu_add_vec(VC4_QPU_A_CLZ, b, b, r, NULL));
    CHECK_EQ_U64(r[0], 31);
    CHECK_EQ_U64(vc4_alu_clz(0), 32);
    CHECK(!vc4_alu_add_vec(9, a, b, r, NULL)); /* reserved */
    /* mul24: unsigned low 24 bits (V3DLib: -1 * 16 = 268435440) */
    CHECK_EQ_U64(vc4_alu_mul24(0xFFFFFFFFu, 16), 268435440u);
    for (int i = 0; i < 16; i++) { a[i] = 0x1000; b[i] = 0x1000; }
    CHECK(vc4_alu_mul_vec(VC4_QPU_M_MUL24, a, b, r, &c));
    CHECK_EQ_U64(c, 0xFFFF);
}

static void test_v8_ops(void)
{
    CHECK_EQ_U64(vc4_alu_v8adds(0xFF80FF01u, 0x01800102u), 0xFFFFFF03u);
    CHECK_EQ_U64(vc4_alu_v8subs(0x01800102u, 0xFF80FF01u), 0x00000001u);
    CHECK_EQ_U64(vc4_alu_v8min(0x10FF2030u, 0x2001FF00u), 0x10012000u);
    CHECK_EQ_U64(vc4_alu_v8max(0x10FF2030u, 0x2001FF00u), 0x20FFFF30u);
    CHECK_EQ_U64(vc4_alu_v8muld(0xFF80FF00u, 0xFF80807Fu), 0xFF408000u);
}

static void test_unpack(void)
{
    CHECK_EQ_U64(vc4_unpack(VC4_QPU_UNPACK_16A, 0x1C000200u, false), 0x200);
    CHECK_EQ_U64(vc4_unpack(VC4_QPU_UNPACK_16B, 0x8000FFFFu, false), 0xFFFF8000u);
    CHECK_EQ_U64(vc4_unpack(VC4_QPU_UNPACK_16A, 0x3C00u, true), 0x3F800000u);
    CHECK_EQ_U64(vc4_unpack(VC4_QPU_UNPACK_16A, 0x8001u, true), 0x80002000u); /* subnormal quirk */
    CHECK_EQ_U64(vc4_unpack(VC4_QPU_UNPACK_8D_REP, 0xAB000000u, false), 0xABABABABu);
    CHECK_EQ_U64(vc4_unpack(VC4_QPU_UNPACK_8B, 0x0000FF00u, true), 0x3F800000u);
    CHECK_EQ_U64(vc4_unpack(VC4_QPU_UNPACK_8C, 0x00120000u, false), 0x12);
    /* the 16-element form: each element as vc4_unpack gives it, every mode,
     * both conversions, every byte value in every byte */
    unsigned bad = 0;
    for (unsigned mode = 0; mode < 8; mode++) {
        for (unsigned fl = 0; fl < 2; fl++) {
            for (unsigned base = 0; base < 256; base += 16) {
                uint32_t v[16], out[16];
                for (unsigned i = 0; i < 16; i++)
                    v[i] = (base + i) * 0x01010101u ^ 0x5A00A500u * (i & 1u);
                vc4_unpack_vec(mode, v, out, fl);
                for (unsigned i = 0; i < 16; i++)
                    if (out[i] != vc4_unpack(mode, v[i], fl) && bad++ < 3)
                        CHECK_MSG(false, "unpack %u float %u of 0x%08x: 0x%08x, one at a time 0x%08x", mode, fl,
                                  v[i], out[i], vc4_unpack(mode, v[i], fl));
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_pack(void)
{
    /* float -> half: +-0 -> +0, NaN -> Inf, denormal -> +0, overflow -> Inf */
    CHECK_EQ_U64(vc4_float_to_half(0x80000000u), 0);
    CHECK_EQ_U64(vc4_float_to_half(0x7FC00000u), 0x7C00u);
    CHECK_EQ_U64(vc4_float_to_half(0x33800000u), 0);
    CHECK_EQ_U64(vc4_float_to_half(0x47800000u), 0x7C00u);
    CHECK_EQ_U64(vc4_float_to_half(0x3F800000u), 0x3C00u);
    /* 1/128 -> 0x02 (vc4asm issue #23: 0x02020202) */
    CHECK_EQ_U64(vc4_pack_mul(VC4_QPU_PACK_MUL_8888, 0x3C000000u, 0), 0x02020202u);
    CHECK_EQ_U64(vc4_pack_mul(VC4_QPU_PACK_MUL_8B, 0x3F800000u, 0x11223344u), 0x1122FF44u);
    CHECK_EQ_U64(vc4_pack_mul(VC4_QPU_PACK_MUL_8A, 0xBF800000u, 0xFFFFFFFFu), 0xFFFFFF00u);
    CHECK_EQ_U64(vc4_pack_a(VC4_QPU_PACK_A_32_SAT, 0x80000000u, 0, false, INT64_C(0x80000000), true, false), 0x7FFFFFFFu);
    CHECK_EQ_U64(vc4_pack_a(VC4_QPU_PACK_A_16A_SAT, 70000, 0xABCD0000u, false, 0, false, false), 0xABCD7FFFu);
    CHECK_EQ_U64(vc4_pack_a(VC4_QPU_PACK_A_16B, 0x12345678u, 0xABCDEF01u, false, 0, false, false), 0x5678EF01u);
    CHECK_EQ_U64(vc4_pack_a(VC4_QPU_PACK_A_8888_SAT, 0xFFFFFFFFu, 0, false, 0, false, false), 0);
    CHECK_EQ_U64(vc4_pack_a(VC4_QPU_PACK_A_8C_SAT, 300, 0x11111111u, false, 0, false, false), 0x11FF1111u);
    CHECK_EQ_U64(vc4_pack_a(VC4_QPU_PACK_A_16A, 0x3F800000u, 0, true, 0, false, false), 0x3C00u);
}

/* The mul pack of 16 lanes (vc4_pack_mul_vec, branch-free) against the
 * scalar vc4_pack_mul for every mode: every exponent of both signs with
 * mantissas on a stride (each rounding distance reached), the boundaries
 * around 1.0 and around the last exponent that rounds to a non-zero byte,
 * denormals, Inf, NaN, with old values and without. */
static void test_pack_mul_vec(void)
{
    unsigned bad = 0, checked = 0;
    uint32_t v[16], old[16], out[16], x = 777;
    for (uint32_t hi = 0; hi < 512; hi++)              /* sign and exponent */
        for (uint32_t m = 0; m < 0x800000u; m += 16 * 4099u) {
            for (unsigned i = 0; i < 16; i++) {
                x = x * 1103515245u + 12345u;
                v[i] = hi << 23 | ((m + i * 4099u + (x >> 20)) & 0x7FFFFFu);
                old[i] = x;
            }
            if (hi == 0x7E) /* (just below 1.0, and 1.0) */
                v[15] = 0x3F7FFFFFu, v[14] = 0x3F800000u;
            for (unsigned mode = 0; mode < 8; mode++)
                for (unsigned with_old = 0; with_old < 2; with_old++) {
                    vc4_pack_mul_vec(mode, v, with_old ? old : NULL, out);
                    for (unsigned i = 0; i < 16; i++, checked++)
                        if (out[i] != vc4_pack_mul(mode, v[i], with_old ? old[i] : 0) && bad++ < 5)
                            CHECK_MSG(false, "mode %u: 0x%08x (old 0x%08x): 0x%08x, scalar 0x%08x", mode, v[i],
                                      with_old ? old[i] : 0, out[i], vc4_pack_mul(mode, v[i], with_old ? old[i] : 0));
                }
        }
    CHECK_EQ_INT(bad, 0);
    CHECK(checked > 512 * 16 * 16 * 8);
}

static void test_sfu(void)
{
    CHECK_EQ_U64(vc4_sfu(VC4_SFU_RECIP, 0), 0x7F800000u);
    CHECK_EQ_U64(vc4_sfu(VC4_SFU_RECIP, 0x40000000u), 0x3F000000u);
    CHECK_EQ_U64(vc4_sfu(VC4_SFU_EXP2, 0x40400000u), 0x41000000u);
    CHECK_EQ_U64(vc4_sfu(VC4_SFU_LOG2, 0xC1000000u), 0x40400000u); /* log2 |-8| */
    CHECK_EQ_U64(vc4_sfu(VC4_SFU_RECIPSQRT, 0xC0800000u), 0x3F000000u); /* |x| */
    /* 1/3 rounded to 13 mantissa bits: 0x3EAAAAAB's low 10 bits 0x2AB round up */
    CHECK_EQ_U64(vc4_sfu(VC4_SFU_RECIP, 0x40400000u), 0x3EAAAC00u);
    CHECK_EQ_U64(vc4_sfu(VC4_SFU_RECIP, 0xC0400000u), 0xBEAAAC00u);
}

/* The SFU's accuracy on a dense sweep (every 2^9-th float of each range):
 * recip, rsqrt and exp2 within 1e-4 relative, log2 within 1e-2 (the bounds
 * py-videocore's test_sfu holds the hardware to; VC4C saw 512-1024 ULP). */
static double rel_err(uint32_t got, double exact)
{
    float g;
    memcpy(&g, &got, sizeof g);
    return fabs((double)g - exact) / fabs(exact);
}

static void test_sfu_accuracy_sweep(void)
{
    double worst[4] = {0, 0, 0, 0};
    size_t n = 0;
    for (uint32_t u = 0x00800000u; u < 0x7F800000u; u += 1u << 9) {
        float x;
        memcpy(&x, &u, sizeof x);
        double d = (double)x;
        double e;
        if (u < 0x7E800000u) { /* 1/x normal */
            e = rel_err(vc4_sfu(VC4_SFU_RECIP, u), 1.0 / d);
            worst[0] = e > worst[0] ? e : worst[0];
        }
        e = rel_err(vc4_sfu(VC4_SFU_RECIPSQRT, u), 1.0 / sqrt(d));
        worst[1] = e > worst[1] ? e : worst[1];
        if (u != 0x3F800000u) { /* log2(1) = 0 exactly: checked below */
            e = rel_err(vc4_sfu(VC4_SFU_LOG2, u), log2(d));
            worst[3] = e > worst[3] ? e : worst[3];
        }
        if (fabs(d) < 126.0) { /* 2^x normal, both signs */
            e = rel_err(vc4_sfu(VC4_SFU_EXP2, u), exp2(d));
            worst[2] = e > worst[2] ? e : worst[2];
            e = rel_err(vc4_sfu(VC4_SFU_EXP2, u | 0x80000000u), exp2(-d));
            worst[2] = e > worst[2] ? e : worst[2];
        }
        n++;
    }
    printf("sfu sweep: %zu inputs, worst relative error recip %.3g rsqrt %.3g exp2 %.3g log2 %.3g\n", n,
           worst[0], worst[1], worst[2], worst[3]);
    CHECK(n > 500000);
    CHECK_MSG(worst[0] <= 1e-4, "recip %g", worst[0]);
    CHECK_MSG(worst[1] <= 1e-4, "rsqrt %g", worst[1]);
    CHECK_MSG(worst[2] <= 1e-4, "exp2 %g", worst[2]);
    CHECK_MSG(worst[3] <= 1e-2, "log2 %g", worst[3]);
    CHECK(worst[0] > 1e-5); /* the model is not exact: the sweep measures something */
    CHECK_EQ_U64(vc4_sfu(VC4_SFU_LOG2, 0x3F800000u), 0);
}

/* vc4_sfu16 (the QPU's fast path: recip and rsqrt four elements at a time)
 * against vc4_sfu, element by element: every 2^13-th bit pattern of all
 * 2^32 (both signs, zeros, denormals, Inf and NaN patterns, every
 * exponent; exp2 and log2, the scalar loop, every 2^15-th), 16 different
 * inputs a call, all four functions. */
static void test_sfu16(void)
{
    size_t n = 0, wrong = 0;
    for (unsigned fn = VC4_SFU_RECIP; fn <= VC4_SFU_LOG2; fn++) {
        uint32_t step = fn <= VC4_SFU_RECIPSQRT ? 1u << 13 : 1u << 15;
        uint32_t x[16], got[16];
        for (uint64_t u = 0; u < (UINT64_C(1) << 32); u += 16u * step) {
            for (unsigned i = 0; i < 16; i++)
                x[i] = (uint32_t)u + i * step + (i * 0x9E3779B9u & (step - 1u));
            vc4_sfu16((enum vc4_sfu_fn)fn, x, got);
            for (unsigned i = 0; i < 16; i++, n++)
                if (got[i] != vc4_sfu((enum vc4_sfu_fn)fn, x[i]) && wrong++ < 8)
                    CHECK_MSG(false, "fn %u x 0x%08x: 0x%08x, vc4_sfu 0x%08x", fn, x[i], got[i],
                              vc4_sfu((enum vc4_sfu_fn)fn, x[i]));
        }
    }
    static const uint32_t edges[16] = {0, 0x80000000u, 1, 0x807FFFFFu, 0x00800000u, 0x7F7FFFFFu, 0x7F800000u,
                                       0xFF800000u, 0x7FC00000u, 0xFFFFFFFFu, 0x3F800000u, 0xBF800000u,
                                       0x00FFFFFFu, 0x7E800000u, 0x7F000001u, 0x40400000u};
    for (unsigned fn = VC4_SFU_RECIP; fn <= VC4_SFU_LOG2; fn++) {
        uint32_t got[16];
        vc4_sfu16((enum vc4_sfu_fn)fn, edges, got);
        for (unsigned i = 0; i < 16; i++)
            CHECK_EQ_U64(got[i], vc4_sfu((enum vc4_sfu_fn)fn, edges[i]));
    }
    CHECK_EQ_U64(wrong, 0);
    CHECK(n > (size_t)1 << 20);
}

/* ---- the run loop's kernels against the scalar rules ----------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd32(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* Random floats biased to the cases that matter: every exponent, mantissa
 * edges, exponents near each other, zeros, denormals, Inf/NaN patterns. */
static uint32_t rnd_float(void)
{
    uint32_t r = rnd32(), s = rnd32() & 0x80000000u;
    switch (r & 7) {
    case 0: return rnd32();
    case 1: return s | ((r >> 8) % 256) << 23 | (rnd32() & 0x7FFFFFu);
    case 2: return s | 127u << 23 | (rnd32() & 0x7FFFFFu);
    case 3: return s | ((r >> 8) & 255) << 23 | ((r >> 16) & 1 ? 0x7FFFFFu : (rnd32() & 3));
    case 4: return s | (100u + (r >> 8) % 60) << 23 | (rnd32() & 0x7FFFFFu);
    default: return s | (1u + (r >> 8) % 254) << 23 | (rnd32() & 0x7FFFFFu);
    }
}

/* Operands for one 16-element vector: floats with exponents at a random
 * distance (0..63) half of the time, so that sums round back, cancel and
 * carry; a few integers too. */
static void rnd_operands(uint32_t *a, uint32_t *b)
{
    for (int i = 0; i < 16; i++) {
        a[i] = rnd_float();
        b[i] = rnd_float();
        if (rnd32() & 1) {
            int eb = (int)((a[i] >> 23) & 255) - (int)(rnd32() % 64);
            b[i] = (b[i] & 0x807FFFFFu) | (uint32_t)(eb < 0 ? 0 : eb) << 23;
        }
        if ((rnd32() & 7) == 0)
            a[i] = rnd32() >> (rnd32() & 31);
    }
}

/* host: a host-arithmetic table (host, or avx512 where the CPU has it) */
static void check_table(const struct vc4_alu_kernels *host, const uint32_t *a, const uint32_t *b, unsigned *bad)
{
    for (unsigned op = 0; op < 32; op++) {
        uint32_t r1[16], r2[16];
        uint16_t c1 = 0, c2 = 0;
        vc4_alu_kernels_exact.add[op](a, b, r1, &c1);
        host->add[op](a, b, r2, &c2);
        for (int i = 0; i < 16; i++) {
            /* the exact kernels against the scalar rules, for the float ops */
            uint32_t want = op == VC4_QPU_A_FADD ? vc4_alu_fadd(a[i], b[i])
                          : op == VC4_QPU_A_FSUB ? vc4_alu_fsub(a[i], b[i])
                          : op == VC4_QPU_A_FTOI ? vc4_alu_ftoi(a[i])
                          : op == VC4_QPU_A_ITOF ? vc4_alu_itof(a[i]) : r1[i];
            if ((r1[i] != r2[i] || r1[i] != want) && (*bad)++ < 10)
                fprintf(stderr, "add op %u (%08x, %08x): exact %08x host %08x rule %08x\n", op, a[i],
                        b[i], r1[i], r2[i], want);
        }
        if (c1 != c2 && (*bad)++ < 10)
            fprintf(stderr, "add op %u carry: exact %04x host %04x\n", op, c1, c2);
    }
    for (unsigned op = 0; op < 8; op++) {
        uint32_t r1[16], r2[16];
        uint16_t c1 = 0, c2 = 0;
        vc4_alu_kernels_exact.mul[op](a, b, r1, &c1);
        host->mul[op](a, b, r2, &c2);
        for (int i = 0; i < 16; i++) {
            uint32_t want = op == VC4_QPU_M_FMUL ? vc4_alu_fmul(a[i], b[i]) : r1[i];
            if ((r1[i] != r2[i] || r1[i] != want) && (*bad)++ < 10)
                fprintf(stderr, "mul op %u (%08x, %08x): exact %08x host %08x rule %08x\n", op, a[i],
                        b[i], r1[i], r2[i], want);
        }
        if (c1 != c2 && (*bad)++ < 10)
            fprintf(stderr, "mul op %u carry: exact %04x host %04x\n", op, c1, c2);
    }
}

/* Every host table this CPU can run against the exact one and the rules. */
static void check_tables(const uint32_t *a, const uint32_t *b, unsigned *bad)
{
    check_table(&vc4_alu_kernels_host, a, b, bad);
    if (vc4_alu_kernels_best() != &vc4_alu_kernels_host)
        check_table(vc4_alu_kernels_best(), a, b, bad);
}

/* The host-arithmetic kernels (used inside vc4_emu_run) give exactly what
 * the scalar rules give, for every op: random operands and a grid of every
 * exponent with edge mantissas, both signs, against each other. */
static void test_host_kernels_match_rules(void)
{
    struct vc4_alu_fpenv env;
    bool host = vc4_alu_fp_enter(&env);
    unsigned bad = 0;
    uint32_t a[16], b[16];
    for (int it = 0; it < 20000; it++) {
        rnd_operands(a, b);
        check_tables(a, b, &bad);
    }
    static const uint32_t mant[] = {0, 1, 2, 3, 0x3FFFFF, 0x400000, 0x400001, 0x7FFFFE, 0x7FFFFF, 0x555555};
    enum { NV = 256 * 10 * 2 };
    static uint32_t grid[NV];
    int n = 0;
    for (uint32_t e = 0; e < 256; e++)
        for (size_t m = 0; m < sizeof mant / sizeof mant[0]; m++)
            for (uint32_t s = 0; s < 2; s++)
                grid[n++] = s << 31 | e << 23 | mant[m];
    for (int i = 0; i < NV; i += 7) /* every 7th row against every column, 16 at a time */
        for (int j = 0; j + 16 <= NV; j += 16) {
            for (int k = 0; k < 16; k++)
                a[k] = grid[i];
            check_tables(a, grid + j, &bad);
            check_tables(grid + j, a, &bad);
        }
    vc4_alu_fp_leave(&env);
    CHECK_EQ_INT(bad, 0);
#if defined(__x86_64__) || defined(__aarch64__)
    CHECK(host); /* IEEE double, round to nearest: the fast path is in use */
#else
    (void)host;
#endif
}

/* Regression: a float sum whose double result rounds back to the larger
 * operand (exponents more than 53 apart, opposite signs) must still be
 * truncated one ulp toward zero: 0x3F800000 + -2^-60 = 0x3F7FFFFF. */
static void test_host_fadd_round_back(void)
{
    const struct vc4_alu_kernels *tabs[2] = {&vc4_alu_kernels_host, vc4_alu_kernels_best()};
    for (int t = 0; t < 2; t++) {
        struct vc4_alu_fpenv env;
        vc4_alu_fp_enter(&env);
        uint32_t a[16], b[16], r[16];
        for (int i = 0; i < 16; i++) {
            a[i] = 0x3F800000u;
            b[i] = 0xA1800000u; /* -2^-60 */
        }
        a[1] = 0x9B400000u; b[1] = 0x00800000u;  /* -1.5*2^-73 + 2^-126: one ulp toward zero */
        a[2] = 0x7F7FFFFFu; b[2] = 0x7F7FFFFFu;  /* overflow: Inf */
        a[3] = 0x7F7FFFFFu; b[3] = 0x73000000u;  /* FLT_MAX + 2^103: stays FLT_MAX */
        a[4] = 0x00800001u; b[4] = 0x80800000u;  /* result below the normal range: +0 */
        a[5] = 0x7EFFFFFFu; b[5] = 0x7EFFFFFFu;  /* 2^127 - 2^103 twice: FLT_MAX exactly */
        a[6] = 0x80000001u; b[6] = 0x80000000u;  /* -denormal + -0: +0 */
        tabs[t]->add[VC4_QPU_A_FADD](a, b, r, NULL);
        vc4_alu_fp_leave(&env);
        CHECK_EQ_U64(r[0], 0x3F7FFFFFu);
        CHECK_EQ_U64(r[1], 0x9B3FFFFFu);
        CHECK_EQ_U64(r[2], 0x7F800000u);
        CHECK_EQ_U64(r[3], 0x7F7FFFFFu);
        CHECK_EQ_U64(r[4], 0);
        CHECK_EQ_U64(r[5], 0x7F7FFFFFu);
        CHECK_EQ_U64(r[6], 0);
    }
    CHECK_EQ_U64(vc4_alu_fadd(0x3F800000u, 0xA1800000u), 0x3F7FFFFFu);
}

/* fmul at the edges the AVX-512 kernel hands to the scalar rule or keeps:
 * exponent fields summing to 380 (kept: below 2^128) and 381 (the rule:
 * Inf or FLT_MAX),
 * a product just under 2^-126 (+0), exactly 2^-126, and Inf * 0. */
static void test_host_fmul_edges(void)
{
    const struct vc4_alu_kernels *tabs[2] = {&vc4_alu_kernels_host, vc4_alu_kernels_best()};
    for (int t = 0; t < 2; t++) {
        struct vc4_alu_fpenv env;
        vc4_alu_fp_enter(&env);
        uint32_t a[16] = {0}, b[16] = {0}, r[16];
        a[0] = 0x7E7FFFFFu; b[0] = 0x40000000u;  /* (2^126 - 2^102) * 2: 2^127 - 2^103 */
        a[1] = 0x7E7FFFFFu; b[1] = 0x407FFFFFu;  /* exponents 252 + 128 = 380: below 2^128 */
        a[2] = 0x7EFFFFFFu; b[2] = 0x40400000u;  /* 253 + 128 = 381: (2^127 - 2^103) * 3 -> Inf */
        a[3] = 0x7EFFFFFFu; b[3] = 0x40000000u;  /* 381: (2^127 - 2^103) * 2 = FLT_MAX, finite */
        a[4] = 0x00FFFFFFu; b[4] = 0x3F7FFFFFu;  /* just under 2^-125 * ... : stays normal */
        a[5] = 0x00800000u; b[5] = 0x3F7FFFFFu;  /* 2^-126 * (1 - 2^-24): below: +0 */
        a[6] = 0x00800000u; b[6] = 0x3F800000u;  /* 2^-126 * 1 */
        a[7] = 0x7F800000u; b[7] = 0x80000000u;  /* Inf * -0: +0 */
        a[8] = 0xFF812345u; b[8] = 0x3F800000u;  /* NaN pattern * 1: -Inf */
        a[9] = 0x80400000u; b[9] = 0x7F000000u;  /* -denormal * 2^127: +0 (flushed) */
        tabs[t]->mul[VC4_QPU_M_FMUL](a, b, r, NULL);
        vc4_alu_fp_leave(&env);
        for (int i = 0; i < 16; i++)
            CHECK_EQ_U64(r[i], vc4_alu_fmul(a[i], b[i]));
        CHECK_EQ_U64(r[2], 0x7F800000u);
        CHECK_EQ_U64(r[3], 0x7F7FFFFFu);
        CHECK_EQ_U64(r[5], 0);
        CHECK_EQ_U64(r[6], 0x00800000u);
        CHECK_EQ_U64(r[7], 0);
        CHECK_EQ_U64(r[8], 0xFF800000u);
        CHECK_EQ_U64(r[9], 0);
    }
}

/* Every byte pair: the vector v8 kernels equal the scalar byte rules, and
 * v8muld's (t + 1 + (t >> 8)) >> 8 equals (x*y + 127) / 255. */
static void test_v8_kernels_every_byte_pair(void)
{
    unsigned bad = 0;
    for (uint32_t x = 0; x < 256; x++) {
        uint32_t a[16], b[16];
        for (uint32_t y0 = 0; y0 < 256; y0 += 64) {
            for (int i = 0; i < 16; i++) {
                uint32_t y = y0 + 4 * (uint32_t)i;
                a[i] = x * 0x01010101u;
                b[i] = y | (y + 1) << 8 | (y + 2) << 16 | (y + 3) << 24;
            }
            static const unsigned ops[] = {VC4_QPU_M_V8MULD, VC4_QPU_M_V8MIN, VC4_QPU_M_V8MAX,
                                           VC4_QPU_M_V8ADDS, VC4_QPU_M_V8SUBS};
            for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
                uint32_t r[16];
                vc4_alu_kernels_host.mul[ops[k]](a, b, r, NULL);
                for (int i = 0; i < 16; i++) {
                    uint32_t want = ops[k] == VC4_QPU_M_V8MULD ? vc4_alu_v8muld(a[i], b[i])
                                  : ops[k] == VC4_QPU_M_V8MIN ? vc4_alu_v8min(a[i], b[i])
                                  : ops[k] == VC4_QPU_M_V8MAX ? vc4_alu_v8max(a[i], b[i])
                                  : ops[k] == VC4_QPU_M_V8ADDS ? vc4_alu_v8adds(a[i], b[i])
                                  : vc4_alu_v8subs(a[i], b[i]);
                    if (r[i] != want && bad++ < 10)
                        fprintf(stderr, "v8 op %u %08x %08x: %08x want %08x\n", ops[k], a[i], b[i], r[i], want);
                }
            }
        }
    }
    CHECK_EQ_INT(bad, 0);
}

/* The run restores the caller's floating-point environment. */
static void test_fp_env_restored(void)
{
    fesetround(FE_UPWARD);
    struct vc4_alu_fpenv env;
    bool host = vc4_alu_fp_enter(&env);
    CHECK(fegetround() == FE_TONEAREST || !host);
    vc4_alu_fp_leave(&env);
    CHECK(fegetround() == FE_UPWARD);
    fesetround(FE_TONEAREST);
}

TEST_LIST(test_float_add_sub_rtz, test_float_mul, test_minmax_conv, test_int_ops, test_v8_ops, test_pack_mul_vec,
          test_unpack, test_pack, test_sfu, test_sfu_accuracy_sweep, test_sfu16, test_host_kernels_match_rules,
          test_host_fadd_round_back,
          test_host_fmul_edges,
          test_v8_kernels_every_byte_pair, test_fp_env_restored)
