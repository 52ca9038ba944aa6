#!/usr/bin/env bash
# Writes build/hot-functions.txt: the functions a quire session runs, which build.rs asks the
# linker to lay out first in the binary's code, so the pages a session touches are few and
# together (quire alone afterwards ~11 MB less resident; the README's "Memory" says how it was
# measured). Runs quire under callgrind (valgrind), which names every function that executes,
# through two sessions in tmux against `quire sandbox --big`:
#   - the memory benchmark's journey: the organization list → Big Co → the 10,000-page
#     Knowledge Base → the 1 MB page, coloured, scrolled and searched;
#   - a reviewer's: Home → a change request's overview, changes, comments and reviews → the
#     organization list → Acme Robotics' spaces → a page → search → the other tabs.
# The highlight worker's functions come after quire's, so neither process's pages hold the
# other's code. Symbol names carry hashes that change with rustc and the dependencies' versions:
# run this again after either changes (a stale list costs only the gain, never the build).
#
#   cargo build --release && cargo build --profile dist
#   build/hot-functions.sh target/release/quire target/dist/quire
#
# With several binaries, each is driven through both journeys and the list holds the names of
# them all (a fat-LTO `dist` build inlines and names its functions otherwise than `--release`).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../benches/outside/common.sh
. "$here/../benches/outside/common.sh"
command -v valgrind >/dev/null || { echo "needs valgrind (its callgrind tool)" >&2; exit 1; }
OUT="$here/hot-functions.txt"
BINARIES=("$@")
[ ${#BINARIES[@]} -gt 0 ] || BINARIES=("$BIN")
BIN=$(realpath "${BINARIES[0]}") # the sandbox runs from a copy of the first

# under_callgrind ARGS…: the command line that runs quire with ARGS under callgrind, each
# process (quire and the workers it starts) writing its own file into $RUNS.
under_callgrind() {
    echo "valgrind --quiet --tool=callgrind --trace-children=yes --demangle=no" \
        "--callgrind-out-file=$RUNS/%p.out $BIN --api-url $URL --token demo-admin $*"
}

# soft_wait TEXT SECONDS: until TEXT is on screen, or the time is up (a slow step under
# valgrind must not end the run: the functions it ran so far still count).
soft_wait() {
    local text=$1 limit=$2 start=$SECONDS
    until screen | grep -qF -- "$text"; do
        if ((SECONDS - start > limit)); then
            echo "  (did not see \"$text\" within $limit s; going on)" >&2
            return 0
        fi
        sleep 0.3
    done
}
step() { keys "$@"; sleep 3; }

# session_ends: quit, and wait until every traced process has written its file.
session_ends() {
    keys q
    for _ in $(seq 600); do
        pgrep -f -- "callgrind.*$RUNS" >/dev/null || break
        sleep 0.2
    done
    tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null || true
}

# drive_journeys: both journeys with $BIN under callgrind, its files in $RUNS.
drive_journeys() {
    echo "the memory journey…"
    run_in_tmux 80 24 "$(under_callgrind --start organizations)"
    soft_wait "Big Co" 120
    step j j Enter
    soft_wait "Knowledge Base" 120
    step Enter
    soft_wait "Everything, at length" 600
    step Enter
    sleep 60 # the 1 MB page's blocks, coloured by the worker
    step C-d
    step C-d
    step G
    step g
    step / r o b o t Enter
    step n
    step Escape
    step t
    step Escape
    step Escape
    session_ends

    echo "a reviewer's journey…"
    run_in_tmux 80 24 "$(under_callgrind --start home)"
    soft_wait "Recently (" 120
    step Tab Tab
    step Enter
    soft_wait "1 Overview" 120
    step 2
    soft_wait "change 1/" 60
    step C-d
    step n
    step v
    step s
    step 3
    soft_wait "unresolved" 60
    step j j
    step 4
    step Escape
    step O
    soft_wait "Acme Robotics" 60
    step Enter
    soft_wait "Getting Started" 60
    step j j j j Enter
    soft_wait "Quickstart" 60
    step j Enter
    sleep 20 # the page's blocks, coloured
    step C-d
    step Escape
    step s r o b o t
    sleep 10
    step Escape Escape
    step Escape
    step Tab
    sleep 5
    step Tab
    sleep 5
    step Tab
    sleep 5
    step '?'
    step Escape
    session_ends
}

# Every function that ran, by the process that ran it; kept only if the binary defines it.
functions_ran() { # FILES…: names of functions with a cost in these callgrind files
    awk '
        /^c?fn=\(/ {
            line = $0; is_fn = substr(line, 1, 3) == "fn="
            sub(/^c?fn=\(/, "", line)
            id = line; sub(/\).*/, "", id)
            if (sub(/^[0-9]+\) /, "", line)) name[FILENAME, id] = line
            if (is_fn) ran[name[FILENAME, id]] = 1
        }
        END { for (n in ran) print n }
    ' "$@" </dev/null | sort -u
}
start_sandbox --big
: >"$WORK/quire"
: >"$WORK/worker"
for index in "${!BINARIES[@]}"; do
    BIN=$(realpath "${BINARIES[$index]}")
    RUNS="$WORK/callgrind/$index"
    mkdir -p "$RUNS"
    echo "$BIN:"
    drive_journeys
    nm --defined-only "$BIN" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$WORK/defined"
    mapfile -t worker_files < <(grep -l '^cmd: .* highlight-worker' "$RUNS"/*.out || true)
    mapfile -t quire_files < <(grep -L '^cmd: .* highlight-worker' "$RUNS"/*.out || true)
    functions_ran "${quire_files[@]}" | comm -12 - "$WORK/defined" | sort -u - "$WORK/quire" -o "$WORK/quire"
    functions_ran "${worker_files[@]}" | comm -12 - "$WORK/defined" | sort -u - "$WORK/worker" -o "$WORK/worker"
done
comm -23 "$WORK/worker" "$WORK/quire" >"$WORK/worker-only"

{
    echo "# The functions a quire session runs, laid out first in the binary by build.rs (the"
    echo "# linker's --symbol-ordering-file). Written by build/hot-functions.sh from"
    echo "# $(for b in "${BINARIES[@]}"; do basename "$(dirname "$b")"; done | paste -sd+) builds of $(readelf -p .comment "$BIN" | grep -o 'rustc version [0-9.]*'):"
    echo "# $(wc -l <"$WORK/quire") of quire's own process, then $(wc -l <"$WORK/worker-only") more of its highlight worker."
    cat "$WORK/quire" "$WORK/worker-only"
} >"$OUT"
echo "$OUT: $(wc -l <"$WORK/quire") functions of quire, $(wc -l <"$WORK/worker-only") more of the worker" \
    "($(wc -c <"$OUT") bytes)"
