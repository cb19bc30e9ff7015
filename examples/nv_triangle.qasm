# nv_triangle.qasm - seed 002's NV-mode scene as one assembly memory image for
# `vc4kit render` (docs/rendering.md):
#
#     vc4kit render examples/nv_triangle.qasm -o nv_triangle.png
#
# A 640x480 RGBA8888 frame with one triangle, vertices top (320, 32),
# bottom-left (32, 448), bottom-right (608, 448) in 12.4 fixed point,
# Z = 1/W = 1.0, coloured from four float uniforms (R 0, G 1, B 0, A 1) that
# the fragment shader packs into one RGBA8888 word with the mul ALU's
# .8a/.8b/.8c/.8d packs (pm 1): a green triangle on black.
#
# Convention: the image is assembled and loaded at LOAD_ADDR; the labels
# BIN_START/BIN_END and RENDER_START/RENDER_END name the binning list (run on
# CT0) and the rendering list (run on CT1).  The lists follow the Linux
# kernel's (hardware facts §3.5, §4.3).  Labels are referred to as r:NAME in
# macro arguments.  The C form of this scene is tests/unit/test_render_scenes.h.
.include "v3d_cl.qinc"

.set LOAD_ADDR, 0x00100000
.set WIDTH, 640
.set HEIGHT, 480
.set TILES_X, (WIDTH + 63) / 64
.set TILES_Y, (HEIGHT + 63) / 64
.set TILE_ALLOC, 0x00200000       # tile allocation memory (1 MB)
.set TILE_ALLOC_SIZE, 0x00100000
.set TSDA, 0x00300000             # tile state data array, 48 bytes per tile
.set FRAME, 0x00400000            # the frame buffer, 640 x 480 x 4 bytes
.set CLEAR, 0xFF000000            # opaque black (byte 0 = red)

# ---- binning list (CT0) ------------------------------------------------------
BIN_START:
    # tile allocation: initial blocks of 32 bytes, then blocks of 128 (as the kernel)
    Tile_Binning_Mode_Configuration TILE_ALLOC, TILE_ALLOC_SIZE, TSDA, TILES_X, TILES_Y, 0, 0, 1, 0, 2, 0
    Start_Tile_Binning
    Primitive_List_Format 2, 1                   # triangles, 16-bit indices
    Clip_Window 0, 0, WIDTH, HEIGHT
    # forward and reverse faces, no oversampling, depth test "always"
    Configuration_Bits 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0
    Viewport_Offset 0, 0
    NV_Shader_State r:NV_SHADER_STATE_RECORD
    Vertex_Array_Primitives 4, 3, 0              # triangles, 3 vertices from 0
    Increment_Semaphore                          # fires when the Flush is done
    Flush
.align 8                                         # end on a 64-bit word (a label does not pad)
BIN_END:

# ---- rendering list (CT1) ------------------------------------------------------
RENDER_START:
    Clear_Colors CLEAR | (CLEAR << 32), 0, 0, 0
    Tile_Rendering_Mode_Configuration FRAME, WIDTH, HEIGHT, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0
    Tile_Coordinates 0, 0                        # make the tile buffer take the clear colour
    Store_Tile_Buffer_General 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
.rep ty, TILES_Y
.rep tx, TILES_X
    Tile_Coordinates tx, ty
.if tx == 0 && ty == 0
    Wait_On_Semaphore                            # until the binner's Flush
.endif
    Branch_To_Sub_List TILE_ALLOC + (ty * TILES_X + tx) * 32
.if tx == TILES_X - 1 && ty == TILES_Y - 1
    Store_MS_Tile_Buffer_And_EOF
.else
    Store_MS_Tile_Buffer
.endif
.endr
.endr
.align 8                                         # end on a 64-bit word (a label does not pad)
RENDER_END:

# ---- NV shader state record (seed 002) ---------------------------------------------
.align 16
NV_SHADER_STATE_RECORD:
    # threaded FS (flag bit 0 = single-threaded), stride 12, 0 varyings
    NV_Shader_Record 0, 0, 0, 0, 12, 0, 0, r:FRAGMENT_SHADER_CODE, r:UNIFORM_DATA, r:VERTEX_DATA

.align 16
UNIFORM_DATA:                                    # RGBA as 4 floats
    .single 0.0                                  # red
    .single 1.0                                  # green
    .single 0.0                                  # blue
    .single 1.0                                  # alpha

.align 16
VERTEX_DATA:
    # top
    .hword 320 * 16                              # X in 12.4 fixed point
    .hword 32 * 16                               # Y in 12.4 fixed point
    .single 1.0                                  # Z
    .single 1.0                                  # 1 / W
    # bottom left
    .hword 32 * 16
    .hword 448 * 16
    .single 1.0
    .single 1.0
    # bottom right
    .hword 608 * 16
    .hword 448 * 16
    .single 1.0
    .single 1.0

# ---- fragment shader ------------------------------------------------------------------
.align 8
FRAGMENT_SHADER_CODE:
    # seed 002: read in a uniform and pack to R (.word 0x20820DF7, 0xD14059E5)
    nop; fmul r5quad.8a, unif, 1.0; @add_a=6 @add_b=7
    nop; fmul r5quad.8b, unif, 1.0               # G
    nop; fmul r5quad.8c, unif, 1.0               # B
    nop; fmul r5quad.8d, unif, 1.0               # A
    mov tlbc, r5                                 # TLB_COLOUR_ALL (waits on the scoreboard)
    nop; thrend
    nop
    nop; sbdone
