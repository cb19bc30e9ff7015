#!/bin/sh
# The C examples (examples/nv_*.c, gl_*.c) render the seed scenes exactly as the
# golden images.   usage: examples_c.sh VC4KIT TESTS_SRC TESTS_BIN
set -u
src=$2
build=$(dirname "$3")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for scene in nv_triangle nv_varyings; do
    if ! "$build/examples/$scene" "$tmp/$scene.png"; then
        echo "FAIL: $scene did not run"; fail=$((fail + 1)); continue
    fi
    # same pixels through the same PNG writer give the same file
    if cmp -s "$tmp/$scene.png" "$src/golden/$scene.png"; then echo "ok: $scene matches its golden"
    else echo "FAIL: $scene differs from tests/golden/$scene.png"; fail=$((fail + 1)); fi
done
# GL mode (examples/gl_*.c): seed 000's scene gives nv_triangle's image; the
# cube's frames 4 and 16 and the near-plane scene match their goldens
same() { # produced golden what
    if cmp -s "$1" "$src/golden/$2.png"; then echo "ok: $3 matches tests/golden/$2.png"
    else echo "FAIL: $3 differs from tests/golden/$2.png"; fail=$((fail + 1)); fi
}
"$build/examples/gl_triangle" "$tmp/gl_triangle.png" && same "$tmp/gl_triangle.png" nv_triangle gl_triangle \
    || { echo "FAIL: gl_triangle"; fail=$((fail + 1)); }
"$build/examples/gl_near_clip" "$tmp/gl_near_clip.png" && same "$tmp/gl_near_clip.png" gl_near_clip gl_near_clip \
    || { echo "FAIL: gl_near_clip"; fail=$((fail + 1)); }
if "$build/examples/gl_cube" "$tmp" 17; then
    same "$tmp/gl_cube_04.png" gl_cube_04 "gl_cube frame 4"
    same "$tmp/gl_cube_16.png" gl_cube_16 "gl_cube frame 16"
else
    echo "FAIL: gl_cube"; fail=$((fail + 1))
fi
echo "examples_c: $fail failed"
[ "$fail" = 0 ]
