#!/bin/sh
# vc4kit render: the command contract (issue 4) -- the assembly-image form,
# the --load/--bin/--render form, --fb, exit codes, and diagnostics with the
# thread, the address, the list offset and the packet name for bad lists.
set -eu
vc4kit=$1
src=$2
out=$3/render_contract
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

# 1. the assembly memory image: labels name the lists, LOAD_ADDR places it
"$vc4kit" render "$src/../examples/nv_triangle.qasm" -o "$out/asm.png" || fail "asm form exited $?"
[ -s "$out/asm.png" ] || fail "no PNG from the asm form"
"$vc4kit" render "$src/../examples/nv_triangle.qasm" -o "$out/asm2.png" \
    --expect "$src/golden/nv_triangle.png" || fail "asm form differs from the golden"

# 2. --load FILE@ADDR --bin S:E --render S:E with raw bytes: no binning
# (S = E), a rendering list that clears a 64x32 RGBA8888 frame to red and
# stores it: Clear Colors, Tile Rendering Mode Configuration (frame at
# 0x200000), Tile Coordinates 0 0, Store General "none" (the tile buffer
# takes the clear colour, as the kernel's list does), Tile Coordinates 0 0,
# Store Multi-sample + EOF.
printf '\162\377\000\000\377\377\000\000\377\000\000\000\000\000\161\000\000\040\000\100\000\040\000\004\000\163\000\000\034\000\000\000\000\000\000\163\000\000\031' > "$out/clear.bin"
[ "$(wc -c < "$out/clear.bin")" -eq 39 ] || fail "clear.bin is not 39 bytes"
"$vc4kit" render --load "$out/clear.bin@0x100000" --bin 0x100000:0x100000 --render 0x100000:0x100027 \
    -o "$out/clear.png" || fail "--load form exited $?"
[ -s "$out/clear.png" ] || fail "no PNG from the --load form"
# the same list as assembly text, loaded with --load, gives the same PNG
cat > "$out/clear.qasm" <<'QASM'
.include "v3d_cl.qinc"
Clear_Colors 0xFF0000FF | (0xFF0000FF << 32), 0, 0, 0
Tile_Rendering_Mode_Configuration 0x200000, 64, 32, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0
Tile_Coordinates 0, 0
Store_Tile_Buffer_General 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
Tile_Coordinates 0, 0
Store_MS_Tile_Buffer_And_EOF
QASM
"$vc4kit" render --load "$out/clear.qasm@0x100000" --bin 0x100000:0x100000 --render 0x100000:0x100027 \
    -o "$out/clear2.png" --expect "$out/clear.png" || fail "assembled --load differs"
# --fb reads another address: zeros there (transparent black) differ from red
if "$vc4kit" render --load "$out/clear.bin@0x100000" --bin 0x100000:0x100000 --render 0x100000:0x100027 \
    --fb 0x300000 -o "$out/fb.png" --expect "$out/clear.png" 2> "$out/fb.err"; then
    fail "--fb did not change the frame read"
fi
grep -q "2048 pixels differ" "$out/fb.err" || { cat "$out/fb.err"; fail "--fb mismatch report"; }

# 3. bad lists: non-zero exit, diagnostic with unit, address, offset, packet
expect_err() { # name pattern... : the last run's stderr must contain each pattern
    name=$1; shift
    for p in "$@"; do grep -q -- "$p" "$out/$name.err" || { cat "$out/$name.err"; fail "$name: no '$p'"; }; done
}
run_bad() { # name bytes(printf) render-end
    printf "$2" > "$out/$1.bin"
    if "$vc4kit" render --load "$out/$1.bin@0x100000" --bin 0x100000:0x100000 --render "0x100000:$3" \
        --max-cycles 100000 -o "$out/$1.png" 2> "$out/$1.err"; then
        fail "$1: exited 0"
    fi
}
# an unknown opcode after a NOP
run_bad unknown '\001\377' 0x100002
expect_err unknown "ct1: 0x00100001: error:" "list offset 1" "unknown opcode 255"
# a store with no Tile Rendering Mode Configuration
run_bad noconfig '\163\000\000\031' 0x100004
expect_err noconfig "ct1: 0x00100003: error:" "Store Multi-sample Resolved Tile Color Buffer and EOF" "missing configuration"
# a list that never ends (Branch to itself)
run_bad loop '\020\000\000\020\000' 0x100005
expect_err loop "ct1:" "cycle budget"
expect_err loop "Branch (list offset 0)"
# a packet cut short by the end of memory (a Branch opcode in the last byte
# of the default 512 MiB, a Pi 1 B's)
printf '\020' > "$out/trunc.bin"
if "$vc4kit" render --load "$out/trunc.bin@0x1FFFFFFF" --bin 0:0 --render 0x1FFFFFFF:0x20000004 \
    -o "$out/x.png" 2> "$out/trunc.err"; then fail "truncated: exited 0"; fi
expect_err trunc "ct1: 0x1fffffff: error: Branch" "runs past the end of memory"
# a list outside memory
if "$vc4kit" render --bin 0:0 --render 0x3FFFFFF0:0x3FFFFFFF -o "$out/x.png" 2> "$out/outside.err"; then
    fail "outside: exited 0"
fi
grep -q "outside memory" "$out/outside.err" || { cat "$out/outside.err"; fail "outside: no diagnostic"; }
# Wait on Semaphore with nothing to increment it: the thread stalls
run_bad stall '\010' 0x100001
expect_err stall "stalled" "Wait on Semaphore"

# 4. usage errors exit 2
set +e
"$vc4kit" render > /dev/null 2>&1; [ $? -eq 2 ] || fail "no arguments: not exit 2"
"$vc4kit" render --bin 1 --render 0:4 > /dev/null 2>&1; [ $? -eq 2 ] || fail "bad --bin: not exit 2"
"$vc4kit" render --load "$out/missing.bin@0" --bin 0:0 --render 0:4 > /dev/null 2>&1; [ $? -eq 2 ] || fail "missing file: not exit 2"
set -e
echo ok
