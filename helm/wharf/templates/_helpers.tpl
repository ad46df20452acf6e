{{/* Names and labels. */}}
{{- define "wharf.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "wharf.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Names of the other objects: the suffix is kept whole, the release part is cut. */}}
{{- define "wharf.memcachedName" -}}
{{- printf "%s-memcached" (include "wharf.fullname" . | trunc 53 | trimSuffix "-") -}}
{{- end -}}

{{- define "wharf.redisName" -}}
{{- printf "%s-redis" (include "wharf.fullname" . | trunc 57 | trimSuffix "-") -}}
{{- end -}}

{{/* The Secret and key of the Redis password: the chart's Redis, or externalRedis's ("" when it has none). */}}
{{- define "wharf.redisSecretName" -}}
{{- if .Values.redis.enabled -}}
{{- default (include "wharf.redisName" .) .Values.redis.auth.existingSecret -}}
{{- else -}}
{{- .Values.externalRedis.existingSecret -}}
{{- end -}}
{{- end -}}

{{- define "wharf.redisSecretKey" -}}
{{- if .Values.redis.enabled -}}
{{- .Values.redis.auth.existingSecretKey -}}
{{- else -}}
{{- .Values.externalRedis.existingSecretKey -}}
{{- end -}}
{{- end -}}

{{/* Whether the state is in Redis ("true" or ""). */}}
{{- define "wharf.redisState" -}}
{{- if eq (toString (index (default dict .Values.wharf.state) "store")) "redis" -}}
true
{{- end -}}
{{- end -}}

{{- define "wharf.ftpServiceName" -}}
{{- printf "%s-ftp" (include "wharf.fullname" . | trunc 59 | trimSuffix "-") -}}
{{- end -}}

{{- define "wharf.managementServiceName" -}}
{{- printf "%s-management" (include "wharf.fullname" . | trunc 52 | trimSuffix "-") -}}
{{- end -}}

{{- define "wharf.usersSecretName" -}}
{{- default (printf "%s-users" (include "wharf.fullname" . | trunc 57 | trimSuffix "-")) .Values.existingUsersSecret -}}
{{- end -}}

{{- define "wharf.tlsSecretName" -}}
{{- default (printf "%s-tls" (include "wharf.fullname" . | trunc 59 | trimSuffix "-")) .Values.tls.existingSecret -}}
{{- end -}}

{{- define "wharf.claimName" -}}
{{- default (include "wharf.fullname" .) .Values.persistence.existingClaim -}}
{{- end -}}

{{- define "wharf.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "wharf.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "wharf.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels of every object; pass (dict "root" $ "component" "server"). */}}
{{- define "wharf.labels" -}}
helm.sh/chart: {{ include "wharf.chart" .root }}
{{ include "wharf.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
{{- end -}}

{{- define "wharf.selectorLabels" -}}
app.kubernetes.io/name: {{ include "wharf.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/*
The profile: memory budget, default CPU and the name of the JVM option files (files/jvm/<file>.options and
.env, copies of platform-app/src/main/jvm; a test keeps them equal). Returned as JSON.
*/}}
{{- define "wharf.profile" -}}
{{- $profiles := dict
  "small" (dict "file" "p96" "memory" "160Mi" "cpuRequest" "250m" "cpuLimit" "1")
  "medium" (dict "file" "p128" "memory" "192Mi" "cpuRequest" "500m" "cpuLimit" "2")
  "large" (dict "file" "p512" "memory" "512Mi" "cpuRequest" "1" "cpuLimit" "4") -}}
{{- $profile := get $profiles .Values.profile -}}
{{- if not $profile -}}
{{- fail (printf "profile: %q is not one of small, medium, large" .Values.profile) -}}
{{- end -}}
{{- toJson $profile -}}
{{- end -}}

{{/* Lines of a profile file without blank lines and comments ("#" at the start or after a blank); as JSON. */}}
{{- define "wharf.profileLines" -}}
{{- $content := .root.Files.Get (printf "files/jvm/%s" .file) -}}
{{- if not $content -}}
{{- fail (printf "files/jvm/%s is missing from the chart" .file) -}}
{{- end -}}
{{- $lines := list -}}
{{- range splitList "\n" $content -}}
{{- $line := regexReplaceAll "(^|\\s)#.*$" . "" | trim -}}
{{- if $line -}}
{{- $lines = append $lines $line -}}
{{- end -}}
{{- end -}}
{{- toJson $lines -}}
{{- end -}}

{{/* Every JVM option: the profile's, then the chart's own, then jvm.extraOptions; as JSON. */}}
{{- define "wharf.jvmOptions" -}}
{{- $profile := include "wharf.profile" . | fromJson -}}
{{- $options := include "wharf.profileLines" (dict "root" . "file" (printf "%s.options" $profile.file)) | fromJsonArray -}}
{{- $options = concat $options (list "-XX:+ExitOnOutOfMemoryError" "-Djava.io.tmpdir=/tmp") .Values.jvm.extraOptions -}}
{{- toJson $options -}}
{{- end -}}

{{/* The maximum heap in bytes from the last -Xmx option, or 0 without one. */}}
{{- define "wharf.maxHeapBytes" -}}
{{- $heap := 0 -}}
{{- range include "wharf.jvmOptions" . | fromJsonArray -}}
{{- if regexMatch "^-Xmx[0-9]+[kKmMgG]?$" . -}}
{{- $heap = include "wharf.bytes" (trimPrefix "-Xmx" .) -}}
{{- end -}}
{{- end -}}
{{- $heap -}}
{{- end -}}

{{/* A size such as 64MB, 64m or 1024 in bytes (Spring's DataSize and the JVM's units are both binary). */}}
{{- define "wharf.bytes" -}}
{{- $value := upper (toString .) -}}
{{- $number := regexFind "^[0-9]+" $value | int64 -}}
{{- $unit := trimSuffix "B" (regexReplaceAll "^[0-9]+" $value "") -}}
{{- $factors := dict "" 1 "K" 1024 "M" 1048576 "G" 1073741824 "T" 1099511627776 -}}
{{- mul $number (get $factors $unit) -}}
{{- end -}}

{{/* The FTP passive range as JSON {"start": n, "end": n}; fails unless start <= end. */}}
{{- define "wharf.passiveRange" -}}
{{- $range := index .Values.wharf.ftp "passive-ports" | toString -}}
{{- if not (regexMatch "^[0-9]+-[0-9]+$" $range) -}}
{{- fail (printf "wharf.ftp.passive-ports: %q must be one range START-END, e.g. 30000-30009" $range) -}}
{{- end -}}
{{- $bounds := splitList "-" $range -}}
{{- $start := index $bounds 0 | int -}}
{{- $end := index $bounds 1 | int -}}
{{- if gt $start $end -}}
{{- fail (printf "wharf.ftp.passive-ports: %q starts after it ends (start must be <= end)" $range) -}}
{{- end -}}
{{- if or (lt $start 1024) (gt $end 65535) -}}
{{- fail (printf "wharf.ftp.passive-ports: %q must lie within 1024-65535" $range) -}}
{{- end -}}
{{- if gt (sub $end $start) 99 -}}
{{- fail (printf "wharf.ftp.passive-ports: %q has more than 100 ports; every port becomes a Service port" $range) -}}
{{- end -}}
{{- toJson (dict "start" $start "end" $end) -}}
{{- end -}}

{{/* The passive ports as a JSON list of integers. */}}
{{- define "wharf.passivePorts" -}}
{{- $range := include "wharf.passiveRange" . | fromJson -}}
{{- toJson (untilStep (int $range.start) (int (add1 $range.end)) 1) -}}
{{- end -}}

{{/*
Whether /var/lib/wharf is a PersistentVolumeClaim ("true" or ""): with persistence.enabled, unless every mount is
an s3 mount and no existingClaim is named. Such a release keeps its files in buckets, so only Wharf's state
(the generated admin's hash) would be on the volume, and an emptyDir lets replicas roll and scale freely.
*/}}
{{- define "wharf.persistent" -}}
{{- if .Values.persistence.enabled -}}
{{- $needed := .Values.persistence.existingClaim -}}
{{- range $name, $mount := .Values.wharf.storage.mounts -}}
{{- if and $mount (ne $mount.type "s3") -}}
{{- $needed = true -}}
{{- end -}}
{{- end -}}
{{- if $needed -}}
true
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Whether every mount is an s3 mount ("true" or ""). */}}
{{- define "wharf.onlyS3Mounts" -}}
{{- $others := false -}}
{{- range $name, $mount := .Values.wharf.storage.mounts -}}
{{- if and $mount (ne $mount.type "s3") -}}
{{- $others = true -}}
{{- end -}}
{{- end -}}
{{- if not $others -}}
true
{{- end -}}
{{- end -}}

{{/* The environment variable that carries one key of an s3 mount's existingSecret: dict "mount" and "key". */}}
{{- define "wharf.s3KeyVariable" -}}
{{- printf "WHARF_S3_%s_%s" (.mount | upper | replace "-" "_") .key -}}
{{- end -}}

{{/* Whether the volume can be mounted by one node only ("true" or ""). */}}
{{- define "wharf.singleNodeVolume" -}}
{{- if and (include "wharf.persistent" .) (or (has "ReadWriteOnce" .Values.persistence.accessModes) (has "ReadWriteOncePod" .Values.persistence.accessModes)) -}}
true
{{- end -}}
{{- end -}}

{{/* Whether Wharf has users in a Secret ("true" or ""). */}}
{{- define "wharf.hasUsers" -}}
{{- if or .Values.existingUsersSecret .Values.wharf.security.users -}}
true
{{- end -}}
{{- end -}}

{{/* The HTTP scheme of the HTTP port. */}}
{{- define "wharf.scheme" -}}
{{- if .Values.tls.enabled }}https{{ else }}http{{ end -}}
{{- end -}}

{{- define "wharf.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
