#!/bin/sh
# Interrupts delivered to the ARM core and --png-at (docs/boot.md): the
# irq_timer example (a vector table, the system timer's compare 1 every
# 2 ms, WFI between) and irq_v3d (a frame loop paced by the V3D's
# frame-done interrupt, GPU IRQ 10) on the Pi 1, 2, 3 and the Pi 3 in
# AArch64: the UART text counts the interrupts, the frame buffers equal the
# goldens, --stats counts the IRQs taken, --frames writes each frame, and
# --png-at writes the frame buffer at emulated times.  Exit 77 (SKIP)
# without Unicorn or the cross compilers.
#   sh boot_irq.sh VC4KIT SOURCE_DIR IMAGES_DIR BUILD_DIR
set -u
vc4kit=$1 src=$2 images=$3 out=$4/boot_irq
if ! "$vc4kit" boot --help > /dev/null 2>&1 || "$vc4kit" boot /dev/null 2>&1 | grep -q "without Unicorn"; then
    echo "SKIP: vc4kit was built without Unicorn (apt-get install libunicorn-dev)"; exit 77
fi
if [ ! -f "$images/irq_timer_pi1.img" ]; then
    echo "SKIP: no bare-metal images in $images (apt-get install gcc-arm-none-eabi binutils-arm-none-eabi gcc-aarch64-linux-gnu)"; exit 77
fi
rm -rf "$out"; mkdir -p "$out"
status=0
fail() { echo "FAIL: $*"; status=1; }
for board in pi1 pi2 pi3 pi3_64; do
    for scene in irq_timer irq_v3d; do
        img=$images/${scene}_$board.img
        [ -f "$img" ] || { echo "SKIP: $img not built (cross compiler missing)"; continue; }
        o=$out/${scene}_$board
        if ! "$vc4kit" boot "$img" -o "$o.png" --expect "$src/tests/golden/boot_$scene.png" --stats > "$o.txt" 2> "$o.err"; then
            fail "$scene on $board"; cat "$o.err"; continue
        fi
        grep -q "parked (branch to itself)" "$o.err" || fail "$scene on $board did not park"
        case $scene in
            irq_timer)
                grep -q "^tick 8" "$o.txt" && grep -q "irq_timer: 8 timer interrupts in 16 ms" "$o.txt" || fail "irq_timer text on $board"
                grep -q "IRQs taken 8$" "$o.txt" || fail "irq_timer on $board: not 8 IRQs taken" ;;
            irq_v3d)
                grep -q "frame 3 done by interrupt" "$o.txt" && grep -q "irq_v3d: 3 frames, 3 interrupts" "$o.txt" || fail "irq_v3d text on $board"
                grep -q "IRQs taken 3$" "$o.txt" || fail "irq_v3d on $board: not 3 IRQs taken" ;;
        esac
        echo "ok: $scene on $board"
    done
done
# each frame of the interrupt-paced loop: the clear colours differ, the last is the golden
"$vc4kit" boot "$images/irq_v3d_pi1.img" -o "$out/loop.png" --frames 3 > /dev/null 2> "$out/loop.err" || { cat "$out/loop.err"; status=1; }
"$vc4kit" boot "$images/irq_v3d_pi1.img" -o "$out/loop3.png" --frames 3 --expect "$src/tests/golden/boot_irq_v3d.png" > /dev/null 2>&1 || fail "--frames 3: the third frame is not the golden"
[ -s "$out/loop-1.png" ] && [ -s "$out/loop-2.png" ] && [ -s "$out/loop-3.png" ] || fail "--frames 3 wrote no frame PNGs"
cmp -s "$out/loop-1.png" "$out/loop-2.png" && fail "frames 1 and 2 are equal (the clear colour changes per frame)"
cmp -s "$out/loop-3.png" "$out/loop3.png" || fail "frame 3 differs from the end's frame buffer"
# --png-at: two bands at 5 ms (ticks at 2 and 4 ms), the whole picture later;
# 100 ms is after the CPU parked (16 ms): the frame buffer of the end
"$vc4kit" boot "$images/irq_timer_pi1.img" -o "$out/t.png" --png-at 5,100ms,1000us > /dev/null 2> "$out/at.err" || { cat "$out/at.err"; status=1; }
for f in t-at-1ms t-at-5ms t-at-100ms; do [ -s "$out/$f.png" ] || fail "--png-at wrote no $f.png"; done
"$vc4kit" boot "$images/irq_timer_pi1.img" -o "$out/at5.png" --png-at 5 > /dev/null 2>&1
cmp -s "$out/at5-at-5ms.png" "$out/t-at-5ms.png" || fail "--png-at 5 and 5ms differ"
"$vc4kit" boot "$images/irq_timer_pi1.img" -o "$out/x.png" --png-at 5ms --expect "$src/tests/golden/boot_irq_timer.png" > /dev/null 2>&1 || fail "--png-at changed the run"
cmp -s "$out/t-at-1ms.png" "$out/t-at-5ms.png" && fail "--png-at: 1 ms and 5 ms equal"
cmp -s "$out/t-at-100ms.png" "$out/t.png" || fail "--png-at 100ms (after parking) is not the end's frame buffer"
# the 5 ms picture (vc4kit writes PNGs byte for byte the same way)
cmp -s "$out/t-at-5ms.png" "$src/tests/golden/boot_irq_timer_5ms.png" || fail "--png-at 5ms is not the golden"
"$vc4kit" boot "$images/irq_timer_pi1.img" --png-at 5x > /dev/null 2>&1; [ $? = 2 ] || fail "--png-at 5x: not exit 2"
exit $status
