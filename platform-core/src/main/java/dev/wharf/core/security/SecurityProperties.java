package dev.wharf.core.security;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Users and their rights ({@code wharf.security}).
 *
 * @param users the accounts; with none, an admin is generated at first start (see
 * {@link InitialAdmin})
 */
@ConfigurationProperties("wharf.security")
public record SecurityProperties(@DefaultValue List<UserProperties> users) {

	/**
	 * One account.
	 *
	 * @param name the login name: letters, digits, {@code . _ @ -}, at most 64
	 * @param password a {@code {bcrypt}} hash, as
	 * {@code java -jar wharf.jar hash-password} prints it; never the password itself
	 * @param roles any of {@code admin}, {@code user}, {@code cache-reader},
	 * {@code cache-writer}
	 * @param mounts rights per mount name: {@code ro} or {@code rw}
	 */
	public record UserProperties(@Nullable String name, @Nullable String password, @DefaultValue List<String> roles,
			@DefaultValue Map<String, String> mounts) {
	}

}
