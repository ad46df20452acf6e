package dev.wharf.ftp.data;

import java.io.IOException;

import org.jspecify.annotations.Nullable;

/**
 * A data connection failed during a transfer: reset, stalled past the data timeout,
 * aborted, or (under TLS) ended without {@code close_notify}. Storage layers may wrap it;
 * callers look for it in the causes to tell a network failure from a storage failure.
 */
public class TransferInterruptedException extends IOException {

	private static final long serialVersionUID = 1L;

	/**
	 * Creates the exception.
	 * @param message what happened
	 * @param cause the underlying failure, or {@code null}
	 */
	public TransferInterruptedException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

	/**
	 * Finds a transfer interruption among the causes of an error.
	 * @param error any error
	 * @return the interruption, or {@code null} if the error has none
	 */
	public static @Nullable TransferInterruptedException in(Throwable error) {
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			if (cause instanceof TransferInterruptedException interrupted) {
				return interrupted;
			}
		}
		return null;
	}

}
