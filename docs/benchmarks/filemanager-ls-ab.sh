#!/usr/bin/env bash
# Side-by-side `ls` benchmark of two builds of Wharf (docs/benchmarks/filemanager.md, "JSON writer"): `ls` of a
# 101-entry folder on a local mount and of a 6-entry folder on a memory mount, with wrk on 127.0.0.1, the two jars
# alternating ROUNDS times each, so that the load of a shared machine falls on both alike. Same method as
# filemanager-bench.sh: one login, a JIT warm-up per request, then wrk; prints req/s and the server's CPU per request.
#
#   docs/benchmarks/filemanager-ls-ab.sh A.jar B.jar
#
# Environment: ROUNDS (default 3), DURATION (default 10s), WARMUP (default 30s), JVM_OPTS (default: empty, the
# JVM's defaults), CONNECTIONS (default 32).
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 A.jar B.jar" >&2; exit 2; }
jars=("$(realpath "$1")" "$(realpath "$2")")
rounds=${ROUNDS:-3}
duration=${DURATION:-10s}
warmup=${WARMUP:-30s}
connections=${CONNECTIONS:-32}
jvm_opts=${JVM_OPTS-}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
export LANG=C.UTF-8

work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT INT TERM

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

password=bench-password-1
hash=$(printf '%s\n' "$password" | java -jar "${jars[0]}" hash-password | tail -1)
# 101 files on the local mount, named and sized like a download folder.
mkdir -p "$work/local/files"
for i in $(seq 0 100); do head -c $((i * 37 + 1)) /dev/zero > "$work/local/files/report-$(printf %03d "$i").pdf"; done

start() { # $1 = jar
	port=$(free_port)
	cat > "$work/application.yaml" <<YAML
server: { port: $port, address: 127.0.0.1 }
management: { server: { port: 0 } }
logging: { level: { wharf.audit: warn } }
wharf:
  state-dir: $work/state
  storage: { mounts: { bench: { type: memory, max-size: 8MB }, disk: { type: local, root: "$work/local" } } }
  buildcache: { enabled: false }
  ftp: { enabled: false }
  static: { enabled: false }
  security:
    users: [ { name: bench, password: "$hash", roles: [ user ], mounts: { bench: rw, disk: ro } } ]
YAML
	(cd "$work" && exec java $jvm_opts -jar "$1" > "$work/server.log" 2>&1) &
	server=$!
	for _ in $(seq 1 120); do
		curl -s -o /dev/null "http://127.0.0.1:$port/api/files/ls?path=%2F" && return 0
		sleep 1
	done
	echo "Wharf did not start:" >&2; tail -20 "$work/server.log" >&2; exit 1
}
stop() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }

populate() {
	cookie=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
		-d "{\"username\":\"bench\",\"password\":\"$password\"}" "http://127.0.0.1:$port/api/session" | grep -io 'auth=[^;]*')
	h=(-H "Cookie: $cookie" -H "X-Requested-With: XmlHttpRequest")
	curl -sf "${h[@]}" -X POST "http://127.0.0.1:$port/api/files/mkdir?path=/bench/files" > /dev/null
	for name in 1M.bin 10M.bin 100M.bin 1G.bin 10G.bin 100G.bin; do
		curl -sf "${h[@]}" --data-binary "content of $name" "http://127.0.0.1:$port/api/files/save?path=/bench/files/$name" > /dev/null
	done
}

measure() { # $1 = label, $2 = URL path: prints "label req/s cpu-us-per-request"
	local url="http://127.0.0.1:$port$2" before after out
	wrk -t2 -c"$connections" -d"$warmup" "${h[@]}" "$url" > /dev/null
	before=$(awk '{print $14 + $15}' "/proc/$server/stat")
	out=$(wrk -t2 -c"$connections" -d"$duration" "${h[@]}" "$url")
	after=$(awk '{print $14 + $15}' "/proc/$server/stat")
	if echo "$out" | grep -q 'Non-2xx'; then echo "non-2xx answers for $url" >&2; exit 1; fi
	echo "$out" | awk -v label="$1" -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" '
		/requests in/ { n = $1 } /Requests\/sec/ { rps = $2 }
		END { printf "%s %.0f %.1f\n", label, rps, t / hz * 1e6 / n }'
}

echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "JVM: $(java -version 2>&1 | head -1); options: ${jvm_opts:-(defaults)}; wrk -t2 -c$connections -d$duration after $warmup"
results="$work/results"
for round in $(seq 1 "$rounds"); do
	for which in 0 1; do
		variant=$([ $which = 0 ] && echo A || echo B)
		start "${jars[$which]}"
		populate
		local_ls=$(curl -sf "${h[@]}" "http://127.0.0.1:$port/api/files/ls?path=%2Fdisk%2Ffiles%2F")
		[ "$(grep -o '"name"' <<< "$local_ls" | wc -l)" = 101 ] || { echo "the local folder does not list 101 entries" >&2; exit 1; }
		measure "$variant local-101" "/api/files/ls?path=%2Fdisk%2Ffiles%2F" | tee -a "$results" | sed "s/^/round $round: /"
		measure "$variant memory-6" "/api/files/ls?path=%2Fbench%2Ffiles%2F" | tee -a "$results" | sed "s/^/round $round: /"
		stop
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== median (min-max) req/s; median server CPU per request (us). A = ${jars[0]##*/}, B = ${jars[1]##*/}"
median() { sort -n | awk '{ v[NR] = $1 } END { printf "%s %s %s\n", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'; }
for row in "A local-101" "B local-101" "A memory-6" "B memory-6"; do
	read -r rps low high < <(grep "^$row " "$results" | cut -d' ' -f3 | median)
	read -r cpu _ _ < <(grep "^$row " "$results" | cut -d' ' -f4 | median)
	printf "%-12s %6.0f (%s-%s) req/s, %s us/request\n" "$row" "$rps" "$low" "$high" "$cpu"
done
