#!/usr/bin/env bash
# Thumbnails made from scratch, Wharf beside Filestash (docs/benchmarks/thumbnails.md): the same images in one
# local folder that both serve, both on 127.0.0.1, wrk on the same machine, every thumbnail made anew (Wharf's
# caches off; Filestash has none), each server warmed up first, then ROUNDS rounds that alternate the servers.
# Reports req/s and the server's CPU per request (utime + stime from /proc/<pid>/stat before and after each run:
# on a machine shared with other work, the number to trust), and the medians and ranges over the rounds.
#
#   FILESTASH=path/to/filestash docs/benchmarks/thumbnails-bench.sh [path/to/wharf.jar]
#
# FILESTASH: a Filestash binary built with its C image plugin (libjpeg's scaled decoding); it is copied into a
# temporary folder with its configuration, and listens on 127.0.0.1 only (FILESTASH_BIND_ADDR).
# Environment: ROUNDS (default 3), DURATION (10s), WARMUP (30s for the first image, a third of it for the others),
# CONNECTIONS (10), IMAGES (jpg-1920,jpg-4000,png-1920; also smooth-1920), JVM_OPTS (default empty: the JVM's defaults),
# NATIVE_JPEG (true; false measures Wharf's ImageIO fallback), SERVERS (filestash,wharf), BASELINE (another Wharf jar,
# measured as wharf-baseline in the same rounds), RESULTS (a file to copy the rounds' results to, tab-separated: server,
# image, round, req/s, ms CPU per request).
set -euo pipefail
cd "$(dirname "$0")/../.."
jar=${1:-platform-app/target/wharf.jar}
filestash=${FILESTASH:?set FILESTASH to a Filestash binary built with its C image plugin}
rounds=${ROUNDS:-3}
duration=${DURATION:-10s}
warmup=${WARMUP:-30s}
connections=${CONNECTIONS:-10}
images=${IMAGES:-jpg-1920,jpg-4000,png-1920}
servers=${SERVERS:-filestash,wharf}
jvm_opts=${JVM_OPTS:-}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }
command -v htpasswd >/dev/null || { echo "htpasswd is missing: apt-get install -y apache2-utils" >&2; exit 1; }
[ -f "$jar" ] || { echo "No $jar: build it with ./mvnw -q -DskipTests package" >&2; exit 1; }
jar=$(realpath "$jar")
[ -x "$filestash" ] || { echo "FILESTASH=$filestash is not an executable" >&2; exit 1; }
export LANG=C.UTF-8

work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do { kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; } || true; done; rm -rf "$work"; }
trap cleanup EXIT INT TERM
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Photo-like images made by the JDK: sky and ground gradients, soft translucent shapes and sensor-like grain (so the
# JPEG's entropy-coded data is as large as a camera's: 445 KB at 1920 x 1080, 2.3 MB at 4000 x 3000, quality 85,
# 4:2:0), and the smaller one as a PNG too; smooth-1920 is docs/benchmarks/filemanager-bench.sh's photo (shapes on a
# gradient, no grain, ImageIO's default quality: 205 KB), which compresses far better than a camera's.
mkdir -p "$work/images"
cat > "$work/Photo.java" <<'JAVA'
import java.awt.*; import java.awt.image.*; import javax.imageio.*; import javax.imageio.stream.*; import java.io.File; import java.util.Random;
public class Photo { public static void main(String[] a) throws Exception {
  int w = Integer.parseInt(a[1]), h = Integer.parseInt(a[2]);
  if (a[0].contains("smooth-")) { BufferedImage i = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB); Graphics2D g = i.createGraphics(); Random r = new Random(1);
    g.setPaint(new GradientPaint(0, 0, Color.ORANGE, w, h, Color.BLUE)); g.fillRect(0, 0, w, h);
    for (int n = 0; n < 400; n++) { g.setColor(new Color(r.nextInt(0xFFFFFF))); g.fillOval(r.nextInt(w), r.nextInt(h), 20 + r.nextInt(200), 20 + r.nextInt(200)); }
    ImageIO.write(i, "jpg", new File(a[0])); return; }
  BufferedImage i = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB); Graphics2D g = i.createGraphics(); Random r = new Random(1);
  g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
  g.setPaint(new GradientPaint(0, 0, new Color(70, 120, 200), 0, h * 0.6f, new Color(230, 210, 180))); g.fillRect(0, 0, w, h);
  for (int n = 0; n < 300; n++) { g.setColor(new Color(r.nextInt(256), r.nextInt(256), r.nextInt(256), 60 + r.nextInt(120)));
    int s = (w / 40) + r.nextInt(w / 8); g.fillOval(r.nextInt(w), r.nextInt(h), s, s * (1 + r.nextInt(3)) / 2); }
  int[] px = ((DataBufferInt) i.getRaster().getDataBuffer()).getData();
  for (int p = 0; p < px.length; p++) { int v = px[p], n = (int) (r.nextGaussian() * 6);
    int cr = Math.min(255, Math.max(0, ((v >> 16) & 255) + n)), cg = Math.min(255, Math.max(0, ((v >> 8) & 255) + n)), cb = Math.min(255, Math.max(0, (v & 255) + n));
    px[p] = (cr << 16) | (cg << 8) | cb; }
  if (a[0].endsWith(".png")) { ImageIO.write(i, "png", new File(a[0])); return; }
  ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next(); ImageWriteParam p = writer.getDefaultWriteParam();
  p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT); p.setCompressionQuality(0.85f);
  try (ImageOutputStream o = ImageIO.createImageOutputStream(new File(a[0]))) { writer.setOutput(o); writer.write(null, new IIOImage(i, null, null), p); } } }
JAVA
java "$work/Photo.java" "$work/images/jpg-1920.jpg" 1920 1080
java "$work/Photo.java" "$work/images/jpg-4000.jpg" 4000 3000
java "$work/Photo.java" "$work/images/png-1920.png" 1920 1080
java "$work/Photo.java" "$work/images/smooth-1920.jpg" 1920 1080
file_of() { case "$1" in png-*) echo "$1.png" ;; *) echo "$1.jpg" ;; esac; }

# Filestash: its configuration beside a copy of the binary (it resolves data/ from there), the local backend with
# LOCAL_BACKEND_SECRET (otherwise every request runs bcrypt), log lines to a file.
fs_port=$(free_port)
mkdir -p "$work/filestash/data/state/config"
cp "$filestash" "$work/filestash/filestash"
admin=$(htpasswd -bnBC 10 "" "admin-$RANDOM$RANDOM" | tr -d ':\n' | sed 's/^\$2y/$2a/')
secret="bench-secret-$RANDOM$RANDOM"
cat > "$work/filestash/data/state/config/config.json" <<JSON
{"general": {"port": $fs_port, "secret_key": "$(head -c 1024 /dev/urandom | tr -dc 'a-zA-Z0-9' | head -c 16)"},
 "log": {"telemetry": false, "enable": true, "level": "INFO"}, "auth": {"admin": "$admin"},
 "connections": [{"type": "local", "label": "local", "path": "$work/images/"}]}
JSON
(cd "$work/filestash" && FILESTASH_BIND_ADDR=127.0.0.1 FILESTASH_PORT=$fs_port LOCAL_BACKEND_SECRET=$secret \
	exec ./filestash > "$work/filestash.log" 2>&1) &
fs_pid=$!; pids+=("$fs_pid")

# Wharf: the same folder as a local mount, its thumbnail caches off (memory and the mount's reserved folder); with
# BASELINE=path/to/other.jar, a second Wharf ("wharf-baseline", such as the commit before a change) beside it.
declare -A port pid cookie
port[filestash]=$fs_port; pid[filestash]=$fs_pid
password="bench-$RANDOM$RANDOM"
hash=$(printf '%s\n' "$password" | java -jar "$jar" hash-password | tail -1)
start_wharf() { # $1 = name, $2 = jar
	local name=$1 jar=$2
	port[$name]=$(free_port)
	mkdir -p "$work/$name"
	cat > "$work/$name/application.yaml" <<YAML
server: { port: ${port[$name]}, address: 127.0.0.1 }
management: { server: { port: 0 } }
logging: { level: { wharf.audit: warn } }
wharf:
  state-dir: $work/$name/state
  storage: { mounts: { bench: { type: local, root: "$work/images" } } }
  filemanager: { thumbnails: { cache-size: 0, persistent-cache: false, native-jpeg: ${NATIVE_JPEG:-true} } }
  buildcache: { enabled: false }
  ftp: { enabled: false }
  static: { enabled: false }
  security:
    users: [ { name: bench, password: "$hash", roles: [ user ], mounts: { bench: rw } } ]
YAML
	(cd "$work/$name" && exec java $jvm_opts -jar "$jar" > "$work/$name.log" 2>&1) &
	pid[$name]=$!; pids+=("${pid[$name]}")
}
start_wharf wharf "$jar"
if [ -n "${BASELINE:-}" ]; then
	start_wharf wharf-baseline "$(realpath "$BASELINE")"
	servers="$servers,wharf-baseline"
fi

await() { # $1 = URL
	for _ in $(seq 1 120); do curl -s -o /dev/null "$1" && return 0; sleep 1; done
	echo "No answer from $1" >&2; for log in "$work"/*.log; do tail -n 20 "$log" >&2; done; exit 1
}
await "http://127.0.0.1:$fs_port/"
# Filestash answers / before its session API works: try for a while.
for _ in $(seq 1 60); do
	cookie[filestash]=$(curl -s -D - -o /dev/null -H 'X-Requested-With: XmlHttpRequest' -H 'Content-Type: application/json' \
		-d "{\"type\":\"local\",\"password\":\"$secret\",\"path\":\"$work/images/\"}" \
		"http://127.0.0.1:$fs_port/api/session" | grep -io 'auth=[^;]*' || true)
	[ -n "${cookie[filestash]}" ] && break
	sleep 1
done
[ -n "${cookie[filestash]}" ] || { echo "Cannot log in to Filestash:" >&2; tail -n 20 "$work/filestash.log" >&2; exit 1; }
for server in ${servers//,/ }; do
	[ "$server" = filestash ] && continue
	await "http://127.0.0.1:${port[$server]}/actuator/health/readiness"
	cookie[$server]=$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
		-d "{\"username\":\"bench\",\"password\":\"$password\"}" "http://127.0.0.1:${port[$server]}/api/session" \
		| grep -io 'auth=[^;]*')
done

url() { # $1 = server, $2 = image: the thumbnail's URL
	case "$1" in
		filestash) echo "http://127.0.0.1:$fs_port/api/files/cat?path=%2F$(file_of "$2")&thumbnail=true" ;;
		*) echo "http://127.0.0.1:${port[$1]}/api/files/cat?path=%2Fbench%2F$(file_of "$2")&thumbnail=true" ;;
	esac
}
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

echo "Machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "JVM: $(java -version 2>&1 | head -1); options: ${jvm_opts:-(defaults)}; native-jpeg: ${NATIVE_JPEG:-true}"
for server in ${servers//,/ }; do
	for image in ${images//,/ }; do
		# As an <img> asks: the cookie only. The first answer is checked: a JPEG or WebP, not an error.
		type=$(curl -s -o "$work/first" -w '%{http_code} %{content_type}' -H "Cookie: ${cookie[$server]}" "$(url "$server" "$image")")
		echo "$server $image: first answer $type, $(wc -c < "$work/first") bytes, $(file -b "$work/first" | cut -d, -f1,8- | head -c 80)"
		case "$type" in "200 image/"*) ;; *) echo "!! $server cannot make a thumbnail of $image" >&2; exit 1 ;; esac
	done
	first=true
	for image in ${images//,/ }; do
		seconds=${warmup%s}; $first || seconds=$((seconds / 3)); first=false
		wrk -t2 -c"$connections" -d"${seconds}s" -H "Cookie: ${cookie[$server]}" "$(url "$server" "$image")" > /dev/null
	done
done

results="$work/results.tsv"
hz=$(getconf CLK_TCK)
for ((round = 1; round <= rounds; round++)); do
	for image in ${images//,/ }; do
		for server in ${servers//,/ }; do
			before=$(ticks "${pid[$server]}")
			out=$(wrk -t2 -c"$connections" -d"$duration" -H "Cookie: ${cookie[$server]}" "$(url "$server" "$image")")
			after=$(ticks "${pid[$server]}")
			if echo "$out" | grep -q 'Non-2xx'; then echo "!! $server answered errors for $image: $out" >&2; exit 1; fi
			echo "$out" | awk -v s="$server" -v i="$image" -v r="$round" -v t=$((after - before)) -v hz="$hz" \
				'/requests in/ { n = $1 } /Requests\/sec/ { rate = $2 } END { printf "%s\t%s\t%d\t%.1f\t%.2f\n", s, i, r, rate, t / hz * 1000 / n }' \
				| tee -a "$results" | awk -F'\t' '{ printf "round %d  %-14s %-11s %8.1f req/s  %6.2f ms CPU per request\n", $3, $1, $2, $4, $5 }'
		done
	done
done

median() { awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }' "$1"; }
echo
echo "Medians over $rounds rounds [min-max]; c=$connections, $duration each; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for image in ${images//,/ }; do
	for server in ${servers//,/ }; do
		awk -F'\t' -v s="$server" -v i="$image" '$1 == s && $2 == i { print $4 }' "$results" | sort -n > "$work/rates"
		awk -F'\t' -v s="$server" -v i="$image" '$1 == s && $2 == i { print $5 }' "$results" | sort -n > "$work/cpus"
		printf '%-11s %-14s %8.1f req/s [%s-%s]  %6.2f ms CPU per request [%s-%s]\n' "$image" "$server" \
			"$(median "$work/rates")" "$(head -1 "$work/rates")" "$(tail -1 "$work/rates")" \
			"$(median "$work/cpus")" "$(head -1 "$work/cpus")" "$(tail -1 "$work/cpus")"
	done
done
if [ -n "${RESULTS:-}" ]; then cp "$results" "$RESULTS"; fi
