package dev.wharf.filemanager.http;

import java.util.function.Supplier;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Flux;

/**
 * Cuts off a request body that passes a size, counting the bytes that actually arrive (a
 * chunked body announces no length, and an announced one may lie).
 */
public final class BodyLimit {

	private BodyLimit() {
	}

	/**
	 * Fails a body once it passes a size, releasing the buffer that passed it.
	 * @param body the request body
	 * @param max the most bytes allowed
	 * @param error the error to fail with
	 * @return the body, cut off with the error past the limit
	 */
	public static Flux<DataBuffer> limit(Flux<DataBuffer> body, long max, Supplier<? extends RuntimeException> error) {
		return Flux.defer(() -> {
			long[] seen = { 0 };
			return body.handle((buffer, sink) -> {
				seen[0] += buffer.readableByteCount();
				if (seen[0] > max) {
					DataBufferUtils.release(buffer);
					sink.error(error.get());
				}
				else {
					sink.next(buffer);
				}
			});
		});
	}

}
