#!/bin/sh
# vc4kit cl: dump -> as gives the same bytes, FILE@ADDR with --start/--end,
# validate messages "cl: 0x........: error: <packet> ...", exit codes 0/1/2.
set -u
vc4kit=$1
src=$2
tmp=$3/cl_basic
mkdir -p "$tmp"
fail() { echo "FAIL: $*"; exit 1; }

# a binning list written with the macros, behind 16 bytes of something else
cat > "$tmp/bin.s" <<'S'
.include "v3d_cl.qinc"
.int 0, 0, 0, 0
Tile_Binning_Mode_Configuration 0x10000, 0x8000, 0x20000, 2, 2, 0, 0, 1, 0, 2, 0
Start_Tile_Binning
Clip_Window 0, 0, 128, 128
Viewport_Offset 0, 0
NV_Shader_State 0x1000
Vertex_Array_Primitives 4, 3, 0
Increment_Semaphore
Flush
S
"$vc4kit" as "$tmp/bin.s" -o "$tmp/bin.bin" || fail "as"
[ "$(wc -c < "$tmp/bin.bin")" -eq 64 ] || fail "size $(wc -c < "$tmp/bin.bin")"
"$vc4kit" cl dump "$tmp/bin.bin@0x8000" --start 0x8010 --bin -o "$tmp/dump.s" || fail "dump"
grep -q '^# 0x00008010 (+0): Tile Binning Mode Configuration$' "$tmp/dump.s" || fail "dump header: $(head -5 "$tmp/dump.s")"
grep -q '^    .set width_tiles, 2$' "$tmp/dump.s" || fail "one field per line"
grep -q '^    Flush$' "$tmp/dump.s" || fail "Flush"
"$vc4kit" as "$tmp/dump.s" -o "$tmp/again.bin" || fail "dump does not assemble"
tail -c 48 "$tmp/bin.bin" > "$tmp/list.bin"
cmp -s "$tmp/list.bin" "$tmp/again.bin" || fail "dump -> as differs"
# the whole file, including the 16 zero bytes (Halt packets)
"$vc4kit" cl dump --no-comments "$tmp/bin.bin" > "$tmp/all.s" || fail "dump all"
"$vc4kit" as "$tmp/all.s" -o "$tmp/all.bin" && cmp -s "$tmp/all.bin" "$tmp/bin.bin" || fail "whole file round trip"

"$vc4kit" cl validate "$tmp/bin.bin@0x8000" --start 0x8010 --bin 2> "$tmp/v.txt" || fail "good list: $(cat "$tmp/v.txt")"
grep -q 'no problems found' "$tmp/v.txt" || fail "good list message"

# a broken one: Start Tile Binning first, a truncated packet at the end
printf '\006\160\000\000' > "$tmp/bad.bin"
if "$vc4kit" cl validate "$tmp/bad.bin" --bin 2> "$tmp/e.txt"; then fail "bad list accepted"; fi
[ $? -eq 1 ] || true
grep -q '^[^ ]*bad.bin: cl: 0x00000000: error: Start Tile Binning before Tile Binning Mode Configuration' "$tmp/e.txt" || fail "order: $(cat "$tmp/e.txt")"
grep -q '^[^ ]*bad.bin: cl: 0x00000001: error: Tile Binning Mode Configuration: truncated' "$tmp/e.txt" || fail "truncated: $(cat "$tmp/e.txt")"
"$vc4kit" cl validate "$tmp/bad.bin" --bin 2> /dev/null
[ $? -eq 1 ] || fail "exit code 1"
# dump of a broken list: raw bytes keep the round trip, exit 1, one message
"$vc4kit" cl dump "$tmp/bad.bin" -o "$tmp/bad.s" 2> "$tmp/de.txt"
[ $? -eq 1 ] || fail "dump exit code"
grep -q 'truncated' "$tmp/de.txt" || fail "dump message"
"$vc4kit" as "$tmp/bad.s" -o "$tmp/bad2.bin" && cmp -s "$tmp/bad.bin" "$tmp/bad2.bin" || fail "broken list round trip"

# usage errors: exit 2
"$vc4kit" cl dump 2> /dev/null; [ $? -eq 2 ] || fail "no file"
"$vc4kit" cl frob x 2> /dev/null; [ $? -eq 2 ] || fail "unknown subcommand"
"$vc4kit" cl dump "$tmp/bin.bin" --start 0x1000 2> /dev/null; [ $? -eq 2 ] || fail "start outside"
"$vc4kit" cl dump "$tmp/nonexistent" 2> /dev/null; [ $? -eq 2 ] || fail "missing file"
"$vc4kit" cl --help > /dev/null || fail "--help"
"$vc4kit" cl qinc -o "$tmp/q.qinc" || fail "qinc"
cmp -s "$tmp/q.qinc" "$src/../share/vc4kit/v3d_cl.qinc" || fail "qinc differs from share/vc4kit/v3d_cl.qinc"
echo ok
