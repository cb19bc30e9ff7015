/*
 * qpu_lanes.h - per-element helpers shared by the interpreter (qpu.c), the
 * ALU kernels (qpu_alu.c) and the code the JIT compiles (jit.c): one
 * definition, so that compiled blocks write registers and flags exactly as
 * the interpreter does (internal).
 */
#ifndef VC4_EMU_QPU_LANES_H
#define VC4_EMU_QPU_LANES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "emu/qpu_alu.h"

#define VC4_LANES_ALL 0xFFFFu /* every element of a per-element mask */

/* Bit i of a per-element mask, as a vector: a mask is built as the OR of
 * vc4_lane_bit[i] & a lane mask, which vectorises (a variable shift by i
 * would not). */
static const uint32_t vc4_lane_bit[VC4_QPU_SIMD] = {0x1,   0x2,   0x4,   0x8,    0x10,   0x20,   0x40,   0x80,
                                                    0x100, 0x200, 0x400, 0x800, 0x1000, 0x2000, 0x4000, 0x8000};

/* d[i] = s[i] where bit i of mask is set: a conditional write, element by
 * element (facts 15). */
static inline void vc4_lanes_masked_copy(uint32_t *restrict d, const uint32_t *restrict s, uint16_t mask)
{
    if (mask == VC4_LANES_ALL) {
        memcpy(d, s, VC4_QPU_SIMD * sizeof *d);
        return;
    }
    VC4_ALU_VEC_LOOP for (int i = 0; i < VC4_QPU_SIMD; i++) {
        uint32_t m = (mask & vc4_lane_bit[i]) ? ~0u : 0u;
        d[i] = (d[i] & ~m) | (s[i] & m);
    }
}

/* The flags (flag[VC4_QPU_FLAG_Z/N/C], bit i = element i) from the lane
 * bits z, n and carry, only where the write condition passes, mask (facts
 * 15). */
static inline void vc4_lanes_merge_flags(uint16_t *flag, uint32_t z, uint32_t n, uint16_t carry, uint16_t mask)
{
    flag[1] = (uint16_t)((flag[1] & ~mask) | (z & mask)); /* VC4_QPU_FLAG_Z */
    flag[2] = (uint16_t)((flag[2] & ~mask) | (n & mask)); /* VC4_QPU_FLAG_N */
    flag[3] = (uint16_t)((flag[3] & ~mask) | (carry & mask)); /* VC4_QPU_FLAG_C */
}

/* The flags set by result r where mask passes: Z = result 0, N = bit 31
 * unless the op says otherwise (clz: 0), C from the op (facts 16).
 * (Compiled blocks for AVX-512 take Z and N from vc4_alu_zn512.) */
static inline void vc4_lanes_set_flags(uint16_t *flag, const uint32_t *r, uint16_t carry, uint16_t mask,
                                       bool n_from_bit31)
{
    uint32_t z = 0, n = 0;
    VC4_ALU_VEC_LOOP for (int i = 0; i < VC4_QPU_SIMD; i++) {
        z |= vc4_lane_bit[i] & ((uint32_t)0 - (uint32_t)(r[i] == 0));
        n |= vc4_lane_bit[i] & ((uint32_t)0 - (r[i] >> 31));
    }
    vc4_lanes_merge_flags(flag, z, n_from_bit31 ? n : 0, carry, mask);
}

/* Does a branch with condition cond (0-11, 15) go, given the flags (facts
 * 18): all / any of the elements' Z, N or C set / clear; 15 always. */
static inline bool vc4_lanes_branch_taken(const uint16_t *flag, unsigned cond)
{
    uint16_t f;
    switch (cond >> 1) {
    case 0: case 1: f = flag[1]; break; /* 0-3: Z */
    case 2: case 3: f = flag[2]; break; /* 4-7: N */
    case 4: case 5: f = flag[3]; break; /* 8-11: C */
    default: return true;               /* 15 always (12-14 rejected as reserved) */
    }
    bool any = cond & 2, clear = cond & 1;
    uint16_t sel = clear ? (uint16_t)~f : f;
    return any ? sel != 0 : sel == VC4_LANES_ALL;
}

#endif
