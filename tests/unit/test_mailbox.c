/*
 * test_mailbox.c - the Pi mailbox.h API on the emulator: descriptors,
 * allocation and bus aliases, mapmem, execute_qpu on 12 QPUs, timeouts,
 * bad control blocks, and concurrent callers.
 */
#define _GNU_SOURCE
#include "harness.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "vc4kit/bcm_host.h"
#include "vc4kit/mailbox.h"

#include "../data/mailbox_code.inc"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* The mailbox layer's report, read back by the tests (VC4KIT_DIAG_FILE). */
static char diag_path[64];

static void diag_setup(void)
{
    snprintf(diag_path, sizeof diag_path, "/tmp/vc4kit_test_mailbox.%d", (int)getpid());
    remove(diag_path);
    setenv("VC4KIT_DIAG_FILE", diag_path, 1);
    setenv("VC4KIT_DIAG", "all", 1);
}

/* How many lines of the report contain s. */
static unsigned diag_lines(const char *s)
{
    FILE *f = fopen(diag_path, "r");
    char line[512];
    unsigned n = 0;
    if (!f)
        return 0;
    fflush(NULL);
    while (fgets(line, sizeof line, f))
        n += strstr(line, s) != NULL;
    fclose(f);
    return n;
}

static void test_open_close(void)
{
    diag_setup();
    int a = mbox_open(), b = mbox_open();
    CHECK(a >= 0);
    CHECK(b >= 0 && b != a);
    CHECK(get_version(a) != 0);
    CHECK_EQ_U64(get_version(12345), 0); /* not one of ours */
    mbox_close(b);
    CHECK_EQ_U64(get_version(b), 0);
    CHECK(get_version(a) != 0);
    mbox_close(a);
    mbox_close(a); /* twice: harmless */
    CHECK_EQ_U64(mem_alloc(a, 4096, 4096, 0), 0);
    /* /dev/mem needs no mailbox: the RAM stays mappable */
    void *p = mapmem(0x1000, 16);
    CHECK(p != NULL);
    unmapmem(p, 16);
    CHECK(diag_lines("descriptor") >= 1);
}

static void test_alloc_aliases(void)
{
    int mb = mbox_open();
    static const struct { unsigned flags, alias; } t[] = {
        {MEM_FLAG_NORMAL, 0x00000000u},
        {MEM_FLAG_DIRECT, 0xC0000000u},
        {MEM_FLAG_COHERENT, 0x80000000u},
        {MEM_FLAG_L1_NONALLOCATING, 0x40000000u},
        {MEM_FLAG_L1_NONALLOCATING | MEM_FLAG_ZERO | MEM_FLAG_HINT_PERMALOCK, 0x40000000u},
    };
    unsigned handles[5], buses[5];
    for (unsigned i = 0; i < 5; i++) {
        handles[i] = mem_alloc(mb, 5000, 4096, t[i].flags);
        CHECK(handles[i] != 0);
        buses[i] = mem_lock(mb, handles[i]);
        CHECK_EQ_U64(buses[i] & 0xC0000000u, t[i].alias);
        CHECK_EQ_U64(buses[i] & 0xFFFu, 0);
        for (unsigned j = 0; j < i; j++) /* no overlap (sizes round to 8 KB) */
            CHECK((buses[i] & 0x3FFFFFFFu) >= (buses[j] & 0x3FFFFFFFu) + 8192 ||
                  (buses[j] & 0x3FFFFFFFu) >= (buses[i] & 0x3FFFFFFFu) + 8192);
    }
    /* default init is all ones; MEM_FLAG_ZERO zeros */
    unsigned char *p0 = mapmem(buses[0] & 0x3FFFFFFFu, 5000);
    unsigned char *p4 = mapmem(buses[4] & 0x3FFFFFFFu, 5000);
    CHECK(p0 && p4);
    if (p0 && p4) {
        CHECK_EQ_U64(p0[0], 0xFF);
        CHECK_EQ_U64(p0[4999], 0xFF);
        CHECK_EQ_U64(p4[100], 0);
        p4[8] = 0x5A;
        unsigned char *again = mapmem((buses[4] & 0x3FFFFFFFu) + 8, 1);
        CHECK(again && *again == 0x5A);
    }
    /* alignment is honoured */
    unsigned h = mem_alloc(mb, 100, 1u << 20, MEM_FLAG_DIRECT);
    CHECK_EQ_U64(mem_lock(mb, h) & 0xFFFFFu, 0);
    CHECK_EQ_U64(mem_unlock(mb, h), 0);
    CHECK_EQ_U64(mem_free(mb, h), 0);
    CHECK_EQ_U64(mem_free(mb, h), 0x80000000u); /* already freed */
    CHECK_EQ_U64(mem_lock(mb, h), 0);
    CHECK_EQ_U64(mem_lock(mb, 0), 0);
    CHECK_EQ_U64(mem_alloc(mb, 0, 4096, 0), 0);
    CHECK_EQ_U64(mem_alloc(mb, 0x7FFFFFFFu, 4096, 0), 0); /* more than RAM */
    CHECK_EQ_U64(mem_alloc(mb, 4096, 3000, 0), 0);        /* not a power of two */
    CHECK(mapmem(0x3FFFF000u, 0x2000) == NULL);           /* beyond RAM */
    for (unsigned i = 0; i < 5; i++) {
        CHECK_EQ_U64(mem_unlock(mb, handles[i]), 0);
        CHECK_EQ_U64(mem_free(mb, handles[i]), 0);
    }
    CHECK_EQ_U64(execute_code(mb, 0x1000, 0, 0, 0, 0, 0, 0), 0x80000000u);
    mbox_close(mb);
}

struct job {
    int mb;
    unsigned handle, bus;
    unsigned *arm;
};

static struct job job_setup(unsigned nprog, const unsigned *code, size_t code_bytes)
{
    struct job j;
    j.mb = mbox_open();
    qpu_enable(j.mb, 1);
    j.handle = mem_alloc(j.mb, 0x4000, 4096, MEM_FLAG_DIRECT | MEM_FLAG_ZERO);
    j.bus = mem_lock(j.mb, j.handle);
    j.arm = mapmem(j.bus & 0x3FFFFFFFu, 0x4000);
    if (!j.arm)
        return j;
    memcpy(j.arm, code, code_bytes);
    for (unsigned i = 0; i < nprog; i++) {
        j.arm[0x200 / 4 + 2 * i] = 100 * i + 1;
        j.arm[0x200 / 4 + 2 * i + 1] = j.bus + 0x1000 + 64 * i;
        j.arm[0x600 / 4 + 2 * i] = j.bus + 0x200 + 8 * i;
        j.arm[0x600 / 4 + 2 * i + 1] = j.bus;
    }
    return j;
}

static void job_done(struct job *j)
{
    mem_unlock(j->mb, j->handle);
    mem_free(j->mb, j->handle);
    mbox_close(j->mb);
}

static int job_check(const struct job *j, unsigned nprog)
{
    for (unsigned i = 0; i < nprog; i++) {
        const unsigned *row = j->arm + 0x1000 / 4 + 16 * i;
        unsigned q = row[0] - (100 * i + 1);
        if (q >= 12)
            return 0;
        for (unsigned e = 0; e < 16; e++)
            if (row[e] != 100 * i + 1 + q + e)
                return 0;
    }
    return 1;
}

static void test_execute_qpu(void)
{
    struct job j = job_setup(12, mailbox_qpu_code, sizeof mailbox_qpu_code);
    CHECK(j.arm != NULL);
    if (!j.arm)
        return;
    CHECK_EQ_U64(execute_qpu(j.mb, 12, j.bus + 0x600, 0, 1000), 0);
    CHECK(job_check(&j, 12));
    /* more programs than the 16-deep request queue */
    memset(j.arm + 0x1000 / 4, 0, 0x1000);
    for (unsigned i = 12; i < 40; i++) {
        j.arm[0x200 / 4 + 2 * i] = 100 * i + 1;
        j.arm[0x200 / 4 + 2 * i + 1] = j.bus + 0x1000 + 64 * i;
        j.arm[0x600 / 4 + 2 * i] = j.bus + 0x200 + 8 * i;
        j.arm[0x600 / 4 + 2 * i + 1] = j.bus;
    }
    CHECK_EQ_U64(execute_qpu(j.mb, 40, j.bus + 0x600, 1, 1000), 0);
    CHECK(job_check(&j, 40));
    /* QPUs powered off: the launch fails */
    qpu_enable(j.mb, 0);
    CHECK_EQ_U64(execute_qpu(j.mb, 1, j.bus + 0x600, 0, 1000), 0x80000000u);
    qpu_enable(j.mb, 1);
    CHECK_EQ_U64(execute_qpu(j.mb, 0, j.bus + 0x600, 0, 1000), 0);
    /* a control block outside memory */
    CHECK_EQ_U64(execute_qpu(j.mb, 2, 0x3FFFFFF8u, 0, 1000), 0x80000000u);
    job_done(&j);
}

/* brr -4 instructions (to itself) with three delay-slot nops: never ends. */
static const unsigned loop_code[] = {
    0xFFFFFFE0u, 0xF0F809E7u, /* brr -, -32 (always) */
    0x009e7000u, 0x100009e7u, 0x009e7000u, 0x100009e7u, 0x009e7000u, 0x100009e7u,
};

static void test_timeout_then_recover(void)
{
    struct job j = job_setup(2, loop_code, sizeof loop_code);
    CHECK(j.arm != NULL);
    if (!j.arm)
        return;
    CHECK_EQ_U64(execute_qpu(j.mb, 2, j.bus + 0x600, 0, 2), 0x80000000u);
    /* the device is reset and usable again */
    memcpy(j.arm, mailbox_qpu_code, sizeof mailbox_qpu_code);
    CHECK_EQ_U64(execute_qpu(j.mb, 2, j.bus + 0x600, 0, 1000), 0);
    CHECK(job_check(&j, 2));
    job_done(&j);
}

/* issue 17: a mapping of a block stays valid after mem_free and
 * mbox_close until unmapmem, as a /dev/mem mapping does on a Pi. */
static void test_mapping_outlives_close(void)
{
    int mb = mbox_open();
    unsigned h = mem_alloc(mb, 8192, 4096, MEM_FLAG_DIRECT);
    unsigned bus = mem_lock(mb, h);
    volatile unsigned *p = mapmem(bus & 0x3FFFFFFFu, 8192);
    CHECK(p != NULL);
    if (!p)
        return;
    CHECK_EQ_U64(p[5], 0xFFFFFFFFu); /* filled with ones */
    p[7] = 0x12345678u;
    mem_unlock(mb, h);
    CHECK_EQ_U64(mem_free(mb, h), 0);
    mbox_close(mb);
    CHECK_EQ_U64(p[7], 0x12345678u);
    p[2047] = 1;
    unmapmem((void *)(uintptr_t)p, 8192);
    /* double free and use after close: the firmware's error, a diagnostic */
    CHECK_EQ_U64(mem_free(mb, h), 0x80000000u);
    CHECK_EQ_U64(mem_alloc(mb, 4096, 4096, 0), 0);
    CHECK(diag_lines("is not allocated") >= 1);
}

static uint64_t ms_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}

/* issue 17: the timeout is wall time, whatever the QPU count (the bug
 * was a timeout in emulated cycles: twelve QPUs took twelve times as
 * long); 0 ms returns at once. */
static void test_wall_timeout(void)
{
    struct job j = job_setup(12, loop_code, sizeof loop_code);
    CHECK(j.arm != NULL);
    if (!j.arm)
        return;
    static const unsigned timeouts[] = {0, 50, 400};
    for (unsigned k = 0; k < sizeof timeouts / sizeof timeouts[0]; k++) {
        uint64_t t0 = ms_now();
        CHECK_EQ_U64(execute_qpu(j.mb, 12, j.bus + 0x600, 0, timeouts[k]), 0x80000000u);
        uint64_t dt = ms_now() - t0;
        printf("execute_qpu timeout %u ms: returned after %llu ms\n", timeouts[k], (unsigned long long)dt);
        /* not before 80% of the timeout, and well before twice it: the
         * ASan build beside other jobs on two cores took 677 ms for 400
         * (2026-11-30), within 20% on an idle machine */
        CHECK(dt * 5 >= timeouts[k] * 4);
        CHECK(dt <= timeouts[k] * 2 + 100);
    }
    CHECK(diag_lines("still running") >= 1);
    /* 13 programs on 12 QPUs: the queue takes them, as on a Pi */
    memcpy(j.arm, mailbox_qpu_code, sizeof mailbox_qpu_code);
    for (unsigned i = 0; i < 13; i++) {
        j.arm[0x200 / 4 + 2 * i] = 100 * i + 1;
        j.arm[0x200 / 4 + 2 * i + 1] = j.bus + 0x1000 + 64 * i;
        j.arm[0x600 / 4 + 2 * i] = j.bus + 0x200 + 8 * i;
        j.arm[0x600 / 4 + 2 * i + 1] = j.bus;
    }
    CHECK_EQ_U64(execute_qpu(j.mb, 13, j.bus + 0x600, 0, 1000), 0);
    CHECK(job_check(&j, 13));
    job_done(&j);
}

/* mapmem of the peripherals gives live V3D registers: a program started by
 * SRQUA/SRQPC writes completes while the host polls SRQCS (GPU_FFT's
 * direct path); other peripherals read 0 with one diagnostic. */
static void test_peripheral_window(void)
{
    struct job j = job_setup(4, mailbox_qpu_code, sizeof mailbox_qpu_code);
    volatile unsigned *peri = mapmem(bcm_host_get_peripheral_address(), bcm_host_get_peripheral_size());
    CHECK(j.arm != NULL && peri != NULL);
    if (!j.arm || !peri)
        return;
    volatile unsigned *v3d = peri + 0xC00000 / 4;
    CHECK_EQ_U64(v3d[0], 0x02443356u); /* IDENT0 */
    v3d[0x010 / 4] = 0xCAFEF00Du;       /* SCRATCH */
    CHECK_EQ_U64(v3d[0x010 / 4], 0xCAFEF00Du);
    /* any x86 access: a byte, a 16-bit store into part of a word, a
     * 64-bit load over two registers, an atomic read-modify-write, a copy */
    CHECK_EQ_U64(((volatile uint8_t *)v3d)[1], 0x33);
    ((volatile uint16_t *)v3d)[0x010 / 2] = 0x1234;
    CHECK_EQ_U64(v3d[0x010 / 4], 0xCAFE1234u);
    CHECK_EQ_U64(((volatile uint64_t *)v3d)[0x010 / 8] & 0xFFFFFFFFu, 0xCAFE1234u);
    __atomic_fetch_or((unsigned *)(uintptr_t)&v3d[0x010 / 4], 0x0000C000u, __ATOMIC_SEQ_CST);
    CHECK_EQ_U64(v3d[0x010 / 4], 0xCAFED234u);
    unsigned copy[8];
    memcpy(copy, (const void *)(uintptr_t)v3d, sizeof copy);
    CHECK_EQ_U64(copy[0], 0x02443356u);
    CHECK_EQ_U64(copy[0x010 / 4], 0xCAFED234u);
    v3d[0xE00 / 4] = 0;                 /* DBCFG */
    v3d[0xE2C / 4] = 0;                 /* DBQITE */
    v3d[0xE30 / 4] = 0xFFFFFFFFu;       /* DBQITC */
    v3d[0x43C / 4] = 1u << 7 | 1u << 8 | 1u << 16;
    for (unsigned i = 0; i < 4; i++) {
        v3d[0x434 / 4] = j.bus + 0x200 + 8 * i; /* SRQUA */
        v3d[0x430 / 4] = j.bus;                 /* SRQPC */
    }
    unsigned polls = 0;
    while (((v3d[0x43C / 4] >> 16) & 0xFF) != 4 && polls < 100000)
        polls++;
    CHECK(polls < 100000);
    CHECK(job_check(&j, 4));
    CHECK_EQ_U64(peri[0x200000 / 4], 0); /* GPIO: not emulated */
    CHECK_EQ_U64(peri[0x200000 / 4], 0);
    CHECK_EQ_U64(diag_lines("0x20200000: warning: read of peripheral register"), 1);
    unmapmem((void *)(uintptr_t)peri, bcm_host_get_peripheral_size());
    job_done(&j);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* The debug registers DBSCS, DBSCFG, DBSSR, DBSDR0-3 (0xE04-0xE1C): seven
 * read-write words in a row, whose values the masked stores below must
 * change only where their masks say; 0xE20 on is read-only or nothing. */
#define DBS_FIRST (0xE04 / 4)
#define DBS_WORDS 7

static void dbs_fill(volatile unsigned *v3d, unsigned *want)
{
    for (unsigned i = 0; i < DBS_WORDS; i++)
        v3d[DBS_FIRST + i] = want[i] = 0x11111111u * (i + 1);
}

static bool dbs_same(volatile unsigned *v3d, const unsigned *want)
{
    bool same = true;
    for (unsigned i = 0; i < DBS_WORDS; i++)
        if (v3d[DBS_FIRST + i] != want[i]) {
            fprintf(stderr, "  DBS word %u: 0x%08x, want 0x%08x\n", i, v3d[DBS_FIRST + i], want[i]);
            same = false;
        }
    return same;
}

__attribute__((target("avx512f,avx512bw"), noinline)) static void masked_avx512(volatile unsigned *v3d,
                                                                                  unsigned *want)
{
    void *at = (void *)(uintptr_t)&v3d[DBS_FIRST];
    __m512i lanes = _mm512_set_epi32(0xF0F0F00F, 0xE0E0E00E, 0xD0D0D00D, 0xC0C0C00C, 0xB0B0B00B, 0xA0A0A00A,
                                     0x90909009, 0x80808008, 0x70707007, 0x60606006, 0x50505005, 0x40404004,
                                     0x30303003, 0x20202002, 0x10101001, 0x00000000);
    /* elements 0 and 2 of 16 (64 bytes from 0xE04: the other 14 reach
     * registers that must keep their values, and offsets with none) */
    _mm512_mask_storeu_epi32(at, 0x0005, lanes);
    want[0] = 0x00000000u;
    want[2] = 0x20202002u;
    /* bytes 1 and 2 of DBSDR0 (0xE10): the word's other bytes stay */
    _mm512_mask_storeu_epi8((void *)(uintptr_t)&v3d[0xE10 / 4], 0x6, _mm512_set1_epi8((char)0xA5));
    want[3] = (want[3] & 0xFF0000FFu) | 0x00A5A500u;
    /* a compressing store: elements 8 and 9, packed into DBSDR1, DBSDR2 */
    _mm512_mask_compressstoreu_epi32((void *)(uintptr_t)&v3d[0xE14 / 4], 0x0300, lanes);
    want[4] = 0x80808008u;
    want[5] = 0x90909009u;
    /* a masked load of DBSDR3 alone reads only it */
    __m512i got = _mm512_maskz_loadu_epi32(0x0001, (const void *)(uintptr_t)&v3d[0xE1C / 4]);
    CHECK_EQ_U64((unsigned)_mm_cvtsi128_si32(_mm512_castsi512_si128(got)), want[6]);
}

__attribute__((target("avx2"), noinline)) static void masked_avx2(volatile unsigned *v3d, unsigned *want)
{
    /* vpmaskmovd: elements 1 and 6 of 8, by their top bits */
    __m256i mask = _mm256_set_epi32(0, -1, 0, 0, 0, 0, -1, 0);
    _mm256_maskstore_epi32((int *)(uintptr_t)&v3d[DBS_FIRST], mask, _mm256_set1_epi32(0x5A5A5A5A));
    want[1] = want[6] = 0x5A5A5A5Au;
}

static void masked_sse2(volatile unsigned *v3d, unsigned *want)
{
    /* maskmovdqu: bytes 4-7 of 16, at DBSSR - 4 (DBSCFG's word is not written) */
    __m128i mask = _mm_set_epi32(0, 0, -1, 0);
    _mm_maskmoveu_si128(_mm_set1_epi32(0x3C3C3C3C), mask, (char *)(uintptr_t)&v3d[0xE08 / 4]);
    want[2] = 0x3C3C3C3Cu;
}
#endif

/* A masked store writes only the registers its mask selects, and a masked
 * load reads only those (periph.c): CPython's struct.pack_into clears its
 * bytes with glibc's memset, one masked 64-byte store on an AVX-512 host,
 * and wrote zeros over the 15 registers after SRQUA (SRQUL among them)
 * when the whole operand was taken as written. */
static void test_peripheral_masked(void)
{
    volatile unsigned *peri = mapmem(bcm_host_get_peripheral_address(), bcm_host_get_peripheral_size());
    CHECK(peri != NULL);
    if (!peri)
        return;
    volatile unsigned *v3d = peri + 0xC00000 / 4;
    /* pack_into's way: memset, then memcpy, through libc (not inlined) */
    void *(*volatile set)(void *, int, size_t) = memset;
    void *(*volatile copy)(void *, const void *, size_t) = memcpy;
    v3d[0x438 / 4] = 0x400;              /* SRQUL */
    unsigned ua = 0x12345678u;
    set((void *)(uintptr_t)&v3d[0x434 / 4], 0, 4);
    copy((void *)(uintptr_t)&v3d[0x434 / 4], &ua, 4);
    CHECK_EQ_U64(v3d[0x434 / 4], 0x12345678u);
    CHECK_EQ_U64(v3d[0x438 / 4], 0x400u);
#if defined(__x86_64__) && defined(__GNUC__)
    unsigned want[DBS_WORDS];
    dbs_fill(v3d, want);
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")) {
        masked_avx512(v3d, want);
        CHECK(dbs_same(v3d, want));
    } else {
        printf("  (no AVX-512 on this host: its masked stores not tried)\n");
    }
    if (__builtin_cpu_supports("avx2")) {
        masked_avx2(v3d, want);
        CHECK(dbs_same(v3d, want));
    }
    masked_sse2(v3d, want);
    CHECK(dbs_same(v3d, want));
#endif
    /* nothing reached an offset without a register: after SRQCS (0x43C),
     * or after the debug registers (the report is the process's: the
     * test before has read 0x014-0x01C) */
    static const char *const none[] = {"offset 0x44", "offset 0x45", "offset 0x46", "offset 0x47",
                                       "offset 0xe4", "offset 0xe5"};
    for (unsigned i = 0; i < sizeof none / sizeof none[0]; i++)
        CHECK_EQ_U64(diag_lines(none[i]), 0);
    unmapmem((void *)(uintptr_t)peri, bcm_host_get_peripheral_size());
}

static void *thread_main(void *arg)
{
    int *ok = arg;
    *ok = 1;
    for (int k = 0; k < 3; k++) {
        struct job j = job_setup(4, mailbox_qpu_code, sizeof mailbox_qpu_code);
        if (!j.arm || execute_qpu(j.mb, 4, j.bus + 0x600, 0, 1000) != 0 || !job_check(&j, 4))
            *ok = 0;
        job_done(&j);
    }
    return NULL;
}

static void test_threads(void)
{
    pthread_t th[4];
    int ok[4];
    int keep = mbox_open(); /* keep the device alive across the threads */
    for (int i = 0; i < 4; i++)
        CHECK(pthread_create(&th[i], NULL, thread_main, &ok[i]) == 0);
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        CHECK(ok[i]);
    }
    mbox_close(keep);
}

static void test_bcm_host(void)
{
    bcm_host_init();
    CHECK_EQ_U64(bcm_host_get_peripheral_address(), 0x20000000u);
    CHECK_EQ_U64(bcm_host_get_peripheral_size(), 0x01000000u);
    CHECK_EQ_U64(bcm_host_get_sdram_address(), 0x40000000u);
    bcm_host_deinit();
}

TEST_LIST(test_open_close, test_alloc_aliases, test_execute_qpu, test_timeout_then_recover,
          test_mapping_outlives_close, test_wall_timeout, test_peripheral_window, test_peripheral_masked, test_threads, test_bcm_host)
