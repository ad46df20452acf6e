package dev.wharf.app.helm;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Values the chart refuses, each with a message naming what is wrong: typos and bad
 * values through values.schema.json, and what needs several values through the chart's
 * checks at render time. Every case changes one thing in a value set that renders, so
 * each failure is the one named.
 */
class WharfChartValuesTests {

	static Stream<Arguments> refused() {
		return Stream.of(
				// Typos, at every depth.
				arguments(ValueSet.DEFAULTS, "replicaCont: 2", "additional properties 'replicaCont' not allowed"),
				arguments(ValueSet.DEFAULTS, "wharf: {ftp: {pasive-ports: 30000-30009}}",
						"additional properties 'pasive-ports'"),
				arguments(ValueSet.DEFAULTS, "wharf: {storage: {mounts: {data: {rot: /var/lib/wharf/x}}}}",
						"additional properties 'rot'"),
				arguments(ValueSet.DEFAULTS, "service: {http: {typ: NodePort}}", "additional properties 'typ'"),
				arguments(ValueSet.DEFAULTS, "probes: {liveness: {periodSecond: 5}}",
						"additional properties 'periodSecond'"),
				arguments(ValueSet.DEFAULTS, "memcached: {memoryMb: 64}", "additional properties 'memoryMb'"),
				arguments(ValueSet.DEFAULTS, "wharf: {static: {sites: [{prefix: /s, mount: data, listng: true}]}}",
						"additional properties 'listng'"),
				arguments(ValueSet.DEFAULTS, "wharf: {static: {cache: {max-sise: 1MB}}}",
						"additional properties 'max-sise'"),
				arguments(ValueSet.DEFAULTS, "wharf: {filemanager: {thumbnails: {sise: 100}}}",
						"additional properties 'sise'"),
				arguments(ValueSet.DEFAULTS, "wharf: {sessions: {idle-timout: 1h}}",
						"additional properties 'idle-timout'"),
				arguments(ValueSet.DEFAULTS, "wharf: {state: {stor: redis}}", "additional properties 'stor'"),
				arguments(ValueSet.SCALED, "redis: {maxMemoryMb: 64}", "additional properties 'maxMemoryMb'"),
				arguments(ValueSet.EXTERNAL_REDIS, "externalRedis: {sentinel: {master: m, node: []}}",
						"additional properties 'node'"),
				// Bad values.
				arguments(ValueSet.DEFAULTS, "profile: tiny", "at '/profile'"),
				arguments(ValueSet.DEFAULTS, "wharf: {storage: {mounts: {data: {type: nfs}}}}",
						"at '/wharf/storage/mounts/data/type'"),
				arguments(ValueSet.DEFAULTS, "wharf: {ftp: {passive-ports: 30000}}", "at '/wharf/ftp/passive-ports'"),
				arguments(ValueSet.DEFAULTS, "wharf: {ftp: {tls: {mode: on}}}", "at '/wharf/ftp/tls/mode'"),
				arguments(ValueSet.DEFAULTS, "wharf: {ftp: {idle-timeout: forever}}", "at '/wharf/ftp/idle-timeout'"),
				arguments(ValueSet.DEFAULTS, "server: {port: 80}", "at '/server/port'"),
				arguments(ValueSet.DEFAULTS, "wharf: {security: {users: [{name: alice, password: secret}]}}",
						"at '/wharf/security/users/0/password'"),
				arguments(ValueSet.DEFAULTS,
						"wharf: {security: {users: [{name: alice, password: \"{bcrypt}$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy\", roles: [root]}]}}",
						"at '/wharf/security/users/0/roles/0'"),
				arguments(ValueSet.DEFAULTS,
						"wharf: {storage: {mounts: {remote: {type: sftp, host: h, private-key: \"-----BEGIN OPENSSH PRIVATE KEY-----\"}}}}",
						"at '/wharf/storage/mounts/remote/private-key'"),
				arguments(ValueSet.S3, "wharf: {storage: {mounts: {archive: {secret-key: plain}}}}",
						"at '/wharf/storage/mounts/archive'"),
				arguments(ValueSet.S3, "wharf: {storage: {mounts: {archive: {bucket: Not_A_Bucket}}}}",
						"at '/wharf/storage/mounts/archive/bucket'"),
				arguments(ValueSet.S3, "wharf: {storage: {mounts: {archive: {endpoint: minio:9000}}}}",
						"at '/wharf/storage/mounts/archive/endpoint'"),
				arguments(ValueSet.DEFAULTS, "cpu: {limit: lots}", "at '/cpu/limit'"),
				arguments(ValueSet.DEFAULTS, "wharf: {state: {store: etcd}}", "at '/wharf/state/store'"),
				arguments(ValueSet.EXTERNAL_REDIS, "externalRedis: {sentinel: {nodes: [sentinel-0]}}",
						"at '/externalRedis/sentinel/nodes/0'"),
				arguments(ValueSet.DEFAULTS, "wharf: {static: {max-ranges: 0}}", "at '/wharf/static/max-ranges'"),
				arguments(ValueSet.DEFAULTS, "wharf: {filemanager: {search: {time-budget: soon}}}",
						"at '/wharf/filemanager/search/time-budget'"),
				arguments(ValueSet.DEFAULTS, "wharf: {filemanager: {max-upload-size: lots}}",
						"at '/wharf/filemanager/max-upload-size'"),
				// Checks across values, at render time.
				arguments(ValueSet.FTP_NODE_PORT, "wharf: {ftp: {passive-ports: 30104-30100}}", "starts after it ends"),
				arguments(ValueSet.FTP_NODE_PORT, "wharf: {ftp: {passive-ports: 30000-30200}}", "more than 100 ports"),
				arguments(ValueSet.FTP_NODE_PORT, "wharf: {ftp: {port: 30102}}", "contains port 30102"),
				arguments(ValueSet.DEFAULTS, "management: {port: 8334}", "must differ"),
				arguments(ValueSet.SCALED, "persistence: {accessModes: [ReadWriteOnce]}", "ReadWriteMany"),
				arguments(ValueSet.SCALED, "wharf: {ftp: {enabled: true}}", "cannot be used with wharf.ftp.enabled"),
				arguments(ValueSet.SCALED, "autoscaling: {minReplicas: 6}", "must not exceed"),
				arguments(ValueSet.DEFAULTS, "replicaCount: 2", "ReadWriteMany"),
				arguments(ValueSet.DEFAULTS,
						"persistence: {accessModes: [ReadWriteMany]}\nreplicaCount: 2\nwharf: {ftp: {enabled: true}}\nservice: {ftp: {sessionAffinity: None}}",
						"sessionAffinity: ClientIP"),
				arguments(ValueSet.DEFAULTS, "podDisruptionBudget: {enabled: true}", "at least 2 replicas"),
				// Replicas need the state in Redis and mounts every replica reaches.
				arguments(ValueSet.SCALED, "wharf: {state: {store: local}}\nredis: {enabled: false}",
						"autoscaling.enabled needs wharf.state.store: redis"),
				arguments(ValueSet.DEFAULTS, "persistence: {accessModes: [ReadWriteMany]}\nreplicaCount: 2",
						"replicaCount: 2 needs wharf.state.store: redis"),
				arguments(ValueSet.SCALED, "wharf: {storage: {mounts: {scratch: {type: memory, max-size: 8MB}}}}",
						"wharf.storage.mounts.scratch is a memory mount"),
				arguments(ValueSet.SCALED, "persistence: {enabled: false}",
						"wharf.storage.mounts.data is on the pod's own emptyDir"),
				arguments(ValueSet.DEFAULTS, "wharf: {state: {store: redis}}", "needs a Redis"),
				arguments(ValueSet.DEFAULTS, "redis: {enabled: true}",
						"redis.enabled is used only with wharf.state.store: redis"),
				arguments(ValueSet.SCALED, "externalRedis: {host: redis.example.com}", "set only one of"),
				arguments(ValueSet.SCALED, "redis: {auth: {existingSecret: \"\"}}", "needs its password in one place"),
				arguments(ValueSet.SCALED, "redis: {auth: {password: also-this}}", "needs its password in one place"),
				arguments(ValueSet.EXTERNAL_REDIS, "externalRedis: {sentinel: {nodes: []}}",
						"needs externalRedis.sentinel.nodes"),
				arguments(ValueSet.EXTERNAL_REDIS, "service: {ftp: {sessionAffinity: None}}",
						"sessionAffinity: ClientIP"),
				arguments(ValueSet.SCALED, "podDisruptionBudget: {minAvailable: 2}", "must be below the replica count"),
				arguments(ValueSet.PROFILE_SMALL, "wharf: {storage: {mounts: {scratch: {max-size: 32MB}}}}",
						"does not fit the heap of profile small"),
				arguments(ValueSet.DEFAULTS, "wharf: {storage: {mounts: {scratch: {type: memory}}}}",
						"64MB (the default) does not fit the heap of profile medium"),
				arguments(ValueSet.EXTERNAL_MEMCACHED, "wharf: {buildcache: {mount: cahce}}",
						"no mount is named \"cahce\""),
				arguments(ValueSet.DEFAULTS, "wharf: {static: {sites: [{prefix: /s, mount: www}]}}",
						"no mount is named \"www\""),
				arguments(ValueSet.EXTERNAL_MEMCACHED, "wharf: {storage: {mounts: {cache: {servers: []}}}}",
						"needs servers"),
				arguments(ValueSet.DEFAULTS, "wharf: {storage: {mounts: {data: {root: /srv/files}}}}",
						"not on a volume"),
				arguments(ValueSet.DEFAULTS, "wharf: {storage: {mounts: {data: {root: data}}}}", "absolute path"),
				arguments(ValueSet.DEFAULTS, "wharf: {storage: {mounts: {data: {root: /var/lib/wharf}}}}",
						"state folder"),
				arguments(ValueSet.DEFAULTS, "wharf: {storage: {mounts: {data: null}}}", "at least one mount"),
				arguments(ValueSet.S3,
						"wharf: {storage: {mounts: {team_files: {type: s3, bucket: other, existingSecret: k}}}}",
						"differ only in '-' and '_'"),
				arguments(ValueSet.DEFAULTS, "tls: {enabled: true}", "tls.enabled needs"),
				arguments(ValueSet.ALL_MODULES, "existingUsersSecret: corporate-users", "not both"));
	}

	@ParameterizedTest
	@MethodSource("refused")
	void refusesWithAMessageNamingTheProblem(ValueSet valueSet, String values, String message) {
		assertThatThrownBy(() -> WharfChart.render(valueSet, values)).hasMessageContaining(message);
	}

}
