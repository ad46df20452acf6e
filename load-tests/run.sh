#!/usr/bin/env bash
# Reproduces one published benchmark table against Wharf (and, in the same run, its peer) and writes the table,
# in the original's shape, to docs/benchmarks/<TABLE>.md with the machine, JDK, profile, flags and command.
#
# usage: load-tests/run.sh TABLE [options]
#
# TABLE                 what it runs                                                     peers in the same run
#   filestash-benchmark   Filestash "Benchmarking results": /, ls, thumbnail at c=1…1000      Filestash (its build)
#                         per profile; / at c=10…4000 with peak RAM; ls over SFTP at c=1000
#   filestash-loadtest    Filestash "Load testing results": static page c=500/2100; ls on     Filestash (its build)
#                         memory and over SFTP at c=100/1000
#   rbcs                  RBCS: PUT and GET req/s, 128 B…64 KiB, 10/100 connections,        nginx (WebDAV PUT/GET)
#                         memory/local/memcached, 1 and 2 CPUs
#   socko                 Socko: 87 B, 200 KB, 1 MB at c=100, with and without keep-alive  nginx
#   pyftpdlib             pyftpdlib's table, driven by ftpbench -b all -n 300 -s 10M       pyftpdlib, vsftpd,
#                                                                                          proftpd, Twisted
#   profiles              p96/p128/p512: start-up, RSS, /actuator/health at c=1…1000 under
#                         each profile's limits (and /static/ with --with-static)
#   plots                 not a table: draws every published table's plots and writes its report again from
#                         docs/benchmarks/results (after a change to the harness's plots or reports)
#   replicas              3 replicas sharing Redis and a folder behind haproxy (round-robin,  1 replica
#                         no stickiness) against 1: ls with one session, build cache PUT and behind haproxy
#                         GET of 4 KiB at c=50, then a mixed level in which one of the three
#                         is killed (SIGKILL); CPU of replicas, Redis and haproxy; and ls of a
#                         memory mount with wrk (cookie session), one Wharf with the local
#                         store against one with Redis
#
# options
#   --profile P[,P…]      JVM profiles from platform-app/src/main/jvm (default: the table's own, see below);
#                         P:SIZE runs a profile under another memory limit, e.g. p96:112M
#   --java DIR            the JDK that runs Wharf (default: $JAVA_HOME, else the java on PATH)
#   --scale X             multiply every request count by X (quick runs; the table says so)
#   --backends B[,B…]     rbcs: memory,local,memcached (default all)
#   --cpus N[,N…]         rbcs: CPU quotas (default 1,2)
#   --runs N              rounds (default 3): each round starts every server of the table afresh, one after
#                         the other (Wharf, then its peers), so that a slower or faster spell of the machine falls
#                         on all of them; the reports give medians with their ranges
#   --warmup N            pyftpdlib: ftpbench runs per server start before the counted one, not counted
#                         (default 0): a JVM server's first runs measure its JIT compiling the login path
#   --keepalive MODE      socko: both (default: each test with keep-alive, like ab -k, and without, like Socko's
#                         ab), on, or off; --no-keepalive is --keepalive off
#   --filestash FILE      the Filestash binary (default: $WHARF_LOADTESTS_FILESTASH, else
#                         ~/.cache/wharf-loadtests/filestash/filestash; build it with load-tests/peers/filestash-build.sh)
#   --no-peers            skip the peers
#   --with-static         profiles: also measure /static/
#   --cds                 start Wharf with bin/wharf --cds (extracted jar + AppCDS on JDK 17, AOT cache on 24+)
#   --memory SIZE         override the profiles' memory limit (e.g. 112M: find a profile's smallest budget)
#   --modules M[,M…]      filestash-*: the modules Wharf runs, of filemanager, ftp, static, buildcache (default
#                         filemanager, as Filestash is a file manager alone); the build cache on a memory mount
#   --hold SECONDS        filestash-benchmark: after the table, ls over SFTP and then a static file (/static/ with
#                         the static module, else /) at c=1000 under wrk for SECONDS each (counted in the results)
#   --unresponsive S      give up on a server that has given no HTTP answer at all for S seconds during a
#                         Gatling run (default 120; 0: never): it is killed, the rest of its levels in that
#                         round fail at once, and the report says so (load-tests/watchdog.sh)
#   --nmt                 run Wharf with Native Memory Tracking (summary) and keep, before each stop, its
#                         VM.native_memory summary and /proc/PID/smaps_rollup in the run folder
#   --note TEXT           a note under the title, e.g. "preliminary, measured while other builds ran"
#   --out DIR             where the Markdown goes (default docs/benchmarks)
#
# Wharf runs from platform-app/target/wharf.jar (built only when missing) through platform-app/bin/wharf, with
# the profile's options and environment, inside a cgroup (v2, or v1 nested under this shell's own) with the profile's memory and CPU
# quota, pinned with taskset to the first cores while the load generator (Gatling, ftpbench) is pinned to the
# others when the machine has cores to spare; every peer gets the same limits and cores. Each level records the
# server's CPU time (its cgroup's counter) and the load generator's. Every process this script starts is
# stopped at the end (SIGTERM, then SIGKILL of its own pids after a timeout). Needs root for cgroups; without
# it, runs without limits and says so in the table. After the run: the plots (docs/benchmarks/plots/), the
# Gatling reports compressed (docs/benchmarks/results/gatling/TABLE.tar.xz), the report and the index.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cd "$root"
export LANG=C.UTF-8 LC_ALL=C.UTF-8

usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit "${1:-2}"; }
[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage 0 ;; esac
table=$1; shift
# The command as the report shows it: without --note (printed above it), --out (where the report goes) and --java
# (the JDK row names the JDK), so that it holds no folder of the machine that ran it.
shown=()

profiles="" java_home=${JAVA_HOME:-} scale=1 backends=memory,local,memcached cpus_list=1,2 runs=3 warmup=0
keepalive=both peers=true with_static=false note="" out_dir=docs/benchmarks memory_override="" cds=false
modules=filemanager hold=0 nmt=false unresponsive=120
filestash_bin=${WHARF_LOADTESTS_FILESTASH:-$HOME/.cache/wharf-loadtests/filestash/filestash}
while [ $# -gt 0 ]; do
	case "$1" in
		--note|--out|--java|--filestash) ;;                              # not shown
		--no-keepalive|--no-peers|--with-static|--cds|--nmt) shown+=("$1") ;;   # flags
		*) shown+=("$1" "${2-}") ;;                                      # options with a value
	esac
	case "$1" in
		--profile) profiles=$2; shift ;;
		--java) java_home=$2; shift ;;
		--scale) scale=$2; shift ;;
		--backends) backends=$2; shift ;;
		--cpus) cpus_list=$2; shift ;;
		--runs) runs=$2; shift ;;
		--warmup) warmup=$2; shift ;;
		--no-keepalive) keepalive=off ;;
		--keepalive) keepalive=$2; shift ;;
		--filestash) filestash_bin=$2; shift ;;
		--no-peers) peers=false ;;
		--with-static) with_static=true ;;
		--note) note=$2; shift ;;
		--memory) memory_override=$2; shift ;;
		--cds) cds=true ;;
		--modules) modules=$2; shift ;;
		--hold) hold=$2; shift ;;
		--unresponsive) unresponsive=$2; shift ;;
		--nmt) nmt=true ;;
		--out) out_dir=$2; shift ;;
		*) echo "unknown option: $1" >&2; usage ;;
	esac
	shift
done
command_line="load-tests/run.sh $table"
[ ${#shown[@]} -eq 0 ] || command_line="$command_line$(printf ' %q' "${shown[@]}")"

case "$table" in
	filestash-benchmark|profiles) profiles=${profiles:-p96,p128,p512} ;;
	filestash-loadtest|pyftpdlib|socko|rbcs|replicas) profiles=${profiles:-p512} ;;
	plots) ;;
	*) echo "unknown table: $table" >&2; usage ;;
esac
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "--runs takes a whole number from 1, not $runs" >&2; usage; }
[[ $warmup =~ ^[0-9]+$ ]] || { echo "--warmup takes a whole number, not $warmup" >&2; usage; }
[[ $hold =~ ^[0-9]+$ ]] || { echo "--hold takes a whole number of seconds, not $hold" >&2; usage; }
[[ $unresponsive =~ ^[0-9]+$ ]] || { echo "--unresponsive takes a whole number of seconds, not $unresponsive" >&2; usage; }
for m in ${modules//,/ }; do
	case "$m" in filemanager|ftp|static|buildcache) ;; *) echo "--modules: unknown module $m (filemanager, ftp, static, buildcache)" >&2; usage ;; esac
done
case "$keepalive" in
	both) keepalive_modes="true false" ;; on) keepalive_modes=true ;; off) keepalive_modes=false ;;
	*) echo "--keepalive takes both, on or off, not $keepalive" >&2; usage ;;
esac

if [ -n "$java_home" ]; then java="$java_home/bin/java"; else java=$(command -v java); fi
[ -x "$java" ] || { echo "no java at $java" >&2; exit 1; }
java=$(readlink -f "$java"); java_home=$(dirname "$(dirname "$java")")
jdk_version=$("$java" -version 2>&1 | head -1)

ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" || true

# ---------------------------------------------------------------------------------------------- build, if needed
jar=platform-app/target/wharf.jar
if [ ! -f "$jar" ] && [ "$table" != plots ]; then
	echo "== building $jar"
	./mvnw -q -DskipTests package -pl platform-app -am
fi
stamp=load-tests/target/.harness-built
if [ ! -f "$stamp" ] || [ ! -f load-tests/target/classpath.txt ] \
		|| [ -n "$(find load-tests/src load-tests/pom.xml -newer "$stamp" -print -quit)" ]; then
	echo "== compiling load-tests"
	./mvnw -q -pl load-tests -Dwharf.loadtests.standalone test-compile dependency:build-classpath \
		-Dmdep.outputFile=target/classpath.txt -Dmdep.includeScope=test
	touch "$stamp"
fi
classpath="$root/load-tests/target/test-classes:$(cat load-tests/target/classpath.txt)"
tool_java=$(command -v java)
tools() { "$tool_java" -cp "$classpath" "$@"; }

if [ "$table" = plots ]; then
	tools dev.wharf.loadtests.harness.Report plots "$out_dir"
	exit
fi

# ---------------------------------------------------------------------------------------------- run folder
run=$root/load-tests/target/runs/$table-$(date -u +%Y%m%d-%H%M%S)
bench=$run/bench
mkdir -p "$run" "$bench"
results=$run/results.tsv
targets=$run/targets.tsv
printf 'name\tprofile\tmemory\tcpus\tserver_cpus\tloadgen_cpus\tstart_s\tpeak_rss_kb\tpeak_cgroup_kb\tflags\toom_kills\n' > "$targets"
skipped=""         # what was not measured, and why (into the report)
cpu_note=""        # CPU seconds of the processes of a table that measures them (into the report)
echo "== run folder: $run"
tools dev.wharf.loadtests.harness.Fixtures "$bench"
password=$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 20)
password_hash=$(printf '%s\n' "$password" | "$java" -jar "$jar" hash-password)

# ---------------------------------------------------------------------------------------------- processes
pids=()            # every process this script started, stopped in reverse order on exit
cgroups=()         # every cgroup it made, removed on exit
companion=()       # a process start() runs beside the next server, in its cgroup (memcached for Wharf)
companion_pid=""
memcached_mb=1024  # memcached's -m as Wharf's backend: every entry of the RBCS table fits

stop_pid() {       # stop_pid PID [seconds]: SIGTERM, wait, then SIGKILL; only our own pids
	local pid=$1 wait=${2:-30} i
	kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < wait * 10; i++)); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
	echo "   pid $pid ignored SIGTERM for ${wait}s: SIGKILL" >&2
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
cleanup() {
	local i
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do stop_pid "${pids[$i]}" 20; done
	for ((i = ${#cgroups[@]} - 1; i >= 0; i--)); do rmdir "${cgroups[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

# ---------------------------------------------------------------------------------------------- cgroups, cpus
ncpu=$(nproc)
cg_mode=none
if [ "$(id -u)" = 0 ]; then
	if [ -f /sys/fs/cgroup/cgroup.controllers ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers; then
		cg_mode=v2
	elif [ -d /sys/fs/cgroup/memory ] && [ -d /sys/fs/cgroup/cpu ]; then
		cg_mode=v1
	fi
fi
[ "$cg_mode" = none ] && echo "!! no usable cgroup (need root and cgroup v1 or v2): running without memory/CPU limits" >&2

# cg_make NAME MEMORY CPUS: a memory and CPU cgroup for one server start; sets server_cg (its folders, every one
# the server joins), server_memcg (the memory folder) and server_cpu_clock (its CPU counter, as the harness's
# CpuClock reads it: cgroup:FILE; empty without cgroups, where start() names the server's pid instead).
cg_make() {
	# A new group per start, also for a name started again (--runs): its peak and OOM kills are that run's.
	local name=${#cgroups[@]}-$1 mem=$2 cpus=$3 quota own m c a
	quota=$(awk -v c="$cpus" 'BEGIN { printf "%d", c * 100000 }')
	server_cg="" server_memcg="" server_cpu_clock=""
	case "$cg_mode" in
		v2)   # a sibling at the root: v2 forbids processes in inner nodes
			echo "+memory +cpu" > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
			m=/sys/fs/cgroup/wharf-bench-$$-$name
			mkdir "$m"; cgroups+=("$m")
			echo "$mem" > "$m/memory.max"; echo 0 > "$m/memory.swap.max" 2>/dev/null || true
			echo "$quota 100000" > "$m/cpu.max"
			server_cg=$m server_memcg=$m server_cpu_clock="cgroup:$m/cpu.stat" ;;
		v1)   # nested under this shell's own groups, never moving anything out of them
			own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ {print $3}' /proc/self/cgroup)
			m=/sys/fs/cgroup/memory${own%/}/wharf-bench-$$-$name
			own=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ {print $3}' /proc/self/cgroup)
			c=/sys/fs/cgroup/cpu${own%/}/wharf-bench-$$-$name
			mkdir "$m" "$c"; cgroups+=("$m" "$c")
			echo "$mem" > "$m/memory.limit_in_bytes"
			echo "$mem" > "$m/memory.memsw.limit_in_bytes" 2>/dev/null || true
			echo 100000 > "$c/cpu.cfs_period_us"; echo "$quota" > "$c/cpu.cfs_quota_us"
			server_cg="$m $c" server_memcg=$m
			# The CPU time: cpuacct, mounted with cpu or as a hierarchy of its own.
			if [ -f "$c/cpuacct.usage" ]; then
				server_cpu_clock="cgroup:$c/cpuacct.usage"
			elif [ -d /sys/fs/cgroup/cpuacct ]; then
				own=$(awk -F: '$2 ~ /(^|,)cpuacct(,|$)/ {print $3}' /proc/self/cgroup)
				a=/sys/fs/cgroup/cpuacct${own%/}/wharf-bench-$$-$name
				mkdir "$a"; cgroups+=("$a")
				server_cg="$server_cg $a" server_cpu_clock="cgroup:$a/cpuacct.usage"
			fi ;;
	esac
}
# cpu_micros CLOCK: the CPU microseconds a server has used so far (as the harness's CpuClock reads them), or
# nothing when unknown. pid:N counts every process of the server's session (run.sh starts each server with
# setsid), with the children they have waited for.
cpu_micros() {
	case "$1" in
		cgroup:*cpu.stat) awk '$1 == "usage_usec" {print $2}' "${1#cgroup:}" 2>/dev/null ;;
		cgroup:*) local ns; ns=$(cat "${1#cgroup:}" 2>/dev/null) && echo $((ns / 1000)) ;;
		pid:*) cat /proc/[0-9]*/stat 2>/dev/null | awk -v sid="${1#pid:}" '
				{ sub(/^.*\) /, ""); if ($4 == sid) ticks += $12 + $13 + $14 + $15 }
				END { printf "%d\n", ticks * 10000 }' ;;
	esac
}
cg_oom_kills() {   # cg_oom_kills "DIRS": how many processes the kernel killed for memory in the group
	local d
	for d in $1; do
		if [ -f "$d/memory.oom_control" ]; then awk '/oom_kill / {print $2}' "$d/memory.oom_control"; return; fi
		if [ -f "$d/memory.events" ]; then awk '/oom_kill / {print $2}' "$d/memory.events"; return; fi
	done
	echo ""
}
cg_peak_kb() {     # cg_peak_kb "DIRS": the memory cgroup's peak usage in KiB
	local d
	for d in $1; do
		if [ -f "$d/memory.max_usage_in_bytes" ]; then echo $(($(cat "$d/memory.max_usage_in_bytes") / 1024)); return; fi
		if [ -f "$d/memory.peak" ]; then echo $(($(cat "$d/memory.peak") / 1024)); return; fi
	done
	echo ""
}

# Cores: the server gets the first N, the load generator the rest, when there is a rest.
layout() {         # layout CPUS -> sets server_cpus, loadgen_cpus, pin_note
	local n=${1%.*}
	[ "$n" -ge 1 ] 2>/dev/null || n=1
	if [ "$n" -lt "$ncpu" ]; then
		server_cpus="0-$((n - 1))"; loadgen_cpus="$n-$((ncpu - 1))"
		pin_note="server on cores $server_cpus, load generator on cores $loadgen_cpus"
	else
		server_cpus="0-$((ncpu - 1))"; loadgen_cpus="0-$((ncpu - 1))"
		pin_note="server (quota $1 CPUs) and load generator share all $ncpu cores: the machine has no core to spare"
	fi
}

profile_memory() {  # the budget from the profile's first comment line ("# 128 MB, 2 cores.") -> 128M
	grep -m1 -oE '[0-9]+ MB' "platform-app/src/main/jvm/$1.options" | head -1 | tr -d ' B'
}
profile_cpus() { grep -m1 -oE '[0-9]+ cores?' "platform-app/src/main/jvm/$1.options" | head -1 | grep -oE '[0-9]+'; }

# start NAME MEMORY CPUS LOGFILE -- COMMAND...: starts a server in its own cgroup, pinned; sets server_pid,
# server_cg, server_cpu_clock, sampler_pid. With companion=(COMMAND...) set, that process (memcached as Wharf's
# backend) starts first in the same cgroup, on the same cores: its CPU and memory count as the server's. Every
# 250 ms the memory of every process in the cgroup (without one: the server and its children) and the cgroup's own
# usage are sampled to $run/rss-NAME.tsv. The log and the samples are appended to: a server started again
# (--runs) keeps every run's.
start() {
	local name=$1 mem=$2 cpus=$3 log=$4; shift 5
	layout "$cpus"
	cg_make "$name" "$mem" "$cpus"
	companion_pid=""
	if [ "${#companion[@]}" -gt 0 ]; then
		CG_DIRS="$server_cg" setsid bash -c 'for d in $CG_DIRS; do echo $$ > "$d/cgroup.procs"; done; exec "$@"' _ \
			taskset -c "$server_cpus" "${companion[@]}" >> "$run/$name-companion.log" 2>&1 &
		companion_pid=$!; pids+=("$companion_pid")
		sleep 0.5
	fi
	CG_DIRS="$server_cg" setsid bash -c 'for d in $CG_DIRS; do echo $$ > "$d/cgroup.procs"; done; exec "$@"' _ \
		taskset -c "$server_cpus" "$@" >> "$log" 2>&1 &
	server_pid=$!; pids+=("$server_pid")
	[ -n "$server_cpu_clock" ] || server_cpu_clock="pid:$server_pid"
	local rss=$run/rss-$name.tsv memcg=$server_memcg
	(
		while kill -0 "$server_pid" 2>/dev/null; do
			if [ -n "$memcg" ]; then
				procs=$(paste -sd, "$memcg/cgroup.procs" 2>/dev/null)
				kb=$(if [ -n "$procs" ]; then ps -o rss= -p "$procs" 2>/dev/null; fi | awk '{s += $1} END {print s + 0}')
				usage=$(cat "$memcg/memory.usage_in_bytes" 2>/dev/null || cat "$memcg/memory.current" 2>/dev/null || echo 0)
				echo "$(date +%s%3N)	$kb	$((usage / 1024))"
			else
				kb=$(ps -o rss= -p "$server_pid" --ppid "$server_pid" 2>/dev/null | awk '{s += $1} END {print s + 0}')
				echo "$(date +%s%3N)	$kb"
			fi
			sleep 0.25
		done
	) >> "$rss" &
	sampler_pid=$!; pids+=("$sampler_pid")
}
peak_rss_kb() { awk 'BEGIN {m = 0} $2 > m {m = $2} END {print m}' "$run/rss-$1.tsv"; }   # over all its runs so far

# stop_server NAME PROFILE MEMORY CPUS START_S FLAGS: stops it (and its companion) and records the target line (one
# per run of the name; the report merges them into one row).
stop_server() {
	local cg_kb oom
	cg_kb=$(cg_peak_kb "$server_cg")
	oom=$(cg_oom_kills "$server_cg")
	stop_pid "$server_pid" 30
	[ -z "$companion_pid" ] || stop_pid "$companion_pid" 10
	stop_pid "$sampler_pid" 2
	[ "${oom:-0}" -gt 0 ] 2>/dev/null && echo "!! $1: the kernel killed it for memory ($oom OOM kills in its cgroup, limit $3)" >&2
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$server_cpus" "$loadgen_cpus" "$5" \
		"$(peak_rss_kb "$1")" "$cg_kb" "$6" "$oom" >> "$targets"
}

# mebibytes SIZE: 512M, 1G, 96m… in MiB
mebibytes() {
	local n=${1%[KkMmGg]}
	case "$1" in *[Gg]) echo $((n * 1024)) ;; *[Kk]) echo $((n / 1024)) ;; *[Mm]) echo "$n" ;; *) echo $((n / 1048576)) ;; esac
}

# once NAME: false when NAME failed to start or answer in an earlier round (it is not tried again)
declare -A gave_up=()
once() { [ -z "${gave_up[$1]:-}" ]; }

# probe NAME WHAT CURL_ARGS…: true when the module answers; otherwise records why the table skips it.
probe() {
	local name=$1 what=$2 code; shift 2
	code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@" || true)
	case "$code" in
		2??|401|403|409) return 0 ;;
	esac
	echo "!! $name: $what answered HTTP $code: its module is off or missing, skipping" >&2
	skipped="$skipped; $name: $what answered HTTP $code (module off or missing), not measured"
	gave_up[$name]=1
	return 1
}

await_port() {     # await_port PORT PID SECONDS: true once something accepts connections on 127.0.0.1:PORT
	local port=$1 pid=$2 seconds=$3 i
	for ((i = 0; i < seconds * 4; i++)); do
		kill -0 "$pid" 2>/dev/null || return 1
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
		sleep 0.25
	done
	return 1
}

await_http() {     # await_http URL PID SECONDS
	local url=$1 pid=$2 seconds=$3 i
	for ((i = 0; i < seconds * 4; i++)); do
		kill -0 "$pid" 2>/dev/null || return 1
		curl -sf -o /dev/null --max-time 2 "$url" && return 0
		sleep 0.25
	done
	return 1
}

# wharf_start NAME PROFILE [CPUS] [OVERLAY…]: Wharf through platform-app/bin/wharf (the profile's options and
# environment, --cds when asked), inside the profile's limits.
wharf_start() {
	local name=$1 profile=${2%%:*} cpus=${3:-} overlays="" o mem
	mem=${memory_override:-$(profile_memory "$profile")}
	case "$2" in *:*) mem=${2#*:} ;; esac   # p96:112M runs a profile under another limit
	shift 2; [ $# -gt 0 ] && shift
	# wharf-bench.yaml's build cache needs a "cache" mount: a memory one unless the table names another. It goes
	# before the table's own overlays, which override it: after them, its "buildcache.enabled: true" switched the
	# build cache back on in the file-manager-only runs of the Filestash tables.
	case " $* " in *" wharf-bench-cache-"*) ;; *) set -- wharf-bench-cache-memory.yaml "$@" ;; esac
	for o in wharf-bench.yaml "$@"; do
		case "$o" in /*) overlays="$overlays,file:$o" ;; *) overlays="$overlays,file:$root/load-tests/config/$o" ;; esac
	done
	# memcached as the build cache's backend runs inside Wharf's cgroup, started afresh with it: its CPU counts in
	# Wharf's CPU per request, its memory in Wharf's; the memory limit grows by memcached's own -m, which holds
	# every entry a table stores.
	companion=()
	case " $* " in
		*" wharf-bench-cache-memcached.yaml "*)
			memcached_port=$(free_port)
			companion=(memcached -l 127.0.0.1 -p "$memcached_port" -U 0 -m "$memcached_mb" -c 4096 -t 2 -u "$(id -un)")
			mem="$(($(mebibytes "$mem") + memcached_mb))M" ;;
	esac
	cpus=${cpus:-$(profile_cpus "$profile")}
	http_port=$(free_port); ftp_port=$(free_port)
	wharf_url=http://127.0.0.1:$http_port
	local launcher=("$root/platform-app/bin/wharf" --profile "$profile" --java "$java_home")
	# Native Memory Tracking costs memory of its own (a header per malloc, its tables), charged to the same limit.
	$nmt && launcher=(env JAVA_OPTS="${JAVA_OPTS:+$JAVA_OPTS }-XX:NativeMemoryTracking=summary" "${launcher[@]}")
	if $cds; then
		# The archive is written outside the limits: dumping it needs more memory than serving (OOM-killed at 112 MB).
		"${launcher[@]}" --cds-prepare || echo "!! $name: no class-data archive; starting without" >&2
		launcher+=(--cds)
	fi
	# What bin/wharf runs, for the report: its environment and JVM options.
	wharf_flags=$("${launcher[@]}" --dry-run 2>/dev/null | sed -E "s| -jar .*||; s|^$java ||" | tr '\n' ' ')
	# The class-data archive leaves the page cache before each start: Wharf's own reads of it then charge its
	# pages to Wharf's cgroup, as they would in a fresh container, instead of to whoever read it first.
	local archive
	archive=$(grep -oE -- '-XX:(SharedArchiveFile|AOTCache)=[^ ]+' <<< "$wharf_flags" | cut -d= -f2- || true)
	if [ -n "$archive" ] && [ -f "$archive" ]; then
		sync "$archive"; dd if="$archive" iflag=nocache count=0 status=none || true
	fi
	echo "== $name: Wharf, profile $profile ($mem, $cpus CPUs$($cds && echo ', AppCDS/AOT cache')$([ ${#companion[@]} -eq 0 ] || echo ", memcached -m $memcached_mb in its cgroup")), $jdk_version"
	start "$name" "$mem" "$cpus" "$run/$name.log" -- env \
		WHARF_BENCH_DIR="$bench" WHARF_BENCH_HTTP_PORT="$http_port" WHARF_BENCH_FTP_PORT="$ftp_port" \
		WHARF_BENCH_FTP_PASSIVE_PORTS="${ftp_passive:-30000-30099}" WHARF_BENCH_PASSWORD_HASH="$password_hash" \
		WHARF_BENCH_CACHE_SIZE="${cache_size:-16MB}" WHARF_BENCH_MEMCACHED_PORT="${memcached_port:-0}" \
		WHARF_BENCH_SSHD_PORT="${sshd_port:-0}" WHARF_BENCH_SSHD_USER="$(id -un)" \
		WHARF_BENCH_REDIS_PORT="${redis_port:-0}" \
		"${launcher[@]}" "--spring.config.additional-location=${overlays#,}"
	companion=()
	if ! await_http "$wharf_url/actuator/health" "$server_pid" 180; then
		echo "!! $name did not become healthy; its log:" >&2; tail -40 "$run/$name.log" >&2
		stop_server "$name" "$profile" "$mem" "$cpus" "did not start" "$wharf_flags"
		local reason
		reason=$(grep -A12 'APPLICATION FAILED TO START' "$run/$name.log" | grep -E 'Property:|Reason:' \
			| sed 's/^ *//; s/  */ /g' | tr '\n' ' ' || true)
		skipped="$skipped; $name: did not start under $mem (${reason:-killed: see its OOM kills})"
		gave_up[$name]=1
		return 1
	fi
	wharf_start_s=$(grep -oE 'Started WharfApplication in [0-9.]+ seconds' "$run/$name.log" | grep -oE '[0-9.]+' | tail -1)
	wharf_mem=$mem wharf_cpus=$cpus wharf_profile=$profile
	echo "   up in ${wharf_start_s:-?} s on $wharf_url ($pin_note)"
}
wharf_stop() {
	# Where the memory went, before the stop: the cgroup's own account (anonymous, file pages), the process's mappings
	# and, with --nmt, the JVM's.
	if kill -0 "$server_pid" 2>/dev/null; then
		[ -z "$server_memcg" ] || cp "$server_memcg/memory.stat" "$run/memory-stat-$1.txt" 2>/dev/null || true
		cp "/proc/$server_pid/smaps_rollup" "$run/smaps-rollup-$1.txt" 2>/dev/null || true
		$nmt && { timeout 30 jcmd "$server_pid" VM.native_memory summary > "$run/nmt-$1.txt" 2>&1 || true; }
	fi
	stop_server "$1" "$wharf_profile" "$wharf_mem" "$wharf_cpus" "${wharf_start_s:-}" "$wharf_flags"
}

# gatling SIMULATION TARGET BASE_URL [-Dname=value…]: one simulation, pinned to the load generator's cores, with
# the CPU clock of the server started last (each level records its CPU time and Gatling's own). Its log is
# appended to (--runs runs it again); the summary printed is this run's.
gatling() {
	local simulation=$1 target=$2 url=$3 log=$run/gatling-$2-$1.log from=1; shift 3
	if [ -f "$log" ]; then from=$(($(wc -l < "$log") + 1)); fi
	echo "-- $simulation against $target"
	# A server that stops answering without dying would keep Gatling waiting out every request of every level left.
	local marker=$run/unresponsive-$target watchdog_pid=""
	rm -f "$marker"
	if ((unresponsive > 0)) && [ -n "${server_pid:-}" ] && kill -0 "$server_pid" 2>/dev/null; then
		"$here/watchdog.sh" "$url/" "$server_pid" "$unresponsive" "$marker" >> "$run/watchdog.log" 2>&1 &
		watchdog_pid=$!; pids+=("$watchdog_pid")
	fi
	taskset -c "$loadgen_cpus" "$tool_java" -Xms512m -Xmx1g -XX:+UseParallelGC --add-opens=java.base/java.lang=ALL-UNNAMED --enable-native-access=ALL-UNNAMED \
		-DbaseUrl="$url" -Dtarget="$target" -Dresults="$results" -Dscale="$scale" -Duser=bench -Dpassword="$password" \
		-DserverCpu="$server_cpu_clock" -DloadgenCpu=self "$@" -cp "$classpath" io.gatling.app.Gatling -s "dev.wharf.loadtests.simulations.$simulation" \
		-rf "$run/gatling" >> "$log" 2>&1 || echo "!! Gatling exited with $? (see $log)" >&2
	[ -z "$watchdog_pid" ] || stop_pid "$watchdog_pid" 5
	tail -n +"$from" "$log" | grep -E "^[a-z-]+ $target " | sed 's/^/   /' || true
	# Not given up on: the next round starts it afresh, so that every server runs as many rounds.
	if [ -f "$marker" ]; then
		echo "!! $target: $(cat "$marker"); the rest of its levels in this round failed at once" >&2
		case "$skipped" in *"; $target: stopped answering"*) ;; *)
			skipped="$skipped; $target: stopped answering in $simulation, the harness's watchdog killed it ($(cat "$marker")); its levels after that in the round count as failed" ;;
		esac
	fi
}

# ---------------------------------------------------------------------------------------------- peers
nginx_start() {    # nginx_start NAME CPUS: nginx on the fixtures, under the same limits as Wharf
	local name=$1 cpus=$2 dir=$run/nginx-$1 port
	port=$(free_port); mkdir -p "$dir" "$bench/nginx-cache"
	# nginx started as root runs its workers as nobody; they store the PUTs.
	if [ "$(id -u)" = 0 ]; then chown nobody "$bench/nginx-cache"; fi
	sed -e "s|@PORT@|$port|; s|@ROOT@|$bench/www|; s|@CACHE@|$bench/nginx-cache|; s|@WORKERS@|${cpus%.*}|" \
		load-tests/peers/nginx.conf > "$dir/nginx.conf"
	echo "== $name: $(nginx -v 2>&1), $cpus CPUs"
	start "$name" "${peer_mem:-512M}" "$cpus" "$run/$name.log" -- nginx -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;'
	nginx_url=http://127.0.0.1:$port
	if ! await_http "$nginx_url/small.html" "$server_pid" 30; then
		echo "!! nginx did not start" >&2; tail "$run/$name.log" >&2
		stop_pid "$server_pid" 5; stop_pid "$sampler_pid" 2   # not left running beside the servers started after it
		return 1
	fi
}
nginx_stop() { stop_server "$1" "-" "${peer_mem:-512M}" "$2" "" "$(nginx -v 2>&1 | sed 's/.*: //'), worker_processes ${2%.*}"; }

sshd_start() {     # an OpenSSH server for the sftp mount; not limited, like the original's
	local dir=$bench/ssh
	mkdir -p "$dir"; chmod 700 "$dir"
	[ -f "$dir/ssh_host_ed25519_key" ] || ssh-keygen -q -t ed25519 -N '' -f "$dir/ssh_host_ed25519_key"
	[ -f "$dir/id_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -f "$dir/id_ed25519"
	cp "$dir/id_ed25519.pub" "$dir/authorized_keys"
	sshd_port=$(free_port)
	echo "127.0.0.1 $(cat "$dir/ssh_host_ed25519_key.pub" | cut -d' ' -f1-2)" > "$dir/known_hosts"
	echo "[127.0.0.1]:$sshd_port $(cut -d' ' -f1-2 "$dir/ssh_host_ed25519_key.pub")" >> "$dir/known_hosts"
	sed -e "s|@PORT@|$sshd_port|; s|@DIR@|$dir|g" load-tests/peers/sshd_config > "$dir/sshd_config"
	mkdir -p /run/sshd
	/usr/sbin/sshd -D -e -f "$dir/sshd_config" > "$run/sshd.log" 2>&1 &
	pids+=("$!")
	echo "== sshd on 127.0.0.1:$sshd_port ($(ssh -V 2>&1))"
}


# filestash_start NAME MEMORY CPUS: Filestash (the binary load-tests/peers/filestash-build.sh makes) under the given
# limits, its data folder in the run folder; its blackhole and sftp backends allowed, its request log off (Wharf
# logs no request either), bound to 127.0.0.1. Sets filestash_url.
filestash_start() {
	local name=$1 mem=$2 cpus=$3 dir=$run/$1-data port secret
	port=$(free_port)
	secret=$(head -c 48 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 16)
	mkdir -p "$dir/state/config"
	python3 - "$dir/state/config/config.json" "$port" "$secret" "${password_hash#\{bcrypt\}}" <<'EOF'
import json, sys
path, port, secret, admin = sys.argv[1:5]
json.dump({
    "general": {"port": int(port), "host": "127.0.0.1:" + port, "secret_key": secret},
    "log": {"enable": False, "telemetry": False},
    "auth": {"admin": admin},
    "connections": [{"type": "blackhole", "label": "blackhole"},
                    {"type": "sftp", "label": "sftp", "hostname": "127.0.0.1"}],
}, open(path, "w"), indent=2)
EOF
	echo "== $name: $filestash_version ($mem, $cpus CPUs)"
	start "$name" "$mem" "$cpus" "$run/$name.log" -- env FILESTASH_PATH="$dir" FILESTASH_BIND_ADDR=127.0.0.1 \
		FILESTASH_PORT="$port" "$filestash_bin"
	filestash_url=http://127.0.0.1:$port
	if ! await_http "$filestash_url/" "$server_pid" 60; then
		echo "!! $name did not start; its log:" >&2; tail -20 "$run/$name.log" >&2
		stop_server "$name" - "$mem" "$cpus" "did not start" "$filestash_version"
		skipped="$skipped; $name: did not start under $mem"
		gave_up[$name]=1
		return 1
	fi
}
# The login bodies of Filestash's sessions: one per backend (Filestash logs in per backend), each seeing its
# folder as /: blackhole (six fake entries) and sftp to the same OpenSSH server and folder as Wharf's sftp mount.
filestash_sessions() {
	filestash_memory_session='{"type":"blackhole"}'
	filestash_sftp_session=$(python3 -c 'import json, sys
print(json.dumps({"type": "sftp", "hostname": "127.0.0.1", "port": sys.argv[1], "username": sys.argv[2],
                  "password": open(sys.argv[3]).read(), "path": sys.argv[4]}))' \
		"$sshd_port" "$(id -un)" "$bench/ssh/id_ed25519" "$bench/files/")
}
filestash_check() {   # true when the Filestash peer can run; otherwise says why in the report
	$peers || return 1
	if [ ! -x "$filestash_bin" ]; then
		echo "!! no Filestash binary at $filestash_bin: build it with load-tests/peers/filestash-build.sh (see load-tests/README.md); its columns stay empty" >&2
		skipped="$skipped; Filestash: no binary (load-tests/peers/filestash-build.sh builds it), not measured"
		return 1
	fi
	filestash_version="Filestash $(cat "$filestash_bin.version" 2>/dev/null || echo '(build unknown)'), log.enable=false"
}

redis_start() {    # a redis-server for the replicas' shared state; not limited, like memcached
	redis_port=$(free_port)
	redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$run" \
		> "$run/redis.log" 2>&1 &
	redis_pid=$!; pids+=("$redis_pid")
	for ((i = 0; i < 100; i++)); do (exec 3<>"/dev/tcp/127.0.0.1/$redis_port") 2>/dev/null && break; sleep 0.1; done
	echo "== $(redis-server --version | cut -d' ' -f1-3) on 127.0.0.1:$redis_port"
}

# haproxy_start NAME PORT…: round-robin over the ports, each request on its own (no stickiness), the servers'
# readiness checked every 500 ms (two failures take one out); a request whose connection fails goes to another,
# one a server took and died on fails (as through a Kubernetes Service). Sets haproxy_url, haproxy_pid.
haproxy_start() {
	local name=$1 port i=0 p; shift
	port=$(free_port)
	{
		printf 'global\n    maxconn 4096\ndefaults\n    mode http\n    timeout connect 2s\n    timeout client 120s\n'
		printf '    timeout server 120s\n    timeout http-keep-alive 10s\n    retries 3\n    option redispatch\n'
		printf '    retry-on conn-failure\nfrontend wharf\n    bind 127.0.0.1:%s\n    default_backend replicas\n' "$port"
		printf 'backend replicas\n    balance roundrobin\n    option httpchk GET /actuator/health/readiness\n'
		printf '    http-check expect status 200\n'
		for p; do i=$((i + 1)); printf '    server replica%d 127.0.0.1:%s check inter 500ms fall 2 rise 2\n' "$i" "$p"; done
	} > "$run/haproxy-$name.cfg"
	haproxy -db -f "$run/haproxy-$name.cfg" > "$run/haproxy-$name.log" 2>&1 &
	haproxy_pid=$!; pids+=("$haproxy_pid")
	haproxy_url=http://127.0.0.1:$port
	await_http "$haproxy_url/actuator/health/readiness" "$haproxy_pid" 30 || { echo "!! haproxy did not start" >&2; return 1; }
	sleep 1.5   # every server through its first checks, so the rotation holds all of them
	echo "== $name: $(haproxy -v | head -1 | cut -d' ' -f1-3) on $haproxy_url, round-robin over $# replica(s)"
}

# cpu_watch FILE PID…: every half second, one line of each process's user+system clock ticks ("-" once gone), so
# a process killed in the middle keeps its last count. Sets cpu_watch_pid.
cpu_watch() {
	local file=$1; shift
	(
		while :; do
			line=""
			for p in "$@"; do line="$line $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo -)"; done
			echo "$(date +%s%3N)$line"
			sleep 0.5
		done
	) > "$file" &
	cpu_watch_pid=$!; pids+=("$cpu_watch_pid")
}
cpu_seconds() {   # cpu_seconds FILE COLUMN…: CPU seconds of those columns (processes) between the first and last line
	local file=$1; shift
	awk -v cols="$*" -v hz="$(getconf CLK_TCK)" 'BEGIN { n = split(cols, c, " ") }
		{ for (i = 1; i <= n; i++) { v = $(c[i] + 1); if (v != "-") { if (!(c[i] in first)) first[c[i]] = v; last[c[i]] = v } } }
		END { s = 0; for (k in first) s += last[k] - first[k]; printf "%.1f", s / hz }' "$file"
}
wall_seconds() { awk 'NR == 1 {a = $1} {b = $1} END {printf "%.0f", (b - a) / 1000}' "$1"; }

# wrk_prepare URL: logs in (sets wrk_cookie) and puts six files into the memory mount, for wrk_ls.
wrk_prepare() {
	local url=$1 f
	wrk_cookie=$(curl -s -o /dev/null -D - -H 'Content-Type: application/json' -H 'X-Requested-With: XmlHttpRequest' \
		-d "{\"username\":\"bench\",\"password\":\"$password\"}" "$url/api/session" | sed -n 's/^[Ss]et-[Cc]ookie: \(auth=[^;]*\).*/\1/p')
	for f in a b c d e f; do
		curl -s -o /dev/null -H "Cookie: $wrk_cookie" -H 'X-Requested-With: XmlHttpRequest' --data-binary "$f" \
			"$url/api/files/save?path=%2Fmemory%2F$f.bin"
	done
}

# wrk_ls NAME URL COOKIE SECONDS [warm-up]: ls of the memory mount with the session cookie under wrk (2 threads, 50
# connections) on the load generator's cores; unless a warm-up, its counts and percentiles go to the results as
# the part "ls (wrk)".
wrk_line() {       # wrk_line URL COOKIE SECONDS CONNECTIONS: wrk's summary line ("wrk-ls requests failed p50 p95 p99")
	WRK_COOKIE=$2 taskset -c "$loadgen_cpus" wrk -t2 -c"$4" -d"${3}s" --timeout 60s -s "$root/load-tests/config/wrk-ls.lua" \
		"$1" | grep '^wrk-ls' || true
}
wrk_ls() {
	local name=$1 url=$2 cookie=$3 seconds=$4 start_ms end_ms line
	start_ms=$(date +%s%3N)
	line=$(wrk_line "$url/api/files/ls?path=%2Fmemory%2F" "$cookie" "$seconds" 50)
	end_ms=$(date +%s%3N)
	[ $# -gt 4 ] && return 0
	[ -n "$line" ] || { echo "!! wrk printed no summary for $name" >&2; return 0; }
	# wrk-ls requests failed p50 p95 p99 (µs) -> a results line (table target part c requests ok failed start end p50 p95 p99)
	echo "$line" | awk -v t="$name" -v s="$start_ms" -v e="$end_ms" 'BEGIN {OFS = "\t"}
		{ print "replicas", t, "ls (wrk)", 50, $2, $2 - $3, $3, s, e, $4, $5, $6 }' >> "$results"
	echo "$line" | awk -v t="$name" -v ms=$((end_ms - start_ms)) '{printf "   ls (wrk) %s: %d requests, %d failed, %.0f req/s, p50 %.2f ms, p99 %.2f ms\n", t, $2, $3, ($2 - $3) * 1000 / ms, $4 / 1000, $6 / 1000}'
}

# wrk_hold NAME: --hold: ls over SFTP, then a static file, at c=1000 under wrk for $hold seconds each, with the
# session of wrk_prepare; one line each into $run/hold.tsv (target part seconds requests failed p50 p95 p99 in µs).
wrk_hold() {
	local name=$1 part path line
	[ -f "$run/hold.tsv" ] || printf 'target\tpart\tseconds\trequests\tfailed\tp50_us\tp95_us\tp99_us\n' > "$run/hold.tsv"
	wrk_prepare "$wharf_url"
	for part in ls static; do
		path="/api/files/ls?path=%2Fsftp%2F"
		if [ "$part" = static ]; then
			path=/; case ",$modules," in *,static,*) path=/static/small.html ;; esac
		fi
		echo "-- wrk $part ($path) at c=1000 for ${hold}s against $name"
		line=$(wrk_line "$wharf_url$path" "$wrk_cookie" "$hold" 1000)
		[ -n "$line" ] || { echo "!! wrk printed no summary for $name $part" >&2; continue; }
		echo "$line" | awk -v t="$name" -v p="$part $path" -v s="$hold" 'BEGIN {OFS = "\t"} {print t, p, s, $2, $3, $4, $5, $6}' >> "$run/hold.tsv"
		echo "$line" | awk -v s="$hold" '{printf "   %d requests, %d failed, %.0f req/s, p50 %.1f ms, p99 %.1f ms\n", $2, $3, ($2 - $3) / s, $4 / 1000, $6 / 1000}'
	done
}

# ---------------------------------------------------------------------------------------------- tables
gatling_jvm_note="Gatling 3.15.1, -Xmx1g -XX:+UseParallelGC"
fairness=""        # what the report says about how the servers were made comparable, beyond the same limits
round_note() { ((runs == 1)) || echo "== round $1 of $runs"; }
session_probe() {  # session_probe NAME URL: the file manager's login answers
	probe "$1" "POST /api/session" -X POST -H 'Content-Type: application/json' -H 'X-Requested-With: XmlHttpRequest' \
		-d "{\"username\":\"bench\",\"password\":\"$password\"}" "$2/api/session"
}

case "$table" in
	profiles)
		# The profiles take turns, round after round.
		for ((round = 1; round <= runs; round++)); do
			round_note "$round"
			for profile in ${profiles//,/ }; do
				name="wharf-${profile/:/@}"
				once "$name" && wharf_start "$name" "$profile" || continue
				gatling ActuatorSimulation "$name" "$wharf_url" -Dlevels=1,10,100,1000 -Drequests=20000
				$with_static && gatling SockoSimulation "$name" "$wharf_url" \
					-Dfiles=small.html:87:100000,medium.bin:204800:20000,large.bin:1048576:5000
				wharf_stop "$name"
			done
		done ;;

	filestash-benchmark|filestash-loadtest)
		# Each round: per profile, Wharf, then Filestash under the same limits and cores with the same requests.
		sshd_start
		# The modules Wharf runs (--modules): the file manager alone unless asked, as Filestash is one.
		modules_overlay=wharf-bench-filemanager-only.yaml
		if [ "$modules" != filemanager ]; then
			modules_overlay=$run/wharf-modules.yaml
			{
				echo "# --modules $modules"
				echo "wharf:"
				for m in filemanager ftp static buildcache; do
					on=false; case ",$modules," in *",$m,"*) on=true ;; esac
					printf '  %s:\n    enabled: %s\n' "$m" "$on"
				done
			} > "$modules_overlay"
		fi
		with_filestash=false filestash_memory_session="" filestash_sftp_session=""
		if filestash_check; then with_filestash=true; filestash_sessions; fi
		if [ "$table" = filestash-benchmark ]; then
			simulation=FilestashBenchmarkSimulation
			filestash_args=(-DsftpSession="$filestash_sftp_session" -DlsPath=/ -DthumbnailPath=/screenshot.png -DstaticPath=/)
		else
			simulation=FilestashLoadTestSimulation profiles=${profiles%%,*}
			filestash_args=(-DmemorySession="$filestash_memory_session" -DsftpSession="$filestash_sftp_session"
				-DlsMemoryPath=/ -DlsSftpPath=/ -DstaticPath=/)
		fi
		for ((round = 1; round <= runs; round++)); do
			round_note "$round"
			for profile in ${profiles//,/ }; do
				suffix=${profile/:/@}
				if once "wharf-$suffix" && wharf_start "wharf-$suffix" "$profile" "" wharf-bench-sftp.yaml \
						"$modules_overlay"; then
					session_probe "wharf-$suffix" "$wharf_url" && gatling "$simulation" "wharf-$suffix" "$wharf_url"
					if ((hold > 0)) && [ "$table" = filestash-benchmark ] && [ -z "${gave_up[wharf-$suffix]:-}" ]; then
						wrk_hold "wharf-$suffix"
					fi
					peer_mem=$wharf_mem peer_cpus=$wharf_cpus
					wharf_stop "wharf-$suffix"
				else
					peer_mem=${memory_override:-$(profile_memory "${profile%%:*}")} peer_cpus=$(profile_cpus "${profile%%:*}")
					case "$profile" in *:*) peer_mem=${profile#*:} ;; esac
				fi
				if $with_filestash && once "filestash-$suffix" && filestash_start "filestash-$suffix" "$peer_mem" "$peer_cpus"; then
					gatling "$simulation" "filestash-$suffix" "$filestash_url" "${filestash_args[@]}"
					stop_server "filestash-$suffix" - "$peer_mem" "$peer_cpus" "" "$filestash_version"
				fi
			done
		done ;;

	socko)
		# Each round: Wharf, then nginx, each started afresh, each test with and without keep-alive (--keepalive).
		profile=${profiles%%,*}
		cpus=$(profile_cpus "$profile")
		peer_mem=$(profile_memory "$profile")
		for ((round = 1; round <= runs; round++)); do
			round_note "$round"
			if once "wharf-$profile" && wharf_start "wharf-$profile" "$profile"; then
				if probe "wharf-$profile" "GET /static/small.html" "$wharf_url/static/small.html"; then
					for mode in $keepalive_modes; do
						gatling SockoSimulation "wharf-$profile" "$wharf_url" -DkeepAlive="$mode"
					done
				fi
				wharf_stop "wharf-$profile"
			fi
			if $peers && once nginx; then
				if nginx_start nginx "$cpus"; then
					for mode in $keepalive_modes; do
						gatling SockoSimulation nginx "$nginx_url" -DkeepAlive="$mode" -DpathPrefix=/
					done
					nginx_stop nginx "$cpus"
				else
					gave_up[nginx]=1
				fi
			fi
		done ;;

	rbcs)
		# Each round: every backend and CPU quota of Wharf, then nginx at each quota. Every server stores the same
		# entries per level: 10,000, and of 64 KiB values 2,048 (128 MiB: what the memory backend holds in p512's heap).
		profile=${profiles%%,*}
		rbcs_args=(-Dentries=10000 -DmaxBytes=128M)
		fairness="memcached, as Wharf's backend, runs inside Wharf's cgroup, started afresh with each Wharf start: on the same cores and under the same CPU quota (its CPU counts in Wharf's CPU per request) with the memory limit raised by its own -m $memcached_mb (its memory counts in Wharf's RSS and cgroup peak)."
		for ((round = 1; round <= runs; round++)); do
			round_note "$round"
			for backend in ${backends//,/ }; do
				for cpus in ${cpus_list//,/ }; do
					name="wharf-$backend-${cpus}cpu"
					# The memory mount may hold 3/4 of the heap: 160 MB holds one level's 128 MiB.
					[ "$backend" = memory ] && cache_size=160MB
					once "$name" && wharf_start "$name" "$profile" "$cpus" "wharf-bench-cache-$backend.yaml" || continue
					probe "$name" "PUT /cache/probe" -X PUT -u "bench:$password" --data-binary probe "$wharf_url/cache/probe" \
						&& gatling RbcsSimulation "$name" "$wharf_url" "${rbcs_args[@]}"
					wharf_stop "$name"
				done
			done
			if $peers; then
				peer_mem=$(profile_memory "$profile")
				for cpus in ${cpus_list//,/ }; do
					once "nginx-${cpus}cpu" || continue
					if nginx_start "nginx-${cpus}cpu" "$cpus"; then
						gatling RbcsSimulation "nginx-${cpus}cpu" "$nginx_url" "${rbcs_args[@]}"
						nginx_stop "nginx-${cpus}cpu" "$cpus"
					else
						gave_up[nginx-${cpus}cpu]=1
					fi
				done
			fi
		done ;;

	replicas)
		profile=${profiles%%,*}
		[ -f "$results" ] || printf 'table\ttarget\tpart\tconcurrency\trequests\tok\tfailed\tstart_ms\tend_ms\tp50_us\tp95_us\tp99_us\n' > "$results"
		redis_start
		mkdir -p "$bench/files" "$bench/cache"
		for count in 3 1; do
			target="wharf-$count-replica$( ((count > 1)) && echo s || true)"
			replica_pids=() replica_cgs=() replica_samplers=() replica_ports=() replica_starts=()
			for ((i = 1; i <= count; i++)); do
				wharf_start "$target-$i" "$profile" "" wharf-bench-cache-local.yaml wharf-bench-replicas.yaml || break
				replica_pids+=("$server_pid") replica_cgs+=("$server_cg") replica_samplers+=("$sampler_pid")
				replica_ports+=("$http_port") replica_starts+=("${wharf_start_s:-}")
			done
			if ((${#replica_ports[@]} == count)) && haproxy_start "$target" "${replica_ports[@]}"; then
				cpu_watch "$run/cpu-$target.txt" "${replica_pids[@]}" "$redis_pid" "$haproxy_pid"
				kill_option=()
				((count > 1)) && kill_option=("-DkillPid=${replica_pids[1]}")
				gatling ReplicasSimulation "$target" "$haproxy_url" "${kill_option[@]}"
				stop_pid "$cpu_watch_pid" 2
				cpu_note="$cpu_note; $target: replicas $(cpu_seconds "$run/cpu-$target.txt" $(seq 1 "$count")) s, Redis $(cpu_seconds "$run/cpu-$target.txt" $((count + 1))) s, haproxy $(cpu_seconds "$run/cpu-$target.txt" $((count + 2))) s in $(wall_seconds "$run/cpu-$target.txt") s"
				stop_pid "$haproxy_pid" 10
			fi
			for ((i = 0; i < ${#replica_pids[@]}; i++)); do
				server_pid=${replica_pids[$i]} server_cg=${replica_cgs[$i]} sampler_pid=${replica_samplers[$i]}
				wharf_start_s=${replica_starts[$i]}
				wharf_stop "$target-$((i + 1))"
			done
		done
		# Both at once, measured in turns (10 s each, four rounds), so that a busier spell of the machine falls on both.
		wharf_start wharf-local-store "$profile" && {
			local_pid=$server_pid local_cg=$server_cg local_sampler=$sampler_pid local_start=${wharf_start_s:-}
			local_url=$wharf_url
			wrk_prepare "$local_url"; local_cookie=$wrk_cookie
			if wharf_start wharf-redis-store "$profile" "" wharf-bench-replicas.yaml; then
				redis_url=$wharf_url
				wrk_prepare "$redis_url"; redis_cookie=$wrk_cookie
				echo "-- wrk ls, local store then Redis, four rounds (a warm-up of 10 s each first, not counted)"
				wrk_ls wharf-local-store "$local_url" "$local_cookie" 10 warm-up
				wrk_ls wharf-redis-store "$redis_url" "$redis_cookie" 10 warm-up
				for round in 1 2 3 4; do
					wrk_ls wharf-local-store "$local_url" "$local_cookie" 10
					wrk_ls wharf-redis-store "$redis_url" "$redis_cookie" 10
				done
				wharf_stop wharf-redis-store
			fi
			server_pid=$local_pid server_cg=$local_cg sampler_pid=$local_sampler wharf_start_s=$local_start
			wharf_stop wharf-local-store
		}
		gatling_jvm_note="$gatling_jvm_note; wrk $(wrk -v 2>&1 | head -1 | cut -d' ' -f2 || true) -t2 -c50 for ls (wrk): both servers up, 10 s each in turn, four rounds after a warm-up"
		;;

	pyftpdlib)
		venv=${WHARF_LOADTESTS_VENV:-$HOME/.cache/wharf-loadtests/venv}
		if [ ! -x "$venv/bin/ftpbench" ] || [ ! -d "$(ls -d "$venv"/lib/python3*/site-packages/twisted 2>/dev/null | head -1)" ]; then
			echo "== installing pyftpdlib 2.2.0, psutil<7 (ftpbench -k needs it) and Twisted into $venv"
			python3 -m venv "$venv"
			"$venv/bin/pip" install -q 'pyftpdlib==2.2.0' 'psutil<7' twisted
		fi
		twisted_version=$("$venv/bin/python" -c 'import twisted; print(twisted.__version__)')
		# --scale shrinks the clients and the file (a quick run); the published table's are 300 and 10M.
		ftp_clients=300 ftp_size=10M
		if [ "$scale" != 1 ]; then
			ftp_clients=$(awk -v s="$scale" 'BEGIN { n = int(300 * s + 0.5); print (n < 2) ? 2 : n }')
			ftp_size=$(awk -v s="$scale" 'BEGIN { n = int(10240 * s); print ((n < 64) ? 64 : n) "K" }')
		fi
		gatling_jvm_note="ftpbench (pyftpdlib 2.2.0) -b all -n $ftp_clients -s $ftp_size -t 60 -k PID, one run per server start, $runs rounds, medians"
		[ "$warmup" -gt 0 ] && gatling_jvm_note="$gatling_jvm_note, after $warmup uncounted run(s) per server start"
		profile=${profiles%%,*}
		printf 'target\trun\tserver_cpu_us\tloadgen_cpu_us\twall_ms\n' > "$run/ftpbench-cpu.tsv"
		# ftpbench NAME PORT USER PID ROUND: $warmup uncounted runs, then one into $run/ftpbench-NAME-ROUND.txt, with
		# the server's CPU time (its cgroup) and ftpbench's (the subshell's children, from times) over it.
		ftpbench() {
			local i out before after wall
			for ((i = 1 - warmup; i <= 1; i++)); do
				if ((i > 0)); then
					echo "-- ftpbench run $5 against $1"; out=$run/ftpbench-$1-$5.txt
				else
					echo "-- ftpbench warm-up run against $1 (not counted)"; out=$run/warmup-ftpbench-$1-$5-$((i + warmup)).txt
				fi
				before=$(cpu_micros "$server_cpu_clock"); wall=$(date +%s%3N)
				# Python's deprecation warnings (asynchat, psutil) would name the venv's folder in the published output.
				(cd "$bench" && taskset -c "$loadgen_cpus" "$venv/bin/python" -W ignore::DeprecationWarning "$venv/bin/ftpbench" \
					-u "$3" -p "$password" -H 127.0.0.1 -P "$2" -b all -n "$ftp_clients" -s "$ftp_size" -t 60 -k "$4" > "$out" 2>&1
					rc=$?; times > "$out.times"; exit "$rc") || echo "!! ftpbench failed against $1 (see $out)" >&2
				after=$(cpu_micros "$server_cpu_clock"); wall=$(($(date +%s%3N) - wall))
				if ((i > 0)); then
					printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$5" "$( [ -n "$before" ] && [ -n "$after" ] && echo $((after - before)))" \
						"$(awk 'NR == 2 {print}' "$out.times" | awk '{ t = 0; for (f = 1; f <= 2; f++) { split($f, p, "m"); t += p[1] * 60 + p[2] } printf "%d", t * 1000000 }')" \
						"$wall" >> "$run/ftpbench-cpu.tsv"
				fi
				rm -f "$out.times"
			done
		}
		# ftp_peer NAME USER FLAGS -- COMMAND…: a peer under Wharf's limits on $port, one ftpbench run against it.
		ftp_peer() {
			local name=$1 user=$2 flags=$3; shift 4
			start "$name" "$peer_mem" "$cpus" "$run/$name.log" -- "$@"
			if await_port "$port" "$server_pid" 30; then
				ftpbench "$name" "$port" "$user" "$server_pid" "$round"
			else
				echo "!! $name did not listen on port $port; its log:" >&2; tail -5 "$run/$name.log" >&2
			fi
			stop_server "$name" - "$peer_mem" "$cpus" "" "$flags"
		}
		ftp_passive="40000-40999"
		name="wharf-${profile/:/@}"   # no colon in the result files' names
		# The peers get Wharf's limits: the profile's, or the SIZE of P:SIZE.
		peer_mem=${memory_override:-$(profile_memory "${profile%%:*}")}; cpus=$(profile_cpus "${profile%%:*}")
		case "$profile" in *:*) peer_mem=${profile#*:} ;; esac
		with_vsftpd=false with_proftpd=false
		if $peers; then
			if command -v vsftpd > /dev/null; then with_vsftpd=true; else
				echo "!! vsftpd is not installed (apt-get install vsftpd): its column stays empty" >&2
				skipped="$skipped; vsftpd: not installed, not measured"
			fi
			# proftpd and vsftpd conflict as Debian packages: proftpd runs from its package unpacked (proftpd-unpack.sh)
			# unless it is installed.
			proftpd_bin=$(command -v proftpd || true)
			if [ -z "$proftpd_bin" ]; then
				proftpd_bin=$(load-tests/peers/proftpd-unpack.sh) \
					|| { proftpd_bin=""; skipped="$skipped; proftpd: could not be unpacked (load-tests/peers/proftpd-unpack.sh), not measured"; }
			fi
			[ -n "$proftpd_bin" ] && with_proftpd=true
			if $with_vsftpd || $with_proftpd; then
				# vsftpd and proftpd log in system users: one of their own, with this run's password.
				id wharfbench > /dev/null 2>&1 || useradd -m -d "/home/wharfbench" -s /bin/bash wharfbench
				grep -qx /bin/bash /etc/shells || echo /bin/bash >> /etc/shells
				echo "wharfbench:$password" | chpasswd
			fi
		fi
		for ((round = 1; round <= runs; round++)); do
			round_note "$round"
			if once "$name" && wharf_start "$name" "$profile"; then
				if (exec 3<>"/dev/tcp/127.0.0.1/$ftp_port") 2>/dev/null; then
					ftpbench "$name" "$ftp_port" bench "$server_pid" "$round"
				else
					echo "!! $name: nothing listens on FTP port $ftp_port: module-ftp is off or missing, skipping" >&2
					skipped="$skipped; $name: nothing listened on the FTP port (module-ftp off or missing), not measured"
					gave_up[$name]=1
				fi
				wharf_stop "$name"
			fi
			$peers || continue
			port=$(free_port); mkdir -p "$bench/ftp-pyftpdlib"
			echo "== pyftpdlib 2.2.0"
			ftp_peer pyftpdlib bench "pyftpdlib 2.2.0, max_cons=0" -- "$venv/bin/python" \
				"$root/load-tests/peers/pyftpdlib_server.py" "$port" "$bench/ftp-pyftpdlib" bench "$password" 41000 41999
			if $with_vsftpd; then
				mkdir -p "$bench/vsftpd-empty"
				port=$(free_port)
				sed -e "s|@PORT@|$port|; s|@EMPTY@|$bench/vsftpd-empty|; s|@PASV_FIRST@|42000|; s|@PASV_LAST@|42999|" \
					load-tests/peers/vsftpd.conf > "$run/vsftpd.conf"
				echo "== vsftpd $(dpkg-query -W -f='${Version}' vsftpd 2>/dev/null)"
				ftp_peer vsftpd wharfbench "vsftpd $(dpkg-query -W -f='${Version}' vsftpd), max_clients=2000" -- \
					vsftpd "$run/vsftpd.conf"
			fi
			if $with_proftpd; then
				dir=$run/proftpd; mkdir -p "$dir" "$bench/ftp-proftpd"; chown wharfbench "$bench/ftp-proftpd"
				port=$(free_port)
				sed -e "s|@PORT@|$port|; s|@DIR@|$dir|g; s|@ROOT@|$bench/ftp-proftpd|; s|@PASV_FIRST@|43000|; s|@PASV_LAST@|43999|" \
					load-tests/peers/proftpd.conf > "$dir/proftpd.conf"
				proftpd_version=$("$proftpd_bin" -v 2>&1 | grep -oE '[0-9]+\.[0-9]+\.[0-9a-z]+' | head -1)
				echo "== proftpd $proftpd_version"
				ftp_peer proftpd wharfbench "proftpd $proftpd_version, MaxInstances 2000" -- \
					"$proftpd_bin" --nodaemon -c "$dir/proftpd.conf"
			fi
			port=$(free_port); mkdir -p "$bench/ftp-twisted"
			echo "== Twisted $twisted_version FTP server"
			ftp_peer twisted bench "Twisted $twisted_version (twisted.protocols.ftp), no connection limit" -- "$venv/bin/python" \
				"$root/load-tests/peers/twisted_ftp_server.py" "$port" "$bench/ftp-twisted" bench "$password" 44000 44999
		done ;;
esac

# ---------------------------------------------------------------------------------------------- report
cat > "$run/meta.properties" <<EOF
table=$table
command=$command_line
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
machine=$(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $ncpu cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM
kernel=$(uname -sr)
jdk=$jdk_version
commit=$(git rev-parse --short HEAD 2>/dev/null)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')
cgroup=$cg_mode
loadgen=$gatling_jvm_note
scale=$scale
keepalive=$keepalive
runs=$runs
fairness=$fairness
note=$note
cpu=${cpu_note#; }
skipped=${skipped#; }
EOF
# The HTML reports of this run's simulations, without the binary simulation.log each was made from.
if [ -d "$run/gatling" ]; then
	(cd "$run" && tar --exclude=simulation.log -cf - gatling | xz -9 -T1 > gatling.tar.xz)
fi
# Copies the results (and gatling.tar.xz) to $out_dir/results/ (paths inside the repository made relative to it),
# draws the plots, writes the report from that copy and rewrites the index.
tools dev.wharf.loadtests.harness.Report "$table" "$run" "$out_dir" "$root"
echo "== wrote $out_dir/$table.md, its plots in $out_dir/plots/$([ ! -d "$run/gatling" ] || echo " (Gatling reports: $run/gatling)")"
