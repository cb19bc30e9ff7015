/*
 * tmu_tex.c - the TMU texture sampler (see tmu_tex.h for the parameter
 * layout and the sources).
 *
 * Per request: the parameters are decoded once (vc4_tmu_tex_decode), then
 * for each 2x2 quad of elements the level of detail comes from the
 * derivatives of its coordinates, and each element is filtered from the
 * texels of one or two mip levels.  Texels are decoded by the texture
 * library (vc4_tex_read_texel_at) from images located with the
 * bounds-checked memory API; an image outside RAM reads as zeros with a
 * diagnostic.
 *
 * Speed (every texel of a textured frame comes through here): each column
 * and row of a footprint is wrapped and addressed once (struct coord, the
 * layouts' axes of tex/tiling.h), each texel's offset serves both its read
 * and the cache model, the formats stored as RGBA bytes are read inline,
 * 8-bit channels are filtered two at a time in 32-bit lanes, and repeated
 * parameters are decoded once (tmu.c).  A bilinear footprint of those
 * formats that lies inside its level (most of them, REPEAT included) skips
 * struct coord altogether (footprint_fast).  tests/unit/test_tmu_tex.c
 * checks random lookups against a reference written from GL's definitions
 * and the fast footprint against the general way.
 *
 * Precision (none of it is documented; every choice is UNVERIFIED and
 * documented where it is made, and listed in docs/texturing.md):
 *  - texel-space coordinates are s * size converted to fixed point with
 *    VC4_TMU_SUBTEXEL_BITS fraction bits (rounded down);
 *  - bilinear weights are those fraction bits; each channel is
 *    sum(texel * wx * wy) rounded to nearest, 8 bits per channel;
 *  - LOD = log2(rho) with a linear mantissa approximation, 1/256 units;
 *  - mip-linear blending uses the 8 fraction bits of the LOD.
 */
#include "emu/tmu_tex.h"

#include <assert.h>
#include <math.h>
#include <string.h>

#include "base/base.h"
#include "spec/rules.h"
#include "emu/tmu.h"
#include "spec/half.h"
#include "tex/texel.h"
#include "tex/tiling.h"

#define UNIT "tmu"

/* UNVERIFIED: 8 sub-texel bits for addressing and bilinear weights (no
 * source gives the TMU's precision; 8 is the common choice of GPUs of its
 * generation, and what the r4 unpack's 8-bit channels can resolve). */
#define VC4_TMU_SUBTEXEL_BITS 8
#define SUBTEXEL (1 << VC4_TMU_SUBTEXEL_BITS)
#define LOD_FRAC_BITS 8
#define LOD_ONE (1 << LOD_FRAC_BITS)
/* Fixed-point coordinates are clamped to +-2^30 (22 integer bits), far
 * beyond any wrap period of a 2048-texel image. */
#define COORD_LIMIT 1073741824.0f
#define LOD_LIMIT (64 * LOD_ONE)

#define TYPE_LO_BITS 4u /* TYPE bit 4 lives in P1 */
#define BASE_UNIT 4096u /* BASE and CMST count 4 KiB blocks */

unsigned vc4_tmu_tex_decode(struct vc4_tmu_tex *c, const uint32_t *params, unsigned n,
                            const struct vc4_diag_sink *sink, const struct vc4_location *loc)
{
    memset(c, 0, sizeof *c);
    unsigned ev = 0;
    uint32_t p0 = n > 0 ? params[0] : 0, p1 = n > 1 ? params[1] : 0;
    c->base = vc4_tmu_field(p0, VC4_TMU_F_BASE) * BASE_UNIT;
    c->cswiz = vc4_tmu_field(p0, VC4_TMU_F_CSWIZ);
    c->cube = vc4_tmu_field(p0, VC4_TMU_F_CMMODE);
    c->flipy = vc4_tmu_field(p0, VC4_TMU_F_FLIPY);
    c->type_raw = vc4_tmu_field(p0, VC4_TMU_F_TYPE_LO) |
                  vc4_tmu_field(p1, VC4_TMU_F_TYPE_HI) << TYPE_LO_BITS;
    unsigned miplvls = vc4_tmu_field(p0, VC4_TMU_F_MIPLVLS);
    c->height = vc4_tmu_field(p1, VC4_TMU_F_HEIGHT);
    c->width = vc4_tmu_field(p1, VC4_TMU_F_WIDTH);
    if (!c->height)
        c->height = VC4_TMU_SIZE_ZERO;
    if (!c->width)
        c->width = VC4_TMU_SIZE_ZERO;
    c->etcflip = vc4_tmu_field(p1, VC4_TMU_F_ETCFLIP);
    c->mag_nearest = vc4_tmu_field(p1, VC4_TMU_F_MAGFILT);
    c->minfilt = vc4_tmu_field(p1, VC4_TMU_F_MINFILT);
    c->wrap_t = vc4_tmu_field(p1, VC4_TMU_F_WRAP_T);
    c->wrap_s = vc4_tmu_field(p1, VC4_TMU_F_WRAP_S);

    /* P2, P3: each carries its own PTYPE. */
    bool have_dims = false, have_off = false;
    for (unsigned k = 2; k < n && k < 4; k++) {
        uint32_t p = params[k];
        switch (vc4_tmu_field(p, VC4_TMU_F_PTYPE)) {
        case VC4_TMU_PT_CUBE_STRIDE:
            c->cube_stride = vc4_tmu_field(p, VC4_TMU_F_CMST) * BASE_UNIT;
            c->bslod = vc4_tmu_field(p, VC4_TMU_F_BSLOD);
            break;
        case VC4_TMU_PT_CHILD_DIMS:
            have_dims = true;
            c->child_w = vc4_tmu_field(p, VC4_TMU_F_CHILD_W);
            c->child_h = vc4_tmu_field(p, VC4_TMU_F_CHILD_H);
            break;
        case VC4_TMU_PT_CHILD_OFFSET:
            have_off = true;
            c->child_x = vc4_tmu_field(p, VC4_TMU_F_CHILD_W);
            c->child_y = vc4_tmu_field(p, VC4_TMU_F_CHILD_H);
            break;
        default:
            break;
        }
    }

    if (c->type_raw >= VC4_TEX_FORMAT_COUNT) {
        vc4_rule_report(sink, VC4_ERROR, UNIT, VC4_RULE_TMU_TEX_TYPE, loc,
                        "texture TYPE %u (P0 bits 7:4, P1 bit 31) is not a pixel format (0..%u); "
                        "the lookup returns 0", c->type_raw, VC4_TEX_FORMAT_COUNT - 1u);
        c->levels = 0;
        return VC4_TMU_TEX_BAD_CONFIG;
    }
    c->type = (enum vc4_tex_format)c->type_raw;
    if (c->minfilt >= VC4_TMU_MIN_COUNT) {
        vc4_rule_report(sink, VC4_ERROR, UNIT, VC4_RULE_TMU_TEX_MINFILT, loc,
                        "MINFILT %u (P1 bits 6:4) is reserved (0..5 defined); emulator uses nearest",
                        c->minfilt);
        c->minfilt = VC4_TMU_MIN_NEAREST;
        ev |= VC4_TMU_TEX_BAD_CONFIG;
    }
    if (have_dims != have_off) {
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_TMU_TEX_CHILD, loc,
                        "child image %s given without its %s (P2/P3 PTYPE 2 and 3 go together); "
                        "the child image is ignored", have_dims ? "dimensions" : "offsets",
                        have_dims ? "offsets" : "dimensions");
        ev |= VC4_TMU_TEX_UNSUPPORTED;
    } else if (have_dims) {
        c->child = true;
        /* UNVERIFIED: a zero child size means 2048, like WIDTH/HEIGHT. */
        if (!c->child_w)
            c->child_w = VC4_TMU_SIZE_ZERO;
        if (!c->child_h)
            c->child_h = VC4_TMU_SIZE_ZERO;
        if (c->child_x + c->child_w > c->width || c->child_y + c->child_h > c->height) {
            vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_TMU_TEX_CHILD, loc,
                            "child image %ux%u at (%u, %u) reaches outside its %ux%u parent; "
                            "texels outside the parent read 0", c->child_w, c->child_h,
                            c->child_x, c->child_y, c->width, c->height);
            ev |= VC4_TMU_TEX_UNSUPPORTED;
        }
    }
    if (c->cube && !c->cube_stride) {
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_TMU_TEX_CUBE_STRIDE, loc,
                        "cube map (P0 CMMODE) without a cube map stride (P2/P3 PTYPE 1): "
                        "every face reads face 0");
        ev |= VC4_TMU_TEX_UNSUPPORTED;
    }

    /* Mip chain: level 0 at BASE, levels 1.. directly below it, each the
     * size of its padded image, T levels LT when small (vc4_tex_mip_layout:
     * seed 004, Mesa vc4_resource.c, hardware facts §10). */
    unsigned max_levels = vc4_tex_full_levels(c->width, c->height);
    c->levels = miplvls + 1u;
    if (c->levels > max_levels) {
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_TMU_TEX_MIPLEVELS, loc,
                        "MIPLVLS %u asks for %u levels, a %ux%u texture has %u; the emulator uses "
                        "%u", miplvls, c->levels, c->width, c->height, max_levels, max_levels);
        c->levels = max_levels;
        ev |= VC4_TMU_TEX_BAD_CONFIG;
    }
    if (c->child && c->levels > 1) {
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_TMU_TEX_CHILD_MIPS, loc,
                        "child image with %u mip levels: not modelled, level 0 only", c->levels);
        c->levels = 1;
        ev |= VC4_TMU_TEX_UNSUPPORTED;
    }
    struct vc4_tex_mip_layout m;
    enum vc4_tex_layout lay = vc4_tex_format_info(c->type)->raster_only ? VC4_TEX_RASTER : VC4_TEX_T;
    if (vc4_tex_mip_layout(&m, c->type, lay, c->width, c->height, c->levels, 1, NULL) != VC4_OK) {
        vc4_rule_report(sink, VC4_ERROR, UNIT, VC4_RULE_TMU_TEX_GEOMETRY, loc,
                        "a %ux%u %s texture with %u levels has no memory layout; the lookup "
                        "returns 0", c->width, c->height, vc4_tex_format_info(c->type)->name,
                        c->levels);
        c->levels = 0;
        return ev | VC4_TMU_TEX_BAD_CONFIG;
    }
    for (unsigned i = 0; i < c->levels; i++) {
        c->lvl[i].g = m.level[i].geom;
        c->lvl[i].w = m.level[i].width;
        c->lvl[i].h = m.level[i].height;
        c->lvl[i].below = (uint32_t)-m.level[i].offset;
    }
    return ev;
}

/* ---- addressing ------------------------------------------------------------------ */

static int32_t floor_div(int32_t a, int32_t b)
{
    int32_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* floor(a / SUBTEXEL) for |a| <= COORD_LIMIT: a shift of a value made
 * non-negative (floor_div's result, without the division and its
 * remainder test: two of them per bilinear sample). */
static_assert(SUBTEXEL == 1 << VC4_TMU_SUBTEXEL_BITS, "SUBTEXEL is a power of two");
static inline int32_t floor_subtexel(int32_t a)
{
    const int64_t bias = INT64_C(1) << 40; /* (a multiple of SUBTEXEL above 2^31) */
    return (int32_t)((((int64_t)a + bias) >> VC4_TMU_SUBTEXEL_BITS) - (bias >> VC4_TMU_SUBTEXEL_BITS));
}

/* Normalised coordinate to texel space in 1/SUBTEXEL units (rounded down);
 * NaN reads as 0. */
static int32_t to_fixed(float s, unsigned size)
{
    float u = s * (float)size * (float)SUBTEXEL;
    if (!(u == u))
        return 0;
    if (u > COORD_LIMIT)
        u = COORD_LIMIT;
    if (u < -COORD_LIMIT)
        u = -COORD_LIMIT;
    /* floorf(u), exactly, without the library call: |u| <= 2^30, so the
     * truncation is representable, and it is one above the floor for a
     * negative u with a fraction */
    int32_t i = (int32_t)u;
    return (float)i > u ? i - 1 : i;
}

/* Wrap an integer texel coordinate into [0, size); false: border.  Sizes
 * are mostly powers of two, whose repeats and mirrors are masks (the same
 * floored modulus). */
static bool wrap(int32_t *x, unsigned mode, unsigned size)
{
    int32_t n = (int32_t)size, v = *x;
    bool pow2 = (size & (size - 1)) == 0;
    switch (mode) {
    case VC4_TMU_WRAP_REPEAT:
        v = pow2 ? (int32_t)((uint32_t)v & (size - 1)) : v - floor_div(v, n) * n;
        break;
    case VC4_TMU_WRAP_CLAMP:
        v = v < 0 ? 0 : v >= n ? n - 1 : v;
        break;
    case VC4_TMU_WRAP_MIRROR: {
        int32_t m = pow2 ? (int32_t)((uint32_t)v & (2 * size - 1)) : v - floor_div(v, 2 * n) * 2 * n;
        v = m >= n ? 2 * n - 1 - m : m;
        break;
    }
    default: /* border */
        if (v < 0 || v >= n)
            return false;
        break;
    }
    *x = v;
    return true;
}

/* ---- texel fetch -------------------------------------------------------------------- */

enum { IMG_UNKNOWN = 0, IMG_OK = 1, IMG_FAULT = 2 };

struct sampler {
    const struct vc4_tmu_tex *c;
    const struct vc4_mem *mem;
    unsigned phys;
    struct vc4_tmu_tex_work *work;
    const struct vc4_diag_sink *sink;
    const struct vc4_location *loc;
    unsigned ev;
    bool wide, halfs;
    const uint8_t *ptr[VC4_TMU_CUBE_FACES][VC4_TMU_MAX_LEVELS];
    uint32_t addr[VC4_TMU_CUBE_FACES][VC4_TMU_MAX_LEVELS];
    uint8_t state[VC4_TMU_CUBE_FACES][VC4_TMU_MAX_LEVELS];
    struct vc4_texel border;
    bool direct;          /* vc4_tex_texel_direct: the texel is the element | set */
    bool fast;            /* footprint_fast may read this texture's footprints */
    uint32_t set;
    unsigned block_log2;  /* log2 of the pixels per addressed element side (ETC1: 4) */
    uint32_t *tags;       /* the cache model's tags (vc4_tmu_cache_tags; NULL: no TMU) */
    uint64_t misses;      /* the cache model's (added to the statistics at the end) */
    uint64_t texels;      /* texels read (added to work at the end) */
};

/* Where the image of (face, level) lies: its bus address in *addr and
 * its bytes in RAM, or NULL (below address 0, or not inside RAM). */
static const uint8_t *image_at(const struct vc4_tmu_tex *c, const struct vc4_mem *mem, unsigned face,
                               unsigned level, uint32_t *addr)
{
    const struct vc4_tmu_image *im = &c->lvl[level];
    uint64_t start = (uint64_t)c->base + (uint64_t)face * c->cube_stride;
    if (start < im->below)
        return NULL;
    *addr = (uint32_t)(start - im->below);
    return vc4_mem_ptr(mem, *addr, im->g.size);
}

bool vc4_tmu_tex_in_ram(const struct vc4_tmu_tex *c, const struct vc4_mem *mem)
{
    uint32_t addr;
    for (unsigned face = 0; face < (c->cube ? VC4_TMU_CUBE_FACES : 1u); face++)
        for (unsigned level = 0; level < c->levels; level++)
            if (!image_at(c, mem, face, level, &addr))
                return false;
    return true;
}

/* The image of (face, level) in RAM, located once per request. */
static const uint8_t *image(struct sampler *sp, unsigned face, unsigned level)
{
    uint8_t *st = &sp->state[face][level];
    if (*st == IMG_UNKNOWN) {
        const struct vc4_tmu_image *im = &sp->c->lvl[level];
        uint64_t start = (uint64_t)sp->c->base + (uint64_t)face * sp->c->cube_stride;
        sp->ptr[face][level] = image_at(sp->c, sp->mem, face, level, &sp->addr[face][level]);
        bool ok = sp->ptr[face][level] != NULL;
        *st = ok ? IMG_OK : IMG_FAULT;
        if (!ok) {
            vc4_diag_emit(sp->sink, VC4_ERROR, VC4_DIAG_FAULT, UNIT, sp->loc,
                          "TMU%u texture image (face %u, level %u: %u bytes at 0x%08llx, P0 base "
                          "0x%08x) is outside the %u MiB of RAM; its texels read 0", sp->phys,
                          face, level, im->g.size,
                          (unsigned long long)(start - (start >= im->below ? im->below : 0)),
                          sp->c->base, sp->mem->size >> 20);
            sp->ev |= VC4_TMU_TEX_FAULT;
        }
    }
    return *st == IMG_OK ? sp->ptr[face][level] : NULL;
}

/* One texel coordinate of a lookup, addressed: where a column or row of
 * the footprint lies, computed once for the texels that share it. */
enum { COORD_IN, COORD_BORDER, COORD_OUTSIDE };
struct coord {
    struct vc4_tex_axis a; /* (COORD_IN) */
    unsigned px;           /* the pixel coordinate in the level */
    uint8_t where;         /* COORD_*: in the level, the border's, outside the level's image */
};

/* Texel coordinate x (y: is_y) of the addressed image of level, size n:
 * wrapped (or the border), then, for rows, flipped, and moved into the
 * child image. */
static struct coord coord(const struct sampler *sp, unsigned level, int32_t x, bool is_y, unsigned n)
{
    const struct vc4_tmu_tex *c = sp->c;
    struct coord r = {.where = COORD_BORDER};
    if (!wrap(&x, is_y ? c->wrap_t : c->wrap_s, n))
        return r;
    /* UNVERIFIED: FLIPY mirrors the row index inside the addressed image
     * (t = 0 becomes the last row) after wrapping. */
    if (is_y && c->flipy)
        x = (int32_t)n - 1 - x;
    if (c->child && level == 0)
        x += (int32_t)(is_y ? c->child_y : c->child_x);
    const struct vc4_tmu_image *im = &c->lvl[level];
    if ((unsigned)x >= (is_y ? im->h : im->w)) {
        r.where = COORD_OUTSIDE;
        return r;
    }
    r.where = COORD_IN;
    r.px = (unsigned)x;
    if (is_y) {
        /* ETC1 with ETCFLIP clear reads the rows of each 4x4 block the other
         * way round (UNVERIFIED: vc4_tex_etc1_row; Mesa always sets ETCFLIP);
         * the flip stays inside the block */
        if (c->type == VC4_TEX_ETC1)
            r.px = vc4_tex_etc1_row(r.px, c->etcflip);
        r.a = vc4_tex_axis_y(&im->g, r.px >> sp->block_log2);
    } else {
        r.a = vc4_tex_axis_x(&im->g, r.px >> sp->block_log2);
    }
    return r;
}

/* Is some texel of these columns and rows not the border's?  (Then the
 * image is located, as the first such texel would locate it.) */
static inline bool some_texel(const struct coord *xs, unsigned nx, const struct coord *ys, unsigned ny)
{
    bool x = false, y = false;
    for (unsigned k = 0; k < nx; k++)
        x |= xs[k].where != COORD_BORDER;
    for (unsigned k = 0; k < ny; k++)
        y |= ys[k].where != COORD_BORDER;
    return x && y;
}

/* The texel at bit offset bit of level's image img (pixel (px, py), for
 * the decoders that need it), made whole in registers: a word stored over
 * a zeroed texel and the texel loaded back cannot be forwarded from the
 * store buffer, which cost a fifth of bench_scene's sampling time.  (The
 * RGBA-byte formats are read here, not through the call: its eight
 * arguments cost 10% of the sampler's host instructions, bench_tmu.) */
static inline struct vc4_texel read_texel(const struct sampler *sp, unsigned level, const uint8_t *img,
                                          uint64_t bit, unsigned px, unsigned py)
{
    const struct vc4_tex_geom *g = &sp->c->lvl[level].g;
    if (sp->direct && (bit >> 3) + 4 <= g->size)
        return (struct vc4_texel){{vc4_le32(img + (bit >> 3)) | sp->set, 0}};
    struct vc4_texel tx = {{0, 0}};
    vc4_tex_read_texel_at(sp->c->type, g->bpp, img, g->size, bit, px, py, &tx);
    return tx;
}

/* Read the texel at bit offset bit of (face, level)'s image img, count it,
 * and show its address to the cache model: with footprint_fast's loop, the
 * places a texel is read.  Only misses are counted (hits are the texels
 * less the misses, added to the statistics at the end).  (Most texels of a
 * bilinear footprint lie in the line of the texel before them, a 64-byte
 * utile of a T or LT image: hits that change nothing, but in no pattern a
 * branch predictor learns, so every texel goes through the tags alike.) */
static inline struct vc4_texel fetch(struct sampler *sp, unsigned face, unsigned level, const uint8_t *img,
                                     uint64_t bit, unsigned px, unsigned py)
{
    sp->texels++;
    if (sp->tags)
        sp->misses += !vc4_tmu_cache_touch(sp->tags, sp->addr[face][level] + (uint32_t)(bit >> 3));
    return read_texel(sp, level, img, bit, px, py);
}

/* The texel at (x, y) of (face, level), whose image is img (NULL: outside
 * RAM): its element's offset is computed once, for the read and for the
 * cache model. */
static inline struct vc4_texel texel(struct sampler *sp, unsigned face, unsigned level, const uint8_t *img,
                                     const struct coord *x, const struct coord *y)
{
    struct vc4_texel tx = {{0, 0}};
    if (x->where == COORD_BORDER || y->where == COORD_BORDER)
        return sp->border;
    if (!img || x->where == COORD_OUTSIDE || y->where == COORD_OUTSIDE)
        return tx;
    return fetch(sp, face, level, img, vc4_tex_axes_bit(&y->a, &x->a), x->px, y->px);
}

/* Is the pair of columns (rows) x, x + 1 inside [0, n) once wrapped the
 * way footprint_fast relies on?  (*x: the first, wrapped under REPEAT.) */
static inline bool pair_inside(int32_t *x, unsigned mode, unsigned n)
{
    if (mode == VC4_TMU_WRAP_REPEAT)
        wrap(x, mode, n); /* (always true) */
    return *x >= 0 && (uint32_t)*x + 1u < n;
}

/*
 * The bilinear footprint whose texels are all inside the level, the common
 * case, addressed without struct coord: columns x0, x0 + 1 and rows y0,
 * y0 + 1 of a level of w x h pixels with 0 <= x0 <= w - 2 and
 * 0 <= y0 <= h - 2 are their own wrap under every mode (each is the
 * identity on [0, size)), and so are any x0, x0 + 1 under REPEAT once x0
 * is wrapped, if it does not wrap to the last column (REPEAT is periodic;
 * pair_inside).  None is the border, and without a child image all are
 * inside the level's image; only FLIPY moves the rows.  So the
 * four texels are read straight from their axes, in texel()'s order
 * (which the cache model sees), with the same reads and counts.  For the
 * formats read inline (sp->fast: 32-bit RGBA-byte elements, one pixel
 * each); false: the caller takes the general way (also when the image is
 * outside RAM, which texel() reads as zeros once image() has reported it).
 * test_fast_footprint compares the two on random requests.
 */
static inline bool footprint_fast(struct sampler *sp, unsigned face, unsigned level, int32_t x0,
                                  int32_t y0, unsigned w, unsigned h, struct vc4_texel q[4])
{
    if (!sp->fast || (sp->c->child && level == 0) || !pair_inside(&x0, sp->c->wrap_s, w) ||
        !pair_inside(&y0, sp->c->wrap_t, h))
        return false;
    const uint8_t *img = sp->state[face][level] == IMG_OK ? sp->ptr[face][level] : image(sp, face, level);
    if (!img)
        return false;
    const struct vc4_tex_geom *g = &sp->c->lvl[level].g;
    unsigned px[2] = {(unsigned)x0, (unsigned)x0 + 1u};
    unsigned py[2] = {(unsigned)y0, (unsigned)y0 + 1u};
    if (sp->c->flipy) {
        py[0] = h - 1u - py[0];
        py[1] = h - 1u - py[1];
    }
    struct vc4_tex_axis ax[2];
    ax[0] = vc4_tex_axis_x(g, px[0]);
    ax[1] = vc4_tex_axis_x_next(g, &ax[0], px[0]);
    const struct vc4_tex_axis ay[2] = {vc4_tex_axis_y(g, py[0]), vc4_tex_axis_y(g, py[1])};
    uint64_t bit[4];
    bit[0] = vc4_tex_axes_bit(&ay[0], &ax[0]);
    bit[2] = vc4_tex_axes_bit(&ay[1], &ax[0]);
    if ((px[1] & (g->utile_w - 1u)) != 0) {
        /* column x0 + 1 in x0's utile: one element on in both rows
         * (vc4_tex_axis_x_next stepped it, same half and parities) */
        bit[1] = bit[0] + g->bpp;
        bit[3] = bit[2] + g->bpp;
    } else {
        bit[1] = vc4_tex_axes_bit(&ay[0], &ax[1]);
        bit[3] = vc4_tex_axes_bit(&ay[1], &ax[1]);
    }
    /* (fetch's work for the four, the counts kept in registers; the
     * texels read as read_texel's direct words, their bounds tested once:
     * beyond the image's bytes, the general way reads them) */
    uint64_t last = bit[0] > bit[1] ? bit[0] : bit[1];
    last = bit[2] > last ? bit[2] : last;
    last = bit[3] > last ? bit[3] : last;
    if ((last >> 3) + 4 > g->size)
        return false;
    uint32_t *tags = sp->tags, base = sp->addr[face][level];
    unsigned misses = 0;
    for (unsigned k = 0; k < 4; k++) {
        if (tags)
            misses += !vc4_tmu_cache_touch(tags, base + (uint32_t)(bit[k] >> 3));
        q[k] = (struct vc4_texel){{vc4_le32(img + (bit[k] >> 3)) | sp->set, 0}};
    }
    sp->texels += 4;
    sp->misses += misses;
    return true;
}

/* Filtered colours are texels, as the TMU returns them (struct vc4_texel):
 * narrow formats one RGBA word of 8-bit channels, wide ones R | G << 16 and
 * B | A << 16. */

/* The 8-bit channels 0 and 2 (even) or 1 and 3 (odd) of an RGBA word, each
 * in the low byte of a 32-bit lane of the result. */
#define LANES8_MASK UINT64_C(0x000000FF000000FF)
static inline uint64_t lanes8_even(uint64_t w) { return (w | w << 16) & LANES8_MASK; }
static inline uint64_t lanes8_odd(uint64_t w) { return (w >> 8 | w << 8) & LANES8_MASK; }

/* Weighted sum of n texels; weights sum to 2^wbits (wbits <= 16).  8-bit
 * channels: sum rounded to nearest (UNVERIFIED), two channels at a time, a
 * 32-bit lane each: a lane's sum is at most 255 * 2^16 plus the rounding
 * half, so no carry crosses a lane.  16-bit float channels: filtered in
 * single precision, rounded to half by the QPU's converter (UNVERIFIED).
 * 16-bit integer channels (S16: "point sampling only", seed 004) never
 * come here; they would be rounded like the 8-bit ones. */
static inline struct vc4_texel blend(const struct sampler *sp, const struct vc4_texel *c, const uint32_t *wt,
                              unsigned n, unsigned wbits)
{
    struct vc4_texel r = {{0, 0}};
    if (!sp->wide) {
        const uint64_t half = (UINT64_C(1) << (wbits - 1)) * (1u | UINT64_C(1) << 32);
        uint64_t even = half, odd = half;
        if (n == 4) { /* (bilinear, unrolled: the loop's counting was a tenth of it) */
            even += lanes8_even(c[0].w[0]) * wt[0] + lanes8_even(c[1].w[0]) * wt[1] +
                    lanes8_even(c[2].w[0]) * wt[2] + lanes8_even(c[3].w[0]) * wt[3];
            odd += lanes8_odd(c[0].w[0]) * wt[0] + lanes8_odd(c[1].w[0]) * wt[1] +
                   lanes8_odd(c[2].w[0]) * wt[2] + lanes8_odd(c[3].w[0]) * wt[3];
        } else {
            for (unsigned i = 0; i < n; i++) {
                even += lanes8_even(c[i].w[0]) * wt[i];
                odd += lanes8_odd(c[i].w[0]) * wt[i];
            }
        }
        even = even >> wbits & LANES8_MASK;
        odd = odd >> wbits & LANES8_MASK;
        r.w[0] = (uint32_t)even | (uint32_t)odd << 8 | (uint32_t)(even >> 32) << 16 | (uint32_t)(odd >> 32) << 24;
        return r;
    }
    for (unsigned k = 0; k < 4; k++) {
        uint32_t ch;
        if (sp->halfs) {
            float acc = 0;
            for (unsigned i = 0; i < n; i++)
                acc += vc4_u2f(vc4_half_to_float((uint16_t)(c[i].w[k / 2] >> 16 * (k % 2)))) * (float)wt[i];
            ch = vc4_float_to_half(vc4_f2u(acc / (float)(1u << wbits)));
        } else {
            uint64_t acc = UINT64_C(1) << (wbits - 1);
            for (unsigned i = 0; i < n; i++)
                acc += (uint64_t)(c[i].w[k / 2] >> 16 * (k % 2) & 0xFFFFu) * wt[i];
            ch = (uint32_t)(acc >> wbits);
        }
        r.w[k / 2] |= (ch & 0xFFFFu) << 16 * (k % 2);
    }
    return r;
}

/* One level, nearest or bilinear, at normalised (s, t). */
static struct vc4_texel sample_level(struct sampler *sp, unsigned face, unsigned level, float s,
                                  float t, bool linear)
{
    const struct vc4_tmu_tex *c = sp->c;
    unsigned w = c->child && level == 0 ? c->child_w : c->lvl[level].w;
    unsigned h = c->child && level == 0 ? c->child_h : c->lvl[level].h;
    int32_t u = to_fixed(s, w), v = to_fixed(t, h);
    if (!linear || c->type == VC4_TEX_S16) {
        struct coord x = coord(sp, level, floor_subtexel(u), false, w);
        struct coord y = coord(sp, level, floor_subtexel(v), true, h);
        const uint8_t *img = some_texel(&x, 1, &y, 1) ? image(sp, face, level) : NULL;
        return texel(sp, face, level, img, &x, &y);
    }
    /* Bilinear: texel centres at +0.5; the four texels in the order
     * (x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1) (the cache
     * model's order), each column and row addressed once. */
    u -= SUBTEXEL / 2;
    v -= SUBTEXEL / 2;
    int32_t x0 = floor_subtexel(u), y0 = floor_subtexel(v);
    uint32_t fx = (uint32_t)(u - x0 * SUBTEXEL), fy = (uint32_t)(v - y0 * SUBTEXEL);
    struct vc4_texel q[4];
    if (!footprint_fast(sp, face, level, x0, y0, w, h, q)) {
        struct coord xs[2], ys[2];
        for (unsigned k = 0; k < 2; k++) {
            xs[k] = coord(sp, level, x0 + (int32_t)k, false, w);
            ys[k] = coord(sp, level, y0 + (int32_t)k, true, h);
        }
        const uint8_t *img = some_texel(xs, 2, ys, 2) ? image(sp, face, level) : NULL;
        for (unsigned k = 0; k < 4; k++)
            q[k] = texel(sp, face, level, img, &xs[k & 1u], &ys[k >> 1]);
    }
    const uint32_t wt[4] = {(SUBTEXEL - fx) * (SUBTEXEL - fy), fx * (SUBTEXEL - fy),
                            (SUBTEXEL - fx) * fy, fx * fy};
    return blend(sp, q, wt, 4, 2 * VC4_TMU_SUBTEXEL_BITS);
}

/* ---- level of detail ------------------------------------------------------------------- */

int32_t vc4_tmu_tex_quad_lod(const float s[4], const float t[4], unsigned width,
                             unsigned height)
{
    float dsx = (s[1] - s[0]) * (float)width, dtx = (t[1] - t[0]) * (float)height;
    float dsy = (s[2] - s[0]) * (float)width, dty = (t[2] - t[0]) * (float)height;
    float rx = dsx * dsx + dtx * dtx, ry = dsy * dsy + dty * dty;
    float rho2 = rx > ry ? rx : ry;
    if (!(rho2 > 0.0f))
        return -LOD_LIMIT; /* no change across the quad (or NaN): magnified */
    if (isinf(rho2))
        return LOD_LIMIT;
    /* UNVERIFIED: log2 with a linear mantissa, as fixed-function LOD units
     * commonly approximate it: rho2 = m * 2^e, m in [0.5, 1) ->
     * log2(rho2) ~ (e - 1) + (2m - 1); LOD = log2(rho2) / 2. */
    int e = 0;
    float m = frexpf(rho2, &e);
    int32_t l2 = (int32_t)(e - 1) * LOD_ONE + (int32_t)((2.0f * m - 1.0f) * (float)LOD_ONE);
    int32_t lod = floor_div(l2, 2);
    return lod > LOD_LIMIT ? LOD_LIMIT : lod < -LOD_LIMIT ? -LOD_LIMIT : lod;
}

/* ---- cube maps ---------------------------------------------------------------------------- */

/* The face a direction (s, t, r) selects: the axis of largest magnitude,
 * ties to s, then t (GL's table: faces +X, -X, +Y, -Y, +Z, -Z at base +
 * k * stride). */
static unsigned cube_face(float s, float t, float r)
{
    float as = fabsf(s), at = fabsf(t), ar = fabsf(r);
    if (as >= at && as >= ar)
        return s >= 0 ? 0u : 1u;
    if (at >= ar)
        return t >= 0 ? 2u : 3u;
    return r >= 0 ? 4u : 5u;
}

/* Each face's axis and its two face coordinates (GL's table: sc, tc from
 * which component, with which sign). */
static const struct cube_face_axes {
    uint8_t axis, s_from, t_from; /* component: 0 s, 1 t, 2 r */
    int8_t s_sign, t_sign;
} cube_axes[VC4_TMU_CUBE_FACES] = {
    [0] = {.axis = 0, .s_from = 2, .s_sign = -1, .t_from = 1, .t_sign = -1}, /* +X: (-r, -t) */
    [1] = {.axis = 0, .s_from = 2, .s_sign = +1, .t_from = 1, .t_sign = -1}, /* -X: (+r, -t) */
    [2] = {.axis = 1, .s_from = 0, .s_sign = +1, .t_from = 2, .t_sign = +1}, /* +Y: (+s, +r) */
    [3] = {.axis = 1, .s_from = 0, .s_sign = +1, .t_from = 2, .t_sign = -1}, /* -Y: (+s, -r) */
    [4] = {.axis = 2, .s_from = 0, .s_sign = +1, .t_from = 1, .t_sign = -1}, /* +Z: (+s, -t) */
    [5] = {.axis = 2, .s_from = 0, .s_sign = -1, .t_from = 1, .t_sign = -1}, /* -Z: (-s, -t) */
};

/* The face coordinates of direction v on face f, mapped from [-1, 1] to
 * [0, 1], each divided by k.  UNVERIFIED: the TMU does not divide by the
 * major axis when it samples (k = 1): Mesa divides s, t, r by max(|s|,
 * |t|, |r|) before the writes (ntq_emit_tex), so the face coordinates are
 * used as given. */
static void cube_face_coords(unsigned f, const float v[3], float k, float *sc, float *tc)
{
    const struct cube_face_axes *a = &cube_axes[f];
    *sc = ((float)a->s_sign * v[a->s_from] / k + 1.0f) * 0.5f;
    *tc = ((float)a->t_sign * v[a->t_from] / k + 1.0f) * 0.5f;
}

/*
 * The LOD of a cube-map lookup whose element samples face f: the quad's
 * four directions projected through the cube's centre onto f's plane
 * (each divided by the magnitude of its f-axis component), then the
 * quad's derivatives as for a 2D texture.  Where all four lie on f (Mesa's
 * directions have f's component +-1) that is the quad's face coordinates
 * themselves; where a quad straddles an edge (a helper pixel past the
 * primitive's edge, a direction near a cube edge) the other directions
 * land on f's plane beyond its edge, and the derivatives stay those of
 * the surface.  Taking each element's own face coordinates instead put
 * such quads at the smallest level: piglit's fbo-cubemap and `cubemap
 * pbo` / `cubemap npot pbo`, whose probed pixels share quads with pixels
 * past a face's edge, pass on Raspberry Pi 3s (Mesa's CI,
 * src/broadcom/ci/broadcom-rpi3-fails.txt) and failed so on vc4kit until
 * 2026-11-29; one LOD per quad from the first element's face fails them
 * too.  UNVERIFIED: the hardware's arithmetic for the projection.
 */
struct cube_dir {
    float v[3]; /* s, t, r as written */
};

static int32_t cube_lod(unsigned f, const struct cube_dir quad[4], unsigned width, unsigned height)
{
    const struct cube_face_axes *a = &cube_axes[f];
    float sc[4], tc[4];
    for (unsigned e = 0; e < 4; e++) {
        float m = fabsf(quad[e].v[a->axis]);
        cube_face_coords(f, quad[e].v, m > 0.0f ? m : 1.0f, &sc[e], &tc[e]);
    }
    return vc4_tmu_tex_quad_lod(sc, tc, width, height);
}

/* ---- one request ---------------------------------------------------------------------------- */

/* B as a LOD (or bias) in 1/256 units, rounded down; NaN reads as 0. */
static int32_t lod_of_b(float b)
{
    float v = b * (float)LOD_ONE;
    if (!(v == v))
        return 0;
    v = v > (float)LOD_LIMIT ? (float)LOD_LIMIT : v < -(float)LOD_LIMIT ? -(float)LOD_LIMIT : v;
    return (int32_t)floorf(v);
}

unsigned vc4_tmu_tex_sample(const struct vc4_tmu_tex *c, const struct vc4_mem *mem,
                            const uint32_t coord[4][16], unsigned written, uint32_t out[2][16],
                            uint32_t *tags, unsigned phys, struct vc4_tmu_tex_work *work,
                            const struct vc4_diag_sink *sink, const struct vc4_location *loc)
{
    struct sampler sp;
    memset(&sp, 0, sizeof sp);
    sp.c = c;
    sp.mem = mem;
    sp.phys = phys;
    sp.work = work;
    sp.sink = sink;
    sp.loc = loc;
    sp.wide = vc4_tex_texel_is_wide(c->type);
    sp.halfs = c->type == VC4_TEX_S16F || c->type == VC4_TEX_RGBA64;
    sp.block_log2 = (unsigned)__builtin_ctz(vc4_tex_format_block_dim(c->type));
    sp.tags = tags;
    sp.direct = vc4_tex_texel_direct(c->type, &sp.set);
    sp.fast = sp.direct && !sp.wide && sp.block_log2 == 0 && !c->general_only;
    bool has_r = written >> 2 & 1u, has_b = written >> 3 & 1u;

    float s[16], tt[16];
    struct cube_dir dir[16]; /* (cube maps) */
    unsigned face[16];
    for (unsigned i = 0; i < 16; i++) {
        s[i] = vc4_u2f(coord[0][i]);
        tt[i] = vc4_u2f(coord[1][i]);
        face[i] = 0;
        if (c->cube) {
            dir[i] = (struct cube_dir){{s[i], tt[i], has_r ? vc4_u2f(coord[2][i]) : 0.0f}};
            face[i] = cube_face(dir[i].v[0], dir[i].v[1], dir[i].v[2]);
            cube_face_coords(face[i], dir[i].v, 1.0f, &s[i], &tt[i]);
        }
    }
    unsigned lw = c->child ? c->child_w : c->width, lh = c->child ? c->child_h : c->height;
    unsigned maxlev = c->levels - 1u;
    for (unsigned q = 0; q < 4; q++) {
        int32_t qlod = 0;
        if (!c->cube)
            qlod = vc4_tmu_tex_quad_lod(s + 4 * q, tt + 4 * q, lw, lh);
        for (unsigned e = 0; e < 4; e++) {
            unsigned i = 4 * q + e;
            if (c->cube) /* (the same for the quad's elements on one face) */
                qlod = e > 0 && face[i] == face[i - 1] ? qlod : cube_lod(face[i], &dir[4 * q], lw, lh);
            /* The border colour rides in R (Mesa writes it there for clamp
             * and border wraps); for cube maps R is a coordinate and the
             * border is 0 (UNVERIFIED).  R is the word the TMU returns for
             * a border texel, whatever the texture's format: Mesa packs it
             * per format so that it reads as that format's texels do
             * (vc4_uniforms.c write_texture_border_color: RGBA8888 as
             * R8G8B8A8, RGBA4444 and RGBA5551 as A8B8G8R8, RGB565 as
             * B8G8R8A8, ALPHA as A << 24, LUMALPHA as L | A << 24), and
             * piglit's texwrap bordercolor passes for every format on Pi
             * 3s in Mesa's CI; decoding R as one texel of the format, as
             * vc4kit did until 2026-11-29, failed its 16-bit and one- and
             * two-channel formats.  UNVERIFIED for 16-bit-channel formats
             * (the second word is 0). */
            sp.border.w[0] = has_r && !c->cube ? coord[2][i] : 0;
            sp.border.w[1] = 0;
            int32_t lod = qlod;
            if (has_b) {
                int32_t b = lod_of_b(vc4_u2f(coord[3][i]));
                lod = c->bslod ? b : lod + b;
            }
            struct vc4_texel col;
            if (lod <= 0) {
                /* UNVERIFIED: magnification below LOD 0 whatever the filters. */
                col = sample_level(&sp, face[i], 0, s[i], tt[i], !c->mag_nearest);
            } else {
                bool linear = c->minfilt == VC4_TMU_MIN_LINEAR ||
                              c->minfilt == VC4_TMU_MIN_LIN_MIP_NEAR ||
                              c->minfilt == VC4_TMU_MIN_LIN_MIP_LIN;
                int32_t top = (int32_t)maxlev * LOD_ONE;
                if (lod > top)
                    lod = top;
                switch (c->minfilt) {
                case VC4_TMU_MIN_NEAR_MIP_NEAR:
                case VC4_TMU_MIN_LIN_MIP_NEAR: {
                    /* GL: level ceil(lod + 0.5) - 1 */
                    unsigned lv = (unsigned)((lod + LOD_ONE / 2 - 1) >> LOD_FRAC_BITS);
                    col = sample_level(&sp, face[i], lv > maxlev ? maxlev : lv, s[i], tt[i],
                                       linear);
                    break;
                }
                case VC4_TMU_MIN_NEAR_MIP_LIN:
                case VC4_TMU_MIN_LIN_MIP_LIN: {
                    unsigned lv = (unsigned)(lod >> LOD_FRAC_BITS);
                    uint32_t f = (uint32_t)lod & (LOD_ONE - 1u);
                    struct vc4_texel two[2];
                    two[0] = sample_level(&sp, face[i], lv, s[i], tt[i], linear);
                    if (f && lv < maxlev) {
                        two[1] = sample_level(&sp, face[i], lv + 1, s[i], tt[i], linear);
                        const uint32_t wt[2] = {LOD_ONE - f, f};
                        col = blend(&sp, two, wt, 2, LOD_FRAC_BITS);
                    } else {
                        col = two[0];
                    }
                    break;
                }
                default:
                    col = sample_level(&sp, face[i], 0, s[i], tt[i], linear);
                    break;
                }
            }
            out[0][i] = col.w[0];
            out[1][i] = sp.wide ? col.w[1] : 0;
        }
    }
    work->texels += sp.texels;
    work->misses += sp.misses;
    return sp.ev;
}
