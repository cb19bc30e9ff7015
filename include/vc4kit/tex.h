/*
 * vc4kit/tex.h - texture and tile-buffer memory formats: the raster, LT and
 * T layouts for every bit depth, the texture pixel formats (texels as the
 * TMU returns them, ETC1), mip levels and cube faces, the config parameter
 * words, whole-picture conversion, and PNG I/O.  docs/textures.md explains
 * the conventions and their sources.
 *
 * Layouts (seed post 004, "I Wanna See You Swizzle It"; Mesa vc4_tiling.c):
 *
 *   micro-tile (utile): 64 bytes, pixels in raster order inside, origin at
 *   the lower left (row 0 first in memory):
 *       1 bpp 32x16   4 bpp 16x8   8 bpp 8x8   16 bpp 8x4   32 bpp 4x4   64 bpp 2x4
 *   LT: utiles in raster order.
 *   T:  1 KB sub-tiles of 4x4 utiles (raster inside); 4 KB tiles of 2x2
 *       sub-tiles; tile rows alternate direction (even rows left to right,
 *       odd rows right to left); sub-tile order inside a 4K tile:
 *
 *           even tile rows        odd tile rows
 *            +---+---+             +---+---+
 *            | 1 | 2 |             | 3 | 0 |     (slot = 1 KB offset)
 *            +---+---+             +---+---+
 *            | 0 | 3 |             | 2 | 1 |
 *            +---+---+             +---+---+
 *   raster: rows of pixels, row 0 first.
 */
#ifndef VC4KIT_TEX_H
#define VC4KIT_TEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vc4kit/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

enum vc4_tex_layout {
    VC4_TEX_RASTER = 0,
    VC4_TEX_T = 1,
    VC4_TEX_LT = 2,
};

/* Texture pixel formats: the 5-bit TYPE of texture config parameters P0/P1
 * (seed 004's table; Mesa vc4_packet.h). */
enum vc4_tex_format {
    VC4_TEX_RGBA8888 = 0,
    VC4_TEX_RGBX8888 = 1,
    VC4_TEX_RGBA4444 = 2,
    VC4_TEX_RGBA5551 = 3,
    VC4_TEX_RGB565 = 4,
    VC4_TEX_LUMINANCE = 5,
    VC4_TEX_ALPHA = 6,
    VC4_TEX_LUMALPHA = 7,
    VC4_TEX_ETC1 = 8,
    VC4_TEX_S16F = 9,
    VC4_TEX_S8 = 10,
    VC4_TEX_S16 = 11,
    VC4_TEX_BW1 = 12,
    VC4_TEX_A4 = 13,
    VC4_TEX_A1 = 14,
    VC4_TEX_RGBA64 = 15,
    VC4_TEX_RGBA32R = 16,
    VC4_TEX_YUYV422R = 17,
    VC4_TEX_FORMAT_COUNT = 18
};

struct vc4_tex_format_info {
    const char *name;  /* as seed 004 spells it */
    uint8_t bpp;       /* bits per pixel in memory (ETC1: 4) */
    bool raster_only;  /* RGBA32R, YUYV422R: always raster */
    const char *description;
};

VC4_API const struct vc4_tex_format_info *vc4_tex_format_info(unsigned format);

/* Utile dimensions in pixels for a bit depth (1, 4, 8, 16, 32 or 64);
 * false for other depths. */
VC4_API bool vc4_tex_utile_dims(unsigned bpp, unsigned *w, unsigned *h);

/*
 * The memory geometry of one image (one mip level, one face): its layout,
 * bit depth and size, and what follows from them: the padded size and the
 * bytes it occupies.
 */
struct vc4_tex_geom {
    enum vc4_tex_layout layout;
    unsigned bpp;
    unsigned width, height;         /* pixels */
    unsigned utile_w, utile_h;      /* pixels */
    unsigned padded_w, padded_h;    /* pixels: to utiles (LT), 4K tiles (T), utile width (raster) */
    uint32_t row_bytes;             /* raster: bytes per pixel row; LT/T: bytes per utile row */
    uint32_t size;                  /* bytes */
};

/* Fill in the geometry; false (and *g untouched) for an unsupported bpp or
 * a size beyond 2048 x 2048 (P1's 11-bit width/height fields). */
VC4_API bool vc4_tex_geom_init(struct vc4_tex_geom *g, enum vc4_tex_layout layout,
                               unsigned bpp, unsigned width, unsigned height);

/* Bit offset of pixel (x, y) from the start of the image (x, y below the
 * padded size). For bpp >= 8 it is a multiple of 8. */
VC4_API uint64_t vc4_tex_bit_offset(const struct vc4_tex_geom *g, unsigned x, unsigned y);

/* Byte offset of pixel (x, y) (bpp >= 8). */
static inline uint32_t vc4_tex_byte_offset(const struct vc4_tex_geom *g, unsigned x, unsigned y)
{
    return (uint32_t)(vc4_tex_bit_offset(g, x, y) >> 3);
}

/* The layout the TMU uses for a mip level of a T-format texture: levels
 * whose width or height is at most 4 utiles are stored LT (seed 004; Mesa
 * vc4_resource.c). */
VC4_API enum vc4_tex_layout vc4_tex_level_layout(unsigned bpp, unsigned width, unsigned height);

/*
 * Geometry of one image of a texture format.  Like vc4_tex_geom_init with
 * the format's bit depth, except for ETC1: the TMU tiles ETC1 as a 64 bpp
 * image of 4x4-pixel blocks (8 bytes each; Mesa vc4_resource.c, kernel
 * vc4_validate.c), so for ETC1 *g has bpp 64 and its width, height and
 * padded_* count blocks (width = ceil(pixels / 4)).  width and height are
 * pixels, at most 2048.  False (and *g untouched) for an unknown format, a
 * bad size, or a layout the TMU does not read the format in: RGBA32R and
 * YUYV422R are raster only, every other format is T or LT only.
 */
VC4_API bool vc4_tex_geom_init_format(struct vc4_tex_geom *g, enum vc4_tex_format format,
                                      enum vc4_tex_layout layout, unsigned width, unsigned height);

/* Pixels per addressed element of a format, per side: 4 for ETC1 (4x4
 * blocks), 1 for every other format. */
VC4_API unsigned vc4_tex_format_block_dim(enum vc4_tex_format format);

/* The bit depth a format is laid out with: 64 for ETC1 (its blocks), the
 * format's bpp otherwise; 0 for an unknown format. */
VC4_API unsigned vc4_tex_format_layout_bpp(enum vc4_tex_format format);

/* ---- whole textures: mip levels and cube faces ---------------------------
 *
 * How the TMU finds each level (Mesa vc4_resource.c vc4_setup_slices, kernel
 * vc4_validate.c): P0's base address (4 KB aligned) is level 0 of face 0; the
 * smaller levels are stored BELOW it, level 1 immediately below level 0,
 * level 2 below level 1, and so on.  Level i > 0 is u_minify(next power of
 * two of level 0's size, i) = max(1, pot >> i) elements per side (ETC1:
 * blocks); level 0 is the size itself.  Each level is padded to 4K tiles (T,
 * 4096-byte multiples), utiles (LT, 64-byte multiples) or utile width
 * (raster), and a T texture's level is LT when vc4_tex_level_layout says so
 * (level 0 too).  Cube faces are whole mip chains one face stride apart (the
 * stride travels in P2/P3); the stride used here is Mesa's: the chain,
 * including the padding below level 0, rounded up to 4 KB.
 */
#define VC4_TEX_MAX_LEVELS 16 /* P0 MIPLVLS is 4 bits: levels - 1 */
#define VC4_TEX_MAX_FACES 6

struct vc4_tex_level {
    struct vc4_tex_geom geom; /* as vc4_tex_geom_init_format gives it (ETC1: blocks) */
    unsigned width, height;   /* pixels */
    int32_t offset;           /* bytes from the base address (level 0 of face 0); <= 0 */
};

struct vc4_tex_mip_layout {
    enum vc4_tex_format format;
    enum vc4_tex_layout layout; /* as requested */
    unsigned levels, faces;
    struct vc4_tex_level level[VC4_TEX_MAX_LEVELS];
    uint32_t base_offset; /* bytes from the start of the buffer to the base (a 4 KB multiple) */
    uint32_t face_stride; /* bytes from one face's base to the next (4 KB multiple); 0 for 1 face */
    uint32_t size;        /* bytes of the whole buffer, all faces */
    bool tmu_readable;    /* every level is in the layout the TMU derives for it (see below) */
};

/*
 * Lay out a texture of format, width x height pixels (1..2048), levels mip
 * levels (1..VC4_TEX_MAX_LEVELS) and faces faces (1, or 6 for a cube map).
 * layout VC4_TEX_T gives what the TMU reads: each level T or LT by
 * vc4_tex_level_layout; VC4_TEX_LT stores every level LT (tmu_readable is
 * false if the TMU would read one of them as T); VC4_TEX_RASTER is for the
 * raster-only formats (RGBA32R, YUYV422R), which take nothing else.  Level l
 * of face f starts at base_offset + face_stride * f + level[l].offset bytes
 * into the buffer.  Errors go to sink (unit "tex").
 */
VC4_API enum vc4_status vc4_tex_mip_layout(struct vc4_tex_mip_layout *m, enum vc4_tex_format format,
                                           enum vc4_tex_layout layout, unsigned width,
                                           unsigned height, unsigned levels, unsigned faces,
                                           const struct vc4_diag_sink *sink);

/* Where level `level` of face `face` starts in the buffer m describes. */
static inline uint32_t vc4_tex_image_offset(const struct vc4_tex_mip_layout *m, unsigned level,
                                            unsigned face)
{
    return (uint32_t)((int64_t)m->base_offset + (int64_t)m->face_stride * face +
                      m->level[level].offset);
}

/* Levels of a full mip chain down to 1 x 1 pixel for a width x height
 * texture (sides rounded up to powers of two, as the level sizes are). */
VC4_API unsigned vc4_tex_full_levels(unsigned width, unsigned height);

/* ---- texels ------------------------------------------------------------ */

/*
 * One texel as the TMU returns it from a point-sampled lookup, before the r4
 * unpack (seed 004: "data from the texture units is always returned as
 * either packed 8-bit RGBA8888 or RG1616 and BA1616 values in r4, depending
 * on the bits per channel"):
 *  - formats of at most 8 bits per channel: w[0] = R | G << 8 | B << 16 |
 *    A << 24 (the 8a..8d unpacks give R, G, B, A), w[1] = 0;
 *  - 16-bit-per-channel formats (vc4_tex_texel_is_wide()): w[0] = R | G << 16,
 *    w[1] = B | A << 16 (the second word needs a second lookup on hardware).
 * Channel conventions per format: src/tex/texel.c and docs/textures.md.
 */
struct vc4_texel {
    uint32_t w[2];
};

/* True for formats returned as two 16-bit-per-channel words. */
VC4_API bool vc4_tex_texel_is_wide(enum vc4_tex_format format);

/*
 * Decode texel (x, y) (y = 0 is the first row in memory: the TMU's t = 0)
 * of one image (one mip level / face) of geometry g that starts at image[0]
 * and has image_bytes readable bytes.  False, *out zeroed, when the format
 * or coordinates are invalid or the texel lies outside image_bytes.  Never
 * reads outside image[0 .. image_bytes).
 */
VC4_API bool vc4_tex_read_texel(enum vc4_tex_format format, const struct vc4_tex_geom *g,
                                const uint8_t *image, size_t image_bytes, unsigned x, unsigned y,
                                struct vc4_texel *out);

/*
 * The inverse for every format but ETC1 (whose texels are not independent:
 * see vc4_tex_encode_image): store texel t at (x, y), touching only its own
 * bits (bits of the element no channel covers, RGBX8888's X, are 0).  t holds what vc4_tex_read_texel returns; channels the format does
 * not store are ignored, and where a format stores one value in several
 * channels (LUMINANCE, LUMALPHA, BW1, S8, S16, S16F) the red channel is
 * stored.  Narrow channels are rounded to the stored width.  False when the
 * format is ETC1 or invalid or the texel lies outside image_bytes.
 */
VC4_API bool vc4_tex_write_texel(enum vc4_tex_format format, const struct vc4_tex_geom *g,
                                 uint8_t *image, size_t image_bytes, unsigned x, unsigned y,
                                 const struct vc4_texel *t);

/*
 * A texel as 8-bit RGBA (for images on the host): narrow formats give their
 * four bytes; RGBA64 and S16F convert each half float clamped to [0, 1]
 * times 255, rounded; S16 takes the top byte of each 16-bit value, rounded.
 */
VC4_API void vc4_tex_texel_to_rgba8(enum vc4_tex_format format, const struct vc4_texel *t,
                                    uint8_t rgba[4]);
/* The inverse: 8-bit RGBA to the texel the TMU would return for the stored
 * value that is nearest (for formats that drop bits, a rounded value). */
VC4_API void vc4_tex_texel_from_rgba8(enum vc4_tex_format format, const uint8_t rgba[4],
                                      struct vc4_texel *t);

/* Decode one 8-byte ETC1 block (as stored: the OES_compressed_ETC1_RGB8_texture
 * byte order, most significant byte first) into 16 RGBA8888 words, [y * 4 + x]
 * with y = 0 the block's first row in memory. */
VC4_API void vc4_tex_etc1_decode_block(const uint8_t block[8], uint32_t rgba[16]);

/* Encode 16 RGBA8888 words ([y * 4 + x], alpha ignored) as one ETC1 block:
 * for both sub-block splits and both colour modes, the sub-block average as
 * base colour and, per table, each pixel's nearest modifier; the smallest
 * squared RGB error wins (ties: the first tried).  Deterministic. */
VC4_API void vc4_tex_etc1_encode_block(const uint32_t rgba[16], uint8_t block[8]);

/* ---- whole images ---------------------------------------------------------
 *
 * Host images are 8-bit RGBA, row 0 at the top as PNG stores them, stride
 * bytes per row.  Texture row 0 is the first row in memory, the TMU's t = 0
 * (seed 004: images start at the lower left, so t = 0 is the bottom of the
 * picture when it is shown the way GL shows textures).  flip_y false stores
 * host row 0 as texture row 0 (what GL's glTexImage2D does with a top-down
 * image: the picture appears upside down unless t is flipped); flip_y true
 * stores host row 0 as the last texture row, so a shader sampling t = 1 at
 * the top shows the picture upright.
 */

/*
 * Encode a width x height host image into one image of geometry g (one level
 * / face, as vc4_tex_geom_init_format gives it for the format) at dst,
 * dst_bytes >= g->size.  The whole padded image is written: padding is 0,
 * except that ETC1 blocks are completed by repeating the edge pixels.
 * Texels go through vc4_tex_texel_from_rgba8.  width and height may be
 * smaller than g's (pixels beyond them are padding), not larger.
 */
VC4_API enum vc4_status vc4_tex_encode_image(enum vc4_tex_format format, const struct vc4_tex_geom *g,
                                             uint8_t *dst, size_t dst_bytes, const uint8_t *rgba,
                                             size_t stride, unsigned width, unsigned height,
                                             bool flip_y, const struct vc4_diag_sink *sink);

/* The inverse: texels (vc4_tex_texel_to_rgba8) of the width x height image
 * of geometry g at src into the host image. */
VC4_API enum vc4_status vc4_tex_decode_image(enum vc4_tex_format format, const struct vc4_tex_geom *g,
                                             const uint8_t *src, size_t src_bytes, uint8_t *rgba,
                                             size_t stride, unsigned width, unsigned height,
                                             bool flip_y, const struct vc4_diag_sink *sink);

/*
 * Encode a whole texture laid out by m into dst (dst_bytes >= m->size, the
 * buffer vc4_tex_mip_layout describes; bytes no level covers are 0).  faces[f]
 * is face f's host image, m->level[0].width x height pixels.  Level 0 is the
 * image; each further level is the previous one (as 8-bit RGBA, before
 * encoding) reduced by a 2x2 box filter (average rounded half up; at odd
 * sizes the last column/row is clamped to the edge).
 */
VC4_API enum vc4_status vc4_tex_encode_texture(const struct vc4_tex_mip_layout *m, uint8_t *dst,
                                               size_t dst_bytes, const uint8_t *const *faces,
                                               size_t stride, bool flip_y,
                                               const struct vc4_diag_sink *sink);

/* Halve a host image with the box filter above: dst is max(1, w / 2) x
 * max(1, h / 2) pixels, tightly packed (stride 4 * width). */
VC4_API void vc4_tex_box_halve(const uint8_t *src, size_t src_stride, unsigned w, unsigned h,
                               uint8_t *dst);

/* ---- texture config parameters ---------------------------------------------
 *
 * The uniforms a shader's TMU writes pull (seed 004; Mesa vc4_packet.h):
 *
 *   P0  31            12 11  10  9    8     7    4 3      0
 *      | BASE (4 KiB)   |CSWIZ |CMMD|FLIPY|TYPE3:0|MIPLVLS |
 *   P1  31   30     20 19      18     8  7      6    4 3   2 1   0
 *      |TYPE4| HEIGHT |ETCFLIP| WIDTH  |MAGFLT|MINFILT|WRAPT|WRAPS|
 *   P2  31 30 = 1 (cube map stride) | 29:12 stride (4 KiB units) | 0 BSLOD
 *
 * Width and height 2048 are written as 0.  Mesa sets ETCFLIP for every
 * ETC1 texture: the TMU then reads blocks in the GL byte/row order that
 * vc4_tex_read_texel decodes (see vc4_tex_etc1_row for ETCFLIP clear).
 */
struct vc4_tex_config {
    uint32_t base;              /* bus address of level 0 of face 0, 4 KB aligned */
    enum vc4_tex_format format;
    unsigned width, height;     /* level 0, pixels, 1..2048 */
    unsigned levels;            /* 1..16 */
    bool cube;                  /* six faces cube_stride apart (P2 is emitted) */
    bool flip_y, etc_flip;
    bool mag_nearest;           /* magnification: nearest, else bilinear */
    unsigned min_filter;        /* 0 linear, 1 nearest, 2 near-mip-near, 3 near-mip-lin,
                                   4 lin-mip-near, 5 lin-mip-lin */
    unsigned wrap_s, wrap_t;    /* 0 repeat, 1 clamp, 2 mirror, 3 border */
    uint32_t cube_stride;       /* bytes, a 4 KB multiple */
};

/* The parameter words for c into words[]: P0, P1 and, for cube maps, P2.
 * Returns how many (2 or 3); 0, with a diagnostic, for a value that does not
 * fit its field. */
VC4_API unsigned vc4_tex_config_words(const struct vc4_tex_config *c, uint32_t words[3],
                                      const struct vc4_diag_sink *sink);

/* The row of an ETC1 texture the TMU reads for row y: y itself with ETCFLIP
 * set (Mesa's setting); with ETCFLIP clear, UNVERIFIED, the rows inside each
 * 4x4 block in the opposite order. */
static inline unsigned vc4_tex_etc1_row(unsigned y, bool etc_flip)
{
    return etc_flip ? y : (y & ~3u) | (3u - (y & 3u));
}

/* ---- PNG ------------------------------------------------------------- */

/*
 * 8-bit RGBA images in memory, row 0 at the top as PNG stores it.  These do
 * host file I/O (they are for tools and tests); errors go to the sink.
 */
VC4_API enum vc4_status vc4_png_write(const char *path, const uint8_t *rgba, unsigned width,
                                      unsigned height, size_t stride,
                                      const struct vc4_diag_sink *sink);
/* Reads any PNG as 8-bit RGBA; *rgba is allocated with malloc. */
VC4_API enum vc4_status vc4_png_read(const char *path, uint8_t **rgba, unsigned *width,
                                     unsigned *height, const struct vc4_diag_sink *sink);

#ifdef __cplusplus
}
#endif
#endif
