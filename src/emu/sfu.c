/*
 * sfu.c - SFU results (qpu-isa-facts 10, py-videocore APPENDIX.rst):
 * base-2 EXP and LOG; RECIP(0) = Inf (sign kept); RECIPSQRT and LOG use
 * |x|.
 *
 * Precision.  The hardware's tables are not public and no bit-exact SFU
 * word has been published (no seed or public table pins one); what is
 * known is its accuracy: VC4C's hardware tests saw errors "between 512 and
 * 1024 ULP", and py-videocore's test_sfu, which passes on Pis, holds recip,
 * rsqrt and exp2 to 1e-4 (1e-3 in some versions) relative and log2 to 1e-2.
 * The model computes the exact value and rounds it to nearest with 13
 * explicit mantissa bits (the low VC4_SFU_DROP_BITS bits cleared): an error
 * of at most 512 ULP, 6.1e-5 relative, within both bounds and
 * deterministic.  NOT bit-exact to hardware (UNVERIFIED, docs/emulator.md);
 * tests/unit/test_emu_alu.c sweeps the bounds.
 */
#include "emu/sfu.h"

#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "base/base.h"
#include "emu/qpu_alu.h"

#define F_SIGN 0x80000000u
#define F_INF 0x7F800000u
#define F_EXP 0x7F800000u
#define F_ONE 0x3F800000u /* 1.0 */

static uint32_t quantise(double d)
{
    float f = (float)d;
    uint32_t u = vc4_f2u(f);
    if ((u & F_EXP) == F_EXP)
        return u & (F_SIGN | F_INF); /* Inf, no NaN patterns */
    u = vc4_alu_flush(u);
    if (!(u & F_EXP))
        return 0;
    /* round to nearest at the kept bits (a carry into the exponent is the
     * next binade, or Inf: still the rounded value) */
    u += 1u << (VC4_SFU_DROP_BITS - 1);
    return u & ~((1u << VC4_SFU_DROP_BITS) - 1);
}

VC4_SFU_FN uint32_t vc4_sfu(enum vc4_sfu_fn fn, uint32_t x)
{
    x = vc4_alu_flush(x);
    uint32_t sign = x & F_SIGN, mag = x & ~F_SIGN;
    bool inf = (mag & F_EXP) == F_EXP; /* NaN patterns count as Inf */
    double v = inf ? 0.0 : (double)vc4_u2f(mag);
    switch (fn) {
    case VC4_SFU_RECIP:
        if (mag == 0)
            return sign | F_INF;
        if (inf)
            return sign;
        return sign | quantise(1.0 / v);
    case VC4_SFU_RECIPSQRT:
        if (mag == 0)
            return F_INF;
        if (inf)
            return 0;
        return quantise(1.0 / sqrt(v));
    case VC4_SFU_EXP2:
        if (inf)
            return sign ? 0 : F_INF;
        return quantise(exp2(sign ? -v : v));
    case VC4_SFU_LOG2:
    default:
        if (mag == 0)
            return F_SIGN | F_INF;
        if (inf)
            return F_INF;
        return quantise(log2(v));
    }
}

#if defined(__SSE2__) && defined(__GNUC__)
/* RECIP and RECIPSQRT four elements at a time: vc4_sfu's steps, each an
 * IEEE operation (float to double, division, square root, double to float
 * in the current rounding mode: the run's C default) or integer masks, so
 * the bits are vc4_sfu's (test_emu_alu test_sfu16 compares them over
 * every exponent).  Special elements (zero, Inf, NaN patterns) divide 1.0
 * and take their fixed results from the masks.  (The scalar loop was
 * most of an SFU write's time: 16 divisions behind calls and branches.) */
typedef uint32_t u32x4 __attribute__((vector_size(16)));
#define SPLAT4(x) ((u32x4){(x), (x), (x), (x)})

static inline u32x4 flush4(u32x4 x)
{
    u32x4 denormal = (u32x4)((x & F_EXP) == 0);
    return (x & ~denormal) | (x & F_SIGN & denormal);
}

static inline u32x4 pick4(u32x4 m, u32x4 a, u32x4 b) { return (a & m) | (b & ~m); }

static u32x4 recip4(bool rsqrt, u32x4 x)
{
    x = flush4(x);
    u32x4 sign = x & F_SIGN, mag = x & ~F_SIGN;
    u32x4 zero = (u32x4)(mag == 0), inf = (u32x4)((mag & F_EXP) == F_EXP), special = zero | inf;
    u32x4 safe = pick4(special, SPLAT4(F_ONE), mag);
    __m128 f = (__m128)safe;
    __m128d lo = _mm_cvtps_pd(f), hi = _mm_cvtps_pd(_mm_movehl_ps(f, f));
    if (rsqrt) {
        lo = _mm_sqrt_pd(lo);
        hi = _mm_sqrt_pd(hi);
    }
    const __m128d one = _mm_set1_pd(1.0);
    lo = _mm_div_pd(one, lo);
    hi = _mm_div_pd(one, hi);
    u32x4 u = (u32x4)_mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
    /* quantise */
    u32x4 uinf = (u32x4)((u & F_EXP) == F_EXP);
    u32x4 uf = flush4(u);
    u32x4 uzero = (u32x4)((uf & F_EXP) == 0);
    u32x4 q = pick4(uinf, u & (F_SIGN | F_INF),
                    pick4(uzero, SPLAT4(0u),
                          (uf + (1u << (VC4_SFU_DROP_BITS - 1))) & ~((1u << VC4_SFU_DROP_BITS) - 1)));
    if (rsqrt) /* 1/sqrt(|x|): Inf at zero, 0 at Inf */
        return pick4(zero, SPLAT4(F_INF), pick4(inf, SPLAT4(0u), q));
    return pick4(zero, sign | F_INF, pick4(inf, sign, sign | q));
}
#endif

VC4_SFU_FN void vc4_sfu16(enum vc4_sfu_fn fn, const uint32_t x[16], uint32_t out[16])
{
#if defined(__SSE2__) && defined(__GNUC__)
    if (fn == VC4_SFU_RECIP || fn == VC4_SFU_RECIPSQRT) {
        for (unsigned i = 0; i < 16; i += 4) {
            u32x4 v;
            memcpy(&v, x + i, sizeof v);
            v = recip4(fn == VC4_SFU_RECIPSQRT, v);
            memcpy(out + i, &v, sizeof v);
        }
        return;
    }
#endif
    for (unsigned i = 0; i < 16; i++)
        out[i] = vc4_sfu(fn, x[i]);
}
