/*
 * test_ptb.c - the binner (src/emu/ptb.c): tile lists for binning control
 * lists built with the cl writer and executed packet by packet, as the CT0
 * executor does, then walked the way the rendering list does (branch into
 * tile allocation base + index x initial block size, follow Branch links,
 * stop at Return from sub-list).
 */
#include "harness.h"

#include <math.h>

#include "base/base.h"
#include "emu/ptb.h"
#include "emu/tilelist.h"
#include "emu/v3d.h"
#include "vc4kit/cl.h"

/* ---- memory map of the tests ------------------------------------------------- */
enum {
    MEM_SIZE = 16u << 20,
    CL_ADDR = 0x00010000,
    NV_REC_ADDR = 0x00020000,
    VERT_ADDR = 0x00030000,
    INDEX_ADDR = 0x00100000,
    TSDA_ADDR = 0x00200000,
    TILE_ALLOC_ADDR = 0x00400000,
    TILE_ALLOC_SIZE = 0x00100000,
    OVERFLOW_ADDR = 0x00800000,
    VERT_STRIDE = 12, /* Xs/Ys, Zs, 1/Wc: seed 002's first record */
};

struct rig {
    struct vc4_emu *emu;
    struct vc4_v3d *v;
    struct harness_diags d;
    struct vc4_cl cl;
    size_t pos; /* next packet to execute */
};

static void rig_init(struct rig *r)
{
    memset(r, 0, sizeof *r);
    struct vc4_emu_options o = {.mem_size = MEM_SIZE, .num_qpus = 1};
    o.sink = harness_sink(&r->d);
    r->emu = vc4_emu_create(&o);
    r->v = &r->emu->v3d;
    vc4_cl_init(&r->cl, NULL, CL_ADDR, NULL);
}

static void rig_fini(struct rig *r)
{
    vc4_cl_free(&r->cl);
    vc4_emu_destroy(r->emu);
}

/* Execute the list from r->pos; stop at a stall (r->pos stays at the
 * stalled packet) or the end.  Counts ERROR results in *errors. */
static enum vc4_ptb_result rig_run(struct rig *r, unsigned *errors)
{
    struct vc4_cl_reader rd;
    struct vc4_cl_packet_view pk;
    vc4_cl_reader_init(&rd, r->cl.data, r->cl.len);
    rd.pos = r->pos;
    while (vc4_cl_next(&rd, &pk)) {
        if (!vc4_ptb_handles(pk.opcode)) {
            r->pos = rd.pos;
            continue;
        }
        enum vc4_ptb_result res = vc4_ptb_packet(r->v, &pk, CL_ADDR + (uint32_t)pk.offset);
        if (res == VC4_PTB_STALL) {
            r->pos = pk.offset;
            return res;
        }
        if (res == VC4_PTB_ERROR && errors)
            (*errors)++;
        r->pos = rd.pos;
    }
    return VC4_PTB_DONE;
}

static void put_vertex(struct rig *r, uint32_t index, int32_t x_1_16px, int32_t y_1_16px)
{
    uint8_t b[VERT_STRIDE];
    vc4_st16(b, (uint16_t)(int16_t)x_1_16px);
    vc4_st16(b + 2, (uint16_t)(int16_t)y_1_16px);
    vc4_st32(b + 4, vc4_f2u(0.5f));
    vc4_st32(b + 8, vc4_f2u(1.0f));
    CHECK_EQ_INT(vc4_emu_mem_write(r->emu, VERT_ADDR + index * VERT_STRIDE, b, sizeof b), VC4_OK);
}
static void put_vertex_px(struct rig *r, uint32_t index, int x, int y)
{
    put_vertex(r, index, x * 16, y * 16);
}

static void put_nv_record(struct rig *r)
{
    struct vc4_cl_nv_shader_record rec = {.vertex_stride = VERT_STRIDE, .fs_code_addr = 0x1000,
                                          .vertex_data_addr = VERT_ADDR};
    uint8_t b[16];
    CHECK_EQ_INT(vc4_cl_nv_shader_record_pack(&rec, b, NULL), VC4_OK);
    vc4_emu_mem_write(r->emu, NV_REC_ADDR, b, sizeof b);
}

struct setup {
    unsigned wt, ht;               /* tiles */
    unsigned init_block, block;    /* enum vc4_cl_block_size */
    uint32_t tile_alloc_size;
    bool no_clip;                  /* no Clip Window packet */
    struct vc4_cl_configuration_bits config;
};

static struct setup default_setup(void)
{
    struct setup s = {.wt = 10, .ht = 8, .init_block = VC4_CL_BLOCK_32, .block = VC4_CL_BLOCK_128,
                      .tile_alloc_size = TILE_ALLOC_SIZE};
    s.config.enable_forward_facing = true;
    s.config.enable_reverse_facing = true;
    return s;
}

/* The bin CL prologue Mesa / the seeds' NV examples emit (facts §3.5). */
static void prologue(struct rig *r, const struct setup *s)
{
    struct vc4_cl_tile_binning_mode_config cfg = {
        .tile_alloc_addr = TILE_ALLOC_ADDR, .tile_alloc_size = s->tile_alloc_size,
        .tsda_addr = TSDA_ADDR, .width_tiles = s->wt, .height_tiles = s->ht,
        .auto_init_tsda = true, .initial_block_size = s->init_block, .block_size = s->block};
    CHECK_EQ_INT(vc4_cl_tile_binning_mode_config(&r->cl, &cfg), VC4_OK);
    vc4_cl_start_tile_binning(&r->cl);
    if (!s->no_clip) {
        struct vc4_cl_clip_window cw = {0, 0, s->wt * 64, s->ht * 64};
        vc4_cl_clip_window(&r->cl, &cw);
    }
    vc4_cl_configuration_bits(&r->cl, &s->config);
    struct vc4_cl_viewport_offset vo = {0, 0};
    vc4_cl_viewport_offset(&r->cl, &vo);
    struct vc4_cl_nv_shader_state nv = {.record_addr = NV_REC_ADDR};
    vc4_cl_nv_shader_state(&r->cl, &nv);
    put_nv_record(r);
}

/* A rig with the default prologue for a frame of wt x ht tiles. */
static void rig_start(struct rig *r, unsigned wt, unsigned ht)
{
    rig_init(r);
    struct setup s = default_setup();
    s.wt = wt;
    s.ht = ht;
    prologue(r, &s);
}

/* The same with the Clip Window cw instead of the frame's. */
static void rig_start_clipped(struct rig *r, unsigned wt, unsigned ht, struct vc4_cl_clip_window cw)
{
    rig_init(r);
    struct setup s = default_setup();
    s.no_clip = true;
    s.wt = wt;
    s.ht = ht;
    prologue(r, &s);
    vc4_cl_clip_window(&r->cl, &cw);
}

static void array(struct rig *r, unsigned mode, uint32_t len, uint32_t first)
{
    struct vc4_cl_vertex_array_primitives a = {.primitive_mode = mode, .length = len,
                                               .first_index = first};
    CHECK_EQ_INT(vc4_cl_vertex_array_primitives(&r->cl, &a), VC4_OK);
}

/* ---- the tile-list walker (what the rendering list does) ---------------------- */

enum { WALK_MAX_PRIMS = 8192, WALK_MAX_STATE = 256 };
struct walked {
    unsigned nprims;
    struct vc4_tl_prim prims[WALK_MAX_PRIMS];
    struct vc4_tl_clip_info clip[WALK_MAX_PRIMS]; /* record_addr 0 = a 48 primitive */
    unsigned nstate;
    uint8_t state[WALK_MAX_STATE];  /* opcodes of the other packets, in order */
    unsigned branches;
    uint32_t branch_to[64];
    bool returned;
    bool broken;
};

static bool walk(struct vc4_v3d *v, uint32_t addr, struct walked *w)
{
    memset(w, 0, sizeof *w);
    for (int steps = 0; steps < 100000; steps++) {
        uint32_t off;
        if (!vc4_mem_span(&v->mem, addr, 1, &off)) {
            w->broken = true;
            return false;
        }
        const uint8_t *p = v->mem.ram + off;
        size_t avail = v->mem.size - off, len = 0;
        uint8_t op = p[0];
        if (op == VC4_CL_COMPRESSED_PRIMITIVE_LIST || op == VC4_CL_CLIPPED_PRIMITIVE) {
            struct vc4_tl_reader rd;
            struct vc4_tl_prim pr;
            enum vc4_tl_status st = vc4_tl_begin(&rd, p, avail);
            while (st == VC4_TL_OK && (st = vc4_tl_next(&rd, &pr)) == VC4_TL_OK)
                if (w->nprims < WALK_MAX_PRIMS) {
                    w->clip[w->nprims] = rd.clip;
                    w->prims[w->nprims++] = pr;
                }
            if (st != VC4_TL_END) {
                w->broken = true;
                return false;
            }
            len = rd.pos;
        } else {
            if (vc4_cl_packet_length(p, avail, &len) != VC4_CL_LEN_OK) {
                w->broken = true;
                return false;
            }
            if (op == VC4_CL_RETURN_FROM_SUB_LIST) {
                w->returned = true;
                return true;
            }
            if (op == VC4_CL_BRANCH) {
                uint32_t to = vc4_le32(p + 1);
                if (w->branches < 64)
                    w->branch_to[w->branches] = to;
                w->branches++;
                addr = to;
                continue;
            }
            if (w->nstate < WALK_MAX_STATE)
                w->state[w->nstate++] = op;
        }
        addr += (uint32_t)len;
    }
    w->broken = true;
    return false;
}

static uint32_t tile_addr(unsigned x, unsigned y, unsigned wt, unsigned init_bytes)
{
    return TILE_ALLOC_ADDR + (y * wt + x) * init_bytes;
}

static bool has_state(const struct walked *w, uint8_t op)
{
    for (unsigned i = 0; i < w->nstate; i++)
        if (w->state[i] == op)
            return true;
    return false;
}

static uint32_t reg(struct rig *r, uint32_t off)
{
    uint32_t val = 0;
    vc4_emu_reg_read(r->emu, off, &val);
    return val;
}

/* ---- tests ------------------------------------------------------------------------ */

static void test_single_triangle_640x480(void)
{
    struct rig r;
    rig_init(&r);
    struct setup s = default_setup();
    prologue(&r, &s);
    /* bounding box x 100..300 px, y 50..200 px: tiles x 1..4, y 0..3 */
    put_vertex_px(&r, 0, 200, 50);
    put_vertex_px(&r, 1, 300, 200);
    put_vertex_px(&r, 2, 100, 200);
    array(&r, VC4_CL_PRIM_TRIANGLES, 3, 0);
    vc4_cl_flush(&r.cl);
    unsigned errors = 0;
    CHECK_EQ_INT(rig_run(&r, &errors), VC4_PTB_DONE);
    CHECK_EQ_INT(errors, 0);
    CHECK_EQ_INT(r.d.errors + r.d.warnings, 0);
    static struct walked w;
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 10; x++) {
            uint32_t a = tile_addr(x, y, 10, 32);
            CHECK_EQ_U64(vc4_ptb_tile_list_addr(&r.v->ptb, x, y), a);
            CHECK(walk(r.v, a, &w));
            CHECK(w.returned);
            bool inside = x >= 1 && x <= 4 && y <= 3;
            CHECK_MSG(w.nprims == (inside ? 1u : 0u), "tile %u,%u: %u primitives", x, y, w.nprims);
            if (inside && w.nprims == 1) {
                CHECK_EQ_INT(w.prims[0].nverts, 3);
                CHECK_EQ_U64(w.prims[0].index[0], 0);
                CHECK_EQ_U64(w.prims[0].index[1], 1);
                CHECK_EQ_U64(w.prims[0].index[2], 2);
                /* the state the render side needs comes before it */
                CHECK(has_state(&w, VC4_CL_NV_SHADER_STATE));
                CHECK(has_state(&w, VC4_CL_CLIP_WINDOW));
                CHECK(has_state(&w, VC4_CL_CONFIGURATION_BITS));
                CHECK(has_state(&w, VC4_CL_VIEWPORT_OFFSET));
                CHECK(has_state(&w, VC4_CL_PRIMITIVE_LIST_FORMAT));
            }
        }
    /* Flush: BFC counts it, FLDONE raised (facts §1, §4.2) */
    CHECK_EQ_U64(reg(&r, VC4_V3D_BFC), 1);
    CHECK(reg(&r, VC4_V3D_INTCTL) & (1u << 1));
    CHECK_EQ_U64(r.v->ptb.stats.prims_binned, 1);
    CHECK_EQ_U64(r.v->ptb.stats.tile_writes, 16);
    rig_fini(&r);
}

/* Every primitive of one packet in one big tile: the decomposition. */
struct mode_case {
    unsigned mode, len;
    unsigned nprims;
    uint32_t v[8][3];
};

static const struct mode_case mode_cases[] = {
    {VC4_CL_PRIM_POINTS, 3, 3, {{0}, {1}, {2}}},
    {VC4_CL_PRIM_LINES, 5, 2, {{0, 1}, {2, 3}}},
    {VC4_CL_PRIM_LINE_LOOP, 4, 4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}},
    {VC4_CL_PRIM_LINE_STRIP, 4, 3, {{0, 1}, {1, 2}, {2, 3}}},
    {VC4_CL_PRIM_TRIANGLES, 7, 2, {{0, 1, 2}, {3, 4, 5}}},
    {VC4_CL_PRIM_TRIANGLE_STRIP, 5, 3, {{0, 1, 2}, {2, 1, 3}, {2, 3, 4}}},
    {VC4_CL_PRIM_TRIANGLE_FAN, 5, 3, {{0, 1, 2}, {0, 2, 3}, {0, 3, 4}}},
    {VC4_CL_PRIM_LINE_LOOP, 1, 0, {{0}}},
    {VC4_CL_PRIM_TRIANGLE_STRIP, 2, 0, {{0}}},
};

/* Vertices on a convex curve: no three collinear, so no zero-area
 * triangle whatever the order. */
static void put_curve(struct rig *r, uint32_t base, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        put_vertex(r, base + i, 100 + 60 * (int)i, 40 + 3 * (int)(i * i));
}

static void check_mode_case(const struct mode_case *mc, const struct walked *w, uint32_t (*map)(uint32_t))
{
    CHECK_MSG(w->nprims == mc->nprims, "mode %u len %u: %u primitives, want %u", mc->mode, mc->len,
              w->nprims, mc->nprims);
    for (unsigned k = 0; k < mc->nprims && k < w->nprims; k++) {
        unsigned nv = mc->mode == VC4_CL_PRIM_POINTS ? 1 : mc->mode <= VC4_CL_PRIM_LINE_STRIP ? 2 : 3;
        CHECK_EQ_INT(w->prims[k].nverts, nv);
        for (unsigned i = 0; i < nv; i++)
            CHECK_MSG(w->prims[k].index[i] == map(mc->v[k][i]), "mode %u prim %u vertex %u: %u != %u",
                      mc->mode, k, i, w->prims[k].index[i], map(mc->v[k][i]));
    }
}

static uint32_t plus_first(uint32_t i) { return i + 20; }

static void test_every_mode_vertex_array(void)
{
    static struct walked w;
    for (size_t c = 0; c < VC4_ARRAY_SIZE(mode_cases); c++) {
        struct rig r;
        rig_init(&r);
        struct setup s = default_setup();
        s.wt = s.ht = 1;
        prologue(&r, &s);
        put_curve(&r, 20, 8);
        array(&r, mode_cases[c].mode, mode_cases[c].len, 20);
        vc4_cl_flush(&r.cl);
        CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
        CHECK(walk(r.v, TILE_ALLOC_ADDR, &w));
        check_mode_case(&mode_cases[c], &w, plus_first);
        CHECK_EQ_INT(r.d.errors, 0);
        rig_fini(&r);
    }
}

/* An index buffer whose entries are index_of(position). */
static uint32_t idx8(uint32_t pos) { return 200 - 7 * pos; }
static uint32_t idx16(uint32_t pos) { return 1000 + 97 * pos; }

static void run_indexed(bool wide)
{
    static struct walked w;
    for (size_t c = 0; c < VC4_ARRAY_SIZE(mode_cases); c++) {
        const struct mode_case *mc = &mode_cases[c];
        struct rig r;
        rig_init(&r);
        struct setup s = default_setup();
        s.wt = s.ht = 1;
        prologue(&r, &s);
        uint32_t (*map)(uint32_t) = wide ? idx16 : idx8;
        for (uint32_t i = 0; i < mc->len; i++) {
            /* vertex map(i) on the curve at place i */
            put_vertex(&r, map(i), 100 + 60 * (int)i, 40 + 3 * (int)(i * i));
            uint8_t b[2];
            vc4_st16(b, (uint16_t)map(i));
            vc4_emu_mem_write(r.emu, INDEX_ADDR + i * (wide ? 2 : 1), b, wide ? 2 : 1);
        }
        struct vc4_cl_indexed_primitive_list ip = {
            .primitive_mode = mc->mode, .index_type = wide ? VC4_CL_INDEX_16BIT : VC4_CL_INDEX_8BIT,
            .length = mc->len, .index_addr = INDEX_ADDR, .max_index = wide ? 0xFFFF : 0xFF};
        vc4_cl_indexed_primitive_list(&r.cl, &ip);
        vc4_cl_flush(&r.cl);
        CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
        CHECK(walk(r.v, TILE_ALLOC_ADDR, &w));
        check_mode_case(mc, &w, map);
        CHECK_EQ_INT(r.d.errors, 0);
        rig_fini(&r);
    }
}

static void test_every_mode_indexed_8bit(void) { run_indexed(false); }
static void test_every_mode_indexed_16bit(void) { run_indexed(true); }

static void test_max_index_and_array_index_16bit(void)
{
    static struct walked w;
    struct rig r;
    rig_init(&r);
    struct setup s = default_setup();
    s.wt = s.ht = 1;
    prologue(&r, &s);
    /* indices 5, 6, 7 then 5, 6, 9: max index 8 drops the second triangle */
    const uint8_t idx[] = {5, 6, 7, 5, 6, 9};
    vc4_emu_mem_write(r.emu, INDEX_ADDR, idx, sizeof idx);
    put_curve(&r, 5, 5);
    struct vc4_cl_indexed_primitive_list ip = {.primitive_mode = VC4_CL_PRIM_TRIANGLES,
                                               .index_type = VC4_CL_INDEX_8BIT, .length = 6,
                                               .index_addr = INDEX_ADDR, .max_index = 8};
    vc4_cl_indexed_primitive_list(&r.cl, &ip);
    /* a vertex array past 65535: binned with vertices 70000.., listed in
     * 16 bits (GFXH-515: "The binner emits 16 bit indices for drawarrays") */
    put_curve(&r, 70000, 3);
    array(&r, VC4_CL_PRIM_TRIANGLES, 3, 70000);
    vc4_cl_flush(&r.cl);
    CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
    CHECK(walk(r.v, TILE_ALLOC_ADDR, &w));
    CHECK_EQ_INT(w.nprims, 2);
    CHECK_EQ_U64(w.prims[0].index[2], 7);
    CHECK_EQ_U64(w.prims[1].index[0], 70000 - 65536);
    CHECK_EQ_U64(w.prims[1].index[2], 70002 - 65536);
    CHECK_EQ_INT(r.d.warnings, 2);
    CHECK_CONTAINS(r.d.text, "Vertex Array Primitives: vertices 70000..70002: the binner writes vertex numbers "
                             "into the tile lists in 16 bits (GFXH-515), so vertex n is rendered as vertex n "
                             "mod 65536 [bin-array-index-16bit;");
    CHECK_CONTAINS(r.d.text, "exceeds the maximum index 8");
    CHECK_CONTAINS(r.d.text, "Indexed Primitive List");
    CHECK_EQ_U64(r.v->ptb.stats.prims_bad, 1);
    rig_fini(&r);
}

/* Culling: forward/reverse enables and the clockwise bit (facts §3.4). */
static void test_culling_by_winding(void)
{
    static struct walked w;
    for (int cw_bit = 0; cw_bit < 2; cw_bit++)
        for (int fwd = 0; fwd < 2; fwd++)
            for (int rev = 0; rev < 2; rev++) {
                struct rig r;
                rig_init(&r);
                struct setup s = default_setup();
                s.wt = s.ht = 1;
                s.config.clockwise = cw_bit;
                s.config.enable_forward_facing = fwd;
                s.config.enable_reverse_facing = rev;
                prologue(&r, &s);
                /* triangle 0: (10,10) (10,50) (50,50): counter-clockwise on
                 * the Y-down screen (area2 < 0); triangle 1: the other way */
                put_vertex_px(&r, 0, 10, 10);
                put_vertex_px(&r, 1, 10, 50);
                put_vertex_px(&r, 2, 50, 50);
                put_vertex_px(&r, 3, 10, 10);
                put_vertex_px(&r, 4, 50, 50);
                put_vertex_px(&r, 5, 10, 50);
                /* and a zero-area one: always dropped */
                put_vertex_px(&r, 6, 10, 10);
                put_vertex_px(&r, 7, 20, 20);
                put_vertex_px(&r, 8, 30, 30);
                array(&r, VC4_CL_PRIM_TRIANGLES, 9, 0);
                vc4_cl_flush(&r.cl);
                CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
                CHECK(walk(r.v, TILE_ALLOC_ADDR, &w));
                /* screen-CCW triangles are forward-facing when the bit is set
                 * (Mesa sets it for gallium's front_ccw) */
                bool t0_forward = cw_bit, t1_forward = !cw_bit;
                bool keep0 = t0_forward ? fwd : rev, keep1 = t1_forward ? fwd : rev;
                unsigned want = (unsigned)keep0 + (unsigned)keep1;
                CHECK_MSG(w.nprims == want, "cw %d fwd %d rev %d: %u primitives, want %u", cw_bit,
                          fwd, rev, w.nprims, want);
                if (w.nprims >= 1)
                    CHECK_EQ_U64(w.prims[0].index[0], keep0 ? 0 : 3);
                CHECK_EQ_U64(r.v->ptb.stats.prims_culled, 2 - want);
                CHECK_EQ_U64(r.v->ptb.stats.prims_zero_area, 1);
                rig_fini(&r);
            }
}

/* Block chaining: lists outgrowing the initial 32-byte block continue in
 * blocks from the pool after the 256-byte-rounded initial region, linked
 * with Branch (facts §4.1). */
static void test_block_chaining(void)
{
    static struct walked w;
    const unsigned sizes[][2] = {{VC4_CL_BLOCK_32, VC4_CL_BLOCK_32}, {VC4_CL_BLOCK_32, VC4_CL_BLOCK_128},
                                 {VC4_CL_BLOCK_64, VC4_CL_BLOCK_256}, {VC4_CL_BLOCK_256, VC4_CL_BLOCK_64}};
    for (size_t c = 0; c < VC4_ARRAY_SIZE(sizes); c++) {
        struct rig r;
        rig_init(&r);
        struct setup s = default_setup();
        s.wt = 3;
        s.ht = 1;
        s.init_block = sizes[c][0];
        s.block = sizes[c][1];
        prologue(&r, &s);
        /* 300 small triangles in tile 1 (x 64..127), strips of pairs */
        const unsigned n = 300;
        for (unsigned i = 0; i < 3 * n; i++)
            put_vertex_px(&r, i, 70 + (int)(i % 3) * 10 + (int)(i / 3) % 30, 10 + (int)(i % 3 == 2) * 20);
        /* one triangle covering every tile, before and after */
        put_vertex_px(&r, 1000, 1, 1);
        put_vertex_px(&r, 1001, 190, 1);
        put_vertex_px(&r, 1002, 1, 60);
        array(&r, VC4_CL_PRIM_TRIANGLES, 3, 1000);
        array(&r, VC4_CL_PRIM_TRIANGLES, 3 * n, 0);
        array(&r, VC4_CL_PRIM_TRIANGLES, 3, 1000);
        vc4_cl_flush(&r.cl);
        CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
        CHECK_EQ_INT(r.d.errors, 0);
        unsigned init = 32u << sizes[c][0], blk = 32u << sizes[c][1];
        uint32_t pool = TILE_ALLOC_ADDR + (3 * init + 255) / 256 * 256;
        CHECK(walk(r.v, tile_addr(1, 0, 3, init), &w));
        CHECK(w.returned);
        CHECK_EQ_INT(w.nprims, n + 2);
        CHECK_EQ_U64(w.prims[0].index[0], 1000);
        CHECK_EQ_U64(w.prims[n + 1].index[0], 1000);
        bool order = true;
        for (unsigned k = 0; k < n && k + 1 < w.nprims; k++)
            order &= w.prims[k + 1].index[0] == 3 * k && w.prims[k + 1].index[2] == 3 * k + 2;
        CHECK(order);
        CHECK(w.branches > 0);
        for (unsigned b = 0; b < w.branches && b < 64; b++)
            CHECK_MSG(w.branch_to[b] >= pool && (w.branch_to[b] - pool) % blk == 0 &&
                          w.branch_to[b] + blk <= TILE_ALLOC_ADDR + TILE_ALLOC_SIZE,
                      "branch %u to 0x%08x (pool 0x%08x, block %u)", b, w.branch_to[b], pool, blk);
        /* the other tiles hold just the big triangles */
        CHECK(walk(r.v, tile_addr(0, 0, 3, init), &w));
        CHECK_EQ_INT(w.nprims, 2);
        CHECK(walk(r.v, tile_addr(2, 0, 3, init), &w));
        CHECK_EQ_INT(w.nprims, 2);
        CHECK(r.v->ptb.stats.blocks > 0);
        /* BPCA/BPCS mirror the pool */
        CHECK_EQ_U64(reg(&r, VC4_V3D_BPCA), pool + r.v->ptb.stats.blocks * blk);
        CHECK_EQ_U64(reg(&r, VC4_V3D_BPCA) + reg(&r, VC4_V3D_BPCS), TILE_ALLOC_ADDR + TILE_ALLOC_SIZE);
        rig_fini(&r);
    }
}

/* Overflow: tile allocation memory runs out -> BPOA/BPOS memory; that runs
 * out -> OUTOMEM + PCS.BMOOM and a stall until the host writes BPOA/BPOS,
 * after which binning resumes where it stopped (facts §4.1, §11). */
static void test_overflow_and_outomem(void)
{
    static struct walked w;
    struct rig r;
    rig_init(&r);
    struct setup s = default_setup();
    s.wt = 2;
    s.ht = 2;
    s.init_block = VC4_CL_BLOCK_32;
    s.block = VC4_CL_BLOCK_64;
    s.tile_alloc_size = 256 + 2 * 64; /* initial region + two blocks */
    prologue(&r, &s);
    vc4_emu_reg_write(r.emu, VC4_V3D_BPOA, OVERFLOW_ADDR);
    vc4_emu_reg_write(r.emu, VC4_V3D_BPOS, 4 * 64);
    const unsigned n = 400;
    /* triangles covering all four tiles */
    put_vertex_px(&r, 0, 10, 10);
    put_vertex_px(&r, 1, 120, 10);
    put_vertex_px(&r, 2, 10, 120);
    for (unsigned i = 0; i < n; i++)
        array(&r, VC4_CL_PRIM_TRIANGLES, 3, 0);
    vc4_cl_flush(&r.cl);
    unsigned stalls = 0, errors = 0;
    uint32_t next_overflow = OVERFLOW_ADDR + 0x10000;
    enum vc4_ptb_result res;
    while ((res = rig_run(&r, &errors)) == VC4_PTB_STALL && stalls < 1000) {
        stalls++;
        CHECK(reg(&r, VC4_V3D_INTCTL) & (1u << 2));   /* OUTOMEM */
        CHECK(reg(&r, VC4_V3D_PCS) & (1u << 8));      /* BMOOM */
        /* calling again without new memory stalls again */
        if (stalls == 1) {
            size_t at = r.pos;
            CHECK_EQ_INT(rig_run(&r, &errors), VC4_PTB_STALL);
            CHECK_EQ_U64(r.pos, at);
        }
        /* the kernel's handler: new memory, then acknowledge OUTOMEM */
        vc4_emu_reg_write(r.emu, VC4_V3D_BPOA, next_overflow);
        vc4_emu_reg_write(r.emu, VC4_V3D_BPOS, 512);
        vc4_emu_reg_write(r.emu, VC4_V3D_INTCTL, 1u << 2);
        next_overflow += 0x1000;
    }
    CHECK_EQ_INT(res, VC4_PTB_DONE);
    CHECK_EQ_INT(errors, 0);
    CHECK(stalls > 2);
    CHECK_EQ_U64(r.v->ptb.stats.stalls, stalls);
    CHECK_EQ_U64(r.v->ptb.stats.overflows, stalls + 1);
    CHECK(!(reg(&r, VC4_V3D_PCS) & (1u << 8)));
    CHECK(!(reg(&r, VC4_V3D_INTCTL) & (1u << 2)));
    /* every tile got every triangle exactly once, through all the memory */
    for (unsigned t = 0; t < 4; t++) {
        CHECK(walk(r.v, TILE_ALLOC_ADDR + 32 * t, &w));
        CHECK(w.returned);
        CHECK_EQ_INT(w.nprims, n);
        bool in_overflow = false;
        for (unsigned b = 0; b < w.branches && b < 64; b++)
            in_overflow |= w.branch_to[b] >= OVERFLOW_ADDR;
        CHECK(in_overflow);
    }
    CHECK_EQ_U64(r.v->ptb.stats.prims_binned, n);
    CHECK_EQ_U64(reg(&r, VC4_V3D_BFC), 1);
    rig_fini(&r);
}

/* Vertices 0-2: a triangle over every pixel of a frame up to 500 pixels. */
static void frame_triangle(struct rig *r)
{
    put_vertex_px(r, 0, 0, 0);
    put_vertex_px(r, 1, 500, 0);
    put_vertex_px(r, 2, 0, 500);
    array(r, VC4_CL_PRIM_TRIANGLES, 3, 0);
}

static void test_clip_window_viewport_points_lines(void)
{
    static struct walked w;
    struct rig r;
    /* clip window: pixels 64..191 x 0..127 -> tiles x 1..2, y 0..1 */
    rig_start_clipped(&r, 4, 4, (struct vc4_cl_clip_window){64, 0, 128, 128});
    /* a triangle over the whole frame lands only in the clip window's tiles */
    frame_triangle(&r);
    /* viewport offset moves vertices: point at (10,10) + (180,70) = (190,80),
     * size 8 -> 186..194 x 76..84: tiles x 2 (and 3, clipped away), y 1 */
    struct vc4_cl_clip_window all = {0, 0, 256, 256};
    vc4_cl_clip_window(&r.cl, &all);
    struct vc4_cl_viewport_offset vo = {180 * 16, 70 * 16};
    vc4_cl_viewport_offset(&r.cl, &vo);
    struct vc4_cl_point_size ps = {8.0f};
    vc4_cl_point_size(&r.cl, &ps);
    put_vertex_px(&r, 3, 10, 10);
    array(&r, VC4_CL_PRIM_POINTS, 1, 3);
    /* a horizontal line y = 10 + 70 = 80 px, width 40: 60..100 -> rows 0 and 1 */
    struct vc4_cl_line_width lw = {40.0f};
    vc4_cl_line_width(&r.cl, &lw);
    put_vertex_px(&r, 4, -170, 10);
    put_vertex_px(&r, 5, -150, 10);
    array(&r, VC4_CL_PRIM_LINES, 2, 4);
    vc4_cl_flush(&r.cl);
    CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
    CHECK_EQ_INT(r.d.errors, 0);
    unsigned counts[4][4];
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++) {
            CHECK(walk(r.v, tile_addr(x, y, 4, 32), &w));
            counts[y][x] = w.nprims;
        }
    /* triangle: tiles (1,0) (2,0) (1,1) (2,1) */
    unsigned want[4][4] = {{0, 1, 1, 0}, {0, 1, 1, 0}, {0}, {0}};
    /* point: tiles x 2..3, y 1 */
    want[1][2]++;
    want[1][3]++;
    /* line 10..30 px wide 40: x -10..50 -> tile 0; y 60..100 -> rows 0, 1 */
    want[0][0]++;
    want[1][0]++;
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++)
            CHECK_MSG(counts[y][x] == want[y][x], "tile %u,%u: %u primitives, want %u", x, y,
                      counts[y][x], want[y][x]);
    /* points of size 0 are dropped (HW-2726) */
    rig_fini(&r);
}

/* A 0 x 0 Clip Window (Mesa's for a scissor of nothing, piglit's
 * gl-1.0-scissor-offscreen): vc4kit bins nothing, and warns that the
 * hardware does not clip everything away (cl-clip-window-empty). */
static void test_empty_clip_window_warns(void)
{
    static struct walked w;
    struct rig r;
    rig_start_clipped(&r, 4, 4, (struct vc4_cl_clip_window){0, 160, 0, 0});
    frame_triangle(&r);
    vc4_cl_flush(&r.cl);
    CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
    CHECK_EQ_INT(r.d.errors, 0);
    CHECK_EQ_INT(r.d.warnings, 1);
    CHECK_CONTAINS(r.d.text, "Clip Window of 0 x 0 pixels: the hardware does not clip everything away");
    CHECK_CONTAINS(r.d.text, "[cl-clip-window-empty;");
    unsigned prims = 0;
    for (unsigned y = 0; y < 4; y++)
        for (unsigned x = 0; x < 4; x++) {
            CHECK(walk(r.v, tile_addr(x, y, 4, 32), &w));
            prims += w.nprims;
        }
    CHECK_EQ_INT(prims, 0);
    rig_fini(&r);
}

/* A line loop of exactly 2 vertices: "A HW bug fails to draw 2-vert line
 * loops" (Mesa vc4_draw.c draws them as lines).  vc4kit bins nothing and
 * warns cl-line-loop-two; a loop of 3 is binned as 3 lines. */
static void test_line_loop_of_two(void)
{
    static struct walked w;
    for (unsigned n = 2; n <= 3; n++) {
        struct rig r;
        rig_start(&r, 2, 2);
        put_vertex_px(&r, 0, 10, 10);
        put_vertex_px(&r, 1, 40, 10);
        put_vertex_px(&r, 2, 40, 40);
        array(&r, VC4_CL_PRIM_LINE_LOOP, n, 0);
        vc4_cl_flush(&r.cl);
        CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
        CHECK(walk(r.v, tile_addr(0, 0, 2, 32), &w));
        CHECK_EQ_INT(w.nprims, n == 2 ? 0 : 3);
        CHECK_EQ_INT(r.d.warnings, n == 2 ? 1 : 0);
        if (n == 2)
            CHECK_CONTAINS(r.d.text, "a line loop of 2 vertices: the hardware fails to draw it; vc4kit draws "
                                     "nothing [cl-line-loop-two;");
        rig_fini(&r);
    }
}

/* HW-2116: the 0x1ef1st state update that follows a draw in one binning
 * job warns bin-state-counter-wrap; 0x1ef0, as many as Mesa's jobs have
 * (regression: piglit's gl-1.0-scissor-many, which passes on Pi 3s, was
 * warned at 0x1ef0), does not, nor do state packets that follow no draw. */
static void test_state_counter_wrap_warns(void)
{
    for (unsigned updates = 0x1ef0; updates <= 0x1ef1; updates++) {
        struct rig r;
        rig_start(&r, 2, 2); /* (its state packets follow Start Tile Binning: update 1) */
        put_vertex_px(&r, 0, 10, 10);
        struct vc4_cl_point_size ps = {4.0f};
        for (unsigned k = 1; k < updates; k++) {
            array(&r, VC4_CL_PRIM_POINTS, 1, 0);
            vc4_cl_point_size(&r.cl, &ps);
            vc4_cl_point_size(&r.cl, &ps); /* a second one after no draw: not counted */
        }
        array(&r, VC4_CL_PRIM_POINTS, 1, 0);
        vc4_cl_flush(&r.cl);
        CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
        CHECK_EQ_INT(r.d.errors, 0);
        CHECK_MSG(r.d.warnings == (updates == 0x1ef1 ? 1 : 0), "%u updates: %s", updates, r.d.text);
        if (updates == 0x1ef1)
            CHECK_CONTAINS(r.d.text, "more than 7920 state updates after draws in one binning job (Mesa's most): "
                                     "the hardware's state counters may wrap, and its wraparound handling is "
                                     "broken (HW-2116)");
        rig_fini(&r);
    }
}

static void test_flush_all_state_and_second_flush(void)
{
    static struct walked w;
    struct rig r;
    rig_init(&r);
    struct setup s = default_setup();
    s.wt = 2;
    s.ht = 1;
    prologue(&r, &s);
    struct vc4_cl_flat_shade_flags fs = {0x5};
    vc4_cl_flat_shade_flags(&r.cl, &fs);
    vc4_cl_flush_all_state(&r.cl);
    CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
    for (unsigned t = 0; t < 2; t++) {
        CHECK(walk(r.v, TILE_ALLOC_ADDR + 32 * t, &w));
        CHECK(w.returned);
        CHECK(has_state(&w, VC4_CL_FLAT_SHADE_FLAGS));
        CHECK(has_state(&w, VC4_CL_NV_SHADER_STATE));
        CHECK_EQ_INT(w.nprims, 0);
    }
    /* more primitives after a flush continue the lists; a second Flush
     * terminates them again and counts again */
    put_vertex_px(&r, 0, 10, 10);
    put_vertex_px(&r, 1, 100, 10);
    put_vertex_px(&r, 2, 10, 50);
    array(&r, VC4_CL_PRIM_TRIANGLES, 3, 0);
    vc4_cl_flush(&r.cl);
    CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
    for (unsigned t = 0; t < 2; t++) {
        CHECK(walk(r.v, TILE_ALLOC_ADDR + 32 * t, &w));
        CHECK(w.returned);
        CHECK_EQ_INT(w.nprims, 1);
    }
    CHECK_EQ_U64(reg(&r, VC4_V3D_BFC), 2);
    rig_fini(&r);
}

/* Repeating the same state does not repeat it in the lists; a change does. */
static void test_state_changes_only(void)
{
    static struct walked w;
    struct rig r;
    rig_init(&r);
    struct setup s = default_setup();
    s.wt = s.ht = 1;
    prologue(&r, &s);
    put_curve(&r, 0, 3);
    struct vc4_cl_point_size ps = {2.0f};
    for (int i = 0; i < 3; i++) {
        vc4_cl_point_size(&r.cl, &ps);
        array(&r, VC4_CL_PRIM_TRIANGLES, 3, 0);
    }
    ps.point_size = 3.0f;
    vc4_cl_point_size(&r.cl, &ps);
    array(&r, VC4_CL_PRIM_TRIANGLES, 3, 0);
    vc4_cl_flush(&r.cl);
    CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
    CHECK(walk(r.v, TILE_ALLOC_ADDR, &w));
    CHECK_EQ_INT(w.nprims, 4);
    unsigned n = 0;
    for (unsigned i = 0; i < w.nstate; i++)
        n += w.state[i] == VC4_CL_POINT_SIZE;
    CHECK_EQ_INT(n, 2);
    rig_fini(&r);
}

static void test_bad_configurations(void)
{
    struct rig r;
    rig_init(&r);
    unsigned errors = 0;
    /* primitives and Start without configuration */
    vc4_cl_start_tile_binning(&r.cl);
    array(&r, VC4_CL_PRIM_TRIANGLES, 3, 0);
    /* TSDA outside memory */
    struct vc4_cl_tile_binning_mode_config cfg = {.tile_alloc_addr = TILE_ALLOC_ADDR,
                                                  .tile_alloc_size = TILE_ALLOC_SIZE,
                                                  .tsda_addr = MEM_SIZE - 16, .width_tiles = 4,
                                                  .height_tiles = 4, .auto_init_tsda = true};
    vc4_cl_tile_binning_mode_config(&r.cl, &cfg);
    /* tile allocation memory smaller than the initial blocks: a note, the
     * blocks are placed all the same (issue 11) */
    cfg.tsda_addr = TSDA_ADDR;
    cfg.tile_alloc_size = 100;
    vc4_cl_tile_binning_mode_config(&r.cl, &cfg);
    /* zero tiles */
    cfg.tile_alloc_size = TILE_ALLOC_SIZE;
    cfg.width_tiles = 0;
    vc4_cl_tile_binning_mode_config(&r.cl, &cfg);
    /* good config, but no shader state before primitives */
    cfg.width_tiles = 4;
    vc4_cl_tile_binning_mode_config(&r.cl, &cfg);
    vc4_cl_start_tile_binning(&r.cl);
    array(&r, VC4_CL_PRIM_TRIANGLES, 3, 0);
    /* NV record outside memory */
    struct vc4_cl_nv_shader_state nv = {.record_addr = MEM_SIZE};
    vc4_cl_nv_shader_state(&r.cl, &nv);
    array(&r, VC4_CL_PRIM_TRIANGLES, 3, 0);
    /* GL mode with its record outside memory */
    struct vc4_cl_gl_shader_state gl = {.record_addr = MEM_SIZE};
    vc4_cl_gl_shader_state(&r.cl, &gl);
    array(&r, VC4_CL_PRIM_TRIANGLES, 3, 0);
    /* vertex data outside memory */
    struct vc4_cl_nv_shader_record rec = {.vertex_stride = 12, .vertex_data_addr = MEM_SIZE - 20};
    uint8_t b[16];
    vc4_cl_nv_shader_record_pack(&rec, b, NULL);
    vc4_emu_mem_write(r.emu, NV_REC_ADDR, b, 16);
    nv.record_addr = NV_REC_ADDR;
    vc4_cl_nv_shader_state(&r.cl, &nv);
    struct vc4_cl_configuration_bits cb = {.enable_forward_facing = true, .enable_reverse_facing = true};
    vc4_cl_configuration_bits(&r.cl, &cb);
    array(&r, VC4_CL_PRIM_TRIANGLES, 30, 0);
    /* index list outside memory, bad primitive mode */
    struct vc4_cl_indexed_primitive_list ip = {.primitive_mode = VC4_CL_PRIM_POINTS,
                                               .index_type = VC4_CL_INDEX_16BIT, .length = 4,
                                               .index_addr = MEM_SIZE - 2, .max_index = 0xFFFF};
    vc4_cl_indexed_primitive_list(&r.cl, &ip);
    uint8_t bad_mode[] = {VC4_CL_VERTEX_ARRAY_PRIMITIVES, 9, 3, 0, 0, 0, 0, 0, 0, 0};
    vc4_cl_bytes(&r.cl, bad_mode, sizeof bad_mode);
    CHECK_EQ_INT(rig_run(&r, &errors), VC4_PTB_DONE);
    CHECK_EQ_INT(errors, 12);
    CHECK_CONTAINS(r.d.text, "ptb: 0x00010000: error: Start Tile Binning: no valid Tile Binning Mode Configuration");
    CHECK_CONTAINS(r.d.text, "tile state data array");
    CHECK_CONTAINS(r.d.text, "note: Tile Binning Mode Configuration: tile allocation memory 0x");
    CHECK_CONTAINS(r.d.text, "smaller than the 16 tiles' initial blocks (32 bytes each): they are placed past its end");
    CHECK_CONTAINS(r.d.text, "frame of 0 x 4 tiles");
    CHECK_CONTAINS(r.d.text, "no shader state before them");
    CHECK_CONTAINS(r.d.text, "NV shader record 0x01000000 is outside memory");
    CHECK_CONTAINS(r.d.text, "GL shader record 0x01000000 (100 bytes for 8 attribute record(s)) is outside memory");
    CHECK_CONTAINS(r.d.text, "the GL shader record could not be read: primitives dropped");
    CHECK_CONTAINS(r.d.text, "shaded vertex 1 cannot be read: primitive 0 dropped");
    CHECK_CONTAINS(r.d.text, "further problems in this packet not reported");
    CHECK_CONTAINS(r.d.text, "index 1 at 0x01000000 is outside memory");
    CHECK_CONTAINS(r.d.text, "primitive mode 9 does not exist");
    /* a truncated view never reads past it */
    struct vc4_cl_packet_view pk = {.opcode = VC4_CL_TILE_BINNING_MODE_CONFIG, .bytes = bad_mode,
                                    .length = 3};
    CHECK_EQ_INT(vc4_ptb_packet(r.v, &pk, 0x1234), VC4_PTB_ERROR);
    CHECK_CONTAINS(r.d.text, "Tile Binning Mode Configuration: truncated packet (3 of 16 bytes)");
    rig_fini(&r);
}

/* Runaway counts are bounded; nothing takes long. */
static void test_huge_counts_bounded(void)
{
    struct rig r;
    rig_init(&r);
    struct setup s = default_setup();
    prologue(&r, &s);
    /* 4 billion points, all at (0,0) outside a clip window of nothing */
    struct vc4_cl_clip_window cw = {0, 0, 0, 0};
    vc4_cl_clip_window(&r.cl, &cw);
    array(&r, VC4_CL_PRIM_POINTS, 0xFFFFFFFFu, 0);
    vc4_cl_flush(&r.cl);
    unsigned errors = 0;
    CHECK_EQ_INT(rig_run(&r, &errors), VC4_PTB_DONE);
    CHECK_EQ_INT(errors, 1);
    CHECK_CONTAINS(r.d.text, "more than the emulator's");
    CHECK_EQ_U64(r.v->ptb.stats.prims_in, 1u << 20);
    rig_fini(&r);
}

/* Garbage: random packets of every binner opcode with random payloads, over
 * random memory, never crash and always return. */
static void test_garbage_never_crashes(void)
{
    static const uint8_t ops[] = {
        VC4_CL_FLUSH, VC4_CL_FLUSH_ALL_STATE, VC4_CL_START_TILE_BINNING,
        VC4_CL_TILE_BINNING_MODE_CONFIG, VC4_CL_INDEXED_PRIMITIVE_LIST,
        VC4_CL_VERTEX_ARRAY_PRIMITIVES, VC4_CL_PRIMITIVE_LIST_FORMAT, VC4_CL_NV_SHADER_STATE,
        VC4_CL_GL_SHADER_STATE, VC4_CL_CONFIGURATION_BITS, VC4_CL_CLIP_WINDOW,
        VC4_CL_VIEWPORT_OFFSET, VC4_CL_POINT_SIZE, VC4_CL_LINE_WIDTH, VC4_CL_CLIPPER_XY_SCALING,
        VC4_CL_VG_INLINE_PRIMITIVES, VC4_CL_Z_CLIPPING_PLANES, VC4_CL_DEPTH_OFFSET};
    uint32_t x = 777;
    for (int round = 0; round < 40; round++) {
        struct vc4_emu_options o = {.mem_size = 1u << 20, .num_qpus = 1};
        struct vc4_emu *e = vc4_emu_create(&o);
        struct vc4_v3d *v = &e->v3d;
        static uint8_t junk[1u << 20];
        for (size_t i = 0; i < sizeof junk; i++) {
            x = x * 1103515245u + 12345u;
            junk[i] = (uint8_t)(x >> 16);
        }
        vc4_emu_mem_write(e, 0, junk, sizeof junk);
        for (int k = 0; k < 300; k++) {
            uint8_t b[32];
            x = x * 1103515245u + 12345u;
            b[0] = ops[(x >> 16) % sizeof ops];
            for (size_t i = 1; i < sizeof b; i++) {
                x = x * 1103515245u + 12345u;
                b[i] = (uint8_t)(x >> 16);
            }
            const struct vc4_cl_packet_desc *d = vc4_cl_packet(b[0]);
            /* keep counts small (bounded anyway) and addresses in memory half the time */
            if (b[0] == VC4_CL_VERTEX_ARRAY_PRIMITIVES || b[0] == VC4_CL_INDEXED_PRIMITIVE_LIST) {
                b[2] = b[3] = b[4] = 0;
                if (b[0] == VC4_CL_INDEXED_PRIMITIVE_LIST && (k & 1))
                    b[9] = 0;
            }
            if (b[0] == VC4_CL_TILE_BINNING_MODE_CONFIG && (k & 1)) {
                vc4_st32(b + 1, (x >> 8) & 0x7FFF0);
                vc4_st32(b + 5, 0x20000);
                vc4_st32(b + 9, 0x80000 + ((x >> 4) & 0xFFF0));
                b[13] = (uint8_t)(1 + b[13] % 40);
                b[14] = (uint8_t)(1 + b[14] % 40);
            }
            if ((b[0] == VC4_CL_NV_SHADER_STATE) && (k & 1))
                vc4_st32(b + 1, (x >> 4) & 0xFFFF0);
            struct vc4_cl_packet_view pk = {.opcode = b[0], .desc = d, .bytes = b,
                                            .length = (k % 7) ? d->length : (size_t)(x % 4),
                                            .offset = (size_t)k, .payload = b + 1};
            enum vc4_ptb_result res = vc4_ptb_packet(v, &pk, (uint32_t)k);
            if (res == VC4_PTB_STALL) {
                vc4_emu_reg_write(e, VC4_V3D_BPOA, (x >> 8) & 0xFFFFF);
                vc4_emu_reg_write(e, VC4_V3D_BPOS, (x >> 4) & 0xFFFF);
            }
            /* random TSDA damage between packets */
            if (v->ptb.configured && (k % 5) == 0) {
                uint32_t t = v->ptb.cfg.tsda_addr + (x % 64) * 4;
                vc4_emu_mem_write(e, t, &x, 4);
            }
        }
        vc4_emu_destroy(e);
    }
    CHECK(1);
}

/* Clipping (packet 49): NV vertices with the clip header and clipping
 * enabled, a 640x480 viewport. */
enum { CLIP_STRIDE = 28 };

static void put_clip_vertex(struct rig *r, uint32_t index, float xc, float yc, float zc, float wc)
{
    uint8_t b[CLIP_STRIDE];
    float cc[4] = {xc, yc, zc, wc};
    for (int i = 0; i < 4; i++)
        vc4_st32(b + 4 * i, vc4_f2u(cc[i]));
    /* the shaded part as a coordinate shader computes it (facts §2.4);
     * garbage when wc <= 0, as on the hardware */
    float inv = wc != 0.0f ? 1.0f / wc : 0.0f;
    float xs = xc * inv * 320.0f * 16.0f, ys = yc * inv * 240.0f * 16.0f;
    xs = xs != xs ? 0.0f : xs > 32767.0f ? 32767.0f : xs < -32768.0f ? -32768.0f : xs;
    ys = ys != ys ? 0.0f : ys > 32767.0f ? 32767.0f : ys < -32768.0f ? -32768.0f : ys;
    vc4_st16(b + 16, (uint16_t)(int16_t)xs);
    vc4_st16(b + 18, (uint16_t)(int16_t)ys);
    vc4_st32(b + 20, vc4_f2u(zc * inv));
    vc4_st32(b + 24, vc4_f2u(inv));
    vc4_emu_mem_write(r->emu, VERT_ADDR + index * CLIP_STRIDE, b, sizeof b);
}

static void clip_prologue(struct rig *r, struct setup *s)
{
    prologue(r, s);
    struct vc4_cl_nv_shader_record rec = {.vertex_stride = CLIP_STRIDE, .fs_code_addr = 0x1000,
                                          .vertex_data_addr = VERT_ADDR, .enable_clipping = true,
                                          .clip_header_included = true};
    uint8_t b[16];
    CHECK_EQ_INT(vc4_cl_nv_shader_record_pack(&rec, b, NULL), VC4_OK);
    vc4_emu_mem_write(r->emu, NV_REC_ADDR + 16, b, sizeof b);
    struct vc4_cl_nv_shader_state nv = {.record_addr = NV_REC_ADDR + 16};
    vc4_cl_nv_shader_state(&r->cl, &nv);
    struct vc4_cl_clipper_xy_scaling xy = {320.0f * 16.0f, 240.0f * 16.0f};
    vc4_cl_clipper_xy_scaling(&r->cl, &xy);
    struct vc4_cl_clipper_z_scaling zs = {1.0f, 0.0f};
    vc4_cl_clipper_z_scaling(&r->cl, &zs);
    struct vc4_cl_viewport_offset vo = {320 * 16, 240 * 16};
    vc4_cl_viewport_offset(&r->cl, &vo);
}

static void test_clipping(void)
{
    static struct walked w;
    struct rig r;
    rig_init(&r);
    struct setup s = default_setup();
    s.init_block = VC4_CL_BLOCK_32;
    s.block = VC4_CL_BLOCK_32;
    s.tile_alloc_size = 256 * 10 + 64 * 5; /* initial region + a few blocks: overflow too */
    clip_prologue(&r, &s);
    vc4_emu_reg_write(r.emu, VC4_V3D_BPOA, OVERFLOW_ADDR);
    vc4_emu_reg_write(r.emu, VC4_V3D_BPOS, 256);
    /* 0: inside: no clipping needed */
    put_clip_vertex(&r, 0, -0.5f, -0.5f, 0.0f, 1.0f);
    put_clip_vertex(&r, 1, 0.5f, -0.5f, 0.0f, 1.0f);
    put_clip_vertex(&r, 2, 0.0f, 0.5f, 0.0f, 1.0f);
    /* 1: vertex 2 behind the eye */
    put_clip_vertex(&r, 3, -0.5f, -0.5f, 0.0f, 1.0f);
    put_clip_vertex(&r, 4, 0.5f, -0.5f, 0.0f, 1.0f);
    put_clip_vertex(&r, 5, 0.0f, 0.5f, 0.0f, -0.5f);
    /* 2: all behind: rejected */
    put_clip_vertex(&r, 6, -0.5f, -0.5f, 0.0f, -1.0f);
    put_clip_vertex(&r, 7, 0.5f, -0.5f, 0.0f, -1.0f);
    put_clip_vertex(&r, 8, 0.0f, 0.5f, 0.0f, -2.0f);
    /* 3: far outside the guard band on the right (x = 20 in NDC: 6400 px) */
    put_clip_vertex(&r, 9, -0.5f, -0.5f, 0.0f, 1.0f);
    put_clip_vertex(&r, 10, 20.0f, -0.5f, 0.0f, 1.0f);
    put_clip_vertex(&r, 11, 0.0f, 0.5f, 0.0f, 1.0f);
    for (int rep = 0; rep < 30; rep++)
        array(&r, VC4_CL_PRIM_TRIANGLES, 12, 0);
    vc4_cl_flush(&r.cl);
    unsigned stalls = 0, errors = 0;
    while (rig_run(&r, &errors) == VC4_PTB_STALL && stalls < 100) {
        vc4_emu_reg_write(r.emu, VC4_V3D_BPOA, OVERFLOW_ADDR + 0x10000 * ++stalls);
        vc4_emu_reg_write(r.emu, VC4_V3D_BPOS, 0x10000);
    }
    CHECK(stalls > 0);
    CHECK_EQ_INT(errors, 0);
    CHECK_EQ_INT(r.d.errors, 0);
    CHECK_EQ_U64(r.v->ptb.stats.prims_binned, 90);
    CHECK_EQ_U64(r.v->ptb.stats.prims_clipped, 60);
    CHECK_EQ_U64(r.v->ptb.stats.prims_outside, 30);
    /* tile (4,3) holds the frame's centre (320,240): every binned primitive */
    CHECK(walk(r.v, tile_addr(4, 3, 10, 32), &w));
    CHECK(w.returned);
    CHECK_EQ_INT(w.nprims, 90);
    unsigned clipped = 0;
    for (unsigned k = 0; k < w.nprims; k++) {
        const struct vc4_tl_prim *pr = &w.prims[k];
        const struct vc4_tl_clip_info *ci = &w.clip[k];
        unsigned which = pr->index[0] / 3; /* 0, 1 or 3 */
        CHECK(which == 0 || which == 1 || which == 3);
        if (which == 0) {
            CHECK_EQ_U64(ci->record_addr, 0);
            continue;
        }
        clipped++;
        CHECK(ci->record_addr != 0 && ci->record_addr % 8 == 0);
        CHECK_EQ_U64(ci->clip_flags, which == 1 ? 4 : 2);
        struct vc4_tl_clipped rec;
        uint8_t buf[VC4_TL_CLIP_HEADER + VC4_TL_CLIP_MAX_VERTS * VC4_TL_CLIP_VERTEX];
        vc4_emu_mem_read(r.emu, ci->record_addr, buf, sizeof buf);
        CHECK(vc4_tl_read_clipped(buf, sizeof buf, &rec));
        /* the guard-band triangle loses one vertex: a quadrilateral; the one
         * crossing the eye plane reaches the guard band too */
        if (which == 3)
            CHECK_EQ_INT(rec.nverts, 4);
        else
            CHECK(rec.nverts >= 4 && rec.nverts <= 8);
        for (unsigned i = 0; i < rec.nverts; i++) {
            const struct vc4_tl_clip_vertex *cv = &rec.v[i];
            float sum = cv->b[0] + cv->b[1] + cv->b[2];
            CHECK(sum > 0.999f && sum < 1.001f);
            CHECK(cv->x_1_16px >= -2047 * 16 && cv->x_1_16px <= 2047 * 16);
            CHECK(cv->inv_wc > 0.0f);
        }
        if (which == 3) {
            /* the guard-band edge at +2047 px appears, the kept vertices are exact */
            bool edge = false, v0 = false;
            for (unsigned i = 0; i < rec.nverts; i++) {
                edge |= rec.v[i].x_1_16px >= 2046 * 16;
                v0 |= rec.v[i].x_1_16px == -160 * 16 && rec.v[i].b[0] == 1.0f;
            }
            CHECK(edge);
            CHECK(v0);
        }
    }
    CHECK_EQ_INT(clipped, 60);
    /* tile (9,3) (x 576..639) is not reached by the unclipped triangle */
    CHECK(walk(r.v, tile_addr(9, 3, 10, 32), &w));
    CHECK(w.nprims >= 30 && w.nprims <= 60);
    for (unsigned k = 0; k < w.nprims; k++)
        CHECK(w.clip[k].record_addr != 0);
    rig_fini(&r);
}

/* Clip coordinates that are NaN, infinite or huge, odd scalings: no crash,
 * no undefined behaviour (run under UBSan), nothing bogus in the lists. */
static void test_clipping_extreme_values(void)
{
    static struct walked w;
    const float vals[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-30f, -1e-30f, 1e30f, -1e30f, 3.0e38f,
                          -3.0e38f, INFINITY, -INFINITY, NAN, 0.5f, 2047.0f, 1e-5f};
    const unsigned nv = (unsigned)VC4_ARRAY_SIZE(vals);
    const float scales[][2] = {{320.0f * 16.0f, 240.0f * 16.0f}, {0.0f, 0.0f}, {1e30f, -1e30f},
                               {NAN, 1.0f}, {INFINITY, 16.0f}, {-5120.0f, -3840.0f}};
    uint32_t x = 99;
    for (size_t sc = 0; sc < VC4_ARRAY_SIZE(scales); sc++) {
        struct rig r;
        rig_init(&r);
        struct setup s = default_setup();
        clip_prologue(&r, &s);
        struct vc4_cl_clipper_xy_scaling xy = {scales[sc][0], scales[sc][1]};
        vc4_cl_clipper_xy_scaling(&r.cl, &xy);
        for (uint32_t i = 0; i < 600; i++) {
            float cc[4];
            for (int k = 0; k < 4; k++) {
                x = x * 1103515245u + 12345u;
                cc[k] = vals[(x >> 16) % nv];
            }
            put_clip_vertex(&r, i, cc[0], cc[1], cc[2], cc[3]);
        }
        array(&r, VC4_CL_PRIM_TRIANGLES, 600, 0);
        array(&r, VC4_CL_PRIM_LINES, 600, 0);
        array(&r, VC4_CL_PRIM_POINTS, 600, 0);
        vc4_cl_flush(&r.cl);
        CHECK_EQ_INT(rig_run(&r, NULL), VC4_PTB_DONE);
        CHECK_EQ_INT(r.d.errors, 0);
        for (unsigned t = 0; t < 80; t += 7) {
            CHECK(walk(r.v, TILE_ALLOC_ADDR + 32 * t, &w));
            for (unsigned k = 0; k < w.nprims; k++) {
                if (!w.clip[k].record_addr)
                    continue;
                struct vc4_tl_clipped rec;
                uint8_t buf[VC4_TL_CLIP_HEADER + VC4_TL_CLIP_MAX_VERTS * VC4_TL_CLIP_VERTEX];
                vc4_emu_mem_read(r.emu, w.clip[k].record_addr, buf, sizeof buf);
                CHECK(vc4_tl_read_clipped(buf, sizeof buf, &rec));
                for (unsigned i = 0; i < rec.nverts; i++)
                    CHECK(rec.v[i].inv_wc > 0.0f && isfinite(rec.v[i].zs));
            }
        }
        rig_fini(&r);
    }
}

/* VG mode (emu/vg.h): each VG primitive goes into the lists of the tiles it
 * touches as Primitive List Format (RHT or triangles, 32-bit X/Y) + one
 * VG Inline Primitives packet with its coordinates; out of memory it
 * stalls and resumes like any primitive; RHTs are bounded by the
 * quadrilateral to the RHT X boundary; facing culls them. */
static unsigned count_op(const struct walked *w, uint8_t op)
{
    unsigned n = 0;
    for (unsigned i = 0; i < w->nstate; i++)
        n += w->state[i] == op;
    return n;
}

static void vg_coords(struct rig *r, const int *px, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint8_t b[4];
        vc4_st32(b, vc4_vg_pack(px[2 * i] * 16, px[2 * i + 1] * 16));
        vc4_emu_mem_write(r->emu, VERT_ADDR + 4 * i, b, 4);
    }
}

static void test_vg_binning_stall_and_rht(void)
{
    static struct walked w;
    struct rig r;
    rig_init(&r);
    struct setup s = default_setup();
    s.wt = 2;
    s.ht = 2;
    s.block = VC4_CL_BLOCK_64;
    s.tile_alloc_size = 256 + 2 * 64;
    prologue(&r, &s);
    vc4_cl_vg_shader_state(&r.cl, &(struct vc4_cl_vg_shader_state){.record_addr = NV_REC_ADDR});
    vc4_emu_reg_write(r.emu, VC4_V3D_BPOA, OVERFLOW_ADDR);
    vc4_emu_reg_write(r.emu, VC4_V3D_BPOS, 4 * 64);
    /* a triangle over all four tiles, 100 times in one packet */
    const int tri[6] = {10, 10, 120, 10, 10, 120};
    int many[600];
    for (unsigned i = 0; i < 600; i++)
        many[i] = tri[i % 6];
    vg_coords(&r, many, 300);
    vc4_cl_vg_coordinate_array_primitives(&r.cl, &(struct vc4_cl_vg_coordinate_array_primitives){
                                                     .primitive_type = VC4_CL_VG_TRIANGLES, .length = 300,
                                                     .coord_addr = VERT_ADDR});
    vc4_cl_flush(&r.cl);
    unsigned stalls = 0, errors = 0;
    uint32_t next_overflow = OVERFLOW_ADDR + 0x10000;
    enum vc4_ptb_result res;
    while ((res = rig_run(&r, &errors)) == VC4_PTB_STALL && stalls < 1000) {
        stalls++;
        vc4_emu_reg_write(r.emu, VC4_V3D_BPOA, next_overflow);
        vc4_emu_reg_write(r.emu, VC4_V3D_BPOS, 512);
        vc4_emu_reg_write(r.emu, VC4_V3D_INTCTL, 1u << 2);
        next_overflow += 0x1000;
    }
    CHECK_EQ_INT(res, VC4_PTB_DONE);
    CHECK_EQ_INT(errors, 0);
    CHECK(stalls > 2);
    CHECK_EQ_U64(r.v->ptb.stats.prims_in, 100);
    CHECK_EQ_U64(r.v->ptb.stats.prims_binned, 100);
    for (unsigned t = 0; t < 4; t++) {
        CHECK(walk(r.v, TILE_ALLOC_ADDR + 32 * t, &w));
        CHECK(w.returned);
        CHECK_EQ_INT(w.nprims, 0); /* no 48/49 in VG mode */
        CHECK_EQ_INT(count_op(&w, VC4_CL_VG_INLINE_PRIMITIVES), 100);
        CHECK_EQ_INT(count_op(&w, VC4_CL_PRIMITIVE_LIST_FORMAT), 1);
        CHECK(has_state(&w, VC4_CL_VG_SHADER_STATE));
    }
    rig_fini(&r);

    /* RHTs with the boundary at x = 200: a zero-height one bins nowhere;
     * the two going down on either side of the boundary wind opposite ways
     * and, with reverse faces disabled, the one left of it is culled (its
     * quadrilateral (100,10) (100,20) (200,20) (200,10) is clockwise in the
     * Y-up reading, as the binner's triangle rule counts it); the one right
     * of it reaches its tiles through its quadrilateral (x 200..230): tile 3
     * only, with the RHT X Boundary copied into that list */
    rig_init(&r);
    s = default_setup();
    s.wt = 4;
    s.ht = 1;
    s.config.enable_reverse_facing = false;
    prologue(&r, &s);
    vc4_cl_rht_x_boundary(&r.cl, &(struct vc4_cl_rht_x_boundary){.x_boundary = 200 * 16});
    vc4_cl_vg_shader_state(&r.cl, &(struct vc4_cl_vg_shader_state){.record_addr = NV_REC_ADDR});
    const int rht[12] = {100, 10, 100, 20, /* left of the boundary, going down */
                         50, 30, 60, 30,   /* zero height */
                         230, 10, 230, 20}; /* right of it, going down: the other facing */
    vg_coords(&r, rht, 6);
    vc4_cl_vg_coordinate_array_primitives(&r.cl, &(struct vc4_cl_vg_coordinate_array_primitives){
                                                     .primitive_type = VC4_CL_VG_RHT, .length = 6,
                                                     .coord_addr = VERT_ADDR});
    vc4_cl_flush(&r.cl);
    CHECK_EQ_INT(rig_run(&r, &errors), VC4_PTB_DONE);
    CHECK_EQ_INT(errors, 0);
    CHECK_EQ_U64(r.v->ptb.stats.prims_in, 3);
    CHECK_EQ_U64(r.v->ptb.stats.prims_binned, 1);
    CHECK_EQ_U64(r.v->ptb.stats.prims_zero_area, 1);
    CHECK_EQ_U64(r.v->ptb.stats.prims_culled, 1);
    unsigned want[4] = {0, 0, 0, 1};
    for (unsigned t = 0; t < 4; t++) {
        CHECK(walk(r.v, TILE_ALLOC_ADDR + 32 * t, &w));
        CHECK_MSG(count_op(&w, VC4_CL_VG_INLINE_PRIMITIVES) == want[t], "tile %u: %u", t, count_op(&w, VC4_CL_VG_INLINE_PRIMITIVES));
        CHECK_EQ_INT(has_state(&w, VC4_CL_RHT_X_BOUNDARY), want[t] != 0);
    }
    rig_fini(&r);

    /* an edge crossing the boundary: a bow tie whose halves wind opposite
     * ways; with reverse faces disabled one half is still drawn, so the RHT
     * is binned (the renderer culls each half on its own) */
    rig_init(&r);
    prologue(&r, &s);
    vc4_cl_rht_x_boundary(&r.cl, &(struct vc4_cl_rht_x_boundary){.x_boundary = 200 * 16});
    vc4_cl_vg_shader_state(&r.cl, &(struct vc4_cl_vg_shader_state){.record_addr = NV_REC_ADDR});
    const int cross[4] = {100, 10, 300, 30};
    vg_coords(&r, cross, 2);
    vc4_cl_vg_coordinate_array_primitives(&r.cl, &(struct vc4_cl_vg_coordinate_array_primitives){
                                                     .primitive_type = VC4_CL_VG_RHT, .length = 2,
                                                     .coord_addr = VERT_ADDR});
    vc4_cl_flush(&r.cl);
    CHECK_EQ_INT(rig_run(&r, &errors), VC4_PTB_DONE);
    CHECK_EQ_U64(r.v->ptb.stats.prims_binned, 1);
    rig_fini(&r);
}

TEST_LIST(test_vg_binning_stall_and_rht, test_line_loop_of_two, test_state_counter_wrap_warns, test_empty_clip_window_warns, test_clipping, test_clipping_extreme_values, test_single_triangle_640x480, test_every_mode_vertex_array, test_every_mode_indexed_8bit,
          test_every_mode_indexed_16bit, test_max_index_and_array_index_16bit, test_culling_by_winding,
          test_block_chaining, test_overflow_and_outomem, test_clip_window_viewport_points_lines,
          test_flush_all_state_and_second_flush, test_state_changes_only, test_bad_configurations,
          test_huge_counts_bounded, test_garbage_never_crashes)
