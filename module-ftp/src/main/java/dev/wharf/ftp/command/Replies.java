package dev.wharf.ftp.command;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeoutException;

import dev.wharf.core.storage.InvalidStoragePathException;
import dev.wharf.core.storage.StorageException;
import dev.wharf.ftp.data.TransferInterruptedException;
import org.apache.ftpserver.ftplet.DefaultFtpReply;
import org.apache.ftpserver.ftplet.FtpReply;
import org.apache.ftpserver.impl.FtpIoSession;

/**
 * Replies Wharf's commands send, and the one mapping from storage errors to FTP reply codes. Reply text never
 * carries a line break or another control character, so a name cannot forge a reply line.
 */
public final class Replies {

	private Replies() {
	}

	/**
	 * A one-line reply.
	 * @param code the reply code
	 * @param text the text; control characters are replaced
	 * @return the reply
	 */
	public static FtpReply of(int code, String text) {
		return new DefaultFtpReply(code, clean(text));
	}

	/**
	 * A one-line reply after which the server closes the control connection.
	 * @param code the reply code
	 * @param text the text; control characters are replaced
	 * @return the reply
	 */
	public static FtpReply closing(int code, String text) {
		return new ClosingReply(code, clean(text));
	}

	/**
	 * A reply of several lines ({@code 211-...}, ..., {@code 211 End}).
	 * @param code the reply code
	 * @param lines the lines, the last one closing the reply; control characters are replaced in each
	 * @return the reply
	 */
	public static FtpReply lines(int code, List<String> lines) {
		return new DefaultFtpReply(code, lines.stream().map(Replies::clean).toArray(String[]::new));
	}

	/** The reply for a transfer that {@code ABOR} stopped. */
	public static FtpReply transferAborted() {
		return of(426, "Transfer aborted.");
	}

	/** The reply to an {@code ABOR} that stopped a transfer, after the transfer's {@code 426}. */
	public static FtpReply abortDone() {
		return of(226, "ABOR command successful.");
	}

	/**
	 * Writes a reply, closing the connection after it if the reply says so.
	 * @param session the session
	 * @param reply the reply
	 */
	public static void send(FtpIoSession session, FtpReply reply) {
		session.write(reply);
		if (reply instanceof ClosingReply) {
			session.closeOnFlush();
		}
	}

	/**
	 * Quotes a path for a {@code 257} reply, doubling quotes inside it (RFC 959 appendix II).
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
	public static FtpReply forStorageError(StorageException error, String path) {
		return switch (error.kind()) {
			case NOT_FOUND -> of(550, path + ": No such file or folder.");
			case ALREADY_EXISTS -> of(550, path + ": Already exists.");
			case ACCESS_DENIED -> of(550, path + ": Permission denied.");
			case UNSUPPORTED -> of(504, path + ": " + error.getMessage());
			case BACKEND_UNAVAILABLE -> of(451, path + ": The storage is unavailable; try again later.");
			case QUOTA_EXCEEDED -> of(552, path + ": Storage space exceeded.");
			case INVALID_PATH -> forInvalidPath(error);
			case CONFLICT -> of(550, path + ": " + error.getMessage());
			case INVALID_CONTENT -> of(451, path + ": The upload was incomplete.");
			case IO_ERROR -> of(451, path + ": Local error in processing.");
		};
	}

	/**
	 * The reply for a path that was refused when parsed.
	 * @param error the parse error
	 * @return a {@code 553} reply naming the reason
	 */
	public static FtpReply forInvalidPath(StorageException error) {
		String reason = (error instanceof InvalidStoragePathException invalid) ? invalid.reason() : error.getMessage();
		return of(553, "Path not allowed: " + reason + ".");
	}

	/**
	 * The reply for a failed transfer.
	 * @param error what failed
	 * @param path the path concerned
	 * @return a storage error's reply, {@code 425} if the data connection could not be opened, otherwise {@code 426}
	 */
	public static FtpReply forTransferError(Throwable error, String path) {
		if (TransferInterruptedException.in(error) != null) {
			return of(426, "Connection closed; transfer aborted.");
		}
		if (error instanceof StorageException storage) {
			return forStorageError(storage, path);
		}
		if (error instanceof TimeoutException || error instanceof DataConnectionNotOpened) {
			return of(425, "Cannot open the data connection.");
		}
		if (error instanceof IOException || error.getCause() instanceof IOException) {
			return of(426, "Connection closed; transfer aborted.");
		}
		return of(451, path + ": Local error in processing.");
	}

	static String clean(String text) {
		StringBuilder cleaned = null;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
				if (cleaned == null) {
					cleaned = new StringBuilder(text.substring(0, i));
				}
				cleaned.append('?');
			}
			else if (cleaned != null) {
				cleaned.append(c);
			}
		}
		return (cleaned != null) ? cleaned.toString() : text;
	}

	/** A reply after which the connection closes. */
	private static final class ClosingReply extends DefaultFtpReply {

		ClosingReply(int code, String message) {
			super(code, message);
		}

	}

	/** The data connection could not be opened (no client connection in time, or active mode unreachable). */
	static final class DataConnectionNotOpened extends IOException {

		private static final long serialVersionUID = 1L;

		DataConnectionNotOpened(String message, Throwable cause) {
			super(message, cause);
		}

	}

}
