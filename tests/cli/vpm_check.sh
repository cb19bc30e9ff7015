#!/bin/sh
# VPM shapes that run on Pis pass `vc4kit as --check` and `vc4kit run --strict`
# with no warning or error (docs/vpm.md): a Mesa vc4 vertex shader reading the
# VPM 1 and 3 instructions after vr_setup, and GPU_FFT's VPM read in a branch
# delay slot with a VDW stride past 8191.  Notes are allowed.
set -u
vc4kit=$1
src=$2
tmp=$3/vpm_check
mkdir -p "$tmp"
fail() { echo "FAIL: $*"; exit 1; }
clean() { ! grep -q -e 'warning' -e 'error' "$1"; }

cat > "$tmp/mesa_vs.qasm" <<'QASM'
# Mesa vc4 vertex shader opening (vc4_qpu_emit.c): two attributes
    mov vr_setup, 0x00201a00   # 2 vectors, 32-bit horizontal, stride 1, row 0
    mov r0, vpm                # 1 instruction after vr_setup
    mov vw_setup, 0x00001a00
    mov r1, vpm                # 3 instructions after
    fadd vpm, r0, r1
    nop; thrend
    nop
    nop
QASM
"$vc4kit" as --check --kind vertex "$tmp/mesa_vs.qasm" -o "$tmp/mesa_vs.bin" 2> "$tmp/mesa.err" ||
    fail "Mesa shape rejected: $(cat "$tmp/mesa.err")"
clean "$tmp/mesa.err" || fail "Mesa shape diagnosed: $(cat "$tmp/mesa.err")"
grep -q 'note: .*vpm-read-too-early' "$tmp/mesa.err" || fail "no portability note: $(cat "$tmp/mesa.err")"

cat > "$tmp/fft.qasm" <<'QASM'
# GPU_FFT shape (gpu_fft.qinc): vr_setup and the VPM read in branch delay slots
.include "vc4.qinc"
    mov ra3, vpm_setup(1, 1, h32(0))
    mov vw_setup, vpm_setup(0, 1, h32(0))
    mov vpm, elem_num
    brr -, r:1f
    mov vr_setup, ra3          # delay slot 1
    mov r1, vpm                # delay slot 2: 1 instruction after the setup
    nop                        # delay slot 3
    mov r1, 0xdead             # skipped
:1
    mov vw_setup, vpm_setup(0, 1, h32(1))
    mov vpm, r1
    mov vw_setup, vdw_setup_0(2, 16, dma_h32(0, 0))
    mov vw_setup, vdw_setup_1(16320)
    mov vw_addr, unif
    mov -, vw_wait
    nop; thrend
    nop
    nop
QASM
"$vc4kit" as -I "$src/../share/vc4kit" --check --kind user "$tmp/fft.qasm" -o "$tmp/fft.bin" 2> "$tmp/fft.err" ||
    fail "GPU_FFT shape rejected: $(cat "$tmp/fft.err")"
clean "$tmp/fft.err" || fail "GPU_FFT shape diagnosed: $(cat "$tmp/fft.err")"
"$vc4kit" run --strict "$tmp/fft.bin" --uniforms 0x40000 --dump 0x44000:64 > "$tmp/run.out" 2> "$tmp/run.err" ||
    fail "run --strict: $(cat "$tmp/run.err")"
clean "$tmp/run.err" || fail "run diagnosed: $(cat "$tmp/run.err")"
# row 1 (the value read in the delay slot) landed 64 + 16320 bytes after row 0
grep -q '^0x00000000 0x00000001 0x00000002 0x00000003 0x00000004 0x00000005 0x00000006 0x00000007$' "$tmp/run.out" ||
    fail "data: $(cat "$tmp/run.out")"
grep -q '^0x00000008 0x00000009 0x0000000a 0x0000000b 0x0000000c 0x0000000d 0x0000000e 0x0000000f$' "$tmp/run.out" ||
    fail "data: $(cat "$tmp/run.out")"
echo ok
