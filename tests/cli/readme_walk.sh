#!/bin/sh
# README.md "Using it" (issue 18): the code block after the
# `<!-- readme_walk: ... -->` marker is run exactly as written, line by line,
# in a clean directory that holds only what a fresh clone has (examples/) and
# the built command as build/vc4kit. Every line must succeed, print no
# warning, and the outputs it promises must be there.
#   sh readme_walk.sh path/to/vc4kit SRCDIR BINDIR
set -u
vc4kit=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$2/.." && pwd)
tmp=$(cd "$3" && pwd)/readme_walk
fail() { echo "FAIL: $*"; exit 1; }

rm -rf "$tmp"
mkdir -p "$tmp/build"
cp -R "$root/examples" "$tmp/examples"
ln -s "$vc4kit" "$tmp/build/vc4kit"
# the bare-metal kernel images the walk boots (built with the cross compilers `make deps` installs)
ln -s "$(dirname "$vc4kit")/examples" "$tmp/build/examples"

# the block: from the marker's ```sh to the closing ```
awk '/^<!-- readme_walk:/ { marked = 1; next }
     marked && /^```sh$/ { inblock = 1; next }
     inblock && /^```$/ { exit }
     inblock { print }' "$root/README.md" > "$tmp/walk.sh"
lines=$(grep -c . "$tmp/walk.sh")
[ "$lines" -ge 10 ] || fail "the README's walk has $lines lines (marker or block missing?)"

cd "$tmp" || exit 1
n=0
while IFS= read -r line; do
    n=$((n + 1))
    [ -n "$line" ] || continue
    if ! sh -c "$line" > "out.$n" 2> "err.$n"; then
        echo "FAIL: README line $n exits non-zero: $line"
        sed 's/^/    | /' "err.$n" | head -10
        exit 1
    fi
    if grep -q 'warning' "err.$n"; then
        echo "FAIL: README line $n warns: $line"
        sed 's/^/    | /' "err.$n" | head -10
        exit 1
    fi
done < walk.sh

# what the lines promise
grep -q '0x00000064 0x00000067 0x0000006a' out.* || fail "hello_user: 100, 103, 106 not printed"
grep -q '0xbf665c24' out.* || fail "seed 003: the clip X the post printed is missing"
grep -q 'fs-scoreboard-first-two' err.* || fail "broken_fragment: the validator did not name fs-scoreboard-first-two"
grep -q 'exit 1: rules broken' out.* || fail "broken_fragment: not exit 1"
grep -q 'the list ends at the Halt' err.* || fail "cl dump: where the list ends is not said"
grep -q 'no problems found' err.* || fail "cl validate: no verdict"
grep -q '^P0 0x' out.* || fail "tex encode --base: no P0 word"
for f in try/hello_user.bin try/triangle.png try/gl.png try/tiles.txt try/scene.bin try/bin_list.s try/tex.bin \
         try/level2.png; do
    [ -s "$f" ] || fail "$f was not written"
done
echo "README walk: $lines lines, each ran"
