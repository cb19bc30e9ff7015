/*
 * qpu_alu.h - the QPU's add and mul ALU operations, bit-exact to the
 * hardware rather than to IEEE (internal).  See qpu_alu.c for the rules and
 * their sources, and docs/emulator.md for what is verified on hardware.
 */
#ifndef VC4_EMU_QPU_ALU_H
#define VC4_EMU_QPU_ALU_H

#include <fenv.h>
#include <float.h>
#include <stdbool.h>
#include <stdint.h>

#define VC4_QPU_SIMD 16 /* elements per QPU vector */

/* Before a 16-lane loop meant to become host vector code: clang otherwise
 * unrolls such short loops fully before its loop vectoriser sees them and
 * leaves scalar code (GCC vectorises them as they are). */
#if defined(__clang__)
#define VC4_ALU_VEC_LOOP _Pragma("clang loop unroll(disable)")
#else
#define VC4_ALU_VEC_LOOP
#endif
/* ... whose element i reads element i of its inputs and then writes
 * element i of its output, which may be one of the inputs (no dependence
 * between elements: vectorised without a run-time overlap test, which
 * would take the scalar loop for an output that is an input). */
#if defined(__clang__)
#define VC4_ALU_LANES _Pragma("clang loop unroll(disable) vectorize(assume_safety)")
#elif defined(__GNUC__)
#define VC4_ALU_LANES _Pragma("GCC ivdep")
#else
#define VC4_ALU_LANES
#endif

/* VC4_ALU_JIT_PRELUDE: qpu_alu.c preprocessed into the C the JIT compiles
 * with each block (jit.c): the scalar rules and kernels become static, and
 * everything else of the file is left out. */
#ifdef VC4_ALU_JIT_PRELUDE
#define VC4_ALU_FN static
#else
#define VC4_ALU_FN
#endif

/* Scalar operations: a = first operand, b = second. */
VC4_ALU_FN uint32_t vc4_alu_fadd(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_fsub(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_fmul(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_fmin(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_fmax(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_fminabs(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_fmaxabs(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_ftoi(uint32_t a);
VC4_ALU_FN uint32_t vc4_alu_itof(uint32_t a);
VC4_ALU_FN uint32_t vc4_alu_clz(uint32_t a);
VC4_ALU_FN uint32_t vc4_alu_mul24(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_v8adds(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_v8subs(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_v8muld(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_v8min(uint32_t a, uint32_t b);
VC4_ALU_FN uint32_t vc4_alu_v8max(uint32_t a, uint32_t b);
/* Denormal flush of a float input (sign kept). */
VC4_ALU_FN uint32_t vc4_alu_flush(uint32_t f);

/*
 * Whole-vector ops.  out receives the 16 results; *carry (if non-NULL) the
 * per-element C flag as the op defines it (qpu-isa-facts 16).  Returns
 * false for a reserved op code (out is zero-filled).  These use the exact
 * (integer-only) kernels; the emulator's run loop picks a table itself.
 */
bool vc4_alu_add_vec(unsigned op, const uint32_t *a, const uint32_t *b, uint32_t *out,
                     uint16_t *carry);
bool vc4_alu_mul_vec(unsigned op, const uint32_t *a, const uint32_t *b, uint32_t *out,
                     uint16_t *carry);

/*
 * Kernels: out[i] = op(a[i], b[i]) for the 16 elements, *carry as above
 * when non-NULL.  out may be a or b (every operand is read before out is
 * written), so that an instruction's result goes straight into its
 * register even when that register is one of its operands.  Reserved op
 * codes have a kernel that gives zeros (the decoder rejects them first).
 *
 * Two tables give bit-identical results:
 *  - exact: the scalar rules of this file, integer arithmetic only;
 *  - host: the same rules computed with host floating-point arithmetic
 *    where that is exact, truncated toward zero with integer operations,
 *    written as 16-lane loops the compiler vectorises: fadd/fsub as the
 *    float sum plus its exact error (TwoSum), fmul as the exact double
 *    product (48 bits), itof through an exact double.  Valid only inside
 *    vc4_alu_fp_enter()/vc4_alu_fp_leave() when enter returned true (IEEE
 *    arithmetic, round to nearest, gradual underflow).  Cross-checked
 *    against exact by tests/unit/test_emu_alu.c.
 */
typedef void vc4_alu_kernel(const uint32_t *a, const uint32_t *b, uint32_t *out,
                            uint16_t *carry);
struct vc4_alu_kernels {
    vc4_alu_kernel *add[32]; /* by add op code */
    vc4_alu_kernel *mul[8];  /* by mul op code */
    /* Stores of operand vectors that the kernels will load (uniforms
     * broadcast, small immediates), for tables whose kernels load an
     * operand whole; NULL: the caller's plain stores serve.  fill: 16
     * copies of a word; copy: 16 words.  A 64-byte load cannot take its
     * data from the four 16-byte stores that code built for baseline
     * x86-64 makes of a vector: it waits until they are written to the
     * cache.  (The AVX-512 fmul spent two thirds of its time there in
     * bench_gl's vertex shaders, whose operands are mostly uniforms.) */
    void (*fill)(uint32_t *d, uint32_t v);
    void (*copy)(uint32_t *d, const uint32_t *s);
};
extern const struct vc4_alu_kernels vc4_alu_kernels_exact;
extern const struct vc4_alu_kernels vc4_alu_kernels_host;
/* Host-arithmetic kernels need ISO C evaluation (no excess precision,
 * no fast-math); else the host tables are the exact ones. */
#if FLT_EVAL_METHOD == 0 && !defined(__FAST_MATH__)
#define VC4_HOST_FP 1
#else
#define VC4_HOST_FP 0
#endif
/* avx512: the host table with fadd, fsub and fmul as AVX-512 instructions
 * rounding toward zero (qpu_alu.c), for x86-64 CPUs with AVX-512F and DQ;
 * the same bits. */
#if VC4_HOST_FP && defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define VC4_ALU_AVX512 1
extern const struct vc4_alu_kernels vc4_alu_kernels_avx512;
#else
#define VC4_ALU_AVX512 0
#endif
/* The fastest host table this CPU runs: avx512 where it can, else host. */
const struct vc4_alu_kernels *vc4_alu_kernels_best(void);

/* The host floating-point environment around a run: enter saves it and
 * installs the C default (round to nearest, exceptions masked, no
 * flush-to-zero), then checks that float and double arithmetic behave as
 * the host kernels need; leave restores the caller's environment, status flags
 * included, so nothing leaks to the host program.  Returns whether the
 * host kernels may be used. */
struct vc4_alu_fpenv {
    fenv_t saved;
    bool entered;
};
bool vc4_alu_fp_enter(struct vc4_alu_fpenv *env);
void vc4_alu_fp_leave(const struct vc4_alu_fpenv *env);

/* Does the add / mul op produce a float (so a float pack applies)? */
bool vc4_alu_add_result_is_float(unsigned op);
bool vc4_alu_mul_result_is_float(unsigned op);

/* ---- pack / unpack ------------------------------------------------------- */

/* Unpack one operand (bits 59:57): for float-consuming ops the float
 * conversions, otherwise the integer ones (qpu-isa-facts 11). */
uint32_t vc4_unpack(unsigned mode, uint32_t v, bool to_float);
/* vc4_unpack of the 16 elements of v into out. */
void vc4_unpack_vec(unsigned mode, const uint32_t *v, uint32_t *out, bool to_float);
/* Mul pack colour conversion: sat(x * 255) to a byte (facts 13). */
uint8_t vc4_float_to_unorm8(uint32_t f);

/*
 * Regfile-A pack (PM = 0) of one value.  old is the register's previous
 * contents (partial packs keep the other bytes/halves); is_float selects
 * the float16 conversions for 16a/16b; wide/has_wide: the exact result of
 * an add/sub for the 32-bit saturation; is_sub for sub's shifted clamp.
 */
uint32_t vc4_pack_a(unsigned mode, uint32_t v, uint32_t old, bool is_float, int64_t wide,
                    bool has_wide, bool is_sub);
/* Mul pack (PM = 1) of one float result into old. */
uint32_t vc4_pack_mul(unsigned mode, uint32_t v, uint32_t old);
/* vc4_pack_mul of the 16 elements of v into out (old: NULL reads as 0). */
void vc4_pack_mul_vec(unsigned mode, const uint32_t *v, const uint32_t *old, uint32_t *out);
/* Does the pack write only part of the register (keep old bits)? */
bool vc4_pack_a_partial(unsigned mode);
bool vc4_pack_mul_partial(unsigned mode);

#endif
