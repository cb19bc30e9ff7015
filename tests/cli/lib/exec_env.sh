# tests/cli/lib/exec_env.sh - sourced by the tests that run programs under
# `vc4kit exec` (exec_vcio.sh, exec_python.sh, exec_diag_default.sh); a
# directory of its own, so that the test glob (tests/cli/*.sh) skips it.

# Why `vc4kit exec` cannot run the test program PROG of BIN (the tests'
# build directory) here; prints nothing when it can.
#   exec_unsupported BIN PROG
exec_unsupported() {
    if [ ! -x "$1/$2" ]; then
        echo "$2 not built (no libvc4kit_exec)"
    elif ! grep -q "^zydis_DIR:PATH=/" "$(dirname "$1")/CMakeCache.txt" 2>/dev/null; then
        echo "built without libzydis-dev (no live V3D registers)"
    fi
}

# A sanitizer build: the preload carries the sanitizer runtime, loaded
# after the program's own libraries.
exec_sanitizer_env() {
    export ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
}
