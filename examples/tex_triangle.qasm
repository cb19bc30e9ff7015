# tex_triangle.qasm - seed 004's textured triangle in NV mode, as one
# assembly memory image for `vc4kit render` (docs/rendering.md,
# docs/texturing.md):
#
#     vc4kit render examples/tex_triangle.qasm -o tex_triangle.png
#
# The 640x480 seed triangle (top (320, 32), bottom-left (32, 448),
# bottom-right (608, 448), Z = 1/W = 1.0) with two varyings S, T: (0.5, 0) at
# the top, (0, 1) and (1, 1) at the bottom.  The fragment shader is the six
# instructions exactly as the post gives them (the .word pairs of
# examples/seeds/texture_fragment_shader.hex) and seed 002's thread end:
# interpolate S and T, write T to TMU0_T (pulls texture config parameter P0
# from the uniforms), S to TMU0_S (pulls P1, submits), ldtmu0, r4 to
# TLB_COLOUR_ALL.  The texture is a 16x16 picture stored as a 32x32 RGBA8888
# texture in T format (one 4 KB tile: four 1 KB sub-tiles in the order of
# seed 004, each 4x4 utiles of 4x4 texels; every picture pixel is 2x2 texels:
# a 16x16 RGBA8888 texture would be LT by size), point sampled and clamped.
# The image is the C scene's (examples/tex_scene.h, tests/golden/
# tex_triangle.png), which renders the same picture from T, LT and raster
# textures.  The posted third instruction also reads raddr_b 35 (VARYING_READ)
# beside its unused MUL: the emulator warns that it reads a third varying.
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
    # threaded FS, stride 20 (2 hwords + 4 words), uniforms P0 and P1, 2 varyings
    NV_Shader_Record 0, 0, 0, 0, 20, 0, 2, r:FRAGMENT_SHADER_CODE, r:UNIFORMS, r:VERTEX_DATA

.align 16
VERTEX_DATA:
    # top: X, Y in 12.4 fixed point, Z, 1/W, S, T
    .hword 320 * 16, 32 * 16
    .single 1.0, 1.0, 0.5, 0.0
    # bottom left
    .hword 32 * 16, 448 * 16
    .single 1.0, 1.0, 0.0, 1.0
    # bottom right
    .hword 608 * 16, 448 * 16
    .single 1.0, 1.0, 1.0, 1.0

# Texture config parameters (seed 004; Mesa vc4_packet.h): P0 = base | TYPE
# 0 (RGBA8888) << 4 | MIPLVLS 0; P1 = height 32 << 20 | width 32 << 8 |
# MAGFILT nearest (1 << 7) | MINFILT nearest (1 << 4) | WRAP_T, WRAP_S clamp.
.align 16
UNIFORMS:
    .word r:TEXTURE
    .word 32 << 20 | 32 << 8 | 1 << 7 | 1 << 4 | 1 << 2 | 1

# ---- fragment shader (seed 004, words as posted) ----------------------------------
.align 8
FRAGMENT_SHADER_CODE:
    .word 0x203E3DF7, 0x110059E0                 # S * W
    .word 0x213E3177, 0x11024821                 # S = S * W + C, T * W
    .word 0x13E3377, 0x11020E67                  # TMU0_T = T * W + C (pulls P0)
    .word 0x159E7000, 0x10020E27                 # TMU0_S = S (pulls P1, submits)
    .word 0x9E7000, 0xA00009E7                   # ldtmu0: r4 = RGBA8888
    .word 0x159E7924, 0x10020BA7                 # TLB_COLOUR_ALL = r4
    nop; thrend
    nop
    nop; sbdone

# ---- the texture ----------------------------------------------------------------------
# The picture (tex_scene.h tx_picture): a red/green ramp, a blue 4x4 checker,
# a white frame and a black "F".
.set PIC_FRAME(x, y) (x == 0 || y == 0 || x == 15 || y == 15)
.set PIC_GLYPH(x, y) ((x == 4 && y >= 3 && y <= 12) || (y == 3 && x >= 4 && x <= 10) || (y == 7 && x >= 4 && x <= 8))
.set PIC_RAMP(x, y) ((40 + 13 * x) | (40 + 13 * y) << 8 | ((((x >> 2) ^ (y >> 2)) & 1) ? 220 : 70) << 16 | 0xFF000000)
.set PIC(x, y) (PIC_FRAME(x, y) ? 0xFFFFFFFF : PIC_GLYPH(x, y) ? 0xFF000000 : PIC_RAMP(x, y))

# T format, one 4 KB tile (tile row 0, so sub-tiles in the even-row order
# bottom-left, top-left, top-right, bottom-right), written in memory order:
# word i is in sub-tile i >> 8, utile (i >> 4) & 15 (4x4, raster), texel
# i & 15 (4x4, raster).
.align 4096
TEXTURE:
.rep i, 1024
    .lset slot, i >> 8
    .lset sx, (slot == 2 || slot == 3) ? 1 : 0
    .lset sy, (slot == 1 || slot == 2) ? 1 : 0
    .lset u, (i >> 4) & 15
    .lset x, sx * 16 + (u & 3) * 4 + (i & 3)
    .lset y, sy * 16 + (u >> 2) * 4 + ((i >> 2) & 3)
    .word PIC(x >> 1, y >> 1)
.endr
