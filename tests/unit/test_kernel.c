/*
 * test_kernel.c - the vc4 kernel stand-in (src/kernel) with hand-built
 * submits, no Mesa needed: buffer objects in emulator RAM, GET_PARAM, a
 * clear-only submit (no binning list: the kernel's rendering list alone), a
 * GL triangle (seed 000's scene of examples/gl_scene.h sent as Mesa sends
 * it: BO indices, relocations, a binning list without addresses), shader BO
 * accounting, and rejected submits with the kernel's error codes and a
 * diagnostic naming the rule.
 */
#include <errno.h>
#include <stdlib.h>

#include "gl_scene.h"
#include "harness.h"
#include "base/base.h"
#include "kernel/kernel.h"
#include "vc4kit/qpu.h"
#include "vc4kit/tex.h"

#ifndef VC4KIT_TEST_DATA
#define VC4KIT_TEST_DATA "."
#endif
#define SRC_DIR VC4KIT_TEST_DATA "/../.."

static struct harness_diags hd;

struct fixture {
    struct vc4_emu *emu;
    struct vc4k *k;
};

static bool setup_extra(struct fixture *f, uint32_t tile_alloc_extra)
{
    struct vc4_emu_options eo = {.sink = harness_sink(&hd), .mem_size = 64u << 20, .max_cycles = 50000000};
    f->emu = vc4_emu_create(&eo);
    struct vc4k_options ko = {.emu = f->emu, .sink = eo.sink, .tile_alloc_extra = tile_alloc_extra};
    f->k = f->emu ? vc4k_create(&ko) : NULL;
    return f->k != NULL;
}

static bool setup(struct fixture *f)
{
    return setup_extra(f, 0);
}

static void teardown(struct fixture *f)
{
    vc4k_destroy(f->k);
    vc4_emu_destroy(f->emu);
}

static void test_bo_basics(void)
{
    struct fixture f;
    CHECK(setup(&f));
    uint32_t h1 = 0, h2 = 0, h3 = 0, a1, a2, s1;
    CHECK_EQ_INT(vc4k_bo_create(f.k, 100, &h1), 0);
    CHECK_EQ_INT(vc4k_bo_create(f.k, 5000, &h2), 0);
    CHECK_EQ_INT(h1, 1);
    CHECK_EQ_INT(h2, 2);
    CHECK_EQ_INT(vc4k_bo_info(f.k, h1, &a1, &s1), 0);
    CHECK_EQ_INT(vc4k_bo_info(f.k, h2, &a2, NULL), 0);
    CHECK_EQ_U64(s1, 4096);            /* pages */
    CHECK(a1 % 4096 == 0 && a2 >= a1 + 4096);
    /* the BO is the emulator's RAM: a write through the map is what the GPU sees */
    uint8_t *p = vc4k_bo_map(f.k, h1);
    CHECK(p != NULL);
    p[5] = 0xAB;
    uint8_t b = 0;
    CHECK(vc4_emu_mem_read(f.emu, a1 + 5, &b, 1) == VC4_OK);
    CHECK_EQ_U64(b, 0xAB);
    /* the lowest free handle is reused; freed memory too */
    CHECK_EQ_INT(vc4k_bo_close(f.k, h1), 0);
    CHECK_EQ_INT(vc4k_bo_create(f.k, 10, &h3), 0);
    CHECK_EQ_INT(h3, 1);
    uint32_t a3;
    CHECK_EQ_INT(vc4k_bo_info(f.k, h3, &a3, NULL), 0);
    CHECK_EQ_U64(a3, a1);
    CHECK_EQ_U64(((uint8_t *)vc4k_bo_map(f.k, h3))[5], 0); /* zeroed */
    /* errors */
    CHECK_EQ_INT(vc4k_bo_create(f.k, 0, &h3), -EINVAL);
    CHECK_EQ_INT(vc4k_bo_close(f.k, 99), -EINVAL);
    CHECK_EQ_INT(vc4k_bo_info(f.k, 99, NULL, NULL), -ENOENT);
    CHECK_EQ_INT(vc4k_bo_create(f.k, 200u << 20, &h3), -ENOMEM);
    CHECK_CONTAINS(hd.text, "out of emulated GPU memory");
    uint64_t v = 0;
    CHECK_EQ_INT(vc4k_get_param(f.k, VC4K_PARAM_V3D_IDENT0, &v), 0);
    CHECK_EQ_U64(v, 0x02443356u);
    CHECK_EQ_INT(vc4k_get_param(f.k, VC4K_PARAM_SUPPORTS_BRANCHES, &v), 0);
    CHECK_EQ_U64(v, 1);
    CHECK_EQ_INT(vc4k_get_param(f.k, VC4K_PARAM_SUPPORTS_PERFMON, &v), 0);
    CHECK_EQ_U64(v, 0);
    CHECK_EQ_INT(vc4k_get_param(f.k, 99, &v), -EINVAL);
    uint32_t retained = 0;
    CHECK_EQ_INT(vc4k_bo_madvise(f.k, h2, 1, &retained), 0);
    CHECK_EQ_U64(retained, 1);
    CHECK_EQ_INT(vc4k_wait_seqno(f.k, 0), 0);
    CHECK_EQ_INT(vc4k_wait_seqno(f.k, 5), -ETIME);
    teardown(&f);
}

/* RGBA8888 raster colour write (render configuration bits: format 1 << 2,
 * memory format 0). */
#define RENDER_RGBA8888_RASTER (1u << 2)
#define NO_SURFACE {~0u, 0, 0, 0}

static struct vc4k_submit clear_submit(uint32_t *handles, unsigned w, unsigned h)
{
    struct vc4k_submit s = {
        .bo_handles = handles, .bo_handle_count = 1, .width = (uint16_t)w, .height = (uint16_t)h,
        .max_x_tile = (uint8_t)((w + 63) / 64 - 1), .max_y_tile = (uint8_t)((h + 63) / 64 - 1),
        .color_write = {0, 0, RENDER_RGBA8888_RASTER, 0},
        .color_read = NO_SURFACE, .zs_read = NO_SURFACE, .zs_write = NO_SURFACE,
        .msaa_color_write = NO_SURFACE, .msaa_zs_write = NO_SURFACE,
        .clear_color = {0xFF3366CCu, 0xFF3366CCu}, .clear_z = 0xFFFFFF,
        .flags = VC4K_SUBMIT_USE_CLEAR_COLOR,
    };
    return s;
}

static void test_clear_only(void)
{
    struct fixture f;
    CHECK(setup(&f));
    uint32_t fb;
    CHECK_EQ_INT(vc4k_bo_create(f.k, 100 * 70 * 4, &fb), 0);
    struct vc4k_submit s = clear_submit(&fb, 100, 70);
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &s), 0);
    CHECK_EQ_U64(s.seqno, 1);
    CHECK_EQ_INT(vc4k_wait_seqno(f.k, 1), 0);
    const uint8_t *p = vc4k_bo_map(f.k, fb);
    size_t wrong = 0;
    for (size_t i = 0; i < 100 * 70; i++)
        wrong += vc4_le32(p + 4 * i) != 0xFF3366CCu;
    CHECK_MSG(wrong == 0, "%zu pixels not the clear colour\n%s", wrong, hd.text);
    /* the kernel's BOs (exec, rendering list) are gone again */
    uint32_t n;
    uint64_t bytes;
    vc4k_bo_usage(f.k, &n, &bytes);
    CHECK_EQ_INT(n, 1);
    teardown(&f);
}

static void test_bad_surfaces(void)
{
    struct fixture f;
    CHECK(setup(&f));
    uint32_t fb;
    CHECK_EQ_INT(vc4k_bo_create(f.k, 64 * 64 * 4, &fb), 0);
    struct vc4k_submit s = clear_submit(&fb, 100, 70); /* needs 28000 bytes, the BO has 16384 */
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &s), -EINVAL);
    CHECK_CONTAINS(hd.text, "kernel-rcl-surface");
    CHECK_CONTAINS(hd.text, "does not fit");
    s = clear_submit(&fb, 64, 64);
    s.color_write.hindex = 3;
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &s), -EINVAL);
    CHECK_CONTAINS(hd.text, "BO index 3");
    s = clear_submit(&fb, 64, 64);
    s.color_write.hindex = ~0u;
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &s), -EINVAL);
    CHECK_CONTAINS(hd.text, "no colour or Z/S write");
    uint32_t missing = 77;
    s = clear_submit(&missing, 64, 64);
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &s), -ENOENT);
    CHECK_EQ_U64(vc4k_last_seqno(f.k), 0);
    teardown(&f);
}

/* ---- the triangle ---- */

static bool assemble(const char *src, uint8_t **out, size_t *n)
{
    struct vc4_asm_options o = {.sink = {NULL, NULL}};
    struct vc4_asm *as = vc4_asm_create(&o);
    bool ok = as && vc4_asm_source(as, "fs", src, strlen(src)) == VC4_OK;
    if (ok) {
        const uint8_t *p = vc4_asm_output(as, n);
        *out = malloc(*n);
        ok = *out != NULL;
        if (ok)
            memcpy(*out, p, *n);
    }
    vc4_asm_destroy(as);
    return ok;
}

static bool shader_bo(struct vc4k *k, const uint32_t *words, size_t n, uint32_t *h)
{
    uint8_t b[1024];
    for (size_t i = 0; i < n && i < 256; i++)
        sc_put32(b + 4 * i, words[i]);
    return vc4k_bo_create_shader(k, b, (uint32_t)(n * 4), h) == 0;
}

enum { BO_FB, BO_FS, BO_VS, BO_CS, BO_VDATA, BO_COUNT };

struct tri {
    uint32_t handles[BO_COUNT];
    uint8_t bin[256], rec[256], unif[64];
    struct vc4k_submit s;
};

/* Seed 000's GL triangle as a user-space driver submits it; ext (or NULL):
 * an extended shader record with these stride words. */
static bool build_triangle_ext(struct fixture *f, struct tri *t, const struct vc4_cl_ext_stride *ext)
{
    uint8_t vdata[256];
    struct gl_scene sc = gl_seed_scene(vdata);
    uint8_t *fs = NULL;
    size_t fsn = 0;
    bool ok = assemble(sc.fs_src, &fs, &fsn);
    ok = ok && vc4k_bo_create(f->k, sc.width * sc.height * 4, &t->handles[BO_FB]) == 0;
    ok = ok && vc4k_bo_create_shader(f->k, fs, (uint32_t)fsn, &t->handles[BO_FS]) == 0;
    ok = ok && shader_bo(f->k, sc.vs.words, sc.vs.nwords, &t->handles[BO_VS]);
    ok = ok && shader_bo(f->k, sc.cs.words, sc.cs.nwords, &t->handles[BO_CS]);
    ok = ok && vc4k_bo_create(f->k, (uint32_t)sc.vdata_len, &t->handles[BO_VDATA]) == 0;
    free(fs);
    if (!ok)
        return false;
    memcpy(vc4k_bo_map(f->k, t->handles[BO_VDATA]), sc.vdata, sc.vdata_len);

    /* shader record: BO indices (fs, vs, cs, one per attribute), then the
     * record with code at offset 0 and attribute offsets inside the BO */
    size_t r = 0;
    const uint32_t idx[5] = {BO_FS, BO_VS, BO_CS, BO_VDATA, BO_VDATA};
    for (unsigned i = 0; i < 5; i++, r += 4)
        sc_put32(t->rec + r, idx[i]);
    struct vc4_cl_gl_shader_record rec = sc.rec;
    rec.fs_single_threaded = true;
    struct vc4_diag_sink none = {NULL, NULL};
    size_t rsize = vc4_cl_gl_record_size(sc.nattrs, ext != NULL);
    ok = vc4_cl_gl_shader_record_pack(&rec, sc.attr, sc.nattrs, ext, t->rec + r, rsize, &none) == VC4_OK;
    r += rsize;
    /* uniforms: fs (no textures: no indices) then vs, cs (none) */
    for (unsigned i = 0; i < sc.nfs_unif; i++)
        sc_put32(t->unif + 4 * i, sc.fs_unif[i]);

    /* binning list: addresses left 0 for the kernel */
    struct vc4_cl bin;
    vc4_cl_init(&bin, NULL, 0, &none);
    unsigned wt = (sc.width + 63) / 64, ht = (sc.height + 63) / 64;
    struct vc4_cl_tile_binning_mode_config bcfg = {.width_tiles = wt, .height_tiles = ht};
    vc4_cl_tile_binning_mode_config(&bin, &bcfg);
    vc4_cl_start_tile_binning(&bin);
    struct vc4_cl_primitive_list_format plf = {.primitive_type = VC4_CL_PLF_TRIANGLES,
                                               .data_type = VC4_CL_PLF_INDEX16};
    vc4_cl_primitive_list_format(&bin, &plf);
    struct vc4_cl_clip_window clip = {0, 0, sc.width, sc.height};
    vc4_cl_clip_window(&bin, &clip);
    struct vc4_cl_configuration_bits cb = {.enable_forward_facing = true, .enable_reverse_facing = true,
                                           .depth_func = sc.depth_func};
    vc4_cl_configuration_bits(&bin, &cb);
    struct vc4_cl_viewport_offset vp = {0, 0};
    vc4_cl_viewport_offset(&bin, &vp);
    struct vc4_cl_gl_shader_state gss = {.num_attr_arrays = sc.nattrs & 7u, .extended = ext != NULL,
                                         .record_addr = 0};
    vc4_cl_gl_shader_state(&bin, &gss);
    struct vc4_cl_vertex_array_primitives prims = {.primitive_mode = sc.prim_mode, .length = sc.count};
    vc4_cl_vertex_array_primitives(&bin, &prims);
    vc4_cl_increment_semaphore(&bin);
    vc4_cl_flush(&bin);
    ok = ok && bin.status == VC4_OK && bin.len <= sizeof t->bin;
    if (ok)
        memcpy(t->bin, bin.data, bin.len);

    t->s = clear_submit(t->handles, sc.width, sc.height);
    t->s.bo_handle_count = BO_COUNT;
    t->s.clear_color[0] = t->s.clear_color[1] = SC_CLEAR_COLOR;
    t->s.bin_cl = t->bin;
    t->s.bin_cl_size = (uint32_t)bin.len;
    t->s.shader_rec = t->rec;
    t->s.shader_rec_size = (uint32_t)r;
    t->s.shader_rec_count = 1;
    t->s.uniforms = t->unif;
    t->s.uniforms_size = (uint32_t)(4 * sc.nfs_unif);
    vc4_cl_free(&bin);
    return ok;
}

static bool build_triangle(struct fixture *f, struct tri *t)
{
    return build_triangle_ext(f, t, NULL);
}

/* Regression: an extended record's stride words give stride bits 31:8 in
 * place, ORed into the record's byte (Linux vc4_validate.c validate_gl_shader_rec:
 * stride |= word & ~0xff).  SUBMIT_CL took the word's low byte shifted up, so a
 * stride of 256 was checked as the low byte alone and an attribute array
 * running far past its BO was accepted. */
static void test_regression_extended_stride(void)
{
    struct fixture f;
    struct tri t;
    CHECK(setup(&f));
    /* stride bits 31:8 = 8: every vertex 2048 bytes on; vertex 2 lies past the 4 KB BO */
    const struct vc4_cl_ext_stride big[2] = {{8}, {8}};
    CHECK(build_triangle_ext(&f, &t, big));
    CHECK(vc4k_submit_cl(f.k, &t.s) != 0);
    CHECK_CONTAINS(hd.text, "kernel-reloc-range");
    CHECK_CONTAINS(hd.text, "primitives use index 2");
    teardown(&f);
    /* stride bits 31:8 zero: the record's own stride, accepted */
    hd.len = 0;
    CHECK(setup(&f));
    const struct vc4_cl_ext_stride none[2] = {{0}, {0}};
    CHECK(build_triangle_ext(&f, &t, none));
    CHECK_MSG(vc4k_submit_cl(f.k, &t.s) == 0, "%s", hd.text);
    teardown(&f);
}

static void test_triangle(void)
{
    struct fixture f;
    struct tri t;
    CHECK(setup(&f));
    CHECK(build_triangle(&f, &t));
    CHECK_MSG(vc4k_submit_cl(f.k, &t.s) == 0, "%s", hd.text);
    /* the same picture as the bare-metal NV and GL triangles */
    const uint8_t *p = vc4k_bo_map(f.k, t.handles[BO_FB]);
    uint8_t *rgba = malloc(640 * 480 * 4);
    CHECK(rgba != NULL);
    if (!rgba)
        return;
    for (size_t i = 0; i < 640 * 480; i++) {
        uint32_t v = vc4_le32(p + 4 * i); /* RGBA8888 in the TLB's byte order */
        rgba[4 * i + 0] = (uint8_t)(v >> 16);
        rgba[4 * i + 1] = (uint8_t)(v >> 8);
        rgba[4 * i + 2] = (uint8_t)v;
        rgba[4 * i + 3] = (uint8_t)(v >> 24);
    }
    uint8_t *g = NULL;
    unsigned gw = 0, gh = 0;
    CHECK(vc4_png_read(SRC_DIR "/tests/golden/nv_triangle.png", &g, &gw, &gh, NULL) == VC4_OK);
    size_t diff = 0;
    for (size_t i = 0; g && gw == 640 && gh == 480 && i < 640 * 480; i++)
        diff += memcmp(g + 4 * i, rgba + 4 * i, 4) != 0;
    CHECK_MSG(g && diff == 0, "%zu pixels differ from nv_triangle.png", diff);
    free(g);
    free(rgba);
    teardown(&f);
}

/* The same triangle drawn 400 times with only the kernel's minimum 4 KiB
 * beyond the initial tile blocks: the binner runs out, takes overflow
 * memory (BPOA/BPOS) as the kernel's OUTOMEM handler gives it, and the
 * picture is the same. */
static void test_binner_overflow(void)
{
    struct fixture f;
    struct tri t;
    CHECK(setup_extra(&f, 4096));
    CHECK(build_triangle(&f, &t));
    uint8_t big[256 + 400 * 10];
    uint32_t n = t.s.bin_cl_size - 2 - 10; /* up to the draw */
    memcpy(big, t.bin, n);
    for (unsigned i = 0; i < 400; i++)
        memcpy(big + n + 10 * i, t.bin + n, 10);
    memcpy(big + n + 4000, t.bin + n + 10, 2); /* semaphore, flush */
    t.s.bin_cl = big;
    t.s.bin_cl_size = n + 4000 + 2;
    CHECK_MSG(vc4k_submit_cl(f.k, &t.s) == 0, "%s", hd.text);
    CHECK_MSG(vc4k_overflows(f.k) > 0, "no overflow memory was needed");
    const uint8_t *p = vc4k_bo_map(f.k, t.handles[BO_FB]);
    CHECK_EQ_U64(vc4_le32(p + 4 * (240 * 640 + 320)) & 0x00FFFFFFu, 0x00FF00u); /* green inside */
    CHECK_EQ_U64(vc4_le32(p + 4 * (10 * 640 + 10)), SC_CLEAR_COLOR);
    uint32_t nbo;
    uint64_t bytes;
    vc4k_bo_usage(f.k, &nbo, &bytes);
    /* the overflow BOs are gone with the job, but for the one BPOA/BPOS
     * still name (the next job's binner may take it: submit.c) */
    CHECK_EQ_INT(nbo, BO_COUNT + 1);
    /* Regression (piglit's longprim under vc4kit exec): the next job's
     * binner, out of tile memory, takes that pair at once.  When the job
     * that was given it freed it, a BO allocated in between got that
     * memory and the binner wrote its tile lists into it (and a later
     * overflow BO, cleared, wiped them).  A 1 MiB BO made now must stay
     * untouched by the second job, whose picture is the same. */
    uint32_t other = 0;
    CHECK(vc4k_bo_create(f.k, 1u << 20, &other) == 0);
    const uint8_t *o = vc4k_bo_map(f.k, other);
    memset((void *)(uintptr_t)p, 0, 640u * 480u * 4u);
    CHECK_MSG(vc4k_submit_cl(f.k, &t.s) == 0, "%s", hd.text);
    size_t touched = 0;
    for (size_t i = 0; o && i < (1u << 20); i++)
        touched += o[i] != 0;
    CHECK_EQ_U64(touched, 0);
    CHECK_EQ_U64(vc4_le32(p + 4 * (240 * 640 + 320)) & 0x00FFFFFFu, 0x00FF00u);
    CHECK_MSG(hd.warnings == 0 && hd.errors == 0, "%s", hd.text);
    teardown(&f);
}

/* A fragment shader sampling a texture (TMU0: T then S, two parameters
 * the TMU pulls from the uniforms): the submit relocates p0 to the
 * texture BO, so the triangle takes the texture's colour; a texture or a
 * mip level that does not fit its BO, or a texture index naming a shader
 * BO, is refused. */
static const char fs_tex[] = "mov t0t, 0.5\n"
                             "mov t0s, 0.5\n"
                             ".word 0x9E7000, 0xA00009E7\n" /* nop; ldtmu0 */
                             "mov tlbc, r4\n"
                             "nop; thrend\nnop\nnop; sbdone\n";

static void test_texture(void)
{
    struct fixture f;
    struct tri t;
    CHECK(setup(&f));
    CHECK(build_triangle(&f, &t));
    uint8_t *code = NULL;
    size_t n = 0;
    uint32_t fs, tex;
    CHECK(assemble(fs_tex, &code, &n));
    CHECK_EQ_INT(vc4k_bo_create_shader(f.k, code, (uint32_t)n, &fs), 0);
    free(code);
    CHECK_EQ_INT(vc4k_bo_create(f.k, 32 * 32 * 4, &tex), 0);
    uint8_t *tp = vc4k_bo_map(f.k, tex);
    for (unsigned i = 0; i < 32 * 32; i++)
        sc_put32(tp + 4 * i, 0xFF2080E0u);
    uint32_t handles[BO_COUNT + 1];
    memcpy(handles, t.handles, sizeof t.handles);
    handles[BO_FS] = fs;
    handles[BO_COUNT] = tex;
    uint8_t unif[64];
    sc_put32(unif, BO_COUNT);                         /* the texture's BO index */
    sc_put32(unif + 4, 0);                            /* p0: offset 0, RGBA8888, no mip levels */
    sc_put32(unif + 8, 32u << 20 | 32u << 8 | 1u << 7 | 1u << 4 | 1u << 2 | 1u); /* p1: 32x32, nearest, clamp */
    t.s.bo_handles = handles;
    t.s.bo_handle_count = BO_COUNT + 1;
    t.s.uniforms = unif;
    t.s.uniforms_size = 12;
    CHECK_MSG(vc4k_submit_cl(f.k, &t.s) == 0, "%s", hd.text);
    const uint8_t *p = vc4k_bo_map(f.k, t.handles[BO_FB]);
    CHECK_EQ_U64(vc4_le32(p + 4 * (300 * 640 + 320)), 0xFF2080E0u);
    /* 64x64 does not fit a 4 KiB BO */
    sc_put32(unif + 8, 64u << 20 | 64u << 8 | 1u << 7 | 1u << 4);
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &t.s), -EINVAL);
    CHECK_CONTAINS(hd.text, "does not fit the 4096-byte BO");
    /* a mip level below a base at offset 0 */
    sc_put32(unif + 4, 1);
    sc_put32(unif + 8, 16u << 20 | 16u << 8);
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &t.s), -EINVAL);
    CHECK_CONTAINS(hd.text, "mip level 1");
    /* the texture index names a shader BO */
    sc_put32(unif + 4, 0);
    sc_put32(unif, BO_VS);
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &t.s), -EINVAL);
    CHECK_CONTAINS(hd.text, "is a shader BO");
    teardown(&f);
}

/* A job over its cycle budget fails with -EIO and the reason, the V3D is
 * reset, and the next submit runs. */
static void test_hang(void)
{
    struct fixture f;
    struct tri t;
    struct vc4_emu_options eo = {.sink = harness_sink(&hd), .mem_size = 64u << 20};
    f.emu = vc4_emu_create(&eo);
    struct vc4k_options ko = {.emu = f.emu, .sink = eo.sink, .max_cycles = 5};
    f.k = vc4k_create(&ko);
    CHECK(f.k != NULL);
    CHECK(build_triangle(&f, &t));
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &t.s), -EIO);
    CHECK_CONTAINS(hd.text, "the GPU hung (-EIO)");
    vc4k_destroy(f.k);
    ko.max_cycles = 0;
    f.k = vc4k_create(&ko); /* the same emulator, reset by the failed job */
    CHECK(build_triangle(&f, &t));
    CHECK_MSG(vc4k_submit_cl(f.k, &t.s) == 0, "%s", hd.text);
    teardown(&f);
}

/* A direct (general memory) lookup as Mesa makes for uniform arrays: the
 * offset clamped to [0, uniform], plus the base the submit relocates; the
 * kernel refuses a clamp that lets the lookup read past the BO. */
static const char fs_direct[] = "mov r0, 0\n"
                                "max r0, r0, 0\n"
                                "min r0, r0, unif\n"
                                "add t0s, r0, unif\n"
                                ".word 0x9E7000, 0xA00009E7\n" /* nop; ldtmu0 */
                                "mov tlbc, r4\n"
                                "nop; thrend\nnop\nnop; sbdone\n";

static void test_direct_lookup(void)
{
    struct fixture f;
    struct tri t;
    CHECK(setup(&f));
    CHECK(build_triangle(&f, &t));
    uint8_t *code = NULL;
    size_t n = 0;
    uint32_t fs, ubo;
    CHECK(assemble(fs_direct, &code, &n));
    CHECK_MSG(vc4k_bo_create_shader(f.k, code, (uint32_t)n, &fs) == 0, "%s", hd.text);
    free(code);
    CHECK_EQ_INT(vc4k_bo_create(f.k, 4096, &ubo), 0);
    sc_put32((uint8_t *)vc4k_bo_map(f.k, ubo) + 16, 0xFF2080E0u);
    uint32_t handles[BO_COUNT + 1];
    memcpy(handles, t.handles, sizeof t.handles);
    handles[BO_FS] = fs;
    handles[BO_COUNT] = ubo;
    uint8_t unif[64];
    sc_put32(unif, BO_COUNT); /* the buffer's BO index */
    sc_put32(unif + 4, 0);    /* the clamp (p1) */
    sc_put32(unif + 8, 16);   /* the base (p0): offset 16 in the BO */
    t.s.bo_handles = handles;
    t.s.bo_handle_count = BO_COUNT + 1;
    t.s.uniforms = unif;
    t.s.uniforms_size = 12;
    CHECK_MSG(vc4k_submit_cl(f.k, &t.s) == 0, "%s", hd.text);
    const uint8_t *p = vc4k_bo_map(f.k, t.handles[BO_FB]);
    CHECK_EQ_U64(vc4_le32(p + 4 * (300 * 640 + 320)), 0xFF2080E0u);
    /* a clamp that reaches past the BO: base 16 + 4080 + 4 bytes */
    sc_put32(unif + 4, 4080);
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &t.s), -EINVAL);
    CHECK_CONTAINS(hd.text, "direct lookup clamp 4080");
    sc_put32(unif + 4, 4076);
    CHECK_MSG(vc4k_submit_cl(f.k, &t.s) == 0, "%s", hd.text);
    teardown(&f);
}

static void test_bad_submits(void)
{
    struct fixture f;
    struct tri t;
    CHECK(setup(&f));
    CHECK(build_triangle(&f, &t));
    /* no Flush at the end */
    struct vc4k_submit s = t.s;
    s.bin_cl_size--;
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &s), -EINVAL);
    CHECK_CONTAINS(hd.text, "kernel-semaphore-before-flush");
    /* a rendering packet in the binning list */
    uint8_t bad[256];
    memcpy(bad, t.bin, t.s.bin_cl_size);
    bad[t.s.bin_cl_size - 2] = VC4_CL_TILE_COORDINATES;
    s = t.s;
    s.bin_cl = bad;
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &s), -EINVAL);
    CHECK_CONTAINS(hd.text, "kernel-bin-whitelist");
    /* the record names the frame buffer as its fragment shader */
    uint8_t rec[256];
    memcpy(rec, t.rec, t.s.shader_rec_size);
    sc_put32(rec, BO_FB);
    s = t.s;
    s.shader_rec = rec;
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &s), -EINVAL);
    CHECK_CONTAINS(hd.text, "not a shader BO");
    /* an attribute array that the draw reads past */
    memcpy(rec, t.rec, t.s.shader_rec_size);
    sc_put32(rec + 20 + 36, 4090); /* attribute 0: 12 bytes from 4090 of a 4096-byte BO */
    s.shader_rec = rec;
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &s), -EINVAL);
    CHECK_CONTAINS(hd.text, "kernel-reloc-range");
    /* uniforms shorter than the fragment shader reads */
    s = t.s;
    s.uniforms_size = 8;
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &s), -EINVAL);
    CHECK_CONTAINS(hd.text, "kernel-shader-rec");
    /* nothing ran, and the good one still does */
    CHECK_EQ_U64(vc4k_last_seqno(f.k), 0);
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &t.s), 0);
    CHECK_EQ_U64(vc4k_last_seqno(f.k), 1);
    teardown(&f);
}

static void test_shader_bo(void)
{
    struct fixture f;
    CHECK(setup(&f));
    uint8_t *code = NULL;
    size_t n = 0;
    uint32_t h;
    /* two texture lookups: T then S on TMU0 (2 parameters), a direct one on
     * TMU1 (an add of a uniform to an offset clamped to [0, uniform]), then
     * 1 ordinary uniform */
    CHECK(assemble("mov t0t, r0\n"
                   "mov t0s, r1\n"
                   "max r2, r2, 0\n"
                   "min r2, r2, unif\n"
                   "add t1s, r2, unif\n"
                   "mov r3, unif\n"
                   "nop; thrend\nnop\nnop\n", &code, &n));
    CHECK_EQ_INT(vc4k_bo_create_shader(f.k, code, (uint32_t)n, &h), 0);
    free(code);
    /* the same direct lookup unclamped: the kernel refuses it */
    CHECK(assemble("add t1s, r2, unif\n"
                   "nop; thrend\nnop\nnop\n", &code, &n));
    CHECK_EQ_INT(vc4k_bo_create_shader(f.k, code, (uint32_t)n, &h), -EINVAL);
    CHECK_CONTAINS(hd.text, "kernel-direct-lookup");
    free(code);
    /* no program end */
    CHECK(assemble("mov r0, unif\nnop\n", &code, &n));
    CHECK_EQ_INT(vc4k_bo_create_shader(f.k, code, (uint32_t)n, &h), -EINVAL);
    CHECK_CONTAINS(hd.text, "does not end");
    free(code);
    CHECK_EQ_INT(vc4k_bo_create_shader(f.k, "1234567", 7, &h), -EINVAL);
    teardown(&f);
}

/* A threaded fragment shader (a thread switch) is accepted; a shader
 * record must then say so (FS_SINGLE_THREAD clear), else the submit is
 * refused, as the kernel does. */
static void test_threaded_fs(void)
{
    struct fixture f;
    struct tri t;
    CHECK(setup(&f));
    CHECK(build_triangle(&f, &t));
    uint8_t *code = NULL;
    size_t n = 0;
    uint32_t fs;
    CHECK(assemble("nop; thrsw\nnop\nnop\nnop; fmul r5quad.8a, unif, 1.0; @add_a=6 @add_b=7\n"
                   "nop; fmul r5quad.8b, unif, 1.0\nnop; fmul r5quad.8c, unif, 1.0\n"
                   "nop; fmul r5quad.8d, unif, 1.0\nmov tlbc, r5\nnop; lthrsw\nnop\nnop\n"
                   "nop; thrend\nnop\nnop; sbdone\n", &code, &n));
    CHECK_MSG(vc4k_bo_create_shader(f.k, code, (uint32_t)n, &fs) == 0, "%s", hd.text);
    free(code);
    uint32_t handles[BO_COUNT];
    memcpy(handles, t.handles, sizeof handles);
    handles[BO_FS] = fs;
    t.s.bo_handles = handles;
    CHECK_EQ_INT(vc4k_submit_cl(f.k, &t.s), -EINVAL); /* the record says single-threaded */
    CHECK_CONTAINS(hd.text, "threading does not match");
    t.rec[20] &= (uint8_t)~1u; /* FS_SINGLE_THREAD off (the record's first byte, after 5 BO indices) */
    CHECK_MSG(vc4k_submit_cl(f.k, &t.s) == 0, "%s", hd.text);
    teardown(&f);
}

/* A fragment shader with a branch and a uniform-address reset, as Mesa
 * emits them for GLSL control flow (vc4_qpu_emit.c: a branch ends a block,
 * the next block resets the uniforms address): batches left of x = 320 (a
 * tile edge, so all 16 lanes agree) branch over the load of the right-hand
 * colour; both paths join at the reset, whose uniform is the stream's own
 * address (submit.c writes it), then read one more uniform that is ORed
 * into the colour.  Without the address the last uniform would come from
 * address 8 and the colours would be wrong. */
static const char fs_branch[] = "ldi r1, 320\n"
                                "sub.setf -, x_coord, r1\n"
                                "mov r0, unif\n"          /* u0: the left colour */
                                "brr.alln -, r:1f\n"
                                "nop\nnop\nnop\n"
                                "ldi r0, 0xFF0000FF\n"    /* only on the right */
                                ":1\n"
                                "ldi r2, 8\n"             /* 4 bytes read so far + 4 */
                                "add unif_addr, r2, unif\n" /* u1: the stream's address */
                                "nop\nnop\n"
                                "or r0, r0, unif\n"       /* u2 */
                                "mov tlbc, r0\n"
                                "nop; thrend\nnop\nnop; sbdone\n";

static void test_branch_fs(void)
{
    struct fixture f;
    struct tri t;
    CHECK(setup(&f));
    CHECK(build_triangle(&f, &t));
    uint8_t *code = NULL;
    size_t n = 0;
    uint32_t fs;
    CHECK(assemble(fs_branch, &code, &n));
    CHECK_MSG(vc4k_bo_create_shader(f.k, code, (uint32_t)n, &fs) == 0, "%s", hd.text);
    free(code);
    uint32_t handles[BO_COUNT];
    memcpy(handles, t.handles, sizeof handles);
    handles[BO_FS] = fs;
    uint8_t unif[12];
    sc_put32(unif, 0xFF2080E0u);
    sc_put32(unif + 4, 0xDEADBEEFu); /* the kernel puts the stream's address here */
    sc_put32(unif + 8, 0x00400000u);
    t.s.bo_handles = handles;
    t.s.uniforms = unif;
    t.s.uniforms_size = sizeof unif;
    CHECK_MSG(vc4k_submit_cl(f.k, &t.s) == 0, "%s", hd.text);
    const uint8_t *p = vc4k_bo_map(f.k, t.handles[BO_FB]);
    size_t left = 0, right = 0, wrong = 0;
    for (unsigned y = 0; y < 480; y++)
        for (unsigned x = 0; x < 640; x++) {
            uint32_t v = vc4_le32(p + 4 * (y * 640 + x));
            if (v == (x < 320 ? 0xFF6080E0u : 0xFF4000FFu))
                *(x < 320 ? &left : &right) += 1;
            else if (v != SC_CLEAR_COLOR)
                wrong++;
        }
    CHECK_MSG(left > 1000 && right > 1000 && wrong == 0, "left %zu right %zu wrong %zu", left, right, wrong);
    teardown(&f);
}

TEST_LIST(test_bo_basics, test_clear_only, test_bad_surfaces, test_triangle, test_binner_overflow, test_texture,
          test_hang, test_direct_lookup, test_bad_submits, test_shader_bo, test_threaded_fs,
          test_branch_fs, test_regression_extended_stride)
