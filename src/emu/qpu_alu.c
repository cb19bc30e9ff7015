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
 *  - Denormals flush to zero on input (sign kept) and output; a zero
 *    result of fadd, fsub or fmul is +0 (measured: VC4C opcode_test.h,
 *    fadd(-0, -0) = fsub(-0, 0) = fmul(1.0, -0) = 0x00000000).
 *  - No NaN: an exponent of 255 is an infinity of its sign whatever the
 *    mantissa; "0.0 + NaN = +Inf" (vc4asm addendum, facts 17); Inf * 0 = +0
 *    and Inf + -Inf is the infinity of the second operand's sign (after
 *    fsub's negation) (measured, opcode_test.h).
 *  - fmin/fmax/fminabs/fmaxabs neither flush nor canonicalise: they return
 *    an operand's bits, ordered as sign-magnitude values except that a
 *    zero exponent (zero or denormal) counts as positive (measured,
 *    opcode_test.h's negative-denormal rows; see f_order).
 *  - Carry per facts 16 (vc4asm instructions.html).
 *  - mul24 uses the unsigned low 24 bits (V3DLib FAQ: -1 * 16 = 268435440).
 *  - Shifts and rotates use the low 5 bits of the shift operand (vc4asm
 *    instructions.html).
 * Choices not verified on hardware are marked UNVERIFIED and listed in
 * docs/emulator.md.
 */
#include "emu/qpu_alu.h"
#include "emu/qpu_lanes.h"
#include "spec/half.h"

#include <float.h>
#include <string.h>

#include "vc4kit/qpu.h"

#define F_SIGN 0x80000000u
#define F_EXP 0x7F800000u
#define F_MANT 0x007FFFFFu
#define F_HIDDEN 0x00800000u
#define F_INF 0x7F800000u
#define F_EXP_SHIFT 23
#define F_BIAS 127
#define F_EXP_MAX 255
#define F_ABS 0x7FFFFFFFu
#define F_ONE 0x3F800000u /* 1.0 */
/* A float of biased exponent e is its 24-bit mantissa (hidden bit set)
 * times 2^(e - F_UNIT_EXP). */
#define F_UNIT_EXP (F_BIAS + F_EXP_SHIFT)

static inline bool f_infnan(uint32_t f) { return (f & F_EXP) == F_EXP; }
static inline bool f_zero(uint32_t f) { return (f & ~F_SIGN) == 0; }

VC4_ALU_FN uint32_t vc4_alu_flush(uint32_t f)
{
    return (f & F_EXP) == 0 ? (f & F_SIGN) : f;
}

/* Assemble a result from sign, biased exponent and 24-bit mantissa (hidden
 * bit included), flushing underflow to +0 (a zero result is +0, measured)
 * and overflow to an infinity (measured: fadd(0x70000000, 0x70000000) and
 * fmul(0x70000000, 0x70000000) are +Inf in opcode_test.h). */
static inline uint32_t f_make(uint32_t sign, int e, uint32_t mant24)
{
    if (e >= F_EXP_MAX)
        return sign | F_INF;
    if (e <= 0)
        return 0;
    return sign | ((uint32_t)e << F_EXP_SHIFT) | (mant24 & F_MANT);
}

VC4_ALU_FN uint32_t vc4_alu_fadd(uint32_t a, uint32_t b)
{
    a = vc4_alu_flush(a);
    b = vc4_alu_flush(b);
    if (f_infnan(a) || f_infnan(b)) /* Inf + -Inf: b's sign (measured) */
        return ((f_infnan(b) ? b : a) & F_SIGN) | F_INF;
    if (f_zero(b))
        return f_zero(a) ? 0 : a; /* -0 + -0 = +0 (measured) */
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

VC4_ALU_FN uint32_t vc4_alu_fsub(uint32_t a, uint32_t b)
{
    /* a - b = a + (-b); an infinity/NaN b keeps its flipped sign. */
    return vc4_alu_fadd(a, b ^ F_SIGN);
}

VC4_ALU_FN uint32_t vc4_alu_fmul(uint32_t a, uint32_t b)
{
    a = vc4_alu_flush(a);
    b = vc4_alu_flush(b);
    uint32_t sign = (a ^ b) & F_SIGN;
    if (f_zero(a) || f_zero(b))
        return 0; /* +0, Inf * 0 included (measured) */
    if (f_infnan(a) || f_infnan(b))
        return sign | F_INF;
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

/* The order fmin/fmax use, as a two's complement key: sign-magnitude
 * (NaN patterns above the infinities), except that a value with a zero
 * exponent counts as positive whatever its sign bit, so that -0 ties with
 * +0 and a negative denormal orders by its mantissa above +0 (measured:
 * fmax(0x80007fff, 0x8000007f) = 0x80007fff and fmax(0, 0x80007fff) =
 * 0x80007fff in opcode_test.h; no operand is flushed). */
static inline int32_t f_order(uint32_t f)
{
    uint32_t neg = (f & F_EXP) ? (uint32_t)0 - (f >> 31) : 0;
    return (int32_t)(((f & F_ABS) ^ neg) - neg);
}

/* C = a > b in that order; fmax returns a when a > b, else b (so on a tie
 * of +0 and -0 the second operand); fmin returns b when a > b, else a
 * (measured, opcode_test.h: fmax(-0, 0) = 0, fmax(0, -0) = -0, fmin(-0, 0)
 * = -0). */
VC4_ALU_FN uint32_t vc4_alu_fmin(uint32_t a, uint32_t b)
{
    return f_order(a) > f_order(b) ? b : a;
}
VC4_ALU_FN uint32_t vc4_alu_fmax(uint32_t a, uint32_t b)
{
    return f_order(a) > f_order(b) ? a : b;
}
/* fminabs/fmaxabs return the absolute value (Mesa, vc4asm). */
VC4_ALU_FN uint32_t vc4_alu_fminabs(uint32_t a, uint32_t b)
{
    return vc4_alu_fmin(a & ~F_SIGN, b & ~F_SIGN);
}
VC4_ALU_FN uint32_t vc4_alu_fmaxabs(uint32_t a, uint32_t b)
{
    return vc4_alu_fmax(a & ~F_SIGN, b & ~F_SIGN);
}

/* ftoi: truncation toward zero.  Out of the int32 range: 0 (measured for
 * Inf/NaN patterns and +-1.6e29 in opcode_test.h; that the limit is 2^31
 * exactly is UNVERIFIED). */
VC4_ALU_FN uint32_t vc4_alu_ftoi(uint32_t a)
{
    a = vc4_alu_flush(a);
    int e = (int)((a & F_EXP) >> F_EXP_SHIFT) - F_BIAS;
    if (e < 0 || e >= 31)
        return 0;
    uint32_t m = (a & F_MANT) | F_HIDDEN;
    uint32_t v = e >= 23 ? m << (e - 23) : m >> (23 - e);
    return (a & F_SIGN) ? (uint32_t)0 - v : v;
}

/* itof: signed int32 to float, truncating (measured: itof(0x7fffffff) =
 * 0x4effffff, itof(0x80007fff) = 0xceffff00 in opcode_test.h). */
VC4_ALU_FN uint32_t vc4_alu_itof(uint32_t a)
{
    if (a == 0)
        return 0;
    uint32_t sign = a & F_SIGN;
    uint32_t m = sign ? (uint32_t)0 - a : a;
    unsigned lz = vc4_alu_clz(m);
    uint32_t n = (uint32_t)(((uint64_t)m << lz) >> 8); /* 24 bits, hidden at 23 */
    return f_make(sign, (int)(31 - lz) + F_BIAS, n);
}

VC4_ALU_FN uint32_t vc4_alu_clz(uint32_t a)
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

VC4_ALU_FN uint32_t vc4_alu_mul24(uint32_t a, uint32_t b)
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
/* v8muld: a*b/255 rounded to nearest (never a tie: 255 is odd), (a*b +
 * 127) / 255 (measured: every v8muld row of VC4C's opcode_test.h). */
BYTEWISE(vc4_alu_v8muld, (x * y + 127) / 255)

/* ---- whole vectors --------------------------------------------------------- */

#define N VC4_QPU_SIMD

/* Kernels whose 16-lane loops gain from wider vectors (variable shifts,
 * 32-bit multiplies, 4 doubles per operation, byte lanes with AVX-512BW)
 * get an AVX-512 and an AVX2 copy picked at load time on x86-64 (GCC/clang function multi-versioning through an
 * ifunc, glibc); the results are identical by construction: the same C,
 * integer and IEEE operations, no fused multiply-add.  (Defining
 * VC4_KERNEL_CLONES empty on the command line builds the baseline copies
 * only, to test them on an AVX2 host.)  Clone static functions only: clang
 * emits no dispatcher under an extern function's own name, and the link
 * fails (a public entry calls a static clone, as vc4_pack_mul_vec does). */
#if !defined(VC4_KERNEL_CLONES) && defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define VC4_KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#endif
#endif
#ifndef VC4_KERNEL_CLONES
#define VC4_KERNEL_CLONES
#endif
/* The byte-wise v8 kernels: AVX2 code is slower than SSE2 for them, but
 * AVX-512BW's byte operations make them 4-6 times faster (bench_qpu). */
#if !defined(VC4_BYTE_KERNEL_CLONES) && defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define VC4_BYTE_KERNEL_CLONES __attribute__((target_clones("arch=x86-64-v4", "default")))
#endif
#endif
#ifndef VC4_BYTE_KERNEL_CLONES
#define VC4_BYTE_KERNEL_CLONES
#endif

/* All-ones when c is true. */
static inline uint32_t lane_mask(bool c) { return (uint32_t)0 - (uint32_t)c; }
/* Bit casts (memcpy: no aliasing questions; compilers see through it). */
static inline float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* One kernel per op: OUT is the result of x = a[i], y = b[i]; CARRY the
 * C flag (facts 16), which may use r = out[i].  Element i's result
 * depends on element i of a and b only, and is written after they are
 * read: out may be a or b (VC4_ALU_LANES). */
#define KERNEL(name, OUT, CARRY) KERNEL_ATTR(, VC4_ALU_LANES, name, OUT, CARRY)
#define KERNEL_V(name, OUT, CARRY) KERNEL_ATTR(VC4_KERNEL_CLONES, VC4_ALU_LANES, name, OUT, CARRY)
/* (the scalar rules: loops no compiler vectorises, left as they are) */
#define KERNEL_S(name, OUT, CARRY) KERNEL_ATTR(, , name, OUT, CARRY)
#define KERNEL_ATTR(ATTR, LOOP, name, OUT, CARRY)                                 \
    ATTR static void name(const uint32_t *a, const uint32_t *b, uint32_t *out,    \
                          uint16_t *carry)                                        \
    {                                                                             \
        if (carry) {                                                              \
            uint32_t m = 0;                                                       \
            LOOP for (int i = 0; i < N; i++) {                                    \
                uint32_t x = a[i], y = b[i], r = (OUT);                           \
                (void)x;                                                          \
                (void)y;                                                          \
                m |= vc4_lane_bit[i] & lane_mask(CARRY);                              \
                out[i] = r;                                                       \
            }                                                                     \
            *carry = (uint16_t)m;                                                 \
        } else {                                                                  \
            LOOP for (int i = 0; i < N; i++) {                                    \
                uint32_t x = a[i], y = b[i];                                      \
                (void)x;                                                          \
                (void)y;                                                          \
                out[i] = (OUT);                                                   \
            }                                                                     \
        }                                                                         \
    }

static inline uint32_t shift_carry(uint32_t x, uint32_t y)
{
    uint32_t s = y & 31;
    return s ? (x >> (s - 1)) & 1 : 0; /* the last bit shifted out */
}
static inline uint32_t asr32(uint32_t x, uint32_t s)
{
    return (x & F_SIGN) ? ~(~x >> s) : x >> s; /* arithmetic, no UB */
}
static inline uint32_t ror32(uint32_t x, uint32_t s)
{
    return s ? (x >> s) | (x << (32 - s)) : x;
}
KERNEL(k_zero, 0u, 0)
KERNEL_S(k_fadd, vc4_alu_fadd(x, y), !(r & F_SIGN) && r != 0) /* C: result > 0, +NaN patterns too */
KERNEL_S(k_fsub, vc4_alu_fsub(x, y), !(r & F_SIGN) && r != 0)
/* fmin/fmax/fminabs/fmaxabs (abs: the absolute values, Mesa, vc4asm):
 * equal to vc4_alu_fmin/fmax/fminabs/fmaxabs (f_order, unflushed), each key
 * computed once; C = src1 > src2 (facts 16, measured). */
static inline void minmax16(const uint32_t *a, const uint32_t *b, uint32_t *out,
                            uint16_t *carry, uint32_t absmask, bool is_max)
{
    uint32_t m = 0, max_sel = lane_mask(is_max);
    VC4_ALU_LANES for (int i = 0; i < N; i++) {
        uint32_t x = a[i] & absmask, y = b[i] & absmask;
        /* f_order: sign-magnitude, a zero exponent counting as positive */
        uint32_t nx = lane_mask(x >> 31) & ~lane_mask((x & F_EXP) == 0);
        uint32_t ny = lane_mask(y >> 31) & ~lane_mask((y & F_EXP) == 0);
        int32_t kx = (int32_t)(((x & F_ABS) ^ nx) - nx), ky = (int32_t)(((y & F_ABS) ^ ny) - ny);
        uint32_t gt = lane_mask(kx > ky);
        uint32_t take_y = gt ^ max_sel; /* max: y unless x > y; min: y when x > y */
        out[i] = (x & ~take_y) | (y & take_y);
        m |= vc4_lane_bit[i] & gt;
    }
    if (carry)
        *carry = (uint16_t)m;
}
VC4_KERNEL_CLONES static void k_fmin(const uint32_t *a, const uint32_t *b, uint32_t *out, uint16_t *carry)
{
    minmax16(a, b, out, carry, ~0u, false);
}
VC4_KERNEL_CLONES static void k_fmax(const uint32_t *a, const uint32_t *b, uint32_t *out, uint16_t *carry)
{
    minmax16(a, b, out, carry, ~0u, true);
}
VC4_KERNEL_CLONES static void k_fminabs(const uint32_t *a, const uint32_t *b, uint32_t *out, uint16_t *carry)
{
    minmax16(a, b, out, carry, F_ABS, false);
}
VC4_KERNEL_CLONES static void k_fmaxabs(const uint32_t *a, const uint32_t *b, uint32_t *out, uint16_t *carry)
{
    minmax16(a, b, out, carry, F_ABS, true);
}
KERNEL_S(k_ftoi, vc4_alu_ftoi(x), 0)
KERNEL_S(k_itof, vc4_alu_itof(x), !(r & F_SIGN) && r != 0) /* C: result > 0 (measured) */
KERNEL(k_add, x + y, r < x) /* unsigned carry out */
KERNEL(k_sub, x - y, x < y) /* unsigned borrow */
KERNEL_V(k_shr, x >> (y & 31), shift_carry(x, y))
KERNEL_V(k_asr, asr32(x, y & 31), shift_carry(x, y))
KERNEL_V(k_ror, ror32(x, y & 31), 0) /* ror never sets C (measured, opcode_test.h) */
KERNEL_V(k_shl, x << (y & 31), (y & 31) && ((x >> (32 - (y & 31))) & 1))
KERNEL(k_min, (int32_t)x < (int32_t)y ? x : y, (int32_t)x > (int32_t)y)
KERNEL(k_max, (int32_t)x > (int32_t)y ? x : y, (int32_t)x > (int32_t)y)
KERNEL(k_and, x & y, 0)
KERNEL(k_or, x | y, 0)
KERNEL(k_xor, x ^ y, 0)
KERNEL(k_not, ~x, 0)
KERNEL_S(k_clz, vc4_alu_clz(x), 0)
KERNEL_S(k_fmul, vc4_alu_fmul(x, y), 0)
/* C = product > 0xFFFFFF (facts 16) */
KERNEL_V(k_mul24, (x & 0xFFFFFFu) * (y & 0xFFFFFFu),
       (uint64_t)(x & 0xFFFFFFu) * (y & 0xFFFFFFu) > 0xFFFFFFu)

/* Per-byte ops (unsigned bytes, saturating; Mesa / vc4asm) on the 64 bytes
 * of the vector at once: byte order inside an element does not matter to a
 * byte-wise op, and 64-byte loops of uint8_t vectorise (written in the
 * forms compilers turn into saturating byte instructions; out may be a or
 * b: the operands are copied first).  Equal to
 * vc4_alu_v8*() (test_emu_alu.c checks every byte pair). */
#define BYTE_KERNEL(name, EXPR)                                                    \
    VC4_BYTE_KERNEL_CLONES static void name(const uint32_t *a, const uint32_t *b, uint32_t *out,          \
                     uint16_t *carry)                                              \
    {                                                                              \
        uint8_t xa[4 * N], yb[4 * N], r[4 * N];                                    \
        memcpy(xa, a, sizeof xa);                                                  \
        memcpy(yb, b, sizeof yb);                                                  \
        for (int i = 0; i < 4 * N; i++) {                                         \
            uint8_t x = xa[i], y = yb[i];                                          \
            r[i] = (EXPR);                                                         \
        }                                                                          \
        memcpy(out, r, sizeof r);                                                  \
        if (carry)                                                                 \
            *carry = 0; /* v8*: C = 0 */                                           \
    }
static inline uint8_t adds8(uint8_t x, uint8_t y)
{
    uint8_t s = (uint8_t)(x + y);
    return s < x ? 255 : s;
}
static inline uint8_t subs8(uint8_t x, uint8_t y)
{
    uint8_t d = (uint8_t)(x - y);
    return d > x ? 0 : d;
}
/* (x*y + 127) / 255 as (t + 1 + (t >> 8)) >> 8 with t = x*y + 127, equal
 * for every byte pair (and t fits 16 bits) */
static inline uint8_t muld8(uint8_t x, uint8_t y)
{
    uint16_t t = (uint16_t)(x * y + 127);
    return (uint8_t)((t + 1 + (t >> 8)) >> 8);
}
BYTE_KERNEL(k_v8adds, adds8(x, y))
BYTE_KERNEL(k_v8subs, subs8(x, y))
BYTE_KERNEL(k_v8min, x < y ? x : y)
BYTE_KERNEL(k_v8max, x > y ? x : y)
BYTE_KERNEL(k_v8muld, muld8(x, y))

/* ---- host-arithmetic float kernels ---------------------------------------------
 * The operands are flushed (denormal -> signed zero), lanes holding an
 * exponent-255 pattern are set aside (their result given by the rule) and
 * zeroed so that the host never sees Inf or NaN.  Every operand is read
 * before out is written (out may be a or b). */

/* (VC4_HOST_FP: qpu_alu.h) */

typedef union {
    uint32_t u[N];
    float f[N];
} fvec;
typedef union {
    uint64_t u[N];
    double d[N];
    uint32_t w[2 * N];
} dvec;

/* Flush a and b ^ bxor into x and y; sp marks (all ones) the lanes with
 * an Inf/NaN pattern, zeroed in x and y.  (The caller folds sp into one
 * reduction with its own special lanes.) */
static inline void prep2(const uint32_t *a, const uint32_t *b, uint32_t bxor, fvec *restrict x,
                         fvec *restrict y, fvec *restrict sp)
{
    for (int i = 0; i < N; i++) {
        uint32_t xa = a[i], yb = b[i] ^ bxor;
        uint32_t ex = xa & F_EXP, ey = yb & F_EXP;
        uint32_t s = lane_mask(ex == F_EXP) | lane_mask(ey == F_EXP);
        sp->u[i] = s;
        x->u[i] = xa & ~(lane_mask(ex == 0) & F_ABS) & ~s;
        y->u[i] = yb & ~(lane_mask(ey == 0) & F_ABS) & ~s;
    }
}

/* A double (from float operands: finite, never subnormal), given as its
 * high and low 32-bit words, truncated toward zero to a float: keep the top
 * 23 mantissa bits; exponent above the float range -> Inf, below -> signed
 * zero (output flush).  In range, the float is the double's bits shifted
 * left by 3 (sign and the exponent's top two bits drop out) with the
 * exponent rebiased by -896 (1023 - 127), which modulo 2^31 after the shift
 * is + 2^30. */
static inline uint32_t dtrunc(uint32_t hi, uint32_t lo)
{
    uint32_t e = (hi >> 20) & 0x7FF, sign = hi & F_SIGN;
    uint32_t r = ((((hi << 3) | (lo >> 29)) + 0x40000000u) & F_ABS) | sign;
    r = e < 1023 - F_BIAS + 1 ? sign : r;                         /* float exponent <= 0 */
    r = e > 1023 - F_BIAS + F_EXP_MAX - 1 ? sign | F_INF : r;     /* float exponent >= 255 */
    return r;
}

/* The 16 doubles' high and low words (a layout-independent way to take
 * them apart, which compilers vectorise on little-endian hosts). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && \
    defined(__FLOAT_WORD_ORDER__) && __FLOAT_WORD_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define DHI(v, i) ((v).w[2 * (i) + 1])
#define DLO(v, i) ((v).w[2 * (i)])
#else
#define DHI(v, i) ((uint32_t)((v).u[i] >> 32))
#define DLO(v, i) ((uint32_t)(v).u[i])
#endif

/* fadd/fsub (bxor = sign bit for fsub), 4 floats per host vector: the
 * float sum s = x + y rounded to nearest and its exact error (Dekker's
 * Fast2Sum on the operands ordered by magnitude: exact in IEEE arithmetic
 * with gradual underflow whenever s is finite, and no intermediate can
 * overflow): the exact sum is s + err, so truncating it toward zero gives
 * s when err is 0 or has the sign of s, else s one ulp toward zero (s is
 * nearest, so the exact value lies between that float and s).  A sum that
 * may overflow goes to the scalar rule. */
#if defined(__GNUC__)
#define ALU_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define ALU_ALWAYS_INLINE inline
#endif
/* (always inlined: clang does not otherwise inline it into the clones, and
 * would leave it baseline code) */
static ALU_ALWAYS_INLINE void fadd_host(const uint32_t *a, const uint32_t *b, uint32_t bxor, uint32_t *out)
{
    fvec x, y, sp;
    /* flush denormals (sign kept); Inf/NaN patterns are set aside */
    prep2(a, b, bxor, &x, &y, &sp);
    /* Lanes the float sum cannot give go to the scalar rule (rare; for
     * every element): Inf/NaN patterns, and an operand from 2^127 on
     * (exponent field 254), with which the sum may overflow (below, |x + y|
     * <= 2 * (2^127 - 2^103) = FLT_MAX: finite). */
    uint32_t special = 0;
    VC4_ALU_VEC_LOOP for (int i = 0; i < N; i++)
        special |= sp.u[i] | lane_mask((x.u[i] & F_EXP) == F_EXP - F_HIDDEN) |
                   lane_mask((y.u[i] & F_EXP) == F_EXP - F_HIDDEN);
    if (special) {
        /* (each element's operands read before its result is written) */
        for (int i = 0; i < N; i++)
            out[i] = vc4_alu_fadd(a[i], b[i] ^ bxor);
        return;
    }
    VC4_ALU_VEC_LOOP for (int i = 0; i < N; i++) {
        /* order by magnitude (magnitudes order as their bit patterns) */
        uint32_t xu = x.u[i], yu = y.u[i];
        uint32_t swap = lane_mask((yu & F_ABS) > (xu & F_ABS));
        float big = u2f((xu & ~swap) | (yu & swap)), small = u2f((yu & ~swap) | (xu & swap));
        float sum = big + small;
        float err = small - (sum - big);
        uint32_t r = f2u(sum), e = f2u(err);
        r -= (uint32_t)((e << 1) != 0) & ((e ^ r) >> 31);
        out[i] = r & ~lane_mask((r & F_EXP) == 0); /* zero, underflow: +0 */
    }
}

/* fadd/fsub C flag: result > 0, +NaN patterns included (facts 16). */
static inline uint16_t carry_positive(const uint32_t *r)
{
    uint32_t m = 0;
    VC4_ALU_VEC_LOOP for (int i = 0; i < N; i++)
        m |= vc4_lane_bit[i] & lane_mask(!(r[i] & F_SIGN) && r[i] != 0);
    return (uint16_t)m;
}

VC4_KERNEL_CLONES static void k_host_fadd(const uint32_t *a, const uint32_t *b, uint32_t *out, uint16_t *carry)
{
    fadd_host(a, b, 0, out);
    if (carry)
        *carry = carry_positive(out);
}

VC4_KERNEL_CLONES static void k_host_fsub(const uint32_t *a, const uint32_t *b, uint32_t *out, uint16_t *carry)
{
    fadd_host(a, b, F_SIGN, out);
    if (carry)
        *carry = carry_positive(out);
}

/* fmul: the double product of two floats is exact (48 bits); clearing its
 * low 29 mantissa bits truncates it toward zero to float precision (24
 * bits), after which converting it to float is exact in the normal range
 * and an infinity of its sign from 2^128 on (IEEE overflow, as the rule
 * wants).  Below 2^-126 the rule gives +0 (output flush; a zero product
 * is +0): the product is made +0 before the conversion (which would
 * otherwise round to a denormal, or up to 2^-126).  An Inf/NaN pattern
 * operand gives the infinity of the product's sign, or +0 when the other
 * operand is zero or a denormal (vc4_alu_fmul).  No lane needs the scalar
 * rule. */
#define D_BELOW_FLOAT_MANT UINT64_C(0x1FFFFFFF) /* 52 - 23 bits */
#define D_SIGN (UINT64_C(1) << 63)
static inline double u2d(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
static inline uint64_t d2u(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
VC4_KERNEL_CLONES static void k_host_fmul(const uint32_t *a, const uint32_t *b, uint32_t *out, uint16_t *carry)
{
    fvec x, y, sp, inf, p;
    prep2(a, b, 0, &x, &y, &sp);
    for (int i = 0; i < N; i++)
        inf.u[i] = (((a[i] ^ b[i]) & F_SIGN) | F_INF) &
                   ~(lane_mask((a[i] & F_EXP) == 0) | lane_mask((b[i] & F_EXP) == 0));
    for (int i = 0; i < N; i++) {
        uint64_t d = d2u((double)x.f[i] * (double)y.f[i]) & ~D_BELOW_FLOAT_MANT;
        uint64_t keep = (uint64_t)0 - (uint64_t)(u2d(d & ~D_SIGN) >= 0x1p-126); /* below: +0 */
        p.f[i] = (float)u2d(d & keep);
    }
    for (int i = 0; i < N; i++)
        out[i] = (p.u[i] & ~sp.u[i]) | (inf.u[i] & sp.u[i]);
    if (carry)
        *carry = 0;
}

/* ---- AVX-512 float kernels ----------------------------------------------------
 * AVX-512F gives each arithmetic instruction its own rounding mode
 * (embedded rounding), so the rule's truncation is the instruction itself:
 * IEEE round-toward-zero of the exact sum or product is exactly what
 * vc4_alu_fadd/fmul compute with their guard and sticky bits.  What is left
 * are the rule's edges, as lane masks:
 *  - an operand with a zero exponent field flushes to its sign;
 *  - a result below 2^-126 is +0: round-toward-zero never rounds up to the
 *    smallest normal, so with gradual underflow (vc4_alu_fp_enter checks
 *    that flush-to-zero is off) such a result, like an exact zero, has a
 *    zero exponent field;
 *  - the lanes round-toward-zero cannot give take the scalar rule: Inf/NaN
 *    patterns, and operands whose result may overflow (the rule gives an
 *    infinity where round-toward-zero stops at FLT_MAX): for fadd an
 *    operand from 2^127 on (below, |x + y| < 2^128), for fmul exponent
 *    fields summing to 381 or more (below, |x * y| < 2^(ea + eb - 252)
 *    <= 2^128).
 * Written with the compilers' vector extensions and the builtins that the
 * <immintrin.h> intrinsics _mm512_add_round_ps / _mm512_mul_round_ps,
 * _mm512_cmp_epi32_mask / _mm512_cmp_epu32_mask and _mm512_movepi32_mask
 * expand to, not the header: the JIT's prelude is
 * this file preprocessed, and the header would put 1.3 MB of text before
 * every block.  Selected at run time (vc4_alu_kernels_best) on CPUs with
 * AVX-512F and DQ; cross-checked against the scalar rules by
 * tests/unit/test_emu_alu.c. */
#if VC4_ALU_AVX512
typedef uint32_t v16u __attribute__((vector_size(64)));
typedef int32_t v16i __attribute__((vector_size(64)));
typedef float v16f __attribute__((vector_size(64)));
#define AVX512_FN __attribute__((target("avx512f,avx512dq")))
#define ROUND_TO_ZERO_SAE 0x0B /* _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC */
#if defined(__clang__)
#define ADD_RZ(x, y) __builtin_ia32_addps512((x), (y), ROUND_TO_ZERO_SAE)
#define MUL_RZ(x, y) __builtin_ia32_mulps512((x), (y), ROUND_TO_ZERO_SAE)
#else
#define ADD_RZ(x, y) __builtin_ia32_addps512_mask((x), (y), (x), (uint16_t)0xFFFF, ROUND_TO_ZERO_SAE)
#define MUL_RZ(x, y) __builtin_ia32_mulps512_mask((x), (y), (x), (uint16_t)0xFFFF, ROUND_TO_ZERO_SAE)
#endif
/* One bit per lane: of a vector's sign bits (_mm512_movepi32_mask), and
 * of an unsigned comparison (_mm512_cmp_epu32_mask: straight into a mask
 * register, where a vector comparison result would be made a vector and
 * back). */
#define LANES(v) ((uint16_t)__builtin_ia32_cvtd2mask512((v16i)(v)))
#define CMP_EQ 0
#define CMP_GE 5
#define CMP_GT 6
#define UCMP(a, pred, c) ((uint16_t)__builtin_ia32_ucmpd512_mask((v16i)(a), (v16i)((v16u){0} + (uint32_t)(c)), pred, (uint16_t)0xFFFF))
#define SCMP(a, pred, c) ((uint16_t)__builtin_ia32_cmpd512_mask((v16i)(a), (v16i){0} + (int32_t)(c), pred, (uint16_t)0xFFFF))

/* x with the lanes whose exponent field is zero flushed to their sign */
static AVX512_FN ALU_ALWAYS_INLINE v16u flush512(v16u x)
{
    return x & ~((v16u)((x & F_EXP) == 0) & F_ABS);
}

/* A result with a zero exponent field (zero, or below 2^-126) is +0. */
static AVX512_FN ALU_ALWAYS_INLINE v16u plus_zero512(v16u r)
{
    return r & ~(v16u)((r & F_EXP) == 0);
}

/* The special lanes of x op y by the scalar rule (op: 0 fadd, 1 fmul). */
static uint32_t rule2(int op, uint32_t x, uint32_t y) { return op ? vc4_alu_fmul(x, y) : vc4_alu_fadd(x, y); }
static AVX512_FN v16u special512(int op, v16u x, v16u y, v16u r, uint16_t special)
{
    uint32_t xs[N], ys[N], rs[N];
    memcpy(xs, &x, sizeof xs);
    memcpy(ys, &y, sizeof ys);
    memcpy(rs, &r, sizeof rs);
    for (unsigned m = special; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        rs[i] = rule2(op, xs[i], ys[i]);
    }
    memcpy(&r, rs, sizeof r);
    return r;
}

static AVX512_FN ALU_ALWAYS_INLINE void fadd512(const uint32_t *a, const uint32_t *b, uint32_t bxor, uint32_t *out,
                                                uint16_t *carry)
{
    v16u x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    y ^= bxor;
    uint16_t special = UCMP(x & F_EXP, CMP_GE, F_EXP - F_HIDDEN) | UCMP(y & F_EXP, CMP_GE, F_EXP - F_HIDDEN);
    v16u r = plus_zero512((v16u)ADD_RZ((v16f)flush512(x), (v16f)flush512(y)));
    if (special)
        r = special512(0, x, y, r, special);
    memcpy(out, &r, sizeof r);
    if (carry)
        *carry = SCMP(r, CMP_GT, 0); /* C: result > 0, +NaN patterns too */
}

static AVX512_FN ALU_ALWAYS_INLINE void k512_fadd(const uint32_t *a, const uint32_t *b, uint32_t *out,
                                                  uint16_t *carry)
{
    fadd512(a, b, 0, out, carry);
}

static AVX512_FN ALU_ALWAYS_INLINE void k512_fsub(const uint32_t *a, const uint32_t *b, uint32_t *out,
                                                  uint16_t *carry)
{
    fadd512(a, b, F_SIGN, out, carry);
}

static AVX512_FN ALU_ALWAYS_INLINE void k512_fmul(const uint32_t *a, const uint32_t *b, uint32_t *out,
                                                  uint16_t *carry)
{
    v16u x, y;
    memcpy(&x, a, sizeof x);
    memcpy(&y, b, sizeof y);
    v16u ex = x & F_EXP, ey = y & F_EXP; /* (their sum fits: 2 * 255 << 23 < 2^32) */
    /* the product's exponent field ea + eb - bias from 254 on may overflow */
    uint16_t special = UCMP(ex, CMP_EQ, F_EXP) | UCMP(ey, CMP_EQ, F_EXP) |
                       UCMP(ex + ey, CMP_GE, (uint32_t)(F_BIAS + F_EXP_MAX - 1) << F_EXP_SHIFT);
    v16u r = plus_zero512((v16u)MUL_RZ((v16f)flush512(x), (v16f)flush512(y)));
    if (special)
        r = special512(1, x, y, r, special);
    memcpy(out, &r, sizeof r);
    if (carry)
        *carry = 0;
}

/* vc4_alu_kernels.fill and .copy: one 64-byte store each. */
static AVX512_FN void k512_fill(uint32_t *d, uint32_t v)
{
    v16u x = (v16u){0} + v;
    memcpy(d, &x, sizeof x);
}
static AVX512_FN void k512_copy(uint32_t *d, const uint32_t *s)
{
    v16u x;
    memcpy(&x, s, sizeof x);
    memcpy(d, &x, sizeof x);
}

/* The Z lane bits of r (element == 0) in bits 0-15 and the N lane bits
 * (bit 31) in bits 16-31, as vc4_lanes_set_flags computes them, two mask
 * instructions (compiled blocks only: jit.c). */
#ifdef VC4_ALU_JIT_PRELUDE
static AVX512_FN ALU_ALWAYS_INLINE uint32_t vc4_alu_zn512(const uint32_t *r)
{
    v16u x;
    memcpy(&x, r, sizeof x);
    return (uint32_t)UCMP(x, CMP_EQ, 0) | (uint32_t)LANES(x) << 16;
}
#endif
#endif /* VC4_ALU_AVX512 */

/* itof: a 32-bit integer is exact in a double; truncate it like a sum. */
static void k_host_itof(const uint32_t *a, const uint32_t *b, uint32_t *out, uint16_t *carry)
{
    (void)b;
    dvec d;
    VC4_ALU_VEC_LOOP for (int i = 0; i < N; i++)
        d.d[i] = (double)(int32_t)a[i];
    VC4_ALU_VEC_LOOP for (int i = 0; i < N; i++)
        out[i] = dtrunc(DHI(d, i), DLO(d, i));
    if (carry)
        *carry = carry_positive(out); /* C: result > 0 (measured) */
}

/* ftoi: C's float -> int conversion truncates toward zero, as ftoi does,
 * for |x| < 2^31; outside (and Inf/NaN patterns) the result is 0, and the
 * lane is zeroed first so that no conversion is out of range. */
static void k_host_ftoi(const uint32_t *a, const uint32_t *b, uint32_t *out, uint16_t *carry)
{
    (void)b;
    fvec x;
    uint32_t in_range[N];
    VC4_ALU_VEC_LOOP for (int i = 0; i < N; i++) {
        uint32_t f = a[i];
        in_range[i] = lane_mask(((f >> F_EXP_SHIFT) & 0xFF) < F_BIAS + 31);
        x.u[i] = f & in_range[i] & ~(lane_mask((f & F_EXP) == 0) & F_ABS);
    }
    VC4_ALU_VEC_LOOP for (int i = 0; i < N; i++)
        out[i] = (uint32_t)(int32_t)x.f[i] & in_range[i];
    if (carry)
        *carry = 0;
}

#define ADD_TABLE(FADD, FSUB, FTOI, ITOF)                                             \
    {                                                                                 \
        [VC4_QPU_A_NOP] = k_zero, [VC4_QPU_A_FADD] = FADD, [VC4_QPU_A_FSUB] = FSUB,   \
        [VC4_QPU_A_FMIN] = k_fmin, [VC4_QPU_A_FMAX] = k_fmax,                         \
        [VC4_QPU_A_FMINABS] = k_fminabs, [VC4_QPU_A_FMAXABS] = k_fmaxabs,             \
        [VC4_QPU_A_FTOI] = FTOI, [VC4_QPU_A_ITOF] = ITOF, [9] = k_zero, [10] = k_zero, \
        [11] = k_zero, [VC4_QPU_A_ADD] = k_add, [VC4_QPU_A_SUB] = k_sub,              \
        [VC4_QPU_A_SHR] = k_shr, [VC4_QPU_A_ASR] = k_asr, [VC4_QPU_A_ROR] = k_ror,    \
        [VC4_QPU_A_SHL] = k_shl, [VC4_QPU_A_MIN] = k_min, [VC4_QPU_A_MAX] = k_max,    \
        [VC4_QPU_A_AND] = k_and, [VC4_QPU_A_OR] = k_or, [VC4_QPU_A_XOR] = k_xor,      \
        [VC4_QPU_A_NOT] = k_not, [VC4_QPU_A_CLZ] = k_clz, [25] = k_zero, [26] = k_zero, \
        [27] = k_zero, [28] = k_zero, [29] = k_zero, [VC4_QPU_A_V8ADDS] = k_v8adds,   \
        [VC4_QPU_A_V8SUBS] = k_v8subs,                                                \
    }
#define MUL_TABLE(FMUL)                                                               \
    {                                                                                 \
        [VC4_QPU_M_NOP] = k_zero, [VC4_QPU_M_FMUL] = FMUL, [VC4_QPU_M_MUL24] = k_mul24, \
        [VC4_QPU_M_V8MULD] = k_v8muld, [VC4_QPU_M_V8MIN] = k_v8min,                   \
        [VC4_QPU_M_V8MAX] = k_v8max, [VC4_QPU_M_V8ADDS] = k_v8adds,                   \
        [VC4_QPU_M_V8SUBS] = k_v8subs,                                                \
    }

/* The JIT's blocks name their kernels through these tables (jit.c), so
 * that a block calls what the interpreter's table holds. */
#ifdef VC4_ALU_JIT_PRELUDE
#define VC4_ALU_TABLE static
#define vc4_alu_kernels_exact vc4_jit_kernels_exact
#define vc4_alu_kernels_host vc4_jit_kernels_host
#define vc4_alu_kernels_avx512 vc4_jit_kernels_avx512
#else
#define VC4_ALU_TABLE
#endif
VC4_ALU_TABLE const struct vc4_alu_kernels vc4_alu_kernels_exact = {
    .add = ADD_TABLE(k_fadd, k_fsub, k_ftoi, k_itof),
    .mul = MUL_TABLE(k_fmul),
};
#if VC4_HOST_FP
VC4_ALU_TABLE const struct vc4_alu_kernels vc4_alu_kernels_host = {
    .add = ADD_TABLE(k_host_fadd, k_host_fsub, k_host_ftoi, k_host_itof),
    .mul = MUL_TABLE(k_host_fmul),
};
#else
VC4_ALU_TABLE const struct vc4_alu_kernels vc4_alu_kernels_host = {
    .add = ADD_TABLE(k_fadd, k_fsub, k_ftoi, k_itof),
    .mul = MUL_TABLE(k_fmul),
};
#endif
#if VC4_ALU_AVX512
VC4_ALU_TABLE const struct vc4_alu_kernels vc4_alu_kernels_avx512 = {
    .add = ADD_TABLE(k512_fadd, k512_fsub, k_host_ftoi, k_host_itof),
    .mul = MUL_TABLE(k512_fmul),
    .fill = k512_fill,
    .copy = k512_copy,
};
#endif

#ifndef VC4_ALU_JIT_PRELUDE /* (the rest is the library's alone) */

const struct vc4_alu_kernels *vc4_alu_kernels_best(void)
{
#if VC4_ALU_AVX512
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"))
        return &vc4_alu_kernels_avx512;
#endif
    return &vc4_alu_kernels_host;
}

bool vc4_alu_fp_enter(struct vc4_alu_fpenv *env)
{
    env->entered = false;
#if VC4_HOST_FP && defined(FE_TONEAREST)
    if (fegetenv(&env->saved) != 0)
        return false;
    env->entered = true;
    if (fesetenv(FE_DFL_ENV) != 0 || fesetround(FE_TONEAREST) != 0)
        return false;
    /* Probe what the kernels rely on: round to nearest in double adds and
     * in double -> float conversion.  volatile: computed here, at run time. */
    volatile double one = 1.0, tiny = 0x1p-60, half_ulp = 0x1p-24;
    double up = one + tiny, down = one - tiny;
    volatile double h = 1.0 + 0x1p-24 + 0x1p-40;
    float hf = (float)h;
    /* and gradual underflow in float (no flush-to-zero, no
     * denormals-are-zero): the float sum's error term needs it */
    volatile float min_normal = 0x1p-126f, min_sub = 0x1p-149f;
    float half = min_normal * 0.5f, twice = min_sub + min_sub;
    return up == 1.0 && down == 1.0 && (double)hf == 1.0 + 0x1p-23 &&
           (double)(float)(one + half_ulp) == 1.0 && (double)half == 0x1p-127 && (double)twice == 0x1p-148;
#else
    return false;
#endif
}

void vc4_alu_fp_leave(const struct vc4_alu_fpenv *env)
{
    if (env->entered)
        fesetenv(&env->saved);
}

bool vc4_alu_add_vec(unsigned op, const uint32_t *a, const uint32_t *b, uint32_t *out,
                     uint16_t *carry)
{
    uint32_t r[N];
    vc4_alu_kernels_exact.add[op & 31](a, b, r, carry);
    memcpy(out, r, sizeof r);
    return vc4_qpu_op_add_valid(op);
}

bool vc4_alu_mul_vec(unsigned op, const uint32_t *a, const uint32_t *b, uint32_t *out,
                     uint16_t *carry)
{
    uint32_t r[N];
    vc4_alu_kernels_exact.mul[op & 7](a, b, r, carry);
    memcpy(out, r, sizeof r);
    return op < 8;
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

/* Measured by VC4C's unpack_test.h (hardware): byte / 255 truncated for
 * 0x3f, 0x40, 0x70, 0x7f, 0x80, 0x90, 0xbf, 0xf0 (0x7f gives 0x3efefefe where
 * nearest would be ...ff), but 0x3b808081 for 0x01, one above the truncated
 * 0x3b808080 (nearest).  No rule found fits both; the measured word is
 * kept as data and the other bytes are truncated (UNVERIFIED for bytes the
 * table does not hold). */
#define UNORM8_ONE_MEASURED 0x3B808081u

/* byte / 255 as a float, truncated (see above). */
static uint32_t unorm8_to_float(uint32_t byte)
{
    if (byte == 0)
        return 0;
    if (byte == 1)
        return UNORM8_ONE_MEASURED;
    if (byte == 255)
        return F_ONE;
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
    case VC4_QPU_UNPACK_8D_REP: /* the byte replicated for float consumers too (measured) */
        return (v >> 24) * 0x01010101u;
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

/* unorm8_to_float of every byte, as data (written out from it; test_emu_alu
 * test_unpack compares every byte, through vc4_unpack_vec, with
 * unorm8_to_float).  A look-up per element: computed, by a double
 * division each, the texture channels' unpacks were 4% of a textured
 * frame, as the compiler did not vectorise the division. */
static const uint32_t unorm8_float_bits[256] = {
    0x00000000u, 0x3B808081u, 0x3C008080u, 0x3C40C0C0u, 0x3C808080u, 0x3CA0A0A0u,
    0x3CC0C0C0u, 0x3CE0E0E0u, 0x3D008080u, 0x3D109090u, 0x3D20A0A0u, 0x3D30B0B0u,
    0x3D40C0C0u, 0x3D50D0D0u, 0x3D60E0E0u, 0x3D70F0F0u, 0x3D808080u, 0x3D888888u,
    0x3D909090u, 0x3D989898u, 0x3DA0A0A0u, 0x3DA8A8A8u, 0x3DB0B0B0u, 0x3DB8B8B8u,
    0x3DC0C0C0u, 0x3DC8C8C8u, 0x3DD0D0D0u, 0x3DD8D8D8u, 0x3DE0E0E0u, 0x3DE8E8E8u,
    0x3DF0F0F0u, 0x3DF8F8F8u, 0x3E008080u, 0x3E048484u, 0x3E088888u, 0x3E0C8C8Cu,
    0x3E109090u, 0x3E149494u, 0x3E189898u, 0x3E1C9C9Cu, 0x3E20A0A0u, 0x3E24A4A4u,
    0x3E28A8A8u, 0x3E2CACACu, 0x3E30B0B0u, 0x3E34B4B4u, 0x3E38B8B8u, 0x3E3CBCBCu,
    0x3E40C0C0u, 0x3E44C4C4u, 0x3E48C8C8u, 0x3E4CCCCCu, 0x3E50D0D0u, 0x3E54D4D4u,
    0x3E58D8D8u, 0x3E5CDCDCu, 0x3E60E0E0u, 0x3E64E4E4u, 0x3E68E8E8u, 0x3E6CECECu,
    0x3E70F0F0u, 0x3E74F4F4u, 0x3E78F8F8u, 0x3E7CFCFCu, 0x3E808080u, 0x3E828282u,
    0x3E848484u, 0x3E868686u, 0x3E888888u, 0x3E8A8A8Au, 0x3E8C8C8Cu, 0x3E8E8E8Eu,
    0x3E909090u, 0x3E929292u, 0x3E949494u, 0x3E969696u, 0x3E989898u, 0x3E9A9A9Au,
    0x3E9C9C9Cu, 0x3E9E9E9Eu, 0x3EA0A0A0u, 0x3EA2A2A2u, 0x3EA4A4A4u, 0x3EA6A6A6u,
    0x3EA8A8A8u, 0x3EAAAAAAu, 0x3EACACACu, 0x3EAEAEAEu, 0x3EB0B0B0u, 0x3EB2B2B2u,
    0x3EB4B4B4u, 0x3EB6B6B6u, 0x3EB8B8B8u, 0x3EBABABAu, 0x3EBCBCBCu, 0x3EBEBEBEu,
    0x3EC0C0C0u, 0x3EC2C2C2u, 0x3EC4C4C4u, 0x3EC6C6C6u, 0x3EC8C8C8u, 0x3ECACACAu,
    0x3ECCCCCCu, 0x3ECECECEu, 0x3ED0D0D0u, 0x3ED2D2D2u, 0x3ED4D4D4u, 0x3ED6D6D6u,
    0x3ED8D8D8u, 0x3EDADADAu, 0x3EDCDCDCu, 0x3EDEDEDEu, 0x3EE0E0E0u, 0x3EE2E2E2u,
    0x3EE4E4E4u, 0x3EE6E6E6u, 0x3EE8E8E8u, 0x3EEAEAEAu, 0x3EECECECu, 0x3EEEEEEEu,
    0x3EF0F0F0u, 0x3EF2F2F2u, 0x3EF4F4F4u, 0x3EF6F6F6u, 0x3EF8F8F8u, 0x3EFAFAFAu,
    0x3EFCFCFCu, 0x3EFEFEFEu, 0x3F008080u, 0x3F018181u, 0x3F028282u, 0x3F038383u,
    0x3F048484u, 0x3F058585u, 0x3F068686u, 0x3F078787u, 0x3F088888u, 0x3F098989u,
    0x3F0A8A8Au, 0x3F0B8B8Bu, 0x3F0C8C8Cu, 0x3F0D8D8Du, 0x3F0E8E8Eu, 0x3F0F8F8Fu,
    0x3F109090u, 0x3F119191u, 0x3F129292u, 0x3F139393u, 0x3F149494u, 0x3F159595u,
    0x3F169696u, 0x3F179797u, 0x3F189898u, 0x3F199999u, 0x3F1A9A9Au, 0x3F1B9B9Bu,
    0x3F1C9C9Cu, 0x3F1D9D9Du, 0x3F1E9E9Eu, 0x3F1F9F9Fu, 0x3F20A0A0u, 0x3F21A1A1u,
    0x3F22A2A2u, 0x3F23A3A3u, 0x3F24A4A4u, 0x3F25A5A5u, 0x3F26A6A6u, 0x3F27A7A7u,
    0x3F28A8A8u, 0x3F29A9A9u, 0x3F2AAAAAu, 0x3F2BABABu, 0x3F2CACACu, 0x3F2DADADu,
    0x3F2EAEAEu, 0x3F2FAFAFu, 0x3F30B0B0u, 0x3F31B1B1u, 0x3F32B2B2u, 0x3F33B3B3u,
    0x3F34B4B4u, 0x3F35B5B5u, 0x3F36B6B6u, 0x3F37B7B7u, 0x3F38B8B8u, 0x3F39B9B9u,
    0x3F3ABABAu, 0x3F3BBBBBu, 0x3F3CBCBCu, 0x3F3DBDBDu, 0x3F3EBEBEu, 0x3F3FBFBFu,
    0x3F40C0C0u, 0x3F41C1C1u, 0x3F42C2C2u, 0x3F43C3C3u, 0x3F44C4C4u, 0x3F45C5C5u,
    0x3F46C6C6u, 0x3F47C7C7u, 0x3F48C8C8u, 0x3F49C9C9u, 0x3F4ACACAu, 0x3F4BCBCBu,
    0x3F4CCCCCu, 0x3F4DCDCDu, 0x3F4ECECEu, 0x3F4FCFCFu, 0x3F50D0D0u, 0x3F51D1D1u,
    0x3F52D2D2u, 0x3F53D3D3u, 0x3F54D4D4u, 0x3F55D5D5u, 0x3F56D6D6u, 0x3F57D7D7u,
    0x3F58D8D8u, 0x3F59D9D9u, 0x3F5ADADAu, 0x3F5BDBDBu, 0x3F5CDCDCu, 0x3F5DDDDDu,
    0x3F5EDEDEu, 0x3F5FDFDFu, 0x3F60E0E0u, 0x3F61E1E1u, 0x3F62E2E2u, 0x3F63E3E3u,
    0x3F64E4E4u, 0x3F65E5E5u, 0x3F66E6E6u, 0x3F67E7E7u, 0x3F68E8E8u, 0x3F69E9E9u,
    0x3F6AEAEAu, 0x3F6BEBEBu, 0x3F6CECECu, 0x3F6DEDEDu, 0x3F6EEEEEu, 0x3F6FEFEFu,
    0x3F70F0F0u, 0x3F71F1F1u, 0x3F72F2F2u, 0x3F73F3F3u, 0x3F74F4F4u, 0x3F75F5F5u,
    0x3F76F6F6u, 0x3F77F7F7u, 0x3F78F8F8u, 0x3F79F9F9u, 0x3F7AFAFAu, 0x3F7BFBFBu,
    0x3F7CFCFCu, 0x3F7DFDFDu, 0x3F7EFEFEu, 0x3F800000u
};

static inline void unorm8_to_float_vec(const uint32_t *byte, uint32_t *out)
{
    for (unsigned i = 0; i < N; i++)
        out[i] = unorm8_float_bits[byte[i] & 0xFFu];
}

/* (static, behind vc4_unpack_vec: see VC4_KERNEL_CLONES) */
VC4_KERNEL_CLONES
static void unpack_vec(unsigned mode, const uint32_t *v, uint32_t *out, bool to_float)
{
    if (mode >= VC4_QPU_UNPACK_8A && mode <= VC4_QPU_UNPACK_8D) {
        /* (a texture result's channels: the commonest unpack) */
        unsigned shift = 8 * (mode - VC4_QPU_UNPACK_8A);
        uint32_t byte[N];
        for (unsigned i = 0; i < N; i++)
            byte[i] = v[i] >> shift & 0xFFu;
        if (to_float)
            unorm8_to_float_vec(byte, out);
        else
            memcpy(out, byte, sizeof byte);
        return;
    }
    for (unsigned i = 0; i < N; i++)
        out[i] = vc4_unpack(mode, v[i], to_float);
}

void vc4_unpack_vec(unsigned mode, const uint32_t *v, uint32_t *out, bool to_float)
{
    unpack_vec(mode, v, out, to_float);
}

/* sat(x * 255) to a byte, rounded to nearest: vc4asm issue #23 shows the
 * hardware gives 0x02 for 1/128 (1.99 -> 2, not truncated). */
uint8_t vc4_float_to_unorm8(uint32_t f)
{
    f = vc4_alu_flush(f);
    if ((f & F_SIGN) || f_zero(f))
        return 0;
    if (f >= F_ONE)
        return 255; /* >= 1.0, Inf */
    int e = (int)((f & F_EXP) >> F_EXP_SHIFT);
    unsigned shift = (unsigned)(F_UNIT_EXP - e); /* >= 24 since f < 1.0 */
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

/*
 * Integer regfile-A packs of an add/sub result (measured: every row of
 * VC4C's opcode_pack_test.h for add and sub, tests/data/vc4c_pack.txt).
 * W is the 32-bit (wrapped) result, S the 32-bit saturated one: add clamps
 * the exact sum to int32; sub clamps the exact difference to
 * [-2^31 - 1, 2^31] and keeps the low 32 bits, so an overflowing sub
 * saturates toward W's sign (sub(0x80000000, 1) = 0x7fffffff, as
 * opcode_test.h's saturated column says; vc4asm).  Without a 32-bit
 * overflow (the exact result is W) S = W and every pack is the plain one.
 * After an overflow:
 *  - 32-bit saturating: S;
 *  - 16a/16b: S saturated to 16 bits; 8a..8d and 8888: S's low byte;
 *  - saturating 16/8-bit packs: S clamped to the pack's range when W and S
 *    have the same sign bit (sub) or W itself lies in that range, else 0
 *    (add(0x7fffffff, 0x7fffffff).16a_sat = 0x7fff as W = -2 fits 16 bits,
 *    .8a_sat = 0; add(0x80000000, 0xffffffff).16a_sat = 0).
 */
struct pack_in {
    uint32_t s32;  /* S */
    int64_t si;    /* S as a signed value */
    bool ovf;      /* 32-bit overflow: the exact result is not W */
    bool same;     /* W and S have the same sign bit */
    int64_t wi;    /* W as a signed value */
};

/* The saturating 16/8-bit pack value in [lo, hi]. */
static inline uint32_t pack_sat(const struct pack_in *p, int64_t lo, int64_t hi)
{
    if (p->ovf && !p->same && (p->wi < lo || p->wi > hi))
        return 0;
    return (uint32_t)clamp64(p->si, lo, hi);
}

/* 16a/16b: the half of the register the pack writes. */
static inline uint32_t pack_half(const struct pack_in *p, bool sat, bool is_float, uint32_t v)
{
    if (is_float)
        return vc4_float_to_half(v); /* both 16-bit packs of a float result */
    if (sat)
        return pack_sat(p, INT16_MIN, INT16_MAX) & 0xFFFFu;
    return (p->ovf ? (uint32_t)clamp64(p->si, INT16_MIN, INT16_MAX) : v) & 0xFFFFu;
}

uint32_t vc4_pack_a(unsigned mode, uint32_t v, uint32_t old, bool is_float, int64_t wide,
                    bool has_wide, bool is_sub)
{
    struct pack_in p;
    int64_t s = has_wide ? (is_sub ? clamp64(wide, -INT64_C(0x80000001), INT64_C(0x80000000))
                                   : clamp64(wide, INT32_MIN, INT32_MAX))
                         : (int64_t)(int32_t)v;
    p.s32 = (uint32_t)s;
    p.si = (int64_t)(int32_t)p.s32;
    p.wi = (int64_t)(int32_t)v;
    p.ovf = has_wide && wide != p.wi; /* (sub may overflow with S = W) */
    p.same = ((p.s32 ^ v) & F_SIGN) == 0;
    switch (mode) {
    case VC4_QPU_PACK_A_NOP:
        return v;
    case VC4_QPU_PACK_A_32_SAT:
        return p.s32;
    case VC4_QPU_PACK_A_16A:
    case VC4_QPU_PACK_A_16A_SAT:
        return (old & 0xFFFF0000u) | pack_half(&p, mode == VC4_QPU_PACK_A_16A_SAT, is_float, v);
    case VC4_QPU_PACK_A_16B:
    case VC4_QPU_PACK_A_16B_SAT:
        return (old & 0xFFFFu) | (pack_half(&p, mode == VC4_QPU_PACK_A_16B_SAT, is_float, v) << 16);
    case VC4_QPU_PACK_A_8888:
        return (p.s32 & 0xFFu) * 0x01010101u;
    case VC4_QPU_PACK_A_8888_SAT:
        return pack_sat(&p, 0, 255) * 0x01010101u;
    case VC4_QPU_PACK_A_8A: case VC4_QPU_PACK_A_8B: case VC4_QPU_PACK_A_8C: case VC4_QPU_PACK_A_8D: {
        unsigned sh = 8 * (mode - VC4_QPU_PACK_A_8A);
        return (old & ~(0xFFu << sh)) | ((p.s32 & 0xFFu) << sh);
    }
    default: { /* 8a..8d saturating */
        unsigned sh = 8 * (mode - VC4_QPU_PACK_A_8A_SAT);
        return (old & ~(0xFFu << sh)) | (pack_sat(&p, 0, 255) << sh);
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

/* vc4_float_to_unorm8 without branches, for 16 lanes at once: the same
 * value for every input.  Below 1.0 the product t of the 24-bit mantissa
 * and 255 fits in 32 bits, and rounding (t + 2^(s-1)) >> s for
 * s = F_UNIT_EXP - e >= 24 is ((t >> (s - 1)) + 1) >> 1 (the bits below
 * s - 1 cannot carry into bit s); for s > 32 it is 0 (t < 2^32 <=
 * 2^(s-1)).  test_emu_alu compares the two over every exponent. */
static inline uint32_t unorm8_lane(uint32_t f)
{
    uint32_t e = (f & F_EXP) >> F_EXP_SHIFT;
    uint32_t s = F_UNIT_EXP - e; /* (wraps for e > F_UNIT_EXP: masked below) */
    uint32_t t = ((f & F_MANT) | F_HIDDEN) * 255u;
    uint32_t r = ((t >> (s - 1u < 31u ? s - 1u : 31u)) + 1u) >> 1;
    r = s > 32u ? 0 : r;
    r = f >= F_ONE ? 255u : r;   /* >= 1.0, Inf, NaN */
    return (f & F_SIGN) ? 0 : r; /* (zero and denormals: s = F_UNIT_EXP above, so 0) */
}

/* (loops of one statement over the 16 lanes, which GCC and clang
 * vectorise at -O2: the AVX2 copy shifts each lane by its own count) */
VC4_KERNEL_CLONES
static void pack_mul_vec(unsigned mode, const uint32_t *v, const uint32_t *old, uint32_t *out)
{
    uint32_t b[N];
    if (mode == VC4_QPU_PACK_MUL_8888) {
        for (unsigned i = 0; i < N; i++)
            b[i] = unorm8_lane(v[i]);
        for (unsigned i = 0; i < N; i++)
            out[i] = b[i] * 0x01010101u;
    } else if (mode >= VC4_QPU_PACK_MUL_8A && mode <= VC4_QPU_PACK_MUL_8D) {
        unsigned sh = 8 * (mode - VC4_QPU_PACK_MUL_8A);
        uint32_t keep = ~(0xFFu << sh);
        for (unsigned i = 0; i < N; i++)
            b[i] = unorm8_lane(v[i]) << sh;
        /* (merged in the local, then copied: old is mostly out itself, and
         * a loop that reads old and writes out was not vectorised for fear
         * of their overlap: 9 host instructions a lane, 6% of a lit frame
         * under callgrind) */
        if (old)
            for (unsigned i = 0; i < N; i++)
                b[i] |= old[i] & keep;
        memcpy(out, b, sizeof b);
    } else {
        for (unsigned i = 0; i < N; i++)
            out[i] = vc4_pack_mul(mode, v[i], old ? old[i] : 0);
    }
}

void vc4_pack_mul_vec(unsigned mode, const uint32_t *v, const uint32_t *old, uint32_t *out)
{
    pack_mul_vec(mode, v, old, out);
}

#endif /* VC4_ALU_JIT_PRELUDE */
