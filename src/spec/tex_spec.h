/*
 * tex_spec.h - the texture config parameters P0..P3 described as data
 * (internal): one field table, shared by the TMU's sampler (src/emu/tmu_tex.c,
 * which decodes the words a shader's uniforms give) and the texture library
 * (src/tex/params.c, which builds them), so each field's position is written
 * down once.
 *
 * Texture config parameters (seed 004; Mesa vc4_packet.h VC4_TEX_P*):
 *
 *   P0  31            12 11  10  9    8     7    4 3      0
 *      +----------------+------+----+-----+-------+--------+
 *      | BASE (4 KiB)   |CSWIZ |CMMD|FLIPY|TYPE3:0|MIPLVLS |
 *      +----------------+------+----+-----+-------+--------+
 *   P1  31   30     20 19      18     8  7      6    4 3   2 1   0
 *      +-----+--------+-------+--------+------+-------+-----+-----+
 *      |TYPE4| HEIGHT |ETCFLIP| WIDTH  |MAGFLT|MINFILT|WRAPT|WRAPS|
 *      +-----+--------+-------+--------+------+-------+-----+-----+
 *   P2/P3  31 30 | PTYPE 1: 29:12 cube map stride (4 KiB), 0 BSLOD
 *                | PTYPE 2: 22:12 child height, 10:0 child width
 *                | PTYPE 3: 22:12 child Y offset, 10:0 child X offset
 *                | PTYPE 0: ignored
 */
#ifndef VC4_SPEC_TEX_SPEC_H
#define VC4_SPEC_TEX_SPEC_H

#include <stdint.h>

/* Which parameter word a field lives in: P0, P1, or a P2/P3 word. */
enum vc4_tmu_pword { VC4_TMU_PW_P0 = 0, VC4_TMU_PW_P1 = 1, VC4_TMU_PW_PX = 2 };

enum vc4_tmu_field {
    VC4_TMU_F_BASE,      /* P0: LOD 0 base address >> 12 */
    VC4_TMU_F_CSWIZ,     /* P0: cache swizzle */
    VC4_TMU_F_CMMODE,    /* P0: cube map */
    VC4_TMU_F_FLIPY,     /* P0 */
    VC4_TMU_F_TYPE_LO,   /* P0: TYPE bits 3:0 */
    VC4_TMU_F_MIPLVLS,   /* P0: mip levels below the base */
    VC4_TMU_F_TYPE_HI,   /* P1: TYPE bit 4 */
    VC4_TMU_F_HEIGHT,    /* P1: 0 = 2048 */
    VC4_TMU_F_ETCFLIP,   /* P1 */
    VC4_TMU_F_WIDTH,     /* P1: 0 = 2048 */
    VC4_TMU_F_MAGFILT,   /* P1: 0 linear, 1 nearest */
    VC4_TMU_F_MINFILT,   /* P1: enum vc4_tmu_minfilt */
    VC4_TMU_F_WRAP_T,    /* P1: enum vc4_tmu_wrap */
    VC4_TMU_F_WRAP_S,
    VC4_TMU_F_PTYPE,     /* P2/P3: enum vc4_tmu_ptype */
    VC4_TMU_F_CMST,      /* PTYPE 1: cube map stride >> 12 */
    VC4_TMU_F_BSLOD,     /* PTYPE 1: B is the LOD, not a bias */
    VC4_TMU_F_CHILD_H,   /* PTYPE 2 (3: child Y offset) */
    VC4_TMU_F_CHILD_W,   /* PTYPE 2 (3: child X offset) */
    VC4_TMU_F_COUNT
};

struct vc4_tmu_field_info {
    const char *name;
    uint8_t word;   /* enum vc4_tmu_pword */
    uint8_t shift, width;
};

extern const struct vc4_tmu_field_info vc4_tmu_fields[VC4_TMU_F_COUNT];

static inline uint32_t vc4_tmu_field(uint32_t word, enum vc4_tmu_field f)
{
    return (word >> vc4_tmu_fields[f].shift) & ((1u << vc4_tmu_fields[f].width) - 1u);
}

enum vc4_tmu_wrap { VC4_TMU_WRAP_REPEAT = 0, VC4_TMU_WRAP_CLAMP = 1, VC4_TMU_WRAP_MIRROR = 2,
                    VC4_TMU_WRAP_BORDER = 3 };
enum vc4_tmu_minfilt {
    VC4_TMU_MIN_LINEAR = 0, VC4_TMU_MIN_NEAREST = 1,
    VC4_TMU_MIN_NEAR_MIP_NEAR = 2, VC4_TMU_MIN_NEAR_MIP_LIN = 3,
    VC4_TMU_MIN_LIN_MIP_NEAR = 4, VC4_TMU_MIN_LIN_MIP_LIN = 5,
    VC4_TMU_MIN_COUNT = 6
};
enum vc4_tmu_ptype { VC4_TMU_PT_IGNORED = 0, VC4_TMU_PT_CUBE_STRIDE = 1, VC4_TMU_PT_CHILD_DIMS = 2,
                     VC4_TMU_PT_CHILD_OFFSET = 3 };


#define VC4_TMU_SIZE_ZERO 2048u    /* width/height field 0 means 2048 */

#endif
