package dev.wharf.filemanager.upload;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;

import dev.wharf.core.state.Locks;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.filemanager.auth.AuditTrail;
import dev.wharf.filemanager.auth.AuthenticatedHandler;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.files.Location;
import dev.wharf.filemanager.files.MountTree;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.Query;
import dev.wharf.filemanager.thumbnail.ThumbnailService;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Resumable uploads, tus 1.0.0 core protocol with the creation, expiration, checksum and
 * termination extensions:
 * <ul>
 * <li>{@code OPTIONS /api/files/upload}: what the server supports (no login needed);</li>
 * <li>{@code POST /api/files/upload?path=/data/big.iso} with {@code Upload-Length}: 201
 * and {@code Location: /api/files/upload/<mount>/<id>};</li>
 * <li>{@code HEAD} on that URL: {@code Upload-Offset} and {@code Upload-Length};</li>
 * <li>{@code PATCH} with {@code Content-Type: application/offset+octet-stream},
 * {@code Upload-Offset} (409 if it is not the current offset) and optionally
 * {@code Upload-Checksum: sha1 <base64>} (460 on mismatch): 204 with the new offset; the
 * last byte publishes the file atomically at its path, after which {@code HEAD} answers
 * with the full length until the upload expires (a client that lost the last answer
 * learns it is done);</li>
 * <li>{@code DELETE} on that URL: abandons the upload.</li>
 * </ul>
 * The state lives in the mount ({@link UploadStore}), so uploads survive restarts and any
 * replica can continue them. An upload belongs to its creator (others get 404) and needs
 * write access to the mount. Only one {@code PATCH} per upload runs at a time, on all
 * replicas together: it holds a lock ({@link Locks}, in Redis with several replicas) that
 * ends {@link #LOCK_TIME} after its last renewal, renewed while the body arrives, so a
 * replica that dies lets go of it soon; a second {@code PATCH} meanwhile gets 409, as for
 * any offset it cannot know, and a tus client asks the offset with {@code HEAD} and
 * resumes. (Below the lock, the chunks' create-only writes still keep two writers from
 * both succeeding.) Expired uploads are removed every {@code sweepInterval}.
 */
public final class UploadHandlers implements AutoCloseable {

	/** The only protocol version spoken. */
	static final String VERSION = "1.0.0";

	/** The creation endpoint. */
	public static final String ENDPOINT = "/api/files/upload";

	/**
	 * How long a {@code PATCH}'s lock outlives its last renewal (a third of it apart).
	 */
	static final Duration LOCK_TIME = Duration.ofSeconds(10);

	private static final String TUS_RESUMABLE = "Tus-Resumable";

	private static final String UPLOAD_LENGTH = "Upload-Length";

	private static final String UPLOAD_OFFSET = "Upload-Offset";

	private static final String UPLOAD_METADATA = "Upload-Metadata";

	private static final String UPLOAD_EXPIRES = "Upload-Expires";

	private static final String OFFSET_CONTENT_TYPE = "application/offset+octet-stream";

	private static final int MAX_METADATA_LENGTH = 4096;

	private static final Log logger = LogFactory.getLog(UploadHandlers.class);

	private final MountTree tree;

	private final UploadStore store;

	private final AuditTrail audit;

	private final long maxUploadBytes;

	private final Duration expiry;

	private final Locks locks;

	private final Disposable sweeper;

	private final ThumbnailService thumbnails;

	/**
	 * Creates the handlers and starts removing expired uploads.
	 * @param tree the mounts
	 * @param audit the audit trail
	 * @param maxUploadBytes the largest upload
	 * @param expiry how long an upload lives after its last chunk
	 * @param segmentSize the size after which a body is cut into a new chunk
	 * @param sweepInterval how often expired uploads are removed
	 * @param locks where a {@code PATCH} takes its upload's lock (shared by replicas)
	 * @param thumbnails makes the thumbnails of uploaded images
	 */
	public UploadHandlers(MountTree tree, AuditTrail audit, long maxUploadBytes, Duration expiry, long segmentSize,
			Duration sweepInterval, Locks locks, ThumbnailService thumbnails) {
		this.tree = tree;
		this.locks = locks;
		this.thumbnails = thumbnails;
		this.store = new UploadStore(expiry, segmentSize, Clock.systemUTC());
		this.audit = audit;
		this.maxUploadBytes = maxUploadBytes;
		this.expiry = expiry;
		this.sweeper = Flux.interval(sweepInterval, sweepInterval)
			.onBackpressureDrop()
			.concatMap(tick -> sweep(), 1)
			.subscribe();
	}

	/**
	 * The handler of {@value #ENDPOINT}: {@code OPTIONS} for anyone, {@code POST} for a
	 * caller.
	 * @param protect wraps a handler so it runs only for an established caller
	 * @return the handler
	 */
	public WebHandler creation(Function<AuthenticatedHandler, WebHandler> protect) {
		WebHandler create = protect.apply(this::create);
		return exchange -> (exchange.getRequest().getMethod() == HttpMethod.OPTIONS) ? options(exchange)
				: create.handle(exchange);
	}

	/**
	 * The handler of upload URLs: {@code OPTIONS} for anyone, {@code HEAD}, {@code PATCH}
	 * and {@code DELETE} for the upload's owner.
	 * @param protect wraps a handler so it runs only for an established caller
	 * @return the handler
	 */
	public WebHandler uploads(Function<AuthenticatedHandler, WebHandler> protect) {
		WebHandler upload = protect.apply(this::upload);
		return exchange -> (exchange.getRequest().getMethod() == HttpMethod.OPTIONS) ? options(exchange)
				: upload.handle(exchange);
	}

	private Mono<Void> options(ServerWebExchange exchange) {
		ServerHttpResponse response = exchange.getResponse();
		HttpHeaders headers = response.getHeaders();
		headers.set(TUS_RESUMABLE, VERSION);
		headers.set("Tus-Version", VERSION);
		headers.set("Tus-Extension", "creation,expiration,checksum,termination");
		headers.set("Tus-Max-Size", Long.toString(this.maxUploadBytes));
		headers.set("Tus-Checksum-Algorithm", UploadChecksum.ALGORITHMS);
		response.setStatusCode(HttpStatus.NO_CONTENT);
		return response.setComplete();
	}

	private Mono<Void> create(ServerWebExchange exchange, Caller caller) {
		ServerHttpRequest request = exchange.getRequest();
		HttpHeaders headers = request.getHeaders();
		requireVersion(exchange);
		long length = number(headers, UPLOAD_LENGTH);
		if (length < 0) {
			throw ApiException.badRequest("Upload-Length is required (deferred lengths are not supported)");
		}
		if (length > this.maxUploadBytes) {
			throw new ApiException(HttpStatus.CONTENT_TOO_LARGE,
					"File too large (at most " + this.maxUploadBytes + " bytes)");
		}
		String metadata = headers.getFirst(UPLOAD_METADATA);
		if (metadata != null && (metadata.length() > MAX_METADATA_LENGTH || !isPrintableAscii(metadata))) {
			throw ApiException.badRequest("Upload-Metadata is too long or not printable ASCII");
		}
		Location target = this.tree.locateInMount(caller, new Query(request.getURI().getRawQuery()).required("path"))
			.requireEntry("upload to");
		Storage storage = target.requireStorage();
		Mount mount = target.requireMount();
		StoragePath parent = target.path().parent();
		StoragePath folderPath = (parent != null) ? parent : StoragePath.root();
		// Named as the client gave it: the upload's path without its last name.
		StoragePath shownFolder = target.virtual(folderPath);
		Mono<Void> checks = storage.stat(folderPath)
			.onErrorMap(NotFoundException.class, missing -> new NotFoundException("Folder not found: " + shownFolder))
			.flatMap(
					folder -> folder.isDirectory()
							? storage.stat(target.path())
								.flatMap(existing -> existing.isDirectory()
										? Mono.<Void>error(
												new ApiException(HttpStatus.CONFLICT, "Is a folder: " + target))
										: Mono.<Void>empty())
								.onErrorResume(NotFoundException.class, free -> Mono.empty())
							: Mono.error(new ApiException(HttpStatus.CONFLICT, "Not a folder: " + shownFolder)));
		return checks
			.then(this.store.create(storage, caller.name(), target.path(), length, (metadata != null) ? metadata : ""))
			.flatMap(state -> {
				ServerHttpResponse response = exchange.getResponse();
				response.setStatusCode(HttpStatus.CREATED);
				response.getHeaders().set(TUS_RESUMABLE, VERSION);
				response.getHeaders()
					.set(HttpHeaders.LOCATION,
							request.getPath().contextPath().value() + ENDPOINT + "/" + mount.name() + "/" + state.id());
				response.getHeaders().setDate(UPLOAD_EXPIRES, Instant.now().plus(this.expiry).toEpochMilli());
				response.getHeaders().set(HttpHeaders.CACHE_CONTROL, "no-store");
				return response.setComplete();
			});
	}

	private Mono<Void> upload(ServerWebExchange exchange, Caller caller) {
		ServerHttpRequest request = exchange.getRequest();
		requireVersion(exchange);
		String rest = request.getPath().pathWithinApplication().value().substring(ENDPOINT.length() + 1);
		int slash = rest.indexOf('/');
		if (slash <= 0 || slash == rest.length() - 1 || rest.indexOf('/', slash + 1) >= 0) {
			throw ApiException.notFound();
		}
		Location mountRoot = this.tree.locateInMount(caller, "/" + rest.substring(0, slash));
		Storage storage = mountRoot.requireStorage();
		String id = rest.substring(slash + 1);
		Mono<UploadState> state = this.store.load(storage, id)
			.filter(found -> found.user().equals(caller.name()))
			.switchIfEmpty(Mono.error(ApiException::notFound));
		HttpMethod method = request.getMethod();
		if (method == HttpMethod.HEAD) {
			return state.flatMap(found -> this.store.progress(storage, found).flatMap(progress -> {
				ServerHttpResponse response = exchange.getResponse();
				HttpHeaders headers = progressHeaders(response, progress.offset(), progress.expires());
				headers.set(UPLOAD_LENGTH, Long.toString(found.length()));
				if (!found.metadata().isEmpty()) {
					headers.set(UPLOAD_METADATA, found.metadata());
				}
				return response.setComplete();
			}));
		}
		if (method == HttpMethod.DELETE) {
			return state.flatMap(found -> this.store.delete(storage, found)).then(Mono.defer(() -> {
				ServerHttpResponse response = exchange.getResponse();
				response.getHeaders().set(TUS_RESUMABLE, VERSION);
				response.setStatusCode(HttpStatus.NO_CONTENT);
				return response.setComplete();
			}));
		}
		return state.flatMap(found -> patch(exchange, caller, mountRoot, storage, found));
	}

	private Mono<Void> patch(ServerWebExchange exchange, Caller caller, Location mountRoot, Storage storage,
			UploadState state) {
		HttpHeaders headers = exchange.getRequest().getHeaders();
		String contentType = headers.getFirst(HttpHeaders.CONTENT_TYPE);
		if (contentType == null || !contentType.trim().equalsIgnoreCase(OFFSET_CONTENT_TYPE)) {
			return Mono.error(
					new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Content-Type must be " + OFFSET_CONTENT_TYPE));
		}
		long offset = number(headers, UPLOAD_OFFSET);
		if (offset < 0) {
			return Mono.error(ApiException.badRequest("Upload-Offset is required"));
		}
		long contentLength = headers.getContentLength();
		if (contentLength >= 0 && offset + contentLength > state.length()) {
			return Mono.error(new ApiException(HttpStatus.CONTENT_TOO_LARGE, "The body goes past Upload-Length"));
		}
		UploadChecksum checksum = UploadChecksum.parse(headers.getFirst("Upload-Checksum"));
		String lock = "upload:" + mountRoot.requireMount().name() + '/' + state.id();
		String target = mountRoot.requireMount().name() + ":" + state.target();
		// The answer goes out once the lock is released: a client's next PATCH must not
		// find this one's lock.
		return this.locks.whileLocked(lock, LOCK_TIME, () -> this.store.progress(storage, state).flatMap(progress -> {
			if (progress.offset() != offset) {
				exchange.getResponse().getHeaders().set(UPLOAD_OFFSET, Long.toString(progress.offset()));
				return Mono.error(new ApiException(HttpStatus.CONFLICT,
						"Upload-Offset is " + offset + " but the upload is at " + progress.offset()));
			}
			if (progress.complete()) {
				// The last PATCH again, its answer having been lost: the file was made
				// already.
				return Mono.just(offset);
			}
			return this.store.append(storage, state, offset, exchange.getRequest().getBody(), checksum)
				.flatMap(end -> ((end == state.length()) ? this.audit
					.record(exchange, caller, "upload", target, this.store.progress(storage, state)
						.flatMap(done -> this.store.complete(storage, state, done))
						.doOnNext(file -> this.thumbnails.prefetch(mountRoot.requireMount(), storage, state.target())))
						: Mono.empty())
					.thenReturn(end));
		}), () -> new ApiException(HttpStatus.CONFLICT,
				"This upload is receiving data on another connection; ask its offset with HEAD"))
			.flatMap(end -> received(exchange, end));
	}

	private Mono<Void> received(ServerWebExchange exchange, long end) {
		ServerHttpResponse response = exchange.getResponse();
		progressHeaders(response, end, Instant.now().plus(this.expiry));
		response.setStatusCode(HttpStatus.NO_CONTENT);
		return response.setComplete();
	}

	private static HttpHeaders progressHeaders(ServerHttpResponse response, long offset, Instant expires) {
		HttpHeaders headers = response.getHeaders();
		headers.set(TUS_RESUMABLE, VERSION);
		headers.set(UPLOAD_OFFSET, Long.toString(offset));
		headers.setDate(UPLOAD_EXPIRES, expires.toEpochMilli());
		headers.set(HttpHeaders.CACHE_CONTROL, "no-store");
		return headers;
	}

	private static void requireVersion(ServerWebExchange exchange) {
		String version = exchange.getRequest().getHeaders().getFirst(TUS_RESUMABLE);
		if (!VERSION.equals(version)) {
			exchange.getResponse().getHeaders().set("Tus-Version", VERSION);
			throw new ApiException(HttpStatus.PRECONDITION_FAILED, "Tus-Resumable: " + VERSION + " is required");
		}
	}

	private static long number(HttpHeaders headers, String name) {
		String value = headers.getFirst(name);
		if (value == null) {
			return -1;
		}
		value = value.trim();
		if (value.isEmpty() || value.length() > 18) {
			throw ApiException.badRequest(name + " is not a number");
		}
		for (int i = 0; i < value.length(); i++) {
			if (value.charAt(i) < '0' || value.charAt(i) > '9') {
				throw ApiException.badRequest(name + " is not a number");
			}
		}
		return Long.parseLong(value);
	}

	private static boolean isPrintableAscii(String value) {
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < 0x20 || c >= 0x7f) {
				return false;
			}
		}
		return true;
	}

	/** Removes expired uploads from every exposed mount that can be listed. */
	Mono<Integer> sweep() {
		return Flux.fromIterable(this.tree.mounts())
			.filter(mount -> !mount.storage().needsUserCredentials())
			.concatMap(mount -> this.store.sweep(mount.storage()).onErrorResume(error -> {
				logger
					.warn("Could not remove expired uploads from mount '" + mount.name() + "': " + error.getMessage());
				return Mono.just(0);
			}))
			.reduce(0, Integer::sum)
			.doOnNext(removed -> {
				if (removed > 0) {
					logger.info("Removed " + removed + " expired uploads");
				}
			});
	}

	/** Stops removing expired uploads. */
	@Override
	public void close() {
		this.sweeper.dispose();
	}

}
