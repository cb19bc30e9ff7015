/*
 * irq_timer.c - a bare-metal kernel image driven by interrupts: the
 * vector table of irq.h, the system timer's compare 1 raising GPU IRQ 1
 * every 2 ms, the core asleep in WFI between them.  The handler clears
 * the match (CS bit 1), sets the next compare and paints the next band of
 * a 128x32 frame buffer; main prints each tick on the UART and parks after
 * eight.
 */
#include "irq.h"

#define TICKS 8u
#define PERIOD_US 2000u
#define ST_CS 0x3000u
#define ST_CLO 0x3004u
#define ST_C1 0x3010u

static struct fb fb;
static volatile uint32_t ticks;

static const uint32_t band[TICKS] = {
    0xFF0000FFu, 0xFF00FF00u, 0xFFFF0000u, 0xFF00FFFFu, 0xFFFF00FFu, 0xFFFFFF00u, 0xFFFFFFFFu, 0xFF808080u,
};

void irq_handler(void)
{
    if (!(REG(ST_CS) & (1u << IRQ_TIMER1)))
        return;
    REG(ST_CS) = 1u << IRQ_TIMER1; /* clear the match: the line drops */
    REG(ST_C1) = REG(ST_C1) + PERIOD_US;
    uint32_t n = ticks;
    if (n < TICKS)
        for (uint32_t y = 0; y < fb.height; y++)
            for (uint32_t x = n * 16; x < n * 16 + 16; x++)
                fb.pixels[y * (fb.pitch / 4) + x] = band[n];
    ticks = n + 1;
}

int main(void)
{
    uart_init();
    uart_puts("irq_timer: hello, interrupts\n");
    if (!fb_init(&fb, 128, 32)) {
        uart_puts("irq_timer: no frame buffer\n");
        return 1;
    }
    irq_setup();
    uint32_t t0 = REG(ST_CLO);
    REG(ST_C1) = t0 + PERIOD_US;
    REG(IC_ENABLE1) = 1u << IRQ_TIMER1;
    irq_unmask();
    uint32_t seen = 0;
    while (seen < TICKS) {
        wait_for_interrupt();
        while (seen < ticks) {
            seen++;
            uart_puts("tick ");
            uart_putc((char)('0' + seen));
            uart_puts("\n");
        }
    }
    irq_mask();
    REG(IC_DISABLE1) = 1u << IRQ_TIMER1;
    uint32_t elapsed = REG(ST_CLO) - t0;
    uart_puts(elapsed >= TICKS * PERIOD_US && elapsed < (TICKS + 1) * PERIOD_US ? "irq_timer: 8 timer interrupts in 16 ms\n"
                                                                               : "irq_timer: wrong time\n");
    return 0;
}
