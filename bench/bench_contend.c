/*
 * bench_contend.c - twelve QPUs contending for the mutex and the VPM DMA
 * engines, GPU_FFT's pattern (hello_fft's shaders load with the TMU, work
 * in registers, then take the mutex to write the VPM and store it with VDW;
 * this loop also reads the row back with VDR inside the lock).  Most QPU
 * cycles are stalls: waiting for the mutex, for the DMA, for the TMU.
 * Prints emulated instructions per second (CPU time of one host thread)
 * with the bulk skip of waiting cycles on and off (VC4_EMU_CYCLE_BY_CYCLE),
 * and the ratio; asserts nothing.
 *
 *   bench_contend [DIVISOR [sleep|step]]
 * DIVISOR divides the loop count; the second argument runs one way only
 * (for profilers).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"

#define CODE 0x1000u
#define UNIFORMS 0x10000u
#define DATA 0x100000u
#define QPUS 12u

static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return (double)clock() / CLOCKS_PER_SEC;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Uniforms: data address, twiddle address, destination, iterations, VPM
 * row (two rows per QPU). */
static const char program[] =
    ".include \"vc4.qinc\"\n"
    "    mov ra0, unif                 # data\n"
    "    mov ra1, unif                 # twiddles\n"
    "    mov ra2, unif                 # destination\n"
    "    mov ra3, unif                 # iterations\n"
    "    mov ra4, unif                 # VPM row Y\n"
    "    mov r1, elem_num\n"
    "    shl r1, r1, 3                 # 8 bytes (re, im) per element\n"
    "    ldi r2, vpm_setup(2, 1, h32(0))\n"
    "    add rb0, r2, ra4              # VPM write: 2 rows at Y\n"
    "    ldi r2, vdw_setup_0(2, 16, dma_h32(0, 0))\n"
    "    shl r3, ra4, 7\n"
    "    add rb1, r2, r3               # VDW: 2 rows of 16 words from Y\n"
    "    ldi r2, vdr_setup_0(0, 16, 2, vdr_h32(1, 0, 0))\n"
    "    shl r3, ra4, 4\n"
    "    add rb2, r2, r3               # VDR: 2 rows of 16 words into Y\n"
    "    ldi r2, vpm_setup(2, 1, h32(0))\n"
    "    add rb3, r2, ra4              # VPM read: 2 rows at Y\n"
    "    ldi rb4, 128                  # bytes a pass moves\n"
    ":loop\n"
    "    add t0s, ra0, r1              # data[i]\n"
    "    add t1s, ra1, r1              # twiddle[i]\n"
    "    nop; nop; ldtmu0\n"
    "    mov r0, r4; nop; ldtmu1\n"
    "    fmul r2, r0, r4               # a radix-2 butterfly's worth of ALU work\n"
    "    fadd r3, r0, r4\n"
    "    fsub r0, r0, r4\n"
    "    fmul r3, r3, r2\n"
    "    fadd r2, r2, r0\n"
    "    mov -, mutex                  # the mutex ...\n"
    "    mov vw_setup, rb0\n"
    "    mov vpm, r2\n"
    "    mov vpm, r3\n"
    "    mov vw_setup, rb1\n"
    "    mov vw_addr, ra2              # ... guards the VDW store\n"
    "    mov -, vw_wait\n"
    "    mov vr_setup, rb2\n"
    "    mov vr_addr, ra2              # and a VDR load back\n"
    "    mov -, vr_wait\n"
    "    mov vr_setup, rb3\n"
    "    mov r2, vpm\n"
    "    mov r3, vpm\n"
    "    mov mutex, 0\n"
    "    sub.setf ra3, ra3, 1\n"
    "    brr.anynz -, r:loop\n"
    "    fadd r0, r2, r3\n"
    "    nop\n"
    "    nop\n"
    "    nop; thrend\n"
    "    nop\n"
    "    nop\n";

/* One run: 12 programs queued, run to the end.  Returns the CPU time and
 * fills the counters. */
static double run(uint32_t iters, bool cycle_by_cycle, struct vc4_emu_stats *s, enum vc4_status *st)
{
    struct vc4_emu_options o = {.mem_size = 16u << 20, .num_qpus = QPUS, .max_cycles = UINT64_C(1) << 40,
                                .cycle_by_cycle = cycle_by_cycle};
    struct vc4_emu *e = vc4_emu_create(&o);
    struct vc4_asm_options ao = {.base_addr = CODE};
    struct vc4_asm *as = vc4_asm_create(&ao);
    if (!e || !as || vc4_asm_source(as, "contend", program, strlen(program)) != VC4_OK) {
        fprintf(stderr, "bench_contend: setup failed\n");
        vc4_asm_destroy(as);
        vc4_emu_destroy(e);
        exit(1);
    }
    size_t n = 0;
    const uint8_t *code = vc4_asm_output(as, &n);
    vc4_emu_mem_write(e, CODE, code, n);
    for (unsigned q = 0; q < QPUS; q++) {
        uint32_t u[5] = {DATA + 0x1000 * q, DATA + 0x20000 + 0x1000 * q, DATA + 0x40000 + 0x1000 * q, iters,
                         2 * q};
        uint8_t b[20];
        for (int i = 0; i < 5; i++)
            for (int k = 0; k < 4; k++)
                b[4 * i + k] = (uint8_t)(u[i] >> (8 * k));
        vc4_emu_mem_write(e, UNIFORMS + 0x20 * q, b, sizeof b);
        vc4_emu_reg_write(e, VC4_V3D_SRQUA, UNIFORMS + 0x20 * q);
        vc4_emu_reg_write(e, VC4_V3D_SRQPC, CODE);
    }
    double t0 = cpu_now();
    *st = vc4_emu_run(e, 0);
    double t = cpu_now() - t0;
    vc4_emu_stats(e, s);
    vc4_asm_destroy(as);
    vc4_emu_destroy(e);
    return t;
}

int main(int argc, char **argv)
{
    unsigned long div = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
    if (div == 0)
        div = 1;
    uint32_t iters = (uint32_t)(20000 / div);
    if (iters == 0)
        iters = 1;
    struct vc4_emu_stats s[2];
    enum vc4_status st[2];
    double t[2];
    const char *only = argc > 2 ? argv[2] : NULL;
    for (int m = 0; m < 2; m++) {
        if (only && strcmp(only, m ? "step" : "sleep") != 0) {
            t[m] = 0;
            continue;
        }
        t[m] = run(iters, m == 1, &s[m], &st[m]);
        printf("%-26s %u QPUs: %10llu instr, %11llu cycles (%5.1f%% stalled) in %.3f s = %7.2f M instr/s, "
               "%7.2f M cycles/s [%s]\n",
               m ? "mutex+DMA, cycle by cycle" : "mutex+DMA, bulk skip", QPUS,
               (unsigned long long)s[m].instructions, (unsigned long long)s[m].cycles,
               100.0 * (double)s[m].stall_cycles / ((double)s[m].cycles * QPUS + 1e-9), t[m],
               (double)s[m].instructions / t[m] * 1e-6, (double)s[m].cycles / t[m] * 1e-6,
               vc4_status_name(st[m]));
    }
    if (only)
        return 0;
    bool same = memcmp(&s[0], &s[1], sizeof s[0]) == 0 && st[0] == st[1];
    printf("bulk skip / cycle by cycle: %.2fx faster, counters %s\n", t[1] / t[0], same ? "identical" : "DIFFER");
    return 0;
}
