package dev.wharf.core.security.ldap;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

import dev.wharf.core.config.InvalidConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Password logins against an LDAP directory ({@code wharf.security.ldap}), for every
 * protocol; off unless {@code urls} names a server. A login binds to the directory as the
 * user, whose DN comes from {@code user-dn-pattern} or from a search
 * ({@code user-search}); the user's groups then come from a group search
 * ({@code group-search.base} set) or else from the user's {@code group-attribute}
 * ({@code memberOf}), and {@code wharf.security.directory.rules} turn them into rights.
 *
 * @param urls the servers, {@code ldap://host:389} or {@code ldaps://host:636}; several
 * are tried in turn
 * @param startTls whether to upgrade {@code ldap://} connections with StartTLS before
 * anything is sent
 * @param sslBundle the {@code spring.ssl.bundle} whose trust store checks the server's
 * certificate for {@code ldaps://} and StartTLS; the JDK's trust store if not set
 * @param bindDn the DN Wharf itself binds as to search for users and read groups;
 * anonymous if not set
 * @param bindPassword that DN's password (from the environment, say
 * {@code WHARF_SECURITY_LDAP_BIND_PASSWORD})
 * @param userDnPattern the DN of a user, {@code {0}} standing for the login name, such as
 * {@code uid={0},ou=people,dc=example,dc=org}; or else set {@code user-search}
 * @param userSearch where and how to find a user's DN by search instead
 * @param groupSearch where and how to find a user's groups
 * @param groupAttribute the attribute of the user's entry that lists the DNs of the
 * user's groups, read when {@code group-search.base} is not set; a group's name is the
 * value of the first part of its DN
 * @param connectTimeout how long to wait for a connection and the first bind on it
 * @param readTimeout how long to wait for any answer
 * @param cacheTime how long a right password is remembered, so clients that send it with
 * every request (the build cache's Basic) do not make a bind each time; also how often
 * the directory is asked again whether a user with a session or API token is still there.
 * A user disabled in the directory is refused at most this long later
 */
@ConfigurationProperties("wharf.security.ldap")
public record LdapProperties(@DefaultValue List<String> urls, @DefaultValue("false") boolean startTls,
		@Nullable String sslBundle, @Nullable String bindDn, @Nullable String bindPassword,
		@Nullable String userDnPattern, @DefaultValue UserSearch userSearch, @DefaultValue GroupSearch groupSearch,
		@DefaultValue("memberOf") String groupAttribute, @DefaultValue("5s") Duration connectTimeout,
		@DefaultValue("10s") Duration readTimeout, @DefaultValue("60s") Duration cacheTime) {

	private static final String PREFIX = "wharf.security.ldap.";

	public LdapProperties {
		urls = List.copyOf(urls);
		if (!urls.isEmpty()) {
			check(urls, startTls, bindDn, bindPassword, userDnPattern, userSearch, groupSearch, groupAttribute);
		}
		atLeast("connect-timeout", connectTimeout, Duration.ofMillis(100));
		atLeast("read-timeout", readTimeout, Duration.ofMillis(100));
		if (cacheTime.isNegative() || cacheTime.compareTo(Duration.ofHours(1)) > 0) {
			throw new InvalidConfigurationException(PREFIX + "cache-time", cacheTime.toString(),
					"must be from 0 (never remember a password) to 1 hour");
		}
	}

	private static void check(List<String> urls, boolean startTls, @Nullable String bindDn,
			@Nullable String bindPassword, @Nullable String userDnPattern, UserSearch userSearch,
			GroupSearch groupSearch, String groupAttribute) {
		for (int i = 0; i < urls.size(); i++) {
			String url = urls.get(i).toLowerCase(Locale.ROOT);
			if (!url.startsWith("ldap://") && !url.startsWith("ldaps://")) {
				throw new InvalidConfigurationException(PREFIX + "urls[" + i + "]", urls.get(i),
						"must start with ldap:// or ldaps://");
			}
			if (startTls && url.startsWith("ldaps://")) {
				throw new InvalidConfigurationException(PREFIX + "start-tls", "true",
						"StartTLS upgrades ldap:// connections; ldaps:// is TLS from the start");
			}
		}
		if ((bindDn == null || bindDn.isBlank()) != (bindPassword == null || bindPassword.isEmpty())) {
			throw new InvalidConfigurationException(
					PREFIX + ((bindDn == null || bindDn.isBlank()) ? "bind-dn" : "bind-password"), null,
					"bind-dn and bind-password go together (neither: Wharf searches anonymously)");
		}
		boolean pattern = userDnPattern != null && !userDnPattern.isBlank();
		boolean search = userSearch.base() != null && !userSearch.base().isBlank();
		if (pattern == search) {
			throw new InvalidConfigurationException(PREFIX + "user-dn-pattern", userDnPattern,
					"set either user-dn-pattern or user-search.base, not both and not neither");
		}
		if (pattern && userDnPattern != null && !userDnPattern.contains("{0}")) {
			throw new InvalidConfigurationException(PREFIX + "user-dn-pattern", userDnPattern,
					"must contain {0}, which stands for the login name");
		}
		if (search && !userSearch.filter().contains("{0}")) {
			throw new InvalidConfigurationException(PREFIX + "user-search.filter", userSearch.filter(),
					"must contain {0}, which stands for the login name");
		}
		if (groupSearch.base() != null && !groupSearch.base().isBlank() && groupSearch.nameAttribute().isBlank()) {
			throw new InvalidConfigurationException(PREFIX + "group-search.name-attribute", "",
					"must name an attribute");
		}
		if ((groupSearch.base() == null || groupSearch.base().isBlank()) && groupAttribute.isBlank()) {
			throw new InvalidConfigurationException(PREFIX + "group-attribute", "",
					"must name an attribute when group-search.base is not set");
		}
	}

	private static void atLeast(String property, Duration value, Duration minimum) {
		if (value.compareTo(minimum) < 0) {
			throw new InvalidConfigurationException(PREFIX + property, value.toString(), "must be at least " + minimum);
		}
	}

	/** Whether LDAP logins are on: a server is configured. */
	public boolean enabled() {
		return !this.urls.isEmpty();
	}

	/** Never shows the bind password. */
	@Override
	public String toString() {
		return "LdapProperties[urls=" + this.urls + ", startTls=" + this.startTls + ", bindDn=" + this.bindDn
				+ ", userDnPattern=" + this.userDnPattern + ", userSearch=" + this.userSearch + ", groupSearch="
				+ this.groupSearch + "]";
	}

	/**
	 * Finding a user's DN by search.
	 *
	 * @param base where to search (the whole subtree below it)
	 * @param filter the filter, {@code {0}} standing for the login name (escaped)
	 */
	public record UserSearch(@Nullable String base, @DefaultValue("(uid={0})") String filter) {
	}

	/**
	 * Finding a user's groups by search.
	 *
	 * @param base where to search (the whole subtree below it); not set: read
	 * {@code group-attribute} instead
	 * @param filter the filter, {@code {0}} standing for the user's DN and {@code {1}}
	 * for the login name (both escaped); for Active Directory's nested groups,
	 * {@code (member:1.2.840.113556.1.4.1941:={0})}
	 * @param nameAttribute the attribute of a group that holds the name the rules match
	 */
	public record GroupSearch(@Nullable String base, @DefaultValue("(member={0})") String filter,
			@DefaultValue("cn") String nameAttribute) {
	}

}
