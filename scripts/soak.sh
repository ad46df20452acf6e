#!/usr/bin/env bash
# Soak run: the packaged jar in a JVM profile with real backends, all four protocols under steady load, a
# backend killed and restarted at half time, resources sampled to a CSV; fails unless the lines are flat
# (docs/reliability/faults-soak.md).
#
#   scripts/soak.sh                                   # 30 minutes, p128, sshd and memcached killed at 15 min
#   DURATION=600 SAMPLE_EVERY=20 scripts/soak.sh      # a 10-minute run
#
# Environment (all optional):
#   DURATION       seconds of load, default 1800 (the run stops by itself after it)
#   SAMPLE_EVERY   seconds between samples, default 30
#   KILL           sshd | memcached | both | none, default both
#   OUTAGE         seconds the killed backends stay down, default 20
#   PROFILE        JVM profile of platform-app/src/main/jvm, default p128
#   MEMORY_LIMIT   none (default), profile (the profile's budget as a memory cgroup: 128 MB for p128; needs root)
#                  or a size such as 192M
#   OUT            output folder, default target/soak-<UTC time>: soak.csv, summary.md, wharf.log, the
#                  backends' logs, a copy of the jar and work/ (the mounts' folders)
#   JAVA_HOME      the JDK to run Wharf with (default: java on the PATH)
#   JUNIT          yes (default): first run the JUnit tests tagged "soak" (./mvnw -Psoak: thousands of idle
#                  connections against the application, too many for ./mvnw verify); no: skip them
# Needs: platform-app/target/wharf.jar (./mvnw -q -DskipTests package -pl platform-app -am), python3,
# memcached, OpenSSH's sshd and ssh-keygen, jcmd (from the JDK). Uses 127.0.0.1 only, free ports.
# Exit status: 0 flat and no unexpected errors, 1 a check failed, 2 the set-up failed.
set -euo pipefail
cd "$(dirname "$0")/.."
export LANG=C.UTF-8 LC_ALL=C.UTF-8

[ -f platform-app/target/wharf.jar ] || { echo "soak: build the jar first: ./mvnw -q -DskipTests package -pl platform-app -am" >&2; exit 2; }
for program in python3 memcached ssh-keygen jcmd; do
	command -v "$program" > /dev/null || { echo "soak: $program is missing" >&2; exit 2; }
done
[ -x "$(command -v sshd || echo /usr/sbin/sshd)" ] || { echo "soak: sshd is missing (openssh-server)" >&2; exit 2; }

if [ "${JUNIT:-yes}" = yes ]; then
	./mvnw -B -ntp -q -Psoak -pl platform-app -am test -Dtest=IdleConnectionsTests \
		-Dsurefire.failIfNoSpecifiedTests=false || { echo "soak: the JUnit soak tests failed" >&2; exit 1; }
fi

out=${OUT:-target/soak-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out"
# A copy of the jar, so that a build during the run cannot change the jar under the running JVM.
cp platform-app/target/wharf.jar "$out/wharf.jar"
export WHARF_JAR="$(cd "$out" && pwd)/wharf.jar"
exec python3 scripts/soak.py --duration "${DURATION:-1800}" --sample-every "${SAMPLE_EVERY:-30}" \
	--kill "${KILL:-both}" --outage "${OUTAGE:-20}" --profile "${PROFILE:-p128}" \
	--memory-limit "${MEMORY_LIMIT:-none}" --out "$out"
