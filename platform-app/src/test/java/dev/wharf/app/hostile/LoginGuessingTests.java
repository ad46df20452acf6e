package dev.wharf.app.hostile;

import java.io.IOException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Password guessing over HTTP against one account from one address: throttled (429 with
 * {@code Retry-After}), while another user from the same address and the same user from another address still
 * log in. The guesses come from 127.0.0.3, so other tests on this server (from 127.0.0.1) are not throttled.
 * (The lock growing and the right password refused while locked: module-filemanager's
 * {@code LoginThrottlingTests}; the throttle's rules: platform-core's {@code LoginThrottleTests}.)
 */
class LoginGuessingTests extends HostileServerTestBase {

	private static final String ATTACKER = "127.0.0.3";

	@Test
	void guessingOneAccountLocksOnlyThatAccountFromThatAddress() throws Exception {
		Wire.Response throttled = null;
		for (int i = 0; i < 12 && throttled == null; i++) {
			Wire.Response answer = login("dave", "guess-" + i, ATTACKER);
			assertThat(answer.status()).isIn(401, 429);
			if (answer.status() == 429) {
				throttled = answer;
			}
		}
		assertThat(throttled).as("guessing was throttled").isNotNull();
		assertThat(Integer.parseInt(throttled.header("retry-after"))).isPositive();
		assertThat(login("alice", ALICE_PASSWORD, ATTACKER).status()).as("another user, same address").isEqualTo(200);
		assertThat(login("dave", DAVE_PASSWORD, "127.0.0.4").status()).as("same user, another address").isEqualTo(200);
	}

	private Wire.Response login(String user, String password, String from) throws IOException {
		String json = "{\"username\":\"" + user + "\",\"password\":\"" + password + "\"}";
		try (Wire wire = Wire.open(this.port, from)) {
			return wire.send("POST /api/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
					+ json.length() + "\r\nConnection: close\r\n\r\n" + json).read();
		}
	}

}
