#!/usr/bin/env bash
# Checks a step-through page (src/picture/html.rs) in a headless Chromium:
# takes a screenshot for a person to look at, and loads the page at
# `#step-2` to check that the script shows step 2 (or step 1 of a
# one-step page, or the "no steps" text of an empty one).
#
# Usage: scripts/check-html.sh PAGE.html OUT.png
#
# Chromium is /usr/bin/chromium (Debian: apt-get install -y chromium) unless
# CHROMIUM names another. Kept apart from `cargo test`, which must not need
# a browser.
set -euo pipefail

die() {
    echo "check-html: $*" >&2
    exit 1
}

if [ $# -ne 2 ]; then
    echo "usage: $0 PAGE.html OUT.png" >&2
    exit 2
fi
page=$1
out=$2
[ -f "$page" ] || die "no such page: $page"

chromium=${CHROMIUM:-}
if [ -z "$chromium" ]; then
    for candidate in /usr/bin/chromium chromium chromium-browser; do
        if command -v "$candidate" >/dev/null 2>&1; then
            chromium=$(command -v "$candidate")
            break
        fi
    done
fi
[ -n "$chromium" ] || die "no Chromium found (apt-get install -y chromium, or set CHROMIUM)"

abs=$(realpath "$page")
# The characters of a path that would end or break a file:// URL.
url="file://$(printf '%s' "$abs" | sed -e 's/%/%25/g' -e 's/ /%20/g' -e 's/#/%23/g' -e 's/?/%3F/g')"
out_dir=$(dirname "$out")
[ -d "$out_dir" ] || die "no such directory for the screenshot: $out_dir"
out_abs="$(realpath "$out_dir")/$(basename "$out")"

profiles=()
cleanup() {
    if [ ${#profiles[@]} -gt 0 ]; then
        rm -rf "${profiles[@]}"
    fi
}
trap cleanup EXIT

# Runs Chromium headless on a fresh profile, offline in all but the page:
# no first-run, sync or update traffic to wait for or to fail on.
run_chromium() {
    local profile
    profile=$(mktemp -d)
    profiles+=("$profile")
    local flags=(--headless --disable-gpu --disable-quic --no-first-run
        --disable-background-networking --disable-component-update --disable-sync
        --hide-scrollbars --user-data-dir="$profile")
    # Chromium's sandbox refuses to start as root.
    if [ "$(id -u)" -eq 0 ]; then
        flags+=(--no-sandbox)
    fi
    timeout 60 "$chromium" "${flags[@]}" "$@"
}

# The screenshot. A stale file from an earlier run must not pass for a new one.
rm -f "$out_abs"
log=$(mktemp)
profiles+=("$log")
if ! run_chromium --screenshot="$out_abs" --window-size=1200,800 "$url" >"$log" 2>&1; then
    cat "$log" >&2
    die "Chromium failed to take the screenshot of $url"
fi
[ -s "$out_abs" ] || die "Chromium wrote no screenshot to $out_abs"
[ "$(head -c 8 "$out_abs" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
    die "$out_abs is not a PNG"

# The page at #step-2, as the script leaves it; console messages go to the
# log, where an uncaught error shows.
dom=$(mktemp)
profiles+=("$dom")
if ! run_chromium --enable-logging=stderr --v=0 --dump-dom "$url#step-2" >"$dom" 2>"$log"; then
    cat "$log" >&2
    die "Chromium failed to load $url#step-2"
fi
grep -q '</html>' "$dom" || die "Chromium dumped no page for $url#step-2"
if grep -E 'Uncaught|CONSOLE.*[Ee]rror' "$log" >&2; then
    die "the page's script reported an error (above)"
fi

steps=$(grep -o '<article class="step"[^>]*>' "$dom" || true)
total=$(printf '%s' "$steps" | grep -c . || true)
if [ "$total" -eq 0 ]; then
    grep -q 'no steps' "$dom" || die "the page has no steps and does not say so"
    echo "check-html: ok: $page has no steps and says so; screenshot in $out"
    exit 0
fi
# A one-step page clamps #step-2 to its only step.
want=$((total < 2 ? total : 2))
shown=$(printf '%s\n' "$steps" | grep -v 'hidden' || true)
[ "$(printf '%s' "$shown" | grep -c . || true)" -eq 1 ] ||
    die "at #step-2, $(printf '%s' "$shown" | grep -c . || true) steps are shown, not one"
printf '%s' "$shown" | grep -q "data-step=\"$want\"" ||
    die "at #step-2, the step shown is not step $want: $shown"
grep -q "id=\"counter\"[^>]*>Step $want of $total<" "$dom" ||
    die "at #step-2, the counter does not say \"Step $want of $total\""
grep -q "<a href=\"#step-$want\" data-step=\"$want\" aria-current=\"step\"" "$dom" ||
    die "at #step-2, step $want is not the current one in the list"
echo "check-html: ok: $total steps, #step-2 shows step $want; screenshot in $out"
