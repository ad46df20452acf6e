package dev.wharf.filemanager.session;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /api/session} and the cookie rules, over real HTTP.
 */
@ExtendWith(OutputCaptureExtension.class)
class SessionTests extends FileManagerTestBase {

	private static final String MISSING_HEADER = "Missing header X-Requested-With: XmlHttpRequest "
			+ "(required with cookie sessions, against CSRF)";

	@Test
	void loginSetsAStrictHttpOnlyCookieAndNoSecretInTheBody() {
		Answer answer = this.api.post("/api/session")
			.json("{\"username\":\"alice\",\"password\":\"" + ALICE_PASSWORD + "\"}")
			.send();
		assertThat(answer.status()).isEqualTo(200);
		String setCookie = answer.header("Set-Cookie");
		assertThat(setCookie).startsWith("auth=")
			.containsIgnoringCase("HttpOnly")
			.contains("SameSite=Strict")
			.contains("Path=/api/")
			.doesNotContain("Secure");
		String secret = setCookie.substring(5, setCookie.indexOf(';'));
		assertThat(secret).hasSize(43);
		assertThat(answer.text()).doesNotContain(secret)
			.contains("\"is_authenticated\":true")
			.contains("\"username\":\"alice\"");
		assertThat(answer.header("Cache-Control")).isEqualTo("no-store");
	}

	@Test
	void theCookieIsSecureWhenTheClientUsesTls() {
		Answer answer = this.api.post("/api/session")
			.header("X-Forwarded-Proto", "https")
			.json("{\"username\":\"alice\",\"password\":\"" + ALICE_PASSWORD + "\"}")
			.send();
		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.header("Set-Cookie")).contains("Secure").contains("SameSite=Strict");
	}

	@Test
	void aFormLoginWorksToo() {
		Answer answer = this.api.post("/api/session")
			.header("Content-Type", "application/x-www-form-urlencoded")
			.body("username=alice&password=" + ALICE_PASSWORD)
			.send();
		assertThat(answer.status()).isEqualTo(200);
	}

	@Test
	void badLoginsAreRefusedWithoutSayingWhy() {
		Answer wrong = this.api.post("/api/session").json("{\"username\":\"alice\",\"password\":\"nope\"}").send();
		assertThat(wrong.status()).isEqualTo(401);
		assertThat(wrong.message()).isEqualTo("Invalid account");
		assertThat(wrong.header("Set-Cookie")).isNull();
		Answer unknown = this.api.post("/api/session").json("{\"username\":\"nobody\",\"password\":\"nope\"}").send();
		assertThat(unknown.message()).isEqualTo("Invalid account");
		assertThat(this.api.post("/api/session").json("not json").send().status()).isEqualTo(400);
		assertThat(this.api.post("/api/session").json("{\"username\":\"alice\"}").send().status()).isEqualTo(400);
		assertThat(this.api.post("/api/session").body(new byte[20_000]).send().status()).isEqualTo(413);
	}

	@Test
	void anAccountWithoutTheUserRoleCannotLogIn() {
		Answer answer = this.api.post("/api/session")
			.json("{\"username\":\"carol\",\"password\":\"" + CAROL_PASSWORD + "\"}")
			.send();
		assertThat(answer.status()).isEqualTo(403);
		assertThat(answer.header("Set-Cookie")).isNull();
	}

	@Test
	void getTellsWhoIsLoggedInOr401() {
		String cookie = alice();
		Answer me = this.api.get("/api/session").browser(cookie).send();
		assertThat(me.status()).isEqualTo(200);
		assertThat(me.json().path("result").path("username").stringValue()).isEqualTo("alice");
		assertThat(me.json().path("result").path("mounts").toString()).contains("{\"name\":\"ro\",\"access\":\"ro\"}");
		Answer nobody = this.api.get("/api/session").send();
		assertThat(nobody.status()).isEqualTo(401);
		assertThat(nobody.text()).isEqualTo("{\"status\":\"error\",\"message\":\"Not authorised\"}");
	}

	@Test
	void aCookieWithoutXRequestedWithIsRefusedExceptForDownloads() {
		String cookie = alice();
		Answer list = this.api.get("/api/files/ls?path=%2F").header("Cookie", cookie).send();
		assertThat(list.status()).isEqualTo(403);
		assertThat(list.message()).isEqualTo(MISSING_HEADER);
		String path = "/scratch/" + unique("csrf");
		for (String type : new String[] { "text/plain", "application/x-www-form-urlencoded",
				"multipart/form-data; boundary=x" }) {
			Answer forged = this.api.post("/api/files/save?path=" + path)
				.header("Cookie", cookie)
				.header("Origin", "https://evil.example")
				.header("Content-Type", type)
				.body("forged")
				.send();
			assertThat(forged.status()).as(type).isEqualTo(403);
			assertThat(forged.message()).as(type).isEqualTo(MISSING_HEADER);
		}
		Answer rm = this.api.post("/api/files/rm?path=/scratch/x").header("Cookie", cookie).send();
		assertThat(rm.status()).isEqualTo(403);
		assertThat(rm.message()).isEqualTo(MISSING_HEADER);
		Answer logout = this.api.request("DELETE", "/api/session").header("Cookie", cookie).send();
		assertThat(logout.status()).isEqualTo(403);
		assertThat(logout.message()).isEqualTo(MISSING_HEADER);
		assertThat(this.api.get("/api/files/cat?path=" + path).browser(cookie).send().status()).isEqualTo(404);
		// The header's value matters, in any case.
		Answer wrongValue = this.api.get("/api/files/ls?path=/")
			.header("Cookie", cookie)
			.header("X-Requested-With", "fetch")
			.send();
		assertThat(wrongValue.status()).isEqualTo(403);
		assertThat(wrongValue.message()).isEqualTo(
				"Wrong value of header X-Requested-With: XmlHttpRequest (required with cookie sessions, against CSRF)");
		assertThat(this.api.get("/api/files/ls?path=/")
			.header("Cookie", cookie)
			.header("X-Requested-With", "XMLHttpRequest")
			.send()
			.status()).isEqualTo(200);
	}

	@Test
	void logoutEndsTheSessionOnTheServer(CapturedOutput output) {
		String cookie = alice();
		assertThat(this.api.get("/api/files/ls?path=/").browser(cookie).send().status()).isEqualTo(200);
		Answer logout = this.api.request("DELETE", "/api/session").browser(cookie).send();
		assertThat(logout.status()).isEqualTo(200);
		assertThat(logout.header("Set-Cookie")).contains("Max-Age=0");
		// Replaying the old cookie, as a thief would, no longer works.
		assertThat(this.api.get("/api/files/ls?path=/").browser(cookie).send().status()).isEqualTo(401);
		assertThat(output.getOut()).contains("user=alice action=logout target=- outcome=success client=127.0.0.1")
			.contains("protocol=http user=alice action=session-start target=- outcome=success");
	}

	@Test
	void logoutEverywhereEndsEverySessionOfTheUser() {
		String bob1 = this.api.login("bob", BOB_PASSWORD);
		String bob2 = this.api.login("bob", BOB_PASSWORD);
		String alice = alice();
		assertThat(bob1).isNotEqualTo(bob2);
		assertThat(this.api.request("DELETE", "/api/session?all=true").browser(bob1).send().status()).isEqualTo(200);
		assertThat(this.api.get("/api/session").browser(bob1).send().status()).isEqualTo(401);
		assertThat(this.api.get("/api/session").browser(bob2).send().status()).isEqualTo(401);
		assertThat(this.api.get("/api/session").browser(alice).send().status()).isEqualTo(200);
	}

	@Test
	void aLoginNeverKeepsACookieItWasGiven() {
		String planted = alice();
		Answer login = this.api.post("/api/session")
			.browser(planted)
			.json("{\"username\":\"alice\",\"password\":\"" + ALICE_PASSWORD + "\"}")
			.send();
		String fresh = login.header("Set-Cookie");
		assertThat(fresh).doesNotStartWith(planted + ";");
		assertThat(this.api.get("/api/session").browser(planted).send().status()).isEqualTo(401);
		// A login that carries a cookie must carry the header too.
		Answer withCookie = this.api.post("/api/session")
			.header("Cookie", planted)
			.json("{\"username\":\"alice\",\"password\":\"" + ALICE_PASSWORD + "\"}")
			.send();
		assertThat(withCookie.status()).isEqualTo(403);
		assertThat(withCookie.message()).isEqualTo(MISSING_HEADER);
	}

	@Test
	void aBrowserLoginMustCarryTheHeaderToo() {
		String body = "{\"username\":\"alice\",\"password\":\"" + ALICE_PASSWORD + "\"}";
		Answer forged = this.api.post("/api/session").header("Origin", "https://evil.example").json(body).send();
		assertThat(forged.status()).isEqualTo(403);
		assertThat(forged.message()).isEqualTo(
				"Missing header X-Requested-With: XmlHttpRequest (required for logins from a browser, against CSRF)");
		assertThat(forged.header("Set-Cookie")).isNull();
		Answer page = this.api.post("/api/session")
			.header("Origin", "http://127.0.0.1:" + this.port)
			.header("X-Requested-With", "XmlHttpRequest")
			.json(body)
			.send();
		assertThat(page.status()).isEqualTo(200);
	}

	@Test
	void malformedOrUnknownCookiesAre401() {
		assertThat(this.api.get("/api/files/ls?path=/").browser("auth=forged").send().status()).isEqualTo(401);
		assertThat(this.api.get("/api/files/ls?path=/").browser("auth=" + "A".repeat(43)).send().status())
			.isEqualTo(401);
		assertThat(this.api.get("/api/files/ls?path=/").browser("other=1").send().status()).isEqualTo(401);
		assertThat(this.api.get("/api/files/ls?path=/").send().status()).isEqualTo(401);
	}

}
