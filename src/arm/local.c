/*
 * local.c - the ARM-local peripherals of the BCM2836/7 (Pi 2 and 3) at ARM
 * physical 0x40000000: "QA7" (BCM2836 ARM-local peripherals, rev 3.4)
 * sections 3-4; Linux irq-bcm2836.c; QEMU hw/intc/bcm2836_control.c for
 * the local timer's clock.
 *
 *   0x00 control, 0x08 core timer prescaler, 0x0C GPU interrupt routing
 *   (bits 1:0 the core that gets the GPU IRQ, 3:2 the FIQ), 0x10/0x14 PMU
 *   routing set/clear, 0x1C/0x20 the 64-bit core timer (low, high),
 *   0x24 local timer routing (bits 2:0: 0-3 core n IRQ, 4-7 core n FIQ),
 *   0x34 local timer control and status (reload 27:0, enable 28, interrupt
 *   enable 29, interrupt flag 31), 0x38 local timer write flags (31 clears
 *   the flag, 30 reloads), 0x40-0x4C core timer interrupt control,
 *   0x50-0x5C core mailbox interrupt control, 0x60-0x6C core IRQ source
 *   (bit 8 GPU, bit 11 local timer), 0x70-0x7C core FIQ source.
 *
 * One core runs (arm.c), core 0: its IRQ input is the GPU interrupt (the
 * BCM2835 controller's output, intc.c) when routed to core 0 IRQ (the
 * reset value), and the local timer when routed there.  The local timer
 * counts down at 38.4 MHz (QEMU's LOCALTIMER_FREQ; UNVERIFIED on hardware)
 * from its reload value and sets its flag at 0, reloading.
 *
 * Not modelled: the ARM generic timers' interrupts (CNTP/CNTV, source bits
 * 0-3: Unicorn's counter is not the emulated time), the core mailboxes
 * (0x80-0xFF: the other cores never start), FIQs, the PMU and AXI counters.
 * The core timer counts the 19.2 MHz crystal scaled by the prescaler
 * (prescaler / 2^31; the firmware leaves 0x80000000, 1:1: UNVERIFIED).
 */
#include <string.h>

#include "arm/periph.h"

enum local_reg {
    LC_CONTROL = 0x00,
    LC_PRESCALER = 0x08,
    LC_GPU_ROUTING = 0x0C,
    LC_PMU_SET = 0x10,
    LC_PMU_CLEAR = 0x14,
    LC_CORE_TIMER_LO = 0x1C,
    LC_CORE_TIMER_HI = 0x20,
    LC_LOCAL_ROUTING = 0x24,
    LC_TIMER_CTL = 0x34,
    LC_TIMER_FLAGS = 0x38,
    LC_CORE_TIMER_IRQ = 0x40, /* 0x40-0x4C: core 0-3 */
    LC_MBOX_IRQ = 0x50,       /* 0x50-0x5C */
    LC_IRQ_SOURCE = 0x60,     /* 0x60-0x6C */
    LC_FIQ_SOURCE = 0x70,     /* 0x70-0x7C */
    LC_REGS_END = 0x80,
};
#define LT_RELOAD_MASK 0x0FFFFFFFu
#define LT_ENABLE (1u << 28)
#define LT_IRQ_ENABLE (1u << 29)
#define LT_FLAG (1u << 31)
#define LT_WRITE_CLEAR (1u << 31)
#define LT_WRITE_RELOAD (1u << 30)
#define SRC_GPU (1u << 8)
#define SRC_LOCAL_TIMER (1u << 11)
#define LC_PRESCALER_RESET 0x80000000u

/* the local timer's 38.4 MHz in ticks per microsecond: 192 / 5 */
static uint64_t lt_ticks(uint64_t us) { return us * 192 / 5; }

void vc4_local_reset(struct vc4_local *l)
{
    memset(l, 0, sizeof *l);
    l->prescaler = LC_PRESCALER_RESET;
}

void vc4_local_tick(struct vc4_local *l, uint64_t now_us)
{
    uint32_t reload = l->timer_ctl & LT_RELOAD_MASK;
    if (!(l->timer_ctl & LT_ENABLE) || !reload)
        return;
    uint64_t now = lt_ticks(now_us);
    if (now - l->timer_start < reload)
        return;
    l->timer_flag = true;
    /* the count reloads at 0: restart from the last expiry (whole periods) */
    l->timer_start += (now - l->timer_start) / reload * reload;
}

uint64_t vc4_local_next_us(const struct vc4_local *l, uint64_t now_us)
{
    uint32_t reload = l->timer_ctl & LT_RELOAD_MASK;
    if (!(l->timer_ctl & LT_ENABLE) || !(l->timer_ctl & LT_IRQ_ENABLE) || !reload || l->timer_flag)
        return UINT64_MAX;
    uint64_t at_ticks = l->timer_start + reload;
    uint64_t at = (at_ticks * 5 + 191) / 192; /* the first microsecond at or after it */
    return at > now_us ? at : now_us;
}

static bool local_timer_irq(const struct vc4_local *l)
{
    return l->timer_flag && (l->timer_ctl & LT_IRQ_ENABLE) && (l->local_routing & 7u) == 0;
}

static uint32_t core0_source(const struct vc4_local *l, bool gpu_irq)
{
    return (gpu_irq && (l->gpu_routing & 3u) == 0 ? SRC_GPU : 0) | (local_timer_irq(l) ? SRC_LOCAL_TIMER : 0);
}

bool vc4_local_core0_irq(const struct vc4_local *l, bool gpu_irq)
{
    return core0_source(l, gpu_irq) != 0;
}

bool vc4_local_read(struct vc4_local *l, uint32_t off, bool gpu_irq, uint64_t now_us, uint32_t *v)
{
    vc4_local_tick(l, now_us);
    uint64_t crystal = now_us * 192 / 10; /* 19.2 MHz */
    switch (off) {
    case LC_CONTROL: *v = l->control; return true;
    case LC_PRESCALER: *v = l->prescaler; return true;
    case LC_GPU_ROUTING: *v = l->gpu_routing; return true;
    case LC_PMU_SET: case LC_PMU_CLEAR: *v = l->pmu_routing; return true;
    case LC_CORE_TIMER_LO: *v = (uint32_t)((crystal * l->prescaler) >> 31); return true;
    case LC_CORE_TIMER_HI: *v = (uint32_t)(((crystal * l->prescaler) >> 31) >> 32); return true;
    case LC_LOCAL_ROUTING: *v = l->local_routing; return true;
    case LC_TIMER_CTL: *v = l->timer_ctl | (l->timer_flag ? LT_FLAG : 0); return true;
    case LC_TIMER_FLAGS: *v = 0; return true;
    default: break;
    }
    if (off >= LC_CORE_TIMER_IRQ && off < LC_REGS_END && off % 4 == 0) {
        unsigned core = (off / 4) & 3;
        switch (off & ~0xFu) {
        case LC_CORE_TIMER_IRQ: *v = l->core_timer_ctl[core]; return true;
        case LC_MBOX_IRQ: *v = l->mbox_ctl[core]; return true;
        case LC_IRQ_SOURCE: *v = core == 0 ? core0_source(l, gpu_irq) : 0; return true;
        case LC_FIQ_SOURCE: *v = 0; return true;
        default: break;
        }
    }
    return false;
}

bool vc4_local_write(struct vc4_local *l, uint32_t off, uint32_t v, uint64_t now_us)
{
    vc4_local_tick(l, now_us);
    switch (off) {
    case LC_CONTROL: l->control = v; return true;
    case LC_PRESCALER: l->prescaler = v; return true;
    case LC_GPU_ROUTING: l->gpu_routing = v & 0xFu; return true;
    case LC_PMU_SET: l->pmu_routing |= v & 0xFFu; return true;
    case LC_PMU_CLEAR: l->pmu_routing &= ~(v & 0xFFu); return true;
    case LC_CORE_TIMER_LO: case LC_CORE_TIMER_HI: return true; /* setting the core timer: ignored */
    case LC_LOCAL_ROUTING: l->local_routing = v & 7u; return true;
    case LC_TIMER_CTL:
        if ((v & LT_ENABLE) && !(l->timer_ctl & LT_ENABLE))
            l->timer_start = lt_ticks(now_us); /* starts counting from the reload value */
        l->timer_ctl = v & (LT_RELOAD_MASK | LT_ENABLE | LT_IRQ_ENABLE);
        return true;
    case LC_TIMER_FLAGS:
        if (v & LT_WRITE_CLEAR)
            l->timer_flag = false;
        if (v & LT_WRITE_RELOAD)
            l->timer_start = lt_ticks(now_us);
        return true;
    default: break;
    }
    if (off >= LC_CORE_TIMER_IRQ && off < LC_IRQ_SOURCE && off % 4 == 0) {
        unsigned core = (off / 4) & 3;
        if ((off & ~0xFu) == LC_CORE_TIMER_IRQ)
            l->core_timer_ctl[core] = v & 0xFFu;
        else
            l->mbox_ctl[core] = v & 0xFFu;
        return true;
    }
    return off >= LC_IRQ_SOURCE && off < LC_REGS_END && off % 4 == 0; /* sources: read-only */
}
