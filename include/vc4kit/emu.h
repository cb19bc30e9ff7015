/*
 * vc4kit/emu.h - the V3D emulator as a host program sees a real Pi's GPU:
 * bus memory, the V3D register block, and time passing.
 *
 * Nothing here reaches into emulator internals: a host program drives the
 * emulated V3D exactly as it drives the hardware (write code and uniforms to
 * memory, write SRQUA/SRQUL/SRQPC to queue user programs, poll SRQCS), plus
 * vc4_emu_run() to let emulated time pass, and statistics.
 *
 *   struct vc4_emu *emu = vc4_emu_create(NULL);             // BCM2835 defaults
 *   vc4_emu_mem_write(emu, 0x1000, code, code_len);          // bus address
 *   vc4_emu_reg_write(emu, VC4_V3D_SRQUA, 0x2000);
 *   vc4_emu_reg_write(emu, VC4_V3D_SRQPC, 0x1000);           // queue it
 *   enum vc4_status st = vc4_emu_run(emu, 0);                // until idle
 *   vc4_emu_destroy(emu);
 *
 * Bus addresses: bits 31:30 select a cache alias of the same RAM (0x0, 0x4,
 * 0x8, 0xC prefixes), bits 29:0 are the RAM offset.  Every access is
 * bounds-checked; nothing a guest program does can touch host memory.
 *
 * One handle is single-threaded; separate handles are independent (there is
 * no global state).
 */
#ifndef VC4KIT_EMU_H
#define VC4KIT_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vc4kit/diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- V3D register offsets (from the V3D block base; Pi 1 bus 0x7EC00000) --
 * Names as in the Broadcom reference guide / brcm_rdb_v3d.h. */
enum vc4_v3d_reg {
    VC4_V3D_IDENT0 = 0x000, /* 0x02443356: TVER 2, "V3D" */
    VC4_V3D_IDENT1 = 0x004, /* VPMSZ, HDRT, NSEM, TUPS, QUPS, NSLC, REV */
    VC4_V3D_IDENT2 = 0x008,
    VC4_V3D_IDENT3 = 0x00C,
    VC4_V3D_SCRATCH = 0x010,
    VC4_V3D_L2CACTL = 0x020,
    VC4_V3D_SLCACTL = 0x024,
    VC4_V3D_INTCTL = 0x030,
    VC4_V3D_INTENA = 0x034,
    VC4_V3D_INTDIS = 0x038,
    VC4_V3D_ENDSWP = 0x040,
    VC4_V3D_CT0CS = 0x100,
    VC4_V3D_CT1CS = 0x104,
    VC4_V3D_CT0EA = 0x108,
    VC4_V3D_CT1EA = 0x10C,
    VC4_V3D_CT0CA = 0x110,
    VC4_V3D_CT1CA = 0x114,
    VC4_V3D_CT00RA0 = 0x118,
    VC4_V3D_CT01RA0 = 0x11C,
    VC4_V3D_CT0LC = 0x120,
    VC4_V3D_CT1LC = 0x124,
    VC4_V3D_CT0PC = 0x128,
    VC4_V3D_CT1PC = 0x12C,
    VC4_V3D_PCS = 0x130,
    VC4_V3D_BFC = 0x134,
    VC4_V3D_RFC = 0x138,
    VC4_V3D_BPCA = 0x300,
    VC4_V3D_BPCS = 0x304,
    VC4_V3D_BPOA = 0x308,
    VC4_V3D_BPOS = 0x30C,
    VC4_V3D_BXCF = 0x310,
    VC4_V3D_SQRSV0 = 0x410,
    VC4_V3D_SQRSV1 = 0x414,
    VC4_V3D_SQCNTL = 0x418,
    VC4_V3D_SQCSTAT = 0x41C,
    VC4_V3D_SRQPC = 0x430, /* write: queue a user program at this PC */
    VC4_V3D_SRQUA = 0x434, /* its uniforms address */
    VC4_V3D_SRQUL = 0x438, /* its uniforms length */
    VC4_V3D_SRQCS = 0x43C, /* 23:16 completed, 15:8 requested, 7 error, 5:0 queue length */
    VC4_V3D_VPACNTL = 0x500,
    VC4_V3D_VPMBASE = 0x504,
    VC4_V3D_PCTRC = 0x670,
    VC4_V3D_PCTRE = 0x674,
    VC4_V3D_PCTR0 = 0x680, /* PCTRn = 0x680 + 8n, PCTRSn = 0x684 + 8n, n = 0..15 */
    VC4_V3D_PCTRS0 = 0x684,
    VC4_V3D_DBCFG = 0xE00,
    VC4_V3D_DBSCS = 0xE04,
    VC4_V3D_DBSCFG = 0xE08,
    VC4_V3D_DBSSR = 0xE0C,
    VC4_V3D_DBSDR0 = 0xE10,
    VC4_V3D_DBSDR1 = 0xE14,
    VC4_V3D_DBSDR2 = 0xE18,
    VC4_V3D_DBSDR3 = 0xE1C,
    VC4_V3D_DBQRUN = 0xE20,
    VC4_V3D_DBQHLT = 0xE24,
    VC4_V3D_DBQSTP = 0xE28,
    VC4_V3D_DBQITE = 0xE2C, /* per-QPU host-interrupt enable */
    VC4_V3D_DBQITC = 0xE30, /* per-QPU host-interrupt status, write 1 to clear */
    VC4_V3D_DBQGHC = 0xE34,
    VC4_V3D_DBQGHG = 0xE38,
    VC4_V3D_DBQGHH = 0xE3C,
    VC4_V3D_DBGE = 0xF00,
    VC4_V3D_FDBGO = 0xF04,
    VC4_V3D_FDBGB = 0xF08,
    VC4_V3D_FDBGR = 0xF0C,
    VC4_V3D_FDBGS = 0xF10,
    VC4_V3D_ERRSTAT = 0xF20,
    VC4_V3D_REG_SPAN = 0x1000 /* size of the register block */
};

/* CT0CS / CT1CS fields (hardware facts §11; Linux vc4_regs.h V3D_CTNCS_*). */
#define VC4_V3D_CTCS_CTRSTA (1u << 15)   /* write 1: reset the thread */
#define VC4_V3D_CTCS_CTSEMA_SHIFT 12     /* 14:12 semaphore count */
#define VC4_V3D_CTCS_CTRTSD_SHIFT 8      /* 9:8 return stack depth */
#define VC4_V3D_CTCS_CTRUN (1u << 5)     /* running (or stalled); write: resume / pause */
#define VC4_V3D_CTCS_CTSUBS (1u << 4)    /* in a sub-list */
#define VC4_V3D_CTCS_CTERR (1u << 3)     /* stopped by an error */

/* INTCTL / INTENA / INTDIS fields (hardware facts §11; Linux vc4_regs.h
 * V3D_INT_*): write 1 to INTCTL to clear. */
#define VC4_V3D_INT_FRDONE (1u << 0)     /* rendering frame done */
#define VC4_V3D_INT_FLDONE (1u << 1)     /* binning flush done */
#define VC4_V3D_INT_OUTOMEM (1u << 2)    /* the binner is out of memory */
#define VC4_V3D_INT_SPILLUSE (1u << 3)   /* the binner took overflow memory */

/* PCS fields (hardware facts §11). */
#define VC4_V3D_PCS_BMACTIVE (1u << 0)   /* binning mode active */
#define VC4_V3D_PCS_BMBUSY (1u << 1)
#define VC4_V3D_PCS_RMACTIVE (1u << 2)   /* rendering mode active */
#define VC4_V3D_PCS_RMBUSY (1u << 3)
#define VC4_V3D_PCS_BMOOM (1u << 8)      /* the binner is out of memory (BPOA/BPOS) */

/* SRQCS fields (reference guide; hello_fft writes bits 7, 8, 16 to clear). */
#define VC4_V3D_SRQCS_QPURQL_MASK 0x3Fu       /* 5:0 queue length */
#define VC4_V3D_SRQCS_QPURQERR (1u << 7)      /* queue overflow; write 1 clears */
#define VC4_V3D_SRQCS_QPURQCM_SHIFT 8         /* 15:8 requests; write 1 to bit 8 clears */
#define VC4_V3D_SRQCS_QPURQCC_SHIFT 16        /* 23:16 completions; write 1 to bit 16 clears */

/* ---- creating a device ------------------------------------------------ */

/* The bus memory a device gets when vc4_emu_options.mem_size is 0: a Pi 1 B's
 * 512 MiB of SDRAM. */
#define VC4_EMU_DEFAULT_MEM_SIZE (512u << 20)

enum vc4_emu_jit {
    VC4_EMU_JIT_OFF, /* the interpreter only */
    VC4_EMU_JIT_ON,  /* compile hot blocks (needs a C compiler at run time; without one, a note and
                      * the interpreter) */
};

struct vc4_emu_options {
    uint32_t mem_size;                 /* bytes of bus memory; 0 = 512 MiB (a Pi 1 B); at most 1 GiB;
                                          * pages are filled lazily: size costs nothing until used */
    unsigned num_qpus;                 /* 1..16; 0 = 12 (BCM2835: 3 slices of 4) */
    struct vc4_diag_sink sink;         /* diagnostics; {NULL} discards them */
    const struct vc4_allocator *alloc; /* NULL = malloc */
    bool strict;                       /* hardware-rule violations are errors, not warnings */
    uint64_t max_cycles;               /* vc4_emu_run budget when it is passed 0; 0 = 100 million */
    bool cycle_by_cycle;               /* step every busy QPU every cycle, even while it waits (the
                                        * reference for the default, which lets waiting QPUs sleep
                                        * and skips cycles in which all wait: same results, counts
                                        * and diagnostics, docs/emulator.md "Waiting in bulk") */
    /* Compiled QPU code (docs/emulator.md "Compiled QPU code"): hot straight runs of ALU
     * instructions are written as C, compiled by the host's C compiler and loaded, with the same
     * results, counts and diagnostics as the interpreter.  VC4_EMU_JIT_OFF (0): interpret only. */
    enum vc4_emu_jit jit;
    unsigned jit_threshold;            /* times a block's first instruction is reached before the
                                        * block is compiled; 0 = 1000 */
    const char *jit_dir;               /* where compiled blocks are kept and found again (made if
                                        * missing); NULL = a private temporary directory removed
                                        * by vc4_emu_destroy */
    const char *jit_cc;                /* the C compiler; NULL = the one that built vc4kit, else cc.
                                        * The blocks' prelude is the ALU source as the building
                                        * compiler preprocessed it (its builtins included): name
                                        * a compiler of the same family (gcc or clang); another
                                        * may reject it (a note says so, and the emulator
                                        * interprets) */
    bool jit_async;                    /* compile on a thread of its own (the other host core) while
                                        * the emulator interprets; false: at once, in the run */
    unsigned host_threads;             /* 2: a second host thread runs half of the compiled blocks
                                        * that several QPUs run side by side, and samples
                                        * textures (docs/emulator.md "Two host cores"): the
                                        * same results, counts and diagnostics; 0 or 1: one
                                        * thread */
    bool profile;                      /* sample where the QPUs spend their cycles, by instruction
                                        * (vc4_emu_profile below): the same results, counts and
                                        * diagnostics, a little slower */
};

struct vc4_emu; /* opaque: one emulated V3D with its memory */

/* NULL options = all defaults.  Returns NULL if memory cannot be allocated
 * or an option is out of range (reported to the sink). */
VC4_API struct vc4_emu *vc4_emu_create(const struct vc4_emu_options *opts);
VC4_API void vc4_emu_destroy(struct vc4_emu *emu);
/* Reset the V3D (registers, QPUs, queues, VPM, TMUs, semaphores, counters),
 * as a power-on reset does.  Memory contents are kept. */
VC4_API void vc4_emu_reset(struct vc4_emu *emu);

/* ---- bus memory --------------------------------------------------------- */

VC4_API uint32_t vc4_emu_mem_size(const struct vc4_emu *emu);
/* Copy len bytes at a bus address: VC4_ERR_RANGE (and nothing copied; reads
 * zero-fill dst) if any byte is outside memory. */
VC4_API enum vc4_status vc4_emu_mem_read(const struct vc4_emu *emu, uint32_t bus, void *dst, size_t len);
VC4_API enum vc4_status vc4_emu_mem_write(struct vc4_emu *emu, uint32_t bus, const void *src, size_t len);
/* Host pointer to [bus, bus+len) of emulated memory, or NULL if any byte is
 * outside it (what mapmem gives a Pi program).  Valid until destroy. */
VC4_API void *vc4_emu_mem_ptr(struct vc4_emu *emu, uint32_t bus, size_t len);
/* A file descriptor whose bytes 0 .. mem_size-1 are the emulated RAM, as
 * /dev/mem is a Pi's: mmap(MAP_SHARED) of it at a page-aligned RAM offset
 * gives a host mapping that sees what the GPU sees and stays valid after
 * vc4_emu_destroy until munmap.  -1 when the RAM is not file-backed (a
 * caller's allocator, or no memfd_create).  Owned by the emulator (do not
 * close it); destroy closes it. */
VC4_API int vc4_emu_mem_fd(struct vc4_emu *emu);

/* ---- V3D registers -------------------------------------------------------- */

/* Offsets are enum vc4_v3d_reg values (word aligned, < VC4_V3D_REG_SPAN).
 * An unaligned offset, one outside the block, or one with no register
 * returns VC4_ERR_RANGE (reads give 0).  Writes have the hardware's side
 * effects: SRQPC queues a user program, SLCACTL/L2CACTL clear caches,
 * INTCTL/DBQITC clear interrupts, PCTRC clears counters, ... */
VC4_API enum vc4_status vc4_emu_reg_read(struct vc4_emu *emu, uint32_t offset, uint32_t *value);
VC4_API enum vc4_status vc4_emu_reg_write(struct vc4_emu *emu, uint32_t offset, uint32_t value);
/* The register's reference-guide name ("SRQCS"), or NULL. */
VC4_API const char *vc4_emu_reg_name(uint32_t offset);

/* ---- running ----------------------------------------------------------- */

/*
 * Let the device run until every queued user program has ended and all
 * QPUs are idle (VC4_OK), or max_cycles QPU cycles have passed (0 = the
 * options' budget): VC4_ERR_TIMEOUT, with a diagnostic per busy QPU naming
 * its PC and disassembled instruction.  A guest fault (address outside
 * memory, invalid instruction) stops the run with VC4_ERR_FAULT; in strict
 * mode a hardware-rule violation stops it with VC4_ERR_RULE.  After a
 * timeout, calling vc4_emu_run again continues where it stopped.  A
 * control-list packet is not split: the shading it causes ends before the
 * run stops (past max_cycles by at most that packet's work, which the
 * options' max_cycles still bounds), so lists resume at the next packet.
 */
VC4_API enum vc4_status vc4_emu_run(struct vc4_emu *emu, uint64_t max_cycles);

enum vc4_emu_qpu_state {
    VC4_EMU_QPU_IDLE,       /* no program */
    VC4_EMU_QPU_RUNNING,
    VC4_EMU_QPU_BLOCKED,    /* waiting: semaphore, mutex, VPM, DMA, TMU */
    VC4_EMU_QPU_FAULTED,    /* stopped by a guest fault */
};

struct vc4_emu_qpu_info {
    enum vc4_emu_qpu_state state;
    uint32_t pc;             /* bus address of the next instruction */
    uint64_t word;           /* the instruction there (0 if unreadable) */
    uint32_t uniforms_addr;  /* next uniform's bus address */
    const char *blocked_on;  /* "semaphore", "mutex", "vpm read", ...; NULL */
    uint64_t instructions;   /* executed since reset */
};

VC4_API unsigned vc4_emu_num_qpus(const struct vc4_emu *emu);
/* Where QPU n is (for a hang report); VC4_ERR_RANGE for a bad n. */
VC4_API enum vc4_status vc4_emu_qpu_info(const struct vc4_emu *emu, unsigned qpu,
                                         struct vc4_emu_qpu_info *out);

/* ---- statistics ------------------------------------------------------------
 * The V3D performance counters are registers (PCTRC/PCTRE/PCTRn/PCTRSn);
 * these are the emulator's own totals since reset. */
struct vc4_emu_stats {
    uint64_t cycles;            /* QPU clock cycles emulated */
    uint64_t instructions;      /* QPU instructions issued, all QPUs */
    uint64_t stall_cycles;      /* QPU cycles spent blocked */
    uint64_t idle_cycles;       /* QPU cycles with no program */
    uint64_t programs_started;
    uint64_t programs_completed;
    uint64_t host_interrupts;   /* HOST_INT writes with a non-zero value */
    uint64_t decodes;           /* instruction-cache fills (decoded words) */
    uint64_t warnings, errors;  /* diagnostics emitted */
};

VC4_API void vc4_emu_stats(const struct vc4_emu *emu, struct vc4_emu_stats *out);
/* What the JIT did (all zero when it is off). */
struct vc4_emu_jit_stats {
    uint64_t compiled;      /* blocks the compiler made */
    uint64_t loaded;        /* blocks found already compiled in jit_dir */
    uint64_t runs;          /* block executions */
    uint64_t loop_passes;   /* of them, passes of a loop block run back to back inside
                             * its compiled code (one QPU running alone) */
    uint64_t instructions;  /* QPU instructions run as compiled code */
    uint64_t io;            /* of them, TMU and VPM accesses (one QPU running alone) */
    uint64_t free_runs;     /* stretches in which several awake QPUs each ran on its own
                             * as far as all could go, beyond what their blocks held
                             * (docs/emulator.md "Several QPUs: free runs") */
    uint64_t helper;        /* of them, run on the second host thread (host_threads) */
    double compile_seconds; /* wall time spent waiting for the compiler */
};
VC4_API void vc4_emu_jit_stats(const struct vc4_emu *emu, struct vc4_emu_jit_stats *out);
/* How the host ran the emulation, since reset, as vc4_emu_render_stats:
 * what the second host thread did (vc4_emu_options.host_threads;
 * docs/emulator.md "Two host cores": work whose results, counts and
 * diagnostics are the same on either thread), and how the QPU instructions
 * were run (docs/emulator.md "Where the 4096-point FFT's time goes").
 * These depend on the engine, not on the program: results, cycle counts
 * and every other statistic are the same however the instructions ran. */
struct vc4_emu_host_stats {
    uint64_t threads;                 /* host threads the emulator runs on: 1, or 2 */
    uint64_t helper_instructions;     /* QPU instructions run as compiled code there (0
                                       * without the JIT; vc4_emu_jit_stats.helper counts
                                       * them since the emulator was made) */
    uint64_t helper_texture_requests; /* texture requests sampled there, of
                                       * vc4_emu_render_stats.tmu.texture_requests */
    /* The QPU instructions (vc4_emu_render_stats.qpu.instructions) by the
     * way they ran; the three add up to it.  alone: back to back, no other
     * QPU awake (the fast path, compiled blocks, and the steps beside them
     * in those stretches); side_by_side: several awake QPUs in compiled
     * code each running on its own for a stretch of cycles (free runs,
     * through compiled blocks and the fast path between them); lockstep:
     * one at a time, cycle by cycle,
     * beside other awake QPUs (with vc4_emu_options.cycle_by_cycle, every
     * instruction while several QPUs are busy).  The lock-stepped ones cost
     * the most host time each. */
    uint64_t alone_instructions, side_by_side_instructions, lockstep_instructions;
};
VC4_API void vc4_emu_host_stats(const struct vc4_emu *emu, struct vc4_emu_host_stats *out);

/* VPM traffic since reset: generic (QPU) reads and writes in 16-word
 * vectors, VDW stores and VDR loads with their bytes, and the modelled DMA
 * engine time. */
struct vc4_emu_vpm_stats {
    uint64_t generic_reads, generic_writes;
    uint64_t vdw_jobs, vdw_bytes, vdr_jobs, vdr_bytes;
    uint64_t dma_cycles;
};
VC4_API void vc4_emu_vpm_stats(const struct vc4_emu *emu, struct vc4_emu_vpm_stats *out);

/* ---- rendering (control lists) ----------------------------------------------
 * A host runs a binning and a rendering control list as bare metal does:
 * write CT0CA then CT0EA (writing the end address starts the thread), the
 * same for CT1, then vc4_emu_run (docs/rendering.md).  CT0CS/CT1CS, PCS,
 * BFC, RFC and INTCTL report progress as on the hardware. */

/* The frame the last Tile Rendering Mode Configuration described. */
struct vc4_emu_frame {
    bool valid;             /* a Tile Rendering Mode Configuration has run */
    uint32_t addr;          /* frame-buffer bus address */
    unsigned width, height; /* pixels */
    unsigned color_format;  /* packet 113: 0 BGR565 dithered, 1 RGBA8888, 2 BGR565 */
    unsigned memory_format; /* 0 raster, 1 T, 2 LT */
    bool multisample;       /* 4x */
    uint64_t frames;        /* ends of frame since reset */
};
VC4_API void vc4_emu_render_frame(const struct vc4_emu *emu, struct vc4_emu_frame *out);
/* Read a frame from memory as 8-bit RGBA, frame row 0 (the top) first,
 * width * height * 4 bytes into rgba: RGBA8888 pixels byte for byte (byte 0
 * red), BGR565 (red 15:11, green 10:5, blue 4:0) widened by bit
 * replication with alpha 255.  VC4_ERR_RANGE if the frame is outside
 * memory, VC4_ERR_UNSUPPORTED for a size the tiling maths cannot place,
 * VC4_ERR_INVALID for a bad description. */
VC4_API enum vc4_status vc4_emu_read_frame(const struct vc4_emu *emu, const struct vc4_emu_frame *f,
                                           uint8_t *rgba);

/* ---- rendering insight --------------------------------------------------------
 * What the hardware never tells: where QPU time went by kind of program,
 * what the binner did with each primitive, how much fragment and vertex
 * shading and texturing a frame cost.  Totals since reset (vc4_emu_reset
 * clears them), from the emulator's units. */

/* The kinds of QPU program (a QPU runs one kind at a time). */
enum vc4_emu_program_kind {
    VC4_EMU_PROG_USER,       /* user programs (SRQPC) */
    VC4_EMU_PROG_COORD,      /* GL coordinate shaders (binning) */
    VC4_EMU_PROG_VERTEX,     /* GL vertex shaders (rendering) */
    VC4_EMU_PROG_FRAGMENT,   /* fragment shaders */
    VC4_EMU_PROG_KINDS
};

/* QPU time while programs of one kind ran. */
struct vc4_emu_qpu_time {
    uint64_t cycles;        /* QPU clock cycles (wall: all QPUs together) */
    uint64_t instructions;  /* instructions issued, all QPUs */
    uint64_t stall_cycles;  /* QPU cycles spent blocked (TMU, VPM, scoreboard, ...) */
};

struct vc4_emu_render_stats {
    struct vc4_emu_stats qpu;                          /* the totals of vc4_emu_stats */
    struct vc4_emu_qpu_time by_kind[VC4_EMU_PROG_KINDS];
    struct {
        uint64_t prims_in;        /* primitives assembled from primitive packets */
        uint64_t prims_binned;    /* written to at least one tile list */
        uint64_t prims_culled;    /* dropped by face culling */
        uint64_t prims_zero_area; /* dropped: zero area */
        uint64_t prims_outside;   /* dropped: no tile inside the clip window / frame */
        uint64_t prims_bad;       /* dropped: unreadable vertex or index */
        uint64_t prims_clipped;   /* binned as clipped primitives (packet 49) */
        uint64_t tile_writes;     /* primitive appends to tile lists */
        uint64_t blocks;          /* tile-list blocks allocated after the initial ones */
        uint64_t overflows;       /* times overflow memory (BPOA/BPOS) was taken */
        uint64_t stalls;          /* out-of-memory stalls */
        uint64_t flushes;         /* Flush / Flush All State */
    } binner;
    struct {
        uint64_t coord_batches, coord_vertices;   /* coordinate shading (CT0) */
        uint64_t vertex_batches, vertex_vertices; /* vertex shading (CT1) */
    } vertex;
    struct {
        uint64_t prims;           /* primitives rasterised (per tile) */
        uint64_t batches;         /* 16-pixel batches (4 quads) given to QPUs */
        uint64_t quads, fragments;/* 2x2 quads with coverage; covered pixels */
        uint64_t samples_written; /* samples the TLB wrote */
        uint64_t z_fails, stencil_fails; /* samples */
        uint64_t early_z_rejects; /* samples rejected before shading */
        uint64_t threads, thread_switches;
    } fragment;
    struct {
        uint64_t requests, texture_requests, lookups; /* lookups = element reads */
        uint64_t texels;          /* texels fetched by texture lookups */
        uint64_t cache_hits, cache_misses, stall_cycles;
    } tmu;
};
VC4_API void vc4_emu_render_stats(const struct vc4_emu *emu, struct vc4_emu_render_stats *out);

/* Every counter above as text, one line per unit, each line starting with
 * prefix (NULL: none) and ending in a newline: QPU time in total and by
 * program kind, user programs, the binner (two lines), vertex and fragment
 * shading, the tile buffer, the TMUs, the VPM (vc4_emu_vpm_stats) and,
 * with two host threads, what the second did (vc4_emu_host_stats).  The
 * words of each line are stable ("name value" pairs; tools and tests read
 * them): `vc4kit render --stats`, `vc4kit exec --stats` (user programs and
 * OpenGL programs alike) print it.  Writes at most size bytes into buf
 * (NUL-terminated when size > 0; buf may be NULL when size is 0) and sets
 * *needed (if not NULL) to the length the whole text needs without the
 * NUL, like snprintf.  VC4_ERR_RANGE when the text was truncated; else
 * VC4_OK. */
VC4_API enum vc4_status vc4_emu_stats_report(const struct vc4_emu *emu, const char *prefix, char *buf, size_t size,
                                             size_t *needed);

/* ---- profile: where the QPUs spend their cycles ------------------------------
 * With vc4_emu_options.profile, about every 61st cycle (the gaps vary in a
 * fixed sequence, so that no loop aliases with them) each busy QPU is
 * sampled at the instruction it is at: issuing it, stalled there on a unit
 * (TMU data, a VPM read, a VDR / VDW wait) or blocked there on another QPU
 * (a semaphore, the mutex, the scoreboard).  The samples depend on the
 * emulated cycles alone: the same on any host, engine or thread count.
 * Cleared by vc4_emu_reset. */
struct vc4_emu_profile_entry {
    uint32_t pc;    /* bus address of the instruction */
    uint64_t word;  /* the instruction (code loaded again at an address: another entry) */
    uint64_t issuing, stalled, blocked; /* samples */
    enum vc4_emu_program_kind kind; /* what it ran as (at its first sample) */
};
struct vc4_emu_profile_totals {
    uint64_t samples;   /* all of them (issuing + stalled + blocked over every entry, and dropped) */
    uint64_t entries;   /* instructions sampled */
    uint64_t dropped;   /* samples not kept: memory for more instructions could not be had */
};
/* Returns how many entries there are; when cap is at least that, writes
 * them all into out, by address (then word); else writes nothing (out may
 * be NULL: ask with cap 0 first).  totals (if not NULL): the sums. */
VC4_API size_t vc4_emu_profile(const struct vc4_emu *emu, struct vc4_emu_profile_entry *out, size_t cap,
                               struct vc4_emu_profile_totals *totals);
/* The profile as text: a header line with the totals, then the top
 * instructions by samples (at most top; 0: all), one a line, each with its
 * share of the samples, the three counts, its address, its kind of program
 * and the instruction disassembled, then a line for the rest.  Each line
 * starts with prefix (NULL: none).  Buffer, *needed and status as
 * vc4_emu_stats_report; VC4_ERR_INVALID when the device was made without
 * profile. */
VC4_API enum vc4_status vc4_emu_profile_report(const struct vc4_emu *emu, unsigned top, const char *prefix,
                                               char *buf, size_t size, size_t *needed);

/* The tile lists the binner wrote in the last binning run, as text: per
 * tile with anything in it, its packets (state packets by name, the
 * primitives of packets 48/49 one per line), following the Branches
 * between blocks; only memory reads that are bounds-checked.  Writes at
 * most size bytes into buf (NUL-terminated when size > 0; buf may be NULL
 * when size is 0) and sets *needed (if not NULL) to the length the whole
 * text needs without the NUL, like snprintf.  VC4_ERR_INVALID when no Tile
 * Binning Mode Configuration has run; VC4_ERR_RANGE when the text was
 * truncated; else VC4_OK. */
VC4_API enum vc4_status vc4_emu_dump_tile_lists(const struct vc4_emu *emu, char *buf, size_t size,
                                                size_t *needed);

#ifdef __cplusplus
}
#endif
#endif
