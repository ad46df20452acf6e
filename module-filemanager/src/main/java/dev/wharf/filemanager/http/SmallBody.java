package dev.wharf.filemanager.http;

import java.nio.charset.StandardCharsets;

import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import reactor.core.publisher.Mono;

/**
 * A small request body (a login, a share's options) read whole as UTF-8 text, up to a
 * limit: a larger one is refused with 413, before it is read when its
 * {@code Content-Length} says so. Stateless.
 */
public final class SmallBody {

	private SmallBody() {
	}

	/**
	 * Reads the body.
	 * @param request the request
	 * @param max the most bytes accepted
	 * @return the text, empty for no body; fails with {@link ApiException} 413 past the
	 * limit
	 */
	public static Mono<String> read(ServerHttpRequest request, int max) {
		if (request.getHeaders().getContentLength() > max) {
			// Refused before the body is read: nobody waits for a body that will not be
			// used.
			return Mono.error(tooLarge(max));
		}
		return DataBufferUtils.join(request.getBody(), max).map(buffer -> {
			try {
				return buffer.toString(StandardCharsets.UTF_8);
			}
			finally {
				DataBufferUtils.release(buffer);
			}
		}).defaultIfEmpty("").onErrorMap(DataBufferLimitException.class, tooLong -> tooLarge(max));
	}

	private static ApiException tooLarge(int max) {
		return new ApiException(HttpStatus.CONTENT_TOO_LARGE, "Request body too large (at most " + max + " bytes)");
	}

}
