package dev.wharf.filemanager.files;

import dev.wharf.core.share.Share;
import dev.wharf.core.storage.NotFoundException;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.WriteOptions;
import dev.wharf.filemanager.auth.AuditTrail;
import dev.wharf.filemanager.auth.AuthenticatedHandler;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.BodyLimit;
import dev.wharf.filemanager.http.Conditions;
import dev.wharf.filemanager.http.Query;
import dev.wharf.filemanager.thumbnail.ThumbnailService;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code POST /api/files/save?path=}: the raw request body becomes the file (not
 * multipart, as in Filestash), streamed to the storage and made visible only when
 * complete: a body cut off mid-way, longer or shorter than its {@code Content-Length}, or
 * over the size limit leaves nothing and no partial file. An existing file is replaced,
 * except through an upload-only share link (409). {@code If-Unmodified-Since} gives 412
 * if the file changed after that date. A {@code Content-Length} over the limit is refused
 * (413) before the body is read. The thumbnail of an image saved is made in the
 * background ({@link ThumbnailService#prefetch}), so its first view finds it made.
 */
public final class SaveHandler implements AuthenticatedHandler {

	private final MountTree tree;

	private final AuditTrail audit;

	private final long maxUploadBytes;

	private final ThumbnailService thumbnails;

	/**
	 * Creates the handler.
	 * @param tree the mounts
	 * @param audit the audit trail
	 * @param maxUploadBytes the largest file accepted
	 * @param thumbnails makes the thumbnails of saved images
	 */
	public SaveHandler(MountTree tree, AuditTrail audit, long maxUploadBytes, ThumbnailService thumbnails) {
		this.tree = tree;
		this.audit = audit;
		this.maxUploadBytes = maxUploadBytes;
		this.thumbnails = thumbnails;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Caller caller) {
		Query query = new Query(exchange.getRequest().getURI().getRawQuery());
		Location location = this.tree.locateInMount(caller, query.required("path")).requireEntry("write");
		Storage storage = location.requireStorage();
		HttpHeaders headers = exchange.getRequest().getHeaders();
		long length = headers.getContentLength();
		if (length > this.maxUploadBytes) {
			return Mono.error(tooLarge(this.maxUploadBytes));
		}
		Mono<Void> precondition = Mono.empty();
		if (Conditions.hasUnmodifiedSince(headers)) {
			precondition = storage.stat(location.path())
				.flatMap(entry -> Conditions.modifiedSince(headers, entry.lastModified())
						? Mono.<Void>error(new ApiException(HttpStatus.PRECONDITION_FAILED, "Modified since"))
						: Mono.<Void>empty())
				.onErrorResume(NotFoundException.class, missing -> Mono.empty());
		}
		// A drop box's visitors add files, never replace one they could not read (409 if
		// it exists).
		Share share = caller.share();
		WriteOptions mode = (share != null && !share.rights().canWrite()) ? WriteOptions.createNew()
				: WriteOptions.replace();
		WriteOptions options = (length >= 0) ? mode.withExpectedLength(length) : mode;
		long max = this.maxUploadBytes;
		Flux<DataBuffer> body = BodyLimit.limit(exchange.getRequest().getBody(), max, () -> tooLarge(max));
		Mono<?> write = precondition.then(storage.write(location.path(), body, options))
			.doOnNext(written -> this.thumbnails.prefetch(location.requireMount(), storage, location.path()));
		return this.audit.record(exchange, caller, "write", location.auditTarget(), write)
			.then(Mono.defer(() -> ApiResponses.ok(exchange)));
	}

	static ApiException tooLarge(long max) {
		return new ApiException(HttpStatus.CONTENT_TOO_LARGE, "File too large (at most " + max + " bytes)");
	}

}
