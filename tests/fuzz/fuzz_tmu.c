/*
 * fuzz_tmu.c - arbitrary texture requests through the TMU: parameters,
 * registers written, coordinates and memory contents all from the input.
 * Nothing may crash, hang or read outside the emulated memory, and every
 * request must be answered: after the loads the FIFO is empty, and a
 * request whose parameters give no image (bad TYPE) returns zeros.  The
 * requests are made twice, sampled on this thread and then on the second
 * host core where they can be (tmu.h): the results, ready times, counts
 * and cache tags must be the same.
 *
 * Input: bytes 0-15 P0..P3 (little-endian); byte 16 the registers written
 * before S (bit 0 T, bit 1 R, bit 2 B); byte 17 flags (bit 0: keep P0's base
 * inside the 64 KiB memory, bit 1: a second request with the same
 * parameters, bit 2: memory overwritten between the requests, bit 3: the
 * second request on TMU1); bytes 18-273 the coordinates S, T, R, B (16
 * floats each, zero when the input is short); the rest is copied to memory
 * at 0.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "emu/mem.h"
#include "emu/par.h"
#include "emu/tmu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MEM = 64u << 10, HEADER = 18, COORDS = 4 * 16 * 4 };

static void check(int cond)
{
    if (!cond)
        abort();
}

/* What the requests gave. */
struct result {
    uint32_t out[8][16];
    uint64_t ready[8];
    unsigned loads;
    struct vc4_tmu_stats stats;
    uint32_t tags[VC4_TMU_TAG_SETS][VC4_TMU_CACHE_LINES];
};

static void run(const uint8_t *data, size_t size, struct vc4_par *helper, struct result *res)
{
    uint32_t par[4];
    for (unsigned k = 0; k < 4; k++)
        par[k] = vc4_le32(data + 4 * k);
    unsigned regs = data[16] & 7u, flags = data[17];
    if (flags & 1u)
        par[0] = (par[0] & 0x00000FFFu) | (par[0] & 0xF000u); /* base below 64 KiB */
    uint32_t coord[4][16];
    memset(coord, 0, sizeof coord);
    size_t nc = size - HEADER < COORDS ? size - HEADER : COORDS;
    memcpy(coord, data + HEADER, nc);

    struct vc4_mem mem;
    check(vc4_mem_init(&mem, MEM, NULL) == VC4_OK);
    size_t n = size > HEADER + COORDS ? size - HEADER - COORDS : 0;
    if (n)
        vc4_mem_write(&mem, 0, data + HEADER + COORDS, (uint32_t)(n < MEM ? n : MEM));
    static struct vc4_tmu tmu;
    vc4_tmu_init(&tmu);
    tmu.helper = helper;
    unsigned requests = flags & 2u ? 2 : 1;
    for (unsigned r = 0; r < requests; r++) {
        unsigned unit = r && (flags & 8u) ? 1u : 0u;
        if (r && (flags & 4u) && n) /* (the first request sees the old bytes) */
            vc4_mem_write(&mem, 0, data + HEADER + COORDS + n / 2, (uint32_t)((n - n / 2) < MEM ? n - n / 2 : MEM));
        unsigned np = 0;
        for (unsigned reg = VC4_TMU_T; reg <= VC4_TMU_B; reg++)
            if (regs >> (reg - 1) & 1u)
                vc4_tmu_write(&tmu, &mem, 0, unit, (enum vc4_tmu_reg)reg, 0xFFFF, coord[reg], par[np++],
                              0, NULL, NULL);
        unsigned ev = vc4_tmu_write(&tmu, &mem, 0, unit, VC4_TMU_S, 0xFFFF, coord[VC4_TMU_S],
                                    par[np], 0, NULL, NULL);
        check(!(ev & VC4_TMU_EV_OVERFLOW));
    }
    /* every request answered: one or two words each, then empty */
    memset(res, 0, sizeof *res);
    for (unsigned unit = 0; unit < 2; unit++)
        while (vc4_tmu_pending(&tmu, 0, unit) && res->loads < 4 * requests) {
            unsigned k = res->loads++;
            unsigned ev = vc4_tmu_load(&tmu, 0, unit, res->out[k], 0, &res->ready[k], NULL, NULL);
            check(ev == 0);
            /* a texture request with TYPE 18..31 returns zeros */
            unsigned type = (par[0] >> 4 & 15u) | (regs ? (par[1] >> 31) << 4 : 0);
            if (regs && type >= 18)
                for (unsigned i = 0; i < 16; i++)
                    check(res->out[k][i] == 0);
        }
    check(vc4_tmu_pending(&tmu, 0, 0) == 0 && vc4_tmu_pending(&tmu, 0, 1) == 0);
    check(res->loads >= requests && res->loads <= 2 * requests);
    vc4_tmu_sync(&tmu);
    check(tmu.jobs_open == 0 && mem.fence == NULL);
    res->stats = tmu.stats;
    memcpy(res->tags, tmu.cache_tag, sizeof res->tags);
    tmu.helper = NULL;
    vc4_mem_fini(&mem);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER)
        return 0;
    /* (one helper for the whole run, kept awake between inputs, and late:
     * each job starts 20 us after it is posted, so that a missing wait
     * shows as other bytes or counts, not as a rare race) */
    static struct vc4_par *helper;
    if (!helper) {
        helper = vc4_par_create(NULL);
        check(helper != NULL);
        vc4_par_set_idle(helper, 1000000);
        vc4_par_set_delay(helper, 20);
    }
    static struct result one, two;
    run(data, size, NULL, &one);
    run(data, size, helper, &two);
    check(memcmp(&one, &two, sizeof one) == 0);
    return 0;
}
