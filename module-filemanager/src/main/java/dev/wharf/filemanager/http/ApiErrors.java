package dev.wharf.filemanager.http;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;

import dev.wharf.core.state.SharedStateUnavailableException;
import dev.wharf.core.storage.StorageErrorKind;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.web.StorageErrorStatus;
import io.netty.handler.timeout.ReadTimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import reactor.netty.channel.AbortedException;

/**
 * The one place where errors become the API's statuses and messages:
 * {@link StorageErrorKind}s (by core's {@link StorageErrorStatus}, as in every HTTP
 * module: an unavailable backend is 503 with {@code Retry-After}), the API's own
 * {@link ApiException}s, an overloaded worker pool or an unreachable shared state store
 * (503 with {@code Retry-After}), and anything unexpected (500, logged, never shown).
 * Storage messages name paths of the mount only, never a host path, so they are safe to
 * show; the file manager's view of each mount puts the mount's folder in front of them,
 * so they name the path the client gave.
 */
public final class ApiErrors {

	private static final Log logger = LogFactory.getLog(ApiErrors.class);

	private ApiErrors() {
	}

	/**
	 * What to answer for an error.
	 * @param error what went wrong
	 * @return the status, message and optional retry delay
	 */
	public static Answer answer(Throwable error) {
		if (error instanceof ApiException api) {
			return new Answer(api.status(), api.getMessage(), api.retryAfter());
		}
		if (error instanceof StorageException storage) {
			StorageErrorKind kind = storage.kind();
			if (kind == StorageErrorKind.IO_ERROR || kind == StorageErrorKind.BACKEND_UNAVAILABLE) {
				logger.warn("Storage failure: " + storage.getMessage(), storage.getCause());
			}
			return new Answer(StorageErrorStatus.of(kind), storage.getMessage(), StorageErrorStatus.retryAfter(kind));
		}
		if (error instanceof SharedStateUnavailableException down) {
			// Sessions, tokens or locks cannot be checked: nothing is known about the
			// caller, so neither 401 nor 500.
			return new Answer(HttpStatus.SERVICE_UNAVAILABLE, "Service unavailable, try again later",
					down.retryAfter());
		}
		if (error instanceof AbortedException) {
			// The client went away: nobody reads this answer, and nothing went wrong on
			// the server.
			return new Answer(HttpStatus.BAD_REQUEST, "Connection closed", null);
		}
		if (error instanceof ReadTimeoutException) {
			// The body stopped arriving for longer than wharf.http.body-timeout; the
			// connection is being closed.
			return new Answer(HttpStatus.REQUEST_TIMEOUT, "The request body stopped arriving", null);
		}
		if (error instanceof RejectedExecutionException) {
			return new Answer(HttpStatus.SERVICE_UNAVAILABLE, "Server busy, try again", Duration.ofSeconds(1));
		}
		logger.error("Unexpected error in the file API", error);
		return new Answer(HttpStatus.INTERNAL_SERVER_ERROR, "Internal Error", null);
	}

	/**
	 * The outcome word for the audit log.
	 * @param error what went wrong
	 * @return such as {@code not_found} or {@code denied}
	 */
	public static String outcome(Throwable error) {
		if (error instanceof StorageException storage) {
			return (storage.kind() == StorageErrorKind.ACCESS_DENIED) ? "denied"
					: storage.kind().name().toLowerCase(java.util.Locale.ROOT);
		}
		if (error instanceof ApiException api) {
			return (api.status().value() == 403) ? "denied" : "refused_" + api.status().value();
		}
		return "error";
	}

	/**
	 * What the client is told.
	 *
	 * @param status the HTTP status
	 * @param message the message for the envelope
	 * @param retryAfter the delay for {@code Retry-After}, or {@code null}
	 */
	public record Answer(HttpStatusCode status, String message, @Nullable Duration retryAfter) {
	}

}
