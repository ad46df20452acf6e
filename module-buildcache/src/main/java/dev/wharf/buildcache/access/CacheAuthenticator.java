package dev.wharf.buildcache.access;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Optional;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.security.auth.x500.X500Principal;

import dev.wharf.core.security.Authenticator;
import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.security.BasicAuthorization;
import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.User;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Finds out who sent a cache request: HTTP Basic credentials (read by
 * {@link BasicAuthorization}) checked by core's {@link Authenticator} (shared throttle,
 * audit, cached successes; the password may also be one of the user's API tokens), else a
 * verified TLS client certificate whose subject names a configured user (when enabled),
 * else nobody (anonymous). Thread-safe; never blocks: password checks run on the
 * authenticator's own workers.
 */
public final class CacheAuthenticator {

	/** The protocol name in audit lines. */
	public static final String PROTOCOL = "buildcache";

	/** The outcome of most anonymous requests, made once. */
	private static final Outcome ANONYMOUS_OUTCOME = new Outcome.Authenticated(new CacheCaller(null, null));

	private static final Mono<Outcome> ANONYMOUS = Mono.just(ANONYMOUS_OUTCOME);

	private final Authenticator authenticator;

	private final @Nullable String certificateAttribute;

	/**
	 * Creates the authenticator.
	 * @param authenticator core's authenticator
	 * @param certificateAttribute the subject attribute that names the user in a client
	 * certificate, or {@code null} if certificates do not log in
	 */
	public CacheAuthenticator(Authenticator authenticator, @Nullable String certificateAttribute) {
		this.authenticator = authenticator;
		this.certificateAttribute = certificateAttribute;
	}

	/**
	 * Authenticates a request.
	 * @param authorization the {@code Authorization} header, or {@code null}
	 * @param certificate the client's verified TLS certificate, or {@code null}
	 * @param address the client's address, or {@code null}
	 * @return the outcome; never fails
	 */
	public Mono<Outcome> authenticate(@Nullable String authorization, @Nullable X509Certificate certificate,
			@Nullable String address) {
		if (authorization != null) {
			return basic(authorization, address);
		}
		Outcome outcome = withoutPassword(certificate, address);
		return (outcome == ANONYMOUS_OUTCOME) ? ANONYMOUS : Mono.just(outcome);
	}

	/**
	 * Authenticates a request at once, where the answer is at hand: no password (an
	 * anonymous caller or a client certificate), malformed Basic credentials, or a
	 * password that core's authenticator remembers or throttles without waiting (see
	 * {@link Authenticator#loginAtHand}). The same outcomes as {@link #authenticate},
	 * without its publisher, for the requests build clients send most. Runs on the
	 * caller's thread, which may be an event loop; never blocks.
	 * @param authorization the {@code Authorization} header, or {@code null}
	 * @param certificate the client's verified TLS certificate, or {@code null}
	 * @param address the client's address, or {@code null}
	 * @return the outcome; {@code null} if it is not at hand (a password to check), and
	 * then {@link #authenticate} answers
	 */
	public @Nullable Outcome authenticateAtHand(@Nullable String authorization, @Nullable X509Certificate certificate,
			@Nullable String address) {
		if (authorization == null) {
			return withoutPassword(certificate, address);
		}
		Optional<Credentials> credentials = BasicAuthorization.parse(authorization);
		if (credentials.isEmpty()) {
			return new Outcome.Refused();
		}
		LoginResult result = this.authenticator.loginAtHand(PROTOCOL, credentials.get().username(),
				credentials.get().password(), address);
		return (result != null) ? outcome(result, address) : null;
	}

	private Outcome withoutPassword(@Nullable X509Certificate certificate, @Nullable String address) {
		User certified = certificateUser(certificate);
		if (certified == null && address == null) {
			return ANONYMOUS_OUTCOME;
		}
		return new Outcome.Authenticated(new CacheCaller(certified, address));
	}

	private Mono<Outcome> basic(String authorization, @Nullable String address) {
		Optional<Credentials> credentials = BasicAuthorization.parse(authorization);
		if (credentials.isEmpty()) {
			return Mono.just(new Outcome.Refused());
		}
		return this.authenticator
			.loginWithPasswordOrToken(PROTOCOL, credentials.get().username(), credentials.get().password(), address)
			.map(result -> outcome(result, address));
	}

	private static Outcome outcome(LoginResult result, @Nullable String address) {
		if (result instanceof LoginResult.Success success) {
			return new Outcome.Authenticated(new CacheCaller(success.user(), address));
		}
		if (result instanceof LoginResult.Throttled throttled) {
			return new Outcome.Throttled(throttled.retryAfter());
		}
		if (result instanceof LoginResult.Unavailable unavailable) {
			return new Outcome.Unavailable(unavailable.retryAfter());
		}
		return new Outcome.Refused();
	}

	private @Nullable User certificateUser(@Nullable X509Certificate certificate) {
		if (this.certificateAttribute == null || certificate == null) {
			return null;
		}
		String name = subjectAttribute(certificate.getSubjectX500Principal(), this.certificateAttribute);
		return (name != null) ? this.authenticator.directory().find(name).orElse(null) : null;
	}

	/**
	 * The value of one attribute of a certificate's subject.
	 * @param subject the subject
	 * @param attribute such as {@code CN}
	 * @return the (last, most specific) value, or {@code null} if the subject has none
	 */
	static @Nullable String subjectAttribute(X500Principal subject, String attribute) {
		try {
			String value = null;
			for (Rdn rdn : new LdapName(subject.getName(X500Principal.RFC2253)).getRdns()) {
				if (rdn.getType().equalsIgnoreCase(attribute) && rdn.getValue() instanceof String text) {
					value = text;
				}
			}
			return value;
		}
		catch (InvalidNameException ex) {
			return null;
		}
	}

	/** What authenticating a request came to. */
	public sealed interface Outcome {

		/**
		 * The caller is known (possibly anonymous).
		 *
		 * @param caller who it is
		 */
		record Authenticated(CacheCaller caller) implements Outcome {
		}

		/** Credentials were sent but are wrong or malformed. */
		record Refused() implements Outcome {
		}

		/**
		 * Too many failed logins: the password was not checked.
		 *
		 * @param retryAfter how long to wait
		 */
		record Throttled(Duration retryAfter) implements Outcome {
		}

		/**
		 * The credentials could not be checked now (the directory or the shared state
		 * store cannot be reached): not refused.
		 *
		 * @param retryAfter how long to wait
		 */
		record Unavailable(Duration retryAfter) implements Outcome {
		}

	}

}
