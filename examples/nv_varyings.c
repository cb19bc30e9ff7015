/*
 * nv_varyings.c - seed scene in NV mode: the same triangle with per-vertex varyings R, G, B interpolated as V * W + C (seeds 002, 004).
 *
 * Builds the binning list, the rendering list, the NV shader record and the
 * fragment shader with the library (examples/nv_scene.h), runs the lists on
 * the emulated V3D as bare metal does, and writes the frame as a PNG.
 *
 *   nv_varyings OUT.png
 */
#include <stdio.h>
#include <stdlib.h>

#include "nv_scene.h"
#include "vc4kit/tex.h"

static void print_diag(void *user, const struct vc4_diag *d)
{
    (void)user;
    char line[512];
    vc4_diag_format(d, line, sizeof line);
    fprintf(stderr, "%s\n", line);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUT.png\n", argv[0]);
        return 2;
    }
    struct vc4_diag_sink sink = {print_diag, NULL};
    struct sc_params p = sc_default(true);
    uint8_t *rgba = sc_render(&p, sink, 12, NULL);
    if (!rgba) {
        fprintf(stderr, "nv_varyings: the scene did not render\n");
        return 1;
    }
    enum vc4_status st = vc4_png_write(argv[1], rgba, p.width, p.height, (size_t)p.width * 4, &sink);
    free(rgba);
    return st == VC4_OK ? 0 : 1;
}
