/*
 * texel.c - one texel of every texture format: where its channels sit in
 * memory and what the TMU returns for it (decode), and the inverse (encode).
 *
 * What the TMU returns (seed 004 line 75): formats of at most 8 bits per
 * channel come back as one RGBA8888 word (R in bits 7:0, the r4 unpacks 8a..8d
 * give R, G, B, A); 16-bit-per-channel formats as two words, R | G << 16 and
 * B | A << 16 (struct vc4_texel).
 *
 * Channel placement (Mesa vc4_formats.c maps Gallium formats onto the texture
 * types with a swizzle applied to the returned RGBA; reading the swizzles
 * backwards gives which stored bits the TMU returns in which channel):
 *
 *   type        stored element (bit 0 = LSB of the little-endian element)   returned R, G, B, A
 *   RGBA8888    byte0 R, byte1 G, byte2 B, byte3 A         (R8G8B8A8 XYZW)    R G B A
 *   RGBX8888    as RGBA8888, A ignored                                        R G B 1
 *   RGBA4444    15:12 R, 11:8 G, 7:4 B, 3:0 A              (B4G4R4A4 YZWX)    R G B A
 *   RGBA5551    15:11 R, 10:6 G, 5:1 B, 0 A                (A1B5G5R5 XYZW)    R G B A
 *   RGB565      15:11 R, 10:5 G, 4:0 B                     (B5G6R5 XYZ1)      R G B 1
 *   LUMINANCE   7:0 L                                      (seed: A = 1.0)    L L L 1
 *   ALPHA       7:0 A                                      (A8 -> 0,0,0,W)    0 0 0 A
 *   LUMALPHA    byte0 L, byte1 A                           (L8A8 -> X,X,X,W)  L L L A
 *   ETC1        4x4 blocks of 8 bytes                      (ETC1 XYZ1)        R G B 1
 *   S16F        15:0 half float                                               S S S S (16-bit)
 *   S8          7:0                                                           S S S S
 *   S16         15:0                                                          S S S S (16-bit)
 *   BW1         1 bit                                                         V V V 1
 *   A4          4 bits                                                        0 0 0 A
 *   A1          1 bit                                                         0 0 0 A
 *   RGBA64      four half floats R, G, B, A (R16G16B16A16_FLOAT XYZW)         R G B A (16-bit)
 *   RGBA32R     as RGBA8888, raster                                           R G B A
 *   YUYV422R    bytes Y0 U Y1 V, raster                                       Y0 U Y1 V (raw)
 *
 * Narrower channels are widened to 8 bits by bit replication (v << 3 | v >> 2
 * for 5 bits, v * 17 for 4, v * 255 for 1), which maps 0 to 0 and the
 * maximum to 255.
 *
 * UNVERIFIED (no source found; chosen and listed in docs/textures.md):
 *  - the green/blue channels of LUMINANCE and LUMALPHA (Mesa only reads R/A;
 *    we return L as for luminance in GL), and ALPHA's zeros (seed: "RGB
 *    channels set to 0");
 *  - S8, S16, S16F (OpenVG "sample" formats Mesa never uses): the value is
 *    replicated in all four channels;
 *  - BW1/A1/A4 bit order: LSB first, pixel x of a byte at bit x % (8 / bpp)
 *    times bpp (the first pixel in the lowest bits, as for every wider format
 *    on this little-endian machine); BW1 returns white for 1;
 *  - YUYV422R is returned raw, one 32-bit word Y0 U Y1 V per texel (the
 *    table's 32 bpp), without conversion to RGB;
 *  - ETC1's alpha is returned as 255; a differential colour whose sum leaves
 *    5 bits wraps (the ETC1 spec leaves it undefined);
 *  - the widening by bit replication.
 */
#include <assert.h>
#include <string.h>

#include "base/base.h"
#include "spec/half.h"
#include "tex/etc1.h"
#include "tex/texel.h"
#include "vc4kit/tex.h"

enum kind { NARROW, WIDE, ETC1 };
enum { ZERO = 0, ONE = 1 };

/* One returned channel: bits [shift, shift + bits) of the element, or the
 * constant konst (0 or the maximum) when bits == 0. */
struct chan {
    uint8_t shift, bits, konst;
};

struct texel_desc {
    enum kind kind;
    struct chan ch[4]; /* R, G, B, A */
    /* fast path: the returned word is the 32-bit element itself, OR set
     * (the formats stored as bytes R, G, B, A); the channels above agree */
    bool direct;
    uint32_t set;
};

#define F(s, b) {.shift = s, .bits = b}
#define K(v) {.konst = v}
#define NARROW4(r, g, b, a) {.kind = NARROW, .ch = {r, g, b, a}}
#define WIDE4(r, g, b, a) {.kind = WIDE, .ch = {r, g, b, a}}

static const struct texel_desc descs[VC4_TEX_FORMAT_COUNT] = {
    [VC4_TEX_RGBA8888] = {.kind = NARROW, .ch = {F(0, 8), F(8, 8), F(16, 8), F(24, 8)}, .direct = true},
    [VC4_TEX_RGBX8888] = {.kind = NARROW, .ch = {F(0, 8), F(8, 8), F(16, 8), K(ONE)}, .direct = true,
                          .set = 0xFF000000u},
    [VC4_TEX_RGBA4444] = NARROW4(F(12, 4), F(8, 4), F(4, 4), F(0, 4)),
    [VC4_TEX_RGBA5551] = NARROW4(F(11, 5), F(6, 5), F(1, 5), F(0, 1)),
    [VC4_TEX_RGB565] = NARROW4(F(11, 5), F(5, 6), F(0, 5), K(ONE)),
    [VC4_TEX_LUMINANCE] = NARROW4(F(0, 8), F(0, 8), F(0, 8), K(ONE)),
    [VC4_TEX_ALPHA] = NARROW4(K(ZERO), K(ZERO), K(ZERO), F(0, 8)),
    [VC4_TEX_LUMALPHA] = NARROW4(F(0, 8), F(0, 8), F(0, 8), F(8, 8)),
    [VC4_TEX_ETC1] = {.kind = ETC1},
    [VC4_TEX_S16F] = WIDE4(F(0, 16), F(0, 16), F(0, 16), F(0, 16)),
    [VC4_TEX_S8] = NARROW4(F(0, 8), F(0, 8), F(0, 8), F(0, 8)),
    [VC4_TEX_S16] = WIDE4(F(0, 16), F(0, 16), F(0, 16), F(0, 16)),
    [VC4_TEX_BW1] = NARROW4(F(0, 1), F(0, 1), F(0, 1), K(ONE)),
    [VC4_TEX_A4] = NARROW4(K(ZERO), K(ZERO), K(ZERO), F(0, 4)),
    [VC4_TEX_A1] = NARROW4(K(ZERO), K(ZERO), K(ZERO), F(0, 1)),
    [VC4_TEX_RGBA64] = WIDE4(F(0, 16), F(16, 16), F(32, 16), F(48, 16)),
    [VC4_TEX_RGBA32R] = {.kind = NARROW, .ch = {F(0, 8), F(8, 8), F(16, 8), F(24, 8)}, .direct = true},
    [VC4_TEX_YUYV422R] = {.kind = NARROW, .ch = {F(0, 8), F(8, 8), F(16, 8), F(24, 8)}, .direct = true},
};
static_assert(VC4_ARRAY_SIZE(descs) == VC4_TEX_FORMAT_COUNT, "one entry per format");

bool vc4_tex_texel_is_wide(enum vc4_tex_format format)
{
    return (unsigned)format < VC4_TEX_FORMAT_COUNT && descs[format].kind == WIDE;
}

/* 8-bit value to n bits, rounded to nearest (the inverse of vc4_tex_widen8). */
static uint32_t narrow8(uint32_t c, unsigned n)
{
    uint32_t max = (1u << n) - 1;
    return (c * max + 127) / 255;
}

static uint32_t chan_max(const struct texel_desc *d) { return d->kind == WIDE ? 0xFFFF : 0xFF; }

/* The returned texel for a stored element. */
static void unpack(const struct texel_desc *d, uint64_t raw, struct vc4_texel *out)
{
    uint32_t c[4];
    for (unsigned i = 0; i < 4; i++) {
        const struct chan *ch = &d->ch[i];
        if (ch->bits == 0) {
            c[i] = ch->konst ? chan_max(d) : 0;
            continue;
        }
        uint32_t v = (uint32_t)(raw >> ch->shift) & ((1u << ch->bits) - 1);
        c[i] = d->kind == WIDE ? v : vc4_tex_widen8(v, ch->bits);
    }
    if (d->kind == WIDE) {
        out->w[0] = c[0] | c[1] << 16;
        out->w[1] = c[2] | c[3] << 16;
    } else {
        out->w[0] = c[0] | c[1] << 8 | c[2] << 16 | c[3] << 24;
        out->w[1] = 0;
    }
}

static uint32_t texel_chan(const struct texel_desc *d, const struct vc4_texel *t, unsigned i)
{
    if (d->kind == WIDE)
        return (t->w[i / 2] >> (16 * (i % 2))) & 0xFFFF;
    return (t->w[0] >> (8 * i)) & 0xFF;
}

/* The stored element for a texel; bits of raw no channel covers stay. */
static uint64_t pack(const struct texel_desc *d, const struct vc4_texel *t, uint64_t raw)
{
    /* channels from A down to R, so that where several channels share one
     * field the red channel is the one stored */
    for (int i = 3; i >= 0; i--) {
        const struct chan *ch = &d->ch[i];
        if (ch->bits == 0)
            continue;
        uint32_t v = texel_chan(d, t, (unsigned)i);
        if (d->kind != WIDE)
            v = narrow8(v, ch->bits);
        uint64_t mask = ((1ull << ch->bits) - 1) << ch->shift;
        raw = (raw & ~mask) | ((uint64_t)v << ch->shift & mask);
    }
    return raw;
}

/* ---- texel access ---------------------------------------------------------- */

/* Where element (x, y) is: its first byte, its byte count and the bit shift
 * inside the first byte; false when outside the image or the buffer. */
static bool locate(enum vc4_tex_format format, const struct vc4_tex_geom *g, size_t image_bytes,
                   unsigned x, unsigned y, uint32_t *byte, unsigned *nbytes, unsigned *shift)
{
    if ((unsigned)format >= VC4_TEX_FORMAT_COUNT || !g ||
        g->bpp != vc4_tex_format_layout_bpp(format))
        return false;
    if (format == VC4_TEX_ETC1) {
        x /= 4; /* 4x4-pixel blocks */
        y /= 4;
    }
    if (x >= g->padded_w || y >= g->padded_h)
        return false;
    uint64_t bit = vc4_tex_bit_offset(g, x, y);
    *byte = (uint32_t)(bit >> 3);
    *shift = (unsigned)(bit & 7);
    *nbytes = g->bpp < 8 ? 1 : g->bpp / 8;
    return *byte < image_bytes && image_bytes - *byte >= *nbytes;
}

static uint64_t load(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

bool vc4_tex_texel_direct(enum vc4_tex_format format, uint32_t *set)
{
    if ((unsigned)format >= VC4_TEX_FORMAT_COUNT || !descs[format].direct)
        return false;
    *set = descs[format].set;
    return true;
}

bool vc4_tex_read_texel_at(enum vc4_tex_format format, unsigned bpp, const uint8_t *image,
                           size_t image_bytes, uint64_t bit, unsigned x, unsigned y,
                           struct vc4_texel *out)
{
    uint64_t byte = bit >> 3;
    unsigned n = bpp < 8 ? 1 : bpp / 8;
    const struct texel_desc *d = &descs[format];
    if (d->direct && byte + 4 <= image_bytes) { /* (the commonest formats first) */
        out->w[0] = vc4_le32(image + byte) | d->set;
        out->w[1] = 0;
        return true;
    }
    memset(out, 0, sizeof *out);
    if (byte >= image_bytes || image_bytes - byte < n)
        return false;
    if (d->kind == ETC1) {
        out->w[0] = vc4_etc1_texel(image + byte, x % 4, y % 4);
        return true;
    }
    uint64_t raw = load(image + byte, n);
    if (bpp < 8)
        raw = (raw >> (bit & 7)) & ((1u << bpp) - 1);
    unpack(d, raw, out);
    return true;
}

bool vc4_tex_read_texel(enum vc4_tex_format format, const struct vc4_tex_geom *g,
                        const uint8_t *image, size_t image_bytes, unsigned x, unsigned y,
                        struct vc4_texel *out)
{
    uint32_t byte;
    unsigned n, shift;
    if (!image || !locate(format, g, image_bytes, x, y, &byte, &n, &shift)) {
        memset(out, 0, sizeof *out);
        return false;
    }
    return vc4_tex_read_texel_at(format, g->bpp, image, image_bytes, (uint64_t)byte << 3 | shift, x, y, out);
}

bool vc4_tex_write_texel(enum vc4_tex_format format, const struct vc4_tex_geom *g,
                         uint8_t *image, size_t image_bytes, unsigned x, unsigned y,
                         const struct vc4_texel *t)
{
    uint32_t byte;
    unsigned n, shift;
    if (!image || !t || !locate(format, g, image_bytes, x, y, &byte, &n, &shift) ||
        descs[format].kind == ETC1)
        return false;
    uint8_t *p = image + byte;
    if (g->bpp < 8) {
        uint32_t mask = ((1u << g->bpp) - 1) << shift;
        uint32_t v = (uint32_t)pack(&descs[format], t, 0) << shift;
        *p = (uint8_t)((*p & ~mask) | (v & mask));
        return true;
    }
    uint64_t raw = pack(&descs[format], t, 0);
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(raw >> (8 * i));
    return true;
}

/* ---- host 8-bit RGBA ------------------------------------------------------- */

static bool is_half(enum vc4_tex_format f) { return f == VC4_TEX_RGBA64 || f == VC4_TEX_S16F; }

static uint8_t half_to_u8(uint32_t h)
{
    float f = vc4_u2f(vc4_half_to_float((uint16_t)h));
    if (!(f > 0.0f)) /* negative, zero, NaN */
        return 0;
    if (f >= 1.0f)
        return 255;
    return (uint8_t)(f * 255.0f + 0.5f);
}

void vc4_tex_texel_to_rgba8(enum vc4_tex_format format, const struct vc4_texel *t,
                            uint8_t rgba[4])
{
    if (!vc4_tex_texel_is_wide(format)) {
        for (unsigned i = 0; i < 4; i++)
            rgba[i] = (uint8_t)(t->w[0] >> (8 * i));
        return;
    }
    for (unsigned i = 0; i < 4; i++) {
        uint32_t v = (t->w[i / 2] >> (16 * (i % 2))) & 0xFFFF;
        rgba[i] = is_half(format) ? half_to_u8(v) : (uint8_t)((v * 255u + 32767u) / 65535u);
    }
}

static bool same_field(const struct chan *a, const struct chan *b)
{
    return a->bits == b->bits && a->shift == b->shift;
}

/* Rec. 601 luma, exact for grey (77 + 150 + 29 = 256). */
static uint8_t luma(const uint8_t rgba[4])
{
    return (uint8_t)((77u * rgba[0] + 150u * rgba[1] + 29u * rgba[2] + 128u) >> 8);
}

void vc4_tex_texel_from_rgba8(enum vc4_tex_format format, const uint8_t rgba[4],
                              struct vc4_texel *t)
{
    memset(t, 0, sizeof *t);
    if ((unsigned)format >= VC4_TEX_FORMAT_COUNT)
        return;
    const struct texel_desc *d = &descs[format];
    uint8_t c[4] = {rgba[0], rgba[1], rgba[2], rgba[3]};
    /* formats that store one luminance for R, G and B take the luma */
    if (d->kind == NARROW && d->ch[0].bits && same_field(&d->ch[0], &d->ch[1]) &&
        !same_field(&d->ch[0], &d->ch[3]))
        c[0] = luma(rgba);
    if (d->kind == ETC1) {
        t->w[0] = c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | 0xFF000000u;
        return;
    }
    struct vc4_texel in = {{0, 0}};
    for (unsigned i = 0; i < 4; i++) {
        uint32_t v = c[i];
        if (d->kind == WIDE) {
            v = is_half(format) ? vc4_float_to_half(vc4_f2u((float)c[i] / 255.0f)) : c[i] * 257u;
            in.w[i / 2] |= v << (16 * (i % 2));
        } else {
            in.w[0] |= v << (8 * i);
        }
    }
    unpack(d, pack(d, &in, 0), t);
}
