package dev.wharf.core.security;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A user who signed in through a directory or an identity provider, as Wharf remembers
 * them between sign-ins: the groups they had, from which {@link DirectoryRules} make
 * their rights. Never holds a password.
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

	/**
	 * The user as one line, the form every {@link ExternalUserStore} keeps: name, source,
	 * when last seen (ms since 1970) and the groups (URL-encoded, so a group may hold any
	 * character), separated by tabs.
	 * @return the line, without a line break, tab-separated and without spaces in any
	 * field but the name's
	 */
	public String toLine() {
		StringBuilder line = new StringBuilder(64).append(this.name)
			.append('\t')
			.append(this.source.configName())
			.append('\t')
			.append(this.seen.toEpochMilli());
		for (String group : this.groups) {
			line.append('\t').append(URLEncoder.encode(group, StandardCharsets.UTF_8));
		}
		return line.toString();
	}

	/**
	 * Reads a line that {@link #toLine()} made.
	 * @param line the line
	 * @return the user, or empty if the line is not one (a store skips such lines)
	 */
	public static Optional<ExternalUser> fromLine(String line) {
		String[] fields = line.split("\t", -1);
		if (fields.length < 3 || !User.isValidName(fields[0])) {
			return Optional.empty();
		}
		Optional<Source> source = Source.fromConfigName(fields[1]);
		if (source.isEmpty()) {
			return Optional.empty();
		}
		try {
			Set<String> groups = new LinkedHashSet<>();
			for (int i = 3; i < fields.length; i++) {
				groups.add(URLDecoder.decode(fields[i], StandardCharsets.UTF_8));
			}
			return Optional
				.of(new ExternalUser(fields[0], source.get(), groups, Instant.ofEpochMilli(Long.parseLong(fields[2]))));
		}
		catch (IllegalArgumentException ex) {
			return Optional.empty();
		}
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
