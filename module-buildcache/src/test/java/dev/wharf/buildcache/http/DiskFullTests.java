package dev.wharf.buildcache.http;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import dev.wharf.buildcache.testsupport.BuildCacheTestApplication;
import dev.wharf.buildcache.testsupport.CacheTestUsers;
import dev.wharf.core.storage.StorageTestSupport;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.testsupport.Tmpfs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.wharf.core.testsupport.RawHttp.headers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The cache on a local mount whose disk is a real 1 MB tmpfs: a write that runs out of
 * space answers 507 and leaves nothing behind (no entry, no temporary file), the least
 * recently used entries make room, and the same write then succeeds.
 */
@SpringBootTest(classes = BuildCacheTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class DiskFullTests {

	@TempDir
	static Path temp;

	static Tmpfs disk;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws Exception {
		Path root = Files.createDirectories(temp.resolve("disk"));
		disk = Tmpfs.mount(root, "1m");
		registry.add("wharf.state-dir", () -> temp.resolve("state").toString());
		registry.add("wharf.storage.mounts.data.type", () -> "local");
		registry.add("wharf.storage.mounts.data.root", root::toString);
		CacheTestUsers.register(registry);
	}

	@AfterAll
	static void unmount() throws Exception {
		if (disk != null) {
			disk.close();
		}
	}

	private static byte[] entry(long seed, int size) {
		return StorageTestSupport.randomBytes(seed, 0, size);
	}

	private Response exchange(String method, String key, String authorization, byte[] body) throws Exception {
		try (RawHttp http = RawHttp.open(this.port)) {
			return http.exchange(method, "/cache/" + key, headers(authorization), body);
		}
	}

	@Test
	void aWriteThatFillsTheDiskIs507LeavesNothingAndRoomIsMadeForTheNext() throws Exception {
		byte[] older = entry(1, 600 * 1024);
		byte[] newer = entry(2, 600 * 1024);
		assertThat(exchange("PUT", "older", CacheTestUsers.writer(), older).status()).isEqualTo(201);

		Response full = exchange("PUT", "newer", CacheTestUsers.writer(), newer);
		assertThat(full.status()).isEqualTo(507);
		assertThat(exchange("GET", "newer", CacheTestUsers.reader(), null).status()).isEqualTo(404);
		assertThat(files()).noneMatch(name -> name.contains(".wharf-tmp")).noneMatch(name -> name.endsWith("newer"));

		// The refusal evicted the least recently used entry; the retry fits.
		Response retry = await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(100))
			.until(() -> exchange("PUT", "newer", CacheTestUsers.writer(), newer), answer -> answer.status() != 507);
		assertThat(retry.status()).isEqualTo(201);
		assertThat(exchange("GET", "newer", CacheTestUsers.reader(), null).body()).isEqualTo(newer);
		assertThat(exchange("GET", "older", CacheTestUsers.reader(), null).status()).isEqualTo(404);
		assertThat(files()).noneMatch(name -> name.contains(".wharf-tmp"));
	}

	private static List<String> files() throws Exception {
		try (Stream<Path> files = Files.walk(temp.resolve("disk"))) {
			return files.filter(Files::isRegularFile).map(Path::toString).toList();
		}
	}

}
