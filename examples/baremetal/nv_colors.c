/*
 * nv_colors.c - a bare-metal kernel image: seed 002/004's NV-mode triangle
 * with per-vertex colours (red top, green bottom left, blue bottom right)
 * on a 640x480 frame buffer from the mailbox, drawn by the V3D; progress on
 * the UART.  The same scene as examples/nv_varyings.qasm (tests/golden/
 * nv_varyings.png), here built by the ARM as the seed posts' kernels do.
 */
#include "nv_tri.h"

static const struct vertex tri[3] = {
    {320 * 16, 32 * 16, 1.0f, 1.0f, 1.0f, 0.0f, 0.0f},
    {32 * 16, 448 * 16, 1.0f, 1.0f, 0.0f, 1.0f, 0.0f},
    {608 * 16, 448 * 16, 1.0f, 1.0f, 0.0f, 0.0f, 1.0f},
};

int main(void)
{
    uart_init();
    uart_puts("nv_colors: hello from the ARM\n");
    struct fb fb;
    if (!fb_init(&fb, 640, 480)) {
        uart_puts("nv_colors: no frame buffer\n");
        return 1;
    }
    qpu_enable();
    nv_tri_setup(tri);
    struct cl bin, ren;
    nv_tri_bin(&bin, &fb);
    render_list(&ren, &fb, 0xFF000000u); /* opaque black */
    report("nv_colors", v3d_draw(&bin, &ren), &fb);
    return 0;
}
