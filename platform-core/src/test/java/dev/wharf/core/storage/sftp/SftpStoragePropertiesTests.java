package dev.wharf.core.storage.sftp;

import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.wharf.core.autoconfigure.StorageAutoConfiguration;
import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.storage.mount.MountThreads;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static dev.wharf.core.storage.StorageTestSupport.TIMEOUT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Start-up checks of {@code sftp} mounts: every bad value stops start-up naming its
 * property, secrets are never shown, and a server that cannot be reached does not stop
 * start-up.
 */
class SftpStoragePropertiesTests {

	static int closedPort;

	@BeforeAll
	static void findAClosedPort() throws Exception {
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
	}

	static Map<String, String> valid() {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("host", "127.0.0.1");
		properties.put("port", Integer.toString(closedPort));
		properties.put("username", "deploy");
		properties.put("password", "s3cret-password");
		properties.put("insecure-accept-any-host-key", "true");
		properties.put("connect-timeout", "2s");
		return properties;
	}

	@ParameterizedTest(name = "{0}={1} -> {2}")
	@CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
			host                         | ''                      | host
			port                         | 70000                   | port
			username                     | NULL                    | username
			password                     | NULL                    | password
			private-key                  | /etc/wharf/id_ed25519   | private-key
			private-key                  | file:/no/such/key       | private-key
			private-key                  | -----BEGIN OPENSSH PRIVATE KEY-----\\nbroken | private-key
			passphrase                   | only-a-passphrase       | passphrase
			credentials                  | passthrough             | username
			insecure-accept-any-host-key | false                   | known-hosts
			host-key-fingerprint         | SHA256:l/SjyCoKP8jAx3d8k8MWH+UZG0gcuIR7TQRE/A3faQo | host-key-fingerprint
			known-hosts                  | file:/no/such/known_hosts | known-hosts
			pool-size                    | 0                       | pool-size
			pool-size                    | 65                      | pool-size
			idle-timeout                 | 0s                      | idle-timeout
			connect-timeout              | 0s                      | connect-timeout
			read-timeout                 | 2h                      | read-timeout
			keep-alive                   | -1s                     | keep-alive
			max-users                    | 0                       | max-users
			io-threads                   | -1                      | io-threads
			""")
	void aBadValueStopsStartUpNamingItsProperty(String property, String value, String expected) {
		String shown = (value != null) ? value.replace("\\n", "\n") : null;
		assertThatThrownBy(() -> SftpTestMounts.create(valid(), property, shown))
			.isInstanceOfSatisfying(InvalidConfigurationException.class, ex -> {
				assertThat(ex.property()).isEqualTo("wharf.storage.mounts.test." + expected);
				assertThat(ex.getMessage()).doesNotContain("s3cret-password");
			});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			host-key-fingerprint | MD5:4b:69:6c:72:6f:79:20:77:61:73:20:68:65:72:65:21
			host-key-fingerprint | SHA1:FghNYu1l/HyE/qWbdQ2mkxrd0rU
			known-hosts          | /etc/ssh/ssh_known_hosts
			""")
	void weakFingerprintsAndKnownHostsWithoutKeysAreRefused(String property, String value) {
		Map<String, String> properties = valid();
		properties.remove("insecure-accept-any-host-key");
		assertThatThrownBy(() -> SftpTestMounts.create(properties, property, value)).isInstanceOfSatisfying(
				InvalidConfigurationException.class,
				ex -> assertThat(ex.property()).isEqualTo("wharf.storage.mounts.test." + property));
	}

	@Test
	void theSettingsShowNoSecret() {
		SftpStorageProperties properties = new SftpStorageProperties("h", 22, "u", "pw-secret",
				"-----BEGIN OPENSSH PRIVATE KEY-----\nkey-secret", "phrase-secret", null, null, true, ".",
				java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(1), java.time.Duration.ZERO, 4,
				java.time.Duration.ofMinutes(1), SftpStorageProperties.CredentialsMode.FIXED, 10, 0);
		assertThat(properties.toString()).doesNotContain("pw-secret", "key-secret", "phrase-secret");
	}

	@Test
	void anUnreachableServerDoesNotStopStartUp() {
		try (SftpStorage storage = SftpTestMounts.create(valid())) {
			assertThat(storage.capabilities()).contains(Capability.LIST, Capability.RANGE_READ, Capability.MOVE)
				.doesNotContain(Capability.ATOMIC_WRITE, Capability.NATIVE_COPY, Capability.LOCAL_FILE);
			assertThatThrownBy(() -> storage.stat(StoragePath.root()).block(TIMEOUT))
				.isInstanceOf(BackendUnavailableException.class);
		}
	}

	@Test
	void theAutoConfigurationKnowsTheSftpType() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(StorageAutoConfiguration.class))
			.withPropertyValues("wharf.storage.mounts.remote.type=sftp", "wharf.storage.mounts.remote.host=127.0.0.1",
					"wharf.storage.mounts.remote.port=" + closedPort, "wharf.storage.mounts.remote.username=u",
					"wharf.storage.mounts.remote.password=p",
					"wharf.storage.mounts.remote.insecure-accept-any-host-key=true",
					"wharf.storage.mounts.remote.connect-timeout=2s")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(MountRegistry.class).get("remote").type()).isEqualTo("sftp");
			});
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(StorageAutoConfiguration.class))
			.withPropertyValues("wharf.storage.mounts.remote.type=sftp", "wharf.storage.mounts.remote.host=h",
					"wharf.storage.mounts.remote.username=u", "wharf.storage.mounts.remote.password=p",
					"wharf.storage.mounts.remote.insecure-accept-any-host-key=true",
					"wharf.storage.mounts.remote.pool-sise=3")
			.run(context -> assertThat(context.getStartupFailure())
				.hasStackTraceContaining("wharf.storage.mounts.remote.pool-sise"));
	}

	@Test
	void theIoThreadsPerConnectionPropertySetsTheThreadsOfEveryMountThatLeavesThemAtZero() {
		assertThat(ioThreadsStarted(Map.of())).isEqualTo(48);
		assertThat(ioThreadsStarted(Map.of(SftpStorageProperties.IO_THREADS_PER_CONNECTION, "1"))).isEqualTo(12);
		assertThat(ioThreadsStarted(Map.of(SftpStorageProperties.IO_THREADS_PER_CONNECTION, "1", "io-threads", "20")))
			.isEqualTo(20);
		assertThat(ioThreadsStarted(Map.of(SftpStorageProperties.IO_THREADS_PER_CONNECTION, "1", "pool-size", "2")))
			.isEqualTo(SftpStorageProperties.MIN_DEFAULT_IO_THREADS);
	}

	@ParameterizedTest
	@CsvSource({ "0", "17", "-1", "four", "''" })
	void aBadIoThreadsPerConnectionStopsStartUpNamingTheProperty(String value) {
		assertThatThrownBy(() -> ioThreadsStarted(Map.of(SftpStorageProperties.IO_THREADS_PER_CONNECTION, value)))
			.isInstanceOfSatisfying(InvalidConfigurationException.class,
					ex -> assertThat(ex.property()).isEqualTo(SftpStorageProperties.IO_THREADS_PER_CONNECTION));
	}

	@ParameterizedTest
	@CsvSource({ "32KB", "17MB", "big", "-1", "''" })
	void aBadWindowSizeStopsStartUpNamingTheProperty(String value) {
		assertThatThrownBy(() -> SftpTestMounts.create(valid(), SftpStorageProperties.WINDOW_SIZE, value))
			.isInstanceOfSatisfying(InvalidConfigurationException.class,
					ex -> assertThat(ex.property()).isEqualTo(SftpStorageProperties.WINDOW_SIZE));
	}

	/**
	 * How many I/O threads a mount of 12 pooled connections to a closed port starts for
	 * 60 operations one after the other, each failing as the server cannot be reached
	 * (see {@link MountThreads}). Keys of {@code extra} without a dot are the mount's own
	 * properties.
	 */
	private static int ioThreadsStarted(Map<String, String> extra) {
		Map<String, String> properties = valid();
		properties.put("pool-size", "12");
		properties.putAll(extra);
		return MountThreads.started(new SftpStorageProvider(), properties, 60,
				(storage) -> assertThatThrownBy(() -> storage.stat(StoragePath.root()).block(TIMEOUT))
					.isInstanceOf(BackendUnavailableException.class));
	}

}
