/*
 * vpm.h - the Vertex Pipe Memory (VPM) and its DMA engines (VDR loads
 * memory -> VPM, VDW stores VPM -> memory), as QPU programs see them.
 *
 * Sources (see docs/vpm.md for the full discussion):
 *  [G]  VideoCore IV 3D Architecture Reference Guide (2013), section 7 and
 *       tables 32-36, as transcribed in ../shared/reference/v3d-hardware-facts.md
 *       section 8 and VC4C src/periphery/VPM.h.
 *  [S3] seed post 003 ("VPM, VCD, and VCM For Vertex Shaders"): the
 *       horizontal/vertical, packed/laned layouts, ADDR encodings, stride,
 *       NUM, 3-instruction read latency, and the VDW store 0x83904000.
 *  [A]  vc4asm "VideoCoreIV-addendum" (measured on hardware), section 7:
 *       early VPM reads block until the data is there ("No undefined data
 *       is returned when the reads are made too early"); read setups are
 *       not queued (a third read after two 2-read setups deadlocks); table
 *       35: the VDW stride is 16 bits; conditional peripheral writes are
 *       unsafe.
 *  [P]  programs that run on Pis (../shared/reference/v3d-hardware-facts.md,
 *       "Evidence from programs that ran on Pis"): asurati/x03 demo d2.c
 *       (VDR 0x8304080f fills column 15 at Y = 0, 16, 32, 48), py-videocore
 *       sgemm (VDR extended pitch >= 8192), GPU_FFT (VDW strides up to
 *       65472; VPM reads in branch delay slots right after vr_setup), Mesa
 *       vc4 vertex shaders (VPM reads 1 and 3 instructions after vr_setup;
 *       up to 4 read setups of 16 back to back, vc4_qpu_emit.c).
 *  Where [G]/[S3] and [A]/[P] disagree, the measurements win.
 *
 * The unit is standalone: it knows nothing of the QPU.  The QPU core calls
 * these functions when an instruction reads or writes one of the VPM
 * registers (raddr/waddr 48-50 in either file).  Every function returns a
 * set of VC4_VPM_EV_* bits describing what happened (0 = normal) and has
 * already sent a diagnostic for each event to the sink, at the severity
 * given next to the event; a strict-mode QPU may turn any non-zero result
 * but VC4_VPM_EV_NOTES into an error.  Nothing here prints, exits or touches host memory outside
 * the structs and struct vc4_mem.
 */
#ifndef VC4_EMU_VPM_H
#define VC4_EMU_VPM_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/mem.h"
#include "vc4kit/diag.h"

/* ---- geometry [G 7; facts 8.1] ------------------------------------------ */

#define VC4_VPM_ROW_WORDS 16u   /* a VPM row is 16 32-bit words (64 bytes) */
#define VC4_VPM_MAX_KB 16u      /* "fully configured systems may have up to 16 KB" [S3] */
#define VC4_VPM_MAX_ROWS (VC4_VPM_MAX_KB * 1024u / 4u / VC4_VPM_ROW_WORDS) /* 256 */
#define VC4_VPM_BCM2835_KB 12u  /* IDENT1.VPMSZ on a BCM2835 [facts 8.1] */
#define VC4_VPM_GENERIC_ROWS 64u /* generic QPU access: Y is 6 bits [G table 32] */
#define VC4_VPM_DMA_ROWS 128u   /* DMA X,Y addresses carry a 7-bit Y [G tables 34, 36] */
#define VC4_VPM_MAX_QPUS 16u    /* per-QPU setup state; a V3D has at most 16 QPUs */
#define VC4_VPM_VERT_BLOCK_ROWS 16u /* a vertical block is 16 rows (generic Y is a multiple of
                                     * 16 [S3]); a vertical DMA past column 15 moves down one [P] */
/* A generic read's data is in the FIFO 3 instructions after its setup
 * [G p.56, S3]; a read issued earlier stalls until then [A].  The exact
 * stall count is UNVERIFIED (VC4C quotes a forum measurement of "5 clock
 * stalls" between setup and first read). */
#define VC4_VPM_READ_LATENCY 3u
/* Read setups a QPU may have outstanding at once: Mesa's vc4 vertex and
 * coordinate shaders write up to 4 back to back ("There's a 4-entry FIFO
 * for VPMVCD reads", vc4_qpu_emit.c) [P].  Which setups are taken is in
 * vc4_vpm_rd_setup (UNVERIFIED model reconciling [A] and [P]). */
#define VC4_VPM_READ_SETUPS 4u
/* The read FIFO: the VPM block fills it with the next vectors of the read
 * setups as soon as it has room ("VRI has a FIFO in each direction, with
 * each FIFO able to hold four 32-bit-per-vertex values ... Once a read
 * setup reaches the other side of the FIFO, the VPM block will start
 * asynchronously reading vertex attributes and filling the read FIFO",
 * Mesa vc4_qpu_emit.c).  A vector in the FIFO keeps the value it had when
 * it was filled: a program that writes rows its read setups have still to
 * deliver reads the old values of the (up to 4) rows already in the FIFO.
 * (GL batches never do: their outputs have rows of their own, vsi.c.)
 * Filled at once when room appears (the fill's latency is UNVERIFIED). */
#define VC4_VPM_READ_FIFO 4u
/* The `ready` cycle of a read that never completes (a hardware deadlock). */
#define VC4_VPM_NEVER UINT64_MAX

/* ---- events (bit set returned by every call) ----------------------------- */
enum vc4_vpm_event {
    VC4_VPM_EV_DEADLOCK = 1u << 0,      /* error: read whose data never comes (its setup was
                                         * ignored [A]): the QPU hangs, as on hardware */
    VC4_VPM_EV_READ_OVERRUN = 1u << 1,  /* warning: read beyond the setup's NUM (HW: garbage/hang) */
    VC4_VPM_EV_SETUP_IGNORED = 1u << 2, /* warning: read setup ignored (vc4_vpm_rd_setup) [A] */
    VC4_VPM_EV_BAD_SETUP = 1u << 3,     /* warning: reserved setup ID, or VDR MODEW 1 */
    VC4_VPM_EV_COND_WRITE = 1u << 4,    /* warning: VPM write with a partial element mask [A] */
    VC4_VPM_EV_OUT_OF_VPM = 1u << 5,    /* warning: DMA touches VPM rows beyond VPMSZ (wrapped) */
    VC4_VPM_EV_DMA_FAULT = 1u << 6,     /* error: DMA memory address outside RAM; nothing moved there */
    VC4_VPM_EV_DMA_BUSY = 1u << 7,      /* note: DMA setup/start while the engine is busy (queued) */
    VC4_VPM_EV_WIDE_STRIDE = 1u << 8,   /* note: VDW stride > 8191, beyond the guide; works [A, P] */
    VC4_VPM_EV_UNCONSUMED = 1u << 9,    /* warning: program end with VPM reads outstanding [G p.24] */
    VC4_VPM_EV_BAD_QPU = 1u << 10,      /* error: QPU number >= VC4_VPM_MAX_QPUS (caller bug) */
    VC4_VPM_EV_FS_ACCESS = 1u << 11,    /* warning: VPM access from a fragment shader [S3] */
    VC4_VPM_EV_WIDE_PITCH = 1u << 12,   /* note: VDR extended pitch > 8191, beyond the guide [P] */
};
/* Events whose diagnostic is a note: normal operation, never a rule
 * violation (a strict-mode QPU carries on). */
#define VC4_VPM_EV_NOTES (VC4_VPM_EV_DMA_BUSY | VC4_VPM_EV_WIDE_STRIDE | VC4_VPM_EV_WIDE_PITCH)

/* ---- setup-word layouts: [G tables 32-36], facts 8.2 --------------------- */
/* Each field as (shift, width); decoded with vc4_bits(). */
#define VC4_VPM_FIELD(name, shift, width) \
    enum { name##_SHIFT = (shift), name##_WIDTH = (width) };

/* ID bits shared by VPMVCD_WR_SETUP and VPMVCD_RD_SETUP. */
VC4_VPM_FIELD(VC4_VPM_ID, 30, 2)          /* 00 generic, 10 VDW basic / VDR, 11 VDW stride */
#define VC4_VPM_ID_GENERIC 0u
#define VC4_VPM_ID_DMA_BASIC 2u
#define VC4_VPM_ID_DMA_EXTRA 3u
/* Generic block read/write setup (tables 32, 33). */
VC4_VPM_FIELD(VC4_VPM_GEN_NUM, 20, 4)     /* read only: vectors to read, 0 = 16 */
VC4_VPM_FIELD(VC4_VPM_GEN_STRIDE, 12, 6)  /* added to ADDR after each access, 0 = 64 */
VC4_VPM_FIELD(VC4_VPM_GEN_HORIZ, 11, 1)
VC4_VPM_FIELD(VC4_VPM_GEN_LANED, 10, 1)   /* ignored for 32-bit */
VC4_VPM_FIELD(VC4_VPM_GEN_SIZE, 8, 2)     /* 0 8-bit, 1 16-bit, 2 32-bit, 3 reserved */
VC4_VPM_FIELD(VC4_VPM_GEN_ADDR, 0, 8)
/* VDW basic setup (table 34). */
VC4_VPM_FIELD(VC4_VDW_UNITS, 23, 7)       /* rows (horizontal) / columns (vertical), 0 = 128 */
VC4_VPM_FIELD(VC4_VDW_DEPTH, 16, 7)       /* elements per unit, 0 = 128 */
VC4_VPM_FIELD(VC4_VDW_LANED, 15, 1)       /* write 0 */
VC4_VPM_FIELD(VC4_VDW_HORIZ, 14, 1)
VC4_VPM_FIELD(VC4_VDW_VPMBASE, 3, 11)     /* {Y[6:0], X[3:0]} */
VC4_VPM_FIELD(VC4_VDW_MODEW, 0, 3)        /* 0 32-bit; 2,3 16-bit (bit0 half); 4-7 8-bit (bits1:0 byte) */
/* VDW stride setup (table 35).  Documented 13 bits; measured 16 bits [A];
 * GPU_FFT stores with strides 16320, 32704 and 65472 and reaches its
 * published accuracy on a Pi 1 [P]. */
VC4_VPM_FIELD(VC4_VDW_BLOCKMODE, 16, 1)
VC4_VPM_FIELD(VC4_VDW_STRIDE, 0, 16)
/* The largest stride / pitch in the guide's documented 13 bits: beyond it
 * the emulator notes (once per program) that the program relies on
 * measured, undocumented behaviour. */
#define VC4_VPM_DOCUMENTED_PITCH_MAX 8191u
/* VDR basic setup (table 36); bit 31 = 1 and MODEW != 1. */
VC4_VPM_FIELD(VC4_VDR_ID, 31, 1)
VC4_VPM_FIELD(VC4_VDR_MODEW, 28, 3)       /* as VDW MODEW; value 1 selects the extended-pitch word */
VC4_VPM_FIELD(VC4_VDR_MPITCH, 24, 4)      /* pitch = 8 * 2^MPITCH bytes; 0 = extended pitch */
VC4_VPM_FIELD(VC4_VDR_ROWLEN, 20, 4)      /* 0 = 16 */
VC4_VPM_FIELD(VC4_VDR_NROWS, 16, 4)       /* 0 = 16 */
VC4_VPM_FIELD(VC4_VDR_VPITCH, 12, 4)      /* 0 = 16 */
VC4_VPM_FIELD(VC4_VDR_VERT, 11, 1)
VC4_VPM_FIELD(VC4_VDR_VPMADDR, 0, 11)     /* {Y[6:0], X[3:0]} */
/* VDR extended memory pitch setup: bits 31:28 = 1001.  The guide gives
 * the pitch 13 bits (12:0); py-videocore's sgemm loads rows 8192 bytes
 * and more apart with it and runs on a Pi 3 (Idein/qmkl#42: correct up to
 * 4096-float rows) [P], so the whole word below the ID is taken.  How many
 * of bits 27:13 the hardware really decodes is UNVERIFIED beyond 16384. */
VC4_VPM_FIELD(VC4_VDR_EXT_ID, 28, 4)
#define VC4_VDR_EXT_ID_VALUE 9u
VC4_VPM_FIELD(VC4_VDR_EXT_PITCH, 0, 28)

/* Element size codes of the generic SIZE field. */
enum vc4_vpm_size { VC4_VPM_SIZE_8 = 0, VC4_VPM_SIZE_16 = 1, VC4_VPM_SIZE_32 = 2 };

/* ---- state ------------------------------------------------------------------ */

/* A decoded generic setup (read or write). */
struct vc4_vpm_generic {
    bool valid;          /* a setup has been written since reset */
    bool horiz, laned;
    uint8_t size;        /* enum vc4_vpm_size */
    uint8_t stride;      /* 1..64 */
    uint32_t addr;       /* current ADDR (masked to its width) */
    uint32_t left;       /* reads: vectors still to read (0 = none) */
    bool full;           /* reads: the setup asked for 16 vectors (NUM = 0) */
    uint64_t setup_at;   /* reads: the instruction time of the setup */
};

/* What a QPU is running, for the VPM's point of view.  Vertex and
 * coordinate shaders address their batch's allocation: reads its input
 * rows (generic row 0 at rd_base_row, where the VCD put the attributes),
 * writes its output rows (generic row 0 at wr_base_row), two windows that
 * do not overlap (src/emu/vsi.c says why), and have their generic
 * accesses tracked byte by byte for the GL rules (src/emu/vsi.c);
 * fragment shaders must not touch the VPM at all (seed 003, quoting the
 * guide: the FIFO is shared with varying interpolation). */
enum vc4_vpm_role {
    VC4_VPM_ROLE_USER = 0, /* user program: rows from 0, untracked */
    VC4_VPM_ROLE_CS,       /* coordinate shader */
    VC4_VPM_ROLE_VS,       /* vertex shader */
    VC4_VPM_ROLE_FS,       /* fragment shader: any VPM access is a rule violation */
};

/* Per-byte access record of a tracked (CS/VS) QPU: bit b of [row][col] is
 * set when byte b of the word at generic row `row`, column `col` was
 * accessed; the first access of a byte already accessed is kept. */
struct vc4_vpm_track {
    uint8_t rd[VC4_VPM_GENERIC_ROWS][VC4_VPM_ROW_WORDS];
    uint8_t wr[VC4_VPM_GENERIC_ROWS][VC4_VPM_ROW_WORDS];
    uint8_t rd_rows, wr_rows;       /* every read (write) is in rows 0 .. rd_rows - 1 (wr_rows - 1) */
    int16_t rd_dup_row, wr_dup_row; /* -1 = none */
    uint32_t rd_dup_pc, wr_dup_pc;
};

/* A read FIFO entry: a vector as filled, with the setup's state it was
 * read at (for the GL rules' access record, made when the QPU takes it). */
struct vc4_vpm_fifo_entry {
    uint32_t data[16];
    struct vc4_vpm_generic at;
};

/* One QPU's view: the setups its VPM registers hold. */
struct vc4_vpm_qpu {
    uint8_t role;             /* enum vc4_vpm_role */
    bool fs_reported;         /* the fragment-shader rule was reported for this program */
    uint32_t rd_base_row;     /* CS/VS: generic row 0 of reads is this VPM row */
    uint32_t wr_base_row;     /* CS/VS: generic row 0 of writes is this VPM row */
    struct vc4_vpm_generic rd, wr;
    /* earlier accepted read setups with values still unread, oldest first;
     * reads drain them before rd */
    struct vc4_vpm_generic rd_queued[VC4_VPM_READ_SETUPS - 1];
    uint8_t rd_nqueued;
    /* the read FIFO (VC4_VPM_READ_FIFO), a ring: the next rd_fifo_n unread
     * vectors of the setups above, oldest at rd_fifo_head */
    struct vc4_vpm_fifo_entry rd_fifo[VC4_VPM_READ_FIFO];
    uint8_t rd_fifo_head, rd_fifo_n;
    bool rd_lost;             /* the latest read setup was ignored [A]: its reads never come */
    bool deadlock_reported;   /* the deadlock was reported for this program */
    bool wide_stride_noted;   /* the > 13-bit VDW stride note was given for this program */
    bool wide_pitch_noted;    /* ... and the > 13-bit VDR pitch note */
    uint32_t vdw_basic;       /* last VDW basic setup word (ID 10) */
    uint32_t vdw_stride;      /* last VDW stride setup word (ID 11) */
    uint32_t vdr_basic;       /* last VDR basic setup word */
    uint32_t vdr_ext_pitch;   /* last VDR extended pitch word */
    uint64_t vdw_done_at;     /* cycle at which this QPU's last store completes */
    uint64_t vdr_done_at;     /* ... and its last load */
};

struct vc4_vpm_stats {
    uint64_t generic_reads, generic_writes;  /* 16-wide vectors */
    uint64_t vdw_jobs, vdw_bytes, vdr_jobs, vdr_bytes;
    uint64_t dma_cycles;                     /* modelled engine busy time */
};

struct vc4_vpm {
    uint32_t words[VC4_VPM_MAX_ROWS * VC4_VPM_ROW_WORDS]; /* row-major, 16 words a row */
    struct vc4_vpm_track track[VC4_VPM_MAX_QPUS]; /* CS/VS access records */
    uint32_t size_bytes;  /* IDENT1.VPMSZ * 1024 (<= 16 KB) */
    uint32_t user_rsv;    /* VPMBASE.VPMURSV as last written (stored; not enforced) */
    struct vc4_vpm_qpu q[VC4_VPM_MAX_QPUS];
    uint64_t vdw_free_at; /* the single VDW engine is busy until this cycle */
    uint32_t vdw_last_bus;   /* the last VDW store wrote within [bus, bus + span) (a superset): */
    uint64_t vdw_last_span; /* cached instructions there are checked again (qpu.c) */
    uint64_t vdr_free_at; /* the single VDR engine likewise */
    struct vc4_vpm_stats stats;
};

/* Modelled DMA cost (a rough model, not measured): a fixed start-up plus
 * one cycle per 8 bytes (64-bit AXI beats) plus a per-row overhead. */
#define VC4_VPM_DMA_SETUP_CYCLES 16u
#define VC4_VPM_DMA_ROW_CYCLES 2u
#define VC4_VPM_DMA_BYTES_PER_CYCLE 8u

/* ---- functions ------------------------------------------------------------ */

/* Set the size (KB, 1..16; anything else becomes 12, the BCM2835's) and
 * reset.  vc4_vpm_reset clears storage, setups, engines and statistics. */
void vc4_vpm_init(struct vc4_vpm *v, unsigned size_kb);
void vc4_vpm_reset(struct vc4_vpm *v);
/* Forget one QPU's setups (a new program starts on it); role USER. */
void vc4_vpm_qpu_reset(struct vc4_vpm *v, unsigned qpu);
/* What the QPU runs from now on (after vc4_vpm_qpu_reset); CS/VS read the
 * VPM from in_row and write it from out_row, and have their accesses
 * tracked (track cleared). */
void vc4_vpm_qpu_role(struct vc4_vpm *v, unsigned qpu, enum vc4_vpm_role role, uint32_t in_row,
                      uint32_t out_row);

/*
 * Register accesses.  `now` is the QPU's instruction time (struct vc4_qpu
 * time: one time base for all QPUs, as idle QPUs' clocks run too, which the
 * single VDW and VDR engines' busy-until times need: they are compared with
 * any QPU's `now`).  `loc` names the QPU/PC for diagnostics and may
 * be NULL; sink may be NULL.
 */
/* Register map [G table 14; facts 6.9]: waddr 49 is VPMVCD_RD_SETUP in regfile A and
 * VPMVCD_WR_SETUP in regfile B; waddr 50 is VPM_LD_ADDR (A) / VPM_ST_ADDR (B);
 * raddr 49 VPM_LD_BUSY (A) / VPM_ST_BUSY (B); raddr 50 VPM_LD_WAIT (A) /
 * VPM_ST_WAIT (B); raddr/waddr 48 VPM_READ / VPM_WRITE in both files. */
/* VPMVCD_WR_SETUP: generic write setup, VDW basic or VDW stride. */
unsigned vc4_vpm_wr_setup(struct vc4_vpm *v, unsigned qpu, uint32_t value, uint64_t now,
                          const struct vc4_diag_sink *sink, const struct vc4_location *loc);
/* The QPU fast path's write setup (qpu.c VC4_XI_FAST_VPM_SETUP): what
 * vc4_vpm_wr_setup does for a setup that reports nothing (a user
 * program's, a vertex or coordinate shader's).  False, with nothing done,
 * for anything else. */
bool vc4_vpm_try_wr_setup(struct vc4_vpm *v, unsigned qpu, uint32_t value, uint64_t now);
/* ... and read setup (VC4_XI_FAST_VPM_RD_SETUP): what vc4_vpm_rd_setup
 * does for a setup that reports nothing (a VDR setup with a documented
 * pitch, a generic setup that is taken). */
bool vc4_vpm_try_rd_setup(struct vc4_vpm *v, unsigned qpu, uint32_t value, uint64_t now);
/* VPMVCD_RD_SETUP: generic read setup, VDR basic or VDR extended pitch. */
unsigned vc4_vpm_rd_setup(struct vc4_vpm *v, unsigned qpu, uint32_t value, uint64_t now,
                          const struct vc4_diag_sink *sink, const struct vc4_location *loc);
/* The QPU fast path's VPM write (qpu.c VC4_XI_FAST_VPM_W): what
 * vc4_vpm_write does for an unconditional write of a whole row (a valid
 * 32-bit horizontal setup) by a user program or a vertex or coordinate
 * shader (a row it has not written before), which reports nothing.  False,
 * with nothing done, for anything else. */
bool vc4_vpm_try_write(struct vc4_vpm *v, unsigned qpu, const uint32_t val[16]);
/* waddr 48 VPM_WRITE: one 16-wide vector; elements whose mask bit is clear
 * are not written (the address still advances). */
unsigned vc4_vpm_write(struct vc4_vpm *v, unsigned qpu, uint16_t mask, const uint32_t val[16],
                       uint64_t now, const struct vc4_diag_sink *sink,
                       const struct vc4_location *loc);
/* raddr 48 VPM_READ: one 16-wide vector (8/16-bit values zero-extended).
 * *ready (may be NULL) receives the cycle at which the data is there:
 * `now`, or later for a read issued fewer than VC4_VPM_READ_LATENCY
 * instructions after its setup (the QPU stalls for the difference [A]),
 * or VC4_VPM_NEVER with VC4_VPM_EV_DEADLOCK for a read that hangs on
 * hardware: the FIFO is empty and the setup meant to fill it was ignored
 * (out is then all 0). */
unsigned vc4_vpm_read(struct vc4_vpm *v, unsigned qpu, uint32_t out[16], uint64_t now,
                      uint64_t *ready, const struct vc4_diag_sink *sink,
                      const struct vc4_location *loc);
/* The QPU fast path's VPM read (qpu.c VC4_XI_IO_VPM_A/B): what vc4_vpm_read
 * does for the current read setup's next vector, a whole 32-bit
 * horizontal row whose data is there (no stall), with no earlier setup
 * queued, read by a program that is not a fragment shader (a vertex or
 * coordinate shader: a row it has not read before).  False, with nothing
 * done, for anything else. */
bool vc4_vpm_try_read(struct vc4_vpm *v, unsigned qpu, uint32_t out[16], uint64_t now);
/* waddr 50 VPM_ST_ADDR (VDW start) / VPM_LD_ADDR (VDR start), element 0's
 * value.  The transfer happens at once (functionally); the engine and the
 * QPU's wait register report busy until the modelled completion cycle. */
unsigned vc4_vpm_st_addr(struct vc4_vpm *v, struct vc4_mem *mem, unsigned qpu, uint32_t bus,
                         uint64_t now, const struct vc4_diag_sink *sink,
                         const struct vc4_location *loc);
unsigned vc4_vpm_ld_addr(struct vc4_vpm *v, struct vc4_mem *mem, unsigned qpu, uint32_t bus,
                         uint64_t now, const struct vc4_diag_sink *sink,
                         const struct vc4_location *loc);
/* raddr 50 VPM_ST_WAIT / VPM_LD_WAIT: the cycle at which the read returns
 * (>= now; the QPU stalls for the difference).  The value read is 0. */
uint64_t vc4_vpm_st_wait(const struct vc4_vpm *v, unsigned qpu, uint64_t now);
uint64_t vc4_vpm_ld_wait(const struct vc4_vpm *v, unsigned qpu, uint64_t now);
/* raddr 49 VPM_ST_BUSY / VPM_LD_BUSY: 1 while this QPU's DMA is running. */
uint32_t vc4_vpm_st_busy(const struct vc4_vpm *v, unsigned qpu, uint64_t now);
uint32_t vc4_vpm_ld_busy(const struct vc4_vpm *v, unsigned qpu, uint64_t now);
/* Program end on a QPU: reports reads still outstanding (rule: every
 * programmed VPM read must be consumed [G p.24]) and clears them. */
unsigned vc4_vpm_program_end(struct vc4_vpm *v, unsigned qpu, const struct vc4_diag_sink *sink,
                             const struct vc4_location *loc);

/* Direct access for other units (VCD, PTB, tests): word index row*16+col,
 * wrapped to the storage. */
/* The 16 words of VPM row `row` (modulo the rows). */
static inline const uint32_t *vc4_vpm_row(const struct vc4_vpm *v, unsigned row)
{
    return &v->words[(row % VC4_VPM_MAX_ROWS) * VC4_VPM_ROW_WORDS];
}
static inline uint32_t vc4_vpm_peek(const struct vc4_vpm *v, unsigned row, unsigned col)
{
    return v->words[((row * VC4_VPM_ROW_WORDS) + col) % (VC4_VPM_MAX_ROWS * VC4_VPM_ROW_WORDS)];
}
static inline void vc4_vpm_poke(struct vc4_vpm *v, unsigned row, unsigned col, uint32_t w)
{
    v->words[((row * VC4_VPM_ROW_WORDS) + col) % (VC4_VPM_MAX_ROWS * VC4_VPM_ROW_WORDS)] = w;
}

#endif
