#!/usr/bin/env bash
# Starts the 1 GB FTP upload and takes live-object histograms (each forces a full GC) while it runs.
B=${TMPDIR:-/tmp}/wharf-s3-bench; PW=bench-password; PID=$(cat $B/wharf.pid)
( head -c 1G /dev/zero | curl -s -T - -w 'upload %{time_total} s %{size_upload} bytes\n' "ftp://alice:$PW@127.0.0.1:18021/up1g.bin" > "$B/upload.out" ) &
UP=$!
n=0
while kill -0 $UP 2>/dev/null && [ $n -lt 12 ]; do
  sleep 2; n=$((n+1))
  jcmd $PID GC.class_histogram 2>/dev/null | awk 'NR<=8 || /Total/' | sed "s/^/[$n] /"
done
wait $UP; cat "$B/upload.out"
