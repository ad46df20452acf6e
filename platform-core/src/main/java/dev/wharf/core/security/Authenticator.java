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
import dev.wharf.core.state.InProcessInvalidations;
import dev.wharf.core.state.Invalidations;
import dev.wharf.core.state.SharedStateUnavailableException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Logs users in for every protocol, in one place: refuses throttled attempts at once
 * ({@link LoginThrottle}), checks the password through the {@link UserDirectory} on a
 * bounded worker pool (never an event loop), counts failures, and audits the outcome.
 *
 * <p>
 * Protocols that send a password with every request (HTTP Basic for the build cache)
 * would pay a password hash each time; successful checks are therefore remembered for
 * {@link #CACHE_TIME}, keyed by an HMAC of name and password under a key that lives only
 * in this process, so the cache holds nothing that could be replayed.
 *
 * <p>
 * <b>The throttle comes before that cache.</b> A locked bucket refuses every login, the
 * right password included, even one checked a moment ago: otherwise a guesser whose wrong
 * guesses are refused cheaply would still be let in by the right one while a client that
 * uses the account keeps it in the cache (a CI job sending Basic on every request always
 * does), and guessing would be bounded only by the request rate. Of the throttle's three
 * buckets, the one for the account and address together and the one for the address are
 * the guesser's own. The one for the account is shared with everyone who uses it: when
 * guesses from many addresses lock it, the account's legitimate clients are refused too,
 * also from their own addresses and with a remembered password, until the lock ends (at
 * most {@link LoginThrottle#MAX_LOCK}). That is deliberate: letting a remembered
 * credential through would exempt exactly the password being guessed. An account that
 * must not be locked out that way logs in with something that cannot be guessed (a TLS
 * client certificate on the build cache, an API token on the file manager's API), which
 * this class does not see, or an API token given as the password
 * ({@link #loginWithPasswordOrToken}), which skips the throttle.
 *
 * <p>
 * <b>A directory that cannot answer</b> ({@link DirectoryUnavailableException}, such as
 * an LDAP server that is down) gives {@link LoginResult.Unavailable}: never a wrong
 * password, and not counted by the throttle. A right password whose groups no rule
 * matches ({@link NoMatchingRuleException}) is answered as a wrong one, counted, and
 * audited as {@code denied}.
 *
 * <p>
 * <b>When the throttle's store cannot be reached</b> (Redis, with several replicas), a
 * password checked lately still logs in, so build clients that send it with every request
 * keep working; any other login gets {@link LoginResult.Unavailable} without its password
 * being checked, so guessing stays impossible while the throttle cannot count.
 *
 * <p>
 * Thread-safe; never blocks the caller.
 */
public final class Authenticator implements AutoCloseable {

	/** How long a successful check is remembered unless told otherwise. */
	public static final Duration CACHE_TIME = Duration.ofMinutes(5);

	/**
	 * The invalidation topic of users whose checks are forgotten; keys are base64url
	 * names.
	 */
	static final String FORGET_TOPIC = "forget-user";

	private final UserDirectory directory;

	private final LoginThrottle throttle;

	private final AuditLog audit;

	private final Scheduler hashing;

	private final Cache<String, User> verified;

	/**
	 * One keyed HMAC per thread that logs users in: {@link Mac#getInstance} and
	 * {@link Mac#init} look the provider up and expand the key, which cost more than the
	 * HMAC itself on a build cache request, and a {@link Mac} is not thread-safe.
	 */
	private final ThreadLocal<Mac> cacheKeys;

	private final @Nullable TokenPasswords tokens;

	private final Invalidations invalidations;

	/**
	 * Creates the authenticator.
	 * @param directory where users come from
	 * @param throttle the shared throttle
	 * @param audit where outcomes are recorded
	 * @param hashing a bounded scheduler for password checks, owned (and disposed) by
	 * this authenticator
	 */
	public Authenticator(UserDirectory directory, LoginThrottle throttle, AuditLog audit, Scheduler hashing) {
		this(directory, throttle, audit, hashing, CACHE_TIME, null, new InProcessInvalidations());
	}

	/**
	 * Creates an authenticator that remembers checks for a given time, takes API tokens
	 * as passwords and tells other replicas to forget a user's remembered checks.
	 * @param directory where users come from
	 * @param throttle the shared throttle
	 * @param audit where outcomes are recorded
	 * @param hashing a bounded scheduler for password checks, owned (and disposed) by
	 * this authenticator
	 * @param cacheTime how long a successful check is remembered: a user the directory
	 * disables meanwhile can still log in with a remembered password for this long
	 * @param tokens checks API tokens given as passwords, or {@code null} if none are
	 * accepted
	 * @param invalidations how replicas tell each other that a user's checks are to be
	 * forgotten
	 */
	public Authenticator(UserDirectory directory, LoginThrottle throttle, AuditLog audit, Scheduler hashing,
			Duration cacheTime, @Nullable TokenPasswords tokens, Invalidations invalidations) {
		this.directory = directory;
		this.throttle = throttle;
		this.audit = audit;
		this.hashing = hashing;
		this.tokens = tokens;
		this.invalidations = invalidations;
		this.verified = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(cacheTime).build();
		byte[] key = new byte[32];
		new SecureRandom().nextBytes(key);
		SecretKeySpec cacheKey = new SecretKeySpec(key, "HmacSHA256");
		this.cacheKeys = ThreadLocal.withInitial(() -> keyedMac(cacheKey));
		invalidations.subscribe(FORGET_TOPIC,
				encoded -> forgetHere(new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8)));
	}

	/** The user directory, to look users up by name. */
	public UserDirectory directory() {
		return this.directory;
	}

	/**
	 * Tries a login.
	 * @param protocol who asks, for the audit log: {@code http}, {@code ftp},
	 * {@code buildcache}
	 * @param name the name given
	 * @param password the password given
	 * @param client the client's address, or {@code null}
	 * @return the outcome; never fails
	 */
	public Mono<LoginResult> login(String protocol, String name, String password, @Nullable String client) {
		return Mono.defer(() -> {
			String cacheEntry = cacheKey(name, password);
			return this.throttle.retryAfter(name, client).flatMap(wait -> {
				LoginResult known = throttledOrRemembered(protocol, name, client, wait, cacheEntry);
				return (known != null) ? Mono.just(known) : verify(protocol, name, password, client, cacheEntry);
			}).onErrorResume(SharedStateUnavailableException.class, down -> {
				// The throttle cannot be asked. A password checked while it could be
				// still passes, so clients that
				// send it with every request keep working; no other password is checked,
				// so nothing can be guessed.
				User cached = this.verified.getIfPresent(cacheEntry);
				if (cached != null) {
					return Mono.just(new LoginResult.Success(cached));
				}
				this.audit.record(new AuditEvent(protocol, name, "login", null, "unavailable", client));
				return Mono.just(new LoginResult.Unavailable(down.retryAfter()));
			});
		});
	}

	/**
	 * Tries a login at once, where the answer is at hand: the throttle answers without
	 * waiting ({@link LoginThrottle#retryAfterAtHand}) and the login is either throttled
	 * or a password checked lately (remembered). The same rules, outcomes and audit lines
	 * as {@link #loginWithPasswordOrToken}, for protocols that send a password with every
	 * request and answer on a hot path; everything else (a password to check, an API
	 * token, a throttle in Redis) is answered {@code null}, and the caller then calls
	 * {@link #loginWithPasswordOrToken}. Runs on the caller's thread, which may be an
	 * event loop: it never blocks and never hashes a password.
	 * @param protocol who asks, for the audit log
	 * @param name the name given
	 * @param password the password given
	 * @param client the client's address, or {@code null}
	 * @return {@link LoginResult.Success} or {@link LoginResult.Throttled}; {@code null}
	 * if the answer is not at hand
	 */
	public @Nullable LoginResult loginAtHand(String protocol, String name, String password, @Nullable String client) {
		TokenPasswords tokens = this.tokens;
		if (tokens != null && tokens.isToken(password)) {
			return null;
		}
		Duration wait = this.throttle.retryAfterAtHand(name, client);
		return (wait != null) ? throttledOrRemembered(protocol, name, client, wait, cacheKey(name, password)) : null;
	}

	/**
	 * What a login comes to once the throttle has answered, where that needs no password
	 * check: throttled (audited), or a password checked lately.
	 * @return the result; {@code null} if the password is still to be checked
	 */
	private @Nullable LoginResult throttledOrRemembered(String protocol, String name, @Nullable String client,
			Duration wait, String cacheEntry) {
		if (!wait.isZero()) {
			this.audit.record(new AuditEvent(protocol, name, "login", null, "throttled", client));
			return new LoginResult.Throttled(wait);
		}
		User cached = this.verified.getIfPresent(cacheEntry);
		return (cached != null) ? new LoginResult.Success(cached) : null;
	}

	private Mono<LoginResult> verify(String protocol, String name, String password, @Nullable String client,
			String cacheEntry) {
		return this.directory.verify(name, password)
			.subscribeOn(this.hashing)
			.flatMap(user -> this.throttle.succeeded(name, client)
				.onErrorResume(error -> Mono.empty())
				.then(Mono.fromSupplier(() -> {
					this.verified.put(cacheEntry, user);
					this.audit.record(new AuditEvent(protocol, user.name(), "login", null, "success", client));
					return (LoginResult) new LoginResult.Success(user);
				})))
			.switchIfEmpty(Mono.defer(() -> failed(protocol, name, client, "failure")))
			.onErrorResume(NoMatchingRuleException.class, denied -> failed(protocol, name, client, "denied"))
			.onErrorResume(DirectoryUnavailableException.class, down -> {
				this.audit.record(new AuditEvent(protocol, name, "login", null, "unavailable", client));
				return Mono.just(new LoginResult.Unavailable(down.retryAfter()));
			})
			.onErrorResume(RejectedExecutionException.class,
					busy -> Mono.just(new LoginResult.Throttled(Duration.ofSeconds(1))));
	}

	/**
	 * Counts a refused password (as far as the throttle can be reached) and audits it
	 * with the outcome.
	 */
	private Mono<LoginResult> failed(String protocol, String name, @Nullable String client, String outcome) {
		return this.throttle.failed(name, client).onErrorResume(error -> Mono.empty()).then(Mono.fromSupplier(() -> {
			this.audit.record(new AuditEvent(protocol, name, "login", null, outcome, client));
			return new LoginResult.Failure();
		}));
	}

	/**
	 * Tries a login where the password may also be one of the user's API tokens, for
	 * protocols whose clients can send nothing but a name and a password (FTP, the build
	 * cache's HTTP Basic). A token is checked as a token only, never sent to the
	 * directory, and it acts as its own user only: the name must be the token's user. A
	 * token skips the throttle (it cannot be guessed, and a locked account's scripts keep
	 * working with it) and is audited with its id.
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
	 * Forgets remembered checks for a user, such as after a logout everywhere, here and
	 * on every replica.
	 * @param name the user's name
	 */
	public void forget(String name) {
		forgetHere(name);
		// Best effort: a replica that misses it forgets within the cache time anyway.
		this.invalidations
			.publish(FORGET_TOPIC,
					Base64.getUrlEncoder().withoutPadding().encodeToString(name.getBytes(StandardCharsets.UTF_8)))
			.onErrorResume(error -> Mono.empty())
			.subscribe();
	}

	private void forgetHere(String name) {
		this.verified.asMap().values().removeIf(user -> user.name().equals(name));
	}

	/** Stops the password-checking workers. */
	@Override
	public void close() {
		this.hashing.dispose();
	}

	private String cacheKey(String name, String password) {
		// doFinal resets the Mac to its key, ready for the next name and password.
		Mac mac = this.cacheKeys.get();
		mac.update(name.getBytes(StandardCharsets.UTF_8));
		mac.update((byte) 0);
		return Base64.getEncoder().encodeToString(mac.doFinal(password.getBytes(StandardCharsets.UTF_8)));
	}

	private static Mac keyedMac(SecretKeySpec key) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(key);
			return mac;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("HmacSHA256 is unavailable", ex);
		}
	}

	/** What a login attempt came to. */
	public sealed interface LoginResult {

		/**
		 * The name and password match.
		 *
		 * @param user the user
		 */
		record Success(User user) implements LoginResult {
		}

		/** The name or the password is wrong (which one is not told). */
		record Failure() implements LoginResult {
		}

		/**
		 * Too many failures: try again later. The password was not checked, not even
		 * against the remembered successes.
		 *
		 * @param retryAfter how long to wait
		 */
		record Throttled(Duration retryAfter) implements LoginResult {
		}

		/**
		 * The password could not be checked now: the directory cannot be reached, or the
		 * shared state store (which holds the throttle) cannot be reached and the
		 * password was not one checked lately. Not a wrong password; try again later.
		 *
		 * @param retryAfter how long to wait
		 */
		record Unavailable(Duration retryAfter) implements LoginResult {
		}

	}

}
