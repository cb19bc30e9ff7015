# fs_blend_over.qasm - a fragment shader blending "source alpha over" through a
# colour load (test_render_ff.c, docs/rendering.md "Blending through colour
# loads"): dst = src * a + dst * (1 - a) per 8-bit channel.
#
# Uniforms: src (RGBA8888), a replicated in the four bytes, 255 - a replicated.
# The V3D has no blending unit: the tile buffer's colour comes into r4 with the
# colour load signal, the mul ALU's v8muld scales (x * y / 255 per byte), the
# add ALU's v8adds adds with saturation.
    mov ra0, unif              # src
    mov rb1, unif              # a a a a
    mov rb2, unif              # (255 - a) x 4
    nop; loadc                 # r4 = the tile buffer's colour (waits on the scoreboard)
    nop; v8muld r0, r4, rb2    # dst * (1 - a)
    nop; v8muld r1, ra0, rb1   # src * a
    av8adds tlbc, r0, r1       # the sum to TLB_COLOUR_ALL
    nop; thrend
    nop
    nop; sbdone
