#!/bin/sh
# vc4kit exec: a Pi program written like userland's mailbox.c + hello_fft
# (tests/data/vcio/vcio_prog.c: /dev/vcio property ioctls, /dev/mem mappings
# of RAM and of the V3D registers, direct SRQ writes with SRQCS polling and
# the execute_qpu tag) computes the right answer at small and large job
# sizes under `vc4kit exec`, and prints exactly what the same program
# relinked against libvc4kit prints; with nothing on stderr at the default
# diagnostic level.  A program that breaks a real rule prints it once, with
# its count at exit.  Bad options are refused with one message; bad input
# to the preload (tests/data/vcio/vcio_misuse.c) gets a Pi's errors.
#   usage: exec_vcio.sh VC4KIT TESTS_SRC TESTS_BIN
set -u
vc4kit=$1
src=$2
bin=$3
build=$(dirname "$bin")
out=$bin/exec_vcio
mkdir -p "$out"
fail=0
. "$src/cli/lib/exec_env.sh"
why=$(exec_unsupported "$bin" vcio_prog)
[ -z "$why" ] || { echo "SKIP: $why"; exit 0; }
exec_sanitizer_env
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

"$vc4kit" as -D BREAK_RULE=0 "$src/data/vcio/scale.qasm" -o "$out/scale.bin" || { echo "FAIL: as"; exit 1; }
"$vc4kit" as -D BREAK_RULE=1 "$src/data/vcio/scale.qasm" -o "$out/rule.bin" || { echo "FAIL: as"; exit 1; }

# rows per QPU, QPUs: 1 row on 1 QPU up to 1.5 MB on 12, and 13 programs on 12 QPUs
for job in "1 1" "4 12" "2048 12" "64 13"; do
    # shellcheck disable=SC2086
    set -- $job
    "$vc4kit" exec "$bin/vcio_prog" "$out/scale.bin" "$1" "$2" > "$out/pre.txt" 2> "$out/pre.err"
    rc1=$?
    # shellcheck disable=SC2086
    LD_LIBRARY_PATH="$build" "$bin/vcio_prog_relinked" "$out/scale.bin" "$1" "$2" > "$out/rel.txt" 2> "$out/rel.err"
    rc2=$?
    cat "$out/pre.txt"
    [ $rc1 = 0 ] && [ "$(grep -c ' ok, checksum ' "$out/pre.txt")" = 2 ] || bad "exec $job: exit $rc1"
    [ $rc2 = 0 ] || bad "relinked $job: exit $rc2"
    cmp -s "$out/pre.txt" "$out/rel.txt" || bad "exec and relinked differ at $job"
    [ -s "$out/pre.err" ] && { cat "$out/pre.err"; bad "exec $job: stderr not empty"; }
    [ -s "$out/rel.err" ] && { cat "$out/rel.err"; bad "relinked $job: stderr not empty"; }
done

# a real rule broken: printed once, then counted at exit; silent with --diag off
"$vc4kit" exec "$bin/vcio_prog" "$out/rule.bin" 8 12 > /dev/null 2> "$out/rule.err" || bad "rule program failed"
n=$(grep -c "warning: .*\[regfile-read-after-write" "$out/rule.err")
[ "$n" = 1 ] || bad "rule printed $n times, want 1"
grep -q "^vc4kit:   [0-9]* x regfile-read-after-write at 0x" "$out/rule.err" || bad "no count at exit"
"$vc4kit" exec --diag off "$bin/vcio_prog" "$out/rule.bin" 8 12 > /dev/null 2> "$out/off.err"
[ -s "$out/off.err" ] && bad "--diag off printed something"
# --diag error shows errors only; --strict makes the rule an error that stops the GPU
"$vc4kit" exec --diag error "$bin/vcio_prog" "$out/rule.bin" 8 12 > /dev/null 2> "$out/err.err"
[ -s "$out/err.err" ] && bad "--diag error printed a warning"
"$vc4kit" exec --strict "$bin/vcio_prog" "$out/rule.bin" 2 2 mailbox > /dev/null 2> "$out/strict.err" &&
    bad "--strict: a broken rule did not fail the launch"
grep -q "error: .*\[regfile-read-after-write" "$out/strict.err" || bad "--strict: no error for the rule"
grep -q "execute_qpu returned 0x80000000" "$out/strict.err" || bad "--strict: execute_qpu did not fail"

# diagnostics to a file, statistics on request
rm -f "$out/diag.txt"
"$vc4kit" exec --diag-file "$out/diag.txt" --stats "$bin/vcio_prog" "$out/rule.bin" 8 12 > /dev/null 2> "$out/file.err"
[ -s "$out/file.err" ] && bad "--diag-file: stderr not empty"
grep -q "regfile-read-after-write" "$out/diag.txt" || bad "--diag-file: no diagnostic in the file"
grep -q "^vc4kit stats: qpu: cycles [1-9][0-9]*, instructions [1-9]" "$out/diag.txt" || bad "--stats: no statistics"
grep -q "^vc4kit stats: host: [0-9.]* s emulating" "$out/diag.txt" || bad "--stats: no host line"
# 8 rows on 12 QPUs, both ways: 24 programs, 192 VDW stores of 64 bytes
grep -q "^vc4kit stats: user programs: started 24, completed 24$" "$out/diag.txt" || bad "--stats: programs"
grep -q "VDW 192 stores / 12288 bytes" "$out/diag.txt" || bad "--stats: VPM traffic"
# --profile: the samples at exit, in the same file; the program waits on its
# VDW stores (vw_wait), so the instruction after the vw_wait read is stalled
rm -f "$out/prof.txt"
"$vc4kit" exec --diag-file "$out/prof.txt" --profile "$bin/vcio_prog" "$out/scale.bin" 8 12 > /dev/null 2> "$out/prof.err" \
    || bad "--profile: the program failed"
[ -s "$out/prof.err" ] && bad "--profile: stderr not empty"
grep -q "^vc4kit: profile: [1-9][0-9]* samples of busy QPUs" "$out/prof.txt" || bad "--profile: no profile"
stalled=$(sed -n 's/^vc4kit: profile: .* stalled on a unit \([0-9]*\)\.[0-9]%.*/\1/p' "$out/prof.txt")
[ -n "$stalled" ] && [ "$stalled" -ge 50 ] || bad "--profile: the VDW waits should be most samples, not $stalled%"
grep -q "^vc4kit:  .* 0x[0-9a-f]*  .*vw_wait" "$out/prof.txt" || bad "--profile: no line for the vw_wait read"
# relinked programs read the same environment
VC4KIT_DIAG=all VC4KIT_STATS=1 LD_LIBRARY_PATH="$build" "$bin/vcio_prog_relinked" "$out/rule.bin" 8 12 \
    > /dev/null 2> "$out/rel_rule.err" || bad "relinked rule program failed"
grep -q "regfile-read-after-write" "$out/rel_rule.err" || bad "relinked: rule not reported"
grep -q "^vc4kit stats:" "$out/rel_rule.err" || bad "relinked: VC4KIT_STATS=1 printed nothing"

# the models: a Pi 2's peripherals at 0x3F000000
"$vc4kit" exec --model pi2 "$bin/vcio_prog" "$out/scale.bin" 4 12 > "$out/pi2.txt" 2>&1 || bad "--model pi2"
[ "$(grep -c '^[a-z]*: 4 rows x 12 QPUs ok' "$out/pi2.txt")" = 2 ] || { cat "$out/pi2.txt"; bad "pi2 output"; }

# bad options: one message naming the variable, the program cannot open /dev/vcio
for opt in "--mem abc" "--mem 0" "--mem 1" "--mem 4096" "--qpus 0" "--qpus 17" "--model pi5" "--diag loud"; do
    # shellcheck disable=SC2086
    "$vc4kit" exec $opt "$bin/vcio_prog" "$out/scale.bin" 1 1 > /dev/null 2> "$out/opt.err" && bad "$opt accepted"
    n=$(grep -c "^vc4kit: VC4KIT_[A-Z_]*=.*: expected" "$out/opt.err")
    [ "$n" = 1 ] || { cat "$out/opt.err"; bad "$opt: $n messages, want 1"; }
done
"$vc4kit" exec --bogus true 2> "$out/opt.err" && bad "unknown option accepted"
"$vc4kit" exec 2> /dev/null && bad "no program accepted"
"$vc4kit" exec "$out/no-such-program" 2> "$out/opt.err"
[ $? = 127 ] && grep -q "no-such-program" "$out/opt.err" || bad "missing program: want 127 and a message"

# Python reaches the devices through os.open, fcntl.ioctl and mmap.  Not in a
# sanitizer build: its preload needs the sanitizer runtime loaded first, which
# an uninstrumented python3 does not carry.
if grep -q "^VC4KIT_SANITIZE:BOOL=ON" "$build/CMakeCache.txt" 2>/dev/null; then
    echo "SKIP (sanitizer build): the python3 case"
elif command -v python3 > /dev/null 2>&1; then
    got=$("$vc4kit" exec python3 "$src/data/vcio/vcio_py.py" 2>&1)
    [ "$got" = "revision 0xe status 0x80000000 ident0 0x02443356 scratch 0xdeadbeef" ] ||
        bad "python: $got"
fi

# installed: bin/vc4kit finds the preload and libbcm_host.so in the library directory
inst=$(mktemp -d)
if cmake --install "$build" --prefix "$inst" > /dev/null 2>&1; then
    "$inst/bin/vc4kit" exec "$bin/vcio_prog" "$out/scale.bin" 2 12 > "$out/inst.txt" 2>&1 ||
        { cat "$out/inst.txt"; bad "installed vc4kit exec"; }
else
    bad "cmake --install"
fi
rm -rf "$inst"

# misuse: the Pi's errors or a diagnostic, never a crash
"$vc4kit" exec "$bin/vcio_misuse" > "$out/misuse.txt" 2> "$out/misuse.err"
rc=$?
cat "$out/misuse.txt"
[ $rc = 0 ] || bad "misuse program: exit $rc"
grep -q "tag 0x00099999 is not emulated" "$out/misuse.err" || bad "no diagnostic for an unknown tag"
grep -q "neither RAM" "$out/misuse.err" || bad "no diagnostic for an unmapped physical range"

[ $fail = 0 ] && echo "ok: exec" || echo "$fail failed"
[ $fail = 0 ]
