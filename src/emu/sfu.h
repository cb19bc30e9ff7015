/*
 * sfu.h - the special function unit: RECIP, RECIPSQRT, EXP2, LOG2 (internal).
 * A write to waddr 52-55 starts one; the result lands in r4 two
 * instructions later (qpu-isa-facts 10; the QPU models the latency).
 */
#ifndef VC4_EMU_SFU_H
#define VC4_EMU_SFU_H

#include <stdint.h>

enum vc4_sfu_fn { VC4_SFU_RECIP, VC4_SFU_RECIPSQRT, VC4_SFU_EXP2, VC4_SFU_LOG2 };

/* Latency in instructions: written at i, readable in r4 at i + 3. */
#define VC4_SFU_LATENCY 2u
/* Mantissa bits the model rounds away (to nearest): an error of at most
 * 2^9 ULP, 6.1e-5 relative (facts 10: "about 512-1024 ULP", VC4C hardware
 * tests; py-videocore test_sfu: 1e-4 for recip/rsqrt/exp2, 1e-2 log2). */
#define VC4_SFU_DROP_BITS 10u

/* VC4_ALU_JIT_PRELUDE (qpu_alu.h): sfu.c preprocessed into the C the JIT
 * compiles with each block (jit_prelude.inc), its functions static, so
 * that a compiled SFU write computes what the interpreter's does. */
#ifdef VC4_ALU_JIT_PRELUDE
#define VC4_SFU_FN static
#else
#define VC4_SFU_FN
#endif

VC4_SFU_FN uint32_t vc4_sfu(enum vc4_sfu_fn fn, uint32_t x);
/* vc4_sfu of the 16 elements x into out (the same bits, several at once
 * where the function allows: test_emu_alu compares). */
VC4_SFU_FN void vc4_sfu16(enum vc4_sfu_fn fn, const uint32_t x[16], uint32_t out[16]);

#endif
