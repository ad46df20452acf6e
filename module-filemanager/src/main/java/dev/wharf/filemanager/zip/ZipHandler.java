package dev.wharf.filemanager.zip;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;

import dev.wharf.core.concurrent.NamedThreads;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.filemanager.auth.AuthenticatedHandler;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.files.Location;
import dev.wharf.filemanager.files.MountTree;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.Query;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code GET /api/files/zip?path=…&path=…}: the given files and folders as one zip,
 * streamed as it is written ({@link ZipWriter}), named {@code <name>.zip} for one path
 * and {@code download.zip} otherwise. {@code path=/} zips every mount the user may see.
 * The paths are checked before anything is sent (400, 404); after that, an unreadable
 * entry only lands in {@code error.log} inside the zip. A bounded number of zips are
 * written at once, each on its own worker thread (zipping blocks on the storage and on
 * the client); past that, 503 with {@code Retry-After}, and past one user's share of
 * them, 429. A zip holds its slot until its last byte is handed to the connection; a
 * client that stops reading loses it to the HTTP server's write timeout
 * ({@code wharf.http.write-timeout}).
 */
public final class ZipHandler implements AuthenticatedHandler, AutoCloseable {

	/** The most paths one zip may name. */
	static final int MAX_PATHS = 1000;

	private static final int CHUNK_SIZE = 64 * 1024;

	private final MountTree tree;

	private final ZipSlots slots;

	private final ExecutorService workers;

	/**
	 * Creates the handler.
	 * @param tree the mounts
	 * @param maxConcurrent the most zips written at once
	 * @param maxPerUser the most zips written at once for one user
	 */
	public ZipHandler(MountTree tree, int maxConcurrent, int maxPerUser) {
		this.tree = tree;
		this.slots = new ZipSlots(maxConcurrent, maxPerUser);
		this.workers = NamedThreads.pool("wharf-zip", maxConcurrent, Integer.MAX_VALUE,
				new ThreadPoolExecutor.AbortPolicy());
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Caller caller) {
		List<String> paths = new Query(exchange.getRequest().getURI().getRawQuery()).all("path");
		if (paths.isEmpty() || paths.size() > MAX_PATHS) {
			throw ApiException.badRequest("Give 1 to " + MAX_PATHS + " 'path' parameters");
		}
		List<Location> locations = new ArrayList<>();
		for (String path : paths) {
			Location location = this.tree.locate(caller, path);
			if (location.isTop()) {
				for (Mount mount : this.tree.visible(caller.user())) {
					locations.add(this.tree.locate(caller, "/" + mount.name()));
				}
			}
			else {
				locations.add(location);
			}
		}
		String fileName = (paths.size() == 1 && !locations.isEmpty() && !this.tree.locate(caller, paths.get(0)).isTop())
				? name(locations.get(0)) + ".zip" : "download.zip";
		return Flux.fromIterable(locations)
			.concatMap(location -> location.requireStorage()
				.stat(location.path())
				.map(entry -> new Pending(location, entry)))
			.collectList()
			.flatMap(found -> {
				List<ZipItem> items = new ArrayList<>();
				Set<String> names = new HashSet<>();
				for (Pending pending : found) {
					items.add(new ZipItem(pending.location().requireStorage(), pending.entry(),
							unique(names, entryName(pending.location()))));
				}
				return send(exchange, caller, fileName, items);
			});
	}

	private Mono<Void> send(ServerWebExchange exchange, Caller caller, String fileName, List<ZipItem> items) {
		ServerHttpResponse response = exchange.getResponse();
		HttpHeaders headers = response.getHeaders();
		headers.setContentType(MediaType.parseMediaType("application/zip"));
		headers
			.setContentDisposition(ContentDisposition.attachment().filename(fileName, StandardCharsets.UTF_8).build());
		headers.set(HttpHeaders.CACHE_CONTROL, "private, no-store");
		headers.set(ApiResponses.X_CONTENT_TYPE_OPTIONS, ApiResponses.NOSNIFF);
		ZipWriter writer = new ZipWriter(items);
		// The slot is taken when the body is subscribed and given back however it ends; a
		// refusal is the
		// body's first signal, so it arrives before anything is sent and becomes a 429 or
		// 503.
		Flux<DataBuffer> body = Flux.using(() -> this.slots.take(caller.name()),
				slot -> DataBufferUtils.outputStreamPublisher(out -> {
					try {
						writer.write(out);
					}
					catch (IOException ex) {
						throw new UncheckedIOException(ex);
					}
				}, response.bufferFactory(), this.workers, CHUNK_SIZE), ZipSlots.Slot::release);
		return response.writeWith(body);
	}

	private static String name(Location location) {
		// A share link's folder is named as itself, not as its mount.
		return location.path().isRoot() ? location.requireMount().name() : location.path().name();
	}

	/**
	 * The top-level name of an item in the zip. A name that starts like a drive
	 * ({@code C:} or {@code c:x}, legal in storage) would unpack outside the target
	 * folder on Windows, and the zip format forbids it (APPNOTE 4.4.17: no drive letter,
	 * no leading slash), so its colon becomes {@code _}. Storage names hold no {@code /},
	 * {@code \}, {@code .} or {@code ..}, so nothing else can leave the folder.
	 */
	static String entryName(Location location) {
		String name = name(location);
		char first = name.charAt(0);
		boolean drive = name.length() >= 2 && name.charAt(1) == ':'
				&& ((first >= 'A' && first <= 'Z') || (first >= 'a' && first <= 'z'));
		return drive ? first + "_" + name.substring(2) : name;
	}

	private static String unique(Set<String> taken, String name) {
		String candidate = name;
		for (int i = 2; !taken.add(candidate); i++) {
			candidate = name + " (" + i + ")";
		}
		return candidate;
	}

	/** Stops the workers. */
	@Override
	public void close() {
		this.workers.shutdownNow();
	}

	private record Pending(Location location, FileEntry entry) {
	}

}
