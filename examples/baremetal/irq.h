/*
 * irq.h - interrupts in a bare-metal kernel image, as bare-metal Pi code
 * takes them: a vector table whose IRQ entry saves the caller-saved
 * registers, calls the scene's irq_handler() and returns from the
 * exception; an IRQ stack; the BCM2835 interrupt controller's enables
 * (ARM Peripherals ch. 7: enable 1 at 0xB210 for GPU IRQs 0-31: system
 * timer match 1 is IRQ 1, the V3D IRQ 10); IRQs unmasked in the core.
 *
 * AArch32 (ARM ARM B1.8): the IRQ vector at +0x18, entered in IRQ mode
 * with LR = the return address + 4; `subs pc, lr, #4` (here an LDM with ^)
 * returns.  The Pi 1 copies the table to address 0 (the ARM1176's vectors
 * with VBAR 0), the Pi 2/3 point VBAR at it.  AArch64 (ARM ARM D1.10): the
 * table at VBAR_EL1, 2 KiB aligned, 16 entries of 0x80 bytes; an IRQ at
 * EL1 with SP_EL1 enters at +0x280; ERET returns.
 */
#ifndef BM_IRQ_H
#define BM_IRQ_H

#include "bm.h"

void irq_handler(void); /* the scene's */

#define IC_ENABLE1 0xB210u
#define IC_DISABLE1 0xB21Cu
#define IRQ_TIMER1 1u
#define IRQ_V3D 10u

#if defined(__aarch64__)
__asm__(
    "    .section .text.vectors, \"ax\"\n"
    "    .balign 2048\n"
    "irq_vectors:\n"
    "    .rept 5\n"            /* EL1t sync/IRQ/FIQ/SError, EL1h sync: unexpected */
    "    .balign 0x80\n"
    "    b .\n"
    "    .endr\n"
    "    .balign 0x80\n"       /* +0x280: IRQ, current EL with SP_EL1 */
    "    b irq_entry\n"
    "    .rept 10\n"
    "    .balign 0x80\n"
    "    b .\n"
    "    .endr\n"
    "irq_entry:\n"
    "    stp x29, x30, [sp, #-16]!\n"
    "    stp x0, x1, [sp, #-16]!\n"
    "    stp x2, x3, [sp, #-16]!\n"
    "    stp x4, x5, [sp, #-16]!\n"
    "    stp x6, x7, [sp, #-16]!\n"
    "    stp x8, x9, [sp, #-16]!\n"
    "    stp x10, x11, [sp, #-16]!\n"
    "    stp x12, x13, [sp, #-16]!\n"
    "    stp x14, x15, [sp, #-16]!\n"
    "    stp x16, x17, [sp, #-16]!\n"
    "    stp x18, xzr, [sp, #-16]!\n"
    "    bl irq_handler\n"
    "    ldp x18, xzr, [sp], #16\n"
    "    ldp x16, x17, [sp], #16\n"
    "    ldp x14, x15, [sp], #16\n"
    "    ldp x12, x13, [sp], #16\n"
    "    ldp x10, x11, [sp], #16\n"
    "    ldp x8, x9, [sp], #16\n"
    "    ldp x6, x7, [sp], #16\n"
    "    ldp x4, x5, [sp], #16\n"
    "    ldp x2, x3, [sp], #16\n"
    "    ldp x0, x1, [sp], #16\n"
    "    ldp x29, x30, [sp], #16\n"
    "    eret\n"
    "    .text\n");

extern const uint32_t irq_vectors[];

static inline void irq_setup(void)
{
    __asm__ volatile("msr vbar_el1, %0\n isb" ::"r"((uint64_t)(uintptr_t)irq_vectors) : "memory");
}

static inline void irq_unmask(void) { __asm__ volatile("msr daifclr, #2" ::: "memory"); }
static inline void irq_mask(void) { __asm__ volatile("msr daifset, #2" ::: "memory"); }
static inline void wait_for_interrupt(void) { __asm__ volatile("wfi" ::: "memory"); }
#else
__asm__(
    "    .section .text.vectors, \"ax\"\n"
    "    .balign 32\n"
    "    .global irq_vectors\n"
    "irq_vectors:\n"              /* ldr pc from the slots after: works copied to 0 too */
    "    ldr pc, 1f\n"
    "    ldr pc, 1f\n"
    "    ldr pc, 1f\n"
    "    ldr pc, 1f\n"
    "    ldr pc, 1f\n"
    "    ldr pc, 1f\n"
    "    ldr pc, 2f\n"            /* +0x18: IRQ */
    "    ldr pc, 1f\n"
    "1:  .word irq_unexpected\n"
    "2:  .word irq_entry\n"
    "irq_unexpected:\n"
    "    b irq_unexpected\n"
    "irq_entry:\n"
    "    sub lr, lr, #4\n"
    "    stmfd sp!, {r0-r3, r12, lr}\n"
    "    bl irq_handler\n"
    "    ldmfd sp!, {r0-r3, r12, pc}^\n" /* PC and CPSR = SPSR_irq */
    "    .text\n");

extern const uint32_t irq_vectors[];
static uint8_t __attribute__((aligned(16))) irq_stack[1024];

static inline void irq_setup(void)
{
#if PI_BOARD == 1
    /* copy the table (8 vectors and 2 address slots) to 0 */
    volatile uint32_t *low = (volatile uint32_t *)0;
    for (unsigned i = 0; i < 10; i++)
        low[i] = irq_vectors[i];
#else
    __asm__ volatile("mcr p15, 0, %0, c12, c0, 0\n isb" ::"r"((uint32_t)(uintptr_t)irq_vectors) : "memory");
#endif
    /* the IRQ mode's stack, then back to SVC */
    __asm__ volatile("cps #0x12\n mov sp, %0\n cps #0x13" ::"r"(irq_stack + sizeof irq_stack) : "memory");
}

static inline void irq_unmask(void) { __asm__ volatile("cpsie i" ::: "memory"); }
static inline void irq_mask(void) { __asm__ volatile("cpsid i" ::: "memory"); }
static inline void wait_for_interrupt(void) { __asm__ volatile("wfi" ::: "memory"); } /* ARMv6K and later */
#endif

#endif
