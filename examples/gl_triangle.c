/*
 * gl_triangle.c - seed 000's scene in GL mode: the NV triangle of
 * nv_triangle drawn through two attribute streams, the post's
 * pass-through vertex and coordinate shaders (word for word) and
 * GL_Shader_State with two arrays; the image equals nv_triangle's
 * (tests/golden/nv_triangle.png).
 *
 *   gl_triangle OUT.png
 */
#include "gl_scene.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.png\n", argv[0]);
        return 2;
    }
    struct vc4_diag_sink sink = {sc_print_diag, NULL};
    uint8_t vdata[256];
    struct gl_scene s = gl_seed_scene(vdata);
    struct vc4_emu_options eo = {.sink = sink, .num_qpus = 12, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    uint8_t *rgba = emu ? gl_render_on(emu, &s, sink) : NULL;
    vc4_emu_destroy(emu);
    if (!rgba) {
        fprintf(stderr, "%s: the scene did not render\n", argv[0]);
        return 1;
    }
    enum vc4_status st = vc4_png_write(argv[1], rgba, s.width, s.height, (size_t)s.width * 4, &sink);
    free(rgba);
    return st == VC4_OK ? 0 : 1;
}
