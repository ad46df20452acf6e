package dev.wharf.core.security;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.state.InProcessInvalidations;
import dev.wharf.core.testsupport.MutableClock;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
				if ("down".equals(name)) {
					throw new DirectoryUnavailableException("ldap://directory cannot be reached",
							new IOException("refused"));
				}
				if ("nobody".equals(name) && "right".equals(password)) {
					throw new NoMatchingRuleException(name);
				}
				return ("alice".equals(name) && "right".equals(password)) ? AuthenticatorTests.this.alice : null;
			});
		}

		@Override
		public Optional<User> find(String name) {
			return "alice".equals(name) ? Optional.of(AuthenticatorTests.this.alice) : Optional.empty();
		}

	};

	/** One token of alice's, {@value #TOKEN}, with id {@code t1}. */
	final TokenPasswords tokens = new TokenPasswords() {

		@Override
		public boolean isToken(String password) {
			return password.startsWith("wharf_");
		}

		@Override
		public Mono<Owner> owner(String token) {
			return TOKEN.equals(token) ? Mono.just(new Owner("alice", "t1")) : Mono.empty();
		}

	};

	static final String TOKEN = "wharf_alices-token";

	final MutableClock clock = new MutableClock();

	final Authenticator authenticator = new Authenticator(this.directory, new InMemoryLoginThrottle(this.clock),
			new AuditLog(), Schedulers.newBoundedElastic(2, 10, "test-hashing"));

	@AfterEach
	void close() {
		this.authenticator.close();
	}

	@Test
	void checksPasswordsOffTheCallerThreadAndRemembersSuccesses(CapturedOutput output) {
		assertThat(login("alice", "right")).isEqualTo(new LoginResult.Success(this.alice));
		assertThat(login("alice", "right")).isEqualTo(new LoginResult.Success(this.alice));
		assertThat(this.checks).hasValue(1);
		assertThat(output)
			.contains("audit protocol=test user=alice action=login target=- outcome=success client=10.0.0.1");
		assertThat(output).doesNotContain("right");
	}

	@Test
	void aPasswordRememberedOnOneThreadIsRememberedOnEveryOther() throws Exception {
		assertThat(login("alice", "right")).isEqualTo(new LoginResult.Success(this.alice));
		ExecutorService other = Executors.newSingleThreadExecutor();
		try {
			assertThat(other.submit(() -> login("alice", "right")).get(10, TimeUnit.SECONDS))
				.isEqualTo(new LoginResult.Success(this.alice));
			assertThat(other.submit(() -> login("alice", "wrong")).get(10, TimeUnit.SECONDS))
				.isEqualTo(new LoginResult.Failure());
		}
		finally {
			other.shutdownNow();
		}
		assertThat(this.checks).as("the right password checked once, the wrong one once").hasValue(2);
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
	void aDirectoryThatCannotAnswerIsUnavailableAndNeverCounted(CapturedOutput output) {
		for (int i = 0; i < LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS * 3; i++) {
			assertThat(login("down", "right"))
				.isEqualTo(new LoginResult.Unavailable(DirectoryUnavailableException.RETRY_AFTER));
		}
		assertThat(output).contains("user=down action=login target=- outcome=unavailable")
			.doesNotContain("outcome=throttled");
	}

	@Test
	void aRightPasswordThatNoRuleMatchesIsAWrongOneAuditedAsDenied(CapturedOutput output) {
		assertThat(login("nobody", "right")).isEqualTo(new LoginResult.Failure());
		assertThat(output).contains("user=nobody action=login target=- outcome=denied");
		for (int i = 0; i < LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS; i++) {
			login("nobody", "right");
		}
		assertThat(login("nobody", "right")).isInstanceOf(LoginResult.Throttled.class);
	}

	@Test
	void aRememberedPasswordIsForgottenAfterTheGivenTime() throws Exception {
		try (Authenticator shortMemory = new Authenticator(this.directory, new InMemoryLoginThrottle(this.clock),
				new AuditLog(), Schedulers.newBoundedElastic(2, 10, "test-hashing"), Duration.ofMillis(200), null,
				new InProcessInvalidations())) {
			shortMemory.login("test", "alice", "right", null).block();
			shortMemory.login("test", "alice", "right", null).block();
			assertThat(this.checks).hasValue(1);
			await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
				shortMemory.login("test", "alice", "right", null).block();
				assertThat(this.checks).hasValue(2);
			});
		}
	}

	@Test
	void anApiTokenServesAsItsOwnUsersPasswordOnlyWhereAsked(CapturedOutput output) {
		try (Authenticator withTokens = new Authenticator(this.directory, new InMemoryLoginThrottle(this.clock),
				new AuditLog(), Schedulers.newBoundedElastic(2, 10, "test-hashing"), Duration.ofMinutes(1), this.tokens,
				new InProcessInvalidations())) {
			assertThat(withTokens.loginWithPasswordOrToken("ftp", "alice", TOKEN, "10.0.0.1").block())
				.isEqualTo(new LoginResult.Success(this.alice));
			assertThat(output).contains("audit protocol=ftp user=alice action=login target=token:t1 outcome=success");
			assertThat(withTokens.loginWithPasswordOrToken("ftp", "bob", TOKEN, "10.0.0.1").block())
				.isEqualTo(new LoginResult.Failure());
			assertThat(withTokens.loginWithPasswordOrToken("ftp", "alice", "wharf_unknown", "10.0.0.1").block())
				.isEqualTo(new LoginResult.Failure());
			assertThat(withTokens.loginWithPasswordOrToken("ftp", "alice", "right", "10.0.0.1").block())
				.isEqualTo(new LoginResult.Success(this.alice));
			assertThat(this.checks).as("tokens never reach the directory").hasValue(1);
			// A plain login takes no token: the file manager's sessions and token minting
			// need the password.
			assertThat(withTokens.login("http", "alice", TOKEN, "10.0.0.1").block())
				.isEqualTo(new LoginResult.Failure());
			// A token works while the account is locked by guessing: it cannot be guessed
			// itself.
			for (int i = 0; i <= LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS; i++) {
				withTokens.login("ftp", "alice", "guess", "10.0.0.1").block();
			}
			assertThat(withTokens.loginWithPasswordOrToken("ftp", "alice", "right", "10.0.0.1").block())
				.isInstanceOf(LoginResult.Throttled.class);
			assertThat(withTokens.loginWithPasswordOrToken("ftp", "alice", TOKEN, "10.0.0.1").block())
				.isEqualTo(new LoginResult.Success(this.alice));
		}
	}

	@Test
	void atHandOnlyWhatNeedsNoWaitingIsAnsweredAndAsTheAsynchronousWayWould(CapturedOutput output) {
		assertThat(loginAtHand("alice", "right")).as("not checked yet").isNull();
		assertThat(loginAtHand("alice", "wrong")).as("a password to check").isNull();
		assertThat(this.checks).as("nothing hashed at hand").hasValue(0);
		assertThat(login("alice", "right")).isEqualTo(new LoginResult.Success(this.alice));
		assertThat(loginAtHand("alice", "right")).isEqualTo(new LoginResult.Success(this.alice));
		assertThat(this.authenticator.loginAtHand("test", "alice", "right", "10.0.0.2"))
			.isEqualTo(new LoginResult.Success(this.alice));
		assertThat(loginAtHand("alice", "wrong")).as("a wrong password is never remembered").isNull();
		assertThat(loginAtHand("alice", "right ")).isNull();
		assertThat(this.checks).hasValue(1);
		for (int i = 0; i < LoginThrottle.FREE_PER_ACCOUNT_AND_ADDRESS + 1; i++) {
			assertThat(login("alice", "wrong")).isEqualTo(new LoginResult.Failure());
		}
		int checked = this.checks.get();
		// A locked bucket refuses the remembered password at hand too, audited alike.
		assertThat(loginAtHand("alice", "right")).isEqualTo(new LoginResult.Throttled(LoginThrottle.FIRST_LOCK))
			.isEqualTo(login("alice", "right"));
		assertThat(output)
			.contains("audit protocol=test user=alice action=login target=- outcome=throttled " + "client=10.0.0.1");
		assertThat(this.checks).hasValue(checked);
		this.clock.advance(LoginThrottle.FIRST_LOCK);
		assertThat(loginAtHand("alice", "right")).isEqualTo(new LoginResult.Success(this.alice));
	}

	@Test
	void tokensAndThrottlesThatCannotAnswerAtOnceAreLeftToTheAsynchronousWay() {
		try (Authenticator withTokens = new Authenticator(this.directory, new InMemoryLoginThrottle(this.clock),
				new AuditLog(), Schedulers.newBoundedElastic(2, 10, "test-hashing"), Duration.ofMinutes(1), this.tokens,
				new InProcessInvalidations())) {
			assertThat(withTokens.loginWithPasswordOrToken("ftp", "alice", TOKEN, "10.0.0.1").block())
				.isEqualTo(new LoginResult.Success(this.alice));
			assertThat(withTokens.loginAtHand("ftp", "alice", TOKEN, "10.0.0.1")).isNull();
		}
		InMemoryLoginThrottle memory = new InMemoryLoginThrottle(this.clock);
		// As a throttle kept in Redis: its answer is never at hand.
		LoginThrottle remote = new LoginThrottle() {

			@Override
			public Mono<Duration> retryAfter(String account, @Nullable String address) {
				return memory.retryAfter(account, address);
			}

			@Override
			public Mono<Void> failed(String account, @Nullable String address) {
				return memory.failed(account, address);
			}

			@Override
			public Mono<Void> succeeded(String account, @Nullable String address) {
				return memory.succeeded(account, address);
			}

		};
		try (Authenticator shared = new Authenticator(this.directory, remote, new AuditLog(),
				Schedulers.newBoundedElastic(2, 10, "test-hashing"))) {
			assertThat(shared.login("test", "alice", "right", "10.0.0.1").block())
				.isEqualTo(new LoginResult.Success(this.alice));
			assertThat(shared.loginAtHand("test", "alice", "right", "10.0.0.1")).isNull();
		}
	}

	@Test
	void auditValuesCannotForgeLines() {
		assertThat(AuditLog.clean("evil\nuser=admin outcome=success"))
			.isEqualTo("\"evil\\u000auser=admin outcome=success\"");
		assertThat(AuditLog.clean(null)).isEqualTo("-");
		assertThat(AuditLog.clean("plain")).isEqualTo("plain");
	}

	private @Nullable LoginResult loginAtHand(String name, String password) {
		return this.authenticator.loginAtHand("test", name, password, "10.0.0.1");
	}

	private LoginResult login(String name, String password) {
		return this.authenticator.login("test", name, password, "10.0.0.1").block();
	}

}
