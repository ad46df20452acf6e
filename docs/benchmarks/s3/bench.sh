#!/usr/bin/env bash
# Measures an s3 mount against S3Proxy on 127.0.0.1 (run from the repository root after ./mvnw verify).
set -euo pipefail
B=${TMPDIR:-/tmp}/wharf-s3-bench
JAR=platform-app/target/wharf.jar
S3JAR=platform-core/target/s3proxy/s3proxy.jar
S3=http://127.0.0.1:18091
W=http://127.0.0.1:18334
PW=bench-password
rm -rf "$B/s3data" "$B/state"; mkdir -p "$B/s3data" "$B/state"
cat > "$B/s3proxy.conf" <<CONF
s3proxy.endpoint=$S3
s3proxy.authorization=none
jclouds.provider=filesystem
jclouds.identity=x
jclouds.credential=y
jclouds.filesystem.basedir=$B/s3data
CONF
java -jar "$S3JAR" --properties "$B/s3proxy.conf" > "$B/s3proxy.log" 2>&1 &
echo $! > "$B/s3proxy.pid"
for i in $(seq 1 100); do curl -s -o /dev/null "$S3/" && break; sleep 0.2; done
curl -s -X PUT "$S3/bench" -o /dev/null
[ -f "$B/big.bin" ] || head -c 100M /dev/urandom > "$B/big.bin"
curl -s -T "$B/big.bin" "$S3/bench/site/big.bin" -o /dev/null
seq 1 1000 | xargs -P 8 -I{} curl -s -X PUT --data-binary "file {}" "$S3/bench/thousand/f{}" -o /dev/null
HASH=$(printf '%s\n' "$PW" | java -jar "$JAR" hash-password 2>/dev/null | grep -o '{bcrypt}.*')
cat > "$B/application.yaml" <<YAML
server: { port: 18334 }
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
for i in $(seq 1 300); do curl -s -o /dev/null "$W/static/big.bin" -r 0-0 && break; sleep 0.2; done
curl -s -c "$B/cookies" -H 'Content-Type: application/json' -d "{\"username\":\"alice\",\"password\":\"$PW\"}" "$W/api/session" -o /dev/null
t() { curl -s -o /dev/null -w '%{time_total} %{size_download}\n' "$@"; }
echo "== 100 MB download, 5 runs each (seconds, bytes)"
for run in 1 2 3 4 5; do
  echo "direct    $(t "$S3/bench/site/big.bin")"
  echo "fm-cat    $(t -b "$B/cookies" -H 'X-Requested-With: XmlHttpRequest' "$W/api/files/cat?path=/objects/site/big.bin")"
  echo "ftp-retr  $(t "ftp://alice:$PW@127.0.0.1:18021/site/big.bin")"
  echo "static    $(t "$W/static/big.bin")"
done
echo "== ls of 1,000 objects, 10 runs each"
for run in $(seq 1 10); do
  echo "direct-list $(t "$S3/bench?list-type=2&prefix=thousand/&delimiter=/")"
  echo "fm-ls       $(t -b "$B/cookies" -H 'X-Requested-With: XmlHttpRequest' "$W/api/files/ls?path=/objects/thousand")"
done
echo "Wharf and S3Proxy keep running for upload.sh and histo.sh; stop them with:"
echo "  kill \$(cat $B/wharf.pid) \$(cat $B/s3proxy.pid)"
