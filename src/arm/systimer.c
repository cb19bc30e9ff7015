/*
 * systimer.c - the BCM2835 system timer (ARM Peripherals ch. 12): a 64-bit
 * free-running counter at 1 MHz (CLO/CHI) and four 32-bit compare registers
 * C0..C3; when the low word reaches Cn, CS bit Mn is set (and the
 * interrupt line "system timer match n" rises, IRQ n of the GPU IRQs).
 * Channels 0 and 2 belong to the VideoCore firmware; bare-metal programs
 * use 1 and 3.  Writing 1 to a CS bit clears it.
 *
 * Here the counter is the emulated time (ARM instructions / clock MHz, see
 * arm.c): deterministic, so a program that waits for the timer always sees
 * the same values.
 */
#include <string.h>

#include "arm/periph.h"

enum systimer_reg {
    ST_CS = 0x00,
    ST_CLO = 0x04,
    ST_CHI = 0x08,
    ST_C0 = 0x0C, /* C0..C3 at 0x0C, 0x10, 0x14, 0x18 */
    ST_C3 = 0x18,
};

void vc4_systimer_reset(struct vc4_systimer *t)
{
    memset(t, 0, sizeof *t);
}

void vc4_systimer_tick(struct vc4_systimer *t, uint64_t now_us)
{
    if (now_us <= t->last_us)
        return;
    /* a compare matches when the low word passes its value: (last, now] */
    uint64_t span = now_us - t->last_us;
    for (unsigned n = 0; n < 4; n++) {
        uint32_t ahead = t->c[n] - (uint32_t)t->last_us; /* wraps like the counter */
        if (ahead != 0 && ahead <= span)
            t->cs |= 1u << n;
    }
    t->last_us = now_us;
}

bool vc4_systimer_read(struct vc4_systimer *t, uint32_t off, uint64_t now_us, uint32_t *v)
{
    vc4_systimer_tick(t, now_us);
    switch (off) {
    case ST_CS: *v = t->cs; return true;
    case ST_CLO: *v = (uint32_t)now_us; return true;
    case ST_CHI: *v = (uint32_t)(now_us >> 32); return true;
    default:
        if (off >= ST_C0 && off <= ST_C3 && off % 4 == 0) {
            *v = t->c[(off - ST_C0) / 4];
            return true;
        }
        return false;
    }
}

bool vc4_systimer_write(struct vc4_systimer *t, uint32_t off, uint32_t v)
{
    if (off == ST_CS) {
        t->cs &= ~(v & 0xFu);
        return true;
    }
    if (off == ST_CLO || off == ST_CHI)
        return true; /* read-only: the write is ignored */
    if (off >= ST_C0 && off <= ST_C3 && off % 4 == 0) {
        t->c[(off - ST_C0) / 4] = v;
        return true;
    }
    return false;
}

uint64_t vc4_systimer_next_us(const struct vc4_systimer *t, unsigned channels)
{
    uint64_t next = UINT64_MAX;
    for (unsigned n = 0; n < 4; n++) {
        if (!(channels & (1u << n)) || (t->cs & (1u << n)))
            continue; /* not asked for, or already matched (the line is up) */
        uint32_t ahead = t->c[n] - (uint32_t)t->last_us;
        uint64_t at = t->last_us + (ahead ? ahead : (1ull << 32));
        if (at < next)
            next = at;
    }
    return next;
}
