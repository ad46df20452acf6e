package dev.wharf.app.helm;

import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import dev.wharf.buildcache.autoconfigure.BuildCacheProperties;
import dev.wharf.core.security.SecurityProperties;
import dev.wharf.core.session.SessionProperties;
import dev.wharf.core.state.StateProperties;
import dev.wharf.core.storage.local.LocalStorageProperties;
import dev.wharf.core.storage.memcached.MemcachedStorageProperties;
import dev.wharf.core.storage.memory.MemoryStorageProperties;
import dev.wharf.core.storage.s3.S3StorageProperties;
import dev.wharf.core.storage.sftp.SftpStorageProperties;
import dev.wharf.core.web.HttpAdmissionProperties;
import dev.wharf.core.web.HttpListenerProperties;
import dev.wharf.core.web.HttpTimeoutProperties;
import dev.wharf.filemanager.autoconfigure.FileManagerProperties;
import dev.wharf.staticfiles.site.StaticFilesProperties;
import dev.wharf.ftp.autoconfigure.FtpProperties;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * values.schema.json refuses unknown keys, so it must know every key Wharf itself
 * accepts: a setting missing from the schema could not be set through the chart at all.
 * This compares the schema of each mount type and module with the properties record Wharf
 * binds, at every depth, so a key added to Wharf fails here until the chart learns it.
 */
class WharfChartSchemaCoverageTests {

	private static JsonNode schema;

	@BeforeAll
	static void readSchema() throws IOException {
		schema = JsonMapper.builder()
			.build()
			.readTree(Files.readString(WharfChart.DIRECTORY.resolve("values.schema.json")));
	}

	static Stream<Arguments> settings() {
		return Stream.of(arguments("#/definitions/localMount", LocalStorageProperties.class, Set.of("type")),
				arguments("#/definitions/memoryMount", MemoryStorageProperties.class, Set.of("type")),
				// Passwords are secrets, and the chart puts mounts into a ConfigMap:
				// README, "sftp mounts".
				arguments("#/definitions/sftpMount", SftpStorageProperties.class,
						Set.of("type", "!password", "!passphrase")),
				arguments("#/definitions/memcachedMount", MemcachedStorageProperties.class, Set.of("type")),
				// The keys come from a Secret (existingSecret, secretKeys), never the
				// ConfigMap: README, "s3 mounts".
				arguments("#/definitions/s3Mount", S3StorageProperties.class,
						Set.of("type", "existingSecret", "secretKeys", "!access-key", "!secret-key")),
				arguments("#/properties/wharf/properties/security", SecurityProperties.class, Set.of()),
				arguments("#/properties/wharf/properties/sessions", SessionProperties.class, Set.of()),
				arguments("#/properties/wharf/properties/state", StateProperties.class, Set.of()),
				// The admission bound and the listeners are records of their own
				// under the same prefix.
				arguments("#/properties/wharf/properties/http", HttpTimeoutProperties.class,
						Set.of("admission", "accept-per-loop")),
				arguments("#/properties/wharf/properties/http", HttpListenerProperties.class,
						Set.of("admission", "header-timeout", "body-timeout", "write-timeout")),
				arguments("#/properties/wharf/properties/http/properties/admission", HttpAdmissionProperties.class,
						Set.of()),
				arguments("#/properties/wharf/properties/filemanager", FileManagerProperties.class, Set.of()),
				arguments("#/properties/wharf/properties/buildcache", BuildCacheProperties.class, Set.of()),
				arguments("#/properties/wharf/properties/static", StaticFilesProperties.class, Set.of()),
				// The chart sets the FTP address itself (0.0.0.0: every interface of the
				// pod).
				arguments("#/properties/wharf/properties/ftp", FtpProperties.class, Set.of("!address")));
	}

	/**
	 * @param exceptions schema keys Wharf does not bind ({@code type} selects the
	 * record), and keys Wharf binds that the chart deliberately does not offer, marked
	 * {@code !}
	 */
	@ParameterizedTest(name = "{0}")
	@MethodSource("settings")
	void theSchemaHasExactlyTheKeysWharfBinds(String pointer, Class<? extends Record> properties,
			Set<String> exceptions) {
		Set<String> missing = new TreeSet<>();
		Set<String> unknown = new TreeSet<>();
		compare(pointer, resolve(pointer), properties, exceptions, missing, unknown);
		assertThat(missing).as("keys Wharf binds that values.schema.json refuses").isEmpty();
		assertThat(unknown).as("keys values.schema.json accepts that Wharf does not bind").isEmpty();
	}

	private static void compare(String where, JsonNode node, Class<?> record, Set<String> exceptions,
			Set<String> missing, Set<String> unknown) {
		JsonNode keys = node.path("properties");
		Set<String> bound = new TreeSet<>();
		for (RecordComponent component : record.getRecordComponents()) {
			String key = kebab(component.getName());
			bound.add(key);
			if (exceptions.contains("!" + key)) {
				continue;
			}
			if (!keys.has(key)) {
				missing.add(where + "/" + key);
				continue;
			}
			Class<?> nested = nestedRecord(component.getGenericType());
			if (nested != null) {
				JsonNode child = follow(keys.get(key));
				compare(where + "/" + key, child.has("items") ? follow(child.get("items")) : child, nested, Set.of(),
						missing, unknown);
			}
		}
		keys.propertyNames().forEach((key) -> {
			if (!bound.contains(key) && !exceptions.contains(key)) {
				unknown.add(where + "/" + key);
			}
		});
	}

	private static Class<?> nestedRecord(Type type) {
		if (type instanceof Class<?> plain) {
			return plain.isRecord() ? plain : null;
		}
		if (type instanceof ParameterizedType generic && generic.getActualTypeArguments().length == 1) {
			return nestedRecord(generic.getActualTypeArguments()[0]);
		}
		return null;
	}

	private static JsonNode follow(JsonNode node) {
		return node.has("$ref") ? resolve(node.get("$ref").asString()) : node;
	}

	private static JsonNode resolve(String reference) {
		JsonNode node = schema.at(reference.substring(1));
		assertThat(node.isMissingNode()).as("%s in values.schema.json", reference).isFalse();
		return follow(node);
	}

	private static String kebab(String name) {
		return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
	}

}
