package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.staticfiles.resolve.SharedChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Local files of cached entries are sent from one shared open channel (nginx's open file
 * cache): one channel per cached file however many responses, a new one for a new
 * version, none left open when the server stops. Files too large for the cache's bytes go
 * this way.
 */
class ZeroCopyTests {

	@TempDir
	Path folder;

	@Test
	void cachedLocalFilesShareOneOpenChannelPerVersion() throws IOException {
		// Channels of servers that earlier tests stopped are closed once their last
		// response is done; the count
		// is shared by the whole test JVM, so this test starts from none open.
		await().atMost(Duration.ofSeconds(30)).until(() -> SharedChannel.openCount() == 0);
		int before = 0;
		try (StaticTestServer server = StaticTestServer.local(this.folder, "cache.revalidate-after=1h")) {
			try (RawHttp http = RawHttp.open(server.port())) {
				for (int i = 0; i < 10; i++) {
					assertThat(http.exchange("GET", "/static/big.bin").body()).isEqualTo(SiteFixture.BIG);
					assertThat(http.exchange("GET", "/static/big.bin", "Range: bytes=100-199").status()).isEqualTo(206);
				}
			}
			assertThat(SharedChannel.openCount()).isEqualTo(before + 1);
			byte[] next = StorageTestSupport.randomBytes(8, 0, 300_000);
			Path temp = Files.write(this.folder.resolve("site/.next"), next);
			Files.move(temp, this.folder.resolve("site/big.bin"), StandardCopyOption.ATOMIC_MOVE);
			CacheFreshnessTests.awaitBody(server, "/static/big.bin", SiteFixture.BIG, next);
			assertThat(SharedChannel.openCount()).isEqualTo(before + 1);
		}
		assertThat(SharedChannel.openCount()).isEqualTo(before);
	}

}
