#!/bin/sh
# A Pi GPU-compute program (tests/data/mailbox_prog.c, with its own
# mailbox.h and without its mailbox.c) builds against the installed
# libvc4kit through pkg-config and computes the right answer on 12 QPUs;
# libbcm_host.so is installed and loads at run time as on a Pi.
#   usage: mailbox_pkgconfig.sh VC4KIT TESTS_SRC TESTS_BIN
set -u
src=$2
bin=$3
build=$(dirname "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null 2>&1 || { echo "FAIL: install"; exit 1; }
p=$tmp/prefix
libdir=$(ls -d "$p"/lib*/ 2>/dev/null | head -1)
libdir=${libdir%/}
for f in "$p/include/vc4kit/mailbox.h" "$p/include/vc4kit/bcm_host.h" "$libdir/libbcm_host.so"; do
    [ -e "$f" ] && echo "ok: $f" || { echo "FAIL: missing $f"; fail=$((fail + 1)); }
done
command -v pkg-config >/dev/null 2>&1 || { echo "SKIP: no pkg-config"; exit 0; }
# a sanitizer build (VC4KIT_SANITIZE) installs libraries that need the
# sanitizer runtimes first in the program: build the programs the same way
san=
if command -v readelf >/dev/null 2>&1 && readelf -d "$libdir/libvc4kit.so" | grep -q libasan; then
    san="-fsanitize=address,undefined"
fi
flags=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs vc4kit) ||
    { echo "FAIL: pkg-config"; exit 1; }
# shellcheck disable=SC2086
if cc -std=c11 $san -o "$tmp/prog" -I"$src/data/mailbox_pi" -I"$src/data" "$src/data/mailbox_prog.c" \
      $flags -Wl,-rpath,"$libdir"; then
    echo "ok: mailbox_prog built with $flags"
    out=$("$tmp/prog")
    rc=$?
    echo "$out" | tail -1
    if [ $rc = 0 ] && echo "$out" | grep -q "^ok: 12 programs"; then
        echo "ok: mailbox_prog computed the right answer"
    else
        echo "FAIL: mailbox_prog exit $rc"; fail=$((fail + 1))
    fi
else
    echo "FAIL: mailbox_prog does not build"; fail=$((fail + 1))
fi
# the public header compiles on its own, with C linkage
cat > "$tmp/h.c" <<'C'
#include <vc4kit/mailbox.h>
#include <vc4kit/bcm_host.h>
int main(void)
{
    unsigned (*f)(int, unsigned, unsigned, unsigned, unsigned) = execute_qpu;
    void *(*m)(unsigned, unsigned) = mapmem;
    return (f && m && bcm_host_get_peripheral_address() == 0x20000000u) ? 0 : 1;
}
C
# shellcheck disable=SC2086
if cc -std=c11 $san -Wall -Werror -o "$tmp/h" "$tmp/h.c" $flags -Wl,-rpath,"$libdir" && "$tmp/h"; then
    echo "ok: <vc4kit/mailbox.h> and <vc4kit/bcm_host.h>"
else
    echo "FAIL: public mailbox headers"; fail=$((fail + 1))
fi
# libbcm_host.so loaded at run time, as hello_fft's gpu_fft_base.c does
cat > "$tmp/d.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
    void *h = dlopen("libbcm_host.so", RTLD_LAZY);
    if (!h)
        return 1;
    unsigned (*pa)(void) = (unsigned (*)(void))dlsym(h, "bcm_host_get_peripheral_address");
    unsigned (*ps)(void) = (unsigned (*)(void))dlsym(h, "bcm_host_get_peripheral_size");
    unsigned (*sd)(void) = (unsigned (*)(void))dlsym(h, "bcm_host_get_sdram_address");
    if (!pa || !ps || !sd)
        return 2;
    printf("0x%08x 0x%08x 0x%08x\n", pa(), ps(), sd());
    return pa() == 0x20000000u && ps() == 0x01000000u && sd() == 0x40000000u ? 0 : 3;
}
C
# shellcheck disable=SC2086
if cc $san -o "$tmp/d" "$tmp/d.c" -ldl && LD_LIBRARY_PATH="$libdir" "$tmp/d"; then
    echo "ok: libbcm_host.so via dlopen"
else
    echo "FAIL: libbcm_host.so via dlopen"; fail=$((fail + 1))
fi
echo "mailbox_pkgconfig: $fail failed"
[ "$fail" = 0 ]
