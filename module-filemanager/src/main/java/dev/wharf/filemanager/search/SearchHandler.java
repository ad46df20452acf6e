package dev.wharf.filemanager.search;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.wharf.core.storage.EntryType;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.FolderChain;
import dev.wharf.core.storage.Storage;
import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.storage.mount.Mount;
import dev.wharf.filemanager.auth.AuthenticatedHandler;
import dev.wharf.filemanager.auth.Caller;
import dev.wharf.filemanager.files.Location;
import dev.wharf.filemanager.files.MountTree;
import dev.wharf.filemanager.http.ApiException;
import dev.wharf.filemanager.http.ApiResponses;
import dev.wharf.filemanager.http.JsonBody;
import dev.wharf.filemanager.http.Query;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code GET /api/files/search?path=&q=}: files and folders below {@code path} (default:
 * everything the user may see) whose name contains {@code q}, ignoring case, as
 * {@code {"status":"ok","results":[{"name","type","size","time","path"}…]}}. The folders
 * are walked breadth first, nearest results first, and results are streamed as they are
 * found; the walk stops after a time budget or a number of results, so a search over a
 * huge tree answers quickly with what it found (like Filestash's 1.5 s crawl). Folders
 * that cannot be read are skipped. A link back into a folder the walk is in (a link loop,
 * see {@link FolderChain}) is not searched; such links are listed after the results, as
 * {@code "errors":["…"]}, a member that is there only when there is something to say.
 */
public final class SearchHandler implements AuthenticatedHandler {

	/** Longest search term. */
	static final int MAX_TERM_LENGTH = 256;

	private static final int BATCH = 64;

	private final MountTree tree;

	private final Duration budget;

	private final int maxResults;

	/**
	 * Creates the handler.
	 * @param tree the mounts
	 * @param budget how long a search may walk
	 * @param maxResults the most results
	 */
	public SearchHandler(MountTree tree, Duration budget, int maxResults) {
		this.tree = tree;
		this.budget = budget;
		this.maxResults = maxResults;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Caller caller) {
		Query query = new Query(exchange.getRequest().getURI().getRawQuery());
		String term = query.required("q").strip();
		if (term.isEmpty() || term.length() > MAX_TERM_LENGTH) {
			throw ApiException.badRequest("The search term must have 1 to " + MAX_TERM_LENGTH + " characters");
		}
		String path = query.optional("path");
		Location start = this.tree.locate(caller, (path != null) ? path : "/");
		return roots(caller, start).collectList().flatMap(roots -> {
			List<String> loops = Collections.synchronizedList(new ArrayList<>());
			Flux<Found> matches = Flux.fromIterable(roots)
				.expand(found -> children(found, loops))
				.filter(found -> !found.root() && containsIgnoreCase(found.entry().name(), term))
				.take(this.maxResults)
				.take(this.budget);
			ServerHttpResponse response = exchange.getResponse();
			ApiResponses.jsonHeaders(response, "no-cache");
			return response.writeWith(json(matches, loops, response.bufferFactory()));
		});
	}

	private Flux<Found> roots(Caller caller, Location start) {
		if (start.isTop()) {
			List<Location> mounts = new ArrayList<>();
			for (Mount mount : this.tree.visible(caller.user())) {
				mounts.add(this.tree.locate(caller, "/" + mount.name()));
			}
			return Flux.fromIterable(mounts).concatMap(mount -> root(mount).onErrorResume(error -> Mono.empty()));
		}
		return root(start).flux();
	}

	private static Mono<Found> root(Location location) {
		Storage storage = location.requireStorage();
		return storage.stat(location.path()).map(entry -> {
			if (!entry.isDirectory()) {
				throw new ApiException(HttpStatus.CONFLICT, "Not a folder: " + location);
			}
			return new Found(location, entry, true, FolderChain.start(entry));
		});
	}

	private static Flux<Found> children(Found found, List<String> loops) {
		FolderChain chain = found.chain();
		if (chain == null) {
			return Flux.empty();
		}
		Location location = found.location();
		return location.requireStorage()
			.list(found.entry().path())
			.filter(entry -> entry.type() != EntryType.OTHER)
			.map(entry -> {
				FileEntry loop = chain.loopsTo(entry);
				if (loop != null) {
					loops.add(location.virtual(entry.path()) + "/: not searched, a link loop: it leads back to "
							+ location.virtual(loop.path()) + "/");
				}
				FolderChain inside = (entry.isDirectory() && loop == null) ? chain.enter(entry) : null;
				return new Found(location, entry, false, inside);
			})
			.onErrorResume(error -> Flux.empty());
	}

	private static Flux<DataBuffer> json(Flux<Found> matches, List<String> loops, DataBufferFactory factory) {
		boolean[] first = { true };
		Flux<DataBuffer> results = matches.bufferTimeout(BATCH, Duration.ofMillis(200)).map(batch -> {
			// Each batch is a run of array members; the generator's own commas cannot
			// span batches.
			byte[] bytes = JsonBody.write(batch.size() * 128, json -> {
				json.writeStartArray();
				for (Found found : batch) {
					FileEntry entry = found.entry();
					StoragePath path = found.location().virtual(entry.path());
					json.writeStartObject()
						.writeStringProperty("name", entry.name())
						.writeStringProperty("type", entry.isDirectory() ? "directory" : "file")
						.writeNumberProperty("size", entry.size())
						.writeNumberProperty("time", entry.lastModified().toEpochMilli())
						.writeStringProperty("path", entry.isDirectory() ? path + "/" : path.toString())
						.writeEndObject();
				}
				json.writeEndArray();
			}).toByteArray();
			// Strip the brackets, and prefix a comma after the first batch.
			int start = first[0] ? 1 : 0;
			if (!first[0]) {
				bytes[0] = ',';
			}
			first[0] = false;
			return factory.wrap(ByteBuffer.wrap(bytes, start, bytes.length - 1 - start));
		});
		return Flux.concat(Mono.fromSupplier(() -> bytes(factory, "{\"status\":\"ok\",\"results\":[")), results,
				Mono.fromSupplier(() -> end(factory, loops)));
	}

	/**
	 * The end of the answer: the results' closing bracket, then the errors if there are
	 * any.
	 */
	private static DataBuffer end(DataBufferFactory factory, List<String> loops) {
		synchronized (loops) {
			if (loops.isEmpty()) {
				return bytes(factory, "]}");
			}
			byte[] errors = JsonBody.write(loops.size() * 128, json -> {
				json.writeStartObject().writeArrayPropertyStart("errors");
				for (String loop : loops) {
					json.writeString(loop);
				}
				json.writeEndArray().writeEndObject();
			}).toByteArray();
			// The object's members without its opening brace, after the results' closing
			// bracket and a comma.
			byte[] end = new byte[errors.length + 1];
			end[0] = ']';
			end[1] = ',';
			System.arraycopy(errors, 1, end, 2, errors.length - 1);
			return factory.wrap(end);
		}
	}

	private static DataBuffer bytes(DataBufferFactory factory, String ascii) {
		return factory.wrap(ascii.getBytes(StandardCharsets.US_ASCII));
	}

	static boolean containsIgnoreCase(String name, String term) {
		int last = name.length() - term.length();
		for (int i = 0; i <= last; i++) {
			if (name.regionMatches(true, i, term, 0, term.length())) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A file or folder the walk found.
	 *
	 * @param chain the folders the walk is in once it goes into this folder; {@code null}
	 * for a file, or a folder that is a link loop, which the walk does not go into
	 */
	private record Found(Location location, FileEntry entry, boolean root, @Nullable FolderChain chain) {
	}

}
