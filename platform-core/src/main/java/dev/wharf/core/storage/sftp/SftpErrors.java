package dev.wharf.core.storage.sftp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;

import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.AlreadyExistsException;
import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;
import net.schmizz.sshj.common.DisconnectReason;
import net.schmizz.sshj.common.SSHException;
import net.schmizz.sshj.sftp.Response;
import net.schmizz.sshj.sftp.SFTPException;
import net.schmizz.sshj.userauth.UserAuthException;

/**
 * Maps sshj failures to storage errors. Messages name the mount and mount-relative paths
 * only: never a host, a server path or a credential (the cause keeps sshj's own message
 * for the logs).
 */
final class SftpErrors {

	private SftpErrors() {
	}

	/**
	 * Whether a failure is the connection's rather than the request's: anything but a
	 * status answer (end of stream, timeout, a transport or channel error), after which
	 * the connection is dropped.
	 */
	static boolean isConnectionFailure(Throwable error) {
		if (error instanceof UncheckedIOException unchecked) {
			return isConnectionFailure(cause(unchecked));
		}
		if (error instanceof SFTPException sftp) {
			Response.StatusCode status = sftp.getStatusCode();
			return status == Response.StatusCode.UNKNOWN || status == Response.StatusCode.NO_CONNECTION
					|| status == Response.StatusCode.CONNECITON_LOST;
		}
		return error instanceof IOException;
	}

	/**
	 * Maps the failure of an operation on a path.
	 * @param error what sshj or Wharf threw
	 * @param path the path the operation was about
	 * @param mount the mount's name
	 * @return a {@link StorageException}, or the error itself if it is not an I/O failure
	 */
	static Throwable map(Throwable error, StoragePath path, String mount) {
		if (error instanceof StorageException) {
			return error;
		}
		if (error instanceof UncheckedIOException unchecked) {
			return map(cause(unchecked), path, mount);
		}
		if (error instanceof RejectedExecutionException) {
			return new BackendUnavailableException("Mount '" + mount + "' is overloaded, try again", error);
		}
		if (error instanceof SFTPException sftp && !isConnectionFailure(sftp)) {
			return map(sftp, path);
		}
		if (error instanceof IOException) {
			return new BackendUnavailableException("Lost the connection to the SFTP server of mount '" + mount + "'",
					error);
		}
		return error;
	}

	private static StorageException map(SFTPException error, StoragePath path) {
		return switch (error.getStatusCode()) {
			case NO_SUCH_FILE, NO_SUCH_PATH -> new NotFoundException("Not found: " + path, error);
			case PERMISSION_DENIED, WRITE_PROTECT, CANNOT_DELETE ->
				new AccessDeniedException("Permission denied: " + path, error);
			case FILE_ALREADY_EXISTS -> new AlreadyExistsException("Already exists: " + path, error);
			case NO_SPACE_ON_FILESYSTEM, QUOTA_EXCEEDED ->
				new QuotaExceededException("No space left for " + path, error);
			case DIR_NOT_EMPTY -> new ConflictException("Folder is not empty: " + path, error);
			case NOT_A_DIRECTORY -> new ConflictException("Not a folder: " + path, error);
			case FILE_IS_A_DIRECTORY -> new ConflictException("Is a folder: " + path, error);
			case LINK_LOOP -> new AccessDeniedException("Link loop at " + path, error);
			case OP_UNSUPPORTED -> new StorageIoException("The SFTP server does not support this on " + path, error);
			default -> new StorageIoException("The SFTP server failed on " + path, error);
		};
	}

	/**
	 * Maps a failure to open a connection.
	 * @param error what connecting threw
	 * @param mount the mount's name
	 * @param passthrough whether the login was a Wharf user's own, so a refusal is that
	 * user's, not the mount's
	 * @return the storage error
	 */
	static StorageException connectFailure(Throwable error, String mount, boolean passthrough) {
		if (error instanceof StorageException storage) {
			return storage;
		}
		String server = "The SFTP server of mount '" + mount + "'";
		if (error instanceof UserAuthException) {
			return passthrough ? new AccessDeniedException(server + " refused your login", error)
					: new BackendUnavailableException(server + " refused the mount's login", error);
		}
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof SSHException ssh
					&& ssh.getDisconnectReason() == DisconnectReason.HOST_KEY_NOT_VERIFIABLE) {
				return new BackendUnavailableException(server + " presented a host key that is not trusted", error);
			}
			if (cause instanceof ConnectException || cause instanceof UnknownHostException
					|| cause instanceof NoRouteToHostException || cause instanceof SocketTimeoutException) {
				return new BackendUnavailableException(server + " cannot be reached", error);
			}
		}
		if (error instanceof RejectedExecutionException) {
			return new BackendUnavailableException("Mount '" + mount + "' is overloaded, try again", error);
		}
		return new BackendUnavailableException("Connecting to the SFTP server of mount '" + mount + "' failed", error);
	}

	private static IOException cause(UncheckedIOException unchecked) {
		// UncheckedIOException's constructors refuse a null cause.
		return Objects.requireNonNull(unchecked.getCause(), "UncheckedIOException without a cause");
	}

}
