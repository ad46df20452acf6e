package dev.wharf.core.security;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.wharf.core.config.InvalidConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What users who sign in through a directory (LDAP) or an identity provider (OIDC) may do
 * ({@code wharf.security.directory}). Such users have no entry in
 * {@code wharf.security.users}: their groups (LDAP group names, or the values of the OIDC
 * groups claim) are matched against the rules, and a user gets every role and, on each
 * mount, the greatest right of all the rules that match. A user that matches no rule
 * cannot sign in.
 *
 * @param rules the rules, all of which are applied
 * @param forgetAfter how long such a user is remembered after the last sign-in (or, for
 * LDAP, after the directory last confirmed the user), so API tokens and sessions can name
 * the user between sign-ins
 */
@ConfigurationProperties("wharf.security.directory")
public record DirectoryProperties(@DefaultValue List<RuleProperties> rules, @DefaultValue("30d") Duration forgetAfter) {

	public DirectoryProperties {
		if (forgetAfter.compareTo(Duration.ofHours(1)) < 0) {
			throw new InvalidConfigurationException("wharf.security.directory.forget-after", forgetAfter.toString(),
					"must be at least 1 hour");
		}
	}

	/**
	 * One rule.
	 *
	 * @param group the group a user must be in, compared without regard to case: for LDAP
	 * the group's name ({@code wharf.security.ldap.group-search.name-attribute}, or the
	 * first part of a {@code memberOf} DN), for OIDC a value of the groups claim
	 * @param roles any of {@code admin}, {@code user}, {@code cache-reader},
	 * {@code cache-writer}
	 * @param mounts rights per mount name: {@code ro} or {@code rw}
	 */
	public record RuleProperties(@Nullable String group, @DefaultValue List<String> roles,
			@DefaultValue Map<String, String> mounts) {
	}

}
