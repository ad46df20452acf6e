package dev.wharf.core.security;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A user who signed in through a directory or an identity provider, as Wharf remembers them between sign-ins:
 * the groups they had, from which {@link DirectoryRules} make their rights. Never holds a password.
 *
 * @param name the user's name
 * @param source where the user signed in
 * @param groups the user's groups as the source gave them
 * @param seen when the user last signed in, or the directory last confirmed the user
 */
public record ExternalUser(String name, Source source, Set<String> groups, Instant seen) {

	public ExternalUser {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(source, "source");
		groups = Set.copyOf(groups);
		Objects.requireNonNull(seen, "seen");
	}

	/** Where external users sign in. */
	public enum Source {

		/** An LDAP directory, with a password: {@code ldap}. */
		LDAP,

		/** An OpenID Connect provider, in the browser: {@code oidc}. */
		OIDC;

		/** The name in files and audit lines, such as {@code ldap}. */
		public String configName() {
			return name().toLowerCase(Locale.ROOT);
		}

		/**
		 * Finds a source by its name.
		 * @param name such as {@code oidc}
		 * @return the source, or empty
		 */
		public static Optional<Source> fromConfigName(String name) {
			for (Source source : values()) {
				if (source.configName().equals(name)) {
					return Optional.of(source);
				}
			}
			return Optional.empty();
		}

	}

}
