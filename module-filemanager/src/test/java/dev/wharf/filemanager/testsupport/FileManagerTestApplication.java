package dev.wharf.filemanager.testsupport;

import dev.wharf.core.storage.mount.StorageProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The file manager as an application for tests: every auto-configuration (core and this
 * module) plus two mount types tests need: {@code faulty} (reads of names starting with
 * {@code unreadable} fail) and {@code passthrough} (works only with the caller's
 * credentials in the Reactor context).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class FileManagerTestApplication {

	@Bean
	StorageProvider faultyStorageProvider() {
		return FaultyStorage.provider();
	}

	@Bean
	StorageProvider passthroughStorageProvider() {
		return PassthroughStorage.provider();
	}

}
