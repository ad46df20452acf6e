package dev.wharf.app.hostile;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import dev.wharf.core.security.InMemoryLoginThrottle;
import dev.wharf.core.security.LoginThrottle;
import dev.wharf.core.session.SessionProperties;
import dev.wharf.core.session.SessionStore;
import dev.wharf.core.session.Sessions;
import dev.wharf.core.testsupport.MutableClock;
import dev.wharf.core.testsupport.RawHttp;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Limits on logins and sessions, end to end, with the login throttle and the sessions on
 * a clock moved by hand (nothing sleeps), on a server of their own: sessions capped at
 * {@value #PER_USER} per user and {@value #MAXIMUM} in all, {@value #STARTS} session
 * starts per user an hour.
 * <ul>
 * <li>A bucket the throttle locked refuses the right password too, also one it remembers
 * from a moment before (the build cache's Basic, {@code POST /api/session}), with 429 and
 * {@code Retry-After}, until it unlocks.</li>
 * <li>One user logging in again and again ends only that user's oldest sessions, never
 * another user's, even past the store's maximum.</li>
 * <li>Starting sessions too fast is refused with 429 and {@code Retry-After}, and allowed
 * again once the wait is over.</li>
 * </ul>
 * Each test logs in from its own loopback address, so their throttle buckets are apart.
 */
@Import(LoginLimitsTests.HandMovedClock.class)
class LoginLimitsTests extends HostileServerTestBase {

	static final int PER_USER = 3;

	static final int MAXIMUM = 12;

	static final int STARTS = 40;

	static final MutableClock CLOCK = new MutableClock();

	static final String BOB_PASSWORD = "bob-" + System.nanoTime();

	static final String MALLORY_PASSWORD = "mallory-" + System.nanoTime();

	static final String EAGER_PASSWORD = "eager-" + System.nanoTime();

	@DynamicPropertySource
	static void limits(DynamicPropertyRegistry registry) {
		user(registry, 3, "bob", BOB_PASSWORD, "user");
		user(registry, 4, "mallory", MALLORY_PASSWORD, "user");
		user(registry, 5, "eager", EAGER_PASSWORD, "user");
		registry.add("wharf.sessions.max-per-user", () -> PER_USER);
		registry.add("wharf.sessions.maximum-sessions", () -> MAXIMUM);
		registry.add("wharf.sessions.new-sessions.per-user", () -> STARTS);
		registry.add("wharf.sessions.new-sessions.period", () -> "1h");
	}

	@Test
	void aLockedBucketRefusesTheRightBasicPasswordOnTheBuildCacheUntilItUnlocks() throws IOException {
		String from = "127.0.0.5";
		String key = unique("locked");
		assertThat(cache(key, ciAuthorization(), from).status()).as("the right password, now remembered")
			.isEqualTo(404);
		String wrong = "Basic " + Base64.getEncoder().encodeToString("ci:wrong".getBytes());
		for (int i = 0; i <= 5; i++) {
			assertThat(cache(key, wrong, from).status()).isEqualTo(401);
		}
		RawHttp.Response locked = cache(key, ciAuthorization(), from);
		assertThat(locked.status()).as(locked.text()).isEqualTo(429);
		assertThat(locked.header("retry-after")).isEqualTo("1");
		CLOCK.advance(Duration.ofSeconds(1));
		assertThat(cache(key, ciAuthorization(), from).status()).as("unlocked").isEqualTo(404);
	}

	@Test
	void aLockedBucketRefusesTheRightPasswordForASessionUntilItUnlocks() throws IOException {
		String from = "127.0.0.6";
		assertThat(tryLogin("dave", DAVE_PASSWORD, from).status()).as("the right password, now remembered")
			.isEqualTo(200);
		for (int i = 0; i <= 5; i++) {
			assertThat(tryLogin("dave", "wrong-" + i, from).status()).isEqualTo(401);
		}
		RawHttp.Response locked = tryLogin("dave", DAVE_PASSWORD, from);
		assertThat(locked.status()).as(locked.text()).isEqualTo(429);
		assertThat(locked.header("retry-after")).isEqualTo("1");
		assertThat(locked.header("set-cookie")).isNull();
		CLOCK.advance(Duration.ofSeconds(1));
		assertThat(tryLogin("dave", DAVE_PASSWORD, from).status()).as("unlocked").isEqualTo(200);
	}

	@Test
	void loggingInAgainAndAgainEndsOnlyTheSameUsersOldestSessions() throws IOException {
		String bob = cookie(tryLogin("bob", BOB_PASSWORD, "127.0.0.7"));
		List<String> mallorys = new ArrayList<>();
		// More logins than the whole store holds.
		for (int i = 0; i < MAXIMUM + 18; i++) {
			RawHttp.Response login = tryLogin("mallory", MALLORY_PASSWORD, "127.0.0.8");
			assertThat(login.status()).as(login.text()).isEqualTo(200);
			mallorys.add(cookie(login));
		}
		assertThat(session(bob)).as("another user's idle session").isEqualTo(200);
		int kept = mallorys.size() - PER_USER;
		for (int i = 0; i < mallorys.size(); i++) {
			assertThat(session(mallorys.get(i))).as("mallory's session " + i).isEqualTo((i < kept) ? 401 : 200);
		}
	}

	@Test
	void startingSessionsTooFastIsRefusedUntilTheWaitIsOver() throws IOException {
		String from = "127.0.0.9";
		for (int i = 0; i < STARTS; i++) {
			assertThat(tryLogin("eager", EAGER_PASSWORD, from).status()).isEqualTo(200);
		}
		RawHttp.Response refused = tryLogin("eager", EAGER_PASSWORD, from);
		assertThat(refused.status()).as(refused.text()).isEqualTo(429);
		assertThat(refused.header("set-cookie")).isNull();
		// Forty starts an hour: one comes back every 90 seconds.
		assertThat(refused.header("retry-after")).isEqualTo("90");
		assertThat(tryLogin("bob", BOB_PASSWORD, from).status()).as("another user from the same address")
			.isEqualTo(200);
		CLOCK.advance(Duration.ofSeconds(90));
		assertThat(tryLogin("eager", EAGER_PASSWORD, from).status()).isEqualTo(200);
	}

	private RawHttp.Response cache(String key, String authorization, String from) throws IOException {
		try (RawHttp wire = RawHttp.open(this.port, from)) {
			return wire
				.send("GET /cache/" + key + " HTTP/1.1\r\nHost: x\r\nAuthorization: " + authorization
						+ "\r\nConnection: close\r\n\r\n")
				.read();
		}
	}

	private int session(String cookie) throws IOException {
		return RawHttp
			.exchange(this.port,
					"GET /api/session HTTP/1.1\r\nHost: x\r\nCookie: " + cookie
							+ "\r\nX-Requested-With: XmlHttpRequest\r\nConnection: close\r\n\r\n")
			.status();
	}

	/**
	 * The throttle and the sessions on {@link #CLOCK}, in place of the ones on the system
	 * clock.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	static class HandMovedClock {

		@Bean
		LoginThrottle loginThrottle() {
			return new InMemoryLoginThrottle(CLOCK);
		}

		@Bean
		Sessions sessions(SessionStore store, SessionProperties properties) {
			return new Sessions(store, properties, CLOCK);
		}

	}

}
