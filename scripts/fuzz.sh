#!/bin/sh
# Builds the fuzz targets with clang + libFuzzer and runs each for a while.
#   sh scripts/fuzz.sh [SECONDS_PER_TARGET]
set -eu
secs=${1:-60}
if ! command -v clang >/dev/null 2>&1; then
    echo "fuzz: clang not found; skipping (apt-get install clang)"
    exit 0
fi
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DVC4KIT_FUZZ=ON -DVC4KIT_BENCH=OFF \
    -DCMAKE_C_FLAGS="-fsanitize=fuzzer-no-link,address,undefined" >/dev/null
cmake --build build-fuzz -j "$(nproc 2>/dev/null || echo 2)"
status=0
for t in build-fuzz/tests/fuzz_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    corpus=tests/fuzz/corpus/$name
    mkdir -p "build-fuzz/corpus/$name"
    echo "fuzz: $name for ${secs}s"
    # libFuzzer stops on a missing folder: pass the committed corpus only if there is one
    [ -d "$corpus" ] || corpus=""
    # shellcheck disable=SC2086
    if ! "$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 "build-fuzz/corpus/$name" $corpus \
            > "build-fuzz/$name.log" 2>&1; then
        tail -40 "build-fuzz/$name.log"
        echo "fuzz: $name found a failure (crash input saved by libFuzzer as crash-*)"
        status=1
    fi
    tail -2 "build-fuzz/$name.log"
done
exit $status
