#!/usr/bin/env bash
# Benchmarks of the file manager API (docs/benchmarks/filemanager.md): `ls` of a 6-entry folder on a memory
# mount, Filestash's benchmark request, and thumbnails of a 2-megapixel JPEG, with wrk on 127.0.0.1; with
# SFTP=1, also `ls` of a 6-entry folder on an sftp mount to an OpenSSH server started here (the sftp `ls` wrk -c100
# benchmark), with the CPU per request of Wharf, of the sshd processes and of everything else (wrk).
#
#   docs/benchmarks/filemanager-bench.sh [path/to/wharf.jar]
#
# Environment: DURATION (default 10s), WARMUP (default 30s: C2 needs it on a busy 2-core machine), PORT (default
# 18434), JVM_OPTS (default: the p128 profile's options; set it empty for the JVM's defaults),
# THUMBNAIL_CACHE (default 32MB; the cold run always uses 0), SFTP (1: the sftp rows), SFTP_POOL (default 8).
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=${1:-platform-app/target/wharf.jar}
duration=${DURATION:-10s}
warmup=${WARMUP:-30s}
port=${PORT:-18434}
jvm_opts=${JVM_OPTS-$(grep -v '^#' platform-app/src/main/jvm/p128.options | tr '\n' ' ')}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
[ -f "$jar" ] || { echo "No $jar: build it with ./mvnw -q -DskipTests package" >&2; exit 1; }
export LANG=C.UTF-8

work=$(mktemp -d)
server=""
cleanup() { [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT INT TERM

password=bench-password-1
hash=$(printf '%s\n' "$password" | java -jar "$jar" hash-password | tail -1)

# A 1920 x 1080 (2-megapixel) photo-like JPEG, made by the JDK.
cat > "$work/Photo.java" <<'JAVA'
import java.awt.*; import java.awt.image.BufferedImage; import javax.imageio.ImageIO; import java.io.File; import java.util.Random;
public class Photo { public static void main(String[] a) throws Exception {
  BufferedImage i = new BufferedImage(1920, 1080, BufferedImage.TYPE_INT_RGB); Graphics2D g = i.createGraphics(); Random r = new Random(1);
  g.setPaint(new GradientPaint(0, 0, Color.ORANGE, 1920, 1080, Color.BLUE)); g.fillRect(0, 0, 1920, 1080);
  for (int n = 0; n < 400; n++) { g.setColor(new Color(r.nextInt(0xFFFFFF))); g.fillOval(r.nextInt(1920), r.nextInt(1080), 20 + r.nextInt(200), 20 + r.nextInt(200)); }
  ImageIO.write(i, "jpg", new File(a[0])); } }
JAVA
java "$work/Photo.java" "$work/photo.jpg"

sftp=${SFTP:-0}
sshd=""
sftp_mount=""
if [ "$sftp" = 1 ]; then
	# An OpenSSH server on a free port with throwaway keys, configured as load-tests/run.sh does it.
	mkdir -p "$work/ssh" "$work/remote/files"; chmod 700 "$work/ssh"
	ssh-keygen -q -t ed25519 -N '' -f "$work/ssh/ssh_host_ed25519_key"
	ssh-keygen -q -t ed25519 -N '' -f "$work/ssh/id_ed25519"
	cp "$work/ssh/id_ed25519.pub" "$work/ssh/authorized_keys"
	sshd_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	echo "[127.0.0.1]:$sshd_port $(cut -d' ' -f1-2 "$work/ssh/ssh_host_ed25519_key.pub")" > "$work/ssh/known_hosts"
	sed -e "s|@PORT@|$sshd_port|; s|@DIR@|$work/ssh|g" load-tests/peers/sshd_config > "$work/ssh/sshd_config"
	mkdir -p /run/sshd
	/usr/sbin/sshd -D -e -f "$work/ssh/sshd_config" > "$work/sshd.log" 2>&1 &
	sshd=$!
	for name in 1M.bin 10M.bin 100M.bin 1G.bin 10G.bin 100G.bin; do echo "content of $name" > "$work/remote/files/$name"; done
	sftp_mount=", remote: { type: sftp, host: 127.0.0.1, port: $sshd_port, username: $(id -un), private-key: \"file:$work/ssh/id_ed25519\", known-hosts: \"file:$work/ssh/known_hosts\", root: \"$work/remote\", pool-size: ${SFTP_POOL:-8} }"
fi
trap 'cleanup; [ -n "$sshd" ] && kill "$sshd" 2>/dev/null' EXIT INT TERM

start() { # $1 = thumbnail cache size
	cat > "$work/application.yaml" <<YAML
server: { port: $port, address: 127.0.0.1 }
management: { server: { port: 0 } }
logging: { level: { wharf.audit: warn } }
wharf:
  state-dir: $work/state
  storage: { mounts: { bench: { type: memory, max-size: 8MB }$sftp_mount } }
  filemanager: { thumbnails: { cache-size: $1 } }
  # Only the file manager is measured (the other modules would need mounts of their own).
  buildcache: { enabled: false }
  ftp: { enabled: false }
  static: { enabled: false }
  security:
    users: [ { name: bench, password: "$hash", roles: [ user ], mounts: { bench: rw$( [ "$sftp" = 1 ] && echo ", remote: rw") } } ]
YAML
	(cd "$work" && exec java $jvm_opts -jar "$OLDPWD/$jar" > "$work/server.log" 2>&1) &
	server=$!
	for _ in $(seq 1 120); do
		curl -s -o /dev/null "http://127.0.0.1:$port/actuator/health/readiness" && return 0
		sleep 1
	done
	echo "Wharf did not start:" >&2; tail -20 "$work/server.log" >&2; exit 1
}
stop() { kill "$server"; wait "$server" 2>/dev/null || true; server=""; }

login() {
	curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
		-d "{\"username\":\"bench\",\"password\":\"$password\"}" "http://127.0.0.1:$port/api/session" \
		| grep -io 'auth=[^;]*'
}

warm() { # $1 = connections, $2 = URL path, rest = wrk options: JIT warm-up, before anything is measured
	local connections=$1 url="http://127.0.0.1:$port$2"; shift 2
	wrk -t2 -c"$connections" -d"$warmup" "$@" "$url" > /dev/null
}

sshd_ticks() { # CPU ticks of every sshd process (the listener and one per connection, internal-sftp included)
	local total=0 pid
	for pid in $(pgrep -x sshd); do total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0))); done
	echo "$total"
}

machine_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $7 + $8}' /proc/stat; }

run() { # $1 = title, $2 = connections, $3 = URL path, rest = wrk options
	local title=$1 connections=$2 url="http://127.0.0.1:$port$3"; shift 3
	echo "== $title: wrk -t2 -c$connections -d$duration $url"
	local wharf0 sshd0 all0 wharf1 sshd1 all1 out
	wharf0=$(awk '{print $14 + $15}' "/proc/$server/stat"); sshd0=$(sshd_ticks); all0=$(machine_ticks)
	out=$(wrk -t2 -c"$connections" -d"$duration" --latency "$@" "$url")
	wharf1=$(awk '{print $14 + $15}' "/proc/$server/stat"); sshd1=$(sshd_ticks); all1=$(machine_ticks)
	echo "$out" | grep -E 'Latency|Requests/sec|Non-2xx|errors|requests in|50%|99%'
	# Server CPU per request: meaningful even when other work shares the machine. With SFTP=1 also the CPU of
	# sshd and of the rest of the machine (wrk, kernel threads), per request.
	echo "$out" | awk -v w=$((wharf1 - wharf0)) -v s=$((sshd1 - sshd0)) -v a=$((all1 - all0)) -v hz="$(getconf CLK_TCK)" \
		-v with_sshd="$sftp" -v seconds="${duration%s}" -v cpus="$(nproc)" '/requests in/ { n = $1
			printf "  server CPU per request: %.1f us\n", w / hz * 1e6 / n
			if (with_sshd == 1) printf "  CPU per request: Wharf %.1f us, sshd %.1f us, the rest (wrk, kernel threads) %.1f us; machine busy %.0f %%\n", w / hz * 1e6 / n, s / hz * 1e6 / n, (a - w - s) / hz * 1e6 / n, a / hz * 100 / seconds / cpus }'
}

populate() { # the memory mount starts empty: Filestash's blackhole folder (by name) and the photo
	cookie=$(login)
	h=(-H "Cookie: $cookie" -H "X-Requested-With: XmlHttpRequest")
	curl -sf "${h[@]}" -X POST "http://127.0.0.1:$port/api/files/mkdir?path=/bench/files" > /dev/null
	for name in 1M.bin 10M.bin 100M.bin 1G.bin 10G.bin 100G.bin; do
		curl -sf "${h[@]}" --data-binary "content of $name" "http://127.0.0.1:$port/api/files/save?path=/bench/files/$name" > /dev/null
	done
	curl -sf "${h[@]}" --data-binary @"$work/photo.jpg" "http://127.0.0.1:$port/api/files/save?path=/bench/photo.jpg" > /dev/null
}

start "${THUMBNAIL_CACHE:-32MB}"
populate
echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "JVM: $(java -version 2>&1 | head -1); options: $jvm_opts"
warm 32 "/api/files/ls?path=%2Fbench%2Ffiles%2F" "${h[@]}"
warm 32 "/api/files/ls?path=%2F" "${h[@]}"
warm 10 "/api/files/cat?path=%2Fbench%2Fphoto.jpg&thumbnail=true" -H "Cookie: $cookie"
run "ls of a 6-entry folder on a memory mount" 32 "/api/files/ls?path=%2Fbench%2Ffiles%2F" "${h[@]}"
run "Filestash's benchmark request (the top level)" 32 "/api/files/ls?path=%2F" "${h[@]}"
run "thumbnail of a 2-megapixel JPEG, cached" 10 "/api/files/cat?path=%2Fbench%2Fphoto.jpg&thumbnail=true" -H "Cookie: $cookie"
if [ "$sftp" = 1 ]; then
	warm 100 "/api/files/ls?path=%2Fremote%2Ffiles%2F" "${h[@]}"
	run "ls of a 6-entry folder on an sftp mount (pool-size ${SFTP_POOL:-8})" 100 "/api/files/ls?path=%2Fremote%2Ffiles%2F" "${h[@]}"
fi
stop

start 0
populate
warm 10 "/api/files/cat?path=%2Fbench%2Fphoto.jpg&thumbnail=true" -H "Cookie: $cookie"
run "thumbnail of a 2-megapixel JPEG, made every time (cache off)" 10 "/api/files/cat?path=%2Fbench%2Fphoto.jpg&thumbnail=true" \
	-H "Cookie: $cookie"
stop
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
