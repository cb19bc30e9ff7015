/*
 * bench_create.c - what starting an emulator costs: vc4_emu_create +
 * vc4_emu_destroy at several memory sizes (RAM is mapped lazily, mem.c, so
 * the size should not matter), the first in the process apart (its pages
 * are new to the process), and creating, touching one page, running
 * nothing.  Wall time; prints figures, asserts nothing.
 *
 *   bench_create [REPEATS]
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "vc4kit/emu.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static double one(uint32_t mib)
{
    struct vc4_emu_options o = {.mem_size = mib << 20};
    double t0 = now_ms();
    struct vc4_emu *e = vc4_emu_create(&o);
    double t1 = now_ms();
    if (!e) {
        fprintf(stderr, "bench_create: cannot create an emulator with %u MiB\n", mib);
        exit(1);
    }
    vc4_emu_mem_write(e, 0x1000, "x", 1);
    vc4_emu_destroy(e);
    return t1 - t0;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 20;
    if (reps < 1)
        reps = 1;
    printf("first vc4_emu_create in the process (512 MiB): %.3f ms\n", one(512));
    static const uint32_t sizes[] = {16, 256, 512, 1024};
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        double best = 1e9, total = 0;
        for (int i = 0; i < reps; i++) {
            double t = one(sizes[k]);
            total += t;
            best = t < best ? t : best;
        }
        printf("vc4_emu_create %4u MiB: best %.3f ms, mean %.3f ms over %d\n", sizes[k], best, total / reps, reps);
    }
    return 0;
}
