/*
 * tmu_tex.h - the TMU's texture sampler: the texture config parameters
 * P0..P3 as one field table, decoded once per request into a struct, and
 * the sampling of the 16 elements of a request (addressing, wrap, filters,
 * level of detail, mip levels, cube faces, child images, flip-Y).
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
 *
 * Coordinates (Mesa vc4_program.c ntq_emit_tex): S, T normalised floats;
 * R is the third cube-map coordinate, or else the border colour (packed in
 * the texture's format); B is the LOD bias, or the LOD itself with BSLOD.
 */
#ifndef VC4_EMU_TMU_TEX_H
#define VC4_EMU_TMU_TEX_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/mem.h"
#include "vc4kit/diag.h"
#include "vc4kit/tex.h"

struct vc4_tmu;

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

#define VC4_TMU_MAX_LEVELS 16u     /* MIPLVLS is 4 bits */
#define VC4_TMU_CUBE_FACES 6u
#define VC4_TMU_SIZE_ZERO 2048u    /* width/height field 0 means 2048 */

/* One image of the texture (a mip level of a face). */
struct vc4_tmu_image {
    struct vc4_tex_geom g;    /* vc4_tex_mip_layout's (ETC1: 4x4 blocks) */
    unsigned w, h;            /* pixels */
    uint32_t below;           /* bytes from this level's start up to the level-0 start */
};

/* P0..P3 decoded. */
struct vc4_tmu_tex {
    uint32_t base;            /* bus address of level 0 (face 0) */
    unsigned cswiz;
    bool cube, flipy, etcflip, mag_nearest, bslod;
    enum vc4_tex_format type;
    unsigned type_raw;        /* the 5-bit field as written */
    unsigned levels;          /* mip levels used (MIPLVLS + 1, clamped to the size) */
    unsigned width, height;   /* level 0 */
    unsigned minfilt;         /* enum vc4_tmu_minfilt */
    unsigned wrap_s, wrap_t;  /* enum vc4_tmu_wrap */
    uint32_t cube_stride;     /* bytes */
    bool child;               /* a child image of the level-0 image */
    unsigned child_w, child_h, child_x, child_y;
    struct vc4_tmu_image lvl[VC4_TMU_MAX_LEVELS];
};

/* Sampler findings (bit set, returned by the functions below). */
enum vc4_tmu_tex_event {
    VC4_TMU_TEX_BAD_CONFIG = 1u << 0,  /* error: a field value the TMU cannot use */
    VC4_TMU_TEX_FAULT = 1u << 1,       /* error: an image outside RAM */
    VC4_TMU_TEX_UNSUPPORTED = 1u << 2, /* warning: combination not modelled / not allowed */
};

/* Decode the n parameters pulled for one request (P0 first, n >= 2).
 * Returns enum vc4_tmu_tex_event bits; the config is usable whatever it
 * returns (bad fields are replaced by their nearest meaningful value). */
unsigned vc4_tmu_tex_decode(struct vc4_tmu_tex *c, const uint32_t *params, unsigned n,
                            const struct vc4_diag_sink *sink, const struct vc4_location *loc);

/* Statistics of one request. */
struct vc4_tmu_tex_work {
    uint64_t texels;          /* texel reads (4 per bilinear sample, x2 across mip levels) */
    bool miss;                /* at least one texel missed the TMU cache model */
};

/*
 * Sample the 16 elements of one request: coord[VC4_TMU_S..B][i], `written`
 * = bit per enum vc4_tmu_reg written for it.  out[0] gets the packed
 * RGBA8888 words (or RG1616 for 16-bit-channel formats), out[1] BA1616.
 * t, qpu, phys (may be NULL) feed the cache model.
 */
unsigned vc4_tmu_tex_sample(const struct vc4_tmu_tex *c, const struct vc4_mem *mem,
                            const uint32_t coord[4][16], unsigned written, uint32_t out[2][16],
                            struct vc4_tmu *t, unsigned qpu, unsigned phys,
                            struct vc4_tmu_tex_work *work, const struct vc4_diag_sink *sink,
                            const struct vc4_location *loc);

/* Level-of-detail of one 2x2 quad in 1/256 units (before bias), from the
 * derivatives of its texel-space coordinates: elements 0, 1, 2 of the quad
 * are (x, y), (x+1, y), (x, y+1) (docs/rendering.md). */
int32_t vc4_tmu_tex_quad_lod(const float s[4], const float t[4], unsigned width,
                             unsigned height);

#endif
