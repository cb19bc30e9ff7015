#!/bin/sh
# Diagnostics at the default level (issue 10): a program in GPU_FFT's shape
# (tests/data/vcio/fft_shape.qasm: TMU reads in a loop, a VPM read in the
# branch delay slot right after its vr_setup, VDW strides 16320/32704/65472)
# computes the right rows and prints NOTHING on stderr, under `vc4kit exec`
# (through vcio_prog, both the register and the mailbox way) and under
# `vc4kit run`; the notes it draws (vdw-stride-width) show only where asked
# for.  The same program with a real rule broken prints that rule once, with
# its count at exit under exec.
#   usage: exec_diag_default.sh VC4KIT TESTS_SRC TESTS_BIN
set -u
vc4kit=$1
src=$2
bin=$3
out=$bin/exec_diag_default
mkdir -p "$out"
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

"$vc4kit" as -D BREAK_RULE=0 "$src/data/vcio/fft_shape.qasm" -o "$out/fft.bin" || { echo "FAIL: as"; exit 1; }
"$vc4kit" as -D BREAK_RULE=1 "$src/data/vcio/fft_shape.qasm" -o "$out/rule.bin" || { echo "FAIL: as"; exit 1; }

# vc4kit run: 4 rows of in[i] = i * 0x01010101 at 0x300000, out at 0x400000
: > "$out/in.bin"
i=0
while [ $i -lt 64 ]; do
    printf "\\$(printf %03o $((i & 255)))\\$(printf %03o $((i & 255)))\\$(printf %03o $((i & 255)))\\000" >> "$out/in.bin"
    i=$((i + 1))
done
run() {
    "$vc4kit" run "$1" --load "$out/in.bin@0x300000" --uniforms 0x300000,0x400000,4,0 --dump 0x400000:256
}
run "$out/fft.bin" > "$out/run.txt" 2> "$out/run.err" || bad "run: exit $?"
[ -s "$out/run.err" ] && { cat "$out/run.err"; bad "run: stderr not empty at the default level"; }
want=""
i=0
while [ $i -lt 64 ]; do
    want="$want $(printf '0x%08x' $(( (i * 0x010101 * 3 + 7) & 0xFFFFFF )))"
    i=$((i + 1))
done
[ "$(echo $want)" = "$(echo $(cat "$out/run.txt"))" ] || bad "run: wrong rows: $(head -2 "$out/run.txt")"
# the note is there for whoever asks: as --check
"$vc4kit" as --check --kind user -D BREAK_RULE=0 "$src/data/vcio/fft_shape.qasm" -o /dev/null 2> "$out/check.err"
grep -q "note: .*\[vpm-read-too-early" "$out/check.err" || bad "as --check: no vpm-read-too-early note"
grep -q "warning\|error" "$out/check.err" && bad "as --check: the shape diagnosed: $(cat "$out/check.err")"
run "$out/rule.bin" > /dev/null 2> "$out/run_rule.err" || bad "run rule: exit $?"
n=$(grep -c "warning: .*\[regfile-read-after-write" "$out/run_rule.err")
[ "$n" = 1 ] || bad "run: rule printed $n times, want 1"
[ "$(grep -vc "regfile-read-after-write" "$out/run_rule.err")" = 0 ] || bad "run: more than the rule: $(cat "$out/run_rule.err")"

# vc4kit exec (needs the preload and live V3D registers, as exec_vcio.sh)
. "$src/cli/lib/exec_env.sh"
why=$(exec_unsupported "$bin" vcio_prog)
if [ -n "$why" ]; then
    echo "SKIP exec part: $why"
else
    exec_sanitizer_env
    for job in "1 1" "16 12"; do
        # shellcheck disable=SC2086
        set -- $job
        "$vc4kit" exec "$bin/vcio_prog" "$out/fft.bin" "$1" "$2" > "$out/exec.txt" 2> "$out/exec.err" ||
            bad "exec $job: exit $?"
        cat "$out/exec.txt"
        [ "$(grep -c ' ok, checksum ' "$out/exec.txt")" = 2 ] || bad "exec $job: wrong rows"
        [ -s "$out/exec.err" ] && { cat "$out/exec.err"; bad "exec $job: stderr not empty at the default level"; }
    done
    "$vc4kit" exec "$bin/vcio_prog" "$out/rule.bin" 8 12 > /dev/null 2> "$out/exec_rule.err" || bad "exec rule: exit $?"
    n=$(grep -c "warning: .*\[regfile-read-after-write" "$out/exec_rule.err")
    [ "$n" = 1 ] || bad "exec: rule printed $n times, want 1"
    grep -q "^vc4kit:   [0-9]* x regfile-read-after-write at 0x" "$out/exec_rule.err" || bad "exec: no count at exit"
    grep -q "vdw-stride-width\|vpm-read-too-early" "$out/exec_rule.err" && bad "exec: a note printed at the default level"
fi
[ $fail = 0 ] && echo "exec_diag_default: all passed"
exit $fail
