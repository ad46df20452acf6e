package dev.wharf.ftp.engine;

import java.util.List;

import dev.wharf.ftp.session.FtpUser;
import org.apache.ftpserver.ftplet.Authority;
import org.apache.ftpserver.ftplet.AuthorizationRequest;
import org.apache.ftpserver.ftplet.User;
import org.apache.ftpserver.usermanager.impl.WriteRequest;
import org.jspecify.annotations.Nullable;

/**
 * A Wharf user as Apache FtpServer's session holds it. Rights are not expressed as
 * FtpServer authorities: they are enforced by the storage view of each mount, so
 * {@link #authorize} grants no write permission by itself. Never holds a password.
 * Immutable.
 *
 * @param user the user
 */
record EngineUser(FtpUser user) implements User {

	@Override
	public String getName() {
		return this.user.name();
	}

	/** Always {@code null}: passwords are never kept here. */
	@Override
	public @Nullable String getPassword() {
		return null;
	}

	@Override
	public List<? extends Authority> getAuthorities() {
		return List.of();
	}

	@Override
	public List<? extends Authority> getAuthorities(Class<? extends Authority> type) {
		return List.of();
	}

	@Override
	public @Nullable AuthorizationRequest authorize(AuthorizationRequest request) {
		return (request instanceof WriteRequest) ? null : request;
	}

	/** 0: the listener's idle timeout applies. */
	@Override
	public int getMaxIdleTime() {
		return 0;
	}

	@Override
	public boolean getEnabled() {
		return true;
	}

	/** The virtual root, {@code /}. */
	@Override
	public String getHomeDirectory() {
		return "/";
	}

	@Override
	public String toString() {
		return "EngineUser[" + this.user.name() + "]";
	}

}
