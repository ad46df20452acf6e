#!/usr/bin/env bash
# The Socko table (ab -k, 100 concurrent keep-alive connections, an 87-byte, a 200 KB and a 1 MB file)
# for Wharf's static server beside nginx on the same machine, cross-checked with wrk.
#
#   module-static/bench/run.sh            # from the repository root; builds the jar if missing
#
# Environment (all optional):
#   PROFILE=p512     JVM profile from platform-app/src/main/jvm (p96, p128, p512) or "none" (JVM defaults)
#   WARMUP=20        seconds of wrk, then of ab -k, per file against Wharf before measuring (JIT warm-up)
#   DURATION=10      seconds of each wrk cross-check
#   ROUNDS=1         how many times the whole table is measured (servers alternate within a round)
#   CACHE=on         "off" runs Wharf with wharf.static.cache.enabled=false, "metadata" with max-file-size 0
#   PIN=no           "yes": servers on CPU 0, clients on CPU 1 (taskset)
#   WHARF_PORT=38334 NGINX_PORT=38080 JAVA=java
#
# Each row: the server's CPU time per request under ab -k and under wrk (its process and threads, or nginx's
# workers), and the cores other processes used meanwhile (the machine's CPU time minus the server's and the
# client's): a round in which that is not near zero was disturbed and says little about either server.
#
# Needs: nginx (apt-get install nginx), ab (apache2-utils), wrk, curl. Only 127.0.0.1 is used. Both
# servers are started and stopped by this script; results go to a fresh folder printed at the end.
set -euo pipefail

cd "$(dirname "$0")/../.."
repo=$(pwd)
PROFILE=${PROFILE:-p512}
WARMUP=${WARMUP:-20}
DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-1}
CACHE=${CACHE:-on}
PIN=${PIN:-no}
WHARF_PORT=${WHARF_PORT:-38334}
NGINX_PORT=${NGINX_PORT:-38080}
JAVA=${JAVA:-java}
jar=$repo/platform-app/target/wharf.jar

for tool in nginx ab wrk curl; do
	command -v "$tool" > /dev/null || { echo "missing: $tool (apt-get install nginx apache2-utils wrk curl)" >&2; exit 1; }
done
for port in "$WHARF_PORT" "$NGINX_PORT"; do
	if ss -ltn | awk '{print $4}' | grep -q ":$port\$"; then
		echo "port $port is in use; set WHARF_PORT / NGINX_PORT" >&2
		exit 1
	fi
done
if [ ! -f "$jar" ]; then
	./mvnw -q -DskipTests package -pl platform-app -am
fi

work=$(mktemp -d /tmp/wharf-static-bench.XXXXXX)
chmod 755 "$work"  # nginx's workers run as an unprivileged user
mkdir -p "$work/www/static" "$work/run" "$work/state" "$work/results"
# The three files of the Socko table. nginx serves www/static/ at /static/, Wharf serves www/static/ at
# /static/: the same URLs, the same bytes.
head -c 87 /dev/urandom | base64 -w0 | head -c 87 > "$work/www/static/87b.txt"
head -c 204800 /dev/urandom > "$work/www/static/200k.bin"
head -c 1048576 /dev/urandom > "$work/www/static/1m.bin"

wharf_pid=
nginx_pid=
cleanup() {
	[ -n "$wharf_pid" ] && kill "$wharf_pid" 2> /dev/null && wait "$wharf_pid" 2> /dev/null || true
	[ -n "$nginx_pid" ] && kill "$nginx_pid" 2> /dev/null && wait "$nginx_pid" 2> /dev/null || true
}
trap cleanup EXIT

server_cpu=()
client_cpu=()
if [ "$PIN" = yes ]; then
	server_cpu=(taskset -c 0)
	client_cpu=(taskset -c 1)
fi

# The harness's nginx (load-tests/peers/nginx.conf), one worker per core.
mkdir -p "$work/run/cache"
sed -e "s#@ROOT@#$work/www#g" -e "s#@PORT@#$NGINX_PORT#g" -e "s#@CACHE@#$work/run/cache#g" \
	-e "s#@WORKERS@#$(nproc)#g" load-tests/peers/nginx.conf > "$work/nginx.conf"
"${server_cpu[@]}" nginx -c "$work/nginx.conf" -p "$work/run" -g 'daemon off;' &
nginx_pid=$!

case "$CACHE" in
	on) cache="" ;;
	off) cache="--wharf.static.cache.enabled=false" ;;
	metadata) cache="--wharf.static.cache.max-file-size=0" ;;
	*) echo "CACHE must be on, off or metadata" >&2; exit 1 ;;
esac
jvm_options=()
if [ "$PROFILE" != none ]; then
	while read -r line; do
		line=${line%%#*}
		[ -n "${line// /}" ] && jvm_options+=("$line")
	done < "platform-app/src/main/jvm/$PROFILE.options"
	set -a
	# shellcheck disable=SC1090
	. "platform-app/src/main/jvm/$PROFILE.env"
	set +a
fi
(cd "$work" && exec "${server_cpu[@]}" "$JAVA" "${jvm_options[@]}" -jar "$jar" \
	--server.port="$WHARF_PORT" --management.server.port=0 --server.shutdown=immediate --wharf.state-dir="$work/state" \
	--wharf.storage.mounts.bench.type=local --wharf.storage.mounts.bench.root="$work/www/static" \
	"--wharf.static.sites[0].prefix=/static/" "--wharf.static.sites[0].mount=bench" $cache \
	--wharf.buildcache.enabled=false --wharf.filemanager.enabled=false --wharf.ftp.enabled=false \
	> "$work/wharf.log" 2>&1) &
wharf_pid=$!

wait_for() {
	for _ in $(seq 1 240); do
		curl -sf -o /dev/null "$1" && return 0
		kill -0 "$2" 2> /dev/null || break
		sleep 0.5
	done
	echo "not answering: $1 (see $work)" >&2
	exit 1
}
wait_for "http://127.0.0.1:$NGINX_PORT/static/87b.txt" "$nginx_pid"
wait_for "http://127.0.0.1:$WHARF_PORT/static/87b.txt" "$wharf_pid"
cmp <(curl -s "http://127.0.0.1:$NGINX_PORT/static/1m.bin") <(curl -s "http://127.0.0.1:$WHARF_PORT/static/1m.bin")

# CPU time (user + system, in clock ticks) of a process and its children (nginx's workers).
ticks() {
	local total=0 pid
	for pid in "$1" $(pgrep -P "$1" || true); do
		total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
	done
	echo "$total"
}
hz=$(getconf CLK_TCK)
# CPU time of the whole machine (user, nice, system, irq, softirq; in clock ticks), to tell how much of it went
# to processes other than the measured server and client: a round another process disturbed shows there.
busy() {
	awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat
}
# Runs a client and prints its own CPU time in clock ticks (user + system, from bash's time).
timed() {
	local TIMEFORMAT='%U %S' seconds
	seconds=$({ time "$@" > "$out.client" 2>&1; } 2>&1) || true
	awk -v s="$seconds" -v hz="$hz" 'BEGIN {split(s, t, " "); printf "%d", (t[1] + t[2]) * hz}'
}
# Cores used by other processes: the machine's CPU minus the server's and the client's, over the seconds given.
others() {
	awk -v m="$1" -v s="$2" -v c="$3" -v hz="$hz" -v secs="$4" 'BEGIN {o = (m - s - c) / hz / secs; printf "%.2f", (o < 0 ? 0 : o)}'
}

# The JIT compiles what it runs: warm Wharf with both clients (wrk speaks HTTP/1.1, ab HTTP/1.0 keep-alive).
for file in 87b.txt 200k.bin 1m.bin; do
	"${client_cpu[@]}" wrk -t1 -c100 -d"${WARMUP}s" "http://127.0.0.1:$WHARF_PORT/static/$file" > /dev/null
	"${client_cpu[@]}" ab -k -c 100 -t "$WARMUP" -n 10000000 "http://127.0.0.1:$WHARF_PORT/static/$file" > /dev/null 2>&1
	"${client_cpu[@]}" wrk -t1 -c100 -d2s "http://127.0.0.1:$NGINX_PORT/static/$file" > /dev/null
done

table=$work/results/table.md
{
	echo "| file | requests | server | ab -k req/s | failed | keep-alive | CPU µs/request | wrk req/s | wrk CPU µs/request | other CPU, cores (ab, wrk) |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
} > "$table"
for round in $(seq 1 "$ROUNDS"); do
	for spec in 87b.txt:500000 200k.bin:100000 1m.bin:20000; do
		file=${spec%%:*}
		requests=${spec##*:}
		for server in nginx wharf; do
			if [ $server = nginx ]; then port=$NGINX_PORT; pid=$nginx_pid; else port=$WHARF_PORT; pid=$wharf_pid; fi
			url="http://127.0.0.1:$port/static/$file"
			out=$work/results/$round-$server-$file
			before=$(ticks "$pid")
			machine=$(busy)
			client=$(timed "${client_cpu[@]}" ab -k -c 100 -n "$requests" -s 60 "$url")
			mv "$out.client" "$out.ab"
			after=$(ticks "$pid")
			ab_others=$(others $(($(busy) - machine)) $((after - before)) "$client" \
				"$(awk '/Time taken for tests/ {print $5}' "$out.ab")")
			wrk_before=$(ticks "$pid")
			machine=$(busy)
			client=$(timed "${client_cpu[@]}" wrk -t1 -c100 -d"${DURATION}s" "$url")
			mv "$out.client" "$out.wrk"
			wrk_after=$(ticks "$pid")
			wrk_others=$(others $(($(busy) - machine)) $((wrk_after - wrk_before)) "$client" "$DURATION")
			rps=$(awk '/Requests per second/ {print $4}' "$out.ab")
			failed=$(awk '/Failed requests/ {print $3}' "$out.ab")
			keepalive=$(awk '/Keep-Alive requests/ {print $3}' "$out.ab")
			cpu=$(awk -v t=$((after - before)) -v hz="$hz" -v n="$requests" 'BEGIN {printf "%.1f", t * 1e6 / hz / n}')
			wrk_rps=$(awk '/Requests\/sec/ {print $2}' "$out.wrk")
			wrk_cpu=$(awk -v t=$((wrk_after - wrk_before)) -v hz="$hz" -v n="$(awk '/requests in/ {print $1}' "$out.wrk")" \
				'BEGIN {printf "%.1f", t * 1e6 / hz / n}')
			echo "| $file | $requests | $server | $rps | $failed | $keepalive | $cpu | $wrk_rps | $wrk_cpu | $ab_others, $wrk_others |" |
				tee -a "$table"
		done
	done
done

median() {
	# The median of column $3 (counting from 1 between the bars) of the rows for file $1 and server $2.
	awk -F'|' -v f="$1" -v s="$2" -v c="$3" '{gsub(/ /, "")} $2 == f && $4 == s {print $(c + 1)}' "$table" |
		sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
if [ "$ROUNDS" -gt 1 ]; then
	{
		echo
		echo "Medians of $ROUNDS rounds:"
		echo
		echo "| file | server | ab -k req/s | CPU µs/request | wrk req/s | wrk CPU µs/request |"
		echo "|---|---|---|---|---|---|"
		for file in 87b.txt 200k.bin 1m.bin; do
			for server in nginx wharf; do
				echo "| $file | $server | $(median $file $server 4) | $(median $file $server 7) | $(median $file $server 8) |" \
					"$(median $file $server 9) |"
			done
		done
	} | tee -a "$table"
fi

{
	echo
	echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(uname -sr)"
	echo "load before the run ended: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "nginx: $(nginx -v 2>&1 | cut -d/ -f2), config load-tests/peers/nginx.conf"
	echo "Wharf: $("$JAVA" -version 2>&1 | head -1), profile $PROFILE (${jvm_options[*]:-JVM defaults}), cache $CACHE, pinned $PIN"
	echo "ab: $(ab -V | head -1); wrk: -t1 -c100 -d${DURATION}s"
} | tee -a "$table"
echo "results: $work/results"
