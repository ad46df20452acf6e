package dev.wharf.app.helm;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the rendered chart must get right: the ports, probes, JVM profile, secrets,
 * volumes and rollout rules a running Wharf depends on.
 */
class WharfChartTests {

	@ParameterizedTest
	@CsvSource({ "ALL_MODULES, 31000, 31004, ClusterIP", "FTP_NODE_PORT, 30100, 30104, NodePort" })
	void everyPassivePortIsAContainerAndServicePortOfTheSameNumber(ValueSet valueSet, int start, int end,
			String serviceType) {
		RenderedChart chart = WharfChart.render(valueSet);
		List<Integer> range = IntStream.rangeClosed(start, end).boxed().toList();
		assertThat(chart.applicationConfig().at("/wharf/ftp/passive-ports").asString()).isEqualTo(start + "-" + end);

		List<Integer> containerPorts = new ArrayList<>();
		for (JsonNode port : chart.container().path("ports")) {
			if (port.path("name").asString().startsWith("pasv-")) {
				containerPorts.add(port.path("containerPort").asInt());
			}
		}
		assertThat(containerPorts).isEqualTo(range);

		JsonNode service = chart.get("Service", "wharf-ftp");
		assertThat(service.at("/spec/type").asString()).isEqualTo(serviceType);
		assertThat(service.at("/spec/sessionAffinity").asString()).isEqualTo("ClientIP");
		List<Integer> servicePorts = new ArrayList<>();
		for (JsonNode port : service.at("/spec/ports")) {
			if (port.path("name").asString().equals("ftp")) {
				assertThat(port.path("targetPort").asString()).isEqualTo("ftp");
				continue;
			}
			int number = port.path("port").asInt();
			// PASV replies name the server's own port: the Service, the container and the
			// node must agree.
			assertThat(port.path("targetPort").asInt()).isEqualTo(number);
			if (serviceType.equals("NodePort")) {
				assertThat(port.path("nodePort").asInt()).isEqualTo(number);
			}
			else {
				assertThat(port.has("nodePort")).isFalse();
			}
			servicePorts.add(number);
		}
		assertThat(servicePorts).isEqualTo(range);
	}

	@Test
	void theNetworkPolicyOpensExactlyThePassiveRange() {
		JsonNode policy = WharfChart.render(ValueSet.ALL_MODULES).get("NetworkPolicy", "wharf");
		JsonNode passive = null;
		for (JsonNode port : policy.at("/spec/ingress/0/ports")) {
			if (port.has("endPort")) {
				passive = port;
			}
		}
		assertThat(passive).isNotNull();
		assertThat(passive.path("port").asInt()).isEqualTo(31000);
		assertThat(passive.path("endPort").asInt()).isEqualTo(31004);
	}

	@Test
	void staticSiteSettingsReachWharfAsWritten() {
		JsonNode config = WharfChart.render(ValueSet.ALL_MODULES).applicationConfig().at("/wharf/static");
		assertThat(config.at("/sites/0/cache-control/0/value").asString())
			.isEqualTo("public, max-age=31536000, immutable");
		assertThat(config.at("/sites/0/gzip/min-size").asString()).isEqualTo("2KB");
		assertThat(config.at("/sites/0/headers/Content-Security-Policy").asString()).isEqualTo("default-src 'self'");
		assertThat(config.at("/cache/max-size").asString()).isEqualTo("8MB");
		assertThat(config.at("/max-ranges").asInt()).isEqualTo(8);
	}

	@Test
	void ftpListensOnEveryInterfaceAndFtpsUsesTheChartsCertificate() {
		String ftps = """
				wharf: {ftp: {idle-timeout: 10m, data-timeout: 30s, max-logins: 200, max-logins-per-address: 20,
				  active-mode: false, tls: {mode: explicit, required: true}}}
				tls: {enabled: true, existingSecret: wharf-tls}""";
		JsonNode ftp = WharfChart.render(ValueSet.FTP_NODE_PORT, ftps).applicationConfig().at("/wharf/ftp");
		// Wharf's own default (127.0.0.1) would be unreachable through the Service.
		assertThat(ftp.at("/address").asString()).isEqualTo("0.0.0.0");
		assertThat(ftp.at("/idle-timeout").asString()).isEqualTo("10m");
		assertThat(ftp.at("/max-logins-per-address").asInt()).isEqualTo(20);
		assertThat(ftp.at("/active-mode").asBoolean(true)).isFalse();
		assertThat(ftp.at("/tls/mode").asString()).isEqualTo("explicit");
		assertThat(ftp.at("/tls/bundle").asString()).isEqualTo("wharf");
		assertThat(ftp.at("/tls/required").asBoolean()).isTrue();
		JsonNode named = WharfChart
			.render(ValueSet.FTP_NODE_PORT, "wharf: {ftp: {tls: {mode: implicit, bundle: partners}}}")
			.applicationConfig()
			.at("/wharf/ftp/tls");
		assertThat(named.at("/bundle").asString()).isEqualTo("partners");
	}

	@Test
	void withoutFtpThereIsNoFtpServiceNorPort() {
		RenderedChart chart = WharfChart.render(ValueSet.DEFAULTS);
		assertThat(chart.find("Service", "wharf-ftp")).isEmpty();
		assertThat(chart.container().path("ports")).extracting((port) -> port.path("name").asString())
			.containsExactly("http", "management");
		assertThat(chart.applicationConfig().at("/wharf/ftp/enabled").asBoolean()).isFalse();
	}

	@ParameterizedTest
	@EnumSource(ValueSet.class)
	void probesAskActuatorOnTheManagementPortWharfListensOn(ValueSet valueSet) {
		RenderedChart chart = WharfChart.render(valueSet);
		JsonNode config = chart.applicationConfig();
		Map<String, Integer> ports = new java.util.HashMap<>();
		chart.container()
			.path("ports")
			.forEach((port) -> ports.put(port.path("name").asString(), port.path("containerPort").asInt()));
		assertThat(ports.get("management")).isEqualTo(config.at("/management/server/port").asInt());
		assertThat(ports.get("http")).isEqualTo(config.at("/server/port").asInt());
		assertThat(config.at("/server/address").asString()).isEqualTo("0.0.0.0");
		assertThat(config.at("/management/server/address").asString()).isEqualTo("0.0.0.0");
		// Plain HTTP for the kubelet and Prometheus, even when the HTTP port has TLS.
		assertThat(config.at("/management/server/ssl/enabled").asBoolean(true)).isFalse();

		JsonNode container = chart.container();
		assertThat(container.at("/startupProbe/httpGet/path").asString()).isEqualTo("/actuator/health/liveness");
		assertThat(container.at("/livenessProbe/httpGet/path").asString()).isEqualTo("/actuator/health/liveness");
		assertThat(container.at("/readinessProbe/httpGet/path").asString()).isEqualTo("/actuator/health/readiness");
		for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
			assertThat(container.at("/" + probe + "/httpGet/port").asString()).isEqualTo("management");
			assertThat(container.at("/" + probe + "/httpGet/scheme").asString("HTTP")).isEqualTo("HTTP");
		}
		// A slow start on a small CPU share must not be killed by liveness: start-up gets
		// minutes.
		JsonNode startup = container.path("startupProbe");
		assertThat(startup.path("periodSeconds").asInt() * startup.path("failureThreshold").asInt())
			.isGreaterThanOrEqualTo(120);
	}

	@ParameterizedTest
	@CsvSource({ "small, p96, 160Mi", "medium, p128, 192Mi", "large, p512, 512Mi" })
	void theProfileSetsTheJvmOptionsOfPlatformAppAndTheMemoryTogether(String profile, String file, String memory)
			throws IOException {
		RenderedChart chart = WharfChart.render(ValueSet.DEFAULTS, "profile: " + profile);
		List<String> options = List.of(chart.env("JDK_JAVA_OPTIONS").split(" "));
		List<String> expected = JvmProfileFiles.options(file);
		assertThat(expected).isNotEmpty();
		assertThat(options.subList(0, expected.size())).isEqualTo(expected);
		// After the profile, only the chart's own additions.
		assertThat(options.subList(expected.size(), options.size())).containsExactly("-XX:+ExitOnOutOfMemoryError",
				"-Djava.io.tmpdir=/tmp");
		for (String variable : JvmProfileFiles.environment(file)) {
			String[] pair = variable.split("=", 2);
			assertThat(chart.env(pair[0])).isEqualTo(pair[1]);
		}
		JsonNode resources = chart.container().path("resources");
		assertThat(resources.at("/requests/memory").asString()).isEqualTo(memory);
		assertThat(resources.at("/limits/memory").asString()).isEqualTo(memory);
	}

	@Test
	void extraJvmOptionsComeAfterTheProfileSoTheyWin() {
		RenderedChart chart = WharfChart.render(ValueSet.PROFILE_SMALL, """
				jvm:
				  optionsVariable: JAVA_TOOL_OPTIONS
				  extraOptions: ["-Xlog:gc", "-Xmx20m"]
				""");
		assertThat(chart.env("JAVA_TOOL_OPTIONS")).startsWith("-XX:+UseSerialGC -Xmx24m").endsWith(" -Xlog:gc -Xmx20m");
		assertThat(chart.container().path("env"))
			.noneMatch((variable) -> variable.path("name").asString().equals("JDK_JAVA_OPTIONS"));
	}

	@ParameterizedTest
	@EnumSource(ValueSet.class)
	void noSecretIsInAConfigMap(ValueSet valueSet) {
		RenderedChart chart = WharfChart.render(valueSet);
		for (JsonNode configMap : chart.ofKind("ConfigMap")) {
			String data = configMap.path("data").toString();
			assertThat(data).doesNotContain("{bcrypt}", "$2a$", "PRIVATE KEY", "BEGIN CERTIFICATE", "password");
		}
	}

	@Test
	void usersAndTlsGoToSecretsThePodMounts() {
		RenderedChart chart = WharfChart.render(ValueSet.ALL_MODULES);
		String users = chart.secretFile("wharf-users", "users.yaml");
		JsonNode parsed = WharfChart.YAML.readTree(users);
		assertThat(parsed.at("/wharf/security/users/0/name").asString()).isEqualTo("alice");
		assertThat(parsed.at("/wharf/security/users/0/password").asString()).startsWith("{bcrypt}$2a$10$");
		assertThat(parsed.at("/wharf/security/users/1/mounts/cache").asString()).isEqualTo("rw");
		assertThat(chart.env("SPRING_CONFIG_ADDITIONAL_LOCATION"))
			.isEqualTo("file:/etc/wharf/config/application.yaml,file:/etc/wharf/users/users.yaml");

		JsonNode tls = chart.get("Secret", "wharf-tls");
		assertThat(tls.path("type").asString()).isEqualTo("kubernetes.io/tls");
		assertThat(chart.secretFile("wharf-tls", "tls.key")).contains("BEGIN PRIVATE KEY");
		JsonNode config = chart.applicationConfig();
		assertThat(config.at("/server/ssl/bundle").asString()).isEqualTo("wharf");
		JsonNode keystore = config.at("/spring/ssl/bundle/pem/wharf/keystore");
		assertThat(keystore.path("certificate").asString()).isEqualTo("file:/etc/wharf/tls/tls.crt");
		assertThat(keystore.path("private-key").asString()).isEqualTo("file:/etc/wharf/tls/tls.key");

		assertThat(mountPathOfVolume(chart, "users")).isEqualTo("/etc/wharf/users");
		assertThat(mountPathOfVolume(chart, "tls")).isEqualTo("/etc/wharf/tls");
		assertThat(volume(chart, "users").at("/secret/secretName").asString()).isEqualTo("wharf-users");
		assertThat(volume(chart, "tls").at("/secret/secretName").asString()).isEqualTo("wharf-tls");
		// The Ingress talks HTTPS to a TLS pod, by the port's name.
		assertThat(chart.get("Ingress", "wharf").at("/spec/rules/0/http/paths/0/backend/service/port/name").asString())
			.isEqualTo("https");
		assertThat(chart.get("Service", "wharf").at("/spec/ports/0/name").asString()).isEqualTo("https");
	}

	@Test
	void anExistingSecretReplacesTheChartsOwn() {
		RenderedChart chart = WharfChart.render(ValueSet.DEFAULTS, """
				existingUsersSecret: corporate-users
				tls:
				  enabled: true
				  existingSecret: cert-manager-wharf
				""");
		assertThat(chart.ofKind("Secret")).isEmpty();
		assertThat(volume(chart, "users").at("/secret/secretName").asString()).isEqualTo("corporate-users");
		assertThat(volume(chart, "tls").at("/secret/secretName").asString()).isEqualTo("cert-manager-wharf");
		// The chart does not own them, so it cannot checksum them; Spring reloads the
		// certificate itself.
		assertThat(chart.podAnnotation("checksum/users")).isNull();
		assertThat(chart.podAnnotation("checksum/tls")).isNull();
		assertThat(chart.applicationConfig().at("/spring/ssl/bundle/pem/wharf/reload-on-update").asBoolean()).isTrue();
	}

	@Test
	void aChangedConfigMapOrSecretRollsThePods() {
		String users = """
				wharf:
				  security:
				    users:
				      - name: %s
				        password: "{bcrypt}$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"
				""";
		RenderedChart base = WharfChart.render(ValueSet.DEFAULTS, users.formatted("alice"));
		RenderedChart otherUser = WharfChart.render(ValueSet.DEFAULTS, users.formatted("bob"));
		RenderedChart otherConfig = WharfChart.render(ValueSet.DEFAULTS, users.formatted("alice"),
				"wharf: {filemanager: {enabled: false}}");
		assertThat(base.podAnnotation("checksum/config")).matches("[0-9a-f]{64}");
		assertThat(base.podAnnotation("checksum/users")).matches("[0-9a-f]{64}");
		assertThat(otherUser.podAnnotation("checksum/config")).isEqualTo(base.podAnnotation("checksum/config"));
		assertThat(otherUser.podAnnotation("checksum/users")).isNotEqualTo(base.podAnnotation("checksum/users"));
		assertThat(otherConfig.podAnnotation("checksum/config")).isNotEqualTo(base.podAnnotation("checksum/config"));
		assertThat(otherConfig.podAnnotation("checksum/users")).isEqualTo(base.podAnnotation("checksum/users"));
	}

	@Test
	void stateAndLocalMountsLiveOnTheClaimWhichOutlivesTheRelease() {
		RenderedChart chart = WharfChart.render(ValueSet.DEFAULTS);
		JsonNode config = chart.applicationConfig();
		assertThat(mountPathOfVolume(chart, "data")).isEqualTo("/var/lib/wharf");
		assertThat(config.at("/wharf/state-dir").asString()).startsWith("/var/lib/wharf/");
		assertThat(config.at("/wharf/storage/mounts/data/root").asString()).startsWith("/var/lib/wharf/");
		assertThat(volume(chart, "data").at("/persistentVolumeClaim/claimName").asString()).isEqualTo("wharf");
		JsonNode claim = chart.get("PersistentVolumeClaim", "wharf");
		assertThat(claim.at("/metadata/annotations/helm.sh~1resource-policy").asString()).isEqualTo("keep");
		assertThat(claim.at("/spec/accessModes/0").asString()).isEqualTo("ReadWriteOnce");
		// A ReadWriteOnce volume is attached to one node: the old pod must let go before
		// the new one starts.
		assertThat(chart.deployment().at("/spec/strategy/type").asString()).isEqualTo("Recreate");
		assertThat(chart.deployment().at("/spec/replicas").asInt()).isEqualTo(1);
	}

	@Test
	void aSharedExistingClaimAllowsRollingUpdatesAutoscalingAndABudget() {
		RenderedChart chart = WharfChart.render(ValueSet.SCALED);
		assertThat(chart.find("PersistentVolumeClaim", "wharf")).isEmpty();
		assertThat(volume(chart, "data").at("/persistentVolumeClaim/claimName").asString()).isEqualTo("shared-files");
		JsonNode deployment = chart.deployment();
		assertThat(deployment.at("/spec/strategy/type").asString()).isEqualTo("RollingUpdate");
		assertThat(deployment.at("/spec/replicas").isMissingNode()).as("the autoscaler owns replicas").isTrue();
		JsonNode autoscaler = chart.get("HorizontalPodAutoscaler", "wharf");
		assertThat(autoscaler.at("/spec/scaleTargetRef/name").asString()).isEqualTo("wharf");
		assertThat(autoscaler.at("/spec/minReplicas").asInt()).isEqualTo(2);
		assertThat(autoscaler.at("/spec/maxReplicas").asInt()).isEqualTo(5);
		JsonNode budget = chart.get("PodDisruptionBudget", "wharf");
		assertThat(budget.at("/spec/minAvailable").asInt()).isEqualTo(1);
		assertThat(budget.at("/spec/selector/matchLabels")).isEqualTo(deployment.at("/spec/selector/matchLabels"));
	}

	@Test
	void theChartsRedisHoldsTheStateOfReplicasWithAPasswordFromItsSecret() {
		RenderedChart chart = WharfChart.render(ValueSet.SCALED);
		JsonNode config = chart.applicationConfig();
		assertThat(config.at("/wharf/state/store").asString()).isEqualTo("redis");
		assertThat(config.at("/spring/data/redis/host").asString()).isEqualTo("wharf-redis.files.svc");
		assertThat(config.at("/spring/data/redis/port").asInt()).isEqualTo(6379);
		assertThat(config.at("/spring/data/redis/password").isMissingNode()).isTrue();
		assertThat(secretRef(chart.container(), "SPRING_DATA_REDIS_PASSWORD"))
			.isEqualTo("wharf-redis-password/password");
		assertThat(chart.find("Secret", "wharf-redis")).as("the user's Secret").isEmpty();
		assertThat(chart.podAnnotation("checksum/redis")).isNull();

		JsonNode redis = chart.get("Deployment", "wharf-redis");
		JsonNode container = redis.at("/spec/template/spec/containers/0");
		assertThat(container.path("image").asString()).startsWith("redis:");
		assertThat(secretRef(container, "REDIS_PASSWORD")).isEqualTo("wharf-redis-password/password");
		// Full means refusing new keys (Wharf answers 503), never dropping sessions; the
		// data survives a restart.
		assertThat(container.path("args").toString()).contains("\"--requirepass\",\"$(REDIS_PASSWORD)\"")
			.contains("\"--maxmemory-policy\",\"noeviction\"")
			.contains("\"--appendonly\",\"yes\"")
			.contains("\"--maxmemory\",\"64mb\"");
		assertThat(container.at("/resources/limits/memory").asString()).isEqualTo("96Mi");
		assertThat(redis.at("/spec/replicas").asInt()).isEqualTo(1);
		assertThat(redis.at("/spec/template/spec/securityContext/runAsNonRoot").asBoolean()).isTrue();
		assertThat(redis.at("/spec/template/spec/volumes/0/persistentVolumeClaim/claimName").asString())
			.isEqualTo("wharf-redis");
		assertThat(chart.get("PersistentVolumeClaim", "wharf-redis").at("/spec/accessModes/0").asString())
			.isEqualTo("ReadWriteOnce");
		assertThat(chart.get("Service", "wharf-redis").at("/spec/selector"))
			.isEqualTo(redis.at("/spec/selector/matchLabels"));
		// Only Wharf's pods may talk to it, and Wharf may talk to it.
		assertThat(chart.get("NetworkPolicy", "wharf-redis").at("/spec/ingress/0/from/0/podSelector/matchLabels"))
			.isEqualTo(chart.deployment().at("/spec/selector/matchLabels"));
		assertThat(chart.get("NetworkPolicy", "wharf").at("/spec/egress").toString())
			.contains(redis.at("/spec/selector/matchLabels").toString());
	}

	@Test
	void aRedisPasswordGivenAsAValueGoesToTheChartsSecretAndItsChangeRollsThePods() {
		String values = "redis: {auth: {existingSecret: \"\", password: %s}}";
		RenderedChart chart = WharfChart.render(ValueSet.SCALED, values.formatted("first-password"));
		assertThat(chart.secretFile("wharf-redis", "password")).isEqualTo("first-password");
		assertThat(secretRef(chart.container(), "SPRING_DATA_REDIS_PASSWORD")).isEqualTo("wharf-redis/password");
		assertThat(secretRef(chart.get("Deployment", "wharf-redis").at("/spec/template/spec/containers/0"),
				"REDIS_PASSWORD"))
			.isEqualTo("wharf-redis/password");
		assertThat(chart.ofKind("ConfigMap").toString()).doesNotContain("first-password");
		RenderedChart changed = WharfChart.render(ValueSet.SCALED, values.formatted("second-password"));
		assertThat(chart.podAnnotation("checksum/redis")).matches("[0-9a-f]{64}")
			.isNotEqualTo(changed.podAnnotation("checksum/redis"));
	}

	@Test
	void anExternalRedisWithSentinelsIsPassedOnWithTheUsersSecretAndFtpKeepsItsClients() {
		RenderedChart chart = WharfChart.render(ValueSet.EXTERNAL_REDIS);
		assertThat(chart.find("Deployment", "wharf-redis")).isEmpty();
		assertThat(chart.find("Secret", "wharf-redis")).isEmpty();
		JsonNode config = chart.applicationConfig();
		assertThat(config.at("/wharf/state/key-prefix").asString()).isEqualTo("files:");
		JsonNode redis = config.at("/spring/data/redis");
		assertThat(redis.at("/sentinel/master").asString()).isEqualTo("wharf-state");
		assertThat(redis.at("/sentinel/nodes").asString())
			.isEqualTo("sentinel-0.redis.example.com:26379,sentinel-1.redis.example.com:26380");
		assertThat(redis.at("/ssl/enabled").asBoolean()).isTrue();
		assertThat(redis.at("/username").asString()).isEqualTo("wharf");
		assertThat(redis.has("host")).isFalse();
		assertThat(secretRef(chart.container(), "SPRING_DATA_REDIS_PASSWORD"))
			.isEqualTo("redis-credentials/redis-password");
		assertThat(chart.deployment().at("/spec/replicas").asInt()).isEqualTo(3);
		// Every replica has the whole passive range, and a client's connections stay with
		// one replica.
		assertThat(chart.get("Service", "wharf-ftp").at("/spec/sessionAffinity").asString()).isEqualTo("ClientIP");
		assertThat(chart.container().path("ports").toString()).contains("pasv-30000").contains("pasv-30009");
		List<Integer> egressPorts = new ArrayList<>();
		chart.get("NetworkPolicy", "wharf")
			.at("/spec/egress")
			.forEach((rule) -> rule.path("ports").forEach((port) -> egressPorts.add(port.path("port").asInt())));
		assertThat(egressPorts).contains(26379, 26380, 6379, 22);
	}

	@Test
	void withTheLocalStoreNothingOfRedisIsRendered() {
		RenderedChart chart = WharfChart.render(ValueSet.DEFAULTS);
		assertThat(chart.find("Deployment", "wharf-redis")).isEmpty();
		assertThat(chart.applicationConfig().at("/wharf/state/store").asString()).isEqualTo("local");
		assertThat(chart.applicationConfig().at("/spring/data").isMissingNode()).isTrue();
		assertThat(chart.container().path("env").toString()).doesNotContain("REDIS");
	}

	/** "secret/key" of an environment variable taken from a Secret. */
	private static String secretRef(JsonNode container, String name) {
		for (JsonNode variable : container.path("env")) {
			if (name.equals(variable.path("name").asString())) {
				JsonNode ref = variable.at("/valueFrom/secretKeyRef");
				return ref.path("name").asString() + "/" + ref.path("key").asString();
			}
		}
		throw new AssertionError("No environment variable " + name + " in " + container.path("env"));
	}

	@Test
	void theChartsMemcachedServesMountsThatListNoServers() {
		RenderedChart chart = WharfChart.render(ValueSet.ALL_MODULES);
		JsonNode servers = chart.applicationConfig().at("/wharf/storage/mounts/cache/servers");
		assertThat(servers).extracting(JsonNode::asString).containsExactly("wharf-memcached.files.svc:11211");
		JsonNode service = chart.get("Service", "wharf-memcached");
		assertThat(service.at("/spec/ports/0/port").asInt()).isEqualTo(11211);
		JsonNode memcached = chart.get("Deployment", "wharf-memcached");
		assertThat(service.at("/spec/selector")).isEqualTo(memcached.at("/spec/selector/matchLabels"));
		assertThat(memcached.at("/spec/template/spec/containers/0/args").toString()).contains("\"-m\",\"64\"")
			.contains("\"-U\",\"0\"");
		assertThat(memcached.at("/spec/template/spec/containers/0/resources/limits/memory").asString())
			.isEqualTo("96Mi");
		assertThat(memcached.at("/spec/template/spec/securityContext/runAsNonRoot").asBoolean()).isTrue();
		// Only Wharf's pods may talk to it.
		JsonNode policy = chart.get("NetworkPolicy", "wharf-memcached");
		assertThat(policy.at("/spec/ingress/0/from/0/podSelector/matchLabels"))
			.isEqualTo(chart.deployment().at("/spec/selector/matchLabels"));
	}

	@Test
	void externalMemcachedServersArePassedOnAndLetThrough() {
		RenderedChart chart = WharfChart.render(ValueSet.EXTERNAL_MEMCACHED);
		assertThat(chart.find("Deployment", "wharf-memcached")).isEmpty();
		assertThat(chart.applicationConfig().at("/wharf/storage/mounts/cache/servers")).extracting(JsonNode::asString)
			.containsExactly("memcached-0.cache.example.com:11211", "memcached-1.cache.example.com:11212");
		assertThat(chart.applicationConfig().at("/wharf/buildcache/mount").asString()).isEqualTo("cache");
		List<Integer> egressPorts = new ArrayList<>();
		chart.get("NetworkPolicy", "wharf")
			.at("/spec/egress")
			.forEach((rule) -> rule.path("ports").forEach((port) -> egressPorts.add(port.path("port").asInt())));
		assertThat(egressPorts).contains(53, 11211, 11212);
	}

	@Test
	void s3KeysComeFromTheirSecretAndAReleaseOfOnlyS3MountsHasNoVolume() {
		RenderedChart chart = WharfChart.render(ValueSet.S3);
		JsonNode mounts = chart.applicationConfig().at("/wharf/storage/mounts");
		assertThat(mounts.propertyNames()).containsExactlyInAnyOrder("archive", "team-files");
		JsonNode team = mounts.path("team-files");
		assertThat(team.path("endpoint").asString()).isEqualTo("http://minio.storage.svc:9000");
		assertThat(team.path("prefix").asString()).isEqualTo("team");
		assertThat(team.path("part-size").asString()).isEqualTo("16MB");
		// The ConfigMap names the variables; their values come from the mount's Secret.
		assertThat(team.path("access-key").asString()).isEqualTo("${WHARF_S3_TEAM_FILES_ACCESS_KEY}");
		assertThat(team.path("secret-key").asString()).isEqualTo("${WHARF_S3_TEAM_FILES_SECRET_KEY}");
		assertThat(team.has("existingSecret")).isFalse();
		assertThat(team.has("secretKeys")).isFalse();
		JsonNode accessKey = envVariable(chart, "WHARF_S3_TEAM_FILES_ACCESS_KEY");
		assertThat(accessKey.at("/valueFrom/secretKeyRef/name").asString()).isEqualTo("minio-wharf");
		assertThat(accessKey.at("/valueFrom/secretKeyRef/key").asString()).isEqualTo("AWS_ACCESS_KEY_ID");
		assertThat(envVariable(chart, "WHARF_S3_TEAM_FILES_SECRET_KEY").at("/valueFrom/secretKeyRef/key").asString())
			.isEqualTo("AWS_SECRET_ACCESS_KEY");
		// Without a Secret the mount uses the AWS default credentials chain (the pod's
		// role): no keys at all.
		assertThat(mounts.path("archive").has("access-key")).isFalse();
		assertThat(chart.container().path("env").toString()).doesNotContain("WHARF_S3_ARCHIVE");

		// Only the chart's Redis (the state two replicas share) keeps a claim; Wharf's
		// pods have none.
		assertThat(chart.ofKind("PersistentVolumeClaim")).extracting((claim) -> claim.at("/metadata/name").asString())
			.containsExactly("wharf-redis");
		assertThat(volume(chart, "data").has("emptyDir")).isTrue();
		assertThat(chart.deployment().at("/spec/strategy/type").asString()).isEqualTo("RollingUpdate");
		assertThat(chart.deployment().at("/spec/replicas").asInt()).isEqualTo(2);
		List<Integer> egressPorts = new ArrayList<>();
		chart.get("NetworkPolicy", "wharf")
			.at("/spec/egress")
			.forEach((rule) -> rule.path("ports").forEach((port) -> egressPorts.add(port.path("port").asInt())));
		assertThat(egressPorts).contains(53, 443, 9000, 6379);
		assertThat(WharfChart.notes(ValueSet.S3)).contains("Every mount is an s3 mount, so the pod has no volume");
	}

	@Test
	void anS3MountBesideALocalOneKeepsTheVolumeAndItsKeysHaveTheirUsualNames() {
		RenderedChart chart = WharfChart.render(ValueSet.DEFAULTS, """
				wharf:
				  storage:
				    mounts:
				      objects:
				        type: s3
				        bucket: my-bucket
				        existingSecret: s3-keys
				""");
		assertThat(chart.get("PersistentVolumeClaim", "wharf")).isNotNull();
		assertThat(envVariable(chart, "WHARF_S3_OBJECTS_ACCESS_KEY").at("/valueFrom/secretKeyRef/key").asString())
			.isEqualTo("access-key");
		assertThat(envVariable(chart, "WHARF_S3_OBJECTS_SECRET_KEY").at("/valueFrom/secretKeyRef/key").asString())
			.isEqualTo("secret-key");
	}

	private static JsonNode envVariable(RenderedChart chart, String name) {
		for (JsonNode variable : chart.container().path("env")) {
			if (name.equals(variable.path("name").asString())) {
				return variable;
			}
		}
		throw new AssertionError("No environment variable " + name + " in " + chart.container().path("env"));
	}

	@Test
	void fileManagerAndSessionSettingsArePassedOn() {
		JsonNode config = WharfChart.render(ValueSet.ALL_MODULES).applicationConfig();
		assertThat(config.at("/wharf/filemanager/thumbnails/size").asInt()).isEqualTo(256);
		assertThat(config.at("/wharf/filemanager/search/time-budget").asString()).isEqualTo("1500ms");
		assertThat(config.at("/wharf/filemanager/uploads/segment-size").asString()).isEqualTo("8MB");
		assertThat(config.at("/wharf/sessions/idle-timeout").asString()).isEqualTo("8h");
	}

	@ParameterizedTest
	@EnumSource(ValueSet.class)
	void podsRunLockedDown(ValueSet valueSet) {
		RenderedChart chart = WharfChart.render(valueSet);
		for (JsonNode deployment : chart.ofKind("Deployment")) {
			JsonNode pod = deployment.at("/spec/template/spec");
			assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).isFalse();
			assertThat(pod.at("/securityContext/runAsNonRoot").asBoolean()).isTrue();
			assertThat(pod.at("/securityContext/seccompProfile/type").asString()).isEqualTo("RuntimeDefault");
			for (JsonNode container : pod.path("containers")) {
				assertThat(container.at("/securityContext/readOnlyRootFilesystem").asBoolean()).isTrue();
				assertThat(container.at("/securityContext/allowPrivilegeEscalation").asBoolean(true)).isFalse();
				assertThat(container.at("/securityContext/capabilities/drop")).extracting(JsonNode::asString)
					.containsExactly("ALL");
			}
		}
		// A read-only root needs a writable /tmp (Netty's native library, upload
		// buffers).
		assertThat(mountPathOfVolume(chart, "tmp")).isEqualTo("/tmp");
		assertThat(volume(chart, "tmp").at("/emptyDir/sizeLimit").asString()).isNotEmpty();
		assertThat(chart.get("ServiceAccount", "wharf").path("automountServiceAccountToken").asBoolean(true)).isFalse();
	}

	@Test
	void shutdownIsGracefulWithinTheGracePeriod() {
		RenderedChart chart = WharfChart.render(ValueSet.DEFAULTS,
				"shutdown: {preStopSleepSeconds: 7, timeoutSeconds: 40}");
		assertThat(chart.container().at("/lifecycle/preStop/sleep/seconds").asInt()).isEqualTo(7);
		assertThat(chart.applicationConfig().at("/spring/lifecycle/timeout-per-shutdown-phase").asString())
			.isEqualTo("40s");
		assertThat(chart.deployment().at("/spec/template/spec/terminationGracePeriodSeconds").asInt())
			.isGreaterThan(7 + 40);
	}

	@Test
	void theServiceMonitorScrapesPrometheusOnTheManagementServiceOnly() {
		RenderedChart chart = WharfChart.render(ValueSet.ALL_MODULES);
		JsonNode monitor = chart.get("ServiceMonitor", "wharf");
		assertThat(monitor.at("/spec/endpoints/0/port").asString()).isEqualTo("management");
		assertThat(monitor.at("/spec/endpoints/0/path").asString()).isEqualTo("/actuator/prometheus");
		JsonNode selector = monitor.at("/spec/selector/matchLabels");
		List<String> selected = new ArrayList<>();
		for (JsonNode service : chart.ofKind("Service")) {
			JsonNode labels = service.at("/metadata/labels");
			boolean matches = true;
			for (Map.Entry<String, JsonNode> label : selector.properties()) {
				matches &= label.getValue().equals(labels.get(label.getKey()));
			}
			if (matches) {
				selected.add(service.at("/metadata/name").asString());
			}
		}
		assertThat(selected).containsExactly("wharf-management");
		assertThat(chart.get("Service", "wharf-management").at("/spec/type").asString()).isEqualTo("ClusterIP");
	}

	@ParameterizedTest
	@EnumSource(ValueSet.class)
	void everyWharfServiceSelectsTheWharfPods(ValueSet valueSet) {
		RenderedChart chart = WharfChart.render(valueSet);
		JsonNode podLabels = chart.deployment().at("/spec/template/metadata/labels");
		for (JsonNode service : chart.ofKind("Service")) {
			String name = service.at("/metadata/name").asString();
			if (name.endsWith("-memcached") || name.endsWith("-redis")) {
				continue;
			}
			for (Map.Entry<String, JsonNode> label : service.at("/spec/selector").properties()) {
				assertThat(podLabels.get(label.getKey())).isEqualTo(label.getValue());
			}
		}
	}

	@Test
	void theNotesSayWhereTheGeneratedAdminPasswordIs() {
		String notes = WharfChart.notes(ValueSet.DEFAULTS);
		assertThat(notes).contains("kubectl logs --namespace files deployment/wharf | grep -A1 'user: *admin'")
			.contains("/var/lib/wharf/state/initial-admin")
			.contains("kubectl port-forward --namespace files service/wharf")
			.contains("the file manager")
			.contains("build cache");
		String withUsers = WharfChart.notes(ValueSet.ALL_MODULES);
		assertThat(withUsers).doesNotContain("kubectl logs")
			.contains("wharf.security.users")
			.contains("https://files.example.com/")
			.contains("passive ports 31000-31004")
			.contains("static files of mount \"data\" under /static");
	}

	@Test
	void theNotesWarnWhenPassiveRepliesWouldCarryThePodAddress() {
		assertThat(WharfChart.notes(ValueSet.FTP_NODE_PORT)).doesNotContain("WARNING");
		assertThat(WharfChart.notes(ValueSet.FTP_NODE_PORT, "wharf: {ftp: {external-address: \"\"}}"))
			.contains("WARNING: wharf.ftp.external-address is empty");
		assertThat(WharfChart.notes(ValueSet.DEFAULTS, "persistence: {enabled: false}"))
			.contains("WARNING: persistence.enabled is false")
			.contains("a new admin password is generated at every start");
	}

	@Test
	void theDockerfileRunsTheJarAsTheUserThePodExpects() throws IOException {
		String dockerfile = Files.readString(WharfChart.DIRECTORY.resolveSibling("Dockerfile"));
		JsonNode pod = WharfChart.render(ValueSet.DEFAULTS).deployment().at("/spec/template/spec/securityContext");
		assertThat(dockerfile).contains("USER " + pod.path("runAsUser").asInt() + ":" + pod.path("runAsGroup").asInt());
		assertThat(dockerfile).containsPattern("(?m)^ENTRYPOINT \\[\"java\",.*\"-jar\", \"/opt/wharf/wharf.jar\"\\]$");
		assertThat(dockerfile).contains("COPY wharf.jar /opt/wharf/wharf.jar");
	}

	private static JsonNode volume(RenderedChart chart, String name) {
		for (JsonNode volume : chart.deployment().at("/spec/template/spec/volumes")) {
			if (name.equals(volume.path("name").asString())) {
				return volume;
			}
		}
		throw new AssertionError("No volume " + name);
	}

	private static String mountPathOfVolume(RenderedChart chart, String name) {
		for (JsonNode mount : chart.container().path("volumeMounts")) {
			if (name.equals(mount.path("name").asString())) {
				return mount.path("mountPath").asString();
			}
		}
		throw new AssertionError("No volume mount " + name);
	}

}
