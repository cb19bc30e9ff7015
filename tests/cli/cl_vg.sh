#!/bin/sh
# vc4kit cl on a VG-mode binning list as PeterLemon's VG demos write it
# (docs/rendering.md "VG mode"): dump names the fields and values (RHT strip,
# triangle fan, continuation, 32-bit X/Y), assembles back to the same bytes;
# validate passes it and flags VG primitives after NV state (cl-vg-mode), a
# misaligned VG record (cl-vg-record-align), type 2 (cl-vg-prim-type) and a
# missing RHT X Boundary (cl-vg-rht-boundary, a warning).
set -u
vc4kit=$1
src=$2
tmp=$3/cl_vg
mkdir -p "$tmp"
fail() { echo "FAIL: $*"; exit 1; }

list() { # $1 = shader state line, $2 = first primitive type, $3 = RHT X Boundary line
cat <<S
.include "v3d_cl.qinc"
Tile_Binning_Mode_Configuration 0x10000, 0x8000, 0x20000, 2, 2, 0, 0, 1, 0, 2, 0
Start_Tile_Binning
$3
Clip_Window 0, 0, 128, 128
Configuration_Bits 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1
Viewport_Offset 0, 0
$1
VG_Coordinate_Array_Primitives $2, 0, 3, 0x3000
VG_Inline_Primitives 6, 15
Prim_XY32 2, (100 * 16) | (20 * 16) << 16, (30 * 16) | (40 * 16) << 16
Prim_End
Increment_Semaphore
Flush
S
}
list "VG_Shader_State 0x2000" 3 "RHT_X_Boundary 32 * 16" > "$tmp/good.s"
"$vc4kit" as "$tmp/good.s" -o "$tmp/good.bin" || fail "as"
"$vc4kit" cl dump "$tmp/good.bin" --bin -o "$tmp/dump.s" || fail "dump"
grep -q '^    .set x_boundary, 512$' "$tmp/dump.s" || fail "RHT X Boundary: $(cat "$tmp/dump.s")"
grep -q '^    .set primitive_type, 3  # rht_strip$' "$tmp/dump.s" || fail "41 type"
grep -q '^    .set length, 3$' "$tmp/dump.s" || fail "41 length"
grep -q '^    .set primitive_type, 6  # triangle_fan$' "$tmp/dump.s" || fail "42 type"
grep -q '^    .set continuation, 15$' "$tmp/dump.s" || fail "42 continuation"
grep -q '^    Prim_XY32 2, 0x1400640, 0x28001e0$' "$tmp/dump.s" || fail "42 coordinates: $(grep Prim_XY32 "$tmp/dump.s")"
"$vc4kit" as "$tmp/dump.s" -o "$tmp/again.bin" && cmp -s "$tmp/good.bin" "$tmp/again.bin" || fail "dump -> as differs"
"$vc4kit" cl validate "$tmp/good.bin" --bin 2> "$tmp/v.txt" || fail "good list: $(cat "$tmp/v.txt")"
grep -q "error\|cl-vg" "$tmp/v.txt" && fail "good list flagged: $(cat "$tmp/v.txt")"

check() { # $1 = name, $2 = expected text; the list is $tmp/$1.s
    "$vc4kit" as "$tmp/$1.s" -o "$tmp/$1.bin" || fail "as $1"
    "$vc4kit" cl validate "$tmp/$1.bin" --bin 2> "$tmp/$1.txt"
    grep -q "$2" "$tmp/$1.txt" || fail "$1: $(cat "$tmp/$1.txt")"
}
list "NV_Shader_State 0x2000" 4 "RHT_X_Boundary 0" > "$tmp/mode.s"
check mode "VG Coordinate Array Primitives with NV Shader State shader state at hand.*cl-vg-mode"
list "VG_Shader_State 0x2008" 4 "RHT_X_Boundary 0" > "$tmp/align.s"
check align "VG shader record 0x00002008 is not 16-byte aligned.*cl-vg-record-align"
list "VG_Shader_State 0x2000" 2 "RHT_X_Boundary 0" > "$tmp/type.s"
check type "primitive type 2 does not exist.*cl-vg-prim-type"
list "VG_Shader_State 0x2000" 1 "" > "$tmp/rht.s"
check rht "warning: VG Coordinate Array Primitives: RHT primitives without an RHT X Boundary.*cl-vg-rht-boundary"
exit 0
