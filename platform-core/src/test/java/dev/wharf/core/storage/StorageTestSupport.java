package dev.wharf.core.storage;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.SplittableRandom;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Helpers for tests of storages and of protocols over them: content as buffers, buffers
 * back to bytes, seeded pseudo-random content of any size generated lazily.
 */
public final class StorageTestSupport {

	/** How long any single storage call may take in a test. */
	public static final Duration TIMEOUT = Duration.ofSeconds(60);

	private StorageTestSupport() {
	}

	/** Content of a UTF-8 string, as one buffer. */
	public static Flux<DataBuffer> content(String text) {
		return content(text.getBytes(StandardCharsets.UTF_8));
	}

	/** Content of bytes, as one buffer created on subscription. */
	public static Flux<DataBuffer> content(byte[] bytes) {
		return Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(bytes.clone())));
	}

	/** Reads all bytes and releases the buffers. */
	public static byte[] bytes(Flux<DataBuffer> content) {
		return content.collect(ByteArrayOutputStream::new, (out, buffer) -> {
			try {
				byte[] chunk = new byte[buffer.readableByteCount()];
				buffer.read(chunk);
				out.writeBytes(chunk);
			}
			finally {
				DataBufferUtils.release(buffer);
			}
		}).map(ByteArrayOutputStream::toByteArray).block(TIMEOUT);
	}

	/** Reads all content as UTF-8 text. */
	public static String text(Flux<DataBuffer> content) {
		return new String(bytes(content), StandardCharsets.UTF_8);
	}

	/**
	 * Generates {@code size} seeded pseudo-random bytes in chunks, lazily, one chunk per
	 * request.
	 */
	public static Flux<DataBuffer> random(long seed, long size, int chunkSize) {
		return random(seed, size, chunkSize, DefaultDataBufferFactory.sharedInstance);
	}

	/**
	 * Generates {@code size} seeded pseudo-random bytes in chunks, lazily, from a given
	 * factory (such as {@link TrackedBuffers}, to see that a consumer releases them and
	 * holds few at a time).
	 */
	public static Flux<DataBuffer> random(long seed, long size, int chunkSize, DataBufferFactory factory) {
		return Flux.generate(() -> new long[] { 0 }, (state, sink) -> {
			long remaining = size - state[0];
			if (remaining <= 0) {
				sink.complete();
				return state;
			}
			int n = (int) Math.min(chunkSize, remaining);
			DataBuffer buffer = factory.allocateBuffer(n);
			buffer.write(randomBytes(seed, state[0], n));
			state[0] += n;
			sink.next(buffer);
			return state;
		});
	}

	/**
	 * The bytes {@link #random} produces at a position: deterministic per seed and
	 * offset.
	 */
	public static byte[] randomBytes(long seed, long offset, int length) {
		byte[] bytes = new byte[length];
		SplittableRandom random = new SplittableRandom(seed ^ (offset * 0x9E3779B97F4A7C15L));
		random.nextBytes(bytes);
		return bytes;
	}

	/** SHA-256 of content, streaming, releasing each buffer. */
	public static Mono<String> sha256(Flux<DataBuffer> content) {
		return Mono.defer(() -> {
			MessageDigest digest = newDigest();
			return content.doOnNext(buffer -> {
				try (DataBuffer.ByteBufferIterator it = buffer.readableByteBuffers()) {
					it.forEachRemaining(digest::update);
				}
				finally {
					DataBufferUtils.release(buffer);
				}
			}).then(Mono.fromCallable(() -> HexFormat.of().formatHex(digest.digest())));
		});
	}

	/** SHA-256 of bytes. */
	public static String sha256(byte[] bytes) {
		return HexFormat.of().formatHex(newDigest().digest(bytes));
	}

	private static MessageDigest newDigest() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
