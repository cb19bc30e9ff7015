# tex_plane.qasm - fragment shader of the mip-mapped perspective plane
# (examples/tex_scene.h, tex_plane.c): one bilinear/trilinear texture lookup
# on TMU0 and distance fog.
#
# Uniforms: P0, P1 (texture config parameters, pulled by the TMU0_T and
# TMU0_S writes, seed 004), then 1/48 and the fog grey 0.8 (read with unif).
# Varyings: S, T, each V * W + C (seeds 002/004): perspective-correct, as
# the vertices carry 1/Wc.
#
# The TMU returns packed RGBA8888 in r4; with pm = 1 a MUL operand r4.8a..
# .8d unpacks one channel to a float in [0, 1] (seed 004).  Each channel
# becomes c * (1 - f) + 0.8 f with the fog factor f = min(W / 48, 1), and
# the MUL colour pack (.8a-.8d) writes it back as bytes.

    nop; fmul r0, ra15, vary              # S * W
    fadd r0, r0, r5; fmul r1, ra15, vary  # S = S * W + C; T * W
    fadd t0t, r1, r5                      # T -> TMU0_T, pulls P0
    mov t0s, r0                           # S -> TMU0_S, pulls P1, submits
    nop; fmul r2, ra15, unif              # W / 48
    fmin r2, r2, 1.0                      # f
    fsub r3, 1.0, r2; fmul r2, r2, unif   # 1 - f; 0.8 f
    nop; nop; ldtmu0                      # r4 = filtered RGBA8888
    nop; fmul r0, r4.8a, r3               # R (1 - f)
    fadd r0, r0, r2; fmul r1, r4.8b, r3
    fadd r1, r1, r2; fmul ra1.8asf, r0, 1.0
    nop; fmul r0, r4.8c, r3
    fadd r0, r0, r2; fmul ra1.8bsf, r1, 1.0
    nop; fmul ra1.8csf, r0, 1.0
    nop; fmul ra1.8dsf, 1.0, 1.0            # opaque
    nop
    mov tlbc, ra1
    nop; thrend
    nop
    nop; sbdone
