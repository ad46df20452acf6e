#!/usr/bin/env bash
# 1 GB FTP upload through the running Wharf of bench.sh; samples the heap and NMT while it runs.
set -euo pipefail
B=${TMPDIR:-/tmp}/wharf-s3-bench
PW=bench-password
PID=$(cat "$B/wharf.pid")
jcmd "$PID" VM.native_memory baseline > /dev/null
( head -c 1G /dev/zero | curl -s -T - -w 'upload %{time_total} s %{size_upload} bytes\n' "ftp://alice:$PW@127.0.0.1:18021/up1g.bin" > "$B/upload.out" ) &
UP=$!
peak=0; nmtpeak=0
while kill -0 $UP 2>/dev/null; do
  used=$(jcmd "$PID" GC.heap_info 2>/dev/null | grep -oE 'used [0-9]+K' | head -1 | grep -oE '[0-9]+')
  [ -n "$used" ] && [ "$used" -gt "$peak" ] && peak=$used
  nmt=$(jcmd "$PID" VM.native_memory summary 2>/dev/null | grep -oE 'Total: reserved=[0-9]+KB, committed=[0-9]+KB' | grep -oE 'committed=[0-9]+' | grep -oE '[0-9]+')
  [ -n "$nmt" ] && [ "$nmt" -gt "$nmtpeak" ] && nmtpeak=$nmt
  sleep 0.3
done
cat "$B/upload.out"
echo "peak heap used (sampled): ${peak} KB; peak NMT committed: ${nmtpeak} KB"
jcmd "$PID" VM.native_memory summary.diff | head -40
curl -s -o /dev/null -w 'object size %{size_download}\n' "http://127.0.0.1:18091/bench/up1g.bin" -r 0-0 -I
