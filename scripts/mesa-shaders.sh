#!/bin/sh
# scripts/mesa-shaders.sh - regenerate tests/data/mesa/: every distinct QPU
# program Mesa's vc4 compiler (the Mesa of `make mesa`) makes for the
# gl-check cases (tests/gl/gl_check.c), as "0xLO, 0xHI," word pairs, read
# from Mesa's VC4_DEBUG=qpu dump.  test_kernel_shader checks that the
# kernel's shader rules (vc4kit as --check --kernel) accept each one, as
# Linux accepts what Mesa makes.  Needs a build with gl_check
# (BUILD=build-gl make gl-check builds one).
set -e
BUILD=${BUILD:-build}
OUT=${OUT:-tests/data/mesa}
DIR=$(sh scripts/mesa.sh --dir) || { echo "mesa-shaders: no Mesa build (make mesa)"; exit 1; }
MESA_ENV=$(sh scripts/mesa.sh --env)
VERSION=$(basename "$DIR")
mkdir -p "$OUT"
rm -f "$OUT"/*.hex
tmp=$(mktemp -d)
for c in $("$BUILD/gl_check" --list); do
    (eval "$MESA_ENV"; VC4_DEBUG=qpu "$BUILD/vc4kit" exec "$BUILD/gl_check" "$c" "$tmp/x.png") \
        > "$tmp/$c.log" 2>&1 || true
    # blocks: "MESA_SHADER_<STAGE> prog N/M QPU:" then "0x<16 hex> disassembly" lines
    awk -v dir="$tmp" -v c="$c" '
        /^MESA_SHADER_[A-Z]+ prog .* QPU:/ { n++; stage = tolower(substr($1, 13)); f = dir "/" c "." n "." stage; next }
        /^0x[0-9a-f]+ / && length($1) == 18 && f { w = substr($1, 3); print "0x" substr(w, 9, 8) ", 0x" substr(w, 1, 8) "," > f; next }
        { f = "" }' "$tmp/$c.log"
done
for f in "$tmp"/*.*.*; do
    [ -f "$f" ] || continue
    sum=$(md5sum < "$f" | cut -c1-8)
    stage=${f##*.}
    case=$(basename "$f" | cut -d. -f1)
    dst="$OUT/${stage}_$sum.hex"
    [ -f "$dst" ] && continue
    { echo "; Mesa $VERSION vc4, $stage shader of gl-check case '$case' (VC4_DEBUG=qpu; scripts/mesa-shaders.sh)"
      cat "$f"; } > "$dst"
done
rm -rf "$tmp"
echo "mesa-shaders: $(ls "$OUT"/*.hex | wc -l) programs in $OUT"
