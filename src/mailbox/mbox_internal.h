/*
 * mbox_internal.h - what the property interface (property.c) and the
 * preload behind `vc4kit exec` (src/host/preload.c) need from the mailbox
 * layer (mailbox.c) beyond the public mailbox.h API.
 */
#ifndef VC4_MAILBOX_INTERNAL_H
#define VC4_MAILBOX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mailbox/model.h"
#include "vc4kit/diag.h"

/* mmap of /dev/mem at physical address phys: emulated RAM, or the live
 * peripheral window, or NULL with *err = an errno value (and a
 * diagnostic).  prot/flags as mmap's; only MAP_FIXED matters. */
void *vc4_mbox_mmap(void *addr, size_t len, int prot, int flags, uint64_t phys, int *err);
/* munmap of a mapping vc4_mbox_mmap made (or any other: it is unmapped
 * either way); 0 or -1 with errno, as munmap. */
int vc4_mbox_munmap(void *addr, size_t len);

/* The modelled Pi and its RAM (NULL / 0 if the options were refused). */
const struct vc4_pi_model *vc4_mbox_model(void);
uint32_t vc4_mbox_ram_bytes(void);
/* A host-side diagnostic through the mailbox's reporter, once per format
 * and address (addr -1 = none) with a count at exit. */
void vc4_mbox_report(enum vc4_severity sev, int64_t addr, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Handle one mailbox property request in place (property.c): buf holds
 * bytes bytes (buf[0] = the buffer size the program gave); fd is an open
 * mbox_open descriptor.  Returns 0, or -1 for a buffer the firmware would
 * refuse outright (then buf[1] = 0x80000001). */
int vc4_mbox_property(int fd, uint32_t *buf, uint32_t bytes);

#endif
