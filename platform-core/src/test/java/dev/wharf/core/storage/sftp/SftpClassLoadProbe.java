package dev.wharf.core.storage.sftp;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.StoragePath;

/**
 * Run in a JVM of its own by {@link SftpBouncyCastleTests}: makes an {@code sftp} mount
 * from {@code key=value} arguments, as start-up would, lists its root, and prints how
 * many entries it found, so that the JVM's class-loading log shows what one connection
 * loads.
 */
final class SftpClassLoadProbe {

	private SftpClassLoadProbe() {
	}

	public static void main(String[] args) {
		Map<String, String> properties = new LinkedHashMap<>();
		for (String arg : args) {
			int equals = arg.indexOf('=');
			properties.put(arg.substring(0, equals), arg.substring(equals + 1));
		}
		try (SftpStorage storage = SftpTestMounts.create(properties)) {
			List<FileEntry> entries = storage.list(StoragePath.root()).collectList().block(Duration.ofSeconds(30));
			System.out.println("probe listed " + ((entries != null) ? entries.size() : -1) + " entries");
		}
	}

}
