package dev.wharf.core.state.redis;

import java.util.Comparator;
import java.util.List;

import dev.wharf.core.share.Share;
import dev.wharf.core.share.ShareLines;
import dev.wharf.core.share.ShareStore;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.core.script.RedisScript;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Share links in Redis, shared by every replica: a link made through one works on all,
 * and a revocation on one ends it on all at the next request (nothing is cached:
 * visitors' requests read the share each time).
 *
 * <p>
 * <b>Keys.</b> {@code <prefix>share:<id>}: a hash of {@code line} (the share,
 * {@link ShareLines}), {@code max} (its download limit) and {@code downloads} (its count,
 * changed only by the download script, so changing a share loses no download);
 * {@code <prefix>shares-of:<user>}: the user's index, a set of ids, to list and revoke.
 * Storing, revoking and counting a download are one script each. Shares do not expire in
 * Redis: an expired share must still answer "expired", not "unknown", until its creator
 * removes it.
 *
 * <p>
 * Thread-safe; never blocks. Fails with
 * {@link dev.wharf.core.state.SharedStateUnavailableException} when Redis cannot be
 * reached.
 */
public final class RedisShareStore implements ShareStore {

	private static final RedisScript<Long> PUT = RedisState.script(RedisShareStore.class, "share-put", Long.class);

	private static final RedisScript<Long> REMOVE = RedisState.script(RedisShareStore.class, "share-remove",
			Long.class);

	private static final RedisScript<Long> DOWNLOAD = RedisState.script(RedisShareStore.class, "share-download",
			Long.class);

	private final RedisState state;

	/**
	 * Creates the store.
	 * @param state the Redis client and key prefix
	 */
	public RedisShareStore(RedisState state) {
		this.state = state;
	}

	@Override
	public Mono<Share> find(String id) {
		return this.state
			.guard(this.state.redis().<String, String>opsForHash().multiGet(shareKey(id), List.of("line", "downloads")))
			.mapNotNull(fields -> decode(fields.get(0), fields.get(1)));
	}

	@Override
	public Flux<Share> list(String creator) {
		return this.state.guard(this.state.redis().opsForSet().members(indexKey(creator)))
			.concatMap(this::find)
			.filter(share -> share.creator().equals(creator))
			.sort(Comparator.comparing(Share::created));
	}

	@Override
	public Mono<Void> put(Share share) {
		return this.state
			.run(PUT, List.of(shareKey(share.id()), indexKey(share.creator())), List
				.of(ShareLines.format(share.withDownloads(0)), Integer.toString(share.maxDownloads()), share.id()))
			.then();
	}

	@Override
	public Mono<Boolean> remove(String creator, String id) {
		return this.state.run(REMOVE, List.of(shareKey(id), indexKey(creator)), List.of(id))
			.next()
			.map(removed -> removed == 1)
			.defaultIfEmpty(false);
	}

	@Override
	public Mono<Boolean> countDownload(String id) {
		return this.state.run(DOWNLOAD, List.of(shareKey(id)), List.of())
			.next()
			.map(counted -> counted == 1)
			.defaultIfEmpty(false);
	}

	private String shareKey(String id) {
		return this.state.key("share", id);
	}

	private String indexKey(String creator) {
		return this.state.key("shares-of", creator);
	}

	private static @Nullable Share decode(@Nullable String line, @Nullable String downloads) {
		if (line == null) {
			return null;
		}
		Share share = ShareLines.parse(line);
		if (share == null) {
			return null;
		}
		try {
			return share.withDownloads((downloads != null) ? Integer.parseInt(downloads) : 0);
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

}
