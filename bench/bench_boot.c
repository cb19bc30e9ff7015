/*
 * bench_boot.c - `vc4kit boot` speed: ARM instructions per second (the
 * uart_hello image, whose 1 ms system-timer wait is a tight loop) and V3D
 * frames per second of booted scenes (each image boots, sets up its frame
 * buffer, builds its lists and renders one 640x480 frame).  The time is
 * that of vc4_arm_run (load and run), not of creating the emulator, which
 * zeroes its 256 MiB of RAM first.  Figures only; nothing is asserted.
 *
 *   bench_boot [IMAGES_DIR] [REPEATS]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef VC4KIT_HAVE_UNICORN
int main(void)
{
    puts("bench_boot: built without Unicorn (apt-get install libunicorn-dev): nothing to measure");
    return 0;
}
#else
#include "arm/arm.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint8_t *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *buf = malloc(1u << 20);
    *len = buf ? fread(buf, 1, 1u << 20, f) : 0;
    fclose(f);
    return buf;
}

/* Boot one image `repeats` times; totals into insns, frames, seconds. */
static int bench(const char *dir, const char *name, enum vc4_pi_board board, bool a64, unsigned repeats,
                 uint64_t *insns, uint64_t *frames, double *secs)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.img", dir, name);
    size_t len = 0;
    uint8_t *img = read_all(path, &len);
    if (!img) {
        fprintf(stderr, "bench_boot: no %s (build the bare-metal examples)\n", path);
        return 1;
    }
    *insns = *frames = 0;
    *secs = 0;
    for (unsigned i = 0; i < repeats; i++) {
        struct vc4_emu_options eo = {.mem_size = 256u << 20};
        struct vc4_emu *emu = vc4_emu_create(&eo);
        struct vc4_arm_options o = vc4_arm_defaults(board, a64);
        o.max_insns = 100000000;
        struct vc4_arm *arm = emu ? vc4_arm_create(emu, &o) : NULL;
        struct vc4_arm_result r = {0};
        double t0 = now_s(); /* the run only: creating the emulator zeroes its RAM */
        if (arm && vc4_arm_load(arm, img, len) == VC4_OK)
            vc4_arm_run(arm, &r);
        *secs += now_s() - t0;
        *insns += r.insns;
        *frames += r.frames;
        vc4_arm_destroy(arm);
        vc4_emu_destroy(emu);
    }
    free(img);
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : VC4KIT_BAREMETAL_DIR;
    unsigned repeats = argc > 2 ? (unsigned)atoi(argv[2]) : 5;
    if (repeats == 0)
        repeats = 1;
    static const struct { const char *name; enum vc4_pi_board board; bool a64; } runs[] = {
        {"uart_hello_pi1", VC4_PI1, false}, {"uart_hello_pi3_64", VC4_PI3, true},
        {"nv_colors_pi1", VC4_PI1, false},  {"gl_seed_pi2", VC4_PI2, false},
        {"tex_quad_pi3_64", VC4_PI3, true},
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        uint64_t insns = 0, frames = 0;
        double s = 0;
        if (bench(dir, runs[i].name, runs[i].board, runs[i].a64, repeats, &insns, &frames, &s)) {
            rc = 1;
            continue;
        }
        printf("%-18s %u runs in %.3f s: %llu ARM instructions per run, %.1f million/s; %.1f frames/s "
               "(%.2f ms per run)\n",
               runs[i].name, repeats, s, (unsigned long long)(insns / repeats), (double)insns / s / 1e6,
               (double)frames / s, 1e3 * s / repeats);
    }
    return rc;
}
#endif
