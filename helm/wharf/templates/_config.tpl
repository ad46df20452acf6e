{{/*
Wharf's application.yaml (the ConfigMap): the values under `wharf` with the users taken out (they go to a
Secret), plus what the chart decides: where state lives, the addresses, the TLS bundle, the management port.
extraConfig is merged underneath, so the chart's own settings win.
*/}}
{{- define "wharf.applicationConfig" -}}
{{- $wharf := deepCopy .Values.wharf -}}
{{- $_ := unset $wharf.security "users" -}}
{{- if not $wharf.security -}}
{{- $_ := unset $wharf "security" -}}
{{- end -}}
{{- $_ := set $wharf "state-dir" "/var/lib/wharf/state" -}}
{{- if not (index $wharf.ftp "external-address") -}}
{{- $_ := unset $wharf.ftp "external-address" -}}
{{- end -}}
{{- /* FTP listens like HTTP on every interface of the pod (Wharf's own default is 127.0.0.1). */ -}}
{{- $_ := set $wharf.ftp "address" "0.0.0.0" -}}
{{- /* FTPS without a named bundle uses the chart's certificate (tls.enabled). */ -}}
{{- if and $wharf.ftp.tls .Values.tls.enabled (not (index $wharf.ftp.tls "bundle")) -}}
{{- $_ := set $wharf.ftp.tls "bundle" "wharf" -}}
{{- end -}}
{{- range $name, $mount := $wharf.storage.mounts -}}
{{- if and $mount (eq $mount.type "memcached") (not (index $mount "servers")) $.Values.memcached.enabled -}}
{{- $_ := set $mount "servers" (list (printf "%s.%s.svc:11211" (include "wharf.memcachedName" $) $.Release.Namespace)) -}}
{{- end -}}
{{- /* An s3 mount's keys stay in its Secret: the ConfigMap names the variables the pod gets them in. */ -}}
{{- if and $mount (eq $mount.type "s3") -}}
{{- if index $mount "existingSecret" -}}
{{- $_ := set $mount "access-key" (printf "${%s}" (include "wharf.s3KeyVariable" (dict "mount" $name "key" "ACCESS_KEY"))) -}}
{{- $_ := set $mount "secret-key" (printf "${%s}" (include "wharf.s3KeyVariable" (dict "mount" $name "key" "SECRET_KEY"))) -}}
{{- end -}}
{{- $_ := unset $mount "existingSecret" -}}
{{- $_ := unset $mount "secretKeys" -}}
{{- end -}}
{{- end -}}
{{- $server := dict "address" "0.0.0.0" "port" (int .Values.server.port) -}}
{{- $spring := dict "lifecycle" (dict "timeout-per-shutdown-phase" (printf "%ds" (int .Values.shutdown.timeoutSeconds))) -}}
{{- if include "wharf.redisState" . -}}
{{- /* Where Redis is; the password comes from a Secret through SPRING_DATA_REDIS_PASSWORD (deployment.yaml). */ -}}
{{- $redis := dict -}}
{{- $external := .Values.externalRedis -}}
{{- if .Values.redis.enabled -}}
{{- $_ := set $redis "host" (printf "%s.%s.svc" (include "wharf.redisName" .) .Release.Namespace) -}}
{{- $_ := set $redis "port" 6379 -}}
{{- else if $external.sentinel.master -}}
{{- $_ := set $redis "sentinel" (dict "master" $external.sentinel.master "nodes" (join "," $external.sentinel.nodes)) -}}
{{- else -}}
{{- $_ := set $redis "host" $external.host -}}
{{- $_ := set $redis "port" (int $external.port) -}}
{{- end -}}
{{- if not .Values.redis.enabled -}}
{{- $_ := set $redis "database" (int $external.database) -}}
{{- if $external.username -}}
{{- $_ := set $redis "username" $external.username -}}
{{- end -}}
{{- if $external.tls -}}
{{- $_ := set $redis "ssl" (dict "enabled" true) -}}
{{- end -}}
{{- end -}}
{{- $_ := set $spring "data" (dict "redis" $redis) -}}
{{- end -}}
{{- if .Values.tls.enabled -}}
{{- $_ := set $server "ssl" (dict "bundle" "wharf") -}}
{{- $keystore := dict "certificate" "file:/etc/wharf/tls/tls.crt" "private-key" "file:/etc/wharf/tls/tls.key" -}}
{{- $_ := set $spring "ssl" (dict "bundle" (dict "pem" (dict "wharf" (dict "reload-on-update" true "keystore" $keystore)))) -}}
{{- end -}}
{{- /* Plain HTTP inside the cluster: the management server would otherwise take over server.ssl. */ -}}
{{- $management := dict "server" (dict "address" "0.0.0.0" "port" (int .Values.management.port) "ssl" (dict "enabled" false)) -}}
{{- $config := dict "server" $server "spring" $spring "management" $management "wharf" $wharf -}}
{{- toYaml (mergeOverwrite (deepCopy .Values.extraConfig) $config) -}}
{{- end -}}

{{/* The users file of the chart's Secret, in the same shape as application.yaml. */}}
{{- define "wharf.usersConfig" -}}
{{- toYaml (dict "wharf" (dict "security" (dict "users" .Values.wharf.security.users))) -}}
{{- end -}}

{{/* The Spring config locations: the ConfigMap's file, then the users' file (lists are replaced, not merged). */}}
{{- define "wharf.configLocations" -}}
{{- $locations := list "file:/etc/wharf/config/application.yaml" -}}
{{- if include "wharf.hasUsers" . -}}
{{- $locations = append $locations "file:/etc/wharf/users/users.yaml" -}}
{{- end -}}
{{- join "," $locations -}}
{{- end -}}
