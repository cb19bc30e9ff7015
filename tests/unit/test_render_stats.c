/*
 * test_render_stats.c - rendering insight (vc4_emu_render_stats,
 * vc4_emu_stats_report, vc4_emu_dump_tile_lists) on small scenes whose counts are known without
 * the emulator: a triangle inside one 64x64 tile of a 128x128 frame, one
 * covering all four tiles, a zero-area and an off-screen triangle, a GL
 * triangle culled by facing, the textured seed scene; fragments and quads
 * are counted from the frame, instructions from the shader's length.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#ifndef VC4KIT_SOURCE_DIR
#define VC4KIT_SOURCE_DIR "."
#endif
#define VC4KIT_EXAMPLES_DIR VC4KIT_SOURCE_DIR "/examples"
#include "gl_scene.h"
#include "tex_scene.h"

/* sc_fs_uniform: 8 instructions, no branch: every thread issues all 8 */
#define FS_UNIFORM_INSTRUCTIONS 8u

static struct harness_diags hd;

/* Render the NV scene p (sc_render) on a fresh device; *emu is kept. */
static uint8_t *render_nv(const struct sc_params *p, struct vc4_emu **emu)
{
    hd = (struct harness_diags){0};
    uint8_t *rgba = sc_render(p, harness_sink(&hd), 0, emu);
    CHECK_MSG(rgba != NULL, "render failed:\n%s", hd.text);
    CHECK_MSG(hd.errors == 0, "%s", hd.text);
    return rgba;
}

/* A 128x128 frame (2x2 tiles of 64x64) with the uniform-colour shader and
 * the triangles of verts (pixels). */
static struct sc_params scene128(struct sc_vertex *v, const int (*px)[2], unsigned n)
{
    struct sc_params p = sc_default(false);
    p.width = p.height = 128;
    for (unsigned i = 0; i < n; i++)
        v[i] = (struct sc_vertex){(int16_t)(px[i][0] * 16), (int16_t)(px[i][1] * 16), 1.0f, 1.0f, {0}};
    p.verts = v;
    p.nverts = n;
    p.nvary = 0;
    p.fs = sc_fs_uniform;
    static const uint32_t unif[4] = {0x00000000u, 0x3F800000u, 0x00000000u, 0x3F800000u}; /* 0,1,0,1 */
    p.uniforms = unif;
    p.nuniforms = 4;
    return p;
}

/* Pixels of the frame that are not the clear colour, and the 2x2 quads
 * (even-aligned) holding at least one of them. */
static void count_covered(const uint8_t *rgba, unsigned w, unsigned h, uint64_t *px, uint64_t *quads)
{
    uint8_t clear[4];
    sc_put32(clear, SC_CLEAR_COLOR);
    *px = *quads = 0;
    for (unsigned qy = 0; qy < h; qy += 2)
        for (unsigned qx = 0; qx < w; qx += 2) {
            unsigned in = 0;
            for (unsigned k = 0; k < 4; k++) {
                unsigned x = qx + (k & 1), y = qy + (k >> 1);
                if (x < w && y < h && memcmp(rgba + ((size_t)y * w + x) * 4, clear, 4) != 0)
                    in++;
            }
            *px += in;
            *quads += in != 0;
        }
}

static char *dump(const struct vc4_emu *emu)
{
    size_t need = 0;
    CHECK_EQ_INT(vc4_emu_dump_tile_lists(emu, NULL, 0, &need), VC4_ERR_RANGE);
    char *t = malloc(need + 1);
    CHECK(t != NULL);
    size_t need2 = 0;
    CHECK_EQ_INT(vc4_emu_dump_tile_lists(emu, t, need + 1, &need2), VC4_OK);
    CHECK_EQ_U64(need2, need);
    CHECK_EQ_U64(strlen(t), need);
    return t;
}

/* QPU time: only fragment shaders ran, 8 instructions per thread. */
static void check_fs_time(const struct vc4_emu_render_stats *s)
{
    const struct vc4_emu_qpu_time *fs = &s->by_kind[VC4_EMU_PROG_FRAGMENT];
    CHECK_EQ_U64(fs->instructions, FS_UNIFORM_INSTRUCTIONS * s->fragment.threads);
    CHECK_EQ_U64(fs->instructions, s->qpu.instructions);
    CHECK_EQ_U64(fs->stall_cycles, s->qpu.stall_cycles);
    CHECK(fs->cycles > 0 && fs->cycles <= s->qpu.cycles);
    for (unsigned k = 0; k < VC4_EMU_PROG_KINDS; k++)
        if (k != VC4_EMU_PROG_FRAGMENT)
            CHECK_EQ_U64(s->by_kind[k].cycles + s->by_kind[k].instructions + s->by_kind[k].stall_cycles, 0);
}

/* A triangle inside tile (0,0): one primitive, binned once, one tile write. */
static void test_one_tile(void)
{
    static const int px[3][2] = {{8, 8}, {8, 40}, {40, 8}};
    struct sc_vertex v[3];
    struct sc_params p = scene128(v, px, 3);
    struct vc4_emu *emu = NULL;
    uint8_t *rgba = render_nv(&p, &emu);
    CHECK(emu != NULL);
    if (!rgba || !emu)
        goto out;
    struct vc4_emu_render_stats s;
    vc4_emu_render_stats(emu, &s);
    CHECK_EQ_U64(s.binner.prims_in, 1);
    CHECK_EQ_U64(s.binner.prims_binned, 1);
    CHECK_EQ_U64(s.binner.prims_culled + s.binner.prims_zero_area + s.binner.prims_outside +
                     s.binner.prims_bad + s.binner.prims_clipped,
                 0);
    CHECK_EQ_U64(s.binner.tile_writes, 1);
    CHECK_EQ_U64(s.binner.flushes, 1);
    CHECK_EQ_U64(s.binner.overflows + s.binner.stalls, 0);
    uint64_t covered, quads;
    count_covered(rgba, 128, 128, &covered, &quads);
    /* a right triangle with legs of 32 pixels: about 32 x 32 / 2 pixels */
    CHECK(covered > 450 && covered < 600);
    CHECK_EQ_U64(s.fragment.prims, 1);
    CHECK_EQ_U64(s.fragment.fragments, covered);
    CHECK_EQ_U64(s.fragment.samples_written, covered);
    CHECK_EQ_U64(s.fragment.quads, quads);
    CHECK_EQ_U64(s.fragment.batches, (quads + 3) / 4); /* 4 quads a batch, packed */
    CHECK_EQ_U64(s.fragment.early_z_rejects + s.fragment.z_fails + s.fragment.stencil_fails, 0);
    CHECK_EQ_U64(s.vertex.coord_batches + s.vertex.vertex_batches, 0);
    CHECK_EQ_U64(s.tmu.requests, 0);
    check_fs_time(&s);

    char *t = dump(emu);
    if (t) {
        CHECK_CONTAINS(t, "tile 0,0 (#0) list 0x00200000: 1 primitives");
        CHECK_CONTAINS(t, "NV Shader State (65)");
        CHECK_CONTAINS(t, "Compressed Primitive List (48)\n        triangle 0 1 2\n");
        CHECK_CONTAINS(t, "Return from Sub-list (18)");
        CHECK_CONTAINS(t, "1 of 4 tiles have lists");
        CHECK(strstr(t, "tile 1,0") == NULL && strstr(t, "tile 0,1") == NULL && strstr(t, "tile 1,1") == NULL);
        CHECK(strstr(t, "error") == NULL);
        /* a short buffer: truncated, NUL-terminated, the full length reported */
        char small[40];
        size_t need = 0;
        CHECK_EQ_INT(vc4_emu_dump_tile_lists(emu, small, sizeof small, &need), VC4_ERR_RANGE);
        CHECK_EQ_U64(need, strlen(t));
        CHECK_EQ_U64(strlen(small), sizeof small - 1);
        CHECK(memcmp(small, t, sizeof small - 1) == 0);
    }
    free(t);

    /* a reset clears every figure */
    vc4_emu_reset(emu);
    vc4_emu_render_stats(emu, &s);
    struct vc4_emu_render_stats zero;
    memset(&zero, 0, sizeof zero);
    CHECK(memcmp(&s, &zero, sizeof s) == 0);
    /* ... and no binning has run since: no tile lists to dump */
    CHECK_EQ_INT(vc4_emu_dump_tile_lists(emu, NULL, 0, NULL), VC4_ERR_INVALID);
out:
    free(rgba);
    vc4_emu_destroy(emu);
}

/* A triangle holding the frame's centre (64, 64) in its interior: every
 * tile has some of it: 4 tile writes, each tile's list has the primitive. */
static void test_four_tiles(void)
{
    static const int px[3][2] = {{16, 16}, {64, 112}, {112, 16}};
    struct sc_vertex v[3];
    struct sc_params p = scene128(v, px, 3);
    struct vc4_emu *emu = NULL;
    uint8_t *rgba = render_nv(&p, &emu);
    if (!rgba || !emu)
        goto out;
    struct vc4_emu_render_stats s;
    vc4_emu_render_stats(emu, &s);
    CHECK_EQ_U64(s.binner.prims_in, 1);
    CHECK_EQ_U64(s.binner.prims_binned, 1);
    CHECK_EQ_U64(s.binner.tile_writes, 4);
    uint64_t covered, quads;
    count_covered(rgba, 128, 128, &covered, &quads);
    CHECK(covered > 4000 && covered < 5000); /* 96 x 96 / 2 = 4608 */
    CHECK_EQ_U64(s.fragment.prims, 4);       /* the primitive once per tile */
    CHECK_EQ_U64(s.fragment.fragments, covered);
    CHECK_EQ_U64(s.fragment.quads, quads);
    check_fs_time(&s);
    char *t = dump(emu);
    if (t) {
        CHECK_CONTAINS(t, "4 of 4 tiles have lists");
        static const char *const tiles[4] = {"tile 0,0 (#0)", "tile 1,0 (#1)", "tile 0,1 (#2)", "tile 1,1 (#3)"};
        for (unsigned i = 0; i < 4; i++) {
            const char *at = strstr(t, tiles[i]);
            CHECK_MSG(at != NULL, "%s missing", tiles[i]);
            if (at)
                CHECK_CONTAINS(at, "triangle 0 1 2");
        }
    }
    free(t);
out:
    free(rgba);
    vc4_emu_destroy(emu);
}

/* A zero-area triangle (three points on a line) and one entirely right of
 * the 128-pixel clip window: both dropped, nothing drawn. */
static void test_dropped(void)
{
    static const int px[6][2] = {{10, 10}, {30, 30}, {50, 50}, {200, 10}, {200, 60}, {250, 10}};
    struct sc_vertex v[6];
    struct sc_params p = scene128(v, px, 6);
    struct vc4_emu *emu = NULL;
    uint8_t *rgba = render_nv(&p, &emu);
    if (!rgba || !emu)
        goto out;
    struct vc4_emu_render_stats s;
    vc4_emu_render_stats(emu, &s);
    CHECK_EQ_U64(s.binner.prims_in, 2);
    CHECK_EQ_U64(s.binner.prims_zero_area, 1);
    CHECK_EQ_U64(s.binner.prims_outside, 1);
    CHECK_EQ_U64(s.binner.prims_binned, 0);
    CHECK_EQ_U64(s.binner.tile_writes, 0);
    uint64_t covered, quads;
    count_covered(rgba, 128, 128, &covered, &quads);
    CHECK_EQ_U64(covered, 0);
    CHECK_EQ_U64(s.fragment.fragments, 0);
    CHECK_EQ_U64(s.qpu.instructions, 0);
    char *t = dump(emu);
    if (t)
        CHECK_CONTAINS(t, "0 of 4 tiles have lists");
    free(t);
out:
    free(rgba);
    vc4_emu_destroy(emu);
}

/* GL: the seed triangle and the same with its winding reversed (indices
 * 0 2 1), back faces culled: exactly one of the two is culled, draws
 * nothing and shades no vertex for rendering; both are coordinate-shaded
 * (3 vertices, one batch). */
static void test_cull(void)
{
    static const uint16_t order[2][3] = {{0, 1, 2}, {0, 2, 1}};
    uint64_t culled = 0;
    for (unsigned o = 0; o < 2; o++) {
        uint8_t vdata[256];
        struct gl_scene sc = gl_seed_scene(vdata);
        sc.cull_back = true;
        sc.indices = order[o];
        sc.nindices = 3;
        sc.max_index = 2;
        hd = (struct harness_diags){0};
        struct vc4_emu_options eo = {.sink = harness_sink(&hd), .mem_size = 16u << 20};
        struct vc4_emu *emu = vc4_emu_create(&eo);
        uint8_t *rgba = emu ? gl_render_on(emu, &sc, harness_sink(&hd)) : NULL;
        CHECK_MSG(rgba != NULL, "%s", hd.text);
        if (rgba) {
            struct vc4_emu_render_stats s;
            vc4_emu_render_stats(emu, &s);
            uint64_t covered, quads;
            count_covered(rgba, 640, 480, &covered, &quads);
            CHECK_EQ_U64(s.binner.prims_in, 1);
            CHECK_EQ_U64(s.binner.prims_culled + s.binner.prims_binned, 1);
            CHECK_EQ_U64(s.fragment.fragments, covered);
            CHECK_EQ_U64(s.vertex.coord_vertices, 3);
            CHECK_EQ_U64(s.vertex.coord_batches, 1);
            /* the posted coordinate shader has no branch: one batch issues
             * every one of its instructions once */
            CHECK_EQ_U64(s.by_kind[VC4_EMU_PROG_COORD].instructions, sizeof gl_seed_cs_words / 8);
            if (s.binner.prims_culled) {
                culled++;
                CHECK_EQ_U64(covered, 0);
                CHECK_EQ_U64(s.vertex.vertex_vertices, 0);
                CHECK_EQ_U64(s.by_kind[VC4_EMU_PROG_VERTEX].instructions, 0);
                CHECK_EQ_U64(s.by_kind[VC4_EMU_PROG_FRAGMENT].instructions, 0);
            } else {
                CHECK(covered > 100000);
                CHECK_EQ_U64(s.vertex.vertex_vertices, 3);
                CHECK_EQ_U64(s.by_kind[VC4_EMU_PROG_VERTEX].instructions, sizeof gl_seed_vs_words / 8);
                CHECK_EQ_U64(s.by_kind[VC4_EMU_PROG_FRAGMENT].instructions,
                             FS_UNIFORM_INSTRUCTIONS * s.fragment.threads);
            }
            uint64_t sum = 0;
            for (unsigned k = 0; k < VC4_EMU_PROG_KINDS; k++)
                sum += s.by_kind[k].instructions;
            CHECK_EQ_U64(sum, s.qpu.instructions);
        }
        free(rgba);
        vc4_emu_destroy(emu);
    }
    CHECK_EQ_U64(culled, 1);
}

/* The textured seed triangle: its shader makes one texture request per
 * thread, 16 element lookups each, every one a cache hit or a miss. */
static void test_tmu(void)
{
    struct tx_texture t;
    CHECK(tx_seed_texture(&t, VC4_TEX_T));
    struct sc_params p = tx_seed_scene(&t);
    struct vc4_emu *emu = NULL;
    uint8_t *rgba = render_nv(&p, &emu);
    if (rgba && emu) {
        struct vc4_emu_render_stats s;
        vc4_emu_render_stats(emu, &s);
        CHECK(s.fragment.threads > 0);
        CHECK_EQ_U64(s.tmu.texture_requests, s.fragment.threads);
        CHECK_EQ_U64(s.tmu.requests, s.tmu.texture_requests);
        CHECK_EQ_U64(s.tmu.lookups, 16 * s.tmu.texture_requests);
        CHECK_EQ_U64(s.tmu.cache_hits + s.tmu.cache_misses, s.tmu.lookups);
        CHECK(s.tmu.cache_misses > 0 && s.tmu.cache_hits > s.tmu.cache_misses);
        CHECK(s.tmu.stall_cycles <= s.by_kind[VC4_EMU_PROG_FRAGMENT].stall_cycles);
    }
    free(rgba);
    free(t.rgba);
    vc4_emu_destroy(emu);
}

/* The whole report as text (vc4_emu_stats_report), with prefix. */
static char *report(const struct vc4_emu *emu, const char *prefix)
{
    size_t need = 0;
    CHECK_EQ_INT(vc4_emu_stats_report(emu, prefix, NULL, 0, &need), VC4_ERR_RANGE);
    char *t = malloc(need + 1);
    CHECK(t != NULL);
    size_t need2 = 0;
    CHECK_EQ_INT(vc4_emu_stats_report(emu, prefix, t, need + 1, &need2), VC4_OK);
    CHECK_EQ_U64(need2, need);
    CHECK_EQ_U64(strlen(t), need);
    return t;
}

/* vc4_emu_stats_report on the textured seed scene: every figure of the
 * structures, in its line; each line prefixed; truncation as snprintf. */
static void test_report(void)
{
    struct tx_texture tx;
    CHECK(tx_seed_texture(&tx, VC4_TEX_T));
    struct sc_params p = tx_seed_scene(&tx);
    struct vc4_emu *emu = NULL;
    uint8_t *rgba = render_nv(&p, &emu);
    char *t = NULL, *bare = NULL;
    if (!rgba || !emu)
        goto out;
    struct vc4_emu_render_stats s;
    struct vc4_emu_vpm_stats m;
    vc4_emu_render_stats(emu, &s);
    vc4_emu_vpm_stats(emu, &m);
    CHECK(s.fragment.fragments > 0 && s.tmu.texture_requests > 0 && m.generic_reads + m.generic_writes == 0);
    t = report(emu, "> ");
    bare = report(emu, NULL);
    if (!t || !bare)
        goto out;
    char want[512];
#define WANT(...)                                  \
    do {                                           \
        snprintf(want, sizeof want, __VA_ARGS__);  \
        CHECK_CONTAINS(t, want);                   \
    } while (0)
    WANT("> qpu: cycles %llu, instructions %llu, stall cycles %llu, idle cycles %llu\n",
         (unsigned long long)s.qpu.cycles, (unsigned long long)s.qpu.instructions,
         (unsigned long long)s.qpu.stall_cycles, (unsigned long long)s.qpu.idle_cycles);
    /* only fragment shaders ran: all of the kinds' cycles */
    WANT("> qpu fragment   cycles %llu (100.0%%), instructions %llu, stall cycles %llu\n",
         (unsigned long long)s.by_kind[VC4_EMU_PROG_FRAGMENT].cycles,
         (unsigned long long)s.by_kind[VC4_EMU_PROG_FRAGMENT].instructions,
         (unsigned long long)s.by_kind[VC4_EMU_PROG_FRAGMENT].stall_cycles);
    WANT("> qpu user       cycles 0 (0.0%%), instructions 0, stall cycles 0\n");
    WANT("> user programs: started 0, completed 0\n");
    WANT("> binner: prims in 1, binned 1, culled 0, zero area 0, outside 0, bad 0, clipped 0\n");
    WANT("> binner: tile writes %llu, blocks %llu, overflows 0, stalls 0, flushes 1\n",
         (unsigned long long)s.binner.tile_writes, (unsigned long long)s.binner.blocks);
    WANT("> vertex shading: coordinate vertices 0 in 0 batches, vertex vertices 0 in 0 batches\n");
    WANT("> fragment shading: prims %llu, fragments %llu, quads %llu, batches %llu, threads %llu, thread switches "
         "%llu\n",
         (unsigned long long)s.fragment.prims, (unsigned long long)s.fragment.fragments,
         (unsigned long long)s.fragment.quads, (unsigned long long)s.fragment.batches,
         (unsigned long long)s.fragment.threads, (unsigned long long)s.fragment.thread_switches);
    WANT("> tile buffer: samples written %llu, early-z rejects 0, z fails 0, stencil fails 0\n",
         (unsigned long long)s.fragment.samples_written);
    WANT("> tmu: requests %llu (texture %llu), lookups %llu, texels %llu, cache hits %llu, misses %llu (hit rate "
         "%.1f%%), stall cycles %llu\n",
         (unsigned long long)s.tmu.requests, (unsigned long long)s.tmu.texture_requests,
         (unsigned long long)s.tmu.lookups, (unsigned long long)s.tmu.texels,
         (unsigned long long)s.tmu.cache_hits, (unsigned long long)s.tmu.cache_misses,
         100.0 * (double)s.tmu.cache_hits / (double)(s.tmu.cache_hits + s.tmu.cache_misses),
         (unsigned long long)s.tmu.stall_cycles);
    WANT("> vpm: generic reads 0 / writes 0 (16-word vectors), VDW 0 stores / 0 bytes, VDR 0 loads / 0 bytes, DMA "
         "cycles 0\n");
    /* how the host ran the QPU instructions: all of them one way or
     * another; the seed's textured triangle keeps several QPUs shading at
     * once (lock-stepped), and one alone at the ends of the frame */
    struct vc4_emu_host_stats h;
    vc4_emu_host_stats(emu, &h);
    printf("host engine: alone %llu, side by side %llu, lock-step %llu\n", (unsigned long long)h.alone_instructions,
           (unsigned long long)h.side_by_side_instructions, (unsigned long long)h.lockstep_instructions);
    CHECK(h.lockstep_instructions > 0 && h.alone_instructions > 0);
    WANT("> host engine: QPU instructions alone %llu, side by side %llu, lock-step %llu\n",
         (unsigned long long)h.alone_instructions, (unsigned long long)h.side_by_side_instructions,
         (unsigned long long)h.lockstep_instructions);
    CHECK_EQ_U64(h.alone_instructions + h.side_by_side_instructions + h.lockstep_instructions, s.qpu.instructions);
    /* with two host threads (the CI pass that forces them), a line for the second */
    if (h.threads > 1)
        WANT("> second host thread: compiled QPU instructions %llu, texture requests sampled %llu of %llu\n",
             (unsigned long long)h.helper_instructions, (unsigned long long)h.helper_texture_requests,
             (unsigned long long)s.tmu.texture_requests);
    else
        CHECK(strstr(t, "second host thread") == NULL);
#undef WANT
    /* 14 lines (15 with the second thread's), each "> " + the unprefixed line */
    size_t lines = 0;
    const char *a = t, *b = bare;
    while (*a) {
        CHECK(strncmp(a, "> ", 2) == 0);
        const char *nl = strchr(b, '\n');
        CHECK(nl != NULL);
        if (!nl)
            break;
        CHECK(strncmp(a + 2, b, (size_t)(nl - b) + 1) == 0);
        a += 2 + (nl - b) + 1;
        b = nl + 1;
        lines++;
    }
    CHECK_EQ_U64(lines, h.threads > 1 ? 15u : 14u);
    CHECK_EQ_U64(strlen(t), strlen(bare) + 2 * lines);
    /* a short buffer: truncated, NUL-terminated, the full length reported */
    char small[30];
    size_t need = 0;
    CHECK_EQ_INT(vc4_emu_stats_report(emu, "> ", small, sizeof small, &need), VC4_ERR_RANGE);
    CHECK_EQ_U64(need, strlen(t));
    CHECK_EQ_U64(strlen(small), sizeof small - 1);
    CHECK(memcmp(small, t, sizeof small - 1) == 0);
out:
    free(t);
    free(bare);
    free(rgba);
    free(tx.rgba);
    vc4_emu_destroy(emu);
}

/* A tile list the guest overwrote with a Branch to itself: the dump stops
 * with an error line instead of looping. */
static void test_dump_branch_loop(void)
{
    static const int px[3][2] = {{8, 8}, {8, 40}, {40, 8}};
    struct sc_vertex v[3];
    struct sc_params p = scene128(v, px, 3);
    struct vc4_emu *emu = NULL;
    uint8_t *rgba = render_nv(&p, &emu);
    if (rgba && emu) {
        uint8_t br[5];
        struct vc4_cl_branch b = {SC_TILE_ALLOC};
        uint64_t values[1];
        vc4_cl_struct_to_values(&vc4_cl_packet(VC4_CL_BRANCH)->layout, &b, values);
        CHECK_EQ_INT(vc4_cl_pack(VC4_CL_BRANCH, values, br, NULL), VC4_OK);
        CHECK_EQ_INT(vc4_emu_mem_write(emu, SC_TILE_ALLOC, br, sizeof br), VC4_OK);
        char *t = dump(emu);
        if (t) {
            CHECK_CONTAINS(t, "Branch (16) address=0x200000");
            CHECK_CONTAINS(t, "error: more Branches than the tile's");
        }
        free(t);
    }
    free(rgba);
    vc4_emu_destroy(emu);
}

TEST_LIST(test_one_tile, test_four_tiles, test_dropped, test_cull, test_tmu, test_report, test_dump_branch_loop)
