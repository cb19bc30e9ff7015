/*
 * intc.c - the ARM interrupt controller of the BCM2835 (ARM Peripherals
 * ch. 7, at 0xB200): IRQ basic pending 0x200, pending 1/2 (GPU IRQs 0-31,
 * 32-63) 0x204/0x208, FIQ control 0x20C, enable 1/2/basic 0x210-0x218,
 * disable 1/2/basic 0x21C-0x224.  Basic pending bit 8 = something in
 * pending 1, bit 9 = something in pending 2.
 *
 * Pending bits are the sources' levels (system timer matches, UARTs),
 * gathered by arm.c.  The core is not interrupted (Unicorn has no IRQ
 * input; docs/boot.md): an enabled pending interrupt only wakes a WFI.
 */
#include <string.h>

#include "arm/periph.h"

enum intc_reg { /* offsets from 0xB200 */
    IC_BASIC_PENDING = 0x00,
    IC_PENDING1 = 0x04,
    IC_PENDING2 = 0x08,
    IC_FIQ = 0x0C,
    IC_ENABLE1 = 0x10,
    IC_ENABLE2 = 0x14,
    IC_ENABLE_BASIC = 0x18,
    IC_DISABLE1 = 0x1C,
    IC_DISABLE2 = 0x20,
    IC_DISABLE_BASIC = 0x24,
};
#define IC_BASIC_ANY1 (1u << 8)
#define IC_BASIC_ANY2 (1u << 9)

void vc4_intc_reset(struct vc4_intc *c)
{
    memset(c, 0, sizeof *c);
}

bool vc4_intc_read(const struct vc4_intc *c, uint32_t off, const struct vc4_irq_lines *l, uint32_t *v)
{
    switch (off) {
    case IC_BASIC_PENDING:
        *v = (l->pending[0] ? IC_BASIC_ANY1 : 0) | (l->pending[1] ? IC_BASIC_ANY2 : 0);
        return true;
    case IC_PENDING1: *v = l->pending[0]; return true;
    case IC_PENDING2: *v = l->pending[1]; return true;
    case IC_FIQ: *v = c->fiq; return true;
    case IC_ENABLE1: case IC_DISABLE1: *v = c->enable[0]; return true;
    case IC_ENABLE2: case IC_DISABLE2: *v = c->enable[1]; return true;
    case IC_ENABLE_BASIC: case IC_DISABLE_BASIC: *v = c->enable[2]; return true;
    default: return false;
    }
}

bool vc4_intc_write(struct vc4_intc *c, uint32_t off, uint32_t v)
{
    switch (off) {
    case IC_BASIC_PENDING: case IC_PENDING1: case IC_PENDING2: return true; /* read-only */
    case IC_FIQ: c->fiq = v; return true;
    case IC_ENABLE1: c->enable[0] |= v; return true;
    case IC_ENABLE2: c->enable[1] |= v; return true;
    case IC_ENABLE_BASIC: c->enable[2] |= v; return true;
    case IC_DISABLE1: c->enable[0] &= ~v; return true;
    case IC_DISABLE2: c->enable[1] &= ~v; return true;
    case IC_DISABLE_BASIC: c->enable[2] &= ~v; return true;
    default: return false;
    }
}

bool vc4_intc_pending(const struct vc4_intc *c, const struct vc4_irq_lines *l)
{
    return (l->pending[0] & c->enable[0]) || (l->pending[1] & c->enable[1]);
}
