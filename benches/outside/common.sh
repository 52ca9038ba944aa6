# Helpers the outside measurements share: a private home for quire, a sandbox run from another
# copy of the binary (so it shares no code pages with quire), a tmux server of their own, and
# readers of /proc. Sourced by the scripts beside it (memory.sh, tabs.sh, launch.sh, scripts.sh…)
# and by build/hot-functions.sh; not run on its own.

set -euo pipefail

BIN=$(realpath "${QUIRE:-target/release/quire}")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/quire-outside.XXXXXX")
PORT=${PORT:-$((20000 + $$ % 20000))}
URL="http://127.0.0.1:$PORT"
TMUX_SOCKET="quire-outside-$$"
SANDBOX_PID=""

# quire reads its config, cache, drafts and state under $WORK only.
export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/config" XDG_DATA_HOME="$WORK/data"
export XDG_STATE_HOME="$WORK/state" XDG_CACHE_HOME="$WORK/cache" TERM=xterm-256color
mkdir -p "$HOME" "$XDG_CONFIG_HOME/quire" "$XDG_DATA_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME"

cleanup() {
    # A quire left running (a run that stopped early) would share its pages with the next run's.
    local left
    left=$(pgrep -f -- "^$BIN --api-url $URL" || true)
    if [ -n "$left" ]; then kill $left 2>/dev/null || true; fi
    tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null || true
    if [ -n "$SANDBOX_PID" ]; then kill "$SANDBOX_PID" 2>/dev/null || true; fi
    wait 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# start_sandbox ARGS…: the sandbox from a copy of the binary, on $PORT, until it answers.
start_sandbox() {
    cp "$BIN" "$WORK/sandbox-copy"
    "$WORK/sandbox-copy" sandbox --port "$PORT" "$@" >"$WORK/sandbox.log" 2>&1 &
    SANDBOX_PID=$!
    for _ in $(seq 200); do
        curl -s -o /dev/null "$URL/v1/user" -H 'Authorization: Bearer demo-admin' && return 0
        sleep 0.1
    done
    echo "the sandbox did not answer on $URL" >&2
    exit 1
}

# run_in_tmux COLS ROWS COMMAND: COMMAND in a terminal of that size, recorded by script(1) into
# $WORK/tty.out (every byte quire writes to the terminal).
run_in_tmux() {
    local cols=$1 rows=$2 command=$3
    tmux -L "$TMUX_SOCKET" -f /dev/null new-session -d -x "$cols" -y "$rows" \
        "script -q -f -c '$command' $WORK/tty.out"
}

screen() { tmux -L "$TMUX_SOCKET" capture-pane -p; }
keys() { tmux -L "$TMUX_SOCKET" send-keys "$@"; }

# wait_for TEXT [SECONDS]: until TEXT is on screen.
wait_for() {
    local text=$1 limit=${2:-60} start=$SECONDS
    until screen | grep -qF -- "$text"; do
        if ((SECONDS - start > limit)); then
            echo "never saw \"$text\"; the screen:" >&2
            screen >&2
            exit 1
        fi
        sleep 0.05
    done
}

# pid_of PATTERN: the newest process whose command line matches PATTERN (a regular expression).
pid_of() { pgrep -n -f -- "$1" || true; }

# status_kb PID FIELD: a VmRSS-like field of /proc/PID/status in kB (0 when gone).
status_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null || echo 0; }

# pss_kb PID: proportional set size from smaps_rollup in kB (0 when gone).
pss_kb() { awk '$1 == "Pss:" { print $2 }' "/proc/$1/smaps_rollup" 2>/dev/null || echo 0; }

# cpu_ms PID: user + system CPU of the whole process so far (threads that ended included), ms.
cpu_ms() {
    local ticks
    ticks=$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
    echo $((ticks * 1000 / $(getconf CLK_TCK)))
}

# run_ns PID: CPU of the process's living threads in nanoseconds (schedstat: finer than ticks).
run_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }

# binary_kb PID: the resident pages of the binary's own file (its code and read-only data), kB.
binary_kb() {
    awk -v bin="$BIN" '/^[0-9a-f]+-[0-9a-f]+ / { mine = ($6 == bin) } mine && $1 == "Rss:" { s += $2 } END { print s + 0 }' \
        "/proc/$1/smaps" 2>/dev/null || echo 0
}

mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
