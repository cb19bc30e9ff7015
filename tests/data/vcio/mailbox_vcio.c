/*
 * mailbox_vcio.c - the mailbox.h functions written the way a Pi program
 * carries them (userland's hello_fft mailbox.c does the same in its own
 * words): open /dev/vcio, one IOCTL_MBOX_PROPERTY ioctl per firmware tag,
 * and mmap of /dev/mem.  vcio_prog is built with this file to run under
 * `vc4kit exec`, and without it against libvc4kit (tests/cli/exec_vcio.sh).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mailbox.h"

#define IOCTL_MBOX_PROPERTY _IOWR(100, 0, char *)
#define PAGE 4096u

/* One tag, request words in, first response word out (~0u on failure). */
static unsigned tag(int fd, unsigned id, unsigned n, const unsigned *args)
{
    uint32_t msg[16];
    unsigned i = 0;
    msg[i++] = 0;           /* size, below */
    msg[i++] = 0;           /* request */
    msg[i++] = id;
    msg[i++] = 4 * (n > 1 ? n : 1); /* value buffer: the request or the 1-word answer */
    msg[i++] = n * 4;       /* request length */
    for (unsigned k = 0; k < n; k++)
        msg[i++] = args[k];
    if (n == 0)
        msg[i++] = 0;
    msg[i++] = 0;           /* end tag */
    msg[0] = i * 4;
    if (ioctl(fd, IOCTL_MBOX_PROPERTY, msg) < 0) {
        perror("ioctl(IOCTL_MBOX_PROPERTY)");
        return ~0u;
    }
    return msg[5];
}

int mbox_open(void)
{
    int fd = open("/dev/vcio", 0);
    if (fd < 0)
        perror("open /dev/vcio");
    return fd;
}

void mbox_close(int fd)
{
    close(fd);
}

unsigned get_version(int fd)
{
    return tag(fd, 0x00000001, 0, NULL);
}

unsigned mem_alloc(int fd, unsigned size, unsigned align, unsigned flags)
{
    unsigned a[3] = {size, align, flags};
    return tag(fd, 0x3000c, 3, a);
}

unsigned mem_free(int fd, unsigned handle)
{
    return tag(fd, 0x3000f, 1, &handle);
}

unsigned mem_lock(int fd, unsigned handle)
{
    return tag(fd, 0x3000d, 1, &handle);
}

unsigned mem_unlock(int fd, unsigned handle)
{
    return tag(fd, 0x3000e, 1, &handle);
}

unsigned execute_code(int fd, unsigned code, unsigned r0, unsigned r1, unsigned r2, unsigned r3, unsigned r4,
                      unsigned r5)
{
    unsigned a[7] = {code, r0, r1, r2, r3, r4, r5};
    return tag(fd, 0x30010, 7, a);
}

unsigned execute_qpu(int fd, unsigned num_qpus, unsigned control, unsigned noflush, unsigned timeout)
{
    unsigned a[4] = {num_qpus, control, noflush, timeout};
    return tag(fd, 0x30011, 4, a);
}

unsigned qpu_enable(int fd, unsigned enable)
{
    return tag(fd, 0x30012, 1, &enable);
}

void *mapmem(unsigned base, unsigned size)
{
    unsigned off = base % PAGE;
    int fd = open("/dev/mem", O_RDWR | O_SYNC);
    if (fd < 0) {
        perror("open /dev/mem");
        return NULL;
    }
    void *p = mmap(NULL, size + off, PROT_READ | PROT_WRITE, MAP_SHARED, fd, base - off);
    close(fd); /* the mapping stays */
    if (p == MAP_FAILED) {
        perror("mmap /dev/mem");
        return NULL;
    }
    return (char *)p + off;
}

void unmapmem(void *addr, unsigned size)
{
    uintptr_t a = (uintptr_t)addr, off = a % PAGE;
    munmap((void *)(a - off), size + off);
}
