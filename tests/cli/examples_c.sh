#!/bin/sh
# The C examples (examples/nv_*.c) render the seed scenes exactly as the
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
echo "examples_c: $fail failed"
[ "$fail" = 0 ]
