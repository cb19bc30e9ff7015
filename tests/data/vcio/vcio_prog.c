/*
 * vcio_prog.c - a GPU-compute host program written the way Pi programs are
 * (hello_fft: mailbox.h calls, libbcm_host.so loaded at run time, the V3D
 * driven through its registers for small jobs and through the firmware's
 * execute_qpu for large ones).  It runs scale.qasm (out = 3 * in + 7) over
 * ROWS rows of 16 words per QPU on QPUS QPUs, both ways, checks every word
 * and prints one line per way with a checksum.
 *
 *   vcio_prog CODE.bin ROWS QPUS [direct|mailbox|both]
 *
 * Built with mailbox_vcio.c (/dev/vcio and /dev/mem) to run under
 * `vc4kit exec`, and without it against libvc4kit; both must print the
 * same lines (tests/cli/exec_vcio.sh).  Exit 0 when every word is right.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mailbox.h"

#define MEM_FLAG_L1_NONALLOCATING 0xC
#define BUS_TO_PHYS(x) ((x) & ~0xC0000000u)
#define V3D_OFFSET 0xC00000u
/* V3D register word indexes (reference guide; gpu_fft_base.c uses these) */
#define V3D_IDENT0 (0x000 / 4)
#define V3D_L2CACTL (0x020 / 4)
#define V3D_SLCACTL (0x024 / 4)
#define V3D_SRQPC (0x430 / 4)
#define V3D_SRQUA (0x434 / 4)
#define V3D_SRQCS (0x43C / 4)
#define V3D_DBCFG (0xE00 / 4)
#define V3D_DBQITE (0xE2C / 4)
#define V3D_DBQITC (0xE30 / 4)
#define MAX_QPUS 16
#define ROW_WORDS 16

struct layout {
    unsigned code, unifs, control, in, out, size; /* byte offsets, total */
};

static unsigned peripheral(unsigned *size)
{
    void *h = dlopen("libbcm_host.so", RTLD_LAZY);
    if (!h) {
        fprintf(stderr, "cannot load libbcm_host.so: %s\n", dlerror());
        return 0;
    }
    unsigned (*addr)(void) = (unsigned (*)(void))(uintptr_t)dlsym(h, "bcm_host_get_peripheral_address");
    unsigned (*sz)(void) = (unsigned (*)(void))(uintptr_t)dlsym(h, "bcm_host_get_peripheral_size");
    unsigned a = addr && sz ? addr() : 0;
    *size = sz ? sz() : 0;
    return a;
}

static uint32_t input(unsigned i)
{
    return (i * 2654435761u) >> 8; /* 24 bits: mul24 takes the low 24 */
}

/* Check out = 3 * in + 7; returns a checksum, or prints the first bad word. */
static int check(const uint32_t *out, unsigned words, uint32_t *sum)
{
    uint32_t s = 0;
    for (unsigned i = 0; i < words; i++) {
        if (out[i] != 3 * input(i) + 7) {
            fprintf(stderr, "word %u: 0x%08x, want 0x%08x\n", i, out[i], 3 * input(i) + 7);
            return 0;
        }
        s = s * 31 + out[i];
    }
    *sum = s;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: vcio_prog CODE.bin ROWS QPUS [direct|mailbox|both]\n");
        return 2;
    }
    const char *mode = argc > 4 ? argv[4] : "both";
    unsigned rows = (unsigned)strtoul(argv[2], NULL, 0), qpus = (unsigned)strtoul(argv[3], NULL, 0);
    if (rows == 0 || qpus == 0 || qpus > MAX_QPUS) {
        fprintf(stderr, "bad ROWS or QPUS\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    static uint8_t code[4096];
    size_t code_len = f ? fread(code, 1, sizeof code, f) : 0;
    if (f)
        fclose(f);
    if (!code_len) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    unsigned words = rows * qpus * ROW_WORDS;
    struct layout L = {0, 4096, 8192, 12288, 0, 0};
    L.out = L.in + words * 4;
    L.size = L.out + words * 4;

    int mb = mbox_open();
    if (mb < 0 || qpu_enable(mb, 1)) {
        fprintf(stderr, "cannot enable the QPUs\n");
        return 1;
    }
    unsigned handle = mem_alloc(mb, L.size, 4096, MEM_FLAG_L1_NONALLOCATING);
    unsigned bus = handle ? mem_lock(mb, handle) : 0;
    uint8_t *arm = bus ? mapmem(BUS_TO_PHYS(bus), L.size) : NULL;
    if (!arm) {
        fprintf(stderr, "cannot allocate %u bytes of GPU memory\n", L.size);
        return 1;
    }
    memcpy(arm + L.code, code, code_len);
    uint32_t *in = (uint32_t *)(arm + L.in), *out = (uint32_t *)(arm + L.out);
    uint32_t *unifs = (uint32_t *)(arm + L.unifs), *control = (uint32_t *)(arm + L.control);
    for (unsigned i = 0; i < words; i++)
        in[i] = input(i);
    for (unsigned q = 0; q < qpus; q++) {
        unsigned first = q * rows * ROW_WORDS * 4;
        unifs[4 * q + 0] = bus + L.in + first;
        unifs[4 * q + 1] = bus + L.out + first;
        unifs[4 * q + 2] = rows;
        unifs[4 * q + 3] = q; /* VPM row */
        control[2 * q + 0] = bus + L.unifs + 16 * q;
        control[2 * q + 1] = bus + L.code;
    }
    int ok = 1;
    uint32_t sum;
    if (!strcmp(mode, "direct") || !strcmp(mode, "both")) {
        /* gpu_fft_base.c's way for small jobs: the V3D registers themselves */
        unsigned psize, pbase = peripheral(&psize);
        volatile uint32_t *peri = pbase ? mapmem(pbase, psize) : NULL;
        if (!peri) {
            fprintf(stderr, "cannot map the peripherals\n");
            return 1;
        }
        volatile uint32_t *v3d = peri + V3D_OFFSET / 4;
        if (v3d[V3D_IDENT0] != 0x02443356u) {
            fprintf(stderr, "no V3D: IDENT0 0x%08x\n", v3d[V3D_IDENT0]);
            return 1;
        }
        memset(out, 0, words * 4);
        v3d[V3D_DBCFG] = 0;
        v3d[V3D_DBQITE] = 0;
        v3d[V3D_DBQITC] = ~0u;
        v3d[V3D_L2CACTL] = 1 << 2;
        v3d[V3D_SLCACTL] = ~0u;
        v3d[V3D_SRQCS] = (1 << 7) | (1 << 8) | (1 << 16);
        for (unsigned q = 0; q < qpus; q++) {
            v3d[V3D_SRQUA] = control[2 * q];
            v3d[V3D_SRQPC] = control[2 * q + 1];
        }
        time_t start = time(NULL);
        while (((v3d[V3D_SRQCS] >> 16) & 0xFF) != qpus)
            if (time(NULL) - start > 20) {
                fprintf(stderr, "direct: no completion after 20 s (SRQCS 0x%08x)\n", v3d[V3D_SRQCS]);
                return 1;
            }
        if (check(out, words, &sum))
            printf("direct: %u rows x %u QPUs ok, checksum 0x%08x\n", rows, qpus, sum);
        else
            ok = 0;
        unmapmem((void *)(uintptr_t)peri, psize);
    }
    if (!strcmp(mode, "mailbox") || !strcmp(mode, "both")) {
        memset(out, 0, words * 4);
        unsigned r = execute_qpu(mb, qpus, bus + L.control, 1, 10000);
        if (r) {
            fprintf(stderr, "execute_qpu returned 0x%08x\n", r);
            ok = 0;
        } else if (check(out, words, &sum)) {
            printf("mailbox: %u rows x %u QPUs ok, checksum 0x%08x\n", rows, qpus, sum);
        } else {
            ok = 0;
        }
    }
    unmapmem(arm, L.size);
    mem_unlock(mb, handle);
    mem_free(mb, handle);
    qpu_enable(mb, 0);
    mbox_close(mb);
    return ok ? 0 : 1;
}
