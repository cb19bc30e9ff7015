/*
 * bench_scene.c - a 1080p textured frame through the whole V3D: NV-mode
 * binning on CT0, rendering on CT1 with 12 QPUs shading every pixel of a
 * 1920x1080 BGR565 frame with a perspective-correct, trilinear-filtered,
 * mip-mapped 64x64 RGBA8888 T-format texture (examples/tex_plane.qasm and
 * its texture, examples/tex_scene.h; two triangles filling the screen as a
 * floor running to the horizon).  Prints frames per second, shaded Mpixels
 * per second and QPU instructions per second (wall and process CPU time),
 * then the same frames cycle by cycle (vc4_emu_options.cycle_by_cycle: no
 * sleeping QPUs while they wait for the TMU) and the ratio, then the same
 * frames with two host threads (vc4_emu_options.host_threads: texture
 * sampling on the second core, par.h) and the wall-clock ratio.  Asserts
 * nothing.
 *
 *   bench_scene [FRAMES [OUT.png]]
 */
#define _POSIX_C_SOURCE 199309L
#include <time.h>

#include "tex_scene.h"

#define W 1920
#define H 1080

static double cpu_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return (double)clock() / CLOCKS_PER_SEC;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The floor: near edge at the bottom (Z = 1.5), far edge at the top
 * (Z = 40), S = 0..12 across the near edge and 40 / 1.5 times that across
 * the far one (the same screen width is that much more floor there, so the
 * two triangles are one projective map), T = 0..55 into the distance. */
#define SFAR (6.0f * 40.0f / 1.5f)
#define FV(X, Y, Z, S, T) {(int16_t)((X) * 16), (int16_t)((Y) * 16), 0.5f, 1.0f / (Z), {S, T, 0.0f}}
static const struct sc_vertex floor_verts[6] = {
    FV(0, H, 1.5f, 0.0f, 0.0f), FV(W, H, 1.5f, 12.0f, 0.0f), FV(W, 0, 40.0f, 6.0f + SFAR, 55.0f),
    FV(0, H, 1.5f, 0.0f, 0.0f), FV(W, 0, 40.0f, 6.0f + SFAR, 55.0f), FV(0, 0, 40.0f, 6.0f - SFAR, 55.0f),
};

static void quiet(void *user, const struct vc4_diag *d)
{
    unsigned *n = user;
    if (d->severity >= VC4_WARNING && (*n)++ < 5)
        sc_print_diag(NULL, d);
}

/* The frames' CPU time, and their wall time in *wall_s. */
static double bench(unsigned frames, bool cycle_by_cycle, unsigned threads, const char *png, double *wall_s)
{
    unsigned ndiag = 0;
    struct vc4_diag_sink sink = {quiet, &ndiag};
    struct tx_texture t;
    if (!tx_plane_texture(&t)) {
        fprintf(stderr, "bench_scene: no texture\n");
        exit(1);
    }
    struct sc_params p = tx_plane_scene(&t);
    p.width = W;
    p.height = H;
    p.color_format = VC4_CL_FB_BGR565; /* 4 MB: below the texture at TX_TEXTURE */
    p.verts = floor_verts;
    p.nverts = 6;
    struct vc4_emu_options eo = {.sink = sink, .num_qpus = 12, .mem_size = 16u << 20,
                                 .cycle_by_cycle = cycle_by_cycle, .host_threads = threads};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    uint32_t be = 0, re = 0;
    if (!emu || !sc_build(emu, &p, sink, &be, &re) || !p.setup(emu, p.setup_user)) {
        fprintf(stderr, "bench_scene: cannot build the scene\n");
        exit(1);
    }
    double c0 = cpu_now(), w0 = wall_now();
    unsigned done = 0;
    for (; done < frames; done++)
        if (sc_run(emu, be, re) != VC4_OK)
            break;
    double cpu = cpu_now() - c0, wall = wall_now() - w0;
    struct vc4_emu_render_stats rs;
    vc4_emu_render_stats(emu, &rs);
    double px = (double)rs.fragment.fragments;
    printf("1080p textured floor%s: %u frames in %.2f s wall, %.2f s CPU: %.2f frames/s, "
           "%.2f Mpixels/s shaded (wall; %.2f per CPU second), %.1f M QPU instr/s (wall) "
           "(%llu fragments, %llu texture lookups a frame)%s\n",
           cycle_by_cycle ? ", cycle by cycle" : threads > 1 ? ", two host threads" : "", done, wall, cpu, done / wall, px / wall * 1e-6, px / cpu * 1e-6,
           (double)rs.qpu.instructions / wall * 1e-6, (unsigned long long)(done ? rs.fragment.fragments / done : 0),
           (unsigned long long)(done ? rs.tmu.lookups / done : 0), ndiag ? " [diagnostics]" : "");
    if (png) {
        struct vc4_emu_frame f;
        vc4_emu_render_frame(emu, &f);
        uint8_t *rgba = malloc((size_t)W * H * 4);
        if (rgba && f.valid && vc4_emu_read_frame(emu, &f, rgba) == VC4_OK)
            vc4_png_write(png, rgba, W, H, W * 4, &sink);
        free(rgba);
    }
    free(t.rgba);
    vc4_emu_destroy(emu);
    *wall_s = wall;
    return cpu;
}

int main(int argc, char **argv)
{
    unsigned frames = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 3;
    double wall1, wall_stepped, wall2;
    double sleeping = bench(frames, false, 1, argc > 2 ? argv[2] : NULL, &wall1);
    double stepped = bench(frames, true, 1, NULL, &wall_stepped);
    printf("CPU time cycle by cycle / with sleeping QPUs: %.2f\n", stepped / sleeping);
    bench(frames, false, 2, NULL, &wall2);
    printf("wall time one host thread / two: %.2f\n", wall1 / wall2);
    return 0;
}
