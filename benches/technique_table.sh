#!/usr/bin/env bash
# The README's technique table: for each puzzle file given, the share of the
# first N puzzles (default 200) that each technique set solves without
# guessing or forcing, and the median time per puzzle.
#
#   benches/technique_table.sh [-n N] FILE...
#
# Needs a release build (cargo build --release). Technique sets are tier
# caps: 1 singles, 2 + locked candidates, 4 + naked and hidden subsets,
# 5 + fish, 6 + wings, 7 + unique rectangles and BUG+1, 9 + single-digit
# patterns (W-wing, empty rectangle and multi-colours included), 10 + finned
# fish, 11 + chains, 13 + the late rectangles (tier 12: type 6, hidden and
# avoidable) and grouped chains.
set -euo pipefail
n=200
if [[ "${1:-}" == "-n" ]]; then n=$2; shift 2; fi
bin="${SUDOLOG:-$(dirname "$0")/../target/release/sudolog}"
tiers=(1 2 4 5 6 7 9 10 11 13)
echo "| corpus (first $n) | singles | + locked | + subsets | + fish | + wings | + rectangles, BUG+1 | + single-digit patterns | + finned fish | + chains | + late rectangles, grouped |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for file in "$@"; do
    sample=$(mktemp)
    awk -v n="$n" '!/^#/ && NF { print; if (++taken == n) exit }' "$file" > "$sample"
    row="| $(basename "$file" .txt) ($(wc -l < "$sample"))"
    for t in "${tiers[@]}"; do
        # The summary's "all" row: puzzles, solved, no-guess, invalid, median ms, ...
        # (exit code 1 only says that some puzzles stalled).
        stats=$({ "$bin" solve --logic-only --no-forcing --max-tier "$t" --stats --format line "$sample" \
            2>&1 >/dev/null || true; } | awk 'NR == 2 { print $1, $2, $5 }')
        read -r puzzles solved median <<< "$stats"
        row+=$(awk -v p="$puzzles" -v s="$solved" -v m="$median" \
            'BEGIN { printf " | %.1f%% (%.2f ms)", 100 * s / p, m }')
    done
    echo "$row |"
    rm -f "$sample"
done
