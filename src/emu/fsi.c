/*
 * fsi.c - fragment shading on the QPUs: batch payloads, dispatch to QPU
 * threads, the fragment-shader I/O registers and signals, the scoreboard,
 * and the TLB colour / Z writes (see fsi.h).
 */
#include <assert.h>
#include <stddef.h>
#include <string.h>

#include "base/base.h"
#include "emu/v3d.h"
#include "spec/rules.h"

#define N VC4_RASTER_SIMD

/* ---- rules (warned once per reset; errors in strict mode) --------------------- */

enum fsi_rule {
    FR_SB_EARLY,
    FR_VARY_UNREAD,
    FR_VARY_OVERREAD,
    FR_SWITCH_SB,
    FR_QUAD_XY,
    FR_EARLY_Z_SHADER_Z,
    FR_COVERAGE_LOAD,
    FR_ALPHA_MASK,
    FR_DEPTH_WITHOUT_TLB_Z,
    FR_COUNT,
    FW_HW2905 = FR_COUNT /* a warning of vc4_fsi_begin (no QPU yet) */
};

/* rule: the registry's (src/spec/rules.c); VC4_RULE_NONE for hardware vc4kit
 * does not model, which is always a warning, once, and not a rule */
static const struct {
    enum vc4_rule_id rule;
    const char *what;
} fsi_rules[FR_COUNT] = {
    [FR_SB_EARLY] = {VC4_RULE_FS_SCOREBOARD_FIRST_TWO,
                     "scoreboard wait (sbwait or the first TLB access) in the first two instructions of a "
                     "fragment shader"},
    [FR_VARY_UNREAD] = {VC4_RULE_FS_VARYINGS_UNREAD,
                        "fragment shader ended before reading every varying the shader record sets up"},
    [FR_VARY_OVERREAD] = {VC4_RULE_FS_VARYINGS_OVERREAD,
                          "VARYING_READ beyond the varyings the shader record sets up, its value used "
                          "(reads 0)"},
    [FR_SWITCH_SB] = {VC4_RULE_THRSW_SB_LOCKED, "thread switch while the scoreboard is locked"},
    [FR_QUAD_XY] = {VC4_RULE_FS_QUAD_XY_WRITE, "write to QUAD_X / QUAD_Y / REV_FLAG (no known effect; ignored)"},
    [FR_EARLY_Z_SHADER_Z] = {VC4_RULE_FS_EARLY_Z_SHADER_Z,
                             "TLB_Z write of a Z other than the payload Z with early Z enabled: samples were "
                             "already rejected with the rasteriser's Z (drivers disable early Z for shaders "
                             "that write their own Z)"},
    [FR_COVERAGE_LOAD] = {VC4_RULE_NONE,
                          "coverage load (loadcv): the VG coverage buffer is not modelled; r4 = 0"},
    [FR_ALPHA_MASK] = {VC4_RULE_NONE,
                       "alpha-mask load / TLB_ALPHA_MASK write: the VG alpha-mask buffer is not modelled "
                       "(loads give 0, writes are ignored)"},
    [FR_DEPTH_WITHOUT_TLB_Z] = {VC4_RULE_FS_DEPTH_WITHOUT_TLB_Z,
                                "no TLB_Z write before the first colour write (or the end): no depth and no "
                                "stencil test, Z not updated, although the Configuration Bits ask for Z updates or "
                                "a depth test, or the shader wrote TLB_STENCIL_SETUP (write TLB_Z, e.g. "
                                "`mov tlbz, rb15`, to have them)"},
};

/* back: instructions before the PC the rule is about (the thread end is
 * 3 instructions back when the program has ended) */
static void fsi_rule_at(struct vc4_v3d *v, struct vc4_qpu *q, enum fsi_rule r, uint32_t back)
{
    struct vc4_fsi *f = &v->fsi;
    bool not_modelled = fsi_rules[r].rule == VC4_RULE_NONE;
    bool strict = v->strict && !not_modelled;
    if (!strict && (f->warned & (1u << r)))
        return;
    f->warned |= 1u << r;
    uint32_t pc = q->pc;
    q->pc -= back * VC4_QPU_INSTR_BYTES;
    const struct vc4_rule *rd = not_modelled ? NULL : &vc4_rule_table[fsi_rules[r].rule];
    vc4_v3d_qpu_diag(v, q, strict ? VC4_ERROR : VC4_WARNING, rd ? VC4_DIAG_RULE : VC4_DIAG_SEMANTIC,
                     rd ? rd->id : NULL, rd ? rd->source : NULL, "%s", fsi_rules[r].what);
    q->pc = pc;
    if (strict && v->fault == VC4_OK)
        v->fault = VC4_ERR_RULE;
}

static void fsi_rule(struct vc4_v3d *v, struct vc4_qpu *q, enum fsi_rule r)
{
    fsi_rule_at(v, q, r, 0);
}

/* ---- state -------------------------------------------------------------------- */

void vc4_fsi_reset(struct vc4_fsi *f)
{
    memset(f, 0, sizeof *f);
    for (unsigned i = 0; i < VC4_FSI_MAX_QPUS; i++)
        f->q[i].slot[0].batch = f->q[i].slot[1].batch = -1;
}

void vc4_fsi_begin(struct vc4_v3d *v, const struct vc4_fsi_prim *p)
{
    struct vc4_fsi *f = &v->fsi;
    f->setup = *p->setup;
    f->code = p->code;
    f->unif = p->unif;
    /* the record's varyings follow the ones the PSE makes for points and
     * lines (pse.h), which the record does not count */
    unsigned nvary = p->nvary + f->setup.ngen;
    f->nvary = nvary < f->setup.nvary ? nvary : f->setup.nvary;
    f->threaded = p->threaded;
    f->ms = p->ms;
    f->depth_func = p->depth_func;
    f->z_update = p->z_update;
    /* early Z only for a depth function of the frame's direction (see fsi.h;
     * UNVERIFIED what the unit does otherwise: vc4kit leaves it off) */
    unsigned df = p->depth_func & 7;
    bool lt = df == VC4_TLB_LESS || df == VC4_TLB_LEQUAL, gt = df == VC4_TLB_GREATER || df == VC4_TLB_GEQUAL;
    f->early_z = p->early_z && (p->early_z_ge ? gt : lt);
    if (f->early_z && v->tlb.ms && v->tlb.zs_full_reload && !(f->warned & (1u << FW_HW2905))) {
        /* a hardware bug vc4kit does not reproduce: warn */
        f->warned |= 1u << FW_HW2905;
        struct vc4_location l = vc4_location_none();
        vc4_diag_emit(&v->unit_sink, VC4_WARNING, VC4_DIAG_SEMANTIC, "fsi", &l,
                      "early Z with 4x multisampling after a full-resolution Z/stencil reload: the hardware "
                      "may test against the previous tile's Z (HW-2905; Mesa disables early Z with "
                      "multisampling); vc4kit tests against this tile's");
    }
    f->tile_fx0 = p->tile_fx0;
    f->tile_fy0 = p->tile_fy0;
    f->stats.prims++;
}

/* ---- TLB access ------------------------------------------------------------------ */

/* The tile-buffer entry of element i, sample s.  Elements of a batch's
 * unused quads lie outside the tile: they get entry s (loads read
 * something harmless; nothing is ever written for them: no coverage). */
static unsigned tlb_idx(const struct vc4_v3d *v, const struct vc4_fsi_batch *b, unsigned i, unsigned s)
{
    const struct vc4_fsi *f = &v->fsi;
    unsigned x = (unsigned)b->px.x[i] - f->tile_fx0, y = (unsigned)b->px.y[i] - f->tile_fy0;
    if (x >= v->tlb.tile_w || y >= v->tlb.tile_h || s >= v->tlb.samples)
        return s % v->tlb.samples;
    return vc4_tlb_index(&v->tlb, x, y, s);
}

/* The Z a sample of element i tests with when the shader wrote zw for the
 * pixel: zw replaces the pixel's Z and each sample keeps its offset from
 * the Z plane (zsamp - the payload Z), clamped to 24 bits.  UNVERIFIED (no
 * source says how the TLB spreads one written Z over 4 samples); chosen so
 * that writing the payload Z unchanged, as Mesa does for every
 * depth-tested shader without gl_FragDepth, gives exactly the rasteriser's
 * per-sample Z. */
static uint32_t sample_z(const struct vc4_fsi_batch *b, unsigned i, unsigned s, uint32_t zw)
{
    int64_t z = (int64_t)(zw & VC4_TLB_Z_MAX) + (int64_t)b->zsamp[i][s] - (int64_t)b->z[i];
    return z < 0 ? 0 : z > VC4_TLB_Z_MAX ? VC4_TLB_Z_MAX : (uint32_t)z;
}

/* Depth and stencil tests of every alive sample of the elements in mask,
 * with the Z the shader wrote to TLB_Z (zval); the stencil face of the
 * primitive's facing; Z and stencil updates per tlb.h.  Only a TLB_Z write
 * runs them (resolve_z). */
static void depth_test(struct vc4_v3d *v, struct vc4_fsi_batch *b, const uint32_t *zval, uint16_t mask)
{
    struct vc4_fsi *f = &v->fsi;
    struct vc4_tlb *t = &v->tlb;
    const struct vc4_tlb_stencil_face *sf =
        b->stencil.enabled ? &b->stencil.face[f->setup.reverse ? 1 : 0] : NULL;
    for (unsigned i = 0; i < N; i++) {
        if (!((mask >> i) & 1) || !b->mask[i])
            continue;
        for (unsigned s = 0; s < t->samples; s++) {
            if (!((b->mask[i] >> s) & 1))
                continue;
            bool sfail;
            if (vc4_tlb_zs_test(f->depth_func, f->z_update, sf, sample_z(b, i, s, zval[i]),
                                &t->zs[tlb_idx(v, b, i, s)], &sfail))
                b->pass[i] |= (uint8_t)(1u << s);
            else if (sfail)
                f->stats.stencil_fails++;
            else
                f->stats.z_fails++;
        }
    }
    b->z_done = true;
}

/* ---- queueing batches ------------------------------------------------------------ */

/* Early Z (fsi.h): the covered samples of element i that pass the depth
 * function with the rasteriser's Z against the buffer (nothing written). */
static uint8_t early_z_live(struct vc4_v3d *v, const struct vc4_fsi_batch *b, unsigned i)
{
    struct vc4_fsi *f = &v->fsi;
    const struct vc4_tlb *t = &v->tlb;
    uint8_t live = 0;
    for (unsigned s = 0; s < t->samples; s++) {
        if (!((b->mask[i] >> s) & 1))
            continue;
        if (vc4_tlb_depth_pass(f->depth_func, b->zsamp[i][s], vc4_tlb_zs_z(t->zs[tlb_idx(v, b, i, s)])))
            live |= (uint8_t)(1u << s);
        else
            f->stats.early_z_rejects++;
    }
    return live;
}

/* A quad's position (its even frame x, y) as one bit of 64: x and y modulo
 * 16 pixels.  Batches whose bits do not meet share no quad, which is
 * how most pairs the scoreboard compares turn out (vc4_fsi_sb_wait). */
static inline uint64_t quad_bit(uint16_t x, uint16_t y)
{
    return UINT64_C(1) << ((x >> 1 & 7u) | (y >> 1 & 7u) << 3);
}

/* Put quad q of the rasteriser's batch into the next free quad of b with
 * its payload; false when early Z left none of its samples. */
static bool add_quad(struct vc4_v3d *v, struct vc4_fsi_batch *b, const struct vc4_raster_batch *rb,
                     unsigned q)
{
    struct vc4_fsi *f = &v->fsi;
    unsigned base = 4u * b->px.nquads;
    bool any = false;
    for (unsigned e = 0; e < 4; e++) {
        unsigned i = base + e, r = 4u * q + e;
        b->px.x[i] = rb->x[r];
        b->px.y[i] = rb->y[r];
        b->px.cov[i] = rb->cov[r];
        int64_t px16 = (int64_t)rb->x[r] * VC4_RASTER_SUBPIXEL, py16 = (int64_t)rb->y[r] * VC4_RASTER_SUBPIXEL;
        vc4_pse_w_z24(&f->setup, px16 + VC4_RASTER_CENTRE, py16 + VC4_RASTER_CENTRE, &b->w[i], &b->z[i]);
        b->mask[i] = rb->cov[r];
        if (!rb->cov[r])
            continue;
        f->stats.fragments++;
        for (unsigned s = 0; s < 4; s++)
            b->zsamp[i][s] = f->ms ? vc4_pse_z24(&f->setup, px16 + vc4_raster_sample_pos[s][0],
                                                 py16 + vc4_raster_sample_pos[s][1])
                                   : b->z[i];
        if (f->early_z)
            b->mask[i] = b->px.cov[i] = early_z_live(v, b, i);
        any |= b->mask[i] != 0;
    }
    if (!any) { /* the slot stays free, as unused slots are: all 0 */
        for (unsigned e = 0; e < 4; e++) {
            unsigned i = base + e;
            b->px.x[i] = b->px.y[i] = 0;
            b->px.cov[i] = b->mask[i] = 0;
            b->w[i] = b->z[i] = 0;
        }
        return false;
    }
    b->qbits |= quad_bit(rb->x[4u * q], rb->y[4u * q]);
    b->px.nquads++;
    f->stats.quads++;
    return true;
}

/* The rasteriser's quads go into batches of up to 4, in order; with early
 * Z the surviving quads are packed (the primitive's last batch fills up
 * first).  No queued batch has started while the queue is being filled: it
 * runs when full or at the primitive's end (vc4_fsi_run). */
static_assert(offsetof(struct vc4_fsi_batch, centres) + sizeof(struct vc4_pse_offsets) ==
                  sizeof(struct vc4_fsi_batch),
              "the centres last in a batch (vc4_fsi_add clears what comes before them)");

bool vc4_fsi_add(struct vc4_v3d *v, const struct vc4_raster_batch *rb)
{
    struct vc4_fsi *f = &v->fsi;
    if (f->nbatches >= VC4_FSI_MAX_BATCHES)
        return false; /* rb needs at most one more batch: keep room for it */
    for (unsigned q = 0; q < rb->nquads && q < VC4_RASTER_QUADS; q++) {
        struct vc4_fsi_batch *b = f->nbatches ? &f->b[f->nbatches - 1] : NULL;
        if (b && b->px.nquads < VC4_RASTER_QUADS) {
            add_quad(v, b, rb, q);
            continue;
        }
        b = &f->b[f->nbatches];
        /* (all but the centres, which are written whole before their first
         * read: the batch's first varying read, b->centred; 256 of the 808
         * bytes, and a textured 1080p frame starts some 260,000 batches) */
        memset(b, 0, offsetof(struct vc4_fsi_batch, centres));
        if (add_quad(v, b, rb, q)) {
            f->nbatches++;
            f->stats.batches++;
        }
    }
    return true;
}


/*
 * A thread that reaches its first colour write, sbdone or its end without
 * a TLB_Z write has no depth and no stencil test: every live sample takes
 * the colour, and Z and stencil stay as they are, whatever the
 * Configuration Bits' depth function, Z-update bit or the thread's
 * TLB_STENCIL_SETUP say.  Evidence (issue 11; hardware facts, "measured or
 * known to run"): the public bare-metal NV demos and the widely copied
 * bare-metal "hello triangle" set Configuration Bits 03 00 02 (depth
 * function 0 "never", Z updates off, "depth testing disabled" in their
 * comments), write no TLB_Z, and draw on a Pi; Mesa vc4 writes TLB_Z
 * exactly when its key has depth_enabled, which vc4_program.c sets to
 * "depth test enabled || stencil enabled" (emit_frag_end: stencil setup,
 * then TLB_Z = the payload Z or gl_FragDepth, then the colour), and sets
 * the function to "always" otherwise.  The fact is per thread (batch): an
 * element whose condition kept it out of the TLB_Z write gets no pass
 * (UNVERIFIED; Mesa conditions the colour write the same way).
 * Early Z (fsi.h) is before shading and does not depend on this.
 */
static void resolve_z(struct vc4_v3d *v, struct vc4_qpu *q, struct vc4_fsi_batch *b)
{
    if (b->z_done)
        return;
    /* what a program loses by it: Z updates, a real depth function (not
     * "never", the demos' 03 00 02, nor "always"), a stencil setup */
    const struct vc4_fsi *f = &v->fsi;
    unsigned df = f->depth_func & 7;
    if (f->z_update || (df != VC4_TLB_NEVER && df != VC4_TLB_ALWAYS) || b->stencil.enabled)
        fsi_rule(v, q, FR_DEPTH_WITHOUT_TLB_Z);
    memset(b->pass, 0xFF, sizeof b->pass); /* untested: MS_FLAGS still masks (b->mask) */
    b->z_done = true;
}

static void color_write(struct vc4_v3d *v, struct vc4_qpu *q, struct vc4_fsi_batch *b, const uint32_t *val,
                        uint16_t mask, int sample)
{
    struct vc4_tlb *t = &v->tlb;
    resolve_z(v, q, b);
    for (unsigned i = 0; i < N; i++) {
        if (!((mask >> i) & 1))
            continue;
        unsigned live = b->mask[i] & b->pass[i];
        for (unsigned s = 0; s < t->samples; s++) {
            if (!((live >> s) & 1) || (sample >= 0 && (unsigned)sample != s))
                continue;
            t->color[tlb_idx(v, b, i, s)] = val[i];
            v->fsi.stats.samples_written++;
        }
    }
}

/* ---- threads ------------------------------------------------------------------------ */

static struct vc4_fsi_batch *cur_batch(struct vc4_v3d *v, unsigned qpu)
{
    struct vc4_fsi_qpu *fq = &v->fsi.q[qpu];
    int32_t bi = fq->slot[fq->cur].batch;
    return bi >= 0 ? &v->fsi.b[bi] : NULL;
}

/* The per-thread part of a QPU that a thread switch saves and restores
 * (facts §9: two threads per QPU, each with half of each register file),
 * listed once for both directions. */
#define FSI_CTX_FIELDS(X)                                                      \
    X(pc) X(flag) X(pending) X(br1_left) X(br_target) X(unif) X(unif_len)    \
    X(stall_until) X(prev_w) X(prev_acc) X(ra) X(rb) X(sfu_result)

static void save_ctx(const struct vc4_qpu *q, struct vc4_fsi_ctx *c)
{
#define SAVE(f) memcpy(&c->f, &q->f, sizeof c->f);
    FSI_CTX_FIELDS(SAVE)
#undef SAVE
}

static void restore_ctx(struct vc4_qpu *q, const struct vc4_fsi_ctx *c)
{
#define RESTORE(f) memcpy(&q->f, &c->f, sizeof c->f);
    FSI_CTX_FIELDS(RESTORE)
#undef RESTORE
    q->state = VC4_EMU_QPU_RUNNING;
    q->blocked_on = NULL;
}

/* Begin the batch of slot s as the QPU's current thread: the shader from
 * its first instruction, uniforms from the start, W in ra15, Z in rb15. */
static const struct vc4_qpu_port fsi_port; /* below: the I/O entries it names come later */

static void start_thread(struct vc4_v3d *v, struct vc4_qpu *q, unsigned s)
{
    struct vc4_fsi *f = &v->fsi;
    struct vc4_fsi_qpu *fq = &f->q[q->num];
    struct vc4_fsi_slot *sl = &fq->slot[s];
    struct vc4_fsi_batch *b = &f->b[sl->batch];
    fq->cur = (uint8_t)s;
    vc4_qpu_start(q, &fsi_port, f->code, f->unif, 0);
    b->start_instr = q->instructions;
    memcpy(q->ra[15], b->w, sizeof b->w);
    memcpy(q->rb[15], b->z, sizeof b->z);
    sl->started = true;
    fq->vary_pending = false;
    f->stats.threads++;
}

/* Make slot s current: resume it or start it. */
static void run_slot(struct vc4_v3d *v, struct vc4_qpu *q, unsigned s)
{
    struct vc4_fsi_qpu *fq = &v->fsi.q[q->num];
    fq->cur = (uint8_t)s;
    if (fq->slot[s].started)
        restore_ctx(q, &fq->slot[s].ctx);
    else
        start_thread(v, q, s);
}

static void vc4_fsi_thread_switch(struct vc4_v3d *v, struct vc4_qpu *q)
{
    struct vc4_fsi *f = &v->fsi;
    if (!vc4_fsi_owns(f, q->num))
        return;
    struct vc4_fsi_qpu *fq = &f->q[q->num];
    unsigned other = fq->cur ^ 1u;
    if (fq->slot[other].batch < 0)
        return; /* no other thread: this one carries on */
    save_ctx(q, &fq->slot[fq->cur].ctx);
    run_slot(v, q, other);
    f->stats.switches++;
}

static bool overlap(const struct vc4_fsi_batch *a, const struct vc4_fsi_batch *b)
{
    if (!(a->qbits & b->qbits))
        return false;
    for (unsigned i = 0; i < a->px.nquads; i++)
        for (unsigned j = 0; j < b->px.nquads; j++)
            if (a->px.x[4 * i] == b->px.x[4 * j] && a->px.y[4 * i] == b->px.y[4 * j])
                return true;
    return false;
}

/*
 * sbwait (or the first TLB access): the thread waits while an earlier
 * batch with a quad in common has not released the scoreboard.  (draw.c
 * shades a triangle to its end before it rasterises the next, and a
 * triangle's quads are distinct, so no batch waits today; the quad bits
 * make the check cheap: 3.8% of a lit frame's time, comparing every quad
 * of every earlier batch.)
 */
static bool vc4_fsi_sb_wait(struct vc4_v3d *v, struct vc4_qpu *q)
{
    struct vc4_fsi *f = &v->fsi;
    if (!vc4_fsi_owns(f, q->num))
        return true;
    struct vc4_fsi_batch *b = cur_batch(v, q->num);
    if (!b || b->sb_held || b->released)
        return true;
    unsigned me = (unsigned)(b - f->b);
    while (f->sb_lo < me && f->b[f->sb_lo].released)
        f->sb_lo++;
    for (unsigned a = f->sb_lo; a < me; a++)
        if (!f->b[a].released && overlap(&f->b[a], b))
            return false;
    if (q->instructions - b->start_instr < 2)
        fsi_rule(v, q, FR_SB_EARLY);
    b->sb_held = true;
    return true;
}

static void release_sb(struct vc4_fsi_batch *b)
{
    b->sb_held = false;
    b->released = true;
}

/* ---- I/O ------------------------------------------------------------------------------ */

/* Does a TLB_Z write give a live element a Z other than its payload Z
 * (rb15)?  Only then can early Z (which tested the rasteriser's Z) have
 * decided differently: Mesa keeps early Z on for depth-tested shaders that
 * write the payload Z and turns it off when they write gl_FragDepth
 * (vc4_program.c disable_early_z, vc4_emit.c). */
static bool writes_own_z(const struct vc4_fsi_batch *b, const uint32_t *val, uint16_t mask)
{
    for (unsigned i = 0; i < N; i++)
        if (((mask >> i) & 1) && b->mask[i] && (val[i] & VC4_TLB_Z_MAX) != b->z[i])
            return true;
    return false;
}

/* The batch's next varying (one is left): V per element into out, C
 * kept for r5 after the instruction (vc4_fsi_post). */
static void vary_take(struct vc4_fsi *f, struct vc4_fsi_qpu *fq, struct vc4_fsi_batch *b, uint32_t *out)
{
    unsigned k = b->vary_next++;
    if (!b->centred) { /* (once a batch: every varying reads at the same centres) */
        vc4_pse_centres(&f->setup, b->px.x, b->px.y, &b->centres);
        b->centred = true;
    }
    vc4_pse_vary16(&f->setup, k, &b->centres, out);
    uint32_t c = vc4_f2u(f->setup.vc[k]);
    for (unsigned i = 0; i < N; i++)
        fq->vary_c[i] = c;
    fq->vary_pending = true;
}

/* The port's vary (the QPU fast path's varying read): vc4_fsi_read's
 * VARYING_READ when a varying is left, else false with nothing done. */
static bool vc4_fsi_vary(struct vc4_v3d *v, struct vc4_qpu *q, uint32_t *out)
{
    struct vc4_fsi *f = &v->fsi;
    if (!vc4_fsi_owns(f, q->num))
        return false;
    struct vc4_fsi_batch *b = cur_batch(v, q->num);
    if (!b || b->vary_next >= f->nvary)
        return false;
    vary_take(f, &f->q[q->num], b, out);
    return true;
}

/*
 * used: whether an ALU takes the value (qpu.h).  Seed 004's fragment shader,
 * which renders correctly on hardware with two varyings set up, names
 * VARYING_READ (raddr_b 35) a third time in an instruction whose mul ALU is
 * a nop: its value goes nowhere, so that read is not reported.  What
 * hardware returns for a varying that was not set up is not known
 * (UNVERIFIED); 0 here.
 */
static bool vc4_fsi_read(struct vc4_v3d *v, struct vc4_qpu *q, unsigned file, unsigned raddr, bool used,
                         uint32_t *out)
{
    struct vc4_fsi *f = &v->fsi;
    if (!vc4_fsi_owns(f, q->num))
        return false;
    struct vc4_fsi_qpu *fq = &f->q[q->num];
    struct vc4_fsi_batch *b = cur_batch(v, q->num);
    if (!b)
        return false;
    switch (raddr) {
    case VC4_QPU_R_VARY:
        /* the next varying: V per element now, C into r5 after the
         * instruction (vc4_fsi_post); both files read the same FIFO */
        if (b->vary_next >= f->nvary) {
            if (used)
                fsi_rule(v, q, FR_VARY_OVERREAD);
            memset(out, 0, N * sizeof *out);
            memset(fq->vary_c, 0, sizeof fq->vary_c);
            fq->vary_pending = true;
        } else {
            vary_take(f, fq, b, out);
        }
        return true;
    case VC4_QPU_R_XY_COORD:
        for (unsigned i = 0; i < N; i++)
            out[i] = file ? b->px.y[i] : b->px.x[i];
        return true;
    case VC4_QPU_R_MS_REV:
        for (unsigned i = 0; i < N; i++)
            out[i] = file ? (f->setup.reverse ? 1u : 0u) : b->mask[i];
        return true;
    default:
        return false;
    }
}

static bool vc4_fsi_write(struct vc4_v3d *v, struct vc4_qpu *q, unsigned file, unsigned waddr,
                   const uint32_t *val, uint16_t mask)
{
    struct vc4_fsi *f = &v->fsi;
    if (!vc4_fsi_owns(f, q->num))
        return false;
    struct vc4_fsi_batch *b = cur_batch(v, q->num);
    if (!b)
        return false;
    switch (waddr) {
    case VC4_QPU_W_QUAD_XY:
        fsi_rule(v, q, FR_QUAD_XY);
        return true;
    case VC4_QPU_W_MS_FLAGS_REV:
        if (file) {
            fsi_rule(v, q, FR_QUAD_XY);
            return true;
        }
        /* an AND-mask of the coverage (facts §9) */
        for (unsigned i = 0; i < N; i++)
            if ((mask >> i) & 1)
                b->mask[i] &= (uint8_t)(val[i] & 0xF);
        return true;
    case VC4_QPU_W_TLB_STENCIL_SETUP:
        /* one setup per write, from the lowest element whose condition
         * passed (Mesa writes a uniform: every element the same; UNVERIFIED
         * which element the TLB takes) */
        for (unsigned i = 0; i < N; i++)
            if ((mask >> i) & 1) {
                vc4_tlb_stencil_setup(&b->stencil, val[i]);
                break;
            }
        return true;
    case VC4_QPU_W_TLB_Z:
        if (f->early_z && writes_own_z(b, val, mask))
            fsi_rule(v, q, FR_EARLY_Z_SHADER_Z);
        depth_test(v, b, val, mask);
        return true;
    case VC4_QPU_W_TLB_COLOR_MS:
        /* successive writes go to samples 0, 1, 2, 3 (UNVERIFIED) */
        color_write(v, q, b, val, mask, b->color_ms_next % VC4_TLB_MAX_SAMPLES);
        b->color_ms_next++;
        return true;
    case VC4_QPU_W_TLB_COLOR_ALL:
        color_write(v, q, b, val, mask, -1);
        return true;
    case VC4_QPU_W_TLB_ALPHA_MASK:
        fsi_rule(v, q, FR_ALPHA_MASK);
        return true;
    default:
        return false;
    }
}

static bool vc4_fsi_signal(struct vc4_v3d *v, struct vc4_qpu *q, unsigned sig)
{
    struct vc4_fsi *f = &v->fsi;
    if (!vc4_fsi_owns(f, q->num))
        return false;
    struct vc4_fsi_batch *b = cur_batch(v, q->num);
    if (!b)
        return false;
    switch (sig) {
    case VC4_QPU_SIG_THREAD_SWITCH:
    case VC4_QPU_SIG_LAST_THREAD_SWITCH:
        if (b->sb_held)
            fsi_rule(v, q, FR_SWITCH_SB);
        /* takes effect after 2 delay slots (facts 6.10-13) */
        q->thrsw_left = 3;
        return true;
    case VC4_QPU_SIG_SCOREBOARD_UNLOCK:
        resolve_z(v, q, b);
        release_sb(b);
        return true;
    case VC4_QPU_SIG_COLOR_LOAD:
    case VC4_QPU_SIG_COLOR_LOAD_END: {
        /* r4 = the tile buffer colour; successive loads walk the samples
         * with multisampling (UNVERIFIED) */
        unsigned s = b->cload_next++ % v->tlb.samples;
        for (unsigned i = 0; i < N; i++)
            q->acc[4][i] = v->tlb.color[tlb_idx(v, b, i, s)];
        return true;
    }
    case VC4_QPU_SIG_COVERAGE_LOAD:
    case VC4_QPU_SIG_ALPHA_MASK_LOAD:
        /* the VG coverage / alpha-mask buffers are not modelled: r4 = 0 */
        fsi_rule(v, q, sig == VC4_QPU_SIG_COVERAGE_LOAD ? FR_COVERAGE_LOAD : FR_ALPHA_MASK);
        memset(q->acc[4], 0, sizeof q->acc[4]);
        return true;
    default:
        return true; /* sbwait: handled before the instruction */
    }
}

static void vc4_fsi_post(struct vc4_v3d *v, struct vc4_qpu *q)
{
    if (q->num >= VC4_FSI_MAX_QPUS)
        return;
    struct vc4_fsi_qpu *fq = &v->fsi.q[q->num];
    if (!fq->owned || !fq->vary_pending)
        return;
    memcpy(q->acc[5], fq->vary_c, sizeof q->acc[5]);
    fq->vary_pending = false;
}

/* ---- batches to QPUs ----------------------------------------------------------------- */

static void finish_batch(struct vc4_v3d *v, struct vc4_qpu *q, struct vc4_fsi_batch *b)
{
    struct vc4_fsi *f = &v->fsi;
    resolve_z(v, q, b);
    release_sb(b);
    if (b->vary_next < f->nvary) /* reported at the thread end */
        fsi_rule_at(v, q, FR_VARY_UNREAD, VC4_QPU_THREND_SLOTS + 1);
    b->done = true;
    f->ndone++;
}

/* Thread end of a fragment shader: the QPU runs the other thread, a new
 * batch, or becomes idle. */
static void fsi_program_end(struct vc4_v3d *v, struct vc4_qpu *q)
{
    struct vc4_fsi *f = &v->fsi;
    struct vc4_fsi_qpu *fq = &f->q[q->num];
    struct vc4_fsi_slot *sl = &fq->slot[fq->cur];
    if (sl->batch >= 0)
        finish_batch(v, q, &f->b[sl->batch]);
    sl->batch = -1;
    sl->started = false;
    unsigned other = fq->cur ^ 1u;
    if (fq->slot[other].batch >= 0) {
        run_slot(v, q, other);
    } else if (f->next < f->nbatches) {
        sl->batch = (int32_t)f->next++;
        start_thread(v, q, fq->cur);
    } else {
        fq->owned = false;
        q->state = VC4_EMU_QPU_IDLE;
    }
}

/* The port of a QPU running fragment-shader threads (qpu.h). */
static const struct vc4_qpu_port fsi_port = {
    .read = vc4_fsi_read,
    .vary = vc4_fsi_vary,
    .write = vc4_fsi_write,
    .signal = vc4_fsi_signal,
    .post = vc4_fsi_post,
    .sb_wait = vc4_fsi_sb_wait,
    .thread_switch = vc4_fsi_thread_switch,
    .program_end = fsi_program_end,
    .user = false,
};

/* Give queued batches to free thread slots: first one thread on each idle
 * QPU (lowest number first), then the second threads of threaded shaders. */
static void dispatch(struct vc4_v3d *v)
{
    struct vc4_fsi *f = &v->fsi;
    unsigned nq = v->num_qpus < VC4_FSI_MAX_QPUS ? v->num_qpus : VC4_FSI_MAX_QPUS;
    for (unsigned i = 0; i < nq && f->next < f->nbatches; i++) {
        struct vc4_fsi_qpu *fq = &f->q[i];
        struct vc4_qpu *q = &v->qpu[i];
        if (fq->owned || q->state != VC4_EMU_QPU_IDLE)
            continue;
        fq->owned = true;
        fq->slot[0].batch = fq->slot[1].batch = -1;
        fq->slot[0].started = fq->slot[1].started = false;
        vc4_tmu_qpu_reset(&v->tmu, i);
        fq->slot[0].batch = (int32_t)f->next++;
        start_thread(v, q, 0);
    }
    if (!f->threaded)
        return;
    for (unsigned i = 0; i < nq && f->next < f->nbatches; i++) {
        struct vc4_fsi_qpu *fq = &f->q[i];
        if (!fq->owned)
            continue;
        unsigned other = fq->cur ^ 1u;
        if (fq->slot[other].batch >= 0)
            continue;
        fq->slot[other].batch = (int32_t)f->next++;
        fq->slot[other].started = false;
    }
}

static void report_timeout(struct vc4_v3d *v)
{
    struct vc4_fsi *f = &v->fsi;
    for (unsigned i = 0; i < v->num_qpus && i < VC4_FSI_MAX_QPUS; i++) {
        struct vc4_qpu *q = &v->qpu[i];
        if (q->state == VC4_EMU_QPU_IDLE)
            continue;
        vc4_v3d_qpu_diag(v, q, VC4_ERROR, VC4_DIAG_TIMEOUT, NULL, NULL,
                         "cycle budget exhausted while fragment shading (%s%s, %u of %u batches done)",
                         f->q[i].owned ? "fragment shader" : "user program",
                         q->state == VC4_EMU_QPU_BLOCKED && q->blocked_on ? ", blocked" : "", f->ndone,
                         f->nbatches);
    }
}

enum vc4_status vc4_fsi_run(struct vc4_v3d *v, uint64_t budget, uint64_t *used)
{
    struct vc4_fsi *f = &v->fsi;
    dispatch(v);
    while (f->ndone < f->nbatches) {
        uint8_t act[VC4_FSI_MAX_QPUS];
        unsigned nact = 0;
        for (unsigned i = 0; i < v->num_qpus && i < VC4_FSI_MAX_QPUS; i++)
            if (v->qpu[i].state != VC4_EMU_QPU_IDLE && v->qpu[i].state != VC4_EMU_QPU_FAULTED)
                act[nact++] = (uint8_t)i;
        if (nact == 0) {
            struct vc4_location l = vc4_location_none();
            vc4_diag_emit(&v->unit_sink, VC4_ERROR, VC4_DIAG_FAULT, "fsi", &l,
                          "no QPU can run the fragment shader (%u batches waiting)",
                          f->nbatches - f->ndone);
            return VC4_ERR_FAULT;
        }
        if (*used >= budget) {
            report_timeout(v);
            return VC4_ERR_TIMEOUT;
        }
        bool ended = false;
        *used += vc4_v3d_run_kind(v, VC4_EMU_PROG_FRAGMENT, &f->stats.qpu, act, nact, budget - *used, &ended);
        if (v->fault != VC4_OK)
            return v->fault;
        dispatch(v);
    }
    f->nbatches = f->next = f->ndone = f->sb_lo = 0;
    return VC4_OK;
}

void vc4_fsi_abort(struct vc4_v3d *v)
{
    struct vc4_fsi *f = &v->fsi;
    for (unsigned i = 0; i < VC4_FSI_MAX_QPUS; i++) {
        struct vc4_fsi_qpu *fq = &f->q[i];
        if (!fq->owned)
            continue;
        fq->owned = false;
        fq->slot[0].batch = fq->slot[1].batch = -1;
        if (i < v->num_qpus && v->qpu[i].state != VC4_EMU_QPU_FAULTED)
            v->qpu[i].state = VC4_EMU_QPU_IDLE;
    }
    f->nbatches = f->next = f->ndone = f->sb_lo = 0;
}
