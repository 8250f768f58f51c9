#!/bin/sh
# Streams a generated file of 1,000,000 puzzle lines through `sudolog solve`
# and prints the wall time and peak memory (which must stay flat: the input
# is read and the results written in chunks, never loaded whole).
#   benches/million_lines.sh [PUZZLE_FILE] [LINES]
# Defaults: the 4x4 puzzles of tests/data/x4.txt, 1,000,000 lines.
set -eu
src=${1:-tests/data/x4.txt}
lines=${2:-1000000}
cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The file's puzzle lines, over and over, up to the asked number of lines.
awk -v n="$lines" '!/^#/ && NF { p[c++] = $0 } END { for (i = 0; i < n; i++) print p[i % c] }' \
    "$src" > "$tmp/input.txt"
/usr/bin/time -f "%e s wall, peak memory %M KiB" \
    target/release/sudolog solve --format line --no-progress "$tmp/input.txt" > "$tmp/out.txt"
echo "$(wc -l < "$tmp/out.txt") results for $(wc -l < "$tmp/input.txt") lines"
