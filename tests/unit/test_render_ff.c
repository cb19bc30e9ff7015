/*
 * test_render_ff.c - the rest of the fixed function behind the fragment
 * shader: the 8 depth functions with and without Z updates, early Z, the
 * TLB_STENCIL_SETUP word (decode, every function x every operation x
 * masks, front and back by facing), per-sample Z and stencil with 4x
 * multisampling, depth offset, and blending through colour loads (a
 * source-alpha-over shader, pixel by pixel).
 *
 * Expected values are computed here from the rules as documented (GL's
 * stencil and depth semantics, Mesa's TLB_STENCIL_SETUP layout restated
 * with literal shifts, the Z plane from the vertices), not with the
 * emulator's own helpers, except for pixel coverage (vc4_raster_covers,
 * checked against an independent reference by test_raster).
 */
#include <math.h>

#include "emu/raster.h"
#include "emu/tlb.h"
#include "emu/v3d.h"
#include "harness.h"
#include "nv_scene.h"

#define RL 0x00010000u   /* the rendering list */
#define VERT 0x00020000u /* shaded vertices, 12 bytes each */
#define REC 0x00030000u  /* NV shader records, 16 bytes each */
#define CODE 0x00040000u /* shaders, 0x1000 apart */
#define UNIF 0x00060000u /* uniforms, 0x100 per draw */
#define FB 0x00100000u   /* colour frame */
#define ZB 0x00140000u   /* Z/stencil frame */
#define DUMP 0x00180000u /* full-resolution dump */

static struct harness_diags hd;

/* ---- scenes ------------------------------------------------------------------------ */

struct draw {
    struct vc4_cl_configuration_bits cfg; /* facing enables are added */
    float factor, units;                  /* Depth Offset packet */
    const char *fs;
    uint32_t unif[8];
    float v[6][3]; /* x, y (pixels), Zs; one or two triangles */
    unsigned ntri;
};

struct scene {
    bool ms;                       /* 4x: a 32x32 frame, else 64x64 */
    bool early_z_disable, early_z_ge;
    bool reload_full;              /* Z/stencil from DUMP (packet 27) first */
    uint32_t clear_color, clear_z;
    uint8_t clear_stencil;
    unsigned ndraw;
    struct draw d[3];
};

static unsigned frame_dim(const struct scene *s) { return s->ms ? 32u : 64u; }

static void put32(struct vc4_emu *emu, uint32_t addr, uint32_t v)
{
    uint8_t b[4];
    sc_put32(b, v);
    vc4_emu_mem_write(emu, addr, b, 4);
}

static uint32_t get32(struct vc4_emu *emu, uint32_t addr)
{
    uint8_t b[4];
    vc4_emu_mem_read(emu, addr, b, 4);
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Render the scene: clear, the draws (Vertex Array Primitives in the
 * rendering list), then the Z/stencil buffer to ZB (Store General), a
 * full-resolution Z/stencil dump to DUMP and the colour to FB. */
static struct vc4_emu *render(const struct scene *s)
{
    struct vc4_diag_sink sink = harness_sink(&hd);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 4u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    unsigned dim = frame_dim(s), nv = 0;
    for (unsigned k = 0; k < s->ndraw; k++) {
        const struct draw *d = &s->d[k];
        CHECK(sc_load_shader(emu, d->fs, CODE + 0x1000 * k, sink));
        for (unsigned i = 0; i < 8; i++)
            put32(emu, UNIF + 0x100 * k + 4 * i, d->unif[i]);
        struct vc4_cl_nv_shader_record rec = {.vertex_stride = 12, .fs_code_addr = CODE + 0x1000 * k,
                                              .fs_uniforms_addr = UNIF + 0x100 * k,
                                              .vertex_data_addr = VERT + 12 * nv};
        uint8_t b[16];
        vc4_cl_nv_shader_record_pack(&rec, b, NULL);
        vc4_emu_mem_write(emu, REC + 16 * k, b, 16);
        for (unsigned i = 0; i < 3 * d->ntri; i++, nv++) {
            uint8_t q[12];
            int32_t x = (int32_t)lroundf(d->v[i][0] * 16), y = (int32_t)lroundf(d->v[i][1] * 16);
            q[0] = (uint8_t)x;
            q[1] = (uint8_t)(x >> 8);
            q[2] = (uint8_t)y;
            q[3] = (uint8_t)(y >> 8);
            sc_put32(q + 4, sc_f2u(d->v[i][2]));
            sc_put32(q + 8, sc_f2u(1.0f));
            vc4_emu_mem_write(emu, VERT + 12 * nv, q, 12);
        }
    }
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, RL, &sink);
    struct vc4_cl_clear_colors cc = {.clear_color = (uint64_t)s->clear_color * 0x100000001ull,
                                     .clear_zs = s->clear_z, .clear_stencil = s->clear_stencil};
    vc4_cl_clear_colors(&cl, &cc);
    struct vc4_cl_tile_rendering_mode_config tr = {
        .fb_addr = FB, .width_px = dim, .height_px = dim, .multisample_4x = s->ms,
        .decimate_mode = s->ms ? VC4_CL_DECIMATE_4X : VC4_CL_DECIMATE_1X, .color_format = VC4_CL_FB_RGBA8888,
        .early_z_coverage_disable = s->early_z_disable, .early_z_direction_ge = s->early_z_ge};
    vc4_cl_tile_rendering_mode_config(&cl, &tr);
    struct vc4_cl_tile_coordinates t = {0, 0};
    vc4_cl_tile_coordinates(&cl, &t);
    struct vc4_cl_store_tile_buffer_general none = {.buffer = VC4_CL_BUF_NONE};
    vc4_cl_store_tile_buffer_general(&cl, &none); /* takes the clear values */
    if (s->reload_full) {
        struct vc4_cl_load_full_res_tile_buffer lf = {.address = DUMP, .disable_color_read = true};
        vc4_cl_load_full_res_tile_buffer(&cl, &lf); /* runs at the Tile Coordinates */
    }
    vc4_cl_tile_coordinates(&cl, &t);
    unsigned first = 0;
    for (unsigned k = 0; k < s->ndraw; k++) {
        const struct draw *d = &s->d[k];
        struct vc4_cl_configuration_bits cb = d->cfg;
        cb.enable_forward_facing = cb.enable_reverse_facing = true;
        if (s->ms)
            cb.rasteriser_oversample = VC4_CL_OVERSAMPLE_4X;
        vc4_cl_configuration_bits(&cl, &cb);
        struct vc4_cl_depth_offset dof = {d->factor, d->units};
        vc4_cl_depth_offset(&cl, &dof);
        struct vc4_cl_nv_shader_state nvs = {REC + 16 * k};
        vc4_cl_nv_shader_state(&cl, &nvs);
        struct vc4_cl_vertex_array_primitives va = {.primitive_mode = VC4_CL_PRIM_TRIANGLES,
                                                    .length = 3 * d->ntri, .first_index = 0};
        (void)first;
        vc4_cl_vertex_array_primitives(&cl, &va);
    }
    struct vc4_cl_store_full_res_tile_buffer fr = {.address = DUMP, .disable_color_write = true,
                                                   .disable_clear_on_write = true};
    vc4_cl_store_full_res_tile_buffer(&cl, &fr);
    struct vc4_cl_store_tile_buffer_general zs = {.buffer = VC4_CL_BUF_ZS, .address = ZB,
                                                  .disable_color_clear = true};
    vc4_cl_store_tile_buffer_general(&cl, &zs);
    vc4_cl_store_ms_tile_buffer_and_eof(&cl);
    CHECK(cl.status == VC4_OK && vc4_emu_mem_write(emu, RL, cl.data, cl.len) == VC4_OK);
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, RL);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, vc4_cl_addr(&cl));
    enum vc4_status st = vc4_emu_run(emu, 0);
    CHECK_MSG(st == VC4_OK && hd.errors == 0, "%s\n%s", vc4_status_name(st), hd.text);
    vc4_cl_free(&cl);
    return emu;
}

static uint32_t px_color(struct vc4_emu *emu, const struct scene *s, unsigned x, unsigned y)
{
    return get32(emu, FB + 4 * (y * frame_dim(s) + x));
}
/* the Z/stencil word: Z in 31:8, stencil in 7:0 (docs/rendering.md) */
static uint32_t px_zs(struct vc4_emu *emu, const struct scene *s, unsigned x, unsigned y)
{
    return get32(emu, ZB + 4 * (y * frame_dim(s) + x));
}
/* sample k of pixel (x, y) in the full-resolution dump of a one-tile
 * frame: with 4x multisampling in 64-byte 2x2 quads, 16 a row, sample k
 * of the quad's pixel at k * 16 + (y & 1) * 8 + (x & 1) * 4 (Mesa's
 * vc4_nir_lower_txf_ms.c addressing); else [y][x] */
static uint32_t dump_zs(struct vc4_emu *emu, const struct scene *s, unsigned x, unsigned y, unsigned k)
{
    if (!s->ms)
        return get32(emu, DUMP + 4 * (y * frame_dim(s) + x));
    return get32(emu, DUMP + ((y >> 1) * 16 + (x >> 1)) * 64 + k * 16 + (y & 1) * 8 + (x & 1) * 4);
}

static uint32_t z24(double z)
{
    if (!(z > 0))
        return 0;
    if (z >= 1)
        return 0xFFFFFF;
    return (uint32_t)floor(z * 16777215.0 + 0.5);
}

/* Vertices of a one-triangle draw, and the triangle the rasteriser sees
 * (for coverage). */
static void one_tri(struct draw *d, const float v[3][3], struct vc4_raster_tri *t)
{
    memcpy(d->v, v, 9 * sizeof v[0][0]);
    d->ntri = 1;
    for (int i = 0; i < 3; i++) {
        t->x[i] = (int32_t)lroundf(v[i][0] * 16);
        t->y[i] = (int32_t)lroundf(v[i][1] * 16);
    }
}

/* The 4x sample points (docs/rendering.md), 1/16 pixel. */
static const uint8_t ms_pos[4][2] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}};

/* a full-frame triangle at constant Z */
static void full_tri(struct draw *d, float z)
{
    const float v[3][3] = {{0, 0, z}, {200, 0, z}, {0, 200, z}};
    memcpy(d->v, v, sizeof v);
    d->ntri = 1;
}

/* No TLB_Z write: no depth or stencil test (docs/rendering.md) */
static const char fs_flat[] = "nop\nnop\nmov tlbc, unif\nnop; thrend\nnop\nnop; sbdone\n";
/* The payload Z (rb15) to TLB_Z before the colour, as Mesa does whenever
 * depth or stencil is enabled: the tests run with the rasteriser's Z */
static const char fs_flatz[] = "nop\nnop\nmov tlbz, rb15\nmov tlbc, unif\nnop; thrend\nnop\nnop; sbdone\n";
/* TLB_STENCIL_SETUP from three uniforms (front or both, back, write-mask
 * word), then the payload Z, then the colour (Mesa's order) */
static const char fs_stencil3[] = "nop\nnop\nmov stencil, unif\nmov stencil, unif\nmov stencil, unif\n"
                                  "mov tlbz, rb15\nmov tlbc, unif\nnop; thrend\nnop\nnop; sbdone\n";
static const char fs_stencil1[] = "nop\nnop\nmov stencil, unif\nmov tlbz, rb15\nmov tlbc, unif\n"
                                  "nop; thrend\nnop\nnop; sbdone\n";
/* the same without the TLB_Z write: no stencil test */
static const char fs_stencil1_noz[] = "nop\nnop\nmov stencil, unif\nmov tlbc, unif\nnop; thrend\nnop\nnop; sbdone\n";
/* the shader's own Z (first uniform), then the colour */
static const char fs_zwrite[] = "nop\nnop\nmov tlbz, unif\nmov tlbc, unif\nnop; thrend\nnop\nnop; sbdone\n";

/* ---- depth -------------------------------------------------------------------------- */

static bool ref_cmp(unsigned f, uint32_t a, uint32_t b)
{
    static const char *const ops[8] = {"never", "<", "==", "<=", ">", "!=", ">=", "always"};
    const char *o = ops[f & 7];
    if (!strcmp(o, "never"))
        return false;
    if (!strcmp(o, "always"))
        return true;
    bool lt = a < b, eq = a == b;
    return (strchr(o, '<') && lt) || (strchr(o, '>') && !lt && !eq) || (strchr(o, '=') && eq && o[0] != '!') ||
           (o[0] == '!' && !eq);
}

/* Every depth function with and without Z updates: a full-frame triangle at
 * Z 0.25, 0.5 or 0.75 over a buffer cleared to 0x800000. */
static void test_depth_functions(void)
{
    const float zs[3] = {0.25f, 0.5f, 0.75f};
    unsigned bad = 0;
    for (unsigned f = 0; f < 8; f++)
        for (int upd = 0; upd < 2; upd++)
            for (unsigned k = 0; k < 3; k++) {
                struct scene s = {.clear_color = 0xFF102030u, .clear_z = 0x800000, .clear_stencil = 0x3C,
                                  .ndraw = 1};
                s.d[0].cfg.depth_func = f;
                s.d[0].cfg.z_updates_enable = upd;
                s.d[0].fs = fs_flatz;
                s.d[0].unif[0] = 0xFF00FF00u;
                full_tri(&s.d[0], zs[k]);
                struct vc4_emu *emu = render(&s);
                uint32_t zt = z24((double)zs[k]);
                bool pass = ref_cmp(f, zt, 0x800000);
                uint32_t want_c = pass ? 0xFF00FF00u : 0xFF102030u;
                uint32_t want_zs = (pass && upd ? zt : 0x800000u) << 8 | 0x3C;
                for (unsigned y = 0; y < 64; y += 7)
                    for (unsigned x = 0; x < 64; x += 5) {
                        bad += px_color(emu, &s, x, y) != want_c;
                        bad += px_zs(emu, &s, x, y) != want_zs;
                    }
                CHECK_MSG(bad == 0, "func %u update %d Z %g: %u wrong", f, upd, (double)zs[k], bad);
                vc4_emu_destroy(emu);
                if (bad)
                    return;
            }
}

/* Per-sample Z with 4x multisampling: a triangle whose Z runs along x
 * (Zs = x / 64 at the vertices), full-resolution dump compared sample by
 * sample where covered.  fs writes TLB_Z from rb15 (zw = 0: each sample
 * stores round(Z(sample point) * 0xFFFFFF)) or the uniform zw: the written
 * value replaces the pixel's Z and each sample keeps its offset from the Z
 * plane (UNVERIFIED model, docs/rendering.md): zw + z24(sample) -
 * z24(centre). */
static void check_ms_z(const char *fs, uint32_t zw)
{
    struct scene s = {.ms = true, .clear_color = 0xFF000000u, .clear_z = 0xFFFFFF, .clear_stencil = 7,
                      .ndraw = 1};
    struct draw *d = &s.d[0];
    d->cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
    d->cfg.z_updates_enable = true;
    d->fs = fs;
    d->unif[0] = zw ? zw : 0xFFFFFFFFu;
    d->unif[1] = 0xFFFFFFFFu;
    const float v[3][3] = {{1.5f, 2, 1.5f / 64}, {30, 5, 30.0f / 64}, {8, 29.25f, 8.0f / 64}};
    struct vc4_raster_tri t;
    one_tri(d, v, &t);
    struct vc4_emu *emu = render(&s);
    unsigned bad = 0, covered = 0;
    for (unsigned y = 0; y < 32; y++)
        for (unsigned x = 0; x < 32; x++)
            for (unsigned k = 0; k < 4; k++) {
                int64_t sx = 16 * (int64_t)x + ms_pos[k][0], sy = 16 * (int64_t)y + ms_pos[k][1];
                bool cov = vc4_raster_covers(&t, sx, sy);
                covered += cov;
                int64_t z = z24((double)sx / 16.0 / 64.0);
                if (zw)
                    z += (int64_t)zw - (int64_t)z24((x + 0.5) / 64.0);
                uint32_t want = cov ? (uint32_t)z << 8 | 7 : 0xFFFFFF07u;
                uint32_t got = dump_zs(emu, &s, x, y, k);
                if (got != want && bad++ < 4)
                    fprintf(stderr, "  (%u,%u) sample %u: 0x%08x, want 0x%08x\n", x, y, k, got, want);
            }
    CHECK(covered > 1000);
    CHECK_MSG(bad == 0, "zw 0x%x: %u samples wrong", zw, bad);
    vc4_emu_destroy(emu);
}

static void test_ms_sample_z(void)
{
    check_ms_z(fs_flatz, 0);
    check_ms_z(fs_zwrite, 0x400000);
}

/* ---- TLB_STENCIL_SETUP -------------------------------------------------------------- */

/* Mesa vc4_state.c's layout, restated with literal shifts. */
static uint32_t ss_word(unsigned sel, unsigned wcode, unsigned zfail, unsigned zpass, unsigned fail,
                        unsigned func, unsigned ref, unsigned vmask)
{
    return (uint32_t)sel << 30 | (uint32_t)wcode << 28 | (uint32_t)zfail << 25 | (uint32_t)zpass << 22 |
           (uint32_t)fail << 19 | (uint32_t)func << 16 | (uint32_t)ref << 8 | vmask;
}

static void test_stencil_decode(void)
{
    static const uint8_t wmask[4] = {0x01, 0x03, 0x0F, 0xFF};
    unsigned n = 0;
    for (unsigned sel = 1; sel < 4; sel++)
        for (unsigned w = 0; w < 4; w++)
            for (unsigned i = 0; i < 8; i++) {
                unsigned zfail = i, zpass = (i + 3) & 7, fail = (i + 5) & 7, func = (7 - i);
                unsigned ref = 0x11 * i + 3, vm = 0xF0 ^ (0x13 * i);
                struct vc4_tlb_stencil st;
                memset(&st, 0xEE, sizeof st);
                st.enabled = false;
                vc4_tlb_stencil_setup(&st, ss_word(sel, w, zfail, zpass, fail, func, ref, vm));
                CHECK(st.enabled);
                for (unsigned face = 0; face < 2; face++) {
                    const struct vc4_tlb_stencil_face *f = &st.face[face];
                    bool sel_f = (sel >> face) & 1; /* 1 front, 2 back, 3 both */
                    if (!sel_f) {
                        CHECK_EQ_U64(f->func, 0xEE); /* untouched */
                        continue;
                    }
                    CHECK_EQ_U64(f->func, func);
                    CHECK_EQ_U64(f->ref, ref & 0xFF);
                    CHECK_EQ_U64(f->value_mask, vm & 0xFF);
                    CHECK_EQ_U64(f->write_mask, wmask[w]);
                    CHECK_EQ_U64(f->op_fail, fail);
                    CHECK_EQ_U64(f->op_zfail, zfail);
                    CHECK_EQ_U64(f->op_zpass, zpass);
                    n++;
                }
            }
    CHECK_EQ_U64(n, 2 * 4 * 8 * 2);
    /* the write-mask word (select 0: front 7:0, back 15:8) after the
     * configs overrides their codes; a config after it sets its code again */
    struct vc4_tlb_stencil st = {0};
    vc4_tlb_stencil_setup(&st, ss_word(1, 3, 1, 2, 1, 7, 0x40, 0xFF));
    vc4_tlb_stencil_setup(&st, ss_word(2, 0, 1, 6, 1, 7, 0x41, 0xFF));
    vc4_tlb_stencil_setup(&st, 0x5AA5u);
    CHECK_EQ_U64(st.face[0].write_mask, 0xA5);
    CHECK_EQ_U64(st.face[1].write_mask, 0x5A);
    CHECK_EQ_U64(st.face[0].ref, 0x40);
    CHECK_EQ_U64(st.face[1].ref, 0x41);
    vc4_tlb_stencil_setup(&st, ss_word(3, 1, 1, 1, 1, 7, 0x42, 0xFF));
    CHECK_EQ_U64(st.face[0].write_mask, 0x03);
    CHECK_EQ_U64(st.face[1].write_mask, 0x03);
    /* a write-mask word alone does not enable the test */
    struct vc4_tlb_stencil st2 = {0};
    vc4_tlb_stencil_setup(&st2, 0xFFFFu);
    CHECK(!st2.enabled);
}

/* GL's stencil operations (independent of the emulator's table). */
static uint8_t ref_op(unsigned op, uint8_t s, uint8_t ref)
{
    switch (op) {
    case 0: return 0;                      /* zero */
    case 1: return s;                      /* keep */
    case 2: return ref;                    /* replace */
    case 3: return s < 255 ? s + 1 : 255;  /* incr, saturating */
    case 4: return s > 0 ? s - 1 : 0;      /* decr, saturating */
    case 5: return (uint8_t)(255 - s);     /* invert */
    case 6: return (uint8_t)((s + 1) % 256); /* incr wrap */
    default: return (uint8_t)((s + 255) % 256); /* decr wrap */
    }
}

/* Every stencil function x every operation in each of the three slots x
 * references, stored values, value masks, write masks, depth outcome. */
/* One case of the table: the stencil config (op in slot 0 fail, 1 zfail or
 * 2 zpass, invert in the others) against stored value s, the depth test
 * passing or not (LESS with updates); false when the TLB disagrees with
 * GL's rules computed here. */
static bool stencil_case(unsigned func, unsigned slot, unsigned op, uint8_t s, uint8_t ref, uint8_t vm,
                         unsigned wcode, bool zp)
{
    static const uint8_t wmask[4] = {0x01, 0x03, 0x0F, 0xFF};
    unsigned ops[3] = {5, 5, 5};
    ops[slot] = op;
    struct vc4_tlb_stencil st = {0};
    vc4_tlb_stencil_setup(&st, ss_word(3, wcode, ops[1], ops[2], ops[0], func, ref, vm));
    uint32_t zbuf = 0x400000, z = zp ? 0x300000 : 0x500000;
    uint32_t zs = zbuf << 8 | s;
    bool sfail = false;
    bool pass = vc4_tlb_zs_test(VC4_CL_DEPTH_LESS, true, &st.face[0], z, &zs, &sfail);
    /* (ref & vm) FUNC (s & vm); fail -> fail op, else the depth test picks
     * zpass / zfail; the result goes through the write mask */
    bool spass = ref_cmp(func, ref & vm, s & vm);
    uint8_t res = ref_op(ops[!spass ? 0 : zp ? 2 : 1], s, ref);
    uint8_t wm = wmask[wcode];
    uint8_t want_s = (uint8_t)((s & ~wm) | (res & wm));
    bool want_pass = spass && zp;
    uint32_t want = (want_pass ? z : zbuf) << 8 | want_s;
    if (pass == want_pass && sfail == !spass && zs == want)
        return true;
    fprintf(stderr, "  func %u slot %u op %u s %02x ref %02x vm %02x wcode %u zp %d: got %d 0x%08x, want %d 0x%08x\n",
            func, slot, op, s, ref, vm, wcode, zp, pass, zs, want_pass, want);
    return false;
}

/* Every stencil function x every operation in each of the three slots x
 * references, stored values, value masks, write masks, depth outcome. */
static void test_stencil_table(void)
{
    static const uint8_t svals[] = {0x00, 0x01, 0x5A, 0x7F, 0x80, 0xFE, 0xFF};
    static const uint8_t refs[] = {0x00, 0x5A, 0x80, 0xFF};
    static const uint8_t vmasks[] = {0xFF, 0x0F, 0xF0, 0x00};
    unsigned cases = 0, bad = 0;
    for (unsigned func = 0; func < 8; func++)
        for (unsigned slot = 0; slot < 3; slot++)
            for (unsigned op = 0; op < 8; op++)
                for (unsigned n = 0; n < sizeof svals * sizeof refs * sizeof vmasks * 4 * 2; n++) {
                    unsigned c = n;
                    uint8_t sv = svals[c % sizeof svals];
                    c /= sizeof svals;
                    uint8_t ref = refs[c % sizeof refs];
                    c /= sizeof refs;
                    uint8_t vm = vmasks[c % sizeof vmasks];
                    c /= sizeof vmasks;
                    unsigned wcode = c % 4;
                    bool zp = c / 4;
                    cases++;
                    if (!stencil_case(func, slot, op, sv, ref, vm, wcode, zp) && ++bad > 4)
                        goto out;
                }
out:
    CHECK_EQ_U64(cases, 8u * 3 * 8 * 7 * 4 * 4 * 4 * 2);
    CHECK_MSG(bad == 0, "%u of %u stencil cases wrong", bad, cases);
    /* no stencil state: the stencil byte is kept, Z updates only on pass */
    uint32_t zs = 0x400000u << 8 | 0x99;
    bool sf;
    CHECK(vc4_tlb_zs_test(VC4_CL_DEPTH_LESS, true, NULL, 0x100000, &zs, &sf) && !sf);
    CHECK_EQ_U64(zs, 0x100000u << 8 | 0x99);
    CHECK(!vc4_tlb_zs_test(VC4_CL_DEPTH_LESS, true, NULL, 0x200000, &zs, &sf) && !sf);
    CHECK_EQ_U64(zs, 0x100000u << 8 | 0x99);
}

/* Is the triangle forward-facing?  (docs/rendering.md: clockwise = area < 0
 * with y down; with the clockwise bit clear the other winding is forward) */
static bool forward(const float v[3][3], bool cw_bit)
{
    double x0 = (double)v[0][0], y0 = (double)v[0][1], x1 = (double)v[1][0], y1 = (double)v[1][1],
           x2 = (double)v[2][0], y2 = (double)v[2][1];
    double area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    return (area < 0) == cw_bit;
}

/* Front and back by facing through the whole pipeline: draw 1 writes
 * stencil with a front config (replace 0x11, mask 0xFF) and a back config
 * (incr wrap, write mask 0x0F from the write-mask word) on two triangles of
 * opposite windings over stencil 0xFF; draw 2 colours where stencil == 0x11
 * (front and back the same, keep). */
static void test_stencil_faces(void)
{
    for (int cw = 0; cw < 2; cw++) {
        struct scene s = {.clear_color = 0xFF000000u, .clear_z = 0xFFFFFF, .clear_stencil = 0xFF, .ndraw = 2};
        struct draw *d = &s.d[0];
        d->cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
        d->cfg.clockwise = cw;
        d->fs = fs_stencil3;
        d->unif[0] = ss_word(1, 3, 1, 2, 1, VC4_CL_DEPTH_ALWAYS, 0x11, 0xFF); /* front: zpass replace */
        d->unif[1] = ss_word(2, 0, 1, 6, 1, VC4_CL_DEPTH_ALWAYS, 0x22, 0xFF); /* back: zpass incr wrap */
        d->unif[2] = 0x0FFFu;                                                /* masks: front FF, back 0F */
        d->unif[3] = 0xFF0000FFu;                                            /* red */
        /* triangle A (upper left) and B (lower right, the other winding) */
        const float v[6][3] = {{2, 2, 0.5f}, {40, 2, 0.5f}, {2, 40, 0.5f},
                               {62, 24, 0.5f}, {24, 62, 0.5f}, {62, 62, 0.5f}};
        memcpy(d->v, v, sizeof v);
        d->ntri = 2;
        struct draw *e = &s.d[1];
        e->cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
        e->fs = fs_stencil1;
        e->unif[0] = ss_word(3, 3, 1, 1, 1, 2 /* == */, 0x11, 0xFF);
        e->unif[1] = 0xFF00FF00u; /* green */
        full_tri(e, 0.5f);
        struct vc4_emu *emu = render(&s);
        struct vc4_raster_tri ta, tb;
        for (int i = 0; i < 3; i++) {
            ta.x[i] = (int32_t)(v[i][0] * 16);
            ta.y[i] = (int32_t)(v[i][1] * 16);
            tb.x[i] = (int32_t)(v[3 + i][0] * 16);
            tb.y[i] = (int32_t)(v[3 + i][1] * 16);
        }
        bool fa = forward((const float(*)[3])v, cw), fb = forward((const float(*)[3])(v + 3), cw);
        CHECK(fa != fb);
        unsigned bad = 0, na = 0, nb = 0;
        for (unsigned y = 0; y < 64; y++)
            for (unsigned x = 0; x < 64; x++) {
                int64_t cx = 16 * (int64_t)x + 8, cy = 16 * (int64_t)y + 8;
                bool ia = vc4_raster_covers(&ta, cx, cy), ib = vc4_raster_covers(&tb, cx, cy);
                na += ia;
                nb += ib;
                uint8_t st = 0xFF;
                if (ia || ib) {
                    bool front = ia ? fa : fb;
                    st = front ? 0x11 : (uint8_t)((0xFF & ~0x0F) | (0x00 & 0x0F)); /* 0xFF + 1 wraps */
                }
                uint32_t want_c = st == 0x11 ? 0xFF00FF00u : (ia || ib) ? 0xFF0000FFu : 0xFF000000u;
                bad += (px_zs(emu, &s, x, y) & 0xFF) != st;
                bad += px_color(emu, &s, x, y) != want_c;
            }
        CHECK(na > 500 && nb > 500);
        CHECK_MSG(bad == 0, "clockwise bit %d: %u wrong", cw, bad);
        vc4_emu_destroy(emu);
    }
}

/* Stencil per sample with 4x multisampling: replace where covered. */
static void test_ms_stencil(void)
{
    struct scene s = {.ms = true, .clear_color = 0xFF000000u, .clear_z = 0x123456, .clear_stencil = 0x80,
                      .ndraw = 1};
    struct draw *d = &s.d[0];
    d->cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
    d->fs = fs_stencil1;
    d->unif[0] = ss_word(3, 2, 1, 2, 1, VC4_CL_DEPTH_ALWAYS, 0x3C, 0xFF); /* replace, mask 0x0F */
    d->unif[1] = 0xFFFFFFFFu;
    const float v[3][3] = {{3.25f, 1, 0.5f}, {31, 13, 0.5f}, {11, 30.5f, 0.5f}};
    struct vc4_raster_tri t;
    one_tri(d, v, &t);
    struct vc4_emu *emu = render(&s);
    unsigned bad = 0, partial = 0;
    for (unsigned y = 0; y < 32; y++)
        for (unsigned x = 0; x < 32; x++) {
            unsigned n = 0;
            for (unsigned k = 0; k < 4; k++) {
                bool cov = vc4_raster_covers(&t, 16 * (int64_t)x + ms_pos[k][0], 16 * (int64_t)y + ms_pos[k][1]);
                n += cov;
                uint32_t want = 0x123456u << 8 | (cov ? 0x8C : 0x80); /* (0x80 & ~0x0F) | (0x3C & 0x0F) */
                bad += dump_zs(emu, &s, x, y, k) != want;
            }
            partial += n > 0 && n < 4;
        }
    CHECK(partial > 20);
    CHECK_MSG(bad == 0, "%u samples wrong", bad);
    vc4_emu_destroy(emu);
}

/* Coverage into the TLB: an MS_FLAGS write (AND-mask of each element's
 * samples) before the tests leaves the masked samples' Z, stencil and
 * colour alone. */
static const char fs_msmask[] = "nop\nnop\nmov ms_mask, unif\nmov stencil, unif\nmov tlbz, rb15\n"
                                "mov tlbc, unif\nnop; thrend\nnop\nnop; sbdone\n";

static void test_ms_coverage_mask(void)
{
    struct scene s = {.ms = true, .clear_color = 0xFF000000u, .clear_z = 0xFFFFFF, .clear_stencil = 0x10,
                      .ndraw = 1};
    struct draw *d = &s.d[0];
    d->cfg.depth_func = VC4_CL_DEPTH_LESS;
    d->cfg.z_updates_enable = true;
    d->fs = fs_msmask;
    d->unif[0] = 0x5; /* samples 0 and 2 */
    d->unif[1] = ss_word(3, 3, 1, 2, 1, 7, 0x77, 0xFF);
    d->unif[2] = 0xFFFFFFFFu;
    full_tri(d, 0.25f);
    struct vc4_emu *emu = render(&s);
    unsigned bad = 0;
    for (unsigned y = 0; y < 32; y++)
        for (unsigned x = 0; x < 32; x++) {
            for (unsigned k = 0; k < 4; k++) {
                bool live = (0x5 >> k) & 1;
                bad += dump_zs(emu, &s, x, y, k) != (live ? z24(0.25) << 8 | 0x77 : 0xFFFFFF10u);
            }
            /* resolved: two white and two black samples, (255 + 255 + 0 + 0 + 2) / 4 per channel */
            bad += px_color(emu, &s, x, y) != 0xFF808080u;
        }
    CHECK_MSG(bad == 0, "%u wrong", bad);
    vc4_emu_destroy(emu);
}

/* ---- no TLB_Z write: no depth and no stencil test (issue 11) ----------------------------- */

/* The public bare-metal NV demos' Configuration Bits 03 00 02: both facings,
 * depth function 0 "never", Z updates off, early-Z updates on (early Z
 * off), with a shader that writes no TLB_Z: they draw on a Pi. */
static void nv_demo_bits(struct draw *d)
{
    memset(&d->cfg, 0, sizeof d->cfg);
    d->cfg.depth_func = VC4_CL_DEPTH_NEVER;
    d->cfg.early_z_updates_enable = true;
}

/* One triangle over a cleared frame; *drawn = pixels not of the clear
 * colour, and every Z/stencil word must still be the clear one when
 * zs_kept. */
static struct vc4_emu *draw_one(const struct draw *d, bool ms, unsigned *drawn, bool zs_kept)
{
    struct scene s = {.ms = ms, .clear_color = 0xFF102030u, .clear_z = 0x800000, .clear_stencil = 0x3C,
                      .ndraw = 1};
    s.d[0] = *d;
    struct vc4_emu *emu = render(&s);
    unsigned n = 0, zs_bad = 0, dim = frame_dim(&s);
    for (unsigned y = 0; y < dim; y++)
        for (unsigned x = 0; x < dim; x++) {
            n += px_color(emu, &s, x, y) != 0xFF102030u;
            zs_bad += zs_kept && px_zs(emu, &s, x, y) != (0x800000u << 8 | 0x3C);
        }
    *drawn = n;
    CHECK_MSG(zs_bad == 0, "%u Z/stencil words changed", zs_bad);
    return emu;
}

static void test_no_tlbz(void)
{
    static const float v[3][3] = {{2, 3, 0.75f}, {60, 9, 0.75f}, {17, 61, 0.75f}};
    struct vc4_raster_tri t;
    for (int ms = 0; ms < 2; ms++) {
        float scale = ms ? 0.5f : 1.0f; /* the 4x frame is 32x32 */
        float vs[3][3];
        for (int i = 0; i < 3; i++)
            vs[i][0] = v[i][0] * scale, vs[i][1] = v[i][1] * scale, vs[i][2] = v[i][2];
        /* the demos' bits, no TLB_Z: drawn exactly as with "always" */
        struct draw d = {.fs = fs_flat, .unif = {0xFF00FF00u}};
        one_tri(&d, (const float(*)[3])vs, &t);
        nv_demo_bits(&d);
        unsigned n_never = 0, n_always = 0, n_less = 0, n_z = 0;
        struct vc4_emu *a = draw_one(&d, ms, &n_never, true);
        d.cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
        struct vc4_emu *b = draw_one(&d, ms, &n_always, true);
        unsigned dim = ms ? 32 : 64, diff = 0, want = 0;
        for (unsigned y = 0; y < dim; y++)
            for (unsigned x = 0; x < dim; x++) {
                diff += get32(a, FB + 4 * (y * dim + x)) != get32(b, FB + 4 * (y * dim + x));
                want += vc4_raster_covers(&t, 16 * (int64_t)x + 8, 16 * (int64_t)y + 8);
            }
        CHECK_MSG(diff == 0, "ms %d: %u pixels differ between \"never\" and \"always\"", ms, diff);
        CHECK(want > 200 && (ms || n_never == want));
        CHECK(n_never > 200 && n_never == n_always);
        vc4_emu_destroy(a);
        vc4_emu_destroy(b);
        /* Z 0.75 fails LESS against 0.5 with updates on: still drawn, Z kept */
        d.cfg.depth_func = VC4_CL_DEPTH_LESS;
        d.cfg.z_updates_enable = true;
        vc4_emu_destroy(draw_one(&d, ms, &n_less, true));
        CHECK_EQ_U64(n_less, n_never);
        /* with the payload Z written (as Mesa does), "never" draws nothing
         * and LESS fails everywhere; "always" with updates writes Z */
        d.fs = fs_flatz;
        d.cfg.depth_func = VC4_CL_DEPTH_NEVER;
        vc4_emu_destroy(draw_one(&d, ms, &n_z, true));
        CHECK_EQ_U64(n_z, 0);
        d.cfg.depth_func = VC4_CL_DEPTH_LESS;
        vc4_emu_destroy(draw_one(&d, ms, &n_z, true));
        CHECK_EQ_U64(n_z, 0);
        d.cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
        vc4_emu_destroy(draw_one(&d, ms, &n_z, false));
        CHECK_EQ_U64(n_z, n_never);
    }
    /* stencil: a config that fails every sample (function never, fail op
     * replace 0x77) is ignored without a TLB_Z write, applied with one */
    struct draw d = {.fs = fs_stencil1_noz, .unif = {ss_word(3, 3, 1, 1, 2, 0, 0x77, 0xFF), 0xFF00FF00u}};
    full_tri(&d, 0.5f);
    d.cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
    unsigned n = 0;
    vc4_emu_destroy(draw_one(&d, false, &n, true));
    CHECK_EQ_U64(n, 64u * 64u);
    d.fs = fs_stencil1;
    struct scene s = {.clear_color = 0xFF102030u, .clear_z = 0x800000, .clear_stencil = 0x3C, .ndraw = 1};
    s.d[0] = d;
    struct vc4_emu *emu = render(&s);
    CHECK_EQ_U64(px_color(emu, &s, 9, 9), 0xFF102030u);
    CHECK_EQ_U64(px_zs(emu, &s, 9, 9), 0x800000u << 8 | 0x77);
    CHECK_EQ_U64(emu->v3d.fsi.stats.stencil_fails, 64u * 64u);
    vc4_emu_destroy(emu);
    CHECK_EQ_INT(hd.warnings, 0);
}

/* ---- early Z -------------------------------------------------------------------------- */

static void test_early_z(void)
{
    /* near (0.25) then far (0.75), LESS with updates, early Z on: the far
     * triangle's quads are all rejected before shading */
    for (int mode = 0; mode < 4; mode++) {
        /* mode 0: early Z; 1: disabled by the frame; 2: GT/GE direction with LESS (not applied);
         * 3: early Z with a far shader that writes no TLB_Z: early Z is before shading and
         * still rejects every sample (docs/rendering.md) */
        bool ez = mode == 0 || mode == 3;
        struct scene s = {.clear_color = 0xFF000000u, .clear_z = 0xFFFFFF, .ndraw = 2,
                          .early_z_disable = mode == 1, .early_z_ge = mode == 2};
        for (unsigned k = 0; k < 2; k++) {
            s.d[k].cfg.depth_func = VC4_CL_DEPTH_LESS;
            s.d[k].cfg.z_updates_enable = true;
            s.d[k].cfg.early_z_enable = true;
            s.d[k].cfg.early_z_updates_enable = true;
            s.d[k].fs = mode == 3 && k ? fs_flat : fs_flatz;
            s.d[k].unif[0] = k ? 0xFFFF0000u : 0xFF0000FFu;
            full_tri(&s.d[k], k ? 0.75f : 0.25f);
        }
        struct vc4_emu *emu = render(&s);
        const struct vc4_fsi_stats *fs = &emu->v3d.fsi.stats;
        CHECK_EQ_U64(fs->early_z_rejects, ez ? 64u * 64u : 0u);
        CHECK_EQ_U64(fs->batches, ez ? 256u : 512u); /* 1024 quads of 2x2, 4 per batch */
        CHECK_EQ_U64(fs->z_fails, ez ? 0u : 64u * 64u);
        CHECK_EQ_U64(px_color(emu, &s, 10, 10), 0xFF0000FFu);
        CHECK_EQ_U64(px_zs(emu, &s, 10, 10) >> 8, z24(0.25));
        /* regression: the payload Z to TLB_Z with early Z on is Mesa's
         * depth-tested shader, not fs-early-z-shader-z */
        CHECK_EQ_INT(hd.warnings, 0);
        vc4_emu_destroy(emu);
    }
    /* partial rejection packs the surviving quads: a far full-frame
     * triangle over a near left half: only the right half's 128 quads are
     * shaded, in 32 batches */
    struct scene s = {.clear_color = 0xFF000000u, .clear_z = 0xFFFFFF, .ndraw = 2};
    s.d[0].cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
    s.d[0].cfg.z_updates_enable = true;
    s.d[0].fs = fs_flatz;
    s.d[0].unif[0] = 0xFF0000FFu;
    const float half[6][3] = {{0, 0, 0.25f}, {32, 0, 0.25f}, {0, 64, 0.25f},
                              {32, 0, 0.25f}, {32, 64, 0.25f}, {0, 64, 0.25f}};
    memcpy(s.d[0].v, half, sizeof half);
    s.d[0].ntri = 2;
    s.d[1].cfg.depth_func = VC4_CL_DEPTH_LEQUAL;
    s.d[1].cfg.early_z_enable = true;
    s.d[1].fs = fs_flatz;
    s.d[1].unif[0] = 0xFFFF0000u;
    full_tri(&s.d[1], 0.5f);
    s.ndraw = 1;
    struct vc4_emu *emu = render(&s);
    uint64_t first = emu->v3d.fsi.stats.batches; /* the left half alone */
    vc4_emu_destroy(emu);
    s.ndraw = 2;
    emu = render(&s);
    const struct vc4_fsi_stats *fs = &emu->v3d.fsi.stats;
    CHECK_EQ_U64(fs->early_z_rejects, 32u * 64u);
    CHECK_EQ_U64(fs->batches, first + 128u); /* the right half's 512 quads, 4 per batch */
    for (unsigned y = 0; y < 64; y += 3)
        for (unsigned x = 0; x < 64; x += 3)
            CHECK_EQ_U64(px_color(emu, &s, x, y), x < 32 ? 0xFF0000FFu : 0xFFFF0000u);
    vc4_emu_destroy(emu);
}

/* With early Z, what the late test would decide differently shows: a
 * shader Z that would pass (warned: fs-early-z-shader-z), and a stencil
 * zfail operation that never happens for the rejected samples. */
static void test_early_z_visible(void)
{
    for (int ez = 0; ez < 2; ez++) {
        struct scene s = {.clear_color = 0xFF000000u, .clear_z = 0x800000, .clear_stencil = 5, .ndraw = 2};
        s.d[0].cfg.depth_func = VC4_CL_DEPTH_LESS;
        s.d[0].cfg.early_z_enable = ez;
        s.d[0].fs = fs_zwrite;
        s.d[0].unif[0] = 0x100000; /* passes against 0x800000 */
        s.d[0].unif[1] = 0xFF00FF00u;
        /* the rasteriser's Z = 0.25 + x / 128: passes (0.5) left of x = 32 */
        const float v[3][3] = {{0, 0, 0.25f}, {200, 0, 0.25f + 200.0f / 128}, {0, 200, 0.25f}};
        memcpy(s.d[0].v, v, sizeof v);
        s.d[0].ntri = 1;
        s.d[1].cfg.depth_func = VC4_CL_DEPTH_LESS;
        s.d[1].cfg.early_z_enable = ez;
        s.d[1].fs = fs_stencil1;
        s.d[1].unif[0] = ss_word(3, 3, 3 /* zfail incr */, 1, 1, 7, 0, 0xFF);
        s.d[1].unif[1] = 0xFFFF0000u;
        full_tri(&s.d[1], 0.9f);
        struct vc4_emu *emu = render(&s);
        CHECK_EQ_U64(px_color(emu, &s, 10, 20), 0xFF00FF00u);
        CHECK_EQ_U64(px_color(emu, &s, 50, 20), ez ? 0xFF000000u : 0xFF00FF00u);
        CHECK_EQ_U64(px_zs(emu, &s, 20, 20) & 0xFF, ez ? 5u : 6u);
        CHECK_EQ_U64(hd.warnings, ez ? 1u : 0u);
        CHECK(!ez || strstr(hd.text, "fs-early-z-shader-z"));
        vc4_emu_destroy(emu);
    }
}

/* HW-2905 (Mesa vc4_emit.c): early Z with multisampling after a
 * full-resolution reload may use the previous tile's values on hardware:
 * warned (vc4kit uses this tile's). */
static void test_early_z_hw2905(void)
{
    for (int reload = 0; reload < 2; reload++) {
        struct scene s = {.ms = true, .clear_color = 0xFF000000u, .clear_z = 0xFFFFFF, .ndraw = 1,
                          .reload_full = reload};
        s.d[0].cfg.depth_func = VC4_CL_DEPTH_LESS;
        s.d[0].cfg.early_z_enable = true;
        s.d[0].fs = fs_flatz;
        s.d[0].unif[0] = 0xFFFFFFFFu;
        full_tri(&s.d[0], 0.5f);
        struct vc4_emu *emu = render(&s);
        CHECK_EQ_INT(hd.warnings, reload);
        CHECK(!reload || strstr(hd.text, "HW-2905"));
        /* the reloaded Z is the dump area's: zero, so LESS rejects all */
        CHECK_EQ_U64(emu->v3d.fsi.stats.early_z_rejects, reload ? 32u * 32u * 4u : 0u);
        vc4_emu_destroy(emu);
    }
}

/* ---- depth offset ---------------------------------------------------------------------- */

static void test_depth_offset(void)
{
    /* Zs = 0.25 + x / 256 at the vertices: dZ/dx = 1/256, dZ/dy = 0 */
    static const struct {
        bool enable;
        float factor, units;
    } cases[] = {{false, 2, 4}, {true, 0, 0}, {true, 2, 4}, {true, -1.5f, -3}, {true, 0, 1000}, {true, 64, 0}};
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct scene s = {.clear_color = 0xFF000000u, .clear_z = 0xFFFFFF, .ndraw = 1};
        struct draw *d = &s.d[0];
        d->cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
        d->cfg.z_updates_enable = true;
        d->cfg.enable_depth_offset = cases[c].enable;
        d->factor = cases[c].factor;
        d->units = cases[c].units;
        d->fs = fs_flatz;
        d->unif[0] = 0xFFFFFFFFu;
        const float v[3][3] = {{0, 0, 0.25f}, {128, 0, 0.75f}, {0, 128, 0.25f}};
        memcpy(d->v, v, sizeof v);
        d->ntri = 1;
        struct vc4_emu *emu = render(&s);
        double off = cases[c].enable ? (double)cases[c].factor / 256.0 + (double)cases[c].units / 16777215.0 : 0.0;
        unsigned bad = 0;
        for (unsigned y = 0; y < 60; y += 3)
            for (unsigned x = 0; x + y < 60; x += 2) {
                uint32_t want = z24(0.25 + (x + 0.5) / 256.0 + off);
                uint32_t got = px_zs(emu, &s, x, y) >> 8;
                if (got != want && bad++ < 3)
                    fprintf(stderr, "  case %u (%u,%u): 0x%06x want 0x%06x\n", c, x, y, got, want);
            }
        CHECK_MSG(bad == 0, "case %u: %u pixels wrong", c, bad);
        vc4_emu_destroy(emu);
    }
}

/* ---- blending through colour loads ----------------------------------------------------- */

/* Source-alpha-over (tests/data/fs_blend_over.qasm): dst = src * a + dst *
 * (1 - a) per 8-bit channel, the tile's colour from a colour load (r4),
 * v8muld and v8adds; uniforms: src, a replicated, 255 - a replicated.  The
 * reference rounds x * y / 255 to nearest (the emulator's documented
 * v8muld) and saturates the sum. */

static uint32_t ref_over(uint32_t dst, uint32_t src, unsigned a)
{
    uint32_t out = 0;
    for (unsigned c = 0; c < 32; c += 8) {
        unsigned d = (dst >> c) & 0xFF, s = (src >> c) & 0xFF;
        unsigned t1 = (unsigned)floor(d * (255.0 - a) / 255.0 + 0.5);
        unsigned t2 = (unsigned)floor(s * (double)a / 255.0 + 0.5);
        unsigned sum = t1 + t2 > 255 ? 255 : t1 + t2;
        out |= (uint32_t)sum << c;
    }
    return out;
}

static void test_blend_over(void)
{
    size_t len = 0;
    char *fs_over = harness_read_file(VC4KIT_TEST_DATA "/fs_blend_over.qasm", &len);
    CHECK(fs_over != NULL);
    if (!fs_over)
        return;
    struct scene s = {.clear_color = 0xFF4080C0u, .clear_z = 0xFFFFFF, .ndraw = 2};
    static const uint32_t src[2] = {0xC01020F0u, 0x8033CC11u};
    static const unsigned alpha[2] = {0xC0, 0x55};
    const float tri[2][3][3] = {{{0, 0, 0.5f}, {60, 4, 0.5f}, {6, 58, 0.5f}},
                                {{63, 63, 0.5f}, {10, 40, 0.5f}, {50, 2, 0.5f}}};
    struct vc4_raster_tri t[2];
    for (unsigned k = 0; k < 2; k++) {
        s.d[k].cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
        s.d[k].fs = fs_over;
        s.d[k].unif[0] = src[k];
        s.d[k].unif[1] = alpha[k] * 0x01010101u;
        s.d[k].unif[2] = (255 - alpha[k]) * 0x01010101u;
        one_tri(&s.d[k], tri[k], &t[k]);
    }
    struct vc4_emu *emu = render(&s);
    unsigned bad = 0, both = 0;
    for (unsigned y = 0; y < 64; y++)
        for (unsigned x = 0; x < 64; x++) {
            uint32_t want = 0xFF4080C0u;
            unsigned n = 0;
            for (unsigned k = 0; k < 2; k++) {
                if (vc4_raster_covers(&t[k], 16 * (int64_t)x + 8, 16 * (int64_t)y + 8)) {
                    want = ref_over(want, src[k], alpha[k]);
                    n++;
                }
            }
            both += n == 2;
            uint32_t got = px_color(emu, &s, x, y);
            if (got != want && bad++ < 3)
                fprintf(stderr, "  (%u,%u): 0x%08x want 0x%08x\n", x, y, got, want);
        }
    CHECK(both > 300);
    CHECK_MSG(bad == 0, "%u pixels wrong", bad);
    CHECK_EQ_INT(hd.warnings, 0);
    vc4_emu_destroy(emu);
    free(fs_over);
}

/* Per-sample colour loads with 4x multisampling: successive loads walk the
 * samples, and TLB_COLOUR_MS writes them back in order: each sample gets
 * its own colour plus one per channel (saturating), visible after the 4x
 * resolve as the average. */
static const char fs_ms_inc[] =
    "mov ra1, unif\n" /* 0x01010101 */
    "nop\n"
    "nop; loadc\n"
    "av8adds tlbm, r4, ra1\n"
    "nop; loadc\n"
    "av8adds tlbm, r4, ra1\n"
    "nop; loadc\n"
    "av8adds tlbm, r4, ra1\n"
    "nop; loadc\n"
    "av8adds tlbm, r4, ra1\n"
    "nop; thrend\n"
    "nop\n"
    "nop; sbdone\n";

/* Two full-frame draws of fs (one uniform) over the clear colour: every
 * pixel must end as want, without warnings. */
static void check_twice(bool ms, const char *fs, uint32_t unif, uint32_t clear, uint32_t want)
{
    struct scene s = {.ms = ms, .clear_color = clear, .clear_z = 0xFFFFFF, .ndraw = 2};
    for (unsigned k = 0; k < 2; k++) {
        s.d[k].cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
        s.d[k].fs = fs;
        s.d[k].unif[0] = unif;
        full_tri(&s.d[k], 0.5f);
    }
    struct vc4_emu *emu = render(&s);
    unsigned bad = 0;
    for (unsigned y = 0; y < frame_dim(&s); y++)
        for (unsigned x = 0; x < frame_dim(&s); x++)
            bad += px_color(emu, &s, x, y) != want;
    CHECK_MSG(bad == 0, "%u pixels are not 0x%08x (0x%08x at 0, 0)", bad, want, px_color(emu, &s, 0, 0));
    CHECK_EQ_INT(hd.warnings, 0);
    vc4_emu_destroy(emu);
}

static void test_ms_color_loads(void)
{
    check_twice(true, fs_ms_inc, 0x01010101u, 0xFF102030u, 0xFF122232u);
}

/* The "load colour and end" form: ldcend loads r4 and ends the program;
 * the blend and the TLB write happen in the two delay slots. */
static const char fs_ldcend[] = "mov ra0, unif\nnop\nnop; ldcend\nav8adds tlbc, r4, ra0\nnop; sbdone\n";

static void test_load_and_end(void)
{
    /* twice: 0x10 + 2, 0x20 + 2, 0x40 + 0xF0 + 0xF0 saturates, 0x80 + 0x60 */
    check_twice(false, fs_ldcend, 0x30F00101u, 0x80402010u, 0xE0FF2212u);
}

/* Coverage and alpha-mask loads and TLB_ALPHA_MASK are not modelled: one
 * warning naming them, r4 = 0. */
static const char fs_cov[] = "nop\nnop\nnop; loadcv\nmov tlbc, r4\nnop; thrend\nnop\nnop; sbdone\n";

static void test_not_modelled(void)
{
    struct scene s = {.clear_color = 0xFF102030u, .clear_z = 0xFFFFFF, .ndraw = 1};
    s.d[0].cfg.depth_func = VC4_CL_DEPTH_ALWAYS;
    s.d[0].fs = fs_cov;
    full_tri(&s.d[0], 0.5f);
    struct vc4_emu *emu = render(&s);
    CHECK_EQ_U64(px_color(emu, &s, 3, 3), 0);
    CHECK_EQ_INT(hd.warnings, 1);
    CHECK(strstr(hd.text, "coverage load (loadcv)") != NULL);
    vc4_emu_destroy(emu);
    /* the coverage pipe of the Configuration Bits: warned, drawn as usual */
    s.d[0].cfg.coverage_pipe_select = true;
    s.d[0].fs = fs_flat;
    s.d[0].unif[0] = 0xFF00FF00u;
    emu = render(&s);
    CHECK_EQ_U64(px_color(emu, &s, 3, 3), 0xFF00FF00u);
    CHECK_EQ_INT(hd.warnings, 1);
    CHECK(strstr(hd.text, "coverage pipe") != NULL);
    vc4_emu_destroy(emu);
}

/* Regression (found by fuzz_render): a Vertex Array Primitives of 2^32 - 1
 * zero-area triangles cost nothing and ran for minutes; every primitive now
 * costs a cycle and the list times out inside its budget. */
static void test_degenerate_list_times_out(void)
{
    struct vc4_diag_sink sink = harness_sink(&hd);
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 4u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    CHECK(sc_load_shader(emu, fs_flat, CODE, sink));
    struct vc4_cl_nv_shader_record rec = {.vertex_stride = 0, .fs_code_addr = CODE, .fs_uniforms_addr = UNIF,
                                          .vertex_data_addr = VERT}; /* every vertex the same */
    uint8_t b[16];
    vc4_cl_nv_shader_record_pack(&rec, b, NULL);
    vc4_emu_mem_write(emu, REC, b, 16);
    struct vc4_cl cl;
    vc4_cl_init(&cl, NULL, RL, &sink);
    struct vc4_cl_tile_rendering_mode_config tr = {.fb_addr = FB, .width_px = 64, .height_px = 64,
                                                   .color_format = VC4_CL_FB_RGBA8888};
    vc4_cl_tile_rendering_mode_config(&cl, &tr);
    struct vc4_cl_tile_coordinates t = {0, 0};
    vc4_cl_tile_coordinates(&cl, &t);
    struct vc4_cl_nv_shader_state nvs = {REC};
    vc4_cl_nv_shader_state(&cl, &nvs);
    struct vc4_cl_vertex_array_primitives va = {.primitive_mode = VC4_CL_PRIM_TRIANGLES, .length = 0xFFFFFFFFu};
    vc4_cl_vertex_array_primitives(&cl, &va);
    vc4_cl_store_ms_tile_buffer_and_eof(&cl);
    CHECK(cl.status == VC4_OK && vc4_emu_mem_write(emu, RL, cl.data, cl.len) == VC4_OK);
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, RL);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, vc4_cl_addr(&cl));
    CHECK_EQ_INT(vc4_emu_run(emu, 200000), VC4_ERR_TIMEOUT);
    CHECK(strstr(hd.text, "cycle budget exhausted") != NULL);
    vc4_cl_free(&cl);
    vc4_emu_destroy(emu);
}

TEST_LIST(test_depth_functions, test_ms_sample_z, test_no_tlbz, test_stencil_decode, test_stencil_table, test_stencil_faces,
          test_ms_stencil, test_ms_coverage_mask, test_early_z, test_early_z_visible, test_early_z_hw2905,
          test_depth_offset, test_blend_over, test_ms_color_loads, test_load_and_end, test_not_modelled,
          test_degenerate_list_times_out)
