# scale.qasm - the QPU program of vcio_prog.c (tests/cli/exec_vcio.sh):
# out[i] = 3 * in[i] + 7 over rows of 16 words, one run of rows per QPU.
# Each row: a TMU0 general lookup of 16 words (per-element addresses), the
# arithmetic, a generic VPM write of one 32-bit row at this program's VPM
# row, and a VDW store of that row to memory.
# Uniforms: source bus address, destination bus address, rows, VPM row (Y).
# Assemble with -D BREAK_RULE=0; with -D BREAK_RULE=1 it also reads ra3 in
# the instruction after writing it (a real rule: the read gets the old
# value; the result is unused), for the diagnostics test.
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
    ldi rb2, 64                   # bytes per row
:loop
    add t0s, ra0, r1              # TMU0 lookup of in[row][element]
    mov vw_setup, rb0
    nop; ldtmu0                   # r4 = in[row]
    mul24 r0, r4, 3
    add vpm, r0, 7
    mov vw_setup, rb1
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
