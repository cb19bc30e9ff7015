#!/bin/sh
# Bad input against every subcommand (issue 17): empty, random, NUL-only and
# truncated files, directories, missing files, unwritable outputs, absurd
# options, corrupt and oversized PNG headers, hostile assembly. Each case
# must exit with the status `vc4kit --help` documents (1: the input is
# wrong, 2: usage or file error) and say on stderr what is wrong; no
# sanitizer report (this runs in the ASan+UBSan build too); nothing is
# deleted that the command did not create.
#   sh bad_input.sh path/to/vc4kit SRCDIR BINDIR
set -u
vc4kit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
tmp=$(cd "$3" && pwd)/bad_input
rm -rf "$tmp"
mkdir -p "$tmp/dir"
cd "$tmp" || exit 1
failed=0
cases=0

# t NAME STATUS PATTERN ARGS...: run `vc4kit ARGS`; the exit status must be
# STATUS and stderr must match PATTERN (grep -E).
t() {
    name=$1 want=$2 pat=$3
    shift 3
    cases=$((cases + 1))
    s0=$(date +%s)
    "$vc4kit" "$@" > out.txt 2> err.txt < /dev/null
    got=$?
    [ -z "${TIMING:-}" ] || echo "$(( $(date +%s) - s0 ))s $name"
    why=""
    if [ "$got" -ne "$want" ]; then
        why="exit status $got, want $want"
    elif [ -n "$pat" ] && ! grep -q -E -e "$pat" err.txt; then
        why="stderr does not match /$pat/"
    elif grep -q -E 'runtime error|Sanitizer' err.txt; then
        why="sanitizer report"
    fi
    if [ -n "$why" ]; then
        echo "FAIL: $name: $why"
        sed 's/^/    | /' err.txt | head -8
        failed=$((failed + 1))
    fi
}

# ---- inputs ------------------------------------------------------------------
: > empty
printf '\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' > nul
# 509 pseudo-random bytes, the same every run (not a multiple of 8)
awk 'BEGIN { srand(17); for (i = 0; i < 509; i++) printf "\\%03o", int(rand() * 256) }' > rnd.esc
# shellcheck disable=SC2059
printf "$(cat rnd.esc)" > rnd
head -c 504 rnd > rnd8 # a multiple of 8: random instruction words
printf 'hello, world\nno pairs here\n' > words.txt
printf '0x1, 0x2, 0x3\n' > odd.hex
"$vc4kit" as "$src/../examples/nv_triangle.qasm" -o nv.bin || { echo "FAIL: cannot assemble nv_triangle"; exit 1; }
head -c 13 nv.bin > cut.bin
printf '\006\160\000\000' > cutpacket.cl # Start Tile Binning, a Tile Binning Mode Configuration cut short
golden=$src/golden/nv_triangle.png
head -c 100 "$golden" > cut.png
{ printf '\211PNG\r\n\032\n'; cat rnd; } > corrupt.png

# A PNG whose header declares 30000x30000 pixels (3.6 GB of RGBA), with a
# correct CRC (gzip's trailer holds the CRC-32 of its input): refused before
# any pixel memory is taken.
bytes() { for b in "$@"; do printf "\\$(printf %03o "0x$b")"; done; }
chunk() { # chunk TYPE-AND-DATA-FILE: length, type and data, CRC-32 (big-endian)
    n=$(($(wc -c < "$1") - 4))
    bytes 00 00 $(printf '%02x %02x' $((n / 256)) $((n % 256)))
    cat "$1"
    crc=$(gzip -c < "$1" | tail -c 8 | head -c 4 | od -An -tx1 | tr -d ' \n')
    # shellcheck disable=SC2046
    bytes $(echo "$crc" | sed 's/\(..\)\(..\)\(..\)\(..\)/\4 \3 \2 \1/')
}
bytes 49 48 44 52 00 00 75 30 00 00 75 30 08 06 00 00 00 > ihdr
bytes 49 44 41 54 78 9c 03 00 00 00 00 01 > idat
bytes 49 45 4e 44 > iend
{ bytes 89 50 4e 47 0d 0a 1a 0a; chunk ihdr; chunk idat; chunk iend; } > huge.png

# hostile assembly
printf '.include "dir"\nnop\n' > incdir.qasm
printf '.include "self.qasm"\n' > self.qasm
printf '.macro m\n m\n.endm\n m\n' > recurse.qasm
awk 'BEGIN { printf "ldi r0, "; for (i = 0; i < 3000; i++) printf "("; printf "1"; for (i = 0; i < 3000; i++) printf ")"; print "" }' > deep.qasm
printf 'nop\n\000\001\002 garbage\n' > binary.qasm
printf 'ldi r0, 0x1ffffffffffffffff\n' > bigimm.qasm
printf '.set a, 0x7fffffffffffffff\n.set b, a*a+a\nldi r0, b\n' > ovf.qasm
# an endless user program
printf 'loop:\n  brr -, r:loop\n  nop\n  nop\n  nop\n  nop; thrend\n  nop\n  nop\n' > endless.qasm
seed=$src/../examples/seeds/vpm_coordinate_shader_test.hex

# ---- the command itself ------------------------------------------------------
"$vc4kit" --help > help.txt || { echo "FAIL: --help"; failed=$((failed + 1)); }
grep -q 'exit status  0 done; 1 the input is wrong' help.txt && grep -q -- '--qpus N     1..16' help.txt ||
    { echo "FAIL: vc4kit --help does not document exit codes and --qpus"; failed=$((failed + 1)); }
t "no command" 2 "no COMMAND given"
t "unknown command" 2 "unknown command 'frob'" frob

# ---- as ----------------------------------------------------------------------
t "as empty" 1 "as: empty: no instructions or data" as empty -o o.bin
t "as NUL-only" 1 "nul" as nul -o o.bin
t "as /dev/null" 1 "/dev/null: no instructions or data" as /dev/null -o o.bin
t "as directory" 2 "dir: Is a directory" as dir -o o.bin
t "as missing" 2 "as: missing.qasm: No such file" as missing.qasm -o o.bin
t "as /dev/zero" 2 "/dev/zero: more than the" as /dev/zero -o o.bin
t "as random bytes" 1 "rnd:" as rnd -o o.bin
t "as unwritable" 2 "nodir/o.bin" as "$src/../examples/nv_triangle.qasm" -o nodir/o.bin
t "as no -o" 2 "needs -o" as "$src/../examples/nv_triangle.qasm"
t "as bad --kind" 2 "unknown --kind 'x'" as --check --kind x "$src/../examples/nv_triangle.qasm" -o o.bin
t "as .include of a directory" 1 "dir: Is a directory|cannot open include file \"dir\"" as incdir.qasm -o o.bin
t "as include loop" 1 "include loop" as self.qasm -o o.bin
t "as macro recursion" 1 "nested too deeply" as recurse.qasm -o o.bin
t "as deep parentheses" 1 "deep.qasm:1:" as deep.qasm -o o.bin
t "as control bytes" 1 "binary.qasm:2:" as binary.qasm -o o.bin
t "as 64-bit overflow in .set" 1 "ovf.qasm:3:9: error: constant does not fit 32 bits" as ovf.qasm -o o.bin
t "as immediate wider than 64 bits" 1 "bigimm.qasm:1:" as bigimm.qasm -o o.bin

# ---- dis ---------------------------------------------------------------------
t "dis empty" 1 "dis: empty: empty: no instructions" dis empty
t "dis random (not whole words)" 1 "rnd: size 509 is not a multiple of 8" dis rnd
t "dis --hex random" 1 "dis: rnd: no 0xLO, 0xHI pairs" dis --hex rnd
t "dis --hex NUL-only" 1 "dis: nul: no 0xLO, 0xHI pairs" dis --hex nul
t "dis --hex text without pairs" 1 "words.txt: no 0xLO, 0xHI pairs" dis --hex words.txt
t "dis --hex odd halves" 1 "odd.hex: error: odd number of 32-bit halves" dis --hex odd.hex
t "dis directory" 2 "dir: Is a directory" dis dir
t "dis missing" 2 "missing.bin: No such file" dis missing.bin
t "dis unwritable" 2 "dis: nodir/o.s: cannot write" dis rnd8 -o nodir/o.s
t "dis --addr too big" 2 "--addr takes 0x0..0xffffffff, not '0x100000000'" dis --addr 0x100000000 rnd8
if [ -w /dev/full ]; then
    t "dis to /dev/full" 2 "/dev/full: write failed" dis rnd8 -o /dev/full
fi

# ---- run ---------------------------------------------------------------------
t "run no program" 2 "run: no PROGRAM given" run
t "run empty" 2 "empty: 0 bytes holds no instructions" run empty
t "run random" 2 "rnd: 509 bytes is not a whole number" run rnd
t "run directory" 2 "dir: Is a directory" run dir
t "run missing" 2 "missing: No such file" run missing
t "run --qpus 0" 2 "run: --qpus takes 1..16, not '0'" run "$seed" --qpus 0
t "run --qpus 17" 2 "run: --qpus takes 1..16, not '17'" run "$seed" --qpus 17
t "run --qpus text" 2 "run: --qpus takes 1..16, not 'many'" run "$seed" --qpus many
t "run --max-cycles 0" 2 "--max-cycles takes" run "$seed" --max-cycles 0
t "run --uniforms 1,,2" 2 "an empty value" run "$seed" --uniforms 1,,2
t "run --uniforms ," 2 "an empty value" run "$seed" --uniforms ,
t "run --uniforms ''" 2 "an empty value" run "$seed" --uniforms ''
t "run --uniforms 1e400" 2 "bad value '1e400'" run "$seed" --uniforms 1e400
t "run --uniforms word" 2 "bad value 'x'" run "$seed" --uniforms 1,x
t "run --uniforms missing value" 2 "--uniforms needs a value" run "$seed" --uniforms
t "run --load directory" 2 "dir: Is a directory" run "$seed" --load dir@0x1000
t "run --load outside memory" 2 "0x30000000 is outside memory" run "$seed" --load rnd@0x30000000
t "run --load at a cache alias (valid)" 0 "" run "$src/../examples/hello_user.qasm" --load rnd@0xC0300000 \
    --uniforms 1,2,0x400000
t "run --load /dev/zero" 2 "/dev/zero: more than the" run "$seed" --load /dev/zero@0x0F000000
truncate -s 5G sparse 2> /dev/null && # 5 GB that take no disk: refused by its size, before reading
    t "run --load huge sparse file" 2 "sparse: 5368709120 bytes, more than the" run "$seed" --load sparse@0x1000
t "run /dev/zero as the program" 2 "/dev/zero: more than the 67108864 bytes" run /dev/zero
t "run --load no address" 2 "bad --load 'rnd'" run "$seed" --load rnd
t "run --dump bad" 2 "bad --dump 'x'" run "$seed" --dump x
t "run unknown option" 2 "run: unknown option '--frob'" run "$seed" --frob
t "run endless" 1 "cycle budget exhausted" run endless.qasm --max-cycles 20000
t "run uniforms past the end (strict)" 1 "unif-read-past-end" run "$seed" --uniforms 1,2 --strict
t "run uniforms past the end" 0 "warning: the program read 4 uniforms, but its stream at 0x00200000 holds 2" \
    run "$seed" --uniforms 0x1000,1.0
t "run no uniforms at all" 0 "holds 0 \(no --uniforms given\)" run "$seed"

# ---- render ------------------------------------------------------------------
t "render nothing" 2 "render: no SOURCE.qasm, and --bin and --render are missing" render
t "render no --render" 2 "--render is missing" render --bin 0:4
t "render empty source" 2 "empty" render empty -o o.png
t "render directory" 2 "dir: Is a directory" render dir -o o.png
t "render missing" 2 "missing.qasm: No such file" render missing.qasm -o o.png
t "render random --load" 1 "ct0|ct1|binning list|rendering list" render --load rnd@0x1000 --bin 0x1000:0x11fd \
    --render 0x1000:0x11fd --max-cycles 100000 -o o.png
t "render --qpus 17" 2 "render: --qpus takes 1..16, not '17'" render "$src/../examples/nv_triangle.qasm" --qpus 17
t "render --bin bad" 2 "bad --bin '1'" render --bin 1 --render 0:4
t "render --load /dev/zero" 2 "/dev/zero: more than the" render --load /dev/zero@0x0F000000 --bin 0:4 --render 0:4
t "render --expect corrupt PNG" 2 "corrupt.png" render "$src/../examples/nv_triangle.qasm" -o o.png \
    --expect corrupt.png
t "render --expect huge PNG header" 2 "huge.png: 30000x30000 pixels, more than 4096 a side" \
    render "$src/../examples/nv_triangle.qasm" -o o.png --expect huge.png
t "render unwritable" 2 "nodir/o.png" render "$src/../examples/nv_triangle.qasm" -o nodir/o.png
# a failed write removes only a file render created itself: /dev/full stays
if [ -w /dev/full ]; then
    t "render to /dev/full" 2 "/dev/full" render "$src/../examples/nv_triangle.qasm" -o /dev/full
    [ -c /dev/full ] || { echo "FAIL: render removed /dev/full"; failed=$((failed + 1)); }
fi
# ... and an output it could not write is not left behind half-written
t "render default output named" 0 "render: wrote nv_triangle.png" render "$src/../examples/nv_triangle.qasm"
[ -f nv_triangle.png ] || { echo "FAIL: render did not write nv_triangle.png"; failed=$((failed + 1)); }

# fs-varyings-overread fires for an over-read whose value is used (seed 002's
# varyings scene with one varying fewer set up than its shader reads), not
# for seed 004's, whose extra read goes nowhere (tests/unit/test_tmu_render.c,
# and render_seeds.sh: the main job prints no warning)
sed 's/NV_Shader_Record 0, 0, 0, 0, 24, 0, 3,/NV_Shader_Record 0, 0, 0, 0, 24, 0, 2,/' \
    "$src/../examples/nv_varyings.qasm" > two_varyings.qasm
grep -q 'NV_Shader_Record 0, 0, 0, 0, 24, 0, 2,' two_varyings.qasm || { echo "FAIL: nv_varyings.qasm changed"; exit 1; }
t "render over-read varying used" 0 "warning: .*VARYING_READ beyond .*fs-varyings-overread" \
    render two_varyings.qasm -o o.png
t "render over-read varying used (strict)" 1 "error: .*fs-varyings-overread" render two_varyings.qasm -o o.png --strict

# ---- cl ----------------------------------------------------------------------
t "cl nothing" 2 "which one" cl
t "cl dump no file" 2 "cl dump: no FILE given" cl dump
t "cl dump empty" 1 "cl dump: empty: empty: no control list" cl dump empty
t "cl validate empty" 1 "cl validate: empty: empty" cl validate empty
t "cl dump cut mid-packet" 1 "truncated" cl dump cutpacket.cl -o o.s
t "cl validate cut mid-packet" 1 "truncated" cl validate cutpacket.cl
t "cl dump random" 1 "unknown opcode|truncated|malformed" cl dump rnd -o o.s
t "cl dump directory" 2 "dir: Is a directory" cl dump dir
t "cl dump missing" 2 "missing.cl: No such file" cl dump missing.cl
t "cl dump unwritable" 2 "nodir/o.s" cl dump nv.bin -o nodir/o.s
t "cl dump --start outside" 2 "not inside the file" cl dump nv.bin --start 0x100000
t "cl dump --start text" 2 "cl dump: --start takes" cl dump nv.bin --start x
t "cl dump bad @ADDR" 2 "bad load address" cl dump nv.bin@x
t "cl dump two files" 2 "more than one input file" cl dump nv.bin nv.bin
t "cl dump validate-only option" 2 "cl dump: unknown option '--kernel'" cl dump nv.bin --kernel
t "cl qinc extra argument" 2 "cl qinc: takes no FILE \('extra'\)" cl qinc extra
t "cl frob" 2 "unknown subcommand 'frob'" cl frob x
# dump and validate stop at the same place and say where (issue 18)
t "cl dump stops at Halt" 0 "the list ends at the Halt at 0x00100036 \(\+54\)" cl dump --bin nv.bin@0x100000 -o o.s
t "cl validate stops at Halt" 0 "the list ends at the Halt at 0x00100036 \(\+54\)" cl validate --bin nv.bin@0x100000

# ---- tex ---------------------------------------------------------------------
t "tex nothing" 2 "usage" tex
t "tex encode empty PNG" 2 "empty" tex encode empty -f RGBA8888 -o o.bin
t "tex encode corrupt PNG" 2 "corrupt.png" tex encode corrupt.png -f RGBA8888 -o o.bin
t "tex encode truncated PNG" 2 "cut.png" tex encode cut.png -f RGBA8888 -o o.bin
t "tex encode huge PNG header" 2 "huge.png: 30000x30000 pixels" tex encode huge.png -f RGBA8888 -o o.bin
t "tex encode directory" 2 "dir" tex encode dir -f RGBA8888 -o o.bin
t "tex encode missing" 2 "missing.png" tex encode missing.png -f RGBA8888 -o o.bin
t "tex encode --mips 0" 2 "tex: --mips takes 1..16 or all, not '0'" tex encode "$golden" -f RGBA8888 --mips 0 -o o.bin
t "tex encode --mips 17" 2 "--mips takes 1..16" tex encode "$golden" -f RGBA8888 --mips 17 -o o.bin
t "tex encode unknown format" 2 "unknown texture format 'NOPE'" tex encode "$golden" -f NOPE -o o.bin
t "tex encode unwritable" 2 "nodir/o.bin" tex encode "$golden" -f RGBA8888 -o nodir/o.bin
t "tex encode seven pictures" 2 "more than 6 input files" tex encode "$golden" "$golden" "$golden" "$golden" \
    "$golden" "$golden" "$golden" -f RGBA8888 -o o.bin
t "tex decode --mips 0" 2 "--mips takes 1..16 or all, not '0'" tex decode rnd8 -f RGBA8888 -w 4 -h 4 --mips 0 -o o.png
t "tex decode -w 0" 2 "-w takes 1..2048, not '0'" tex decode rnd8 -f RGBA8888 -w 0 -h 4 -o o.png
t "tex decode --face 6" 2 "--face takes 0..5" tex decode rnd8 -f RGBA8888 -w 4 -h 4 --face 6 -o o.png
t "tex decode --level 16" 2 "--level takes 0..15" tex decode rnd8 -f RGBA8888 -w 4 -h 4 --level 16 -o o.png
t "tex decode empty" 1 "empty: 0 bytes, but a 4x4 RGBA8888 texture of 1 level is 64 bytes" \
    tex decode empty -f RGBA8888 -w 4 -h 4 -o o.png
t "tex decode wrong size" 1 "rnd: 509 bytes, but" tex decode rnd -f RGBA8888 -w 4 -h 4 -o o.png
t "tex decode directory" 2 "dir: Is a directory" tex decode dir -f RGBA8888 -w 4 -h 4 -o o.png
head -c 64 rnd > one.bin
t "tex decode unwritable" 2 "nodir/o.png" tex decode one.bin -f RGBA8888 -w 4 -h 4 -o nodir/o.png
if [ -w /dev/full ]; then
    t "tex decode to /dev/full" 2 "cannot write /dev/full" tex decode one.bin -f RGBA8888 -w 4 -h 4 -o /dev/full
    [ -c /dev/full ] || { echo "FAIL: tex decode removed /dev/full"; failed=$((failed + 1)); }
fi
t "tex formats extra" 2 "tex formats: takes no input file" tex formats extra

# a mip chain decoded as one level: refused, with the options that fit
"$vc4kit" tex encode "$golden" -f RGBA8888 --mips all -o chain.bin 2> /dev/null || { echo "FAIL: encode chain"; exit 1; }
t "tex decode a chain without --mips" 1 "it is the size of --mips all \(11\)" tex decode chain.bin -f RGBA8888 -w 640 -h 480 \
    -o o.png
t "tex decode the chain" 0 "" tex decode chain.bin -f RGBA8888 -w 640 -h 480 --mips all -o o.png

echo "bad input: $cases cases, $failed failed"
[ "$failed" -eq 0 ]
