/*
 * arm.c - the ARM core of `vc4kit boot`: Unicorn (Debian libunicorn-dev)
 * running a bare-metal kernel image as the Pi firmware starts it, with the
 * peripheral window (periph.h) and the V3D reached through vc4kit/emu.h.
 *
 * The machine, as the firmware leaves it (firmware wiki "config.txt",
 * "Boot flow"; Linux Documentation/arm/booting.rst):
 *  - RAM at ARM physical 0 is the emulator's memory (the RAM offset the V3D
 *    sees behind its bus aliases): one memory, shared with the V3D;
 *  - the image at 0x8000 (kernel.img, kernel7.img), 0x80000 (kernel8.img,
 *    AArch64), or 0 with kernel_old=1; r0 = 0, r1 = the machine type (0xC42
 *    BCM2708, 0xC43 BCM2709), r2 = 0x100 where a minimal ATAG list (CORE,
 *    MEM, NONE) is; AArch64: x0 = 0 (no device tree);
 *  - the peripherals at 0x20000000 (Pi 1) or 0x3F000000 (Pi 2/3), 16 MiB;
 *    on a Pi 2/3 the ARM-local block at 0x40000000 (local.c: interrupt
 *    routing, the local timer; one core runs, the others never start).
 *  - The CPU starts in the mode Unicorn gives (SVC / EL1), not HYP / EL2 as
 *    the Pi 2/3 firmware does; code that drops from HYP to SVC runs, since
 *    it only writes CPSR / SPSR.  UNVERIFIED beyond the examples.
 *
 * PCs in diagnostics of memory accesses are the start of the translated
 * block holding the access (Unicorn keeps the PC per block); the end of a
 * run names the exact PC.
 *
 * Time: the ARM runs cpu_mhz instructions per emulated microsecond (the
 * system timer's tick); instructions are counted per translated block as
 * block bytes / 4.  Deterministic: the same image gives the same run.
 *
 * The V3D runs when the ARM looks at it: a write that starts work (CT0EA,
 * CT1EA, SRQPC, the mailbox's execute-QPU tag) marks it pending, and the
 * emulator runs until idle (vc4_emu_run) before the ARM's next read of a
 * V3D register or of the mailbox, at the end of each slice of
 * instructions, and before the run ends.  So a program that kicks CT1
 * before CT0, or queues several user programs, sees them run together, and
 * the V3D takes no ARM time (the ARM's polling loop ends at once).
 *
 * Interrupts: Unicorn has no interrupt input, so the IRQ exception is
 * taken here, at a translated block's start: the block hook (which already
 * counts instructions) looks at the interrupt lines only when something
 * may have changed them (a peripheral write, a V3D run, the time of the
 * next enabled timer match), and when core 0's IRQ input is high and the
 * core has IRQs unmasked it stops the core before the block runs; the run
 * loop then enters the exception through Unicorn's registers as the ARM
 * ARM says (AArch32: B1.8.3, B1.9.10 "IRQ exception"; AArch64: D1.10
 * "Exception entry") and resumes at the vector.  A WFI with nothing
 * pending sleeps until the next enabled timer match.
 *
 * A run ends when the CPU parks (a branch to itself; WFI/WFE with no
 * enabled interrupt pending or coming and the V3D idle), at the
 * instruction, time or frame limit, at an ARM fault (unmapped address,
 * undefined instruction, an exception other than IRQ: the program's
 * vectors are not taken for those) or when the V3D faults or hangs; each
 * end is one diagnostic with the PC.
 */
#include "arm/arm.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "arm/periph.h"
#include "base/base.h"
#include "spec/rules.h"

#define ARM_SLICE 200000u        /* instructions between V3D syncs and limit checks */
#define ARM_GPU_MEM (64u << 20)  /* gpu_mem=64: the VideoCore's part of RAM */
#define ARM_LOCAL_BASE 0x40000000u
#define ARM_LOCAL_SPAN 0x00040000u
#define ARM_ATAGS 0x100u
#define ARM_UNKNOWN_REPORTS 16u  /* distinct unknown addresses reported one by one */

/* Exception entry (ARM ARM).  AArch32 CPSR: mode 4:0, T 5, F 6, I 7, A 8,
 * E 9, IT[7:2] 15:10, J 24, IT[1:0] 26:25; SCTLR: V 13 (high vectors at
 * 0xFFFF0000), EE 25, TE 30 (ARMv7: take exceptions in Thumb).  The IRQ
 * vector is at offset 0x18; LR_irq = the next instruction's address + 4,
 * in ARM and Thumb state alike. */
#define A32_MODE_MASK 0x1Fu
#define A32_MODE_USR 0x10u
#define A32_MODE_IRQ 0x12u
#define A32_T (1u << 5)
#define A32_I (1u << 7)
#define A32_A (1u << 8)
#define A32_E (1u << 9)
#define A32_IT_MASK ((0x3Fu << 10) | (3u << 25))
#define A32_J (1u << 24)
#define A32_SCTLR_V (1u << 13)
#define A32_SCTLR_EE (1u << 25)
#define A32_SCTLR_TE (1u << 30)
#define A32_HIGH_VECTORS 0xFFFF0000u
#define A32_VECTOR_IRQ 0x18u
#define A32_IRQ_LR_OFFSET 4u
/* AArch64 PSTATE: SPSel 0, EL 3:2, F 6, I 7, A 8, D 9.  IRQ vectors from
 * VBAR_ELx: current EL with SP_EL0 0x080, with SP_ELx 0x280, from a lower
 * EL in AArch64 0x480; ELR = the next instruction's address. */
#define A64_SPSEL 1u
#define A64_EL_SHIFT 2
#define A64_I (1u << 7)
#define A64_DAIF (0xFu << 6)
#define A64_VECTOR_IRQ_SP0 0x080u
#define A64_VECTOR_IRQ_SPX 0x280u
#define A64_VECTOR_IRQ_LOWER 0x480u

/* The three boards (BCM2835/6/7 ARM Peripherals; Linux arch/arm mach ids). */
static const struct board {
    const char *name;
    uint32_t periph_base;
    uint32_t bus_alias; /* firmware addresses: L2-cached on a Pi 1, uncached on 2/3 */
    int cpu_model;      /* Unicorn's UC_CPU_ARM_* for AArch32 */
    uint32_t machine;   /* r1 */
    uint32_t mhz;
    bool local;         /* ARM-local peripherals at 0x40000000 */
} boards[VC4_PI_BOARDS] = {
    [VC4_PI1] = {"pi1", 0x20000000u, 0x40000000u, UC_CPU_ARM_1176, 0xC42, 700, false},
    [VC4_PI2] = {"pi2", 0x3F000000u, 0xC0000000u, UC_CPU_ARM_CORTEX_A7, 0xC43, 900, true},
    [VC4_PI3] = {"pi3", 0x3F000000u, 0xC0000000u, UC_CPU_ARM_CORTEX_A7, 0xC43, 1200, true},
};

static const char *const end_names[VC4_ARM_END_KINDS] = {
    [VC4_ARM_END_PARKED] = "parked (branch to itself)",
    [VC4_ARM_END_WFI] = "parked (WFI/WFE, nothing pending)",
    [VC4_ARM_END_INSN_LIMIT] = "instruction limit",
    [VC4_ARM_END_TIME_LIMIT] = "time limit",
    [VC4_ARM_END_FRAME_LIMIT] = "frame limit",
    [VC4_ARM_END_FAULT] = "ARM fault",
    [VC4_ARM_END_V3D] = "V3D failure",
    [VC4_ARM_END_STOPPED] = "stopped by the caller",
};

/* "Parked" instructions: branch to itself, WFI, WFE (ARM ARM encodings). */
#define A32_B_SELF 0xEAFFFFFEu
#define T16_B_SELF 0xE7FEu
#define A64_B_SELF 0x14000000u
#define A32_WFI 0xE320F003u
#define A32_WFE 0xE320F002u
#define T16_WFI 0xBF30u
#define T16_WFE 0xBF20u
#define A64_WFI 0xD503207Fu
#define A64_WFE 0xD503205Fu

/* The peripherals of the window, by offset (periph.h). */
enum periph_id { P_SYSTIMER, P_INTC, P_MBOX, P_GPIO, P_UART0, P_AUX, P_V3D, P_COUNT };
static const struct periph_range {
    uint32_t base, span;
    const char *name;
} periphs[P_COUNT] = {
    [P_SYSTIMER] = {VC4_PERIPH_SYSTIMER, 0x1C, "system timer"},
    [P_INTC] = {VC4_PERIPH_INTC, 0x28, "interrupt controller"},
    [P_MBOX] = {VC4_PERIPH_MBOX, 0x40, "mailbox"},
    [P_GPIO] = {VC4_PERIPH_GPIO, 0xB4, "GPIO"},
    [P_UART0] = {VC4_PERIPH_UART0, 0x90, "UART0 (PL011)"},
    [P_AUX] = {VC4_PERIPH_AUX, 0xD8, "AUX (mini UART)"},
    [P_V3D] = {VC4_PERIPH_V3D, VC4_V3D_REG_SPAN, "V3D"},
};

/* Unicorn is opened with dlopen by vc4_arm_create, not linked: linked, its
 * relocations cost every vc4kit process (every `vc4kit as`) ~20 ms at
 * start-up.  The functions arm.c calls, looked up by name, per handle. */
#ifndef VC4KIT_UNICORN_SONAME
#define VC4KIT_UNICORN_SONAME "libunicorn.so.2"
#endif
#define UC_FUNCS(X)                                                                                 \
    X(uc_open) X(uc_close) X(uc_ctl) X(uc_strerror) X(uc_mem_map_ptr) X(uc_mmio_map) X(uc_hook_add) \
    X(uc_emu_start) X(uc_emu_stop) X(uc_reg_read) X(uc_reg_write)
struct uc_api {
#define UC_MEMBER(name) __typeof__(name) *name;
    UC_FUNCS(UC_MEMBER)
#undef UC_MEMBER
};
#define UC(a, fn) ((a)->api.fn)

struct vc4_arm {
    struct vc4_arm_options o;
    void *uc_lib;
    struct uc_api api;
    const struct board *board;
    struct vc4_emu *emu;
    uc_engine *uc;
    uint8_t *ram;
    uint32_t ram_size; /* mapped for the ARM */
    struct vc4_arm_ctx ctx;
    struct vc4_systimer timer;
    struct vc4_intc intc;
    struct vc4_gpio gpio;
    struct vc4_pl011 uart0;
    struct vc4_aux aux;
    struct vc4_mbox mbox;
    struct vc4_local local; /* Pi 2/3 */
    /* interrupts */
    uint64_t irq_poll_at;   /* the block hook looks at the lines from this instruction count on */
    bool irq_take;          /* the hook stopped the core to take an IRQ */
    uint64_t irqs;          /* IRQ exceptions taken */
    uint64_t slept;         /* instruction times spent asleep in WFI (time, not instructions) */
    size_t next_at;         /* the next of o.at_us */
    uint64_t next_tick_us;  /* the next o.tick_us multiple */
    /* the run */
    uint64_t insns, slice_end, last_block;
    bool parked, stopped_v3d, frame_limit;
    uint64_t park_pc;
    bool v3d_pending;
    enum vc4_status v3d_status;
    uint64_t frames_seen, frames, kicks, unknown;
    bool fault;
    uint64_t fault_addr;
    const char *fault_what;
    uint32_t unknown_seen[ARM_UNKNOWN_REPORTS];
    unsigned n_unknown_seen;
};

struct vc4_arm_options vc4_arm_defaults(enum vc4_pi_board board, bool aarch64)
{
    struct vc4_arm_options o = {0};
    o.board = board < VC4_PI_BOARDS ? board : VC4_PI1;
    o.aarch64 = aarch64;
    o.load_addr = aarch64 ? 0x80000u : 0x8000u;
    o.cpu_mhz = boards[o.board].mhz;
    return o;
}

const char *vc4_arm_board_name(enum vc4_pi_board board)
{
    return board < VC4_PI_BOARDS ? boards[board].name : "?";
}

const char *vc4_arm_end_name(enum vc4_arm_end end)
{
    return end < VC4_ARM_END_KINDS ? end_names[end] : "?";
}

/* ---- diagnostics --------------------------------------------------------------- */

static uint64_t arm_pc(const struct vc4_arm *a)
{
    uint64_t pc = 0;
    if (a->o.aarch64) {
        UC(a, uc_reg_read)(a->uc, UC_ARM64_REG_PC, &pc);
    } else {
        uint32_t p = 0;
        UC(a, uc_reg_read)(a->uc, UC_ARM_REG_PC, &p);
        pc = p;
    }
    return pc;
}

/* rule: a registered rule, or VC4_RULE_NONE */
static void arm_diag(const struct vc4_arm *a, enum vc4_severity sev, enum vc4_diag_class cls, enum vc4_rule_id rule,
                     uint64_t addr, const char *fmt, ...) VC4_PRINTF(6, 7);
static void arm_diag(const struct vc4_arm *a, enum vc4_severity sev, enum vc4_diag_class cls, enum vc4_rule_id rule,
                     uint64_t addr, const char *fmt, ...)
{
    struct vc4_location loc = vc4_location_none();
    loc.addr = (int64_t)addr;
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (rule != VC4_RULE_NONE)
        vc4_rule_report(&a->o.sink, sev, "arm", rule, &loc, "%s", msg);
    else
        vc4_diag_emit(&a->o.sink, sev, cls, "arm", &loc, "%s", msg);
}

/* ---- time and the V3D ---------------------------------------------------------- */

static uint64_t now_us(const struct vc4_arm *a)
{
    return a->insns / (a->o.cpu_mhz ? a->o.cpu_mhz : 1);
}

static struct vc4_arm_ctx *ctx_now(struct vc4_arm *a)
{
    a->ctx.pc = arm_pc(a);
    a->ctx.now_us = now_us(a);
    return &a->ctx;
}

/* Something changed what the lines may be: look at the next block. */
static void irq_recheck(struct vc4_arm *a)
{
    a->irq_poll_at = 0;
}

/* Let the V3D run what the ARM queued; count ends of frame. */
static void v3d_sync(struct vc4_arm *a)
{
    if (!a->v3d_pending && !a->ctx.v3d_kicked)
        return;
    a->v3d_pending = a->ctx.v3d_kicked = false;
    if (a->stopped_v3d)
        return;
    enum vc4_status st = vc4_emu_run(a->emu, a->o.v3d_cycles);
    if (st != VC4_OK) {
        uint32_t ca0 = 0, ca1 = 0;
        vc4_emu_reg_read(a->emu, VC4_V3D_CT0CA, &ca0);
        vc4_emu_reg_read(a->emu, VC4_V3D_CT1CA, &ca1);
        uint32_t cs0 = 0;
        vc4_emu_reg_read(a->emu, VC4_V3D_CT0CS, &cs0);
        enum { CTERR = 1u << 3 }; /* CTnCS bit 3 (vc4_regs.h V3D_CTERR) */
        arm_diag(a, VC4_ERROR, VC4_DIAG_FAULT, VC4_RULE_NONE, (cs0 & CTERR) || !ca1 ? ca0 : ca1,
                 "the V3D stopped (%s): CT0CA 0x%08x, CT1CA 0x%08x; the ARM was at PC 0x%08llx",
                 vc4_status_name(st), ca0, ca1, (unsigned long long)arm_pc(a));
        a->stopped_v3d = true;
        a->v3d_status = st;
        UC(a, uc_emu_stop)(a->uc);
        return;
    }
    struct vc4_emu_frame f;
    vc4_emu_render_frame(a->emu, &f);
    while (a->frames_seen < f.frames && !a->frame_limit) {
        a->frames_seen++;
        a->frames++;
        if (a->o.on_frame)
            a->o.on_frame(a->o.frame_user, a, a->frames);
        if (a->o.max_frames && a->frames >= a->o.max_frames) {
            a->frame_limit = true;
            UC(a, uc_emu_stop)(a->uc);
        }
    }
    a->frames_seen = f.frames;
    irq_recheck(a); /* the V3D may have raised its interrupt */
}

/* The interrupt lines the sources drive (ARM Peripherals 7.5: system timer
 * matches are GPU IRQs 0-3, V3D 10, UART0 57; the ARM mailbox is basic
 * bit 1, raised while MAIL0 holds an answer and its config enables the
 * data interrupt, bit 0).  The V3D's line is INTCTL & INTENA (hardware
 * facts 11; Linux vc4_irq.c). */
static struct vc4_irq_lines irq_lines(struct vc4_arm *a)
{
    vc4_systimer_tick(&a->timer, now_us(a));
    struct vc4_irq_lines l = {{(a->timer.cs & 0xFu) << VC4_IRQ_TIMER0, 0}, 0};
    uint32_t intctl = 0, intena = 0;
    vc4_emu_reg_read(a->emu, VC4_V3D_INTCTL, &intctl);
    vc4_emu_reg_read(a->emu, VC4_V3D_INTENA, &intena);
    if (intctl & intena)
        l.pending[VC4_IRQ_V3D / 32] |= 1u << (VC4_IRQ_V3D % 32);
    if (a->uart0.ris & a->uart0.imsc)
        l.pending[VC4_IRQ_UART0 / 32] |= 1u << (VC4_IRQ_UART0 % 32);
    if (a->mbox.count && (a->mbox.config & VC4_MBOX_CONFIG_DATA_IRQ))
        l.basic |= 1u << VC4_IRQ_BASIC_MAILBOX;
    return l;
}

/* Core 0's IRQ input: the BCM2835 controller's output, through the Pi 2/3
 * ARM-local routing (local.c). */
static bool core_irq(struct vc4_arm *a)
{
    struct vc4_irq_lines l = irq_lines(a);
    bool gpu = vc4_intc_pending(&a->intc, &l);
    if (!a->board->local)
        return gpu;
    vc4_local_tick(&a->local, now_us(a));
    return vc4_local_core0_irq(&a->local, gpu);
}

/* The next emulated microsecond at which a timer raises an enabled line
 * (UINT64_MAX: none): what a WFI sleeps until, and when the block hook
 * next looks. */
static uint64_t next_irq_us(const struct vc4_arm *a)
{
    uint64_t t = vc4_systimer_next_us(&a->timer, a->intc.enable[0] >> VC4_IRQ_TIMER0);
    if (a->board->local) {
        uint64_t l = vc4_local_next_us(&a->local, now_us(a));
        t = l < t ? l : t;
    }
    return t;
}

static bool cpu_irq_masked(const struct vc4_arm *a)
{
    if (a->o.aarch64) {
        uint32_t pstate = 0;
        UC(a, uc_reg_read)(a->uc, UC_ARM64_REG_PSTATE, &pstate);
        return pstate & A64_I;
    }
    uint32_t cpsr = 0;
    UC(a, uc_reg_read)(a->uc, UC_ARM_REG_CPSR, &cpsr);
    return cpsr & A32_I;
}


/* ---- the peripheral window ------------------------------------------------------- */

static void unknown_access(struct vc4_arm *a, uint64_t addr, bool write, uint32_t v)
{
    a->unknown++;
    for (unsigned i = 0; i < a->n_unknown_seen; i++)
        if (a->unknown_seen[i] == (uint32_t)addr)
            return;
    uint64_t pc = arm_pc(a);
    if (a->n_unknown_seen < ARM_UNKNOWN_REPORTS) {
        a->unknown_seen[a->n_unknown_seen++] = (uint32_t)addr;
        if (write)
            arm_diag(a, VC4_WARNING, VC4_DIAG_RULE, VC4_RULE_ARM_UNKNOWN_PERIPHERAL, addr,
                     "write of 0x%08x to 0x%08llx, a peripheral address nothing models (in the block at PC 0x%08llx): ignored", v,
                     (unsigned long long)addr, (unsigned long long)pc);
        else
            arm_diag(a, VC4_WARNING, VC4_DIAG_RULE, VC4_RULE_ARM_UNKNOWN_PERIPHERAL, addr,
                     "read of 0x%08llx, a peripheral address nothing models (in the block at PC 0x%08llx): reads 0",
                     (unsigned long long)addr, (unsigned long long)pc);
    }
}

static bool v3d_access(struct vc4_arm *a, uint32_t off, bool write, uint32_t *v)
{
    if (write) {
        if (vc4_emu_reg_write(a->emu, off, *v) != VC4_OK)
            return false;
        if (off == VC4_V3D_CT0EA || off == VC4_V3D_CT1EA || off == VC4_V3D_SRQPC) {
            a->v3d_pending = true;
            a->kicks++;
        }
        return true;
    }
    v3d_sync(a); /* the ARM looks: what it started has run */
    return vc4_emu_reg_read(a->emu, off, v) == VC4_OK;
}

/* One word access at offset off of the window; false = nothing there. */
static bool periph_access(struct vc4_arm *a, uint32_t off, bool write, uint32_t *v)
{
    unsigned id = P_COUNT;
    for (unsigned i = 0; i < P_COUNT; i++)
        if (off >= periphs[i].base && off - periphs[i].base < periphs[i].span) {
            id = i;
            break;
        }
    if (id == P_COUNT)
        return false;
    uint32_t r = off - periphs[id].base;
    struct vc4_arm_ctx *ctx = ctx_now(a);
    if (write || id == P_MBOX)
        irq_recheck(a); /* enables, compares, clears, the mailbox queue */
    switch (id) {
    case P_SYSTIMER:
        return write ? vc4_systimer_write(&a->timer, r, *v) : vc4_systimer_read(&a->timer, r, ctx->now_us, v);
    case P_INTC: {
        struct vc4_irq_lines l = irq_lines(a);
        return write ? vc4_intc_write(&a->intc, r, *v) : vc4_intc_read(&a->intc, r, &l, v);
    }
    case P_MBOX:
        if (write)
            return vc4_mbox_write(&a->mbox, r, *v, ctx);
        v3d_sync(a); /* an execute-QPU answer waits for the programs */
        return vc4_mbox_read(&a->mbox, r, v);
    case P_GPIO: return write ? vc4_gpio_write(&a->gpio, r, *v) : vc4_gpio_read(&a->gpio, r, v);
    case P_UART0: return write ? vc4_pl011_write(&a->uart0, r, *v, ctx) : vc4_pl011_read(&a->uart0, r, v);
    case P_AUX: return write ? vc4_aux_write(&a->aux, r, *v, ctx) : vc4_aux_read(&a->aux, r, v);
    case P_V3D: return v3d_access(a, r, write, v);
    default: return false;
    }
}

/* Sub-word accesses read or merge into the aligned word. */
static uint64_t mmio_read(uc_engine *uc, uint64_t offset, unsigned size, void *user)
{
    (void)uc;
    struct vc4_arm *a = user;
    uint32_t word = (uint32_t)offset & ~3u, v = 0;
    if (!periph_access(a, word, false, &v)) {
        unknown_access(a, a->board->periph_base + offset, false, 0);
        return 0;
    }
    unsigned sh = 8 * ((unsigned)offset & 3u);
    return size >= 4 ? v : (v >> sh) & ((1u << (8 * size)) - 1);
}

static void mmio_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value, void *user)
{
    (void)uc;
    struct vc4_arm *a = user;
    uint32_t word = (uint32_t)offset & ~3u, v = (uint32_t)value;
    if (size < 4) { /* a byte or half-word store: the UARTs take bytes */
        unsigned sh = 8 * ((unsigned)offset & 3u);
        v = (uint32_t)(value & ((1u << (8 * size)) - 1)) << sh;
    }
    if (!periph_access(a, word, true, &v))
        unknown_access(a, a->board->periph_base + offset, true, (uint32_t)value);
}

static uint64_t local_read(uc_engine *uc, uint64_t offset, unsigned size, void *user)
{
    (void)uc;
    (void)size;
    struct vc4_arm *a = user;
    uint32_t v = 0;
    if (offset < VC4_LOCAL_SPAN) {
        struct vc4_irq_lines l = irq_lines(a);
        if (vc4_local_read(&a->local, (uint32_t)offset & ~3u, vc4_intc_pending(&a->intc, &l), now_us(a), &v))
            return v;
    }
    unknown_access(a, ARM_LOCAL_BASE + offset, false, 0);
    return 0;
}

static void local_write(uc_engine *uc, uint64_t offset, unsigned size, uint64_t value, void *user)
{
    (void)uc;
    (void)size;
    struct vc4_arm *a = user;
    irq_recheck(a);
    if (offset >= VC4_LOCAL_SPAN || !vc4_local_write(&a->local, (uint32_t)offset & ~3u, (uint32_t)value, now_us(a)))
        unknown_access(a, ARM_LOCAL_BASE + offset, true, (uint32_t)value);
}

/* ---- hooks ------------------------------------------------------------------------ */

static uint32_t ram_word(const struct vc4_arm *a, uint64_t addr, unsigned bytes)
{
    if (addr + bytes > a->ram_size)
        return 0;
    return bytes == 2 ? vc4_le16(a->ram + addr) : vc4_le32(a->ram + addr);
}

static bool is_self_branch(const struct vc4_arm *a, uint64_t addr, uint32_t size)
{
    if (a->o.aarch64)
        return size == 4 && ram_word(a, addr, 4) == A64_B_SELF;
    if (size == 2)
        return ram_word(a, addr, 2) == T16_B_SELF;
    return size == 4 && ram_word(a, addr, 4) == A32_B_SELF;
}

/* The block hook's look at the interrupt lines: true = stop the core
 * before this block and take the IRQ.  The V3D is not run from here: work
 * kicked runs when the ARM next looks at the V3D, sleeps in WFI or ends a
 * slice (arm.c's V3D model), so its interrupt comes while a frame loop
 * waits in WFI, as on the hardware, where the V3D takes time. */
static bool irq_poll(struct vc4_arm *a)
{
    if (!core_irq(a)) {
        uint64_t t = next_irq_us(a);
        a->irq_poll_at = t == UINT64_MAX ? UINT64_MAX : t * a->o.cpu_mhz;
        return false;
    }
    a->irq_poll_at = a->insns; /* up and masked: look again at the next block */
    return !cpu_irq_masked(a);
}

static void hook_block(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
    struct vc4_arm *a = user;
    uint64_t n = size >= 4 ? size / 4 : 1;
    a->insns += n;
    if (a->insns >= a->irq_poll_at && irq_poll(a)) {
        a->insns -= n; /* the block does not run now */
        a->irq_take = true;
        UC(a, uc_emu_stop)(uc);
        return;
    }
    if (address == a->last_block && is_self_branch(a, address, size)) {
        a->parked = true;
        a->park_pc = address;
        UC(a, uc_emu_stop)(uc);
    }
    a->last_block = address;
    if (a->insns >= a->slice_end)
        UC(a, uc_emu_stop)(uc);
}

static bool hook_unmapped(uc_engine *uc, uc_mem_type type, uint64_t address, int size, int64_t value, void *user)
{
    (void)uc;
    (void)size;
    (void)value;
    struct vc4_arm *a = user;
    a->fault = true;
    a->fault_addr = address;
    a->fault_what = type == UC_MEM_FETCH_UNMAPPED || type == UC_MEM_FETCH_PROT ? "instruction fetch from"
                    : type == UC_MEM_WRITE_UNMAPPED || type == UC_MEM_WRITE_PROT ? "write to"
                                                                                 : "read of";
    return false;
}

static void hook_intr(uc_engine *uc, uint32_t intno, void *user)
{
    struct vc4_arm *a = user;
    a->fault = true;
    a->fault_addr = arm_pc(a);
    a->fault_what = intno == 2 ? "a supervisor call (SVC) at"
                  : intno == 1 ? "an undefined instruction at"
                  : intno == 3 || intno == 4 ? "an abort (prefetch/data) at" : "an exception at";
    UC(a, uc_emu_stop)(uc);
}

/* ---- creating ---------------------------------------------------------------------- */

/* uc_hook_add takes its callback as void *; ISO C has no cast from a
 * function pointer to one, a union carries it (POSIX: same representation). */
union hook_fn {
    uc_cb_hookcode_t block;
    uc_cb_eventmem_t mem;
    uc_cb_hookintr_t intr;
    void *p;
};

/* dlsym gives an object pointer; the union carries it to the function
 * pointer (POSIX: the same representation), as hook_fn does. */
static bool uc_load(struct vc4_arm *a)
{
    /* RTLD_NODELETE: the library stays loaded after the last handle is
     * destroyed, so creating the next one (a fuzzer, a benchmark) does not
     * load and relocate it again */
    a->uc_lib = dlopen(VC4KIT_UNICORN_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!a->uc_lib) {
        arm_diag(a, VC4_ERROR, VC4_DIAG_FAULT, VC4_RULE_NONE, -1, "cannot load Unicorn (%s): %s",
                 VC4KIT_UNICORN_SONAME, dlerror());
        return false;
    }
#define UC_LOAD(name)                                                                                   \
    {                                                                                                   \
        union { void *p; __typeof__(name) *f; } u = {dlsym(a->uc_lib, #name)};                         \
        if (!u.p) {                                                                                     \
            arm_diag(a, VC4_ERROR, VC4_DIAG_FAULT, VC4_RULE_NONE, -1, "%s has no %s", VC4KIT_UNICORN_SONAME, \
                     #name);                                                                            \
            return false;                                                                               \
        }                                                                                               \
        a->api.name = u.f;                                                                              \
    }
    UC_FUNCS(UC_LOAD)
#undef UC_LOAD
    return true;
}

struct vc4_arm *vc4_arm_create(struct vc4_emu *emu, const struct vc4_arm_options *o)
{
    struct vc4_arm *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->o = *o;
    a->next_tick_us = o->tick_us;
    a->emu = emu;
    if (a->o.board >= VC4_PI_BOARDS || (a->o.aarch64 && a->o.board != VC4_PI3)) {
        arm_diag(a, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4_RULE_NONE, -1, "%s cannot run an AArch64 image (only a Pi 3 can)",
                 vc4_arm_board_name(a->o.board));
        free(a);
        return NULL;
    }
    if (!uc_load(a)) {
        vc4_arm_destroy(a);
        return NULL;
    }
    if (!a->o.cpu_mhz)
        a->o.cpu_mhz = boards[a->o.board].mhz;
    a->board = &boards[a->o.board];
    uint32_t size = vc4_emu_mem_size(emu);
    if (size > a->board->periph_base)
        size = a->board->periph_base; /* the top of RAM is behind the peripherals */
    size &= ~0xFFFu;
    a->ram = vc4_emu_mem_ptr(emu, 0, size);
    a->ram_size = size;
    uc_err e = a->o.aarch64 ? UC(a, uc_open)(UC_ARCH_ARM64, UC_MODE_ARM, &a->uc) : UC(a, uc_open)(UC_ARCH_ARM, UC_MODE_ARM, &a->uc);
    if (e == UC_ERR_OK)
        e = UC(a, uc_ctl)(a->uc, UC_CTL_WRITE(UC_CTL_CPU_MODEL, 1), a->o.aarch64 ? UC_CPU_ARM64_A53 : a->board->cpu_model);
    if (e == UC_ERR_OK && (!a->ram || size < (ARM_GPU_MEM + (1u << 20))))
        e = UC_ERR_NOMEM;
    if (e == UC_ERR_OK)
        e = UC(a, uc_mem_map_ptr)(a->uc, 0, size, UC_PROT_ALL, a->ram);
    if (e == UC_ERR_OK)
        e = UC(a, uc_mmio_map)(a->uc, a->board->periph_base, VC4_PERIPH_SPAN, mmio_read, a, mmio_write, a);
    if (e == UC_ERR_OK && a->board->local)
        e = UC(a, uc_mmio_map)(a->uc, ARM_LOCAL_BASE, ARM_LOCAL_SPAN, local_read, a, local_write, a);
    uc_hook h;
    if (e == UC_ERR_OK)
        e = UC(a, uc_hook_add)(a->uc, &h, UC_HOOK_BLOCK, (union hook_fn){.block = hook_block}.p, a, 1, 0);
    if (e == UC_ERR_OK)
        e = UC(a, uc_hook_add)(a->uc, &h, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_PROT, (union hook_fn){.mem = hook_unmapped}.p, a, 1,
                        0);
    if (e == UC_ERR_OK)
        e = UC(a, uc_hook_add)(a->uc, &h, UC_HOOK_INTR, (union hook_fn){.intr = hook_intr}.p, a, 1, 0);
    if (e != UC_ERR_OK) {
        arm_diag(a, VC4_ERROR, VC4_DIAG_FAULT, VC4_RULE_NONE, -1, "cannot create the %s ARM core: %s",
                 a->board->name, UC(a, uc_strerror)(e));
        vc4_arm_destroy(a);
        return NULL;
    }
    a->ctx = (struct vc4_arm_ctx){
        .emu = emu, .sink = &a->o.sink, .ram_size = size, .arm_mem_size = size - ARM_GPU_MEM,
        .bus_alias = a->board->bus_alias, .board = a->o.board,
        .uart_out = a->o.uart, .uart_user = a->o.uart_user,
    };
    vc4_systimer_reset(&a->timer);
    vc4_intc_reset(&a->intc);
    vc4_gpio_reset(&a->gpio);
    vc4_pl011_reset(&a->uart0);
    vc4_aux_reset(&a->aux);
    vc4_mbox_reset(&a->mbox, &a->ctx);
    vc4_local_reset(&a->local);
    return a;
}

void vc4_arm_destroy(struct vc4_arm *arm)
{
    if (!arm)
        return;
    if (arm->uc)
        UC(arm, uc_close)(arm->uc);
    if (arm->uc_lib)
        dlclose(arm->uc_lib);
    free(arm);
}

static void put32(struct vc4_arm *a, uint32_t addr, uint32_t v)
{
    uint8_t b[4];
    vc4_st32(b, v);
    vc4_emu_mem_write(a->emu, addr, b, 4);
}

enum vc4_status vc4_arm_load(struct vc4_arm *a, const void *image, size_t len)
{
    uint32_t at = a->o.load_addr;
    if (len == 0 || at >= a->ctx.arm_mem_size || len > a->ctx.arm_mem_size - at) {
        arm_diag(a, VC4_ERROR, VC4_DIAG_SEMANTIC, VC4_RULE_NONE, at, "the %zu-byte image does not fit the ARM's %u MiB at 0x%08x",
                 len, a->ctx.arm_mem_size >> 20, at);
        return VC4_ERR_RANGE;
    }
    if (vc4_emu_mem_write(a->emu, at, image, len) != VC4_OK)
        return VC4_ERR_RANGE;
    if (a->o.aarch64) {
        uint64_t x0 = 0, pc = at;
        UC(a, uc_reg_write)(a->uc, UC_ARM64_REG_X0, &x0);
        UC(a, uc_reg_write)(a->uc, UC_ARM64_REG_PC, &pc);
        return VC4_OK;
    }
    uint32_t r0 = 0, r1 = a->board->machine, r2 = 0, pc = at;
    if (at >= ARM_ATAGS + 36) { /* ATAG_CORE, ATAG_MEM, ATAG_NONE (Linux booting.rst) */
        static const uint32_t core[5] = {5, 0x54410001u, 0, 4096, 0};
        for (unsigned i = 0; i < 5; i++)
            put32(a, ARM_ATAGS + 4 * i, core[i]);
        put32(a, ARM_ATAGS + 20, 4);
        put32(a, ARM_ATAGS + 24, 0x54410002u);
        put32(a, ARM_ATAGS + 28, a->ctx.arm_mem_size);
        put32(a, ARM_ATAGS + 32, 0);
        put32(a, ARM_ATAGS + 36, 0);
        put32(a, ARM_ATAGS + 40, 0);
        r2 = ARM_ATAGS;
    }
    UC(a, uc_reg_write)(a->uc, UC_ARM_REG_R0, &r0);
    UC(a, uc_reg_write)(a->uc, UC_ARM_REG_R1, &r1);
    UC(a, uc_reg_write)(a->uc, UC_ARM_REG_R2, &r2);
    UC(a, uc_reg_write)(a->uc, UC_ARM_REG_PC, &pc);
    return VC4_OK;
}

/* ---- running ----------------------------------------------------------------------- */

/* The instruction before pc is a WFI or WFE (Unicorn returns after one). */
static bool after_wait(const struct vc4_arm *a, uint64_t pc, bool thumb)
{
    if (a->o.aarch64) {
        uint32_t w = pc >= 4 ? ram_word(a, pc - 4, 4) : 0;
        return w == A64_WFI || w == A64_WFE;
    }
    if (thumb) {
        uint32_t h = pc >= 2 ? ram_word(a, pc - 2, 2) : 0;
        return h == T16_WFI || h == T16_WFE;
    }
    uint32_t w = pc >= 4 ? ram_word(a, pc - 4, 4) : 0;
    return (w & 0x0FFFFFFFu) == (A32_WFI & 0x0FFFFFFFu) || (w & 0x0FFFFFFFu) == (A32_WFE & 0x0FFFFFFFu);
}

static uint64_t cp64(struct vc4_arm *a, unsigned op1, unsigned crn, unsigned crm, unsigned op2, const uint64_t *write)
{
    uc_arm64_cp_reg r = {.crn = crn, .crm = crm, .op0 = 3, .op1 = op1, .op2 = op2, .val = write ? *write : 0};
    if (write)
        UC(a, uc_reg_write)(a->uc, UC_ARM64_REG_CP_REG, &r);
    else
        UC(a, uc_reg_read)(a->uc, UC_ARM64_REG_CP_REG, &r);
    return r.val;
}

static uint32_t cp15(struct vc4_arm *a, unsigned crn, unsigned crm, unsigned opc1, unsigned opc2)
{
    uc_arm_cp_reg r = {.cp = 15, .crn = crn, .crm = crm, .opc1 = opc1, .opc2 = opc2};
    UC(a, uc_reg_read)(a->uc, UC_ARM_REG_CP_REG, &r);
    return (uint32_t)r.val;
}

/* Take the IRQ exception at the current PC (the next instruction to run).
 * False when the core cannot: an IRQ in User mode (Unicorn's CPSR write
 * does not leave User mode; a fault is recorded). */
static bool take_irq(struct vc4_arm *a)
{
    if (a->o.aarch64) {
        uint64_t pc = 0;
        uint32_t pstate = 0;
        UC(a, uc_reg_read)(a->uc, UC_ARM64_REG_PC, &pc);
        UC(a, uc_reg_read)(a->uc, UC_ARM64_REG_PSTATE, &pstate);
        unsigned el = (pstate >> A64_EL_SHIFT) & 3u, target = el ? el : 1u;
        bool spx = el == target && (pstate & A64_SPSEL);
        uint64_t vector = el < target ? A64_VECTOR_IRQ_LOWER : spx ? A64_VECTOR_IRQ_SPX : A64_VECTOR_IRQ_SP0;
        /* SPSR_ELx: op1 0 / 4 / 6, CRn 4, CRm 0, op2 0 (ARM ARM C5.3) */
        static const unsigned spsr_op1[4] = {0, 0, 4, 6};
        uint64_t spsr = pstate, vbar = 0;
        cp64(a, spsr_op1[target], 4, 0, 0, &spsr);
        UC(a, uc_reg_write)(a->uc, UC_ARM64_REG_ELR_EL0 + (int)target, &pc);
        UC(a, uc_reg_read)(a->uc, UC_ARM64_REG_VBAR_EL0 + (int)target, &vbar);
        if (!spx) { /* the handler runs on SP_ELx: bank the interrupted SP_EL0 */
            uint64_t sp = 0;
            UC(a, uc_reg_read)(a->uc, UC_ARM64_REG_SP, &sp);
            UC(a, uc_reg_write)(a->uc, UC_ARM64_REG_SP_EL0, &sp);
            UC(a, uc_reg_read)(a->uc, UC_ARM64_REG_SP_EL0 + (int)target, &sp);
            UC(a, uc_reg_write)(a->uc, UC_ARM64_REG_SP, &sp);
        }
        uint32_t np = A64_DAIF | target << A64_EL_SHIFT | A64_SPSEL;
        UC(a, uc_reg_write)(a->uc, UC_ARM64_REG_PSTATE, &np);
        uint64_t npc = vbar + vector;
        UC(a, uc_reg_write)(a->uc, UC_ARM64_REG_PC, &npc);
        a->irqs++;
        return true;
    }
    uint32_t pc = 0, cpsr = 0;
    UC(a, uc_reg_read)(a->uc, UC_ARM_REG_PC, &pc);
    UC(a, uc_reg_read)(a->uc, UC_ARM_REG_CPSR, &cpsr);
    if ((cpsr & A32_MODE_MASK) == A32_MODE_USR) {
        a->fault = true;
        a->fault_addr = pc;
        a->fault_what = "an IRQ in User mode (the emulation cannot take it: docs/boot.md) at";
        return false;
    }
    uint32_t sctlr = cp15(a, 1, 0, 0, 0);
    /* VBAR (CRn 12): the ARM1176 (security extensions) and the Cortex-A7 have it */
    uint32_t base = (sctlr & A32_SCTLR_V) ? A32_HIGH_VECTORS : cp15(a, 12, 0, 0, 0);
    bool thumb = a->o.board != VC4_PI1 && (sctlr & A32_SCTLR_TE);
    uint32_t ncpsr = (cpsr & ~(A32_MODE_MASK | A32_T | A32_J | A32_IT_MASK | A32_E)) | A32_MODE_IRQ | A32_I | A32_A |
                     (thumb ? A32_T : 0) | ((sctlr & A32_SCTLR_EE) ? A32_E : 0);
    uint32_t lr = pc + A32_IRQ_LR_OFFSET, npc = (base + A32_VECTOR_IRQ) | (thumb ? 1u : 0u);
    UC(a, uc_reg_write)(a->uc, UC_ARM_REG_CPSR, &ncpsr); /* banks SP, LR, SPSR */
    UC(a, uc_reg_write)(a->uc, UC_ARM_REG_SPSR, &cpsr);
    UC(a, uc_reg_write)(a->uc, UC_ARM_REG_LR, &lr);
    UC(a, uc_reg_write)(a->uc, UC_ARM_REG_PC, &npc);
    a->irqs++;
    return true;
}

/* The core waits for an interrupt (a WFI, or a branch to itself with IRQs
 * unmasked): unless one is pending, time passes up to the next enabled
 * timer match (or a --png-at time, or the time limit), and the IRQ is
 * taken if the core has IRQs unmasked.  False: nothing is pending and
 * nothing will come (the CPU sleeps for good). */
static bool wait_irq(struct vc4_arm *a)
{
    if (!core_irq(a)) {
        uint64_t t = next_irq_us(a);
        if (t == UINT64_MAX)
            return false;
        uint64_t limit = a->o.max_time_us ? a->o.max_time_us : UINT64_MAX / a->o.cpu_mhz;
        if (a->next_at < a->o.n_at && a->o.at_us[a->next_at] < limit)
            limit = a->o.at_us[a->next_at]; /* wake for the picture at that time */
        if (a->o.tick_us && a->next_tick_us < limit)
            limit = a->next_tick_us;
        uint64_t wake = (t < limit ? t : limit) * a->o.cpu_mhz;
        if (wake > a->insns) { /* asleep until then: time, not instructions */
            a->slept += wake - a->insns;
            a->insns = wake;
        }
    }
    irq_recheck(a);
    if (core_irq(a) && !cpu_irq_masked(a))
        take_irq(a); /* a failure is a fault, reported by the run loop */
    return true;
}

static void finish(struct vc4_arm *a, struct vc4_arm_result *r, enum vc4_arm_end end, uint64_t pc)
{
    r->end = end;
    r->pc = pc;
    r->insns = a->insns - a->slept;
    r->time_us = now_us(a);
    r->frames = a->frames;
    r->v3d_kicks = a->kicks;
    r->unknown_accesses = a->unknown;
    r->irqs = a->irqs;
    r->times_reached = a->next_at;
    /* work the V3D still has (a list waiting on a semaphore, a binner out
     * of memory) is worth a note: it is why a frame never came */
    uint32_t cs0 = 0, cs1 = 0, ca0 = 0, ca1 = 0;
    vc4_emu_reg_read(a->emu, VC4_V3D_CT0CS, &cs0);
    vc4_emu_reg_read(a->emu, VC4_V3D_CT1CS, &cs1);
    vc4_emu_reg_read(a->emu, VC4_V3D_CT0CA, &ca0);
    vc4_emu_reg_read(a->emu, VC4_V3D_CT1CA, &ca1);
    enum { CTRUN = 1u << 5 }; /* CTnCS bit 5 (vc4_regs.h V3D_CTRUN) */
    if ((cs0 | cs1) & CTRUN)
        arm_diag(a, VC4_NOTE, VC4_DIAG_INFO, VC4_RULE_NONE, (cs1 & CTRUN) ? ca1 : ca0,
                 "at the end the V3D is still waiting:%s%s", (cs0 & CTRUN) ? " the binning list (CT0)" : "",
                 (cs1 & CTRUN) ? " the rendering list (CT1)" : "");
    enum vc4_severity sev = end == VC4_ARM_END_FAULT || end == VC4_ARM_END_V3D ? VC4_ERROR
                            : end == VC4_ARM_END_INSN_LIMIT || end == VC4_ARM_END_TIME_LIMIT ? VC4_WARNING
                                                                                             : VC4_NOTE;
    arm_diag(a, sev, end == VC4_ARM_END_FAULT ? VC4_DIAG_FAULT
                     : sev == VC4_WARNING      ? VC4_DIAG_TIMEOUT
                                               : VC4_DIAG_INFO,
             VC4_RULE_NONE, pc, "run ended: %s at PC 0x%08llx after %llu instructions, %llu us, %llu frames",
             vc4_arm_end_name(end), (unsigned long long)pc, (unsigned long long)r->insns,
             (unsigned long long)now_us(a), (unsigned long long)a->frames);
}

static enum vc4_status end_fault(struct vc4_arm *a, struct vc4_arm_result *r, uc_err e, uint64_t pc)
{
    if (a->fault)
        arm_diag(a, VC4_ERROR, VC4_DIAG_FAULT, VC4_RULE_NONE, a->fault_addr, "%s 0x%08llx (in the block at PC 0x%08llx)%s",
                 a->fault_what, (unsigned long long)a->fault_addr, (unsigned long long)pc,
                 a->fault_addr < a->ram_size ? "" : ": nothing is mapped there");
    else
        arm_diag(a, VC4_ERROR, VC4_DIAG_FAULT, VC4_RULE_NONE, pc, "%s at PC 0x%08llx", UC(a, uc_strerror)(e),
                 (unsigned long long)pc);
    finish(a, r, VC4_ARM_END_FAULT, pc);
    return VC4_ERR_FAULT;
}

enum vc4_status vc4_arm_run(struct vc4_arm *a, struct vc4_arm_result *r)
{
    *r = (struct vc4_arm_result){0};
    for (;;) {
        uint64_t pc = arm_pc(a);
        if (a->o.max_insns && a->insns >= a->o.max_insns) {
            finish(a, r, VC4_ARM_END_INSN_LIMIT, pc);
            return VC4_OK;
        }
        if (a->o.max_time_us && now_us(a) >= a->o.max_time_us) {
            finish(a, r, VC4_ARM_END_TIME_LIMIT, pc);
            return VC4_OK;
        }
        a->slice_end = a->insns + ARM_SLICE;
        if (a->o.max_insns && a->slice_end > a->o.max_insns)
            a->slice_end = a->o.max_insns;
        if (a->o.max_time_us && a->slice_end > a->o.max_time_us * a->o.cpu_mhz)
            a->slice_end = a->o.max_time_us * a->o.cpu_mhz;
        if (a->next_at < a->o.n_at && a->slice_end > a->o.at_us[a->next_at] * a->o.cpu_mhz)
            a->slice_end = a->o.at_us[a->next_at] * a->o.cpu_mhz;
        if (a->o.tick_us && a->slice_end > a->next_tick_us * a->o.cpu_mhz)
            a->slice_end = a->next_tick_us * a->o.cpu_mhz;
        bool thumb = false;
        uint64_t begin = pc;
        if (!a->o.aarch64) {
            uint32_t cpsr = 0;
            UC(a, uc_reg_read)(a->uc, UC_ARM_REG_CPSR, &cpsr);
            thumb = cpsr & (1u << 5);
            begin |= thumb ? 1u : 0u; /* Unicorn: bit 0 of the start address selects Thumb */
        }
        uint64_t before = a->insns;
        a->last_block = UINT64_MAX;
        uc_err e = UC(a, uc_emu_start)(a->uc, begin, a->o.aarch64 ? UINT64_MAX : 0xFFFFFFFFu, 0, 0);
        pc = arm_pc(a);
        if (!a->fault && e == UC_ERR_OK && a->irq_take) {
            a->irq_take = false;
            if (take_irq(a)) {
                irq_recheck(a);
                continue;
            }
        }
        if (a->fault || e != UC_ERR_OK)
            return end_fault(a, r, e, pc);
        v3d_sync(a);
        if (a->stopped_v3d) {
            finish(a, r, VC4_ARM_END_V3D, pc);
            return a->v3d_status;
        }
        if (a->frame_limit) {
            finish(a, r, VC4_ARM_END_FRAME_LIMIT, pc);
            return VC4_OK;
        }
        if (a->parked) {
            /* a branch to itself with IRQs unmasked and an interrupt to
             * come is a busy wait for it (all the work in the handlers) */
            a->parked = false;
            if (cpu_irq_masked(a) || !wait_irq(a)) {
                finish(a, r, VC4_ARM_END_PARKED, a->park_pc);
                return VC4_OK;
            }
            if (a->fault)
                return end_fault(a, r, UC_ERR_OK, a->park_pc);
            continue;
        }
        while (a->next_at < a->o.n_at && now_us(a) >= a->o.at_us[a->next_at]) {
            if (a->o.on_time)
                a->o.on_time(a->o.time_user, a, a->next_at, now_us(a));
            a->next_at++;
        }
        if (a->o.tick_us && now_us(a) >= a->next_tick_us) {
            a->next_tick_us = (now_us(a) / a->o.tick_us + 1) * a->o.tick_us;
            if (a->o.on_tick && !a->o.on_tick(a->o.tick_user, a, now_us(a))) {
                finish(a, r, VC4_ARM_END_STOPPED, pc);
                return VC4_OK;
            }
        }
        vc4_systimer_tick(&a->timer, now_us(a));
        if (a->insns < a->slice_end && after_wait(a, pc, thumb)) {
            /* WFI/WFE: an enabled interrupt wakes it (and is taken when
             * the core has IRQs unmasked); with none pending or coming the
             * CPU sleeps for good */
            if (!wait_irq(a)) {
                finish(a, r, VC4_ARM_END_WFI, pc - (thumb ? 2 : 4));
                return VC4_OK;
            }
            if (a->fault)
                return end_fault(a, r, UC_ERR_OK, pc);
            continue;
        }
        if (a->insns == before && !a->parked)
            a->insns++; /* a stop before any block: time still passes */
    }
}

/* ---- the display -------------------------------------------------------------------- */

void vc4_arm_display(const struct vc4_arm *a, struct vc4_arm_display *out)
{
    const struct vc4_mbox_fb *fb = &a->mbox.fb;
    *out = (struct vc4_arm_display){0};
    unsigned w = fb->phys_w < fb->virt_w ? fb->phys_w : fb->virt_w;
    unsigned h = fb->phys_h < fb->virt_h ? fb->phys_h : fb->virt_h;
    if (!fb->allocated || !w || !h)
        return;
    out->valid = true;
    out->width = w;
    out->height = h;
    out->depth = fb->depth;
    out->pitch = fb->pitch;
    out->rgb = fb->pixel_order == 1;
    uint64_t at = fb->addr + (uint64_t)fb->y_off * fb->pitch + (uint64_t)fb->x_off * ((fb->depth + 7) / 8);
    out->addr = at > UINT32_MAX ? UINT32_MAX : (uint32_t)at; /* read_display checks it against RAM */
}

enum vc4_status vc4_arm_read_display(const struct vc4_arm *a, uint8_t *rgba)
{
    struct vc4_arm_display d;
    vc4_arm_display(a, &d);
    if (!d.valid)
        return VC4_ERR_INVALID;
    unsigned bpp = (d.depth + 7) / 8;
    if ((uint64_t)d.addr + (uint64_t)d.pitch * (d.height - 1) + (uint64_t)d.width * bpp > a->ctx.ram_size)
        return VC4_ERR_RANGE;
    for (unsigned y = 0; y < d.height; y++) {
        const uint8_t *row = a->ram + d.addr + (size_t)y * d.pitch;
        for (unsigned x = 0; x < d.width; x++) {
            const uint8_t *p = row + (size_t)x * bpp;
            uint8_t *o = rgba + ((size_t)y * d.width + x) * 4;
            uint8_t c0 = 0, c1 = 0, c2 = 0;
            if (bpp >= 3) {
                c0 = p[0], c1 = p[1], c2 = p[2];
            } else if (bpp == 2) { /* RGB565: red 15:11 (the order tag does not apply) */
                uint16_t v = vc4_le16(p);
                uint8_t r5 = v >> 11, g6 = (v >> 5) & 63, b5 = v & 31;
                c0 = (uint8_t)(r5 << 3 | r5 >> 2), c1 = (uint8_t)(g6 << 2 | g6 >> 4), c2 = (uint8_t)(b5 << 3 | b5 >> 2);
                o[0] = c0, o[1] = c1, o[2] = c2, o[3] = 255;
                continue;
            } else { /* 8 bits: the palette, 0xAABBGGRR entries (UNVERIFIED) */
                uint32_t e = a->mbox.fb.palette[p[0]];
                c0 = (uint8_t)e, c1 = (uint8_t)(e >> 8), c2 = (uint8_t)(e >> 16);
                o[0] = c0, o[1] = c1, o[2] = c2, o[3] = 255;
                continue;
            }
            o[0] = d.rgb ? c0 : c2;
            o[1] = c1;
            o[2] = d.rgb ? c2 : c0;
            o[3] = 255;
        }
    }
    return VC4_OK;
}
