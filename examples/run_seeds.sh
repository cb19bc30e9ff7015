#!/bin/sh
# The main job: every seed program through vc4kit, results into OUTDIR.
#   sh examples/run_seeds.sh path/to/vc4kit OUTDIR [IMAGES_DIR]
# For each seed shader (examples/seeds/*.hex, the posts' .word pairs):
#   disassemble (with --explain), assemble the disassembly again, and check
#   that the words are identical to the posted ones; validate each shader as
#   the kind of program it is.
set -eu
vc4kit=$1
out=$2
here=$(dirname "$0")
mkdir -p "$out"
status=0

words() { # the 32-bit halves of a .hex or --hex listing, normalised
    sed 's/[;#].*//; s|//.*||' "$1" | grep -o '0x[0-9A-Fa-f]*' | while read -r h; do printf '%08x\n' "$h"; done
}

kind_of() {
    case "$1" in
        texture_fragment_shader|uniform_pack) echo fragment ;;
        gl_vertex_shader) echo vertex ;;
        gl_coordinate_shader) echo coordinate ;;
        *) echo user ;;
    esac
}

for src in "$here"/seeds/*.hex; do
    name=$(basename "$src" .hex)
    "$vc4kit" dis --hex --explain "$src" > "$out/$name.explained.qasm"
    "$vc4kit" dis --hex --no-addr "$src" > "$out/$name.qasm"
    "$vc4kit" as --hex "$out/$name.qasm" -o "$out/$name.reassembled.hex"
    if [ "$(words "$src")" = "$(words "$out/$name.reassembled.hex")" ]; then
        echo "$name: $(grep -c . "$out/$name.qasm") instructions, disassembled and re-assembled bit for bit"
    else
        echo "$name: MISMATCH after re-assembly" >&2
        status=1
    fi
    case "$name" in
        uniform_pack|texture_fragment_shader)
            echo "$name: a snippet from the post (no thread end), not validated as a whole program" ;;
        *) if "$vc4kit" as --check --kind "$(kind_of "$name")" "$out/$name.qasm" -o /dev/null 2> "$out/$name.check.txt"; then
               echo "$name: passes every $(kind_of "$name")-program rule"
           else
               echo "$name: validator findings in $out/$name.check.txt" >&2
               status=1
           fi ;;
    esac
done
# Seed 003's coordinate-shader test as a user program: the fake vertex
# (X=32, Y=448 in 12.4, Z = 1/W = 1.0) comes in as uniforms, the last uniform
# is the VDW store address. The post printed, from real hardware, 16 copies of
# each of: clip X 0xBF665C24, clip Y 0x3F5EDD42, clip Z 0, clip W 1.0, the
# packed 12.4 screen X/Y 0x1C000200, screen Z, 1/W.
store=0x00400000
"$vc4kit" run "$here/seeds/vpm_coordinate_shader_test.hex" \
    --uniforms 0x1C000200,1.0,1.0,$store --dump $store:448 > "$out/vpm_coordinate_shader_test.dump"
expect=""
for v in 0xbf665c24 0x3f5edd42 0x00000000 0x3f800000 0x1c000200 0x3f800000 0x3f800000; do
    i=0
    while [ $i -lt 16 ]; do expect="$expect $v"; i=$((i + 1)); done
done
if [ "$(echo $expect)" = "$(echo $(cat "$out/vpm_coordinate_shader_test.dump"))" ]; then
    echo "vpm_coordinate_shader_test: ran on the emulator; memory holds exactly the words the post printed"
else
    echo "vpm_coordinate_shader_test: memory differs from the post (see $out/vpm_coordinate_shader_test.dump)" >&2
    status=1
fi
# Seeds 000/002's NV-mode scenes (issue 4): each assembly memory image runs its
# binning list on CT0 (the binner writes the tile lists) and its rendering list
# on CT1 (tile lists -> PSE -> rasteriser -> fragment shader on the QPUs -> TLB
# -> tile buffer -> store); the PNG must equal the golden image pixel for pixel.
# Seed 004's textured triangle (issue 6): its fragment shader words as posted,
# a 32x32 RGBA8888 texture in T format written by the assembler, sampled by the
# emulated TMU0 (the posted third instruction also names a third varying, of
# a two-varying scene, beside a nop mul: its value goes nowhere and, as on
# hardware, nothing is wrong, so nothing is reported).
for name in nv_triangle nv_varyings tex_triangle; do
    if "$vc4kit" render "$here/$name.qasm" -o "$out/$name.png" --expect "$here/../tests/golden/$name.png"; then
        case "$name" in
            nv_triangle) what="640x480 triangle in the colour of four float uniforms (mul-pipe .8a-.8d packs): green" ;;
            tex_triangle) what="the triangle with S, T varyings and a T-format texture through TMU0 (the seed's shader words)" ;;
            *) what="the same triangle with per-vertex varyings R, G, B interpolated (V * W + C)" ;;
        esac
        echo "$name: $what; $out/$name.png equals tests/golden/$name.png pixel for pixel"
    else
        echo "$name: rendering failed or differs from tests/golden/$name.png" >&2
        status=1
    fi
done
# Seed 000's GL-mode scene (issue 5): the same triangle through two attribute
# streams, the post's pass-through coordinate shader (binning) and vertex
# shader (rendering) run on the QPUs, GL_Shader_State with two arrays; the PNG
# must equal the NV version's golden pixel for pixel.
if "$vc4kit" render "$here/gl_triangle.qasm" -o "$out/gl_triangle.png" --expect "$here/../tests/golden/nv_triangle.png"; then
    echo "gl_triangle: seed 000's GL scene (coordinate and vertex shaders on the QPUs); $out/gl_triangle.png equals tests/golden/nv_triangle.png pixel for pixel"
else
    echo "gl_triangle: rendering failed or differs from tests/golden/nv_triangle.png" >&2
    status=1
fi
# Seed 000's GL scene as a bare-metal kernel image (issue 11): the ARM sets
# up the frame buffer through the mailbox, writes the lists, records and the
# seed's shader words, starts CT0/CT1 and parks; `vc4kit boot` runs it on an
# emulated Pi 1 (Unicorn) and the frame buffer must equal the same golden.
# The images are built when arm-none-eabi-gcc is there (IMAGES_DIR, the
# third argument, defaults to examples/baremetal next to vc4kit).
images=${3:-$(dirname "$vc4kit")/examples/baremetal}
if [ ! -f "$images/gl_seed_pi1.img" ]; then
    echo "gl_seed kernel image: not built (no arm-none-eabi-gcc), skipped"
elif "$vc4kit" boot "$images/gl_seed_pi1.img" -o "$out/gl_seed_pi1.png" --expect "$here/../tests/golden/nv_triangle.png" \
        > "$out/gl_seed_pi1.uart.txt" 2> "$out/gl_seed_pi1.log"; then
    echo "gl_seed kernel image: booted on an emulated Pi 1; UART: $(grep -c . "$out/gl_seed_pi1.uart.txt") lines; $out/gl_seed_pi1.png equals tests/golden/nv_triangle.png pixel for pixel"
elif grep -q "without Unicorn" "$out/gl_seed_pi1.log"; then
    echo "gl_seed kernel image: vc4kit was built without Unicorn, skipped"
else
    echo "gl_seed kernel image: boot failed or differs from tests/golden/nv_triangle.png (see $out/gl_seed_pi1.log)" >&2
    status=1
fi
exit $status
