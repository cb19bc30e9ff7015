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
/* The emulated microsecond at which the next compare among `channels`
 * (bit n = Cn) that has not matched yet matches (UINT64_MAX: none). */
uint64_t vc4_systimer_next_us(const struct vc4_systimer *t, unsigned channels);

/* ---- interrupt controller (ARM side): pending from the sources, enables -- */
struct vc4_intc {
    uint32_t enable[3]; /* IRQs 0-31, 32-63, basic */
    uint32_t fiq;
};
/* The level of each source, gathered by arm.c from the peripherals. */
struct vc4_irq_lines {
    uint32_t pending[2]; /* GPU IRQs 0-31, 32-63 */
    uint32_t basic;      /* the ARM-side sources, basic pending bits 0-7 */
};
/* The sources arm.c wires (ARM Peripherals 7.5 "ARM peripherals interrupts
 * table"; Linux bcm2835 device trees: V3D is GPU IRQ 10). */
enum vc4_irq_source {
    VC4_IRQ_TIMER0 = 0,  /* system timer match 0..3: GPU IRQs 0-3 */
    VC4_IRQ_V3D = 10,
    VC4_IRQ_AUX = 29,
    VC4_IRQ_UART0 = 57,
    VC4_IRQ_BASIC_MAILBOX = 1, /* basic pending bit 1: ARM mailbox */
};
void vc4_intc_reset(struct vc4_intc *c);
bool vc4_intc_read(const struct vc4_intc *c, uint32_t off, const struct vc4_irq_lines *l, uint32_t *v);
bool vc4_intc_write(struct vc4_intc *c, uint32_t off, uint32_t v);
/* An enabled interrupt is pending: the controller's IRQ output (what wakes
 * a WFI and interrupts the core). */
bool vc4_intc_pending(const struct vc4_intc *c, const struct vc4_irq_lines *l);

/* ---- Pi 2/3 ARM-local block (0x40000000): routing, local timer ---------- */
#define VC4_LOCAL_SPAN 0x100u
struct vc4_local {
    uint32_t control, prescaler, gpu_routing, pmu_routing, local_routing;
    uint32_t timer_ctl;      /* reload (27:0), enable (28), interrupt enable (29) */
    bool timer_flag;         /* the local timer reached 0 (status bit 31) */
    uint64_t timer_start;    /* 38.4 MHz tick at which the count last (re)loaded */
    uint32_t core_timer_ctl[4], mbox_ctl[4];
};
void vc4_local_reset(struct vc4_local *l);
/* Advance the local timer to now. */
void vc4_local_tick(struct vc4_local *l, uint64_t now_us);
bool vc4_local_read(struct vc4_local *l, uint32_t off, bool gpu_irq, uint64_t now_us, uint32_t *v);
bool vc4_local_write(struct vc4_local *l, uint32_t off, uint32_t v, uint64_t now_us);
/* Core 0's IRQ input: the GPU interrupt routed to it, the local timer. */
bool vc4_local_core0_irq(const struct vc4_local *l, bool gpu_irq);
/* The emulated microsecond at which the local timer next fires (UINT64_MAX:
 * never). */
uint64_t vc4_local_next_us(const struct vc4_local *l, uint64_t now_us);

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
#define VC4_MBOX_CONFIG_DATA_IRQ 1u /* MAIL0 config bit 0: interrupt while it holds data */

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
