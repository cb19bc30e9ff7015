/*
 * nv_triangle.c - seed scene in NV mode: the 640x480 triangle coloured from four float uniforms, packed by the mul ALU (seed 002).
 *
 * Builds the binning list, the rendering list, the NV shader record and the
 * fragment shader with the library (examples/nv_scene.h), runs the lists on
 * the emulated V3D as bare metal does, and writes the frame as a PNG.
 *
 *   nv_triangle OUT.png
 */
#include "nv_scene.h"

int main(int argc, char **argv) { return sc_example_main(argc, argv, false); }
