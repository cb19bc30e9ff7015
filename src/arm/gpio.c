/*
 * gpio.c - the BCM2835 GPIO block (ARM Peripherals ch. 6, at 0x200000):
 * GPFSEL0-5 0x00-0x14, GPSET0/1 0x1C/0x20, GPCLR0/1 0x28/0x2C, GPLEV0/1
 * 0x34/0x38, the event detect registers 0x40-0x90, GPPUD 0x94, GPPUDCLK0/1
 * 0x98/0x9C.  No pins are connected: levels read back the output latches
 * (an LED blink works), events never fire.
 */
#include <string.h>

#include "arm/periph.h"

enum gpio_reg {
    GP_FSEL0 = 0x00,
    GP_FSEL5 = 0x14,
    GP_SET0 = 0x1C,
    GP_SET1 = 0x20,
    GP_CLR0 = 0x28,
    GP_CLR1 = 0x2C,
    GP_LEV0 = 0x34,
    GP_LEV1 = 0x38,
    GP_EDS0 = 0x40, /* GPEDS0 .. GPAFEN1: 12 words */
    GP_AFEN1 = 0x8C,
    GP_PUD = 0x94,
    GP_PUDCLK0 = 0x98,
    GP_PUDCLK1 = 0x9C,
};

void vc4_gpio_reset(struct vc4_gpio *g)
{
    memset(g, 0, sizeof *g);
}

bool vc4_gpio_read(const struct vc4_gpio *g, uint32_t off, uint32_t *v)
{
    if (off % 4)
        return false;
    if (off <= GP_FSEL5)
        *v = g->fsel[off / 4];
    else if (off == GP_LEV0 || off == GP_LEV1)
        *v = g->level[(off - GP_LEV0) / 4];
    else if (off >= GP_EDS0 && off <= GP_AFEN1)
        *v = g->event_detect[(off - GP_EDS0) / 4];
    else if (off == GP_PUD)
        *v = g->pud;
    else if (off == GP_PUDCLK0 || off == GP_PUDCLK1)
        *v = g->pudclk[(off - GP_PUDCLK0) / 4];
    else if (off == GP_SET0 || off == GP_SET1 || off == GP_CLR0 || off == GP_CLR1)
        *v = 0; /* write-only */
    else
        return false;
    return true;
}

bool vc4_gpio_write(struct vc4_gpio *g, uint32_t off, uint32_t v)
{
    if (off % 4)
        return false;
    if (off <= GP_FSEL5)
        g->fsel[off / 4] = v;
    else if (off == GP_SET0 || off == GP_SET1)
        g->level[(off - GP_SET0) / 4] |= v;
    else if (off == GP_CLR0 || off == GP_CLR1)
        g->level[(off - GP_CLR0) / 4] &= ~v;
    else if (off >= GP_EDS0 && off <= GP_AFEN1)
        g->event_detect[(off - GP_EDS0) / 4] = off == GP_EDS0 || off == GP_EDS0 + 4 ? 0 : v;
    else if (off == GP_PUD)
        g->pud = v;
    else if (off == GP_PUDCLK0 || off == GP_PUDCLK1)
        g->pudclk[(off - GP_PUDCLK0) / 4] = v;
    else if (off == GP_LEV0 || off == GP_LEV1)
        ; /* read-only */
    else
        return false;
    return true;
}
