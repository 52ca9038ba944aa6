#!/usr/bin/env bash
# Resident memory after a journey that build/hot-functions.sh does not drive, so the functions
# it runs are not all in the list the linker lays out first: the demo's organization list →
# Acme Robotics → its next six tabs, one after another (Change requests to Translations) →
# Lumen OSS → its Teams tab, in an 80x24 tmux window.
# Read from /proc as a user would, against `quire sandbox` run from another copy of the binary.
#
#   cargo build --release && benches/outside/tabs.sh
#   QUIRE=path/to/quire benches/outside/tabs.sh     # another build
set -euo pipefail
here=$(dirname "$0")
# shellcheck source=common.sh
. "$here/common.sh"

start_sandbox
run_in_tmux 80 24 "exec $BIN --api-url $URL --token demo-admin --start organizations"
wait_for "Acme Robotics"
QUIRE_PID=$(pid_of "^$BIN --api-url $URL")
[ -n "$QUIRE_PID" ] || { echo "quire is not running" >&2; exit 1; }
keys Enter
wait_for "Getting Started"
for _ in $(seq 6); do
    keys Tab
    sleep 1.5
done
keys Escape
wait_for "Lumen OSS"
keys j Enter
wait_for "Teams"
keys Tab Tab Tab
sleep 2
echo "after the organization's tabs: quire VmRSS $(mb "$(status_kb "$QUIRE_PID" VmRSS)") MB," \
    "Pss $(mb "$(pss_kb "$QUIRE_PID")") MB, the binary's own pages $(mb "$(binary_kb "$QUIRE_PID")") MB"
keys q
