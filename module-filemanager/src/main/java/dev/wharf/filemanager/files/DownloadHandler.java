package dev.wharf.filemanager.files;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import dev.wharf.core.storage.ByteRange;
import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.ConflictException;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.web.RangeHeader;
import dev.wharf.filemanager.auth.AuthenticatedHandler;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.Conditions;
import dev.wharf.filemanager.http.Query;
import dev.wharf.filemanager.thumbnail.ThumbnailService;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code GET|HEAD /api/files/cat?path=[&name=][&thumbnail=true]}: streams a file. Honours
 * a single {@code Range} (206, or 416 when it starts past the end; several ranges get the
 * whole file), entity tags and {@code If-Modified-Since} (304), and {@code If-Range}.
 * {@code &name=} makes it an attachment with that file name (which must be a valid stored
 * name: 400 otherwise). Every download carries a strict {@code Content-Security-Policy}
 * and {@code nosniff}, and types a browser could run are sent as {@code text/plain}
 * ({@link InertContentTypes}). Local mounts are sent with zero-copy {@code sendfile}. If
 * the file shrinks while it is sent, the connection is closed rather than a short body
 * passed off as complete. {@code HEAD} on a folder answers 204 with
 * {@code Content-Type: inode/directory}, as Filestash does; {@code GET} on a folder is a
 * 409.
 */
public final class DownloadHandler implements AuthenticatedHandler {

	/** No script, no plugin, no framing by other sites, whatever the file is. */
	static final String CONTENT_SECURITY_POLICY = "default-src 'none'; img-src 'self' data:; media-src 'self'; "
			+ "style-src 'unsafe-inline'; font-src data:; frame-ancestors 'self'";

	private static final MediaType DIRECTORY = new MediaType("inode", "directory");

	private final MountTree tree;

	private final ThumbnailService thumbnails;

	/**
	 * Creates the handler.
	 * @param tree the mounts
	 * @param thumbnails makes and caches thumbnails
	 */
	public DownloadHandler(MountTree tree, ThumbnailService thumbnails) {
		this.tree = tree;
		this.thumbnails = thumbnails;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Caller caller) {
		Query query = new Query(exchange.getRequest().getURI().getRawQuery());
		Location location = this.tree.locateInMount(caller, query.required("path"));
		boolean thumbnail = query.flag("thumbnail");
		String name = query.optional("name");
		if (name != null && !StoragePath.isValidName(name)) {
			// The name goes into Content-Disposition and becomes a file on the client's
			// disk: the rules of stored
			// names apply (no control characters, separators or bidirectional overrides
			// such as U+202E before "gnp.exe").
			throw ApiException.badRequest("The download name is not a valid file name");
		}
		Storage storage = location.requireStorage();
		boolean head = exchange.getRequest().getMethod() == HttpMethod.HEAD;
		return storage.stat(location.path()).flatMap(entry -> {
			if (entry.isDirectory() && head) {
				exchange.getResponse().setStatusCode(HttpStatus.NO_CONTENT);
				exchange.getResponse().getHeaders().setContentType(DIRECTORY);
				return exchange.getResponse().setComplete();
			}
			if (!entry.isFile()) {
				return Mono.error(new ConflictException("Not a file: " + location));
			}
			if (thumbnail) {
				return this.thumbnails.respond(exchange, location.requireMount(), storage, entry);
			}
			return send(exchange, storage, entry, name, head);
		});
	}

	private static Mono<Void> send(ServerWebExchange exchange, Storage storage, FileEntry entry, @Nullable String name,
			boolean head) {
		ServerHttpResponse response = exchange.getResponse();
		HttpHeaders request = exchange.getRequest().getHeaders();
		HttpHeaders headers = response.getHeaders();
		long size = entry.size();
		String etag = '"' + Long.toHexString(size) + '-' + Long.toHexString(entry.lastModified().toEpochMilli()) + '"';
		headers.set(HttpHeaders.ETAG, etag);
		headers.setLastModified(entry.lastModified());
		headers.set(HttpHeaders.CACHE_CONTROL, "private, no-cache");
		headers.set(HttpHeaders.ACCEPT_RANGES, "bytes");
		headers.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
		headers.set(ApiResponses.X_CONTENT_TYPE_OPTIONS, ApiResponses.NOSNIFF);
		if (Conditions.notModified(request, etag, entry.lastModified())) {
			response.setStatusCode(HttpStatus.NOT_MODIFIED);
			return response.setComplete();
		}
		String rangeHeader = request.getFirst(HttpHeaders.RANGE);
		// One range at most, as Filestash: a header asking for several is ignored and the
		// whole file sent.
		List<ByteRange> ranges = (rangeHeader != null
				&& Conditions.rangeStillValid(request, etag, entry.lastModified()))
						? RangeHeader.evaluate(rangeHeader, size, 1) : null;
		if (ranges != null && ranges.isEmpty()) {
			headers.set(HttpHeaders.CONTENT_RANGE, "bytes */" + size);
			return ApiResponses.error(exchange, HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE, "Range Not Satisfiable");
		}
		ByteRange range = (ranges != null) ? ranges.get(0) : null;
		if (range == null) {
			range = ByteRange.of(0, size);
		}
		else {
			response.setStatusCode(HttpStatus.PARTIAL_CONTENT);
			headers.set(HttpHeaders.CONTENT_RANGE,
					"bytes " + range.offset() + '-' + (range.offset() + range.length() - 1) + '/' + size);
		}
		headers.set(HttpHeaders.CONTENT_TYPE, InertContentTypes.of(entry.name()));
		if (name != null) {
			headers
				.setContentDisposition(ContentDisposition.attachment().filename(name, StandardCharsets.UTF_8).build());
		}
		headers.setContentLength(range.length());
		if (head || range.length() == 0) {
			return response.setComplete();
		}
		ByteRange slice = range;
		if (storage.capabilities().contains(Capability.LOCAL_FILE)
				&& response instanceof ZeroCopyHttpOutputMessage zeroCopy) {
			// Mono<Void> completes empty either way, so the choice is made on an
			// Optional.
			return storage.localFile(entry.path())
				.map(Optional::of)
				.defaultIfEmpty(Optional.empty())
				.flatMap(file -> file.isPresent() ? zeroCopy.writeWith(file.get(), slice.offset(), slice.length())
						: response.writeWith(exactly(storage, entry.path(), slice)));
		}
		return response.writeWith(exactly(storage, entry.path(), slice));
	}

	/**
	 * The bytes of a slice, failing (so the connection closes) if the file ended early.
	 */
	private static Flux<DataBuffer> exactly(Storage storage, StoragePath path, ByteRange range) {
		return Flux.defer(() -> {
			long[] sent = { 0 };
			return storage.read(path, range)
				.doOnNext(buffer -> sent[0] += buffer.readableByteCount())
				.concatWith(Mono.defer(() -> (sent[0] == range.length()) ? Mono.empty()
						: Mono.error(new ConflictException(path + " changed while it was sent"))));
		});
	}

}
