package dev.wharf.buildcache.http;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;

import dev.wharf.buildcache.testsupport.BuildCacheTestApplication;
import dev.wharf.buildcache.testsupport.CacheTestUsers;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.testsupport.WharfTestProperties;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.wharf.core.testsupport.RawHttp.headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Copies of small entries in memory on a local mount, over HTTP on 127.0.0.1: GETs of an
 * entry just written or read are answered without the storage, and an entry deleted or
 * replaced behind the cache's back stops being served within the revalidation time, while
 * a PUT through the cache is never followed by its old bytes.
 */
@SpringBootTest(classes = BuildCacheTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class LocalHotEntriesTests {

	private static final Duration REVALIDATE = Duration.ofMillis(300);

	@TempDir
	static Path temp;

	@LocalServerPort
	int port;

	@Autowired
	MeterRegistry meters;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		WharfTestProperties.localMount(registry, temp);
		CacheTestUsers.register(registry);
		registry.add("wharf.buildcache.hot-entries.revalidate-after", () -> REVALIDATE.toMillis() + "ms");
	}

	@Test
	void aWrittenEntryIsServedWithoutReadingTheFile() throws IOException {
		byte[] entry = StorageTestSupport.randomBytes(1, 0, 4096);
		assertThat(put("written", entry)).isEqualTo(201);
		long reads = storageCalls("read");
		for (int i = 0; i < 5; i++) {
			Response response = get("written");
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).isEqualTo(entry);
		}
		// From the copy: at once, or after a stat that finds the file unchanged when the
		// copy was due (HotEntriesTests counts each way on a clock of its own).
		assertThat(storageCalls("read")).as("reads").isEqualTo(reads);
	}

	@Test
	void anEntryDeletedBehindTheCachesBackIsA404WithinTheRevalidationTime() throws IOException {
		byte[] entry = StorageTestSupport.randomBytes(2, 0, 128);
		assertThat(put("deleted", entry)).isEqualTo(201);
		assertThat(get("deleted").body()).isEqualTo(entry);
		Files.delete(entryFile("deleted"));
		long deletedAt = System.nanoTime();
		await().atMost(REVALIDATE.plusSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> {
			Response response = get("deleted");
			// Until then, nothing but the entry.
			assertThat(response.status() == 404 || (response.status() == 200 && Arrays.equals(response.body(), entry)))
				.isTrue();
			return response.status() == 404;
		});
		// Each GET from now on is a miss.
		for (int i = 0; i < 5; i++) {
			assertThat(get("deleted").status()).isEqualTo(404);
		}
		assertThat(Duration.ofNanos(System.nanoTime() - deletedAt)).isLessThan(REVALIDATE.plusSeconds(5));
	}

	@Test
	void anEntryReplacedBehindTheCachesBackIsServedNewWithinTheRevalidationTime() throws IOException {
		byte[] old = StorageTestSupport.randomBytes(3, 0, 4096);
		assertThat(put("replaced", old)).isEqualTo(201);
		assertThat(get("replaced").body()).isEqualTo(old);
		byte[] newer = StorageTestSupport.randomBytes(4, 0, 4096);
		Path other = temp.resolve("data/other");
		Files.write(other, newer);
		Files.move(other, entryFile("replaced"), StandardCopyOption.REPLACE_EXISTING);
		await().atMost(REVALIDATE.plusSeconds(5))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> Arrays.equals(get("replaced").body(), newer));
		assertThat(get("replaced").body()).isEqualTo(newer);
	}

	@Test
	void aGetAfterAPutNeverAnswersTheBytesThePutReplaced() throws IOException {
		for (int i = 0; i < 20; i++) {
			byte[] entry = StorageTestSupport.randomBytes(100 + i, 0, 128 + i);
			assertThat(put("put-then-get", entry)).isEqualTo(201);
			Response response = get("put-then-get");
			assertThat(response.status()).isEqualTo(200);
			assertThat(response.body()).as("GET after PUT %d", i).isEqualTo(entry);
		}
	}

	private Path entryFile(String key) {
		return temp.resolve("data/.wharf-buildcache").resolve(key);
	}

	private long storageCalls(String operation) {
		return this.meters.find("wharf.storage.operations")
			.tags("mount", "data", "operation", operation)
			.timers()
			.stream()
			.mapToLong(timer -> timer.count())
			.sum();
	}

	private int put(String key, byte[] entry) throws IOException {
		try (RawHttp http = RawHttp.open(this.port)) {
			return http.exchange("PUT", "/cache/" + key, headers(CacheTestUsers.writer()), entry).status();
		}
	}

	private Response get(String key) throws IOException {
		try (RawHttp http = RawHttp.open(this.port)) {
			return http.exchange("GET", "/cache/" + key, headers(CacheTestUsers.reader(), "Connection: keep-alive"),
					null);
		}
	}

}
