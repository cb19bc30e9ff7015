/*
 * half.h - the VideoCore's 16-bit floats (1 sign, 5 exponent, 10 mantissa
 * bits) and their conversions to and from 32-bit floats as the QPU's
 * pack/unpack modes do them (qpu-isa-facts 11, 12).  The TMU's 16-bit float
 * channels (S16F, RGBA64; seed 004) share the format, so the texture library
 * and the emulator both use these.
 */
#ifndef VC4_SPEC_HALF_H
#define VC4_SPEC_HALF_H

#include <stdint.h>

/* half -> float: exact; subnormal halves keep their bits without an exponent
 * fix-up, as the hardware does (VC4C). */
uint32_t vc4_half_to_float(uint16_t h);
/* float -> half: +-0 -> +0, NaN -> +-Inf, denormal results -> +0, out of
 * range -> +-Inf. */
uint16_t vc4_float_to_half(uint32_t f);

#endif
