#!/bin/sh
# Builds the fuzz targets with clang + libFuzzer (ASan + UBSan) and runs each.
#   sh scripts/fuzz.sh [SECONDS]              every target for SECONDS (default 60; CI uses 20)
#   sh scripts/fuzz.sh --minutes N            every target for N minutes: a nightly-length run
#   sh scripts/fuzz.sh --minutes 30 --target fuzz_asm    one target only
# New inputs that reach new code go to build-fuzz/corpus/NAME (kept between
# runs); a crash, leak or sanitizer report is saved as
# build-fuzz/artifacts/NAME-crash-* and fails the run. Replay one with
#   build-fuzz/tests/NAME FILE
set -eu
usage() { sed -n '2,9s/^# \{0,1\}//p' "$0"; }
secs=60
only=""
while [ $# -gt 0 ]; do
    case $1 in
        --minutes)
            [ $# -ge 2 ] && [ "$2" -gt 0 ] 2>/dev/null || { echo "fuzz: --minutes takes a whole number > 0" >&2; exit 2; }
            secs=$(($2 * 60))
            shift 2 ;;
        --target)
            [ $# -ge 2 ] || { echo "fuzz: --target takes a fuzz target name (fuzz_asm, ...)" >&2; exit 2; }
            only=$2
            shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *)
            [ "$1" -gt 0 ] 2>/dev/null || { echo "fuzz: '$1' is not a number of seconds (see --help)" >&2; exit 2; }
            secs=$1
            shift ;;
    esac
done
if ! command -v clang >/dev/null 2>&1; then
    echo "fuzz: clang not found; skipping (apt-get install clang)"
    exit 0
fi
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DVC4KIT_FUZZ=ON -DVC4KIT_BENCH=OFF \
    -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address,undefined" >/dev/null
cmake --build build-fuzz -j "$(nproc 2>/dev/null || echo 2)"
if [ -n "$only" ] && [ ! -x "build-fuzz/tests/$only" ]; then
    echo "fuzz: no target '$only' (have: $(cd build-fuzz/tests && ls fuzz_* | tr '\n' ' '))" >&2
    exit 2
fi
mkdir -p build-fuzz/artifacts
# a leak inside Unicorn is not ours (tests/lsan.supp: which, and the upstream issue)
LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
status=0
for t in build-fuzz/tests/fuzz_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    [ -z "$only" ] || [ "$name" = "$only" ] || continue
    corpus=tests/fuzz/corpus/$name
    mkdir -p "build-fuzz/corpus/$name"
    echo "fuzz: $name for ${secs}s (log: build-fuzz/$name.log)"
    # libFuzzer stops on a missing folder: pass the committed corpus only if there is one
    [ -d "$corpus" ] || corpus=""
    # shellcheck disable=SC2086
    if ! "$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
            -artifact_prefix="build-fuzz/artifacts/$name-" "build-fuzz/corpus/$name" $corpus \
            > "build-fuzz/$name.log" 2>&1; then
        tail -40 "build-fuzz/$name.log"
        echo "fuzz: $name found a failure (input saved as build-fuzz/artifacts/$name-*)"
        status=1
    fi
    grep -E '^stat::number_of_executed_units|^Done ' "build-fuzz/$name.log" | tail -2 || true
done
exit $status
