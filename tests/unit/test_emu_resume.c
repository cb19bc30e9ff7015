/*
 * test_emu_resume.c - vc4_emu_run in small cycle slices gives the frame of
 * one run (vc4kit/emu.h: "After a timeout, calling vc4_emu_run again
 * continues where it stopped").  The binning list and then the rendering
 * list are each run with a budget of a few cycles, again and again until the
 * list is done, and the frame must equal a one-shot render bit for bit:
 *
 *  - the C scenes of examples/nv_scene.h, tex_scene.h and gl_scene.h (the
 *    NV triangle with varyings, seed 004's textured triangle, seed 000's GL
 *    triangle, whose vertices are shaded by the binner's packets);
 *  - the memory image examples/tex_triangle.qasm, assembled and run as
 *    `vc4kit render` does (regression: in tiny slices it stopped at list
 *    address 0x00201700).
 */
#include <stdlib.h>

#include "harness.h"

#ifndef VC4KIT_SOURCE_DIR
#define VC4KIT_SOURCE_DIR "."
#endif
#define VC4KIT_EXAMPLES_DIR VC4KIT_SOURCE_DIR "/examples"
#include "gl_scene.h"
#include "tex_scene.h"

/* Diagnostics: count errors other than the timeout report of each slice. */
struct counts {
    unsigned errors;
    char first[512];
};

static void count_diag(void *user, const struct vc4_diag *d)
{
    struct counts *c = user;
    if (d->severity == VC4_ERROR && d->cls != VC4_DIAG_TIMEOUT && !c->errors++)
        vc4_diag_format(d, c->first, sizeof c->first);
}

/* Run one list on thread t with `slice` cycles a call (0: one call with the
 * default budget) until it is done.  Returns the final status. */
static enum vc4_status run_list(struct vc4_emu *emu, unsigned t, uint32_t start, uint32_t end,
                                uint64_t slice, unsigned long *calls)
{
    vc4_emu_reg_write(emu, t ? VC4_V3D_CT1CA : VC4_V3D_CT0CA, start);
    vc4_emu_reg_write(emu, t ? VC4_V3D_CT1EA : VC4_V3D_CT0EA, end);
    enum vc4_status st;
    unsigned long n = 0;
    do {
        st = vc4_emu_run(emu, slice);
        n++;
    } while (slice && st == VC4_ERR_TIMEOUT && n < 50000000ul);
    *calls += n;
    return st;
}

/* The frame after the run, or NULL; also checks the lists ended cleanly. */
static uint8_t *frame_of(struct vc4_emu *emu, unsigned *w, unsigned *h)
{
    uint32_t cs0 = 0, cs1 = 0, ca1 = 0;
    vc4_emu_reg_read(emu, VC4_V3D_CT0CS, &cs0);
    vc4_emu_reg_read(emu, VC4_V3D_CT1CS, &cs1);
    vc4_emu_reg_read(emu, VC4_V3D_CT1CA, &ca1);
    CHECK_MSG(!(cs0 & (VC4_V3D_CTCS_CTERR | VC4_V3D_CTCS_CTRUN)) &&
                  !(cs1 & (VC4_V3D_CTCS_CTERR | VC4_V3D_CTCS_CTRUN)),
              "lists not done: CT0CS 0x%x, CT1CS 0x%x at 0x%08x", cs0, cs1, ca1);
    struct vc4_emu_frame f;
    vc4_emu_render_frame(emu, &f);
    CHECK(f.valid);
    if (!f.valid)
        return NULL;
    uint8_t *rgba = malloc((size_t)f.width * f.height * 4);
    if (rgba && vc4_emu_read_frame(emu, &f, rgba) != VC4_OK) {
        free(rgba);
        return NULL;
    }
    *w = f.width;
    *h = f.height;
    return rgba;
}

/* CT0 from lab[0] to lab[1], then CT1 from lab[2] to lab[3], in slices;
 * the frame or NULL. */
static uint8_t *run_lists(struct vc4_emu *emu, const uint32_t lab[4], uint64_t slice,
                          const struct counts *c, unsigned *w, unsigned *h)
{
    unsigned long calls = 0;
    enum vc4_status s0 = run_list(emu, 0, lab[0], lab[1], slice, &calls);
    enum vc4_status s1 = s0 == VC4_OK ? run_list(emu, 1, lab[2], lab[3], slice, &calls) : s0;
    CHECK_MSG(s0 == VC4_OK && s1 == VC4_OK, "slice %llu: %s / %s after %lu calls: %s",
              (unsigned long long)slice, vc4_status_name(s0), vc4_status_name(s1), calls, c->first);
    return s0 == VC4_OK && s1 == VC4_OK ? frame_of(emu, w, h) : NULL;
}

/* A C scene: build it, run both lists in slices. */
static uint8_t *render_scene(const struct sc_params *p, uint64_t slice, unsigned *w, unsigned *h)
{
    struct counts c = {0};
    struct vc4_diag_sink sink = {count_diag, &c};
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    uint8_t *rgba = NULL;
    uint32_t lab[4] = {SC_BIN_CL, 0, SC_RENDER_CL, 0};
    if (emu && sc_build(emu, p, sink, &lab[1], &lab[3]) &&
        (!p->setup || p->setup(emu, p->setup_user)))
        rgba = run_lists(emu, lab, slice, &c, w, h);
    CHECK_MSG(c.errors == 0, "slice %llu: %s", (unsigned long long)slice, c.first);
    vc4_emu_destroy(emu);
    return rgba;
}

static void same_frames(const char *what, uint64_t slice, const uint8_t *a, unsigned aw,
                        unsigned ah, const uint8_t *b, unsigned bw, unsigned bh)
{
    CHECK_MSG(a && b && aw == bw && ah == bh, "%s, slice %llu: no frame or another size", what,
              (unsigned long long)slice);
    if (!a || !b || aw != bw || ah != bh)
        return;
    size_t diff = 0;
    for (size_t i = 0; i < (size_t)aw * ah; i++)
        diff += memcmp(a + 4 * i, b + 4 * i, 4) != 0;
    CHECK_MSG(diff == 0, "%s, slice %llu: %zu pixels differ from the one-shot frame", what,
              (unsigned long long)slice, diff);
}

static const uint64_t slices[] = {1, 7, 100, 4096};

static void check_scene(const char *what, const struct sc_params *p)
{
    unsigned w0 = 0, h0 = 0;
    uint8_t *ref = render_scene(p, 0, &w0, &h0);
    CHECK(ref != NULL);
    for (size_t i = 0; i < sizeof slices / sizeof *slices; i++) {
        unsigned w = 0, h = 0;
        uint8_t *img = render_scene(p, slices[i], &w, &h);
        same_frames(what, slices[i], ref, w0, h0, img, w, h);
        free(img);
    }
    free(ref);
}

static void test_nv_triangle_in_slices(void)
{
    struct sc_params p = sc_default(true);
    check_scene("nv triangle", &p);
}

static void test_tex_triangle_in_slices(void)
{
    struct tx_texture t;
    CHECK(tx_seed_texture(&t, VC4_TEX_T));
    struct sc_params p = tx_seed_scene(&t);
    check_scene("tex triangle", &p);
    free(t.rgba);
}

/* seed 000's GL triangle: coordinate shading in the binning list, vertex
 * shading in the rendering list, both inside one packet each */
static uint8_t *render_gl(uint64_t slice, unsigned *w, unsigned *h)
{
    struct counts c = {0};
    struct vc4_diag_sink sink = {count_diag, &c};
    struct vc4_emu_options eo = {.sink = sink, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    uint8_t vdata[256];
    struct gl_scene sc = gl_seed_scene(vdata);
    uint8_t *rgba = NULL;
    uint32_t lab[4] = {SC_BIN_CL, 0, SC_RENDER_CL, 0};
    if (emu && gl_build(emu, &sc, sink, &lab[1], &lab[3]))
        rgba = run_lists(emu, lab, slice, &c, w, h);
    CHECK_MSG(c.errors == 0, "gl, slice %llu: %s", (unsigned long long)slice, c.first);
    vc4_emu_destroy(emu);
    return rgba;
}

static void test_gl_triangle_in_slices(void)
{
    unsigned w0 = 0, h0 = 0;
    uint8_t *ref = render_gl(0, &w0, &h0);
    CHECK(ref != NULL);
    for (size_t i = 0; i < sizeof slices / sizeof *slices; i++) {
        unsigned w = 0, h = 0;
        uint8_t *img = render_gl(slices[i], &w, &h);
        same_frames("gl triangle", slices[i], ref, w0, h0, img, w, h);
        free(img);
    }
    free(ref);
}

/* examples/tex_triangle.qasm as `vc4kit render` runs it (tools/cmd_render.c). */
static uint8_t *render_image(const uint8_t *img, size_t len, uint32_t base, const uint32_t lab[4],
                             uint64_t slice, unsigned *w, unsigned *h)
{
    struct counts c = {0};
    struct vc4_emu_options eo = {.sink = {count_diag, &c}};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    uint8_t *rgba = NULL;
    if (emu && vc4_emu_mem_write(emu, base, img, len) == VC4_OK)
        rgba = run_lists(emu, lab, slice, &c, w, h);
    CHECK_MSG(c.errors == 0, "slice %llu: %s", (unsigned long long)slice, c.first);
    vc4_emu_destroy(emu);
    return rgba;
}

static uint8_t *assemble_example(const char *file, uint32_t base, size_t *len, struct vc4_asm **out)
{
    size_t n = 0;
    char *text = harness_read_file(file, &n);
    struct vc4_asm_options o = {.base_addr = base};
    struct vc4_asm *as = vc4_asm_create(&o);
    uint8_t *img = NULL;
    if (text && as && vc4_asm_add_include_dir(as, VC4KIT_SOURCE_DIR "/share/vc4kit") == VC4_OK &&
        vc4_asm_source(as, file, text, n) == VC4_OK) {
        const uint8_t *b = vc4_asm_output(as, len);
        img = malloc(*len);
        if (img)
            memcpy(img, b, *len);
    }
    free(text);
    *out = as;
    return img;
}

static void test_regression_tex_triangle_qasm_in_slices(void)
{
    const char *file = VC4KIT_EXAMPLES_DIR "/tex_triangle.qasm";
    size_t len = 0;
    struct vc4_asm *as = NULL;
    uint8_t *img = assemble_example(file, 0, &len, &as);
    int64_t v = 0;
    uint32_t base = as && vc4_asm_lookup(as, "LOAD_ADDR", &v) ? (uint32_t)v : 0;
    vc4_asm_destroy(as);
    if (base) {
        free(img);
        img = assemble_example(file, base, &len, &as);
    }
    CHECK(img != NULL);
    static const char *const names[4] = {"BIN_START", "BIN_END", "RENDER_START", "RENDER_END"};
    uint32_t lab[4] = {0};
    for (unsigned i = 0; i < 4; i++) {
        CHECK(as && vc4_asm_lookup(as, names[i], &v));
        lab[i] = (uint32_t)v;
    }
    vc4_asm_destroy(as);
    if (!img)
        return;
    unsigned w0 = 0, h0 = 0;
    uint8_t *ref = render_image(img, len, base, lab, 0, &w0, &h0);
    CHECK(ref != NULL);
    for (size_t i = 0; i < sizeof slices / sizeof *slices; i++) {
        unsigned w = 0, h = 0;
        uint8_t *got = render_image(img, len, base, lab, slices[i], &w, &h);
        same_frames("tex_triangle.qasm", slices[i], ref, w0, h0, got, w, h);
        free(got);
    }
    free(ref);
    free(img);
}

TEST_LIST(test_nv_triangle_in_slices, test_tex_triangle_in_slices, test_gl_triangle_in_slices,
          test_regression_tex_triangle_qasm_in_slices)
