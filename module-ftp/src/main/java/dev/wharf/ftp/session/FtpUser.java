package dev.wharf.ftp.session;

import dev.wharf.core.security.Credentials;
import dev.wharf.core.security.User;
import org.jspecify.annotations.Nullable;

/**
 * The user logged in on an FTP session. Rights are enforced by the storage view of each
 * mount, not here. Holds no password except, for passthrough mounts, the login in memory.
 *
 * @param user the Wharf user
 * @param credentials the login, kept only when a mount logs in to its backend as the user
 */
public record FtpUser(User user, @Nullable Credentials credentials) {

	/** The user's name. */
	public String name() {
		return this.user.name();
	}

	@Override
	public String toString() {
		return "FtpUser[" + this.user.name() + "]";
	}

}
