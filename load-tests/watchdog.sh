#!/usr/bin/env bash
# watchdog.sh URL PID SECONDS MARKER: kills server PID once URL has given no HTTP answer at all (an error status
# counts as an answer) for SECONDS, and says so in MARKER. Ends by itself when PID ends.
#
# A server at its memory limit may stop answering without dying (the kernel reclaims and retries instead of
# killing it); the load generator then waits out its timeout on every request of every level left, and a table
# would run for hours. run.sh starts one watchdog beside each Gatling run. SECONDS should be well above the load
# generator's request timeout (60 s), so that a server that is only slow under load is never taken for a hung one.
#
# PID is killed with its process group (run.sh starts every server as a group leader, with setsid), SIGKILL:
# a server that answers nothing is not expected to shut down in order either.
# WATCHDOG_INTERVAL (s, default 10) is the pause between probes, WATCHDOG_PROBE_TIMEOUT (s, default 15) how long one
# probe waits for an answer.
set -euo pipefail

[ $# -eq 4 ] || { sed -n '2,3s/^# //p' "$0" >&2; exit 2; }
url=$1 pid=$2 limit=$3 marker=$4
interval=${WATCHDOG_INTERVAL:-10} probe_timeout=${WATCHDOG_PROBE_TIMEOUT:-15}
[[ $limit =~ ^[1-9][0-9]*$ ]] || { echo "watchdog: SECONDS must be a whole number from 1, not $limit" >&2; exit 2; }

last_answer=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
	# curl's status is 0 for any HTTP answer (no --fail); a connection refused or a timeout is not an answer.
	if curl -s -o /dev/null --max-time "$probe_timeout" "$url"; then
		last_answer=$(date +%s)
	elif (($(date +%s) - last_answer >= limit)); then
		kill -0 "$pid" 2>/dev/null || exit 0
		echo "no HTTP answer from $url for $(($(date +%s) - last_answer)) s (limit $limit s): killed" \
			"at $(date -u +%H:%M:%S) UTC" > "$marker"
		kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
		exit 0
	fi
	sleep "$interval"
done
