#!/bin/sh
# vc4kit render on two host threads (VC4KIT_THREADS=2: texture sampling on
# the second core, docs/emulator.md "Texture sampling on the second host
# core"): seed 004's textured triangle gives the golden image, and every
# line of --stats is the one-thread run's, with one more saying what the
# second thread did (how many requests it took depends on the host's load,
# so only its bounds are checked here; test_tmu_helper checks that it
# samples).
set -eu
vc4kit=$1
src=$2
out=$3/render_threads
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
qasm="$src/../examples/tex_triangle.qasm"
gold="$src/golden/tex_triangle.png"

VC4KIT_THREADS=1 "$vc4kit" render "$qasm" -o "$out/one.png" --expect "$gold" --stats > "$out/one.txt" 2>&1 \
    || fail "one thread: exited $?"
VC4KIT_THREADS=2 "$vc4kit" render "$qasm" -o "$out/two.png" --expect "$gold" --stats > "$out/two.txt" 2>&1 \
    || fail "two threads: exited $?"
cmp -s "$out/one.png" "$out/two.png" || fail "the two images differ"
grep -q "second host thread" "$out/one.txt" && fail "one thread reports a second"
line=$(grep "second host thread: " "$out/two.txt") || fail "two threads: no second-thread line"
echo "$line"
grep -v "second host thread" "$out/two.txt" | sed 's/ to [^ ]*two.png/ to X/' > "$out/two.rest"
sed 's/ to [^ ]*one.png/ to X/' "$out/one.txt" > "$out/one.rest"
diff "$out/one.rest" "$out/two.rest" || fail "the statistics differ"
taken=$(echo "$line" | sed -n 's/.*texture requests sampled \([0-9]*\) of \([0-9]*\)$/\1/p')
total=$(echo "$line" | sed -n 's/.*texture requests sampled \([0-9]*\) of \([0-9]*\)$/\2/p')
[ -n "$taken" ] && [ -n "$total" ] || fail "unreadable line: $line"
[ "$total" -eq 7540 ] || fail "texture requests $total, the scene makes 7540"
[ "$taken" -le "$total" ] || fail "more requests sampled on the helper ($taken) than made ($total)"
echo "PASS"
