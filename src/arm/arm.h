/*
 * arm.h - the `arm` layer (DESIGN.md): what makes a bare-metal Raspberry Pi
 * kernel image see a Pi.  An ARM core (Unicorn, Debian libunicorn-dev: a
 * library, not ours) with the peripherals bare-metal graphics code touches
 * around it (mailbox, system timer, UARTs, GPIO, interrupt controller) and
 * the V3D register block wired to a vc4kit emulator through the public
 * vc4kit/emu.h only, exactly as the Pi's ARM reaches the V3D.
 *
 *   struct vc4_arm_options o = vc4_arm_defaults(VC4_PI1, false);
 *   struct vc4_arm *arm = vc4_arm_create(emu, &o);
 *   vc4_arm_load(arm, image, len);
 *   struct vc4_arm_result r;
 *   vc4_arm_run(arm, &r);          // until the CPU parks or a limit
 *
 * Like the rest of the library: no printing (UART text goes to a callback),
 * no global state, every guest address checked; a guest that faults, loops,
 * touches unknown peripherals or breaks the V3D ends the run with a
 * diagnostic naming the PC or list address, never a host crash or hang.
 */
#ifndef VC4_ARM_H
#define VC4_ARM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vc4kit/diag.h"
#include "vc4kit/emu.h"

enum vc4_pi_board {
    VC4_PI1, /* BCM2835, ARM1176JZF-S, peripherals at 0x20000000 */
    VC4_PI2, /* BCM2836, Cortex-A7, peripherals at 0x3F000000 */
    VC4_PI3, /* BCM2837, Cortex-A53 (AArch32, or AArch64 for kernel8.img) */
    VC4_PI_BOARDS
};

/* Why a run ended. */
enum vc4_arm_end {
    VC4_ARM_END_PARKED,      /* a branch to itself */
    VC4_ARM_END_WFI,         /* WFI/WFE with nothing pending (and the V3D idle) */
    VC4_ARM_END_INSN_LIMIT,  /* max_insns ARM instructions */
    VC4_ARM_END_TIME_LIMIT,  /* max_time_us of emulated time */
    VC4_ARM_END_FRAME_LIMIT, /* max_frames V3D ends of frame */
    VC4_ARM_END_FAULT,       /* unmapped access, undefined instruction, exception */
    VC4_ARM_END_V3D,         /* the V3D faulted or hung (vc4_emu_run failed) */
    VC4_ARM_END_STOPPED,     /* the caller's on_tick asked to stop (a window closed) */
    VC4_ARM_END_KINDS
};

struct vc4_arm;

/* Called after each V3D end of frame (frame = 1, 2, ...). */
typedef void (*vc4_arm_frame_fn)(void *user, struct vc4_arm *arm, uint64_t frame);
/* Called when the emulated time reaches at_us[index] (--png-at). */
typedef void (*vc4_arm_time_fn)(void *user, struct vc4_arm *arm, size_t index, uint64_t time_us);
/* Called each time the emulated time passes a multiple of tick_us; false
 * ends the run (VC4_ARM_END_STOPPED). */
typedef bool (*vc4_arm_tick_fn)(void *user, struct vc4_arm *arm, uint64_t time_us);
/* UART text (PL011 and mini UART) as the guest writes it. */
typedef void (*vc4_arm_uart_fn)(void *user, const char *text, size_t len);

struct vc4_arm_options {
    enum vc4_pi_board board;
    bool aarch64;            /* kernel8.img: Pi 3 only */
    uint32_t load_addr;      /* where the image goes and the CPU starts */
    uint32_t cpu_mhz;        /* emulated ARM clock: instructions per microsecond */
    uint64_t max_insns;      /* 0 = no limit */
    uint64_t max_time_us;    /* emulated time; 0 = no limit */
    uint64_t max_frames;     /* 0 = no limit */
    uint64_t v3d_cycles;     /* vc4_emu_run budget per kick; 0 = the emulator's */
    struct vc4_diag_sink sink;
    vc4_arm_uart_fn uart;
    void *uart_user;
    vc4_arm_frame_fn on_frame;
    void *frame_user;
    /* times (emulated microseconds, ascending) at which on_time is called,
     * at the first translated block boundary at or after each, with the
     * V3D's queued work run first */
    const uint64_t *at_us;
    size_t n_at;
    vc4_arm_time_fn on_time;
    void *time_user;
    /* every tick_us of emulated time (0: never), e.g. a live window */
    uint64_t tick_us;
    vc4_arm_tick_fn on_tick;
    void *tick_user;
};

/* The firmware's defaults for a board: load address 0x8000 (0x80000 for
 * AArch64 kernel8.img; config.txt's kernel_old=1 means 0), the board's
 * ARM clock (700, 900, 1200 MHz). */
struct vc4_arm_options vc4_arm_defaults(enum vc4_pi_board board, bool aarch64);
const char *vc4_arm_board_name(enum vc4_pi_board board);
const char *vc4_arm_end_name(enum vc4_arm_end end);

/* NULL when Unicorn cannot create the core (reported to the sink).  The
 * emulator's memory is the Pi's RAM: ARM physical address = RAM offset. */
struct vc4_arm *vc4_arm_create(struct vc4_emu *emu, const struct vc4_arm_options *o);
void vc4_arm_destroy(struct vc4_arm *arm);

/* Copy the kernel image to the load address. */
enum vc4_status vc4_arm_load(struct vc4_arm *arm, const void *image, size_t len);

struct vc4_arm_result {
    enum vc4_arm_end end;
    uint64_t pc;         /* where the CPU stopped */
    uint64_t insns;      /* ARM instructions executed */
    uint64_t time_us;    /* emulated time */
    uint64_t frames;     /* V3D ends of frame */
    uint64_t v3d_kicks;  /* CT0/CT1 starts and user programs queued */
    uint64_t unknown_accesses; /* peripheral accesses nothing answers */
    uint64_t irqs;       /* IRQ exceptions the core took */
    size_t times_reached;/* of o.at_us: how many on_time calls were made */
};

/* Run until the CPU parks or a limit; the status is VC4_OK for a park or a
 * limit, VC4_ERR_FAULT for an ARM fault, the emulator's status for a V3D
 * failure.  Every end is also one diagnostic (unit "arm") with the PC. */
enum vc4_status vc4_arm_run(struct vc4_arm *arm, struct vc4_arm_result *out);

/* The frame buffer the guest allocated through the mailbox. */
struct vc4_arm_display {
    bool valid;
    uint32_t addr;            /* ARM physical address of the visible area */
    unsigned width, height;   /* visible (physical) size */
    unsigned depth;           /* bits per pixel: 8, 16, 24, 32 */
    unsigned pitch;           /* bytes per row */
    bool rgb;                 /* pixel order: byte 0 red (else blue) */
};
void vc4_arm_display(const struct vc4_arm *arm, struct vc4_arm_display *out);
/* The display as 8-bit RGBA, alpha 255 (what the screen shows). */
enum vc4_status vc4_arm_read_display(const struct vc4_arm *arm, uint8_t *rgba);

#endif
