/*
 * ctl.h - the control-list executors: CT0 (binning thread) and CT1
 * (rendering thread), driven by their registers as bare metal drives them
 * (hardware facts §4.2, §11):
 *
 *   CTnCA  current address; writing it (re)starts the list there
 *   CTnEA  end address; writing it after CTnCA starts the thread, which
 *          runs until CA reaches EA (or Halt)
 *   CTnCS  15 CTRSTA (write: reset), 14:12 CTSEMA, 9:8 CTRTSD (return
 *          stack depth), 5 CTRUN, 4 CTSUBS (in a sub-list), 3 CTERR
 *   CTnRA0 return address 0 (the return stack holds 2 addresses [PL])
 *   CTnPC  primitives processed
 *   PCS    8 BMOOM, 3 RMBUSY, 2 RMACTIVE, 1 BMBUSY, 0 BMACTIVE
 *
 * Both threads execute Halt, NOP, Branch, Branch to sub-list, Return from
 * sub-list and the semaphore packets here; CT0 hands every binning packet
 * to the binner (src/emu/ptb.h), CT1 executes the rendering packets (tile
 * buffer set-up, loads and stores via src/emu/tlb.h, the render state, and
 * primitives drawn by src/emu/draw.h).  Packets are read with the cl layer's
 * reader and decoded with its tables; every read is bounds-checked.
 *
 * Semaphore: Increment Semaphore in CT1 counts at once; in CT0 it is queued
 * and counts when the following Flush completes (facts §1); Wait on
 * Semaphore stalls until the count is non-zero and takes one.
 * End of frame (Store Multi-sample + EOF, or a store with the last-tile
 * bit): RFC + 1 and FRDONE in INTCTL.  The binner's Flush counts BFC and
 * raises FLDONE (ptb.c).
 */
#ifndef VC4_EMU_CTL_H
#define VC4_EMU_CTL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "emu/vg.h"
#include "vc4kit/cl.h"
#include "vc4kit/diag.h"

struct vc4_v3d;

#define VC4_CT_STACK 2u /* sub-list nesting [PL] */

/* CTnCS, PCS and INTCTL bits: VC4_V3D_CTCS_*, VC4_V3D_PCS_*, VC4_V3D_INT_*
 * (vc4kit/emu.h). */

struct vc4_ct {
    uint32_t ca, ea;
    uint32_t start;            /* CA when the list was started (diagnostic offsets) */
    uint32_t ra[VC4_CT_STACK]; /* return addresses */
    uint32_t sub_start[VC4_CT_STACK]; /* where each sub-list began */
    unsigned depth;
    bool run, err;
    bool wait_sema;            /* stalled at Wait on Semaphore */
    bool ptb_stall;            /* CT0: the binner is out of memory */
    bool sema_queued;          /* CT0: Increment Semaphore waiting for the next Flush */
    uint32_t lc;               /* CTnLC: kept, meaning unknown [?] */
    uint32_t prims;            /* CTnPC */
    uint64_t packets;
};

enum vc4_ctl_shader { VC4_CTL_SHADER_NONE, VC4_CTL_SHADER_NV, VC4_CTL_SHADER_GL, VC4_CTL_SHADER_VG };
enum vc4_ctl_load { VC4_CTL_LOAD_NONE, VC4_CTL_LOAD_GENERAL, VC4_CTL_LOAD_FULL };

/* The rendering thread's state. */
struct vc4_ctl_render {
    bool have_trmc;
    struct vc4_cl_tile_rendering_mode_config trmc; /* the last one executed */
    bool have_tile;
    unsigned tile_x, tile_y;
    bool coords_unstored;      /* a Tile Coordinates not yet followed by a store */
    enum vc4_ctl_load load;    /* the queued load (runs at the next Tile Coordinates) */
    uint32_t load_at;          /* its packet address */
    struct vc4_cl_load_tile_buffer_general load_general;
    struct vc4_cl_load_full_res_tile_buffer load_full;

    /* primitive state (from the tile lists, or the list itself) */
    enum vc4_ctl_shader shader;
    struct vc4_cl_nv_shader_record nv;
    struct vc4_cl_configuration_bits cfg;
    struct vc4_cl_depth_offset depth_offset; /* applied when cfg enables it */
    uint32_t flat_flags;
    float point_size, line_width;
    bool clip_set;
    struct vc4_cl_clip_window clip;
    int32_t vp_x_1_16px, vp_y_1_16px;
    uint32_t plf_type, plf_data;
    int32_t rht_x_1_16px;      /* RHT X Boundary (packet 100), 12.4 */
    struct vc4_vg_fan vg_fan;  /* VG mode: the last fan (continuation lists) */
    uint64_t frames;           /* ends of frame since reset */
    uint64_t prims_drawn, prims_culled;
};

struct vc4_ctl {
    struct vc4_ct ct[2];
    unsigned sema;             /* CTSEMA */
    struct vc4_ctl_render r;
    uint32_t warned;           /* one-shot warnings */
    uint64_t cycles;           /* packets executed */
};

void vc4_ctl_reset(struct vc4_ctl *c);
/* Register access for CTnCS/EA/CA/RA0/LC/PC and PCS: false if the offset
 * is not one of them. */
bool vc4_ctl_reg_read(struct vc4_v3d *v, uint32_t offset, uint32_t *value);
bool vc4_ctl_reg_write(struct vc4_v3d *v, uint32_t offset, uint32_t value);
/* Is either thread able to run? */
bool vc4_ctl_busy(const struct vc4_ctl *c);
/*
 * Run the threads until neither can go on (ended, halted, stalled on the
 * semaphore or the binner's memory, or stopped by an error), with the
 * fragment shading they cause; *used counts cycles (one per packet plus the
 * QPU cycles) against budget.  VC4_OK, VC4_ERR_FAULT (a bad list: a
 * diagnostic names the thread, address, offset and packet), VC4_ERR_RULE
 * (strict mode) or VC4_ERR_TIMEOUT.
 */
enum vc4_status vc4_ctl_run(struct vc4_v3d *v, uint64_t budget, uint64_t *used);

/* One-shot warnings (per reset): bits of struct vc4_ctl warned. */
enum {
    VC4_CTL_W_WRONG_LIST = 1u << 0,
    VC4_CTL_W_GL_MODE = 1u << 1,
    VC4_CTL_W_VG = 1u << 2,
    VC4_CTL_W_STRIDE = 1u << 3,
    VC4_CTL_W_64BIT = 1u << 4,
    VC4_CTL_W_DECIMATE = 1u << 5,
    VC4_CTL_W_FULL_GENERAL = 1u << 6,
    VC4_CTL_W_VARYINGS = 1u << 7,
    VC4_CTL_W_RHT = 1u << 8,
    VC4_CTL_W_OVERSAMPLE16 = 1u << 9,
    VC4_CTL_W_UNVERIFIED = 1u << 10,
    VC4_CTL_W_TILE_OUT = 1u << 11,
    VC4_CTL_W_COVERAGE = 1u << 13,
    VC4_CTL_W_MS_NO_DECIMATE = 1u << 14,
    VC4_CTL_W_HALT_IN_SUB = 1u << 15,
    VC4_CTL_W_BRANCH_ZERO = 1u << 16,
};

/* For the drawing unit (draw.c): a CT diagnostic (unit "ct0"/"ct1", located
 * at the packet, naming it and its list offset), a one-shot warning test,
 * and "the frame and the tile are set up" (a diagnostic when not). */
void vc4_ctl_diag(struct vc4_v3d *v, unsigned t, enum vc4_severity sev, enum vc4_diag_class cls, uint32_t addr,
                  const char *pkt, const char *fmt, ...) VC4_PRINTF(7, 8);
bool vc4_ctl_once(struct vc4_v3d *v, uint32_t w);
bool vc4_ctl_need_frame(struct vc4_v3d *v, uint32_t at, const char *pkt);

#endif
