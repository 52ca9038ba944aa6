#!/usr/bin/env bash
# The cache after browsing the whole demo, and its files on disk while it is written:
# `cargo bench --bench offline` browses every organization, space tree and page of the demo
# (then of the big demo) through quire's client with its cache, and prints what the cache holds;
# this script watches the files it writes (the database and its write-ahead log) every 0.1 s
# from outside, and says the largest each grew to and their size at the end of the browsing.
#
#   benches/outside/cache.sh

set -euo pipefail
work=$(mktemp -d "${TMPDIR:-/tmp}/quire-cache.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tmp"

TMPDIR="$work/tmp" cargo bench --bench offline >"$work/bench.out" 2>"$work/bench.err" &
bench=$!
declare -A most last
while kill -0 "$bench" 2>/dev/null; do
    while read -r size file; do
        name=${file##*/}
        last[$name]=$size
        ((size > ${most[$name]:-0})) && most[$name]=$size
    done < <(find "$work/tmp" -name '*.sqlite*' -printf '%s %p\n' 2>/dev/null)
    sleep 0.1
done
wait "$bench" || { cat "$work/bench.err" >&2; exit 1; }
cat "$work/bench.out"
for name in $(printf '%s\n' "${!most[@]}" | sort); do
    printf '%-20s at most %6.2f MB, last seen %6.2f MB\n' "$name" \
        "$(awk -v b="${most[$name]}" 'BEGIN { print b / 1e6 }')" \
        "$(awk -v b="${last[$name]}" 'BEGIN { print b / 1e6 }')"
done
