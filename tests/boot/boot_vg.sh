#!/bin/sh
# `vc4kit boot` runs the VG-mode bare-metal example (examples/baremetal/
# vg_shape.c: VG Shader State, VG Inline Shader Record, RHT X Boundary, an
# RHT strip and a triangle fan from coordinate arrays) for the Pi 1, 2 and 3
# (32-bit) and the Pi 3 in AArch64: each parks, says so on the UART, and its
# frame buffer equals tests/golden/boot_vg_shape.png pixel for pixel.  Exit
# 77 (SKIP) without Unicorn or without the cross compilers.
#   sh boot_vg.sh VC4KIT SOURCE_DIR IMAGES_DIR BUILD_DIR
set -u
vc4kit=$1 src=$2 images=$3 out=$4/boot_vg
if ! "$vc4kit" boot --help > /dev/null 2>&1 || "$vc4kit" boot /dev/null 2>&1 | grep -q "without Unicorn"; then
    echo "SKIP: vc4kit was built without Unicorn (apt-get install libunicorn-dev)"; exit 77
fi
if [ ! -f "$images/vg_shape_pi1.img" ]; then
    echo "SKIP: no bare-metal images in $images (apt-get install gcc-arm-none-eabi binutils-arm-none-eabi gcc-aarch64-linux-gnu)"; exit 77
fi
rm -rf "$out"; mkdir -p "$out"
status=0
for board in pi1 pi2 pi3 pi3_64; do
    img=$images/vg_shape_$board.img
    if [ ! -f "$img" ]; then
        echo "SKIP: $img not built (cross compiler missing)"; continue
    fi
    if ! "$vc4kit" boot "$img" -o "$out/$board.png" --expect "$src/tests/golden/boot_vg_shape.png" \
        > "$out/$board.txt" 2> "$out/$board.err"; then
        echo "FAIL: vg_shape on $board"; cat "$out/$board.err"; status=1; continue
    fi
    grep -q "parked (branch to itself)" "$out/$board.err" || { echo "FAIL: vg_shape on $board did not park"; status=1; }
    grep -q "vg_shape: frame done" "$out/$board.txt" || { echo "FAIL: vg_shape on $board: no frame"; status=1; }
    # correct VG lists draw without a warning
    if grep -q "warning\|error" "$out/$board.err"; then
        echo "FAIL: vg_shape on $board: diagnostics"; cat "$out/$board.err"; status=1
    fi
    echo "ok: vg_shape on $board"
done
# the binner's tile lists carry the VG primitives as 56 (RHT / triangles, 32-bit X/Y) + 42 with coordinates
"$vc4kit" boot "$images/vg_shape_pi1.img" -o "$out/stats.png" --stats --dump-tiles "$out/tiles.txt" > "$out/stats.txt" 2>&1 || status=1
grep -q "^  binner: prims in 6, binned 6, " "$out/stats.txt" || { echo "FAIL: --stats"; cat "$out/stats.txt"; status=1; }
grep -q "Primitive List Format (56) primitive_type=rht data_type=xy32" "$out/tiles.txt" &&
    grep -q "VG Inline Primitives (42) primitive_type=rht continuation=0x0 (608,32) (320,240)" "$out/tiles.txt" &&
    grep -q "VG Inline Primitives (42) primitive_type=triangles continuation=0x0 (520,240)" "$out/tiles.txt" ||
    { echo "FAIL: --dump-tiles"; head -40 "$out/tiles.txt"; status=1; }
exit $status
