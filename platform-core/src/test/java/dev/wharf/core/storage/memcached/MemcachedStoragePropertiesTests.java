package dev.wharf.core.storage.memcached;

import java.net.InetSocketAddress;
import java.util.Map;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.mount.MountDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link MemcachedStorageProperties} and {@link MemcachedServers}: every bad
 * value stops start-up naming the mount's property.
 */
class MemcachedStoragePropertiesTests {

	private static MemcachedStorageProperties bind(Map<String, String> properties) {
		Map<String, String> all = new java.util.HashMap<>(properties);
		all.put("wharf.storage.mounts.shared.type", "memcached");
		return new MountDefinition("shared", "memcached", new Binder(new MapConfigurationPropertySource(all)))
			.bind(MemcachedStorageProperties.class);
	}

	@Test
	void defaultsAreSafeForMemcachedsDefaultItemLimit() {
		MemcachedStorageProperties properties = bind(Map.of("wharf.storage.mounts.shared.servers[0]", "127.0.0.1"));
		assertThat(properties.chunkSize().toBytes() + MemcachedStorageProperties.HEADER_ROOM)
			.isLessThanOrEqualTo(1 << 20);
		assertThat(properties.effectiveKeyPrefix("shared")).isEqualTo("wharf:shared:");
		assertThat(properties.expiration()).isZero();
	}

	@ParameterizedTest
	@CsvSource({ "servers[0], ''", "servers[0], host:0", "servers[0], host:70000", "servers[0], host:abc",
			"servers[0], ::1", "servers[0], [::1", "servers[0], 'a b'", "key-prefix, 'has space'", "chunk-size, 100B",
			"chunk-size, 1GB", "expiration, 31d", "expiration, -1s", "operation-timeout, 0s",
			"max-reconnect-delay, 100ms" })
	void badValuesNameTheirProperty(String property, String value) {
		Map<String, String> properties = new java.util.HashMap<>();
		properties.put("wharf.storage.mounts.shared.servers[0]", "127.0.0.1:11211");
		properties.put("wharf.storage.mounts.shared." + property, value);
		assertThatThrownBy(() -> bind(properties)).isInstanceOfSatisfying(InvalidConfigurationException.class,
				ex -> assertThat(ex.property()).isEqualTo("wharf.storage.mounts.shared." + property));
	}

	@Test
	void aMountNeedsServersAndRefusesUnknownProperties() {
		assertThatThrownBy(() -> bind(Map.of())).isInstanceOfSatisfying(InvalidConfigurationException.class,
				ex -> assertThat(ex.property()).isEqualTo("wharf.storage.mounts.shared.servers"));
		assertThatThrownBy(() -> bind(Map.of("wharf.storage.mounts.shared.servers[0]", "127.0.0.1",
				"wharf.storage.mounts.shared.sever", "x")))
			.hasStackTraceContaining("sever");
	}

	@ParameterizedTest
	@ValueSource(
			strings = { "127.0.0.1", "127.0.0.1:11211", "localhost:11311", "[::1]:11212", "[::1]", "cache-1.example" })
	void serversAreHostAndPort(String value) {
		InetSocketAddress address = MemcachedServers.parse("servers[0]", value);
		assertThat(address.getHostString()).doesNotContain("[", "]");
		assertThat(address.getPort()).isBetween(1, 65535);
		if (!value.endsWith("]") && !value.contains(":")) {
			assertThat(address.getPort()).isEqualTo(MemcachedServers.DEFAULT_PORT);
		}
	}

}
