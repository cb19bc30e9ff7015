/*
 * rules.h - every hardware programming rule vc4kit reports, once: the id a
 * diagnostic prints, its severity, a one-sentence summary and where the rule
 * comes from.  The static validator (isa/qpu_validate.c), the emulator's
 * units (emu/) and the control-list validator (cl/cl_validate.c) all name a
 * rule by its enumerator here; docs/rules.md lists the same ids, and
 * tests/unit/test_rules.c checks the three agree (every id in the code is in
 * the registry and the docs, and the reverse).
 *
 * Enumerator names are the id in capitals: "regfile-read-after-write" is
 * VC4_RULE_REGFILE_READ_AFTER_WRITE (test_rules checks the spelling).
 *
 * The first VC4_RULE_QPU_STATIC_COUNT rules are the static validator's, in
 * its order: vc4_qpu_rules() returns them.
 */
#ifndef VC4_SPEC_RULES_H
#define VC4_SPEC_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "vc4kit/cl.h"

enum vc4_rule_id {
    /* ---- the static QPU validator (isa/qpu_validate.c); several are also
     * checked at run time by the emulator ---- */
    /* encoding */
    VC4_RULE_RESERVED_OP_ADD,
    VC4_RULE_RESERVED_PACK,
    VC4_RULE_RESERVED_LDI_MODE,
    VC4_RULE_RESERVED_BRANCH_COND,
    VC4_RULE_READ_UNDEFINED_REG,
    /* program end */
    VC4_RULE_NO_THREND,
    VC4_RULE_THREND_DELAY_SLOTS,
    VC4_RULE_THREND_REGFILE_WRITE,
    VC4_RULE_THREND_SB_WAIT,
    VC4_RULE_THREND_DELAY_IO,
    VC4_RULE_THREND_REG14,
    VC4_RULE_LAST_TLB_Z,
    VC4_RULE_THREND_BRANCH,
    /* fragment shaders */
    VC4_RULE_FS_SCOREBOARD_FIRST_TWO,
    VC4_RULE_FS_VPM_ACCESS,
    VC4_RULE_THREADED_UPPER_REGS,
    /* register hazards */
    VC4_RULE_REGFILE_READ_AFTER_WRITE,
    VC4_RULE_SFU_R4_EARLY,
    VC4_RULE_SFU_R4_CONFLICT,
    VC4_RULE_ROT_QUAD_ONLY,
    VC4_RULE_ROT_R5_AFTER_WRITE,
    VC4_RULE_ROT_ACC_AFTER_WRITE,
    VC4_RULE_DUAL_WRITE_INVERSE,
    /* peripherals */
    VC4_RULE_ONE_PERIPHERAL,
    VC4_RULE_PERIPH_COND_WRITE,
    VC4_RULE_UNIF_AFTER_UNIF_ADDR,
    VC4_RULE_TMU_NOSWAP_LATE,
    VC4_RULE_TMU_FIFO_OVERFLOW,
    VC4_RULE_TMU_FIFO_DEEP,
    VC4_RULE_TLBZ_MS_FLAGS,
    VC4_RULE_HOST_INT_ZERO,
    /* branches */
    VC4_RULE_BRANCH_SPACING,
    /* thread switches */
    VC4_RULE_THRSW_SB_LOCKED,
    VC4_RULE_THRSW_AFTER_LTHRSW,
    VC4_RULE_THRSW_SPACING,
    VC4_RULE_THRSW_TMU_PENDING,
    /* VPM */
    VC4_RULE_VPM_READ_TOO_EARLY,
    VC4_RULE_VPM_SETUP_OUTSTANDING,
    VC4_RULE_VPM_READ_OVERRUN,
    VC4_RULE_VPM_READ_UNCONSUMED,
    VC4_RULE_VPM_CONCURRENT,
    /* pack */
    VC4_RULE_PACK_MUL_IO,
    VC4_RULE_PACK_A_TARGET,
    VC4_RULE_PACK_32S_OP,
    VC4_RULE_QPU_STATIC_COUNT,

    /* ---- checked only at run time by the emulator ---- */
    /* the QPU (emu/qpu.c) */
    VC4_RULE_USER_PROGRAM_NO_TLB = VC4_RULE_QPU_STATIC_COUNT,
    VC4_RULE_BRANCH_ODD_RADDR_SF,
    /* fragment shading (emu/fsi.c) */
    VC4_RULE_FS_VARYINGS_UNREAD,
    VC4_RULE_FS_VARYINGS_OVERREAD,
    VC4_RULE_UNIF_READ_PAST_END,
    VC4_RULE_FS_QUAD_XY_WRITE,
    VC4_RULE_FS_EARLY_Z_SHADER_Z,
    VC4_RULE_FS_DEPTH_WITHOUT_TLB_Z,
    /* vertex and coordinate shading, GL shader records (emu/vsi.c, emu/vcd.c) */
    VC4_RULE_GL_ATTR_READ_ONCE,
    VC4_RULE_GL_OUTPUT_WRITE_ONCE,
    VC4_RULE_GL_NO_ATTRIBUTE,
    VC4_RULE_GL_ATTR_SELECT,
    VC4_RULE_GL_ATTR_TOTAL_SIZE,
    VC4_RULE_GL_ATTR_OVERLAP,
    VC4_RULE_GL_VPM_8KB,
    /* the VPM and its DMA (emu/vpm.c) */
    VC4_RULE_VPM_SETUP_SIZE,
    VC4_RULE_VPM_SETUP_ID,
    VC4_RULE_VPM_READ_DEADLOCK,
    VC4_RULE_VPM_DMA_RANGE,
    VC4_RULE_VDW_MODEW,
    VC4_RULE_VDW_STRIDE_WIDTH,
    VC4_RULE_VDR_PITCH_WIDTH,
    VC4_RULE_VDW_NO_SETUP,
    VC4_RULE_VDR_NO_SETUP,
    /* the TMU (emu/tmu.c, emu/tmu_tex.c) */
    VC4_RULE_TMU_LOAD_EMPTY,
    VC4_RULE_TMU_UNCONSUMED,
    VC4_RULE_TMU_TEX_TYPE,
    VC4_RULE_TMU_TEX_MINFILT,
    VC4_RULE_TMU_TEX_CHILD,
    VC4_RULE_TMU_TEX_CUBE_STRIDE,
    VC4_RULE_TMU_TEX_MIPLEVELS,
    VC4_RULE_TMU_TEX_CHILD_MIPS,
    VC4_RULE_TMU_TEX_GEOMETRY,

    /* ---- the control-list validator (cl/cl_validate.c) ---- */
    VC4_RULE_CL_UNKNOWN_OPCODE,
    VC4_RULE_CL_TRUNCATED,
    VC4_RULE_CL_BAD_ITEMS,
    VC4_RULE_CL_SHADER_STATE,
    VC4_RULE_CL_START_BINNING,
    VC4_RULE_CL_BIN_SIZE,
    VC4_RULE_CL_ORDER_BIN_CONFIG,
    VC4_RULE_CL_ATTR_RANGE,
    VC4_RULE_CL_ARRAY_OVERFLOW,
    VC4_RULE_CL_ORDER_RENDER_CONFIG,
    VC4_RULE_CL_ORDER_TILE_COORDS,
    VC4_RULE_CL_ONE_LOAD,
    VC4_RULE_CL_STORE_BETWEEN_LOADS,
    VC4_RULE_CL_REQUIRED_BIN_CONFIG,
    VC4_RULE_CL_REQUIRED_START_BINNING,
    VC4_RULE_CL_BIN_ENDS_WITH_FLUSH,
    VC4_RULE_CL_REQUIRED_RENDER_CONFIG,
    VC4_RULE_CL_VG_MODE,
    VC4_RULE_CL_VG_RECORD_ALIGN,
    VC4_RULE_CL_VG_PRIM_TYPE,
    VC4_RULE_CL_VG_COORDS,
    VC4_RULE_CL_VG_RHT_BOUNDARY,
    VC4_RULE_CL_CLIP_WINDOW_EMPTY,
    VC4_RULE_CL_LINE_LOOP_TWO,
    VC4_RULE_BIN_STATE_COUNTER_WRAP,
    VC4_RULE_BIN_ARRAY_INDEX_16BIT,
    VC4_RULE_KERNEL_BIN_WHITELIST,
    VC4_RULE_KERNEL_ONE_BIN_CONFIG,
    VC4_RULE_KERNEL_BIN_FLAGS,
    VC4_RULE_KERNEL_ONE_START_BINNING,
    VC4_RULE_KERNEL_FLUSH_LAST,
    VC4_RULE_KERNEL_SEMAPHORE_BEFORE_FLUSH,
    VC4_RULE_KERNEL_GL_SHADER_STATE,
    /* ---- the kernel stand-in's SUBMIT_CL (src/kernel, docs/opengl.md) ---- */
    VC4_RULE_KERNEL_BO_INDEX,
    VC4_RULE_KERNEL_RELOC_RANGE,
    VC4_RULE_KERNEL_SHADER_REC,
    VC4_RULE_KERNEL_RCL_SURFACE,
    /* ---- the kernel's shader rules (isa/qpu_kernel.c: `as --check --kernel`,
     * the kernel stand-in's CREATE_SHADER_BO) ---- */
    VC4_RULE_KERNEL_SHADER_END,
    VC4_RULE_KERNEL_SIGNAL,
    VC4_RULE_KERNEL_WADDR,
    VC4_RULE_KERNEL_TMU_SETUP,
    VC4_RULE_KERNEL_DIRECT_LOOKUP,
    VC4_RULE_KERNEL_UNIFORM_ADDRESS,
    VC4_RULE_KERNEL_UNIFORM_UNDEFINED,
    VC4_RULE_KERNEL_BRANCH_FORM,
    VC4_RULE_KERNEL_BRANCH_TARGET,
    VC4_RULE_KERNEL_THRSW_SPACING,
    VC4_RULE_KERNEL_THREADED_UPPER_REGS,
    VC4_RULE_KERNEL_THREAD_MODE,
    /* ---- vc4kit boot: the ARM side (src/arm, docs/boot.md) ---- */
    VC4_RULE_ARM_UNKNOWN_PERIPHERAL,
    VC4_RULE_ARM_MBOX_UNKNOWN_TAG,
    VC4_RULE_ARM_MBOX_BAD_BUFFER,
    VC4_RULE_ARM_MBOX_CHANNEL,

    VC4_RULE_COUNT,
    VC4_RULE_NONE = VC4_RULE_COUNT /* "no rule": a plain diagnostic */
};

/* The registry, indexed by enum vc4_rule_id (struct vc4_rule: vc4kit/diag.h). */
extern const struct vc4_rule vc4_rule_table[VC4_RULE_COUNT];

/*
 * Send a VC4_DIAG_RULE diagnostic for rule r: id and source from the
 * registry, severity from the caller (the emulator reports most rules as
 * warnings and carries on as the hardware would; errors in strict mode).
 */
void vc4_rule_report(const struct vc4_diag_sink *sink, enum vc4_severity sev, const char *unit,
                     enum vc4_rule_id r, const struct vc4_location *loc, const char *fmt, ...)
    VC4_PRINTF(6, 7);

/* The conditions of the rules both the list validator (cl/cl_validate.c)
 * and the binner (emu/ptb.c) check, stated once. */
/* cl-clip-window-empty: a Clip Window (packet 102) of no area. */
static inline bool vc4_rule_clip_window_empty(uint32_t width_px, uint32_t height_px)
{
    return width_px == 0 || height_px == 0;
}
/* cl-line-loop-two: a primitive packet (32/33) drawing a line loop of
 * exactly two vertices. */
static inline bool vc4_rule_line_loop_two(uint32_t mode, uint32_t len)
{
    return mode == VC4_CL_PRIM_LINE_LOOP && len == 2;
}

#endif
