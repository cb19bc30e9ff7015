/*
 * fuzz_emu.c - random instruction words as a user program under a small
 * cycle budget: the emulator must never crash, hang or touch host memory.
 * Byte 0: QPU count (1..4), the profiler (bit 6: its samples and report
 * made) and strict mode; the rest: instruction words, also used as the
 * uniform stream.
 */
#include <stdint.h>
#include <string.h>

#include "vc4kit/emu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    struct vc4_emu_options o = {.mem_size = 64u << 10, .num_qpus = 4, .strict = data[0] & 0x80,
                                .max_cycles = 2000, .profile = data[0] & 0x40};
    struct vc4_emu *e = vc4_emu_create(&o);
    if (!e)
        return 0;
    size_t n = size - 1;
    if (n > 16384)
        n = 16384;
    vc4_emu_mem_write(e, 0x1000, data + 1, n);
    unsigned qpus = 1u + (data[0] & 3u);
    for (unsigned q = 0; q < qpus; q++) {
        vc4_emu_reg_write(e, VC4_V3D_SRQUA, 0x1000 + 4 * q);
        vc4_emu_reg_write(e, VC4_V3D_SRQPC, 0x1000);
    }
    vc4_emu_run(e, 0);
    struct vc4_emu_stats st;
    vc4_emu_stats(e, &st);
    if (o.profile) {
        char text[512];
        size_t need = 0;
        vc4_emu_profile_report(e, 8, "> ", text, sizeof text, &need);
        struct vc4_emu_profile_entry p[256];
        struct vc4_emu_profile_totals t;
        size_t k = vc4_emu_profile(e, p, 256, &t);
        uint64_t sum = t.dropped;
        for (size_t i = 0; k <= 256 && i < k; i++)
            sum += p[i].issuing + p[i].stalled + p[i].blocked;
        if (k <= 256 && sum != t.samples)
            __builtin_trap(); /* (the entries account for every sample) */
    }
    vc4_emu_destroy(e);
    return 0;
}
