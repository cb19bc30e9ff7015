/*
 * etc1.c - ETC1 blocks (OES_compressed_ETC1_RGB8_texture): the decoder the
 * TMU model and the tools use, and a small deterministic encoder.
 */
#include <stdbool.h>
#include <string.h>

#include "base/base.h"
#include "tex/etc1.h"
#include "vc4kit/tex.h"

/* ---- ETC1 (OES_compressed_ETC1_RGB8_texture) ------------------------------
 *
 * A block is a 64-bit big-endian word (byte 0 = bits 63:56):
 *   63:32  colours: individual mode (bit 33 = 0) R1 63:60 R2 59:56 G1 55:52
 *          G2 51:48 B1 47:44 B2 43:40 (4 bits each, widened x17);
 *          differential mode (bit 33 = 1) R 63:59 dR 58:56 G 55:51 dG 50:48
 *          B 47:43 dB 42:40 (5-bit base + 3-bit signed delta for sub-block 2,
 *          widened by bit replication);
 *          39:37 table code of sub-block 1, 36:34 of sub-block 2, 33 diff,
 *          32 flip (0: sub-blocks 2x4 side by side, 1: 4x2 one above the other)
 *   31:16  the most significant bit of each pixel's 2-bit index,
 *   15:0   the least significant bit; pixel (x, y) is bit x * 4 + y.
 * Index 0..3 selects +a, +b, -a, -b of the table row; the colour is clamped.
 * Mesa uploads GL's ETC1 data to the TMU unchanged (only tiled as 64-bit
 * elements), so the TMU reads this byte order.
 */
enum {
    ETC1_DIFF_BIT = 33,
    ETC1_FLIP_BIT = 32,
    ETC1_TABLE1_SHIFT = 37,
    ETC1_TABLE2_SHIFT = 34,
    ETC1_MSB_SHIFT = 16,
};

static const int16_t etc1_modifiers[8][2] = {
    {2, 8}, {5, 17}, {9, 29}, {13, 42}, {18, 60}, {24, 80}, {33, 106}, {47, 183},
};

/* Colour channel c (0 R, 1 G, 2 B) of sub-block s, widened to 8 bits. */
static int etc1_base(uint64_t b, unsigned c, unsigned s)
{
    unsigned hi = 63 - 8 * c; /* top bit of this channel's byte */
    if (vc4_bits(b, ETC1_DIFF_BIT, 1)) {
        uint32_t base = vc4_bits(b, hi - 4, 5);
        if (s) {
            int32_t d = (int32_t)vc4_bits(b, hi - 7, 3);
            d -= (d & 4) << 1; /* sign-extend 3 bits */
            base = (uint32_t)((int32_t)base + d) & 31; /* UNVERIFIED: wraps */
        }
        return (int)vc4_tex_widen8(base, 5);
    }
    return (int)(vc4_bits(b, s ? hi - 7 : hi - 3, 4) * 17);
}

uint32_t vc4_etc1_texel(const uint8_t block[8], unsigned x, unsigned y)
{
    uint64_t b = 0;
    for (unsigned i = 0; i < 8; i++)
        b = b << 8 | block[i];
    unsigned s = vc4_bits(b, ETC1_FLIP_BIT, 1) ? (y >= 2) : (x >= 2);
    unsigned table = vc4_bits(b, s ? ETC1_TABLE2_SHIFT : ETC1_TABLE1_SHIFT, 3);
    unsigned bit = x * 4 + y;
    unsigned idx = vc4_bits(b, ETC1_MSB_SHIFT + bit, 1) << 1 | vc4_bits(b, bit, 1);
    int mod = etc1_modifiers[table][idx & 1];
    if (idx & 2)
        mod = -mod;
    uint32_t rgba = 0xFF000000u; /* UNVERIFIED: alpha 1.0 */
    for (unsigned c = 0; c < 3; c++) {
        int v = etc1_base(b, c, s) + mod;
        v = v < 0 ? 0 : v > 255 ? 255 : v;
        rgba |= (uint32_t)v << (8 * c);
    }
    return rgba;
}

void vc4_tex_etc1_decode_block(const uint8_t block[8], uint32_t rgba[16])
{
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++)
            rgba[y * 4 + x] = vc4_etc1_texel(block, x, y);
}


/* ---- encoder ----------------------------------------------------------------
 *
 * For each split (flip 0: left/right 2x4 halves, flip 1: top/bottom 4x2) and
 * each mode (individual 4-bit colours, differential 5-bit colours with a
 * 3-bit signed delta), the base colour of a sub-block is its average,
 * quantised; each of the 8 tables is tried with each pixel taking its
 * nearest modifier.  The block with the smallest squared RGB error wins.
 */
struct sub_fit {
    uint32_t err;
    unsigned table;
    uint8_t idx[8]; /* per pixel of the sub-block, in sub_pixels order */
};

/* The 8 pixels (x, y) of sub-block s under a split. */
static void sub_pixels(unsigned flip, unsigned s, unsigned xy[8][2])
{
    unsigned n = 0;
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++)
            if ((flip ? (y >= 2) : (x >= 2)) == (s == 1)) {
                xy[n][0] = x;
                xy[n][1] = y;
                n++;
            }
}

static int chan_of(uint32_t rgba, unsigned c) { return (int)((rgba >> (8 * c)) & 0xFF); }

static int clamp255(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }

/* Best table and indices for 8 pixels around an 8-bit base colour. */
static struct sub_fit fit_sub(const uint32_t px[8], const int base[3])
{
    struct sub_fit best = {.err = UINT32_MAX};
    int p[8][3];
    for (unsigned i = 0; i < 8; i++)
        for (unsigned c = 0; c < 3; c++)
            p[i][c] = chan_of(px[i], c);
    for (unsigned t = 0; t < 8; t++) {
        int cand[4][3]; /* the four colours this table offers, clamped */
        for (unsigned idx = 0; idx < 4; idx++) {
            int mod = etc1_modifiers[t][idx & 1] * ((idx & 2) ? -1 : 1);
            for (unsigned c = 0; c < 3; c++)
                cand[idx][c] = clamp255(base[c] + mod);
        }
        struct sub_fit f = {.err = 0, .table = t};
        for (unsigned i = 0; i < 8 && f.err < best.err; i++) {
            uint32_t be = UINT32_MAX;
            for (unsigned idx = 0; idx < 4; idx++) {
                int d0 = cand[idx][0] - p[i][0], d1 = cand[idx][1] - p[i][1], d2 = cand[idx][2] - p[i][2];
                uint32_t e = (uint32_t)(d0 * d0 + d1 * d1 + d2 * d2);
                if (e < be) {
                    be = e;
                    f.idx[i] = (uint8_t)idx;
                }
            }
            f.err += be;
        }
        if (f.err < best.err)
            best = f;
    }
    return best;
}

static void average(const uint32_t px[8], int avg[3])
{
    for (unsigned c = 0; c < 3; c++) {
        int sum = 0;
        for (unsigned i = 0; i < 8; i++)
            sum += chan_of(px[i], c);
        avg[c] = (sum + 4) / 8;
    }
}

static int quant(int v, unsigned bits)
{
    int max = (1 << bits) - 1;
    return (v * max + 127) / 255;
}

void vc4_tex_etc1_encode_block(const uint32_t rgba[16], uint8_t block[8])
{
    uint64_t best_bits = 0;
    uint32_t best_err = UINT32_MAX;
    for (unsigned flip = 0; flip < 2; flip++) {
        unsigned xy[2][8][2];
        uint32_t px[2][8];
        int avg[2][3];
        for (unsigned s = 0; s < 2; s++) {
            sub_pixels(flip, s, xy[s]);
            for (unsigned i = 0; i < 8; i++)
                px[s][i] = rgba[xy[s][i][1] * 4 + xy[s][i][0]];
            average(px[s], avg[s]);
        }
        for (unsigned diff = 0; diff < 2; diff++) {
            /* base colours: each sub-block's quantised average, then one
             * step darker and one brighter on all channels (the modifiers
             * are symmetric, the error is not); differential deltas are
             * clamped to their 3 bits */
            unsigned bits = diff ? 5 : 4;
            int qmax = (1 << bits) - 1;
            struct sub_fit f[2] = {{.err = UINT32_MAX}, {.err = UINT32_MAX}};
            int q[2][3] = {{0}};
            for (int d0 = -1; d0 <= 1; d0++) {
                int q0[3], b0[3];
                for (unsigned c = 0; c < 3; c++) {
                    q0[c] = quant(avg[0][c], bits) + d0;
                    q0[c] = q0[c] < 0 ? 0 : q0[c] > qmax ? qmax : q0[c];
                    b0[c] = (int)vc4_tex_widen8((uint32_t)q0[c], bits);
                }
                struct sub_fit f0 = fit_sub(px[0], b0);
                /* individual mode: the second sub-block does not depend on
                 * the first, so it is fitted once (d0 == -1) */
                for (int d1 = -1; d1 <= 1 && (diff || d0 == -1); d1++) {
                    if (diff && d0 && d1)
                        continue; /* differential: vary one sub-block at a time */
                    int q1[3], b1[3];
                    for (unsigned c = 0; c < 3; c++) {
                        q1[c] = quant(avg[1][c], bits) + d1;
                        int lo = diff ? q0[c] - 4 : 0, hi = diff ? q0[c] + 3 : qmax;
                        lo = lo < 0 ? 0 : lo;
                        hi = hi > qmax ? qmax : hi;
                        q1[c] = q1[c] < lo ? lo : q1[c] > hi ? hi : q1[c];
                        b1[c] = (int)vc4_tex_widen8((uint32_t)q1[c], bits);
                    }
                    struct sub_fit f1 = fit_sub(px[1], b1);
                    bool better = diff ? (uint64_t)f0.err + f1.err < (uint64_t)f[0].err + f[1].err
                                       : f1.err < f[1].err;
                    if (better) {
                        f[1] = f1;
                        memcpy(q[1], q1, sizeof q1);
                        if (diff) {
                            f[0] = f0;
                            memcpy(q[0], q0, sizeof q0);
                        }
                    }
                }
                if (!diff && f0.err < f[0].err) {
                    f[0] = f0;
                    memcpy(q[0], q0, sizeof q0);
                }
            }
            if (diff)
                for (unsigned c = 0; c < 3; c++)
                    q[1][c] -= q[0][c]; /* stored as the delta */
            uint32_t err = f[0].err + f[1].err;
            if (err >= best_err)
                continue;
            best_err = err;
            uint64_t b = 0;
            for (unsigned c = 0; c < 3; c++) {
                unsigned hi = 63 - 8 * c;
                if (diff) {
                    b |= (uint64_t)q[0][c] << (hi - 4);
                    b |= (uint64_t)((unsigned)q[1][c] & 7) << (hi - 7);
                } else {
                    b |= (uint64_t)q[0][c] << (hi - 3);
                    b |= (uint64_t)q[1][c] << (hi - 7);
                }
            }
            b |= (uint64_t)f[0].table << ETC1_TABLE1_SHIFT | (uint64_t)f[1].table << ETC1_TABLE2_SHIFT;
            b |= (uint64_t)diff << ETC1_DIFF_BIT | (uint64_t)flip << ETC1_FLIP_BIT;
            for (unsigned s = 0; s < 2; s++)
                for (unsigned i = 0; i < 8; i++) {
                    unsigned bit = xy[s][i][0] * 4 + xy[s][i][1], idx = f[s].idx[i];
                    b |= (uint64_t)(idx >> 1) << (ETC1_MSB_SHIFT + bit) | (uint64_t)(idx & 1) << bit;
                }
            best_bits = b;
        }
    }
    for (unsigned i = 0; i < 8; i++)
        block[i] = (uint8_t)(best_bits >> (56 - 8 * i));
}
