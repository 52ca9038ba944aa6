#!/usr/bin/env bash
# The highlight worker alone, as quire drives it: the demo Quickstart's ten code blocks sent to
# `quire highlight-worker` over its pipe, grouped by language in the order the languages first
# appear (as quire sends a page's distinct blocks), one JSON request per line. Prints the
# worker's peak resident memory (VmHWM, from /usr/bin/time) and its CPU.
#
#   cargo build --release && benches/outside/worker.sh
#   QUIRE=target/dist/quire benches/outside/worker.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${QUIRE:-target/release/quire}
PAGE=crates/sandbox/src/demo/pages/quickstart.md

# The page's fenced blocks as requests: grouped by language, in order of first appearance; the
# first block of each language gets ten 50 ms budgets, as quire gives it.
requests() {
    jq -Rsc '
        split("\n")
        | reduce .[] as $line ({blocks: [], open: null};
            if ($line | startswith("```")) then
                if .open then .blocks += [.open] | .open = null
                else .open = {language: $line[3:], lines: []} end
            elif .open then .open.lines += [$line]
            else . end)
        | .blocks
        | (reduce .[].language as $l ([]; if any(.[]; . == $l) then . else . + [$l] end)) as $order
        | $order[] as $l
        | [.[] | select(.language == $l)]
        | to_entries[]
        | {language: .value.language, lines: .value.lines,
           budget_us: (if .key == 0 then 500000 else 50000 end), idle_exit_ms: 1}
    ' "$PAGE"
}

requests >/dev/null # fail here, not inside the pipe, if the page cannot be read
echo "$(requests | wc -l) blocks, $(requests | jq -r .language | awk '!seen[$0]++' | wc -l) languages"
out=$(requests | { /usr/bin/time -f '%M %U %S' "$BIN" highlight-worker >/dev/null; } 2>&1)
read -r peak_kb user system <<<"$out"
echo "the worker at its peak: $(awk -v k="$peak_kb" 'BEGIN { printf "%.1f", k / 1024 }') MB (VmHWM), CPU ${user} s user + ${system} s system"
