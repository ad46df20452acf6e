package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.net.SocketException;

import net.schmizz.sshj.SSHClient;

/**
 * One logged-in SSH connection with its SFTP channel, and the canonical (link-free) path
 * of the mount's root on the server. sshj matches answers to requests, so several threads
 * may use one connection at once; {@link SftpConnectionPool} shares it between
 * operations.
 */
final class SftpConnection {

	private final SSHClient ssh;

	private final SftpEngine engine;

	private final RemotePaths paths;

	private final boolean posixRename;

	private volatile boolean broken;

	SftpConnection(SSHClient ssh, SftpEngine engine, String canonicalRoot) {
		this.ssh = ssh;
		this.engine = engine;
		this.paths = new RemotePaths(canonicalRoot);
		this.posixRename = engine.supportsServerExtension("posix-rename", "openssh.com");
	}

	SftpEngine engine() {
		return this.engine;
	}

	RemotePaths paths() {
		return this.paths;
	}

	/**
	 * Whether the server can rename over an existing file atomically
	 * ({@code posix-rename@openssh.com}).
	 */
	boolean hasPosixRename() {
		return this.posixRename;
	}

	/** The SSH channel window this connection gives the server, in bytes. */
	long windowSize() {
		return this.ssh.getConnection().getWindowSize();
	}

	/** Whether this connection sends small messages at once (TCP_NODELAY). */
	boolean sendsAtOnce() throws SocketException {
		return this.ssh.getSocket().getTcpNoDelay();
	}

	/** Marks the connection as unusable after a failure of the connection itself. */
	void markBroken() {
		this.broken = true;
	}

	/** Whether the connection can take more requests. */
	boolean isUsable() {
		return !this.broken && this.ssh.isConnected() && this.engine.getSubsystem().isOpen();
	}

	/** Closes the channel and the connection; never fails. */
	void close() {
		this.broken = true;
		try {
			this.engine.close();
		}
		catch (IOException | RuntimeException ex) {
			// The connection is being dropped: nothing to keep.
		}
		try {
			this.ssh.disconnect();
		}
		catch (IOException | RuntimeException ex) {
			// Same.
		}
	}

}
