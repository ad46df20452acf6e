package dev.wharf.staticfiles.server;

import java.time.Duration;

import dev.wharf.core.storage.Capability;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.StorageErrorKind;
import dev.wharf.core.storage.StorageException;
import dev.wharf.core.storage.StorageIoException;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.staticfiles.cache.FileCache;
import dev.wharf.core.web.RequestTargets;
import dev.wharf.core.web.StorageErrorStatus;
import dev.wharf.staticfiles.resolve.ResolvedFile;
import dev.wharf.staticfiles.resolve.Resolution;
import dev.wharf.staticfiles.site.Site;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

/**
 * Answers one request for one site. A cached, fresh file is answered at once on the event
 * loop, with no storage call and no thread hop; anything else is resolved through the
 * storage first.
 *
 * <p>
 * Thread-safe.
 */
final class StaticHandler {

	private static final Log logger = LogFactory.getLog(StaticHandler.class);

	private final FileCache cache;

	private final Responder responder;

	private final boolean serverCompression;

	/**
	 * @param cache the file cache
	 * @param responder writes responses
	 * @param serverCompression whether the HTTP server compresses responses
	 * ({@code server.compression}), which static responses then opt out of
	 */
	StaticHandler(FileCache cache, Responder responder, boolean serverCompression) {
		this.cache = cache;
		this.responder = responder;
		this.serverCompression = serverCompression;
	}

	/**
	 * Handles a request the site matched.
	 * @param site the site
	 * @param request the request
	 * @param response the response
	 * @return completes when the response is sent
	 */
	Publisher<Void> handle(Site site, HttpServerRequest request, HttpServerResponse response) {
		try {
			HttpMethod method = request.method();
			boolean head = HttpMethod.HEAD.equals(method);
			if (!head && !HttpMethod.GET.equals(method)) {
				return this.responder.methodNotAllowed(request, response, site);
			}
			String target = request.uri();
			String rawPath = RequestTargets.path(target);
			String relative = rawPath.substring(site.prefix().length());
			if (relative.isEmpty()) {
				return this.responder.redirect(request, response, site, rawPath + "/" + RequestTargets.query(target));
			}
			if (this.serverCompression) {
				// Static responses have their own codings; Reactor Netty's compression
				// would undo zero-copy.
				response.compression(false);
			}
			ResolvedFile cached = this.cache.fresh(site, rawPath);
			if (cached != null) {
				try {
					return this.responder.file(request, response, cached, head);
				}
				catch (StaleFileException ex) {
					this.cache.invalidate(site, rawPath);
				}
			}
			return resolveAndAnswer(site, request, response, rawPath, relative, head, true);
		}
		catch (RuntimeException ex) {
			return failure(site, request, response, ex, false);
		}
	}

	private Mono<Void> resolveAndAnswer(Site site, HttpServerRequest request, HttpServerResponse response,
			String rawPath, String relative, boolean head, boolean retryIfStale) {
		return this.cache.resolve(site, rawPath, relative)
			.flatMap(resolution -> Mono.from(answer(site, request, response, resolution, rawPath, head)))
			.onErrorResume(StaleFileException.class, stale -> {
				this.cache.invalidate(site, rawPath);
				this.cache.invalidateFallback(site);
				return retryIfStale ? resolveAndAnswer(site, request, response, rawPath, relative, head, false)
						: Mono.error(new StorageIoException("The file keeps changing: " + rawPath));
			})
			.onErrorResume(error -> !response.hasSentHeaders(),
					error -> Mono.from(failure(site, request, response, error, head)));
	}

	private Publisher<Void> answer(Site site, HttpServerRequest request, HttpServerResponse response,
			Resolution resolution, String rawPath, boolean head) {
		if (resolution instanceof Resolution.Found found) {
			return this.responder.file(request, response, found.file(), head);
		}
		if (resolution == Resolution.TO_FOLDER) {
			return this.responder.redirect(request, response, site,
					rawPath + "/" + RequestTargets.query(request.uri()));
		}
		if (resolution instanceof Resolution.Folder folder) {
			return listing(site, request, response, folder.path(), head);
		}
		if (site.spaFallback() != null) {
			return this.cache.resolveFallback(site)
				.flatMap(fallback -> Mono.from((fallback instanceof Resolution.Found found)
						? this.responder.file(request, response, found.file(), head)
						: this.responder.plain(request, response, site, HttpResponseStatus.NOT_FOUND, head)));
		}
		return this.responder.plain(request, response, site, HttpResponseStatus.NOT_FOUND, head);
	}

	private Publisher<Void> listing(Site site, HttpServerRequest request, HttpServerResponse response,
			StoragePath folder, boolean head) {
		if (!site.storage().capabilities().contains(Capability.LIST)) {
			return this.responder.plain(request, response, site, HttpResponseStatus.NOT_FOUND, head);
		}
		StoragePath relative = folder.relativeTo(site.root());
		return site.storage()
			.list(folder)
			.filter(entry -> (entry.isFile() || entry.isDirectory()) && !hidden(site, relative, entry))
			.take(DirectoryListing.MAX_ENTRIES + 1)
			.collectList()
			.flatMap(entries -> Mono.from(this.responder.html(
					request, response, site, DirectoryListing
						.render(site.prefix() + relative + (relative.isRoot() ? "" : "/"), entries, !relative.isRoot()),
					head)));
	}

	private static boolean hidden(Site site, StoragePath folder, FileEntry entry) {
		return site.isHidden(folder.resolve(entry.name()));
	}

	private Publisher<Void> failure(Site site, HttpServerRequest request, HttpServerResponse response, Throwable error,
			boolean head) {
		HttpResponseStatus status = status(error);
		Duration retryAfter = (error instanceof StorageException storage)
				? StorageErrorStatus.retryAfter(storage.kind()) : null;
		if (retryAfter != null) {
			response.header(HttpHeaderNames.RETRY_AFTER, Long.toString(retryAfter.toSeconds()));
		}
		if (status.code() >= 500) {
			logger.warn("Static site " + site.name() + ": " + request.method() + " failed", error);
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Static site " + site.name() + ": " + status + ": " + error.getMessage());
		}
		return this.responder.plain(request, response, site, status, head);
	}

	/**
	 * Core's status for a storage error ({@link StorageErrorStatus}, as in every HTTP
	 * module), except that a path that names no page is 404 whatever the reason: a file
	 * where the path needs a folder ({@code CONFLICT}), or a backend that cannot list
	 * ({@code UNSUPPORTED}).
	 */
	private static HttpResponseStatus status(Throwable error) {
		if (!(error instanceof StorageException storage)) {
			return HttpResponseStatus.INTERNAL_SERVER_ERROR;
		}
		StorageErrorKind kind = storage.kind();
		if (kind == StorageErrorKind.CONFLICT || kind == StorageErrorKind.UNSUPPORTED) {
			return HttpResponseStatus.NOT_FOUND;
		}
		return HttpResponseStatus.valueOf(StorageErrorStatus.of(kind).value());
	}

}
