package dev.wharf.core.state.redis;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.wharf.core.security.AuditLog;
import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.security.ConfiguredUserDirectory;
import dev.wharf.core.security.PasswordHashing;
import dev.wharf.core.security.SecurityProperties.UserProperties;
import dev.wharf.core.state.SharedStateUnavailableException;
import dev.wharf.core.testsupport.RedisClients;
import dev.wharf.core.testsupport.RedisProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The authenticator over the Redis throttle when Redis goes away: a password checked
 * lately still logs in, any other login is "unavailable" (not "wrong") without its
 * password being checked, and everything works again once Redis is back.
 */
class AuthenticatorOnRedisTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	@RegisterExtension
	static final RedisProcess.PerClass redis = new RedisProcess.PerClass();

	private final RedisClients clients = new RedisClients(redis.server());

	private final Authenticator authenticator = new Authenticator(
			new ConfiguredUserDirectory(
					List.of(new UserProperties("alice", PasswordHashing.hash("right-one"), List.of("user"), Map.of()),
							new UserProperties("bob", PasswordHashing.hash("right-two"), List.of("user"), Map.of())),
					mount -> true),
			new RedisLoginThrottle(this.clients.state("wharf:"), Clock.systemUTC()), new AuditLog(),
			Schedulers.newBoundedElastic(2, 10, "test-hashing"));

	@AfterEach
	void close() throws Exception {
		this.authenticator.close();
		this.clients.close();
		redis.server().start();
	}

	@Test
	void whileRedisIsDownOnlyPasswordsCheckedLatelyLogIn() throws Exception {
		assertThat(login("alice", "right-one")).isInstanceOf(LoginResult.Success.class);
		redis.server().stop();
		assertThat(login("alice", "right-one")).as("checked a moment ago").isInstanceOf(LoginResult.Success.class);
		assertThat(login("bob", "right-two")).as("not checked lately: not checked now")
			.isEqualTo(new LoginResult.Unavailable(SharedStateUnavailableException.RETRY_AFTER));
		assertThat(login("alice", "wrong")).as("not wrong: unknown")
			.isEqualTo(new LoginResult.Unavailable(SharedStateUnavailableException.RETRY_AFTER));
		redis.server().start();
		await().atMost(TIMEOUT).until(() -> login("bob", "right-two") instanceof LoginResult.Success);
		assertThat(login("bob", "wrong")).isEqualTo(new LoginResult.Failure());
	}

	private LoginResult login(String name, String password) {
		return this.authenticator.login("test", name, password, "10.0.0.1").block(TIMEOUT);
	}

}
