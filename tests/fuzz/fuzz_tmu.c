/*
 * fuzz_tmu.c - arbitrary texture requests through the TMU: parameters,
 * registers written, coordinates and memory contents all from the input.
 * Nothing may crash, hang or read outside the emulated memory, and every
 * request must be answered: after the loads the FIFO is empty, and a
 * request whose parameters give no image (bad TYPE) returns zeros.
 *
 * Input: bytes 0-15 P0..P3 (little-endian); byte 16 the registers written
 * before S (bit 0 T, bit 1 R, bit 2 B); byte 17 flags (bit 0: keep P0's base
 * inside the 64 KiB memory, bit 1: a second request with the same
 * parameters); bytes 18-273 the coordinates S, T, R, B (16 floats each,
 * zero when the input is short); the rest is copied to memory at 0.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "emu/mem.h"
#include "emu/tmu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MEM = 64u << 10, HEADER = 18, COORDS = 4 * 16 * 4 };

static void check(int cond)
{
    if (!cond)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER)
        return 0;
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
    if (vc4_mem_init(&mem, MEM, NULL) != VC4_OK)
        return 0;
    if (size > HEADER + COORDS) {
        size_t n = size - HEADER - COORDS;
        vc4_mem_write(&mem, 0, data + HEADER + COORDS, (uint32_t)(n < MEM ? n : MEM));
    }
    static struct vc4_tmu tmu;
    vc4_tmu_init(&tmu);
    unsigned requests = flags & 2u ? 2 : 1;
    for (unsigned r = 0; r < requests; r++) {
        unsigned np = 0;
        for (unsigned reg = VC4_TMU_T; reg <= VC4_TMU_B; reg++)
            if (regs >> (reg - 1) & 1u)
                vc4_tmu_write(&tmu, &mem, 0, 0, (enum vc4_tmu_reg)reg, 0xFFFF, coord[reg], par[np++],
                              0, NULL, NULL);
        unsigned ev = vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, coord[VC4_TMU_S],
                                    par[np], 0, NULL, NULL);
        check(!(ev & VC4_TMU_EV_OVERFLOW));
    }
    /* every request answered: one or two words each, then empty */
    uint32_t out[16];
    uint64_t ready;
    unsigned loads = 0;
    while (vc4_tmu_pending(&tmu, 0, 0) && loads < 4 * requests) {
        unsigned ev = vc4_tmu_load(&tmu, 0, 0, out, 0, &ready, NULL, NULL);
        check(ev == 0);
        /* a texture request with TYPE 18..31 returns zeros */
        unsigned type = (par[0] >> 4 & 15u) | (regs ? (par[1] >> 31) << 4 : 0);
        if (regs && type >= 18)
            for (unsigned i = 0; i < 16; i++)
                check(out[i] == 0);
        loads++;
    }
    check(vc4_tmu_pending(&tmu, 0, 0) == 0);
    check(loads >= requests && loads <= 2 * requests);
    vc4_mem_fini(&mem);
    return 0;
}
