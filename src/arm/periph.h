/*
 * periph.h - the BCM283x peripherals bare-metal graphics programs touch,
 * one file and one state struct with a reset each (DESIGN.md), all reached
 * through arm.c's peripheral window (offsets from the peripheral base,
 * 0x20000000 on a Pi 1, 0x3F000000 on a Pi 2/3; bus 0x7E000000).
 *
 * Offsets and register layouts: the BCM2835 ARM Peripherals manual (system
 * timer ch. 12, interrupts ch. 7, GPIO ch. 6, PL011 ch. 13, AUX/mini UART
 * ch. 2) and the firmware wiki's "Mailboxes" / "Mailbox property interface"
 * pages; the V3D block at 0xC00000 (Linux vc4_regs.h V3D_BASE, bus
 * 0x7EC00000).
 *
 * Each read/write function returns false for an offset that has no
 * register: the window reports it (address and PC) and reads give 0.
 */
#ifndef VC4_ARM_PERIPH_H
#define VC4_ARM_PERIPH_H

#include <stdbool.h>
#include <stdint.h>

#include "vc4kit/diag.h"
#include "vc4kit/emu.h"

/* Where each peripheral sits in the window (BCM2835 ARM Peripherals). */
enum vc4_periph_offset {
    VC4_PERIPH_SYSTIMER = 0x003000,
    VC4_PERIPH_INTC = 0x00B200,
    VC4_PERIPH_MBOX = 0x00B880,
    VC4_PERIPH_GPIO = 0x200000,
    VC4_PERIPH_UART0 = 0x201000, /* PL011 */
    VC4_PERIPH_AUX = 0x215000,   /* mini UART (UART1) and the SPI1/2 enables */
    VC4_PERIPH_V3D = 0xC00000,
    VC4_PERIPH_SPAN = 0x01000000 /* the window: 16 MiB */
};

/* What a peripheral may need from the machine around it. */
struct vc4_arm_ctx {
    struct vc4_emu *emu;
    const struct vc4_diag_sink *sink;
    uint64_t pc;            /* of the access, for diagnostics */
    uint64_t now_us;        /* emulated time */
    uint32_t ram_size;      /* bytes */
    uint32_t arm_mem_size;  /* the ARM's part; the VideoCore has the rest */
    uint32_t bus_alias;     /* what the firmware ORs into bus addresses it returns */
    unsigned board;         /* enum vc4_pi_board */
    bool v3d_kicked;        /* set by a peripheral that queued V3D work */
    void (*uart_out)(void *user, const char *text, size_t len);
    void *uart_user;
};

/* A byte a UART transmits, to the host. */
static inline void vc4_arm_uart_put(struct vc4_arm_ctx *ctx, uint32_t v)
{
    char c = (char)(v & 0xFF);
    if (ctx->uart_out)
        ctx->uart_out(ctx->uart_user, &c, 1);
}

/* ---- system timer: 1 MHz free-running counter and 4 compare channels ---- */
struct vc4_systimer {
    uint32_t cs;     /* match bits M0..M3, write 1 to clear */
    uint32_t c[4];   /* compare values */
    uint64_t last_us;/* time of the last match check */
};
void vc4_systimer_reset(struct vc4_systimer *t);
/* Advance to now: set the match bits of compares passed since last time. */
void vc4_systimer_tick(struct vc4_systimer *t, uint64_t now_us);
bool vc4_systimer_read(struct vc4_systimer *t, uint32_t off, uint64_t now_us, uint32_t *v);
bool vc4_systimer_write(struct vc4_systimer *t, uint32_t off, uint32_t v);

/* ---- interrupt controller (ARM side): pending from the sources, enables -- */
struct vc4_intc {
    uint32_t enable[3]; /* IRQs 0-31, 32-63, basic */
    uint32_t fiq;
};
/* The level of each source, gathered by arm.c from the peripherals. */
struct vc4_irq_lines {
    uint32_t pending[2]; /* GPU IRQs 0-31, 32-63 */
};
void vc4_intc_reset(struct vc4_intc *c);
bool vc4_intc_read(const struct vc4_intc *c, uint32_t off, const struct vc4_irq_lines *l, uint32_t *v);
bool vc4_intc_write(struct vc4_intc *c, uint32_t off, uint32_t v);
/* An enabled interrupt is pending (what wakes a WFI). */
bool vc4_intc_pending(const struct vc4_intc *c, const struct vc4_irq_lines *l);

/* ---- GPIO: function selects, outputs, pulls (no pins outside) ----------- */
struct vc4_gpio {
    uint32_t fsel[6];
    uint32_t level[2];  /* output latches (GPSET/GPCLR) */
    uint32_t pud, pudclk[2];
    uint32_t event_detect[12]; /* GPEDS..GPAFEN: stored, never fire */
};
void vc4_gpio_reset(struct vc4_gpio *g);
bool vc4_gpio_read(const struct vc4_gpio *g, uint32_t off, uint32_t *v);
bool vc4_gpio_write(struct vc4_gpio *g, uint32_t off, uint32_t v);

/* ---- PL011 UART0: transmit to the host, nothing to receive -------------- */
struct vc4_pl011 {
    uint32_t ibrd, fbrd, lcrh, cr, ifls, imsc, ris;
};
void vc4_pl011_reset(struct vc4_pl011 *u);
bool vc4_pl011_read(const struct vc4_pl011 *u, uint32_t off, uint32_t *v);
bool vc4_pl011_write(struct vc4_pl011 *u, uint32_t off, uint32_t v, struct vc4_arm_ctx *ctx);

/* ---- AUX: the mini UART (UART1), transmit only -------------------------- */
struct vc4_aux {
    uint32_t enables;
    uint32_t ier, lcr, mcr, scratch, cntl, baud;
};
void vc4_aux_reset(struct vc4_aux *a);
bool vc4_aux_read(const struct vc4_aux *a, uint32_t off, uint32_t *v);
bool vc4_aux_write(struct vc4_aux *a, uint32_t off, uint32_t v, struct vc4_arm_ctx *ctx);

/* ---- mailbox 0: property channel 8 and the old frame-buffer channel 1 ---- */
#define VC4_MBOX_QUEUE 8        /* the hardware FIFO holds 8 words */
#define VC4_MBOX_MAX_BLOCKS 64  /* GPU memory allocations (tag 0x3000C) */

struct vc4_mbox_fb {
    bool allocated;
    uint32_t phys_w, phys_h, virt_w, virt_h, depth, pixel_order, alpha_mode;
    uint32_t x_off, y_off;
    uint32_t addr, size, pitch; /* RAM offset of the buffer */
    uint32_t palette[256];
};

struct vc4_mbox {
    uint32_t queue[VC4_MBOX_QUEUE]; /* responses waiting for MAIL0_READ */
    unsigned head, count;
    uint32_t config;
    struct vc4_mbox_fb fb;
    uint32_t vc_next;       /* next free byte of VideoCore memory (RAM offset) */
    struct { uint32_t offset, size; bool used; } blocks[VC4_MBOX_MAX_BLOCKS];
    bool qpu_enabled;
    uint32_t clock_rate[16];/* Hz, by firmware clock id */
    uint32_t power_state[16];
};
void vc4_mbox_reset(struct vc4_mbox *m, const struct vc4_arm_ctx *ctx);
bool vc4_mbox_read(struct vc4_mbox *m, uint32_t off, uint32_t *v);
bool vc4_mbox_write(struct vc4_mbox *m, uint32_t off, uint32_t v, struct vc4_arm_ctx *ctx);
/* Answer a property-channel message at RAM offset buf (the tags in place).
 * Exposed for tests. */
void vc4_mbox_property(struct vc4_mbox *m, uint32_t buf, struct vc4_arm_ctx *ctx);

#endif
