/*
 * rules.c - the rule registry (see rules.h): one row per rule id.
 *
 * Severity is what breaking the rule does on hardware.  error: garbage
 * values, lost requests, a hang or a crash.  warning: a source calls the
 * behaviour "unreliable", or the instruction or packet is merely useless,
 * ignored or not modelled.  The static validators report that severity; the
 * emulator reports a rule it meets at run time as a warning and carries on
 * as the hardware would (an error that stops the run in strict mode).
 *
 * Sources, abbreviated:
 *   seed 000-004      the seed posts in shared/seeds/ (their code ran on hardware)
 *   guide p.N         the Broadcom "VideoCore IV 3D Architecture Reference
 *                     Guide", as quoted by Mesa vc4_qpu_validate.c (p.37
 *                     "Summary of Instruction Restrictions") or by VC4C
 *   addendum          maazl's vc4asm "VideoCore IV addendum" (errata measured
 *                     on hardware)
 *   qpu-isa-facts N / facts N.M   shared/reference/qpu-isa-facts.md item N,
 *                     v3d-hardware-facts.md section N.M
 */
#include "spec/rules.h"

#include <assert.h>

const struct vc4_rule vc4_rule_table[VC4_RULE_COUNT] = {
    /* ---- the static QPU validator (and, for some, the emulator) ---- */
    /* undefined operation */
    [VC4_RULE_RESERVED_OP_ADD] = {"reserved-op-add", VC4_ERROR,
        "Add-ALU op codes 9-11 and 25-29 are not assigned.",
        "facts 6.2; Mesa vc4_qpu_defines.h"},
    /* undefined conversion */
    [VC4_RULE_RESERVED_PACK] = {"reserved-pack", VC4_ERROR,
        "MUL pack codes (pm=1) 1, 2 and 8-15 are not assigned.",
        "facts 6.6 / qpu-isa-facts 13; Mesa enum qpu_pack_mul"},
    /* undefined value */
    [VC4_RULE_RESERVED_LDI_MODE] = {"reserved-ldi-mode", VC4_ERROR,
        "Load-immediate modes 2, 5, 6 and 7 are not assigned (0, 1, 3 load, 4 is the semaphore).",
        "qpu-isa-facts 3; Mesa, vc4asm Inst.h ldmode"},
    /* undefined control flow */
    [VC4_RULE_RESERVED_BRANCH_COND] = {"reserved-branch-cond", VC4_ERROR,
        "Branch conditions 12-14 are not assigned.",
        "qpu-isa-facts 18; Mesa vc4_qpu_defines.h"},
    /* garbage operand */
    [VC4_RULE_READ_UNDEFINED_REG] = {"read-undefined-reg", VC4_ERROR,
        "An operand reads a register address that has no read meaning in its file (e.g. ra33), which returns an undefined value.",
        "facts 6.9 (guide table 14 read columns)"},
    /* runs off into memory */
    [VC4_RULE_NO_THREND] = {"no-thrend", VC4_ERROR,
        "A program must end with a thread-end (program end) signal.",
        "seed 002 shader rules; guide p.37 via Mesa vc4_qpu_validate.c"},
    /* delay slots execute garbage */
    [VC4_RULE_THREND_DELAY_SLOTS] = {"thrend-delay-slots", VC4_ERROR,
        "The thread-end instruction is followed by 2 delay-slot instructions, which must exist.",
        "seed 002 shader rules; guide p.37 via Mesa vc4_qpu_validate.c; qpu-isa-facts 19"},
    /* guide: must not */
    [VC4_RULE_THREND_REGFILE_WRITE] = {"thrend-regfile-write", VC4_ERROR,
        "The thread-end instruction must not write physical register file A or B.",
        "seed 002 shader rules; guide p.37 via Mesa vc4_qpu_validate.c"},
    /* guide: must not (hang) */
    [VC4_RULE_THREND_SB_WAIT] = {"thrend-sb-wait", VC4_ERROR,
        "The thread-end instruction must not wait on the scoreboard implicitly (a first TLB access).",
        "guide p.37 via Mesa vc4_qpu_validate.c; facts 6.10.2"},
    /* next program's FIFOs */
    [VC4_RULE_THREND_DELAY_IO] = {"thrend-delay-io", VC4_ERROR,
        "Thread end and its 2 delay slots must not read uniforms or varyings or touch VPM/VDR/VDW.",
        "seed 002 shader rules; guide p.37 via Mesa vc4_qpu_validate.c"},
    /* clobbers next W */
    [VC4_RULE_THREND_REG14] = {"thrend-reg14", VC4_ERROR,
        "Thread end and its 2 delay slots must not read or write address 14 of either register file.",
        "seed 002 shader rules (next pixel's W is set up in r14b); guide p.37 via Mesa"},
    /* guide: must not */
    [VC4_RULE_LAST_TLB_Z] = {"last-tlb-z", VC4_ERROR,
        "The last instruction (second delay slot of thread end) must not write TLB Z.",
        "guide p.37 via Mesa vc4_qpu_validate.c; qpu-isa-facts 19"},
    /* undefined */
    [VC4_RULE_THREND_BRANCH] = {"thrend-branch", VC4_ERROR,
        "No branch in the 2 delay slots of a thread end (the program has ended).",
        "qpu-isa-facts 18/19; kernel vc4_validate_shaders.c (facts 5.5)"},
    /* guide: must not */
    [VC4_RULE_FS_SCOREBOARD_FIRST_TWO] = {"fs-scoreboard-first-two", VC4_ERROR,
        "The first two instructions of a fragment shader must not wait on the scoreboard (sbwait or a first tile-buffer access: TLB_Z, a colour write or load; a stencil setup waits on nothing).",
        "seed 002 shader rules; guide p.37 via Mesa vc4_qpu_validate.c"},
    /* corrupts varyings */
    [VC4_RULE_FS_VPM_ACCESS] = {"fs-vpm-access", VC4_ERROR,
        "Fragment shaders cannot access VPM or VCD: those FIFOs are shared with varying interpolation.",
        "seed 002 shader rules; seed 003 (guide quote)"},
    /* other thread's data */
    [VC4_RULE_THREADED_UPPER_REGS] = {"threaded-upper-regs", VC4_ERROR,
        "A threaded fragment shader owns only registers 0-15 of each file; 16-31 belong to the other thread.",
        "facts 9 and 5.5 (kernel vc4_validate_shaders.c)"},
    /* reads the old value */
    [VC4_RULE_REGFILE_READ_AFTER_WRITE] = {"regfile-read-after-write", VC4_ERROR,
        "An instruction must not read a physical regfile A/B location written by the previous instruction.",
        "seed 002 shader rules; guide p.37 via Mesa; vc4asm; VC4C (qpu-isa-facts 20)"},
    /* reads the old r4 */
    [VC4_RULE_SFU_R4_EARLY] = {"sfu-r4-early", VC4_ERROR,
        "r4 must not be read in the 2 instructions after an SFU write (the result lands after 2).",
        "guide p.37 via Mesa vc4_qpu_validate.c; qpu-isa-facts 10"},
    /* r4 clobbered */
    [VC4_RULE_SFU_R4_CONFLICT] = {"sfu-r4-conflict", VC4_ERROR,
        "No other r4 writer (SFU, ldtmu, loadc, ldcend, loadcv, loadam) in the 2 instructions after an SFU write.",
        "guide p.37 via Mesa vc4_qpu_validate.c; qpu-isa-facts 10"},
    /* defined, but per quad */
    [VC4_RULE_ROT_QUAD_ONLY] = {"rot-quad-only", VC4_WARNING,
        "A full 16-lane vector rotation needs both MUL inputs in r0-r3; otherwise it rotates within each quad.",
        "guide via Mesa; py-videocore test_rotate_r4/ra; addendum (qpu-isa-facts 6)"},
    /* wrong rotation amount */
    [VC4_RULE_ROT_R5_AFTER_WRITE] = {"rot-r5-after-write", VC4_ERROR,
        "A rotate by r5 must not immediately follow a write to r5 (including the implicit r5 write of a varying read).",
        "guide p.37 via Mesa vc4_qpu_validate.c; vc4asm (qpu-isa-facts 8)"},
    /* rotates stale data */
    [VC4_RULE_ROT_ACC_AFTER_WRITE] = {"rot-acc-after-write", VC4_ERROR,
        "A vector rotate must not immediately follow a write to the accumulator being rotated.",
        "guide p.37 via Mesa vc4_qpu_validate.c (qpu-isa-facts 8)"},
    /* addendum: undefined value */
    [VC4_RULE_DUAL_WRITE_INVERSE] = {"dual-write-inverse", VC4_ERROR,
        "Both ALUs must not write the same target with inverse conditions; the result is undefined.",
        "addendum (qpu-isa-facts 20a)"},
    /* guide: maximum of one */
    [VC4_RULE_ONE_PERIPHERAL] = {"one-peripheral", VC4_ERROR,
        "At most one of TMU write, TMU read, TLB write, TLB read, SFU write, mutex read, semaphore per instruction.",
        "guide p.37 via Mesa vc4_qpu_validate.c (qpu-isa-facts 21)"},
    /* undefined data queued */
    [VC4_RULE_PERIPH_COND_WRITE] = {"periph-cond-write", VC4_ERROR,
        "Conditional writes to TMU, VPM, VPM/VCD setup, VDR/VDW address or SFU trigger the FIFO anyway with undefined data.",
        "addendum (qpu-isa-facts 21); VC4C rejects them"},
    /* reads the old stream */
    [VC4_RULE_UNIF_AFTER_UNIF_ADDR] = {"unif-after-unif-addr", VC4_ERROR,
        "Uniforms must not be read in the 2 instructions after a write of the uniforms address.",
        "guide p.22 via VC4C; Mesa (qpu-isa-facts 22)"},
    /* wrong TMU used */
    [VC4_RULE_TMU_NOSWAP_LATE] = {"tmu-noswap-late", VC4_ERROR,
        "TMU_NOSWAP must be written at least 3 instructions before the first TMU write.",
        "guide p.37 via Mesa vc4_qpu_validate.c (qpu-isa-facts 23)"},
    /* FIFO overrun: hang / lost */
    [VC4_RULE_TMU_FIFO_OVERFLOW] = {"tmu-fifo-overflow", VC4_ERROR,
        "At most 8 TMU FIFO entries (each TMU register write is one) may be outstanding per TMU; half when threaded.",
        "seed 004 texturing post; facts 7.2; Reference Guide via Mesa vc4_qir_schedule.c"},
    /* addendum: "unreliable" */
    [VC4_RULE_TMU_FIFO_DEEP] = {"tmu-fifo-deep", VC4_WARNING,
        "More than 4 outstanding TMU requests without ldtmu is unreliable (results from 4 slots ahead); half when threaded.",
        "addendum (qpu-isa-facts 23)"},
    /* stale mask */
    [VC4_RULE_TLBZ_MS_FLAGS] = {"tlbz-ms-flags", VC4_ERROR,
        "MS_FLAGS must not be read in the 2 instructions after a TLB Z write.",
        "guide p.37 via Mesa vc4_qpu_validate.c (facts 6.10.10)"},
    /* useless, not harmful */
    [VC4_RULE_HOST_INT_ZERO] = {"host-int-zero", VC4_WARNING,
        "Writing zero to HOST_INT raises no interrupt; the value must be non-zero.",
        "addendum (qpu-isa-facts 21)"},
    /* addendum: crash */
    [VC4_RULE_BRANCH_SPACING] = {"branch-spacing", VC4_ERROR,
        "Leave at least 2 non-branch instructions between branches, else no branch is taken or the thread crashes.",
        "addendum (qpu-isa-facts 18)"},
    /* deadlock */
    [VC4_RULE_THRSW_SB_LOCKED] = {"thrsw-sb-locked", VC4_ERROR,
        "No thread switch while the scoreboard is locked (after sbwait or a TLB access, before sbdone).",
        "guide via Mesa vc4_qpu_validate.c (facts 6.10.13)"},
    [VC4_RULE_THRSW_AFTER_LTHRSW] = {"thrsw-after-lthrsw", VC4_ERROR,
        "No thread switch after the last-thread-switch signal.",
        "guide via Mesa vc4_qpu_validate.c (facts 6.10.13)"},
    [VC4_RULE_THRSW_SPACING] = {"thrsw-spacing", VC4_ERROR,
        "A thread switch takes effect after 2 delay slots; the next may come at +3 at the earliest.",
        "guide via Mesa vc4_qpu_validate.c (facts 6.10.13); kernel (facts 5.5)"},
    /* other thread's results */
    [VC4_RULE_THRSW_TMU_PENDING] = {"thrsw-tmu-pending", VC4_ERROR,
        "TMU results requested before a thread switch must all be read before the next switch.",
        "guide via Mesa vc4_qpu_validate.c (facts 6.10.13); seed 004 (shared FIFO)"},
    /* works on hardware (addendum): a portability note */
    [VC4_RULE_VPM_READ_TOO_EARLY] = {"vpm-read-too-early", VC4_NOTE,
        "A VPM read with fewer than 3 instructions between it and its read setup stalls on the BCM2835 until the data is there; the guide says it returns garbage (a portability note).",
        "addendum section 7 (measured: \"No undefined data is returned when the reads are made too early\"); GPU_FFT, Mesa vc4 vertex shaders; seed 003 / guide p.56 (garbage)"},
    /* setup ignored: garbage */
    [VC4_RULE_VPM_SETUP_OUTSTANDING] = {"vpm-setup-outstanding", VC4_ERROR,
        "A new VPM read setup is ignored while more than one value of the previous setup (of fewer than 16) is still unread, or while 4 setups are outstanding; after a 16-vector setup it queues (model, UNVERIFIED).",
        "addendum (qpu-isa-facts 24); Mesa vc4_qpu_emit.c (4 setups, 16 each but the last)"},
    /* seed 003: garbage or hangs */
    [VC4_RULE_VPM_READ_OVERRUN] = {"vpm-read-overrun", VC4_ERROR,
        "More VPM reads than the read setup's vector count give garbage or hang.",
        "seed 003 (VPM read setup NUM)"},
    /* seed 003: garbage or hangs */
    [VC4_RULE_VPM_READ_UNCONSUMED] = {"vpm-read-unconsumed", VC4_ERROR,
        "Every VPM read programmed by a read setup must be consumed before program end.",
        "seed 003; guide p.24 via py-videocore PR #8 (qpu-isa-facts 24)"},
    /* addendum: "unreliable" */
    [VC4_RULE_VPM_CONCURRENT] = {"vpm-concurrent", VC4_WARNING,
        "Only a VPM read and a VPM write may share an instruction; other concurrent VPM register accesses are unreliable.",
        "addendum (\"Concurrent access to VPM registers\"; qpu-isa-facts 24)"},
    /* addendum: does not work */
    [VC4_RULE_PACK_MUL_IO] = {"pack-mul-io", VC4_ERROR,
        "Byte-partial MUL packs (pm=1 .8a-.8d) do not work on I/O (peripheral) targets.",
        "addendum and vc4asm validator (qpu-isa-facts 13)"},
    /* pack not applied */
    [VC4_RULE_PACK_A_TARGET] = {"pack-a-target", VC4_ERROR,
        "A regfile-A pack (pm=0) is only valid when the ALU writing file A targets a physical register.",
        "VC4C checkValidPackTarget (qpu-isa-facts 12)"},
    /* no saturation, value kept */
    [VC4_RULE_PACK_32S_OP] = {"pack-32s-op", VC4_WARNING,
        "The .32s pack saturates only add and sub results.",
        "vc4asm (qpu-isa-facts 12)"},

    /* ---- run time only: the emulator ---- */
    [VC4_RULE_USER_PROGRAM_NO_TLB] = {"user-program-no-tlb", VC4_ERROR,
        "A user program has no fragment payload: varyings, TLB registers and TLB signals mean nothing there (reads give 0, writes are dropped).",
        "hardware facts 6.9"},
    [VC4_RULE_BRANCH_ODD_RADDR_SF] = {"branch-odd-raddr-sf", VC4_WARNING,
        "A branch through an odd register also sets the flags (sf shares bit 45 with raddr_a bit 0).",
        "qpu-isa-facts 18 (vc4asm addendum)"},
    [VC4_RULE_FS_VARYINGS_UNREAD] = {"fs-varyings-unread", VC4_ERROR,
        "A fragment shader must read every varying the shader record sets up before it ends (the next pixel reads the rest); "
        "for points and lines also the ones the PSE makes ahead of them (s, t; the line coordinate).",
        "seed 002; Mesa vc4_program.c, vc4_opt_dead_code.c (the PSE's point and line varyings)"},
    [VC4_RULE_FS_VARYINGS_OVERREAD] = {"fs-varyings-overread", VC4_ERROR,
        "A fragment shader must not use the value of a VARYING_READ beyond the varyings the shader record sets up, plus "
        "the PSE's own for points and lines (a read whose value goes nowhere is not reported).",
        "seed 002; seed 004 (its posted shader names a third VARYING_READ in a nop mul and works on hardware)"},
    [VC4_RULE_UNIF_READ_PAST_END] = {"unif-read-past-end", VC4_WARNING,
        "A user program reads no more uniforms than its stream holds (past it, whatever memory holds).",
        "SRQUA/SRQUL: the uniform stream is memory read onwards (reference guide)"},
    [VC4_RULE_FS_QUAD_XY_WRITE] = {"fs-quad-xy-write", VC4_WARNING,
        "Writes to QUAD_X, QUAD_Y and REV_FLAG have no known effect.",
        "hardware facts 6.9"},
    [VC4_RULE_FS_EARLY_Z_SHADER_Z] = {"fs-early-z-shader-z", VC4_ERROR,
        "A shader that writes a TLB_Z other than its payload Z (rb15) needs early Z disabled: early Z rejects samples with the rasteriser's Z first.",
        "Mesa vc4_program.c / vc4_emit.c (disable_early_z)"},
    [VC4_RULE_FS_DEPTH_WITHOUT_TLB_Z] = {"fs-depth-without-tlb-z", VC4_WARNING,
        "Without a TLB_Z write before its first colour write (or its end) a fragment shader gets no depth and no stencil test and Z is not updated: Configuration Bits with Z updates on or a depth function other than never / always, or a TLB_STENCIL_SETUP write, then have no effect.",
        "issue 11 (bare-metal demos with 03 00 02 draw on a Pi); Mesa vc4_program.c (TLB_Z written exactly when depth or stencil is enabled)"},
    [VC4_RULE_GL_ATTR_READ_ONCE] = {"gl-attr-read-once", VC4_ERROR,
        "A vertex or coordinate shader reads every attribute byte the VCD fetched from the VPM exactly once.",
        "seed 000 (every attribute read from and written to VPM exactly once)"},
    [VC4_RULE_GL_OUTPUT_WRITE_ONCE] = {"gl-output-write-once", VC4_ERROR,
        "A vertex or coordinate shader writes every output row the PTB/PSE read exactly once.",
        "seed 000 (every attribute read from and written to VPM exactly once)"},
    [VC4_RULE_GL_NO_ATTRIBUTE] = {"gl-no-attribute", VC4_WARNING,
        "Every shader stage should fetch at least one attribute (Mesa always gives each shader one).",
        "seed 000 (GL shader record, attribute streams); facts 3.5"},
    [VC4_RULE_GL_ATTR_SELECT] = {"gl-attr-select", VC4_WARNING,
        "The attribute select bits may name only attribute records the packet declares.",
        "seed 000 (GL shader record, attribute streams)"},
    [VC4_RULE_GL_ATTR_TOTAL_SIZE] = {"gl-attr-total-size", VC4_NOTE,
        "An attribute stream reaching past the stage's total attributes size: the bytes beyond are not the vertex's (a note: Mesa does it whenever a shader uses fewer components than the format has).",
        "seed 000 (GL shader record, attribute streams); Mesa vc4_draw.c / vc4_program.c (full format size, VPM offsets by used components)"},
    [VC4_RULE_GL_ATTR_OVERLAP] = {"gl-attr-overlap", VC4_NOTE,
        "Two attribute streams overlap in the VPM: the later overwrites the earlier (a note: Mesa does it whenever a shader uses fewer components than the format has).",
        "seed 000 (GL shader record, attribute streams); Mesa vc4_draw.c / vc4_program.c (full format size, VPM offsets by used components)"},
    [VC4_RULE_GL_VPM_8KB] = {"gl-vpm-8kb", VC4_WARNING,
        "VPMBASE must leave at least 8 KB of VPM for vertex and coordinate shading.",
        "seed 003 (VPM sharing, quoting the guide)"},
    [VC4_RULE_VPM_SETUP_SIZE] = {"vpm-setup-size", VC4_WARNING,
        "A generic VPM read/write setup must not use the reserved SIZE 3 (the setup is ignored).",
        "VideoCore IV 3D Reference Guide section 7"},
    [VC4_RULE_VPM_SETUP_ID] = {"vpm-setup-id", VC4_WARNING,
        "A VPM setup must not use the reserved ID 01 (the setup is ignored).",
        "VideoCore IV 3D Reference Guide section 7"},
    [VC4_RULE_VPM_READ_DEADLOCK] = {"vpm-read-deadlock", VC4_ERROR,
        "A VPM read that finds the FIFO empty after an ignored read setup hangs the QPU.",
        "vc4asm VideoCoreIV-addendum section 7"},
    [VC4_RULE_VPM_DMA_RANGE] = {"vpm-dma-range", VC4_WARNING,
        "A VDR/VDW transfer must stay inside the VPM (the emulator wraps).",
        "VideoCore IV 3D Reference Guide section 7"},
    [VC4_RULE_VDW_MODEW] = {"vdw-modew", VC4_WARNING,
        "VDW setup MODEW 1 is not an element mode (treated as 32-bit).",
        "VideoCore IV 3D Reference Guide section 7"},
    [VC4_RULE_VDW_STRIDE_WIDTH] = {"vdw-stride-width", VC4_NOTE,
        "A VDW stride above the guide's 13 bits works: the field is 16 bits wide (noted once per program).",
        "vc4asm addendum table 35 (16 bits); GPU_FFT strides 16320-65472 on a Pi 1"},
    [VC4_RULE_VDR_PITCH_WIDTH] = {"vdr-pitch-width", VC4_NOTE,
        "A VDR extended pitch above the guide's 13 bits is honoured in full (noted once per program).",
        "py-videocore sgemm (pitches of 8192 and more on a Pi 3); Idein/qmkl#42"},
    [VC4_RULE_VDW_NO_SETUP] = {"vdw-no-setup", VC4_WARNING,
        "VPM_ST_ADDR needs a VDW basic setup on the same QPU first (no store).",
        "VideoCore IV 3D Reference Guide section 7"},
    [VC4_RULE_VDR_NO_SETUP] = {"vdr-no-setup", VC4_WARNING,
        "VPM_LD_ADDR needs a VDR basic setup on the same QPU first (no load).",
        "VideoCore IV 3D Reference Guide section 7"},
    [VC4_RULE_TMU_LOAD_EMPTY] = {"tmu-load-empty", VC4_ERROR,
        "ldtmu with no TMU request outstanding hangs the hardware.",
        "Reference Guide via Mesa vc4_qir_schedule.c; seed 004"},
    [VC4_RULE_TMU_UNCONSUMED] = {"tmu-unconsumed", VC4_WARNING,
        "Every TMU result requested should be loaded (ldtmu) before the program ends.",
        "Reference Guide via Mesa vc4_qir_schedule.c; seed 004"},
    [VC4_RULE_TMU_TEX_TYPE] = {"tmu-tex-type", VC4_ERROR,
        "The texture TYPE (P0 bits 7:4, P1 bit 31) must be a pixel format.",
        "seed 004; Mesa vc4_packet.h VC4_TEX_P*"},
    [VC4_RULE_TMU_TEX_MINFILT] = {"tmu-tex-minfilt", VC4_ERROR,
        "MINFILT (P1 bits 6:4) values 6 and 7 are reserved.",
        "seed 004; Mesa vc4_packet.h VC4_TEX_P*"},
    [VC4_RULE_TMU_TEX_CHILD] = {"tmu-tex-child", VC4_WARNING,
        "A child image needs both its dimensions and its offsets (P2/P3 PTYPE 2 and 3) and must lie inside its parent.",
        "seed 004; Mesa vc4_packet.h VC4_TEX_P*"},
    [VC4_RULE_TMU_TEX_CUBE_STRIDE] = {"tmu-tex-cube-stride", VC4_WARNING,
        "A cube map needs a cube map stride parameter (P2/P3 PTYPE 1).",
        "Mesa vc4_program.c ntq_emit_tex"},
    [VC4_RULE_TMU_TEX_MIPLEVELS] = {"tmu-tex-miplevels", VC4_WARNING,
        "MIPLVLS must not ask for more levels than the texture's size has.",
        "Mesa vc4_resource.c vc4_setup_slices (vc4_tex_mip_layout)"},
    [VC4_RULE_TMU_TEX_CHILD_MIPS] = {"tmu-tex-child-mips", VC4_WARNING,
        "A child image with mip levels is not modelled (level 0 only).",
        "seed 004; Mesa vc4_packet.h VC4_TEX_P*"},
    [VC4_RULE_TMU_TEX_GEOMETRY] = {"tmu-tex-geometry", VC4_ERROR,
        "The texture size, format and levels must have a memory layout.",
        "seed 004; Mesa vc4_packet.h VC4_TEX_P*"},

    /* ---- the control-list validator ---- */
    [VC4_RULE_CL_UNKNOWN_OPCODE] = {"cl-unknown-opcode", VC4_ERROR,
        "Every packet opcode must be a V3D 2.1 packet.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_CL_TRUNCATED] = {"cl-truncated", VC4_ERROR,
        "A packet must fit in the list.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_CL_BAD_ITEMS] = {"cl-bad-items", VC4_ERROR,
        "A variable-length primitive packet's items must be well formed.",
        "docs/control-lists.md"},
    [VC4_RULE_CL_SHADER_STATE] = {"cl-shader-state", VC4_ERROR,
        "A draw needs shader state of the matching kind (GL/NV/VG) before it.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_CL_START_BINNING] = {"cl-start-binning", VC4_ERROR,
        "A draw in a binning list needs Start Tile Binning before it.",
        "v3d-hardware-facts.md"},
    [VC4_RULE_CL_BIN_SIZE] = {"cl-bin-size", VC4_ERROR,
        "The binning configuration's width and height in tiles must be non-zero.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_CL_ORDER_BIN_CONFIG] = {"cl-order-bin-config", VC4_ERROR,
        "Start Tile Binning needs the Tile Binning Mode Configuration before it.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_CL_ATTR_RANGE] = {"cl-attr-range", VC4_ERROR,
        "Every attribute array read by a draw must lie inside memory.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_CL_ARRAY_OVERFLOW] = {"cl-array-overflow", VC4_ERROR,
        "Vertex Array Primitives' first vertex + length must not overflow.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_CL_ORDER_RENDER_CONFIG] = {"cl-order-render-config", VC4_ERROR,
        "Tile packets need the Tile Rendering Mode Configuration before them.",
        "v3d-hardware-facts.md"},
    [VC4_RULE_CL_ORDER_TILE_COORDS] = {"cl-order-tile-coords", VC4_ERROR,
        "A store needs Tile Coordinates before it.",
        "v3d-hardware-facts.md"},
    [VC4_RULE_CL_ONE_LOAD] = {"cl-one-load", VC4_ERROR,
        "Only one tile buffer load may wait for the next Tile Coordinates.",
        "Linux vc4_render_cl.c"},
    [VC4_RULE_CL_STORE_BETWEEN_LOADS] = {"cl-store-between-loads", VC4_WARNING,
        "After Tile Coordinates a store must happen before another load.",
        "Linux vc4_render_cl.c"},
    [VC4_RULE_CL_REQUIRED_BIN_CONFIG] = {"cl-required-bin-config", VC4_ERROR,
        "A binning list needs a Tile Binning Mode Configuration.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_CL_REQUIRED_START_BINNING] = {"cl-required-start-binning", VC4_ERROR,
        "A binning list needs Start Tile Binning.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_CL_BIN_ENDS_WITH_FLUSH] = {"cl-bin-ends-with-flush", VC4_ERROR,
        "A binning list ends with Flush (else the tile lists are never closed).",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_CL_REQUIRED_RENDER_CONFIG] = {"cl-required-render-config", VC4_ERROR,
        "A rendering list needs a Tile Rendering Mode Configuration.",
        "v3d-hardware-facts.md"},
    [VC4_RULE_CL_VG_MODE] = {"cl-vg-mode", VC4_ERROR,
        "VG primitives (41/42) need VG shader state (66/67) at hand; GL/NV primitives need GL/NV state.",
        "PeterLemon/RaspberryPi LIB/CONTROL_LIST.INC (guide: VG primitives only for use in VG shader mode)"},
    [VC4_RULE_CL_VG_RECORD_ALIGN] = {"cl-vg-record-align", VC4_ERROR,
        "The VG shader record is 16-byte aligned and its fragment shader code 8-byte aligned.",
        "PeterLemon/RaspberryPi LIB/CONTROL_LIST.INC"},
    [VC4_RULE_CL_VG_PRIM_TYPE] = {"cl-vg-prim-type", VC4_ERROR,
        "A VG primitive type is 1 RHT, 3 RHT strip, 4 triangles, 5 strip or 6 fan; continuation only for fans.",
        "PeterLemon/RaspberryPi LIB/CONTROL_LIST.INC and VG demos"},
    [VC4_RULE_CL_VG_COORDS] = {"cl-vg-coords", VC4_ERROR,
        "A VG coordinate array (4 bytes per vertex) must lie inside memory.",
        "PeterLemon/RaspberryPi VG demos"},
    [VC4_RULE_CL_VG_RHT_BOUNDARY] = {"cl-vg-rht-boundary", VC4_WARNING,
        "RHT primitives need an RHT X Boundary (packet 100) before them.",
        "PeterLemon/RaspberryPi V3D/ControlList/VG/Coordinate_Array/RHT"},
    [VC4_RULE_CL_CLIP_WINDOW_EMPTY] = {"cl-clip-window-empty", VC4_WARNING,
        "A Clip Window of width 0 or height 0 does not clip everything away on the hardware: to draw "
        "nothing, draw nothing (Mesa's v3d discards rasterisation).",
        "Mesa src/gallium/drivers/v3d/v3dx_emit.c (V3D < 4.1: \"The HW won't entirely clip out when "
        "scissor w/h is 0\"); piglit gl-1.0-scissor-offscreen (a 0x0 scissor) fails on Raspberry Pi 3s "
        "(Mesa's CI, broadcom-rpi3-fails.txt)"},
    [VC4_RULE_CL_LINE_LOOP_TWO] = {"cl-line-loop-two", VC4_WARNING,
        "The hardware fails to draw a line loop of exactly 2 vertices: draw it as lines (as Mesa does). "
        "vc4kit draws nothing.",
        "Mesa src/gallium/drivers/vc4/vc4_draw.c (vc4_draw_workaround_line_loop_2: \"A HW bug fails to draw "
        "2-vert line loops\"); Broadcom's VideoCore IV GLES driver (2017 release, "
        "interface/khronos/common/khrn_int_common.h, workaround LNLOOP: \"A line loop of two points doesn't "
        "draw anything\", on for every revision)"},
    [VC4_RULE_BIN_STATE_COUNTER_WRAP] = {"bin-state-counter-wrap", VC4_WARNING,
        "HW-2116: the binner counts state updates that follow a draw in small counters; when they wrap, "
        "its attempt to write all the state into every tile is broken. Keep to 0x1ef0 (7,920) of them "
        "in one binning job, as Mesa does.",
        "Mesa src/gallium/drivers/vc4/vc4_draw.c (vc4_hw_2116_workaround, VC4_HW_2116_COUNT 0x1ef0); Broadcom's "
        "VideoCore IV GLES driver (2017 release, middleware/khronos/common/khrn_workarounds.c: HW2116 \"let ptb "
        "state counters wrap around safely\", fixed only from revision B2)"},
    [VC4_RULE_BIN_ARRAY_INDEX_16BIT] = {"bin-array-index-16bit", VC4_WARNING,
        "GFXH-515: the binner writes the vertex numbers of a Vertex Array Primitives packet into the tile "
        "lists in 16 bits, so vertices from 65536 on are rendered as vertex (n mod 65536). Split such "
        "arrays (Mesa re-emits the shader state with the attribute addresses moved on).",
        "Mesa src/gallium/drivers/vc4/vc4_draw.c (\"GFXH-515 / SW-5891: The binner emits 16 bit indices "
        "for drawarrays\"); anholt/mesa issue 3 (glmark2's asteroids drawn in part on a Pi until that "
        "workaround)"},
    [VC4_RULE_KERNEL_BIN_WHITELIST] = {"kernel-bin-whitelist", VC4_ERROR,
        "The kernel accepts only its whitelist of packets in a binning list.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_KERNEL_ONE_BIN_CONFIG] = {"kernel-one-bin-config", VC4_ERROR,
        "The kernel accepts one Tile Binning Mode Configuration per binning list.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_KERNEL_BIN_FLAGS] = {"kernel-bin-flags", VC4_ERROR,
        "The kernel rejects double-buffer and 64-bit tile buffer binning.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_KERNEL_ONE_START_BINNING] = {"kernel-one-start-binning", VC4_ERROR,
        "The kernel accepts one Start Tile Binning per binning list.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_KERNEL_FLUSH_LAST] = {"kernel-flush-last", VC4_ERROR,
        "The kernel wants Flush as the very last byte of the binning list.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_KERNEL_SEMAPHORE_BEFORE_FLUSH] = {"kernel-semaphore-before-flush", VC4_ERROR,
        "The kernel wants Increment Semaphore just before the final Flush.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_KERNEL_GL_SHADER_STATE] = {"kernel-gl-shader-state", VC4_ERROR,
        "In a binning list handed to the kernel, GL Shader State holds only its low 4 bits (attribute count, "
        "extended): the kernel supplies the record's address.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c validate_gl_shader_state"},
    /* ---- the kernel stand-in's SUBMIT_CL ---- */
    [VC4_RULE_KERNEL_BO_INDEX] = {"kernel-bo-index", VC4_ERROR,
        "Every BO a submit names (GEM_HANDLES, shader records, texture indices, surfaces) must be an index into "
        "its BO list, of a live BO, and a shader BO exactly where a shader is expected.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c (vc4_use_bo), vc4_gem.c (vc4_cl_lookup_bos)"},
    [VC4_RULE_KERNEL_RELOC_RANGE] = {"kernel-reloc-range", VC4_ERROR,
        "A relocated address (index buffer, attribute array, texture, uniform buffer) and what the draw reads "
        "from it must lie inside its BO.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c"},
    [VC4_RULE_KERNEL_SHADER_REC] = {"kernel-shader-rec", VC4_ERROR,
        "Shader records and uniforms must hold what the GL Shader State packets and the shaders read: one record "
        "per packet, shader code at offset 0 of a validated shader BO, matching fragment-shader threading.",
        "Linux drivers/gpu/drm/vc4/vc4_validate.c (validate_gl_shader_rec)"},
    [VC4_RULE_KERNEL_RCL_SURFACE] = {"kernel-rcl-surface", VC4_ERROR,
        "The submit's colour, Z/stencil and multisample surfaces must have known formats and tilings, 16-byte "
        "aligned offsets, fit their BOs, and lie within the binned tiles; at least one is written.",
        "Linux drivers/gpu/drm/vc4/vc4_render_cl.c"},
    /* ---- the kernel's shader rules (isa/qpu_kernel.c) ---- */
    [VC4_RULE_KERNEL_SHADER_END] = {"kernel-shader-end", VC4_ERROR,
        "A shader BO must signal program end with both delay slots inside the BO; nothing after them is looked at.",
        "Linux vc4_validate_shaders.c vc4_validate_shader"},
    [VC4_RULE_KERNEL_SIGNAL] = {"kernel-signal", VC4_ERROR,
        "The kernel refuses the breakpoint, coverage load, colour load and end, and alpha-mask load signals.",
        "Linux vc4_validate_shaders.c vc4_validate_shader"},
    [VC4_RULE_KERNEL_WADDR] = {"kernel-waddr", VC4_ERROR,
        "Writes to HOST_INT, TMU_NOSWAP, TLB_ALPHA_MASK, MUTEX_RELEASE and the VPM DMA addresses are refused (accumulators, registers, TLB, VPM and its setup, SFU and TMU are allowed).",
        "Linux vc4_validate_shaders.c check_reg_write"},
    [VC4_RULE_KERNEL_TMU_SETUP] = {"kernel-tmu-setup", VC4_ERROR,
        "Texture setup: not both ALUs writing TMU registers, no uniform read in a parameter write, at most 4 parameters before the S write.",
        "Linux vc4_validate_shaders.c check_tmu_write, check_instruction_writes"},
    [VC4_RULE_KERNEL_DIRECT_LOOKUP] = {"kernel-direct-lookup", VC4_ERROR,
        "A direct (S-only) TMU lookup must be an add ALU add, without small immediate, of min(max(x, 0), uniform) and a uniform (the base address).",
        "Linux vc4_validate_shaders.c check_tmu_write, track_live_clamps"},
    [VC4_RULE_KERNEL_UNIFORM_ADDRESS] = {"kernel-uniform-address", VC4_ERROR,
        "UNIFORMS_ADDRESS is written only as the absolute reset: an unconditional unpacked add ALU add of a register loaded with (uniform bytes read so far + 4) and a uniform, with a plain signal; never the relative form.",
        "Linux vc4_validate_shaders.c validate_uniform_address_write, check_reg_write"},
    [VC4_RULE_KERNEL_UNIFORM_UNDEFINED] = {"kernel-uniform-undefined", VC4_ERROR,
        "After a branch target, no uniform may be read (nor a texture parameter written) before the uniforms address reset.",
        "Linux vc4_validate_shaders.c check_instruction_reads, check_tmu_write, vc4_handle_branch_target"},
    [VC4_RULE_KERNEL_BRANCH_FORM] = {"kernel-branch-form", VC4_ERROR,
        "Branches must be relative, not through a register, 8-byte aligned, write no register, and not fall in the delay slots of another branch.",
        "Linux vc4_validate_shaders.c vc4_validate_branches, check_branch"},
    [VC4_RULE_KERNEL_BRANCH_TARGET] = {"kernel-branch-target", VC4_ERROR,
        "A branch's target and fall-through must lie inside the program before its end signal, and not in the middle of texture setup.",
        "Linux vc4_validate_shaders.c vc4_validate_branches, vc4_handle_branch_target"},
    [VC4_RULE_KERNEL_THRSW_SPACING] = {"kernel-thrsw-spacing", VC4_ERROR,
        "A thread switch or branch may not come within 2 instructions after a thread switch.",
        "Linux vc4_validate_shaders.c vc4_validate_shader"},
    [VC4_RULE_KERNEL_THREADED_UPPER_REGS] = {"kernel-threaded-upper-regs", VC4_ERROR,
        "A shader that switches threads may not read or write registers 16-31 of either file.",
        "Linux vc4_validate_shaders.c vc4_validate_shader, check_instruction_reads, check_reg_write"},
    [VC4_RULE_KERNEL_THREAD_MODE] = {"kernel-thread-mode", VC4_ERROR,
        "A fragment shader is threaded exactly when its shader record says so (no FS_SINGLE_THREAD flag): `--threaded` needs a thread switch, a single-threaded one has none.",
        "Linux vc4_validate.c validate_gl_shader_rec"},
    /* ---- vc4kit boot: the ARM side ---- */
    [VC4_RULE_ARM_UNKNOWN_PERIPHERAL] = {"arm-unknown-peripheral", VC4_WARNING,
        "A load or store in the peripheral window hits no modelled register: reads give 0, writes are ignored.",
        "BCM2835 ARM Peripherals (what is modelled: docs/boot.md)"},
    [VC4_RULE_ARM_MBOX_UNKNOWN_TAG] = {"arm-mbox-unknown-tag", VC4_WARNING,
        "A property-channel message holds a tag the firmware model does not answer: its response bit stays clear.",
        "firmware wiki: Mailbox property interface"},
    [VC4_RULE_ARM_MBOX_BAD_BUFFER] = {"arm-mbox-bad-buffer", VC4_WARNING,
        "A property buffer outside RAM, or a tag's value buffer past the message's size, is answered 0x80000001.",
        "firmware wiki: Mailbox property interface"},
    [VC4_RULE_ARM_MBOX_CHANNEL] = {"arm-mbox-channel", VC4_WARNING,
        "Mailbox messages go to channel 1 (frame buffer) or 8 (property tags); others get no answer.",
        "firmware wiki: Mailboxes"},
};
static_assert(VC4_ARRAY_SIZE(vc4_rule_table) == VC4_RULE_COUNT, "one registry row per rule id");

const struct vc4_rule *vc4_rules(size_t *count)
{
    if (count)
        *count = VC4_RULE_COUNT;
    return vc4_rule_table;
}

const struct vc4_rule *vc4_rule_find(const char *id)
{
    if (!id)
        return NULL;
    for (size_t i = 0; i < VC4_RULE_COUNT; i++)
        if (vc4_rule_table[i].id && strcmp(vc4_rule_table[i].id, id) == 0)
            return &vc4_rule_table[i];
    return NULL;
}

void vc4_rule_report(const struct vc4_diag_sink *sink, enum vc4_severity sev, const char *unit,
                     enum vc4_rule_id r, const struct vc4_location *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if ((unsigned)r < VC4_RULE_COUNT)
        vc4_diag_rulev(sink, sev, unit, vc4_rule_table[r].id, vc4_rule_table[r].source, loc, fmt, ap);
    else
        vc4_diag_emitv(sink, sev, VC4_DIAG_SEMANTIC, unit, loc, fmt, ap);
    va_end(ap);
}
