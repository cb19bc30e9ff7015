/*
 * fuzz_preload.c - what the preload of `vc4kit exec` does with a program's
 * input (src/host/preload.c): mailbox property buffers (the ioctl) and
 * /dev/mem mappings, answered by the virtual Pi (src/mailbox/).  Nothing
 * may crash, hang or write outside the buffer.
 * Byte 0 bit 0: 0 = the rest is a property buffer (word 0 its size, as the
 * ioctl reads it), 1 = the rest is mmap requests {physical address, length,
 * flags} (12 bytes each), each mapping touched once where it is RAM and
 * unmapped.  Execute-QPU timeouts are cut to 5 ms and allocations to 1 MiB
 * so that one input stays fast.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "mailbox/mbox_internal.h"
#include "vc4kit/mailbox.h"

#define FUZZ_MAX_BYTES 4096u
#define TAG_ALLOCATE_MEMORY 0x0003000Cu
#define TAG_EXECUTE_QPU 0x00030011u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fuzz_fd = -1;

/* Keep one input fast: short launches, small blocks (see above). */
static void tame(uint32_t *buf, uint32_t n)
{
    for (uint32_t i = 2; i + 3 < n; i++) {
        if (buf[i] == TAG_EXECUTE_QPU && i + 6 < n && buf[i + 6] > 5)
            buf[i + 6] = 5;
        if (buf[i] == TAG_ALLOCATE_MEMORY && buf[i + 3] > (1u << 20))
            buf[i + 3] = 1u << 20;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (fuzz_fd < 0) {
        setenv("VC4KIT_DIAG", "off", 1);
        setenv("VC4KIT_MEM_SIZE", "64", 1);
        fuzz_fd = mbox_open();
        if (fuzz_fd < 0)
            return 0;
    }
    if (size < 1)
        return 0;
    const uint8_t *p = data + 1;
    size_t n = size - 1 > FUZZ_MAX_BYTES ? FUZZ_MAX_BYTES : size - 1;
    if ((data[0] & 1) == 0) {
        uint32_t buf[FUZZ_MAX_BYTES / 4 + 1] = {0};
        memcpy(buf, p, n);
        /* the preload refuses sizes outside 12..16384 or beyond the memory */
        uint32_t bytes = buf[0];
        if (bytes < 12 || bytes % 4 || bytes > n)
            return 0;
        tame(buf, bytes / 4);
        vc4_mbox_property(fuzz_fd, buf, bytes);
        return 0;
    }
    for (size_t i = 0; i + 12 <= n; i += 12) {
        uint32_t w[3];
        memcpy(w, p + i, sizeof w);
        size_t len = w[1] & 0x01FFFFFFu; /* up to 32 MiB */
        int err;
        void *m = vc4_mbox_mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | (int)(w[2] & MAP_PRIVATE), w[0],
                                &err);
        if (!m)
            continue;
        if (w[0] + len <= vc4_mbox_ram_bytes())
            ((volatile uint8_t *)m)[0] = ((volatile uint8_t *)m)[0];
        vc4_mbox_munmap(m, len);
    }
    return 0;
}
