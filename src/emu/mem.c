/*
 * mem.c - emulated bus memory: allocation and reset (accessors in mem.h).
 *
 * With the default allocator the RAM is a memory file (memfd) mapped
 * shared: the kernel hands out zero pages on first touch, so creating an
 * emulator costs microseconds whatever the memory size (a Pi 1 B's 512 MiB
 * included), and a host may map the same file (vc4_emu_mem_fd) the way a Pi
 * program maps /dev/mem: its mapping stays valid after the emulator is
 * gone, as a /dev/mem mapping outlives the process's mailbox.  Without
 * memfd_create the RAM is an anonymous mapping (also lazily zero); with a
 * caller's allocator it comes from that allocator, zeroed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/base.h"
#include "emu/mem.h"

enum vc4_status vc4_mem_init(struct vc4_mem *m, uint32_t size, const struct vc4_allocator *alloc)
{
    *m = (struct vc4_mem){.alloc = alloc, .fd = -1};
    if (size == 0 || size > VC4_BUS_OFFSET_MASK + 1u)
        return VC4_ERR_RANGE;
    if (alloc && alloc->fn) {
        m->ram = vc4_calloc(alloc, 1, size);
        if (!m->ram)
            return VC4_ERR_NOMEM;
        m->size = size;
        return VC4_OK;
    }
    void *p = MAP_FAILED;
    int fd = memfd_create("vc4kit-ram", MFD_CLOEXEC);
    if (fd >= 0) {
        if (ftruncate(fd, size) == 0)
            p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) {
            close(fd);
            fd = -1;
        }
    }
    if (p == MAP_FAILED)
        p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return VC4_ERR_NOMEM;
    m->ram = p;
    m->fd = fd;
    m->mapped = true;
    m->size = size;
    return VC4_OK;
}

void vc4_mem_fini(struct vc4_mem *m)
{
    if (m->mapped) {
        if (m->ram)
            munmap(m->ram, m->size);
        if (m->fd >= 0)
            close(m->fd);
    } else {
        vc4_free(m->alloc, m->ram);
    }
    m->ram = NULL;
    m->size = 0;
    m->fd = -1;
}

void vc4_mem_reset(struct vc4_mem *m)
{
    if (!m->ram)
        return;
    vc4_mem_fence(m);
    /* give the pages back: they read as zero again (for the memory file,
     * in every mapping of it) */
    if (m->fd >= 0 && fallocate(m->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, m->size) == 0)
        return;
    if (m->mapped && m->fd < 0 && madvise(m->ram, m->size, MADV_DONTNEED) == 0)
        return;
    memset(m->ram, 0, m->size);
}
