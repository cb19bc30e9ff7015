/*
 * irq_v3d.c - a frame loop paced by the V3D's interrupt, as a program
 * that renders with interrupts does: INTENA enables the frame-done
 * interrupt (FRDONE, hardware facts 11), the interrupt controller GPU IRQ
 * 10; each of three frames is kicked on CT0/CT1 and the core sleeps in WFI
 * until the handler has seen FRDONE (and cleared it in INTCTL).  The
 * frames draw seed 002's NV triangle (nv_colors.c's) on a clear colour
 * that changes per frame.
 */
#include "irq.h"
#include "nv_tri.h"

#define FRAMES 3u
#define V3D_INTCTL 0x030u
#define V3D_INTENA 0x034u
#define V3D_INT_FRDONE 1u

static const struct vertex tri[3] = {
    {96 * 16, 8 * 16, 1.0f, 1.0f, 1.0f, 0.0f, 0.0f},
    {8 * 16, 120 * 16, 1.0f, 1.0f, 0.0f, 1.0f, 0.0f},
    {184 * 16, 120 * 16, 1.0f, 1.0f, 0.0f, 0.0f, 1.0f},
};
static const uint32_t clear[FRAMES] = {0xFF400000u, 0xFF004000u, 0xFF202020u};

static volatile uint32_t frames_done;

void irq_handler(void)
{
    uint32_t st = V3D(V3D_INTCTL);
    if (st & V3D_INT_FRDONE) {
        V3D(V3D_INTCTL) = V3D_INT_FRDONE; /* write 1 to clear: the line drops */
        frames_done++;
    }
}

int main(void)
{
    uart_init();
    uart_puts("irq_v3d: hello, interrupts\n");
    struct fb fb;
    if (!fb_init(&fb, 192, 128)) {
        uart_puts("irq_v3d: no frame buffer\n");
        return 1;
    }
    qpu_enable();
    nv_tri_setup(tri);

    irq_setup();
    V3D(V3D_INTCTL) = 0xF;            /* nothing stale */
    V3D(V3D_INTENA) = V3D_INT_FRDONE; /* the frame-done interrupt */
    REG(IC_ENABLE1) = 1u << IRQ_V3D;
    irq_unmask();
    for (uint32_t f = 0; f < FRAMES; f++) {
        struct cl bin, ren;
        nv_tri_bin(&bin, &fb);
        render_list(&ren, &fb, clear[f]);
        V3D(0x110) = BUS(bin.start);
        V3D(0x108) = BUS(bin.p);
        V3D(0x114) = BUS(ren.start);
        V3D(0x10C) = BUS(ren.p);
        while (frames_done == f)
            wait_for_interrupt();
        uart_puts("frame ");
        uart_putc((char)('1' + f));
        uart_puts(" done by interrupt\n");
    }
    irq_mask();
    uart_puts(frames_done == FRAMES ? "irq_v3d: 3 frames, 3 interrupts\n" : "irq_v3d: wrong interrupt count\n");
    return 0;
}
