package dev.wharf.filemanager.http;

import java.time.Duration;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;

/**
 * A request the API refuses for a reason of its own (not a storage error): a status and a
 * message the client may see. Thrown or signalled by handlers; {@link ApiResponses#error}
 * writes it.
 */
public final class ApiException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final HttpStatusCode status;

	private final @Nullable Duration retryAfter;

	/**
	 * Creates the error.
	 * @param status the HTTP status
	 * @param message what the client is told
	 */
	public ApiException(HttpStatusCode status, String message) {
		this(status, message, null);
	}

	/**
	 * Creates an error that says when to try again ({@code Retry-After}).
	 * @param status the HTTP status, such as 429 or 503
	 * @param message what the client is told
	 * @param retryAfter when to try again, or {@code null}
	 */
	public ApiException(HttpStatusCode status, String message, @Nullable Duration retryAfter) {
		super(message, null, false, false);
		this.status = status;
		this.retryAfter = retryAfter;
	}

	/** The HTTP status. */
	public HttpStatusCode status() {
		return this.status;
	}

	/** When to try again, or {@code null}. */
	public @Nullable Duration retryAfter() {
		return this.retryAfter;
	}

	/** What the client is told; never {@code null}. */
	@Override
	public String getMessage() {
		// Every constructor takes a non-null message.
		return Objects.requireNonNull(super.getMessage(), "An API error without a message");
	}

	/** 400 with a message. */
	public static ApiException badRequest(String message) {
		return new ApiException(HttpStatus.BAD_REQUEST, message);
	}

	/** 401: no valid session or token. */
	public static ApiException notAuthorised() {
		return new ApiException(HttpStatus.UNAUTHORIZED, "Not authorised");
	}

	/** 404 with Filestash's message. */
	public static ApiException notFound() {
		return new ApiException(HttpStatus.NOT_FOUND, "Not Found");
	}

}
