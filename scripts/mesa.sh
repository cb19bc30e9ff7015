#!/bin/sh
# scripts/mesa.sh - build Mesa's vc4 Gallium driver (Debian's `mesa` source
# package, pinned below) into a cache outside the tree, once; later runs reuse
# it.  What it builds: the vc4 driver, EGL (surfaceless), GBM, GLESv2 and the
# drm-shim core that vc4kit's kernel stand-in links against (docs/opengl.md).
#
#   scripts/mesa.sh            build (or say the cache is ready)
#   scripts/mesa.sh --env      print the shell variables that point a program
#                              at the cached Mesa and at vc4kit's drm-shim
#   scripts/mesa.sh --dir      print the cache directory (empty + status 1 if
#                              the build is not there)
#   scripts/mesa.sh --deps     install the build dependencies only
#
# Environment: VC4KIT_CACHE (default ~/.cache/vc4kit), MESA_JOBS (default 2),
# MESA_NICE (default 10).
#
# Mesa's code is never copied into vc4kit's tree: apt-get source unpacks it
# under the cache.
set -e

MESA_VERSION=22.3.6-1+deb12u2        # Debian bookworm's mesa (apt-cache policy mesa-common-dev)
MESA_UPSTREAM=22.3.6
CACHE=${VC4KIT_CACHE:-$HOME/.cache/vc4kit}
DIR=$CACHE/mesa-$MESA_VERSION
SRC=$DIR/src/mesa-$MESA_UPSTREAM
BUILD=$DIR/build
PREFIX=$DIR/install
STAMP=$DIR/stamp
JOBS=${MESA_JOBS:-2}
NICE=${MESA_NICE:-10}

say() { echo "mesa: $*"; }

# The Debian packages the build needs (the issue's list; python3-ply for
# the Broadcom packet generator's friends, glslang-tools is not needed with
# no Vulkan driver).
# make gl-check's reference renderer is Debian's own llvmpipe (libgl1-mesa-dri,
# libegl1, libgles2): installed here too, so that the check never skips
# for want of it after `make mesa`.
BUILD_DEPS="meson ninja-build python3-mako libdrm-dev bison flex libexpat1-dev zlib1g-dev libzstd-dev \
python3-ply pkg-config dpkg-dev libgl1-mesa-dri libegl1 libgles2"

libdir() {
    # meson installs into lib/<multiarch> on Debian.
    for d in "$PREFIX"/lib/*-linux-gnu "$PREFIX"/lib64 "$PREFIX"/lib; do
        [ -e "$d/libEGL.so.1" ] && { echo "$d"; return 0; }
    done
    return 1
}

case "$1" in
--env)
    if [ ! -f "$STAMP" ]; then
        echo "mesa: no Mesa build in $DIR: run 'make mesa' (scripts/mesa.sh) first" >&2
        exit 1
    fi
    L=$(libdir)
    # LD_LIBRARY_PATH: Mesa's own libEGL/libGLESv2/libgbm (built without glvnd,
    # so no vendor file is needed); LIBGL_DRIVERS_PATH / GBM_BACKENDS_PATH:
    # where vc4_dri.so is; MESA_LOADER_DRIVER_OVERRIDE: the render node is
    # vc4's; EGL_PLATFORM: surfaceless unless the program picks one;
    # VC4KIT_MESA: the build vc4kit's drm-shim backend links against.
    echo "export VC4KIT_MESA='$DIR'"
    echo "export LD_LIBRARY_PATH='$L'\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
    echo "export LIBGL_DRIVERS_PATH='$L/dri'"
    echo "export GBM_BACKENDS_PATH='$L/gbm'"
    echo "export MESA_LOADER_DRIVER_OVERRIDE=vc4"
    echo "export EGL_PLATFORM=surfaceless"
    exit 0
    ;;
--dir)
    [ -f "$STAMP" ] || exit 1
    echo "$DIR"
    exit 0
    ;;
--deps|"") ;;
*)
    echo "usage: scripts/mesa.sh [--env|--dir|--deps]" >&2
    exit 2
    ;;
esac

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo

install_deps() {
    need=""
    for p in $BUILD_DEPS; do
        dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
    done
    if [ -n "$need" ]; then
        say "installing the build dependencies:$need"
        $SUDO apt-get update -qq
        $SUDO apt-get install -y -qq $need
    fi
}

# apt-get source needs a deb-src line.  Debian's deb822 sources file lists
# only binary archives (Types: deb); add a deb-src twin of each stanza in a
# file of our own, leaving the machine's file untouched.
enable_deb_src() {
    if apt-cache showsrc mesa 2>/dev/null | grep -q '^Version:'; then
        return 0
    fi
    f=/etc/apt/sources.list.d/vc4kit-deb-src.sources
    src=/etc/apt/sources.list.d/debian.sources
    if [ ! -f "$src" ]; then
        say "apt has no deb-src entry for mesa and there is no $src to copy: add a deb-src line by hand" >&2
        exit 1
    fi
    say "apt has no source entries: writing $f (the deb-src twin of $src) and running apt-get update"
    sed 's/^Types: deb$/Types: deb-src/' "$src" | $SUDO tee "$f" >/dev/null
    $SUDO apt-get update -qq
}

# The pinned version if apt still offers it; a Debian mirror keeps only the
# newest revision of a release, so after a point release take another
# Debian revision of the same upstream Mesa (the cache keeps the pinned name).
source_version() {
    avail=$(apt-cache showsrc mesa 2>/dev/null | sed -n 's/^Version: //p')
    for v in $avail; do
        [ "$v" = "$MESA_VERSION" ] && { echo "$v"; return 0; }
    done
    for v in $avail; do
        case "$v" in "$MESA_UPSTREAM"-*) echo "$v"; return 0 ;; esac
    done
    return 1
}

install_deps
[ "$1" = --deps ] && exit 0

if [ -f "$STAMP" ]; then
    say "ready in $DIR (built $(cat "$STAMP")); remove $STAMP to rebuild"
    exit 0
fi

mkdir -p "$DIR/src"
if [ ! -f "$SRC/meson.build" ]; then
    enable_deb_src
    if ! V=$(source_version); then
        say "apt offers no source of mesa $MESA_UPSTREAM (it has: $(apt-cache showsrc mesa 2>/dev/null |
            sed -n 's/^Version: //p' | tr '\n' ' ')): scripts/mesa.sh pins that release" >&2
        exit 1
    fi
    [ "$V" = "$MESA_VERSION" ] || say "the pinned $MESA_VERSION is no longer on the mirror: using $V (same upstream)"
    say "fetching Debian's mesa $V source into $DIR/src"
    (cd "$DIR/src" && apt-get source -qq --only-source "mesa=$V")
fi

# Debian's python3 has the mako and ply the build-deps installed; a python3
# of pyenv's or a venv's earlier in PATH does not.
PATH=/usr/bin:$PATH
export PATH
if [ ! -f "$BUILD/build.ninja" ]; then
    rm -rf "$BUILD"
    say "configuring (meson) in $BUILD"
    # Only what a GLES2 program on vc4 needs.  glvnd off: Mesa's own libEGL and
    # libGLESv2, found through LD_LIBRARY_PATH, with no vendor files.
    meson setup "$BUILD" "$SRC" --prefix="$PREFIX" --buildtype=release \
        -Dgallium-drivers=vc4 -Dvulkan-drivers= -Dplatforms= -Dglx=disabled \
        -Degl=enabled -Dgbm=enabled -Dgles1=disabled -Dgles2=enabled -Dopengl=true \
        -Dglvnd=false -Dshared-glapi=enabled -Dllvm=disabled -Dtools=drm-shim \
        -Dvalgrind=disabled -Dzstd=disabled -Dlibunwind=disabled -Dlmsensors=disabled \
        -Dgallium-vdpau=disabled -Dgallium-va=disabled -Dgallium-xa=disabled \
        -Dgallium-omx=disabled -Dgallium-nine=false -Dgallium-opencl=disabled \
        -Dosmesa=false -Dbuild-tests=false -Dshader-cache=disabled
fi

say "building with nice -n $NICE ninja -j$JOBS (993 steps: about 16 CPU-minutes; docs/opengl.md has the times)"
t0=$(date +%s)
nice -n "$NICE" ninja -C "$BUILD" -j"$JOBS"
nice -n "$NICE" meson install -C "$BUILD" --no-rebuild --quiet
t1=$(date +%s)
echo "$(date -u +%Y-%m-%dT%H:%MZ), ninja + install $((t1 - t0)) s" >"$STAMP"
say "done in $((t1 - t0)) s: $DIR"
say "use it with: eval \"\$(scripts/mesa.sh --env)\""
