#!/bin/sh
# `vc4kit boot --window` (optional, SDL2): with SDL's dummy video driver the
# live window opens, follows the run and closes at its end without waiting
# for a user; the run and its PNG are the same as without the window.
# Without SDL2 in the build, --window says it is unavailable (exit 2) and
# this test reports SKIP (77), as without Unicorn or the cross compilers.
#   sh boot_window.sh VC4KIT SOURCE_DIR IMAGES_DIR BUILD_DIR
set -u
vc4kit=$1 src=$2 images=$3 out=$4/boot_window
if ! "$vc4kit" boot --help > /dev/null 2>&1 || "$vc4kit" boot /dev/null 2>&1 | grep -q "without Unicorn"; then
    echo "SKIP: vc4kit was built without Unicorn (apt-get install libunicorn-dev)"; exit 77
fi
if [ ! -f "$images/irq_v3d_pi1.img" ]; then
    echo "SKIP: no bare-metal images in $images"; exit 77
fi
rm -rf "$out"; mkdir -p "$out"
if "$vc4kit" boot "$images/irq_v3d_pi1.img" -o "$out/probe.png" --window 2>&1 | grep -q "window is unavailable"; then
    # the flag is refused with exit 2, and says why
    "$vc4kit" boot "$images/irq_v3d_pi1.img" -o "$out/probe.png" --window > /dev/null 2>&1
    [ $? = 2 ] || { echo "FAIL: --window without SDL2 is not exit 2"; exit 1; }
    echo "SKIP: vc4kit was built without SDL2 (optional: apt-get install libsdl2-dev)"; exit 77
fi
status=0
export SDL_VIDEODRIVER=dummy
"$vc4kit" boot "$images/irq_v3d_pi1.img" -o "$out/v3d.png" --window --frames 3 \
    --expect "$src/tests/golden/boot_irq_v3d.png" > "$out/v3d.txt" 2> "$out/v3d.err" || { echo "FAIL: irq_v3d --window"; cat "$out/v3d.err"; status=1; }
grep -q "frame 2 done by interrupt" "$out/v3d.txt" || { echo "FAIL: irq_v3d --window: UART text"; status=1; }
[ -s "$out/v3d-3.png" ] || { echo "FAIL: --window with --frames wrote no frame PNGs"; status=1; }
# a run past several 1/60 s ticks (the window's pictures, paced to the wall clock)
"$vc4kit" boot "$images/uart_hello_pi1.img" -o "$out/hello.png" --window \
    --expect "$src/tests/golden/boot_uart_hello.png" > /dev/null 2> "$out/hello.err" || { echo "FAIL: uart_hello --window"; cat "$out/hello.err"; status=1; }
exit $status
