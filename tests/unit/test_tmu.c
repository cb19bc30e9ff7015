/*
 * test_tmu.c - TMU general-memory lookups, FIFO limits, the default swap,
 * TMU_NOSWAP, and the uniform-pull rule for texture parameters.
 */
#include "harness.h"

#include "emu/mem.h"
#include "emu/tmu.h"

static struct vc4_tmu tmu;
static struct vc4_mem mem;

static void setup(void)
{
    vc4_tmu_init(&tmu);
    vc4_mem_init(&mem, 1u << 20, NULL);
    for (uint32_t a = 0; a < (1u << 20); a += 4)
        vc4_mem_write32(&mem, a, a * 3u + 1u);
}

static void addrs(uint32_t v[16], uint32_t base, uint32_t step)
{
    for (unsigned i = 0; i < 16; i++)
        v[i] = base + i * step;
}

static void test_general_lookup(void)
{
    setup();
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    uint32_t s[16], r4[16];
    addrs(s, 0xC0001000u, 4); /* an uncached-alias bus address */
    s[3] = 0x1203;            /* unaligned: the TMU reads the word at & ~3 */
    CHECK(!vc4_tmu_write_takes_uniform(&tmu, 0, 0, VC4_TMU_S));
    CHECK_EQ_U64(vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 100, &sink, NULL), 0);
    CHECK_EQ_U64(vc4_tmu_pending(&tmu, 0, 0), 1);
    uint64_t ready;
    CHECK_EQ_U64(vc4_tmu_load(&tmu, 0, 0, r4, 101, &ready, &sink, NULL), 0);
    for (unsigned i = 0; i < 16; i++) {
        uint32_t a = i == 3 ? 0x1200 : 0x1000 + i * 4;
        CHECK_EQ_U64(r4[i], a * 3u + 1u);
    }
    CHECK_EQ_U64(ready, 100 + VC4_TMU_LAT_MEMORY); /* cold cache */
    /* same lines again: cache hits, shorter latency */
    vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 200, &sink, NULL);
    vc4_tmu_load(&tmu, 0, 0, r4, 200, &ready, &sink, NULL);
    CHECK_EQ_U64(ready, 200 + VC4_TMU_LAT_CACHE);
    CHECK(tmu.stats.cache_hits >= 16);
    CHECK(tmu.stats.stall_cycles > 0);
    CHECK_EQ_INT(h.warnings + h.errors, 0);
    /* flushing the caches makes it miss again */
    vc4_tmu_flush_caches(&tmu);
    vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 300, &sink, NULL);
    vc4_tmu_load(&tmu, 0, 0, r4, 300, &ready, &sink, NULL);
    CHECK_EQ_U64(ready, 300 + VC4_TMU_LAT_MEMORY);
    vc4_mem_fini(&mem);
}

/* The statistics of general lookups, on both of vc4_tmu_write's paths:
 * every element inside RAM (counted at once), and a request with a
 * faulting element (element by element; the fault touches no line).  16
 * words from 0x1000 span one 64-byte line: 1 miss, 15 hits. */
static void test_general_lookup_counts(void)
{
    setup();
    uint32_t s[16], r4[16];
    uint64_t ready;
    addrs(s, 0x1000, 4);
    vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, NULL, NULL);
    CHECK_EQ_U64(tmu.stats.lookups, 16);
    CHECK_EQ_U64(tmu.stats.cache_misses, 1);
    CHECK_EQ_U64(tmu.stats.cache_hits, 15);
    CHECK_EQ_U64(r4[15], 0x103Cu * 3u + 1u);
    /* element 15 outside the 1 MiB: 15 lookups touch lines, the new line
     * 0x2000 misses once, then hits */
    addrs(s, 0x2000, 4);
    s[15] = 0x00200000u;
    CHECK_EQ_U64(vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL), VC4_TMU_EV_FAULT);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, NULL, NULL);
    CHECK_EQ_U64(tmu.stats.lookups, 32);
    CHECK_EQ_U64(tmu.stats.cache_misses, 2);
    CHECK_EQ_U64(tmu.stats.cache_hits, 29);
    CHECK_EQ_U64(r4[14], 0x2038u * 3u + 1u);
    CHECK_EQ_U64(r4[15], 0);
    /* the last word of RAM is inside: the fast path's bound */
    addrs(s, 0x000FFFC0u, 4);
    CHECK_EQ_U64(vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL), 0);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, NULL, NULL);
    CHECK_EQ_U64(r4[15], 0x000FFFFCu * 3u + 1u);
    CHECK_EQ_U64(tmu.stats.cache_misses, 3);
    vc4_mem_fini(&mem);
}

/* Lines that share a slot of the direct-mapped cache, within one request:
 * an element in the line of the element before it hits (the line is still
 * in its slot), one in the other line misses (the slot was taken).  Two
 * elements per line, alternating lines: 8 misses, 8 hits; one element per
 * line: 16 misses. */
static void test_general_lookup_conflicts(void)
{
    setup();
    uint32_t s[16], r4[16];
    uint64_t ready;
    const uint32_t a = 0x1000, b = a + VC4_TMU_CACHE_LINES * VC4_TMU_CACHE_LINE;
    for (unsigned i = 0; i < 16; i++)
        s[i] = (i / 2 % 2 ? b : a) + 4 * (i % 2);
    vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, NULL, NULL);
    CHECK_EQ_U64(tmu.stats.cache_misses, 8);
    CHECK_EQ_U64(tmu.stats.cache_hits, 8);
    CHECK_EQ_U64(ready, VC4_TMU_LAT_MEMORY);
    CHECK_EQ_U64(r4[3], (b + 4) * 3u + 1u);
    for (unsigned i = 0; i < 16; i++)
        s[i] = i % 2 ? b : a;
    vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, NULL, NULL);
    CHECK_EQ_U64(tmu.stats.cache_misses, 8 + 16);
    CHECK_EQ_U64(tmu.stats.cache_hits, 8);
    /* and the slot holds b afterwards: a lookup of b alone hits */
    addrs(s, b, 0);
    vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, NULL, NULL);
    CHECK_EQ_U64(tmu.stats.cache_hits, 8 + 16);
    CHECK_EQ_U64(ready, VC4_TMU_LAT_CACHE);
    vc4_mem_fini(&mem);
}

/* Runs, 16 consecutive words (a whole vector read, looked up a line at a
 * time, tmu.c lookup_in_ram): one that starts mid-line spans two lines,
 * 2 misses and 14 hits, and leaves both in their slots; one element out
 * of order is no run (element by element: the same rule); a run past the
 * end of RAM reads what lies inside and reports the rest. */
static void test_general_lookup_runs(void)
{
    setup();
    uint32_t s[16], r4[16];
    uint64_t ready;
    addrs(s, 0xC0003020u, 4); /* lines 0xC0 and 0xC1 */
    CHECK_EQ_U64(vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL), 0);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, NULL, NULL);
    CHECK_EQ_U64(tmu.stats.cache_misses, 2);
    CHECK_EQ_U64(tmu.stats.cache_hits, 14);
    CHECK_EQ_U64(ready, VC4_TMU_LAT_MEMORY);
    for (unsigned i = 0; i < 16; i++)
        CHECK_EQ_U64(r4[i], (0x3020u + 4 * i) * 3u + 1u);
    addrs(s, 0x3040, 4); /* line 0xC1 alone: in its slot */
    vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, NULL, NULL);
    CHECK_EQ_U64(tmu.stats.cache_hits, 14 + 16);
    CHECK_EQ_U64(ready, VC4_TMU_LAT_CACHE);
    addrs(s, 0x3000, 4); /* line 0xC0 too */
    vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, NULL, NULL);
    CHECK_EQ_U64(tmu.stats.cache_hits, 14 + 32);
    CHECK_EQ_U64(tmu.stats.cache_misses, 2);
    /* elements 0-7 in line 0x100, 8-15 in 0x101 but element 8 swapped with
     * element 9: no run; still 2 misses, 14 hits */
    addrs(s, 0x4020, 4);
    s[8] = 0x4044;
    s[9] = 0x4040;
    vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, NULL, NULL);
    CHECK_EQ_U64(tmu.stats.cache_misses, 4);
    CHECK_EQ_U64(tmu.stats.cache_hits, 14 + 32 + 14);
    CHECK_EQ_U64(r4[8], 0x4044u * 3u + 1u);
    /* a run from the last 32 bytes of RAM: 8 words read (line 0x3FFF: 1
     * miss, 7 hits), 8 reported (counted as lookups, touching no line) */
    addrs(s, 0x000FFFE0u, 4);
    CHECK_EQ_U64(vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL), VC4_TMU_EV_FAULT);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, NULL, NULL);
    CHECK_EQ_U64(tmu.stats.lookups, 5 * 16);
    CHECK_EQ_U64(tmu.stats.cache_misses, 5);
    CHECK_EQ_U64(tmu.stats.cache_hits, 14 + 32 + 14 + 7);
    CHECK_EQ_U64(r4[7], 0x000FFFFCu * 3u + 1u);
    CHECK_EQ_U64(r4[8], 0);
    vc4_mem_fini(&mem);
}

/* The cache model element by element, as the TMU walks a request (in
 * element order), against the unit's lookups, which take runs of 16 words
 * a line at a time (tmu.c lookup_in_ram): on random requests of the
 * patterns programs make (runs, strides, GPU_FFT's groups of four, one
 * word for all, lines that share a slot, anything), through both paths (vc4_tmu_try_lookup, the QPU's fast path, and
 * vc4_tmu_write), the data, the latency, the counts and every tag after
 * each request are the walk's. */
static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

static void random_request(uint64_t *x, uint32_t s[16])
{
    const uint32_t slot_apart = VC4_TMU_CACHE_LINES * VC4_TMU_CACHE_LINE;
    uint32_t base = (uint32_t)(rng_next(x) % ((1u << 20) - 4 * 4096)) & ~3u;
    unsigned kind = (unsigned)(rng_next(x) % 7);
    for (unsigned i = 0; i < 16; i++) {
        switch (kind) {
        case 0: s[i] = base + 4 * i; break;                          /* a run */
        case 1: s[i] = base + 16 * i; break;                         /* a stride inside few lines */
        case 2: s[i] = base + (i / 4) * 64 + 4 * (i % 4); break;     /* groups of four */
        case 3: s[i] = base; break;                                  /* one word for all */
        case 4: s[i] = base + (uint32_t)(rng_next(x) % 3) * slot_apart + 4 * (i % 16); break; /* shared slots */
        case 5: s[i] = base + 4 * (i ^ 1u); break;                   /* a near-run */
        default: s[i] = (uint32_t)(rng_next(x) % (1u << 20)); break; /* anywhere */
        }
        if (rng_next(x) % 4 == 0)
            s[i] |= 0xC0000000u; /* (an alias: the same RAM) */
    }
}

static void test_general_lookup_walk(void)
{
    setup();
    uint64_t x = 0x9E3779B97F4A7C15u;
    uint32_t model[VC4_TMU_CACHE_LINES];
    unsigned set = vc4_tmu_tag_set(5, vc4_tmu_physical(&tmu, 5, 1));
    memcpy(model, tmu.cache_tag[set], sizeof model);
    for (unsigned n = 0; n < 4000; n++) {
        uint32_t s[16], r4[16];
        random_request(&x, s);
        unsigned hits = 0;
        for (unsigned i = 0; i < 16; i++) {
            uint32_t line = (s[i] & VC4_BUS_OFFSET_MASK & ~3u) / VC4_TMU_CACHE_LINE;
            hits += model[line % VC4_TMU_CACHE_LINES] == line;
            model[line % VC4_TMU_CACHE_LINES] = line;
        }
        struct vc4_tmu_stats before = tmu.stats;
        uint64_t now = 1000u * n, ready;
        if (n % 2)
            CHECK(vc4_tmu_try_lookup(&tmu, &mem, 5, 1, s, now));
        else
            CHECK_EQ_U64(vc4_tmu_write(&tmu, &mem, 5, 1, VC4_TMU_S, 0xFFFF, s, 0, now, NULL, NULL), 0);
        CHECK(vc4_tmu_try_load(&tmu, 5, 1, r4, now, &ready));
        CHECK_EQ_U64(ready, now + (hits == 16 ? VC4_TMU_LAT_CACHE : VC4_TMU_LAT_MEMORY));
        CHECK_EQ_U64(tmu.stats.cache_hits - before.cache_hits, hits);
        CHECK_EQ_U64(tmu.stats.cache_misses - before.cache_misses, 16 - hits);
        CHECK_EQ_U64(tmu.stats.lookups - before.lookups, 16);
        for (unsigned i = 0; i < 16; i++)
            CHECK_EQ_U64(r4[i], (s[i] & VC4_BUS_OFFSET_MASK & ~3u) * 3u + 1u);
        CHECK(memcmp(model, tmu.cache_tag[set], sizeof model) == 0);
    }
    vc4_mem_fini(&mem);
}

static void test_fifo_limits(void)
{
    setup();
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    uint32_t s[16], r4[16];
    uint64_t ready;
    for (unsigned n = 0; n < 8; n++) {
        addrs(s, 0x4000 + n * 64, 4);
        unsigned ev = vc4_tmu_write(&tmu, &mem, 1, 1, VC4_TMU_S, 0xFFFF, s, 0, n, &sink, NULL);
        CHECK_EQ_U64(ev, n < VC4_TMU_FIFO_RELIABLE ? 0u : (unsigned)VC4_TMU_EV_UNRELIABLE);
    }
    CHECK_CONTAINS(h.text, "tmu-fifo-deep");
    addrs(s, 0x8000, 4);
    CHECK_EQ_U64(vc4_tmu_write(&tmu, &mem, 1, 1, VC4_TMU_S, 0xFFFF, s, 0, 9, &sink, NULL),
                 VC4_TMU_EV_OVERFLOW);
    CHECK_CONTAINS(h.text, "tmu-fifo-overflow");
    CHECK_EQ_U64(vc4_tmu_pending(&tmu, 1, 1), 8);
    /* results come back in order */
    for (unsigned n = 0; n < 8; n++) {
        CHECK_EQ_U64(vc4_tmu_load(&tmu, 1, 1, r4, 100, &ready, &sink, NULL), 0);
        CHECK_EQ_U64(r4[0], (0x4000 + n * 64) * 3u + 1u);
    }
    CHECK_EQ_U64(vc4_tmu_load(&tmu, 1, 1, r4, 100, &ready, &sink, NULL), VC4_TMU_EV_UNDERFLOW);
    CHECK_EQ_U64(r4[0], 0);
    CHECK_CONTAINS(h.text, "tmu-load-empty");
    /* the other TMU's FIFO is separate */
    CHECK_EQ_U64(vc4_tmu_pending(&tmu, 1, 0), 0);
    /* results left at program end */
    vc4_tmu_write(&tmu, &mem, 1, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, &sink, NULL);
    CHECK_EQ_U64(vc4_tmu_program_end(&tmu, 1, &sink, NULL), VC4_TMU_EV_UNCONSUMED);
    CHECK_EQ_U64(vc4_tmu_pending(&tmu, 1, 0), 0);
    vc4_mem_fini(&mem);
}

static void test_swap(void)
{
    setup();
    /* QPU id % 4 >= 2 uses the other TMU by default */
    static const unsigned want[12] = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1};
    for (unsigned q = 0; q < 12; q++) {
        CHECK_EQ_U64(vc4_tmu_physical(&tmu, q, 0), want[q]);
        CHECK_EQ_U64(vc4_tmu_physical(&tmu, q, 1), want[q] ^ 1u);
    }
    uint32_t s[16], r4[16];
    uint64_t ready;
    addrs(s, 0x100, 4);
    vc4_tmu_write(&tmu, &mem, 2, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, NULL, NULL);
    CHECK_EQ_U64(tmu.q[2].fifo[1].count, 1); /* physically TMU1 */
    CHECK_EQ_U64(vc4_tmu_load(&tmu, 2, 0, r4, 0, &ready, NULL, NULL), 0); /* ldtmu0 finds it */
    CHECK_EQ_U64(r4[1], 0x104u * 3u + 1u);
    /* TMU_NOSWAP: element 0 non-zero disables the swap */
    vc4_tmu_write_noswap(&tmu, 2, 7);
    CHECK_EQ_U64(vc4_tmu_physical(&tmu, 2, 0), 0);
    vc4_tmu_write_noswap(&tmu, 2, 0);
    CHECK_EQ_U64(vc4_tmu_physical(&tmu, 2, 0), 1);
    vc4_tmu_write_noswap(&tmu, 3, 1);
    vc4_tmu_qpu_reset(&tmu, 3);
    CHECK_EQ_U64(vc4_tmu_physical(&tmu, 3, 0), 1);
    vc4_mem_fini(&mem);
}

static void test_masks_faults_texture(void)
{
    setup();
    struct harness_diags h;
    struct vc4_diag_sink sink = harness_sink(&h);
    uint32_t s[16], r4[16];
    uint64_t ready;
    addrs(s, 0x300, 4);
    /* partial mask: still one request; unwritten elements read 0 */
    CHECK_EQ_U64(vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0x00F0, s, 0, 0, &sink, NULL),
                 VC4_TMU_EV_COND_WRITE);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, &sink, NULL);
    CHECK_EQ_U64(r4[0], 0);
    CHECK_EQ_U64(r4[4], 0x310u * 3u + 1u);
    /* out-of-RAM addresses read 0 with an error, never touch the host */
    addrs(s, 0x3FFFFF00u, 4);
    s[0] = 0x100;
    CHECK_EQ_U64(vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, &sink, NULL),
                 VC4_TMU_EV_FAULT);
    vc4_tmu_load(&tmu, 0, 0, r4, 0, &ready, &sink, NULL);
    CHECK_EQ_U64(r4[0], 0x100u * 3u + 1u);
    CHECK_EQ_U64(r4[5], 0);
    CHECK_CONTAINS(h.text, "outside");
    /* texture request: T pulls P0, S after T pulls P1; 2 slots each */
    CHECK(vc4_tmu_write_takes_uniform(&tmu, 0, 0, VC4_TMU_T));
    vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_T, 0xFFFF, s, 0x11110000u, 0, &sink, NULL);
    CHECK(vc4_tmu_write_takes_uniform(&tmu, 0, 0, VC4_TMU_S));
    /* (P0's base 0x11110000 is outside the 1 MiB: a texture fault) */
    CHECK_EQ_U64(vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0x22220000u, 0, &sink, NULL),
                 VC4_TMU_EV_FAULT);
    CHECK_EQ_U64(tmu.q[0].fifo[0].req[tmu.q[0].fifo[0].head].params[1], 0x22220000u);
    CHECK_EQ_U64(tmu.q[0].fifo[0].slots_used, 2);
    CHECK(!vc4_tmu_write_takes_uniform(&tmu, 0, 0, VC4_TMU_S));
    for (unsigned n = 0; n < 3; n++) {
        vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_T, 0xFFFF, s, 0, 0, &sink, NULL);
        vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, &sink, NULL);
    }
    /* 4 (s,t) requests fill the 8 slots; a fifth overflows */
    vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_T, 0xFFFF, s, 0, 0, &sink, NULL);
    CHECK(vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, &sink, NULL) &
          VC4_TMU_EV_OVERFLOW);
    CHECK_EQ_U64(vc4_tmu_write(&tmu, &mem, 99, 0, VC4_TMU_S, 0xFFFF, s, 0, 0, &sink, NULL),
                 VC4_TMU_EV_BAD_QPU);
    vc4_mem_fini(&mem);
}

TEST_LIST(test_general_lookup, test_general_lookup_counts, test_general_lookup_conflicts, test_general_lookup_runs,
          test_general_lookup_walk,
          test_fifo_limits, test_swap, test_masks_faults_texture)
