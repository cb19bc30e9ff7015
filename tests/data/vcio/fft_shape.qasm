# fft_shape.qasm - scale.qasm's job (out[i] = 3 * in[i] + 7 over rows of 16
# words, same uniforms: source, destination, rows, VPM row Y) written in
# GPU_FFT's shape (hello_fft's gpu_fft_*.qasm), for the default-diagnostics
# test tests/cli/exec_diag_default.sh: TMU reads in a loop, a VPM read
# issued in a branch delay slot right after the vr_setup that asks for it,
# and VDW stride setups of 16320, 32704 and 65472 bytes (GPU_FFT's
# 16 KiB - 64, 32 KiB - 64, 64 KiB - 64; beyond the guide's 13 bits, work on
# Pis).  All of it runs on Pis, so none of it may print at the default level.
# -D BREAK_RULE=1 adds a real rule break (a register-file read right after
# its write; the result is unused).
    mov ra0, unif                 # source row
    mov ra1, unif                 # destination row
    mov ra2, unif                 # rows left
    mov ra3, unif                 # VPM row Y
.if BREAK_RULE
    mov r3, ra3                   # too early: regfile read right after its write
.endif
    mov r1, elem_num
    shl r1, r1, 2                 # byte offset of this element
    ldi r2, 0x1a00                # VPM write: horizontal, 32-bit, stride 1, Y = 0
    add rb0, r2, ra3              # ... at row Y
    ldi r2, 0x80904000            # VDW: 1 row of 16 words, horizontal 32-bit
    shl r3, ra3, 7                # Y into VPMBASE (bits 13:7)
    add rb1, r2, r3
    ldi r2, 0x101a00              # VPM read: 1 row, horizontal, 32-bit, stride 1
    add rb3, r2, ra3              # ... at row Y
    ldi rb2, 64                   # bytes per row
:loop
    add t0s, ra0, r1              # TMU0 lookup of in[row][element]
    mov vw_setup, rb0
    nop; ldtmu0                   # r4 = in[row]
    mul24 r0, r4, 3
    add vpm, r0, 7                # the row into VPM row Y
    mov vr_setup, rb3             # read it back ...
    brr -, r:back
    mov r0, vpm                   # ... in the branch delay slot (GPU_FFT's load_xy)
    nop
    nop
:back
    mov vw_setup, rb0
    mov vpm, r0                   # and write it again
    mov vw_setup, rb1
    ldi vw_setup, 0xc0003fc0      # VDW stride 16320
    ldi vw_setup, 0xc0007fc0      # VDW stride 32704
    ldi vw_setup, 0xc000ffc0      # VDW stride 65472
    mov vw_addr, ra1              # store the row
    mov -, vw_wait
    sub.setf ra2, ra2, 1
    brr.anynz -, r:loop
    add ra0, ra0, rb2
    add ra1, ra1, rb2
    nop
    nop; thrend
    nop
    nop
