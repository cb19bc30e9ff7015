/*
 * intc.c - the ARM interrupt controller of the BCM2835 (ARM Peripherals
 * ch. 7, at 0xB200): IRQ basic pending 0x200, pending 1/2 (GPU IRQs 0-31,
 * 32-63) 0x204/0x208, FIQ control 0x20C, enable 1/2/basic 0x210-0x218,
 * disable 1/2/basic 0x21C-0x224.  Basic pending bit 8 = something in
 * pending 1, bit 9 = something in pending 2.
 *
 * Basic pending bits 0-7 are the ARM-side sources (bit 1: the ARM
 * mailbox); bits 10-20 repeat GPU IRQs 7, 9, 10, 18, 19, 53-57 and 62 (the
 * manual's table 7.2: so a handler finds the V3D, IRQ 10, in one read).
 *
 * Pending bits are the sources' levels (system timer matches, V3D, UARTs,
 * mailbox), gathered by arm.c.  The controller's output, an enabled
 * pending interrupt, interrupts the core (arm.c takes the IRQ exception
 * when the core has IRQs unmasked) and wakes a WFI.  FIQ control is stored;
 * no FIQ is delivered.
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
#define IC_BASIC_ARM_MASK 0xFFu

/* Basic pending bits 10-20: the GPU IRQs they repeat (ARM Peripherals 7.5). */
static const uint8_t basic_shortcuts[] = {7, 9, 10, 18, 19, 53, 54, 55, 56, 57, 62};
enum { IC_BASIC_SHORTCUT0 = 10 };

void vc4_intc_reset(struct vc4_intc *c)
{
    memset(c, 0, sizeof *c);
}

bool vc4_intc_read(const struct vc4_intc *c, uint32_t off, const struct vc4_irq_lines *l, uint32_t *v)
{
    switch (off) {
    case IC_BASIC_PENDING:
        *v = (l->basic & IC_BASIC_ARM_MASK) | (l->pending[0] ? IC_BASIC_ANY1 : 0) |
             (l->pending[1] ? IC_BASIC_ANY2 : 0);
        for (unsigned i = 0; i < sizeof basic_shortcuts; i++) {
            unsigned irq = basic_shortcuts[i];
            if (l->pending[irq / 32] & (1u << (irq % 32)))
                *v |= 1u << (IC_BASIC_SHORTCUT0 + i);
        }
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
    return (l->pending[0] & c->enable[0]) || (l->pending[1] & c->enable[1]) ||
           (l->basic & c->enable[2] & IC_BASIC_ARM_MASK);
}
