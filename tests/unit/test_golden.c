/*
 * test_golden.c - golden images: every rendering scene against its PNG in
 * tests/golden/, compared pixel by pixel (decoded RGBA, bit for bit).
 *
 *   - the seed scenes built in C (test_render_scenes.h), and the same
 *     scenes as assembly memory images (examples/NAME.qasm) run through the
 *     `vc4kit render` command, must both match tests/golden/<name>.png;
 *   - variants (BGR565 dithered, 4x multisampling resolved, T and LT frame
 *     layouts) pin the pixel formats, the dither matrix and the resolve.
 *
 * VC4KIT_REBASELINE=1 (environment) rewrites the goldens from the C scenes
 * instead of comparing (then look at them: they are the expected output).
 * tests/golden/REASONS lists expected failures, one "name: reason" per line;
 * a listed scene that differs is reported and does not fail the test.
 */
#include <stdlib.h>

#include "harness.h"
#include "nv_scene.h"
#include "vc4kit/tex.h"

#ifndef VC4KIT_SOURCE_DIR
#define VC4KIT_SOURCE_DIR "."
#endif
#ifndef VC4KIT_BINARY_DIR
#define VC4KIT_BINARY_DIR "."
#endif

static bool rebaseline(void)
{
    const char *e = getenv("VC4KIT_REBASELINE");
    return e && *e && strcmp(e, "0") != 0;
}

/* The reason recorded for an expected failure of this scene, or NULL. */
static char *expected_failure(const char *name)
{
    char *text = harness_read_file(VC4KIT_SOURCE_DIR "/tests/golden/REASONS", NULL);
    if (!text)
        return NULL;
    size_t n = strlen(name);
    for (char *line = text; line && *line;) {
        char *next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        if (line[0] != '#' && strncmp(line, name, n) == 0 && line[n] == ':') {
            char *r = malloc(strlen(line + n + 1) + 1);
            if (r)
                strcpy(r, line + n + 1);
            free(text);
            return r;
        }
        line = next;
    }
    free(text);
    return NULL;
}

/* Compare (or rebaseline) rgba against tests/golden/<name>.png. */
static void check_golden(const char *name, const char *what, const uint8_t *rgba, unsigned w, unsigned h,
                         bool write_golden)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/golden/%s.png", VC4KIT_SOURCE_DIR, name);
    if (write_golden && rebaseline()) {
        CHECK(vc4_png_write(path, rgba, w, h, (size_t)w * 4, NULL) == VC4_OK);
        printf("rebaselined %s\n", path);
        return;
    }
    uint8_t *g = NULL;
    unsigned gw = 0, gh = 0;
    if (vc4_png_read(path, &g, &gw, &gh, NULL) != VC4_OK) {
        CHECK_MSG(0, "%s: cannot read %s (VC4KIT_REBASELINE=1 writes it)", name, path);
        return;
    }
    size_t diff = 0, first = 0;
    if (gw == w && gh == h) {
        for (size_t i = 0; i < (size_t)w * h; i++)
            if (memcmp(g + 4 * i, rgba + 4 * i, 4) != 0 && diff++ == 0)
                first = i;
    }
    bool same = gw == w && gh == h && diff == 0;
    char *reason = expected_failure(name);
    if (!same && reason) {
        printf("%s (%s): expected failure: %s\n", name, what, reason);
    } else {
        CHECK_MSG(gw == w && gh == h, "%s (%s): %ux%u, golden %ux%u", name, what, w, h, gw, gh);
        CHECK_MSG(diff == 0, "%s (%s): %zu pixels differ from the golden; first (%zu, %zu): %02x%02x%02x%02x, golden %02x%02x%02x%02x",
                  name, what, diff, first % w, first / w, rgba[4 * first], rgba[4 * first + 1],
                  rgba[4 * first + 2], rgba[4 * first + 3], g[4 * first], g[4 * first + 1],
                  g[4 * first + 2], g[4 * first + 3]);
        CHECK_MSG(same || !reason, "%s: listed in REASONS but matches: remove the entry", name);
    }
    free(reason);
    free(g);
}

/* owner: the scene whose output the golden is (rebaselining writes it);
 * variants only compare. */
static void golden_c(const char *name, const struct sc_params *p, unsigned qpus, bool owner)
{
    struct harness_diags hd;
    struct vc4_diag_sink sink = harness_sink(&hd);
    uint8_t *rgba = sc_render(p, sink, qpus, NULL);
    CHECK_MSG(rgba != NULL, "%s: render failed:\n%s", name, hd.text);
    CHECK_MSG(hd.errors == 0 && hd.warnings == 0, "%s:\n%s", name, hd.text);
    if (rgba)
        check_golden(name, owner ? "C scene" : "C scene variant", rgba, p->width, p->height, owner);
    free(rgba);
}

/* The assembly image through the command: vc4kit render SOURCE -o OUT. */
/* owner: the scene whose output the golden is (rebaselining writes it);
 * variants only compare. */
static void golden_cli(const char *name)
{
    if (rebaseline())
        return;
    char cmd[2048], out[1024];
    snprintf(out, sizeof out, "%s/golden_%s.png", VC4KIT_BINARY_DIR, name);
    remove(out);
    snprintf(cmd, sizeof cmd, "\"%s/vc4kit\" render \"%s/examples/%s.qasm\" -o \"%s\"", VC4KIT_BINARY_DIR,
             VC4KIT_SOURCE_DIR, name, out);
    int rc = system(cmd);
    CHECK_MSG(rc == 0, "%s: `%s` exited with %d", name, cmd, rc);
    uint8_t *rgba = NULL;
    unsigned w = 0, h = 0;
    if (vc4_png_read(out, &rgba, &w, &h, NULL) != VC4_OK) {
        CHECK_MSG(0, "%s: no PNG from the command", name);
        return;
    }
    check_golden(name, "examples/*.qasm via vc4kit render", rgba, w, h, false);
    free(rgba);
}

static void test_nv_triangle(void)
{
    struct sc_params p = sc_default(false);
    golden_c("nv_triangle", &p, 0, true);
    golden_cli("nv_triangle");
}

static void test_nv_varyings(void)
{
    struct sc_params p = sc_default(true);
    golden_c("nv_varyings", &p, 0, true);
    golden_cli("nv_varyings");
}

static void test_bgr565_dithered(void)
{
    struct sc_params p = sc_default(true);
    p.color_format = VC4_CL_FB_BGR565_DITHER;
    golden_c("nv_varyings_bgr565_dither", &p, 0, true);
}

static void test_bgr565(void)
{
    struct sc_params p = sc_default(true);
    p.color_format = VC4_CL_FB_BGR565;
    golden_c("nv_varyings_bgr565", &p, 0, true);
}

static void test_multisample(void)
{
    struct sc_params p = sc_default(true);
    p.multisample = true;
    golden_c("nv_varyings_ms4x", &p, 0, true);
}

/* T and LT frames read back as the same image as the raster one. */
static void test_tiled_frames(void)
{
    struct sc_params p = sc_default(true);
    p.memory_format = VC4_CL_MEM_T;
    golden_c("nv_varyings", &p, 0, false);
    p.memory_format = VC4_CL_MEM_LT;
    p.single_threaded = true;
    golden_c("nv_varyings", &p, 3, false);
}

TEST_LIST(test_nv_triangle, test_nv_varyings, test_bgr565_dithered, test_bgr565, test_multisample,
          test_tiled_frames)
