#!/bin/sh
# --profile (the QPU code profiler, docs/emulator.md "Profile"): where the
# QPUs spent their cycles, by instruction.
#  - vc4kit run: twelve QPUs loop over a general TMU lookup and its load;
#    the loads wait, so most samples are stalled, at the instruction after
#    the ldtmu (the one that cannot issue yet).  --stats beside it.
#  - vc4kit render: seed 004's textured triangle (tex_triangle.qasm): the
#    fragment shader waits for its texels at the instruction after its
#    ldtmu0 (or tlbc, r4, r4), which has the most samples; the same report
#    on two host threads and interpreted only (the samples depend on the
#    emulated cycles alone).
set -eu
vc4kit=$1
src=$2
out=$3/profile
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

for cmd in run render boot; do
    "$vc4kit" $cmd --help | grep -q -- "--profile" || fail "$cmd --help does not describe --profile"
done
"$vc4kit" exec --help | grep -q -- "--profile" || fail "exec --help does not describe --profile"

cat > "$out/tmu_loop.qasm" <<'EOF'
.include "vc4.qinc"
    ldi r1, 300
    mov r2, elem_num
    shl r2, r2, 2
    ldi r3, 0x200000
    add r2, r2, r3
:loop
    mov t0s, r2
    nop; ldtmu0
    sub.setf r1, r1, 1
    brr.anynz -, r:loop
    nop
    nop
    nop
    nop; thrend
    nop
    nop
EOF
"$vc4kit" run "$out/tmu_loop.qasm" --qpus 12 --stats --profile > "$out/run.txt" || fail "run exited $?"
cat "$out/run.txt"
grep -q "^run stats:$" "$out/run.txt" || fail "run: no --stats"
grep -q "^  user programs: started 12, completed 12$" "$out/run.txt" || fail "run --stats: programs"
head=$(grep "^profile: " "$out/run.txt") || fail "run: no profile header"
samples=$(echo "$head" | sed -n 's/^profile: \([0-9]*\) samples of busy QPUs (one about every 61 cycles) at \([0-9]*\) instructions: .*/\1/p')
[ -n "$samples" ] && [ "$samples" -gt 100 ] || fail "run: header '$head'"
stalled=$(echo "$head" | sed -n 's/.*stalled on a unit \([0-9.]*\)%.*/\1/p')
[ "${stalled%.*}" -ge 50 ] || fail "run: the loads should stall most samples, not $stalled%"
grep -q "^  share  issuing  stalled  blocked  address     kind        instruction$" "$out/run.txt" || fail "run: no column names"
# the first line after the column names: the sub after the ldtmu (0x00100000 + 7 * 8)
first=$(sed -n '/^  share/{n;p;q}' "$out/run.txt")
echo "$first" | grep -q " 0x00100038  user        sub.setf r1, r1, 1" || fail "run: the top instruction is '$first'"
# every sample line's counts add up to the header's samples
sum=$(sed -n '/^  share/,$p' "$out/run.txt" | awk 'NR > 1 && $5 ~ /^0x/ { s += $2 + $3 + $4 } END { print s }')
[ "$sum" = "$samples" ] || fail "run: the lines' samples add up to $sum, not $samples"

qasm="$src/../examples/tex_triangle.qasm"
gold="$src/golden/tex_triangle.png"
"$vc4kit" render "$qasm" -o "$out/t.png" --expect "$gold" --profile > "$out/render.txt" || fail "render exited $?"
cat "$out/render.txt"
first=$(sed -n '/^  share/{n;p;q}' "$out/render.txt")
echo "$first" | grep -q "  fragment    or tlbc, r4, r4" || fail "render: the top instruction is '$first'"
VC4KIT_THREADS=2 "$vc4kit" render "$qasm" -o "$out/t2.png" --expect "$gold" --profile > "$out/render2.txt" \
    || fail "render on two threads exited $?"
cmp -s "$out/render.txt" "$out/render2.txt" || fail "render: another profile on two host threads"
VC4KIT_JIT=0 "$vc4kit" render "$qasm" -o "$out/t3.png" --expect "$gold" --profile > "$out/render3.txt" \
    || fail "render interpreted only exited $?"
cmp -s "$out/render.txt" "$out/render3.txt" || fail "render: another profile interpreted only"
echo "profile: ok"
