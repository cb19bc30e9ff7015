#!/bin/sh
# `vc4kit dis` command contract: raw and --hex input, --fields names,
# --explain, exit codes.   usage: dis_contract.sh VC4KIT TESTS_SRC TESTS_BIN
set -u
vc4kit=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=$((fail + 1)); }

seeds="$src/../examples/seeds"
for f in "$seeds"/*.hex; do
    if "$vc4kit" dis --hex "$f" > "$tmp/out" 2> "$tmp/err"; then ok "dis --hex $(basename "$f")"
    else bad "dis --hex $(basename "$f"): $(cat "$tmp/err")"; fi
    n_words=$(grep -c '^\.word' "$f")
    n_lines=$(grep -c . "$tmp/out")
    [ "$n_words" = "$n_lines" ] && ok "one line per word ($n_words)" || bad "$n_words words but $n_lines lines"
done

# raw little-endian: the seed 002 uniform instruction 0x20820DF7, 0xD14059E5
printf '\367\015\202\040\345\131\100\321' > "$tmp/one.bin"
out=$("$vc4kit" dis --no-addr "$tmp/one.bin")
[ "$out" = "	nop; fmul r5quad.8a, unif, 1.0; @add_a=6 @add_b=7" ] && ok "raw word" || bad "raw word: '$out'"

out=$("$vc4kit" dis --fields --no-addr "$tmp/one.bin")
for kv in sig=13 unpack=0 pm=1 pack=4 cond_add=0 cond_mul=1 sf=0 ws=1 waddr_add=39 waddr_mul=37 \
          op_mul=1 op_add=0 raddr_a=32 raddr_b=32 add_a=6 add_b=7 mul_a=6 mul_b=7; do
    echo "$out" | grep -q "[ #]$kv\b" && ok "--fields $kv" || bad "--fields lacks $kv: $out"
done
out=$("$vc4kit" dis --explain --no-addr "$tmp/one.bin")
echo "$out" | grep -q "32->8a" && echo "$out" | grep -q "PM1" && ok "--explain" || bad "--explain: $out"

# comments in --hex input: ';' and '//' hide numbers
printf '.word 0x009E7000, 0x300009E7 ; 0x12345678\n// 0x1, 0x2\n0x009E7000, 0x100009E7\n' > "$tmp/c.hex"
n=$("$vc4kit" dis --hex "$tmp/c.hex" | grep -c .)
[ "$n" = 2 ] && ok "comments skipped" || bad "comments: $n lines"

# errors: odd size, missing file, odd number of halves, unknown option
printf '1234567' > "$tmp/odd.bin"
"$vc4kit" dis "$tmp/odd.bin" >/dev/null 2>&1 && bad "odd size accepted" || ok "odd size rejected"
"$vc4kit" dis "$tmp/missing" >/dev/null 2>&1 && bad "missing file accepted" || ok "missing file rejected"
printf '0x1, 0x2, 0x3\n' > "$tmp/half.hex"
"$vc4kit" dis --hex "$tmp/half.hex" >/dev/null 2>&1 && bad "half word accepted" || ok "half word rejected"
"$vc4kit" dis --bogus "$tmp/one.bin" >/dev/null 2>&1 && bad "unknown option accepted" || ok "unknown option rejected"

echo "dis_contract: $fail failed"
[ "$fail" = 0 ]
