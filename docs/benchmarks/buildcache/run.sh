#!/usr/bin/env bash
# Build cache micro-benchmark: Wharf's memory-backed cache against nginx serving a static file of the same
# size, both on 127.0.0.1, in the same run, driven by wrk. Besides requests per second it reports the CPU
# time each server spent per request (from /proc), which stays comparable on a machine that is busy with
# other work. Writes nothing outside a temporary folder; stops what it starts.
#
#   docs/benchmarks/buildcache/run.sh [seconds] [connections] [profile] [size]
#
#   seconds      length of each measured run (default 15; each is preceded by a warm-up of the same length)
#   connections  concurrent wrk connections (default 100)
#   profile      JVM profile from platform-app/src/main/jvm (default p128: 2 cores, 128 MB)
#   size         entry size in bytes (default 128)
#
# Needs: the built jar (./mvnw -q -DskipTests package), wrk, nginx, curl.
set -euo pipefail
cd "$(dirname "$0")/../../.."
seconds=${1:-15}
connections=${2:-100}
profile=${3:-p128}
size=${4:-128}
threads=2
here=docs/benchmarks/buildcache
work=$(mktemp -d /tmp/wharf-bench.XXXXXX)
chmod 755 "$work" # nginx's workers run as nobody
key=0123456789abcdef0123456789abcdef
pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/nginx/www" "$work/nginx/logs"
head -c "$size" /dev/urandom > "$work/nginx/www/entry"
nginx -p "$work/nginx" -c "$PWD/$here/nginx.conf" -g "daemon off;" &
nginx_pid=$!
pids+=("$nginx_pid")

mapfile -t options < <(grep -v '^#' "platform-app/src/main/jvm/$profile.options" | sed '/^$/d')
env $(grep -v '^#' "platform-app/src/main/jvm/$profile.env" | xargs) java "${options[@]}" \
	-jar platform-app/target/wharf.jar --server.port=18080 --management.server.port=0 --wharf.state-dir="$work/state" \
	--wharf.storage.mounts.data.type=memory --wharf.storage.mounts.data.max-size=8MB \
	--wharf.buildcache.anonymous=read-write --logging.level.root=warn > "$work/wharf.log" 2>&1 &
wharf_pid=$!
pids+=("$wharf_pid")

for _ in $(seq 1 240); do
	curl -sf -o /dev/null http://127.0.0.1:18080/cache && curl -sf -o /dev/null http://127.0.0.1:18081/entry && break
	sleep 0.5
done
curl -sf -X PUT --data-binary @"$work/nginx/www/entry" -o /dev/null "http://127.0.0.1:18080/cache/$key"
sed "s/string.rep(\"x\", 128)/string.rep(\"x\", $size)/" "$here/put.lua" > "$work/put.lua"
nginx_workers=$(pgrep -P "$nginx_pid" | xargs)

cpu_ticks() { # pids... -> user+system clock ticks of all of them
	local total=0 pid
	for pid in "$@"; do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done
	echo "$total"
}

measure() { # name, server pids (quoted), wrk arguments...
	local name=$1 servers=$2; shift 2
	local before after out requests rate
	before=$(cpu_ticks $servers)
	out=$(wrk -t$threads -c"$connections" -d"${seconds}s" "$@")
	after=$(cpu_ticks $servers)
	requests=$(awk '/requests in/ {print $1}' <<< "$out")
	rate=$(awk '/Requests\/sec/ {print $2}' <<< "$out")
	printf '%-18s %10s req/s %8s us CPU/request  %s\n' "$name" "$rate" \
		"$(( (after - before) * 1000000 / $(getconf CLK_TCK) / requests ))" \
		"$(grep -E 'Socket errors|Non-2xx' <<< "$out" | xargs)"
	echo "$rate" > "$work/$name"
}

# The JIT needs a while, more so on a busy machine: warm each path up for three runs' time first.
warm() {
	for _ in 1 2 3; do wrk -t$threads -c"$connections" -d"${seconds}s" "$@" > /dev/null; done
}

echo "$(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), profile $profile, $size B, $connections connections, ${seconds}s runs"
wrk -t$threads -c"$connections" -d"${seconds}s" http://127.0.0.1:18081/entry > /dev/null
measure "nginx-get" "$nginx_workers" http://127.0.0.1:18081/entry
warm "http://127.0.0.1:18080/cache/$key"
measure "wharf-get" "$wharf_pid" "http://127.0.0.1:18080/cache/$key"
# PUTs of large entries fill the mount and evict: they come last.
warm -s "$work/put.lua" http://127.0.0.1:18080
measure "wharf-put" "$wharf_pid" -s "$work/put.lua" http://127.0.0.1:18080
awk -v n="$(cat "$work/nginx-get")" -v g="$(cat "$work/wharf-get")" -v p="$(cat "$work/wharf-put")" \
	'BEGIN { printf "GET / nginx GET: %.2f (target >= 0.80)   PUT / nginx GET: %.2f (target >= 0.40)\n", g / n, p / n }'
