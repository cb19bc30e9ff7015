#!/bin/sh
# vc4kit as: raw and --hex output, -D, -I, errors with file:line:col, exit codes.
set -u
vc4kit=$1
src=$2
tmp=$3/as_basic
mkdir -p "$tmp"
fail() { echo "FAIL: $*"; exit 1; }

printf '.include "inc.qinc"\nldi r0, VALUE + EXTRA\nnop; nop; thrend\n' > "$tmp/a.qasm"
mkdir -p "$tmp/inc"
printf '.set EXTRA, 2\n' > "$tmp/inc/inc.qinc"
"$vc4kit" as -I "$tmp/inc" -D VALUE=40 --hex "$tmp/a.qasm" -o "$tmp/a.hex" || fail "as --hex"
grep -q '^0x0000002a, 0xe0020827,$' "$tmp/a.hex" || fail "ldi word: $(cat "$tmp/a.hex")"
grep -q '^0x009e7000, 0x300009e7,$' "$tmp/a.hex" || fail "thrend word"
"$vc4kit" as -I "$tmp/inc" -D VALUE=40 "$tmp/a.qasm" -o "$tmp/a.bin" || fail "as raw"
[ "$(wc -c < "$tmp/a.bin")" -eq 16 ] || fail "raw size"
# disassemble and assemble again: identical bytes
"$vc4kit" dis --no-addr "$tmp/a.bin" -o "$tmp/a.dis" || fail "dis"
"$vc4kit" as "$tmp/a.dis" -o "$tmp/b.bin" || fail "re-assemble: $(cat "$tmp/a.dis")"
cmp -s "$tmp/a.bin" "$tmp/b.bin" || fail "round trip differs"
# errors
printf 'nop\n  fadd r0, r1, nothere\n' > "$tmp/bad.qasm"
if "$vc4kit" as "$tmp/bad.qasm" -o "$tmp/bad.bin" 2> "$tmp/err.txt"; then fail "error exit"; fi
grep -q 'bad.qasm:2:16: error: undefined symbol' "$tmp/err.txt" || fail "message: $(cat "$tmp/err.txt")"
# vc4asm's command line: -i FILE first (found like .include), several inputs
# concatenated, -C: "0xLO, 0xHI" lines joined by ",\n", no comma after the
# last (vc4asm V0.3 WriteX without trailing comma)
printf 'ldi r0, vpm_setup(1, 1, h32(2))\n' > "$tmp/c1.qasm"
printf 'nop; nop; thrend\n' > "$tmp/c2.qasm"
"$vc4kit" as -i vc4.qinc -C "$tmp/c.hex" "$tmp/c1.qasm" "$tmp/c2.qasm" || fail "as -i -C"
# vpm_setup(1, 1, h32(2)) = 1 << 20 | 1 << 12 | 0xa00 | 2; ldi r0 = 0xe0020827
printf '0x00101a02, 0xe0020827,\n0x009e7000, 0x300009e7\n' > "$tmp/c.want"
cmp -s "$tmp/c.hex" "$tmp/c.want" || fail "-C output: $(cat -A "$tmp/c.hex")"
if "$vc4kit" as -i nothere.qinc -C "$tmp/c.hex" "$tmp/c1.qasm" 2> "$tmp/err.txt"; then
    fail "-i of a missing file"
fi
grep -q 'cannot open include file "nothere.qinc"' "$tmp/err.txt" || fail "-i message: $(cat "$tmp/err.txt")"
"$vc4kit" as --help > /dev/null || fail "--help"
echo ok
