/*
 * bench_tex.c - texture library speed: vc4_tex_read_texel per format from a
 * 256x256 tiled (or raster) image, and whole-picture encode/decode
 * (RGBA8888 T, ETC1).  Prints figures; not a test.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "vc4kit/tex.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
    enum { W = 256, H = 256, READS = 4 << 20 };
    uint8_t *pic = malloc(W * H * 4);
    uint32_t x = 1;
    for (unsigned i = 0; i < W * H * 4; i++) {
        x = x * 1103515245u + 12345u;
        pic[i] = (uint8_t)(x >> 16);
    }
    volatile uint32_t sink = 0;
    for (unsigned f = 0; f < VC4_TEX_FORMAT_COUNT; f++) {
        const struct vc4_tex_format_info *fi = vc4_tex_format_info(f);
        struct vc4_tex_geom g;
        vc4_tex_geom_init_format(&g, f, fi->raster_only ? VC4_TEX_RASTER : VC4_TEX_T, W, H);
        uint8_t *tex = malloc(g.size);
        vc4_tex_encode_image(f, &g, tex, g.size, pic, W * 4, W, H, false, NULL);
        double t0 = now();
        struct vc4_texel t;
        /* 2x2 neighbourhoods walking diagonally, as bilinear filtering reads */
        for (unsigned i = 0; i < READS / 4; i++) {
            unsigned px = (i * 7) % (W - 1), py = (i * 3 + i / W) % (H - 1);
            for (unsigned k = 0; k < 4; k++) {
                vc4_tex_read_texel(f, &g, tex, g.size, px + (k & 1), py + (k >> 1), &t);
                sink += t.w[0];
            }
        }
        double dt = now() - t0;
        printf("read_texel %-9s %s: %7.1f M texels/s\n", fi->name,
               fi->raster_only ? "raster" : "T     ", READS / dt / 1e6);
        free(tex);
    }
    static const enum vc4_tex_format conv[] = {VC4_TEX_RGBA8888, VC4_TEX_RGB565, VC4_TEX_ETC1};
    for (unsigned c = 0; c < sizeof conv / sizeof conv[0]; c++) {
        struct vc4_tex_geom g;
        vc4_tex_geom_init_format(&g, conv[c], VC4_TEX_T, W, H);
        uint8_t *tex = malloc(g.size), *back = malloc(W * H * 4);
        int reps = conv[c] == VC4_TEX_ETC1 ? 4 : 64;
        double t0 = now();
        for (int r = 0; r < reps; r++)
            vc4_tex_encode_image(conv[c], &g, tex, g.size, pic, W * 4, W, H, false, NULL);
        double t1 = now();
        for (int r = 0; r < reps; r++)
            vc4_tex_decode_image(conv[c], &g, tex, g.size, back, W * 4, W, H, false, NULL);
        double t2 = now();
        printf("%-9s T: encode %6.1f M pixels/s, decode %6.1f M pixels/s\n",
               vc4_tex_format_info(conv[c])->name, (double)W * H * reps / (t1 - t0) / 1e6,
               (double)W * H * reps / (t2 - t1) / 1e6);
        free(tex);
        free(back);
    }
    free(pic);
    return (int)(sink & 0);
}
