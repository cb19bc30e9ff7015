#!/bin/sh
# Installs the Debian packages vc4kit needs, only those that are missing.
set -e
need=""
for p in build-essential cmake clang libpng-dev pkg-config libzydis-dev; do
    dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
if [ -z "$need" ]; then
    echo "deps: all present"
    exit 0
fi
echo "deps: installing$need"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq $need
