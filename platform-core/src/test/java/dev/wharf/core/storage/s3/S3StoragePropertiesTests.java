package dev.wharf.core.storage.s3;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.wharf.core.config.InvalidConfigurationException;
import dev.wharf.core.storage.mount.MountDefinition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tests for {@link S3StorageProperties}: the defaults, and every bad value stops start-up
 * naming the mount's property, without showing the secret key.
 */
class S3StoragePropertiesTests {

	private static final String PREFIX = "wharf.storage.mounts.objects.";

	private static S3StorageProperties bind(Map<String, String> properties) {
		Map<String, String> all = new HashMap<>(properties);
		all.put(PREFIX + "type", "s3");
		return new MountDefinition("objects", "s3", new Binder(new MapConfigurationPropertySource(all)))
			.bind(S3StorageProperties.class);
	}

	@Test
	void defaultsSuitAmazonS3WithTheDefaultCredentialsChain() {
		S3StorageProperties properties = bind(Map.of(PREFIX + "bucket", "my-bucket"));
		assertThat(properties.endpoint()).isNull();
		assertThat(properties.effectivePathStyle()).isFalse();
		assertThat(properties.hasStaticCredentials()).isFalse();
		assertThat(properties.keyPrefix()).isEmpty();
		assertThat(properties.partSize()).isEqualTo(DataSize.ofMegabytes(8));
		assertThat(properties.partsInFlight()).isEqualTo(4);
		assertThat(properties.maxListEntries()).isEqualTo(100_000);
		assertThat(properties.staleUploadAge()).isEqualTo(Duration.ofHours(24));
	}

	@Test
	void aCompatibleServerGetsPathStyleAndThePrefixLosesItsSlashes() {
		S3StorageProperties properties = bind(
				Map.of(PREFIX + "bucket", "files", PREFIX + "endpoint", "http://127.0.0.1:9000", PREFIX + "prefix",
						"/team/shared/", PREFIX + "access-key", "id", PREFIX + "secret-key", "very-secret"));
		assertThat(properties.effectivePathStyle()).isTrue();
		assertThat(properties.hasStaticCredentials()).isTrue();
		assertThat(properties.keyPrefix()).isEqualTo("team/shared/");
		assertThat(properties.toString()).doesNotContain("very-secret").contains("(hidden)");
		assertThat(bind(Map.of(PREFIX + "bucket", "files", PREFIX + "endpoint", "http://127.0.0.1:9000",
				PREFIX + "path-style", "false"))
			.effectivePathStyle()).isFalse();
	}

	@ParameterizedTest
	@CsvSource({ "bucket, ''", "bucket, ab", "bucket, Upper", "bucket, under_score", "bucket, -dash", "bucket, a..b",
			"prefix, a/../b", "prefix, a//b", "prefix, .wharf", "endpoint, ftp://host", "endpoint, http://user:pw@host",
			"endpoint, 127.0.0.1:9000", "region, EU_WEST", "connect-timeout, 10ms", "read-timeout, 2h",
			"max-connections, 0", "max-connections, 5000", "max-attempts, 0", "max-attempts, 11", "part-size, 4MB",
			"part-size, 6GB", "parts-in-flight, 0", "parts-in-flight, 65", "max-list-entries, 0",
			"stale-upload-age, 500ms", "stale-upload-age, -1s", "stale-upload-age, 400d" })
	void badValuesNameTheirProperty(String property, String value) {
		Map<String, String> properties = new HashMap<>();
		properties.put(PREFIX + "bucket", "my-bucket");
		properties.put(PREFIX + property, value);
		assertThatThrownBy(() -> bind(properties)).isInstanceOfSatisfying(InvalidConfigurationException.class,
				ex -> assertThat(ex.property()).isEqualTo(PREFIX + property));
	}

	@Test
	void aMountNeedsABucketBothKeysOrNeitherAndNoUnknownProperty() {
		assertThatThrownBy(() -> bind(Map.of())).isInstanceOfSatisfying(InvalidConfigurationException.class,
				ex -> assertThat(ex.property()).isEqualTo(PREFIX + "bucket"));
		assertThatThrownBy(() -> bind(Map.of(PREFIX + "bucket", "b-1", PREFIX + "access-key", "id")))
			.isInstanceOfSatisfying(InvalidConfigurationException.class,
					ex -> assertThat(ex.property()).isEqualTo(PREFIX + "secret-key"));
		assertThatThrownBy(() -> bind(Map.of(PREFIX + "bucket", "b-1", PREFIX + "secret-key", "hidden-value")))
			.isInstanceOfSatisfying(InvalidConfigurationException.class, ex -> {
				assertThat(ex.property()).isEqualTo(PREFIX + "access-key");
				assertThat(ex.value()).isNull();
				assertThat(ex.getMessage()).doesNotContain("hidden-value");
			});
		assertThatThrownBy(() -> bind(Map.of(PREFIX + "bucket", "b-1", PREFIX + "buckets", "x")))
			.hasStackTraceContaining("buckets");
	}

	@Test
	void zeroSwitchesTheStaleUploadSweepOff() {
		assertThat(bind(Map.of(PREFIX + "bucket", "b-1", PREFIX + "stale-upload-age", "0s")).staleUploadAge()).isZero();
	}

}
