/*
 * vsi.c - vertex and coordinate shading on the QPUs (see vsi.h).
 */
#include "emu/vsi.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "emu/v3d.h"
#include "spec/rules.h"

#define UNIT "vsi"
#define SLOT_EMPTY UINT32_MAX
#define VSI_DEFAULT_BUDGET UINT64_C(100000000)

/* ---- rules -------------------------------------------------------------------------- */

enum vsi_rule { VR_ATTR_UNREAD, VR_ATTR_TWICE, VR_READ_NON_ATTR, VR_OUT_UNWRITTEN, VR_OUT_TWICE, VR_COUNT };

static const struct {
    enum vc4_rule_id rule; /* id and source: src/spec/rules.c */
    const char *what;
} vsi_rules[VR_COUNT] = {
    [VR_ATTR_UNREAD] = {VC4_RULE_GL_ATTR_READ_ONCE, "attribute not read from the VPM"},
    [VR_ATTR_TWICE] = {VC4_RULE_GL_ATTR_READ_ONCE, "attribute read from the VPM more than once"},
    [VR_READ_NON_ATTR] = {VC4_RULE_GL_ATTR_READ_ONCE, "VPM read of a row that holds no attribute"},
    [VR_OUT_UNWRITTEN] = {VC4_RULE_GL_OUTPUT_WRITE_ONCE, "output not written to the VPM"},
    [VR_OUT_TWICE] = {VC4_RULE_GL_OUTPUT_WRITE_ONCE, "output written to the VPM more than once"},
};

/* Report rule r for the batch on QPU q (at its thread end: 3 instructions
 * back), once per GL record and rule unless strict. */
static void vsi_rule(struct vc4_v3d *v, struct vc4_qpu *q, enum vsi_rule r, const char *fmt, ...)
    VC4_PRINTF(4, 5);
static void vsi_rule(struct vc4_v3d *v, struct vc4_qpu *q, enum vsi_rule r, const char *fmt, ...)
{
    struct vc4_vsi *s = &v->vsi;
    unsigned st = s->q[q->num].stage;
    if (s->warned_record[st] != s->g->record_addr) {
        s->warned_record[st] = s->g->record_addr;
        s->warned[st] = 0;
    }
    if (!v->strict && (s->warned[st] & (1u << r)))
        return;
    s->warned[st] |= 1u << r;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uint32_t pc = q->pc;
    q->pc -= (VC4_QPU_THREND_SLOTS + 1) * VC4_QPU_INSTR_BYTES;
    vc4_v3d_qpu_diag(v, q, v->strict ? VC4_ERROR : VC4_WARNING, VC4_DIAG_RULE, vc4_rule_table[vsi_rules[r].rule].id,
                     vc4_rule_table[vsi_rules[r].rule].source,
                     "%s (GL record 0x%08x): %s: %s", vc4_gl_stage_name[st], s->g->record_addr,
                     vsi_rules[r].what, msg);
    q->pc = pc;
    if (v->strict && v->fault == VC4_OK)
        v->fault = VC4_ERR_RULE;
}

/* ---- cache ---------------------------------------------------------------------------- */

void vc4_vsi_init(struct vc4_vsi *s, const struct vc4_allocator *alloc)
{
    memset(s, 0, sizeof *s);
    s->alloc = alloc;
}

static void cache_free(struct vc4_vsi *s, struct vc4_vsi_cache *c)
{
    vc4_free(s->alloc, c->key);
    vc4_free(s->alloc, c->slot);
    vc4_free(s->alloc, c->words);
    vc4_free(s->alloc, c->ok);
    memset(c, 0, sizeof *c);
}

void vc4_vsi_fini(struct vc4_vsi *s)
{
    cache_free(s, &s->cache[0]);
    cache_free(s, &s->cache[1]);
    vc4_free(s->alloc, s->pend);
    s->pend = NULL;
    s->pend_cap = 0;
}

void vc4_vsi_invalidate(struct vc4_vsi *s, enum vc4_gl_stage st)
{
    struct vc4_vsi_cache *c = &s->cache[st];
    c->bound = false;
    c->nverts = 0;
    if (c->slot)
        memset(c->slot, 0xFF, c->cap * sizeof *c->slot);
}

void vc4_vsi_reset(struct vc4_vsi *s)
{
    vc4_vsi_invalidate(s, VC4_GL_CS);
    vc4_vsi_invalidate(s, VC4_GL_VS);
    s->bin.valid = s->render.valid = false;
    s->npend = s->pnext = s->ndone = 0;
    s->seg_busy = 0;
    memset(s->q, 0, sizeof s->q);
    s->vpm_warned = false;
    s->used = NULL;
    memset(s->warned_record, 0, sizeof s->warned_record);
    memset(s->warned, 0, sizeof s->warned);
    memset(&s->stats, 0, sizeof s->stats);
}

static size_t hash_of(uint32_t index, size_t cap)
{
    return (size_t)((index * 0x9E3779B1u) & (uint32_t)(cap - 1));
}

static bool cache_rehash(struct vc4_vsi *s, struct vc4_vsi_cache *c, size_t cap)
{
    uint32_t *key = vc4_malloc(s->alloc, cap * sizeof *key);
    uint32_t *slot = vc4_malloc(s->alloc, cap * sizeof *slot);
    if (!key || !slot) {
        vc4_free(s->alloc, key);
        vc4_free(s->alloc, slot);
        return false;
    }
    memset(slot, 0xFF, cap * sizeof *slot);
    for (size_t i = 0; i < c->cap; i++) {
        if (c->slot[i] == SLOT_EMPTY)
            continue;
        size_t h = hash_of(c->key[i], cap);
        while (slot[h] != SLOT_EMPTY)
            h = (h + 1) & (cap - 1);
        key[h] = c->key[i];
        slot[h] = c->slot[i];
    }
    vc4_free(s->alloc, c->key);
    vc4_free(s->alloc, c->slot);
    c->key = key;
    c->slot = slot;
    c->cap = cap;
    return true;
}

static uint32_t cache_find(const struct vc4_vsi_cache *c, uint32_t index)
{
    if (!c->cap)
        return SLOT_EMPTY;
    for (size_t h = hash_of(index, c->cap);; h = (h + 1) & (c->cap - 1)) {
        if (c->slot[h] == SLOT_EMPTY)
            return SLOT_EMPTY;
        if (c->key[h] == index)
            return c->slot[h];
    }
}

/* Add index: its vertex number (new ones get outputs storage), or
 * SLOT_EMPTY when memory runs out. */
static uint32_t cache_add(struct vc4_vsi *s, struct vc4_vsi_cache *c, uint32_t index, bool *is_new)
{
    *is_new = false;
    uint32_t have = cache_find(c, index);
    if (have != SLOT_EMPTY)
        return have;
    if ((c->nverts + 1) * 2 > c->cap && !cache_rehash(s, c, c->cap ? c->cap * 2 : 256))
        return SLOT_EMPTY;
    if (c->nverts >= SLOT_EMPTY - 1)
        return SLOT_EMPTY;
    size_t need = (c->nverts + 1) * c->nout;
    uint32_t *w = vc4_array_grow(s->alloc, c->words, &c->words_cap, need, sizeof *w, 1024);
    if (!w)
        return SLOT_EMPTY;
    c->words = w;
    uint8_t *ok = vc4_array_grow(s->alloc, c->ok, &c->ok_cap, c->nverts + 1, 1, 256);
    if (!ok)
        return SLOT_EMPTY;
    c->ok = ok;
    uint32_t n = (uint32_t)c->nverts++;
    memset(c->words + (size_t)n * c->nout, 0, c->nout * sizeof *c->words);
    c->ok[n] = 0;
    size_t h = hash_of(index, c->cap);
    while (c->slot[h] != SLOT_EMPTY)
        h = (h + 1) & (c->cap - 1);
    c->key[h] = index;
    c->slot[h] = n;
    *is_new = true;
    return n;
}

const uint32_t *vc4_vsi_get(const struct vc4_vsi *s, enum vc4_gl_stage st, uint32_t index)
{
    const struct vc4_vsi_cache *c = &s->cache[st];
    if (!c->bound)
        return NULL;
    uint32_t n = cache_find(c, index);
    if (n == SLOT_EMPTY || !c->ok[n])
        return NULL;
    return c->words + (size_t)n * c->nout;
}

/* ---- batches on the QPUs ------------------------------------------------------------------- */

/* VPM window seg's first row: its input rows, then (+ seg_in) its output rows. */
static uint32_t seg_row(const struct vc4_vsi *s, unsigned seg)
{
    return s->seg_first + seg * s->seg_rows;
}

/* Start the next batch on idle QPU i in a free VPM window. */
static const struct vc4_qpu_port vsi_port; /* below, after vsi_program_end */

static bool start_batch(struct vc4_v3d *v, unsigned i, const struct vc4_location *loc)
{
    struct vc4_vsi *s = &v->vsi;
    unsigned seg = 0;
    while (seg < s->nseg && (s->seg_busy >> seg) & 1u)
        seg++;
    if (seg >= s->nseg)
        return false;
    struct vc4_vsi_qpu *vq = &s->q[i];
    const struct vc4_gl_state *g = s->g;
    enum vc4_gl_stage st = (enum vc4_gl_stage)s->stage;
    uint32_t idx[VC4_GL_BATCH];
    vq->n = 0;
    while (vq->n < VC4_GL_BATCH && s->pnext < s->npend) {
        const uint32_t *p = &s->pend[2 * s->pnext++];
        vq->vert[vq->n] = p[0];
        idx[vq->n++] = p[1];
    }
    uint32_t base = seg_row(s, seg);
    /* attributes outside memory: zeros and an error (vcd.c); the batch
     * still runs, as the hardware would shade whatever it fetched */
    vc4_vcd_fetch(v, g, st, idx, vq->n, base, UNIT, loc);
    vq->owned = true;
    vq->stage = (uint8_t)st;
    vq->seg = (uint8_t)seg;
    s->seg_busy |= 1u << seg;
    struct vc4_qpu *q = &v->qpu[i];
    vc4_vpm_qpu_reset(&v->vpm, i);
    vc4_vpm_qpu_role(&v->vpm, i, st == VC4_GL_CS ? VC4_VPM_ROLE_CS : VC4_VPM_ROLE_VS, base, base + s->seg_in);
    vc4_tmu_qpu_reset(&v->tmu, i);
    vc4_qpu_start(q, &vsi_port, vc4_gl_code(g, st), vc4_gl_unif(g, st), 0);
    s->stats.batches[st]++;
    s->stats.vertices[st] += vq->n;
    return true;
}

/* The attribute that owns VPM byte b of a vertex for this stage, or -1.
 * Bytes at or past the stage's total attributes size are nobody's: Mesa
 * declares streams with the format's full size and a total counting only
 * the components the shader reads (vcd.c), and its shaders read the total.
 * A byte no attribute fetches, in the 32-bit word that ends an attribute
 * of a size not a multiple of 4, is that attribute's: a shader reads the
 * VPM a word at a time, and Mesa's reads a 2-byte attribute (a vec2 of
 * bytes, R8G8_SSCALED) as the word it starts (vc4_program.c
 * emit_vertex_input: align(attr_size, 4) / 4 reads; its VPM offsets and
 * the total are counted in those words too).  Seen with gl-check's
 * attrib_formats: "VPM row 2 byte 2 read, but no fetched attribute is
 * there" on Mesa's correct code. */
static int attr_at(const struct vc4_gl_state *g, enum vc4_gl_stage st, uint32_t b)
{
    if (b >= vc4_gl_attr_size(g, st))
        return -1;
    uint32_t sel = vc4_gl_select(g, st);
    int padded = -1;
    for (unsigned i = 0; i < g->nattrs; i++) {
        uint32_t off = g->attr[i].vpm_off[st], end = off + g->attr[i].size;
        if (!((sel >> i) & 1u) || b < off)
            continue;
        if (b < end)
            return (int)i;
        if (padded < 0 && b < ((end + 3u) & ~3u))
            padded = (int)i;
    }
    return padded;
}

static_assert(VC4_GL_BATCH <= VC4_VPM_ROW_WORDS, "a batch's vertices are one row's columns");

/* Are the first n (<= 16) bytes of row all want?  (Two 8-byte words
 * compared at once, the bytes past n masked off in memory order.) */
static inline bool bytes_all(const uint8_t row[VC4_VPM_ROW_WORDS], uint8_t want, unsigned n)
{
    static const uint8_t ones[2 * VC4_VPM_ROW_WORDS] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                                        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    uint64_t w[2], m[2], rep = want * UINT64_C(0x0101010101010101);
    memcpy(w, row, sizeof w);
    memcpy(m, ones + VC4_VPM_ROW_WORDS - n, sizeof m); /* (n bytes of 0xFF, then 0) */
    return (((w[0] ^ rep) & m[0]) | ((w[1] ^ rep) & m[1])) == 0;
}

/* The rules at the shader's end (vsi.h), from the VPM unit's byte-level
 * access record of this QPU. */
static void check_batch(struct vc4_v3d *v, struct vc4_qpu *q, const struct vc4_vsi_qpu *vq)
{
    const struct vc4_vsi *s = &v->vsi;
    const struct vc4_gl_state *g = s->g;
    enum vc4_gl_stage st = (enum vc4_gl_stage)vq->stage;
    const struct vc4_vpm_track *t = &v->vpm.track[q->num];
    /* attributes: every byte of every fetched stream read in each used
     * column (rows whose record matches the attribute bytes exactly are
     * skipped at once: the common case; rows past the last attribute and
     * the last read match, all zero) */
    bool unread_done = false, nonattr_done = false;
    uint32_t rows = s->attr_rows > t->rd_rows ? s->attr_rows : t->rd_rows;
    for (uint32_t b = 0; b < rows * 4u; b++) {
        unsigned row = b / 4u, lane = b % 4u;
        if (lane == 0 && bytes_all(t->rd[row], s->attr_mask[row], vq->n)) {
            b += 3;
            continue;
        }
        int a = attr_at(g, st, b);
        for (unsigned c = 0; c < vq->n; c++) {
            bool rd = (t->rd[row][c] >> lane) & 1u;
            if (a >= 0 && !rd && !unread_done) {
                vsi_rule(v, q, VR_ATTR_UNREAD,
                         "attribute %d (VPM offset %u, %u bytes): byte %u (VPM row %u) of vertex %u never read; "
                         "the hardware then shades garbage",
                         a, g->attr[a].vpm_off[st], g->attr[a].size, b - g->attr[a].vpm_off[st], row, c);
                unread_done = true;
            } else if (a < 0 && rd && !nonattr_done) {
                vsi_rule(v, q, VR_READ_NON_ATTR,
                         "VPM row %u byte %u read, but no fetched attribute is there (total attributes size %u)",
                         row, lane, vc4_gl_attr_size(g, st));
                nonattr_done = true;
            }
        }
    }
    if (t->rd_dup_row >= 0) {
        int a = attr_at(g, st, (uint32_t)t->rd_dup_row * 4u);
        if (a >= 0)
            vsi_rule(v, q, VR_ATTR_TWICE, "VPM row %d (attribute %d) read again at 0x%08x", t->rd_dup_row, a,
                     t->rd_dup_pc);
        else
            vsi_rule(v, q, VR_ATTR_TWICE, "VPM row %d (no attribute) read again at 0x%08x", t->rd_dup_row,
                     t->rd_dup_pc);
    }
    /* outputs: every byte of the rows the PTB / PSE read, in each used column */
    unsigned nout = vc4_gl_out_rows(g, st);
    for (unsigned row = 0; row < nout; row++) {
        if (bytes_all(t->wr[row], 0xF, vq->n))
            continue;
        for (unsigned c = 0; c < vq->n; c++)
            if (t->wr[row][c] != 0xF) {
                vsi_rule(v, q, VR_OUT_UNWRITTEN, "output row %u of %u (vertex %u) %s", row, nout, c,
                         t->wr[row][c] ? "only partly written" : "not written");
                row = nout;
                break;
            }
    }
    if (t->wr_dup_row >= 0 && (unsigned)t->wr_dup_row < nout)
        vsi_rule(v, q, VR_OUT_TWICE, "output row %d written again at 0x%08x", t->wr_dup_row, t->wr_dup_pc);
}

/* Thread end of a vertex / coordinate shader batch: its outputs to the
 * stage's cache; the QPU becomes idle. */
static void vsi_program_end(struct vc4_v3d *v, struct vc4_qpu *q)
{
    struct vc4_vsi *s = &v->vsi;
    struct vc4_vsi_qpu *vq = &s->q[q->num];
    vc4_sched_end_checks(v, q);
    check_batch(v, q, vq);
    /* outputs, taken from the VPM window as the PTB / PSE would */
    struct vc4_vsi_cache *c = &s->cache[vq->stage];
    uint32_t base = seg_row(s, vq->seg) + s->seg_in;
    for (unsigned r = 0; r < c->nout; r++) {
        const uint32_t *row = vc4_vpm_row(&v->vpm, base + r);
        for (unsigned i = 0; i < vq->n; i++)
            c->words[(size_t)vq->vert[i] * c->nout + r] = row[i];
    }
    for (unsigned i = 0; i < vq->n; i++)
        c->ok[vq->vert[i]] = 1;
    s->seg_busy &= ~(1u << vq->seg);
    vq->owned = false;
    vc4_vpm_qpu_role(&v->vpm, q->num, VC4_VPM_ROLE_USER, 0, 0);
    s->ndone += vq->n;
    q->state = VC4_EMU_QPU_IDLE;
}

/* The port of a QPU shading a vertex batch: no fragment-shader I/O (qpu.h). */
static const struct vc4_qpu_port vsi_port = {
    .read = vc4_qpu_port_no_read,
    .vary = vc4_qpu_port_no_vary,
    .write = vc4_qpu_port_no_write,
    .signal = vc4_qpu_port_no_signal,
    .post = vc4_qpu_port_no_post,
    .sb_wait = vc4_qpu_port_no_sb_wait,
    .thread_switch = vc4_qpu_port_no_thread_switch,
    .program_end = vsi_program_end,
    .user = false,
};

static void release_all(struct vc4_v3d *v)
{
    struct vc4_vsi *s = &v->vsi;
    for (unsigned i = 0; i < VC4_VSI_MAX_QPUS; i++) {
        if (!s->q[i].owned)
            continue;
        s->q[i].owned = false;
        vc4_vpm_qpu_role(&v->vpm, i, VC4_VPM_ROLE_USER, 0, 0);
        if (i < v->num_qpus && v->qpu[i].state != VC4_EMU_QPU_FAULTED)
            v->qpu[i].state = VC4_EMU_QPU_IDLE;
    }
    s->seg_busy = 0;
    s->npend = s->pnext = s->ndone = 0;
}

static void report_timeout(struct vc4_v3d *v)
{
    struct vc4_vsi *s = &v->vsi;
    for (unsigned i = 0; i < v->num_qpus && i < VC4_VSI_MAX_QPUS; i++)
        if (s->q[i].owned)
            vc4_v3d_qpu_diag(v, &v->qpu[i], VC4_ERROR, VC4_DIAG_TIMEOUT, NULL, NULL,
                             "cycle budget exhausted in the %s of GL record 0x%08x",
                             vc4_gl_stage_name[s->q[i].stage], s->g->record_addr);
}

enum vc4_status vc4_vsi_shade(struct vc4_v3d *v, enum vc4_gl_stage st, const struct vc4_gl_state *g,
                              const uint32_t *index, size_t n, const struct vc4_location *loc)
{
    struct vc4_vsi *s = &v->vsi;
    struct vc4_vsi_cache *c = &s->cache[st];
    unsigned nout = vc4_gl_out_rows(g, st);
    if (!c->bound || c->record_addr != g->record_addr || c->nout != nout) {
        vc4_vsi_invalidate(s, st);
        c->bound = true;
        c->record_addr = g->record_addr;
        c->nout = nout;
    }
    /* the vertices not shaded yet, in first-use order */
    s->npend = s->pnext = s->ndone = 0;
    for (size_t i = 0; i < n; i++) {
        bool is_new;
        uint32_t vert = cache_add(s, c, index[i], &is_new);
        if (vert == SLOT_EMPTY) {
            vc4_diag_emit(&v->unit_sink, VC4_ERROR, VC4_DIAG_FAULT, UNIT, loc,
                          "out of host memory for %zu shaded vertices", c->nverts);
            return VC4_ERR_NOMEM;
        }
        if (!is_new)
            continue;
        uint32_t *p = vc4_array_grow(s->alloc, s->pend, &s->pend_cap, 2 * (s->npend + 1), sizeof *p, 64);
        if (!p)
            return VC4_ERR_NOMEM;
        s->pend = p;
        p[2 * s->npend] = vert;
        p[2 * s->npend + 1] = index[i];
        s->npend++;
    }
    if (!s->npend)
        return VC4_OK;
    /*
     * VPM windows inside the 3D part, one per batch: the input rows, then
     * the output rows.  The outputs do not overwrite inputs still to be
     * read: Mesa schedules VPM writes before later VPM reads freely
     * (vc4_qir_schedule.c orders reads among reads, writes among writes),
     * and a vertex shader of piglit's glsl-routing (22 attribute words: a
     * read setup of 16, 23 output writes from row 0, then a read setup of
     * 6 at row 16) draws right on Raspberry Pi 3s (Mesa's CI,
     * broadcom-rpi3-fails.txt); in one window shared by inputs and outputs
     * (vc4kit until 2026-11-29) its last 6 reads returned its own outputs.
     * UNVERIFIED: where the VCM puts the output rows; reading them back
     * through VPM reads is not modelled.
     */
    uint32_t first, rows;
    vc4_vcd_vpm_window(v, &first, &rows, &s->vpm_warned, UNIT, loc);
    uint32_t in = vc4_gl_in_rows(g, st);
    s->seg_in = in;
    s->seg_rows = in + nout;
    if (s->seg_rows == 0)
        s->seg_rows = 1;
    s->seg_first = first;
    s->nseg = rows / s->seg_rows;
    if (s->nseg > VC4_VSI_MAX_QPUS)
        s->nseg = VC4_VSI_MAX_QPUS;
    if (s->nseg == 0) {
        vc4_diag_emit(&v->unit_sink, VC4_ERROR, VC4_DIAG_SEMANTIC, UNIT, loc,
                      "%s of GL record 0x%08x needs %u VPM rows per batch; only %u are left for 3D",
                      vc4_gl_stage_name[st], g->record_addr, s->seg_rows, rows);
        s->npend = 0;
        return VC4_ERR_FAULT;
    }
    s->g = g;
    s->stage = (uint8_t)st;
    s->attr_rows = 0;
    for (unsigned r = 0; r < VC4_GL_MAX_OUT_ROWS; r++) { /* the attribute bytes of each row */
        s->attr_mask[r] = 0;
        for (unsigned lane = 0; lane < 4; lane++)
            if (attr_at(g, st, 4 * r + lane) >= 0)
                s->attr_mask[r] |= (uint8_t)(1u << lane);
        if (s->attr_mask[r])
            s->attr_rows = (uint8_t)(r + 1);
    }
    /* the control-list run's budget, else one of its own */
    uint64_t local_used = 0, *used = s->used ? s->used : &local_used;
    uint64_t budget = s->used ? s->budget : v->default_budget ? v->default_budget : VSI_DEFAULT_BUDGET;
    enum vc4_status ret = VC4_OK;
    while (s->ndone < s->npend) {
        for (unsigned i = 0; i < v->num_qpus && i < VC4_VSI_MAX_QPUS && s->pnext < s->npend; i++)
            if (v->qpu[i].state == VC4_EMU_QPU_IDLE && !vc4_fsi_owns(&v->fsi, i) && !s->q[i].owned)
                if (!start_batch(v, i, loc))
                    break;
        uint8_t act[VC4_VSI_MAX_QPUS];
        unsigned nact = 0;
        for (unsigned i = 0; i < v->num_qpus && i < VC4_VSI_MAX_QPUS; i++)
            if (v->qpu[i].state != VC4_EMU_QPU_IDLE && v->qpu[i].state != VC4_EMU_QPU_FAULTED)
                act[nact++] = (uint8_t)i;
        if (nact == 0) {
            vc4_diag_emit(&v->unit_sink, VC4_ERROR, VC4_DIAG_FAULT, UNIT, loc,
                          "no QPU can run the %s (%zu vertices waiting)", vc4_gl_stage_name[st],
                          s->npend - s->ndone);
            ret = VC4_ERR_FAULT;
            break;
        }
        if (*used >= budget) {
            report_timeout(v);
            ret = VC4_ERR_TIMEOUT;
            break;
        }
        bool ended = false;
        uint64_t ran = vc4_v3d_run_kind(v, st == VC4_GL_CS ? VC4_EMU_PROG_COORD : VC4_EMU_PROG_VERTEX, &s->stats.qpu[st], act, nact, budget - *used, &ended);
        *used += ran;
        if (v->fault != VC4_OK) {
            ret = v->fault;
            break;
        }
    }
    if (ret != VC4_OK)
        release_all(v);
    s->npend = s->pnext = s->ndone = 0;
    return ret;
}

/* ---- the binner's vertex source ------------------------------------------------------------- */

static bool ptb_prepare(void *user, struct vc4_v3d *v, const uint32_t *index, uint32_t n,
                        const struct vc4_location *loc)
{
    (void)user;
    if (!v->vsi.bin.valid)
        return false;
    vc4_vsi_invalidate(&v->vsi, VC4_GL_CS);
    return vc4_vsi_shade(v, VC4_GL_CS, &v->vsi.bin, index, n, loc) == VC4_OK;
}

static bool ptb_fetch(void *user, struct vc4_v3d *v, uint32_t index, struct vc4_ptb_vertex *out)
{
    (void)user;
    const uint32_t *w = vc4_vsi_get(&v->vsi, VC4_GL_CS, index);
    memset(out, 0, sizeof *out);
    if (!w)
        return false;
    for (unsigned k = 0; k < 4; k++)
        out->clip[k] = vc4_u2f(w[k]);
    out->has_clip = v->vsi.bin.rec.enable_clipping;
    out->x_1_16px = (int16_t)(w[4] & 0xFFFFu);
    out->y_1_16px = (int16_t)(w[4] >> 16);
    out->zs = vc4_u2f(w[5]);
    out->inv_wc = vc4_u2f(w[6]);
    if (v->vsi.bin.rec.point_size_included) {
        out->point_size = vc4_u2f(w[7]);
        out->has_point_size = true;
    }
    return true;
}

void vc4_vsi_ptb_source(struct vc4_ptb_vertex_source *src)
{
    src->fetch = ptb_fetch;
    src->prepare = ptb_prepare;
    src->user = NULL;
}
