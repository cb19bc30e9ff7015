/*
 * half.c - the VideoCore's 16-bit floats (see half.h).
 */
#include "spec/half.h"

/* binary32 fields */
#define F_SIGN 0x80000000u
#define F_EXP 0x7F800000u
#define F_MANT 0x007FFFFFu
#define F_HIDDEN 0x00800000u
#define F_INF 0x7F800000u
#define F_EXP_SHIFT 23
#define F_BIAS 127

/* binary16 fields */
#define H_EXP_SHIFT 10
#define H_MANT 0x3FFu
#define H_BIAS 15
#define H_EXP_MAX 31
#define H_SIGN 0x8000u
#define H_INF 0x7C00u

uint32_t vc4_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & H_SIGN) << 16;
    unsigned e = (h >> H_EXP_SHIFT) & H_EXP_MAX;
    uint32_t m = h & H_MANT;
    if (e == 0) /* zero and subnormal: no exponent fix-up (VC4C OpCodes.cpp) */
        return sign | (m << 13);
    if (e == H_EXP_MAX)
        return sign | F_INF | (m << 13);
    return sign | ((e - H_BIAS + F_BIAS) << F_EXP_SHIFT) | (m << 13);
}

/* float -> half (VC4C hardware tests, facts 12): +-0 -> +0, NaN -> +-Inf,
 * would-be denormal -> +0, out of range -> +-Inf, rounding "away from zero"
 * implemented as round-to-nearest, ties away (UNVERIFIED reading). */
uint16_t vc4_float_to_half(uint32_t f)
{
    if ((f & F_EXP) == 0) /* denormals are flushed first (facts 12) */
        f &= F_SIGN;
    uint16_t sign = (uint16_t)((f >> 16) & H_SIGN);
    if ((f & ~F_SIGN) == 0)
        return 0;
    if ((f & F_EXP) == F_EXP)
        return sign | H_INF;
    int e = (int)((f & F_EXP) >> F_EXP_SHIFT) - F_BIAS + H_BIAS;
    uint32_t m = (f & F_MANT) | F_HIDDEN;
    uint32_t hm = (m + (1u << 12)) >> 13; /* 11 bits incl. hidden, rounded */
    if (hm >> 11) {
        hm >>= 1;
        e++;
    }
    if (e <= 0)
        return 0;
    if (e >= H_EXP_MAX)
        return sign | H_INF;
    return (uint16_t)(sign | ((unsigned)e << H_EXP_SHIFT) | (hm & H_MANT));
}

