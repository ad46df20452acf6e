package dev.wharf.filemanager.upload;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;

import dev.wharf.filemanager.http.ApiException;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The tus checksum extension: {@code Upload-Checksum: <algorithm> <base64 digest>} over
 * one {@code PATCH} body. The body's bytes are digested as they stream to the storage,
 * and the stream fails at its end if the digest differs, so the chunk is discarded and
 * never counted (460 Checksum Mismatch, as the tus specification says).
 */
final class UploadChecksum {

	/** The algorithms offered, in {@code Tus-Checksum-Algorithm}. */
	static final String ALGORITHMS = "sha1,sha256,sha512,md5";

	/** tus's status for a digest that does not match. */
	static final HttpStatusCode MISMATCH = HttpStatusCode.valueOf(460);

	private static final Map<String, String> JAVA_NAMES = Map.of("sha1", "SHA-1", "sha256", "SHA-256", "sha512",
			"SHA-512", "md5", "MD5");

	private final String algorithm;

	private final byte[] expected;

	private UploadChecksum(String algorithm, byte[] expected) {
		this.algorithm = algorithm;
		this.expected = expected;
	}

	/**
	 * Parses the header.
	 * @param header the {@code Upload-Checksum} value, or {@code null}
	 * @return the checksum to verify, or {@code null} if there is none
	 * @throws ApiException 400 for an unknown algorithm or a malformed digest
	 */
	static @Nullable UploadChecksum parse(@Nullable String header) {
		if (header == null) {
			return null;
		}
		String[] parts = header.trim().split(" ");
		if (parts.length != 2) {
			throw ApiException.badRequest("Upload-Checksum must be '<algorithm> <base64 digest>'");
		}
		String algorithm = JAVA_NAMES.get(parts[0].toLowerCase(Locale.ROOT));
		if (algorithm == null) {
			throw ApiException.badRequest("Unsupported checksum algorithm; supported: " + ALGORITHMS);
		}
		try {
			return new UploadChecksum(algorithm, Base64.getDecoder().decode(parts[1]));
		}
		catch (IllegalArgumentException ex) {
			throw ApiException.badRequest("The Upload-Checksum digest is not base64");
		}
	}

	/**
	 * Digests a body as it passes and fails it at its end if the digest differs.
	 * @param body the body
	 * @return the same bytes, then an error on mismatch
	 */
	Flux<DataBuffer> verify(Flux<DataBuffer> body) {
		return Flux.defer(() -> {
			MessageDigest digest = newDigest();
			return body.doOnNext(buffer -> {
				try (DataBuffer.ByteBufferIterator chunks = buffer.readableByteBuffers()) {
					while (chunks.hasNext()) {
						ByteBuffer chunk = chunks.next();
						digest.update(chunk);
					}
				}
			})
				.concatWith(Mono.defer(() -> MessageDigest.isEqual(digest.digest(), this.expected) ? Mono.empty()
						: Mono.error(new ApiException(MISMATCH, "Checksum Mismatch"))));
		});
	}

	private MessageDigest newDigest() {
		try {
			return MessageDigest.getInstance(this.algorithm);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new ApiException(HttpStatus.BAD_REQUEST, "Checksum algorithm unavailable: " + this.algorithm);
		}
	}

}
