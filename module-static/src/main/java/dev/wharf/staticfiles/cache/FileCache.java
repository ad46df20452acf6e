package dev.wharf.staticfiles.cache;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import dev.wharf.staticfiles.resolve.FileResolver;
import dev.wharf.staticfiles.resolve.ResolvedFile;
import dev.wharf.staticfiles.resolve.Resolution;
import dev.wharf.staticfiles.site.Site;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Resolved files by request path, so that a hit costs no storage call (and, for small
 * files, no file-system call: their bytes are cached too). Bounded by weight (cached
 * bytes plus a fixed charge per entry), least valuable entries evicted first.
 *
 * <p>
 * An entry is trusted for {@code revalidateAfter}; the first request after that asks the
 * storage again (while requests arriving during that check are still served the known
 * version) and keeps the entry, bytes included, if nothing changed. Files of
 * {@code local} mounts are also dropped as soon as {@link LocalChangeWatcher} reports a
 * change in their folder or above; an entry whose folders were not yet watched when its
 * files were examined is checked once more on its next request, so a change in that
 * window is not missed either.
 *
 * <p>
 * Thread-safe; {@link #fresh} never blocks and may run on an event loop.
 */
public final class FileCache implements LocalChangeWatcher.Listener, AutoCloseable {

	/**
	 * The key of a site's SPA fallback file; never a request path, which starts with '/'.
	 */
	private static final String FALLBACK_KEY = "*spa-fallback";

	/**
	 * How long a claimed check may take before another request may claim it (its request
	 * may be gone).
	 */
	private static final long CHECK_TIMEOUT_NANOS = Duration.ofSeconds(30).toNanos();

	private final FileResolver resolver;

	private final @Nullable Cache<Key, Entry> entries;

	private final long revalidateNanos;

	private @Nullable LocalChangeWatcher watcher;

	/**
	 * Creates the cache.
	 * @param resolver resolves paths on a miss
	 * @param maxWeight most bytes held; 0 disables the cache
	 * @param revalidateAfter how long an entry is trusted
	 */
	public FileCache(FileResolver resolver, long maxWeight, Duration revalidateAfter) {
		this.resolver = resolver;
		this.entries = (maxWeight > 0) ? Caffeine.newBuilder()
			.maximumWeight(maxWeight)
			.<Key, Entry>weigher((key, entry) -> entry.weight + 2 * key.path().length())
			// Maintenance and removal on the calling thread: closing a shared channel is
			// cheap, and it
			// must not wait for a busy common pool.
			.executor(Runnable::run)
			.removalListener((@Nullable Key key, @Nullable Entry entry, RemovalCause cause) -> {
				if (entry != null) {
					entry.file.close();
				}
			})
			.build() : null;
		this.revalidateNanos = revalidateAfter.toNanos();
	}

	/**
	 * Drops files of {@code local} mounts when their folders change.
	 * @param watcher the watcher, which must report to this cache
	 */
	public void useWatcher(LocalChangeWatcher watcher) {
		this.watcher = watcher;
	}

	/**
	 * A cached file that may be served without asking the storage.
	 * @param site the site
	 * @param rawPath the request's raw path
	 * @return the file, or {@code null} if it is not cached or must be checked first
	 * (then call {@link #resolve})
	 */
	public @Nullable ResolvedFile fresh(Site site, String rawPath) {
		Entry entry = entry(site, rawPath);
		if (entry == null) {
			return null;
		}
		long now = System.nanoTime();
		if (now - entry.checkedAt < this.revalidateNanos) {
			return entry.file;
		}
		// One request checks; the others keep getting the known version until it is done.
		long claimed = entry.checking.get();
		if (isChecking(claimed, now)) {
			return entry.file;
		}
		return entry.checking.compareAndSet(claimed, now) ? null : entry.file;
	}

	/**
	 * Whether a check claimed at a time is still under way (a claim whose request
	 * vanished expires).
	 */
	private static boolean isChecking(long claimed, long now) {
		return claimed != 0 && now - claimed < CHECK_TIMEOUT_NANOS;
	}

	/**
	 * A cached file that may be served without asking the storage, like {@link #fresh},
	 * but without claiming the check when one is due: for callers that hand anything else
	 * to the regular path, which then makes the check.
	 * @param site the site
	 * @param rawPath the request's raw path
	 * @return the file (within its trust period, or while another request checks it), or
	 * {@code null}
	 */
	public @Nullable ResolvedFile peek(Site site, String rawPath) {
		Entry entry = entry(site, rawPath);
		if (entry == null) {
			return null;
		}
		long now = System.nanoTime();
		return (now - entry.checkedAt < this.revalidateNanos || isChecking(entry.checking.get(), now)) ? entry.file
				: null;
	}

	private @Nullable Entry entry(Site site, String rawPath) {
		return (this.entries != null) ? this.entries.getIfPresent(new Key(site, rawPath)) : null;
	}

	/**
	 * Resolves a request path, through the cache.
	 * @param site the site
	 * @param rawPath the request's raw path (the cache key)
	 * @param rawRelative the part after the site's prefix
	 * @return what the path leads to
	 */
	public Mono<Resolution> resolve(Site site, String rawPath, String rawRelative) {
		return lookup(new Key(site, rawPath), previous -> this.resolver.resolve(site, rawRelative, previous));
	}

	/**
	 * Resolves a site's SPA fallback file, through the cache.
	 * @param site the site; must have a fallback
	 * @return the file, or {@link Resolution#MISSING}
	 */
	public Mono<Resolution> resolveFallback(Site site) {
		return lookup(new Key(site, FALLBACK_KEY),
				previous -> this.resolver.resolveFile(site, Objects.requireNonNull(site.spaFallback()), previous));
	}

	/**
	 * Forgets a request path, whose file turned out to have changed.
	 * @param site the site
	 * @param rawPath the request's raw path
	 */
	public void invalidate(Site site, String rawPath) {
		if (this.entries != null) {
			this.entries.invalidate(new Key(site, rawPath));
		}
	}

	/**
	 * Forgets a site's SPA fallback file, which turned out to have changed.
	 * @param site the site
	 */
	public void invalidateFallback(Site site) {
		invalidate(site, FALLBACK_KEY);
	}

	private Mono<Resolution> lookup(Key key, Function<@Nullable ResolvedFile, Mono<Resolution>> resolve) {
		Cache<Key, Entry> entries = this.entries;
		if (entries == null) {
			return resolve.apply(null);
		}
		Entry existing = entries.getIfPresent(key);
		if (existing != null && System.nanoTime() - existing.checkedAt < this.revalidateNanos) {
			return Mono.just(new Resolution.Found(existing.file));
		}
		long sequence = sequence();
		return resolve.apply((existing != null) ? existing.file : null).map(resolution -> {
			if (!(resolution instanceof Resolution.Found found)) {
				entries.invalidate(key);
				return resolution;
			}
			ResolvedFile file = found.file();
			if (existing != null && existing.file.sameVersion(file) && entries.getIfPresent(key) == existing) {
				existing.checkedAt = System.nanoTime();
				return new Resolution.Found(existing.file);
			}
			Entry entry = new Entry(file);
			file.share();
			boolean watched = watch(file);
			entries.put(key, entry);
			if (!watched || sequence() != sequence) {
				// Something may have changed between the look at the files and the watch:
				// check again.
				entry.checkedAt = System.nanoTime() - this.revalidateNanos;
			}
			return resolution;
		}).doFinally(signal -> {
			if (existing != null) {
				existing.checking.set(0);
			}
		});
	}

	private long sequence() {
		LocalChangeWatcher watcher = this.watcher;
		return (watcher != null) ? watcher.sequence() : 0;
	}

	private boolean watch(ResolvedFile file) {
		Set<Path> folders = file.watchDirectories();
		if (folders.isEmpty()) {
			// Not a local file: only revalidation on time keeps it fresh.
			return true;
		}
		LocalChangeWatcher watcher = this.watcher;
		return watcher != null && watcher.watch(folders);
	}

	@Override
	public void changed(Path folder, List<Path> changed) {
		if (this.entries == null) {
			return;
		}
		this.entries.asMap().values().removeIf(entry -> {
			for (Path path : changed) {
				if (entry.file.isAffectedBy(folder, path)) {
					return true;
				}
			}
			return false;
		});
	}

	@Override
	public void overflowed() {
		if (this.entries != null) {
			this.entries.invalidateAll();
		}
	}

	/** Drops every entry, closing shared channels once their responses are done. */
	public void close() {
		if (this.entries != null) {
			this.entries.invalidateAll();
		}
	}

	/** How many entries are cached. */
	public long size() {
		return (this.entries != null) ? this.entries.estimatedSize() : 0;
	}

	private record Key(Site site, String path) {
	}

	private static final class Entry {

		final ResolvedFile file;

		final int weight;

		/** When a request claimed the due check (System.nanoTime()), or 0. */
		final AtomicLong checking = new AtomicLong();

		volatile long checkedAt = System.nanoTime();

		Entry(ResolvedFile file) {
			this.file = file;
			this.weight = file.weight();
		}

	}

}
