/*
 * bench_tmu.c - emulated TMU texture lookups per second (CPU time of one
 * host thread): bilinear RGBA8888 lookups from a 256x256 T-format texture,
 *
 *   1. through QPU code: user programs on 1 and 12 QPUs, each a loop of four
 *      (T, S) requests (P0, P1 pulled from the uniform stream) and four
 *      ldtmu0, the FIFO's depth for 2D requests (seed 004);
 *   2. through the sampler alone: vc4_tmu_write (T, S) + vc4_tmu_load.
 *
 * A lookup is one element's filtered sample (4 texels read).  Prints
 * figures; asserts nothing.   bench_tmu [DIVISOR]  (divides the work)
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/base.h"
#include "emu/mem.h"
#include "emu/tmu.h"
#include "vc4kit/emu.h"
#include "vc4kit/qpu.h"
#include "vc4kit/tex.h"

#define TEX_REGION 0x00200000u
#define TEX_SIZE 256u
#define CODE 0x00001000u
#define UNIFORMS 0x00400000u
#define REQS_PER_ITER 4u

static double cpu_now(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* A 256x256 RGBA8888 T-format texture of pseudo-random texels, written into
 * buf (m->size bytes); returns its P0, P1 (bilinear both ways, repeat). */
static void make_texture(uint8_t *buf, const struct vc4_tex_mip_layout *m, uint32_t region,
                         uint32_t *p0, uint32_t *p1)
{
    uint32_t x = 2463534242u;
    const struct vc4_tex_geom *g = &m->level[0].geom;
    for (unsigned ty = 0; ty < TEX_SIZE; ty++)
        for (unsigned tx = 0; tx < TEX_SIZE; tx++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            vc4_st32(buf + m->base_offset + vc4_tex_byte_offset(g, tx, ty), x);
        }
    /* P0: base | TYPE 0 (RGBA8888) | MIPLVLS 0; P1: height << 20 | width << 8 |
     * MAGFILT linear (0) | MINFILT linear (0) | wrap repeat (0) (Mesa vc4_packet.h) */
    *p0 = region + m->base_offset;
    *p1 = TEX_SIZE << 20 | TEX_SIZE << 8;
}

/* The QPU loop: coordinates step half a texel per element (magnified:
 * bilinear), moved by a quarter texel per request. */
static const char program[] =
    "    mov ra1, ITERS\n"
    "    mov r2, 0.001953125          # 1/512: half a texel\n"
    "    itof r0, elem_num\n"
    "    fmul r0, r0, r2\n"
    "    mov r1, r0\n"
    "    mov r3, 0.0009765625         # a quarter texel\n"
    ":loop\n"
    "    mov t0t, r1\n"
    "    fadd t0s, r0, r3\n"
    "    fadd t0t, r1, r3\n"
    "    mov t0s, r0\n"
    "    mov t0t, r0\n"
    "    mov t0s, r1\n"
    "    fadd t0t, r0, r3\n"
    "    fadd t0s, r1, r3\n"
    "    nop; nop; ldtmu0\n"
    "    nop; nop; ldtmu0\n"
    "    nop; nop; ldtmu0\n"
    "    nop; nop; ldtmu0\n"
    "    sub.setf ra1, ra1, 1\n"
    "    brr.anynz -, :loop\n"
    "    fadd r0, r0, r3\n"
    "    fadd r1, r1, r3\n"
    "    nop\n"
    "    nop; thrend\n"
    "    nop\n"
    "    nop\n";

static void bench_qpus(unsigned qpus, uint32_t iters, const uint8_t *tex, uint32_t tex_bytes,
                       uint32_t p0, uint32_t p1)
{
    struct vc4_emu_options o = {.mem_size = 16u << 20, .num_qpus = 12, .max_cycles = UINT64_C(1) << 40};
    struct vc4_emu *e = vc4_emu_create(&o);
    struct vc4_asm_options ao = {.base_addr = CODE};
    struct vc4_asm *as = vc4_asm_create(&ao);
    if (!e || !as || vc4_asm_define(as, "ITERS", iters) != VC4_OK ||
        vc4_asm_source(as, "bench", program, strlen(program)) != VC4_OK) {
        fprintf(stderr, "bench_tmu: setup failed\n");
        vc4_asm_destroy(as);
        vc4_emu_destroy(e);
        return;
    }
    size_t n = 0;
    const uint8_t *code = vc4_asm_output(as, &n);
    vc4_emu_mem_write(e, CODE, code, n);
    vc4_emu_mem_write(e, TEX_REGION, tex, tex_bytes);
    /* the uniform stream: P0, P1 for every request of every iteration */
    size_t nu = (size_t)iters * REQS_PER_ITER * 2;
    uint8_t *u = malloc(nu * 4);
    for (size_t i = 0; u && i < nu; i++)
        vc4_st32(u + 4 * i, i % 2 ? p1 : p0);
    if (u)
        vc4_emu_mem_write(e, UNIFORMS, u, nu * 4);
    free(u);
    for (unsigned q = 0; q < qpus; q++) {
        vc4_emu_reg_write(e, VC4_V3D_SRQUA, UNIFORMS);
        vc4_emu_reg_write(e, VC4_V3D_SRQPC, CODE);
    }
    double t0 = cpu_now();
    enum vc4_status st = vc4_emu_run(e, 0);
    double t = cpu_now() - t0;
    double lookups = (double)qpus * iters * REQS_PER_ITER * 16;
    printf("QPU code, %2u QPU(s): %10.0f bilinear lookups in %.3f s = %6.2f M lookups/s, "
           "%6.2f M texels/s [%s]\n", qpus, lookups, t, lookups / t * 1e-6, 4 * lookups / t * 1e-6,
           vc4_status_name(st));
    vc4_asm_destroy(as);
    vc4_emu_destroy(e);
}

static void bench_sampler(uint32_t requests, const uint8_t *tex, uint32_t tex_bytes, uint32_t p0,
                          uint32_t p1)
{
    struct vc4_mem mem;
    struct vc4_tmu tmu;
    if (vc4_mem_init(&mem, 16u << 20, NULL) != VC4_OK)
        return;
    vc4_mem_write(&mem, TEX_REGION, tex, tex_bytes);
    vc4_tmu_init(&tmu);
    uint32_t s[16], t[16], out[16];
    uint64_t ready;
    double t0 = cpu_now();
    for (uint32_t r = 0; r < requests; r++) {
        float base = (float)(r % 1024u) * (1.0f / 1024.0f);
        for (unsigned i = 0; i < 16; i++) {
            s[i] = vc4_f2u(base + (float)(i & 3u) * (1.0f / 512.0f));
            t[i] = vc4_f2u(base * 0.5f + (float)(i >> 2) * (1.0f / 512.0f));
        }
        vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_T, 0xFFFF, t, p0, r, NULL, NULL);
        vc4_tmu_write(&tmu, &mem, 0, 0, VC4_TMU_S, 0xFFFF, s, p1, r, NULL, NULL);
        vc4_tmu_load(&tmu, 0, 0, out, r, &ready, NULL, NULL);
    }
    double el = cpu_now() - t0;
    double lookups = (double)requests * 16;
    printf("sampler alone:       %10.0f bilinear lookups in %.3f s = %6.2f M lookups/s, "
           "%6.2f M texels/s (%llu texels fetched, cache %llu hits / %llu misses)\n",
           lookups, el, lookups / el * 1e-6, (double)tmu.stats.texels / el * 1e-6,
           (unsigned long long)tmu.stats.texels, (unsigned long long)tmu.stats.cache_hits,
           (unsigned long long)tmu.stats.cache_misses);
    vc4_mem_fini(&mem);
}

int main(int argc, char **argv)
{
    unsigned long div = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
    if (div == 0)
        div = 1;
    struct vc4_tex_mip_layout m;
    if (vc4_tex_mip_layout(&m, VC4_TEX_RGBA8888, VC4_TEX_T, TEX_SIZE, TEX_SIZE, 1, 1, NULL) != VC4_OK)
        return 1;
    uint8_t *tex = calloc(1, m.size);
    if (!tex)
        return 1;
    uint32_t p0, p1;
    make_texture(tex, &m, TEX_REGION, &p0, &p1);
    bench_qpus(1, (uint32_t)(20000 / div), tex, m.size, p0, p1);
    bench_qpus(12, (uint32_t)(4000 / div), tex, m.size, p0, p1);
    bench_sampler((uint32_t)(200000 / div), tex, m.size, p0, p1);
    free(tex);
    return 0;
}
