#!/bin/sh
# vc4kit tex: PNG -> texture (T, LT, raster) -> PNG is lossless for the
# lossless formats and idempotent for every other one; the format table;
# mip chains with the P0/P1 words; diagnostics and exit codes for bad input.
set -u
vc4kit=$1
src=$2
tmp=$3/tex_roundtrip
mkdir -p "$tmp"
fail() { echo "FAIL: $*"; exit 1; }

# the format table: 18 rows, numbered like P0/P1's TYPE
"$vc4kit" tex formats > "$tmp/formats.txt" || fail "formats"
[ "$(wc -l < "$tmp/formats.txt")" -eq 18 ] || fail "formats: $(wc -l < "$tmp/formats.txt") rows"
grep -q '^ 8  ETC1 ' "$tmp/formats.txt" || fail "formats: ETC1 row"
grep -q '^17  YUYV422R .*raster' "$tmp/formats.txt" || fail "formats: YUYV422R row"

# two pictures: a rendered golden (640x480) and 37x23 of arbitrary bytes
# (alpha included), made by decoding the first bytes of a file as RGBA8888
pic1=$src/golden/nv_varyings.png
head -c 3840 "$vc4kit" > "$tmp/noise.bin" # one 37x23 LT level: 8x6 utiles of 4x4 pixels
"$vc4kit" tex decode "$tmp/noise.bin" -f RGBA8888 -l lt -w 37 -h 23 -o "$tmp/noise.png" || fail "noise picture"
pic2=$tmp/noise.png

layouts_of() {
    case $1 in RGBA32R|YUYV422R) echo raster ;; *) echo "t lt" ;; esac
}
size_of() { # width and height of a PNG (IHDR)
    od -An -tu1 -j16 -N8 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}'
}

for pic in "$pic1" "$pic2"; do
    set -- $(size_of "$pic")
    w=$1 h=$2
    # lossless: the picture comes back bit for bit
    for f in RGBA8888 RGBA32R YUYV422R RGBA64; do
        for l in $(layouts_of $f); do
            for flip in "" --flip-y; do
                "$vc4kit" tex encode "$pic" -f $f -l $l $flip -o "$tmp/t.bin" || fail "encode $f $l $flip"
                "$vc4kit" tex decode "$tmp/t.bin" -f $f -l $l -w $w -h $h $flip -o "$tmp/back.png" || fail "decode $f $l"
                cmp -s "$pic" "$tmp/back.png" || fail "$f $l $flip: $pic does not come back"
            done
        done
    done
    # every format: what a texture holds comes back exactly (decode(encode(x)) is
    # a fixed point), and T and LT hold the same picture
    for f in $(awk '{print $2}' "$tmp/formats.txt"); do
        prev=""
        for l in $(layouts_of $f); do
            "$vc4kit" tex encode "$pic" -f $f -l $l -o "$tmp/a.bin" || fail "encode $f $l"
            "$vc4kit" tex decode "$tmp/a.bin" -f $f -l $l -w $w -h $h -o "$tmp/a.png" || fail "decode $f $l"
            "$vc4kit" tex encode "$tmp/a.png" -f $f -l $l -o "$tmp/b.bin" || fail "re-encode $f $l"
            "$vc4kit" tex decode "$tmp/b.bin" -f $f -l $l -w $w -h $h -o "$tmp/b.png" || fail "re-decode $f $l"
            if [ $f != ETC1 ]; then
                cmp -s "$tmp/a.png" "$tmp/b.png" || fail "$f $l: not a fixed point"
            fi
            [ -z "$prev" ] || cmp -s "$prev" "$tmp/a.png" || fail "$f: T and LT differ"
            cp "$tmp/a.png" "$tmp/prev.png"
            prev=$tmp/prev.png
        done
    done
done

# a full mip chain at a base address: 640x480 -> 1024 -> 11 levels;
# P0 = base | 11 - 1, P1 = 480 << 20 | 640 << 8 | lin-mip-lin 5 << 4
"$vc4kit" tex encode "$pic1" -f RGBA8888 --mips all --base 0x100000 -o "$tmp/mip.bin" > "$tmp/mip.txt" || fail "mip encode"
grep -q '^P0 0x0010000a$' "$tmp/mip.txt" || fail "P0: $(cat "$tmp/mip.txt")"
grep -q '^P1 0x1e028050$' "$tmp/mip.txt" || fail "P1: $(cat "$tmp/mip.txt")"
grep -q 'level 0 at 0x00100000' "$tmp/mip.txt" || fail "load address line: $(cat "$tmp/mip.txt")"
"$vc4kit" tex decode "$tmp/mip.bin" -f RGBA8888 -w 640 -h 480 --mips all -o "$tmp/l0.png" || fail "decode level 0"
cmp -s "$pic1" "$tmp/l0.png" || fail "level 0 of the chain"
"$vc4kit" tex decode "$tmp/mip.bin" -f RGBA8888 -w 640 -h 480 --mips all --level 3 -o "$tmp/l3.png" || fail "decode level 3"
[ "$(size_of "$tmp/l3.png")" = "80 60" ] || fail "level 3 size $(size_of "$tmp/l3.png")"

# a cube map from six pictures: P2 carries the face stride; face 5 comes back
"$vc4kit" tex encode "$pic2" "$pic2" "$pic2" "$pic2" "$pic2" "$pic2" -f RGBA8888 --mips 2 --base 0x200000 \
    -o "$tmp/cube.bin" > "$tmp/cube.txt" || fail "cube encode"
# 37x23 RGBA8888: both sides > 16 pixels, so level 0 is T: two 4K tiles, 8 KB;
# level 1 (of the power of two 64x32) is 32x16, LT, 2 KB -> 4 KB below the base;
# face stride 4 + 8 = 12 KB.  P0: cube bit 9, 2 levels -> 0x00200201
grep -q '^P2 0x40003000$' "$tmp/cube.txt" || fail "cube P2: $(cat "$tmp/cube.txt")"
grep -q '^P0 0x00200201$' "$tmp/cube.txt" || fail "cube P0: $(cat "$tmp/cube.txt")"
"$vc4kit" tex decode "$tmp/cube.bin" -f RGBA8888 -w 37 -h 23 --mips 2 --face 5 -o "$tmp/face5.png" || fail "cube decode"
cmp -s "$pic2" "$tmp/face5.png" || fail "cube face 5"

# bad input: diagnostics and exit codes, never a crash
"$vc4kit" tex encode "$pic2" -f RGBA32R -l t -o "$tmp/x.bin" 2> "$tmp/e1.txt"
[ $? -eq 1 ] || fail "RGBA32R as T: exit status"
grep -q 'raster order only' "$tmp/e1.txt" || fail "RGBA32R as T: $(cat "$tmp/e1.txt")"
"$vc4kit" tex encode "$pic2" -f YUYV422R -l lt -o "$tmp/x.bin" 2>/dev/null
[ $? -eq 1 ] || fail "YUYV422R as LT"
"$vc4kit" tex encode "$pic2" -f RGB565 -l raster -o "$tmp/x.bin" 2>/dev/null
[ $? -eq 1 ] || fail "RGB565 raster"
"$vc4kit" tex decode "$tmp/noise.bin" -f RGBA8888 -w 4096 -h 16 -o "$tmp/x.png" 2> "$tmp/e2.txt"
[ $? -eq 2 ] || fail "4096 wide: exit status"
grep -q -- '-w takes 1..2048' "$tmp/e2.txt" || fail "4096 wide: $(cat "$tmp/e2.txt")"
"$vc4kit" tex decode "$tmp/noise.bin" -f RGBA8888 -w 1024 -h 1024 -o "$tmp/x.png" 2> "$tmp/e3.txt"
[ $? -eq 1 ] || fail "short input: exit status"
grep -q 'noise.bin: 3840 bytes, but a 1024x1024 RGBA8888 texture of 1 level is 4194304 bytes' "$tmp/e3.txt" ||
    fail "short input: $(cat "$tmp/e3.txt")"
"$vc4kit" tex encode "$pic2" -f NOPE -o "$tmp/x.bin" 2>/dev/null
[ $? -eq 2 ] || fail "unknown format"
"$vc4kit" tex encode "$pic2" -f RGBA8888 2>/dev/null
[ $? -eq 2 ] || fail "missing -o"
"$vc4kit" tex encode "$pic2" -f RGBA8888 --base 0x1001 -o "$tmp/x.bin" 2>/dev/null
[ $? -eq 2 ] || fail "unaligned base"
"$vc4kit" tex decode "$tmp/noise.bin" -f RGBA8888 -w 8 -h 8 --level 2 --mips 2 -o "$tmp/x.png" 2>/dev/null
[ $? -eq 2 ] || fail "level beyond the chain"
"$vc4kit" tex encode /nonexistent.png -f RGBA8888 -o "$tmp/x.bin" 2>/dev/null
[ $? -eq 2 ] || fail "missing input"
echo "tex round trips ok"
