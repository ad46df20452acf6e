package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The file cache never serves a file that changed for longer than it must: on local
 * mounts the operating system's change notifications drop entries (tested with
 * revalidation effectively off, so nothing else could); on other mounts entries are
 * revalidated after {@code revalidate-after}. Every response during a change is one whole
 * version, never a mix or a short body. Hits make no storage call.
 */
class CacheFreshnessTests {

	static final Duration PATIENCE = Duration.ofSeconds(30);

	@TempDir
	Path folder;

	@Test
	void aLocalFileReplacedWhileCachedIsServedFresh() throws IOException {
		try (StaticTestServer server = StaticTestServer.local(this.folder, "cache.revalidate-after=1h")) {
			byte[] before = SiteFixture.SMALL;
			byte[] after = "the new version, longer than before and cached as well: 0123456789 abcdefghij ...".repeat(2)
				.getBytes(StandardCharsets.US_ASCII);
			assertThat(get(server, "/static/small.txt").body()).isEqualTo(before);
			// Replaced as deploy tools do: a new file renamed over the old one.
			Path temp = Files.write(this.folder.resolve("site/.small.txt.tmp"), after);
			Files.move(temp, this.folder.resolve("site/small.txt"), StandardCopyOption.ATOMIC_MOVE);
			awaitBody(server, "/static/small.txt", before, after);
			// Overwritten in place (not atomic: a reader may see it half-written, so only
			// the end is checked).
			Files.writeString(this.folder.resolve("site/small.txt"), "third");
			await(() -> get(server, "/static/small.txt").text().equals("third"));
			// Deleted.
			Files.delete(this.folder.resolve("site/small.txt"));
			await(() -> get(server, "/static/small.txt").status() == 404);
		}
	}

	@Test
	void aLargeLocalFileReplacedWhileItsDescriptionIsCachedIsServedWhole() throws IOException {
		try (StaticTestServer server = StaticTestServer.local(this.folder, "cache.revalidate-after=1h")) {
			byte[] before = SiteFixture.BIG;
			byte[] after = StorageTestSupport.randomBytes(9, 0, 150_000);
			assertThat(get(server, "/static/big.bin").body()).isEqualTo(before);
			Path temp = Files.write(this.folder.resolve("site/.big.tmp"), after);
			Files.move(temp, this.folder.resolve("site/big.bin"), StandardCopyOption.ATOMIC_MOVE);
			awaitBody(server, "/static/big.bin", before, after);
		}
	}

	@Test
	void aPrecompressedSiblingAddedLaterIsUsed() throws IOException {
		try (StaticTestServer server = StaticTestServer.local(this.folder, "sites[0].gzip.enabled=false",
				"cache.revalidate-after=1h")) {
			assertThat(get(server, "/static/page.html", "Accept-Encoding: br").header("Content-Encoding")).isNull();
			Files.writeString(this.folder.resolve("site/page.html.br"), "brotli");
			await(() -> "br"
				.equals(get(server, "/static/page.html", "Accept-Encoding: br").header("Content-Encoding")));
		}
	}

	@Test
	void aFolderRenamedAboveACachedFileIsNoticed() throws IOException {
		Mount data = TestMounts.local("data", this.folder);
		SiteFixture.write(data.storage());
		try (StaticTestServer server = StaticTestServer.start(MountRegistry.of(data), "sites[0].mount=data",
				"sites[0].root=/", "cache.revalidate-after=1h")) {
			assertThat(get(server, "/static/site/docs/index.html").text()).isEqualTo("<h1>docs</h1>");
			Files.move(this.folder.resolve("site"), this.folder.resolve("old-site"));
			Files.createDirectories(this.folder.resolve("site/docs"));
			Files.writeString(this.folder.resolve("site/docs/index.html"), "<h1>new docs</h1>");
			await(() -> get(server, "/static/site/docs/index.html").text().equals("<h1>new docs</h1>"));
		}
	}

	@Test
	void aFileOfAnotherBackendIsRevalidatedOnTime() throws IOException {
		Mount mem = TestMounts.memory("mem");
		SiteFixture.write(mem.storage());
		try (StaticTestServer server = StaticTestServer.start(MountRegistry.of(mem), "sites[0].mount=mem",
				"sites[0].root=/site", "cache.revalidate-after=200ms")) {
			byte[] after = "new".getBytes(StandardCharsets.US_ASCII);
			assertThat(get(server, "/static/small.txt").body()).isEqualTo(SiteFixture.SMALL);
			TestMounts.write(mem.storage(), "/site/small.txt", after);
			awaitBody(server, "/static/small.txt", SiteFixture.SMALL, after);
			mem.storage()
				.delete(dev.wharf.core.storage.StoragePath.parse("/site/small.txt"), false)
				.block(StorageTestSupport.TIMEOUT);
			await(() -> get(server, "/static/small.txt").status() == 404);
		}
	}

	@Test
	void cachedHitsMakeNoStorageCall() throws IOException {
		CountingStorage storage = new CountingStorage(TestMounts.memory("mem").storage());
		try (StaticTestServer server = countedMemory(storage, "cache.revalidate-after=1h")) {
			for (String target : new String[] { "/static/small.txt", "/static/big.bin", "/static/docs/" }) {
				get(server, target);
				storage.calls().clear();
				try (RawHttp http = RawHttp.open(server.port())) {
					for (int i = 0; i < 20; i++) {
						assertThat(http.exchange("GET", target).status()).isEqualTo(200);
					}
				}
				// The small file's bytes are cached; the big one is only described, so it
				// is read each time.
				assertThat(storage.calls()).as(target).allMatch(call -> call.startsWith("read /site/big.bin"));
			}
		}
	}

	@Test
	void withTheCacheOffEveryRequestAsksTheStorage() throws IOException {
		CountingStorage storage = new CountingStorage(TestMounts.memory("mem").storage());
		try (StaticTestServer server = countedMemory(storage, "cache.enabled=false")) {
			storage.calls().clear();
			for (int i = 0; i < 5; i++) {
				assertThat(get(server, "/static/small.txt").body()).isEqualTo(SiteFixture.SMALL);
			}
			assertThat(storage.calls()).filteredOn(call -> call.equals("stat /site/small.txt")).hasSize(5);
			assertThat(server.files().cache().size()).isZero();
		}
	}

	/**
	 * A server whose only site serves the fixture from a memory mount through a counting
	 * storage.
	 */
	static StaticTestServer countedMemory(CountingStorage storage, String cacheProperty) {
		SiteFixture.write(storage);
		return StaticTestServer.start(MountRegistry.of(new Mount("mem", "memory", storage)), "sites[0].mount=mem",
				"sites[0].root=/site", cacheProperty);
	}

	static Response get(StaticTestServer server, String target, String... headers) throws IOException {
		return RawHttp.exchange(server.port(), "GET", target, headers);
	}

	/**
	 * Waits for the new version, checking that every response meanwhile is one whole
	 * version.
	 */
	static void awaitBody(StaticTestServer server, String target, byte[] before, byte[] after) throws IOException {
		await(() -> {
			Response response = get(server, target);
			assertThat(response.complete()).isTrue();
			assertThat(response.body()).satisfiesAnyOf(body -> assertThat(body).isEqualTo(before),
					body -> assertThat(body).isEqualTo(after));
			return java.util.Arrays.equals(response.body(), after);
		});
	}

	static void await(IoCondition condition) {
		Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(20)).until(condition::holds);
	}

	@FunctionalInterface
	interface IoCondition {

		boolean holds() throws IOException;

	}

}
