#!/bin/sh
# vc4kit exec python3: a GPU program written in Python the way Pi programs
# in Python are (tests/data/vcio/vcio_prog.py: py-videocore's mailbox.py and
# v3d.py - fcntl.ioctl on /dev/vcio with the 32-bit request number, mmap of
# /dev/mem through a descriptor closed once mapped, the V3D registers
# through a memoryview and struct, libbcm_host.so through ctypes) runs
# under `vc4kit exec` unchanged, prints exactly what vcio_prog.c prints for
# the same jobs, and nothing on stderr at the default diagnostic level.
#   usage: exec_python.sh VC4KIT TESTS_SRC TESTS_BIN
set -u
vc4kit=$1
src=$2
bin=$3
build=$(dirname "$bin")
out=$bin/exec_python
mkdir -p "$out"
fail=0
# Debian's python3 (make deps installs it), else the first on PATH
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3 2>/dev/null) || py=""
[ -n "$py" ] || { echo "SKIP: no python3 (make deps installs it)"; exit 0; }
. "$src/cli/lib/exec_env.sh"
why=$(exec_unsupported "$bin" vcio_prog_relinked)
[ -z "$why" ] || { echo "SKIP: $why"; exit 0; }
exec_sanitizer_env
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

"$vc4kit" as -D BREAK_RULE=0 "$src/data/vcio/scale.qasm" -o "$out/scale.bin" || { echo "FAIL: as"; exit 1; }
for job in "1 1" "4 12" "2048 12" "64 13"; do
    # shellcheck disable=SC2086
    set -- $job
    "$vc4kit" exec "$py" "$src/data/vcio/vcio_prog.py" "$out/scale.bin" "$1" "$2" > "$out/py.txt" 2> "$out/py.err"
    rc1=$?
    LD_LIBRARY_PATH="$build" "$bin/vcio_prog_relinked" "$out/scale.bin" "$1" "$2" > "$out/c.txt" 2> "$out/c.err"
    rc2=$?
    cat "$out/py.txt"
    [ $rc1 = 0 ] && [ "$(grep -c ' ok, checksum ' "$out/py.txt")" = 2 ] || bad "python $job: exit $rc1"
    [ $rc2 = 0 ] || bad "vcio_prog $job: exit $rc2"
    cmp -s "$out/py.txt" "$out/c.txt" || bad "python and C differ at $job"
    [ -s "$out/py.err" ] && { cat "$out/py.err"; bad "python $job: stderr not empty"; }
done
[ $fail = 0 ] && echo "exec_python: ok"
exit $fail
