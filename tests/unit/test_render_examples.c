/*
 * test_render_examples.c - the seed posts' NV-mode scenes built in C with
 * the library (test_render_scenes.h; the runnable C form of
 * examples/nv_triangle.qasm and examples/nv_varyings.qasm), run through
 * CT0 (binner) and CT1 (renderer), checked pixel by pixel against what the
 * posts describe, and written to the build directory as PNGs.
 */
#include "harness.h"
#include "nv_scene.h"
#include "vc4kit/tex.h"

#ifndef VC4KIT_BINARY_DIR
#define VC4KIT_BINARY_DIR "."
#endif

static const uint8_t *px(const uint8_t *rgba, unsigned w, unsigned x, unsigned y)
{
    return rgba + ((size_t)y * w + x) * 4;
}

/* Is (x, y) (pixel centre) strictly inside the seed triangle, away from
 * its edges? */
static bool well_inside(unsigned x, unsigned y)
{
    double cx = x + 0.5, cy = y + 0.5;
    if (cy < 40 || cy > 440)
        return false;
    /* left edge from (320, 32) to (32, 448), right edge to (608, 448) */
    double t = (cy - 32) / 416.0;
    double xl = 320 - 288 * t, xr = 320 + 288 * t;
    return cx > xl + 2 && cx < xr - 2;
}

static bool well_outside(unsigned x, unsigned y)
{
    double cx = x + 0.5, cy = y + 0.5;
    if (cy < 28 || cy > 452)
        return true;
    double t = (cy - 32) / 416.0;
    double xl = 320 - 288 * t, xr = 320 + 288 * t;
    return cx < xl - 2 || cx > xr + 2;
}

static void save(const char *name, const uint8_t *rgba, unsigned w, unsigned h)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", VC4KIT_BINARY_DIR, name);
    vc4_png_write(path, rgba, w, h, (size_t)w * 4, NULL);
}

static void test_nv_triangle(void)
{
    struct harness_diags hd;
    struct vc4_diag_sink sink = harness_sink(&hd);
    struct sc_params p = sc_default(false);
    struct vc4_emu *emu = NULL;
    uint8_t *rgba = sc_render(&p, sink, 0, &emu);
    CHECK_MSG(rgba != NULL, "render failed:\n%s", hd.text);
    CHECK_EQ_INT(hd.errors, 0);
    CHECK_EQ_INT(hd.warnings, 0);
    if (hd.warnings || hd.errors)
        fprintf(stderr, "%s", hd.text);
    if (rgba) {
        save("nv_triangle.png", rgba, 640, 480);
        unsigned bad_in = 0, bad_out = 0, green = 0;
        for (unsigned y = 0; y < 480; y++)
            for (unsigned x = 0; x < 640; x++) {
                const uint8_t *c = px(rgba, 640, x, y);
                bool is_green = c[0] == 0 && c[1] == 255 && c[2] == 0 && c[3] == 255;
                bool is_black = c[0] == 0 && c[1] == 0 && c[2] == 0 && c[3] == 255;
                green += is_green;
                if (well_inside(x, y) && !is_green)
                    bad_in++;
                if (well_outside(x, y) && !is_black)
                    bad_out++;
                CHECK(is_green || is_black);
            }
        CHECK_EQ_INT(bad_in, 0);
        CHECK_EQ_INT(bad_out, 0);
        /* area of the triangle: 576 x 416 / 2 = 119808 pixels */
        CHECK_MSG(green > 119000 && green < 120600, "%u green pixels", green);
    }
    /* the threads ended; one flush, one frame; FLDONE and FRDONE */
    uint32_t v;
    vc4_emu_reg_read(emu, VC4_V3D_CT0CS, &v);
    CHECK_EQ_U64(v & 0x28, 0);
    vc4_emu_reg_read(emu, VC4_V3D_CT1CS, &v);
    CHECK_EQ_U64(v & 0x28, 0);
    vc4_emu_reg_read(emu, VC4_V3D_BFC, &v);
    CHECK_EQ_U64(v, 1);
    vc4_emu_reg_read(emu, VC4_V3D_RFC, &v);
    CHECK_EQ_U64(v, 1);
    vc4_emu_reg_read(emu, VC4_V3D_INTCTL, &v);
    CHECK_EQ_U64(v & 3, 3);
    vc4_emu_reg_read(emu, VC4_V3D_PCS, &v);
    CHECK_EQ_U64(v & 0xF, 0);
    struct vc4_emu_frame f;
    vc4_emu_render_frame(emu, &f);
    CHECK(f.valid);
    CHECK_EQ_U64(f.addr, SC_FB);
    CHECK_EQ_INT(f.width, 640);
    CHECK_EQ_INT(f.height, 480);
    CHECK_EQ_INT(f.frames, 1);
    free(rgba);
    vc4_emu_destroy(emu);
}

static void test_nv_varyings(void)
{
    struct harness_diags hd;
    struct vc4_diag_sink sink = harness_sink(&hd);
    struct sc_params p = sc_default(true);
    uint8_t *rgba = sc_render(&p, sink, 0, NULL);
    CHECK_MSG(rgba != NULL, "render failed:\n%s", hd.text);
    CHECK_EQ_INT(hd.errors, 0);
    CHECK_EQ_INT(hd.warnings, 0);
    if (hd.warnings || hd.errors)
        fprintf(stderr, "%s", hd.text);
    if (!rgba)
        return;
    save("nv_varyings.png", rgba, 640, 480);
    /* near each vertex its colour dominates; R + G + B stays 255 +- 2 */
    const uint8_t *top = px(rgba, 640, 320, 36), *bl = px(rgba, 640, 36, 446), *br = px(rgba, 640, 604, 446);
    CHECK_MSG(top[0] > 240 && top[1] < 15 && top[2] < 15, "top %u %u %u", top[0], top[1], top[2]);
    CHECK_MSG(bl[1] > 240 && bl[0] < 15 && bl[2] < 15, "bottom left %u %u %u", bl[0], bl[1], bl[2]);
    CHECK_MSG(br[2] > 240 && br[0] < 15 && br[1] < 15, "bottom right %u %u %u", br[0], br[1], br[2]);
    unsigned bad = 0;
    for (unsigned y = 0; y < 480; y++)
        for (unsigned x = 0; x < 640; x++) {
            if (!well_inside(x, y))
                continue;
            const uint8_t *c = px(rgba, 640, x, y);
            int sum = c[0] + c[1] + c[2];
            /* the barycentric weights at the pixel centre */
            double cx = x + 0.5, cy = y + 0.5;
            double r = (448.0 - cy) / 416.0;
            double g = ((608.0 - cx) - (608.0 - 320.0) * r) / 576.0;
            double b = 1.0 - r - g;
            int er = (int)(r * 255 + 0.5), eg = (int)(g * 255 + 0.5), eb = (int)(b * 255 + 0.5);
            if (sum < 253 || sum > 257 || abs(c[0] - er) > 1 || abs(c[1] - eg) > 1 || abs(c[2] - eb) > 1 ||
                c[3] != 255)
                bad++;
        }
    CHECK_EQ_INT(bad, 0);
    free(rgba);
}

/* The same scenes single-threaded, on one QPU, and with 4x multisampling:
 * the single-sample ones are identical to the threaded 12-QPU render. */
static void test_variants_identical(void)
{
    struct harness_diags hd;
    struct vc4_diag_sink sink = harness_sink(&hd);
    for (int vary = 0; vary < 2; vary++) {
        struct sc_params p = sc_default(vary);
        uint8_t *ref = sc_render(&p, sink, 0, NULL);
        p.single_threaded = true;
        uint8_t *st = sc_render(&p, sink, 0, NULL);
        p.single_threaded = false;
        uint8_t *one = sc_render(&p, sink, 1, NULL);
        CHECK(ref && st && one);
        if (ref && st)
            CHECK(memcmp(ref, st, 640 * 480 * 4) == 0);
        if (ref && one)
            CHECK(memcmp(ref, one, 640 * 480 * 4) == 0);
        free(ref);
        free(st);
        free(one);
    }
    CHECK_EQ_INT(hd.errors, 0);
}

TEST_LIST(test_nv_triangle, test_nv_varyings, test_variants_identical)
