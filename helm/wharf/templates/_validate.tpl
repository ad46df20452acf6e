{{/*
Checks that need more than one value, so values.schema.json cannot make them. Each one stops the install with
a message naming the values, instead of a pod that never starts or a setup that silently loses data.
*/}}
{{- define "wharf.validate" -}}
{{- $v := .Values -}}
{{- $mounts := $v.wharf.storage.mounts -}}

{{- /* Ports. */ -}}
{{- $ports := list (int $v.server.port) (int $v.management.port) -}}
{{- if $v.wharf.ftp.enabled -}}
{{- $ports = append $ports (int $v.wharf.ftp.port) -}}
{{- $range := include "wharf.passiveRange" . | fromJson -}}
{{- range $ports -}}
{{- if and (ge . (int $range.start)) (le . (int $range.end)) -}}
{{- fail (printf "wharf.ftp.passive-ports: %s contains port %d, which another listener uses" (index $v.wharf.ftp "passive-ports") .) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if ne (len $ports) (len (uniq $ports)) -}}
{{- fail (printf "server.port, management.port and wharf.ftp.port must differ (got %s)" (toJson $ports)) -}}
{{- end -}}

{{- /* The state store: Redis needs exactly one place to find it, and is of no use without the redis store. */ -}}
{{- $redisState := include "wharf.redisState" . -}}
{{- $redisSources := list -}}
{{- if $v.redis.enabled -}}{{- $redisSources = append $redisSources "redis.enabled" -}}{{- end -}}
{{- if $v.externalRedis.host -}}{{- $redisSources = append $redisSources "externalRedis.host" -}}{{- end -}}
{{- if $v.externalRedis.sentinel.master -}}{{- $redisSources = append $redisSources "externalRedis.sentinel.master" -}}{{- end -}}
{{- if $redisState -}}
{{- if not $redisSources -}}
{{- fail "wharf.state.store: redis needs a Redis: redis.enabled: true for the chart's own, or externalRedis.host, or externalRedis.sentinel.master with externalRedis.sentinel.nodes" -}}
{{- end -}}
{{- if gt (len $redisSources) 1 -}}
{{- fail (printf "set only one of redis.enabled, externalRedis.host and externalRedis.sentinel.master (got %s)" (join ", " $redisSources)) -}}
{{- end -}}
{{- if and $v.redis.enabled (eq (empty $v.redis.auth.existingSecret) (empty $v.redis.auth.password)) -}}
{{- fail "redis.enabled needs its password in one place: redis.auth.existingSecret (a Secret of yours) or redis.auth.password (put into a Secret by the chart), not both and not neither" -}}
{{- end -}}
{{- if and $v.externalRedis.sentinel.master (not $v.externalRedis.sentinel.nodes) -}}
{{- fail "externalRedis.sentinel.master needs externalRedis.sentinel.nodes (host:port of each sentinel)" -}}
{{- end -}}
{{- else if $redisSources -}}
{{- fail (printf "%s is used only with wharf.state.store: redis (the store is local: the state stays in each pod)" (first $redisSources)) -}}
{{- end -}}

{{- /* Replicas: a ReadWriteOnce volume is on one node; FTP sessions must stay on one replica; the state and the
      files must be shared. */ -}}
{{- $minReplicas := int $v.replicaCount -}}
{{- $scaled := "" -}}
{{- if $v.autoscaling.enabled -}}
{{- $minReplicas = int $v.autoscaling.minReplicas -}}
{{- $scaled = "autoscaling.enabled" -}}
{{- if gt (int $v.autoscaling.minReplicas) (int $v.autoscaling.maxReplicas) -}}
{{- fail "autoscaling.minReplicas must not exceed autoscaling.maxReplicas" -}}
{{- end -}}
{{- if include "wharf.singleNodeVolume" . -}}
{{- fail "autoscaling.enabled needs a volume every replica can mount: set persistence.accessModes to [ReadWriteMany] (a ReadWriteOnce volume is attached to one node)" -}}
{{- end -}}
{{- if $v.wharf.ftp.enabled -}}
{{- fail "autoscaling.enabled cannot be used with wharf.ftp.enabled: scaling moves FTP clients between replicas in the middle of a session (use a fixed replicaCount with service.ftp.sessionAffinity: ClientIP)" -}}
{{- end -}}
{{- else if gt $minReplicas 1 -}}
{{- $scaled = printf "replicaCount: %d" $minReplicas -}}
{{- if include "wharf.singleNodeVolume" . -}}
{{- fail (printf "replicaCount: %d needs a volume every replica can mount: set persistence.accessModes to [ReadWriteMany] (a ReadWriteOnce volume is attached to one node)" $minReplicas) -}}
{{- end -}}
{{- if and $v.wharf.ftp.enabled (ne $v.service.ftp.sessionAffinity "ClientIP") -}}
{{- fail "wharf.ftp.enabled with several replicas needs service.ftp.sessionAffinity: ClientIP, so a client's data connections reach the replica that answered its PASV" -}}
{{- end -}}
{{- end -}}
{{- if $scaled -}}
{{- if not $redisState -}}
{{- fail (printf "%s needs wharf.state.store: redis (with redis.enabled or externalRedis): otherwise each replica keeps its own sessions, API tokens, login throttle and build cache index, so a replica that did not see a login answers 401 and N replicas allow N times the password guesses" $scaled) -}}
{{- end -}}
{{- range $name, $mount := $mounts -}}
{{- if and $mount (eq $mount.type "memory") -}}
{{- fail (printf "%s: wharf.storage.mounts.%s is a memory mount, which each replica keeps to itself: use one replica, or a local mount on the shared volume, or a remote mount" $scaled $name) -}}
{{- end -}}
{{- if and $mount (eq $mount.type "local") (not $v.persistence.enabled) (hasPrefix "/var/lib/wharf/" (clean $mount.root)) -}}
{{- fail (printf "%s: wharf.storage.mounts.%s is on the pod's own emptyDir (persistence.enabled: false): enable persistence with persistence.accessModes: [ReadWriteMany]" $scaled $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if $v.podDisruptionBudget.enabled -}}
{{- if lt $minReplicas 2 -}}
{{- fail "podDisruptionBudget.enabled needs at least 2 replicas (replicaCount or autoscaling.minReplicas): with one, it would block every node drain" -}}
{{- end -}}
{{- if and (not (kindIs "string" $v.podDisruptionBudget.minAvailable)) (ge (int $v.podDisruptionBudget.minAvailable) $minReplicas) -}}
{{- fail (printf "podDisruptionBudget.minAvailable: %d must be below the replica count (%d), or no pod could ever be evicted" (int $v.podDisruptionBudget.minAvailable) $minReplicas) -}}
{{- end -}}
{{- end -}}

{{- /* TLS and users. */ -}}
{{- if $v.tls.enabled -}}
{{- if and $v.tls.existingSecret (or $v.tls.certificate $v.tls.privateKey) -}}
{{- fail "tls: set either tls.existingSecret or tls.certificate and tls.privateKey, not both" -}}
{{- end -}}
{{- if and (not $v.tls.existingSecret) (not (and $v.tls.certificate $v.tls.privateKey)) -}}
{{- fail "tls.enabled needs tls.existingSecret, or both tls.certificate and tls.privateKey" -}}
{{- end -}}
{{- end -}}
{{- if and $v.existingUsersSecret $v.wharf.security.users -}}
{{- fail "set either existingUsersSecret or wharf.security.users, not both" -}}
{{- end -}}

{{- /* Mounts: where they live and what they may hold. */ -}}
{{- if not $mounts -}}
{{- fail "wharf.storage.mounts: at least one mount is needed" -}}
{{- end -}}
{{- $heap := include "wharf.maxHeapBytes" . | int64 -}}
{{- $s3Variables := dict -}}
{{- range $name, $mount := $mounts -}}
{{- if eq $mount.type "local" -}}
{{- $root := clean $mount.root -}}
{{- if not (isAbs $root) -}}
{{- fail (printf "wharf.storage.mounts.%s.root: %q must be an absolute path (under /var/lib/wharf, the volume)" $name $mount.root) -}}
{{- end -}}
{{- if or (eq $root "/var/lib/wharf") (eq $root "/var/lib/wharf/state") (hasPrefix "/var/lib/wharf/state/" $root) -}}
{{- fail (printf "wharf.storage.mounts.%s.root: %q would expose Wharf's state folder (/var/lib/wharf/state); use a folder beside it, such as /var/lib/wharf/data" $name $mount.root) -}}
{{- end -}}
{{- $writable := list "/var/lib/wharf" -}}
{{- range $v.extraVolumeMounts -}}
{{- $writable = append $writable (clean .mountPath) -}}
{{- end -}}
{{- $inside := false -}}
{{- range $writable -}}
{{- if hasPrefix (printf "%s/" .) $root -}}
{{- $inside = true -}}
{{- end -}}
{{- end -}}
{{- if not $inside -}}
{{- fail (printf "wharf.storage.mounts.%s.root: %q is not on a volume (the root file system is read-only): put it under /var/lib/wharf or under one of extraVolumeMounts" $name $mount.root) -}}
{{- end -}}
{{- else if eq $mount.type "memory" -}}
{{- $size := include "wharf.bytes" (default "64MB" (index $mount "max-size")) | int64 -}}
{{- if and (gt $heap 0) (gt $size (div (mul $heap 2) 3)) -}}
{{- fail (printf "wharf.storage.mounts.%s.max-size: %s does not fit the heap of profile %s (%d MB): at most 2/3 of it, %d MB (Wharf refuses more than 3/4 of the heap it gets); lower max-size or choose a larger profile" $name (default "64MB (the default)" (index $mount "max-size")) $v.profile (div $heap 1048576) (div (div (mul $heap 2) 3) 1048576)) -}}
{{- end -}}
{{- else if eq $mount.type "memcached" -}}
{{- if and (not (index $mount "servers")) (not $v.memcached.enabled) -}}
{{- fail (printf "wharf.storage.mounts.%s: a memcached mount needs servers, or memcached.enabled: true for the chart's own memcached" $name) -}}
{{- end -}}
{{- else if and (eq $mount.type "s3") (index $mount "existingSecret") -}}
{{- $variable := include "wharf.s3KeyVariable" (dict "mount" $name "key" "ACCESS_KEY") -}}
{{- if hasKey $s3Variables $variable -}}
{{- fail (printf "wharf.storage.mounts.%s and %s: s3 mounts whose names differ only in '-' and '_' cannot both take keys from a Secret (both would use the variable %s); rename one" (get $s3Variables $variable) $name $variable) -}}
{{- end -}}
{{- $_ := set $s3Variables $variable $name -}}
{{- end -}}
{{- end -}}

{{- /* Every mount a module or user names must exist. */ -}}
{{- $refs := list -}}
{{- range $user := $v.wharf.security.users -}}
{{- range $mount, $_ := (default dict (index $user "mounts")) -}}
{{- $refs = append $refs (list (printf "wharf.security.users[%s].mounts" $user.name) $mount) -}}
{{- end -}}
{{- end -}}
{{- range $module := list "filemanager" "ftp" -}}
{{- range (default list (index $v.wharf $module "mounts")) -}}
{{- $refs = append $refs (list (printf "wharf.%s.mounts" $module) .) -}}
{{- end -}}
{{- end -}}
{{- with index $v.wharf.buildcache "mount" -}}
{{- $refs = append $refs (list "wharf.buildcache.mount" .) -}}
{{- end -}}
{{- range $v.wharf.static.sites -}}
{{- $refs = append $refs (list (printf "wharf.static.sites[%s].mount" .prefix) .mount) -}}
{{- end -}}
{{- range $refs -}}
{{- if not (hasKey $mounts (index . 1)) -}}
{{- fail (printf "%s: no mount is named %q (mounts: %s)" (index . 0) (index . 1) (keys $mounts | sortAlpha | join ", ")) -}}
{{- end -}}
{{- end -}}
{{- end -}}
