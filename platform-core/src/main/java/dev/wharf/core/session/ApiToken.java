package dev.wharf.core.session;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * An API token as it is stored: never the token itself, only its digest.
 *
 * @param id a short public identifier, to list and revoke the token
 * @param user the name of the user the token acts as
 * @param label what the user called it, such as {@code ci}
 * @param digest {@link Secrets#digest} of the token
 * @param created when it was issued
 * @param expires when it stops working, or {@code null} for never
 */
public record ApiToken(String id, String user, String label, String digest, Instant created,
		@Nullable Instant expires) {

	public ApiToken {
		Objects.requireNonNull(id, "id");
		Objects.requireNonNull(user, "user");
		Objects.requireNonNull(label, "label");
		Objects.requireNonNull(digest, "digest");
		Objects.requireNonNull(created, "created");
	}

	/**
	 * Whether the token still works at a given time.
	 * @param now the time
	 * @return whether it has not expired
	 */
	public boolean isValidAt(Instant now) {
		return this.expires == null || now.isBefore(this.expires);
	}

}
