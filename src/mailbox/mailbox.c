/*
 * mailbox.c - the Pi userland mailbox.h API on the vc4kit emulator.
 *
 * On a Pi these functions talk to the VideoCore firmware through
 * /dev/vcio (mailbox property interface) and map /dev/mem.  Here they talk
 * to one emulated V3D with its bus memory, driven only through the public
 * emulator API (vc4kit/emu.h): registers and memory, as the firmware does.
 *
 * THE ONE EXCEPTION to "no global state": this API is process-global by
 * nature.  mbox_open() hands out file descriptors and mapmem()/unmapmem()
 * take no descriptor at all, so every call must find the same device from
 * nothing but an int or a bus address.  The state therefore lives in a
 * single context object (struct mbox_context), created explicitly by the
 * first mbox_open() and destroyed when the last descriptor is closed and no
 * allocation is left (as firmware allocations outlive the descriptor),
 * reachable only through the descriptor table in this file, and guarded by
 * one mutex so that threads may call the API concurrently, as they may on
 * a Pi.
 *
 * Firmware behaviour reproduced (hello_fft mailbox.c / gpu_fft_base.c, the
 * firmware wiki "Mailbox property interface"):
 *  - mem_alloc returns a handle (0 on failure); the block is filled with
 *    ones unless MEM_FLAG_ZERO (zeros) or MEM_FLAG_NO_INIT (untouched);
 *  - mem_lock returns the bus address in the alias the flags select (see
 *    mailbox.h), 0 on failure;
 *  - execute_qpu launches like hello_fft's direct-register path: clear the
 *    caches unless noflush, DBCFG = 0, DBQITE = 0, DBQITC = ~0, SRQCS =
 *    bits 7|8|16, then SRQUA/SRQPC per program, and waits for the
 *    completion count; 0 on success, 0x80000000 on timeout.
 * Emulator choices: the timeout (ms) becomes timeout * 250000 QPU cycles
 * (250 MHz V3D clock of a Pi 1; at least 1 ms); a guest fault or strict-rule
 * stop also returns 0x80000000 and the V3D is reset before the next launch;
 * execute_code cannot run VPU code and returns 0x80000000.
 */
#include "vc4kit/mailbox.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vc4kit/emu.h"

#define MBOX_FD_BASE 0x4D42      /* descriptors are MBOX_FD_BASE + slot: never 0..2 */
#define MBOX_MAX_FDS 64
#define MBOX_MAX_BLOCKS 1024
#define MBOX_PAGE 4096u
#define MBOX_ALLOC_BASE 0x00010000u /* keep bus address 0 (= failure) unused */
#define MBOX_FIRMWARE_REVISION 0x5E000000u /* a fixed "firmware build time" */
#define MBOX_CYCLES_PER_MS 250000u  /* V3D clock 250 MHz (Pi 1) */
#define MBOX_ERR 0x80000000u
#define MBOX_DEFAULT_MEM_MIB 256u

/* Firmware flag bits 3:2 select the alias (mailbox.h). */
#define MBOX_FLAG_ALIAS_MASK (MEM_FLAG_DIRECT | MEM_FLAG_COHERENT)

struct mbox_block {
    uint32_t offset, size; /* RAM offset and bytes; size 0 = free slot */
    uint32_t flags;
    bool locked;
};

struct mbox_context {
    struct vc4_emu *emu;
    uint32_t ram_size;
    bool fd_open[MBOX_MAX_FDS];
    unsigned open_fds;
    struct mbox_block blocks[MBOX_MAX_BLOCKS]; /* handle = index + 1 */
    unsigned live_blocks;
    bool qpu_enabled;
    bool needs_reset; /* a launch stopped early: reset the V3D first */
    unsigned errors;  /* diagnostics of error severity from the emulator */
};

static pthread_mutex_t mbox_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct mbox_context *mbox_ctx; /* NULL when no descriptor or block exists */

static void mbox_diag(void *user, const struct vc4_diag *d)
{
    struct mbox_context *c = user;
    if (d->severity == VC4_ERROR)
        c->errors++;
}

static uint32_t mbox_mem_size(void)
{
    const char *s = getenv("VC4KIT_MEM_SIZE");
    unsigned long mib = MBOX_DEFAULT_MEM_MIB;
    if (s && *s) {
        char *end;
        unsigned long v = strtoul(s, &end, 10);
        if (*end == 0 && v >= 1 && v <= 1024)
            mib = v;
    }
    return (uint32_t)(mib << 20);
}

static struct mbox_context *ctx_create(void)
{
    struct mbox_context *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    struct vc4_emu_options o;
    memset(&o, 0, sizeof o);
    o.mem_size = mbox_mem_size();
    o.sink.fn = mbox_diag;
    o.sink.user = c;
    c->emu = vc4_emu_create(&o);
    if (!c->emu) {
        free(c);
        return NULL;
    }
    c->ram_size = vc4_emu_mem_size(c->emu);
    return c;
}

static void ctx_maybe_destroy(void)
{
    struct mbox_context *c = mbox_ctx;
    if (c && c->open_fds == 0 && c->live_blocks == 0) {
        vc4_emu_destroy(c->emu);
        free(c);
        mbox_ctx = NULL;
    }
}

/* The context if fd is one of ours and open, else NULL.  Lock held. */
static struct mbox_context *ctx_for(int fd)
{
    struct mbox_context *c = mbox_ctx;
    if (!c || fd < MBOX_FD_BASE || fd >= MBOX_FD_BASE + MBOX_MAX_FDS)
        return NULL;
    return c->fd_open[fd - MBOX_FD_BASE] ? c : NULL;
}

static struct mbox_block *block_for(struct mbox_context *c, unsigned handle)
{
    if (handle == 0 || handle > MBOX_MAX_BLOCKS)
        return NULL;
    struct mbox_block *b = &c->blocks[handle - 1];
    return b->size ? b : NULL;
}

int mbox_open(void)
{
    pthread_mutex_lock(&mbox_mutex);
    int fd = -1;
    if (!mbox_ctx)
        mbox_ctx = ctx_create();
    struct mbox_context *c = mbox_ctx;
    if (c) {
        for (int i = 0; i < MBOX_MAX_FDS; i++)
            if (!c->fd_open[i]) {
                c->fd_open[i] = true;
                c->open_fds++;
                fd = MBOX_FD_BASE + i;
                break;
            }
        ctx_maybe_destroy();
    }
    pthread_mutex_unlock(&mbox_mutex);
    return fd;
}

void mbox_close(int file_desc)
{
    pthread_mutex_lock(&mbox_mutex);
    struct mbox_context *c = ctx_for(file_desc);
    if (c) {
        c->fd_open[file_desc - MBOX_FD_BASE] = false;
        c->open_fds--;
        ctx_maybe_destroy();
    }
    pthread_mutex_unlock(&mbox_mutex);
}

unsigned get_version(int file_desc)
{
    pthread_mutex_lock(&mbox_mutex);
    unsigned v = ctx_for(file_desc) ? MBOX_FIRMWARE_REVISION : 0;
    pthread_mutex_unlock(&mbox_mutex);
    return v;
}

/* First fit over the RAM between the blocks, at the given alignment. */
static bool find_space(const struct mbox_context *c, uint32_t size, uint32_t align, uint32_t *out)
{
    uint64_t cand = MBOX_ALLOC_BASE;
    for (;;) {
        cand = (cand + align - 1) / align * align;
        if (cand + size > c->ram_size)
            return false;
        bool clash = false;
        for (unsigned i = 0; i < MBOX_MAX_BLOCKS; i++) {
            const struct mbox_block *b = &c->blocks[i];
            if (b->size && cand < (uint64_t)b->offset + b->size && b->offset < cand + size) {
                cand = (uint64_t)b->offset + b->size;
                clash = true;
                break;
            }
        }
        if (!clash) {
            *out = (uint32_t)cand;
            return true;
        }
    }
}

unsigned mem_alloc(int file_desc, unsigned size, unsigned align, unsigned flags)
{
    pthread_mutex_lock(&mbox_mutex);
    unsigned handle = 0;
    struct mbox_context *c = ctx_for(file_desc);
    if (align == 0)
        align = MBOX_PAGE;
    /* the firmware wants a power-of-two alignment; pages at least */
    if (c && size != 0 && size <= c->ram_size && (align & (align - 1)) == 0 && align <= (1u << 28)) {
        if (align < MBOX_PAGE)
            align = MBOX_PAGE;
        uint32_t bytes = (uint32_t)(((uint64_t)size + MBOX_PAGE - 1) / MBOX_PAGE * MBOX_PAGE);
        uint32_t off;
        unsigned slot = 0;
        while (slot < MBOX_MAX_BLOCKS && c->blocks[slot].size)
            slot++;
        if (slot < MBOX_MAX_BLOCKS && find_space(c, bytes, align, &off)) {
            c->blocks[slot] = (struct mbox_block){.offset = off, .size = bytes, .flags = flags};
            c->live_blocks++;
            handle = slot + 1;
            if (!(flags & MEM_FLAG_NO_INIT)) {
                uint8_t *p = vc4_emu_mem_ptr(c->emu, off, bytes);
                if (p)
                    memset(p, (flags & MEM_FLAG_ZERO) ? 0x00 : 0xFF, bytes);
            }
        }
    }
    pthread_mutex_unlock(&mbox_mutex);
    return handle;
}

unsigned mem_free(int file_desc, unsigned handle)
{
    pthread_mutex_lock(&mbox_mutex);
    unsigned r = MBOX_ERR;
    struct mbox_context *c = ctx_for(file_desc);
    struct mbox_block *b = c ? block_for(c, handle) : NULL;
    if (b) {
        memset(b, 0, sizeof *b);
        c->live_blocks--;
        r = 0;
    }
    pthread_mutex_unlock(&mbox_mutex);
    return r;
}

/* The bus alias the allocation flags select (mailbox.h table). */
static uint32_t alias_for(uint32_t flags)
{
    switch (flags & MBOX_FLAG_ALIAS_MASK) {
    case MEM_FLAG_DIRECT: return 0xC0000000u;
    case MEM_FLAG_COHERENT: return 0x80000000u;
    case MEM_FLAG_L1_NONALLOCATING: return 0x40000000u;
    default: return 0x00000000u;
    }
}

unsigned mem_lock(int file_desc, unsigned handle)
{
    pthread_mutex_lock(&mbox_mutex);
    unsigned bus = 0;
    struct mbox_context *c = ctx_for(file_desc);
    struct mbox_block *b = c ? block_for(c, handle) : NULL;
    if (b) {
        b->locked = true;
        bus = alias_for(b->flags) | b->offset;
    }
    pthread_mutex_unlock(&mbox_mutex);
    return bus;
}

unsigned mem_unlock(int file_desc, unsigned handle)
{
    pthread_mutex_lock(&mbox_mutex);
    unsigned r = MBOX_ERR;
    struct mbox_context *c = ctx_for(file_desc);
    struct mbox_block *b = c ? block_for(c, handle) : NULL;
    if (b) {
        b->locked = false;
        r = 0;
    }
    pthread_mutex_unlock(&mbox_mutex);
    return r;
}

void *mapmem(unsigned base, unsigned size)
{
    pthread_mutex_lock(&mbox_mutex);
    void *p = NULL;
    /* /dev/mem physical address = bus address without the alias bits */
    if (mbox_ctx && size)
        p = vc4_emu_mem_ptr(mbox_ctx->emu, base & 0x3FFFFFFFu, size);
    pthread_mutex_unlock(&mbox_mutex);
    return p;
}

void unmapmem(void *addr, unsigned size)
{
    /* Nothing was mapped: the pointer is into the emulator's RAM, which
     * stays until the context goes away. */
    (void)addr;
    (void)size;
}

unsigned execute_code(int file_desc, unsigned code, unsigned r0, unsigned r1, unsigned r2,
                      unsigned r3, unsigned r4, unsigned r5)
{
    (void)file_desc, (void)code, (void)r0, (void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
    return MBOX_ERR; /* VideoCore VPU code is not emulated */
}

unsigned qpu_enable(int file_desc, unsigned enable)
{
    pthread_mutex_lock(&mbox_mutex);
    unsigned r = MBOX_ERR;
    struct mbox_context *c = ctx_for(file_desc);
    if (c) {
        c->qpu_enabled = enable != 0;
        if (!c->qpu_enabled) /* power off: the V3D forgets everything */
            c->needs_reset = true;
        r = 0;
    }
    pthread_mutex_unlock(&mbox_mutex);
    return r;
}

/* Run until the queue drains; false on timeout / fault. */
static bool run_budget(struct mbox_context *c, uint64_t *budget)
{
    struct vc4_emu_stats before, after;
    vc4_emu_stats(c->emu, &before);
    enum vc4_status st = vc4_emu_run(c->emu, *budget);
    vc4_emu_stats(c->emu, &after);
    uint64_t used = after.cycles - before.cycles;
    *budget = used >= *budget ? 1 : *budget - used;
    return st == VC4_OK;
}

unsigned execute_qpu(int file_desc, unsigned num_qpus, unsigned control, unsigned noflush,
                     unsigned timeout)
{
    pthread_mutex_lock(&mbox_mutex);
    unsigned r = MBOX_ERR;
    struct mbox_context *c = ctx_for(file_desc);
    if (!c || !c->qpu_enabled)
        goto out;
    struct vc4_emu *e = c->emu;
    if (c->needs_reset) {
        vc4_emu_reset(e);
        c->needs_reset = false;
    }
    if (num_qpus == 0) {
        r = 0;
        goto out;
    }
    uint64_t budget = (uint64_t)(timeout ? timeout : 1u) * MBOX_CYCLES_PER_MS;
    if (!noflush) {
        vc4_emu_reg_write(e, VC4_V3D_L2CACTL, 1u << 2); /* L2CCLR */
        vc4_emu_reg_write(e, VC4_V3D_SLCACTL, 0xFFFFFFFFu);
    }
    vc4_emu_reg_write(e, VC4_V3D_DBCFG, 0);
    vc4_emu_reg_write(e, VC4_V3D_DBQITE, 0);
    vc4_emu_reg_write(e, VC4_V3D_DBQITC, 0xFFFFFFFFu);
    vc4_emu_reg_write(e, VC4_V3D_SRQCS, VC4_V3D_SRQCS_QPURQERR | 1u << VC4_V3D_SRQCS_QPURQCM_SHIFT |
                                            1u << VC4_V3D_SRQCS_QPURQCC_SHIFT);
    unsigned done = 0;
    for (unsigned i = 0; i < num_qpus; i++) {
        uint8_t b[8];
        if (vc4_emu_mem_read(e, control + 8u * i, b, sizeof b) != VC4_OK) {
            c->needs_reset = true;
            goto out;
        }
        uint32_t cs = 0;
        vc4_emu_reg_read(e, VC4_V3D_SRQCS, &cs);
        if ((cs & VC4_V3D_SRQCS_QPURQL_MASK) >= 16u) { /* queue full: let it drain */
            if (!run_budget(c, &budget)) {
                c->needs_reset = true;
                goto out;
            }
        }
        /* the {uniforms, code} pair is little-endian in memory, as on the ARM */
        uint32_t unif = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        uint32_t code = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
        vc4_emu_reg_write(e, VC4_V3D_SRQUA, unif);
        vc4_emu_reg_write(e, VC4_V3D_SRQPC, code);
    }
    if (!run_budget(c, &budget)) {
        c->needs_reset = true;
        goto out;
    }
    uint32_t cs = 0;
    vc4_emu_reg_read(e, VC4_V3D_SRQCS, &cs);
    done = (cs >> VC4_V3D_SRQCS_QPURQCC_SHIFT) & 0xFFu;
    if (done == (num_qpus & 0xFFu))
        r = 0;
    else
        c->needs_reset = true;
out:
    pthread_mutex_unlock(&mbox_mutex);
    return r;
}
