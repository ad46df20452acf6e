package dev.wharf.core.security;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.testsupport.MutableClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Authenticator} and {@link AuditLog}.
 */
@ExtendWith(OutputCaptureExtension.class)
class AuthenticatorTests {

	final AtomicInteger checks = new AtomicInteger();

	final User alice = new User("alice", Set.of(Role.USER), Map.of());

	final UserDirectory directory = new UserDirectory() {

		@Override
		public Mono<User> verify(String name, String password) {
			return Mono.fromCallable(() -> {
				AuthenticatorTests.this.checks.incrementAndGet();
				assertThat(Thread.currentThread().getName()).startsWith("test-hashing");
				return ("alice".equals(name) && "right".equals(password)) ? AuthenticatorTests.this.alice : null;
			});
		}

		@Override
		public Optional<User> find(String name) {
			return Optional.empty();
		}

	};

	final MutableClock clock = new MutableClock();

	final Authenticator authenticator = new Authenticator(this.directory, new InMemoryLoginThrottle(this.clock), new AuditLog(),
			Schedulers.newBoundedElastic(2, 10, "test-hashing"));

	@AfterEach
	void close() {
		this.authenticator.close();
	}

	@Test
	void checksPasswordsOffTheCallerThreadAndRemembersSuccesses(CapturedOutput output) {
		assertThat(login("alice", "right")).isEqualTo(new LoginResult.Success(this.alice));
		assertThat(login("alice", "right")).isEqualTo(new LoginResult.Success(this.alice));
		assertThat(this.checks).hasValue(1);
		assertThat(output).contains("audit protocol=test user=alice action=login target=- outcome=success client=10.0.0.1");
		assertThat(output).doesNotContain("right");
	}

	@Test
	void failuresAreCountedThenThrottledWithoutCheckingThePassword(CapturedOutput output) {
		for (int i = 0; i < LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS + 1; i++) {
			assertThat(login("alice", "wrong")).isEqualTo(new LoginResult.Failure());
		}
		int checked = this.checks.get();
		assertThat(login("alice", "right")).isInstanceOf(LoginResult.Throttled.class);
		assertThat(this.checks).hasValue(checked);
		assertThat(output).contains("outcome=failure").contains("outcome=throttled");
	}

	@Test
	void aLockedBucketRefusesARememberedPasswordUntilItUnlocks(CapturedOutput output) {
		assertThat(login("alice", "right")).isEqualTo(new LoginResult.Success(this.alice));
		for (int i = 0; i < LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS + 1; i++) {
			assertThat(login("alice", "wrong")).isEqualTo(new LoginResult.Failure());
		}
		int checked = this.checks.get();
		assertThat(login("alice", "right")).isEqualTo(new LoginResult.Throttled(LoginThrottle.FIRST_LOCK));
		assertThat(this.checks).as("nothing checked while locked").hasValue(checked);
		this.clock.advance(LoginThrottle.FIRST_LOCK);
		assertThat(login("alice", "right")).isEqualTo(new LoginResult.Success(this.alice));
		assertThat(output).contains("outcome=throttled client=10.0.0.1");
	}

	@Test
	void guessesFromManyAddressesLockTheAccountForItsOwnClientsToo() {
		assertThat(this.authenticator.login("test", "alice", "right", "10.0.0.1").block())
			.isEqualTo(new LoginResult.Success(this.alice));
		for (int i = 0; i <= LoginThrottle.FREE_PER_ACCOUNT; i++) {
			assertThat(this.authenticator.login("test", "alice", "wrong", "10.1.0." + i).block())
				.isEqualTo(new LoginResult.Failure());
		}
		LoginResult owner = this.authenticator.login("test", "alice", "right", "10.0.0.1").block();
		assertThat(owner).isInstanceOf(LoginResult.Throttled.class);
		this.clock.advance(((LoginResult.Throttled) owner).retryAfter());
		assertThat(this.authenticator.login("test", "alice", "right", "10.0.0.1").block())
			.isEqualTo(new LoginResult.Success(this.alice));
	}

	@Test
	void auditValuesCannotForgeLines() {
		assertThat(AuditLog.clean("evil\nuser=admin outcome=success")).isEqualTo("\"evil\\u000auser=admin outcome=success\"");
		assertThat(AuditLog.clean(null)).isEqualTo("-");
		assertThat(AuditLog.clean("plain")).isEqualTo("plain");
	}

	private LoginResult login(String name, String password) {
		return this.authenticator.login("test", name, password, "10.0.0.1").block();
	}

}
