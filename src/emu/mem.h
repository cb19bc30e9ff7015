/*
 * mem.h - emulated bus memory (SDRAM as the V3D sees it).
 *
 * VideoCore bus addresses: bits 31:30 select a cache alias of the same RAM
 * (0x0: L1+L2 cached, 0x4: L2 coherent, 0x8: L2 only, 0xC: uncached, per the
 * BCM2835 peripherals manual section 1.2.3); bits 29:0 are the RAM offset.
 * Every guest access goes through these bounds-checked accessors: an access
 * that does not fit in RAM returns false (reads give 0) and touches nothing.
 *
 * While another host thread may be reading RAM (texture sampling jobs on
 * the second host core, tmu.h), `fence` is set: every write waits for
 * those reads first, so that they see RAM as it was when they were asked
 * for.  Units write through vc4_mem_write* or a pointer from vc4_mem_wptr,
 * never through vc4_mem_ptr's.
 */
#ifndef VC4_EMU_MEM_H
#define VC4_EMU_MEM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/base.h"
#include "vc4kit/diag.h"

#define VC4_BUS_ALIAS_MASK 0xC0000000u
#define VC4_BUS_OFFSET_MASK 0x3FFFFFFFu

struct vc4_mem {
    uint8_t *ram;
    uint32_t size; /* bytes; at most 1 GiB (the alias bits are above) */
    const struct vc4_allocator *alloc;
    int fd;        /* the memory file behind ram (mem.c), or -1 */
    bool mapped;   /* ram is a mapping (memory file or anonymous), not an allocation */
    void (*fence)(void *user); /* non-NULL: call before a write (see above) */
    void *fence_user;
};

static inline void vc4_mem_fence(struct vc4_mem *m)
{
    if (VC4_UNLIKELY(m->fence != NULL))
        m->fence(m->fence_user);
}

/* size bytes of zeroed RAM: a lazily filled mapping with the default
 * allocator, else an allocation from alloc (mem.c). */
enum vc4_status vc4_mem_init(struct vc4_mem *m, uint32_t size, const struct vc4_allocator *alloc);
void vc4_mem_fini(struct vc4_mem *m);
/* Zero all of RAM. */
void vc4_mem_reset(struct vc4_mem *m);

/* The RAM offset of [bus, bus+len), or false if any byte is outside RAM. */
static inline bool vc4_mem_span(const struct vc4_mem *m, uint32_t bus, uint32_t len, uint32_t *off)
{
    uint32_t o = bus & VC4_BUS_OFFSET_MASK;
    if (o > m->size || len > m->size - o)
        return false;
    *off = o;
    return true;
}

/* Host pointer to [bus, bus+len) or NULL: for bulk reads by units that then
 * stay inside the span. */
static inline const uint8_t *vc4_mem_ptr(const struct vc4_mem *m, uint32_t bus, uint32_t len)
{
    uint32_t o;
    return vc4_mem_span(m, bus, len, &o) ? m->ram + o : NULL;
}

/* The same for writing (after the fence). */
static inline uint8_t *vc4_mem_wptr(struct vc4_mem *m, uint32_t bus, uint32_t len)
{
    uint32_t o;
    if (!vc4_mem_span(m, bus, len, &o))
        return NULL;
    vc4_mem_fence(m);
    return m->ram + o;
}

static inline bool vc4_mem_read(const struct vc4_mem *m, uint32_t bus, void *dst, uint32_t len)
{
    uint32_t o;
    if (!vc4_mem_span(m, bus, len, &o)) {
        memset(dst, 0, len);
        return false;
    }
    memcpy(dst, m->ram + o, len);
    return true;
}

static inline bool vc4_mem_write(struct vc4_mem *m, uint32_t bus, const void *src, uint32_t len)
{
    uint32_t o;
    if (!vc4_mem_span(m, bus, len, &o))
        return false;
    vc4_mem_fence(m);
    memcpy(m->ram + o, src, len);
    return true;
}

/* Little-endian scalar accessors (the V3D and ARM are little-endian). */
static inline bool vc4_mem_read32(const struct vc4_mem *m, uint32_t bus, uint32_t *v)
{
    uint8_t b[4];
    bool ok = vc4_mem_read(m, bus, b, 4);
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return ok;
}
static inline bool vc4_mem_read16(const struct vc4_mem *m, uint32_t bus, uint16_t *v)
{
    uint8_t b[2];
    bool ok = vc4_mem_read(m, bus, b, 2);
    *v = (uint16_t)(b[0] | b[1] << 8);
    return ok;
}
static inline bool vc4_mem_read8(const struct vc4_mem *m, uint32_t bus, uint8_t *v)
{
    return vc4_mem_read(m, bus, v, 1);
}
static inline bool vc4_mem_write32(struct vc4_mem *m, uint32_t bus, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return vc4_mem_write(m, bus, b, 4);
}
static inline bool vc4_mem_write16(struct vc4_mem *m, uint32_t bus, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    return vc4_mem_write(m, bus, b, 2);
}
static inline bool vc4_mem_write8(struct vc4_mem *m, uint32_t bus, uint8_t v)
{
    return vc4_mem_write(m, bus, &v, 1);
}

#endif
