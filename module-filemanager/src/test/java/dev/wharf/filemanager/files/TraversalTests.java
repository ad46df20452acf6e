package dev.wharf.filemanager.files;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestBase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Path traversal through every parameter that names a path ({@code path}, {@code from},
 * {@code to}) of every endpoint, sent raw on the wire (the client does not re-encode
 * {@code %}; targets that are not even a valid URI go through a plain socket). A canary
 * file lies just outside the local mount's root; no answer may contain it, nothing may be
 * written outside, and every attempt must be refused with 400, 403 or 404 and the API's
 * JSON message, never a 5xx or an empty answer.
 */
class TraversalTests extends FileManagerTestBase {

	/**
	 * Raw (already encoded) query values that try to leave the mount or hide a reserved
	 * name.
	 */
	static final List<String> VECTORS = List.of("/data/../outside/secret.txt", "/data/%2e%2e/outside/secret.txt",
			"%2Fdata%2F..%2Foutside%2Fsecret.txt", "/data/..%2Foutside%2Fsecret.txt",
			"/data/%2E%2E%2Foutside/secret.txt", "/data/..%5Coutside%5Csecret.txt", "/data\\..\\outside\\secret.txt",
			"/data/%252e%252e/outside/secret.txt", "/data/%c0%ae%c0%ae/outside/secret.txt",
			"/data/%e0%80%ae%e0%80%ae/outside/secret.txt", "/data/%ef%bc%8e%ef%bc%8e/outside/secret.txt",
			"/data/./../outside/secret.txt", "/data/x/../../outside/secret.txt", "/data/secret.txt%00.jpg", "/data/%00",
			"//outside/secret.txt", "/../outside/secret.txt", "..", "/..", "/data/.wharf/uploads", "/data/.wharf-tmp-x",
			"/data/a%0d%0aSet-Cookie:x", "/data/%ff", "/data/%", "/data/%zz", "/data/" + "a/".repeat(200),
			"/data/" + "a".repeat(300));

	private static String cookie;

	@BeforeAll
	static void canary() throws Exception {
		writeCanary();
	}

	@BeforeEach
	void loginOnce() {
		if (cookie == null) {
			cookie = alice();
			this.api.post("/api/files/save?path=/data/victim.txt").browser(cookie).body("victim").send();
		}
	}

	static Stream<Arguments> requests() {
		List<Arguments> requests = new ArrayList<>();
		for (String vector : VECTORS) {
			requests.add(Arguments.of("GET", "/api/files/ls?path=" + vector));
			requests.add(Arguments.of("GET", "/api/files/cat?path=" + vector));
			requests.add(Arguments.of("GET", "/api/files/cat?thumbnail=true&path=" + vector));
			requests.add(Arguments.of("GET", "/api/files/zip?path=" + vector));
			requests.add(Arguments.of("GET", "/api/files/search?q=secret&path=" + vector));
			requests.add(Arguments.of("POST", "/api/files/save?path=" + vector));
			requests.add(Arguments.of("POST", "/api/files/mkdir?path=" + vector));
			requests.add(Arguments.of("POST", "/api/files/touch?path=" + vector));
			requests.add(Arguments.of("POST", "/api/files/rm?path=" + vector));
			requests.add(Arguments.of("POST", "/api/files/mv?from=" + vector + "&to=/data/moved"));
			requests.add(Arguments.of("POST", "/api/files/mv?from=/data/victim.txt&to=" + vector));
			requests.add(Arguments.of("POST", "/api/files/cp?from=" + vector + "&to=/data/copied"));
			requests.add(Arguments.of("POST", "/api/files/cp?from=/data/victim.txt&to=" + vector));
			requests.add(Arguments.of("POST", "/api/files/upload?path=" + vector));
		}
		return requests.stream();
	}

	private static boolean isUri(String target) {
		try {
			java.net.URI.create("http://localhost" + target);
			return true;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("requests")
	void isRefusedAndNeverLeaks(String method, String target) throws Exception {
		var request = this.api.request(method, target)
			.browser(cookie)
			.header("Tus-Resumable", "1.0.0")
			.header("Upload-Length", "6")
			.body("hacked");
		Answer answer = isUri(target) ? request.send() : request.sendRaw();
		assertThat(answer.status()).as(answer.text()).isIn(400, 403, 404);
		assertThat(answer.text()).doesNotContain(CANARY);
		// Every refusal is the API's JSON, even for a target that is no URI at all.
		assertThat(answer.header("Content-Type")).as(answer.text()).isEqualTo("application/json");
		assertThat(answer.json().path("status").stringValue()).isEqualTo("error");
		assertThat(answer.message()).isNotEmpty();
		assertThat(java.nio.file.Files.readString(ROOT.resolve("outside").resolve("secret.txt"))).isEqualTo(CANARY);
		assertThat(java.nio.file.Files.exists(ROOT.resolve("outside").resolve("moved"))).isFalse();
		assertThat(this.api.get("/api/files/cat?path=/data/victim.txt").browser(cookie).send().text())
			.isEqualTo("victim");
	}

}
