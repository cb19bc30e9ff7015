/*
 * bench_gl.c - GL mode speed: vertices per second through the VCD and the
 * coordinate / vertex shaders on the emulated QPUs (the lit mesh's QPU-code
 * shaders, examples/gl_cube_*.qasm: 3 attribute rows in and 7 out for the
 * coordinate shader, 9 in and 6 out for the vertex shader), and frames per
 * second for a 10,000-triangle lit sphere at 1280x720 through CT0 (binning
 * with coordinate shading) and CT1 (vertex shading, rasterising, fragment
 * shading), 12 QPUs.  Process CPU time of one thread.  Prints figures;
 * asserts nothing.
 *
 *   bench_gl [FRAMES]
 *
 * Environment: BENCH_GL_JIT=1 compiles hot blocks (in BENCH_JIT_DIR), as
 * vc4kit exec and the DRM backend do, and prints how many instructions
 * ran compiled.
 */
#include <time.h>

#include "gl_scene.h"
#include "emu/v3d.h"

#ifndef VC4KIT_EXAMPLES_DIR
#define VC4KIT_EXAMPLES_DIR "examples"
#endif

#define STACKS 50u
#define SLICES 100u
#define NVERTS ((STACKS + 1) * (SLICES + 1))
#define NINDICES (STACKS * SLICES * 6)

static double cpu_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

static void quiet(void *user, const struct vc4_diag *d)
{
    unsigned *n = user;
    if (d->severity >= VC4_WARNING && (*n)++ < 5)
        sc_print_diag(NULL, d);
}

/* Shade every vertex of the mesh with stage st until `seconds` pass. */
static void shading_rate(struct vc4_emu *emu, enum vc4_gl_stage st, unsigned qpus, double seconds)
{
    struct vc4_v3d *v = &emu->v3d;
    v->num_qpus = qpus;
    struct vc4_gl_state g;
    struct vc4_location l = vc4_location_none();
    struct vc4_cl_gl_shader_state pkt = {.num_attr_arrays = 2, .record_addr = SC_RECORD};
    if (!vc4_vcd_read_state(v, &pkt, &g, "bench", &l))
        return;
    static uint32_t idx[NVERTS];
    for (uint32_t i = 0; i < NVERTS; i++)
        idx[i] = i;
    uint64_t verts = 0, cycles0 = v->vsi.stats.qpu[st].cycles;
    /* (the ALU kernels vc4_emu_run would use: called directly, the unit
     * would run on the exact ones) */
    struct vc4_alu_fpenv env;
    vc4_v3d_fp_enter(v, &env);
    double t0 = cpu_seconds(), t = t0;
    while (t - t0 < seconds) {
        vc4_vsi_invalidate(&v->vsi, st);
        if (vc4_vsi_shade(v, st, &g, idx, NVERTS, &l) != VC4_OK)
            break;
        verts += NVERTS;
        t = cpu_seconds();
    }
    vc4_v3d_fp_leave(v, &env);
    double dt = t - t0 > 0 ? t - t0 : 1e-9;
    printf("%-17s %2u QPU%s %10.0f vertices/s  (%llu vertices, %.1f V3D cycles per batch of 16)\n",
           vc4_gl_stage_name[st], qpus, qpus == 1 ? " " : "s", (double)verts / dt, (unsigned long long)verts,
           verts ? (double)(v->vsi.stats.qpu[st].cycles - cycles0) / ((double)verts / 16.0) : 0.0);
}

int main(int argc, char **argv)
{
    unsigned frames = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 5;
    unsigned ndiag = 0;
    struct vc4_diag_sink sink = {quiet, &ndiag};
    static struct gl_mesh_vertex verts[NVERTS];
    static uint16_t idx[NINDICES];
    gl_sphere_mesh(verts, idx, STACKS, SLICES);
    /* BENCH_GL_JIT=1: hot blocks compiled (in BENCH_JIT_DIR), as vc4kit
     * exec and the DRM backend run them */
    bool jit = getenv("BENCH_GL_JIT") != NULL;
    struct vc4_emu_options eo = {.sink = sink, .num_qpus = 12, .mem_size = 16u << 20,
                                 .jit = jit ? VC4_EMU_JIT_ON : VC4_EMU_JIT_OFF, .jit_threshold = 100,
                                 .jit_dir = getenv("BENCH_JIT_DIR")};
    struct vc4_emu *emu = vc4_emu_create(&eo);
    if (!emu)
        return 1;
    float mvp[16], model[16];
    gl_mvp(mvp, model, 0.6f, 0.4f, 0.0f, 0.0f, -3.5f, GL_PI / 3.0f, 1280.0f / 720.0f, 1.0f, 10.0f);
    const float light[3] = {0.408248f, 0.816497f, 0.408248f};
    struct gl_lit l;
    if (!gl_lit_init(&l, VC4KIT_EXAMPLES_DIR, verts, NVERTS, idx, NINDICES, 1280, 720, mvp, model, light)) {
        fprintf(stderr, "bench_gl: cannot read the shaders in %s\n", VC4KIT_EXAMPLES_DIR);
        return 1;
    }
    uint32_t be = 0, re = 0;
    if (!gl_build(emu, &l.s, sink, &be, &re)) {
        fprintf(stderr, "bench_gl: cannot build the scene\n");
        return 1;
    }
    printf("GL mode, lit sphere of %u vertices, %u triangles, 1280x720\n", NVERTS, NINDICES / 3);
    shading_rate(emu, VC4_GL_CS, 1, 0.5);
    shading_rate(emu, VC4_GL_CS, 12, 0.5);
    shading_rate(emu, VC4_GL_VS, 1, 0.5);
    shading_rate(emu, VC4_GL_VS, 12, 0.5);
    emu->v3d.num_qpus = 12;
    double t0 = cpu_seconds();
    unsigned done = 0;
    for (; done < frames; done++)
        if (sc_run(emu, be, re) != VC4_OK)
            break;
    double dt = cpu_seconds() - t0;
    const struct vc4_fsi_stats *fs = &emu->v3d.fsi.stats;
    printf("frames: %u in %.2f s: %.2f frames/s (12 QPUs; %llu fragments, %llu triangle draws (one per tile it touches) per frame)\n", done,
           dt, dt > 0 ? done / dt : 0.0, (unsigned long long)(done ? fs->fragments / done : 0),
           (unsigned long long)(done ? emu->v3d.ctl.r.prims_drawn / done : 0));
    if (jit) {
        struct vc4_emu_jit_stats js;
        vc4_emu_jit_stats(emu, &js);
        printf("compiled blocks: %llu instructions of %llu ran compiled (%llu blocks)\n",
               (unsigned long long)js.instructions, (unsigned long long)emu->v3d.stats.instructions,
               (unsigned long long)js.compiled + js.loaded);
    }
    uint8_t *rgba = gl_read_frame(emu);
    if (rgba && argc > 2)
        vc4_png_write(argv[2], rgba, 1280, 720, 1280 * 4, &sink);
    free(rgba);
    gl_lit_free(&l);
    vc4_emu_destroy(emu);
    return 0;
}
