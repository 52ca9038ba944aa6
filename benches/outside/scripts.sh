#!/usr/bin/env bash
# The scripting subcommands against curl (+ jq) on a server 100 ms away
# (`quire sandbox --latency-ms 100`): wall clock of each command, median of 7 runs, with
# hyperfine when it is installed, else a loop of `date +%s%N`.
#
#   cargo build --release && benches/outside/scripts.sh
#
# Wall clock moves with whatever else runs on the machine: run it twice and compare.

here=$(dirname "$0")
# shellcheck source=common.sh
. "$here/common.sh"

RUNS=${RUNS:-7}
start_sandbox --latency-ms 100
auth='Authorization: Bearer demo-admin'
space_id=$(curl -s -H "$auth" "$URL/v1/orgs" | jq -r '.items[].id' | while read -r org; do
    curl -s -H "$auth" "$URL/v1/orgs/$org/spaces" |
        jq -r '.items[] | select(.title == "Getting Started") | .id'
done | head -n 1)
echo "server 100 ms away; Getting Started is $space_id; $RUNS runs each"

cat >"$WORK/curl-id.sh" <<EOF
curl -s -H '$auth' '$URL/v1/spaces/$space_id/change-requests?status=open' |
    jq -r '.items[] | [.number, .title] | @tsv'
EOF
# What a script without quire does for a title: every organization's spaces, then the list.
cat >"$WORK/curl-title.sh" <<EOF
id=\$(curl -s -H '$auth' '$URL/v1/orgs' | jq -r '.items[].id' | while read -r org; do
    curl -s -H '$auth' "$URL/v1/orgs/\$org/spaces" |
        jq -r '.items[] | select(.title == "Getting Started") | .id'
done | head -n 1)
curl -s -H '$auth' "$URL/v1/spaces/\$id/change-requests?status=open" |
    jq -r '.items[] | [.number, .title] | @tsv'
EOF
quire=("$BIN" --api-url "$URL" --token demo-admin)
cat >"$WORK/quire-id.sh" <<EOF
${quire[*]} cr list --space $space_id
EOF
cat >"$WORK/quire-title.sh" <<EOF
${quire[*]} cr list --space "Getting Started"
EOF
cat >"$WORK/quire-title-first.sh" <<EOF
rm -f "\$XDG_DATA_HOME"/quire/cache/*/*.names
${quire[*]} cr list --space "Getting Started"
EOF

# median_ms SCRIPT: the median wall clock of RUNS runs of `bash SCRIPT`, in ms.
median_ms() {
    local times=() start
    bash "$1" >/dev/null 2>&1 # once before, as hyperfine's warm-up
    for _ in $(seq "$RUNS"); do
        start=$(date +%s%N)
        bash "$1" >/dev/null 2>&1
        times+=($((($(date +%s%N) - start) / 1000000)))
    done
    printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { m = a[int((NR + 1) / 2)]; printf "%d (%s..%s)", m, a[1], a[NR] }'
}

if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 1 --runs "$RUNS" \
        "bash $WORK/curl-id.sh" "bash $WORK/quire-id.sh" \
        "bash $WORK/curl-title.sh" "bash $WORK/quire-title.sh" "bash $WORK/quire-title-first.sh"
    exit 0
fi
for name in curl-id quire-id curl-title quire-title quire-title-first; do
    echo "$name: median $(median_ms "$WORK/$name.sh") ms"
done
echo "the same without the server: bash alone $(median_ms /dev/null) ms"
echo "(quire-title-first forgets the remembered title before each run: the look-up every time)"
