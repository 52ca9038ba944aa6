#!/usr/bin/env bash
# CPU that quire spends per key on the big demo's 10,000-page tree, measured from outside as a
# user would: the release binary in a tmux window of a fixed size, against a sandbox run as a
# process of its own (so its work is not counted), keys sent one at a time, each drawn before
# the next, and quire's CPU read from /proc/PID/stat (user + system, in clock ticks).
#
#   benches/outside/tree.sh [WIDTHxHEIGHT ...]     (default: 80x24 200x50)
#
# Environment: QUIRE (the binary, default target/release/quire), PORT (default 4817),
# KEYS (keys per measure, default 200), GAP (seconds between keys, default 0.03: shorter than the
# preview's 150 ms rest, so the preview of every row passed is not fetched), ROUNDS (times each
# filter query is typed and erased, default 10), QUERY (default "faq about quotas").
#
# Needs tmux, and runs `tmux -L quire-bench-SIZE`, a server of its own for each size (a server
# killed and started again at once can refuse the new session while it exits). Figures are per
# key, in ms.
set -euo pipefail

QUIRE=${QUIRE:-target/release/quire}
PORT=${PORT:-4817}
KEYS=${KEYS:-200}
GAP=${GAP:-0.03}
ROUNDS=${ROUNDS:-10}
QUERY=${QUERY:-faq about quotas}
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(80x24 200x50)

TICK_MS=$((1000 / $(getconf CLK_TCK)))
TMUX_CMD=()
HOME_DIR=$(mktemp -d)
SANDBOX_PID=

cleanup() {
    for size in "${SIZES[@]}"; do tmux -L "quire-bench-$size" kill-server 2>/dev/null || true; done
    [ -n "$SANDBOX_PID" ] && kill "$SANDBOX_PID" 2>/dev/null || true
    rm -rf "$HOME_DIR"
}
trap cleanup EXIT

screen() { "${TMUX_CMD[@]}" capture-pane -p -t bench; }

# Waits (up to 30 s) until the screen shows `text`.
wait_for() {
    local text=$1
    for _ in $(seq 3000); do
        screen | grep -qF -- "$text" && return 0
        sleep 0.01
    done
    echo "timed out waiting for: $text" >&2
    screen >&2
    exit 1
}

# Sends one key and waits (up to 0.5 s) until the screen changed, then GAP more.
press() {
    local before
    before=$(screen)
    "${TMUX_CMD[@]}" send-keys -t bench "$@"
    for _ in $(seq 50); do
        [ "$(screen)" != "$before" ] && break
        sleep 0.01
    done
    sleep "$GAP"
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

ms_per_key() { awk -v t="$1" -v n="$2" -v ms="$TICK_MS" 'BEGIN { printf "%.2f", t * ms / n }'; }

# Idle until quire's CPU stops growing (a preview fetched, a page parsed, the cache written).
settle() {
    local pid=$1 last now
    last=$(cpu_ticks "$pid")
    while sleep 0.5; now=$(cpu_ticks "$pid"); [ "$now" != "$last" ]; do last=$now; done
}

"$QUIRE" sandbox --big --port "$PORT" >/dev/null 2>&1 &
SANDBOX_PID=$!
for _ in $(seq 300); do
    (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
    sleep 0.1
done

for size in "${SIZES[@]}"; do
    width=${size%x*}
    height=${size#*x}
    [ ${#TMUX_CMD[@]} -gt 0 ] && "${TMUX_CMD[@]}" kill-server 2>/dev/null || true
    TMUX_CMD=(tmux -L "quire-bench-$size")
    "${TMUX_CMD[@]}" new-session -d -s bench -x "$width" -y "$height" \
        "exec env HOME=$HOME_DIR XDG_CONFIG_HOME=$HOME_DIR/config XDG_DATA_HOME=$HOME_DIR/data \
         XDG_STATE_HOME=$HOME_DIR/state XDG_CACHE_HOME=$HOME_DIR/cache \
         $QUIRE --api-url http://127.0.0.1:$PORT --token demo-admin"
    pid=$("${TMUX_CMD[@]}" display -p -t bench '#{pane_pid}')
    # Home, the organizations (Big Co is the third), Big Co's spaces, its Knowledge Base.
    wait_for "organizations"
    press O
    wait_for "Big Co"
    press j
    press j
    press Enter
    wait_for "browse pages"
    press Enter
    wait_for "▾"
    # Every branch open: 10,000 rows to move through.
    press E
    press g
    settle "$pid"

    start=$(cpu_ticks "$pid")
    for _ in $(seq "$KEYS"); do press j; done
    j=$(($(cpu_ticks "$pid") - start))
    press g
    settle "$pid"
    start=$(cpu_ticks "$pid")
    for _ in $(seq "$KEYS"); do press PageDown; done
    page_down=$(($(cpu_ticks "$pid") - start))
    press g
    settle "$pid"

    # Each character of the query typed, then erased, ROUNDS times: ticks per position.
    declare -a typed=() erased=()
    for _ in $(seq "$ROUNDS"); do
        press /
        for ((i = 0; i < ${#QUERY}; i++)); do
            start=$(cpu_ticks "$pid")
            press -l "${QUERY:i:1}"
            typed[i]=$((${typed[i]:-0} + $(cpu_ticks "$pid") - start))
        done
        for ((i = ${#QUERY} - 1; i >= 0; i--)); do
            start=$(cpu_ticks "$pid")
            press BSpace
            erased[i]=$((${erased[i]:-0} + $(cpu_ticks "$pid") - start))
        done
        press Escape
        settle "$pid"
    done
    worst_typed=0 worst_at=0 total_typed=0 total_erased=0
    for ((i = 0; i < ${#QUERY}; i++)); do
        total_typed=$((total_typed + typed[i]))
        total_erased=$((total_erased + erased[i]))
        if [ "${typed[i]}" -gt "$worst_typed" ]; then worst_typed=${typed[i]} worst_at=$i; fi
    done
    echo "$size: j $(ms_per_key "$j" "$KEYS") ms, page down $(ms_per_key "$page_down" "$KEYS") ms;" \
        "filter \"$QUERY\": typing $(ms_per_key "$total_typed" $((ROUNDS * ${#QUERY}))) ms" \
        "(worst \"${QUERY:worst_at:1}\" at $((worst_at + 1)): $(ms_per_key "$worst_typed" "$ROUNDS") ms," \
        "first $(ms_per_key "${typed[0]}" "$ROUNDS") ms)," \
        "backspace $(ms_per_key "$total_erased" $((ROUNDS * ${#QUERY}))) ms" \
        "(to empty: $(ms_per_key "${erased[0]}" "$ROUNDS") ms)"
    unset typed erased
done
