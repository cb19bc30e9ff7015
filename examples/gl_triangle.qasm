# gl_triangle.qasm - seed 000's GL-mode scene as one assembly memory image
# for `vc4kit render` (docs/rendering.md, docs/gl.md):
#
#     vc4kit render examples/gl_triangle.qasm -o gl_triangle.png
#
# The triangle of nv_triangle.qasm (top (320, 32), bottom-left (32, 448),
# bottom-right (608, 448), Z = 1/W = 1.0, green from four float uniforms)
# drawn in GL mode as seed 000 does it: two attribute streams (stream 0 in
# the primitive-setup format for the vertex shader, stream 1 in the binner's
# format for the coordinate shader), the post's pass-through vertex and
# coordinate shaders word for word, the GL shader record byte for byte as
# the post lays it out, and GL_Shader_State with two arrays.  The image is
# nv_triangle's (tests/golden/nv_triangle.png) pixel for pixel.
#
# One change from the post: its record has fragment-shader uniforms address
# 0 and does not show FRAG_CODE; here the fragment shader is nv_triangle's,
# whose colour comes from UNIFORM_DATA.
#
# Convention: as nv_triangle.qasm (LOAD_ADDR, BIN_START/BIN_END,
# RENDER_START/RENDER_END).
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
    # seed 000: .byte 0x40, .word (GL_SHADER_STATE_RECORD | 2): two attribute arrays
    GL_Shader_State 2, 0, r:GL_SHADER_STATE_RECORD
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

# ---- GL shader state record (seed 000, byte for byte) ----------------------------
.align 16
GL_SHADER_STATE_RECORD:
    .hword 4                       # bytes 0-1: flag bits, enable clipping
    .byte 0                        # byte 2: FS number of uniforms
    .byte 0                        # byte 3: FS number of varyings
    .word r:FRAGMENT_SHADER_CODE   # bytes 4-7: FS code address
    .word r:UNIFORM_DATA           # bytes 8-11: FS uniforms address (the post: 0, see above)
    .hword 0                       # bytes 12-13: VS number of uniforms
    .byte 1                        # byte 14: VS stream select mask
    .byte 12                       # byte 15: VS total attributes size
    .word r:VERT_CODE              # bytes 16-19: VS code address
    .word r:VERT_UNIFORM_DATA      # bytes 20-23: VS uniforms address
    .hword 0                       # bytes 24-25: CS number of uniforms
    .byte 2                        # byte 26: CS stream select mask
    .byte 28                       # byte 27: CS total attributes size
    .word r:COORD_CODE             # bytes 28-31: CS code address
    .word r:COORD_UNIFORM_DATA     # bytes 32-35: CS uniforms address
    # vert array slot 0: verts for the vert shader
    .word r:VERTEX_DATA_FOR_VERTSHADER # bytes 36-39: stream 0 address
    .byte 11                       # byte 40: stream 0 number of bytes - 1
    .byte 12                       # byte 41: stream 0 memory stride
    .byte 0                        # byte 42: stream 0 VS VPM offset
    .byte 0                        # byte 43: stream 0 CS VPM offset
    # vert array slot 1: verts for the coord shader
    .word r:VERTEX_DATA_FOR_COORDSHADER # bytes 44-47: stream 1 address
    .byte 27                       # byte 48: stream 1 number of bytes - 1
    .byte 28                       # byte 49: stream 1 memory stride
    .byte 0                        # byte 50: stream 1 VS VPM offset
    .byte 0                        # byte 51: stream 1 CS VPM offset

.align 16
UNIFORM_DATA:                      # RGBA as 4 floats
    .single 0.0
    .single 1.0
    .single 0.0
    .single 1.0
VERT_UNIFORM_DATA:                 # (no uniforms are read)
COORD_UNIFORM_DATA:
    .word 0

.align 64                          # seed 000: PSE format
VERTEX_DATA_FOR_VERTSHADER:
    .hword 320 * 16                # top: X in 12.4 fixed point
    .hword 32 * 16                 #      Y
    .single 1.0                    #      Z
    .single 1.0                    #      1 / W
    .hword 32 * 16                 # bottom left
    .hword 448 * 16
    .single 1.0
    .single 1.0
    .hword 608 * 16                # bottom right
    .hword 448 * 16
    .single 1.0
    .single 1.0

.align 64                          # seed 000: PTB format
VERTEX_DATA_FOR_COORDSHADER:
    .single 0.00156494522          # top: Xc
    .single -0.86638830897         #      Yc
    .single 1.0                    #      Zc
    .single 1.0                    #      Wc
    .hword 320 * 16                #      X in 12.4 fixed point
    .hword 32 * 16                 #      Y
    .single 1.0                    #      Z
    .single 1.0                    #      1 / Wc
    .single -0.89984350547         # bottom left
    .single 0.87056367432
    .single 1.0
    .single 1.0
    .hword 32 * 16
    .hword 448 * 16
    .single 1.0
    .single 1.0
    .single 0.90297339593          # bottom right (not shown in the post: the same mapping)
    .single 0.87056367432
    .single 1.0
    .single 1.0
    .hword 608 * 16
    .hword 448 * 16
    .single 1.0
    .single 1.0

# ---- the post's pass-through shaders (examples/seeds/gl_*_shader.hex) -------------------
.align 16
VERT_CODE:
    .word 0x9E7000, 0x100009E7
    .word 0x1A341AC0, 0xE0020C67
    .word 0x9E7000, 0x100009E7
    .word 0x9E7000, 0x100009E7
    .word 0x9E7000, 0x100009E7
    .word 0x15C27DF7, 0x10020027
    .word 0x15C27DF7, 0x10020067
    .word 0x15C27DF7, 0x100200A7
    .word 0x17BC1AC0, 0xE0021C67
    .word 0x15027DF7, 0x10020C27
    .word 0x15067DF7, 0x10020C27
    .word 0x150A7DF7, 0x10020C27
    .word 0x9E7000, 0x500009E7
    .word 0x9E7000, 0x300009E7
    .word 0x9E7000, 0x100009E7
    .word 0x9E7000, 0x100009E7

.align 16
COORD_CODE:
    .word 0x9E7000, 0x100009E7
    .word 0x1A741AC0, 0xE0020C67
    .word 0x9E7000, 0x100009E7
    .word 0x9E7000, 0x100009E7
    .word 0x9E7000, 0x100009E7
    .word 0x15C27DF7, 0x10020027
    .word 0x15C27DF7, 0x10020067
    .word 0x15C27DF7, 0x100200A7
    .word 0x15C27DF7, 0x100200E7
    .word 0x15C27DF7, 0x10020127
    .word 0x15C27DF7, 0x10020167
    .word 0x15C27DF7, 0x100201A7
    .word 0x17BC1AC0, 0xE0021C67
    .word 0x15027DF7, 0x10020C27
    .word 0x15067DF7, 0x10020C27
    .word 0x150A7DF7, 0x10020C27
    .word 0x150E7DF7, 0x10020C27
    .word 0x15127DF7, 0x10020C27
    .word 0x15167DF7, 0x10020C27
    .word 0x151A7DF7, 0x10020C27
    .word 0x9E7000, 0x500009E7
    .word 0x9E7000, 0x300009E7
    .word 0x9E7000, 0x100009E7
    .word 0x9E7000, 0x100009E7

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
