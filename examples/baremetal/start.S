/* start.S - the entry of a 32-bit bare-metal kernel image (kernel.img /
 * kernel7.img): the firmware jumps here (0x8000) with r0 = 0, r1 = machine
 * type, r2 = ATAGs.  Stack below the image, .bss zeroed, main(), then park
 * (a branch to itself: `vc4kit boot` ends the run there). */
    .section .text.start
    .global _start
_start:
#if PI_BOARD >= 2
    mrc p15, 0, r3, c0, c0, 5   /* MPIDR: only core 0 runs (Pi 2/3 may start all four) */
    and r3, r3, #3
    cmp r3, #0
    bne park
#endif
    ldr sp, =_start
    ldr r3, =__bss_start
    ldr r4, =__bss_end
    mov r5, #0
1:  cmp r3, r4
    strlo r5, [r3], #4
    blo 1b
    bl main
park:
    b park
