/*
 * test_gl.c - GL mode: the GL shader record, the VCD's attribute fetch into
 * the VPM, coordinate / vertex shading on the QPUs, every primitive mode
 * against the NV path, the VPM rules (attribute skipped, output written
 * twice, fragment-shader VPM access, the 8 KB rule), near-plane clipping,
 * and the GL scenes against their golden images (seed 000's scene against
 * nv_triangle's golden: the same image in both modes).
 */
#include <stdlib.h>

#include "gl_scene.h"
#include "harness.h"
#include "emu/v3d.h"
#include "vc4kit/tex.h"

#ifndef VC4KIT_TEST_DATA
#define VC4KIT_TEST_DATA "."
#endif
#define SRC_DIR VC4KIT_TEST_DATA "/../.."
#define EXAMPLES_DIR SRC_DIR "/examples"

static struct harness_diags hd;

static struct vc4_emu *mk(unsigned qpus)
{
    struct vc4_emu_options eo = {.sink = harness_sink(&hd), .num_qpus = qpus, .mem_size = 16u << 20,
                                 .max_cycles = 20000000};
    return vc4_emu_create(&eo);
}

static uint8_t *render(const struct gl_scene *s, unsigned qpus)
{
    struct vc4_emu *emu = mk(qpus);
    uint8_t *rgba = emu ? gl_render_on(emu, s, harness_sink(&hd)) : NULL;
    vc4_emu_destroy(emu);
    return rgba;
}

static bool rebaseline(void)
{
    const char *e = getenv("VC4KIT_REBASELINE");
    return e && *e && strcmp(e, "0") != 0;
}

/* Pixels of rgba that differ from tests/golden/<name>.png (SIZE_MAX: no
 * golden or another size); write: rebaseline this golden. */
static size_t golden_diff(const char *name, const uint8_t *rgba, unsigned w, unsigned h, bool write)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/%s.png", SRC_DIR, name);
    if (write && rebaseline()) {
        CHECK(vc4_png_write(path, rgba, w, h, (size_t)w * 4, NULL) == VC4_OK);
        return 0;
    }
    uint8_t *g = NULL;
    unsigned gw = 0, gh = 0;
    if (vc4_png_read(path, &g, &gw, &gh, NULL) != VC4_OK)
        return SIZE_MAX;
    size_t diff = gw == w && gh == h ? 0 : SIZE_MAX;
    for (size_t i = 0; diff != SIZE_MAX && i < (size_t)w * h; i++)
        diff += memcmp(g + 4 * i, rgba + 4 * i, 4) != 0;
    free(g);
    return diff;
}

static size_t count_not(const uint8_t *rgba, unsigned w, unsigned h, uint32_t bg)
{
    size_t n = 0;
    for (size_t i = 0; i < (size_t)w * h; i++) {
        uint32_t p = (uint32_t)rgba[4 * i] | (uint32_t)rgba[4 * i + 1] << 8 | (uint32_t)rgba[4 * i + 2] << 16 |
                     (uint32_t)rgba[4 * i + 3] << 24;
        n += p != bg;
    }
    return n;
}

static uint32_t pixel(const uint8_t *rgba, unsigned w, unsigned x, unsigned y)
{
    const uint8_t *p = rgba + ((size_t)y * w + x) * 4;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- seed 000's scene ---------------------------------------------------------------- */

/* The words in gl_scene.h are the posted ones (examples/seeds/gl_*_shader.hex). */
static void check_words(const char *file, const uint32_t *w, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/seeds/%s", EXAMPLES_DIR, file);
    char *text = harness_read_file(path, NULL);
    CHECK_MSG(text != NULL, "cannot read %s", path);
    if (!text)
        return;
    size_t k = 0;
    bool same = true;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, ".word", 5) != 0)
            continue;
        unsigned long a = 0, b = 0;
        if (sscanf(line + 5, " %lx , %lx", &a, &b) != 2 || k + 2 > n || w[k] != a || w[k + 1] != b)
            same = false;
        k += 2;
    }
    CHECK_MSG(same && k == n, "%s: %zu words, the embedded copy differs or has %zu", file, k, n);
    free(text);
}

static void test_gl_seed_scene(void)
{
    check_words("gl_vertex_shader.hex", gl_seed_vs_words, sizeof gl_seed_vs_words / 4);
    check_words("gl_coordinate_shader.hex", gl_seed_cs_words, sizeof gl_seed_cs_words / 4);
    uint8_t vdata[256];
    struct gl_scene s = gl_seed_scene(vdata);
    struct vc4_emu *emu = mk(12);
    uint8_t *rgba = gl_render_on(emu, &s, harness_sink(&hd));
    CHECK_MSG(rgba && hd.errors == 0 && hd.warnings == 0, "%s", hd.text);
    if (rgba) {
        /* exactly the NV version's image */
        CHECK_EQ_U64(golden_diff("nv_triangle", rgba, 640, 480, false), 0);
        CHECK(count_not(rgba, 640, 480, SC_CLEAR_COLOR) > 100000);
    }
    /* one batch of 3 vertices each: the coordinate shader while binning,
     * the vertex shader once for the frame (vertex reuse across tiles) */
    CHECK_EQ_U64(emu->v3d.vsi.stats.batches[VC4_GL_CS], 1);
    CHECK_EQ_U64(emu->v3d.vsi.stats.vertices[VC4_GL_CS], 3);
    CHECK_EQ_U64(emu->v3d.vsi.stats.vertices[VC4_GL_VS], 3);
    free(rgba);
    vc4_emu_destroy(emu);
}

/* ---- the GL shader record ---------------------------------------------------------------- */

static void test_gl_record_parse(void)
{
    struct vc4_emu *emu = mk(1);
    struct vc4_cl_gl_shader_record rec = {
        .fs_single_threaded = true, .point_size_included = true, .enable_clipping = true,
        .fs_num_uniforms = 2, .fs_num_varyings = 5, .fs_code_addr = 0x1000, .fs_uniforms_addr = 0x1100,
        .vs_num_uniforms = 7, .vs_attr_select = 0x5, .vs_attr_size = 20, .vs_code_addr = 0x2000,
        .vs_uniforms_addr = 0x2100, .cs_num_uniforms = 3, .cs_attr_select = 0x2, .cs_attr_size = 8,
        .cs_code_addr = 0x3000, .cs_uniforms_addr = 0x3100,
    };
    struct vc4_cl_attr_record a[3] = {
        {0x10000, 11, 0x34, 0, 0}, {0x20000, 7, 8, 0, 0}, {0x30000, 7, 200, 12, 0}};
    struct vc4_cl_ext_stride ext[8] = {{0x12}, {0}, {0x1}};
    uint8_t b[132];
    size_t n = vc4_cl_gl_record_size(3, true);
    CHECK_EQ_U64(n, 112);
    CHECK(vc4_cl_gl_shader_record_pack(&rec, a, 3, ext, b, n, NULL) == VC4_OK);
    vc4_emu_mem_write(emu, 0x8000, b, n);
    struct vc4_cl_gl_shader_state st = {.num_attr_arrays = 3, .extended = true, .record_addr = 0x8000};
    struct vc4_gl_state g;
    struct vc4_location l = vc4_location_none();
    CHECK(vc4_vcd_read_state(&emu->v3d, &st, &g, "test", &l));
    CHECK_MSG(hd.warnings == 0 && hd.errors == 0, "%s", hd.text);
    CHECK(g.valid && g.extended);
    CHECK_EQ_INT(g.nattrs, 3);
    CHECK(g.rec.fs_single_threaded && g.rec.point_size_included && g.rec.enable_clipping);
    CHECK_EQ_U64(g.rec.fs_num_varyings, 5);
    CHECK_EQ_U64(g.rec.vs_attr_select, 5);
    CHECK_EQ_U64(g.rec.vs_attr_size, 20);
    CHECK_EQ_U64(g.rec.cs_code_addr, 0x3000);
    CHECK_EQ_U64(g.rec.cs_uniforms_addr, 0x3100);
    CHECK_EQ_U64(g.rec.vs_uniforms_addr, 0x2100);
    CHECK_EQ_U64(g.attr[0].addr, 0x10000);
    CHECK_EQ_U64(g.attr[0].size, 12);
    CHECK_EQ_U64(g.attr[0].stride, 0x1234); /* 8 bits + the extended word's bits 31:8 */
    CHECK_EQ_U64(g.attr[1].stride, 8);
    CHECK_EQ_U64(g.attr[2].stride, 200 + 256);
    CHECK_EQ_U64(g.attr[2].vpm_off[VC4_GL_VS], 12);
    CHECK_EQ_U64(vc4_gl_in_rows(&g, VC4_GL_VS), 5);
    CHECK_EQ_U64(vc4_gl_out_rows(&g, VC4_GL_VS), 3 + 1 + 5);
    CHECK_EQ_U64(vc4_gl_out_rows(&g, VC4_GL_CS), 8);
    /* 0 arrays means 8; a record needing 8 slots outside memory; select bits
     * naming absent records; a stream beyond the total size; overlap */
    st = (struct vc4_cl_gl_shader_state){.num_attr_arrays = 0, .record_addr = (16u << 20) - 64};
    CHECK(!vc4_vcd_read_state(&emu->v3d, &st, &g, "test", &l));
    CHECK_CONTAINS(hd.text, "(100 bytes for 8 attribute record(s)) is outside memory");
    rec.vs_attr_select = 0x9; /* attribute 3 absent */
    rec.vs_attr_size = 8;     /* attribute 0 is 12 bytes */
    rec.cs_attr_select = 0x6;
    a[1].cs_vpm_offset = 4;   /* attributes 1 and 2 overlap at CS bytes 4..7 */
    a[2].cs_vpm_offset = 0;
    rec.cs_attr_size = 12;
    vc4_cl_gl_shader_record_pack(&rec, a, 3, NULL, b, vc4_cl_gl_record_size(3, false), NULL);
    vc4_emu_mem_write(emu, 0x9008, b, vc4_cl_gl_record_size(3, false));
    st = (struct vc4_cl_gl_shader_state){.num_attr_arrays = 3, .record_addr = 0x9008};
    CHECK(vc4_vcd_read_state(&emu->v3d, &st, &g, "test", &l));
    CHECK_CONTAINS(hd.text, "GL shader record 0x00009008 is not 16-byte aligned");
    CHECK_CONTAINS(hd.text, "select bits name attribute 3 but packet 64 declares 3 attribute record(s): attribute 3 is not fetched [gl-attr-select");
    CHECK_CONTAINS(hd.text, "vertex shader attribute 0 (VPM offset 0, 12 bytes) reaches beyond the total attributes size 8");
    CHECK_CONTAINS(hd.text, "coordinate shader attributes 1 and 2 overlap in the VPM at byte 4");
    rec.cs_attr_select = 0x8; /* only an absent record: nothing fetched */
    vc4_cl_gl_shader_record_pack(&rec, a, 3, NULL, b, vc4_cl_gl_record_size(3, false), NULL);
    vc4_emu_mem_write(emu, 0x9010, b, vc4_cl_gl_record_size(3, false));
    st.record_addr = 0x9010;
    CHECK(vc4_vcd_read_state(&emu->v3d, &st, &g, "test", &l));
    CHECK_CONTAINS(hd.text, "GL record 0x00009010: the coordinate shader fetches no attribute; Mesa always gives each shader at least one");
    vc4_emu_destroy(emu);
}

/* ---- VCD fetch ------------------------------------------------------------------------------ */

static uint8_t pattern(uint32_t addr) { return (uint8_t)(addr * 131u + 7u + (addr >> 8)); }

/* Every size / stride / VPM offset / batch size / window: byte k of vertex
 * c's stream lands in row base + (off + k) / 4, column c, lane (off + k) % 4;
 * nothing else in the window changes. */
static void test_vcd_fetch(void)
{
    struct vc4_emu *emu = mk(1);
    struct vc4_v3d *v = &emu->v3d;
    uint8_t *mem = malloc(1u << 16);
    for (uint32_t i = 0; i < (1u << 16); i++)
        mem[i] = pattern(0x40000 + i);
    vc4_emu_mem_write(emu, 0x40000, mem, 1u << 16);
    static const unsigned sizes[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 28, 64};
    static const unsigned extra[] = {0, 1, 5, 300};
    static const unsigned offs[] = {0, 1, 2, 3, 4, 9};
    static const unsigned ns[] = {1, 5, 15, 16};
    static const unsigned bases[] = {0, 7};
    static const uint32_t idx[16] = {0, 3, 1, 7, 2, 2, 9, 4, 5, 11, 6, 8, 10, 13, 12, 14};
    unsigned bad = 0, cases = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++)
        for (size_t ei = 0; ei < sizeof extra / sizeof *extra; ei++)
            for (size_t oi = 0; oi < sizeof offs / sizeof *offs; oi++)
                for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
                    for (size_t bi = 0; bi < sizeof bases / sizeof *bases; bi++)
                        for (int stage = 0; stage < 2; stage++) {
                            unsigned size = sizes[si], stride = size + extra[ei], off = offs[oi];
                            unsigned n = ns[ni], base = bases[bi];
                            struct vc4_gl_state g = {.valid = true, .nattrs = 2};
                            g.attr[1] = (struct vc4_gl_attr){.addr = 0x40000 + 17, .size = size,
                                                             .stride = stride};
                            g.attr[1].vpm_off[stage] = off;
                            /* attribute 0 is not selected and must not be fetched */
                            g.attr[0] = (struct vc4_gl_attr){.addr = 0x40000, .size = 64, .stride = 64};
                            if (stage == VC4_GL_CS) {
                                g.rec.cs_attr_select = 2;
                                g.rec.cs_attr_size = off + size;
                            } else {
                                g.rec.vs_attr_select = 2;
                                g.rec.vs_attr_size = off + size;
                            }
                            for (unsigned r = 0; r < 24; r++)
                                for (unsigned c = 0; c < 16; c++)
                                    vc4_vpm_poke(&v->vpm, base + r, c, 0xA5A5A5A5u);
                            struct vc4_location l = vc4_location_none();
                            CHECK(vc4_vcd_fetch(v, &g, (enum vc4_gl_stage)stage, idx, n, base, "test", &l));
                            cases++;
                            for (unsigned r = 0; r < 24; r++)
                                for (unsigned c = 0; c < 16; c++)
                                    for (unsigned lane = 0; lane < 4; lane++) {
                                        unsigned b = r * 4 + lane;
                                        uint8_t want = 0xA5;
                                        if (c < n && b >= off && b < off + size)
                                            want = mem[17 + idx[c] * stride + (b - off)];
                                        uint8_t got = (uint8_t)(vc4_vpm_peek(&v->vpm, base + r, c) >> (8 * lane));
                                        bad += got != want;
                                    }
                        }
    CHECK_EQ_INT(bad, 0);
    CHECK(cases > 2000);
    /* two streams sharing a row (bytes 0-1 and 2-3) keep each other's bytes */
    struct vc4_gl_state g = {.valid = true, .nattrs = 2};
    g.attr[0] = (struct vc4_gl_attr){.addr = 0x40000, .size = 2, .stride = 2};
    g.attr[1] = (struct vc4_gl_attr){.addr = 0x40100, .size = 2, .stride = 2, .vpm_off = {0, 2}};
    g.rec.vs_attr_select = 3;
    g.rec.vs_attr_size = 4;
    struct vc4_location l = vc4_location_none();
    CHECK(vc4_vcd_fetch(v, &g, VC4_GL_VS, idx, 2, 0, "test", &l));
    uint32_t w = vc4_vpm_peek(&v->vpm, 0, 1); /* vertex index 3 */
    CHECK_EQ_U64(w, (uint32_t)mem[6] | (uint32_t)mem[7] << 8 | (uint32_t)mem[0x106] << 16 | (uint32_t)mem[0x107] << 24);
    /* outside memory: zeros and an error naming the attribute */
    g.attr[1].addr = (16u << 20) - 1;
    CHECK(!vc4_vcd_fetch(v, &g, VC4_GL_VS, idx, 2, 0, "test", &l));
    CHECK_CONTAINS(hd.text, "vertex shader attribute 1 of vertex 0 at 0x00ffffff (2 bytes) is outside memory");
    CHECK_EQ_U64(vc4_vpm_peek(&v->vpm, 0, 0) >> 16, 0);
    free(mem);
    vc4_emu_destroy(emu);
}

/* ---- shading in batches, vertex reuse ---------------------------------------------------------- */

/* The seed's pass-through coordinate shader over 40 vertices, indexed with
 * repeats: every vertex's outputs are its 7 input words, each vertex
 * shaded once, in batches of 16 (16 + 16 + 8 over 3 QPUs, and over 1). */
/* A GL state (record 0x5000) whose coordinate shader at GL_CS_CODE reads
 * one 28-byte attribute at GL_VDATA: 7 VPM rows. */
static struct vc4_gl_state cs_state_7rows(void)
{
    struct vc4_gl_state g = {.valid = true, .nattrs = 1, .record_addr = 0x5000};
    g.attr[0] = (struct vc4_gl_attr){.addr = GL_VDATA, .size = 28, .stride = 28};
    g.rec.cs_attr_select = 1;
    g.rec.cs_attr_size = 28;
    g.rec.cs_code_addr = GL_CS_CODE;
    return g;
}

static void test_batches_and_reuse(void)
{
    for (unsigned qpus = 1; qpus <= 12; qpus += 11) {
        struct vc4_emu *emu = mk(qpus);
        struct vc4_v3d *v = &emu->v3d;
        uint8_t code[sizeof gl_seed_cs_words];
        for (size_t i = 0; i < sizeof gl_seed_cs_words / 4; i++)
            sc_put32(code + 4 * i, gl_seed_cs_words[i]);
        vc4_emu_mem_write(emu, GL_CS_CODE, code, sizeof code);
        for (uint32_t i = 0; i < 40 * 7; i++) {
            uint8_t b[4];
            sc_put32(b, 0x1000000u * (i % 7) + i / 7);
            vc4_emu_mem_write(emu, GL_VDATA + 4 * i, b, 4);
        }
        struct vc4_gl_state g = cs_state_7rows();
        uint32_t idx[80];
        for (unsigned i = 0; i < 80; i++)
            idx[i] = (i * 7u) % 40u; /* every index twice */
        struct vc4_location l = vc4_location_none();
        CHECK(vc4_vsi_shade(v, VC4_GL_CS, &g, idx, 80, &l) == VC4_OK);
        CHECK_MSG(hd.errors == 0 && hd.warnings == 0, "%s", hd.text);
        CHECK_EQ_U64(v->vsi.stats.batches[VC4_GL_CS], 3);
        CHECK_EQ_U64(v->vsi.stats.vertices[VC4_GL_CS], 40);
        unsigned bad = 0;
        for (uint32_t i = 0; i < 40; i++) {
            const uint32_t *w = vc4_vsi_get(&v->vsi, VC4_GL_CS, i);
            for (unsigned k = 0; k < 7 && w; k++)
                bad += w[k] != 0x1000000u * k + i;
            bad += !w;
        }
        CHECK_EQ_INT(bad, 0);
        CHECK(vc4_vsi_get(&v->vsi, VC4_GL_CS, 40) == NULL);
        /* shading the same indices again reuses them */
        CHECK(vc4_vsi_shade(v, VC4_GL_CS, &g, idx, 80, &l) == VC4_OK);
        CHECK_EQ_U64(v->vsi.stats.batches[VC4_GL_CS], 3);
        vc4_emu_destroy(emu);
    }
}

/* The output rule looks at every vertex of a full batch: a coordinate
 * shader that writes output row 0 for elements 0-7 only leaves it unwritten
 * for vertices 8-15 (the end-of-batch check compares 8 columns at a time:
 * the second 8 must count). */
static const char cs_half_row0[] =
    "ldi vr_setup, 0x00701A00\n"
    "ldi vw_setup, 0x00001A00\n"
    "nop\n"
    "nop\n"
    "mov ra0, vpm\n"
    "mov ra1, vpm\n"
    "mov ra2, vpm\n"
    "mov ra3, vpm\n"
    "mov ra4, vpm\n"
    "mov ra5, vpm\n"
    "mov ra6, vpm\n"
    "sub.setf -, elem_num, 8     # N: elements 0-7\n"
    "mov.ifn vpm, ra0\n"
    "mov vpm, ra1\n"
    "mov vpm, ra2\n"
    "mov vpm, ra3\n"
    "mov vpm, ra4\n"
    "mov vpm, ra5\n"
    "mov vpm, ra6\n"
    "nop; thrend\n"
    "nop\n"
    "nop\n";

static void test_output_rule_every_vertex(void)
{
    struct vc4_emu *emu = mk(1);
    struct vc4_v3d *v = &emu->v3d;
    CHECK(sc_load_shader(emu, cs_half_row0, GL_CS_CODE, harness_sink(&hd)));
    struct vc4_gl_state g = cs_state_7rows();
    uint32_t idx[32];
    for (unsigned i = 0; i < 32; i++)
        idx[i] = i;
    struct vc4_location l = vc4_location_none();
    /* a batch of 8 vertices: row 0 is written for each (the conditional
     * VPM write has a warning of its own) */
    hd = (struct harness_diags){0};
    CHECK(vc4_vsi_shade(v, VC4_GL_CS, &g, idx, 8, &l) == VC4_OK);
    CHECK_CONTAINS(hd.text, "[periph-cond-write;");
    CHECK_MSG(strstr(hd.text, "not written") == NULL, "%s", hd.text);
    /* a batch of 16 (other vertices, another record: the rule is given
     * once per record): vertex 8 is the first without it */
    g.record_addr = 0x5100;
    CHECK(vc4_vsi_shade(v, VC4_GL_CS, &g, idx + 8, 16, &l) == VC4_OK);
    CHECK_CONTAINS(hd.text, "output row 0 of 7 (vertex 8) not written");
    vc4_emu_destroy(emu);
}

/* ---- every primitive mode: GL against NV ----------------------------------------------------------- */

/* 12 vertices on a 128x128 frame (2x2 tiles): stream 0 in the PSE format
 * (the NV record reads the same bytes), stream 1 in the PTB format. */
static size_t mode_vdata(uint8_t *out)
{
    static const int xy[12][2] = {{10, 12}, {70, 8}, {40, 60}, {120, 30}, {100, 90}, {60, 118},
                                  {8, 100}, {30, 70}, {90, 50}, {66, 66}, {20, 40}, {110, 120}};
    for (int i = 0; i < 12; i++) {
        uint8_t *v = out + 12 * i, *c = out + 256 + 28 * i;
        sc_put32(v, gl_xy16(xy[i][0] * 16 + 3, xy[i][1] * 16 + 5));
        sc_put32(v + 4, sc_f2u(0.5f));
        sc_put32(v + 8, sc_f2u(1.0f));
        const float clip[4] = {xy[i][0] / 64.0f - 1.0f, 1.0f - xy[i][1] / 64.0f, 0.0f, 1.0f};
        for (int k = 0; k < 4; k++)
            sc_put32(c + 4 * k, sc_f2u(clip[k]));
        memcpy(c + 16, v, 12);
    }
    return 256 + 28 * 12;
}

static void test_prim_modes(void)
{
    static uint8_t vdata[256 + 28 * 12];
    size_t vlen = mode_vdata(vdata);
    static const uint16_t indices[] = {3, 0, 7, 7, 1, 11, 4, 2, 9, 5, 10, 6, 8, 3, 2};
    unsigned drawn_modes = 0;
    for (unsigned mode = VC4_CL_PRIM_POINTS; mode <= VC4_CL_PRIM_TRIANGLE_FAN; mode++)
        for (int form = 0; form < 3; form++) { /* array, 16-bit indices, 8-bit indices */
            struct gl_scene s = {
                .width = 128, .height = 128,
                .vs = {gl_seed_vs_words, sizeof gl_seed_vs_words / 4, NULL},
                .cs = {gl_seed_cs_words, sizeof gl_seed_cs_words / 4, NULL},
                .fs_src = sc_fs_uniform_for(mode), .vdata = vdata, .vdata_len = vlen,
                .attr = {{0, 11, 12, 0, 0}, {256, 27, 28, 0, 0}}, .nattrs = 2,
                .rec = {.enable_clipping = true, .vs_attr_select = 1, .vs_attr_size = 12,
                        .cs_attr_select = 2, .cs_attr_size = 28},
                .fs_unif = gl_seed_fs_unif, .nfs_unif = 4,
                .prim_mode = mode, .first = 1, .count = 11,
                .depth_func = VC4_CL_DEPTH_ALWAYS, .point_size = 5.0f, .line_width = 2.0f,
                .clear_color = SC_CLEAR_COLOR,
            };
            if (form) {
                s.indices = indices;
                s.nindices = sizeof indices / sizeof *indices;
                s.max_index = 11;
                s.index8 = form == 2;
            }
            uint8_t *gl = render(&s, 4);
            CHECK_MSG(gl && hd.errors == 0 && hd.warnings == 0, "mode %u form %d: %s", mode, form, hd.text);
            s.nv_mode = true;
            uint8_t *nv = render(&s, 4);
            CHECK(nv != NULL);
            if (gl && nv) {
                size_t diff = 0;
                for (size_t i = 0; i < 128u * 128u * 4u; i++)
                    diff += gl[i] != nv[i];
                CHECK_MSG(diff == 0, "mode %u form %d: %zu bytes differ from NV mode", mode, form, diff);
                drawn_modes += count_not(gl, 128, 128, SC_CLEAR_COLOR) > 20;
            }
            free(gl);
            free(nv);
        }
    CHECK_EQ_INT(drawn_modes, 7 * 3); /* each case drew something */
}

/* ---- point size from the shaders ---------------------------------------------------------------- */

/* A pass-through shader of n rows (read n, write n). */
static void passthrough(char *out, size_t cap, unsigned n)
{
    size_t k = (size_t)snprintf(out, cap, "ldi vr_setup, 0x%08x\nldi vw_setup, 0x00001A00\nnop\nnop\n",
                                n << 20 | 0x1A00u);
    for (unsigned i = 0; i < n && k < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, "mov ra%u, vpm\n", i);
    for (unsigned i = 0; i < n && k < cap; i++)
        k += (size_t)snprintf(out + k, cap - k, "mov vpm, ra%u\n", i);
    if (k < cap)
        snprintf(out + k, cap - k, "nop; thrend\nnop\nnop\n");
}

/* Record flag bit 1: the coordinate shader's 8th row and the vertex
 * shader's 4th are the point size; points of sizes 1..12 drawn as in NV
 * mode with the size in the vertex data. */
static void test_point_size(void)
{
    uint8_t vdata[256 + 12 * 32];
    for (int i = 0; i < 12; i++) {
        uint8_t *v = vdata + 16 * i, *c = vdata + 256 + 32 * i;
        int x = 10 + 10 * i, y = i % 2 ? 80 : 20; /* no two points overlap */
        sc_put32(v, gl_xy16(x * 16 + 8, y * 16 + 8));
        sc_put32(v + 4, sc_f2u(0.5f));
        sc_put32(v + 8, sc_f2u(1.0f));
        sc_put32(v + 12, sc_f2u(1.0f + (float)i));
        const float clip[4] = {x / 64.0f - 1.0f, 1.0f - y / 64.0f, 0.0f, 1.0f};
        for (int k = 0; k < 4; k++)
            sc_put32(c + 4 * k, sc_f2u(clip[k]));
        memcpy(c + 16, v, 16);
    }
    static char vs[1024], cs[1024];
    passthrough(vs, sizeof vs, 4);
    passthrough(cs, sizeof cs, 8);
    struct gl_scene s = {
        .width = 128, .height = 128, .vs = {NULL, 0, vs}, .cs = {NULL, 0, cs},
        .fs_src = sc_fs_uniform_for(VC4_CL_PRIM_POINTS), .vdata = vdata, .vdata_len = sizeof vdata,
        .attr = {{0, 15, 16, 0, 0}, {256, 31, 32, 0, 0}}, .nattrs = 2,
        .rec = {.point_size_included = true, .enable_clipping = true, .vs_attr_select = 1, .vs_attr_size = 16,
                .cs_attr_select = 2, .cs_attr_size = 32},
        .fs_unif = gl_seed_fs_unif, .nfs_unif = 4, .prim_mode = VC4_CL_PRIM_POINTS, .count = 12,
        .depth_func = VC4_CL_DEPTH_ALWAYS, .point_size = 30.0f, /* not used: the vertices carry theirs */
        .clear_color = SC_CLEAR_COLOR,
    };
    uint8_t *gl = render(&s, 4);
    CHECK_MSG(gl && hd.errors == 0 && hd.warnings == 0, "%s", hd.text);
    s.nv_mode = true;
    uint8_t *nv = render(&s, 4);
    CHECK(gl && nv && memcmp(gl, nv, 128 * 128 * 4) == 0);
    /* sizes 1..12: 1 + 4 + ... + 144 pixels if every point is whole */
    if (gl)
        CHECK_EQ_U64(count_not(gl, 128, 128, SC_CLEAR_COLOR), 650);
    free(gl);
    free(nv);
}

/* ---- the PSE's point and line varyings ------------------------------------------------------- */

/* An NV-mode scene of one primitive whose vertices (PSE format: X, Y in
 * 12.4, Zs, 1/Wc, nvary varyings) are v, drawn with fs. */
static uint8_t *nv_prim(unsigned mode, const int16_t (*xy)[2], unsigned nverts, unsigned nvary,
                        const float *vary, const char *fs)
{
    static uint8_t vdata[4 * 24];
    unsigned stride = 12 + 4 * nvary;
    for (unsigned i = 0; i < nverts; i++) {
        uint8_t *c = vdata + i * stride;
        sc_put32(c, (uint32_t)(uint16_t)xy[i][0] | (uint32_t)(uint16_t)xy[i][1] << 16);
        sc_put32(c + 4, sc_f2u(0.5f));
        sc_put32(c + 8, sc_f2u(1.0f));
        for (unsigned k = 0; k < nvary; k++)
            sc_put32(c + 12 + 4 * k, sc_f2u(vary[i * nvary + k]));
    }
    struct gl_scene s = {
        .width = 64, .height = 64, .fs_src = fs, .vdata = vdata, .vdata_len = nverts * stride,
        .attr = {{0, stride - 1, stride, 0, 0}}, .nattrs = 1,
        .rec = {.fs_num_varyings = nvary, .vs_attr_select = 1, .vs_attr_size = stride,
                .cs_attr_select = 1, .cs_attr_size = stride},
        .prim_mode = mode, .count = nverts, .depth_func = VC4_CL_DEPTH_ALWAYS,
        .point_size = 8.0f, .line_width = 4.0f, .clear_color = SC_CLEAR_COLOR, .nv_mode = true,
    };
    return render(&s, 4);
}

/* Byte b of pixel (x, y) is round(v * 255) within 1 (the 8-bit pack). */
static void check_byte(const uint8_t *rgba, unsigned x, unsigned y, unsigned b, double v)
{
    int want = (int)(v * 255.0 + 0.5), got = rgba[4 * (y * 64 + x) + b];
    CHECK_MSG(got >= want - 1 && got <= want + 1, "pixel (%u, %u) byte %u: %d, want %d (%.4f)", x, y, b, got,
              want, v);
}

/* The point (s, t) and line coordinate varyings the PSE makes (pse.h),
 * read before the record's: sc_fs_varyings writes its three reads as R, G,
 * B.  An 8-pixel point centred on (32, 32): s = 0.5 + (x + 0.5 - 32) / 8
 * left to right, t = 0.5 - (y + 0.5 - 32) / 8 (1 at the top), then the
 * record's varying.  A 4-pixel wide x-major line along y = 40.5: the line
 * coordinate 0.5 + (y + 0.5 - 40.5) / 4 across it, then the record's two
 * varyings; a sloped y-major line has it across x, around the line's x at
 * each row.  No rule fires; one varying too many read on a point still
 * fires fs-varyings-overread, one too few fs-varyings-unread. */
static void test_point_line_varyings(void)
{
    static const int16_t pt[1][2] = {{32 * 16, 32 * 16}};
    static const float pv[1] = {0.75f};
    uint8_t *rgba = nv_prim(VC4_CL_PRIM_POINTS, pt, 1, 1, pv, sc_fs_varyings);
    CHECK_MSG(rgba && hd.errors == 0 && hd.warnings == 0, "%s", hd.text);
    if (rgba) {
        CHECK_EQ_U64(count_not(rgba, 64, 64, SC_CLEAR_COLOR), 64);
        static const unsigned at[][2] = {{28, 28}, {35, 28}, {28, 35}, {31, 33}, {34, 30}};
        for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
            unsigned x = at[i][0], y = at[i][1];
            check_byte(rgba, x, y, 0, 0.5 + ((double)x + 0.5 - 32.0) / 8.0);
            check_byte(rgba, x, y, 1, 0.5 - ((double)y + 0.5 - 32.0) / 8.0);
            check_byte(rgba, x, y, 2, 0.75);
        }
    }
    free(rgba);

    static const int16_t ln[2][2] = {{10 * 16, 40 * 16 + 8}, {60 * 16, 40 * 16 + 8}};
    static const float lv[4] = {0.25f, 1.0f, 0.25f, 0.0f};
    rgba = nv_prim(VC4_CL_PRIM_LINES, ln, 2, 2, lv, sc_fs_varyings);
    CHECK_MSG(rgba && hd.errors == 0 && hd.warnings == 0, "%s", hd.text);
    if (rgba) {
        CHECK_EQ_U64(count_not(rgba, 64, 64, SC_CLEAR_COLOR), 4 * 50);
        for (unsigned y = 38; y <= 41; y++)
            for (unsigned x = 12; x < 60; x += 13) {
                check_byte(rgba, x, y, 0, 0.5 + ((double)y + 0.5 - 40.5) / 4.0);
                check_byte(rgba, x, y, 1, 0.25);
                check_byte(rgba, x, y, 2, 1.0 - ((double)x + 0.5 - 10.0) / 50.0);
            }
    }
    free(rgba);

    /* a sloped y-major line from (20.5, 5) to (30.5, 60): across is x, the
     * line's x moving 10/55 pixel per row */
    static const int16_t sl[2][2] = {{20 * 16 + 8, 5 * 16}, {30 * 16 + 8, 60 * 16}};
    rgba = nv_prim(VC4_CL_PRIM_LINES, sl, 2, 2, lv, sc_fs_varyings);
    CHECK_MSG(rgba && hd.errors == 0 && hd.warnings == 0, "%s", hd.text);
    unsigned checked = 0;
    for (unsigned y = 10; rgba && y < 56; y += 9) {
        double xl = 20.5 + ((double)y + 0.5 - 5.0) * 10.0 / 55.0;
        for (unsigned x = (unsigned)xl - 2; x <= (unsigned)xl + 2; x++) {
            double off = (double)x + 0.5 - xl;
            if (off <= -1.75 || off >= 1.75)
                continue;
            check_byte(rgba, x, y, 0, 0.5 + off / 4.0);
            checked++;
        }
    }
    CHECK(checked >= 15);
    free(rgba);

    /* a point with no record varyings: the third read is beyond them */
    rgba = nv_prim(VC4_CL_PRIM_POINTS, pt, 1, 0, pv, sc_fs_varyings);
    CHECK_CONTAINS(hd.text, "[fs-varyings-overread;");
    free(rgba);
    /* two record varyings: the shader leaves one */
    static const float pv2[2] = {0.75f, 0.5f};
    rgba = nv_prim(VC4_CL_PRIM_POINTS, pt, 1, 2, pv2, sc_fs_varyings);
    CHECK_CONTAINS(hd.text, "[fs-varyings-unread;");
    CHECK(strstr(hd.text, "fs-varyings-overread") == NULL);
    free(rgba);
}

/* ---- rules ---------------------------------------------------------------------------------- */

static const char vs_skips_attr[] =
    "ldi vr_setup, 0x00201A00   # reads 2 of the 3 attribute rows\n"
    "ldi vw_setup, 0x00001A00\n"
    "nop\n"
    "nop\n"
    "mov ra0, vpm\n"
    "mov ra1, vpm\n"
    "mov vpm, ra0\n"
    "mov vpm, ra1\n"
    "mov vpm, ra1\n"
    "nop; thrend\n"
    "nop\n"
    "nop\n";

static const char vs_writes_twice[] =
    "ldi vr_setup, 0x00301A00\n"
    "ldi vw_setup, 0x00001A00\n"
    "nop\n"
    "nop\n"
    "mov ra0, vpm\n"
    "mov ra1, vpm\n"
    "mov ra2, vpm\n"
    "mov vpm, ra0\n"
    "mov vpm, ra1\n"
    "mov vpm, ra2\n"
    "ldi vw_setup, 0x00001A00   # row 0 again\n"
    "mov vpm, ra0\n"
    "nop; thrend\n"
    "nop\n"
    "nop\n";

static const char vs_reads_twice[] =
    "ldi vr_setup, 0x00301A00\n"
    "ldi vw_setup, 0x00001A00\n"
    "nop\n"
    "nop\n"
    "mov ra0, vpm\n"
    "mov ra1, vpm\n"
    "mov ra2, vpm\n"
    "ldi vr_setup, 0x00101A01   # row 1 again\n"
    "nop\n"
    "nop\n"
    "nop\n"
    "mov r0, vpm\n"
    "mov vpm, ra0\n"
    "mov vpm, ra1\n"
    "mov vpm, ra2\n"
    "nop; thrend\n"
    "nop\n"
    "nop\n";

static const char fs_touches_vpm[] =
    "ldi vw_setup, 0x00001A00\n"
    "nop; fmul r5quad.8a, unif, 1.0; @add_a=6 @add_b=7\n"
    "nop; fmul r5quad.8b, unif, 1.0\n"
    "nop; fmul r5quad.8c, unif, 1.0\n"
    "nop; fmul r5quad.8d, unif, 1.0\n"
    "mov tlbc, r5\n"
    "nop; thrend\n"
    "nop\n"
    "nop; sbdone\n";

static void test_rules(void)
{
    uint8_t vdata[256];
    /* the seed scene with a vertex shader that skips attribute 0's last word */
    struct gl_scene s = gl_seed_scene(vdata);
    s.vs = (struct gl_shader){NULL, 0, vs_skips_attr};
    free(render(&s, 12));
    CHECK_CONTAINS(hd.text, "vertex shader (GL record 0x00110000): attribute not read from the VPM: attribute 0 "
                            "(VPM offset 0, 12 bytes): byte 8 (VPM row 2) of vertex 0 never read");
    CHECK_CONTAINS(hd.text, "[gl-attr-read-once; seed 000");
    CHECK_EQ_INT(hd.warnings, 1); /* once per record and rule */
    /* the seed's own shaders: nothing */
    s = gl_seed_scene(vdata);
    free(render(&s, 12));
    CHECK_MSG(hd.warnings == 0 && hd.errors == 0, "%s", hd.text);
    /* an output row written twice */
    s.vs = (struct gl_shader){NULL, 0, vs_writes_twice};
    free(render(&s, 12));
    CHECK_CONTAINS(hd.text, "vertex shader (GL record 0x00110000): output written to the VPM more than once: "
                            "output row 0 written again");
    CHECK_CONTAINS(hd.text, "[gl-output-write-once;");
    /* an attribute row read twice */
    s.vs = (struct gl_shader){NULL, 0, vs_reads_twice};
    free(render(&s, 12));
    CHECK_CONTAINS(hd.text, "vertex shader (GL record 0x00110000): attribute read from the VPM more than once: "
                            "VPM row 1 (attribute 0) read again at 0x00112058");
    /* the coordinate shader run as the vertex shader: it reads 7 rows of a
     * 3-row batch (beyond the attributes) and writes 7 */
    s = gl_seed_scene(vdata);
    s.vs = s.cs;
    free(render(&s, 12));
    CHECK_CONTAINS(hd.text, "VPM read of a row that holds no attribute: VPM row 3 byte 0 read");
    /* a fragment shader touching the VPM */
    s = gl_seed_scene(vdata);
    s.fs_src = fs_touches_vpm;
    free(render(&s, 12));
    CHECK_CONTAINS(hd.text, "fragment shader accesses the VPM (VPMVCD_WR_SETUP)");
    CHECK_CONTAINS(hd.text, "[fs-vpm-access;");
    /* strict mode: the skipped attribute is an error that stops the run */
    s = gl_seed_scene(vdata);
    s.vs = (struct gl_shader){NULL, 0, vs_skips_attr};
    struct vc4_emu_options eo = {.sink = harness_sink(&hd), .num_qpus = 12, .mem_size = 16u << 20, .strict = true};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    uint32_t be = 0, re = 0;
    CHECK(gl_build(emu, &s, harness_sink(&hd), &be, &re));
    vc4_emu_reg_write(emu, VC4_V3D_CT0CA, SC_BIN_CL);
    vc4_emu_reg_write(emu, VC4_V3D_CT0EA, be);
    CHECK(vc4_emu_run(emu, 0) == VC4_OK); /* the coordinate shader is fine */
    vc4_emu_reg_write(emu, VC4_V3D_CT1CA, SC_RENDER_CL);
    vc4_emu_reg_write(emu, VC4_V3D_CT1EA, re);
    CHECK(vc4_emu_run(emu, 0) == VC4_ERR_RULE);
    CHECK(hd.errors >= 1);
    vc4_emu_destroy(emu);
}

/* Regression (found by gl-check, a vec4 attribute read as a vec3): Mesa's
 * vc4 declares a stream with its format's full size but sizes the VPM
 * offsets and the total by the components the shader reads, so the stream
 * reaches past the total.  That is correct, working driver code: notes
 * only, no gl-attr-read-once error for the bytes past the total, and the
 * same frame as the seed scene. */
static void test_regression_mesa_partial_attribute(void)
{
    uint8_t vdata[256];
    struct gl_scene s = gl_seed_scene(vdata);
    uint8_t *want = render(&s, 12);
    CHECK(want != NULL);
    s = gl_seed_scene(vdata);
    s.attr[0].num_bytes_minus_1 = 15; /* 16 bytes fetched, 12 in the total and read */
    uint8_t *got = render(&s, 12);
    CHECK_MSG(hd.warnings == 0 && hd.errors == 0, "%s", hd.text);
    CHECK_CONTAINS(hd.text, "reaches beyond the total attributes size 12");
    CHECK_CONTAINS(hd.text, "[gl-attr-total-size;");
    CHECK(strstr(hd.text, "gl-attr-read-once") == NULL);
    CHECK(want && got && memcmp(want, got, (size_t)s.width * s.height * 4) == 0);
    free(want);
    free(got);
}

/* Regression (found by gl-check's attrib_formats, a vec2 of bytes): an
 * attribute whose size is not a multiple of 4 bytes is read as the whole
 * words it starts, as Mesa's shaders read it; the word's bytes past the
 * attribute are no "row that holds no attribute".  A word wholly past the
 * attributes still is (test_rules). */
static void test_regression_attribute_in_part_of_a_word(void)
{
    uint8_t vdata[256];
    struct gl_scene s = gl_seed_scene(vdata);
    s.attr[0].num_bytes_minus_1 = 9; /* 10 bytes fetched; the shader reads rows 0-2 */
    free(render(&s, 12));
    CHECK(strstr(hd.text, "gl-attr-read-once") == NULL);
    CHECK_MSG(hd.warnings == 0 && hd.errors == 0, "%s", hd.text);
    /* the same 10 bytes with the last word never read: bytes 8 and 9 unread */
    s = gl_seed_scene(vdata);
    s.attr[0].num_bytes_minus_1 = 9;
    s.vs = (struct gl_shader){NULL, 0, vs_skips_attr};
    free(render(&s, 12));
    CHECK_CONTAINS(hd.text, "attribute 0 (VPM offset 0, 10 bytes): byte 8 (VPM row 2) of vertex 0 never read");
}

/*
 * A vertex shader's outputs do not overwrite inputs it has still to read
 * (regression, 2026-11-29).  The attributes in VPM rows 0-2 are 1/Wc,
 * Xs/Ys, Zs; the shader reads Zs, writes output row 1 (Zs) over input row
 * 1 if inputs and outputs shared rows, and only then sets up the reads of
 * 1/Wc and Xs/Ys, as Mesa's scheduled shaders do (piglit's glsl-routing,
 * which passes on Pi 3s in Mesa's CI).  In one shared window Xs/Ys read
 * back Zs's bits and the triangle left the frame.
 */
static const char vs_writes_before_reading[] =
    "ldi vr_setup, 0x00101A02   # 1 row from row 2: Zs\n"
    "ldi vw_setup, 0x00001A01   # outputs from row 1\n"
    "nop\n"
    "nop\n"
    "mov ra1, vpm\n"
    "nop\n"
    "mov vpm, ra1               # output row 1: Zs\n"
    "ldi vr_setup, 0x00201A00   # 2 rows from row 0: 1/Wc, Xs/Ys\n"
    "nop\n"
    "nop\n"
    "nop\n"
    "mov ra0, vpm\n"
    "mov ra2, vpm\n"
    "ldi vw_setup, 0x00001A00\n"
    "nop\n"
    "nop\n"
    "mov vpm, ra2               # output row 0: Xs/Ys\n"
    "ldi vw_setup, 0x00001A02\n"
    "nop\n"
    "nop\n"
    "mov vpm, ra0               # output row 2: 1/Wc\n"
    "nop; thrend\n"
    "nop\n"
    "nop\n";

static void test_regression_outputs_keep_inputs(void)
{
    uint8_t vdata[256];
    struct gl_scene s = gl_seed_scene(vdata);
    /* the seed's vertices (Xs/Ys, Zs, 1/Wc: 12 bytes) fetched as 1/Wc to
     * VPM offset 0 and Xs/Ys, Zs to offset 4 */
    s.attr[0] = (struct vc4_cl_attr_record){8, 3, 12, 0, 0};
    s.attr[2] = (struct vc4_cl_attr_record){0, 7, 12, 4, 0};
    s.nattrs = 3;
    s.rec.vs_attr_select = 5;
    s.vs = (struct gl_shader){NULL, 0, vs_writes_before_reading};
    uint8_t *rgba = render(&s, 12);
    CHECK(rgba && golden_diff("nv_triangle", rgba, 640, 480, false) == 0);
    CHECK_MSG(hd.warnings == 0 && hd.errors == 0, "%s", hd.text);
    free(rgba);
}

/* VPMBASE: user programs keep the rows it reserves (batches go above),
 * and leaving less than 8 KB for 3D is reported. */
static void test_vpm_reservation(void)
{
    for (unsigned ursv = 8; ursv <= 24; ursv += 16) { /* 2 KB (fine) and 6 KB (too much) */
        uint8_t vdata[256];
        struct gl_scene s = gl_seed_scene(vdata);
        struct vc4_emu *emu = mk(12);
        vc4_emu_reg_write(emu, VC4_V3D_VPMBASE, ursv);
        unsigned rows = ursv * 256 / 64;
        for (unsigned r = 0; r < rows; r++)
            for (unsigned c = 0; c < 16; c++)
                vc4_vpm_poke(&emu->v3d.vpm, r, c, 0x5EED0000u + r * 16 + c);
        uint8_t *rgba = gl_render_on(emu, &s, harness_sink(&hd));
        CHECK(rgba && golden_diff("nv_triangle", rgba, 640, 480, false) == 0);
        unsigned changed = 0;
        for (unsigned r = 0; r < rows; r++)
            for (unsigned c = 0; c < 16; c++)
                changed += vc4_vpm_peek(&emu->v3d.vpm, r, c) != 0x5EED0000u + r * 16 + c;
        CHECK_EQ_INT(changed, 0);
        if (ursv == 8) {
            CHECK_MSG(hd.warnings == 0, "%s", hd.text);
        } else {
            CHECK_CONTAINS(hd.text, "VPMBASE reserves 6144 of the 12288 bytes of VPM for user programs, leaving "
                                    "6144 for vertex and coordinate shading: at least 8 KB must be left for 3D "
                                    "[gl-vpm-8kb;");
        }
        free(rgba);
        vc4_emu_destroy(emu);
    }
}

/* ---- near-plane clipping ------------------------------------------------------------------------ */

/* A triangle whose top vertex lies beyond the near plane (Zc/Wc = -3 with
 * Z scale = offset = 0.5 gives Zs = -1 < Z min 0): clipped at t = 1/3 along
 * both edges to it, the polygon spans NDC y -0.5 .. -1/6, i.e. frame rows
 * 74.7 .. 96 of a 128x128 frame.  With Z min -100 the whole triangle (up
 * to row 32) is drawn.  Regression (piglit's
 * interpolation-none-other-smooth-fixed, which passes on Pi 3s in Mesa's
 * CI): Mesa's lists hold the Clipper Z Scale and Offset but never the Z
 * Clipping Planes packet, which the kernel refuses, and are clipped at
 * the near plane all the same (ptb.c clip_planes: [0, 1] until a 104). */
static void test_near_plane_clip(void)
{
    static const float clip[3][4] = {{-0.5f, -0.5f, 0.0f, 1.0f}, {0.5f, -0.5f, 0.0f, 1.0f}, {0.0f, 0.5f, -3.0f, 1.0f}};
    uint8_t vdata[256 + 3 * 28];
    for (int i = 0; i < 3; i++) {
        uint8_t *v = vdata + 12 * i, *c = vdata + 256 + 28 * i;
        int x16 = (int)lroundf(clip[i][0] * 64 * 16), y16 = (int)lroundf(clip[i][1] * -64 * 16);
        sc_put32(v, gl_xy16(x16, y16));
        sc_put32(v + 4, sc_f2u(clip[i][2] * 0.5f + 0.5f));
        sc_put32(v + 8, sc_f2u(1.0f));
        for (int k = 0; k < 4; k++)
            sc_put32(c + 4 * k, sc_f2u(clip[i][k]));
        memcpy(c + 16, v, 12);
    }
    for (int planes = 0; planes < 3; planes++) { /* 0: Z min -100, 1: Z min 0, 2: no 104 (Mesa's) */
        struct gl_scene s = {
            .width = 128, .height = 128,
            .vs = {gl_seed_vs_words, sizeof gl_seed_vs_words / 4, NULL},
            .cs = {gl_seed_cs_words, sizeof gl_seed_cs_words / 4, NULL},
            .fs_src = sc_fs_uniform, .vdata = vdata, .vdata_len = sizeof vdata,
            .attr = {{0, 11, 12, 0, 0}, {256, 27, 28, 0, 0}}, .nattrs = 2,
            .rec = {.enable_clipping = true, .vs_attr_select = 1, .vs_attr_size = 12, .cs_attr_select = 2,
                    .cs_attr_size = 28},
            .fs_unif = gl_seed_fs_unif, .nfs_unif = 4, .prim_mode = VC4_CL_PRIM_TRIANGLES, .count = 3,
            .depth_func = VC4_CL_DEPTH_ALWAYS, .clipper = true, .z_scale = 0.5f, .z_offset = 0.5f,
            .z_min = planes ? 0.0f : -100.0f, .z_max = 1.0f, .clear_color = SC_CLEAR_COLOR,
            .no_z_planes = planes == 2,
        };
        struct vc4_emu *emu = mk(4);
        uint8_t *rgba = gl_render_on(emu, &s, harness_sink(&hd));
        CHECK_MSG(rgba && hd.errors == 0 && hd.warnings == 0, "%s", hd.text);
        if (rgba) {
            CHECK_EQ_U64(emu->v3d.ptb.stats.prims_clipped, planes ? 1 : 0);
            uint32_t green = 0xFF00FF00u;
            CHECK_EQ_U64(pixel(rgba, 128, 64, 90), green); /* inside the clipped polygon */
            CHECK_EQ_U64(pixel(rgba, 128, 64, 50), planes ? SC_CLEAR_COLOR : green); /* beyond the near plane */
            /* rows drawn: 75..95 with the planes, 32..95 without (edges give a row either way) */
            unsigned top = 128;
            for (unsigned y = 0; y < 128 && top == 128; y++)
                if (pixel(rgba, 128, 64, y) == green)
                    top = y;
            CHECK_MSG(planes ? top == 75 : top >= 32 && top <= 33, "top row %u", top);
            CHECK_EQ_U64(pixel(rgba, 128, 64, 95), green);
            CHECK_EQ_U64(pixel(rgba, 128, 64, 96), SC_CLEAR_COLOR);
        }
        free(rgba);
        vc4_emu_destroy(emu);
    }
}

/* ---- the GL scenes' goldens ----------------------------------------------------------------------- */

static void golden_lit(const char *name, struct gl_lit *l, bool ok)
{
    CHECK_MSG(ok, "%s: cannot read the shaders in %s", name, EXAMPLES_DIR);
    if (!ok)
        return;
    uint8_t *rgba = render(&l->s, 12);
    CHECK_MSG(rgba && hd.errors == 0 && hd.warnings == 0, "%s: %s", name, hd.text);
    if (rgba) {
        CHECK_MSG(golden_diff(name, rgba, l->s.width, l->s.height, true) == 0, "%s differs from its golden", name);
        CHECK(count_not(rgba, l->s.width, l->s.height, l->s.clear_color) > 3000);
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.png", VC4KIT_BINARY_DIR, name);
        vc4_png_write(path, rgba, l->s.width, l->s.height, (size_t)l->s.width * 4, NULL);
    }
    free(rgba);
    gl_lit_free(l);
}

/* A GL line (width 3) between two clip-space vertices, with or without
 * the near/far Z clipping planes; the frame (NULL on failure) and the
 * binner's clipped / outside counts. */
static uint8_t *gl_line_frame(const float clip[2][4], bool planes, uint64_t *clipped, uint64_t *outside)
{
    uint8_t vdata[256 + 2 * 28];
    memset(vdata, 0, sizeof vdata);
    for (int i = 0; i < 2; i++) {
        uint8_t *v = vdata + 12 * i, *c = vdata + 256 + 28 * i;
        int x16 = (int)lroundf(clip[i][0] / clip[i][3] * 64 * 16), y16 = (int)lroundf(clip[i][1] / clip[i][3] * -64 * 16);
        sc_put32(v, gl_xy16(x16, y16));
        sc_put32(v + 4, sc_f2u(clip[i][2] / clip[i][3] * 0.5f + 0.5f));
        sc_put32(v + 8, sc_f2u(1.0f / clip[i][3]));
        for (int k = 0; k < 4; k++)
            sc_put32(c + 4 * k, sc_f2u(clip[i][k]));
        memcpy(c + 16, v, 12);
    }
    struct gl_scene s = {
        .width = 128, .height = 128,
        .vs = {gl_seed_vs_words, sizeof gl_seed_vs_words / 4, NULL},
        .cs = {gl_seed_cs_words, sizeof gl_seed_cs_words / 4, NULL},
        .fs_src = sc_fs_uniform_for(VC4_CL_PRIM_LINES), .vdata = vdata, .vdata_len = sizeof vdata,
        .attr = {{0, 11, 12, 0, 0}, {256, 27, 28, 0, 0}}, .nattrs = 2,
        .rec = {.enable_clipping = true, .vs_attr_select = 1, .vs_attr_size = 12, .cs_attr_select = 2,
                .cs_attr_size = 28},
        .fs_unif = gl_seed_fs_unif, .nfs_unif = 4, .prim_mode = VC4_CL_PRIM_LINES, .count = 2,
        .depth_func = VC4_CL_DEPTH_ALWAYS, .clipper = true, .z_scale = 0.5f, .z_offset = 0.5f,
        .z_min = planes ? 0.0f : -100.0f, .z_max = 1.0f, .clear_color = SC_CLEAR_COLOR, .line_width = 3.0f,
    };
    struct vc4_emu *emu = mk(4);
    uint8_t *rgba = gl_render_on(emu, &s, harness_sink(&hd));
    CHECK_MSG(rgba && hd.errors == 0 && hd.warnings == 0, "%s", hd.text);
    *clipped = emu->v3d.ptb.stats.prims_clipped;
    *outside = emu->v3d.ptb.stats.prims_outside;
    vc4_emu_destroy(emu);
    return rgba;
}

static unsigned count_not_clear(const uint8_t *rgba)
{
    unsigned n = 0;
    for (unsigned y = 0; y < 128; y++)
        for (unsigned x = 0; x < 128; x++)
            n += pixel(rgba, 128, x, y) != SC_CLEAR_COLOR;
    return n;
}

/* A line from in front of the camera (Zs 0.5) to behind the near plane
 * (Zc/Wc = -2, Zs = -0.5 < Z min 0) is cut where Z scale x Zc + Z offset x
 * Wc = 0: t = 0.5 / (0.5 + 0.5) = 1/2, at clip (0, 0, -1, 1), the frame
 * centre.  It draws exactly the pixels of the line drawn unclipped to that
 * point; a line wholly behind the near plane draws nothing. */
static void test_near_plane_line_clip(void)
{
    static const float cross[2][4] = {{-0.5f, -0.5f, 0.0f, 1.0f}, {0.5f, 0.5f, -2.0f, 1.0f}};
    static const float by_hand[2][4] = {{-0.5f, -0.5f, 0.0f, 1.0f}, {0.0f, 0.0f, -1.0f, 1.0f}};
    static const float behind[2][4] = {{-0.5f, -0.5f, -3.0f, 1.0f}, {0.5f, 0.5f, -2.0f, 1.0f}};
    uint64_t clipped, outside;
    uint8_t *cut = gl_line_frame(cross, true, &clipped, &outside);
    CHECK_EQ_U64(clipped, 1);
    CHECK_EQ_U64(outside, 0);
    uint8_t *ref = gl_line_frame(by_hand, true, &clipped, &outside);
    CHECK_EQ_U64(clipped, 0);
    uint8_t *whole = gl_line_frame(cross, false, &clipped, &outside);
    CHECK_EQ_U64(clipped, 0);
    uint8_t *none = gl_line_frame(behind, true, &clipped, &outside);
    CHECK_EQ_U64(clipped, 0);
    CHECK_EQ_U64(outside, 1);
    if (cut && ref && whole && none) {
        unsigned ncut = count_not_clear(cut), nwhole = count_not_clear(whole);
        CHECK(memcmp(cut, ref, 128 * 128 * 4) == 0);
        /* columns 32..63 of the diagonal, 3 px each; the whole line twice that */
        CHECK_MSG(ncut == 96, "%u pixels", ncut);
        CHECK_MSG(nwhole == 2 * ncut, "%u vs %u pixels", nwhole, ncut);
        CHECK_EQ_U64(pixel(cut, 128, 40, 88), 0xFF00FF00u); /* on the near half (row = 128 - x) */
        CHECK_EQ_U64(pixel(cut, 128, 88, 40), SC_CLEAR_COLOR); /* on the far half, cut away */
        CHECK_EQ_U64(pixel(whole, 128, 88, 40), 0xFF00FF00u);
        CHECK_EQ_INT(count_not_clear(none), 0);
    }
    free(cut);
    free(ref);
    free(whole);
    free(none);
}

static void test_gl_goldens(void)
{
    struct gl_mesh_vertex v[24];
    uint16_t idx[36];
    struct gl_lit l;
    bool ok = gl_cube_frame(&l, EXAMPLES_DIR, 4, v, idx);
    golden_lit("gl_cube_04", &l, ok);
    ok = gl_cube_frame(&l, EXAMPLES_DIR, 16, v, idx);
    golden_lit("gl_cube_16", &l, ok);
    ok = gl_near_clip_scene(&l, EXAMPLES_DIR, v, idx);
    golden_lit("gl_near_clip", &l, ok);
}

TEST_LIST(test_regression_mesa_partial_attribute, test_regression_outputs_keep_inputs, test_regression_attribute_in_part_of_a_word, test_gl_seed_scene, test_gl_record_parse, test_vcd_fetch, test_batches_and_reuse, test_output_rule_every_vertex, test_prim_modes,
          test_point_size, test_point_line_varyings, test_rules, test_vpm_reservation, test_near_plane_clip, test_near_plane_line_clip, test_gl_goldens)
