#!/bin/sh
# The main job: every seed program through vc4kit, results into OUTDIR.
#   sh examples/run_seeds.sh path/to/vc4kit OUTDIR
set -eu
vc4kit=$1
out=$2
here=$(dirname "$0")
mkdir -p "$out"
for src in "$here"/seeds/*.hex; do
    name=$(basename "$src" .hex)
    "$vc4kit" dis --hex --explain "$src" > "$out/$name.dis"
    echo "disassembled $src -> $out/$name.dis"
done
