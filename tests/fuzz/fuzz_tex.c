/*
 * fuzz_tex.c - random formats, layouts, sizes and bytes through the texture
 * library: texel decode/encode, whole-image conversion, mip layouts and the
 * config words.  Nothing may crash or read outside the given bytes, and a
 * few invariants must hold (a texel written reads back as written; a layout
 * that succeeds places every level inside the buffer it sizes).
 *
 * Input: byte 0 format (values past the last format included), byte 1
 * layout, bytes 2-3 and 4-5 width and height (little-endian, up to 4095),
 * byte 6 levels and faces, byte 7 flags; the rest is the image bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vc4kit/tex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int cond)
{
    if (!cond)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8)
        return 0;
    enum vc4_tex_format format = (enum vc4_tex_format)(data[0] % (VC4_TEX_FORMAT_COUNT + 2));
    enum vc4_tex_layout layout = (enum vc4_tex_layout)(data[1] % 4);
    unsigned w = (unsigned)(data[2] | data[3] << 8) & 0xFFF, h = (unsigned)(data[4] | data[5] << 8) & 0xFFF;
    unsigned levels = data[6] & 31, faces = (data[6] >> 5) & 1 ? 6 : 1;
    bool flip = data[7] & 1;
    const uint8_t *img = data + 8;
    size_t n = size - 8;

    /* the whole-texture layout: any parameters, never a crash */
    struct vc4_tex_mip_layout m;
    if (vc4_tex_mip_layout(&m, format, layout, w, h, levels, faces, NULL) == VC4_OK) {
        check(m.base_offset % 4096 == 0);
        for (unsigned l = 0; l < m.levels; l++) {
            int64_t at = (int64_t)m.base_offset + m.level[l].offset;
            check(at >= 0 && (uint64_t)at + m.level[l].geom.size <= m.size);
            for (unsigned f = 0; f < m.faces; f++)
                check((uint64_t)vc4_tex_image_offset(&m, l, f) + m.level[l].geom.size <= m.size);
        }
        /* small textures: the whole mip chain from a picture made of the bytes */
        if ((uint64_t)w * h <= 4096 && m.size <= (1u << 20) && (size_t)w * h * 4 <= size - 8) {
            uint8_t *tex = malloc(m.size);
            const uint8_t *faces6[6] = {img, img, img, img, img, img};
            if (tex)
                check(vc4_tex_encode_texture(&m, tex, m.size, faces6, (size_t)w * 4, flip, NULL) == VC4_OK);
            free(tex);
        }
    }
    struct vc4_tex_config c = {.base = (uint32_t)w << 12, .format = format, .width = w, .height = h,
                               .levels = levels, .cube = faces > 1, .min_filter = data[7] >> 5,
                               .wrap_s = (data[7] >> 1) & 3, .wrap_t = (data[7] >> 3) & 3,
                               .cube_stride = (uint32_t)h << 12};
    uint32_t words[3];
    vc4_tex_config_words(&c, words, NULL);

    /* one image of the format, decoded from the bytes given (often too few) */
    struct vc4_tex_geom g;
    if (!vc4_tex_geom_init_format(&g, format, layout, w ? w : 1, h ? h : 1)) {
        /* the generic geometry with a random depth, read as the format */
        if (!vc4_tex_geom_init(&g, layout, data[1] >> 2, w, h))
            return 0;
    }
    unsigned bd = vc4_tex_format_block_dim(format);
    struct vc4_texel t;
    for (size_t i = 0; i + 3 < n && i < 64; i += 4) {
        unsigned x = (unsigned)(img[i] | img[i + 1] << 8) % (g.padded_w * bd + 2);
        unsigned y = (unsigned)(img[i + 2] | img[i + 3] << 8) % (g.padded_h * bd + 2);
        if (vc4_tex_read_texel(format, &g, img, n, x, y, &t)) {
            uint8_t *copy = malloc(n);
            if (!copy)
                return 0;
            memcpy(copy, img, n);
            if (vc4_tex_write_texel(format, &g, copy, n, x, y, &t)) {
                struct vc4_texel back;
                check(vc4_tex_read_texel(format, &g, copy, n, x, y, &back));
                check(back.w[0] == t.w[0] && back.w[1] == t.w[1]);
            }
            free(copy);
            uint8_t rgba[4];
            vc4_tex_texel_to_rgba8(format, &t, rgba);
            vc4_tex_texel_from_rgba8(format, rgba, &t);
        }
    }
    /* whole images both ways, for pictures of a sensible size */
    unsigned pw = w ? w : 1, ph = h ? h : 1;
    if ((uint64_t)pw * ph <= 1u << 16) {
        uint8_t *pic = malloc((size_t)pw * ph * 4);
        if (!pic)
            return 0;
        if (vc4_tex_decode_image(format, &g, img, n, pic, (size_t)pw * 4, pw, ph, flip, NULL) == VC4_OK) {
            uint8_t *tex = malloc(g.size);
            if (tex)
                vc4_tex_encode_image(format, &g, tex, g.size, pic, (size_t)pw * 4, pw, ph, flip, NULL);
            free(tex);
        }
        free(pic);
    }
    if (n >= 8 && format == VC4_TEX_ETC1) {
        uint32_t px[16];
        uint8_t block[8];
        vc4_tex_etc1_decode_block(img, px);
        vc4_tex_etc1_encode_block(px, block);
    }
    return 0;
}
