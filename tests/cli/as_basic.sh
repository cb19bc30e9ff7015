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
"$vc4kit" as --help > /dev/null || fail "--help"
echo ok
