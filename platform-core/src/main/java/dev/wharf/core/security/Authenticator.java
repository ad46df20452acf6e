package dev.wharf.core.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.RejectedExecutionException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.wharf.core.security.AuditLog.AuditEvent;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Logs users in for every protocol, in one place: refuses throttled attempts at once
 * ({@link LoginThrottle}), checks the password through the {@link UserDirectory} on a bounded worker pool
 * (never an event loop), counts failures, and audits the outcome.
 *
 * <p>Protocols that send a password with every request (HTTP Basic for the build cache) would pay a
 * password hash each time; successful checks are therefore remembered for {@link #CACHE_TIME}, keyed by an
 * HMAC of name and password under a key that lives only in this process, so the cache holds nothing that
 * could be replayed.
 *
 * <p><b>The throttle comes before that cache.</b> A locked bucket refuses every login, the right password
 * included, even one checked a moment ago: otherwise a guesser whose wrong guesses are refused cheaply would
 * still be let in by the right one while a client that uses the account keeps it in the cache (a CI job
 * sending Basic on every request always does), and guessing would be bounded only by the request rate. Of
 * the throttle's three buckets, the one for the account and address together and the one for the address are
 * the guesser's own. The one for the account is shared with everyone who uses it: when guesses from many
 * addresses lock it, the account's legitimate clients are refused too, also from their own addresses and
 * with a remembered password, until the lock ends (at most {@link LoginThrottle#MAX_LOCK}). That is
 * deliberate: letting a remembered credential through would exempt exactly the password being guessed. An
 * account that must not be locked out that way logs in with something that cannot be guessed (a TLS client
 * certificate on the build cache, an API token on the file manager's API), which this class does not see,
 * or an API token given as the password ({@link #loginWithPasswordOrToken}), which skips the throttle.
 *
 * <p><b>A directory that cannot answer</b> ({@link DirectoryUnavailableException}, such as an LDAP server that is
 * down) gives {@link LoginResult.Unavailable}: never a wrong password, and not counted by the throttle. A right
 * password whose groups no rule matches ({@link NoMatchingRuleException}) is answered as a wrong one, counted,
 * and audited as {@code denied}.
 *
 * <p>Thread-safe; never blocks the caller.
 */
public final class Authenticator implements AutoCloseable {

	/** How long a successful check is remembered unless told otherwise. */
	public static final Duration CACHE_TIME = Duration.ofMinutes(5);

	private final UserDirectory directory;

	private final LoginThrottle throttle;

	private final AuditLog audit;

	private final Scheduler hashing;

	private final Cache<String, User> verified;

	private final SecretKeySpec cacheKey;

	private final @Nullable TokenPasswords tokens;

	/**
	 * Creates the authenticator.
	 * @param directory where users come from
	 * @param throttle the shared throttle
	 * @param audit where outcomes are recorded
	 * @param hashing a bounded scheduler for password checks, owned (and disposed) by this authenticator
	 */
	public Authenticator(UserDirectory directory, LoginThrottle throttle, AuditLog audit, Scheduler hashing) {
		this(directory, throttle, audit, hashing, CACHE_TIME, null);
	}

	/**
	 * Creates an authenticator that remembers checks for a given time and takes API tokens as passwords.
	 * @param directory where users come from
	 * @param throttle the shared throttle
	 * @param audit where outcomes are recorded
	 * @param hashing a bounded scheduler for password checks, owned (and disposed) by this authenticator
	 * @param cacheTime how long a successful check is remembered: a user the directory disables meanwhile can
	 * still log in with a remembered password for this long
	 * @param tokens checks API tokens given as passwords, or {@code null} if none are accepted
	 */
	public Authenticator(UserDirectory directory, LoginThrottle throttle, AuditLog audit, Scheduler hashing,
			Duration cacheTime, @Nullable TokenPasswords tokens) {
		this.directory = directory;
		this.throttle = throttle;
		this.audit = audit;
		this.hashing = hashing;
		this.tokens = tokens;
		this.verified = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(cacheTime).build();
		byte[] key = new byte[32];
		new SecureRandom().nextBytes(key);
		this.cacheKey = new SecretKeySpec(key, "HmacSHA256");
	}

	/** The user directory, to look users up by name. */
	public UserDirectory directory() {
		return this.directory;
	}

	/**
	 * Tries a login.
	 * @param protocol who asks, for the audit log: {@code http}, {@code ftp}, {@code buildcache}
	 * @param name the name given
	 * @param password the password given
	 * @param client the client's address, or {@code null}
	 * @return the outcome; never fails
	 */
	public Mono<LoginResult> login(String protocol, String name, String password, @Nullable String client) {
		return Mono.defer(() -> {
			var wait = this.throttle.retryAfter(name, client);
			if (wait.isPresent()) {
				this.audit.record(new AuditEvent(protocol, name, "login", null, "throttled", client));
				return Mono.just(new LoginResult.Throttled(wait.get()));
			}
			String cacheEntry = cacheKey(name, password);
			User cached = this.verified.getIfPresent(cacheEntry);
			if (cached != null) {
				return Mono.just(new LoginResult.Success(cached));
			}
			return this.directory.verify(name, password)
				.subscribeOn(this.hashing)
				.map(user -> {
					this.throttle.succeeded(name, client);
					this.verified.put(cacheEntry, user);
					this.audit.record(new AuditEvent(protocol, user.name(), "login", null, "success", client));
					return (LoginResult) new LoginResult.Success(user);
				})
				.switchIfEmpty(Mono.fromSupplier(() -> {
					this.throttle.failed(name, client);
					this.audit.record(new AuditEvent(protocol, name, "login", null, "failure", client));
					return new LoginResult.Failure();
				}))
				.onErrorResume(NoMatchingRuleException.class, denied -> {
					this.throttle.failed(name, client);
					this.audit.record(new AuditEvent(protocol, name, "login", null, "denied", client));
					return Mono.just(new LoginResult.Failure());
				})
				.onErrorResume(DirectoryUnavailableException.class, down -> {
					this.audit.record(new AuditEvent(protocol, name, "login", null, "unavailable", client));
					return Mono.just(new LoginResult.Unavailable(down.retryAfter()));
				})
				.onErrorResume(RejectedExecutionException.class,
						busy -> Mono.just(new LoginResult.Throttled(Duration.ofSeconds(1))));
		});
	}

	/**
	 * Tries a login where the password may also be one of the user's API tokens, for protocols whose clients
	 * can send nothing but a name and a password (FTP, the build cache's HTTP Basic). A token is checked as a
	 * token only, never sent to the directory, and it acts as its own user only: the name must be the token's
	 * user. A token skips the throttle (it cannot be guessed, and a locked account's scripts keep working with
	 * it) and is audited with its id.
	 * @param protocol who asks, for the audit log
	 * @param name the name given
	 * @param password the password or token given
	 * @param client the client's address, or {@code null}
	 * @return the outcome; never fails
	 */
	public Mono<LoginResult> loginWithPasswordOrToken(String protocol, String name, String password,
			@Nullable String client) {
		TokenPasswords tokens = this.tokens;
		if (tokens == null || !tokens.isToken(password)) {
			return login(protocol, name, password, client);
		}
		return tokens.owner(password)
			.filter(owner -> owner.user().equals(name))
			.flatMap(owner -> Mono.justOrEmpty(this.directory.find(name)).map(user -> {
				this.audit.record(new AuditEvent(protocol, name, "login", "token:" + owner.id(), "success", client));
				return (LoginResult) new LoginResult.Success(user);
			}))
			.switchIfEmpty(Mono.fromSupplier(() -> {
				this.audit.record(new AuditEvent(protocol, name, "login", "token", "failure", client));
				return new LoginResult.Failure();
			}));
	}

	/**
	 * Forgets remembered checks for a user, such as after a logout everywhere.
	 * @param name the user's name
	 */
	public void forget(String name) {
		this.verified.asMap().values().removeIf(user -> user.name().equals(name));
	}

	/** Stops the password-checking workers. */
	@Override
	public void close() {
		this.hashing.dispose();
	}

	private String cacheKey(String name, String password) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(this.cacheKey);
			mac.update(name.getBytes(StandardCharsets.UTF_8));
			mac.update((byte) 0);
			return Base64.getEncoder().encodeToString(mac.doFinal(password.getBytes(StandardCharsets.UTF_8)));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HmacSHA256 is unavailable", ex);
		}
	}

	/** What a login attempt came to. */
	public sealed interface LoginResult {

		/**
		 * The name and password match.
		 * @param user the user
		 */
		record Success(User user) implements LoginResult {
		}

		/** The name or the password is wrong (which one is not told). */
		record Failure() implements LoginResult {
		}

		/**
		 * Too many failures: try again later. The password was not checked, not even against the
		 * remembered successes.
		 * @param retryAfter how long to wait
		 */
		record Throttled(Duration retryAfter) implements LoginResult {
		}

		/**
		 * The password could not be checked now (the directory cannot be reached): not a wrong password; try
		 * again later.
		 * @param retryAfter how long to wait
		 */
		record Unavailable(Duration retryAfter) implements LoginResult {
		}

	}

}
