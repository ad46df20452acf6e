package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A site on a mount whose files live on another server (sftp, s3): files are streamed
 * from it (no zero-copy) with their validators, ranges are read from it, and a file
 * replaced there is served fresh after {@code revalidate-after}. A subclass starts the
 * server and calls {@link #serve} with a mount named {@code remote}.
 */
abstract class AbstractRemoteSiteTests {

	static MountRegistry mounts;

	static StaticTestServer server;

	/**
	 * Writes the site's files to the {@code remote} mount and serves {@code /site} of it
	 * at {@code /static}.
	 */
	static void serve(MountRegistry registry) {
		mounts = registry;
		SiteFixture.write(mounts.get("remote").storage());
		server = StaticTestServer.start(mounts, "sites[0].mount=remote", "sites[0].root=/site",
				"cache.max-file-size=1KB", "cache.revalidate-after=200ms");
	}

	@AfterAll
	static void stop() {
		if (server != null) {
			server.close();
			server = null;
		}
		if (mounts != null) {
			mounts.close();
			mounts = null;
		}
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
