#!/bin/sh
# vc4kit run: the seed 003 coordinate shader as a user program leaves the
# words the post printed from real hardware; a runaway program times out
# with a diagnostic naming the QPU and exits non-zero.
set -eu
vc4kit=$1
src=$2
out=$3/run_seed
mkdir -p "$out"
seed="$src/../examples/seeds/vpm_coordinate_shader_test.hex"
"$vc4kit" run "$seed" --uniforms 0x1C000200,0,1.0,0x10000 --dump 0x10000:448 > "$out/dump.txt"
got=$(tr -s ' \n' '\n\n' < "$out/dump.txt" | awk 'NF' | uniq -c | awk '{print $1 ":" $2}' | tr '\n' ' ')
want="16:0xbf665c24 16:0x3f5edd42 16:0x00000000 16:0x3f800000 16:0x1c000200 16:0x00000000 16:0x3f800000 "
[ "$got" = "$want" ] || { echo "seed dump: got '$got', want '$want'"; exit 1; }
printf '.word 0xFFFFFFE0, 0xF0F809E7\n.word 0x009E7000, 0x100009E7\n.word 0x009E7000, 0x100009E7\n.word 0x009E7000, 0x100009E7\n' > "$out/loop.hex"
if "$vc4kit" run "$out/loop.hex" --max-cycles 1000 2> "$out/loop.err"; then
    echo "runaway loop exited 0"; exit 1
fi
grep -q "QPU 0" "$out/loop.err" && grep -q "cycle budget" "$out/loop.err" || { cat "$out/loop.err"; exit 1; }
echo ok
