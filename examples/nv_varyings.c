/*
 * nv_varyings.c - seed scene in NV mode: the same triangle with per-vertex varyings R, G, B interpolated as V * W + C (seeds 002, 004).
 *
 * Builds the binning list, the rendering list, the NV shader record and the
 * fragment shader with the library (examples/nv_scene.h), runs the lists on
 * the emulated V3D as bare metal does, and writes the frame as a PNG.
 *
 *   nv_varyings OUT.png
 */
#include "nv_scene.h"

int main(int argc, char **argv) { return sc_example_main(argc, argv, true); }
