/*
 * tmu_tex.h - the TMU's texture sampler: the texture config parameters
 * P0..P3 as one field table, decoded once per request into a struct, and
 * the sampling of the 16 elements of a request (addressing, wrap, filters,
 * level of detail, mip levels, cube faces, child images, flip-Y).
 *
 * The parameter words' fields are a table in src/spec/tex_spec.h (with
 * the bit diagram).
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
#include "spec/tex_spec.h"
#include "vc4kit/diag.h"
#include "vc4kit/tex.h"

#define VC4_TMU_MAX_LEVELS 16u     /* MIPLVLS is 4 bits */
#define VC4_TMU_CUBE_FACES 6u

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
    /* Not a parameter: set by tests to sample every footprint the general
     * way, the reference of tmu_tex.c's fast one (decode leaves it false). */
    bool general_only;
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

/* Statistics of one request (added to, not set). */
struct vc4_tmu_tex_work {
    uint64_t texels;          /* texel reads (4 per bilinear sample, x2 across mip levels) */
    uint64_t misses;          /* of them, misses of the TMU cache model (every texel read is an access) */
};

/*
 * Sample the 16 elements of one request: coord[VC4_TMU_S..B][i], `written`
 * = bit per enum vc4_tmu_reg written for it.  out[0] gets the packed
 * RGBA8888 words (or RG1616 for 16-bit-channel formats), out[1] BA1616.
 * tags: the cache model's tags the texels are read through
 * (vc4_tmu_cache_tags of TMU phys; NULL: no cache model).  Touches nothing
 * else outside its arguments, and reports only images outside RAM (to
 * sink, VC4_TMU_TEX_FAULT): it may run on another thread (par.h).
 */
unsigned vc4_tmu_tex_sample(const struct vc4_tmu_tex *c, const struct vc4_mem *mem,
                            const uint32_t coord[4][16], unsigned written, uint32_t out[2][16],
                            uint32_t *tags, unsigned phys, struct vc4_tmu_tex_work *work,
                            const struct vc4_diag_sink *sink, const struct vc4_location *loc);

/* Does every image the sampler may read (each level, each face of a cube
 * map) lie inside RAM?  Then vc4_tmu_tex_sample reports nothing. */
bool vc4_tmu_tex_in_ram(const struct vc4_tmu_tex *c, const struct vc4_mem *mem);

/* Level-of-detail of one 2x2 quad in 1/256 units (before bias), from the
 * derivatives of its texel-space coordinates: elements 0, 1, 2 of the quad
 * are (x, y), (x+1, y), (x, y+1) (docs/rendering.md). */
int32_t vc4_tmu_tex_quad_lod(const float s[4], const float t[4], unsigned width,
                             unsigned height);

#endif
