package dev.wharf.filemanager.session;

import java.nio.file.Path;

import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.testsupport.WharfTestProperties;
import dev.wharf.filemanager.testsupport.Api;
import dev.wharf.filemanager.testsupport.Api.Answer;
import dev.wharf.filemanager.testsupport.FileManagerTestApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Password guessing against {@code POST /api/session} and {@code /api/tokens} (HTTP
 * Basic) is throttled per account and client address (429 with {@code Retry-After}), not
 * in one global bucket: the same account from another address still logs in. Its own
 * server, so its failures do not throttle other tests.
 */
@SpringBootTest(classes = FileManagerTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class LoginThrottlingTests {

	private static final String PASSWORD = "dave-password";

	@TempDir
	static Path temp;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		WharfTestProperties.memoryMount(registry, temp);
		registry.add("wharf.security.users[0].name", () -> "dave");
		registry.add("wharf.security.users[0].password", () -> PasswordHashing.hash(PASSWORD));
		registry.add("wharf.security.users[0].roles", () -> "user");
		registry.add("wharf.security.users[0].mounts.data", () -> "rw");
	}

	@Test
	void guessingOneAccountFromOneAddressIsThrottledThere() throws InterruptedException {
		Api api = new Api(this.port);
		Answer throttled = null;
		// Five failures are free; then each further one locks the account for this
		// address, one second,
		// then two, four… Guess until the lock is long enough (4 s) that a slow machine
		// cannot outrun it.
		for (int i = 0; i < 40 && throttled == null; i++) {
			Answer answer = api.post("/api/session")
				.json("{\"username\":\"dave\",\"password\":\"guess" + i + "\"}")
				.send();
			assertThat(answer.status()).isIn(401, 429);
			if (answer.status() == 429) {
				int wait = Integer.parseInt(answer.header("Retry-After"));
				if (wait >= 4) {
					throttled = answer;
				}
				else {
					// Waits as a client is told to (Retry-After): the throttle's time has
					// to pass, nothing to poll.
					Thread.sleep(wait * 1000L);
				}
			}
		}
		assertThat(throttled).as("a guess was throttled").isNotNull();
		assertThat(Integer.parseInt(throttled.header("Retry-After"))).isBetween(1, 900);
		assertThat(throttled.message()).contains("Too many");
		// While locked, even the right password is not checked from this address, and
		// minting is locked too.
		Answer right = api.post("/api/session")
			.json("{\"username\":\"dave\",\"password\":\"" + PASSWORD + "\"}")
			.send();
		assertThat(right.status()).isEqualTo(429);
		assertThat(api.post("/api/tokens").basic("dave", PASSWORD).send().status()).isEqualTo(429);
		assertThat(api.get("/api/tokens").basic("dave", PASSWORD).send().status()).isEqualTo(429);
		assertThat(api.request("DELETE", "/api/tokens?id=x").basic("dave", PASSWORD).send().status()).isEqualTo(429);
		// Another address is another bucket: the owner still gets in.
		Api elsewhere = new Api(this.port, "127.0.0.2");
		Answer owner = elsewhere.post("/api/session")
			.json("{\"username\":\"dave\",\"password\":\"" + PASSWORD + "\"}")
			.send();
		assertThat(owner.status()).isEqualTo(200);
	}

}
