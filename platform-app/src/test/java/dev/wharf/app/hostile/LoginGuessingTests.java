package dev.wharf.app.hostile;

import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Password guessing over HTTP against one account from one address: throttled (429 with
 * {@code Retry-After}), while another user from the same address and the same user from
 * another address still log in. The guesses come from 127.0.0.3, so other tests on this
 * server (from 127.0.0.1) are not throttled. (The lock growing and the right password
 * refused while locked: module-filemanager's {@code LoginThrottlingTests}; the throttle's
 * rules: platform-core's {@code LoginThrottleTests}.)
 */
class LoginGuessingTests extends HostileServerTestBase {

	private static final String ATTACKER = "127.0.0.3";

	@Test
	void guessingOneAccountLocksOnlyThatAccountFromThatAddress() throws Exception {
		RawHttp.Response throttled = null;
		for (int i = 0; i < 12 && throttled == null; i++) {
			RawHttp.Response answer = tryLogin("dave", "guess-" + i, ATTACKER);
			assertThat(answer.status()).isIn(401, 429);
			if (answer.status() == 429) {
				throttled = answer;
			}
		}
		assertThat(throttled).as("guessing was throttled").isNotNull();
		assertThat(Integer.parseInt(throttled.header("retry-after"))).isPositive();
		assertThat(tryLogin("alice", ALICE_PASSWORD, ATTACKER).status()).as("another user, same address")
			.isEqualTo(200);
		assertThat(tryLogin("dave", DAVE_PASSWORD, "127.0.0.4").status()).as("same user, another address")
			.isEqualTo(200);
	}

}
