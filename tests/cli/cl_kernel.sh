#!/bin/sh
# vc4kit cl validate --kernel: a binning list as a program hands it to the
# Linux kernel (vc4_validate.c): the kernel's GEM_HANDLES packet (254) is
# accepted, GL Shader State holds only its low bits, the tile memory is the
# kernel's; its whitelist and order rules are applied.
set -u
vc4kit=$1
tmp=$3/cl_kernel
mkdir -p "$tmp"
fail() { echo "FAIL: $*"; exit 1; }
# octal escapes: printf(1) has no \x in POSIX sh
cfg='\160\0\0\0\0\0\0\0\0\0\0\0\0\2\2\4'        # Tile Binning Mode Configuration 2x2, auto-init
start='\6'                                         # Start Tile Binning
clip='\146\0\0\0\0\200\0\200\0\147\0\0\0\0'        # Clip Window 128x128, Viewport Offset 0,0
state='\100\1\0\0\0'                               # GL Shader State: 1 attribute, no address
gem='\376\1\0\0\0\0\0\0\0'                          # GEM handles: BO 1 (the index buffer)
draw='\40\24\3\0\0\0\0\0\0\0\2\0\0\0'               # Indexed Primitive List: 3 16-bit indices, max 2
end='\7\4'                                         # Increment Semaphore, Flush
printf "$cfg$start$clip$state$gem$draw$end" > "$tmp/ok.bin"
"$vc4kit" cl validate --kernel "$tmp/ok.bin" 2> "$tmp/err.txt" || fail "kernel list refused: $(cat "$tmp/err.txt")"
grep -q "61 bytes of list checked, no problems found" "$tmp/err.txt" || fail "summary: $(cat "$tmp/err.txt")"
# without --kernel, 254 is no packet
if "$vc4kit" cl validate --bin "$tmp/ok.bin" 2> "$tmp/err.txt"; then fail "254 accepted without --kernel"; fi
grep -q "cl-unknown-opcode" "$tmp/err.txt" || fail "unknown opcode: $(cat "$tmp/err.txt")"
# the kernel's refusals
check() { # name bytes rule
    printf "$2" > "$tmp/$1.bin"
    if "$vc4kit" cl validate --kernel "$tmp/$1.bin" 2> "$tmp/err.txt"; then fail "$1 accepted"; fi
    grep -q "\[$3;" "$tmp/err.txt" || fail "$1: wanted $3: $(cat "$tmp/err.txt")"
}
check no_flush "$cfg$start$clip$state$draw\7" kernel-flush-last
check no_sem "$cfg$start$clip$state$draw\4" kernel-semaphore-before-flush
check two_starts "$cfg$start$start$clip$state$draw$end" kernel-one-start-binning
check two_cfgs "$cfg$cfg$start$clip$state$draw$end" kernel-one-bin-config
check double_buffer '\160\0\0\0\0\0\0\0\0\0\0\0\0\2\2\204'"$start$clip$state$draw$end" kernel-bin-flags
check zero_tiles '\160\0\0\0\0\0\0\0\0\0\0\0\0\0\2\4'"$start$clip$state$draw$end" cl-bin-size
check record_addr "$cfg$start$clip"'\100\101\40\0\0'"$draw$end" kernel-gl-shader-state
check store "$cfg$start$clip$state$draw"'\30'"$end" kernel-bin-whitelist
check no_start "$cfg$clip$state$draw$end" cl-required-start-binning
echo ok
