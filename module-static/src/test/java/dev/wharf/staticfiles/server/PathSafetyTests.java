package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import dev.wharf.core.storage.mount.Mount;
import dev.wharf.core.storage.mount.MountRegistry;
import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Traversal and hidden-file requests, sent as raw bytes: every vector is refused (400
 * before any storage call, or 404/403), and a canary outside the site, inside and outside
 * the mount, never appears in any response. The site is {@code /site} of a mount whose
 * root is {@code root}; canaries sit in the mount's root and beside it; links lead out of
 * the mount.
 */
class PathSafetyTests {

	static final String CANARY = "canary-" + UUID.randomUUID();

	@TempDir
	static Path folder;

	static CountingStorage storage;

	static StaticTestServer server;

	@BeforeAll
	static void start() throws IOException {
		Path root = Files.createDirectories(folder.resolve("root"));
		Files.writeString(folder.resolve("outside.txt"), CANARY);
		Files.writeString(root.resolve("inside-mount.txt"), CANARY);
		Mount local = TestMounts.local("data", root);
		storage = new CountingStorage(local.storage());
		SiteFixture.write(storage);
		Files.createSymbolicLink(root.resolve("site/link-out"), folder.resolve("outside.txt"));
		Files.createSymbolicLink(root.resolve("site/folder-out"), folder);
		Files.createSymbolicLink(root.resolve("site/dangling"), folder.resolve("nothing"));
		server = StaticTestServer.start(MountRegistry.of(new Mount("data", "local", storage)),
				"sites[0].prefix=/static/", "sites[0].mount=data", "sites[0].root=/site", "sites[0].listing=true",
				"sites[0].spa-fallback=/small.txt");
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@BeforeEach
	void forget() {
		storage.calls().clear();
	}

	@ParameterizedTest
	@ValueSource(strings = { "/../inside-mount.txt", "/%2e%2e/inside-mount.txt", "/%2E%2E/inside-mount.txt",
			"/.%2e/inside-mount.txt", "/..%2finside-mount.txt", "/%2e%2e%2finside-mount.txt", "/..%2Finside-mount.txt",
			"/..%5cinside-mount.txt", "/..%5Cinside-mount.txt", "/%2e%2e%5c%2e%2e%5coutside.txt",
			"/....//inside-mount.txt", "/./small.txt", "/%2e/small.txt", "//inside-mount.txt", "/..", "/%2e%2e",
			"/docs/../../inside-mount.txt", "/docs/%2e%2e/%2e%2e/inside-mount.txt", "/%00", "/small.txt%00.png",
			"/%c0%ae%c0%ae/inside-mount.txt", "/%c0%af", "/%e0%80%ae%e0%80%ae/inside-mount.txt", "/%ff", "/%C3", "/%",
			"/%zz", "/%2", "/.wharf", "/.wharf-tmp-1", "/a%0d%0aSet-Cookie:%20x", "/%e2%80%ae" })
	void traversalAndMalformedPathsAreRefusedBeforeTheBackend(String vector) throws IOException {
		Response response = RawHttp.exchange(server.port(), "GET", "/static" + vector);
		assertThat(response.status()).as(vector).isEqualTo(400);
		assertThat(response.text()).doesNotContain(CANARY);
		assertThat(storage.calls()).as(vector).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "/%252e%252e/inside-mount.txt", "/%252e%252e%252finside-mount.txt",
			"/..;/inside-mount.txt", "/%EF%BC%8E%EF%BC%8E/inside-mount.txt", "/%E2%80%A5/inside-mount.txt",
			"/~/inside-mount.txt", "/C:%5Cwindows", "/inside-mount.txt" })
	void lookAlikesAndDoubleEncodingAreOrdinaryMissingNames(String vector) throws IOException {
		// Decoded once, these are names inside the site (such as a file literally called
		// "%2e%2e").
		Response response = RawHttp.exchange(server.port(), "GET", "/static" + vector);
		assertThat(response.text()).doesNotContain(CANARY);
		assertThat(storage.calls()).allMatch(call -> call.contains(" /site/"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "/link-out", "/folder-out/outside.txt", "/dangling" })
	void linksOutOfTheMountAreRefused(String target) throws IOException {
		Response response = RawHttp.exchange(server.port(), "GET", "/static" + target);
		assertThat(response.status()).as(target).isIn(403, 404);
		assertThat(response.text()).doesNotContain(CANARY);
	}

	@Test
	void listingsNeverShowOrLinkOutOfTheMount() throws IOException {
		Response listing = RawHttp.exchange(server.port(), "GET", "/static/");
		assertThat(listing.status()).isEqualTo(200);
		assertThat(listing.text()).doesNotContain(CANARY).doesNotContain("link-out").doesNotContain(".hidden");
	}

	@Test
	void bytesThatAreNotAUriAreRefused() throws IOException {
		for (String target : List.of("/static/\u0000", "/static/a\\..\\..\\outside.txt", "/static/\u00e9",
				"/static/a b")) {
			try (RawHttp http = RawHttp.open(server.port())) {
				byte[] request = ("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n").getBytes(StandardCharsets.UTF_8);
				Response response = http.send(request).read();
				assertThat(response.status()).as(target).isIn(200, 400, 404);
				if (response.status() == 200) {
					// A name that decodes to something odd but harmless is missing: the
					// site's fallback.
					assertThat(response.body()).isEqualTo(SiteFixture.SMALL);
				}
				assertThat(response.text()).doesNotContain(CANARY);
			}
		}
		assertThat(storage.calls()).allMatch(call -> call.contains(" /site/"));
	}

	@Test
	void overlongRequestLinesAreRefused() throws IOException {
		Response response = RawHttp.exchange(server.port(), "GET", "/static/" + "a/".repeat(4000));
		assertThat(response.status()).isIn(400, 414);
		assertThat(storage.calls()).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "/.hidden", "/.git/config", "/.git/", "/docs/.hidden", "/.git" })
	void dotFilesAreNotFoundEvenWithAFallback(String target) throws IOException {
		Response response = RawHttp.exchange(server.port(), "GET", "/static" + target);
		// The SPA fallback answers like for any other missing path: never with the hidden
		// file.
		assertThat(response.text()).doesNotContain("secret").doesNotContain("hidden");
		assertThat(storage.calls()).noneMatch(call -> call.contains("/.git") || call.contains("/.hidden"));
	}

	@Test
	void wellKnownIsServed() throws IOException {
		Response response = RawHttp.exchange(server.port(), "GET", "/static/.well-known/security.txt");
		assertThat(response.status()).isEqualTo(200);
		assertThat(response.text()).isEqualTo("Contact: x");
	}

}
