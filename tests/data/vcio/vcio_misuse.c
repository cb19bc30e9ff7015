/*
 * vcio_misuse.c - bad input to /dev/vcio and /dev/mem, as a buggy Pi program
 * gives it, run under `vc4kit exec` (tests/cli/exec_vcio.sh): every case
 * gets the error a Pi gives (errno, firmware status) or a clear
 * diagnostic, and the process lives on.  Prints "ok: N checks" and exits 0
 * when every expectation holds; otherwise names the failed ones.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mailbox.h"

#define IOCTL_MBOX_PROPERTY _IOWR(100, 0, char *)
#define PI1_PERIPHERALS 0x20000000u
#define GPIO_OFFSET 0x200000u

static unsigned checks, failed;

static void expect(int cond, const char *what)
{
    checks++;
    if (!cond) {
        failed++;
        printf("FAIL: %s\n", what);
    }
}

static const uint32_t end_code[] = {
    0x009e7000, 0x300009e7, /* nop; thrend */
    0x009e7000, 0x100009e7, /* nop */
    0x009e7000, 0x100009e7, /* nop */
};

int main(void)
{
    int fd = open("/dev/vcio", 0);
    expect(fd >= 0, "open /dev/vcio");
    /* ioctls the device does not know, and bad buffers */
    errno = 0;
    expect(ioctl(fd, 0x1234, NULL) == -1 && errno == ENOTTY, "unknown ioctl: ENOTTY");
    errno = 0;
    expect(ioctl(fd, IOCTL_MBOX_PROPERTY, NULL) == -1 && errno == EFAULT, "NULL buffer: EFAULT");
    errno = 0;
    expect(ioctl(fd, IOCTL_MBOX_PROPERTY, (void *)(uintptr_t)16) == -1 && errno == EFAULT, "bad pointer: EFAULT");
    uint32_t small[2] = {8, 0};
    errno = 0;
    expect(ioctl(fd, IOCTL_MBOX_PROPERTY, small) == -1 && errno == EINVAL, "8-byte buffer: EINVAL");
    uint32_t huge[4] = {1u << 30, 0, 0, 0};
    errno = 0;
    expect(ioctl(fd, IOCTL_MBOX_PROPERTY, huge) == -1 && errno == EINVAL, "1 GiB buffer: EINVAL");
    /* a tag nobody knows: answered as a whole, the tag left unanswered */
    uint32_t unknown[7] = {28, 0, 0x00099999u, 4, 0, 0, 0};
    expect(ioctl(fd, IOCTL_MBOX_PROPERTY, unknown) == 0 && unknown[1] == 0x80000000u && unknown[4] == 0,
           "unknown tag: request done, tag unanswered");
    /* a tag whose value buffer runs past the end */
    uint32_t overrun[6] = {24, 0, 0x00000001u, 400, 0, 0};
    expect(ioctl(fd, IOCTL_MBOX_PROPERTY, overrun) == -1 && overrun[1] == 0x80000001u,
           "value buffer past the end: 0x80000001");
    /* known tags answer */
    uint32_t rev[7] = {28, 0, 0x00010002u, 4, 0, 0, 0};
    expect(ioctl(fd, IOCTL_MBOX_PROPERTY, rev) == 0 && rev[4] == 0x80000004u && rev[5] == 0x0000000Eu,
           "board revision of a Pi 1 B");
    uint32_t temp[8] = {32, 0, 0x00030006u, 8, 0, 0, 0, 0};
    expect(ioctl(fd, IOCTL_MBOX_PROPERTY, temp) == 0 && temp[6] > 0, "temperature");
    /* mmap of /dev/mem outside RAM and peripherals, unaligned, of /dev/vcio */
    int mem = open("/dev/mem", O_RDWR | O_SYNC);
    expect(mem >= 0, "open /dev/mem");
    errno = 0;
    expect(mmap(NULL, 4096, PROT_READ, MAP_SHARED, mem, 0x30000000) == MAP_FAILED && errno == EINVAL,
           "mmap of unmapped physical memory: EINVAL");
    errno = 0;
    expect(mmap(NULL, 4096, PROT_READ, MAP_SHARED, mem, 0x1001) == MAP_FAILED && errno == EINVAL,
           "unaligned mmap: EINVAL");
    errno = 0;
    expect(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0) == MAP_FAILED, "mmap of /dev/vcio fails");
    expect(ioctl(mem, IOCTL_MBOX_PROPERTY, rev) == -1 && errno == ENOTTY, "property ioctl on /dev/mem: ENOTTY");
    /* other peripherals read as 0 */
    volatile uint32_t *peri = mmap(NULL, 0x1000000, PROT_READ | PROT_WRITE, MAP_SHARED, mem, PI1_PERIPHERALS);
    expect(peri != MAP_FAILED, "mmap of the peripherals");
    if (peri != MAP_FAILED) {
        expect(peri[GPIO_OFFSET / 4] == 0, "GPIO reads 0");
        peri[GPIO_OFFSET / 4] = 0xFFFFFFFFu;
        expect(peri[GPIO_OFFSET / 4] == 0, "GPIO write ignored");
        munmap((void *)(uintptr_t)peri, 0x1000000);
    }
    close(mem);
    /* a stand-in descriptor replaced behind the preload's back: the file
     * that takes its number is an ordinary file again */
    int stale = open("/dev/mem", O_RDWR);
    int file = open("/proc/self/exe", O_RDONLY);
    expect(stale >= 0 && file >= 0 && dup2(file, stale) == stale, "dup2 over /dev/mem");
    void *ordinary = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, stale, 0);
    expect(ordinary != MAP_FAILED && memcmp(ordinary, "\177ELF", 4) == 0, "the file behind dup2 maps as itself");
    if (ordinary != MAP_FAILED)
        munmap(ordinary, 4096);
    close(stale);
    close(file);
    /* memory: double free, bad handles, execute_qpu with bogus input */
    qpu_enable(fd, 1);
    unsigned h = mem_alloc(fd, 65536, 4096, 0xC);
    unsigned bus = mem_lock(fd, h);
    uint32_t *arm = mapmem(bus & ~0xC0000000u, 65536);
    expect(arm != NULL, "allocate and map");
    if (arm) {
        memcpy(arm, end_code, sizeof end_code);
        for (unsigned i = 0; i < 13; i++) {
            arm[0x400 / 4 + 2 * i] = bus + 0x800;
            arm[0x400 / 4 + 2 * i + 1] = bus;
        }
        expect(execute_qpu(fd, 13, bus + 0x400, 0, 1000) == 0, "13 QPUs: the queue takes them");
        expect(execute_qpu(fd, 0, bus + 0x400, 0, 1000) == 0, "0 QPUs: nothing to do");
        expect(execute_qpu(fd, 2, 0xFFFFFFF0u, 0, 1000) == 0x80000000u, "control block outside RAM");
        expect(execute_qpu(fd, 0xFFFFFFFFu, bus + 0x400, 0, 1000) == 0x80000000u, "2^32-1 QPUs");
        arm[0x400 / 4 + 1] = 0x3FFFFFF0u; /* code outside RAM */
        expect(execute_qpu(fd, 1, bus + 0x400, 0, 1000) == 0x80000000u, "code outside RAM");
        arm[4000] = 0xA5A5A5A5u;
    }
    expect(mem_unlock(fd, h) == 0, "unlock");
    expect(mem_free(fd, h) == 0, "free");
    expect(mem_free(fd, h) != 0, "double free: an error status");
    expect(mem_lock(fd, 12345) == 0, "lock of a bad handle: 0");
    expect(execute_code(fd, 0x1000, 0, 0, 0, 0, 0, 0) == 0x80000000u, "VPU code: not emulated");
    close(fd);
    /* after the mailbox is closed: the mapping stays, ioctl gives EBADF */
    if (arm)
        expect(arm[4000] == 0xA5A5A5A5u, "mapping valid after mem_free and close");
    errno = 0;
    expect(ioctl(fd, IOCTL_MBOX_PROPERTY, rev) == -1 && errno == EBADF, "ioctl after close: EBADF");
    if (arm)
        unmapmem(arm, 65536);
    printf("%s: %u checks, %u failed\n", failed ? "FAIL" : "ok", checks, failed);
    return failed ? 1 : 0;
}
