#!/usr/bin/env bash
# Memory, CPU and the cache of a real quire session, read from /proc as a user would:
#   start (the organization list: `--start organizations`) → Big Co → its 10,000-page Knowledge Base → the 1 MB page,
# against `quire sandbox --big` run from another copy of the binary (it shares no code pages).
#
#   cargo build --release && benches/outside/memory.sh
#   QUIRE=target/dist/quire benches/outside/memory.sh     # another build
#   CACHE=false benches/outside/memory.sh                 # with `cache = false` in the config
#   START=home benches/outside/memory.sh                  # from Home, then `O`
#
# Every process quire starts counts: quire and its highlight worker (`quire highlight-worker`)
# are sampled every half second (VmRSS from status, Pss from smaps_rollup) while the page is
# coloured, the worker at its high-water mark (VmHWM) since it started. CPU figures are utime +
# stime from /proc/PID/stat, so other work on the machine does not change them; wall-clock
# figures do move with it.

here=$(dirname "$0")
# shellcheck source=common.sh
. "$here/common.sh"

if [ "${CACHE:-true}" = false ]; then
    echo 'cache = false' >"$XDG_CONFIG_HOME/quire/config.toml"
fi
text=$(size -A "$BIN" | awk '$1 == ".text" { printf "%.1f", $2 / 1e6 }')
echo "binary: $BIN (.text $text MB), cache: ${CACHE:-true}, start: ${START:-organizations}"
# Whether build.rs laid the session's functions out first: the listed functions this binary has,
# and the stretch of code from the first to the last of them (their own size when together).
hot_list="$(dirname "$0")/../../build/hot-functions.txt"
found=0 size=0 first="" last=0
while read -r address length; do
    start=$((16#$address)) end=$((16#$address + 16#$length))
    found=$((found + 1)) size=$((size + end - start))
    if [ -z "$first" ] || ((start < first)); then first=$start; fi
    ((end > last)) && last=$end
done < <(nm -S --defined-only "$BIN" | awk 'NR == FNR { listed[$0] = 1; next } ($4 in listed) && !seen[$4]++ { print $1, $2 }' "$hot_list" -)
echo "hot functions: $found of $(grep -vc '^#' "$hot_list") listed are in it," \
    "$(mb $((size / 1024))) MB of code over $(mb $(((last - ${first:-0}) / 1024))) MB"

start_sandbox --big
START=${START:-organizations}
run_in_tmux 80 24 "exec $BIN --api-url $URL --token demo-admin --start $START"
if [ "$START" = home ]; then
    wait_for "Recently ("
    sleep 2
    echo "Home (its first look at the change requests it pings for): VmHWM" \
        "$(mb "$(status_kb "$(pid_of "^$BIN --api-url $URL")" VmHWM)") MB"
    keys O
fi
wait_for "Big Co"
sleep 1
QUIRE_PID=$(pid_of "^$BIN --api-url $URL")
echo "at start: VmHWM $(mb "$(status_kb "$QUIRE_PID" VmHWM)") MB, VmRSS $(mb "$(status_kb "$QUIRE_PID" VmRSS)") MB" \
    "(code and other file pages $(mb "$(status_kb "$QUIRE_PID" RssFile)") MB," \
    "heap and other anonymous $(mb "$(status_kb "$QUIRE_PID" RssAnon)") MB)," \
    "the binary's own pages $(mb "$(binary_kb "$QUIRE_PID")") MB, CPU $(cpu_ms "$QUIRE_PID") ms"

cache_files() {
    local db wal
    db=$(find "$XDG_DATA_HOME" -name '*.sqlite' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    wal=$(find "$XDG_DATA_HOME" -name '*.sqlite-wal' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
    echo "$db $wal"
}

keys j j Enter
wait_for "Knowledge Base"
keys Enter
opened=$(now_ms)
# The tree is on screen once its first page's title shows; the peak is read after it settles.
wait_for "Everything, at length" 120
max_wal=0
for _ in $(seq 6); do
    read -r db wal <<<"$(cache_files)"
    ((wal > max_wal)) && max_wal=$wal
    sleep 0.5
done
echo "the 10,000-page space open: VmHWM $(mb "$(status_kb "$QUIRE_PID" VmHWM)") MB," \
    "VmRSS $(mb "$(status_kb "$QUIRE_PID" VmRSS)") MB, on screen $(($(now_ms) - opened - 3000)) ms" \
    "after enter; cache file $(mb $((db / 1024))) MB + log $(mb $((wal / 1024))) MB" \
    "(log at most $(mb $((max_wal / 1024))) MB)"

worker_before=$(pid_of "^$BIN highlight-worker")
worker_cpu_preview=0
[ -n "$worker_before" ] && worker_cpu_preview=$(cpu_ms "$worker_before")
keys Enter
entered=$(now_ms)
max_sum_rss=0 max_sum_pss=0 max_worker_alone=0 worker_parts="" max_quire_rss=0 max_worker_rss=0 worker_cpu=0 last_busy=$entered
worker_seen=""
while :; do
    worker=$(pid_of "^$BIN highlight-worker")
    q_rss=$(status_kb "$QUIRE_PID" VmRSS) q_pss=$(pss_kb "$QUIRE_PID")
    w_rss=0 w_pss=0
    if [ -n "$worker" ]; then
        worker_seen=$worker
        w_rss=$(status_kb "$worker" VmRSS) w_pss=$(pss_kb "$worker")
        # The worker's peak (a grammar being built) can fall between two samples: its high-water
        # mark stands in for its resident size, the difference counted in full in its Pss too.
        w_hwm=$(status_kb "$worker" VmHWM)
        ((w_hwm > w_rss)) && w_pss=$((w_pss + w_hwm - w_rss)) w_rss=$w_hwm
        if ((w_rss > max_worker_alone)); then
            max_worker_alone=$w_rss
            worker_parts="now $(mb "$(status_kb "$worker" RssFile)") MB code and other file pages, $(mb "$(status_kb "$worker" RssAnon)") MB anonymous"
        fi
        cpu=$(cpu_ms "$worker")
        if ((cpu > worker_cpu)); then worker_cpu=$cpu last_busy=$(now_ms); fi
    fi
    ((q_rss + w_rss > max_sum_rss)) && max_sum_rss=$((q_rss + w_rss)) max_quire_rss=$q_rss max_worker_rss=$w_rss
    ((q_pss + w_pss > max_sum_pss)) && max_sum_pss=$((q_pss + w_pss))
    if [ -z "$worker" ] && (($(now_ms) - entered > 2000)); then break; fi
    if (($(now_ms) - entered > 120000)); then echo "the worker was still there after 120 s" >&2; break; fi
    sleep 0.5
done
echo "the 1 MB page coloured: quire + worker at most $(mb "$max_sum_rss") MB VmRSS" \
    "($(mb "$max_quire_rss") + $(mb "$max_worker_rss")), $(mb "$max_sum_pss") MB Pss;" \
    "worker CPU $worker_cpu ms in all ($worker_cpu_preview ms of it for the preview," \
    "worker $worker_seen), its last CPU $((last_busy - entered)) ms after enter (to 0.5 s);" \
    "the worker at most $(mb "$max_worker_alone") MB ($worker_parts)"
sleep 1
echo "afterwards (worker gone): quire VmRSS $(mb "$(status_kb "$QUIRE_PID" VmRSS)") MB," \
    "Pss $(mb "$(pss_kb "$QUIRE_PID")") MB, the binary's own pages $(mb "$(binary_kb "$QUIRE_PID")") MB; session peak VmHWM $(mb "$(status_kb "$QUIRE_PID" VmHWM)") MB," \
    "quire CPU $(cpu_ms "$QUIRE_PID") ms in all"
read -r db wal <<<"$(cache_files)"
echo "cache while quire runs: file $(mb $((db / 1024))) MB + log $(mb $((wal / 1024))) MB"
keys q
for _ in $(seq 100); do [ -d "/proc/$QUIRE_PID" ] || break; sleep 0.1; done
read -r db wal <<<"$(cache_files)"
echo "cache after quire quit: file $(mb $((db / 1024))) MB + log $(mb $((wal / 1024))) MB"
