# vg_shape.qasm - the VG-mode scene of examples/baremetal/vg_shape.c as one
# assembly memory image for `vc4kit render` (docs/rendering.md "VG mode"):
#
#     vc4kit render examples/vg_shape.qasm -o vg_shape.png
#
# A 640x480 RGBA8888 frame: an RHT strip (type 3) with the RHT X Boundary
# at x = 32, the region from x = 32 to the chevron (608,32) (320,240)
# (608,448), in orange from the VG shader record's uniforms; then, after a
# VG Inline Shader Record with other uniforms, a triangle fan (type 6), a
# blue diamond in the chevron's notch.  Both from coordinate arrays: one
# 32-bit word per vertex, X in bits 15:0 and Y in 31:16, 12.4 fixed point,
# as PeterLemon's VG demos lay them out.  No vertex shader, no vertex data.
# The same frame as the bare-metal image: tests/golden/boot_vg_shape.png.
.include "v3d_cl.qinc"

.set LOAD_ADDR, 0x00100000
.set WIDTH, 640
.set HEIGHT, 480
.set TILES_X, (WIDTH + 63) / 64
.set TILES_Y, (HEIGHT + 63) / 64
.set TILE_ALLOC, 0x00200000
.set TILE_ALLOC_SIZE, 0x00100000
.set TSDA, 0x00300000
.set FRAME, 0x00400000
.set CLEAR, 0xFF000000            # opaque black

# ---- binning list (CT0) ------------------------------------------------------
BIN_START:
    Tile_Binning_Mode_Configuration TILE_ALLOC, TILE_ALLOC_SIZE, TSDA, TILES_X, TILES_Y, 0, 0, 1, 0, 2, 0
    Start_Tile_Binning
    Clip_Window 0, 0, WIDTH, HEIGHT
    # the demos' bits: forward and reverse faces, early Z updates
    Configuration_Bits 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
    Viewport_Offset 0, 0
    RHT_X_Boundary 32 * 16                       # 12.4
    VG_Shader_State r:VG_SHADER_STATE_RECORD
    VG_Coordinate_Array_Primitives 3, 0, 3, r:CHEVRON   # RHT strip, 3 vertices
    VG_Inline_Shader_Record 0, r:FRAGMENT_SHADER_CODE, r:UNIFORMS_BLUE
    VG_Coordinate_Array_Primitives 6, 0, 6, r:DIAMOND   # triangle fan, 6 vertices
    Increment_Semaphore
    Flush
BIN_END:

# ---- rendering list (CT1) ------------------------------------------------------
RENDER_START:
    Clear_Colors CLEAR | (CLEAR << 32), 0, 0, 0
    Tile_Rendering_Mode_Configuration FRAME, WIDTH, HEIGHT, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0
    Tile_Coordinates 0, 0
    Store_Tile_Buffer_General 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
.rep ty, TILES_Y
.rep tx, TILES_X
    Tile_Coordinates tx, ty
.if tx == 0 && ty == 0
    Wait_On_Semaphore
.endif
    Branch_To_Sub_List TILE_ALLOC + (ty * TILES_X + tx) * 32
.if tx == TILES_X - 1 && ty == TILES_Y - 1
    Store_MS_Tile_Buffer_And_EOF
.else
    Store_MS_Tile_Buffer
.endif
.endr
.endr
RENDER_END:

# ---- VG shader state record (PeterLemon's demos; UNVERIFIED beyond them) ------------
.align 16
VG_SHADER_STATE_RECORD:
    # threaded FS, 0 uniforms (unused), 0 varyings, code, uniforms
    VG_Shader_Record 0, 0, 0, r:FRAGMENT_SHADER_CODE, r:UNIFORMS_ORANGE

.align 16
UNIFORMS_ORANGE:
    .single 1.0, 0.5, 0.0, 1.0
UNIFORMS_BLUE:
    .single 0.0, 0.25, 1.0, 1.0

.align 16
CHEVRON:
    .hword 608 * 16, 32 * 16
    .hword 320 * 16, 240 * 16
    .hword 608 * 16, 448 * 16
DIAMOND:
    .hword 520 * 16, 240 * 16                    # centre
    .hword 580 * 16, 240 * 16
    .hword 520 * 16, 180 * 16
    .hword 460 * 16, 240 * 16
    .hword 520 * 16, 300 * 16
    .hword 580 * 16, 240 * 16

# ---- fragment shader: the colour of four float uniforms -------------------------------
.align 8
FRAGMENT_SHADER_CODE:
    nop; fmul r5quad.8a, unif, 1.0; @add_a=6 @add_b=7
    nop; fmul r5quad.8b, unif, 1.0
    nop; fmul r5quad.8c, unif, 1.0
    nop; fmul r5quad.8d, unif, 1.0
    mov tlbc, r5
    nop; thrend
    nop
    nop; sbdone
