/*
 * ptb.h - the binner (Primitive Tile Binner, PTB): the CT0 control-list
 * executor hands it every binning packet it handles; the binner writes one
 * tile list per tile into tile allocation memory, for the rendering list to
 * branch into (tile allocation base + tile index x initial block size, as
 * the kernel's render lists do: hardware facts §4.1, §4.3).
 *
 * What the tile lists contain (docs/tile-lists.md): ordinary packets (the
 * rendering state the binner copies in: shader state, configuration bits,
 * flat shade flags, point size, line width, depth offset, clip window,
 * viewport offset, Z clipping planes; Primitive List Format), packets 48/49
 * with the primitives (src/emu/tilelist.h), Branch (16) links between
 * blocks, and Return from sub-list (18) at the end (written by Flush).
 *
 * Seam with the executor:
 *   if (vc4_ptb_handles(pkt.opcode))
 *       switch (vc4_ptb_packet(v, &pkt, bus_addr_of_packet)) {
 *       case VC4_PTB_DONE:  advance past the packet;
 *       case VC4_PTB_STALL: keep CT0 at this packet (binner out of memory:
 *                           OUTOMEM raised, PCS.BMOOM set); call again with
 *                           the same packet once the host has written
 *                           BPOA/BPOS; the binner resumes where it stopped;
 *       case VC4_PTB_ERROR: a diagnostic was emitted (unit "ptb", location
 *                           = packet address, message names the packet); the
 *                           binner dropped (the rest of) the packet, as the
 *                           hardware would carry on; stop CT0 if strict.
 *       }
 * Flush / Flush All State increment BFC and raise FLDONE themselves; a
 * queued Increment Semaphore is the executor's to fire after the Flush.
 */
#ifndef VC4_EMU_PTB_H
#define VC4_EMU_PTB_H

#include <stdbool.h>
#include <stdint.h>

#include "emu/vg.h"
#include "vc4kit/cl.h"
#include "vc4kit/diag.h"

struct vc4_v3d;

/* ---- shaded vertices ----------------------------------------------------- */

/* A shaded vertex as the binner needs it (hardware facts §2.4). */
struct vc4_ptb_vertex {
    int32_t x_1_16px, y_1_16px; /* Xs/Ys, 12.4, relative to the viewport
                                 * centre (viewport offset not added) */
    float zs, inv_wc;
    float clip[4];              /* Xc, Yc, Zc, Wc when has_clip (NV: the clip
                                 * header; a GL source sets has_clip only when
                                 * its record enables clipping) */
    float point_size;           /* when has_point_size */
    bool has_clip, has_point_size;
};

/* Where shaded vertices come from: NV mode reads the NV shader record's
 * vertex data (built in); GL mode will run the coordinate shader (a later
 * issue) and install its source here.  fetch returns false when the vertex
 * cannot be produced (it may emit its own diagnostic; the binner reports the
 * primitive as dropped). */
struct vc4_ptb_vertex_source {
    bool (*fetch)(void *user, struct vc4_v3d *v, uint32_t index, struct vc4_ptb_vertex *out);
    /* optional: called once per primitive packet, before any fetch, with
     * every vertex index of the packet in order (GL mode shades them in
     * batches here); false drops the packet's primitives (the source gave
     * its diagnostics; loc is the packet) */
    bool (*prepare)(void *user, struct vc4_v3d *v, const uint32_t *index, uint32_t n,
                    const struct vc4_location *loc);
    void *user;
};

/* ---- the tile state data array (TSDA) --------------------------------------- *
 * 48 bytes per tile at tsda_addr + 48 x tile index (facts §4.1).  vc4kit's
 * own layout (the real one is undocumented), little-endian u32 words; list
 * addresses carry 28 bits, the top 4 coming from the TSDA address (the
 * hardware's 28-bit limitation, facts §4.1): */
enum vc4_ptb_tsda_word {
    VC4_PTB_TSDA_LIST = 0,       /* where this tile's list starts */
    VC4_PTB_TSDA_NEXT = 4,       /* where the next byte goes */
    VC4_PTB_TSDA_BLOCK_END = 8,  /* first byte after the current block */
    VC4_PTB_TSDA_FLAGS = 12,     /* VC4_PTB_TILE_* */
    VC4_PTB_TSDA_STATE_SEQ = 16, /* binner state sequence copied into the list */
    VC4_PTB_TSDA_PLF = 20,       /* Primitive List Format byte in effect, or 0xFFFFFFFF */
    VC4_PTB_TSDA_PRIMS = 24,     /* primitives in the list */
    VC4_PTB_TSDA_BLOCKS = 28,    /* blocks chained after the initial one */
    VC4_PTB_TSDA_BYTES = 48,     /* 32..47 reserved (0) */
};
enum {
    VC4_PTB_TILE_VALID = 1u << 0,   /* initialised (auto-init or Start) */
    VC4_PTB_TILE_OPEN48 = 1u << 1,  /* the list ends with an open 48 whose
                                     * terminator is the byte before NEXT */
    VC4_PTB_TILE_FLUSHED = 1u << 2, /* Return from sub-list written */
};

/* The rendering state the binner copies into tile lists: one slot each,
 * holding the packet's bytes as received. */
enum vc4_ptb_state_slot {
    VC4_PTB_ST_SHADER,        /* NV / GL / VG Shader State, VG Inline Shader Record */
    VC4_PTB_ST_CONFIG_BITS,
    VC4_PTB_ST_FLAT_SHADE,
    VC4_PTB_ST_POINT_SIZE,
    VC4_PTB_ST_LINE_WIDTH,
    VC4_PTB_ST_DEPTH_OFFSET,
    VC4_PTB_ST_CLIP_WINDOW,
    VC4_PTB_ST_VIEWPORT_OFFSET,
    VC4_PTB_ST_Z_CLIPPING,
    VC4_PTB_ST_RHT_X_BOUNDARY,
    VC4_PTB_ST_COUNT
};
enum { VC4_PTB_STATE_MAX_BYTES = 9 }; /* longest copied packet (102, 104, 67) */

struct vc4_ptb_state_item {
    uint32_t changed_seq;  /* state sequence number when last set; 0 = never */
    uint8_t len;
    uint8_t bytes[VC4_PTB_STATE_MAX_BYTES];
};

enum vc4_ptb_shader_mode { VC4_PTB_MODE_NONE, VC4_PTB_MODE_NV, VC4_PTB_MODE_GL, VC4_PTB_MODE_VG };

enum vc4_ptb_result {
    VC4_PTB_DONE = 0,
    VC4_PTB_STALL,
    VC4_PTB_ERROR,
};

/* Binner statistics since reset (for traces and tests). */
struct vc4_ptb_stats {
    uint64_t prims_in;        /* primitives assembled from primitive packets */
    uint64_t prims_binned;    /* written to at least one tile */
    uint64_t prims_culled;    /* dropped by face culling */
    uint64_t prims_zero_area; /* dropped: zero area */
    uint64_t prims_outside;   /* dropped: no tile inside the clip window/frame */
    uint64_t prims_bad;       /* dropped: unreadable vertex / index */
    uint64_t prims_clipped;   /* binned as a clipped primitive (packet 49) */
    uint64_t tile_writes;     /* primitive appends to tile lists */
    uint64_t blocks;          /* blocks allocated (pool + overflow) */
    uint64_t overflows;       /* times the overflow memory was taken */
    uint64_t stalls;          /* out-of-memory stalls */
    uint64_t flushes;
};

/* The binner's state (one per V3D; member ptb of struct vc4_v3d). */
struct vc4_ptb {
    /* Tile Binning Mode Configuration */
    bool configured;            /* a valid configuration was seen */
    bool started;               /* Start Tile Binning since it */
    struct vc4_cl_tile_binning_mode_config cfg;
    uint32_t initial_block_bytes, block_bytes; /* 32..256 */
    uint32_t tile_w_px, tile_h_px;
    uint32_t num_tiles;

    /* memory pool: tile allocation memory after the initial blocks, then
     * overflow memory (registers BPCA/BPCS mirror it) */
    uint32_t pool_addr, pool_left;
    bool overflow_taken;             /* BPOA/BPOS as latched were consumed */
    uint32_t taken_bpoa, taken_bpos;
    bool oom;                        /* stalled waiting for BPOA/BPOS */

    /* rendering state copied into tile lists */
    uint32_t state_seq;              /* bumped by every state packet */
    /* HW-2116 (rule bin-state-counter-wrap): state updates that follow a
     * draw or Start Tile Binning since Start Tile Binning */
    uint32_t hw2116_updates;
    bool hw2116_drew;
    struct vc4_ptb_state_item state[VC4_PTB_ST_COUNT];
    uint8_t plf;                     /* last Primitive List Format byte from the list */

    /* binning state */
    enum vc4_ptb_shader_mode mode;
    struct vc4_cl_nv_shader_record nv;  /* NV mode: the record, read at the packet */
    bool nv_valid;
    struct vc4_vg_fan vg_fan;           /* VG mode: the last fan (continuation lists) */
    int32_t rht_x_1_16px;               /* RHT X Boundary (packet 100), 12.4 */
    struct vc4_cl_configuration_bits config;
    struct vc4_cl_clip_window clip;
    bool clip_set;
    int32_t vp_x_1_16px, vp_y_1_16px;   /* viewport offset */
    float xy_scale[2], z_scale, z_offset, z_min, z_max;
    bool z_scaling_set; /* a Clipper Z Scale and Offset (106) was decoded: GL near/far clipping (ptb.c) */
    float point_size, line_width;
    struct vc4_ptb_vertex_source gl_source; /* fetch NULL = none installed */

    /* a primitive packet interrupted by an out-of-memory stall */
    struct {
        bool active;
        uint32_t addr;        /* the packet's bus address */
        uint8_t opcode;
        uint32_t prim;        /* primitives of the packet fully binned */
        uint32_t tile;        /* tiles of the next primitive already done */
        uint32_t clip_record; /* its clipped record, once written (0 = none) */
    } resume;

    struct vc4_ptb_stats stats;
};

/* Power-on state (nothing configured). */
void vc4_ptb_reset(struct vc4_ptb *p);

/* Is this a packet the binner handles (see the list in docs/tile-lists.md)? */
bool vc4_ptb_handles(unsigned opcode);

/* Execute one binning-list packet (pkt as read by the cl reader; addr = its
 * bus address, for diagnostics and for resuming after a stall). */
enum vc4_ptb_result vc4_ptb_packet(struct vc4_v3d *v, const struct vc4_cl_packet_view *pkt,
                                   uint32_t addr);

/* GL mode: install the coordinate-shaded vertex source (NULL = none; GL
 * primitives are then dropped with a diagnostic). */
void vc4_ptb_set_gl_source(struct vc4_ptb *p, const struct vc4_ptb_vertex_source *src);

/* Tile size in pixels for the given mode bits (packets 112/113: 4x
 * multisample -> 32x32, else 64x64; see ptb.c for the 64-bit case). */
void vc4_ptb_tile_size(bool multisample_4x, bool tile_buffer_64bit, uint32_t *w_px, uint32_t *h_px);

/* Bus address of tile (x, y)'s list: tile allocation base + (y x width +
 * x) x initial block size (what the render list branches to); 0 if the
 * binner is not configured or the tile is outside the frame. */
uint32_t vc4_ptb_tile_list_addr(const struct vc4_ptb *p, uint32_t x, uint32_t y);

/* One TSDA entry decoded (list addresses made whole with the TSDA
 * address's top 4 bits): for the binner itself and for tile-list dumps. */
struct vc4_ptb_tile_state {
    uint32_t list, next, block_end, flags, seq, plf, prims, blocks;
};
/* Decode the VC4_PTB_TSDA_BYTES bytes of a TSDA entry. */
void vc4_ptb_tsda_decode(const struct vc4_ptb *p, const uint8_t *bytes, struct vc4_ptb_tile_state *out);

#endif
