/*
 * qpu_alu.c - the QPU add and mul ALUs, pack and unpack, bit-exact to the
 * hardware (not IEEE).
 *
 * Rules and sources (../shared/reference/qpu-isa-facts.md):
 *  - Float add/sub/mul round toward zero.  Verified against the seed 003
 *    coordinate shader printed on real hardware: 32 * 0x3B4D1ED9 - 1.0 =
 *    0xBF665C24 and 448 * 0x3B88D181 - 1.0 = 0x3F5EDD42 hold only with
 *    truncation (round-to-nearest gives ...25 / ...44).  DESIGN.md; facts 17
 *    (V3DLib: "fmul rounds downward", identical for positive products).
 *  - Denormals flush to zero on input and output, sign kept (facts 17).
 *  - No NaN: an exponent of 255 is an infinity of its sign whatever the
 *    mantissa; "0.0 + NaN = +Inf" (vc4asm addendum, facts 17).
 *  - Carry per facts 16 (vc4asm instructions.html).
 *  - mul24 uses the unsigned low 24 bits (V3DLib FAQ: -1 * 16 = 268435440).
 *  - Shifts and rotates use the low 5 bits of the shift operand (vc4asm
 *    instructions.html).
 * Choices not verified on hardware are marked UNVERIFIED and listed in
 * docs/emulator.md.
 */
#include "emu/qpu_alu.h"

#include "vc4kit/qpu.h"

#define F_SIGN 0x80000000u
#define F_EXP 0x7F800000u
#define F_MANT 0x007FFFFFu
#define F_HIDDEN 0x00800000u
#define F_INF 0x7F800000u
#define F_EXP_SHIFT 23
#define F_BIAS 127
#define F_EXP_MAX 255

static inline bool f_infnan(uint32_t f) { return (f & F_EXP) == F_EXP; }
static inline bool f_zero(uint32_t f) { return (f & ~F_SIGN) == 0; }

uint32_t vc4_alu_flush(uint32_t f)
{
    return (f & F_EXP) == 0 ? (f & F_SIGN) : f;
}

/* Assemble a result from sign, biased exponent and 24-bit mantissa (hidden
 * bit included), flushing underflow to a signed zero and overflow to an
 * infinity (UNVERIFIED: IEEE round-toward-zero would give FLT_MAX). */
static inline uint32_t f_make(uint32_t sign, int e, uint32_t mant24)
{
    if (e >= F_EXP_MAX)
        return sign | F_INF;
    if (e <= 0)
        return sign;
    return sign | ((uint32_t)e << F_EXP_SHIFT) | (mant24 & F_MANT);
}

uint32_t vc4_alu_fadd(uint32_t a, uint32_t b)
{
    a = vc4_alu_flush(a);
    b = vc4_alu_flush(b);
    if (f_infnan(a) || f_infnan(b)) {
        /* Inf + -Inf: UNVERIFIED, +Inf (the NaN pattern becomes +Inf). */
        if (f_infnan(a) && f_infnan(b) && ((a ^ b) & F_SIGN))
            return F_INF;
        return ((f_infnan(a) ? a : b) & F_SIGN) | F_INF;
    }
    if (f_zero(b))
        return f_zero(a) ? (a & b & F_SIGN) : a;
    if (f_zero(a))
        return b;
    uint32_t ma = a & ~F_SIGN, mb = b & ~F_SIGN;
    if (mb > ma) {
        uint32_t t = a; a = b; b = t;
        t = ma; ma = mb; mb = t;
    }
    int ea = (int)(ma >> F_EXP_SHIFT), eb = (int)(mb >> F_EXP_SHIFT);
    /* 24-bit mantissas with 32 guard bits; the smaller one keeps a sticky
     * bit so that truncating the difference truncates the exact result. */
    uint64_t xa = (uint64_t)((ma & F_MANT) | F_HIDDEN) << 32;
    uint64_t xb = (uint64_t)((mb & F_MANT) | F_HIDDEN) << 32;
    int d = ea - eb;
    if (d >= 60) {
        xb = 1;
    } else if (d > 0) {
        uint64_t lost = xb & ((UINT64_C(1) << d) - 1);
        xb >>= d;
        xb |= lost ? 1u : 0u;
    }
    uint64_t r = ((a ^ b) & F_SIGN) ? xa - xb : xa + xb;
    if (r == 0)
        return 0; /* x + -x = +0 */
    int e = ea;
    if (r >> 56) {
        r >>= 1;
        e++;
    }
    while (!(r >> 55)) {
        r <<= 1;
        e--;
    }
    return f_make(a & F_SIGN, e, (uint32_t)(r >> 32));
}

uint32_t vc4_alu_fsub(uint32_t a, uint32_t b)
{
    /* a - b = a + (-b); an infinity/NaN b keeps its flipped sign. */
    return vc4_alu_fadd(a, b ^ F_SIGN);
}

uint32_t vc4_alu_fmul(uint32_t a, uint32_t b)
{
    a = vc4_alu_flush(a);
    b = vc4_alu_flush(b);
    uint32_t sign = (a ^ b) & F_SIGN;
    if (f_infnan(a) || f_infnan(b))
        return sign | F_INF; /* includes Inf * 0: UNVERIFIED */
    if (f_zero(a) || f_zero(b))
        return sign;
    int e = (int)((a & F_EXP) >> F_EXP_SHIFT) + (int)((b & F_EXP) >> F_EXP_SHIFT) - F_BIAS;
    uint64_t p = (uint64_t)((a & F_MANT) | F_HIDDEN) * ((b & F_MANT) | F_HIDDEN);
    uint32_t m;
    if (p >> 47) {
        m = (uint32_t)(p >> 24);
        e++;
    } else {
        m = (uint32_t)(p >> 23);
    }
    return f_make(sign, e, m);
}

/* Order of floats as signed magnitudes (NaN patterns above infinities). */
static inline int64_t f_key(uint32_t f)
{
    f = vc4_alu_flush(f);
    int64_t m = (int64_t)(f & ~F_SIGN);
    return (f & F_SIGN) ? -m : m;
}

uint32_t vc4_alu_fmin(uint32_t a, uint32_t b)
{
    return f_key(a) <= f_key(b) ? vc4_alu_flush(a) : vc4_alu_flush(b);
}
uint32_t vc4_alu_fmax(uint32_t a, uint32_t b)
{
    return f_key(a) >= f_key(b) ? vc4_alu_flush(a) : vc4_alu_flush(b);
}
/* fminabs/fmaxabs return the absolute value (Mesa, vc4asm). */
uint32_t vc4_alu_fminabs(uint32_t a, uint32_t b)
{
    return vc4_alu_fmin(a & ~F_SIGN, b & ~F_SIGN);
}
uint32_t vc4_alu_fmaxabs(uint32_t a, uint32_t b)
{
    return vc4_alu_fmax(a & ~F_SIGN, b & ~F_SIGN);
}

/* ftoi: truncation toward zero.  Out of the int32 range (and Inf/NaN
 * patterns): 0 (UNVERIFIED). */
uint32_t vc4_alu_ftoi(uint32_t a)
{
    a = vc4_alu_flush(a);
    int e = (int)((a & F_EXP) >> F_EXP_SHIFT) - F_BIAS;
    if (e < 0 || e >= 31)
        return 0;
    uint32_t m = (a & F_MANT) | F_HIDDEN;
    uint32_t v = e >= 23 ? m << (e - 23) : m >> (23 - e);
    return (a & F_SIGN) ? (uint32_t)0 - v : v;
}

/* itof: signed int32 to float, truncating (UNVERIFIED for |x| > 2^24:
 * consistent with the add/mul rounding). */
uint32_t vc4_alu_itof(uint32_t a)
{
    if (a == 0)
        return 0;
    uint32_t sign = a & F_SIGN;
    uint32_t m = sign ? (uint32_t)0 - a : a;
    unsigned lz = vc4_alu_clz(m);
    uint32_t n = (uint32_t)(((uint64_t)m << lz) >> 8); /* 24 bits, hidden at 23 */
    return f_make(sign, (int)(31 - lz) + F_BIAS, n);
}

uint32_t vc4_alu_clz(uint32_t a)
{
    uint32_t n = 0;
    if (a == 0)
        return 32;
    while (!(a & F_SIGN)) {
        a <<= 1;
        n++;
    }
    return n;
}

uint32_t vc4_alu_mul24(uint32_t a, uint32_t b)
{
    return (uint32_t)((uint64_t)(a & 0xFFFFFFu) * (b & 0xFFFFFFu));
}

/* Per-byte ops: unsigned bytes, saturating (Mesa / vc4asm). */
#define BYTEWISE(name, expr)                                          \
    uint32_t name(uint32_t a, uint32_t b)                             \
    {                                                                 \
        uint32_t r = 0;                                               \
        for (unsigned s = 0; s < 32; s += 8) {                        \
            int x = (int)((a >> s) & 0xFF), y = (int)((b >> s) & 0xFF); \
            int v = (expr);                                           \
            v = v < 0 ? 0 : v > 255 ? 255 : v;                        \
            r |= (uint32_t)v << s;                                    \
        }                                                             \
        return r;                                                     \
    }
BYTEWISE(vc4_alu_v8adds, x + y)
BYTEWISE(vc4_alu_v8subs, x - y)
BYTEWISE(vc4_alu_v8min, x < y ? x : y)
BYTEWISE(vc4_alu_v8max, x > y ? x : y)
/* v8muld: a*b/255 rounded to nearest (never a tie: 255 is odd).
 * UNVERIFIED on hardware; the usual (a*b + 127) / 255. */
BYTEWISE(vc4_alu_v8muld, (x * y + 127) / 255)

/* ---- whole vectors --------------------------------------------------------- */

#define N VC4_QPU_SIMD
#define LOOP for (int i = 0; i < N; i++)
#define CARRY(cond) \
    do { if (carry) { uint16_t c_ = 0; LOOP if (cond) c_ |= (uint16_t)(1u << i); *carry = c_; } } while (0)

bool vc4_alu_add_vec(unsigned op, const uint32_t *a, const uint32_t *b, uint32_t *out,
                     uint16_t *carry)
{
    switch (op) {
    case VC4_QPU_A_NOP:
        LOOP out[i] = 0;
        CARRY(0);
        return true;
    case VC4_QPU_A_FADD:
        LOOP out[i] = vc4_alu_fadd(a[i], b[i]);
        /* C = result > 0, +NaN patterns included (facts 16) */
        CARRY(!(out[i] & F_SIGN) && out[i] != 0);
        return true;
    case VC4_QPU_A_FSUB:
        LOOP out[i] = vc4_alu_fsub(a[i], b[i]);
        CARRY(!(out[i] & F_SIGN) && out[i] != 0);
        return true;
    case VC4_QPU_A_FMIN:
        LOOP out[i] = vc4_alu_fmin(a[i], b[i]);
        CARRY(f_key(a[i]) > f_key(b[i]));
        return true;
    case VC4_QPU_A_FMAX:
        LOOP out[i] = vc4_alu_fmax(a[i], b[i]);
        CARRY(f_key(a[i]) > f_key(b[i]));
        return true;
    case VC4_QPU_A_FMINABS:
        LOOP out[i] = vc4_alu_fminabs(a[i], b[i]);
        CARRY(f_key(a[i] & ~F_SIGN) > f_key(b[i] & ~F_SIGN));
        return true;
    case VC4_QPU_A_FMAXABS:
        LOOP out[i] = vc4_alu_fmaxabs(a[i], b[i]);
        CARRY(f_key(a[i] & ~F_SIGN) > f_key(b[i] & ~F_SIGN));
        return true;
    case VC4_QPU_A_FTOI:
        LOOP out[i] = vc4_alu_ftoi(a[i]);
        CARRY(0);
        return true;
    case VC4_QPU_A_ITOF:
        LOOP out[i] = vc4_alu_itof(a[i]);
        CARRY(0);
        return true;
    case VC4_QPU_A_ADD:
        LOOP out[i] = a[i] + b[i];
        CARRY(out[i] < a[i]); /* unsigned carry out */
        return true;
    case VC4_QPU_A_SUB:
        LOOP out[i] = a[i] - b[i];
        CARRY(a[i] < b[i]); /* unsigned borrow */
        return true;
    case VC4_QPU_A_SHR:
        LOOP out[i] = a[i] >> (b[i] & 31);
        /* C = the last bit shifted out (none for a shift by 0) */
        CARRY((b[i] & 31) && ((a[i] >> ((b[i] & 31) - 1)) & 1));
        return true;
    case VC4_QPU_A_ASR:
        LOOP {
            unsigned s = b[i] & 31;
            uint32_t sx = (a[i] & F_SIGN) ? ~(~a[i] >> s) : a[i] >> s; /* arithmetic, no UB */
            out[i] = sx;
        }
        CARRY((b[i] & 31) && ((a[i] >> ((b[i] & 31) - 1)) & 1));
        return true;
    case VC4_QPU_A_ROR:
        LOOP {
            unsigned s = b[i] & 31;
            out[i] = s ? (a[i] >> s) | (a[i] << (32 - s)) : a[i];
        }
        CARRY((b[i] & 31) && ((a[i] >> ((b[i] & 31) - 1)) & 1));
        return true;
    case VC4_QPU_A_SHL:
        LOOP out[i] = a[i] << (b[i] & 31);
        CARRY((b[i] & 31) && ((a[i] >> (32 - (b[i] & 31))) & 1));
        return true;
    case VC4_QPU_A_MIN:
        LOOP out[i] = (int32_t)a[i] < (int32_t)b[i] ? a[i] : b[i];
        CARRY((int32_t)a[i] > (int32_t)b[i]);
        return true;
    case VC4_QPU_A_MAX:
        LOOP out[i] = (int32_t)a[i] > (int32_t)b[i] ? a[i] : b[i];
        CARRY((int32_t)a[i] > (int32_t)b[i]);
        return true;
    case VC4_QPU_A_AND:
        LOOP out[i] = a[i] & b[i];
        CARRY(0);
        return true;
    case VC4_QPU_A_OR:
        LOOP out[i] = a[i] | b[i];
        CARRY(0);
        return true;
    case VC4_QPU_A_XOR:
        LOOP out[i] = a[i] ^ b[i];
        CARRY(0);
        return true;
    case VC4_QPU_A_NOT:
        LOOP out[i] = ~a[i];
        CARRY(0);
        return true;
    case VC4_QPU_A_CLZ:
        LOOP out[i] = vc4_alu_clz(a[i]);
        CARRY(0);
        return true;
    case VC4_QPU_A_V8ADDS:
        LOOP out[i] = vc4_alu_v8adds(a[i], b[i]);
        CARRY(0);
        return true;
    case VC4_QPU_A_V8SUBS:
        LOOP out[i] = vc4_alu_v8subs(a[i], b[i]);
        CARRY(0);
        return true;
    default:
        LOOP out[i] = 0;
        CARRY(0);
        return false;
    }
}

bool vc4_alu_mul_vec(unsigned op, const uint32_t *a, const uint32_t *b, uint32_t *out,
                     uint16_t *carry)
{
    switch (op) {
    case VC4_QPU_M_NOP:
        LOOP out[i] = 0;
        break;
    case VC4_QPU_M_FMUL:
        LOOP out[i] = vc4_alu_fmul(a[i], b[i]);
        break;
    case VC4_QPU_M_MUL24:
        LOOP out[i] = vc4_alu_mul24(a[i], b[i]);
        /* C = product > 0xFFFFFF (facts 16) */
        CARRY((uint64_t)(a[i] & 0xFFFFFFu) * (b[i] & 0xFFFFFFu) > 0xFFFFFFu);
        return true;
    case VC4_QPU_M_V8MULD:
        LOOP out[i] = vc4_alu_v8muld(a[i], b[i]);
        break;
    case VC4_QPU_M_V8MIN:
        LOOP out[i] = vc4_alu_v8min(a[i], b[i]);
        break;
    case VC4_QPU_M_V8MAX:
        LOOP out[i] = vc4_alu_v8max(a[i], b[i]);
        break;
    case VC4_QPU_M_V8ADDS:
        LOOP out[i] = vc4_alu_v8adds(a[i], b[i]);
        break;
    case VC4_QPU_M_V8SUBS:
        LOOP out[i] = vc4_alu_v8subs(a[i], b[i]);
        break;
    default:
        LOOP out[i] = 0;
        CARRY(0);
        return false;
    }
    CARRY(0); /* fmul, v8*: C = 0 */
    return true;
}

bool vc4_alu_add_result_is_float(unsigned op)
{
    return (op >= VC4_QPU_A_FADD && op <= VC4_QPU_A_FMAXABS) || op == VC4_QPU_A_ITOF;
}

bool vc4_alu_mul_result_is_float(unsigned op)
{
    return op == VC4_QPU_M_FMUL;
}

/* ---- pack / unpack ------------------------------------------------------------ */

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
    f = vc4_alu_flush(f);
    uint16_t sign = (uint16_t)((f >> 16) & H_SIGN);
    if (f_zero(f))
        return 0;
    if (f_infnan(f))
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

/* byte / 255 as a float, truncated. */
static uint32_t unorm8_to_float(uint32_t byte)
{
    if (byte == 0)
        return 0;
    if (byte == 255)
        return 0x3F800000u;
    uint64_t q = ((uint64_t)byte << 40) / 255; /* 40 fractional bits, < 1.0 */
    unsigned lz = vc4_alu_clz((uint32_t)(q >> 8)); /* q < 2^40 */
    int top = 31 - (int)lz + 8; /* position of the leading 1 in q */
    uint32_t m = (uint32_t)(q >> (top - 23));
    return f_make(0, top - 40 + F_BIAS, m);
}

uint32_t vc4_unpack(unsigned mode, uint32_t v, bool to_float)
{
    switch (mode) {
    case VC4_QPU_UNPACK_16A:
        return to_float ? vc4_half_to_float((uint16_t)v) : (uint32_t)(int32_t)(int16_t)(uint16_t)v;
    case VC4_QPU_UNPACK_16B:
        return to_float ? vc4_half_to_float((uint16_t)(v >> 16))
                        : (uint32_t)(int32_t)(int16_t)(uint16_t)(v >> 16);
    case VC4_QPU_UNPACK_8D_REP:
        return to_float ? unorm8_to_float(v >> 24) : (v >> 24) * 0x01010101u;
    case VC4_QPU_UNPACK_8A:
    case VC4_QPU_UNPACK_8B:
    case VC4_QPU_UNPACK_8C:
    case VC4_QPU_UNPACK_8D: {
        uint32_t byte = (v >> (8 * (mode - VC4_QPU_UNPACK_8A))) & 0xFF;
        return to_float ? unorm8_to_float(byte) : byte;
    }
    default:
        return v;
    }
}

/* sat(x * 255) to a byte, rounded to nearest: vc4asm issue #23 shows the
 * hardware gives 0x02 for 1/128 (1.99 -> 2, not truncated). */
uint8_t vc4_float_to_unorm8(uint32_t f)
{
    f = vc4_alu_flush(f);
    if ((f & F_SIGN) || f_zero(f))
        return 0;
    if (f >= 0x3F800000u)
        return 255; /* >= 1.0, Inf */
    int e = (int)((f & F_EXP) >> F_EXP_SHIFT);
    unsigned shift = (unsigned)(150 - e); /* >= 24 since f < 1.0 */
    if (shift > 40)
        return 0;
    uint64_t t = (uint64_t)((f & F_MANT) | F_HIDDEN) * 255u;
    uint64_t r = (t + (UINT64_C(1) << (shift - 1))) >> shift;
    return (uint8_t)(r > 255 ? 255 : r);
}

static inline int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

bool vc4_pack_a_partial(unsigned mode)
{
    switch (mode) {
    case VC4_QPU_PACK_A_16A: case VC4_QPU_PACK_A_16B:
    case VC4_QPU_PACK_A_16A_SAT: case VC4_QPU_PACK_A_16B_SAT:
    case VC4_QPU_PACK_A_8A: case VC4_QPU_PACK_A_8B: case VC4_QPU_PACK_A_8C: case VC4_QPU_PACK_A_8D:
    case VC4_QPU_PACK_A_8A_SAT: case VC4_QPU_PACK_A_8B_SAT:
    case VC4_QPU_PACK_A_8C_SAT: case VC4_QPU_PACK_A_8D_SAT:
        return true;
    default:
        return false;
    }
}

bool vc4_pack_mul_partial(unsigned mode)
{
    return mode >= VC4_QPU_PACK_MUL_8A && mode <= VC4_QPU_PACK_MUL_8D;
}

uint32_t vc4_pack_a(unsigned mode, uint32_t v, uint32_t old, bool is_float, int64_t wide,
                    bool has_wide, bool is_sub)
{
    /* Integer packs saturate to 32 bits first (VC4C hardware tests); for
     * sub the clamp range is shifted (vc4asm). */
    int64_t s = has_wide ? (is_sub ? clamp64(wide, -INT64_C(0x80000001), INT64_C(0x80000000))
                                   : clamp64(wide, INT32_MIN, INT32_MAX))
                         : (int64_t)(int32_t)v;
    uint32_t s32 = (uint32_t)s;
    int64_t si = (int64_t)(int32_t)s32;
    switch (mode) {
    case VC4_QPU_PACK_A_NOP:
        return v;
    case VC4_QPU_PACK_A_32_SAT:
        return s32;
    case VC4_QPU_PACK_A_16A:
    case VC4_QPU_PACK_A_16A_SAT: {
        uint32_t h = is_float ? vc4_float_to_half(v)
                     : mode == VC4_QPU_PACK_A_16A ? (v & 0xFFFFu)
                     : (uint32_t)clamp64(si, INT16_MIN, INT16_MAX) & 0xFFFFu;
        return (old & 0xFFFF0000u) | h;
    }
    case VC4_QPU_PACK_A_16B:
    case VC4_QPU_PACK_A_16B_SAT: {
        uint32_t h = is_float ? vc4_float_to_half(v)
                     : mode == VC4_QPU_PACK_A_16B ? (v & 0xFFFFu)
                     : (uint32_t)clamp64(si, INT16_MIN, INT16_MAX) & 0xFFFFu;
        return (old & 0xFFFFu) | (h << 16);
    }
    case VC4_QPU_PACK_A_8888:
        return (v & 0xFFu) * 0x01010101u;
    case VC4_QPU_PACK_A_8888_SAT:
        return (uint32_t)clamp64(si, 0, 255) * 0x01010101u;
    case VC4_QPU_PACK_A_8A: case VC4_QPU_PACK_A_8B: case VC4_QPU_PACK_A_8C: case VC4_QPU_PACK_A_8D: {
        unsigned sh = 8 * (mode - VC4_QPU_PACK_A_8A);
        return (old & ~(0xFFu << sh)) | ((v & 0xFFu) << sh);
    }
    default: { /* 8a..8d saturating */
        unsigned sh = 8 * (mode - VC4_QPU_PACK_A_8A_SAT);
        return (old & ~(0xFFu << sh)) | ((uint32_t)clamp64(si, 0, 255) << sh);
    }
    }
}

uint32_t vc4_pack_mul(unsigned mode, uint32_t v, uint32_t old)
{
    switch (mode) {
    case VC4_QPU_PACK_MUL_8888:
        return vc4_float_to_unorm8(v) * 0x01010101u;
    case VC4_QPU_PACK_MUL_8A: case VC4_QPU_PACK_MUL_8B:
    case VC4_QPU_PACK_MUL_8C: case VC4_QPU_PACK_MUL_8D: {
        unsigned sh = 8 * (mode - VC4_QPU_PACK_MUL_8A);
        return (old & ~(0xFFu << sh)) | ((uint32_t)vc4_float_to_unorm8(v) << sh);
    }
    default:
        return v;
    }
}
