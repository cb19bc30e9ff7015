/*
 * test_ctl_boot_warnings.c - the control-list warnings issue 11 asks for,
 * built from its evidence (bare-metal demos that ran on a Pi 1 and showed
 * nothing on vc4kit, silently):
 *  - 8 KiB of tile allocation for more tiles' initial blocks than fit: the
 *    binner places the initial blocks all the same (a note) and the frame
 *    is drawn;
 *  - a rendering list that branches into zeroed memory and halts inside the
 *    sub-list: both are warned about (ct1);
 *  - a 4x multisample frame stored with decimate 1x: warned about;
 *  - the seed scene itself raises none of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "nv_scene.h"

/* Build the seed NV scene with p, apply patch (may be NULL), run it. */
static void run_scene(const struct sc_params *p, void (*patch)(struct vc4_emu *), struct harness_diags *l)
{
    struct vc4_diag_sink sink = harness_sink(l);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    uint32_t be = 0, re = 0;
    CHECK(emu && sc_build(emu, p, sink, &be, &re));
    if (patch)
        patch(emu);
    sc_run(emu, be, re);
    vc4_emu_destroy(emu);
}

static void test_seed_scene_quiet(void)
{
    struct harness_diags l;
    struct sc_params p = sc_default(true);
    run_scene(&p, NULL, &l);
    CHECK(strstr(l.text, "zeroed memory") == NULL);
    CHECK(strstr(l.text, "Halt inside a sub-list") == NULL);
    CHECK(strstr(l.text, "without decimation") == NULL);
}

/* Run a scene with 1 MiB of binner overflow memory at 0x00600000 (BPOA,
 * BPOS) and keep its frame (RGBA, malloc'd). */
static uint8_t *scene_frame(const struct sc_params *p, struct harness_diags *l)
{
    struct vc4_diag_sink sink = harness_sink(l);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    uint32_t be = 0, re = 0;
    uint8_t *rgba = NULL;
    CHECK(emu && sc_build(emu, p, sink, &be, &re));
    vc4_emu_reg_write(emu, VC4_V3D_BPOA, 0x00600000u);
    vc4_emu_reg_write(emu, VC4_V3D_BPOS, 1u << 20);
    if (sc_run(emu, be, re) == VC4_OK) {
        struct vc4_emu_frame f;
        vc4_emu_render_frame(emu, &f);
        rgba = f.valid && f.frames == 1 ? malloc((size_t)f.width * f.height * 4) : NULL;
        if (rgba && vc4_emu_read_frame(emu, &f, rgba) != VC4_OK) {
            free(rgba);
            rgba = NULL;
        }
    }
    vc4_emu_destroy(emu);
    return rgba;
}

static void test_tile_alloc_too_small(void)
{
    /* 10x8 tiles of 32-byte initial blocks need 2560 bytes; 1 KiB declared
     * (the demos: 300 tiles in 8 KiB): the initial blocks are placed all the
     * same, further blocks come from the overflow memory, and the frame is
     * the one a large allocation gives */
    struct harness_diags l;
    struct sc_params p = sc_default(true);
    uint8_t *want = scene_frame(&p, &l);
    p.tile_alloc_size = 1024;
    uint8_t *got = scene_frame(&p, &l);
    CHECK(want && got && memcmp(want, got, 640u * 480 * 4) == 0);
    CHECK_CONTAINS(l.text, "tile allocation memory 0x00200000 + 1024 bytes is smaller than the 80 tiles' initial "
                           "blocks (32 bytes each): they are placed past its end all the same");
    CHECK(strstr(l.text, "zeroed memory") == NULL);
    free(want);
    free(got);
}

/* The first tile's Branch To Sub-List (after Clear Colors 14 bytes, the
 * rendering mode 11, Tile Coordinates 3, Store General 7, Tile Coordinates
 * 3, Wait On Semaphore 1) sent to memory nothing wrote. */
static void branch_to_zeros(struct vc4_emu *emu)
{
    uint8_t b[5];
    CHECK(vc4_emu_mem_read(emu, SC_RENDER_CL + 39, b, 5) == VC4_OK);
    CHECK_EQ_U64(b[0], 17);
    b[1] = 0x00, b[2] = 0x00, b[3] = 0xE0, b[4] = 0x00; /* 0x00E00000 */
    CHECK(vc4_emu_mem_write(emu, SC_RENDER_CL + 39, b, 5) == VC4_OK);
}

static void test_branch_into_zeros(void)
{
    struct harness_diags l;
    struct sc_params p = sc_default(true);
    run_scene(&p, branch_to_zeros, &l);
    CHECK_CONTAINS(l.text, "ct1: 0x00104027: warning: Branch to Sub-list (list offset 39): branch to 0x00e00000, "
                           "into zeroed memory (it reads as Halt packets)");
    CHECK_CONTAINS(l.text, "Halt inside a sub-list (branched to at 0x00e00000 from 0x00104027): the thread stops "
                           "here, before its list's end and the frame's end");
}

/* Tile Rendering Mode Configuration flags at SC_RENDER_CL + 23 (after the
 * 14-byte Clear Colors and 9 bytes of the packet): decimate (bits 5:4) 1x. */
static void decimate_1x(struct vc4_emu *emu)
{
    uint8_t f[2];
    CHECK(vc4_emu_mem_read(emu, SC_RENDER_CL + 23, f, 2) == VC4_OK);
    CHECK((f[0] & 1) && (f[0] & 0x30) == 0x10); /* multisample, decimate 4x as built */
    f[0] &= (uint8_t)~0x30;
    CHECK(vc4_emu_mem_write(emu, SC_RENDER_CL + 23, f, 2) == VC4_OK);
}

static void test_ms_store_without_decimation(void)
{
    struct harness_diags l;
    struct sc_params p = sc_default(true);
    p.multisample = true;
    run_scene(&p, NULL, &l);
    CHECK(strstr(l.text, "without decimation") == NULL); /* decimate 4x: quiet */
    run_scene(&p, decimate_1x, &l);
    CHECK_CONTAINS(l.text, "a 4x multisample frame stored without decimation");
}

TEST_LIST(test_seed_scene_quiet, test_tile_alloc_too_small, test_branch_into_zeros, test_ms_store_without_decimation)
