/*
 * tex_quad.c - a bare-metal kernel image: seed 004's textured scene, a
 * quad (two triangles) with S, T varyings sampling a 32x32 RGBA8888
 * texture in T format through TMU0 with the post's fragment shader words;
 * the ARM draws the texture (a red/green ramp, a blue checker and a white
 * frame) before it starts the V3D.
 */
#include "bm.h"

/* Seed 004's texturing fragment shader, as posted, then thread end. */
static const uint32_t fs_texture[] = {
    0x203E3DF7, 0x110059E0, /* S * W */
    0x213E3177, 0x11024821, /* S = S * W + C, T * W */
    0x013E3377, 0x11020E67, /* TMU0_T = T * W + C */
    0x159E7000, 0x10020E27, /* TMU0_S = S (submits) */
    0x009E7000, 0xA00009E7, /* ldtmu0: r4 = RGBA8888 */
    0x159E7924, 0x10020BA7, /* TLB_COLOUR_ALL = r4 */
    0x009e7000, 0x300009e7, 0x009e7000, 0x100009e7, 0x009e7000, 0x500009e7, /* thrend, nop, sbdone */
};

struct vertex { uint16_t x16, y16; float z, inv_w, s, t; };
static const struct vertex quad[6] = {
    {96 * 16, 48 * 16, 1.0f, 1.0f, 0.0f, 0.0f}, {96 * 16, 432 * 16, 1.0f, 1.0f, 0.0f, 1.0f},
    {544 * 16, 432 * 16, 1.0f, 1.0f, 1.0f, 1.0f}, {96 * 16, 48 * 16, 1.0f, 1.0f, 0.0f, 0.0f},
    {544 * 16, 432 * 16, 1.0f, 1.0f, 1.0f, 1.0f}, {544 * 16, 48 * 16, 1.0f, 1.0f, 1.0f, 0.0f},
};

static uint32_t picture(uint32_t x, uint32_t y)
{
    if (x == 0 || y == 0 || x == 31 || y == 31)
        return 0xFFFFFFFFu; /* a white frame */
    uint32_t blue = ((x >> 3) ^ (y >> 3)) & 1 ? 220 : 40;
    return (40 + 6 * x) | (40 + 6 * y) << 8 | blue << 16 | 0xFF000000u;
}

int main(void)
{
    uart_init();
    uart_puts("tex_quad: hello from the ARM\n");
    struct fb fb;
    if (!fb_init(&fb, 640, 480)) {
        uart_puts("tex_quad: no frame buffer\n");
        return 1;
    }
    qpu_enable();
    copy_words(W_SHADER, fs_texture, sizeof fs_texture / 4);
    /* T format, one 4 KB tile (tile row 0: sub-tiles bottom-left, top-left,
     * top-right, bottom-right), 4x4 utiles in raster order inside each
     * 16x16 sub-tile (hardware facts; examples/tex_triangle.qasm) */
    for (uint32_t i = 0; i < 1024; i++) {
        uint32_t slot = i >> 8, u = (i >> 4) & 15;
        uint32_t sx = slot == 2 || slot == 3, sy = slot == 1 || slot == 2;
        uint32_t x = sx * 16 + (u & 3) * 4 + (i & 3), y = sy * 16 + (u >> 2) * 4 + ((i >> 2) & 3);
        put32(W_TEXTURE + 4 * i, picture(x, y));
    }
    /* P0 = base (type RGBA8888, 1 level), P1 = 32x32, nearest, clamp */
    put32(W_UNIFORMS, BUS(W_TEXTURE));
    put32(W_UNIFORMS + 4, 32u << 20 | 32u << 8 | 1u << 7 | 1u << 4 | 1u << 2 | 1u);
    for (unsigned i = 0; i < 6; i++) {
        uint8_t *v = W_VERTS + 20 * i;
        v[0] = (uint8_t)quad[i].x16, v[1] = (uint8_t)(quad[i].x16 >> 8);
        v[2] = (uint8_t)quad[i].y16, v[3] = (uint8_t)(quad[i].y16 >> 8);
        put32(v + 4, fbits(quad[i].z));
        put32(v + 8, fbits(quad[i].inv_w));
        put32(v + 12, fbits(quad[i].s));
        put32(v + 16, fbits(quad[i].t));
    }
    uint8_t *rec = W_RECORD; /* NV record: threaded, stride 20, 2 varyings */
    rec[0] = 0, rec[1] = 20, rec[2] = 0, rec[3] = 2;
    put32(rec + 4, BUS(W_SHADER));
    put32(rec + 8, BUS(W_UNIFORMS));
    put32(rec + 12, BUS(W_VERTS));

    struct cl bin, ren;
    bin_begin(&bin, fb.width, fb.height);
    cl_u8(&bin, 65);
    cl_u32(&bin, BUS(W_RECORD));
    bin_end(&bin, 6);
    render_list(&ren, &fb, 0xFF402010u); /* a dark blue background */
    report("tex_quad", v3d_draw(&bin, &ren), &fb);
    return 0;
}
