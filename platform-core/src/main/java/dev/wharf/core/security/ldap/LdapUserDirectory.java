package dev.wharf.core.security.ldap;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.SizeLimitExceededException;
import javax.naming.directory.Attribute;
import javax.naming.directory.Attributes;
import javax.naming.directory.DirContext;
import javax.naming.directory.SearchControls;
import javax.naming.directory.SearchResult;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.wharf.core.security.DirectoryUnavailableException;
import dev.wharf.core.security.ExternalUser.Source;
import dev.wharf.core.security.ExternalUsers;
import dev.wharf.core.security.NoMatchingRuleException;
import dev.wharf.core.security.User;
import dev.wharf.core.security.UserDirectory;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.ldap.AuthenticationException;
import org.springframework.ldap.NameNotFoundException;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * Users of an LDAP directory ({@link LdapProperties}). A login binds to the directory as
 * the user (so the directory checks the password and its own policies: a locked or
 * disabled account, an expired password), then reads the user's groups, and
 * {@link ExternalUsers} remembers them, so that {@link #find} can answer for the user's
 * sessions and API tokens from memory. An empty password is refused without asking the
 * directory (directories take it as an anonymous bind), and so is a name that
 * {@link User#isValidName} refuses.
 *
 * <p>
 * A user found by {@link #find} whom the directory has not confirmed for
 * {@code cache-time} is looked up again in the background, as Wharf's own
 * {@code bind-dn}: one no longer there, or locked ({@code pwdAccountLockedTime}), is
 * forgotten, which ends their sessions and API tokens; changed groups change the rights.
 * Without a {@code bind-dn} nothing can be asked without the user's password (an
 * anonymous search that finds nothing may just be forbidden to see it), so users are then
 * only confirmed at their logins.
 *
 * <p>
 * A directory that cannot be reached, times out or refuses Wharf's own bind gives
 * {@link DirectoryUnavailableException}, never a wrong password. Every directory call
 * runs on the given bounded scheduler, never on the caller's thread. Thread-safe.
 */
public final class LdapUserDirectory implements UserDirectory, AutoCloseable {

	/** The OpenLDAP password policy's mark of a locked account. */
	static final String LOCKED = "pwdAccountLockedTime";

	/** The most groups read for one user. */
	static final int MAX_GROUPS = 1000;

	/** Warnings that the directory cannot be asked are logged at most this often. */
	static final Duration WARNING_INTERVAL = Duration.ofSeconds(30);

	private static final Log logger = LogFactory.getLog(LdapUserDirectory.class);

	private final LdapProperties properties;

	private final LdapConnections connections;

	private final ExternalUsers users;

	private final Scheduler workers;

	private final Clock clock;

	private final Cache<String, Instant> confirmed;

	private final Set<String> checking = ConcurrentHashMap.newKeySet();

	private final AtomicLong lastWarning = new AtomicLong();

	/**
	 * Creates the directory.
	 * @param properties the directory's settings, with at least one URL
	 * @param bundle the SSL bundle to trust the server by, or {@code null} for the JDK's
	 * trust store
	 * @param users where users are remembered, with the rules that give them rights
	 * @param workers a bounded scheduler for the blocking directory calls, owned (and
	 * disposed) by this directory
	 * @param clock the time source
	 */
	public LdapUserDirectory(LdapProperties properties, @Nullable SslBundle bundle, ExternalUsers users,
			Scheduler workers, Clock clock) {
		this.properties = properties;
		this.connections = new LdapConnections(properties, bundle);
		this.users = users;
		this.workers = workers;
		this.clock = clock;
		this.confirmed = Caffeine.newBuilder()
			.maximumSize(100_000)
			.expireAfterWrite(properties.cacheTime())
			.ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
			.build();
	}

	@Override
	public Mono<User> verify(String name, String password) {
		if (!User.isValidName(name) || password.isEmpty()) {
			return Mono.empty();
		}
		return Mono.fromCallable(() -> login(name, password))
			.subscribeOn(this.workers)
			.flatMap(groups -> this.users.signedIn(name, Source.LDAP, groups))
			.flatMap(user -> {
				this.confirmed.put(name, this.clock.instant());
				return user.map(Mono::just).orElseGet(() -> Mono.error(new NoMatchingRuleException(name)));
			});
	}

	@Override
	public Optional<User> find(String name) {
		Optional<User> user = this.users.find(name, Source.LDAP);
		if (user.isPresent() && this.connections.hasBindDn() && this.confirmed.getIfPresent(name) == null) {
			recheck(name);
		}
		return user;
	}

	/** Stops the directory's workers. */
	@Override
	public void close() {
		this.workers.dispose();
	}

	/**
	 * The groups of a user whose password the directory accepts, or {@code null} for a
	 * wrong name or password.
	 */
	private @Nullable Set<String> login(String name, String password) {
		String dn;
		try {
			dn = userDn(name);
		}
		catch (RuntimeException | NamingException ex) {
			throw unavailable("cannot search for the user", ex);
		}
		if (dn == null) {
			return null;
		}
		DirContext user;
		try {
			user = this.connections.bind(dn, password);
		}
		catch (AuthenticationException | NameNotFoundException wrong) {
			return null;
		}
		catch (RuntimeException ex) {
			throw unavailable("cannot bind as the user", ex);
		}
		DirContext reader = null;
		try {
			reader = this.connections.hasBindDn() ? this.connections.service() : user;
			return groups(reader, dn, name, null);
		}
		catch (RuntimeException | NamingException ex) {
			throw unavailable("cannot read the user's groups", ex);
		}
		finally {
			if (reader != user) {
				LdapConnections.close(reader);
			}
			LdapConnections.close(user);
		}
	}

	/**
	 * The user's DN: from the pattern, or found by a search as Wharf itself; {@code null}
	 * if there is no such user.
	 */
	private @Nullable String userDn(String name) throws NamingException {
		String pattern = this.properties.userDnPattern();
		if (pattern != null && !pattern.isBlank()) {
			return pattern.replace("{0}", Rdn.escapeValue(name));
		}
		DirContext context = this.connections.service();
		try {
			return searchUser(context, name);
		}
		finally {
			LdapConnections.close(context);
		}
	}

	private @Nullable String searchUser(DirContext context, String name) throws NamingException {
		LdapProperties.UserSearch search = this.properties.userSearch();
		SearchControls controls = controls(2, new String[0]);
		List<String> found = new ArrayList<>(2);
		NamingEnumeration<SearchResult> results = context.search(new LdapName(search.base()), search.filter(),
				new Object[] { name }, controls);
		try {
			while (results.hasMore()) {
				found.add(results.next().getNameInNamespace());
			}
		}
		catch (SizeLimitExceededException ex) {
			found.add("(more)");
		}
		finally {
			results.close();
		}
		if (found.size() > 1) {
			logger.warn("The LDAP search for user '" + name
					+ "' finds more than one entry; nobody can log in with that name");
			return null;
		}
		return found.isEmpty() ? null : found.get(0);
	}

	/**
	 * The user's groups.
	 * @param context a connection that may read them
	 * @param dn the user's DN
	 * @param name the login name
	 * @param entry the user's entry with {@code group-attribute}, if already read
	 */
	private Set<String> groups(DirContext context, String dn, String name, @Nullable Attributes entry)
			throws NamingException {
		Set<String> groups = new LinkedHashSet<>();
		LdapProperties.GroupSearch search = this.properties.groupSearch();
		if (search.base() != null && !search.base().isBlank()) {
			NamingEnumeration<SearchResult> results = context.search(new LdapName(search.base()), search.filter(),
					new Object[] { dn, name }, controls(MAX_GROUPS, new String[] { search.nameAttribute() }));
			try {
				while (results.hasMore()) {
					addValues(results.next().getAttributes().get(search.nameAttribute()), groups);
				}
			}
			catch (SizeLimitExceededException ex) {
				logger.warn("User '" + name + "' is in more than " + MAX_GROUPS + " groups; only the first are read");
			}
			finally {
				results.close();
			}
			return groups;
		}
		String attribute = this.properties.groupAttribute();
		Attributes attributes = (entry != null) ? entry
				: context.getAttributes(new LdapName(dn), new String[] { attribute });
		Set<String> dns = new LinkedHashSet<>();
		addValues(attributes.get(attribute), dns);
		for (String group : dns) {
			LdapName groupDn = new LdapName(group);
			if (groupDn.size() > 0) {
				groups.add(String.valueOf(groupDn.getRdn(groupDn.size() - 1).getValue()));
			}
		}
		return groups;
	}

	private static void addValues(@Nullable Attribute attribute, Set<String> into) throws NamingException {
		if (attribute == null) {
			return;
		}
		NamingEnumeration<?> values = attribute.getAll();
		try {
			while (values.hasMore()) {
				Object value = values.next();
				if (value instanceof String text) {
					into.add(text);
				}
			}
		}
		finally {
			values.close();
		}
	}

	private SearchControls controls(int limit, String[] attributes) {
		return new SearchControls(SearchControls.SUBTREE_SCOPE, limit,
				(int) Math.min(Integer.MAX_VALUE, this.properties.readTimeout().toMillis()), attributes, false, false);
	}

	/** Asks the directory about a user in the background, once at a time per user. */
	private void recheck(String name) {
		if (!this.checking.add(name)) {
			return;
		}
		Mono.fromCallable(() -> lookup(name))
			.subscribeOn(this.workers)
			.flatMap(groups -> groups.isPresent() ? this.users.signedIn(name, Source.LDAP, groups.get()).then()
					: forget(name))
			.doOnSuccess(done -> this.confirmed.put(name, this.clock.instant()))
			.doOnError(error -> {
				// Asked again after cache-time, not on every request while the directory
				// is down.
				this.confirmed.put(name, this.clock.instant());
				warn(error);
			})
			.doFinally(signal -> this.checking.remove(name))
			.subscribe(done -> {
			}, error -> {
			});
	}

	private Mono<Void> forget(String name) {
		logger.info("LDAP user '" + name
				+ "' is no longer in the directory, or is locked: their sessions and API tokens end");
		return this.users.forget(name);
	}

	/**
	 * The groups of a user as Wharf's own DN sees them, or empty if the user is gone or
	 * locked.
	 */
	private Optional<Set<String>> lookup(String name) {
		DirContext context = null;
		try {
			context = this.connections.service();
			String pattern = this.properties.userDnPattern();
			String dn = (pattern != null && !pattern.isBlank()) ? pattern.replace("{0}", Rdn.escapeValue(name))
					: searchUser(context, name);
			if (dn == null) {
				return Optional.empty();
			}
			Attributes entry = context.getAttributes(new LdapName(dn),
					new String[] { LOCKED, this.properties.groupAttribute() });
			if (entry.get(LOCKED) != null) {
				return Optional.empty();
			}
			return Optional.of(groups(context, dn, name, entry));
		}
		catch (javax.naming.NameNotFoundException | NameNotFoundException gone) {
			return Optional.empty();
		}
		catch (RuntimeException | NamingException ex) {
			throw unavailable("cannot look the user up", ex);
		}
		finally {
			LdapConnections.close(context);
		}
	}

	private DirectoryUnavailableException unavailable(String what, Exception cause) {
		DirectoryUnavailableException down = new DirectoryUnavailableException(
				"LDAP directory " + this.connections.urls() + " " + what + ": " + cause.getMessage(), cause);
		warn(down);
		return down;
	}

	private void warn(Throwable error) {
		long now = this.clock.millis();
		long last = this.lastWarning.get();
		if ((last == 0 || now - last >= WARNING_INTERVAL.toMillis()) && this.lastWarning.compareAndSet(last, now)) {
			logger.warn(error.getMessage());
		}
	}

}
