/*
 * gl_seed.c - a bare-metal kernel image: seed 000's GL-mode scene, the
 * triangle through two attribute streams, the post's pass-through
 * coordinate shader (binning) and vertex shader (rendering) on the QPUs,
 * GL Shader State with two arrays, coloured green by the uniform-colour
 * fragment shader (seed 002).  The same frame as examples/gl_triangle.qasm
 * and tests/golden/nv_triangle.png.
 */
#include "bm.h"
#include "gl_seed_shaders.h"

/* The uniform-colour fragment shader of examples/nv_scene.h (sc_fs_uniform)
 * as `vc4kit as --hex` encodes it; its first word pair is seed 002's
 * 0x20820DF7, 0xD14059E5 (read a uniform, pack it to R). */
static const uint32_t fs_uniform[] = {
    0x20820df7, 0xd14059e5, 0x20820037, 0xd15059e5, 0x20820037, 0xd16059e5, 0x20820037, 0xd17059e5,
    0x159e7b40, 0x10020ba7, 0x009e7000, 0x300009e7, 0x009e7000, 0x100009e7, 0x009e7000, 0x500009e7,
};

/* Stream 0, for the vertex shader (PSE format): X, Y in 12.4, Z, 1/W. */
struct vs_vertex { uint16_t x16, y16; float z, inv_w; };
static const struct vs_vertex vs_verts[3] = {
    {320 * 16, 32 * 16, 1.0f, 1.0f}, {32 * 16, 448 * 16, 1.0f, 1.0f}, {608 * 16, 448 * 16, 1.0f, 1.0f},
};
/* Stream 1, for the coordinate shader (PTB format): clip X, Y, Z, W, then
 * the PSE fields (seed 000's numbers). */
struct cs_vertex { float xc, yc, zc, wc; uint16_t x16, y16; float z, inv_w; };
static const struct cs_vertex cs_verts[3] = {
    {0.00156494522f, -0.86638830897f, 1.0f, 1.0f, 320 * 16, 32 * 16, 1.0f, 1.0f},
    {-0.89984350547f, 0.87056367432f, 1.0f, 1.0f, 32 * 16, 448 * 16, 1.0f, 1.0f},
    {0.90297339593f, 0.87056367432f, 1.0f, 1.0f, 608 * 16, 448 * 16, 1.0f, 1.0f},
};

static void pse(uint8_t *v, uint16_t x16, uint16_t y16, float z, float inv_w)
{
    v[0] = (uint8_t)x16, v[1] = (uint8_t)(x16 >> 8), v[2] = (uint8_t)y16, v[3] = (uint8_t)(y16 >> 8);
    put32(v + 4, fbits(z));
    put32(v + 8, fbits(inv_w));
}

int main(void)
{
    uart_init();
    uart_puts("gl_seed: hello from the ARM\n");
    struct fb fb;
    if (!fb_init(&fb, 640, 480)) {
        uart_puts("gl_seed: no frame buffer\n");
        return 1;
    }
    qpu_enable();
    copy_words(W_SHADER, fs_uniform, sizeof fs_uniform / 4);
    copy_words(W_SHADER2, gl_seed_vs_words, sizeof gl_seed_vs_words / 4);
    copy_words(W_SHADER3, gl_seed_cs_words, sizeof gl_seed_cs_words / 4);
    const float rgba[4] = {0.0f, 1.0f, 0.0f, 1.0f};
    for (unsigned i = 0; i < 4; i++)
        put32(W_UNIFORMS + 4 * i, fbits(rgba[i]));
    put32(W_UNIFORMS + 16, 0); /* the VS and CS read none */
    for (unsigned i = 0; i < 3; i++) {
        pse(W_VERTS + 12 * i, vs_verts[i].x16, vs_verts[i].y16, vs_verts[i].z, vs_verts[i].inv_w);
        uint8_t *c = W_VERTS2 + 28 * i;
        put32(c, fbits(cs_verts[i].xc));
        put32(c + 4, fbits(cs_verts[i].yc));
        put32(c + 8, fbits(cs_verts[i].zc));
        put32(c + 12, fbits(cs_verts[i].wc));
        pse(c + 16, cs_verts[i].x16, cs_verts[i].y16, cs_verts[i].z, cs_verts[i].inv_w);
    }
    /* GL shader state record (seed 000, byte for byte) */
    uint8_t *r = W_RECORD;
    r[0] = 4, r[1] = 0;          /* flags: enable clipping */
    r[2] = 0, r[3] = 0;          /* FS uniforms, varyings */
    put32(r + 4, BUS(W_SHADER));
    put32(r + 8, BUS(W_UNIFORMS));
    r[12] = 0, r[13] = 0, r[14] = 1, r[15] = 12; /* VS: uniforms, stream mask, attribute bytes */
    put32(r + 16, BUS(W_SHADER2));
    put32(r + 20, BUS(W_UNIFORMS + 16));
    r[24] = 0, r[25] = 0, r[26] = 2, r[27] = 28; /* CS */
    put32(r + 28, BUS(W_SHADER3));
    put32(r + 32, BUS(W_UNIFORMS + 16));
    put32(r + 36, BUS(W_VERTS));  /* stream 0: 12 bytes, stride 12, VPM offsets 0 */
    r[40] = 11, r[41] = 12, r[42] = 0, r[43] = 0;
    put32(r + 44, BUS(W_VERTS2)); /* stream 1: 28 bytes, stride 28 */
    r[48] = 27, r[49] = 28, r[50] = 0, r[51] = 0;

    struct cl bin, ren;
    bin_begin(&bin, fb.width, fb.height);
    cl_u8(&bin, 64); /* GL Shader State: the record, 2 attribute arrays */
    cl_u32(&bin, BUS(W_RECORD) | 2);
    bin_end(&bin, 3);
    render_list(&ren, &fb, 0xFF000000u);
    report("gl_seed", v3d_draw(&bin, &ren), &fb);
    return 0;
}
