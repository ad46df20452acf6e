package dev.wharf.core.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

import dev.wharf.core.security.ExternalUser.Source;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

/**
 * The users who sign in through a directory (LDAP) or an identity provider (OIDC):
 * remembered with their groups at each sign-in ({@link #signedIn}), so that sessions and
 * API tokens can name them until they sign in again, with the rights that
 * {@link DirectoryRules} give those groups now (a changed rule applies at once). A user
 * not seen for {@link DirectoryProperties#forgetAfter()} is forgotten: a provider that
 * cannot be asked later (OIDC) must see the user again. Thread-safe; never blocks.
 */
public final class ExternalUsers {

	/**
	 * How stale a stored "last seen" may get before a sign-in writes it again: sign-ins
	 * are far more frequent than writes.
	 */
	static final Duration SEEN_PRECISION = Duration.ofHours(1);

	/** The most groups kept per user; a directory that names more is cut, and logged. */
	static final int MAX_GROUPS = 1000;

	private static final Log logger = LogFactory.getLog(ExternalUsers.class);

	private final ExternalUserStore store;

	private final DirectoryRules rules;

	private final Duration forgetAfter;

	private final Clock clock;

	/**
	 * Creates the service.
	 * @param store where users are remembered
	 * @param rules what groups give
	 * @param forgetAfter how long an unseen user is remembered
	 * @param clock the time source
	 */
	public ExternalUsers(ExternalUserStore store, DirectoryRules rules, Duration forgetAfter, Clock clock) {
		this.store = store;
		this.rules = rules;
		this.forgetAfter = forgetAfter;
		this.clock = clock;
	}

	/** The rules that make rights of groups. */
	public DirectoryRules rules() {
		return this.rules;
	}

	/**
	 * A remembered user of a source, not forgotten yet.
	 * @param name the user's name
	 * @param source where the user must have signed in
	 * @return the entry, or empty
	 */
	public Optional<ExternalUser> entry(String name, Source source) {
		return this.store.find(name)
			.filter(user -> user.source() == source
					&& this.clock.instant().isBefore(user.seen().plus(this.forgetAfter)));
	}

	/**
	 * The user as Wharf knows them now, from memory.
	 * @param name the user's name
	 * @param source where the user must have signed in
	 * @return the user with the rights the rules give their groups now, or empty if the
	 * user is not remembered or no rule matches any more
	 */
	public Optional<User> find(String name, Source source) {
		return entry(name, source).flatMap(user -> this.rules.user(user.name(), user.groups()));
	}

	/**
	 * Remembers a user who signed in (or whom the directory confirmed) with their groups
	 * now.
	 * @param name the user's name, as {@link User#isValidName} allows
	 * @param source where
	 * @param groups the user's groups
	 * @return the user with the rights the rules give, or empty if no rule matches (the
	 * user is still remembered, so a rule added later applies); never fails: a store that
	 * cannot be written is logged (the sign-in still succeeds, but sessions and tokens
	 * may not find the user)
	 */
	public Mono<Optional<User>> signedIn(String name, Source source, Collection<String> groups) {
		return Mono.defer(() -> {
			Set<String> kept = new LinkedHashSet<>();
			for (String group : groups) {
				if (kept.size() == MAX_GROUPS) {
					logger
						.warn("User '" + name + "' is in more than " + MAX_GROUPS + " groups; only the first are kept");
					break;
				}
				kept.add(group);
			}
			Instant now = this.clock.instant();
			Optional<ExternalUser> stored = this.store.find(name);
			boolean current = stored.isPresent() && stored.get().source() == source
					&& stored.get().groups().equals(kept) && now.isBefore(stored.get().seen().plus(SEEN_PRECISION));
			Mono<Void> save = current ? Mono.empty()
					: this.store.save(new ExternalUser(name, source, kept, now)).onErrorResume(error -> {
						logger.warn("Could not remember " + source.configName() + " user '" + name + "': "
								+ error.getMessage());
						return Mono.empty();
					});
			return save.then(Mono.fromSupplier(() -> this.rules.user(name, kept)));
		});
	}

	/**
	 * Forgets a user, such as one the directory no longer has: their sessions and tokens
	 * stop working.
	 * @param name the user's name
	 * @return completes once forgotten
	 */
	public Mono<Void> forget(String name) {
		return this.store.remove(name);
	}

}
