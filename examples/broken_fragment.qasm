# broken_fragment.qasm - a fragment shader with two mistakes, for
# `vc4kit as --check --kind fragment` (README "Using it"): the validator
# names each rule, its source, and the instruction that breaks it.
    nop; nop; sbwait                    # scoreboard wait in the first two instructions
    ldi r0, 0xff0000ff                  # opaque red
    or tlbc, r0, r0                     # the colour to the tile buffer
    nop; nop; thrend
    or r1, vary, vary                   # a varying read in a thread-end delay slot
    nop; nop; sbdone
