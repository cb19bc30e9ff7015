/*
 * convert.c - whole images between 8-bit RGBA host pictures and textures of
 * any format and layout, and mip-chain generation (tex.h describes the
 * row order and flip-Y).
 */
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "vc4kit/tex.h"

static const struct vc4_location no_loc = {.addr = -1, .qpu = -1, .thread = -1};

/* Checks shared by encode and decode: the geometry fits the format and the
 * picture, and the buffers are big enough. */
static enum vc4_status check_args(enum vc4_tex_format format, const struct vc4_tex_geom *g,
                                  size_t tex_bytes, const void *tex, const void *rgba, size_t stride,
                                  unsigned width, unsigned height, const struct vc4_diag_sink *sink)
{
    const struct vc4_tex_format_info *fi = vc4_tex_format_info((unsigned)format);
    if (!fi || !g || !tex || !rgba) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &no_loc,
                      "texture conversion: bad format or missing buffer");
        return VC4_ERR_INVALID;
    }
    unsigned bd = vc4_tex_format_block_dim(format);
    if (g->bpp != vc4_tex_format_layout_bpp(format) || width == 0 || height == 0 ||
        width > (uint64_t)g->width * bd || height > (uint64_t)g->height * bd ||
        stride < (size_t)width * 4) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &no_loc,
                      "a %ux%u picture (stride %zu) does not fit a %u bpp %ux%u %s image", width,
                      height, stride, g->bpp, g->width * bd, g->height * bd, fi->name);
        return VC4_ERR_INVALID;
    }
    if (tex_bytes < g->size) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &no_loc,
                      "texture buffer of %zu bytes, the image needs %u", tex_bytes, g->size);
        return VC4_ERR_RANGE;
    }
    return VC4_OK;
}

/* Host row of texture row y. */
static unsigned host_row(unsigned y, unsigned height, bool flip_y)
{
    return flip_y ? height - 1 - y : y;
}

static void encode_etc1(const struct vc4_tex_geom *g, uint8_t *dst, const uint8_t *rgba,
                        size_t stride, unsigned width, unsigned height, bool flip_y)
{
    unsigned bw = (width + 3) / 4, bh = (height + 3) / 4;
    for (unsigned by = 0; by < bh; by++)
        for (unsigned bx = 0; bx < bw; bx++) {
            uint32_t px[16];
            for (unsigned y = 0; y < 4; y++)
                for (unsigned x = 0; x < 4; x++) {
                    /* complete partial blocks with the edge pixels */
                    unsigned tx = bx * 4 + x, ty = by * 4 + y;
                    tx = tx < width ? tx : width - 1;
                    ty = ty < height ? ty : height - 1;
                    px[y * 4 + x] = vc4_le32(rgba + (size_t)host_row(ty, height, flip_y) * stride +
                                             (size_t)tx * 4);
                }
            vc4_tex_etc1_encode_block(px, dst + vc4_tex_byte_offset(g, bx, by));
        }
}

enum vc4_status vc4_tex_encode_image(enum vc4_tex_format format, const struct vc4_tex_geom *g,
                                     uint8_t *dst, size_t dst_bytes, const uint8_t *rgba,
                                     size_t stride, unsigned width, unsigned height, bool flip_y,
                                     const struct vc4_diag_sink *sink)
{
    enum vc4_status st = check_args(format, g, dst_bytes, dst, rgba, stride, width, height, sink);
    if (st != VC4_OK)
        return st;
    memset(dst, 0, g->size);
    if (format == VC4_TEX_ETC1) {
        encode_etc1(g, dst, rgba, stride, width, height, flip_y);
        return VC4_OK;
    }
    for (unsigned y = 0; y < height; y++) {
        const uint8_t *row = rgba + (size_t)host_row(y, height, flip_y) * stride;
        for (unsigned x = 0; x < width; x++) {
            struct vc4_texel t;
            vc4_tex_texel_from_rgba8(format, row + (size_t)x * 4, &t);
            vc4_tex_write_texel(format, g, dst, dst_bytes, x, y, &t);
        }
    }
    return VC4_OK;
}

enum vc4_status vc4_tex_decode_image(enum vc4_tex_format format, const struct vc4_tex_geom *g,
                                     const uint8_t *src, size_t src_bytes, uint8_t *rgba,
                                     size_t stride, unsigned width, unsigned height, bool flip_y,
                                     const struct vc4_diag_sink *sink)
{
    enum vc4_status st = check_args(format, g, src_bytes, src, rgba, stride, width, height, sink);
    if (st != VC4_OK)
        return st;
    for (unsigned y = 0; y < height; y++) {
        uint8_t *row = rgba + (size_t)host_row(y, height, flip_y) * stride;
        for (unsigned x = 0; x < width; x++) {
            struct vc4_texel t;
            vc4_tex_read_texel(format, g, src, src_bytes, x, y, &t);
            vc4_tex_texel_to_rgba8(format, &t, row + (size_t)x * 4);
        }
    }
    return VC4_OK;
}

void vc4_tex_box_halve(const uint8_t *src, size_t src_stride, unsigned w, unsigned h, uint8_t *dst)
{
    unsigned dw = w / 2 ? w / 2 : 1, dh = h / 2 ? h / 2 : 1;
    for (unsigned y = 0; y < dh; y++)
        for (unsigned x = 0; x < dw; x++) {
            unsigned x0 = 2 * x, y0 = 2 * y;
            unsigned x1 = x0 + 1 < w ? x0 + 1 : w - 1, y1 = y0 + 1 < h ? y0 + 1 : h - 1;
            const uint8_t *p[4] = {
                src + (size_t)y0 * src_stride + (size_t)x0 * 4,
                src + (size_t)y0 * src_stride + (size_t)x1 * 4,
                src + (size_t)y1 * src_stride + (size_t)x0 * 4,
                src + (size_t)y1 * src_stride + (size_t)x1 * 4,
            };
            for (unsigned c = 0; c < 4; c++)
                dst[((size_t)y * dw + x) * 4 + c] =
                    (uint8_t)((p[0][c] + p[1][c] + p[2][c] + p[3][c] + 2) / 4);
        }
}

enum vc4_status vc4_tex_encode_texture(const struct vc4_tex_mip_layout *m, uint8_t *dst,
                                       size_t dst_bytes, const uint8_t *const *faces, size_t stride,
                                       bool flip_y, const struct vc4_diag_sink *sink)
{
    if (!m || !dst || !faces || m->levels == 0 || m->levels > VC4_TEX_MAX_LEVELS || m->faces == 0 ||
        m->faces > VC4_TEX_MAX_FACES) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &no_loc,
                      "texture encoding: missing layout, buffer or pictures");
        return VC4_ERR_INVALID;
    }
    if (dst_bytes < m->size) {
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &no_loc,
                      "texture buffer of %zu bytes, the texture needs %u", dst_bytes, m->size);
        return VC4_ERR_RANGE;
    }
    memset(dst, 0, m->size);
    unsigned w0 = m->level[0].width, h0 = m->level[0].height;
    /* two scratch pictures for the chain: level l and level l + 1 */
    uint8_t *cur = malloc((size_t)w0 * h0 * 4), *next = malloc((size_t)w0 * h0 * 4);
    if (!cur || !next) {
        free(cur);
        free(next);
        vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &no_loc, "out of memory");
        return VC4_ERR_NOMEM;
    }
    enum vc4_status st = VC4_OK;
    for (unsigned f = 0; f < m->faces && st == VC4_OK; f++) {
        if (!faces[f]) {
            vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_SEMANTIC, "tex", &no_loc, "face %u has no picture", f);
            st = VC4_ERR_INVALID;
            break;
        }
        for (unsigned y = 0; y < h0; y++)
            memcpy(cur + (size_t)y * w0 * 4, faces[f] + (size_t)y * stride, (size_t)w0 * 4);
        unsigned w = w0, h = h0;
        for (unsigned l = 0; l < m->levels && st == VC4_OK; l++) {
            const struct vc4_tex_level *lv = &m->level[l];
            uint32_t at = vc4_tex_image_offset(m, l, f);
            st = vc4_tex_encode_image(m->format, &lv->geom, dst + at, dst_bytes - at, cur,
                                      (size_t)w * 4, w, h, flip_y, sink);
            vc4_tex_box_halve(cur, (size_t)w * 4, w, h, next);
            uint8_t *tmp = cur;
            cur = next;
            next = tmp;
            w = w / 2 ? w / 2 : 1;
            h = h / 2 ? h / 2 : 1;
        }
    }
    free(cur);
    free(next);
    return st;
}
