#!/bin/sh
# vc4kit as --check --kernel [--threaded]: the Linux kernel's shader rules
# (vc4_validate_shaders.c, docs/rules.md "The kernel's shader rules") after
# the hardware rules; exit 1 and a kernel-* diagnostic when the kernel
# would refuse the shader, 0 when it accepts it.
set -u
vc4kit=$1
src=$2
tmp=$3/as_kernel
mkdir -p "$tmp"
fail() { echo "FAIL: $*"; exit 1; }
tail='nop; thrend\nnop\nnop\n'

# accepted: a clamped direct lookup (the kernel's UBO pattern) and a texture
printf "max r2, r2, 0\nmin r2, r2, unif\nadd t0s, r2, unif\nmov t1t, r0\nmov t1s, r1\n$tail" > "$tmp/ok.qasm"
"$vc4kit" as --check --kernel --hex "$tmp/ok.qasm" -o "$tmp/ok.hex" 2> "$tmp/err.txt" ||
    fail "accepted shader refused: $(cat "$tmp/err.txt")"
# refused: an unclamped direct lookup; HOST_INT; the relative uniforms address
printf "add t0s, r2, unif\n$tail" > "$tmp/direct.qasm"
printf "mov irq, 1\n$tail" > "$tmp/irq.qasm"
printf "mov unif_addr_rel, r0\n$tail" > "$tmp/rel.qasm"
for c in direct:kernel-direct-lookup irq:kernel-waddr rel:kernel-uniform-address; do
    f=${c%%:*}
    rule=${c#*:}
    # the hardware rules alone accept it
    "$vc4kit" as --check --hex "$tmp/$f.qasm" -o "$tmp/$f.hex" 2> "$tmp/err.txt" ||
        fail "$f: refused without --kernel: $(cat "$tmp/err.txt")"
    if "$vc4kit" as --check --kernel --hex "$tmp/$f.qasm" -o "$tmp/$f.hex" 2> "$tmp/err.txt"; then
        fail "$f: accepted with --kernel"
    fi
    grep -q "0x00000000: error: .*\[$rule; Linux vc4_validate_shaders.c" "$tmp/err.txt" ||
        fail "$f: wanted $rule at the first instruction: $(cat "$tmp/err.txt")"
done
# threads: a fragment shader with a thread switch needs --threaded, and
# --threaded one without; upper registers are the other thread's
printf "nop; thrsw\nnop\nnop\n$tail" > "$tmp/thr.qasm"
"$vc4kit" as --check --kernel --kind fragment --threaded --hex "$tmp/thr.qasm" -o "$tmp/thr.hex" 2> "$tmp/err.txt" ||
    fail "threaded shader refused: $(cat "$tmp/err.txt")"
if "$vc4kit" as --check --kernel --kind fragment --hex "$tmp/thr.qasm" -o "$tmp/thr.hex" 2> "$tmp/err.txt"; then
    fail "thread switch without --threaded accepted"
fi
grep -q "kernel-thread-mode" "$tmp/err.txt" || fail "thread mode: $(cat "$tmp/err.txt")"
printf "nop; thrsw\nnop\nnop\nmov ra20, r0\n$tail" > "$tmp/upper.qasm"
if "$vc4kit" as --check --kernel --threaded --kind fragment --hex "$tmp/upper.qasm" -o "$tmp/u.hex" 2> "$tmp/err.txt"; then
    fail "upper registers in a threaded shader accepted"
fi
grep -q "kernel-threaded-upper-regs" "$tmp/err.txt" || fail "upper regs: $(cat "$tmp/err.txt")"
# --kernel without --check is a usage error
if "$vc4kit" as --kernel --hex "$tmp/ok.qasm" -o "$tmp/ok.hex" 2> "$tmp/err.txt"; then fail "--kernel alone"; fi
grep -q "go with --check" "$tmp/err.txt" || fail "usage message: $(cat "$tmp/err.txt")"
# the seed shaders that make up a GL pipeline satisfy the kernel
for s in gl_vertex_shader gl_coordinate_shader; do
    "$vc4kit" dis --hex --no-addr "$src/../examples/seeds/$s.hex" -o "$tmp/$s.qasm" 2> "$tmp/err.txt" ||
        fail "dis $s: $(cat "$tmp/err.txt")"
    "$vc4kit" as --check --kernel --hex "$tmp/$s.qasm" -o "$tmp/$s.hex" 2> "$tmp/err.txt" ||
        fail "$s refused: $(cat "$tmp/err.txt")"
done
echo ok
