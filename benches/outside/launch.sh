#!/usr/bin/env bash
# Launch to the organization list (`--start organizations`; START=home for Home, the first
# screen by default), read from outside: quire's CPU until it is on screen
# (utime + stime of /proc/PID/stat, and its threads' run time from schedstat, finer), and the
# bytes it writes to the terminal while it then sits idle (recorded by script(1)).
#
#   cargo build --release && benches/outside/launch.sh
#
# The first launch of a run reads the server (its cache is empty), the others read the cache
# first. RUNS launches (default 5), each idle for IDLE seconds (default 10).

here=$(dirname "$0")
# shellcheck source=common.sh
. "$here/common.sh"

RUNS=${RUNS:-5}
IDLE=${IDLE:-10}
start_sandbox
START=${START:-organizations}
first_text="Acme Robotics"
[ "$START" = home ] && first_text="Recently ("
for run in $(seq "$RUNS"); do
    rm -f "$WORK/tty.out"
    run_in_tmux 80 24 "exec $BIN --api-url $URL --token demo-admin --start $START"
    wait_for "$first_text"
    pid=$(pid_of "^$BIN --api-url $URL")
    cpu=$(cpu_ms "$pid") ns=$(run_ns "$pid")
    sleep 1
    before=$(stat -c %s "$WORK/tty.out")
    sleep "$IDLE"
    after=$(stat -c %s "$WORK/tty.out")
    printf 'launch %d to %s: CPU %d ms (ticks of /proc/PID/stat; %.1f ms by the threads alive, schedstat); %d bytes to the terminal, then %d bytes in %d s idle\n' \
        "$run" "$START" "$cpu" "$(awk -v n="$ns" 'BEGIN { print n / 1e6 }')" "$before" \
        $((after - before)) "$IDLE"
    keys q
    for _ in $(seq 100); do [ -d "/proc/$pid" ] || break; sleep 0.1; done
    tmux -L "$TMUX_SOCKET" kill-server 2>/dev/null || true
done
