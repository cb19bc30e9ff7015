/*
 * tex_plane.c - a mip-mapped, trilinear-filtered ground plane in
 * perspective: NV-mode vertices with 1/Wc (perspective-correct S, T), a
 * 64x64 T-format checker with its full mip chain below the base, and the
 * fragment shader examples/tex_plane.qasm (examples/tex_scene.h).
 *
 *   tex_plane OUT.png
 */
#include "tex_scene.h"

int main(int argc, char **argv) { return tx_example_main(argc, argv, true); }
