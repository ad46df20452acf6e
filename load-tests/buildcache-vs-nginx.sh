#!/usr/bin/env bash
# The build cache against nginx serving the same entries, with wrk, measuring what a shared machine cannot blur:
# the CPU time each server spends per request (utime+stime from /proc/<pid>/stat before and after each wrk run,
# over every process of the server, divided by the requests wrk completed), beside req/s and the load average.
#
# usage: load-tests/buildcache-vs-nginx.sh [options]
#
#   --duration S        seconds per wrk run (default 10)
#   --warmup S          seconds of wrk PUT and GET of every size against Wharf before the first counted run (default 40)
#   --rounds N          rounds (default 1); each runs every level against Wharf, then against nginx
#   --sizes B[,B…]      entry sizes in bytes (default 128,4096)
#   --connections C[,…] wrk connections (default 10,100)
#   --threads T         wrk threads (default 2)
#   --methods M[,M…]    GET, PUT (default both)
#   --backend B         the build cache's mount: memory (default) or local (a folder, as nginx stores its PUTs)
#   --no-nginx          Wharf only (e.g. while profiling)
#   --jar FILE          the jar (default platform-app/target/wharf.jar)
#   --commit C          the commit the jar was built from, for the results (default: HEAD's)
#   --out FILE          the results (TSV, appended; default load-tests/target/buildcache-vs-nginx.tsv)
#
# Wharf runs as a user runs the jar: java -jar with the JVM's defaults (JAVA_OPTS, e.g. a flight recording, are
# added), every module on (file manager, FTP, static sites, build cache on a memory mount), a user with a bcrypt
# password sending HTTP Basic with every request. nginx is load-tests/peers/nginx.conf (WebDAV PUT, no
# authentication: its own Basic would check the password for every request) with one worker per core. No cgroups or
# pinning: both servers and wrk share the machine's cores.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"
export LANG=C.UTF-8 LC_ALL=C.UTF-8

duration=10 warmup=40 rounds=1 backend=memory sizes=128,4096 connections=10,100 threads=2 methods=GET,PUT nginx=true
jar=platform-app/target/wharf.jar out=load-tests/target/buildcache-vs-nginx.tsv commit=""
while [ $# -gt 0 ]; do
	case "$1" in
		--duration) duration=$2; shift ;;
		--warmup) warmup=$2; shift ;;
		--rounds) rounds=$2; shift ;;
		--sizes) sizes=$2; shift ;;
		--connections) connections=$2; shift ;;
		--threads) threads=$2; shift ;;
		--methods) methods=$2; shift ;;
		--backend) backend=$2; shift ;;
		--no-nginx) nginx=false ;;
		--jar) jar=$2; shift ;;
		--commit) commit=$2; shift ;;
		--out) out=$2; shift ;;
		-h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
		*) echo "unknown option: $1" >&2; exit 2 ;;
	esac
	shift
done
for tool in wrk nginx curl java; do
	command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install wrk nginx curl)" >&2; exit 1; }
done
case "$backend" in memory|local) ;; *) echo "--backend takes memory or local, not $backend" >&2; exit 2 ;; esac
[ -f "$jar" ] || { echo "no $jar: build it with ./mvnw -pl platform-app -am package -DskipTests" >&2; exit 1; }

run=$(mktemp -d "${TMPDIR:-/tmp}/buildcache-vs-nginx.XXXXXX")
pids=()
cleanup() {
	local pid
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${pids[@]}"; do
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$pid" 2>/dev/null || true
	done
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
await() {   # url pid seconds
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		curl -fs -o /dev/null "$1" && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
# CPU ticks (utime+stime) of the processes given, each with every thread it ever had.
ticks() { local pid sum=0; for pid in "$@"; do sum=$((sum + $(awk '{print $14 + $15}' "/proc/$pid/stat"))); done; echo "$sum"; }
hz=$(getconf CLK_TCK)

password=$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 20)
hash=$(printf '%s\n' "$password" | java -jar "$jar" hash-password)
authorization="Basic $(printf 'bench:%s' "$password" | base64 -w0)"

# Entries: the same bytes under the same paths for both servers.
mkdir -p "$run/www" "$run/nginx-cache/cache/get" "$run/state" "$run/files" "$run/ftp" "$run/cache"
echo small > "$run/www/small.html"
for size in ${sizes//,/ }; do head -c "$size" /dev/urandom > "$run/entry-$size"; done

cat > "$run/put.lua" <<'EOF'
-- PUT of one entry size under 1,000 keys in turn, each thread its own, so that every PUT replaces an entry.
local size = os.getenv("ENTRY_SIZE")
local f = io.open(os.getenv("ENTRY_FILE"), "rb")
local body = f:read("*a")
f:close()
local counter = 0
local thread_id = 0
local next_id = 0
function setup(thread)
	thread:set("thread_id", next_id)
	next_id = next_id + 1
end
function request()
	counter = counter + 1
	return wrk.format("PUT", "/cache/put/" .. size .. "/t" .. thread_id .. "-" .. (counter % 1000), nil, body)
end
EOF

[ -f "$out" ] || { mkdir -p "$(dirname "$out")"; printf 'time\tround\tserver\tmethod\tsize\tconnections\trequests\treq_per_s\tcpu_s\tcpu_us_per_req\twrk_cpu_us_per_req\tnon2xx\tload1\tcommit\n' > "$out"; }
commit=${commit:-$(git rev-parse --short HEAD)}

# measure SERVER METHOD SIZE CONNECTIONS URL_BASE PIDS…
measure() {
	local server=$1 method=$2 size=$3 conns=$4 base=$5; shift 5
	local before after log="$run/wrk-$server-$method-$size-$conns.txt" script=() requests rate non2xx load cpu_s per wrk_cpu
	[ "$method" = PUT ] && script=(-s "$run/put.lua")
	load=$(cut -d' ' -f1 /proc/loadavg)
	before=$(ticks "$@")
	# wrk's own CPU time too (the children line of "times" in the subshell that runs it): it shares the cores.
	wrk_cpu=$( { ENTRY_SIZE=$size ENTRY_FILE=$run/entry-$size wrk -t"$threads" -c"$conns" -d"${duration}s" \
		-H "Authorization: $authorization" "${script[@]}" "$base/cache/get/$size" > "$log"; times; } | tail -1 \
		| awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.2f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
	after=$(ticks "$@")
	requests=$(awk '/requests in/ {print $1}' "$log")
	rate=$(awk '/^Requests\/sec/ {print $2}' "$log")
	non2xx=$(awk '/Non-2xx/ {print $NF}' "$log"); non2xx=${non2xx:-0}
	if grep -q 'Socket errors' "$log"; then non2xx="$non2xx;$(grep 'Socket errors' "$log" | tr -d ' ')"; fi
	cpu_s=$(awk -v t=$((after - before)) -v hz="$hz" 'BEGIN {printf "%.2f", t / hz}')
	per=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$requests" 'BEGIN {printf "%.1f", t / hz / n * 1e6}')
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$round" "$server" "$method" \
		"$size" "$conns" "$requests" "$rate" "$cpu_s" "$per" \
		"$(awk -v c="$wrk_cpu" -v n="$requests" 'BEGIN {printf "%.1f", c / n * 1e6}')" "$non2xx" "$load" "$commit" | tee -a "$out"
}

levels() {   # SERVER URL_BASE PIDS…
	local server=$1 base=$2 method size conns; shift 2
	for method in ${methods//,/ }; do
		for size in ${sizes//,/ }; do
			for conns in ${connections//,/ }; do
				measure "$server" "$method" "$size" "$conns" "$base" "$@"
			done
		done
	done
}

start_wharf() {
	wharf_port=$(free_port)
	local management_port ftp_port
	management_port=$(free_port); ftp_port=$(free_port)
	# shellcheck disable=SC2086 # JAVA_OPTS holds several options
	WHARF_BENCH_DIR=$run WHARF_BENCH_HTTP_PORT=$wharf_port WHARF_BENCH_MANAGEMENT_PORT=$management_port \
		WHARF_BENCH_FTP_PORT=$ftp_port WHARF_BENCH_PASSWORD_HASH=$hash WHARF_BENCH_CACHE_SIZE=64MB \
		java ${JAVA_OPTS:-} -jar "$jar" \
		"--spring.config.additional-location=file:$root/load-tests/config/wharf-bench.yaml,file:$root/load-tests/config/wharf-bench-cache-$backend.yaml" \
		> "$run/wharf.log" 2>&1 &
	wharf_pid=$!; pids+=("$wharf_pid")
	await "http://127.0.0.1:$wharf_port/cache" "$wharf_pid" 180 || { tail -40 "$run/wharf.log" >&2; exit 1; }
	for size in ${sizes//,/ }; do
		curl -fsS -o /dev/null -X PUT -H "Authorization: $authorization" --data-binary "@$run/entry-$size" \
			"http://127.0.0.1:$wharf_port/cache/get/$size"
	done
}

start_nginx() {
	nginx_port=$(free_port)
	mkdir -p "$run/nginx"
	# nginx started as root runs its workers as nobody: they read the entries and store the PUTs.
	chmod 755 "$run"
	if [ "$(id -u)" = 0 ]; then chown -R nobody "$run/nginx-cache"; fi
	for size in ${sizes//,/ }; do cp "$run/entry-$size" "$run/nginx-cache/cache/get/$size"; done
	chmod -R a+rX "$run/www" "$run/nginx-cache"
	sed -e "s|@PORT@|$nginx_port|; s|@ROOT@|$run/www|; s|@CACHE@|$run/nginx-cache|; s|@WORKERS@|$(nproc)|" \
		load-tests/peers/nginx.conf > "$run/nginx/nginx.conf"
	nginx -p "$run/nginx" -c "$run/nginx/nginx.conf" -g 'daemon off;' > "$run/nginx.log" 2>&1 &
	nginx_pid=$!; pids+=("$nginx_pid")
	await "http://127.0.0.1:$nginx_port/small.html" "$nginx_pid" 30 || { cat "$run/nginx.log" >&2; exit 1; }
}

echo "== $(nproc) cores, $(uptime), $(java -version 2>&1 | head -1), commit $commit" >&2
for ((round = 1; round <= rounds; round++)); do
	start_wharf
	if ((warmup > 0)); then
		echo "== warming Wharf up for ${warmup}s" >&2
		# Every size in turn, PUT then GET: warmed with one size only, the first run of another size paid for the
		# JIT recompiling its path (C2 at a quarter of the process's CPU), which nginx never pays.
		size_count=$(wc -w <<< "${sizes//,/ }")
		slice=$(((warmup + 2 * size_count - 1) / (2 * size_count)))
		for size in ${sizes//,/ }; do
			ENTRY_SIZE=$size ENTRY_FILE=$run/entry-$size wrk -t"$threads" -c100 -d"${slice}s" \
				-H "Authorization: $authorization" -s "$run/put.lua" "http://127.0.0.1:$wharf_port/cache/x" > /dev/null
			wrk -t"$threads" -c100 -d"${slice}s" -H "Authorization: $authorization" \
				"http://127.0.0.1:$wharf_port/cache/get/$size" > /dev/null
		done
	fi
	levels "wharf-$backend" "http://127.0.0.1:$wharf_port" "$wharf_pid"
	kill "$wharf_pid"; wait "$wharf_pid" 2>/dev/null || true
	if $nginx; then
		start_nginx
		workers=$(pgrep -P "$nginx_pid" | tr '\n' ' ')
		# shellcheck disable=SC2086 # one argument per worker
		levels nginx "http://127.0.0.1:$nginx_port" "$nginx_pid" $workers
		kill "$nginx_pid"; wait "$nginx_pid" 2>/dev/null || true
	fi
done
