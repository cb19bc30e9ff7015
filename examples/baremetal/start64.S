/* start64.S - the entry of a 64-bit bare-metal kernel image (kernel8.img):
 * the firmware jumps here (0x80000) with x0 = the device tree.  Only core 0
 * runs; FP/SIMD enabled (CPACR_EL1.FPEN) for the compiler's use; stack
 * below the image, .bss zeroed, main(), then park. */
    .section .text.start
    .global _start
_start:
    mrs x1, mpidr_el1
    and x1, x1, #3
    cbnz x1, park
    mov x1, #(3 << 20)
    msr cpacr_el1, x1
    isb
    ldr x1, =_start
    mov sp, x1
    ldr x1, =__bss_start
    ldr x2, =__bss_end
1:  cmp x1, x2
    b.hs 2f
    str xzr, [x1], #8
    b 1b
2:  bl main
park:
    b park
