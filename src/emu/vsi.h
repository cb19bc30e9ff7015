/*
 * vsi.h - vertex and coordinate shading on the QPUs (GL mode): batches of
 * up to 16 vertices fetched by the VCD (src/emu/vcd.h) into a VPM window
 * of their own (the input rows, then the output rows), the shader run on a
 * QPU with its uniforms from the GL record, and the outputs taken from the
 * VPM when the shader ends:
 *
 *   coordinate shader (binning, feeds the PTB)   vertex shader (rendering, feeds the PSE)
 *   row 0-3  Xc Yc Zc Wc (f32)                   row 0  Xs/Ys (two s16 12.4, X low)
 *   row 4    Xs/Ys (two s16 12.4, X low)         row 1  Zs (f32)
 *   row 5    Zs (f32)                            row 2  1/Wc (f32)
 *   row 6    1/Wc (f32)                          [row 3 point size]
 *   [row 7   point size]                         then one row per varying
 *   (seed 003's "Shader Coordinates Format in VPM for PTB"; facts §2.4)
 *
 * Vertex reuse: a vertex index is shaded once per primitive packet
 * (binning) or once per frame and GL record (rendering); the hardware's
 * VCM caches fewer vertices and may shade one again, which gives the same
 * outputs unless the shader has side effects (UNVERIFIED cache size).
 *
 * Rules checked when a shader ends (the hardware draws garbage otherwise,
 * seed 000): every attribute byte read from the VPM exactly once
 * (gl-attr-read-once), every output row written exactly once
 * (gl-output-write-once); the VPM unit reports read counts and fragment
 * shader VPM access (src/emu/vpm.c).  Each finding names the shader, its
 * GL record, the attribute or output, and the rule; once per record and
 * rule, errors in strict mode.
 */
#ifndef VC4_EMU_VSI_H
#define VC4_EMU_VSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/vcd.h"
#include "vc4kit/diag.h"
#include "vc4kit/emu.h"

struct vc4_v3d;
struct vc4_qpu;

#define VC4_VSI_MAX_QPUS 16u

/* Shaded vertices of one stage, by vertex index (open addressing). */
struct vc4_vsi_cache {
    bool bound;
    uint32_t record_addr;   /* the GL record the outputs belong to */
    unsigned nout;          /* words per vertex */
    uint32_t *key;          /* vertex index per hash slot */
    uint32_t *slot;         /* vertex number per hash slot, UINT32_MAX = empty */
    size_t cap;             /* hash slots, a power of two */
    uint32_t *words;        /* nout words per vertex number */
    uint8_t *ok;            /* vertex number shaded without fault */
    size_t nverts, words_cap, ok_cap;
};

struct vc4_vsi_qpu {
    bool owned;
    uint8_t stage;          /* enum vc4_gl_stage */
    uint8_t seg;            /* VPM window number */
    unsigned n;             /* vertices in the batch */
    uint32_t vert[VC4_GL_BATCH]; /* their vertex numbers in the cache */
};

struct vc4_vsi_stats {
    uint64_t batches[2], vertices[2];
    struct vc4_emu_qpu_time qpu[2]; /* QPU time of coordinate / vertex shaders */
};

struct vc4_vsi {
    const struct vc4_allocator *alloc;
    struct vc4_gl_state bin;     /* CT0's current GL state (packet 64) */
    struct vc4_gl_state render;  /* CT1's */
    struct vc4_vsi_cache cache[2];
    /* the run in progress */
    const struct vc4_gl_state *g;
    uint8_t stage;
    uint32_t *pend;              /* vertex numbers waiting to be shaded */
    size_t npend, pend_cap, pnext, ndone;
    /* VPM windows, one per batch: seg_rows rows each from seg_first, the
     * first seg_in of them the inputs, the rest the outputs */
    uint32_t seg_first, seg_rows, seg_in, nseg, seg_busy;
    struct vc4_vsi_qpu q[VC4_VSI_MAX_QPUS];
    uint8_t attr_mask[VC4_GL_MAX_OUT_ROWS]; /* bytes of each VPM row an attribute fills */
    uint8_t attr_rows;                      /* rows from attr_rows on have none */
    /* the cycle budget of the control-list run in progress (ctl.c sets
     * them for the run; used NULL: each call has the emulator's default) */
    uint64_t budget, *used;
    bool vpm_warned;
    uint32_t warned_record[2];   /* record the rule warnings below belong to */
    uint32_t warned[2];          /* rules reported for it (bit per rule) */
    struct vc4_vsi_stats stats;
};

void vc4_vsi_init(struct vc4_vsi *s, const struct vc4_allocator *alloc);
void vc4_vsi_fini(struct vc4_vsi *s);
/* Forget states and shaded vertices (allocations are kept). */
void vc4_vsi_reset(struct vc4_vsi *s);
/* Forget the shaded vertices of a stage (a new packet / frame). */
void vc4_vsi_invalidate(struct vc4_vsi *s, enum vc4_gl_stage st);

/*
 * Make sure vertices index[0..n) of stage st are shaded with state g:
 * those not yet in the stage's cache are shaded in batches of 16 in
 * first-use order, as many batches at once as there are idle QPUs and VPM
 * windows.  VC4_OK (a vertex may still have failed: see vc4_vsi_get),
 * VC4_ERR_TIMEOUT, VC4_ERR_NOMEM, or the fault / strict-mode status.
 */
enum vc4_status vc4_vsi_shade(struct vc4_v3d *v, enum vc4_gl_stage st, const struct vc4_gl_state *g,
                              const uint32_t *index, size_t n, const struct vc4_location *loc);
/* The outputs of a shaded vertex (vc4_gl_out_rows words), or NULL when
 * it was not shaded or its batch failed. */
const uint32_t *vc4_vsi_get(const struct vc4_vsi *s, enum vc4_gl_stage st, uint32_t index);

/* The binner's vertex source for GL mode (ptb.h), reading the CS cache. */
struct vc4_ptb_vertex_source;
void vc4_vsi_ptb_source(struct vc4_ptb_vertex_source *src);

static inline bool vc4_vsi_owns(const struct vc4_vsi *s, unsigned qpu)
{
    return qpu < VC4_VSI_MAX_QPUS && s->q[qpu].owned;
}

#endif
