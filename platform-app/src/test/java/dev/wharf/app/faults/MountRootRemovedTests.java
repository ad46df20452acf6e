package dev.wharf.app.faults;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import dev.wharf.core.testsupport.RawHttp.Response;
import dev.wharf.core.testsupport.WharfTestProperties;
import org.apache.commons.net.ftp.FTPClient;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The folder of a local mount taken away while Wharf runs (moved elsewhere, as an
 * unmounted disk or a renamed folder would be), then made again: meanwhile every protocol
 * answers that the storage is unavailable (every HTTP module 503 with
 * {@code Retry-After}, FTP 451, health DOWN), never a 500, and nothing is created,
 * neither the folder nor anything beside it; once the folder is back, everything works,
 * and what was acknowledged before is in the folder where it was moved.
 */
class MountRootRemovedTests extends FaultTestBase {

	private static final byte[] KEPT = "acknowledged before".getBytes(StandardCharsets.UTF_8);

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) throws Exception {
		Files.createDirectories(temp.resolve("data"));
		WharfTestProperties.localMount(registry, temp);
		registry.add("wharf.static.sites[0].prefix", () -> "/static");
		registry.add("wharf.static.sites[0].mount", () -> "data");
		// The build cache may answer a copy of an entry it read or wrote lately for up to
		// revalidate-after (1 s by default) without looking at the folder; checking every
		// time makes its GET meet the missing folder here, as the other protocols do.
		registry.add("wharf.buildcache.hot-entries.revalidate-after", () -> "0s");
		register(registry);
	}

	@Test
	void whileTheFolderIsGoneEveryProtocolSaysUnavailableAndCreatesNothingThenRecovers() throws Exception {
		Path root = temp.resolve("data");
		Path away = temp.resolve("moved-away");
		assertThat(files("POST", "save", "/data/kept.txt", KEPT).status()).isEqualTo(200);
		assertThat(cache("PUT", "entry", KEPT).status()).isEqualTo(201);
		assertThat(get("/static/kept.txt").body()).isEqualTo(KEPT);
		FTPClient ftp = ftp();
		try {
			Files.move(root, away);

			for (Response answer : new Response[] { files("GET", "ls", "/data/", null),
					files("GET", "cat", "/data/kept.txt", null), files("POST", "save", "/data/new.txt", KEPT),
					files("POST", "mkdir", "/data/folder", null) }) {
				assertThat(answer.status()).as(answer.text()).isEqualTo(503);
				assertThat(answer.header("Retry-After")).isEqualTo("5");
				assertThat(answer.text()).contains("\"status\":\"error\"").doesNotContain(temp.toString());
			}
			assertThat(ftp.storeFile("/new.txt", new ByteArrayInputStream(KEPT))).isFalse();
			assertThat(ftp.getReplyCode()).as(ftp.getReplyString()).isEqualTo(451);
			assertThat(ftp.makeDirectory("/folder")).isFalse();
			assertThat(ftp.getReplyCode()).as(ftp.getReplyString()).isEqualTo(451);
			for (Response answer : new Response[] { cache("PUT", "other", KEPT), cache("GET", "entry", null),
					get("/static/kept.txt") }) {
				assertThat(answer.status()).as(answer.text()).isEqualTo(503);
				assertThat(answer.header("Retry-After")).isEqualTo("5");
			}
			Response health = get("/actuator/health");
			assertThat(health.status()).isEqualTo(503);
			assertThat(health.text()).contains("DOWN").doesNotContain(temp.toString());
			try (Stream<Path> beside = Files.list(temp)) {
				assertThat(beside.map(path -> path.getFileName().toString())).as("nothing created")
					.containsExactlyInAnyOrder("moved-away", "state");
			}

			Files.createDirectory(root);
			assertThat(files("POST", "save", "/data/new.txt", KEPT).status()).isEqualTo(200);
			assertThat(ftp.storeFile("/new-ftp.txt", new ByteArrayInputStream(KEPT))).as(ftp.getReplyString()).isTrue();
			assertThat(cache("PUT", "entry", KEPT).status()).isEqualTo(201);
			assertThat(cache("GET", "entry", null).body()).isEqualTo(KEPT);
			assertThat(get("/static/new.txt").body()).isEqualTo(KEPT);
			assertThat(get("/actuator/health").status()).isEqualTo(200);
			assertThat(away.resolve("kept.txt")).hasBinaryContent(KEPT);
		}
		finally {
			quit(ftp);
		}
	}

}
