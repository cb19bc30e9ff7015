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

#include "base/base.h"
#include "emu/qpu_alu.h"

#define F_SIGN 0x80000000u
#define F_INF 0x7F800000u
#define F_EXP 0x7F800000u

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

uint32_t vc4_sfu(enum vc4_sfu_fn fn, uint32_t x)
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
