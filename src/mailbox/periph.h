/*
 * periph.h - a live peripheral window in the host process (periph.c).
 *
 * A Pi program maps the peripherals through /dev/mem and then loads from
 * and stores to them like memory (GPU_FFT: DBCFG, SRQPC, ... and a busy
 * poll of SRQCS).  Here the window is a PROT_NONE mapping: each access
 * faults, the faulting instruction is decoded (Zydis), the word(s) it
 * reads are fetched from the model into the page, the page is opened for
 * exactly that one instruction (x86 trap flag), and the words it wrote go
 * back to the model, in program order.  Process state (signal handlers,
 * the window table) lives in one struct in periph.c: this is part of the
 * mailbox layer's process-global exception (mailbox.c).
 */
#ifndef VC4_MAILBOX_PERIPH_H
#define VC4_MAILBOX_PERIPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The model behind a window.  offset = byte offset from the window's
 * physical base, always word aligned; the model sees whole 32-bit words. */
struct vc4_periph_ops {
    uint32_t (*read)(void *user, uint32_t phys);
    void (*write)(void *user, uint32_t phys, uint32_t value);
};

/* True if this build can trap accesses (x86-64 Linux with Zydis). */
bool vc4_periph_supported(void);
/* Map len bytes (page multiple) standing for physical [phys, phys+len):
 * at addr if fixed (MAP_FIXED semantics), else anywhere.  NULL on failure
 * (errno set). */
void *vc4_periph_map(void *addr, size_t len, bool fixed, uint32_t phys, const struct vc4_periph_ops *ops,
                     void *user);
/* Unmap [addr, addr+len) if it lies in a window: true (and it is gone). */
bool vc4_periph_unmap(void *addr, size_t len);

#endif
