/*
 * etc1.h - ETC1 blocks inside the texture library (etc1.c), and the bit
 * widening the texel formats and ETC1 share.
 */
#ifndef VC4_TEX_ETC1_H
#define VC4_TEX_ETC1_H

#include <stdint.h>

/* n-bit value (1 <= n <= 8) widened to 8 bits by repeating its bits from the
 * top: v << 3 | v >> 2 for 5 bits, v * 17 for 4, v * 255 for 1. */
static inline uint32_t vc4_tex_widen8(uint32_t v, unsigned n)
{
    if (n == 8)
        return v & 0xFF;
    uint32_t r = 0;
    for (int s = 8 - (int)n; s > -(int)n; s -= (int)n)
        r |= s >= 0 ? v << s : v >> -s;
    return r & 0xFF;
}

/* RGBA8888 word of pixel (x, y) (0..3, y = 0 the first row) of an 8-byte block. */
uint32_t vc4_etc1_texel(const uint8_t block[8], unsigned x, unsigned y);

#endif
