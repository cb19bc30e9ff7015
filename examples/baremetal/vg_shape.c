/*
 * vg_shape.c - a bare-metal kernel image in VG mode: no vertex shader and
 * no shaded vertex data, only screen X/Y.  On a 640x480 frame buffer from
 * the mailbox it draws, as PeterLemon's VG demos (V3D/ControlList/VG,
 * run on a Pi 1) lay their packets out:
 *   - an RHT strip (type 3) from a coordinate array (packet 41) with the
 *     VG Shader State (66) record and the RHT X Boundary (100) at x = 32:
 *     the region from x = 32 to the chevron (608,32) (320,240) (608,448),
 *     in orange (the record's uniforms);
 *   - a triangle fan (type 6), a diamond in the chevron's notch, with the
 *     VG Inline Shader Record (67) and other uniforms: blue.
 * The fragment shader writes the colour of four float uniforms, as the NV
 * examples' uniform shader does.  Coordinates are packed 32-bit words:
 * s16 X (low half), s16 Y, 12.4 fixed point (docs/rendering.md "VG mode";
 * what vc4kit does with them is UNVERIFIED beyond those demos).
 */
#include "bm.h"

/* examples/nv_scene.h's sc_fs_uniform, as `vc4kit as --hex` encodes it */
static const uint32_t fs_uniform[] = {
    0x20820df7, 0xd14059e5, 0x20820037, 0xd15059e5, 0x20820037, 0xd16059e5, 0x20820037, 0xd17059e5,
    0x159e7b40, 0x10020ba7, 0x009e7000, 0x300009e7, 0x009e7000, 0x100009e7, 0x009e7000, 0x500009e7,
};

#define XY(x, y) ((uint32_t)((x) * 16) | (uint32_t)((y) * 16) << 16)

static const uint32_t chevron[3] = {XY(608, 32), XY(320, 240), XY(608, 448)};
static const uint32_t diamond[6] = {XY(520, 240), XY(580, 240), XY(520, 180), XY(460, 240), XY(520, 300),
                                    XY(580, 240)};
static const float orange[4] = {1.0f, 0.5f, 0.0f, 1.0f}, blue[4] = {0.0f, 0.25f, 1.0f, 1.0f};

int main(void)
{
    uart_init();
    uart_puts("vg_shape: hello from the ARM\n");
    struct fb fb;
    if (!fb_init(&fb, 640, 480)) {
        uart_puts("vg_shape: no frame buffer\n");
        return 1;
    }
    qpu_enable();
    copy_words(W_SHADER, fs_uniform, sizeof fs_uniform / 4);
    copy_words(W_VERTS, chevron, 3);
    copy_words(W_VERTS2, diamond, 6);
    for (unsigned i = 0; i < 4; i++) {
        put32(W_UNIFORMS + 4 * i, fbits(orange[i]));
        put32(W_UNIFORMS + 16 + 4 * i, fbits(blue[i]));
    }
    /* VG shader record (PeterLemon's demos): flags 0 (threaded), unused,
     * 0 uniforms, 0 varyings, shader, uniforms */
    uint8_t *rec = W_RECORD;
    rec[0] = 0, rec[1] = 0, rec[2] = 0, rec[3] = 0;
    put32(rec + 4, BUS(W_SHADER));
    put32(rec + 8, BUS(W_UNIFORMS));

    struct cl bin, ren;
    bin_begin(&bin, fb.width, fb.height);
    cl_u8(&bin, 100); /* RHT X Boundary: x = 32, 12.4 */
    cl_u16(&bin, 32 * 16);
    cl_u8(&bin, 66);  /* VG Shader State */
    cl_u32(&bin, BUS(W_RECORD));
    cl_u8(&bin, 41);  /* VG Coordinate Array Primitives: */
    cl_u8(&bin, 3);   /*   RHT strip */
    cl_u32(&bin, 3);  /*   3 vertices */
    cl_u32(&bin, BUS(W_VERTS));
    cl_u8(&bin, 67);  /* VG Inline Shader Record: threaded, shader, */
    cl_u32(&bin, BUS(W_SHADER));
    cl_u32(&bin, BUS(W_UNIFORMS + 16)); /*   the second colour */
    cl_u8(&bin, 41);  /* VG Coordinate Array Primitives: */
    cl_u8(&bin, 6);   /*   triangle fan */
    cl_u32(&bin, 6);
    cl_u32(&bin, BUS(W_VERTS2));
    cl_u8(&bin, 7);   /* Increment Semaphore */
    cl_u8(&bin, 4);   /* Flush */
    render_list(&ren, &fb, 0xFF000000u); /* opaque black */
    report("vg_shape", v3d_draw(&bin, &ren), &fb);
    return 0;
}
