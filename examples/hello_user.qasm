# hello_user.qasm - a first QPU user program for `vc4kit run` (README
# "Using it"): element i of a 16-wide vector = uniform 0 + i * uniform 1,
# written to the bus address in uniform 2 through the VPM and a VDW store.
#
#     build/vc4kit run examples/hello_user.qasm --uniforms 100,3,0x400000 --dump 0x400000:64
#
# prints 100 103 106 ... 145 (as 0x%08x words).  Uniforms are read in order,
# one per `unif` read; the program reads 3, so --uniforms must give 3.
.include "vc4.qinc"

    or ra0, unif, unif                  # ra0 = uniform 0 (both operands read the same one)
    or rb1, unif, unif                  # rb1 = uniform 1
    or r0, elem_num, elem_num           # r0 = element number 0..15 (regfile A address 38)
    mul24 r1, r0, rb1                   # r1 = i * uniform 1
    add r1, r1, ra0
    ldi vw_setup, vpm_setup(1, 1, h32(0))        # write one vector at VPM row 0
    or vpm, r1, r1
    ldi vw_setup, vdw_setup_0(1, 16, dma_h32(0, 0))  # store 1 row of 16 words from row 0
    or vw_addr, unif, unif              # uniform 2: the address; starts the store
    or -, vw_wait, vw_wait              # wait for it to finish
    nop; thrend                         # program end; two delay slots follow
    nop
    nop
