package dev.wharf.staticfiles.server;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.web.HttpDates;
import dev.wharf.core.web.Preconditions;
import dev.wharf.core.web.RangeHeader;
import dev.wharf.staticfiles.http.AcceptEncoding;
import dev.wharf.staticfiles.http.Gzip;
import dev.wharf.staticfiles.resolve.Representation;
import dev.wharf.staticfiles.resolve.ResolvedFile;
import dev.wharf.staticfiles.resolve.StoredFile;
import dev.wharf.staticfiles.site.Site;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Writes static responses on Reactor Netty: picks the representation
 * ({@code Accept-Encoding}), evaluates the conditional headers and {@code Range}, and
 * sends the bytes the cheapest way there is: cached bytes as one buffer with the headers,
 * local files with {@code sendfile(2)}, anything else streamed from the storage. HEAD
 * gets exactly the headers a GET would get.
 *
 * <p>
 * Thread-safe and stateless apart from metrics.
 */
final class Responder {

	private static final AsciiString ALLOWED = AsciiString.cached("GET, HEAD");

	private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain; charset=utf-8");

	private static final AsciiString TEXT_HTML = AsciiString.cached("text/html; charset=utf-8");

	private static final String BROTLI = "br";

	private static final String GZIP = "gzip";

	private final int maxRanges;

	private final StaticMetrics metrics;

	Responder(int maxRanges, StaticMetrics metrics) {
		this.maxRanges = maxRanges;
		this.metrics = metrics;
	}

	/**
	 * Answers a GET or HEAD for a file.
	 * @param request the request
	 * @param response the response, not started
	 * @param file the file
	 * @param head whether to leave the body out
	 * @return completes when sent
	 */
	Publisher<Void> file(HttpServerRequest request, HttpServerResponse response, ResolvedFile file, boolean head) {
		HttpHeaders in = request.requestHeaders();
		String range = in.get(HttpHeaderNames.RANGE);
		Representation representation = select(file, (range == null) ? in.get(HttpHeaderNames.ACCEPT_ENCODING) : null);
		StoredFile source = representation.source();
		String ifMatch = in.get(HttpHeaderNames.IF_MATCH);
		String ifUnmodifiedSince = in.get(HttpHeaderNames.IF_UNMODIFIED_SINCE);
		String ifNoneMatch = in.get(HttpHeaderNames.IF_NONE_MATCH);
		String ifModifiedSince = in.get(HttpHeaderNames.IF_MODIFIED_SINCE);
		if (ifMatch != null || ifUnmodifiedSince != null || ifNoneMatch != null || ifModifiedSince != null) {
			Preconditions.Outcome outcome = Preconditions.evaluate(ifMatch, ifUnmodifiedSince, ifNoneMatch,
					ifModifiedSince, representation.etag(), source.lastModified());
			if (outcome == Preconditions.Outcome.NOT_MODIFIED) {
				return notModified(request, response, file.site(), representation);
			}
			if (outcome == Preconditions.Outcome.FAILED) {
				return plain(request, response, file.site(), HttpResponseStatus.PRECONDITION_FAILED, head);
			}
		}
		if (range != null && representation.acceptsRanges()) {
			String ifRange = in.get(HttpHeaderNames.IF_RANGE);
			if (ifRange == null || Preconditions.ifRangeHolds(ifRange, representation.etag(), source.lastModified())) {
				List<ByteRange> ranges = RangeHeader.evaluate(range, representation.length(), this.maxRanges);
				if (ranges != null) {
					return ranges.isEmpty() ? unsatisfiable(request, response, file.site(), representation, head)
							: partial(request, response, file.site(), representation, ranges, head);
				}
			}
		}
		return full(request, response, file.site(), representation, head);
	}

	/**
	 * The representation for a client: a precompressed sibling or gzip on the fly if the
	 * client accepts it (brotli preferred on equal quality), else the file itself.
	 * Requests with {@code Range} always get the file itself, so ranges are of the bytes
	 * every client knows.
	 */
	static Representation select(ResolvedFile file, @Nullable String acceptEncoding) {
		Representation brotli = file.brotli();
		Representation gzip = (file.gzip() != null) ? file.gzip() : file.gzipOnTheFly();
		if (acceptEncoding == null || (brotli == null && gzip == null)) {
			return file.identity();
		}
		float brotliQuality = (brotli != null) ? AcceptEncoding.quality(acceptEncoding, BROTLI) : 0;
		float gzipQuality = (gzip != null) ? AcceptEncoding.quality(acceptEncoding, GZIP) : 0;
		if (brotli != null && brotliQuality > 0 && brotliQuality >= gzipQuality) {
			return brotli;
		}
		if (gzip != null && gzipQuality > 0) {
			return gzip;
		}
		return file.identity();
	}

	private Publisher<Void> full(HttpServerRequest request, HttpServerResponse response, Site site,
			Representation representation, boolean head) {
		Path local = (head || representation.body() != null || representation.compressOnTheFly()) ? null
				: representation.source().localFile();
		FileSender.Opened opened = (local != null) ? FileSender.open(response, representation.source()) : null;
		response.status(HttpResponseStatus.OK);
		response.headers(representation.headers());
		common(request, response);
		this.metrics.record(site, 200);
		if (representation.length() < 0) {
			response.header(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
		}
		if (head) {
			return response.sendObject(Unpooled.EMPTY_BUFFER);
		}
		byte[] body = representation.body();
		if (body != null) {
			return response.sendObject(Unpooled.wrappedBuffer(body));
		}
		StoredFile source = representation.source();
		if (representation.compressOnTheFly()) {
			return response.send(Gzip.compress(Streams.read(site, source, ByteRange.all(), source.size())));
		}
		if (local != null) {
			return FileSender.send(response, opened, local, 0, source.size());
		}
		return response.send(Streams.read(site, source, ByteRange.all(), source.size()));
	}

	private Publisher<Void> partial(HttpServerRequest request, HttpServerResponse response, Site site,
			Representation representation, List<ByteRange> ranges, boolean head) {
		Path local = (head || ranges.size() > 1 || representation.body() != null) ? null
				: representation.source().localFile();
		FileSender.Opened opened = (local != null) ? FileSender.open(response, representation.source()) : null;
		response.status(HttpResponseStatus.PARTIAL_CONTENT);
		response.headers(representation.headers());
		common(request, response);
		this.metrics.record(site, 206);
		long length = representation.length();
		StoredFile source = representation.source();
		byte[] body = representation.body();
		if (ranges.size() == 1) {
			ByteRange range = ranges.get(0);
			response.header(HttpHeaderNames.CONTENT_RANGE, contentRange(range, length));
			response.header(HttpHeaderNames.CONTENT_LENGTH, Long.toString(range.length()));
			if (head) {
				return response.sendObject(Unpooled.EMPTY_BUFFER);
			}
			if (body != null) {
				return response.sendObject(Unpooled.wrappedBuffer(body, (int) range.offset(), (int) range.length()));
			}
			if (local != null) {
				return FileSender.send(response, opened, local, range.offset(), range.length());
			}
			return response.send(Streams.read(site, source, range, range.length()));
		}
		String boundary = Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE)
				+ Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);
		String contentType = representation.headers().get(HttpHeaderNames.CONTENT_TYPE);
		List<byte[]> partHeaders = new ArrayList<>(ranges.size());
		long total = 0;
		for (ByteRange range : ranges) {
			byte[] partHeader = ("\r\n--" + boundary + "\r\nContent-Type: " + contentType + "\r\nContent-Range: "
					+ contentRange(range, length) + "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII);
			partHeaders.add(partHeader);
			total += partHeader.length + range.length();
		}
		byte[] closing = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
		total += closing.length;
		response.header(HttpHeaderNames.CONTENT_TYPE, "multipart/byteranges; boundary=" + boundary);
		response.header(HttpHeaderNames.CONTENT_LENGTH, Long.toString(total));
		if (head) {
			return response.sendObject(Unpooled.EMPTY_BUFFER);
		}
		if (body != null) {
			CompositeByteBuf all = Unpooled.compositeBuffer(2 * ranges.size() + 1);
			for (int i = 0; i < ranges.size(); i++) {
				ByteRange range = ranges.get(i);
				all.addComponent(true, Unpooled.wrappedBuffer(partHeaders.get(i)));
				all.addComponent(true, Unpooled.wrappedBuffer(body, (int) range.offset(), (int) range.length()));
			}
			all.addComponent(true, Unpooled.wrappedBuffer(closing));
			return response.sendObject(all);
		}
		List<Publisher<ByteBuf>> parts = new ArrayList<>(2 * ranges.size() + 1);
		for (int i = 0; i < ranges.size(); i++) {
			ByteRange range = ranges.get(i);
			byte[] partHeader = partHeaders.get(i);
			parts.add(Flux.defer(() -> Flux.just(Unpooled.wrappedBuffer(partHeader))));
			parts.add(Streams.read(site, source, range, range.length()));
		}
		parts.add(Flux.defer(() -> Flux.just(Unpooled.wrappedBuffer(closing))));
		return response.send(Flux.concat(parts));
	}

	private Publisher<Void> unsatisfiable(HttpServerRequest request, HttpServerResponse response, Site site,
			Representation representation, boolean head) {
		response.header(HttpHeaderNames.CONTENT_RANGE, "bytes */" + representation.length());
		return plain(request, response, site, HttpResponseStatus.REQUESTED_RANGE_NOT_SATISFIABLE, head);
	}

	private Publisher<Void> notModified(HttpServerRequest request, HttpServerResponse response, Site site,
			Representation representation) {
		HttpHeaders headers = representation.headers();
		response.status(HttpResponseStatus.NOT_MODIFIED);
		response.responseHeaders().remove(HttpHeaderNames.TRANSFER_ENCODING);
		copy(headers, response, HttpHeaderNames.ETAG);
		copy(headers, response, HttpHeaderNames.LAST_MODIFIED);
		copy(headers, response, HttpHeaderNames.CACHE_CONTROL);
		copy(headers, response, HttpHeaderNames.VARY);
		common(request, response);
		this.metrics.record(site, 304);
		return response.sendObject(Unpooled.EMPTY_BUFFER);
	}

	private static void copy(HttpHeaders from, HttpServerResponse response, AsciiString name) {
		String value = from.get(name);
		if (value != null) {
			response.header(name, value);
		}
	}

	/**
	 * Answers with a status and a one-line text body (none for HEAD, with the GET's
	 * length).
	 * @return completes when sent
	 */
	Publisher<Void> plain(HttpServerRequest request, HttpServerResponse response, Site site, HttpResponseStatus status,
			boolean head) {
		byte[] text = (status.reasonPhrase() + "\n").getBytes(StandardCharsets.US_ASCII);
		response.status(status);
		response.header(HttpHeaderNames.CONTENT_TYPE, TEXT_PLAIN);
		response.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(text.length));
		response.header(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE);
		common(request, response);
		this.metrics.record(site, status.code());
		return response.sendObject(head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(text));
	}

	/** 405 for anything but GET and HEAD. */
	Publisher<Void> methodNotAllowed(HttpServerRequest request, HttpServerResponse response, Site site) {
		response.header(HttpHeaderNames.ALLOW, ALLOWED);
		return plain(request, response, site, HttpResponseStatus.METHOD_NOT_ALLOWED, false);
	}

	/**
	 * 301 to a folder's path with its trailing slash.
	 * @param location the raw path and query to go to
	 */
	Publisher<Void> redirect(HttpServerRequest request, HttpServerResponse response, Site site, String location) {
		response.status(HttpResponseStatus.MOVED_PERMANENTLY);
		response.header(HttpHeaderNames.LOCATION, location);
		response.header(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
		common(request, response);
		this.metrics.record(site, 301);
		return response.sendObject(Unpooled.EMPTY_BUFFER);
	}

	/** A folder listing page. */
	Publisher<Void> html(HttpServerRequest request, HttpServerResponse response, Site site, byte[] page, boolean head) {
		response.header(HttpHeaderNames.CONTENT_TYPE, TEXT_HTML);
		response.header(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(page.length));
		response.header(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE);
		response.header(Representation.CONTENT_TYPE_OPTIONS, "nosniff");
		common(request, response);
		this.metrics.record(site, 200);
		return response.sendObject(head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(page));
	}

	private static void common(HttpServerRequest request, HttpServerResponse response) {
		addCommonHeaders(response.responseHeaders(), request.version(), request.isKeepAlive());
	}

	/**
	 * Adds the headers every response carries: {@code Date}, and keep-alive for HTTP/1.0
	 * clients that ask (as {@code dev.wharf.core.web.Http10KeepAliveFilter} does for the
	 * rest of Wharf, which static responses bypass).
	 * @param headers the response's headers
	 * @param version the request's version
	 * @param keepAlive whether the request asks to keep the connection
	 */
	static void addCommonHeaders(HttpHeaders headers, HttpVersion version, boolean keepAlive) {
		headers.set(HttpHeaderNames.DATE, HttpDates.now());
		if (version == HttpVersion.HTTP_1_0 && keepAlive) {
			headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
		}
	}

	private static String contentRange(ByteRange range, long length) {
		return "bytes " + range.offset() + "-" + (range.offset() + range.length() - 1) + "/" + length;
	}

}
