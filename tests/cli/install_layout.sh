#!/bin/sh
# `cmake --install` puts the command, both libraries, the headers, the
# standard include file and vc4kit.pc in place, and pkg-config finds them.
#   usage: install_layout.sh VC4KIT TESTS_SRC TESTS_BIN
set -u
bin=$3
build=$(dirname "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null 2>&1 || { echo "FAIL: install"; exit 1; }
p=$tmp/prefix
libdir=$(ls -d "$p"/lib*/ 2>/dev/null | head -1)
for f in "$p/bin/vc4kit" "$p/include/vc4kit/qpu.h" "$p/include/vc4kit/diag.h" \
         "$libdir/libvc4kit.a" "$libdir/libvc4kit.so" "$libdir/pkgconfig/vc4kit.pc"; do
    [ -e "$f" ] && echo "ok: $f" || { echo "FAIL: missing $f"; fail=$((fail + 1)); }
done
if command -v pkg-config >/dev/null 2>&1; then
    flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs vc4kit)
    inc=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --variable=includedir vc4kit)
    case "$flags" in *"-lvc4kit"*) [ -f "$inc/vc4kit/qpu.h" ] && echo "ok: pkg-config $flags" ||
                                       { echo "FAIL: includedir $inc"; fail=$((fail + 1)); } ;;
        *) echo "FAIL: pkg-config gave '$flags'"; fail=$((fail + 1)) ;; esac
    # a program using the installed headers and library links and runs
    cat > "$tmp/t.c" <<'C'
#include <stdio.h>
#include <vc4kit/qpu.h>
int main(void)
{
    struct vc4_qpu_instr in;
    char buf[128];
    vc4_qpu_decode(VC4_QPU_NOP_WORD, &in);
    vc4_qpu_disasm(&in, 0, 0, buf, sizeof buf);
    puts(buf);
    return vc4_qpu_encode(&in) == VC4_QPU_NOP_WORD ? 0 : 1;
}
C
    # a sanitizer build's library needs the sanitizer runtime in the program too
    san=""
    if ldd "$libdir/libvc4kit.so" 2>/dev/null | grep -q libasan; then
        san="-fsanitize=address,undefined"
    fi
    # shellcheck disable=SC2086
    if cc -std=c11 $san -o "$tmp/t" "$tmp/t.c" $flags -Wl,-rpath,"$libdir" && out=$("$tmp/t") && [ "$out" = "nop; nop" ]; then
        echo "ok: program built against the installed library"
    else
        echo "FAIL: program against the installed library"; fail=$((fail + 1))
    fi
fi
echo "install_layout: $fail failed"
[ "$fail" = 0 ]
