/*
 * test_ctl.c - the control-list threads (src/emu/ctl.c) as a host drives
 * them through the V3D registers: starting with CTnCA/CTnEA, Halt, Branch,
 * sub-lists and the 2-entry return stack, the semaphore between the
 * threads (the binning side fires after its Flush), BFC/RFC, INTCTL,
 * CTnCS/PCS status; and bad lists: unknown opcodes, truncated packets,
 * addresses outside memory, missing configuration, lists that never end.
 */
#include "harness.h"
#include "nv_scene.h"

#define L0 0x00010000u /* list addresses */
#define L1 0x00020000u
#define L2 0x00030000u
#define L3 0x00040000u

static struct harness_diags hd;

static struct vc4_emu *mk(void)
{
    struct vc4_emu_options eo = {.sink = harness_sink(&hd), .mem_size = 16u << 20, .max_cycles = 1000000};
    return vc4_emu_create(&eo);
}

/* Write raw list bytes. */
static void put(struct vc4_emu *emu, uint32_t addr, const uint8_t *b, size_t n)
{
    CHECK(vc4_emu_mem_write(emu, addr, b, n) == VC4_OK);
}

static uint32_t reg(struct vc4_emu *emu, uint32_t off)
{
    uint32_t v = 0;
    CHECK(vc4_emu_reg_read(emu, off, &v) == VC4_OK);
    return v;
}

static enum vc4_status start(struct vc4_emu *emu, unsigned t, uint32_t ca, uint32_t ea)
{
    vc4_emu_reg_write(emu, t ? VC4_V3D_CT1CA : VC4_V3D_CT0CA, ca);
    vc4_emu_reg_write(emu, t ? VC4_V3D_CT1EA : VC4_V3D_CT0EA, ea);
    return vc4_emu_run(emu, 0);
}

#define CTRUN (1u << 5)
#define CTERR (1u << 3)

static void test_start_halt_nop(void)
{
    struct vc4_emu *emu = mk();
    const uint8_t list[] = {1, 1, 0, 1, 1}; /* NOP NOP Halt NOP NOP */
    put(emu, L0, list, sizeof list);
    /* CA == EA: nothing runs */
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, L0);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CS) & CTRUN, 0);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, L0 + 5);
    CHECK(reg(emu, VC4_V3D_CT1CS) & CTRUN); /* the end address started it */
    CHECK_EQ_U64(reg(emu, VC4_V3D_PCS) & 0xC, 0xC); /* RMACTIVE, RMBUSY */
    CHECK(vc4_emu_run(emu, 0) == VC4_OK);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CS) & (CTRUN | CTERR), 0);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CA), L0 + 3); /* stopped after the Halt */
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1EA), L0 + 5);
    CHECK_EQ_U64(reg(emu, VC4_V3D_PCS) & 0xF, 0);
    /* the rest of the list: runs to EA */
    CHECK(start(emu, 1, L0 + 3, L0 + 5) == VC4_OK);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CA), L0 + 5);
    CHECK_EQ_INT(hd.errors, 0);
    vc4_emu_destroy(emu);
}

static void test_branch_and_sublists(void)
{
    struct vc4_emu *emu = mk();
    /* L0: Branch to L1.  L1: sub-list L2, NOP, Halt.  L2: sub-list L3,
     * Return.  L3: Return. */
    const uint8_t a[] = {16, 0x00, 0x00, 0x02, 0x00};
    const uint8_t b[] = {17, 0x00, 0x00, 0x03, 0x00, 1, 0};
    const uint8_t c[] = {17, 0x00, 0x00, 0x04, 0x00, 18};
    const uint8_t d[] = {18};
    put(emu, L0, a, sizeof a);
    put(emu, L1, b, sizeof b);
    put(emu, L2, c, sizeof c);
    put(emu, L3, d, sizeof d);
    CHECK(start(emu, 1, L0, L0 + 0x100) == VC4_OK);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CA), L1 + 7);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CS) & (CTRUN | CTERR | 0x310), 0); /* stack empty again */
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT01RA0), L1 + 5);
    CHECK_EQ_INT(hd.errors, 0);

    /* three levels: the return stack holds 2 [PL] */
    const uint8_t e[] = {17, 0x00, 0x00, 0x04, 0x00, 18};
    const uint8_t f[] = {17, 0x00, 0x01, 0x04, 0x00, 18}; /* L3 -> L3 + 0x100 */
    put(emu, L3, f, sizeof f);
    put(emu, L2, e, sizeof e);
    CHECK(start(emu, 1, L1, L1 + 7) == VC4_ERR_FAULT);
    uint32_t cs = reg(emu, VC4_V3D_CT1CS);
    CHECK(cs & CTERR);
    CHECK_EQ_U64((cs >> 8) & 3, 2); /* CTRTSD */
    CHECK(cs & (1u << 4));          /* CTSUBS */
    CHECK_CONTAINS(hd.text, "ct1: 0x00040000: error: Branch to Sub-list (sub-list offset 0): sub-lists nest deeper");

    /* Return with an empty stack is ignored [PL] */
    const uint8_t g[] = {18, 1, 0};
    put(emu, L0, g, sizeof g);
    hd = (struct harness_diags){0};
    CHECK(start(emu, 1, L0, L0 + 3) == VC4_OK);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CS) & (CTRUN | CTERR), 0);
    vc4_emu_destroy(emu);
}

/* Wait on Semaphore: CT1 stalls until CT0's Increment fires, which is
 * after CT0's following Flush (facts §1). */
static void test_semaphore(void)
{
    struct vc4_emu *emu = mk();
    const uint8_t wait[] = {8, 1, 0}; /* Wait, NOP, Halt */
    put(emu, L1, wait, sizeof wait);
    CHECK(start(emu, 1, L1, L1 + 3) == VC4_OK); /* idle: nothing can go on */
    CHECK(reg(emu, VC4_V3D_CT1CS) & CTRUN);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CA), L1);

    /* a binning list: Tile Binning Mode Configuration, Start, Increment,
     * NOP (the semaphore is still queued: CT1 must not have moved), Flush */
    struct vc4_cl cl;
    struct vc4_diag_sink sink = harness_sink(&hd);
    vc4_cl_init(&cl, NULL, L0, &sink);
    struct vc4_cl_tile_binning_mode_config bc = {.tile_alloc_addr = 0x100000, .tile_alloc_size = 0x10000,
                                                 .tsda_addr = 0x200000, .width_tiles = 1, .height_tiles = 1,
                                                 .auto_init_tsda = true};
    vc4_cl_tile_binning_mode_config(&cl, &bc);
    vc4_cl_start_tile_binning(&cl);
    vc4_cl_increment_semaphore(&cl);
    uint32_t before_flush = vc4_cl_addr(&cl);
    vc4_cl_flush(&cl);
    put(emu, L0, cl.data, cl.len);
    /* run CT0 up to the Flush only: the increment waits */
    CHECK(start(emu, 0, L0, before_flush) == VC4_OK);
    CHECK(reg(emu, VC4_V3D_CT1CS) & CTRUN);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CA), L1);
    CHECK_EQ_U64((reg(emu, VC4_V3D_CT0CS) >> 12) & 7, 0);
    /* the Flush: BFC, FLDONE, then the semaphore lets CT1 finish */
    vc4_emu_reg_write(emu, VC4_V3D_CT0EA, vc4_cl_addr(&cl));
    CHECK(vc4_emu_run(emu, 0) == VC4_OK);
    CHECK_EQ_U64(reg(emu, VC4_V3D_BFC), 1);
    CHECK(reg(emu, VC4_V3D_INTCTL) & 2);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CS) & (CTRUN | CTERR), 0);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CA), L1 + 3);
    CHECK_EQ_U64((reg(emu, VC4_V3D_CT1CS) >> 12) & 7, 0); /* taken */
    vc4_cl_free(&cl);

    /* in the rendering list, Increment counts at once */
    const uint8_t self[] = {7, 8, 0};
    put(emu, L2, self, sizeof self);
    CHECK(start(emu, 1, L2, L2 + 3) == VC4_OK);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CS) & (CTRUN | CTERR), 0);
    /* INTCTL is write-1-to-clear */
    vc4_emu_reg_write(emu, VC4_V3D_INTCTL, 2);
    CHECK_EQ_U64(reg(emu, VC4_V3D_INTCTL) & 2, 0);
    CHECK_EQ_INT(hd.errors, 0);
    vc4_emu_destroy(emu);
}

/* CTRSTA resets a thread (its stack, its stall). */
static void test_reset(void)
{
    struct vc4_emu *emu = mk();
    const uint8_t wait[] = {8, 0};
    put(emu, L1, wait, sizeof wait);
    CHECK(start(emu, 1, L1, L1 + 2) == VC4_OK);
    CHECK(reg(emu, VC4_V3D_CT1CS) & CTRUN);
    vc4_emu_reg_write(emu, VC4_V3D_CT1CS, 1u << 15);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CS) & (CTRUN | CTERR), 0);
    CHECK_EQ_U64(reg(emu, VC4_V3D_PCS) & 0xF, 0);
    vc4_emu_destroy(emu);
}

static void test_bad_lists(void)
{
    struct vc4_emu *emu = mk();
    /* an unknown opcode */
    const uint8_t unk[] = {1, 1, 0xEE};
    put(emu, L0, unk, sizeof unk);
    CHECK(start(emu, 1, L0, L0 + 3) == VC4_ERR_FAULT);
    CHECK_CONTAINS(hd.text, "ct1: 0x00010002: error: packet (list offset 2): unknown opcode 238");
    CHECK(reg(emu, VC4_V3D_CT1CS) & CTERR);
    CHECK_EQ_U64(reg(emu, VC4_V3D_CT1CA), L0 + 2);

    /* a packet cut by the end of memory */
    hd = (struct harness_diags){0};
    uint32_t end = vc4_emu_mem_size(emu);
    const uint8_t tc[] = {115, 1};
    put(emu, end - 2, tc, 2);
    CHECK(start(emu, 1, end - 2, end + 8) == VC4_ERR_FAULT);
    CHECK_CONTAINS(hd.text, "Tile Coordinates (list offset 0): the packet runs past the end of memory");

    /* a list outside memory, on CT0 */
    hd = (struct harness_diags){0};
    CHECK(start(emu, 0, 0x3F000000, 0x3F000010) == VC4_ERR_FAULT);
    CHECK_CONTAINS(hd.text, "ct0: 0x3f000000: error:");
    CHECK_CONTAINS(hd.text, "outside memory");

    /* a branch outside memory */
    hd = (struct harness_diags){0};
    const uint8_t br[] = {16, 0, 0, 0, 0x30};
    put(emu, L0, br, sizeof br);
    CHECK(start(emu, 1, L0, L0 + 5) == VC4_ERR_FAULT);
    CHECK_CONTAINS(hd.text, "ct1: 0x30000000: error:");

    /* a list that never ends: the cycle budget */
    hd = (struct harness_diags){0};
    const uint8_t loop[] = {1, 16, 0x00, 0x00, 0x01, 0x00}; /* NOP; Branch L0 */
    put(emu, L0, loop, sizeof loop);
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, L0);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, L0 + 6);
    CHECK(vc4_emu_run(emu, 5000) == VC4_ERR_TIMEOUT);
    CHECK_CONTAINS(hd.text, "cycle budget exhausted");
    /* continuing gives it another budget (the list still runs) */
    CHECK(vc4_emu_run(emu, 100) == VC4_ERR_TIMEOUT);
    vc4_emu_reg_write(emu, VC4_V3D_CT1CS, 1u << 15);

    /* missing configuration: a store before any Tile Rendering Mode
     * Configuration; primitives before any shader state */
    hd = (struct harness_diags){0};
    const uint8_t st[] = {115, 0, 0, 24};
    put(emu, L0, st, sizeof st);
    CHECK(start(emu, 1, L0, L0 + 4) == VC4_ERR_FAULT);
    CHECK_CONTAINS(hd.text, "ct1: 0x00010003: error: Store Multi-sample Resolved Tile Color Buffer (list offset 3): "
                            "no Tile Rendering Mode Configuration before it (missing configuration)");
    hd = (struct harness_diags){0};
    struct vc4_cl cl;
    struct vc4_diag_sink sink = harness_sink(&hd);
    vc4_cl_init(&cl, NULL, L0, &sink);
    struct vc4_cl_tile_rendering_mode_config tr = {.fb_addr = 0x100000, .width_px = 64, .height_px = 64,
                                                   .color_format = VC4_CL_FB_RGBA8888};
    vc4_cl_tile_rendering_mode_config(&cl, &tr);
    struct vc4_cl_tile_coordinates t0 = {0, 0};
    vc4_cl_tile_coordinates(&cl, &t0);
    struct vc4_cl_vertex_array_primitives va = {.primitive_mode = VC4_CL_PRIM_TRIANGLES, .length = 3};
    vc4_cl_vertex_array_primitives(&cl, &va);
    put(emu, L0, cl.data, cl.len);
    CHECK(start(emu, 1, L0, vc4_cl_addr(&cl)) == VC4_ERR_FAULT);
    CHECK_CONTAINS(hd.text, "Vertex Array Primitives (list offset 14): no shader state before the primitives");
    vc4_cl_free(&cl);
    vc4_emu_destroy(emu);
}

/* A store with the last-tile bit ends the frame: RFC + 1, FRDONE. */
static void test_end_of_frame(void)
{
    struct vc4_emu *emu = mk();
    struct vc4_cl cl;
    struct vc4_diag_sink sink = harness_sink(&hd);
    vc4_cl_init(&cl, NULL, L0, &sink);
    struct vc4_cl_tile_rendering_mode_config tr = {.fb_addr = 0x100000, .width_px = 64, .height_px = 64,
                                                   .color_format = VC4_CL_FB_RGBA8888};
    vc4_cl_tile_rendering_mode_config(&cl, &tr);
    struct vc4_cl_tile_coordinates t0 = {0, 0};
    vc4_cl_tile_coordinates(&cl, &t0);
    struct vc4_cl_store_tile_buffer_general sg = {.buffer = VC4_CL_BUF_COLOR, .address = 0x100000, .last_tile = true};
    vc4_cl_store_tile_buffer_general(&cl, &sg);
    vc4_cl_tile_coordinates(&cl, &t0);
    vc4_cl_store_ms_tile_buffer_and_eof(&cl);
    put(emu, L0, cl.data, cl.len);
    CHECK(start(emu, 1, L0, vc4_cl_addr(&cl)) == VC4_OK);
    CHECK_EQ_U64(reg(emu, VC4_V3D_RFC), 2);
    CHECK_EQ_U64(reg(emu, VC4_V3D_INTCTL) & 1, 1);
    struct vc4_emu_frame f;
    vc4_emu_render_frame(emu, &f);
    CHECK(f.valid && f.frames == 2 && f.width == 64);
    CHECK_EQ_INT(hd.errors, 0);
    vc4_cl_free(&cl);
    vc4_emu_destroy(emu);
}

/* GL mode: a GL shader record outside memory stops CT1 with an error
 * naming the record (as an unreadable NV record does). */
static void test_gl_record_unreadable(void)
{
    struct vc4_emu *emu = mk();
    struct vc4_cl cl;
    struct vc4_diag_sink sink = harness_sink(&hd);
    vc4_cl_init(&cl, NULL, L0, &sink);
    struct vc4_cl_tile_rendering_mode_config tr = {.fb_addr = 0x100000, .width_px = 64, .height_px = 64,
                                                   .color_format = VC4_CL_FB_RGBA8888};
    vc4_cl_tile_rendering_mode_config(&cl, &tr);
    struct vc4_cl_tile_coordinates t0 = {0, 0};
    vc4_cl_tile_coordinates(&cl, &t0);
    struct vc4_cl_gl_shader_state gs = {.num_attr_arrays = 1, .record_addr = 0x0FFFFFF0};
    vc4_cl_gl_shader_state(&cl, &gs);
    struct vc4_cl_vertex_array_primitives va = {.primitive_mode = VC4_CL_PRIM_TRIANGLES, .length = 3};
    vc4_cl_vertex_array_primitives(&cl, &va);
    vc4_cl_vertex_array_primitives(&cl, &va);
    vc4_cl_store_ms_tile_buffer_and_eof(&cl);
    put(emu, L0, cl.data, cl.len);
    CHECK(start(emu, 1, L0, vc4_cl_addr(&cl)) == VC4_ERR_FAULT);
    CHECK_EQ_INT(hd.errors, 1);
    CHECK_CONTAINS(hd.text, "GL shader record 0x0ffffff0 (44 bytes for 1 attribute record(s)) is outside memory");
    CHECK_EQ_U64(reg(emu, VC4_V3D_RFC), 0);
    vc4_cl_free(&cl);
    vc4_emu_destroy(emu);
}

TEST_LIST(test_gl_record_unreadable, test_start_halt_nop, test_branch_and_sublists, test_semaphore, test_reset, test_bad_lists,
          test_end_of_frame)
