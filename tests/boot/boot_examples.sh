#!/bin/sh
# `vc4kit boot` runs every bare-metal example (examples/baremetal) for the
# Pi 1, 2 and 3 (32-bit) and the Pi 3 in AArch64: each parks cleanly, its
# UART text is on stdout, and its frame buffer equals the golden PNG pixel
# for pixel (the NV and GL scenes equal the goldens of the same scenes
# rendered by `vc4kit render`); their Configuration Bits 03 00 02 without a
# TLB_Z write raise no fs-depth-without-tlb-z.  Exit 77 (SKIP) without Unicorn or without
# the cross compilers.
#   sh boot_examples.sh VC4KIT SOURCE_DIR IMAGES_DIR BUILD_DIR
set -u
vc4kit=$1 src=$2 images=$3 out=$4/boot_examples
if ! "$vc4kit" boot --help > /dev/null 2>&1 || "$vc4kit" boot /dev/null 2>&1 | grep -q "without Unicorn"; then
    echo "SKIP: vc4kit was built without Unicorn (apt-get install libunicorn-dev)"; exit 77
fi
if [ ! -f "$images/nv_colors_pi1.img" ]; then
    echo "SKIP: no bare-metal images in $images (apt-get install gcc-arm-none-eabi binutils-arm-none-eabi gcc-aarch64-linux-gnu)"; exit 77
fi
rm -rf "$out"; mkdir -p "$out"
status=0
golden() {
    case "$1" in
        nv_colors) echo "$src/tests/golden/nv_varyings.png" ;;
        gl_seed) echo "$src/tests/golden/nv_triangle.png" ;;
        *) echo "$src/tests/golden/boot_$1.png" ;;
    esac
}
for scene in nv_colors gl_seed tex_quad uart_hello; do
    for board in pi1 pi2 pi3 pi3_64; do
        img=$images/${scene}_$board.img
        if [ ! -f "$img" ]; then
            echo "SKIP: $img not built (cross compiler missing)"; continue
        fi
        if "$vc4kit" boot "$img" -o "$out/${scene}_$board.png" --expect "$(golden $scene)" \
            > "$out/${scene}_$board.txt" 2> "$out/${scene}_$board.err"; then
            :
        else
            echo "FAIL: $scene on $board"; cat "$out/${scene}_$board.err"; status=1; continue
        fi
        grep -q "parked (branch to itself)" "$out/${scene}_$board.err" || { echo "FAIL: $scene on $board did not park"; status=1; }
        # Configuration Bits 03 00 02 without TLB_Z, as the demos that drew on a Pi: no warning
        if grep -q "fs-depth-without-tlb-z" "$out/${scene}_$board.err"; then echo "FAIL: $scene on $board: fs-depth-without-tlb-z"; status=1; fi
        grep -q "$scene: hello" "$out/${scene}_$board.txt" || { echo "FAIL: $scene on $board: no UART text"; status=1; }
        case $scene in
            uart_hello) grep -q "colour bars drawn, 1 ms waited" "$out/${scene}_$board.txt" || { echo "FAIL: uart_hello text"; status=1; } ;;
            *) grep -q "$scene: frame done" "$out/${scene}_$board.txt" || { echo "FAIL: $scene on $board: no frame"; status=1; } ;;
        esac
        echo "ok: $scene on $board"
    done
done
# the board facts the mailbox gives each board
grep -q "board revision 0x0000000e" "$out/uart_hello_pi1.txt" || { echo "FAIL: Pi 1 board revision"; status=1; }
grep -q "ARM clock 0x29b92700 Hz" "$out/uart_hello_pi1.txt" || { echo "FAIL: Pi 1 ARM clock (700 MHz)"; status=1; }
# --frames 1: the frame buffer at the V3D's end of frame, the run ends there
"$vc4kit" boot "$images/gl_seed_pi1.img" --frames 1 -o "$out/frames.png" > /dev/null 2> "$out/frames.err" || { cat "$out/frames.err"; status=1; }
grep -q "frame limit" "$out/frames.err" && [ -s "$out/frames-1.png" ] || { echo "FAIL: --frames 1"; cat "$out/frames.err"; status=1; }
# --stats and --dump-tiles as in `vc4kit render`
"$vc4kit" boot "$images/nv_colors_pi2.img" -o "$out/stats.png" --stats --dump-tiles "$out/tiles.txt" > "$out/stats.txt" 2>&1 || status=1
grep -q "^  binner: prims in 1, binned 1, " "$out/stats.txt" && grep -q "v3d: frames 1" "$out/stats.txt" || { echo "FAIL: --stats"; cat "$out/stats.txt"; status=1; }
grep -q "tile" "$out/tiles.txt" || { echo "FAIL: --dump-tiles"; status=1; }
exit $status
