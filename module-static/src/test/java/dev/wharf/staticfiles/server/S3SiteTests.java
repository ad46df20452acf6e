package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.mount.MountDefinition;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.storage.s3.S3ProxyProcess;
import dev.wharf.core.storage.s3.S3StorageProvider;
import dev.wharf.staticfiles.server.RawHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A site on an {@code s3} mount, against a real S3 server (S3Proxy as a separate process): the mount is made
 * from properties the way start-up makes it, files are streamed from the bucket (no zero-copy) with ranges
 * read from S3, and an object replaced in the bucket is served fresh after {@code revalidate-after}.
 */
class S3SiteTests {

	@TempDir
	static Path temp;

	static S3ProxyProcess s3;

	static MountRegistry mounts;

	static StaticTestServer server;

	@BeforeAll
	static void start() throws Exception {
		s3 = S3ProxyProcess.start(S3ProxyProcess.Backend.TRANSIENT, temp.resolve("s3"));
		s3.createBucket("site-objects");
		Map<String, String> properties = new LinkedHashMap<>(s3.mountProperties("remote", "site-objects"));
		properties.put(MountDefinition.PREFIX + ".remote.prefix", "www");
		mounts = MountRegistry.create(new Binder(new MapConfigurationPropertySource(properties)),
				List.of(new S3StorageProvider()), MountRegistry.Decorator.NONE);
		SiteFixture.write(mounts.get("remote").storage());
		server = StaticTestServer.start(mounts, "sites[0].mount=remote", "sites[0].root=/site",
				"cache.max-file-size=1KB", "cache.revalidate-after=200ms");
	}

	@AfterAll
	static void stop() {
		if (server != null) {
			server.close();
		}
		if (mounts != null) {
			mounts.close();
		}
		if (s3 != null) {
			s3.close();
		}
	}

	@Test
	void theSiteIsObjectsInTheBucket() {
		assertThat(s3.client().getObjectAsBytes(b -> b.bucket("site-objects").key("www/site/big.bin")).asByteArray())
			.isEqualTo(SiteFixture.BIG);
	}

	@Test
	void filesAreServedWholeWithTheirValidators() throws IOException {
		for (int round = 0; round < 2; round++) {
			Response small = RawHttp.exchange(server.port(), "GET", "/static/small.txt");
			assertThat(small.status()).isEqualTo(200);
			assertThat(small.body()).isEqualTo(SiteFixture.SMALL);
			Response big = RawHttp.exchange(server.port(), "GET", "/static/big.bin");
			assertThat(big.status()).isEqualTo(200);
			assertThat(big.complete()).isTrue();
			assertThat(big.body()).isEqualTo(SiteFixture.BIG);
			assertThat(big.header("etag")).isNotBlank();
			Response head = RawHttp.exchange(server.port(), "HEAD", "/static/big.bin");
			// Everything but the clock: the two responses may fall in different seconds.
			assertThat(withoutDate(head.headers())).isEqualTo(withoutDate(big.headers()));
			assertThat(head.body()).isEmpty();
			Response notModified = RawHttp.exchange(server.port(), "GET", "/static/big.bin",
					"If-None-Match: " + big.header("etag"));
			assertThat(notModified.status()).isEqualTo(304);
		}
	}

	@Test
	void rangesAreReadFromTheServer() throws IOException {
		Response part = RawHttp.exchange(server.port(), "GET", "/static/big.bin", "Range: bytes=100000-100099");
		assertThat(part.status()).isEqualTo(206);
		assertThat(part.header("content-range")).isEqualTo("bytes 100000-100099/" + SiteFixture.BIG.length);
		assertThat(part.body()).isEqualTo(Arrays.copyOfRange(SiteFixture.BIG, 100000, 100100));
	}

	@Test
	void aFileReplacedOnTheServerIsServedFresh() throws IOException {
		byte[] before = "the first version".getBytes(StandardCharsets.US_ASCII);
		byte[] after = StorageTestSupport.randomBytes(7, 0, 50_000);
		TestMounts.write(mounts.get("remote").storage(), "/site/replaced.bin", before);
		assertThat(RawHttp.exchange(server.port(), "GET", "/static/replaced.bin").body()).isEqualTo(before);
		TestMounts.write(mounts.get("remote").storage(), "/site/replaced.bin", after);
		CacheFreshnessTests.awaitBody(server, "/static/replaced.bin", before, after);
	}

	private static Map<String, List<String>> withoutDate(Map<String, List<String>> headers) {
		Map<String, List<String>> copy = new LinkedHashMap<>(headers);
		copy.remove("date");
		return copy;
	}

}
