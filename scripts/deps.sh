#!/bin/sh
# Installs the Debian packages vc4kit needs, only those that are missing.
set -e
need=""
# libzydis-dev: the x86-64 decoder behind `vc4kit exec`'s live V3D window;
# libunicorn-dev: the ARM core of `vc4kit boot`; the cross compilers build
# the bare-metal examples (examples/baremetal); python3: the Python GPU program
# that tests/cli/exec_python.sh runs under `vc4kit exec`.
for p in build-essential cmake clang libpng-dev pkg-config libzydis-dev libunicorn-dev gcc-arm-none-eabi \
         binutils-arm-none-eabi gcc-aarch64-linux-gnu python3; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
# Optional (nothing needs them; a failure to install them is only said):
# libsdl2-dev: the live window of `vc4kit boot --window`.
optional=""
for p in libsdl2-dev; do
    dpkg -s "$p" >/dev/null 2>&1 || optional="$optional $p"
done
if [ -z "$need$optional" ]; then
    echo "deps: all present"
    exit 0
fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
if [ -n "$need" ]; then
    echo "deps: installing$need"
    $SUDO apt-get install -y -qq $need
fi
if [ -n "$optional" ]; then
    echo "deps: installing the optional$optional"
    $SUDO apt-get install -y -qq $optional || echo "deps: optional$optional not installed (vc4kit builds without them)"
fi
