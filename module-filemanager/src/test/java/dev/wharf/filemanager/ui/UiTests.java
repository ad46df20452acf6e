package dev.wharf.filemanager.ui;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The UI's page and assets over HTTP at the application root: caching, content types, the
 * Content-Security-Policy, and that every module the page loads is served under the
 * current fingerprint.
 */
class UiTests extends FileManagerTestBase {

	private static final Pattern ASSET = Pattern.compile("(assets/[0-9a-f]{16})/([a-z]+\\.(?:js|css))");

	private static final Pattern IMPORT = Pattern.compile("from '\\./([a-z]+\\.js)'");

	private WebTestClient client;

	@BeforeEach
	void client() {
		this.client = WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + this.port).build();
	}

	@Test
	void pageIsRevalidatedAndHasNoInlineScript() {
		EntityExchangeResult<String> page = get("/");
		assertThat(page.getStatus()).isEqualTo(HttpStatus.OK);
		HttpHeaders headers = page.getResponseHeaders();
		assertThat(headers.getFirst(HttpHeaders.CONTENT_TYPE)).isEqualTo("text/html; charset=utf-8");
		assertThat(headers.getCacheControl()).isEqualTo("no-cache");
		assertThat(headers.getFirst("Content-Security-Policy"))
			.contains("default-src 'none'", "script-src 'self';", "frame-ancestors 'none'")
			.doesNotContain("unsafe");
		assertThat(headers.getFirst("X-Content-Type-Options")).isEqualTo("nosniff");
		String html = page.getResponseBody();
		assertThat(html).doesNotContain("{{assets}}")
			.containsPattern("<script type=\"module\" src=\"assets/[0-9a-f]{16}/app.js\">");
		assertThat(Pattern.compile("<script(?![^>]*\\bsrc=)").matcher(html).find()).isFalse();
		assertThat(html).doesNotContainPattern("\\son[a-z]+=");
	}

	@Test
	void everyAssetIsCachedForAYearAndEveryImportResolves() {
		// The file manager's page and a share link's (the page of an unknown link is the
		// same page, with 404).
		EntityExchangeResult<String> sharePage = get("/s/" + "x".repeat(24));
		assertThat(sharePage.getStatus()).isEqualTo(HttpStatus.NOT_FOUND);
		assertThat(sharePage.getResponseBody()).contains("\"../assets/");
		String html = get("/").getResponseBody() + sharePage.getResponseBody();
		Matcher found = ASSET.matcher(html);
		List<String> pending = new ArrayList<>();
		String prefix = null;
		while (found.find()) {
			prefix = found.group(1);
			pending.add(found.group(2));
		}
		assertThat(pending).contains("app.js", "app.css", "share.js");
		List<String> seen = new ArrayList<>();
		while (!pending.isEmpty()) {
			String name = pending.remove(0);
			if (seen.contains(name)) {
				continue;
			}
			seen.add(name);
			EntityExchangeResult<String> asset = get("/" + prefix + "/" + name);
			assertThat(asset.getStatus()).as(name).isEqualTo(HttpStatus.OK);
			assertThat(asset.getResponseHeaders().getCacheControl()).contains("max-age=31536000", "immutable");
			assertThat(asset.getResponseHeaders().getFirst(HttpHeaders.CONTENT_TYPE))
				.isEqualTo(name.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8");
			Matcher imports = IMPORT.matcher(asset.getResponseBody());
			while (imports.find()) {
				pending.add(imports.group(1));
			}
		}
		assertThat(seen).containsExactlyInAnyOrderElementsOf(UiAssets.NAMES);
	}

	@Test
	void assetsOfAnotherVersionAreNotFound() {
		String fingerprint = UiAssets.load(getClass().getClassLoader()).fingerprint();
		assertThat(get("/assets/" + fingerprint + "/app.js").getStatus()).isEqualTo(HttpStatus.OK);
		assertThat(get("/assets/0000000000000000/app.js").getStatus()).isEqualTo(HttpStatus.NOT_FOUND);
		assertThat(get("/assets/" + fingerprint + "/index.html").getStatus()).isEqualTo(HttpStatus.NOT_FOUND);
		assertThat(get("/assets/" + fingerprint + "/../app.js").getStatus()).isEqualTo(HttpStatus.NOT_FOUND);
	}

	@Test
	void sessionCookieFollowsTheProxysPrefix() {
		String cookie = this.client.post()
			.uri("/api/session")
			.header("X-Forwarded-Prefix", "/files")
			.header("Content-Type", "application/json")
			.bodyValue("{\"username\":\"alice\",\"password\":\"" + ALICE_PASSWORD + "\"}")
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(String.class)
			.getResponseHeaders()
			.getFirst("Set-Cookie");
		assertThat(cookie).contains("; Path=/files/api/;");
	}

	private EntityExchangeResult<String> get(String path) {
		return this.client.get().uri(path).exchange().expectBody(String.class).returnResult();
	}

}
