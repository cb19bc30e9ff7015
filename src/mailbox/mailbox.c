/*
 * mailbox.c - the Pi userland mailbox.h API on the vc4kit emulator, and
 * the virtual Pi behind it (shared with the preload of `vc4kit exec`).
 *
 * On a Pi these functions talk to the VideoCore firmware through
 * /dev/vcio (mailbox property interface) and map /dev/mem.  Here they talk
 * to one emulated V3D with its bus memory, driven only through the public
 * emulator API (vc4kit/emu.h): registers and memory, as the firmware does.
 *
 * THE ONE EXCEPTION to "no global state": this API is process-global by
 * nature.  mbox_open() hands out file descriptors and mapmem()/unmapmem()
 * take no descriptor at all, so every call must find the same device from
 * nothing but an int or a bus address.  The state therefore lives in one
 * struct (mbox below): the virtual Pi, created by the first call that needs
 * it and kept for the life of the process as a Pi's GPU is (its memory,
 * its allocations, its mappings), guarded by one mutex so that threads may
 * call the API concurrently, as they may on a Pi.  For the same reason this
 * layer reports to stderr itself, as a host runtime (hostlog.c, which the
 * DRM backend shares): VC4KIT_DIAG and VC4KIT_STATS (docs/exec.md) say
 * what, a program that links libvc4kit for its own emulator (vc4kit/emu.h)
 * never sees it.
 *
 * Options (environment, read once): VC4KIT_MODEL pi1|pi2|pi3 (model.h),
 * VC4KIT_MEM_SIZE MiB of RAM (16 up to what the model maps below its
 * peripherals), VC4KIT_QPUS 1..16, VC4KIT_STRICT 0|1, VC4KIT_DIAG
 * off|error|warn|all (default warn), VC4KIT_DIAG_FILE, VC4KIT_STATS 0|1,
 * VC4KIT_PROFILE 0|1 (hostlog.h).
 * A bad value refuses the whole virtual Pi with one message naming it
 * (mbox_open returns -1, mapmem NULL).
 *
 * Firmware behaviour reproduced (hello_fft mailbox.c / gpu_fft_base.c, the
 * firmware wiki "Mailbox property interface"):
 *  - mem_alloc returns a handle (0 on failure); the block is filled with
 *    ones unless MEM_FLAG_ZERO (zeros) or MEM_FLAG_NO_INIT (untouched);
 *  - mem_lock returns the bus address in the alias the flags select (see
 *    mailbox.h), 0 on failure;
 *  - mapmem is /dev/mem: RAM maps the emulated RAM's memory file (the
 *    mapping stays valid after mem_free and mbox_close until unmapmem, as
 *    on a Pi), the peripheral window maps the live V3D registers
 *    (periph.c);
 *  - execute_qpu launches like hello_fft's direct-register path: clear the
 *    caches unless noflush, DBCFG = 0, DBQITE = 0, DBQITC = ~0, SRQCS =
 *    bits 7|8|16, then SRQUA/SRQPC per program, and waits for the
 *    completion count; 0 on success, 0x80000000 on timeout.
 * Emulator choices: the timeout is milliseconds of wall time, as on a Pi,
 * and also a budget of QPU cycles at the model's V3D clock (whichever ends
 * first); a guest fault or strict-rule stop also returns 0x80000000 and the
 * V3D is reset before the next launch; execute_code cannot run VPU code
 * and returns 0x80000000.
 */
#define _GNU_SOURCE
#include "vc4kit/mailbox.h"

#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "mailbox/hostlog.h"
#include "mailbox/mbox_internal.h"
#include "mailbox/periph.h"
#include "vc4kit/emu.h"
#include "emu/jit_env.h"

#define MBOX_FD_BASE 0x4D42      /* descriptors are MBOX_FD_BASE + slot: never 0..2 */
#define MBOX_MAX_FDS 64
#define MBOX_MAX_BLOCKS 1024
#define MBOX_PAGE 4096u
#define MBOX_ALLOC_BASE 0x00010000u /* keep bus address 0 (= failure) unused */
#define MBOX_FIRMWARE_REVISION 0x5E000000u /* a fixed "firmware build time" */
#define MBOX_ERR 0x80000000u
#define MBOX_MIN_MEM_MIB 16u
#define MBOX_MAX_QPUS 16u
#define MBOX_SLICE_MIN 256u        /* QPU cycles per run slice, adaptive between these */
#define MBOX_SLICE_MAX 262144u
#define MBOX_POLL_CYCLES 16384u    /* cycles the V3D advances per polled register read */
#define MBOX_NS_PER_MS 1000000ull

/* Firmware flag bits 3:2 select the alias (mailbox.h). */
#define MBOX_FLAG_ALIAS_MASK (MEM_FLAG_DIRECT | MEM_FLAG_COHERENT)

struct mbox_block {
    uint32_t offset, size; /* RAM offset and bytes; size 0 = free slot */
    uint32_t flags;
    bool locked;
};

struct mbox_context {
    struct vc4_emu *emu;
    const struct vc4_pi_model *model;
    uint32_t ram_size;
    int ram_fd; /* the RAM's memory file, or -1 (then no fixed mappings) */
    uint8_t *ram_base; /* without a memory file: the RAM, handed out as it is */
    bool fd_open[MBOX_MAX_FDS];
    struct mbox_block blocks[MBOX_MAX_BLOCKS]; /* handle = index + 1 */
    bool qpu_enabled;
    bool needs_reset; /* a launch stopped early: reset the V3D first */
    struct vc4_hostlog log; /* reporting (hostlog.h) */
    uint64_t run_ns, create_ns;
    double ns_per_cycle; /* host time per emulated cycle, for slice sizes */
};

/* All process state of the mailbox layer. */
static struct {
    pthread_mutex_t lock;
    struct mbox_context *ctx; /* the virtual Pi, once created */
    bool refused;             /* the options were refused (and that was said) */
} mbox = {.lock = PTHREAD_MUTEX_INITIALIZER};

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* ---- reporting ------------------------------------------------------------- */

/* The emulator's sink.  Called with the lock held (inside vc4_emu_run). */
static void emu_diag(void *user, const struct vc4_diag *d)
{
    /* a run slice ending is not a hang: execute_qpu reports real timeouts */
    if (d->cls == VC4_DIAG_TIMEOUT)
        return;
    vc4_hostlog_sink(&((struct mbox_context *)user)->log, d);
}

static void vreport(struct mbox_context *c, enum vc4_severity sev, int64_t addr, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
static void vreport(struct mbox_context *c, enum vc4_severity sev, int64_t addr, const char *fmt, va_list ap)
{
    char msg[200];
    vsnprintf(msg, sizeof msg, fmt, ap);
    struct vc4_diag d = {.severity = sev, .cls = VC4_DIAG_SEMANTIC, .unit = "mailbox",
                         .loc = vc4_location_none(), .message = msg};
    d.loc.addr = addr;
    vc4_hostlog_record(&c->log, fmt, &d);
}

static void report(struct mbox_context *c, enum vc4_severity sev, int64_t addr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void report(struct mbox_context *c, enum vc4_severity sev, int64_t addr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(c, sev, addr, fmt, ap);
    va_end(ap);
}

void vc4_mbox_report(enum vc4_severity sev, int64_t addr, const char *fmt, ...)
{
    pthread_mutex_lock(&mbox.lock);
    if (mbox.ctx) {
        va_list ap;
        va_start(ap, fmt);
        vreport(mbox.ctx, sev, addr, fmt, ap);
        va_end(ap);
    }
    pthread_mutex_unlock(&mbox.lock);
}

static void print_stats(struct mbox_context *c)
{
    vc4_hostlog_stats(&c->log, c->emu);
    struct vc4_emu_stats st;
    vc4_emu_stats(c->emu, &st);
    double secs = (double)c->run_ns / 1e9;
    fprintf(c->log.out,
            "vc4kit stats: host: %.3f s emulating, %.1f M QPU instructions/s, emulator created in %.3f ms\n", secs,
            secs > 0 ? (double)st.instructions / secs / 1e6 : 0.0, (double)c->create_ns / 1e6);
}

static void at_exit(void)
{
    pthread_mutex_lock(&mbox.lock);
    struct mbox_context *c = mbox.ctx;
    if (c) {
        vc4_hostlog_summary(&c->log);
        if (c->log.stats)
            print_stats(c);
        if (c->log.profile)
            vc4_hostlog_profile(&c->log, c->emu);
        fflush(c->log.out);
    }
    pthread_mutex_unlock(&mbox.lock);
}

/* ---- the virtual Pi ------------------------------------------------------- */

/* A decimal number with nothing after it. */
static bool parse_uint(const char *s, unsigned long *v)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    *v = strtoul(s, &end, 10);
    return *end == 0 && errno == 0;
}

static bool parse_bool(const char *s, bool *v)
{
    if (!s || !*s)
        return true; /* unset: keep the default */
    if (!strcmp(s, "0") || !strcmp(s, "1")) {
        *v = s[0] == '1';
        return true;
    }
    return false;
}

/* The options from the environment, or NULL after one message. */
static struct mbox_context *ctx_create(void)
{
    const char *bad = NULL, *val = NULL, *want = NULL;
    char range[64];
    const struct vc4_pi_model *m = vc4_pi_model_from_env();
    unsigned long mib = m ? m->mem_mib : 0, qpus = 12;
    bool strict = false;
    const char *s;
    if (!m) {
        bad = "VC4KIT_MODEL", want = "pi1, pi2 or pi3";
    } else if ((s = getenv("VC4KIT_MEM_SIZE")) && *s &&
               (!parse_uint(s, &mib) || mib < MBOX_MIN_MEM_MIB || mib > m->mem_mib)) {
        snprintf(range, sizeof range, "MiB of RAM, %u to %u on a %s", MBOX_MIN_MEM_MIB, m->mem_mib, m->name);
        bad = "VC4KIT_MEM_SIZE", want = range;
    } else if ((s = getenv("VC4KIT_QPUS")) && *s && (!parse_uint(s, &qpus) || qpus < 1 || qpus > MBOX_MAX_QPUS)) {
        bad = "VC4KIT_QPUS", want = "1 to 16";
    } else if (!parse_bool(getenv("VC4KIT_STRICT"), &strict)) {
        bad = "VC4KIT_STRICT", want = "0 or 1";
    }
    if (bad) {
        val = getenv(bad);
        fprintf(stderr, "vc4kit: %s=%s: expected %s; no virtual Pi\n", bad, val, want);
        return NULL;
    }
    struct mbox_context *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    char why[4200];
    if (!vc4_hostlog_open(&c->log, why, sizeof why)) { /* (VC4KIT_STATS, VC4KIT_DIAG, VC4KIT_DIAG_FILE) */
        fprintf(stderr, "vc4kit: %s; no virtual Pi\n", why);
        free(c);
        return NULL;
    }
    c->model = m;
    uint64_t t0 = now_ns();
    struct vc4_emu_options o = {.mem_size = (uint32_t)(mib << 20), .num_qpus = (unsigned)qpus,
                                .sink = {emu_diag, c}, .strict = strict, .profile = c->log.profile};
    char jit_dir[4096];
    vc4_jit_options_from_env(&o, jit_dir, sizeof jit_dir);
    c->emu = vc4_emu_create(&o);
    c->create_ns = now_ns() - t0;
    if (!c->emu) {
        fprintf(stderr, "vc4kit: cannot create the emulator (%lu MiB of RAM)\n", mib);
        vc4_hostlog_close(&c->log);
        free(c);
        return NULL;
    }
    c->ram_size = vc4_emu_mem_size(c->emu);
    c->ram_fd = vc4_emu_mem_fd(c->emu);
    if (c->ram_fd < 0)
        c->ram_base = vc4_emu_mem_ptr(c->emu, 0, c->ram_size);
    return c;
}

/* The virtual Pi, created on first use.  Lock held. */
static struct mbox_context *ctx_get(void)
{
    if (!mbox.ctx && !mbox.refused) {
        mbox.ctx = ctx_create();
        if (mbox.ctx)
            atexit(at_exit);
        else
            mbox.refused = true;
    }
    return mbox.ctx;
}

/* The context if fd is an open descriptor of ours, else NULL (and a
 * diagnostic).  Lock held. */
static struct mbox_context *ctx_for(int fd, const char *call)
{
    struct mbox_context *c = mbox.ctx;
    if (!c)
        return NULL;
    if (fd < MBOX_FD_BASE || fd >= MBOX_FD_BASE + MBOX_MAX_FDS || !c->fd_open[fd - MBOX_FD_BASE]) {
        report(c, VC4_ERROR, fd, "%s: descriptor %d is not an open mailbox (mbox_open first; used after mbox_close?)",
               call, fd);
        return NULL;
    }
    return c;
}

static struct mbox_block *block_for(struct mbox_context *c, unsigned handle, const char *call)
{
    struct mbox_block *b = handle && handle <= MBOX_MAX_BLOCKS ? &c->blocks[handle - 1] : NULL;
    if (b && b->size)
        return b;
    report(c, VC4_ERROR, handle, "%s: handle %u is not allocated (freed already, or never)", call, handle);
    return NULL;
}

const struct vc4_pi_model *vc4_mbox_model(void)
{
    pthread_mutex_lock(&mbox.lock);
    struct mbox_context *c = ctx_get();
    const struct vc4_pi_model *m = c ? c->model : NULL;
    pthread_mutex_unlock(&mbox.lock);
    return m;
}

uint32_t vc4_mbox_ram_bytes(void)
{
    pthread_mutex_lock(&mbox.lock);
    struct mbox_context *c = ctx_get();
    uint32_t n = c ? c->ram_size : 0;
    pthread_mutex_unlock(&mbox.lock);
    return n;
}

/* ---- descriptors and memory ------------------------------------------------------- */

int mbox_open(void)
{
    pthread_mutex_lock(&mbox.lock);
    int fd = -1;
    struct mbox_context *c = ctx_get();
    if (c) {
        for (int i = 0; i < MBOX_MAX_FDS; i++)
            if (!c->fd_open[i]) {
                c->fd_open[i] = true;
                fd = MBOX_FD_BASE + i;
                break;
            }
        if (fd < 0)
            report(c, VC4_ERROR, -1, "mbox_open: all %d descriptors are open", MBOX_MAX_FDS);
    }
    pthread_mutex_unlock(&mbox.lock);
    return fd;
}

void mbox_close(int file_desc)
{
    pthread_mutex_lock(&mbox.lock);
    struct mbox_context *c = ctx_for(file_desc, "mbox_close");
    if (c)
        c->fd_open[file_desc - MBOX_FD_BASE] = false;
    pthread_mutex_unlock(&mbox.lock);
}

unsigned get_version(int file_desc)
{
    pthread_mutex_lock(&mbox.lock);
    unsigned v = ctx_for(file_desc, "get_version") ? MBOX_FIRMWARE_REVISION : 0;
    pthread_mutex_unlock(&mbox.lock);
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
    pthread_mutex_lock(&mbox.lock);
    unsigned handle = 0;
    struct mbox_context *c = ctx_for(file_desc, "mem_alloc");
    if (align == 0)
        align = MBOX_PAGE;
    if (!c) {
        /* reported */
    } else if (size == 0 || size > c->ram_size || (align & (align - 1)) != 0 || align > (1u << 28)) {
        /* the firmware wants a power-of-two alignment and a size it has */
        report(c, VC4_WARNING, -1, "mem_alloc(size %u, align %u): %s", size, align,
               size == 0 || size > c->ram_size ? "no such size" : "alignment is not a power of two");
    } else {
        if (align < MBOX_PAGE)
            align = MBOX_PAGE;
        uint32_t bytes = (uint32_t)(((uint64_t)size + MBOX_PAGE - 1) / MBOX_PAGE * MBOX_PAGE);
        uint32_t off;
        unsigned slot = 0;
        while (slot < MBOX_MAX_BLOCKS && c->blocks[slot].size)
            slot++;
        if (slot < MBOX_MAX_BLOCKS && find_space(c, bytes, align, &off)) {
            c->blocks[slot] = (struct mbox_block){.offset = off, .size = bytes, .flags = flags};
            handle = slot + 1;
            if (!(flags & MEM_FLAG_NO_INIT)) {
                uint8_t *p = vc4_emu_mem_ptr(c->emu, off, bytes);
                if (p)
                    memset(p, (flags & MEM_FLAG_ZERO) ? 0x00 : 0xFF, bytes);
            }
        } else {
            report(c, VC4_WARNING, -1, "mem_alloc(size %u): out of GPU memory (%u MiB emulated; VC4KIT_MEM_SIZE)",
                   size, c->ram_size >> 20);
        }
    }
    pthread_mutex_unlock(&mbox.lock);
    return handle;
}

unsigned mem_free(int file_desc, unsigned handle)
{
    pthread_mutex_lock(&mbox.lock);
    unsigned r = MBOX_ERR;
    struct mbox_context *c = ctx_for(file_desc, "mem_free");
    struct mbox_block *b = c ? block_for(c, handle, "mem_free") : NULL;
    if (b) {
        memset(b, 0, sizeof *b);
        r = 0;
    }
    pthread_mutex_unlock(&mbox.lock);
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
    pthread_mutex_lock(&mbox.lock);
    unsigned bus = 0;
    struct mbox_context *c = ctx_for(file_desc, "mem_lock");
    struct mbox_block *b = c ? block_for(c, handle, "mem_lock") : NULL;
    if (b) {
        b->locked = true;
        bus = alias_for(b->flags) | b->offset;
    }
    pthread_mutex_unlock(&mbox.lock);
    return bus;
}

unsigned mem_unlock(int file_desc, unsigned handle)
{
    pthread_mutex_lock(&mbox.lock);
    unsigned r = MBOX_ERR;
    struct mbox_context *c = ctx_for(file_desc, "mem_unlock");
    struct mbox_block *b = c ? block_for(c, handle, "mem_unlock") : NULL;
    if (b) {
        b->locked = false;
        r = 0;
    }
    pthread_mutex_unlock(&mbox.lock);
    return r;
}

/* ---- the peripheral window ------------------------------------------------------ */

/* Let the V3D run up to cycles (it is idle at once when nothing is
 * queued).  Lock held. */
static enum vc4_status run_slice(struct mbox_context *c, uint64_t cycles, uint64_t *used)
{
    struct vc4_emu_stats before, after;
    vc4_emu_stats(c->emu, &before);
    uint64_t t0 = now_ns();
    enum vc4_status st = vc4_emu_run(c->emu, cycles);
    uint64_t dt = now_ns() - t0;
    vc4_emu_stats(c->emu, &after);
    c->run_ns += dt;
    uint64_t n = after.cycles - before.cycles;
    if (n >= MBOX_SLICE_MIN)
        c->ns_per_cycle = (double)dt / (double)n;
    if (used)
        *used = n;
    return st;
}

static bool in_v3d(const struct mbox_context *c, uint32_t phys, uint32_t *reg)
{
    uint32_t off = phys - c->model->periph_base - VC4_PI_V3D_OFFSET;
    if (phys < c->model->periph_base + VC4_PI_V3D_OFFSET || off >= VC4_V3D_REG_SPAN)
        return false;
    *reg = off;
    return true;
}

static uint32_t periph_read(void *user, uint32_t phys)
{
    struct mbox_context *c = user;
    uint32_t v = 0, reg;
    pthread_mutex_lock(&mbox.lock);
    if (in_v3d(c, phys, &reg)) {
        /* the GPU runs while the program polls (GPU_FFT busy-waits on SRQCS) */
        run_slice(c, MBOX_POLL_CYCLES, NULL);
        if (vc4_emu_reg_read(c->emu, reg, &v) != VC4_OK)
            report(c, VC4_WARNING, phys, "read of V3D offset 0x%03x: no register there; reads 0", reg);
    } else {
        report(c, VC4_WARNING, phys,
               "read of peripheral register 0x%08x: only the V3D (0x%08x..) is emulated; reads 0", phys,
               c->model->periph_base + VC4_PI_V3D_OFFSET);
    }
    pthread_mutex_unlock(&mbox.lock);
    return v;
}

static void periph_write(void *user, uint32_t phys, uint32_t value)
{
    struct mbox_context *c = user;
    uint32_t reg;
    pthread_mutex_lock(&mbox.lock);
    if (in_v3d(c, phys, &reg)) {
        if (vc4_emu_reg_write(c->emu, reg, value) != VC4_OK)
            report(c, VC4_WARNING, phys, "write of V3D offset 0x%03x: no register there; ignored", reg);
    } else {
        report(c, VC4_WARNING, phys,
               "write of peripheral register 0x%08x: only the V3D (0x%08x..) is emulated; ignored", phys,
               c->model->periph_base + VC4_PI_V3D_OFFSET);
    }
    pthread_mutex_unlock(&mbox.lock);
}

static const struct vc4_periph_ops periph_ops = {periph_read, periph_write};

void *vc4_mbox_mmap(void *addr, size_t len, int prot, int flags, uint64_t phys, int *err)
{
    pthread_mutex_lock(&mbox.lock);
    struct mbox_context *c = ctx_get();
    void *p = NULL;
    *err = ENODEV;
    if (!c)
        goto out;
    *err = EINVAL;
    size_t bytes = (len + MBOX_PAGE - 1) / MBOX_PAGE * MBOX_PAGE;
    uint64_t end = phys + bytes, pbase = c->model->periph_base;
    bool fixed = (flags & MAP_FIXED) != 0;
    if (len == 0 || bytes < len || phys % MBOX_PAGE || end < phys) {
        report(c, VC4_ERROR, (int64_t)phys, "mmap of /dev/mem: %zu bytes at physical 0x%" PRIx64
               ": offset not page aligned or size 0", len, phys);
    } else if (end <= c->ram_size) {
        if (c->ram_fd >= 0) {
            p = mmap(addr, bytes, prot, MAP_SHARED | (fixed ? MAP_FIXED : 0), c->ram_fd, (off_t)phys);
            if (p == MAP_FAILED) {
                *err = errno;
                p = NULL;
            }
        } else if (!fixed) {
            p = vc4_emu_mem_ptr(c->emu, (uint32_t)phys, bytes);
        }
    } else if (phys >= pbase && end <= pbase + c->model->periph_size) {
        p = vc4_periph_map(addr, bytes, fixed, (uint32_t)phys, &periph_ops, c);
        if (!p) {
            *err = errno;
            report(c, VC4_ERROR, (int64_t)phys,
                   "mmap of the peripherals at physical 0x%" PRIx64 ": %s", phys,
                   vc4_periph_supported() ? strerror(errno)
                                          : "this build cannot trap accesses (needs x86-64 Linux and libzydis)");
        }
    } else {
        report(c, VC4_ERROR, (int64_t)phys,
               "mmap of /dev/mem at physical 0x%" PRIx64 "..0x%" PRIx64 ": neither RAM (0..0x%x) nor the "
               "peripherals (0x%08" PRIx64 "..0x%08" PRIx64 ")", phys, end, c->ram_size, pbase,
               pbase + c->model->periph_size);
    }
out:
    pthread_mutex_unlock(&mbox.lock);
    return p;
}

int vc4_mbox_munmap(void *addr, size_t len)
{
    if (vc4_periph_unmap(addr, len))
        return 0;
    pthread_mutex_lock(&mbox.lock);
    struct mbox_context *c = mbox.ctx;
    bool shared_ram = c && c->ram_base && (uint8_t *)addr >= c->ram_base &&
                      (uint8_t *)addr < c->ram_base + c->ram_size;
    pthread_mutex_unlock(&mbox.lock);
    if (shared_ram)
        return 0; /* a pointer into the emulator's own RAM: nothing was mapped */
    return munmap(addr, len);
}

void *mapmem(unsigned base, unsigned size)
{
    /* as userland's mapmem: whole pages from /dev/mem, the pointer at base */
    unsigned off = base % MBOX_PAGE;
    int err;
    uint8_t *p = vc4_mbox_mmap(NULL, (size_t)size + off, PROT_READ | PROT_WRITE, MAP_SHARED, base - off, &err);
    return p ? p + off : NULL;
}

void unmapmem(void *addr, unsigned size)
{
    uintptr_t a = (uintptr_t)addr, off = a % MBOX_PAGE;
    if (addr)
        vc4_mbox_munmap((void *)(a - off), (size_t)size + off);
}

unsigned execute_code(int file_desc, unsigned code, unsigned r0, unsigned r1, unsigned r2,
                      unsigned r3, unsigned r4, unsigned r5)
{
    (void)r0, (void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
    pthread_mutex_lock(&mbox.lock);
    struct mbox_context *c = ctx_for(file_desc, "execute_code");
    if (c)
        report(c, VC4_ERROR, code, "execute_code: VideoCore VPU code is not emulated (only the V3D is)");
    pthread_mutex_unlock(&mbox.lock);
    return MBOX_ERR;
}

unsigned qpu_enable(int file_desc, unsigned enable)
{
    pthread_mutex_lock(&mbox.lock);
    unsigned r = MBOX_ERR;
    struct mbox_context *c = ctx_for(file_desc, "qpu_enable");
    if (c) {
        c->qpu_enabled = enable != 0;
        if (!c->qpu_enabled) /* power off: the V3D forgets everything */
            c->needs_reset = true;
        r = 0;
    }
    pthread_mutex_unlock(&mbox.lock);
    return r;
}

/* ---- execute_qpu --------------------------------------------------------------- */

struct run_limit {
    uint64_t deadline_ns; /* wall clock */
    uint64_t cycles;      /* QPU cycles left */
};

/* Run until the queue drains (or, with until_room, has room for one more
 * program): VC4_OK; VC4_ERR_TIMEOUT when the wall-clock deadline or the
 * cycle budget passes first; a fault as vc4_emu_run gives it.  Slices are
 * sized from the measured host speed to an eighth of the time left, so the
 * deadline holds to a fraction of a millisecond.  Lock held. */
static enum vc4_status run_until(struct mbox_context *c, struct run_limit *lim, bool until_room)
{
    for (;;) {
        if (until_room) {
            uint32_t cs = 0;
            vc4_emu_reg_read(c->emu, VC4_V3D_SRQCS, &cs);
            if ((cs & VC4_V3D_SRQCS_QPURQL_MASK) < 16u)
                return VC4_OK;
        }
        uint64_t now = now_ns();
        if (now >= lim->deadline_ns || lim->cycles == 0)
            return VC4_ERR_TIMEOUT;
        double want = c->ns_per_cycle > 0 ? (double)(lim->deadline_ns - now) / 8.0 / c->ns_per_cycle : 0;
        uint64_t slice = want < MBOX_SLICE_MIN ? MBOX_SLICE_MIN : want > MBOX_SLICE_MAX ? MBOX_SLICE_MAX
                                                                                       : (uint64_t)want;
        if (slice > lim->cycles)
            slice = lim->cycles;
        uint64_t used;
        enum vc4_status st = run_slice(c, slice, &used);
        lim->cycles -= used < lim->cycles ? used : lim->cycles;
        if (st != VC4_ERR_TIMEOUT)
            return st;
    }
}

static void report_hang(struct mbox_context *c, unsigned timeout)
{
    unsigned n = vc4_emu_num_qpus(c->emu);
    for (unsigned q = 0; q < n; q++) {
        struct vc4_emu_qpu_info qi;
        if (vc4_emu_qpu_info(c->emu, q, &qi) == VC4_OK && qi.state != VC4_EMU_QPU_IDLE)
            report(c, VC4_ERROR, qi.pc,
                   "execute_qpu: timeout (%u ms): QPU %u still running at PC 0x%08x (word 0x%016" PRIx64 ")%s%s",
                   timeout, q, qi.pc, qi.word, qi.blocked_on ? ", waiting on " : "",
                   qi.blocked_on ? qi.blocked_on : "");
    }
}

unsigned execute_qpu(int file_desc, unsigned num_qpus, unsigned control, unsigned noflush,
                     unsigned timeout)
{
    pthread_mutex_lock(&mbox.lock);
    unsigned r = MBOX_ERR;
    enum vc4_status st = VC4_OK;
    struct mbox_context *c = ctx_for(file_desc, "execute_qpu");
    if (!c)
        goto out;
    if (!c->qpu_enabled) {
        report(c, VC4_ERROR, -1, "execute_qpu: the QPUs are powered off (qpu_enable(fd, 1) first)");
        goto out;
    }
    struct vc4_emu *e = c->emu;
    if (c->needs_reset) {
        vc4_emu_reset(e);
        c->needs_reset = false;
    }
    if (num_qpus == 0) {
        r = 0;
        goto out;
    }
    uint8_t probe[8];
    if ((uint64_t)control + 8ull * num_qpus > 0x100000000ull ||
        vc4_emu_mem_read(e, control, probe, sizeof probe) != VC4_OK ||
        vc4_emu_mem_read(e, control + 8u * (num_qpus - 1), probe, sizeof probe) != VC4_OK) {
        report(c, VC4_ERROR, control, "execute_qpu: %u control blocks at bus 0x%08x: outside the %u MiB of RAM",
               num_qpus, control, c->ram_size >> 20);
        goto out;
    }
    struct run_limit lim = {now_ns() + (uint64_t)timeout * MBOX_NS_PER_MS,
                            (uint64_t)timeout * (c->model->v3d_hz / 1000u)};
    if (lim.cycles < MBOX_SLICE_MIN) /* timeout 0: one short look (UNVERIFIED on a Pi) */
        lim = (struct run_limit){now_ns() + MBOX_NS_PER_MS / 10, MBOX_SLICE_MIN};
    if (!noflush) {
        vc4_emu_reg_write(e, VC4_V3D_L2CACTL, 1u << 2); /* L2CCLR */
        vc4_emu_reg_write(e, VC4_V3D_SLCACTL, 0xFFFFFFFFu);
    }
    vc4_emu_reg_write(e, VC4_V3D_DBCFG, 0);
    vc4_emu_reg_write(e, VC4_V3D_DBQITE, 0);
    vc4_emu_reg_write(e, VC4_V3D_DBQITC, 0xFFFFFFFFu);
    vc4_emu_reg_write(e, VC4_V3D_SRQCS, VC4_V3D_SRQCS_QPURQERR | 1u << VC4_V3D_SRQCS_QPURQCM_SHIFT |
                                            1u << VC4_V3D_SRQCS_QPURQCC_SHIFT);
    for (unsigned i = 0; i < num_qpus; i++) {
        uint8_t b[8];
        vc4_emu_mem_read(e, control + 8u * i, b, sizeof b); /* checked above */
        /* the queue holds 16 programs: let it drain when full */
        if ((st = run_until(c, &lim, true)) != VC4_OK)
            goto stopped;
        /* the {uniforms, code} pair is little-endian in memory, as on the ARM */
        uint32_t unif = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        uint32_t code = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
        vc4_emu_reg_write(e, VC4_V3D_SRQUA, unif);
        vc4_emu_reg_write(e, VC4_V3D_SRQPC, code);
    }
    if ((st = run_until(c, &lim, false)) != VC4_OK)
        goto stopped;
    uint32_t cs = 0;
    vc4_emu_reg_read(e, VC4_V3D_SRQCS, &cs);
    if (((cs >> VC4_V3D_SRQCS_QPURQCC_SHIFT) & 0xFFu) == (num_qpus & 0xFFu))
        r = 0;
    else
        c->needs_reset = true;
    goto out;
stopped:
    if (st == VC4_ERR_TIMEOUT)
        report_hang(c, timeout);
    c->needs_reset = true;
out:
    pthread_mutex_unlock(&mbox.lock);
    return r;
}
