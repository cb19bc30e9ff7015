/*
 * gl_cube.c - a rotating, perspective-projected, depth-tested, lit cube in
 * GL mode: the vertex shader (examples/gl_cube_vs.qasm) transforms the
 * positions by the model-view-projection matrix and lights the colours in
 * QPU code, the coordinate shader (gl_cube_cs.qasm) gives the binner its
 * clip and screen coordinates; one PNG per frame.
 *
 *   gl_cube OUTDIR [FRAMES]      (writes OUTDIR/gl_cube_NN.png, 24 frames a turn)
 */
#include "gl_scene.h"

#ifndef VC4KIT_EXAMPLES_DIR
#define VC4KIT_EXAMPLES_DIR "examples"
#endif

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s OUTDIR [FRAMES]\n", argv[0]);
        return 2;
    }
    unsigned frames = argc == 3 ? (unsigned)strtoul(argv[2], NULL, 10) : 24;
    struct vc4_diag_sink sink = {sc_print_diag, NULL};
    struct vc4_emu_options eo = {.sink = sink, .num_qpus = 12, .mem_size = 16u << 20};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    if (!emu)
        return 1;
    int rc = 0;
    for (unsigned f = 0; f < frames && rc == 0; f++) {
        struct gl_mesh_vertex v[24];
        uint16_t idx[36];
        struct gl_lit l;
        if (!gl_cube_frame(&l, VC4KIT_EXAMPLES_DIR, f, v, idx)) {
            fprintf(stderr, "%s: cannot read the shaders in %s\n", argv[0], VC4KIT_EXAMPLES_DIR);
            rc = 1;
            break;
        }
        uint8_t *rgba = gl_render_on(emu, &l.s, sink);
        char path[1024];
        snprintf(path, sizeof path, "%s/gl_cube_%02u.png", argv[1], f);
        if (!rgba || vc4_png_write(path, rgba, l.s.width, l.s.height, (size_t)l.s.width * 4, &sink) != VC4_OK)
            rc = 1;
        free(rgba);
        gl_lit_free(&l);
    }
    vc4_emu_destroy(emu);
    return rc;
}
