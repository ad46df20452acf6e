package dev.wharf.core.web;

import java.time.Duration;

import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.StorageErrorKind;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;

/**
 * The one mapping from storage errors ({@link StorageErrorKind}) to HTTP statuses, for
 * every HTTP module: the file manager, the build cache and static sites. (FTP has its own
 * replies.)
 *
 * <table>
 * <caption>Storage errors and HTTP statuses</caption>
 * <tr>
 * <th>Kind</th>
 * <th>Status</th>
 * <th>Why</th>
 * </tr>
 * <tr>
 * <td>{@code NOT_FOUND}</td>
 * <td>404</td>
 * <td></td>
 * </tr>
 * <tr>
 * <td>{@code ALREADY_EXISTS}, {@code CONFLICT}</td>
 * <td>409</td>
 * <td>the path is there, or of the wrong kind or state</td>
 * </tr>
 * <tr>
 * <td>{@code ACCESS_DENIED}</td>
 * <td>403</td>
 * <td>the backend refuses, whoever asks</td>
 * </tr>
 * <tr>
 * <td>{@code UNSUPPORTED}</td>
 * <td>501</td>
 * <td>the backend cannot do it at all</td>
 * </tr>
 * <tr>
 * <td>{@code BACKEND_UNAVAILABLE}</td>
 * <td>503 with {@code Retry-After: 5}</td>
 * <td>the backend is down, unreachable, refused the connection or did not answer in time
 * (every backend reports its time-outs as a {@link BackendUnavailableException}); the
 * same request may work in a moment. Not 502: Wharf is no gateway passing on another
 * server's bad answer, and 503 with {@code Retry-After} is what clients, proxies and load
 * balancers retry</td>
 * </tr>
 * <tr>
 * <td>{@code QUOTA_EXCEEDED}</td>
 * <td>507</td>
 * <td>a full disk or mount; not 413, which would tell clients the request itself is too
 * large and never to send it again</td>
 * </tr>
 * <tr>
 * <td>{@code INVALID_PATH}, {@code INVALID_CONTENT}</td>
 * <td>400</td>
 * <td>the request is wrong</td>
 * </tr>
 * <tr>
 * <td>{@code IO_ERROR}</td>
 * <td>500</td>
 * <td>anything else; logged</td>
 * </tr>
 * </table>
 *
 * <p>
 * Modules may be stricter on top, never looser: a static site answers 404 for a path that
 * names no page, whatever the reason. What the client is told besides the status (a JSON
 * envelope, a line of text, nothing) is each module's.
 *
 * <p>
 * Stateless; safe for concurrent use.
 */
public final class StorageErrorStatus {

	/** How long a client is asked to wait before trying an unavailable backend again. */
	public static final Duration RETRY_AFTER = Duration.ofSeconds(5);

	private StorageErrorStatus() {
	}

	/**
	 * The status for a kind of storage error.
	 * @param kind the kind
	 * @return the status
	 */
	public static HttpStatus of(StorageErrorKind kind) {
		return switch (kind) {
			case NOT_FOUND -> HttpStatus.NOT_FOUND;
			case ALREADY_EXISTS, CONFLICT -> HttpStatus.CONFLICT;
			case ACCESS_DENIED -> HttpStatus.FORBIDDEN;
			case UNSUPPORTED -> HttpStatus.NOT_IMPLEMENTED;
			case BACKEND_UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
			case QUOTA_EXCEEDED -> HttpStatus.INSUFFICIENT_STORAGE;
			case INVALID_PATH, INVALID_CONTENT -> HttpStatus.BAD_REQUEST;
			case IO_ERROR -> HttpStatus.INTERNAL_SERVER_ERROR;
		};
	}

	/**
	 * The {@code Retry-After} delay that goes with a kind's status.
	 * @param kind the kind
	 * @return {@link #RETRY_AFTER} for an unavailable backend, else {@code null} (no
	 * header)
	 */
	public static @Nullable Duration retryAfter(StorageErrorKind kind) {
		return (kind == StorageErrorKind.BACKEND_UNAVAILABLE) ? RETRY_AFTER : null;
	}

}
