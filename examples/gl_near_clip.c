/*
 * gl_near_clip.c - a floor reaching from behind the camera to far in front
 * of it, in GL mode with clipping enabled: the binner clips its triangles
 * against the near plane (Z Clipping Planes, Clipper Z Scale and Offset)
 * and the renderer draws the clipped polygons (packet 49).
 *
 *   gl_near_clip OUT.png
 */
#include "gl_scene.h"

#ifndef VC4KIT_EXAMPLES_DIR
#define VC4KIT_EXAMPLES_DIR "examples"
#endif

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.png\n", argv[0]);
        return 2;
    }
    struct vc4_diag_sink sink = {sc_print_diag, NULL};
    struct gl_mesh_vertex v[4];
    uint16_t idx[6];
    struct gl_lit l;
    if (!gl_near_clip_scene(&l, VC4KIT_EXAMPLES_DIR, v, idx)) {
        fprintf(stderr, "%s: cannot read the shaders in %s\n", argv[0], VC4KIT_EXAMPLES_DIR);
        return 1;
    }
    struct vc4_emu_options eo = {.sink = sink, .num_qpus = 12, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    uint8_t *rgba = emu ? gl_render_on(emu, &l.s, sink) : NULL;
    vc4_emu_destroy(emu);
    int rc = rgba && vc4_png_write(argv[1], rgba, l.s.width, l.s.height, (size_t)l.s.width * 4, &sink) == VC4_OK
                 ? 0 : 1;
    free(rgba);
    gl_lit_free(&l);
    return rc;
}
