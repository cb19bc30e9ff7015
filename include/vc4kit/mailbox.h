/*
 * vc4kit/mailbox.h - the Raspberry Pi userland mailbox.h API (hello_pi /
 * hello_fft), backed by the vc4kit emulator, so that GPU-compute host
 * programs written for the Pi build and run unchanged: leave the program's
 * own copy of mailbox.c out and link libvc4kit instead.
 *
 * Names and signatures are those of hello_fft's mailbox.h (Broadcom, 2012).
 * The memory flags are the firmware's (hello_fft gpu_fft_base.c, the
 * firmware wiki "Mailbox property interface"); each selects the bus alias
 * mem_lock returns:
 *   MEM_FLAG_NORMAL            0x0  -> 0x00000000 alias (L1 + L2 cached)
 *   MEM_FLAG_DIRECT            0x4  -> 0xC0000000 alias (uncached)
 *   MEM_FLAG_COHERENT          0x8  -> 0x80000000 alias (L2 non-allocating)
 *   MEM_FLAG_L1_NONALLOCATING  0xC  -> 0x40000000 alias (L2 allocating)
 * All aliases reach the same emulated RAM; mapmem(bus & 0x3FFFFFFF, size)
 * maps it as /dev/mem does (the mapping stays valid after mem_free and
 * mbox_close until unmapmem), and mapmem(bcm_host_get_peripheral_address(),
 * ...) maps the live V3D registers.
 *
 * Emulator specifics (see src/mailbox/mailbox.c, docs/exec.md):
 * execute_qpu's timeout is milliseconds of wall time, as on a Pi, and also
 * a budget of QPU cycles at the V3D clock; a guest fault also returns
 * 0x80000000; execute_code cannot run VideoCore VPU code and returns
 * 0x80000000.  Environment: VC4KIT_MODEL, VC4KIT_MEM_SIZE (MiB, default
 * the model's: 512 on a Pi 1), VC4KIT_QPUS, VC4KIT_STRICT, VC4KIT_DIAG,
 * VC4KIT_DIAG_FILE, VC4KIT_STATS; misuse and the emulator's diagnostics
 * are reported on stderr once each, with counts at exit.
 */
#ifndef VC4KIT_MAILBOX_H
#define VC4KIT_MAILBOX_H

#include "vc4kit/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mem_alloc flags (firmware values). */
#ifndef MEM_FLAG_DISCARDABLE
#define MEM_FLAG_DISCARDABLE (1 << 0)    /* can be resized to 0 at any time */
#define MEM_FLAG_NORMAL (0 << 2)         /* normal allocating alias */
#define MEM_FLAG_DIRECT (1 << 2)         /* 0xC alias, uncached */
#define MEM_FLAG_COHERENT (2 << 2)       /* 0x8 alias, non-allocating in L2 but coherent */
#define MEM_FLAG_L1_NONALLOCATING (MEM_FLAG_DIRECT | MEM_FLAG_COHERENT) /* 0x4 alias, allocating in L2 */
#define MEM_FLAG_ZERO (1 << 4)           /* initialise to all zeros */
#define MEM_FLAG_NO_INIT (1 << 5)        /* don't initialise (default: all ones) */
#define MEM_FLAG_HINT_PERMALOCK (1 << 6) /* likely to be locked for long periods */
#endif

/* Returned by execute_qpu on timeout (as the firmware does). */
#define VC4_MBOX_EXEC_TIMEOUT 0x80000000u

VC4_API int mbox_open(void);
VC4_API void mbox_close(int file_desc);

VC4_API unsigned get_version(int file_desc);
VC4_API unsigned mem_alloc(int file_desc, unsigned size, unsigned align, unsigned flags);
VC4_API unsigned mem_free(int file_desc, unsigned handle);
VC4_API unsigned mem_lock(int file_desc, unsigned handle);
VC4_API unsigned mem_unlock(int file_desc, unsigned handle);
VC4_API void *mapmem(unsigned base, unsigned size);
VC4_API void unmapmem(void *addr, unsigned size);

VC4_API unsigned execute_code(int file_desc, unsigned code, unsigned r0, unsigned r1, unsigned r2,
                              unsigned r3, unsigned r4, unsigned r5);
VC4_API unsigned execute_qpu(int file_desc, unsigned num_qpus, unsigned control, unsigned noflush,
                             unsigned timeout);
VC4_API unsigned qpu_enable(int file_desc, unsigned enable);

#ifdef __cplusplus
}
#endif
#endif
