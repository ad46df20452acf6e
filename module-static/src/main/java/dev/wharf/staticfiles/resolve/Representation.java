package dev.wharf.staticfiles.resolve;

import java.util.Map;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.util.AsciiString;
import org.jspecify.annotations.Nullable;

/**
 * One way of sending a resolved file: its plain bytes, a precompressed sibling, or gzip
 * made on the fly. Holds the headers of a full 200 response, built once, so a cached
 * file's response costs no formatting.
 *
 * <p>
 * Immutable after construction (the prebuilt headers are only ever read); safe for
 * concurrent use.
 */
public final class Representation {

	/** {@code X-Content-Type-Options}. */
	public static final AsciiString CONTENT_TYPE_OPTIONS = AsciiString.cached("x-content-type-options");

	private static final AsciiString NOSNIFF = AsciiString.cached("nosniff");

	private final StoredFile source;

	private final @Nullable String coding;

	private final boolean compressOnTheFly;

	private final String etag;

	private final long length;

	private final byte @Nullable [] body;

	private final HttpHeaders headers;

	Representation(StoredFile source, @Nullable String coding, boolean compressOnTheFly, byte @Nullable [] body,
			long length, String contentType, @Nullable String cacheControl, boolean vary,
			Map<String, String> extraHeaders) {
		this.source = source;
		this.coding = coding;
		this.compressOnTheFly = compressOnTheFly;
		this.etag = compressOnTheFly ? "W/" + source.etag() : source.etag();
		this.length = length;
		this.body = body;
		HttpHeaders headers = DefaultHttpHeadersFactory.headersFactory().newHeaders();
		headers.set(HttpHeaderNames.CONTENT_TYPE, AsciiString.of(contentType));
		if (length >= 0) {
			headers.set(HttpHeaderNames.CONTENT_LENGTH, AsciiString.of(Long.toString(length)));
		}
		headers.set(HttpHeaderNames.ETAG, AsciiString.of(this.etag));
		headers.set(HttpHeaderNames.LAST_MODIFIED, AsciiString.of(source.lastModifiedHeader()));
		if (!compressOnTheFly) {
			headers.set(HttpHeaderNames.ACCEPT_RANGES, HttpHeaderValues.BYTES);
		}
		if (coding != null) {
			headers.set(HttpHeaderNames.CONTENT_ENCODING, AsciiString.of(coding));
		}
		if (vary) {
			headers.set(HttpHeaderNames.VARY, HttpHeaderNames.ACCEPT_ENCODING);
		}
		if (cacheControl != null) {
			headers.set(HttpHeaderNames.CACHE_CONTROL, AsciiString.of(cacheControl));
		}
		headers.set(CONTENT_TYPE_OPTIONS, NOSNIFF);
		extraHeaders.forEach(headers::set);
		this.headers = headers;
	}

	/** The stored file whose bytes are sent (or compressed). */
	public StoredFile source() {
		return this.source;
	}

	/** The content coding ({@code br}, {@code gzip}), or {@code null} for none. */
	public @Nullable String coding() {
		return this.coding;
	}

	/** Whether the bytes are gzipped while sending. */
	public boolean compressOnTheFly() {
		return this.compressOnTheFly;
	}

	/** Whether {@code Range} requests are served from this representation. */
	public boolean acceptsRanges() {
		return !this.compressOnTheFly;
	}

	/** The entity tag: the source's, weak when compressed on the fly. */
	public String etag() {
		return this.etag;
	}

	/** The length in bytes, or -1 if unknown until sent (gzip of a stream). */
	public long length() {
		return this.length;
	}

	/**
	 * The bytes to send when cached (already compressed if this is gzip on the fly), else
	 * {@code null}.
	 */
	public byte @Nullable [] body() {
		return this.body;
	}

	/**
	 * The headers of a full (200) response, except {@code Date} and {@code Connection}.
	 * Shared: copy, never modify.
	 */
	public HttpHeaders headers() {
		return this.headers;
	}

}
