package dev.wharf.filemanager.session;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.Curl;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /api/tokens} and {@code Authorization: Bearer}, over real HTTP.
 */
class TokenTests extends FileManagerTestBase {

	@Test
	void aTokenIsMintedWithThePasswordAndShownOnce() {
		Answer minted = this.api.post("/api/tokens?name=ci&days=30").basic("alice", ALICE_PASSWORD).send();
		assertThat(minted.status()).isEqualTo(201);
		assertThat(minted.header("Cache-Control")).isEqualTo("no-store");
		String token = minted.json().path("result").path("token").stringValue();
		String id = minted.json().path("result").path("id").stringValue();
		assertThat(token).startsWith("wharf_");
		assertThat(minted.json().path("result").path("name").stringValue()).isEqualTo("ci");
		assertThat(minted.json().path("result").path("expires").longValue()).isGreaterThan(System.currentTimeMillis());
		Answer list = this.api.get("/api/tokens").bearer(token).send();
		assertThat(list.status()).isEqualTo(200);
		assertThat(list.text()).contains(id).doesNotContain(token).doesNotContain(token.substring(6));
		assertThat(list.header("Cache-Control")).isEqualTo("no-store");
	}

	@Test
	void aTokenWorksWithoutCookieOrHeader() {
		String token = this.api.token("alice", ALICE_PASSWORD);
		Answer answer = this.api.get("/api/files/ls?path=/").bearer(token).send();
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.names()).contains("data", "scratch");
		assertThat(this.api.get("/api/session")
			.bearer(token)
			.send()
			.json()
			.path("result")
			.path("authentication")
			.stringValue()).isEqualTo("token");
	}

	@Test
	void aCookieOrATokenCannotMintATokenAndNoBrowserPromptIsOffered() {
		String cookie = alice();
		Answer withCookie = this.api.post("/api/tokens").browser(cookie).send();
		assertThat(withCookie.status()).isEqualTo(401);
		assertThat(withCookie.header("WWW-Authenticate")).isNull();
		String token = this.api.token("alice", ALICE_PASSWORD);
		assertThat(this.api.post("/api/tokens").bearer(token).send().status()).isEqualTo(401);
		assertThat(this.api.post("/api/tokens").basic("alice", "wrong").send().status()).isEqualTo(401);
		assertThat(this.api.post("/api/tokens").basic("carol", CAROL_PASSWORD).send().status()).isEqualTo(403);
		assertThat(this.api.post("/api/tokens?days=0").basic("alice", ALICE_PASSWORD).send().status()).isEqualTo(400);
		assertThat(this.api.post("/api/tokens").header("Authorization", "Basic !!!").send().status()).isEqualTo(400);
	}

	@Test
	void aRevokedTokenStopsWorkingAtOnce() {
		Answer minted = this.api.post("/api/tokens?name=short-lived").basic("alice", ALICE_PASSWORD).send();
		String token = minted.json().path("result").path("token").stringValue();
		String id = minted.json().path("result").path("id").stringValue();
		assertThat(this.api.get("/api/files/ls?path=/").bearer(token).send().status()).isEqualTo(200);
		String cookie = alice();
		assertThat(this.api.request("DELETE", "/api/tokens?id=" + id).browser(cookie).send().status()).isEqualTo(200);
		assertThat(this.api.get("/api/files/ls?path=/").bearer(token).send().status()).isEqualTo(401);
		assertThat(this.api.request("DELETE", "/api/tokens?id=" + id).browser(cookie).send().status()).isEqualTo(404);
	}

	@Test
	void oneUserCannotRevokeAnothersToken() {
		Answer minted = this.api.post("/api/tokens").basic("alice", ALICE_PASSWORD).send();
		String token = minted.json().path("result").path("token").stringValue();
		String id = minted.json().path("result").path("id").stringValue();
		String bob = this.api.login("bob", BOB_PASSWORD);
		assertThat(this.api.request("DELETE", "/api/tokens?id=" + id).browser(bob).send().status()).isEqualTo(404);
		assertThat(this.api.get("/api/tokens").browser(bob).send().text()).doesNotContain(id);
		assertThat(this.api.get("/api/files/ls?path=/").bearer(token).send().status()).isEqualTo(200);
	}

	@Test
	void curlListsAndRevokesTokensWithThePasswordItMintedThemWith(@TempDir Path temp) throws Exception {
		Curl curl = Curl.require(temp);
		String base = "http://127.0.0.1:" + this.port + "/api/tokens";
		String alice = "alice:" + ALICE_PASSWORD;
		Answer minted = curl.send(base + "?name=curl-basic", "-X", "POST", "-u", alice);
		assertThat(minted.status()).as(minted.text()).isEqualTo(201);
		String token = minted.json().path("result").path("token").stringValue();
		String id = minted.json().path("result").path("id").stringValue();
		Answer list = curl.send(base, "-u", alice);
		assertThat(list.status()).as(list.text()).isEqualTo(200);
		assertThat(list.text()).contains("\"id\":\"" + id + "\"").contains("curl-basic").doesNotContain(token);
		assertThat(list.header("Cache-Control")).isEqualTo("no-store");
		Answer revoked = curl.send(base + "?id=" + id, "-X", "DELETE", "-u", alice);
		assertThat(revoked.status()).as(revoked.text()).isEqualTo(200);
		assertThat(this.api.get("/api/files/ls?path=/").bearer(token).send().status()).isEqualTo(401);
		assertThat(curl.send(base, "-u", alice).text()).doesNotContain(id);
		// The password is checked as for minting: a wrong one is a 401 without a browser
		// prompt.
		Answer wrong = curl.send(base, "-u", "alice:wrong");
		assertThat(wrong.status()).isEqualTo(401);
		assertThat(wrong.message()).isEqualTo("Invalid account");
		assertThat(wrong.header("WWW-Authenticate")).isNull();
		Answer cacheOnly = curl.send(base, "-u", "carol:" + CAROL_PASSWORD);
		assertThat(cacheOnly.status()).isEqualTo(403);
		assertThat(cacheOnly.message()).isEqualTo("This account cannot use the file manager");
	}

	@Test
	void basicCredentialsAreReadStrictlyForEveryMethod() {
		// Latin-1 bytes where UTF-8 belongs are refused, not repaired into another name.
		String latin1 = "Basic " + Base64.getEncoder().encodeToString(new byte[] { 'a', 'l', (byte) 0xEF, ':', 'x' });
		for (String method : new String[] { "GET", "POST", "DELETE" }) {
			for (String authorization : new String[] { "Basic !!!", latin1,
					"Basic " + Base64.getEncoder().encodeToString("no-colon".getBytes(StandardCharsets.UTF_8)) }) {
				Answer answer = this.api.request(method, "/api/tokens?id=x")
					.header("Authorization", authorization)
					.send();
				assertThat(answer.status()).as(method + " " + authorization).isEqualTo(400);
				assertThat(answer.message()).isEqualTo("Malformed Basic credentials");
			}
		}
		Answer removed = this.api.request("DELETE", "/api/tokens?id=missing").basic("alice", ALICE_PASSWORD).send();
		assertThat(removed.status()).isEqualTo(404);
	}

	@Test
	void forgedOrOtherSchemesAre401() {
		assertThat(this.api.get("/api/files/ls?path=/").bearer("wharf_" + "A".repeat(43)).send().status())
			.isEqualTo(401);
		assertThat(this.api.get("/api/files/ls?path=/").bearer("nonsense").send().status()).isEqualTo(401);
		assertThat(this.api.get("/api/files/ls?path=/").basic("alice", ALICE_PASSWORD).send().status()).isEqualTo(401);
	}

}
