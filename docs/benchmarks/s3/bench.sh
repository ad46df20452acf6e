#!/usr/bin/env bash
# Measures an s3 mount against an S3 server on 127.0.0.1 (run from the repository root after ./mvnw verify): 100 MB
# downloads and uploads through each protocol against the server directly, after WARMUP seconds (default 40) of
# the same transfers uncounted, in RUNS (default 7) alternating rounds, with the CPU time Wharf and the server
# spent on each; then listings. S3_SERVER=s3proxy (default; its filesystem store) or seaweedfs (WEED names the
# weed program, as scripts/seaweedfs-build.sh makes it; no identities, so it takes any keys). Uploads of unknown
# length (FTP STOR) are also compared with real S3 clients uploading the same file of unknown length from a pipe as a
# multipart upload with Wharf's part size and parts in flight (8 MB, 4): rclone rcat (rcat-direct) and the AWS CLI's
# `aws s3 cp -` (awscli-direct); both must be installed. JAR names another build of Wharf; DOWNLOADS=0 leaves the
# downloads out of the counted rounds.
set -euo pipefail
B=${TMPDIR:-/tmp}/wharf-s3-bench
JAR=${JAR:-platform-app/target/wharf.jar}
command -v rclone > /dev/null && command -v aws > /dev/null || { echo "rclone and aws (the AWS CLI) are needed" >&2; exit 2; }
S3JAR=platform-core/target/s3proxy/s3proxy.jar
S3=http://127.0.0.1:18091
W=http://127.0.0.1:18334
PW=bench-password
rm -rf "$B/s3data" "$B/state"; mkdir -p "$B/s3data" "$B/state"
case "${S3_SERVER:-s3proxy}" in
  s3proxy)
    cat > "$B/s3proxy.conf" <<CONF
s3proxy.endpoint=$S3
s3proxy.authorization=none
jclouds.provider=filesystem
jclouds.identity=x
jclouds.credential=y
jclouds.filesystem.basedir=$B/s3data
CONF
    java -jar "$S3JAR" --properties "$B/s3proxy.conf" > "$B/s3proxy.log" 2>&1 &
    ;;
  seaweedfs)
    "${WEED:?WEED names the weed program}" server -dir="$B/s3data" -ip=127.0.0.1 -ip.bind=127.0.0.1 \
      -master.port=19333 -master.port.grpc=29333 -volume.port=19080 -volume.port.grpc=29080 \
      -filer.port=19888 -filer.port.grpc=29888 -s3 -s3.port=18091 -s3.port.grpc=28091 -s3.port.iceberg=0 \
      -s3.port.lance=0 -master.volumeSizeLimitMB=1024 -volume.max=0 > "$B/s3proxy.log" 2>&1 &
    ;;
  *) echo "S3_SERVER is s3proxy or seaweedfs" >&2; exit 2 ;;
esac
echo $! > "$B/s3proxy.pid"
for i in $(seq 1 300); do curl -s -o /dev/null "$S3/" && break; sleep 0.2; done
for i in $(seq 1 300); do [ "$(curl -s -o /dev/null -w '%{http_code}' -X PUT "$S3/bench")" = 200 ] && break; sleep 0.5; done
[ -f "$B/big.bin" ] || head -c 100M /dev/urandom > "$B/big.bin"
curl -s -T "$B/big.bin" "$S3/bench/site/big.bin" -o /dev/null
seq 1 1000 | xargs -P 8 -I{} curl -s -X PUT --data-binary "file {}" "$S3/bench/thousand/f{}" -o /dev/null
HASH=$(printf '%s\n' "$PW" | java -jar "$JAR" hash-password 2>/dev/null | grep -o '{bcrypt}.*')
cat > "$B/application.yaml" <<YAML
server: { port: 18334 }
# The actuator on a free port: another Wharf on this machine may hold the default 8335.
management: { server: { port: 0 } }
wharf:
  state-dir: $B/state
  storage:
    mounts:
      objects: { type: s3, bucket: bench, endpoint: "$S3", region: us-east-1, access-key: x, secret-key: y }
  security:
    users:
      - { name: alice, password: "$HASH", roles: [ user ], mounts: { objects: rw } }
  ftp: { enabled: true, port: 18021, passive-ports: "18100-18120", mounts: [ objects ] }
  buildcache: { enabled: false }
  static: { enabled: true, sites: [ { prefix: /static/, mount: objects, root: /site } ] }
YAML
java -XX:NativeMemoryTracking=summary ${WHARF_JVM:-} -jar "$JAR" --spring.config.additional-location="file:$B/application.yaml" > "$B/wharf.log" 2>&1 &
echo $! > "$B/wharf.pid"
for i in $(seq 1 900); do curl -s -o /dev/null "$W/static/big.bin" -r 0-0 && break; sleep 0.2; done
curl -s -c "$B/cookies" -H 'Content-Type: application/json' -d "{\"username\":\"alice\",\"password\":\"$PW\"}" "$W/api/session" -o /dev/null
t() { curl -s -o /dev/null -w '%{time_total} %{size_download}\n' "$@"; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
WPID=$(cat "$B/wharf.pid"); SPID=$(cat "$B/s3proxy.pid")
H='X-Requested-With: XmlHttpRequest'
curl -s -o /dev/null -b "$B/cookies" -H "$H" -X POST "$W/api/files/mkdir?path=/objects/up"
# Each path once: the seconds, then the CPU ticks (1/100 s) Wharf and the S3 server spent on it.
path() {
  local name=$1; shift
  local w0 s0 out
  w0=$(ticks "$WPID"); s0=$(ticks "$SPID")
  out=$(curl -s -o /dev/null -w '%{time_total}' "$@")
  echo "$name $out $(( $(ticks "$WPID") - w0 )) $(( $(ticks "$SPID") - s0 ))"
}
# The same for a command that reads the file from a pipe, so that it cannot know the length.
piped() {
  local name=$1; shift
  local w0 s0 t0 t1
  w0=$(ticks "$WPID"); s0=$(ticks "$SPID"); t0=$(date +%s.%N)
  cat "$B/big.bin" | "$@" > /dev/null
  t1=$(date +%s.%N)
  echo "$name $(python3 -c "print(f'{$t1 - $t0:.6f}')") $(( $(ticks "$WPID") - w0 )) $(( $(ticks "$SPID") - s0 ))"
}
# Checksums only where S3 requires them, as Wharf sends them to a compatible server (S3Proxy refuses the others).
printf '[default]\nrequest_checksum_calculation = when_required\nresponse_checksum_validation = when_required\ns3 =\n  multipart_chunksize = 8MB\n  max_concurrent_requests = 4\n' > "$B/aws.conf"
export AWS_CONFIG_FILE="$B/aws.conf" AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=y AWS_DEFAULT_REGION=us-east-1
# Plain HTTP on 127.0.0.1: a CA bundle from the environment only makes rclone refuse to start.
unset AWS_CA_BUNDLE
RCLONE=":s3,provider=Other,endpoint='$S3',access_key_id=x,secret_access_key=y,chunk_size=8M,upload_concurrency=4:"
downloads() {
  path direct    "$S3/bench/site/big.bin"
  path fm-cat    -b "$B/cookies" -H "$H" "$W/api/files/cat?path=/objects/site/big.bin"
  path ftp-retr  "ftp://alice:$PW@127.0.0.1:18021/site/big.bin"
  path static    "$W/static/big.bin"
}
uploads() {
  path put-direct -T "$B/big.bin" "$S3/bench/up/direct.bin"
  path fm-save    -b "$B/cookies" -H "$H" --data-binary "@$B/big.bin" "$W/api/files/save?path=/objects/up/fm.bin"
  path ftp-stor   -T "$B/big.bin" "ftp://alice:$PW@127.0.0.1:18021/up/ftp.bin"
  piped rcat-direct rclone rcat "${RCLONE}bench/up/rcat.bin"
  piped awscli-direct aws s3 cp - s3://bench/up/awscli.bin --endpoint-url "$S3"
}
# A JVM needs 20-40 s of load before C2 has compiled the hot path: warm every path first, uncounted.
end=$(( $(date +%s) + ${WARMUP:-40} ))
while [ "$(date +%s)" -lt "$end" ]; do downloads > /dev/null; uploads > /dev/null; done
echo "== ${S3_SERVER:-s3proxy}, 100 MB, ${RUNS:-7} alternating rounds: path seconds wharf-ticks server-ticks"
for run in $(seq 1 "${RUNS:-7}"); do [ "${DOWNLOADS:-1}" = 0 ] || downloads; uploads; done | tee "$B/speed.txt"
python3 - "$B/speed.txt" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, secs, wt, st = line.split()
    rows.setdefault(name, []).append((float(secs), int(wt), int(st)))
# Uploads also as a share of the unknown-length uploads of rclone and the AWS CLI.
print("| path | median s | range s | MB/s | x direct | x rcat-direct | x awscli-direct | Wharf CPU ms | S3 server CPU ms |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
med = lambda name: statistics.median(r[0] for r in rows[name]) if name in rows else float("nan")
base = {"down": med("direct"), "up": med("put-direct")}
for name, runs in rows.items():
    secs = [r[0] for r in runs]
    m = statistics.median(secs)
    up = name in ("put-direct", "fm-save", "ftp-stor", "rcat-direct", "awscli-direct")
    unknown = f"{med('rcat-direct') / m:.2f} | {med('awscli-direct') / m:.2f}" if up else "| "
    print(f"| {name} | {m:.3f} | {min(secs):.3f}-{max(secs):.3f} | {104.8576 / m:.0f} | {base['up' if up else 'down'] / m:.2f} "
          f"| {unknown} | {statistics.median(r[1] for r in runs) * 10} | {statistics.median(r[2] for r in runs) * 10} |")
PY
echo "== ls of 1,000 objects, 10 runs each"
for run in $(seq 1 10); do
  echo "direct-list $(t "$S3/bench?list-type=2&prefix=thousand/&delimiter=/")"
  echo "fm-ls       $(t -b "$B/cookies" -H 'X-Requested-With: XmlHttpRequest' "$W/api/files/ls?path=/objects/thousand")"
done
echo "Wharf and the S3 server keep running for upload.sh and histo.sh; stop them with:"
echo "  kill \$(cat $B/wharf.pid) \$(cat $B/s3proxy.pid)"
