# fft4.qasm - bench_fft.c's shader: a radix-4 Stockham FFT pass loop on 12
# QPUs in GPU_FFT's traffic pattern (see bench_fft.c).  -D BIG=1: one VDW
# store per row (N - 64 does not fit the 16-bit VDW stride).
#
# One pass, for output index j (16 per group, one per element), with Ns
# the pass's span: gather v[r] = in[((j & ~(Ns-1)) << 2) + (j & (Ns-1)) +
# r*Ns], the radix-4 butterfly y[t] = sum_r v[r] (-i)^(rt), twiddles
# y[t] *= W^(t * (j & (Ns-1))) with W = exp(-2 pi i / (4 Ns)), and
# out[j + t*N/4] = y[t].  Passes run from Ns = N/4 down to 1.
#
# Uniforms: passes, VPM row Y, master (1 on the QPU that leads the
# barrier; the others wait on semaphore 1 or 2 by pass parity, the
# master on semaphore 0), QPUs - 1, N * 4 (bytes from real to imaginary parts); then per
# pass: source, destination, Ns - 1, Ns * 4, twiddle table (W^(tk) real
# parts for t = 1, 2, 3, then imaginary parts; Ns floats each), groups
# for this QPU, first j (element 0), VDW stride setup.
.include "vc4.qinc"
.set ra_j, ra5
    mov ra6, unif                 # passes
    mov r0, unif                  # VPM row Y
    mov rb8, unif                 # master
    mov ra9, unif                 # QPUs - 1
    mov rb0, unif                 # N * 4
    ldi r1, vpm_setup(8, 1, h32(0))
    add ra7, r1, r0               # 8 rows at Y: re t=0..3, im t=0..3
    shl r2, r0, 7
    mov rb6, r2                   # Y for VDW setups
    ldi r1, vdw_setup_0(8, 16, dma_h32(0, 0))
    add rb7, r1, r2
    mov ra10, 0                   # pass parity
:pass
    mov ra0, unif                 # source (real parts)
    mov ra1, unif                 # destination
    mov rb10, unif                # Ns - 1
    mov rb9, unif                 # Ns * 4
    mov ra3, unif                 # twiddles
    mov ra4, unif                 # groups
    mov r0, unif                  # first j
    mov ra8, unif                 # VDW stride setup
    add ra_j, r0, elem_num
    ldi r2, 16
    shl r1, ra9, 4
    add rb4, r1, r2               # j step: 16 * QPUs
    mov.setf -, ra4
    brr.allz -, r:barrier         # no group for this QPU in this pass
    nop
    nop
    nop
:group
    and r0, ra_j, rb10            # lo = j & (Ns - 1)
    shl r3, r0, 2
    add ra15, r3, ra3             # this element's W^k, real part
    sub r1, ra_j, r0
    shl r1, r1, 2
    add r1, r1, r0
    shl r1, r1, 2
    add r1, r1, ra0               # &in[idx] (real)
    mov t0s, r1
    add r2, r1, rb0               # ... imaginary
    mov t1s, r2
.rep i, 3
    add r1, r1, rb9               # + Ns
    mov t0s, r1
    add r2, r2, rb9
    mov t1s, r2
.endr
    nop; ldtmu0
    mov ra11, r4; nop; ldtmu1     # a.re
    mov ra13, r4; nop; ldtmu0     # a.im
    mov ra12, r4; nop; ldtmu1     # b.re
    mov ra14, r4; nop; ldtmu0     # b.im
    mov rb11, r4; nop; ldtmu1     # c.re
    mov rb13, r4; nop; ldtmu0     # c.im
    mov rb12, r4; nop; ldtmu1     # d.re
    mov rb14, r4                  # d.im
    mov t0s, ra15                 # twiddles: W^k, W^2k, W^3k on TMU0 (re), TMU1 (im)
    add r0, ra15, rb9
    mov t0s, r0
    add r0, r0, rb9
    mov t0s, r0
.rep i, 3
    add r0, r0, rb9
    mov t1s, r0
.endr
    fadd r0, ra11, rb11           # s0 = a + c
    fadd r1, ra12, rb12           # s2 = b + d
    fadd ra16, r0, r1             # y0
    fsub rb16, r0, r1             # y2
    fadd r0, ra13, rb13
    fadd r1, ra14, rb14
    fadd ra17, r0, r1
    fsub rb17, r0, r1
    fsub r0, ra11, rb11           # s1 = a - c
    fsub r1, ra12, rb12           # s3 = b - d
    fsub r2, ra13, rb13
    fsub r3, ra14, rb14
    fadd ra18, r0, r3             # y1 = s1 - i s3
    fsub rb18, r0, r3             # y3 = s1 + i s3
    fsub ra19, r2, r1
    fadd rb19, r2, r1
    nop; ldtmu0
    mov r0, r4; nop; ldtmu1       # y1 * W^k
    fmul r2, ra18, r0
    fmul r3, ra19, r4
    fsub ra20, r2, r3
    fmul r2, ra18, r4
    fmul r3, ra19, r0
    fadd rb20, r2, r3
    nop; ldtmu0
    mov r0, r4; nop; ldtmu1       # y2 * W^2k
    fmul r2, rb16, r0
    fmul r3, rb17, r4
    fsub ra21, r2, r3
    fmul r2, rb16, r4
    fmul r3, rb17, r0
    fadd rb21, r2, r3
    nop; ldtmu0
    mov r0, r4; nop; ldtmu1       # y3 * W^3k
    fmul r2, rb18, r0
    fmul r3, rb19, r4
    fsub ra22, r2, r3
    fmul r2, rb18, r4
    fmul r3, rb19, r0
    fadd rb22, r2, r3
    mov -, mutex                  # the VPM and the VDW engine, one QPU at a time
    mov vw_setup, ra7
    mov vpm, ra16
    mov vpm, ra20
    mov vpm, ra21
    mov vpm, ra22
    mov vpm, ra17
    mov vpm, rb20
    mov vpm, rb21
    mov vpm, rb22
    shl r0, ra_j, 2
    add r0, r0, ra1               # &out[j0]
.if BIG
    ldi r1, vdw_setup_0(1, 16, dma_h32(0, 0))
    add r1, r1, rb6
    ldi r2, 1 << 7
    mov r3, rb0
    shr r3, r3, 2                 # N: bytes from row t to row t + 1
.rep i, 8
    mov vw_setup, r1              # one row at a time: N - 64 is too wide a stride
    mov vw_addr, r0
    mov -, vw_wait
    add r1, r1, r2
    add r0, r0, r3
.endr
.else
    mov vw_setup, rb7             # 8 rows of 16 words ...
    mov vw_setup, ra8             # ... N bytes apart
    mov vw_addr, r0
    mov -, vw_wait
.endif
    mov mutex, 0
    sub.setf ra4, ra4, 1
    brr.anynz -, r:group
    add ra_j, ra_j, rb4
    nop
    nop
:barrier
    mov.setf -, rb8
    brr.allz -, r:slave
    mov r1, ra9
    nop
    nop
:collect
    sacq -, 0                     # every other QPU's pass is stored
    sub.setf r1, r1, 1
    brr.anynz -, r:collect
    nop
    nop
    nop
    mov r1, ra9
    mov.setf -, ra10              # semaphore 1 after even passes, 2 after odd ones:
    brr.anynz -, r:release_odd    # a quick QPU cannot take a slow one's release
    nop
    nop
    nop
:release_even
    srel -, 1
    sub.setf r1, r1, 1
    brr.anynz -, r:release_even
    nop
    nop
    nop
    brr -, r:next
    nop
    nop
    nop
:release_odd
    srel -, 2
    sub.setf r1, r1, 1
    brr.anynz -, r:release_odd
    nop
    nop
    nop
    brr -, r:next
    nop
    nop
    nop
:slave
    srel -, 0
    mov.setf -, ra10
    brr.anynz -, r:slave_odd
    nop
    nop
    nop
    sacq -, 1
    brr -, r:next
    nop
    nop
    nop
:slave_odd
    sacq -, 2
:next
    xor ra10, ra10, 1
    sub.setf ra6, ra6, 1
    brr.anynz -, r:pass
    nop
    nop
    nop
    nop; thrend
    nop
    nop
