/*
 * vpm.c - VPM storage, generic QPU reads/writes in every mode, and the VDR /
 * VDW DMA engines.  See vpm.h for the sources ([G], [S3], [A]) and
 * docs/vpm.md for the modelling choices.
 */
#include "emu/vpm.h"

#include <string.h>

#include "base/base.h"
#include "spec/rules.h"

#define FLD(v, name) vc4_bits((v), name##_SHIFT, name##_WIDTH)
#define UNIT "vpm"

#define VPM_WORDS (VC4_VPM_MAX_ROWS * VC4_VPM_ROW_WORDS)

/*
 * Generic access geometry per SIZE [G table 32 with the seed's corrected
 * bit positions, S3]: ADDR holds the row (horizontal) or {Y[5:4], X[3:0]}
 * (vertical) above `sel_bits` low bits that select the byte / half-word:
 *   horizontal 8-bit:  ADDR[7:0] = {Y[5:0], B[1:0]}  (the seed: Y is ADDR[7:2])
 *   horizontal 16-bit: ADDR[6:0] = {Y[5:0], H[0]}
 *   horizontal 32-bit: ADDR[5:0] = Y[5:0]
 *   vertical 8-bit:    ADDR[7:0] = {Y[5:4], X[3:0], B[1:0]}
 *   vertical 16-bit:   ADDR[6:0] = {Y[5:4], X[3:0], H[0]}
 *   vertical 32-bit:   ADDR[5:0] = {Y[5:4], X[3:0]}
 * The stride is added to the whole ADDR, which wraps at its width (so the
 * row wraps past Y = 63).  In laned modes B/H is the lane of each word; in
 * packed modes it is the block: 16 bytes (8-bit) or 32 bytes (16-bit) that
 * lie along the row (horizontal) or down the column (vertical).
 */
struct vpm_size_info {
    unsigned addr_bits;  /* width of ADDR */
    unsigned sel_bits;   /* low ADDR bits selecting lane / block */
    unsigned elem_bytes; /* 1, 2, 4 */
};
static const struct vpm_size_info vpm_sizes[3] = {
    [VC4_VPM_SIZE_8] = {8, 2, 1},
    [VC4_VPM_SIZE_16] = {7, 1, 2},
    [VC4_VPM_SIZE_32] = {6, 0, 4},
};

/* MODEW of VDW/VDR [G tables 34, 36]: 0 32-bit; 2,3 16-bit with the
 * half-word offset in bit 0; 4-7 8-bit with the byte offset in bits 1:0;
 * 1 is not an element mode (in VDR it is the extended-pitch ID). */
struct dma_mode {
    unsigned elem_bytes;
    unsigned lane;       /* starting byte/half-word lane inside a word */
    bool valid;
};
static struct dma_mode dma_mode_decode(unsigned modew)
{
    if (modew == 0)
        return (struct dma_mode){4, 0, true};
    if (modew >= 4)
        return (struct dma_mode){1, modew & 3u, true};
    if (modew >= 2)
        return (struct dma_mode){2, modew & 1u, true};
    return (struct dma_mode){4, 0, false};
}

void vc4_vpm_reset(struct vc4_vpm *v)
{
    uint32_t size = v->size_bytes;
    memset(v, 0, sizeof *v);
    v->size_bytes = size;
}

void vc4_vpm_init(struct vc4_vpm *v, unsigned size_kb)
{
    if (size_kb < 1 || size_kb > VC4_VPM_MAX_KB)
        size_kb = VC4_VPM_BCM2835_KB;
    v->size_bytes = size_kb * 1024u;
    vc4_vpm_reset(v);
}

void vc4_vpm_qpu_reset(struct vc4_vpm *v, unsigned qpu)
{
    if (qpu < VC4_VPM_MAX_QPUS) {
        uint64_t st = v->q[qpu].vdw_done_at, ld = v->q[qpu].vdr_done_at;
        memset(&v->q[qpu], 0, sizeof v->q[qpu]);
        v->q[qpu].vdw_done_at = st;
        v->q[qpu].vdr_done_at = ld;
    }
}

void vc4_vpm_qpu_role(struct vc4_vpm *v, unsigned qpu, enum vc4_vpm_role role, uint32_t in_row,
                      uint32_t out_row)
{
    if (qpu >= VC4_VPM_MAX_QPUS)
        return;
    struct vc4_vpm_qpu *q = &v->q[qpu];
    q->role = (uint8_t)role;
    q->fs_reported = false;
    bool batch = role == VC4_VPM_ROLE_CS || role == VC4_VPM_ROLE_VS;
    q->rd_base_row = batch ? in_row : 0;
    q->wr_base_row = batch ? out_row : 0;
    if (batch) {
        /* (rows from rd_rows and wr_rows on are zero: only the rows the
         * last program touched are cleared, not the 2 KB of a batch) */
        struct vc4_vpm_track *t = &v->track[qpu];
        memset(t->rd, 0, t->rd_rows * sizeof t->rd[0]);
        memset(t->wr, 0, t->wr_rows * sizeof t->wr[0]);
        t->rd_rows = t->wr_rows = 0;
        t->rd_dup_row = t->wr_dup_row = -1;
        t->rd_dup_pc = t->wr_dup_pc = 0;
    }
}

static bool tracked(const struct vc4_vpm_qpu *q)
{
    return q->role == VC4_VPM_ROLE_CS || q->role == VC4_VPM_ROLE_VS;
}

/* After bytes of generic row `row` were marked in the record: the first
 * row accessed twice (again: some of the bytes were marked already) is
 * remembered, and the rows the program touched (the reset clears those). */
static void track_note(struct vc4_vpm_track *t, bool write, unsigned row, bool again,
                       const struct vc4_location *loc)
{
    int16_t *dup = write ? &t->wr_dup_row : &t->rd_dup_row;
    if (again && *dup < 0) {
        *dup = (int16_t)row;
        *(write ? &t->wr_dup_pc : &t->rd_dup_pc) = loc ? loc->addr : 0;
    }
    uint8_t *rows = write ? &t->wr_rows : &t->rd_rows;
    if (row >= *rows)
        *rows = (uint8_t)(row + 1);
}

/* Record that elements touched bytes `bytes` of generic row `row`, column
 * col (of a tracked QPU). */
static void track_access(struct vc4_vpm_track *t, bool write, unsigned row, unsigned col,
                         unsigned bytes, const struct vc4_location *loc)
{
    uint8_t *m = write ? &t->wr[row][col] : &t->rd[row][col];
    bool again = (*m & bytes) != 0;
    *m |= (uint8_t)bytes;
    track_note(t, write, row, again, loc);
}

/* Has a tracked QPU touched generic row `row` before (track_row would
 * find it again and remember the place)? */
static bool row_touched(const struct vc4_vpm_track *t, bool write, unsigned row)
{
    const uint8_t *m = write ? t->wr[row] : t->rd[row];
    uint8_t any = 0;
    for (unsigned c = 0; c < VC4_VPM_ROW_WORDS; c++)
        any |= m[c];
    return (any & 0xFu) != 0;
}

/* track_access of all 4 bytes of every column of a row, at once (the
 * whole-row reads and writes of vertex and coordinate shaders). */
static void track_row(struct vc4_vpm_track *t, bool write, unsigned row, const struct vc4_location *loc)
{
    bool again = row_touched(t, write, row);
    memset(write ? t->wr[row] : t->rd[row], 0xF, VC4_VPM_ROW_WORDS);
    track_note(t, write, row, again, loc);
}

/* Fragment shaders cannot access the VPM or the VCD [S3, quoting G]: the
 * FIFO is shared with varying interpolation.  Reported once per program;
 * the access is still carried out (hardware: corrupted varyings). */
static unsigned fs_access(struct vc4_vpm *v, unsigned qpu, const char *what,
                          const struct vc4_diag_sink *sink, const struct vc4_location *loc)
{
    struct vc4_vpm_qpu *q = &v->q[qpu];
    if (q->role != VC4_VPM_ROLE_FS || q->fs_reported)
        return 0;
    q->fs_reported = true;
    vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_FS_VPM_ACCESS, loc,
                    "fragment shader accesses the VPM (%s): the VPM/VCD FIFO is shared with varying "
                    "interpolation, so fragment shaders cannot use it (hardware: corrupted varyings)",
                    what);
    return VC4_VPM_EV_FS_ACCESS;
}

static bool bad_qpu(unsigned qpu, const struct vc4_diag_sink *sink,
                    const struct vc4_location *loc)
{
    if (qpu < VC4_VPM_MAX_QPUS)
        return false;
    vc4_diag_emit(sink, VC4_ERROR, VC4_DIAG_FAULT, UNIT, loc, "QPU number %u out of range", qpu);
    return true;
}

static struct vc4_vpm_generic generic_decode(uint32_t w, bool is_read, uint64_t now)
{
    struct vc4_vpm_generic g;
    memset(&g, 0, sizeof g);
    g.valid = true;
    g.horiz = FLD(w, VC4_VPM_GEN_HORIZ) != 0;
    g.laned = FLD(w, VC4_VPM_GEN_LANED) != 0;
    g.size = (uint8_t)FLD(w, VC4_VPM_GEN_SIZE);
    unsigned stride = FLD(w, VC4_VPM_GEN_STRIDE);
    g.stride = (uint8_t)(stride ? stride : 64u);
    g.addr = FLD(w, VC4_VPM_GEN_ADDR);
    if (g.size <= VC4_VPM_SIZE_32)
        g.addr &= (1u << vpm_sizes[g.size].addr_bits) - 1u;
    if (is_read) {
        unsigned num = FLD(w, VC4_VPM_GEN_NUM);
        g.left = num ? num : 16u;
        g.full = num == 0;
        g.setup_at = now;
    }
    return g;
}

/* Where element i of a generic access lands: word index and bit shift. */
struct vpm_slot {
    unsigned word;
    unsigned shift;
};

static struct vpm_slot generic_slot(const struct vc4_vpm_generic *g, unsigned i)
{
    const struct vpm_size_info *si = &vpm_sizes[g->size];
    unsigned sel = g->addr & ((1u << si->sel_bits) - 1u);
    unsigned rest = g->addr >> si->sel_bits; /* Y (horizontal) or {Y[5:4], X} (vertical) */
    unsigned lanes = 4u / si->elem_bytes;    /* elements per word: 4, 2, 1 */
    unsigned row, col, lane;
    bool laned = g->laned && g->size != VC4_VPM_SIZE_32;
    if (g->horiz) {
        row = rest;
        if (laned) {
            col = i;
            lane = sel;
        } else {
            /* packed: block `sel` of 16/lanes words along the row */
            col = sel * (VC4_VPM_ROW_WORDS / lanes) + i / lanes;
            lane = i % lanes;
        }
    } else {
        unsigned x = rest & 15u, y = (rest >> 4) * 16u;
        col = x;
        if (laned) {
            row = y + i;
            lane = sel;
        } else {
            /* packed: block `sel` of 16/lanes rows down the column */
            row = y + sel * (16u / lanes) + i / lanes;
            lane = i % lanes;
        }
    }
    row %= VC4_VPM_GENERIC_ROWS;
    return (struct vpm_slot){row * VC4_VPM_ROW_WORDS + col, lane * si->elem_bytes * 8u};
}

/* The storage word of a generic slot for a QPU whose window starts at
 * base (0 for user programs). */
static unsigned slot_word(unsigned base, struct vpm_slot s)
{
    return (base * VC4_VPM_ROW_WORDS + s.word) % VPM_WORDS;
}

static void generic_advance(struct vc4_vpm_generic *g)
{
    g->addr = (g->addr + g->stride) & ((1u << vpm_sizes[g->size].addr_bits) - 1u);
}

static unsigned bad_size(const struct vc4_diag_sink *sink, const struct vc4_location *loc,
                         const char *what)
{
    vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_VPM_SETUP_SIZE, loc,
                    "generic VPM %s setup has the reserved SIZE 3; ignored", what);
    return VC4_VPM_EV_BAD_SETUP;
}

/* A write setup that reports nothing, carried out: a generic setup of
 * 8, 16 or 32 bits, a VDW setup with an element mode, a VDW stride within
 * the guide's 13 bits.  False, with nothing done, for anything else. */
static bool wr_setup_quiet(struct vc4_vpm_qpu *q, uint32_t value, uint64_t now)
{
    switch (FLD(value, VC4_VPM_ID)) {
    case VC4_VPM_ID_GENERIC: {
        struct vc4_vpm_generic g = generic_decode(value, false, now);
        if (g.size > VC4_VPM_SIZE_32)
            return false;
        q->wr = g;
        return true;
    }
    case VC4_VPM_ID_DMA_BASIC:
        if (!dma_mode_decode(FLD(value, VC4_VDW_MODEW)).valid)
            return false;
        q->vdw_basic = value;
        return true;
    case VC4_VPM_ID_DMA_EXTRA:
        if (FLD(value, VC4_VDW_STRIDE) > VC4_VPM_DOCUMENTED_PITCH_MAX)
            return false;
        q->vdw_stride = value;
        return true;
    default:
        return false;
    }
}

/* (a fragment shader's setup is a rule, fs_access; a vertex or coordinate
 * shader's is the user program's: its rows are placed at write and read) */
bool vc4_vpm_try_wr_setup(struct vc4_vpm *v, unsigned qpu, uint32_t value, uint64_t now)
{
    return qpu < VC4_VPM_MAX_QPUS && v->q[qpu].role != VC4_VPM_ROLE_FS && wr_setup_quiet(&v->q[qpu], value, now);
}

unsigned vc4_vpm_wr_setup(struct vc4_vpm *v, unsigned qpu, uint32_t value, uint64_t now,
                          const struct vc4_diag_sink *sink, const struct vc4_location *loc)
{
    if (bad_qpu(qpu, sink, loc))
        return VC4_VPM_EV_BAD_QPU;
    struct vc4_vpm_qpu *q = &v->q[qpu];
    unsigned fs = fs_access(v, qpu, "VPMVCD_WR_SETUP", sink, loc);
    if (fs)
        return fs; /* not carried out: the FIFO belongs to the varyings */
    if (wr_setup_quiet(q, value, now))
        return 0;
    /* (what is left reports) */
    switch (FLD(value, VC4_VPM_ID)) {
    case VC4_VPM_ID_GENERIC: /* (8, 16 and 32 bits were set above) */
        return bad_size(sink, loc, "write");
    case VC4_VPM_ID_DMA_BASIC: /* (a MODEW that is an element mode was set above) */
        q->vdw_basic = value;
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_VDW_MODEW, loc,
                        "VDW setup 0x%08x has MODEW 1 (not an element mode); treated as 32-bit", value);
        return VC4_VPM_EV_BAD_SETUP;
    case VC4_VPM_ID_DMA_EXTRA: {
        q->vdw_stride = value;
        /* 16 bits [A]; above the guide's 13 only a note: GPU_FFT's strides
         * 16320, 32704 and 65472 work on a Pi 1 [P]. */
        unsigned stride = FLD(value, VC4_VDW_STRIDE);
        if (!q->wide_stride_noted)
            vc4_rule_report(sink, VC4_NOTE, UNIT, VC4_RULE_VDW_STRIDE_WIDTH, loc,
                            "VDW stride %u is beyond the guide's 13 bits; the field is 16 bits wide "
                            "on hardware (GPU_FFT relies on it); noted once per program", stride);
        q->wide_stride_noted = true;
        return VC4_VPM_EV_WIDE_STRIDE;
    }
    default:
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_VPM_SETUP_ID, loc,
                        "VPMVCD_WR_SETUP 0x%08x has the reserved ID 01; ignored", value);
        return VC4_VPM_EV_BAD_SETUP;
    }
}

static void fifo_fill(struct vc4_vpm *v, unsigned qpu);

/*
 * Which read setups are taken.  Two sources disagree on their face:
 *  [A] measured: "the VPM read setups cannot be queued.  Only if the
 *      result of the last VPM read setup is fully transferred to the VPM
 *      FIFO, i.e. there is no more than one value outstanding, a new
 *      setup is accepted": 2 reads then 2 more -> the second setup is
 *      ignored (a third read deadlocks); 1 read then 3 -> fine.
 *  [P] Mesa's vc4 vertex/coordinate shaders with more than 16 input
 *      words write up to 4 setups back to back before reading, each
 *      NUM = 16 (encoded 0) except the last, and run on Pis (Mesa's CI
 *      on Pi 3s).
 * Model (UNVERIFIED; fits both and nothing contradicts it): a setup is
 * ignored when the latest accepted one asked for fewer than 16 vectors
 * and more than one of its values is unread, as [A] measured; after a
 * 16-vector setup (NUM field 0, which may be what the hardware's
 * "outstanding" test sees) the new one queues behind it, up to
 * VC4_VPM_READ_SETUPS setups with values outstanding ([P]: Mesa's 4;
 * a fifth is ignored).  Reads drain the setups in order.
 */
static bool rd_latest_busy(const struct vc4_vpm_qpu *q) { return q->rd.valid && q->rd.left > 1 && !q->rd.full; }
static bool rd_queue_full(const struct vc4_vpm_qpu *q)
{
    return q->rd.valid && q->rd.left > 0 && q->rd_nqueued == VC4_VPM_READ_SETUPS - 1;
}

/* What a read setup does when it reports nothing (a VDR setup with a
 * documented pitch, a generic setup of 8 to 32 bits that is taken); false,
 * with nothing done, otherwise. */
static bool rd_setup_quiet(struct vc4_vpm *v, unsigned qpu, uint32_t value, uint64_t now)
{
    struct vc4_vpm_qpu *q = &v->q[qpu];
    if (FLD(value, VC4_VDR_ID)) {
        if (FLD(value, VC4_VDR_EXT_ID) != VC4_VDR_EXT_ID_VALUE) {
            q->vdr_basic = value;
            return true;
        }
        if (FLD(value, VC4_VDR_EXT_PITCH) > VC4_VPM_DOCUMENTED_PITCH_MAX)
            return false;
        q->vdr_ext_pitch = value;
        return true;
    }
    if (FLD(value, VC4_VPM_ID) != VC4_VPM_ID_GENERIC)
        return false;
    struct vc4_vpm_generic g = generic_decode(value, true, now);
    if (g.size > VC4_VPM_SIZE_32 || rd_latest_busy(q) || rd_queue_full(q))
        return false;
    if (q->rd.valid && q->rd.left > 0)
        q->rd_queued[q->rd_nqueued++] = q->rd;
    q->rd = g;
    q->rd_lost = false;
    fifo_fill(v, qpu);
    return true;
}

bool vc4_vpm_try_rd_setup(struct vc4_vpm *v, unsigned qpu, uint32_t value, uint64_t now)
{
    return qpu < VC4_VPM_MAX_QPUS && v->q[qpu].role != VC4_VPM_ROLE_FS && rd_setup_quiet(v, qpu, value, now);
}

unsigned vc4_vpm_rd_setup(struct vc4_vpm *v, unsigned qpu, uint32_t value, uint64_t now,
                          const struct vc4_diag_sink *sink, const struct vc4_location *loc)
{
    if (bad_qpu(qpu, sink, loc))
        return VC4_VPM_EV_BAD_QPU;
    struct vc4_vpm_qpu *q = &v->q[qpu];
    unsigned fs = fs_access(v, qpu, "VPMVCD_RD_SETUP", sink, loc);
    if (fs)
        return fs;
    if (rd_setup_quiet(v, qpu, value, now))
        return 0;
    /* (what is left reports) */
    if (FLD(value, VC4_VDR_ID)) { /* (an extended pitch beyond the guide's 13 bits) */
        q->vdr_ext_pitch = value;
        if (!q->wide_pitch_noted)
            vc4_rule_report(sink, VC4_NOTE, UNIT, VC4_RULE_VDR_PITCH_WIDTH, loc,
                            "VDR extended pitch %u is beyond the guide's 13 bits; honoured in full "
                            "(py-videocore's sgemm loads with pitches of 8192 and more on a Pi 3); "
                            "noted once per program", (unsigned)FLD(value, VC4_VDR_EXT_PITCH));
        q->wide_pitch_noted = true;
        return VC4_VPM_EV_WIDE_PITCH;
    }
    if (FLD(value, VC4_VPM_ID) != VC4_VPM_ID_GENERIC) {
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_VPM_SETUP_ID, loc,
                        "VPMVCD_RD_SETUP 0x%08x has the reserved ID 01; ignored", value);
        return VC4_VPM_EV_BAD_SETUP;
    }
    if (generic_decode(value, true, now).size > VC4_VPM_SIZE_32)
        return bad_size(sink, loc, "read");
    /* (not taken: see above) */
    if (rd_latest_busy(q))
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_VPM_SETUP_OUTSTANDING, loc,
                        "VPM read setup 0x%08x ignored: %u values of the previous setup (of "
                        "fewer than 16) are still unread", value, (unsigned)q->rd.left);
    else
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_VPM_SETUP_OUTSTANDING, loc,
                        "VPM read setup 0x%08x ignored: %u read setups already have values "
                        "unread", value, VC4_VPM_READ_SETUPS);
    q->rd_lost = true;
    return VC4_VPM_EV_SETUP_IGNORED;
}

/* A whole row of 32-bit words written horizontally at the generic write
 * address (the placement generic_slot gives), which advances. */
static void write_row(struct vc4_vpm *v, const struct vc4_vpm_qpu *q, struct vc4_vpm_generic *g,
                      const uint32_t val[16])
{
    unsigned row = g->addr % VC4_VPM_GENERIC_ROWS;
    memcpy(&v->words[((q->wr_base_row + row) % VC4_VPM_MAX_ROWS) * VC4_VPM_ROW_WORDS], val, 16 * sizeof val[0]);
    generic_advance(g);
    v->stats.generic_writes++;
}

/* vc4_vpm_try_write's record of a shader's row (not a user program's): a
 * fragment shader's access is a rule, and a row a vertex or coordinate
 * shader writes twice is remembered with its place (false: the general
 * way).  (A call: the user programs' writes stay a few instructions.) */
static VC4_NOINLINE bool try_track_write(struct vc4_vpm *v, unsigned qpu, const struct vc4_vpm_generic *g)
{
    unsigned row = g->addr % VC4_VPM_GENERIC_ROWS;
    if (!tracked(&v->q[qpu]) || row_touched(&v->track[qpu], true, row))
        return false;
    track_row(&v->track[qpu], true, row, NULL);
    return true;
}

bool vc4_vpm_try_write(struct vc4_vpm *v, unsigned qpu, const uint32_t val[16])
{
    if (qpu >= VC4_VPM_MAX_QPUS)
        return false;
    struct vc4_vpm_qpu *q = &v->q[qpu];
    struct vc4_vpm_generic *g = &q->wr;
    if (!g->valid || g->size != VC4_VPM_SIZE_32 || !g->horiz ||
        (VC4_UNLIKELY(q->role != VC4_VPM_ROLE_USER) && !try_track_write(v, qpu, g)))
        return false;
    write_row(v, q, g, val);
    return true;
}

unsigned vc4_vpm_write(struct vc4_vpm *v, unsigned qpu, uint16_t mask, const uint32_t val[16],
                       uint64_t now, const struct vc4_diag_sink *sink,
                       const struct vc4_location *loc)
{
    (void)now;
    if (bad_qpu(qpu, sink, loc))
        return VC4_VPM_EV_BAD_QPU;
    struct vc4_vpm_generic *g = &v->q[qpu].wr;
    unsigned ev = 0;
    if (mask != 0xFFFFu) {
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_PERIPH_COND_WRITE, loc,
                        "conditional VPM write (mask 0x%04x): hardware writes undefined data to "
                        "the other elements; emulator leaves them unchanged", mask);
        ev |= VC4_VPM_EV_COND_WRITE;
    }
    if (!g->valid) {
        /* No setup since reset: the register holds 0 = 8-bit vertical
         * packed at address 0, stride 64.  Use that, as the hardware would. */
        *g = generic_decode(0, false, now);
    }
    struct vc4_vpm_qpu *q = &v->q[qpu];
    ev |= fs_access(v, qpu, "VPM_WRITE", sink, loc);
    bool trk = tracked(q);
    if (g->size == VC4_VPM_SIZE_32 && g->horiz && mask == 0xFFFFu) {
        /* the common case: one whole row */
        if (trk)
            track_row(&v->track[qpu], true, g->addr % VC4_VPM_GENERIC_ROWS, loc);
        write_row(v, q, g, val);
        return ev;
    }
    unsigned bytes = vpm_sizes[g->size].elem_bytes;
    unsigned bits = bytes * 8u;
    uint32_t emask = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
    for (unsigned i = 0; i < 16; i++) {
        if (!(mask >> i & 1u))
            continue;
        struct vpm_slot s = generic_slot(g, i);
        unsigned wi = slot_word(q->wr_base_row, s);
        uint32_t w = v->words[wi];
        w = (w & ~(emask << s.shift)) | ((val[i] & emask) << s.shift);
        v->words[wi] = w;
        if (trk)
            track_access(&v->track[qpu], true, s.word / VC4_VPM_ROW_WORDS, s.word % VC4_VPM_ROW_WORDS,
                         ((1u << bytes) - 1u) << (s.shift / 8u), loc);
    }
    generic_advance(g);
    v->stats.generic_writes++;
    return ev;
}

/* The vector a generic read setup in state g reads now. */
static void generic_data(const struct vc4_vpm *v, unsigned qpu, const struct vc4_vpm_generic *g, uint32_t out[16])
{
    const struct vc4_vpm_qpu *q = &v->q[qpu];
    if (g->size == VC4_VPM_SIZE_32 && g->horiz) { /* fast path: one whole row */
        unsigned row = g->addr % VC4_VPM_GENERIC_ROWS;
        memcpy(out, &v->words[((q->rd_base_row + row) % VC4_VPM_MAX_ROWS) * VC4_VPM_ROW_WORDS],
               16 * sizeof out[0]);
        return;
    }
    unsigned bytes = vpm_sizes[g->size].elem_bytes;
    unsigned bits = bytes * 8u;
    uint32_t emask = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
    for (unsigned i = 0; i < 16; i++) {
        struct vpm_slot s = generic_slot(g, i);
        /* 8- and 16-bit values are returned zero-extended (see docs/vpm.md). */
        out[i] = (v->words[slot_word(q->rd_base_row, s)] >> s.shift) & emask;
    }
}

/* The access record (vsi.c's rules) of a read the QPU takes, of the
 * vector a setup in state g read. */
static void generic_track(struct vc4_vpm *v, unsigned qpu, const struct vc4_vpm_generic *g,
                          const struct vc4_location *loc)
{
    if (!tracked(&v->q[qpu]))
        return;
    if (g->size == VC4_VPM_SIZE_32 && g->horiz) {
        track_row(&v->track[qpu], false, g->addr % VC4_VPM_GENERIC_ROWS, loc);
        return;
    }
    unsigned bytes = vpm_sizes[g->size].elem_bytes;
    for (unsigned i = 0; i < 16; i++) {
        struct vpm_slot s = generic_slot(g, i);
        track_access(&v->track[qpu], false, s.word / VC4_VPM_ROW_WORDS, s.word % VC4_VPM_ROW_WORDS,
                     ((1u << bytes) - 1u) << (s.shift / 8u), loc);
    }
}

static void generic_fetch(struct vc4_vpm *v, unsigned qpu, const struct vc4_vpm_generic *g,
                          uint32_t out[16], const struct vc4_location *loc)
{
    generic_data(v, qpu, g, out);
    generic_track(v, qpu, g, loc);
}

/* The read setups' unread vectors in order: queued setups first, then rd. */
static struct vc4_vpm_generic *read_setup(struct vc4_vpm_qpu *q, unsigned i)
{
    return i < q->rd_nqueued ? &q->rd_queued[i] : &q->rd;
}

/* Fill the read FIFO up to VC4_VPM_READ_FIFO vectors from the unread
 * vectors of the setups (vpm.h VC4_VPM_READ_FIFO): the entries already
 * there are the first unread ones, so the next to fill is unread vector
 * number rd_fifo_n. */
static void fifo_fill(struct vc4_vpm *v, unsigned qpu)
{
    struct vc4_vpm_qpu *q = &v->q[qpu];
    while (q->rd_fifo_n < VC4_VPM_READ_FIFO) {
        unsigned skip = q->rd_fifo_n;
        const struct vc4_vpm_generic *src = NULL;
        for (unsigned i = 0; i <= q->rd_nqueued; i++) {
            const struct vc4_vpm_generic *g = read_setup(q, i);
            uint32_t left = g->valid ? g->left : 0;
            if (skip < left) {
                src = g;
                break;
            }
            skip -= left;
        }
        if (!src)
            return; /* every unread vector is in the FIFO */
        struct vc4_vpm_generic at = *src;
        for (unsigned k = 0; k < skip; k++)
            generic_advance(&at);
        struct vc4_vpm_fifo_entry *e = &q->rd_fifo[(q->rd_fifo_head + q->rd_fifo_n) % VC4_VPM_READ_FIFO];
        e->at = at;
        generic_data(v, qpu, &at, e->data);
        q->rd_fifo_n++;
    }
}

/* The QPU takes the FIFO's oldest vector, which is the next of the setup
 * in g (the caller tops the FIFO up after).  An empty FIFO with values
 * unread cannot happen (every change to the setups fills it); should it,
 * the vector is read as the VPM holds it now. */
static void fifo_take(struct vc4_vpm *v, unsigned qpu, const struct vc4_vpm_generic *g, uint32_t out[16],
                      const struct vc4_location *loc)
{
    struct vc4_vpm_qpu *q = &v->q[qpu];
    if (q->rd_fifo_n == 0) {
        generic_fetch(v, qpu, g, out, loc);
        return;
    }
    const struct vc4_vpm_fifo_entry *e = &q->rd_fifo[q->rd_fifo_head];
    memcpy(out, e->data, sizeof e->data);
    generic_track(v, qpu, &e->at, loc);
    q->rd_fifo_head = (uint8_t)((q->rd_fifo_head + 1u) % VC4_VPM_READ_FIFO);
    q->rd_fifo_n--;
}

unsigned vc4_vpm_read(struct vc4_vpm *v, unsigned qpu, uint32_t out[16], uint64_t now,
                      uint64_t *ready, const struct vc4_diag_sink *sink,
                      const struct vc4_location *loc)
{
    uint64_t at = now;
    if (!ready)
        ready = &at;
    *ready = now;
    if (bad_qpu(qpu, sink, loc)) {
        memset(out, 0, 16 * sizeof out[0]);
        return VC4_VPM_EV_BAD_QPU;
    }
    struct vc4_vpm_qpu *q = &v->q[qpu];
    unsigned ev = fs_access(v, qpu, "VPM_READ", sink, loc);
    if (q->rd_nqueued) {
        /* an earlier accepted setup's values come first */
        struct vc4_vpm_generic *e = &q->rd_queued[0];
        if (now - e->setup_at < VC4_VPM_READ_LATENCY)
            *ready = e->setup_at + VC4_VPM_READ_LATENCY;
        v->stats.generic_reads++;
        fifo_take(v, qpu, e, out, loc);
        generic_advance(e);
        if (--e->left == 0) {
            q->rd_nqueued--;
            memmove(&q->rd_queued[0], &q->rd_queued[1], q->rd_nqueued * sizeof q->rd_queued[0]);
        }
        fifo_fill(v, qpu);
        return ev;
    }
    struct vc4_vpm_generic *g = &q->rd;
    if ((!g->valid || g->left == 0) && q->rd_lost) {
        /* The FIFO is empty and the setup that was to fill it was ignored:
         * hardware blocks on the empty FIFO for good [A: "if you request 2
         * reads with the first write to vr_setup and another two reads with
         * the second write, then the second job is ignored and you can read
         * only two values without a deadlock"]. */
        if (!q->deadlock_reported)
            vc4_rule_report(sink, VC4_ERROR, UNIT, VC4_RULE_VPM_READ_DEADLOCK, loc,
                            "VPM read with the FIFO empty after an ignored read setup (one "
                            "given while more than one value of the previous setup was unread): "
                            "the QPU hangs here, as on hardware");
        q->deadlock_reported = true;
        memset(out, 0, 16 * sizeof out[0]);
        *ready = VC4_VPM_NEVER;
        return ev | VC4_VPM_EV_DEADLOCK;
    }
    v->stats.generic_reads++;
    if (!g->valid || g->left == 0) {
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_VPM_READ_OVERRUN, loc,
                        "VPM read beyond the number of vectors the read setup asked for "
                        "(hardware: garbage or a hang); emulator continues at the next address");
        ev |= VC4_VPM_EV_READ_OVERRUN;
        if (!g->valid)
            *g = generic_decode(0, true, now - VC4_VPM_READ_LATENCY);
        generic_fetch(v, qpu, g, out, loc); /* (no FIFO entry: read as it is now) */
        generic_advance(g);
        g->left = 0; /* (the decoded default asks for none: nothing queued behind it) */
        return ev;
    }
    if (now - g->setup_at < VC4_VPM_READ_LATENCY) {
        /* Too early for the guide ("garbage", [G p.56, S3]); on hardware the
         * read blocks until the data is in the FIFO [A], which GPU_FFT and
         * every Mesa vertex shader rely on [P].  No diagnostic: the static
         * validator notes the portability point (vpm-read-too-early). */
        *ready = g->setup_at + VC4_VPM_READ_LATENCY;
    }
    fifo_take(v, qpu, g, out, loc);
    generic_advance(g);
    g->left--;
    fifo_fill(v, qpu);
    return ev;
}

bool vc4_vpm_try_read(struct vc4_vpm *v, unsigned qpu, uint32_t out[16], uint64_t now)
{
    if (qpu >= VC4_VPM_MAX_QPUS)
        return false;
    struct vc4_vpm_qpu *q = &v->q[qpu];
    struct vc4_vpm_generic *g = &q->rd;
    /* (vc4_vpm_read's commonest way: the current setup's next vector, its
     * data there, no earlier setup queued, no rule) */
    if (q->role == VC4_VPM_ROLE_FS || q->rd_nqueued || !g->valid || g->left == 0 ||
        now - g->setup_at < VC4_VPM_READ_LATENCY)
        return false;
    const struct vc4_vpm_generic *at = q->rd_fifo_n ? &q->rd_fifo[q->rd_fifo_head].at : g;
    if (at->size != VC4_VPM_SIZE_32 || !at->horiz ||
        (tracked(q) && row_touched(&v->track[qpu], false, at->addr % VC4_VPM_GENERIC_ROWS)))
        return false;
    v->stats.generic_reads++;
    fifo_take(v, qpu, g, out, NULL);
    generic_advance(g);
    g->left--;
    fifo_fill(v, qpu);
    return true;
}

unsigned vc4_vpm_program_end(struct vc4_vpm *v, unsigned qpu, const struct vc4_diag_sink *sink,
                             const struct vc4_location *loc)
{
    if (bad_qpu(qpu, sink, loc))
        return VC4_VPM_EV_BAD_QPU;
    struct vc4_vpm_qpu *q = &v->q[qpu];
    unsigned left = q->rd.valid ? q->rd.left : 0;
    for (unsigned i = 0; i < q->rd_nqueued; i++)
        left += q->rd_queued[i].left;
    q->rd.left = 0;
    q->rd_nqueued = 0;
    q->rd_fifo_n = 0;
    if (!left)
        return 0;
    vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_VPM_READ_UNCONSUMED, loc,
                    "program ended with %u programmed VPM read(s) not consumed", left);
    return VC4_VPM_EV_UNCONSUMED;
}

/* ---- DMA ------------------------------------------------------------------ */

/* A DMA element position in the VPM: a word index within the DMA window
 * (7-bit Y) and a lane.  `lin` counts lanes: ((Y*16)+X)*lanes + lane. */
struct dma_ctx {
    struct vc4_vpm *v;
    struct vc4_mem *mem;
    struct dma_mode m;
    unsigned ev;
    bool out_of_vpm_reported, fault_reported;
    const struct vc4_diag_sink *sink;
    const struct vc4_location *loc;
    const char *engine;
};

static unsigned dma_word(struct dma_ctx *c, unsigned row, unsigned col)
{
    unsigned vpm_rows = c->v->size_bytes / (VC4_VPM_ROW_WORDS * 4u);
    row %= VC4_VPM_DMA_ROWS;
    if (row >= vpm_rows) {
        if (!c->out_of_vpm_reported)
            vc4_rule_report(c->sink, VC4_WARNING, UNIT, VC4_RULE_VPM_DMA_RANGE, c->loc,
                            "%s reaches VPM row %u beyond the %u KB VPM; wrapped", c->engine, row,
                            c->v->size_bytes / 1024u);
        c->out_of_vpm_reported = true;
        c->ev |= VC4_VPM_EV_OUT_OF_VPM;
        row %= vpm_rows;
    }
    return (row * VC4_VPM_ROW_WORDS + col) % VPM_WORDS;
}

/*
 * Element e of unit u (VDW; VDR passes u = 0 with Y already moved by
 * VPITCH).  Horizontal: the unit is VPM row Y + u and its elements run
 * along the row from X (in element-sized lanes, continuing into the next
 * row past column 15).  Vertical: the unit is the lane column (X, lane) + u
 * (lanes first, then columns) and its elements run down from row Y; a unit
 * past column 15 wraps to column 0 sixteen rows further down, as measured
 * [P: asurati/x03 d2.c, a 4-unit vertical VDW from Y = 0, X = 15 stored
 * (0, 15), then (16, 0), (16, 1), (16, 2): "VDW (in vertical mode) adds to
 * the X address, and if the resultant X wraps around, only then adds 16 to
 * the Y address"; its note names the first unit "Y=16,X=15", read here as
 * the start it was given, Y = 0].
 */
static void dma_pos(const struct dma_ctx *c, bool horiz, unsigned y, unsigned x, unsigned u,
                    unsigned e, unsigned *row, unsigned *col, unsigned *lane)
{
    unsigned lanes = 4u / c->m.elem_bytes;
    if (horiz) {
        unsigned lin = (x * lanes + c->m.lane) + e;
        *row = y + u + lin / (VC4_VPM_ROW_WORDS * lanes);
        lin %= VC4_VPM_ROW_WORDS * lanes;
        *col = lin / lanes;
        *lane = lin % lanes;
    } else {
        unsigned lin = (x * lanes + c->m.lane) + u;
        *row = y + e + lin / (VC4_VPM_ROW_WORDS * lanes) * VC4_VPM_VERT_BLOCK_ROWS;
        lin %= VC4_VPM_ROW_WORDS * lanes;
        *col = lin / lanes;
        *lane = lin % lanes;
    }
}

static void dma_fault(struct dma_ctx *c, uint32_t bus)
{
    if (!c->fault_reported)
        vc4_diag_emit(c->sink, VC4_ERROR, VC4_DIAG_FAULT, UNIT, c->loc,
                      "%s memory address 0x%08x is outside the %u MiB of RAM; nothing "
                      "transferred there", c->engine, bus, c->mem->size >> 20);
    c->fault_reported = true;
    c->ev |= VC4_VPM_EV_DMA_FAULT;
}

static uint64_t dma_cost(uint64_t rows, uint64_t bytes)
{
    return VC4_VPM_DMA_SETUP_CYCLES + rows * VC4_VPM_DMA_ROW_CYCLES +
           (bytes + VC4_VPM_DMA_BYTES_PER_CYCLE - 1) / VC4_VPM_DMA_BYTES_PER_CYCLE;
}

unsigned vc4_vpm_st_addr(struct vc4_vpm *v, struct vc4_mem *mem, unsigned qpu, uint32_t bus,
                         uint64_t now, const struct vc4_diag_sink *sink,
                         const struct vc4_location *loc)
{
    if (bad_qpu(qpu, sink, loc))
        return VC4_VPM_EV_BAD_QPU;
    unsigned fs = fs_access(v, qpu, "VPM_ST_ADDR (VDW store)", sink, loc);
    if (fs)
        return fs; /* not started */
    struct vc4_vpm_qpu *q = &v->q[qpu];
    uint32_t w = q->vdw_basic;
    if (FLD(w, VC4_VPM_ID) != VC4_VPM_ID_DMA_BASIC) {
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_VDW_NO_SETUP, loc,
                        "VPM_ST_ADDR written with no VDW basic setup on this QPU; no store");
        return VC4_VPM_EV_BAD_SETUP;
    }
    struct dma_ctx c = {.v = v, .mem = mem, .sink = sink, .loc = loc, .engine = "VDW"};
    c.m = dma_mode_decode(FLD(w, VC4_VDW_MODEW));
    unsigned units = FLD(w, VC4_VDW_UNITS), depth = FLD(w, VC4_VDW_DEPTH);
    units = units ? units : 128u;
    depth = depth ? depth : 128u;
    bool horiz = FLD(w, VC4_VDW_HORIZ) != 0;
    unsigned base = FLD(w, VC4_VDW_VPMBASE), x = base & 15u, y = base >> 4;
    /* Stride: bytes from the end of one unit to the start of the next; the
     * field is taken as 16 bits wide [A] (documented 13).  BLOCKMODE set
     * ignores the stride (units contiguous in memory). */
    uint32_t stride = FLD(q->vdw_stride, VC4_VDW_STRIDE);
    if (FLD(q->vdw_stride, VC4_VDW_BLOCKMODE))
        stride = 0;
    uint32_t row_bytes = depth * c.m.elem_bytes;
    uint32_t maddr = bus;
    unsigned vpm_rows = v->size_bytes / (VC4_VPM_ROW_WORDS * 4u);
    for (unsigned u = 0; u < units; u++) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        /* The common unit, copied whole: 32-bit elements along a row (into
         * the next ones) that neither wraps in the DMA window nor leaves the
         * VPM, to memory that has room for it: the words in VPM order, as
         * element by element below (which reports the rest). */
        unsigned last_row = y + u + (x + depth - 1u) / VC4_VPM_ROW_WORDS;
        if (horiz && c.m.elem_bytes == 4 && last_row < VC4_VPM_DMA_ROWS && last_row < vpm_rows &&
            vc4_mem_write(mem, maddr, &v->words[(y + u) * VC4_VPM_ROW_WORDS + x], row_bytes)) {
            maddr += row_bytes + stride;
            continue;
        }
#endif
        for (unsigned e = 0; e < depth; e++) {
            unsigned row, col, lane;
            dma_pos(&c, horiz, y, x, u, e, &row, &col, &lane);
            uint32_t word = v->words[dma_word(&c, row, col)];
            uint32_t a = maddr + e * c.m.elem_bytes;
            bool ok;
            if (c.m.elem_bytes == 4)
                ok = vc4_mem_write32(mem, a, word);
            else if (c.m.elem_bytes == 2)
                ok = vc4_mem_write16(mem, a, (uint16_t)(word >> (16u * lane)));
            else
                ok = vc4_mem_write8(mem, a, (uint8_t)(word >> (8u * lane)));
            if (!ok)
                dma_fault(&c, a);
        }
        maddr += row_bytes + stride;
    }
    uint64_t bytes = (uint64_t)units * row_bytes;
    v->vdw_last_bus = bus;
    v->vdw_last_span = (uint64_t)units * ((uint64_t)row_bytes + stride);
    uint64_t start = now > v->vdw_free_at ? now : v->vdw_free_at;
    if (start > now)
        c.ev |= VC4_VPM_EV_DMA_BUSY;
    uint64_t cost = dma_cost(units, bytes);
    v->vdw_free_at = q->vdw_done_at = start + cost;
    v->stats.vdw_jobs++;
    v->stats.vdw_bytes += bytes;
    v->stats.dma_cycles += cost;
    return c.ev;
}

unsigned vc4_vpm_ld_addr(struct vc4_vpm *v, struct vc4_mem *mem, unsigned qpu, uint32_t bus,
                         uint64_t now, const struct vc4_diag_sink *sink,
                         const struct vc4_location *loc)
{
    if (bad_qpu(qpu, sink, loc))
        return VC4_VPM_EV_BAD_QPU;
    unsigned fs = fs_access(v, qpu, "VPM_LD_ADDR (VDR load)", sink, loc);
    if (fs)
        return fs; /* not started */
    struct vc4_vpm_qpu *q = &v->q[qpu];
    uint32_t w = q->vdr_basic;
    if (!FLD(w, VC4_VDR_ID)) {
        vc4_rule_report(sink, VC4_WARNING, UNIT, VC4_RULE_VDR_NO_SETUP, loc,
                        "VPM_LD_ADDR written with no VDR basic setup on this QPU; no load");
        return VC4_VPM_EV_BAD_SETUP;
    }
    struct dma_ctx c = {.v = v, .mem = mem, .sink = sink, .loc = loc, .engine = "VDR"};
    c.m = dma_mode_decode(FLD(w, VC4_VDR_MODEW));
    unsigned rowlen = FLD(w, VC4_VDR_ROWLEN), nrows = FLD(w, VC4_VDR_NROWS);
    unsigned vpitch = FLD(w, VC4_VDR_VPITCH), mpitch = FLD(w, VC4_VDR_MPITCH);
    rowlen = rowlen ? rowlen : 16u;
    nrows = nrows ? nrows : 16u;
    vpitch = vpitch ? vpitch : 16u;
    /* Memory pitch: 8 * 2^MPITCH bytes, or the extended pitch when 0 [G
     * table 36], taken in full (vpm.h: VC4_VDR_EXT_PITCH). */
    uint32_t pitch = mpitch ? 8u << mpitch : FLD(q->vdr_ext_pitch, VC4_VDR_EXT_PITCH);
    bool horiz = !FLD(w, VC4_VDR_VERT);
    unsigned a11 = FLD(w, VC4_VDR_VPMADDR), x = a11 & 15u, y = a11 >> 4;
    for (unsigned r = 0; r < nrows; r++) {
        uint32_t maddr = bus + r * pitch;
        /* VPITCH adds to the VPM Y address in both orientations and leaves X
         * alone: measured, 0x8304080f (vertical, 4 rows of 16, VPITCH 16,
         * X = 15) fills column 15 at Y = 0, 16, 32, 48 [P: asurati/x03
         * d2.c]; py-videocore's vertical loads and QPULib's (ROWLEN 1, NROWS
         * 16, VPITCH 1, vertical) need the same.  (Only 32-bit vertical
         * loads were measured: 8/16-bit ones keep their lane, UNVERIFIED.) */
        unsigned yr = y + r * vpitch;
        for (unsigned e = 0; e < rowlen; e++) {
            unsigned row, col, lane;
            dma_pos(&c, horiz, yr, x, 0, e, &row, &col, &lane);
            unsigned wi = dma_word(&c, row, col);
            uint32_t a = maddr + e * c.m.elem_bytes;
            uint32_t val;
            bool ok;
            if (c.m.elem_bytes == 4) {
                ok = vc4_mem_read32(mem, a, &val);
                if (ok)
                    v->words[wi] = val;
            } else if (c.m.elem_bytes == 2) {
                uint16_t h;
                ok = vc4_mem_read16(mem, a, &h);
                unsigned sh = 16u * lane;
                if (ok)
                    v->words[wi] = (v->words[wi] & ~(0xFFFFu << sh)) | ((uint32_t)h << sh);
            } else {
                uint8_t b;
                ok = vc4_mem_read8(mem, a, &b);
                unsigned sh = 8u * lane;
                if (ok)
                    v->words[wi] = (v->words[wi] & ~(0xFFu << sh)) | ((uint32_t)b << sh);
            }
            if (!ok)
                dma_fault(&c, a);
        }
    }
    uint64_t bytes = (uint64_t)nrows * rowlen * c.m.elem_bytes;
    uint64_t start = now > v->vdr_free_at ? now : v->vdr_free_at;
    if (start > now)
        c.ev |= VC4_VPM_EV_DMA_BUSY;
    uint64_t cost = dma_cost(nrows, bytes);
    v->vdr_free_at = q->vdr_done_at = start + cost;
    v->stats.vdr_jobs++;
    v->stats.vdr_bytes += bytes;
    v->stats.dma_cycles += cost;
    return c.ev;
}

uint64_t vc4_vpm_st_wait(const struct vc4_vpm *v, unsigned qpu, uint64_t now)
{
    if (qpu >= VC4_VPM_MAX_QPUS)
        return now;
    return v->q[qpu].vdw_done_at > now ? v->q[qpu].vdw_done_at : now;
}

uint64_t vc4_vpm_ld_wait(const struct vc4_vpm *v, unsigned qpu, uint64_t now)
{
    if (qpu >= VC4_VPM_MAX_QPUS)
        return now;
    return v->q[qpu].vdr_done_at > now ? v->q[qpu].vdr_done_at : now;
}

uint32_t vc4_vpm_st_busy(const struct vc4_vpm *v, unsigned qpu, uint64_t now)
{
    return qpu < VC4_VPM_MAX_QPUS && v->q[qpu].vdw_done_at > now;
}

uint32_t vc4_vpm_ld_busy(const struct vc4_vpm *v, unsigned qpu, uint64_t now)
{
    return qpu < VC4_VPM_MAX_QPUS && v->q[qpu].vdr_done_at > now;
}
