package dev.wharf.staticfiles.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.core.testsupport.RawHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Folders over real HTTP: index files in order, listings only where enabled (escaped,
 * without hidden entries), the SPA fallback for missing paths, and the site options that
 * change these.
 */
class IndexListingFallbackTests {

	@TempDir
	static Path folder;

	static StaticTestServer server;

	@BeforeAll
	static void start() {
		server = StandardSites.start(folder, "sites[4].prefix=/indexed/", "sites[4].mount=data", "sites[4].root=/site",
				"sites[4].index[0]=index.htm", "sites[4].index[1]=index.html", "sites[4].dot-files=true",
				"sites[4].listing=true");
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	static Response get(String target, String... headers) throws IOException {
		return RawHttp.exchange(server.port(), "GET", target, headers);
	}

	@Test
	void aFolderServesItsIndexFile() throws IOException {
		assertThat(get("/static/docs/").text()).isEqualTo("<h1>docs</h1>");
		assertThat(get("/static/docs/?v=1").text()).isEqualTo("<h1>docs</h1>");
		// index.htm is not an index name of /static/ ...
		assertThat(get("/static/docs/guide/").status()).isEqualTo(404);
		// ... but is the first one of /indexed/.
		assertThat(get("/indexed/docs/guide/").text()).isEqualTo("<h1>guide</h1>");
		assertThat(get("/indexed/docs/").text()).isEqualTo("<h1>docs</h1>");
	}

	@Test
	void foldersWithoutIndexAreNotFoundUnlessListed() throws IOException {
		assertThat(get("/static/plain/").status()).isEqualTo(404);
		assertThat(get("/static/").status()).isEqualTo(404);
		Response listing = get("/listed/plain/");
		assertThat(listing.status()).isEqualTo(200);
		assertThat(listing.header("Content-Type")).isEqualTo("text/html; charset=utf-8");
		assertThat(listing.text()).contains("<a href=\"./readme.txt\">readme.txt</a>").contains("href=\"../\"");
	}

	@Test
	void listingsEscapeNamesAndLeaveOutHiddenEntries() throws IOException {
		Response listing = get("/listed/");
		assertThat(listing.text()).contains("Index of /listed/")
			.contains("<a href=\"./docs/\">docs/</a>")
			.contains("<a href=\"./na%C3%AFve%20caf%C3%A9.txt\">na&iuml;ve caf&eacute;.txt</a>")
			.doesNotContain(".hidden")
			.doesNotContain(".git")
			.doesNotContain("href=\"../\"");
		assertThat(listing.text().indexOf("docs/")).isLessThan(listing.text().indexOf("small.txt"));
		Response withDotFiles = get("/indexed/");
		assertThat(withDotFiles.text()).contains(".hidden").contains(".git/");
	}

	@Test
	void aListedNameCannotInjectMarkupOrSchemes() throws IOException {
		Path site = folder.resolve("site/plain");
		java.nio.file.Files.writeString(site.resolve("<script>alert(1)<"), "x");
		java.nio.file.Files.writeString(site.resolve("javascript:alert(1)"), "x");
		String page = get("/listed/plain/").text();
		assertThat(page).doesNotContain("<script>")
			.contains("&lt;script&gt;alert(1)&lt;")
			.contains("href=\"./javascript:alert(1)\"")
			.doesNotContain("href=\"javascript:");
	}

	@Test
	void theSpaFallbackAnswersMissingPathsWith200() throws IOException {
		Response route = get("/app/users/42/edit");
		assertThat(route.status()).isEqualTo(200);
		assertThat(route.text()).isEqualTo("<h1>app</h1>");
		assertThat(route.header("Content-Type")).isEqualTo("text/html; charset=utf-8");
		assertThat(get("/app/").text()).isEqualTo("<h1>app</h1>");
		// Conditional requests apply to the fallback file.
		assertThat(get("/app/other", "If-None-Match: " + route.header("ETag")).status()).isEqualTo(304);
		// Bad paths stay bad requests.
		assertThat(get("/app/%2e%2e/x").status()).isEqualTo(400);
		assertThat(get("/static/users/42").status()).isEqualTo(404);
	}

	@Test
	void dotFilesAreServedWhereEnabled() throws IOException {
		assertThat(get("/indexed/.hidden").text()).isEqualTo("hidden");
		assertThat(get("/static/.hidden").status()).isEqualTo(404);
		assertThat(get("/indexed/.git/config").text()).isEqualTo("secret");
		assertThat(new String(get("/static/.git/config").body(), StandardCharsets.UTF_8)).doesNotContain("secret");
	}

	@Test
	void sitesAreTriedMostSpecificFirst() {
		assertThat(server.files().sites()).extracting(site -> site.prefix())
			.containsExactly("/indexed", "/static", "/listed", "/app", "/mem");
	}

}
