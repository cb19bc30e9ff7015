#!/bin/sh
# vc4kit render --stats / --dump-tiles on the seed triangle
# (examples/nv_triangle.qasm: 640x480 = 10x8 tiles of 64x64, one triangle
# with vertices (320, 32), (32, 448), (608, 448), the uniform-colour
# fragment shader of 8 instructions).  The binner bins a triangle into the
# tiles of its bounding box: columns 32/64 .. 607/64 = 0..9, rows 32/64 ..
# (448-1)/64 = 0..6 (the bottom edge y = 448 is the first row of tile row 7,
# outside the triangle): 70 tiles.
set -eu
vc4kit=$1
src=$2
out=$3/render_stats
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
qasm="$src/../examples/nv_triangle.qasm"

"$vc4kit" render --help | grep -q -- "--stats" || fail "--help does not describe --stats"
"$vc4kit" render --help | grep -q -- "--dump-tiles" || fail "--help does not describe --dump-tiles"

"$vc4kit" render "$qasm" -o "$out/t.png" --expect "$src/golden/nv_triangle.png" --stats > "$out/stats.txt" \
    || fail "--stats run exited $?"
cat "$out/stats.txt"
grep -q "^render stats:" "$out/stats.txt" || fail "no report header"
grep -q "binner: prims in 1, binned 1, culled 0, zero area 0, outside 0, bad 0, clipped 0$" "$out/stats.txt" \
    || fail "binner primitive line"
cols=$(( (607 / 64) - (32 / 64) + 1 ))
rows=$(( (447 / 64) - (32 / 64) + 1 ))
grep -q "binner: tile writes $((cols * rows)), .* flushes 1$" "$out/stats.txt" || fail "tile writes != $((cols * rows))"
grep -q "qpu user       cycles 0 " "$out/stats.txt" || fail "user programs ran"
grep -q "qpu coordinate cycles 0 " "$out/stats.txt" || fail "NV mode ran coordinate shaders"
# fragment shading: every thread issued the shader's 8 instructions; every
# fragment wrote one sample; the fragment shaders are all the QPU time
fs_instr=$(sed -n 's/.*qpu fragment   cycles [0-9]* ([0-9.]*%), instructions \([0-9]*\),.*/\1/p' "$out/stats.txt")
threads=$(sed -n 's/.*fragment shading: .* threads \([0-9]*\),.*/\1/p' "$out/stats.txt")
total=$(sed -n 's/.*qpu: cycles [0-9]*, instructions \([0-9]*\),.*/\1/p' "$out/stats.txt")
[ -n "$fs_instr" ] && [ -n "$threads" ] && [ "$threads" -gt 0 ] || fail "no fragment figures"
[ "$fs_instr" -eq $((8 * threads)) ] || fail "fragment instructions $fs_instr != 8 x $threads threads"
[ "$fs_instr" -eq "$total" ] || fail "fragment instructions $fs_instr != total $total"
frags=$(sed -n 's/.*fragment shading: prims [0-9]*, fragments \([0-9]*\),.*/\1/p' "$out/stats.txt")
samples=$(sed -n 's/.*tile buffer: samples written \([0-9]*\),.*/\1/p' "$out/stats.txt")
# the triangle's area is 576 x 416 / 2 = 119808 pixels
[ "$frags" -gt 119000 ] && [ "$frags" -lt 120600 ] || fail "fragments $frags, not about 119808"
[ "$frags" -eq "$samples" ] || fail "fragments $frags != samples written $samples"
grep -q "tmu: requests 0 " "$out/stats.txt" || fail "TMU used by an untextured scene"

# --dump-tiles: every tile of the bounding box has a 48 with the triangle
"$vc4kit" render "$qasm" -o "$out/t.png" --dump-tiles "$out/tiles.txt" > "$out/quiet.txt" || fail "--dump-tiles exited $?"
[ ! -s "$out/quiet.txt" ] || fail "--dump-tiles FILE printed to stdout"
head -12 "$out/tiles.txt"
grep -q "^70 of 80 tiles have lists$" "$out/tiles.txt" || fail "tile count"
[ "$(grep -c "Compressed Primitive List (48)$" "$out/tiles.txt")" -eq 70 ] || fail "not 70 packets 48"
[ "$(grep -c "^        triangle 0 1 2$" "$out/tiles.txt")" -eq 70 ] || fail "not 70 triangles"
y=0
while [ $y -lt 8 ]; do
    x=0
    while [ $x -lt 10 ]; do
        if [ $y -lt $rows ]; then
            grep -q "^tile $x,$y (#$((y * 10 + x))) list .*: 1 primitives" "$out/tiles.txt" || fail "tile $x,$y missing"
        elif grep -q "^tile $x,$y " "$out/tiles.txt"; then
            fail "tile $x,$y has a list"
        fi
        x=$((x + 1))
    done
    y=$((y + 1))
done
grep -q "NV Shader State (65) record_addr=" "$out/tiles.txt" || fail "no shader state packet"
grep -q "error" "$out/tiles.txt" && fail "errors in the dump"
# "-" writes the same text to stdout
"$vc4kit" render "$qasm" -o "$out/t.png" --dump-tiles - > "$out/tiles2.txt" || fail "--dump-tiles - exited $?"
cmp -s "$out/tiles.txt" "$out/tiles2.txt" || fail "--dump-tiles - differs from FILE"

# argument errors
set +e
"$vc4kit" render "$qasm" -o "$out/t.png" --dump-tiles 2> "$out/err.txt"
[ $? -eq 2 ] || fail "--dump-tiles without a value did not exit 2"
"$vc4kit" render "$qasm" -o "$out/t.png" --dump-tiles "$out/no/such/dir/x.txt" 2> "$out/err.txt"
[ $? -eq 2 ] || fail "an unwritable --dump-tiles file did not exit 2"
set -e
echo "render_stats: ok"
