/*
 * tex_triangle.c - seed 004's textured triangle in NV mode: the fragment
 * shader words exactly as posted (examples/seeds/texture_fragment_shader.hex),
 * two varyings S, T, texture config parameters P0, P1 as uniforms, and a
 * 16x16 picture given to the TMU in T, LT or raster format
 * (examples/tex_scene.h).  The three give the same image.
 *
 *   tex_triangle t|lt|raster OUT.png
 */
#include "tex_scene.h"

int main(int argc, char **argv) { return tx_example_main(argc, argv, false); }
