/*
 * test_tmu_helper.c - texture sampling on the second host core (tmu.h
 * "Sampling on the second host core", par.h): whether a request is sampled
 * on the helper thread or on the emulator's changes nothing.
 *
 *  - the textured scenes (the seed triangle in T, LT and raster format, the
 *    trilinear plane, and a shader that samples one texture through two
 *    parameter sets on both TMUs) rendered on one thread and on two: the
 *    same memory, byte for byte, the same statistics (cycles, stalls, cache
 *    hits and misses) and the same diagnostics; on two threads both the
 *    helper and the emulator's thread sampled.  Run again with the helper
 *    slowed down, so that it is always behind: a request sampled on the
 *    emulator's thread while the helper still had a job for the same cache
 *    tags, or a job taken before it ran, would change the counts;
 *  - the memory fence: a user program asks for a texture lookup, overwrites
 *    the texture with a VDW store, then loads the result: it is the texture
 *    as it was at the request, with the helper slowed down so that without
 *    the fence its job would read the new bytes.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

#include "harness.h"

#ifndef VC4KIT_SOURCE_DIR
#define VC4KIT_SOURCE_DIR "."
#endif
#define VC4KIT_EXAMPLES_DIR VC4KIT_SOURCE_DIR "/examples"
#include "tex_scene.h"

#include "emu/par.h"
#include "emu/v3d.h"
#include "vc4kit/qpu.h"

#define MEM_SIZE (16u << 20)

/* What a run left. */
struct outcome {
    uint8_t *mem; /* all of RAM */
    struct vc4_emu_render_stats stats;
    struct harness_diags d;
    enum vc4_status st;
    uint64_t posted, texture_requests; /* (not compared) sampling jobs, texture requests */
};

/* An emulator with 1 or 2 host threads; with two, the helper stays awake
 * (it would sleep between the scene's runs) and pauses delay_us before
 * each job. */
static struct vc4_emu *make(unsigned threads, unsigned delay_us, struct outcome *o)
{
    struct vc4_emu_options eo = {.sink = harness_sink(&o->d), .num_qpus = 12, .mem_size = MEM_SIZE,
                                 .host_threads = threads};
    struct vc4_emu *e = vc4_emu_create(&eo);
    CHECK(e != NULL);
    if (e && threads == 2) {
        CHECK(e->v3d.par != NULL);
        if (e->v3d.par) {
            vc4_par_set_idle(e->v3d.par, 1000000);
            vc4_par_set_delay(e->v3d.par, delay_us);
        }
    }
    return e;
}

static void finish(struct vc4_emu *e, struct outcome *o)
{
    o->mem = malloc(MEM_SIZE);
    CHECK(o->mem != NULL);
    if (o->mem)
        CHECK(vc4_emu_mem_read(e, 0, o->mem, MEM_SIZE) == VC4_OK);
    vc4_emu_render_stats(e, &o->stats);
    /* (what the second thread took, through the public call; checked
     * against the unit's own count) */
    struct vc4_emu_host_stats h;
    vc4_emu_host_stats(e, &h);
    CHECK_EQ_U64(h.threads, e->v3d.par ? 2 : 1);
    CHECK_EQ_U64(h.helper_texture_requests, e->v3d.tmu.jobs_posted);
    o->posted = h.helper_texture_requests;
    o->texture_requests = o->stats.tmu.texture_requests;
    vc4_emu_destroy(e);
}

static void run_scene(const struct sc_params *p, unsigned threads, unsigned delay_us, struct outcome *o)
{
    memset(o, 0, sizeof *o);
    struct vc4_emu *e = make(threads, delay_us, o);
    if (!e)
        return;
    uint32_t be = 0, re = 0;
    bool built = sc_build(e, p, harness_sink(&o->d), &be, &re) && p->setup(e, p->setup_user);
    CHECK_MSG(built, "%s", o->d.text);
    o->st = built ? sc_run(e, be, re) : VC4_ERR_INVALID;
    finish(e, o);
}

/* b (two threads) against a (one): everything the same. */
static void same(const char *what, const struct outcome *a, const struct outcome *b)
{
    CHECK_MSG(a->st == VC4_OK && b->st == VC4_OK, "%s: %s / %s\n%s", what, vc4_status_name(a->st),
              vc4_status_name(b->st), a->d.text);
    size_t diff = 0, first = 0;
    for (size_t i = 0; a->mem && b->mem && i < MEM_SIZE; i++)
        if (a->mem[i] != b->mem[i] && diff++ == 0)
            first = i;
    CHECK_MSG(diff == 0, "%s: %zu bytes of memory differ, the first at 0x%zx", what, diff, first);
    CHECK_MSG(memcmp(&a->stats, &b->stats, sizeof a->stats) == 0,
              "%s: statistics differ: cycles %" PRIu64 " / %" PRIu64 ", stalls %" PRIu64 " / %" PRIu64
              ", TMU misses %" PRIu64 " / %" PRIu64 ", hits %" PRIu64 " / %" PRIu64,
              what, a->stats.qpu.cycles, b->stats.qpu.cycles, a->stats.qpu.stall_cycles,
              b->stats.qpu.stall_cycles, a->stats.tmu.cache_misses, b->stats.tmu.cache_misses,
              a->stats.tmu.cache_hits, b->stats.tmu.cache_hits);
    CHECK_MSG(a->d.len == b->d.len && memcmp(a->d.text, b->d.text, a->d.len) == 0,
              "%s: diagnostics differ:\n%s---\n%s", what, a->d.text, b->d.text);
    CHECK_EQ_U64(a->posted, 0);
}

static void release(struct outcome *o)
{
    free(o->mem);
    o->mem = NULL;
}

/* One texture through two parameter sets: nearest on TMU0, trilinear on
 * TMU1 (so requests alternate between two decoded configurations and use
 * both TMUs' tags); the colour is the XOR of the two. */
static const char fs_two[] =
    "nop; fmul r0, ra15, vary\n"
    "fadd r0, r0, r5; fmul r1, ra15, vary\n"
    "fadd t0t, r1, r5\n"
    "mov t0s, r0\n"
    "fadd t1t, r1, r5\n"
    "mov t1s, r0\n"
    "nop; nop; ldtmu0\n"
    "mov r2, r4\n"
    "nop; nop; ldtmu1\n"
    "xor tlbc, r2, r4\n"
    "nop; thrend\n"
    "nop\n"
    "nop; sbdone\n";

static void check_scene(const char *what, const struct sc_params *p)
{
    struct outcome one, two, late;
    run_scene(p, 1, 0, &one);
    run_scene(p, 2, 0, &two);
    run_scene(p, 2, 20, &late);
    same(what, &one, &two);
    same(what, &one, &late);
    /* the helper sampled; and, the helper late, so did the emulator's
     * thread (on time, how many it takes depends on the host's load) */
    CHECK_MSG(two.posted > 0, "%s: none of %" PRIu64 " on the helper", what, two.texture_requests);
    CHECK_MSG(late.posted > 0 && late.posted < late.texture_requests, "%s (late helper): %" PRIu64 " of %" PRIu64,
              what, late.posted, late.texture_requests);
    release(&one);
    release(&two);
    release(&late);
}

static void test_scenes_both_ways(void)
{
    static const enum vc4_tex_layout layouts[] = {VC4_TEX_T, VC4_TEX_LT, VC4_TEX_RASTER};
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
        struct tx_texture t;
        CHECK(tx_seed_texture(&t, layouts[i]));
        struct sc_params p = tx_seed_scene(&t);
        check_scene(layouts[i] == VC4_TEX_T ? "seed triangle, T" : layouts[i] == VC4_TEX_LT ? "seed triangle, LT"
                                                                                       : "seed triangle, raster",
                    &p);
        free(t.rgba);
    }
    struct tx_texture t;
    CHECK(tx_plane_texture(&t));
    struct sc_params p = tx_plane_scene(&t);
    check_scene("trilinear plane", &p);

    /* the same texture, nearest on TMU0 and trilinear on TMU1 */
    uint32_t nearest_p1 = t.uniforms[1] & ~(7u << TX_P1_MINFILT_SHIFT | 1u << TX_P1_MAGFILT_SHIFT);
    nearest_p1 |= (uint32_t)TX_MIN_NEAREST << TX_P1_MINFILT_SHIFT | 1u << TX_P1_MAGFILT_SHIFT;
    uint32_t unif[4] = {t.uniforms[0], nearest_p1, t.uniforms[0], t.uniforms[1]};
    p.fs = fs_two;
    p.uniforms = unif;
    p.nuniforms = 4;
    check_scene("two parameter sets", &p);
    free(t.rgba);
}

/* ---- the memory fence ------------------------------------------------------------- */

#define CODE 0x10000u
#define UNIF 0x11000u
#define TEX 0x20000u
#define OUT 0x30000u

/* Element i looks up texel (i, 0) of a 16x1 RGBA32R texture (nearest),
 * then a VDW store writes 16 words of 0xDEADBEEF over the texture, then
 * ldtmu0 and the result is stored at OUT.  Uniforms: P0, P1, TEX, OUT. */
static const char fence_prog[] =
    ".include \"vc4.qinc\"\n"
    "itof r0, elem_num\n"
    "ldi r1, 0.5\n"
    "fadd r0, r0, r1\n"
    "ldi r1, 0.0625\n"
    "fmul r0, r0, r1\n"
    "ldi t0t, 0.5\n"
    "mov t0s, r0\n"
    "ldi vw_setup, vpm_setup(1, 1, h32(0))\n"
    "ldi vpm, 0xDEADBEEF\n"
    "ldi vw_setup, vdw_setup_0(1, 16, dma_h32(0, 0))\n"
    "mov vw_addr, unif\n"
    "mov -, vw_wait\n"
    "nop; nop; ldtmu0\n"
    "ldi vw_setup, vpm_setup(1, 1, h32(1))\n"
    "mov vpm, r4\n"
    "ldi vw_setup, vdw_setup_0(1, 16, dma_h32(1, 0))\n"
    "mov vw_addr, unif\n"
    "mov -, vw_wait\n"
    "nop; thrend\n"
    "nop\n"
    "nop\n";

static void run_fence(unsigned threads, unsigned delay_us, struct outcome *o)
{
    memset(o, 0, sizeof *o);
    struct vc4_emu *e = make(threads, delay_us, o);
    if (!e)
        return;
    struct vc4_asm_options ao = {.base_addr = CODE, .sink = harness_sink(&o->d)};
    struct vc4_asm *as = vc4_asm_create(&ao);
    size_t len = 0;
    const uint8_t *code = as && vc4_asm_source(as, "fence", fence_prog, strlen(fence_prog)) == VC4_OK
                              ? vc4_asm_output(as, &len)
                              : NULL;
    CHECK_MSG(code != NULL, "%s", o->d.text);
    if (code)
        vc4_emu_mem_write(e, CODE, code, len);
    vc4_asm_destroy(as);
    uint8_t tex[64];
    for (unsigned i = 0; i < 16; i++)
        vc4_st32(tex + 4 * i, 0xFF000000u | 0x010203u * (i + 1u));
    vc4_emu_mem_write(e, TEX, tex, sizeof tex);
    uint32_t p0 = TEX | (uint32_t)(VC4_TEX_RGBA32R & 15) << TX_P0_TYPE_SHIFT;
    uint32_t p1 = (uint32_t)(VC4_TEX_RGBA32R >> 4) << TX_P1_TYPE4_SHIFT | 1u << TX_P1_HEIGHT_SHIFT |
                  16u << TX_P1_WIDTH_SHIFT | 1u << TX_P1_MAGFILT_SHIFT |
                  (uint32_t)TX_MIN_NEAREST << TX_P1_MINFILT_SHIFT | TX_WRAP_CLAMP << TX_P1_WRAP_T_SHIFT |
                  TX_WRAP_CLAMP << TX_P1_WRAP_S_SHIFT;
    const uint32_t unif[4] = {p0, p1, TEX, OUT};
    uint8_t ub[16];
    for (unsigned i = 0; i < 4; i++)
        vc4_st32(ub + 4 * i, unif[i]);
    vc4_emu_mem_write(e, UNIF, ub, sizeof ub);
    vc4_emu_reg_write(e, VC4_V3D_SRQUA, UNIF);
    vc4_emu_reg_write(e, VC4_V3D_SRQPC, CODE);
    /* (the one request goes to the helper only if it is awake then: on a
     * busy host it can fall asleep before make() lengthens its idle time,
     * as it did in CI's clang pass; vc4_par_awake wakes it) */
    for (unsigned ms = 0; threads == 2 && e->v3d.par && !vc4_par_awake(e->v3d.par) && ms < 5000; ms++)
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
    o->st = vc4_emu_run(e, 0);
    finish(e, o);
}

static void test_fence(void)
{
    struct outcome one, two;
    run_fence(1, 0, &one);
    /* (the helper 5 ms late: the store comes long before it would run) */
    run_fence(2, 5000, &two);
    same("fence", &one, &two);
    CHECK_EQ_U64(two.posted, 1);
    CHECK_EQ_U64(one.texture_requests, 1);
    /* the texels as they were before the store, which overwrote them */
    for (unsigned i = 0; one.mem && two.mem && i < 16; i++) {
        CHECK_EQ_U64(vc4_le32(two.mem + TEX + 4 * i), 0xDEADBEEFu);
        CHECK_MSG(vc4_le32(two.mem + OUT + 4 * i) == (0xFF000000u | 0x010203u * (i + 1u)),
                  "element %u: 0x%08x", i, vc4_le32(two.mem + OUT + 4 * i));
    }
    release(&one);
    release(&two);
}

TEST_LIST(test_scenes_both_ways, test_fence)
