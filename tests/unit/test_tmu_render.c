/*
 * test_tmu_render.c - the textured scenes of examples/tex_scene.h rendered
 * through CT0/CT1 with the TMU, against their golden PNGs
 * (tests/golden/tex_triangle.png, tex_plane.png; VC4KIT_REBASELINE=1
 * rewrites them):
 *
 *  - seed 004's textured triangle, its shader words exactly as posted, with
 *    the texture in T, LT and raster format: the three images are identical
 *    and equal the golden; the words equal examples/seeds/
 *    texture_fragment_shader.hex; the texture layouts are what their names
 *    say; texels in the image are the picture's texels;
 *  - the mip-mapped perspective plane: the golden, texels fetched from
 *    several mip levels, and the far rows averaged by the mip chain.
 */
#include <stdlib.h>

#include "harness.h"

#ifndef VC4KIT_SOURCE_DIR
#define VC4KIT_SOURCE_DIR "."
#endif
#define VC4KIT_EXAMPLES_DIR VC4KIT_SOURCE_DIR "/examples"
#include "tex_scene.h"

/* Compare against tests/golden/<name>.png (or rewrite it). */
static void golden(const char *name, const uint8_t *rgba, unsigned w, unsigned h)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/%s.png", VC4KIT_SOURCE_DIR, name);
    const char *rb = getenv("VC4KIT_REBASELINE");
    if (rb && *rb && strcmp(rb, "0") != 0) {
        CHECK(vc4_png_write(path, rgba, w, h, (size_t)w * 4, NULL) == VC4_OK);
        printf("rebaselined %s\n", path);
        return;
    }
    uint8_t *g = NULL;
    unsigned gw = 0, gh = 0;
    CHECK_MSG(vc4_png_read(path, &g, &gw, &gh, NULL) == VC4_OK, "%s: cannot read %s", name, path);
    if (!g)
        return;
    CHECK_MSG(gw == w && gh == h, "%s: %ux%u, golden %ux%u", name, w, h, gw, gh);
    size_t diff = 0;
    for (size_t i = 0; gw == w && gh == h && i < (size_t)w * h; i++)
        diff += memcmp(g + 4 * i, rgba + 4 * i, 4) != 0;
    CHECK_MSG(diff == 0, "%s: %zu pixels differ from the golden", name, diff);
    free(g);
}

/* Render; the only finding allowed is `allowed_rule` (NULL: none). */
static uint8_t *render(const struct sc_params *p, const char *allowed_rule, struct vc4_emu **emu)
{
    struct harness_diags hd;
    struct vc4_diag_sink sink = harness_sink(&hd);
    uint8_t *rgba = sc_render(p, sink, 0, emu);
    CHECK_MSG(rgba != NULL, "render failed:\n%s", hd.text);
    CHECK_MSG(hd.errors == 0, "%s", hd.text);
    if (allowed_rule) {
        CHECK_MSG(hd.warnings <= 1, "%s", hd.text);
        if (hd.warnings)
            CHECK_CONTAINS(hd.text, allowed_rule);
    } else {
        CHECK_MSG(hd.warnings == 0, "%s", hd.text);
    }
    return rgba;
}

/* The 0x tokens of text (modified), ignoring what follows `comment` on a line. */
static unsigned hex_words(char *text, char comment, uint32_t *out, unsigned max)
{
    unsigned n = 0;
    for (char *line = text; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        char *c = strchr(line, comment);
        if (c)
            *c = 0;
        for (char *p = strstr(line, "0x"); p && n < max; p = strstr(p + 2, "0x"))
            out[n++] = (uint32_t)strtoul(p, NULL, 16);
        line = next;
    }
    return n;
}

/* The instruction words of the scene's shader are the posted ones. */
static void test_seed_words(void)
{
    char *text = harness_read_file(VC4KIT_SOURCE_DIR "/examples/seeds/texture_fragment_shader.hex",
                                   NULL);
    char *ours = malloc(sizeof tx_fs_seed);
    CHECK(text != NULL && ours != NULL);
    if (text && ours) {
        memcpy(ours, tx_fs_seed, sizeof tx_fs_seed);
        uint32_t posted[16], scene[16];
        unsigned n = hex_words(text, ';', posted, 16), m = hex_words(ours, '#', scene, 16);
        CHECK_EQ_INT(n, 12);
        CHECK_EQ_INT(m, 12);
        for (unsigned i = 0; i < 12 && i < n && i < m; i++)
            CHECK_EQ_U64(scene[i], posted[i]);
    }
    free(text);
    free(ours);
}

static void test_seed_triangle(void)
{
    static const enum vc4_tex_layout layouts[3] = {VC4_TEX_T, VC4_TEX_LT, VC4_TEX_RASTER};
    uint8_t *img[3] = {NULL, NULL, NULL};
    for (unsigned v = 0; v < 3; v++) {
        struct tx_texture t;
        CHECK(tx_seed_texture(&t, layouts[v]));
        /* the TMU reads level 0 in the layout the variant is named after */
        CHECK_EQ_INT(t.m.level[0].geom.layout, layouts[v]);
        struct sc_params p = tx_seed_scene(&t);
        struct vc4_emu *emu = NULL;
        /* The posted third instruction (0x13E3377, 0x11020E67) has raddr_b =
         * 35 (VARYING_READ) beside its unused MUL: a third varying of the two
         * the scene has, whose value goes nowhere. The shader works on
         * hardware, so no warning (issue 18): render() allows none. */
        img[v] = render(&p, NULL, &emu);
        vc4_emu_destroy(emu);
        free(t.rgba);
    }
    CHECK(img[0] && img[1] && img[2]);
    if (!img[0] || !img[1] || !img[2])
        goto out;
    CHECK(memcmp(img[0], img[1], 640 * 480 * 4) == 0);
    CHECK(memcmp(img[0], img[2], 640 * 480 * 4) == 0);
    golden("tex_triangle", img[0], 640, 480);
    /* independent spot checks: the pixel at (x, y) shows picture texel
     * (floor(16 s), floor(16 t)), s, t interpolated linearly (W = 1):
     * t = (y + 0.5 - 32) / 416, s = 0.5 + (x + 0.5 - 320) / 576 */
    uint8_t *pic = tx_picture(1);
    unsigned bad = 0, checked = 0;
    for (unsigned y = 60; y < 440; y += 7)
        for (unsigned x = 40; x < 600; x += 5) {
            double t = (y + 0.5 - 32) / 416.0, s = 0.5 + (x + 0.5 - 320) / 576.0;
            double tx = s * 16, ty = t * 16;
            double half = 0.5 * t; /* triangle half-width in s at this row */
            if (s < 0.5 - half + 0.01 || s > 0.5 + half - 0.01)
                continue;
            /* stay clear of texel boundaries (rounding of the interpolation) */
            if (tx - (int)tx < 0.05 || tx - (int)tx > 0.95 || ty - (int)ty < 0.05 ||
                ty - (int)ty > 0.95)
                continue;
            const uint8_t *e = pic + ((unsigned)ty * 16 + (unsigned)tx) * 4;
            checked++;
            bad += memcmp(img[0] + ((size_t)y * 640 + x) * 4, e, 4) != 0;
        }
    CHECK(checked > 1000);
    CHECK_EQ_INT(bad, 0);
    free(pic);
out:
    for (unsigned v = 0; v < 3; v++)
        free(img[v]);
}

static void test_plane(void)
{
    struct tx_texture t;
    CHECK(tx_plane_texture(&t));
    CHECK_EQ_INT(t.levels, 7);
    CHECK_EQ_INT(t.m.level[0].geom.layout, VC4_TEX_T);
    CHECK_EQ_INT(t.m.level[2].geom.layout, VC4_TEX_LT); /* 16x16: LT by size */
    struct sc_params p = tx_plane_scene(&t);
    struct vc4_emu *emu = NULL;
    uint8_t *rgba = render(&p, NULL, &emu);
    vc4_emu_destroy(emu);
    free(t.rgba);
    if (!rgba)
        return;
    golden("tex_plane", rgba, 640, 480);
    /* far rows: the checker is minified far below a texel per pixel, so the
     * mip chain gives its average colour (about (120, 125, 132) before fog),
     * not the cells' colours; near rows show both cell colours */
    unsigned far_far_from_mean = 0, near_yellow = 0, near_blue = 0;
    for (unsigned x = 300; x < 340; x++) {
        const uint8_t *f = rgba + ((size_t)252 * 640 + x) * 4;
        far_far_from_mean += abs(f[0] - f[2]) > 40;
        for (unsigned y = 420; y < 450; y++) {
            const uint8_t *n = rgba + ((size_t)y * 640 + x) * 4;
            near_yellow += n[0] > 150 && n[1] > 130 && n[2] < 120;
            near_blue += n[2] > 120 && n[0] < 100;
        }
    }
    CHECK_EQ_INT(far_far_from_mean, 0);
    CHECK(near_yellow > 100);
    CHECK(near_blue > 100);
    /* perspective: the red grid rows of the checker (t = k / 4) lie where
     * the plane's depth puts them, y = 240 + 320 / Z with Z = 1.5 + t *
     * 38.5 / 55 (screen-linear t would put them elsewhere: t = 0.25 at
     * y = 452.4); column x = 340 lies between red columns */
    for (unsigned k = 1; k <= 4; k++) {
        double z = (double)TX_NEAR + (k / 4.0) * (double)(TX_FAR - TX_NEAR) / 55.0;
        double yk = 240 + 320 / z;
        bool red = false;
        for (int y = (int)yk - 2; y <= (int)yk + 2; y++) {
            const uint8_t *c = rgba + ((size_t)y * 640 + 340) * 4;
            red |= c[0] > c[1] + 50 && c[0] > c[2] + 50;
        }
        CHECK_MSG(red, "no red grid row near y = %.1f (t = %u/4)", yk, k);
        const uint8_t *between = rgba + ((size_t)(int)(yk + 5) * 640 + 340) * 4;
        CHECK(!(between[0] > between[1] + 50 && between[0] > between[2] + 50));
    }
    /* above the horizon: the clear colour */
    CHECK_EQ_U64(rgba[(100 * 640 + 320) * 4 + 0], 0);
    free(rgba);
}

TEST_LIST(test_seed_words, test_seed_triangle, test_plane)
