/*
 * fsi.h - the fragment-shader interface: runs the fragment shader of each
 * 16-pixel batch on the QPUs and serves the fragment-shader I/O that the
 * QPU core hands over through the port fsi.c installs (struct vc4_qpu_port,
 * qpu.h):
 *
 *   reads   VARYING_READ (35): V = A*(x-x0) + B*(y-y0) of the next varying,
 *                              C arriving in r5 after the instruction (seed 002)
 *           X_PIXEL_COORD / Y_PIXEL_COORD (41 A / B), MS_FLAGS / REV_FLAG (42 A / B)
 *   writes  MS_FLAGS (42 A: AND-mask of the coverage), TLB_STENCIL_SETUP (43),
 *           TLB_Z (44), TLB_COLOUR_MS (45), TLB_COLOUR_ALL (46), TLB_ALPHA_MASK (47)
 *   signals thread switch / last thread switch (after 2 delay slots),
 *           scoreboard wait / unlock, colour load (and + program end),
 *           coverage load, alpha-mask load
 *   payload W in ra15, Z in rb15 at the start of each thread (seed 002,
 *           hardware facts §9)
 *
 * Threads: a shader whose NV record does not set "single-threaded" runs two
 * threads per QPU, each owning registers 0-15 of both files (facts §9,
 * §6.10-13); vc4kit swaps the halves on a switch and keeps the accumulators
 * shared (Mesa does not keep values in accumulators across a switch).
 *
 * Scoreboard: a batch takes it at its first TLB access (or sbwait) and
 * gives it back at sbdone or its thread end; it waits while an earlier
 * batch covering one of the same quads still holds it or has not started
 * (the hardware orders TLB access per pixel in primitive order).
 *
 * Depth and stencil: the Configuration Bits function and Z-update bit, and
 * the thread's TLB_STENCIL_SETUP writes (tlb.h); the tests run per sample
 * at the thread's TLB_Z write with the shader's Z (each sample: the written
 * Z plus its offset from the Z plane, UNVERIFIED); the stencil face is the
 * primitive's (REV_FLAG).  A thread without a TLB_Z write has no depth and
 * no stencil test (issue 11's evidence, fsi.c resolve_z): its colour
 * writes land on every live sample and Z/stencil are not updated.
 *
 * Early Z (Configuration Bits 16/17, Tile Rendering Mode Configuration bits
 * 10/11; UNVERIFIED model, no open source describes the unit): when enabled,
 * not disabled by the frame, and the depth function is of the frame's
 * early-Z direction (< or <= for "LT/LE", > or >= for "GT/GE"), every
 * covered sample is tested before shading with the rasteriser's Z against
 * the Z buffer (no writes); samples that fail are dropped, and quads with
 * none left are not shaded (the batches are packed from the survivors).
 * The late test still runs (when the shader writes TLB_Z).  Early Z works
 * before shading, so it does not depend on whether the shader writes
 * TLB_Z (UNVERIFIED: Mesa only enables it with a depth test, whose shaders
 * always write TLB_Z).  So a shader that writes a Z other than its payload
 * Z, or a stencil zfail operation, sees the early rejections (Mesa enables
 * early Z only when neither can happen); early-Z updates have nothing to
 * keep up to date in this exact model.
 */
#ifndef VC4_EMU_FSI_H
#define VC4_EMU_FSI_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/pse.h"
#include "emu/raster.h"
#include "emu/tlb.h"
#include "vc4kit/diag.h"
#include "vc4kit/emu.h"

struct vc4_v3d;
struct vc4_qpu;

#define VC4_FSI_MAX_QPUS 16u
#define VC4_FSI_MAX_BATCHES 256u /* a 64x64 tile: 1024 quads */
#define VC4_FSI_THREAD_REGS 16u  /* registers 0-15 of each file per thread */

struct vc4_fsi_batch {
    struct vc4_raster_batch px;
    uint32_t w[VC4_RASTER_SIMD];      /* ra15 payload: W (f32 bits) */
    uint32_t z[VC4_RASTER_SIMD];      /* rb15 payload: 24-bit Z at the pixel centre */
    uint32_t zsamp[VC4_RASTER_SIMD][4]; /* 24-bit Z per sample (depth test) */
    uint8_t mask[VC4_RASTER_SIMD];    /* samples still alive (MS_FLAGS) */
    uint8_t pass[VC4_RASTER_SIMD];    /* samples that passed the depth and stencil tests */
    struct vc4_tlb_stencil stencil;   /* this thread's TLB_STENCIL_SETUP writes */
    uint8_t vary_next, color_ms_next, cload_next;
    bool z_done, sb_held, released, done;
    uint64_t start_instr;             /* the QPU's instruction count at its start */
    uint64_t qbits;                   /* its quads' positions hashed to a bit each (fsi.c quad_bit) */
    bool centred;                     /* centres set (at its first varying read) */
    struct vc4_pse_offsets centres;   /* its pixel centres from the reference vertex */
};

/* A suspended thread's own state. */
struct vc4_fsi_ctx {
    uint32_t pc;
    uint16_t flag[4];
    uint64_t pending;
    uint8_t br1_left;
    uint32_t br_target[2];
    uint32_t unif, unif_len;
    uint64_t stall_until, prev_w;
    uint8_t prev_acc;
    uint32_t ra[VC4_FSI_THREAD_REGS][VC4_RASTER_SIMD];
    uint32_t rb[VC4_FSI_THREAD_REGS][VC4_RASTER_SIMD];
    uint32_t sfu_result[VC4_RASTER_SIMD];
};

struct vc4_fsi_slot {
    int32_t batch;   /* -1 = free */
    bool started;    /* has run (ctx holds its state while suspended) */
    struct vc4_fsi_ctx ctx;
};

struct vc4_fsi_qpu {
    bool owned;      /* running fragment-shader threads */
    uint8_t cur;     /* the thread whose state is in the QPU */
    bool vary_pending;
    uint32_t vary_c[VC4_RASTER_SIMD]; /* C of the last varying read, for r5 */
    struct vc4_fsi_slot slot[2];
};

struct vc4_fsi_stats {
    uint64_t prims, batches, quads, fragments; /* fragments = covered pixels */
    uint64_t samples_written, z_fails, threads, switches;
    uint64_t stencil_fails, early_z_rejects; /* samples */
    struct vc4_emu_qpu_time qpu; /* QPU time of fragment shaders */
};

struct vc4_fsi {
    /* the primitive being shaded (vc4_fsi_begin) */
    struct vc4_pse_setup setup;
    uint32_t code, unif;
    unsigned nvary;
    bool threaded, ms;
    unsigned depth_func;
    bool z_update, early_z;
    unsigned tile_fx0, tile_fy0; /* frame pixel of the tile's top-left */

    unsigned nbatches, next, ndone;
    /* every batch below sb_lo has released the scoreboard (batches release
     * it only once until the queue empties: the waits start there) */
    unsigned sb_lo;
    struct vc4_fsi_batch b[VC4_FSI_MAX_BATCHES];
    struct vc4_fsi_qpu q[VC4_FSI_MAX_QPUS];
    struct vc4_fsi_stats stats;
    uint32_t warned; /* rules already reported (once per reset) */
};

void vc4_fsi_reset(struct vc4_fsi *f);

/* The shader and state of the next primitive's batches. */
struct vc4_fsi_prim {
    const struct vc4_pse_setup *setup;
    uint32_t code, unif;     /* FS code and uniforms addresses */
    unsigned nvary;
    bool threaded;           /* NV/GL record flag bit 0 clear */
    bool ms;
    unsigned depth_func;     /* Configuration Bits 14:12 */
    bool z_update;           /* Configuration Bits 15 */
    bool early_z;            /* Configuration Bits 16, and not disabled by the
                              * Tile Rendering Mode Configuration (bit 11) */
    bool early_z_ge;         /* the frame's early-Z direction (bit 10): GT/GE */
    unsigned tile_fx0, tile_fy0;
};
void vc4_fsi_begin(struct vc4_v3d *v, const struct vc4_fsi_prim *p);
/* Queue a batch of the current primitive: false if the queue is full (run
 * it first). */
bool vc4_fsi_add(struct vc4_v3d *v, const struct vc4_raster_batch *b);
/* Shade every queued batch; *used counts the QPU cycles against budget.
 * VC4_OK, VC4_ERR_TIMEOUT (diagnostics name each busy QPU), or the fault /
 * strict-mode rule status of the run. */
enum vc4_status vc4_fsi_run(struct vc4_v3d *v, uint64_t budget, uint64_t *used);
/* Drop the queue and release the QPUs (after a fault or a timeout). */
void vc4_fsi_abort(struct vc4_v3d *v);

/* The QPU core reaches fragment shading only through the port fsi.c
 * installs when it starts a thread (struct vc4_qpu_port, qpu.h). */
static inline bool vc4_fsi_owns(const struct vc4_fsi *f, unsigned qpu)
{
    return qpu < VC4_FSI_MAX_QPUS && f->q[qpu].owned;
}
#endif
