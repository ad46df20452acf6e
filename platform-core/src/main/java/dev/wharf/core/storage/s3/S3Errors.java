package dev.wharf.core.storage.s3;

import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;

import dev.wharf.core.storage.AccessDeniedException;
import dev.wharf.core.storage.AlreadyExistsException;
import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Turns the SDK's failures into the storage layer's typed errors. Messages name the mount
 * and the mount-relative path, never the bucket's host, a key prefix or a credential (the
 * cause keeps the SDK's own message and request id for the logs). Throttling
 * ({@code SlowDown}) and 5xx answers arrive here only after the SDK's retries with
 * back-off gave up.
 */
final class S3Errors {

	/** The S3 status for a range that starts at or past the end of the object. */
	static final int RANGE_NOT_SATISFIABLE = 416;

	/**
	 * The S3 status for a request, or a header of it, that the server does not implement.
	 */
	static final int NOT_IMPLEMENTED = 501;

	private S3Errors() {
	}

	/**
	 * Maps a failure.
	 * @param error what the SDK or a future failed with
	 * @param path the path the operation was about
	 * @param mount the mount's name
	 * @return the storage error; a {@link StorageException} is returned as it is
	 */
	static Throwable map(Throwable error, StoragePath path, String mount) {
		Throwable cause = unwrap(error);
		if (cause instanceof StorageException) {
			return cause;
		}
		if (cause instanceof S3Exception s3) {
			return map(s3, path, mount);
		}
		if (cause instanceof SdkClientException || cause instanceof IOException) {
			return new BackendUnavailableException("Cannot reach the S3 server of mount '" + mount + "'", cause);
		}
		if (cause instanceof RejectedExecutionException) {
			return new BackendUnavailableException("Mount '" + mount + "' is overloaded, try again", cause);
		}
		return cause;
	}

	private static StorageException map(S3Exception error, StoragePath path, String mount) {
		String code = code(error);
		if ("NoSuchBucket".equals(code)) {
			return new BackendUnavailableException("The bucket of mount '" + mount + "' does not exist", error);
		}
		if ("SlowDown".equals(code) || "RequestTimeout".equals(code)) {
			return new BackendUnavailableException("The S3 server of mount '" + mount + "' is overloaded, try again",
					error);
		}
		if ("ConditionalRequestConflict".equals(code)) {
			return new AlreadyExistsException("Already exists: " + path, error);
		}
		return switch (error.statusCode()) {
			case 404 -> new NotFoundException("Not found: " + path, error);
			case 401, 403 ->
				new AccessDeniedException("The S3 server of mount '" + mount + "' refused access to " + path, error);
			case 412 -> new AlreadyExistsException("Already exists: " + path, error);
			case 409 -> new ConflictException("The S3 server reported a conflict on " + path, error);
			case 500, 502, 503, 504 -> new BackendUnavailableException(
					"The S3 server of mount '" + mount + "' failed (" + error.statusCode() + "), try again", error);
			default -> new StorageIoException("The S3 server of mount '" + mount + "' failed on " + path + " ("
					+ error.statusCode() + ((code != null) ? " " + code : "") + ")", error);
		};
	}

	/** Whether a failure, mapped or not, is S3's answer with a given status. */
	static boolean hasStatus(Throwable error, int status) {
		Throwable cause = unwrap(error);
		if (cause instanceof StorageException && cause.getCause() != null) {
			cause = unwrap(cause.getCause());
		}
		return cause instanceof S3Exception s3 && s3.statusCode() == status;
	}

	/** S3's error code of an answer, such as {@code SlowDown}, or {@code null}. */
	static @Nullable String code(S3Exception error) {
		return (error.awsErrorDetails() != null) ? error.awsErrorDetails().errorCode() : null;
	}

	private static Throwable unwrap(Throwable error) {
		Throwable cause = error;
		while ((cause instanceof CompletionException || cause instanceof ExecutionException)
				&& cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

}
