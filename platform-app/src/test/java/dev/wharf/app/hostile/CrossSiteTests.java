package dev.wharf.app.hostile;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.wharf.core.testsupport.RawHttp;
import dev.wharf.filemanager.http.ApiDispatcher;
import dev.wharf.filemanager.http.ApiRoute;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpMethod;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cross-site request forgery and session fixation against the file manager. Every
 * state-changing route (every {@code POST}, {@code PATCH} and {@code DELETE} the API
 * dispatcher has, read from the running application, so a new route is covered or this
 * fails) is sent the way a hostile page makes a browser send it: alice's session cookie,
 * {@code Origin: https://evil.example}, a "simple" content type, and no
 * {@code X-Requested-With}. Each must be refused with 403 and change nothing. (The same
 * rule for {@code save}, {@code rm} and logout, with three content types:
 * module-filemanager's
 * {@code SessionTests.aCookieWithoutXRequestedWithIsRefusedExceptForDownloads}; a planted
 * issued session id and logout ending a session on the server:
 * {@code SessionTests.aLoginNeverKeepsACookieItWasGiven} and
 * {@code logoutEndsTheSessionOnTheServer}.)
 */
class CrossSiteTests extends HostileServerTestBase {

	private static final String EVIL = "https://evil.example";

	/** What each state-changing route is sent; a route missing here fails the test. */
	private static final Map<String, String> QUERIES = Map.ofEntries(
			Map.entry("/api/files/save", "?path=/data/csrf/victim.txt"),
			Map.entry("/api/files/mv", "?from=/data/csrf/victim.txt&to=/data/csrf/moved.txt"),
			Map.entry("/api/files/cp", "?from=/data/csrf/victim.txt&to=/data/csrf/copy.txt"),
			Map.entry("/api/files/rm", "?path=/data/csrf/victim.txt"),
			Map.entry("/api/files/mkdir", "?path=/data/csrf/made"),
			Map.entry("/api/files/touch", "?path=/data/csrf/touched.txt"),
			Map.entry("/api/files/upload", "?path=/data/csrf/uploaded.txt"), Map.entry("/api/session", "?all=true"),
			Map.entry("/api/tokens", "?name=forged&id=x"), Map.entry("/api/share", ""), Map.entry("/api/share/", ""));

	@Autowired
	ApiDispatcher dispatcher;

	@Test
	void everyStateChangingRouteRefusesACookieWithoutTheHeaderAndChangesNothing() throws Exception {
		String cookie = alice();
		Files.createDirectories(DATA.resolve("csrf"));
		Files.writeString(DATA.resolve("csrf").resolve("victim.txt"), "original");
		String upload = startUpload(cookie);
		String share = makeShare(cookie);
		List<String> before = filesInMount();
		List<String> sent = new ArrayList<>();
		for (ApiRoute route : this.dispatcher.routes()) {
			for (HttpMethod method : route.methods()) {
				if (Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS).contains(method)) {
					continue;
				}
				boolean shares = route.path().equals("/api/share/");
				String target = shares ? "/api/share/" + share
						: route.isPrefix() ? upload : route.path() + QUERIES.getOrDefault(route.path(), "");
				assertThat(QUERIES).as("a state-changing route this test does not know: " + route)
					.containsKey((route.isPrefix() && !shares) ? "/api/files/upload" : route.path());
				RawHttp.Response answer = RawHttp
					.exchange(this.port, method.name() + " " + target + " HTTP/1.1\r\nHost: x\r\n" + "Cookie: " + cookie
							+ "\r\nOrigin: " + EVIL + "\r\nContent-Type: text/plain\r\n"
							+ "Upload-Length: 6\r\nUpload-Offset: 0\r\nTus-Resumable: 1.0.0\r\nContent-Length: 6\r\n"
							+ "Connection: close\r\n\r\nforged");
				// Minting a token ignores cookies altogether: it needs the password (HTTP
				// Basic), hence 401.
				int refusal = (method == HttpMethod.POST && route.path().equals("/api/tokens")) ? 401 : 403;
				assertThat(answer.status()).as(method + " " + target + ": " + answer.text()).isEqualTo(refusal);
				sent.add(method + " " + route.path());
			}
		}
		// Proving a share link's password sets a cookie: refused from another site too.
		RawHttp.Response proof = RawHttp.exchange(this.port,
				"POST /api/share/" + share + "/proof HTTP/1.1\r\nHost: x\r\n" + "Origin: " + EVIL
						+ "\r\nContent-Type: text/plain\r\nContent-Length: 31\r\nConnection: close\r\n\r\n"
						+ "{\"type\":\"password\",\"value\":\"x\"}");
		assertThat(proof.status()).as(proof.text()).isEqualTo(403);
		assertThat(proof.header("set-cookie")).isNull();
		assertThat(sent).contains("POST /api/files/save", "POST /api/files/mv", "PATCH /api/files/upload/",
				"DELETE /api/session", "POST /api/session", "POST /api/share", "POST /api/share/",
				"DELETE /api/share/");
		assertThat(filesInMount()).isEqualTo(before);
		assertThat(Files.readString(DATA.resolve("csrf").resolve("victim.txt"))).isEqualTo("original");
		// The session was neither ended nor replaced, and the upload is still there.
		assertThat(get("/api/session", cookie).status()).isEqualTo(200);
		// The share link is unchanged and still works, and no other was made.
		RawHttp.Response shares = get("/api/share", cookie);
		assertThat(shares.text()).contains("\"id\":\"" + share + "\"")
			.contains("\"can_write\":false")
			.contains("\"password\":null");
		assertThat(shares.text().split("\"id\":", -1)).hasSize(2);
		try (RawHttp wire = RawHttp.open(this.port)) {
			RawHttp.Response state = wire
				.send("HEAD " + upload + " HTTP/1.1\r\nHost: x\r\nCookie: " + cookie
						+ "\r\nX-Requested-With: XmlHttpRequest\r\nTus-Resumable: 1.0.0\r\n\r\n")
				.readHead();
			assertThat(state.status()).isEqualTo(200);
			assertThat(state.header("upload-offset")).isEqualTo("0");
		}
	}

	@Test
	void aLoginFromAnotherSiteIsRefused() throws Exception {
		// Login CSRF: a hostile page's form would log the victim's browser into the
		// attacker's account.
		String form = "username=alice&password=" + ALICE_PASSWORD;
		for (String origin : new String[] { EVIL, "null" }) {
			RawHttp.Response forged = RawHttp.exchange(this.port,
					"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1:" + this.port + "\r\nOrigin: " + origin
							+ "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length()
							+ "\r\nConnection: close\r\n\r\n" + form);
			assertThat(forged.status()).as(origin).isEqualTo(403);
			assertThat(forged.header("set-cookie")).isNull();
		}
		// The UI's own login (a fetch with the header), and clients that send no Origin
		// (scripts, curl), log in.
		RawHttp.Response own = RawHttp.exchange(this.port,
				"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1:" + this.port + "\r\nOrigin: http://127.0.0.1:"
						+ this.port + "\r\nX-Requested-With: XmlHttpRequest\r\n"
						+ "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length()
						+ "\r\nConnection: close\r\n\r\n" + form);
		assertThat(own.status()).isEqualTo(200);
		assertThat(alice()).startsWith("auth=");
	}

	@Test
	void aSessionIdChosenByTheClientIsNeverAdopted() throws Exception {
		String planted = "auth=" + "Fixated".repeat(6) + "x";
		String json = "{\"username\":\"alice\",\"password\":\"" + ALICE_PASSWORD + "\"}";
		RawHttp.Response login = RawHttp.exchange(this.port,
				"POST /api/session HTTP/1.1\r\nHost: x\r\nCookie: " + planted
						+ "\r\nX-Requested-With: XmlHttpRequest\r\nContent-Type: application/json\r\nContent-Length: "
						+ json.length() + "\r\nConnection: close\r\n\r\n" + json);
		assertThat(login.status()).isEqualTo(200);
		String issued = login.header("set-cookie");
		assertThat(issued).startsWith("auth=").doesNotStartWith(planted);
		assertThat(get("/api/session", planted).status()).isEqualTo(401);
		String fresh = issued.substring(0, issued.indexOf(';'));
		assertThat(get("/api/session", fresh).status()).isEqualTo(200);
		// Logging in again issues yet another id and ends this one on the server.
		RawHttp.Response again = RawHttp.exchange(this.port,
				"POST /api/session HTTP/1.1\r\nHost: x\r\nCookie: " + fresh
						+ "\r\nX-Requested-With: XmlHttpRequest\r\nContent-Type: application/json\r\nContent-Length: "
						+ json.length() + "\r\nConnection: close\r\n\r\n" + json);
		assertThat(again.header("set-cookie")).doesNotStartWith(fresh);
		assertThat(get("/api/session", fresh).status()).isEqualTo(401);
	}

	private RawHttp.Response get(String target, String cookie) throws IOException {
		return RawHttp.exchange(this.port, "GET " + target + " HTTP/1.1\r\nHost: x\r\nCookie: " + cookie
				+ "\r\nX-Requested-With: XmlHttpRequest\r\nConnection: close\r\n\r\n");
	}

	private String makeShare(String cookie) throws IOException {
		String json = "{\"path\":\"/data/csrf\",\"can_read\":true}";
		RawHttp.Response made = RawHttp.exchange(this.port,
				"POST /api/share HTTP/1.1\r\nHost: x\r\nCookie: " + cookie
						+ "\r\nX-Requested-With: XmlHttpRequest\r\nContent-Type: application/json\r\nContent-Length: "
						+ json.length() + "\r\nConnection: close\r\n\r\n" + json);
		assertThat(made.status()).as(made.text()).isEqualTo(200);
		String text = made.text();
		int start = text.indexOf("\"id\":\"") + 6;
		return text.substring(start, text.indexOf('"', start));
	}

	private String startUpload(String cookie) throws IOException {
		RawHttp.Response created = RawHttp.exchange(this.port,
				"POST /api/files/upload?path=/data/csrf/resumable.txt HTTP/1.1\r\n" + "Host: x\r\nCookie: " + cookie
						+ "\r\nX-Requested-With: XmlHttpRequest\r\nTus-Resumable: 1.0.0\r\n"
						+ "Upload-Length: 6\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
		assertThat(created.status()).as(created.text()).isEqualTo(201);
		return created.header("location");
	}

}
