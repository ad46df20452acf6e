package dev.wharf.core.security.ldap;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import javax.naming.NamingException;
import javax.naming.directory.DirContext;
import javax.net.ssl.SSLSocketFactory;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.ldap.core.support.DefaultTlsDirContextAuthenticationStrategy;
import org.springframework.ldap.core.support.LdapContextSource;

/**
 * Opens connections to the directory with Spring LDAP: one connection per operation,
 * never pooled (a login is a bind as the user, which a pool could not share), with the
 * configured connect and read timeouts, referrals ignored (they could send Wharf's binds
 * to another server), and TLS through the configured SSL bundle for {@code ldaps://} and
 * StartTLS. Every method blocks: call it on a worker, never an event loop. Thread-safe.
 */
final class LdapConnections {

	private static final String SOCKET_FACTORY = "java.naming.ldap.factory.socket";

	private final LdapContextSource source;

	private final @Nullable SSLSocketFactory ldapsFactory;

	private final String bindDn;

	private final String bindPassword;

	private final String urls;

	/**
	 * Prepares connections.
	 * @param properties the directory's settings
	 * @param bundle the SSL bundle to trust the server by, or {@code null} for the JDK's
	 * trust store
	 */
	LdapConnections(LdapProperties properties, @Nullable SslBundle bundle) {
		SSLSocketFactory factory = (bundle != null) ? bundle.createSslContext().getSocketFactory() : null;
		LdapContextSource source = new LdapContextSource();
		source.setUrls(properties.urls().toArray(String[]::new));
		source.setPooled(false);
		source.setReferral("ignore");
		source.setDirObjectFactory(null);
		Map<String, Object> environment = new HashMap<>();
		environment.put("com.sun.jndi.ldap.connect.timeout", Long.toString(properties.connectTimeout().toMillis()));
		environment.put("com.sun.jndi.ldap.read.timeout", Long.toString(properties.readTimeout().toMillis()));
		boolean ldaps = properties.urls().stream().anyMatch(url -> url.toLowerCase(Locale.ROOT).startsWith("ldaps://"));
		if (ldaps && factory != null) {
			environment.put(SOCKET_FACTORY, BundleSocketFactory.class.getName());
		}
		source.setBaseEnvironmentProperties(environment);
		if (properties.startTls()) {
			DefaultTlsDirContextAuthenticationStrategy tls = new DefaultTlsDirContextAuthenticationStrategy();
			if (factory != null) {
				tls.setSslSocketFactory(factory);
			}
			source.setAuthenticationStrategy(tls);
		}
		// Wharf's own DN is given to each operation, never kept as the source's default
		// identity.
		source.setAnonymousReadOnly(true);
		source.afterPropertiesSet();
		this.source = source;
		this.ldapsFactory = (ldaps) ? factory : null;
		String bindDn = properties.bindDn();
		String bindPassword = properties.bindPassword();
		this.bindDn = (bindDn != null) ? bindDn : "";
		this.bindPassword = (bindPassword != null) ? bindPassword : "";
		this.urls = String.join(" ", properties.urls());
	}

	/**
	 * Binds as a user.
	 * @param dn the user's DN
	 * @param password the password given; never empty, which a directory takes as an
	 * anonymous bind
	 * @return the connection, bound as the user; the caller closes it
	 * @throws org.springframework.ldap.AuthenticationException if the directory refuses
	 * the password
	 * @throws org.springframework.ldap.NamingException if the directory cannot be asked
	 */
	DirContext bind(String dn, String password) {
		if (password.isEmpty()) {
			throw new IllegalArgumentException("An empty password binds anonymously");
		}
		return open(() -> this.source.getContext(dn, password));
	}

	/**
	 * A connection as Wharf itself: bound as {@code bind-dn}, or anonymous.
	 * @return the connection; the caller closes it
	 * @throws org.springframework.ldap.NamingException if the directory cannot be asked,
	 * or refuses the bind DN
	 */
	DirContext service() {
		return open(() -> this.source.getContext(this.bindDn, this.bindPassword));
	}

	/** Whether Wharf binds with a DN of its own (otherwise anonymously). */
	boolean hasBindDn() {
		return !this.bindDn.isEmpty();
	}

	private DirContext open(Supplier<DirContext> opener) {
		SSLSocketFactory factory = this.ldapsFactory;
		return (factory != null) ? BundleSocketFactory.with(factory, opener) : opener.get();
	}

	/**
	 * Closes a connection, quietly.
	 * @param context the connection, or {@code null}
	 */
	static void close(@Nullable DirContext context) {
		if (context != null) {
			try {
				context.close();
			}
			catch (NamingException ex) {
				// Nothing is left to do with a connection that cannot even be closed.
			}
		}
	}

	/** The servers, for messages. */
	String urls() {
		return this.urls;
	}

}
