package dev.wharf.staticfiles.server;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.storage.s3.S3ProxyProcess;
import dev.wharf.core.storage.s3.S3StorageProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A site on an {@code s3} mount under a prefix, against a real S3 server (S3Proxy as a
 * separate process), the mount made from properties the way start-up makes it.
 */
class S3SiteTests extends AbstractRemoteSiteTests {

	private static final String BUCKET = "site-objects";

	@TempDir
	static Path temp;

	static S3ProxyProcess s3;

	@BeforeAll
	static void start() throws Exception {
		s3 = S3ProxyProcess.start(S3ProxyProcess.Backend.TRANSIENT, temp.resolve("s3"));
		s3.createBucket(BUCKET);
		Map<String, String> properties = new LinkedHashMap<>(s3.mountProperties("remote", BUCKET));
		properties.put(MountDefinition.PREFIX + ".remote.prefix", "www");
		serve(MountRegistry.create(new Binder(new MapConfigurationPropertySource(properties)),
				List.of(new S3StorageProvider()), MountRegistry.Decorator.NONE));
	}

	@AfterAll
	static void stopS3() {
		stop();
		if (s3 != null) {
			s3.close();
		}
	}

	@Test
	void theSiteIsObjectsInTheBucket() {
		assertThat(s3.client().getObjectAsBytes(b -> b.bucket(BUCKET).key("www/site/big.bin")).asByteArray())
			.isEqualTo(SiteFixture.BIG);
	}

}
