#!/bin/sh
# make gl-check without the Mesa build of `make mesa`: skips (status 0) and
# says what to run; scripts/mesa.sh --env and --dir refuse with a message
# naming `make mesa`; a bad option is refused.  (With the cache present the
# real check is `make gl-check`, docs/opengl.md.)
#   usage: gl_check_skip.sh VC4KIT TESTS_SRC TESTS_BIN
set -u
src=$(cd "$2/.." && pwd)
bin=$3
out=$bin/gl_check_skip
mkdir -p "$out"
fail=0
empty="$out/no-cache"
rm -rf "$empty"
mkdir -p "$empty"
cd "$src" || exit 1

VC4KIT_CACHE="$empty" sh scripts/gl-check.sh >"$out/skip.out" 2>&1
st=$?
[ "$st" -eq 0 ] || { echo "FAIL: gl-check without Mesa exits $st"; fail=1; }
grep -q "gl-check: skipped: no Mesa build in $empty" "$out/skip.out" ||
    { echo "FAIL: no skip message:"; cat "$out/skip.out"; fail=1; }
grep -q "make mesa" "$out/skip.out" || { echo "FAIL: the skip message does not name make mesa"; fail=1; }

VC4KIT_CACHE="$empty" sh scripts/mesa.sh --env >"$out/env.out" 2>&1 && { echo "FAIL: --env without a build succeeds"; fail=1; }
grep -q "run 'make mesa'" "$out/env.out" || { echo "FAIL: --env message:"; cat "$out/env.out"; fail=1; }
VC4KIT_CACHE="$empty" sh scripts/mesa.sh --dir >"$out/dir.out" 2>&1 && { echo "FAIL: --dir without a build succeeds"; fail=1; }
[ -s "$out/dir.out" ] && { echo "FAIL: --dir printed something"; fail=1; }
sh scripts/mesa.sh --bogus >"$out/bad.out" 2>&1
[ $? -eq 2 ] || { echo "FAIL: a bad option is not status 2"; fail=1; }
grep -q "usage: scripts/mesa.sh" "$out/bad.out" || { echo "FAIL: no usage line"; fail=1; }

[ "$fail" -eq 0 ] && echo "gl_check_skip: ok"
exit "$fail"
