/*
 * fuzz_arm.c - random bytes as a bare-metal kernel image on the emulated ARM
 * core (src/arm: Unicorn, the mailbox, timer, UARTs, GPIO, interrupt
 * controller and the V3D behind them), under small instruction and time
 * limits: whatever the image does to the peripherals, the host must not
 * crash, hang or leak.  Byte 0: the board (Pi 1, 2, 3, Pi 3 AArch64); the
 * rest: the image, loaded at the firmware's address.
 */
#include <stdint.h>
#include <string.h>

#include "vc4kit/emu.h"
#ifdef VC4KIT_HAVE_UNICORN
#include "arm/arm.h"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef VC4KIT_HAVE_UNICORN
    if (size < 1)
        return 0;
    static const struct { enum vc4_pi_board board; bool aarch64; } boards[] = {
        {VC4_PI1, false}, {VC4_PI2, false}, {VC4_PI3, false}, {VC4_PI3, true},
    };
    unsigned b = data[0] & 3u;
    /* 80 MiB: the ARM's 16 MiB and the VideoCore's 64 (the board splits RAM as the firmware does) */
    struct vc4_emu_options eo = {.mem_size = 80u << 20, .max_cycles = 20000};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    if (!emu)
        return 0;
    struct vc4_arm_options o = vc4_arm_defaults(boards[b].board, boards[b].aarch64);
    o.max_insns = 20000;
    o.max_time_us = 2000;
    o.max_frames = 2;
    o.v3d_cycles = 20000;
    struct vc4_arm *arm = vc4_arm_create(emu, &o);
    if (arm) {
        size_t n = size - 1 > 65536 ? 65536 : size - 1;
        if (vc4_arm_load(arm, data + 1, n) == VC4_OK) {
            struct vc4_arm_result r;
            vc4_arm_run(arm, &r);
        }
        vc4_arm_destroy(arm);
    }
    vc4_emu_destroy(emu);
#else
    (void)data, (void)size; /* built without Unicorn: nothing to fuzz */
#endif
    return 0;
}
