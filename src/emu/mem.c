/*
 * mem.c - emulated bus memory: allocation and reset (accessors in mem.h).
 */
#include "base/base.h"
#include "emu/mem.h"

enum vc4_status vc4_mem_init(struct vc4_mem *m, uint32_t size, const struct vc4_allocator *alloc)
{
    *m = (struct vc4_mem){.alloc = alloc};
    if (size == 0 || size > VC4_BUS_OFFSET_MASK + 1u)
        return VC4_ERR_RANGE;
    m->ram = vc4_calloc(alloc, 1, size);
    if (!m->ram)
        return VC4_ERR_NOMEM;
    m->size = size;
    return VC4_OK;
}

void vc4_mem_fini(struct vc4_mem *m)
{
    vc4_free(m->alloc, m->ram);
    m->ram = NULL;
    m->size = 0;
}

void vc4_mem_reset(struct vc4_mem *m)
{
    if (m->ram)
        memset(m->ram, 0, m->size);
}
