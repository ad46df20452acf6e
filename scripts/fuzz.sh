#!/usr/bin/env bash
# Fuzzes every Jazzer @FuzzTest for a bounded time (docs/reliability.md, "Fuzzing").
#
#   scripts/fuzz.sh [seconds-per-target] [target-filter]
#
# seconds-per-target defaults to 120; target-filter (a grep pattern) picks some targets, e.g. "CacheKey".
# Each target runs in its own Maven test run with JAZZER_FUZZ=1 (Jazzer's fuzzing mode; the committed inputs
# under src/test/resources/.../<Class>Inputs/<method>/ are the seeds). The corpus grows in
# <module>/.cifuzz-corpus/ (git-ignored, reused by the next run); a crash stops the target and Jazzer writes
# the reproducer into the Inputs folder: fix the bug, commit the reproducer, and ./mvnw verify replays it.
# Prints, per target, libFuzzer's last status line (executions, coverage, corpus, exec/s); the whole log is
# <module>/target/fuzz/<Class>#<method>.log. Exit status 1 if any target
# found something.
set -uo pipefail
cd "$(dirname "$0")/.."
export LANG=C.UTF-8 LC_ALL=C.UTF-8

seconds=${1:-120}
filter=${2:-.}
targets=(
	"platform-core dev.wharf.core.storage.StoragePathFuzzTests#parse"
	"platform-core dev.wharf.core.storage.StoragePathFuzzTests#parseUriPath"
	"platform-core dev.wharf.core.storage.StoragePathFuzzTests#parseUtf8"
	"platform-core dev.wharf.core.storage.PercentDecodingFuzzTests#decodeQueryValue"
	"platform-core dev.wharf.core.storage.local.LocalStorageFuzzTests#staysInRoot"
	"platform-core dev.wharf.core.web.RangeHeaderFuzzTests#evaluate"
	"platform-core dev.wharf.core.web.PreconditionsFuzzTests#entityTagLists"
	"platform-core dev.wharf.core.web.PreconditionsFuzzTests#httpDates"
	"platform-core dev.wharf.core.web.PreconditionsFuzzTests#precedence"
	"module-filemanager dev.wharf.filemanager.http.QueryFuzzTests#parse"
	"module-filemanager dev.wharf.filemanager.http.QueryFuzzTests#encodedValuesComeBackUnchanged"
	"module-buildcache dev.wharf.buildcache.store.CacheKeyFuzzTests#parse"
	"module-buildcache dev.wharf.buildcache.access.CacheAuthenticatorFuzzTests#subjectAttribute"
	"module-ftp dev.wharf.ftp.engine.ControlLineFuzzTests#decode"
	"module-ftp dev.wharf.ftp.command.ActiveArgumentsFuzzTests#port"
	"module-ftp dev.wharf.ftp.command.ActiveArgumentsFuzzTests#eprt"
)

failed=0
for entry in "${targets[@]}"; do
	read -r module target <<< "$entry"
	grep -q -- "$filter" <<< "$target" || continue
	class=${target%#*}
	echo "== $target: ${seconds}s"
	log="$module/target/fuzz/${target##*.}.log"
	mkdir -p "$(dirname "$log")"
	# The reactor always includes platform-core (never installed): its own tests are filtered out by -Dtest.
	modules=platform-core
	[ "$module" = platform-core ] || modules="platform-core,$module"
	JAZZER_FUZZ=1 JAZZER_MAX_DURATION="${seconds}s" ./mvnw -B -ntp -o test -pl "$modules" \
		-Dtest="$target" -Dsurefire.failIfNoSpecifiedTests=false > "$log" 2>&1
	status=$?
	output="$module/target/surefire-reports/$class-output.txt"
	# libFuzzer's last status line (in Maven's log: the fork's native stderr): "#runs DONE cov: … corp: n/size … exec/s: n".
	grep -aE '^#[0-9]+' "$log" | tail -1 | sed 's/^/   /'
	if [ $status -ne 0 ]; then
		failed=1
		echo "   FINDING or failure: see $output and $log"
		grep -E 'FuzzTestFindingException|== Java Exception|Caused by' "$output" 2>/dev/null | head -5 | sed 's/^/   /'
	fi
done
exit $failed
