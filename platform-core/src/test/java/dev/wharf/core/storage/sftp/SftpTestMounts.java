package dev.wharf.core.storage.sftp;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.testsupport.OpenSshServer;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Makes {@code sftp} mounts the way start-up does (properties bound through
 * {@link MountDefinition}), against a test {@link OpenSshServer}.
 */
final class SftpTestMounts {

	static final String NAME = "test";

	private SftpTestMounts() {
	}

	/**
	 * The properties of a mount that logs in as the test user with the server's client
	 * key, trusting the server through a known_hosts line.
	 */
	static Map<String, String> keyLogin(OpenSshServer server, Path root) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("host", server.host());
		properties.put("port", Integer.toString(server.port()));
		properties.put("username", server.user());
		properties.put("private-key", "file:" + server.clientKey());
		properties.put("known-hosts", server.knownHostsLine());
		properties.put("root", root.toString());
		return properties;
	}

	/**
	 * A mount from properties, with overrides; a {@code null} override removes a
	 * property. Keys with a dot are set as they are (settings shared by every sftp
	 * mount); the others are the mount's own.
	 */
	static SftpStorage create(Map<String, String> properties, String... overrides) {
		return (SftpStorage) new SftpStorageProvider().create(definition(properties, overrides));
	}

	static MountDefinition definition(Map<String, String> properties, String... overrides) {
		Map<String, String> merged = new LinkedHashMap<>(properties);
		for (int i = 0; i < overrides.length; i += 2) {
			if (overrides[i + 1] == null) {
				merged.remove(overrides[i]);
			}
			else {
				merged.put(overrides[i], overrides[i + 1]);
			}
		}
		Map<String, String> source = new LinkedHashMap<>();
		source.put(MountDefinition.PREFIX + "." + NAME + ".type", SftpStorageProvider.TYPE);
		merged.forEach((key, value) -> source
			.put(key.contains(".") ? key : MountDefinition.PREFIX + "." + NAME + "." + key, value));
		return new MountDefinition(NAME, SftpStorageProvider.TYPE,
				new Binder(new MapConfigurationPropertySource(source)));
	}

}
