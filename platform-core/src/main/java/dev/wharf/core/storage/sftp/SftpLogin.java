package dev.wharf.core.storage.sftp;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.wharf.core.security.Credentials;
import net.schmizz.sshj.userauth.keyprovider.KeyProvider;
import net.schmizz.sshj.userauth.method.AuthKeyboardInteractive;
import net.schmizz.sshj.userauth.method.AuthMethod;
import net.schmizz.sshj.userauth.method.AuthPassword;
import net.schmizz.sshj.userauth.method.AuthPublickey;
import net.schmizz.sshj.userauth.method.PasswordResponseProvider;
import net.schmizz.sshj.userauth.password.PasswordFinder;
import net.schmizz.sshj.userauth.password.Resource;
import org.jspecify.annotations.Nullable;

/**
 * Who a connection logs in as: a name with a key, a password, or both (tried in that
 * order; the password also answers keyboard-interactive prompts, which servers using PAM
 * often require). {@link #toString()} never shows the password.
 *
 * @param username the login name
 * @param password the password, or {@code null}
 * @param key the private key, or {@code null}
 * @param passthrough whether this is a Wharf user's own login rather than the mount's
 */
record SftpLogin(String username, @Nullable String password, @Nullable KeyProvider key, boolean passthrough) {

	SftpLogin {
		Objects.requireNonNull(username, "username");
	}

	/** The login of a Wharf user, for passthrough. */
	static SftpLogin of(Credentials credentials) {
		return new SftpLogin(credentials.username(), credentials.password(), null, true);
	}

	/** The authentication methods to try, in order. */
	List<AuthMethod> methods() {
		List<AuthMethod> methods = new ArrayList<>(3);
		if (this.key != null) {
			methods.add(new AuthPublickey(this.key));
		}
		if (this.password != null) {
			PasswordFinder finder = new FixedPassword(this.password);
			methods.add(new AuthPassword(finder));
			methods.add(new AuthKeyboardInteractive(new PasswordResponseProvider(finder)));
		}
		return methods;
	}

	@Override
	public String toString() {
		return "SftpLogin[username=" + this.username + ", password=" + ((this.password != null) ? "(hidden)" : "(none)")
				+ ", key=" + ((this.key != null) ? "(set)" : "(none)") + "]";
	}

	/** Gives the same password every time it is asked, and never asks for a retry. */
	record FixedPassword(String password) implements PasswordFinder {

		@Override
		public char[] reqPassword(Resource<?> resource) {
			return this.password.toCharArray();
		}

		@Override
		public boolean shouldRetry(Resource<?> resource) {
			return false;
		}

		@Override
		public String toString() {
			return "FixedPassword[(hidden)]";
		}

	}

}
