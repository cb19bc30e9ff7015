# gl_cube_vs.qasm - vertex shader of the GL cube (examples/gl_cube.c): the
# position transformed by the model-view-projection matrix and the colour
# lit by one directional light, in QPU code, written in the format primitive
# setup reads (facts §2.4):
#   VPM row 0 Xs/Ys (two s16 12.4), 1 Zs, 2 1/Wc, 3-5 varyings R G B
#
# VPM in (the VCD's batch, one column per vertex): rows 0-2 position x y z,
# 3-5 normal, 6-8 colour R G B (f32).
# Uniforms, in the order read: the 4x4 matrix row by row (16 floats); X
# scale, Y scale, Z scale, Z offset (as the coordinate shader); the light
# direction in model space (3 floats, unit length: the host rotates it by
# the inverse model rotation, so the shader dots it with the model-space
# normal); the ambient and diffuse weights.
# Every attribute row is read once and every output row written once.

    ldi vr_setup, 0x00901A00        # read 9 rows from row 0: horizontal 32-bit, stride 1
    ldi vw_setup, 0x00001A00        # write from row 0
    nop
    nop
    mov ra0, vpm                    # x
    mov ra1, vpm                    # y
    mov ra2, vpm                    # z
    mov ra3, vpm                    # normal x
    mov ra4, vpm                    # normal y
    mov ra5, vpm                    # normal z
    mov ra6, vpm                    # R
    mov ra7, vpm                    # G
    mov ra8, vpm                    # B

.macro row_dot, dst
    fmul r0, ra0, unif
    fmul r1, ra1, unif
    fadd r0, r0, r1
    fmul r1, ra2, unif
    fadd r0, r0, r1
    fadd dst, r0, unif
.endm
    row_dot rb0                     # Xc
    row_dot rb1                     # Yc
    row_dot rb2                     # Zc
    row_dot rb3                     # Wc
    nop
    mov recip, rb3                  # 1/Wc arrives in r4 after two instructions
    nop
    nop
    mov ra9, r4                     # 1/Wc
    nop
    fmul r0, rb0, ra9
    fmul r0, r0, unif               # Xs in 1/16 pixel
    fmul r1, rb1, ra9
    fmul r1, r1, unif               # Ys
    ftoi r0, r0
    ftoi r1, r1
    mov r3, 16
    shl r0, r0, r3
    shr r0, r0, r3
    shl r1, r1, r3
    or vpm, r0, r1                  # out 0: Xs/Ys
    fmul r0, rb2, ra9
    fmul r0, r0, unif
    fadd vpm, r0, unif              # out 1: Zs
    mov vpm, ra9                    # out 2: 1/Wc
    # light: ambient + diffuse x max(N.L, 0)
    fmul r0, ra3, unif
    fmul r1, ra4, unif
    fadd r0, r0, r1
    fmul r1, ra5, unif
    fadd r0, r0, r1
    fmax r0, r0, 0                  # (small immediate 0 = 0.0)
    fmul r0, r0, unif               # x diffuse
    fadd r2, r0, unif               # + ambient
    fmul vpm, ra6, r2               # out 3: R
    fmul vpm, ra7, r2               # out 4: G
    fmul vpm, ra8, r2               # out 5: B
    nop; thrend
    nop
    nop
