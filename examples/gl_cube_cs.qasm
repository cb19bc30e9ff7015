# gl_cube_cs.qasm - coordinate shader of the GL cube (examples/gl_cube.c):
# the vertex position transformed by the model-view-projection matrix in
# QPU code, written in the format the binner reads (seed 003, facts §2.4):
#   VPM row 0-3 Xc Yc Zc Wc, 4 Xs/Ys (two s16 12.4), 5 Zs, 6 1/Wc
#
# VPM in (the VCD's batch, one column per vertex): rows 0-2 x, y, z (f32).
# Uniforms, in the order read: the 4x4 matrix row by row (16 floats), then
# X scale and Y scale (half the viewport in 1/16 pixel, Y negative: the
# frame's Y goes down), Z scale and Z offset (Zc/Wc -> Zs).
# Every attribute row is read once and every output row written once.

    ldi vr_setup, 0x00301A00        # read 3 rows from row 0: horizontal 32-bit, stride 1
    ldi vw_setup, 0x00001A00        # write from row 0: horizontal 32-bit, stride 1
    nop
    nop
    mov ra0, vpm                    # x
    mov ra1, vpm                    # y
    mov ra2, vpm                    # z

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
    mov vpm, rb0                    # out 0: Xc
    mov vpm, rb1                    # out 1: Yc
    mov ra9, r4                     # 1/Wc
    mov vpm, rb2                    # out 2: Zc
    mov vpm, rb3                    # out 3: Wc
    # Xs, Ys = clip / Wc x scale, to 12.4 integers, packed X low, Y high
    fmul r0, rb0, ra9
    fmul r0, r0, unif
    fmul r1, rb1, ra9
    fmul r1, r1, unif
    ftoi r0, r0
    ftoi r1, r1
    mov r3, 16
    shl r0, r0, r3
    shr r0, r0, r3
    shl r1, r1, r3
    or vpm, r0, r1                  # out 4: Xs/Ys
    fmul r0, rb2, ra9
    fmul r0, r0, unif
    fadd vpm, r0, unif              # out 5: Zs = Zc/Wc x Z scale + Z offset
    mov vpm, ra9                    # out 6: 1/Wc
    nop; thrend
    nop
    nop
