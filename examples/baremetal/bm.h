/*
 * bm.h - what every bare-metal example needs, written the way the seed
 * posts' kernels do it: peripherals by address, the frame buffer through
 * the mailbox property channel, control lists built byte by byte in
 * memory, the V3D started by writing CTnCA / CTnEA and polled.  No library:
 * these are freestanding kernel images (docs/boot.md).
 *
 * PI_BOARD (1, 2, 3) picks the peripheral base and the bus alias; the
 * AArch64 build (kernel8.img) is a Pi 3.  Packet bytes: Mesa vc4_packet.h,
 * the kernel's vc4_render_cl.c (hardware facts 3.5, 4.3), checked against
 * `vc4kit as` output of examples/nv_triangle.qasm.
 */
#ifndef BM_H
#define BM_H

#include <stdint.h>

#if PI_BOARD == 1
#define PERIPH 0x20000000u
#define BUS_ALIAS 0x40000000u /* L2 cached: what the Pi 1 firmware hands out */
#else
#define PERIPH 0x3F000000u
#define BUS_ALIAS 0xC0000000u /* uncached: Pi 2/3 */
#endif

#define REG(off) (*(volatile uint32_t *)(uintptr_t)(PERIPH + (off)))

/* ---- UART: PL011 on Pi 1/2, the mini UART on Pi 3 (its default console) ---- */
static inline void uart_putc(char c)
{
#if PI_BOARD == 3
    while (!(REG(0x215054) & 0x20)) /* AUX_MU_LSR: transmitter empty */
        ;
    REG(0x215040) = (uint32_t)(unsigned char)c;
#else
    while (REG(0x201018) & 0x20) /* UART0_FR: TXFF */
        ;
    REG(0x201000) = (uint32_t)(unsigned char)c;
#endif
}

static inline void uart_puts(const char *s)
{
    while (*s) {
        if (*s == '\n')
            uart_putc('\r');
        uart_putc(*s++);
    }
}

static inline void uart_hex(uint32_t v)
{
    uart_puts("0x");
    for (int i = 28; i >= 0; i -= 4)
        uart_putc("0123456789abcdef"[(v >> i) & 15]);
}

static inline void uart_init(void)
{
#if PI_BOARD == 3
    REG(0x215004) = 1;     /* AUX_ENABLES: mini UART */
    REG(0x215060) = 0;     /* AUX_MU_CNTL: off while configuring */
    REG(0x21504C) = 3;     /* AUX_MU_LCR: 8 bits */
    REG(0x215068) = 270;   /* AUX_MU_BAUD: 115200 at 250 MHz */
    REG(0x215060) = 3;     /* transmitter and receiver on */
#else
    REG(0x201030) = 0;     /* UART0_CR: off */
    REG(0x201044) = 0x7FF; /* UART0_ICR: clear interrupts */
    REG(0x201024) = 1;     /* IBRD, FBRD: 115200 at 3 MHz */
    REG(0x201028) = 40;
    REG(0x20102C) = 0x70;  /* LCRH: 8 bits, FIFOs */
    REG(0x201030) = 0x301; /* CR: UART, TX, RX on */
#endif
}

/* ---- mailbox property channel ---------------------------------------------- */
static volatile uint32_t __attribute__((aligned(16))) mbox_buf[64];

static inline int mbox_call(unsigned words)
{
    mbox_buf[0] = words * 4;
    mbox_buf[1] = 0;
    uint32_t msg = (uint32_t)(uintptr_t)mbox_buf | 8; /* channel 8 */
    while (REG(0xB8B8) & 0x80000000u) /* MAIL1 STATUS: full */
        ;
    REG(0xB8A0) = msg;
    for (;;) {
        while (REG(0xB898) & 0x40000000u) /* MAIL0 STATUS: empty */
            ;
        if (REG(0xB880) == msg)
            return mbox_buf[1] == 0x80000000u;
    }
}

struct fb {
    uint32_t *pixels; /* ARM address */
    uint32_t bus;     /* what the V3D is given */
    uint32_t width, height, pitch;
};

/* A width x height, 32-bit, RGB-order frame buffer (byte 0 red: what the
 * V3D's RGBA8888 writes). */
static inline int fb_init(struct fb *fb, uint32_t width, uint32_t height)
{
    unsigned i = 2;
    mbox_buf[i++] = 0x48003; mbox_buf[i++] = 8; mbox_buf[i++] = 0; /* physical size */
    mbox_buf[i++] = width; mbox_buf[i++] = height;
    mbox_buf[i++] = 0x48004; mbox_buf[i++] = 8; mbox_buf[i++] = 0; /* virtual size */
    mbox_buf[i++] = width; mbox_buf[i++] = height;
    mbox_buf[i++] = 0x48005; mbox_buf[i++] = 4; mbox_buf[i++] = 0; mbox_buf[i++] = 32; /* depth */
    mbox_buf[i++] = 0x48006; mbox_buf[i++] = 4; mbox_buf[i++] = 0; mbox_buf[i++] = 1;  /* pixel order RGB */
    unsigned alloc = i + 3;
    mbox_buf[i++] = 0x40001; mbox_buf[i++] = 8; mbox_buf[i++] = 0; /* allocate */
    mbox_buf[i++] = 4096; mbox_buf[i++] = 0;
    unsigned pitch = i + 3;
    mbox_buf[i++] = 0x40008; mbox_buf[i++] = 4; mbox_buf[i++] = 0; mbox_buf[i++] = 0; /* pitch */
    mbox_buf[i++] = 0;
    if (!mbox_call(i) || mbox_buf[alloc] == 0)
        return 0;
    fb->bus = mbox_buf[alloc];
    fb->pixels = (uint32_t *)(uintptr_t)(fb->bus & 0x3FFFFFFFu);
    fb->width = width;
    fb->height = height;
    fb->pitch = mbox_buf[pitch];
    return 1;
}

/* The firmware's QPU enable (tag 0x30012), as the seeds do before the V3D. */
static inline int qpu_enable(void)
{
    mbox_buf[2] = 0x30012; mbox_buf[3] = 4; mbox_buf[4] = 0; mbox_buf[5] = 1;
    mbox_buf[6] = 0;
    return mbox_call(7);
}

/* ---- memory the V3D reads ------------------------------------------------------ */
#define BUS(p) ((uint32_t)(uintptr_t)(p) | BUS_ALIAS)

/* A control list being written at p (byte by byte: packets are unaligned). */
struct cl {
    uint8_t *p, *start;
};
static inline void cl_u8(struct cl *c, uint32_t v) { *c->p++ = (uint8_t)v; }
static inline void cl_u16(struct cl *c, uint32_t v) { cl_u8(c, v); cl_u8(c, v >> 8); }
static inline void cl_u32(struct cl *c, uint32_t v) { cl_u16(c, v); cl_u16(c, v >> 16); }

static inline void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static inline uint32_t fbits(float f)
{
    union { float f; uint32_t u; } x = {.f = f};
    return x.u;
}

/* Where the scenes put things (ARM physical; 8-byte aligned shaders, 16-byte
 * records, 4 KiB texture). */
#define W_BIN ((uint8_t *)0x00200000)
#define W_RENDER ((uint8_t *)0x00204000)
#define W_RECORD ((uint8_t *)0x00210000)
#define W_VERTS ((uint8_t *)0x00210100)
#define W_VERTS2 ((uint8_t *)0x00210400)
#define W_UNIFORMS ((uint8_t *)0x00210800)
#define W_SHADER ((uint8_t *)0x00211000)
#define W_SHADER2 ((uint8_t *)0x00211400)
#define W_SHADER3 ((uint8_t *)0x00211800)
#define W_TEXTURE ((uint8_t *)0x00212000)
#define W_TILE_ALLOC ((uint8_t *)0x00300000)
#define W_TILE_ALLOC_SIZE 0x00100000u
#define W_TSDA ((uint8_t *)0x00400000)

static inline void copy_words(uint8_t *dst, const uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        put32(dst + 4 * i, w[i]);
}

/* The binning list up to the shader state (hardware facts 3.5): tile
 * allocation with 32-byte initial blocks, then 128-byte blocks; auto-init
 * TSDA; triangles with 16-bit indices; the clip window; forward and
 * reverse faces, and the depth bytes the demos that drew on a Pi use
 * (docs/rendering.md: without a TLB_Z write there is no depth test). */
static inline void bin_begin(struct cl *c, uint32_t w, uint32_t h)
{
    c->p = c->start = W_BIN;
    cl_u8(c, 112); /* Tile Binning Mode Configuration */
    cl_u32(c, BUS(W_TILE_ALLOC));
    cl_u32(c, W_TILE_ALLOC_SIZE);
    cl_u32(c, BUS(W_TSDA));
    cl_u8(c, (w + 63) / 64);
    cl_u8(c, (h + 63) / 64);
    cl_u8(c, 0x44); /* auto-init TSDA, block size 128, initial 32 */
    cl_u8(c, 6);    /* Start Tile Binning */
    cl_u8(c, 56);   /* Primitive List Format: */
    cl_u8(c, 0x12); /*   16-bit indices, triangles */
    cl_u8(c, 102);  /* Clip Window */
    cl_u16(c, 0); cl_u16(c, 0); cl_u16(c, w); cl_u16(c, h);
    cl_u8(c, 96);   /* Configuration Bits 03 00 02, the public bare-metal demos' */
    cl_u8(c, 0x03); /*   forward and reverse faces */
    cl_u8(c, 0x00); /*   depth function "never", no Z updates: the fragment */
    cl_u8(c, 0x02); /*   shaders write no TLB_Z, so no depth test (issue 11) */
    cl_u8(c, 103);  /* Viewport Offset 0, 0 */
    cl_u16(c, 0); cl_u16(c, 0);
}

/* After the shader state: the vertices, the semaphore and the flush. */
static inline void bin_end(struct cl *c, uint32_t nverts)
{
    cl_u8(c, 33);  /* Vertex Array Primitives: */
    cl_u8(c, 4);   /*   triangles */
    cl_u32(c, nverts);
    cl_u32(c, 0);  /*   from index 0 */
    cl_u8(c, 7);   /* Increment Semaphore */
    cl_u8(c, 4);   /* Flush */
}

/* The rendering list (hardware facts 4.3): clear colour, the frame buffer,
 * a store that clears the first tile, then per tile: its coordinates, the
 * binner's list for it, a multisample store (the last with end of frame). */
static inline void render_list(struct cl *c, const struct fb *fb, uint32_t clear)
{
    uint32_t tw = (fb->width + 63) / 64, th = (fb->height + 63) / 64;
    c->p = c->start = W_RENDER;
    cl_u8(c, 114); /* Clear Colors */
    cl_u32(c, clear); cl_u32(c, clear);
    cl_u32(c, 0);
    cl_u8(c, 0);
    cl_u8(c, 113); /* Tile Rendering Mode Configuration */
    cl_u32(c, fb->bus);
    cl_u16(c, fb->width);
    cl_u16(c, fb->height);
    cl_u16(c, 1u << 2); /* RGBA8888, raster */
    cl_u8(c, 115); cl_u8(c, 0); cl_u8(c, 0); /* Tile Coordinates 0, 0 */
    cl_u8(c, 28); cl_u16(c, 0); cl_u32(c, 0); /* Store Tile Buffer General: nothing */
    for (uint32_t y = 0; y < th; y++)
        for (uint32_t x = 0; x < tw; x++) {
            cl_u8(c, 115); cl_u8(c, x); cl_u8(c, y);
            if (x == 0 && y == 0)
                cl_u8(c, 8); /* Wait On Semaphore */
            cl_u8(c, 17);    /* Branch To Sub-List */
            cl_u32(c, BUS(W_TILE_ALLOC + (y * tw + x) * 32));
            cl_u8(c, x == tw - 1 && y == th - 1 ? 25 : 24); /* Store MS (and EOF) */
        }
}

#define V3D(off) REG(0xC00000 + (off))

/* Run the binning list on CT0 and the rendering list on CT1, as the seeds
 * do, and wait for the frame (RFC, render frame count); 0 on a timeout. */
static inline int v3d_draw(const struct cl *bin, const struct cl *ren)
{
    uint32_t frames = V3D(0x138) & 0xFF;
    V3D(0x110) = BUS(bin->start);
    V3D(0x108) = BUS(bin->p);
    V3D(0x114) = BUS(ren->start);
    V3D(0x10C) = BUS(ren->p);
    for (uint32_t i = 0; i < 10000000u; i++)
        if ((V3D(0x138) & 0xFF) != frames)
            return 1;
    return 0;
}

/* A scene's end: say so on the UART. */
static inline void report(const char *scene, int ok, const struct fb *fb)
{
    uart_puts(scene);
    uart_puts(ok ? ": frame done, frame buffer at " : ": FAILED, frame buffer at ");
    uart_hex(fb->bus);
    uart_puts("\n");
}

#endif
