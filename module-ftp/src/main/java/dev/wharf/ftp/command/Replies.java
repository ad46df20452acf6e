package dev.wharf.ftp.command;

import java.io.IOException;
import java.util.concurrent.TimeoutException;

import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StorageException;
import dev.wharf.ftp.data.TransferInterruptedException;
import dev.wharf.ftp.session.Reply;

/**
 * Replies several commands send, and the one mapping from storage errors to FTP reply
 * codes.
 */
public final class Replies {

	private Replies() {
	}

	/** The reply for a transfer that {@code ABOR} stopped. */
	public static Reply transferAborted() {
		return Reply.of(426, "Transfer aborted.");
	}

	/**
	 * The reply to an {@code ABOR} that stopped a transfer, after the transfer's
	 * {@code 426}.
	 */
	public static Reply abortDone() {
		return Reply.of(226, "ABOR command successful.");
	}

	/**
	 * Quotes a path for a {@code 257} reply, doubling quotes inside it (RFC 959 appendix
	 * II).
	 * @param path the path
	 * @return the quoted path
	 */
	public static String quoted(String path) {
		return '"' + path.replace("\"", "\"\"") + '"';
	}

	/**
	 * The reply for a failed storage operation.
	 * @param error what failed
	 * @param path the path as the client gave it, or the virtual path
	 * @return the reply
	 */
	public static Reply forStorageError(StorageException error, String path) {
		return switch (error.kind()) {
			case NOT_FOUND -> Reply.of(550, path + ": No such file or folder.");
			case ALREADY_EXISTS -> Reply.of(550, path + ": Already exists.");
			case ACCESS_DENIED -> Reply.of(550, path + ": Permission denied.");
			case UNSUPPORTED -> Reply.of(504, path + ": " + error.getMessage());
			case BACKEND_UNAVAILABLE -> Reply.of(451, path + ": The storage is unavailable; try again later.");
			case QUOTA_EXCEEDED -> Reply.of(552, path + ": Storage space exceeded.");
			case INVALID_PATH -> forInvalidPath(error);
			case CONFLICT -> Reply.of(550, path + ": " + error.getMessage());
			case INVALID_CONTENT -> Reply.of(451, path + ": The upload was incomplete.");
			case IO_ERROR -> Reply.of(451, path + ": Local error in processing.");
		};
	}

	/**
	 * The reply for a path that was refused when parsed.
	 * @param error the parse error
	 * @return a {@code 553} reply naming the reason
	 */
	public static Reply forInvalidPath(StorageException error) {
		String reason = (error instanceof InvalidStoragePathException invalid) ? invalid.reason() : error.getMessage();
		return Reply.of(553, "Path not allowed: " + reason + ".");
	}

	/**
	 * The reply for a failed transfer.
	 * @param error what failed
	 * @param path the path concerned
	 * @return a storage error's reply, {@code 425} if the data connection could not be
	 * opened, otherwise {@code 426}
	 */
	public static Reply forTransferError(Throwable error, String path) {
		if (TransferInterruptedException.in(error) != null) {
			return Reply.of(426, "Connection closed; transfer aborted.");
		}
		if (error instanceof StorageException storage) {
			return forStorageError(storage, path);
		}
		if (error instanceof TimeoutException || error instanceof DataConnectionNotOpened) {
			return Reply.of(425, "Cannot open the data connection.");
		}
		if (error instanceof IOException || error.getCause() instanceof IOException) {
			return Reply.of(426, "Connection closed; transfer aborted.");
		}
		return Reply.of(451, path + ": Local error in processing.");
	}

	/**
	 * The data connection could not be opened (no client connection in time, or active
	 * mode unreachable).
	 */
	static final class DataConnectionNotOpened extends IOException {

		private static final long serialVersionUID = 1L;

		DataConnectionNotOpened(String message, Throwable cause) {
			super(message, cause);
		}

	}

}
