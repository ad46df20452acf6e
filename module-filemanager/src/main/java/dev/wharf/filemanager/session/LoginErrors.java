package dev.wharf.filemanager.session;

import dev.wharf.core.security.Authenticator.LoginResult;
import dev.wharf.core.session.SessionLimitException;
import dev.wharf.filemanager.http.ApiException;
import org.springframework.http.HttpStatus;

/**
 * The answer to a login that did not succeed, the same for a session and for minting a
 * token, and to a right login whose session could not start.
 */
final class LoginErrors {

	private LoginErrors() {
	}

	static ApiException of(LoginResult result) {
		if (result instanceof LoginResult.Throttled throttled) {
			return new ApiException(HttpStatus.TOO_MANY_REQUESTS, "Too many failed logins, try again later",
					throttled.retryAfter());
		}
		if (result instanceof LoginResult.Unavailable unavailable) {
			return new ApiException(HttpStatus.SERVICE_UNAVAILABLE, "Logins are unavailable, try again later",
					unavailable.retryAfter());
		}
		// One message for an unknown name and a wrong password, so names cannot be
		// probed.
		return new ApiException(HttpStatus.UNAUTHORIZED, "Invalid account");
	}

	/**
	 * A right login whose session was not started: 429 for the client's rate, 503 for a
	 * full store.
	 */
	static ApiException of(SessionLimitException refused) {
		return new ApiException(
				refused.limit().isRate() ? HttpStatus.TOO_MANY_REQUESTS : HttpStatus.SERVICE_UNAVAILABLE,
				refused.getMessage(), refused.retryAfter());
	}

}
