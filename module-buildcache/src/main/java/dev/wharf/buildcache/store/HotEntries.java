package dev.wharf.buildcache.store;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.wharf.core.storage.FileEntry;
import dev.wharf.core.storage.FileKey;
import dev.wharf.core.storage.StoragePath;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;

/**
 * Copies in memory of the small entries this replica read or wrote lately, for mounts
 * whose storage keeps its files elsewhere (a local folder, sftp, memcached), so that a
 * GET of one is answered at once on the connection's event loop, as an entry of a memory
 * mount is ({@link CacheStore#getAtHand}).
 *
 * <p>
 * Why copies rather than a faster way to the file: a GET of a 4 KiB entry from a local
 * folder cost about five times the CPU of one from a memory mount, most of it around the
 * file rather than reading it: two hops to the mount's file threads and back (stat, then
 * open, read and close, each resolving the path's links anew) and the publishers around
 * them. nginx's {@code open_file_cache} avoids the like by keeping what it learnt about a
 * file for a while. A build cache's entries do not change once written (a key names its
 * content), and clients ask for the same ones again and again (every build of a branch),
 * so a byte-bounded set of copies takes most GETs off the file threads at a memory cost
 * the operator sets, which a faster read could not. Entries above {@code maxEntrySize},
 * and GETs spread over more entries than the copies hold, still go to the file as before.
 *
 * <p>
 * What a copy may serve, and for how long:
 * <ul>
 * <li>A copy is served at once for at most {@code revalidateAfter} after it was last
 * checked against the stored file. Later, the next GET of the entry goes the usual way
 * and checks the file's size, modification time and identity (inode) with one
 * {@code stat}: a copy that still matches is served (no read), one that does not is
 * dropped. So an entry deleted or replaced behind the cache's back (by hand, by another
 * replica writing into the same folder, by memcached evicting it) stops being served
 * within that bound, and at once by a GET that does not answer at hand; zero checks every
 * time.</li>
 * <li>A write of this replica drops the entry's copy before it starts and keeps the new
 * bytes only when no other write or eviction of the entry overlapped it, so once a PUT
 * has been answered no GET on this replica returns the bytes it replaced. A copy made by
 * a read is kept only if no write, eviction or forgetting of the entry began since the
 * read began (a version per stripe of paths, checked under the stripe's lock).</li>
 * <li>Evictions and entries found missing drop their copies.</li>
 * <li>The copies hold at most {@code maxBytes}, each charged {@link #ENTRY_CHARGE} beyond
 * its content, in a Caffeine cache bounded by weight (as the static sites' file cache):
 * the copies least likely to be asked for again go first.</li>
 * </ul>
 *
 * <p>
 * Thread-safe; never blocks: a stripe's lock is held for a few map operations only, so
 * every method may run on an event loop.
 */
public final class HotEntries {

	/**
	 * Bytes charged per copy beyond its content: the path, the cache's node, the copy and
	 * its buffer.
	 */
	static final long ENTRY_CHARGE = 320;

	/** Stripes of paths, each with its own version and lock. */
	private static final int STRIPES = 64;

	private static final ByteBuffer EMPTY = ByteBuffer.allocate(0).asReadOnlyBuffer();

	private final long maxBytes;

	private final long maxEntrySize;

	private final long revalidateMillis;

	private final Clock clock;

	private final Cache<StoragePath, Copy> copies;

	private final Stripe[] stripes = new Stripe[STRIPES];

	/**
	 * Creates the copies.
	 * @param settings how many and how long; {@link Settings#NONE} keeps none
	 * @param clock when copies were checked
	 */
	HotEntries(Settings settings, Clock clock) {
		this.maxBytes = settings.maxBytes();
		this.maxEntrySize = settings.maxEntrySize();
		this.revalidateMillis = settings.revalidateAfter().toMillis();
		this.clock = clock;
		this.copies = Caffeine.newBuilder()
			.maximumWeight(this.maxBytes)
			.<StoragePath, Copy>weigher((path, copy) -> (int) copy.charge())
			// Upkeep on the calling thread, in bounded steps, rather than waiting for a
			// busy common pool with copies past the budget.
			.executor(Runnable::run)
			.build();
		for (int i = 0; i < STRIPES; i++) {
			this.stripes[i] = new Stripe();
		}
	}

	/** Whether an entry of this length is kept in memory once read or written. */
	boolean keeps(long length) {
		return length >= 0 && length <= this.maxEntrySize && length + ENTRY_CHARGE <= this.maxBytes;
	}

	/** Whether any copy can be kept. */
	boolean isEnabled() {
		return this.maxBytes > 0;
	}

	/** The time to note before a read or a check: {@link Clock#millis()}. */
	long now() {
		return this.clock.millis();
	}

	/**
	 * The copy of an entry, if there is one checked against the stored file lately enough
	 * to be served without a look at the file.
	 * @param path the entry
	 * @return the copy, or {@code null}
	 */
	@Nullable Copy fresh(StoragePath path) {
		Copy copy = this.copies.getIfPresent(path);
		if (copy == null || this.clock.millis() - copy.checkedAt > this.revalidateMillis) {
			return null;
		}
		return copy;
	}

	/**
	 * The copy of an entry, checked against what the storage says of the file now: served
	 * if it matches, dropped otherwise.
	 * @param path the entry
	 * @param stored the stored file, as {@code stat} found it
	 * @param since when that {@code stat} began ({@link #now()})
	 * @return the copy, or {@code null}
	 */
	@Nullable Copy checked(StoragePath path, FileEntry stored, long since) {
		Copy copy = this.copies.getIfPresent(path);
		if (copy == null) {
			return null;
		}
		if (!copy.matches(stored)) {
			// Only this copy: one that a write made meanwhile stays.
			this.copies.asMap().remove(path, copy);
			return null;
		}
		// Racing checks may set an older time: the copy is only checked again sooner.
		copy.checkedAt = since;
		return copy;
	}

	/**
	 * Begins a read whose bytes may be kept.
	 * @param path the entry
	 * @return the ticket for {@link #keep}; negative while the entry is being written,
	 * and when no copies are kept
	 */
	long readTicket(StoragePath path) {
		if (this.maxBytes == 0) {
			return -1;
		}
		Stripe stripe = stripe(path);
		synchronized (stripe) {
			return (stripe.writing > 0) ? -1 : stripe.version;
		}
	}

	/**
	 * Keeps the bytes a read found, unless the entry was written, evicted or forgotten
	 * since the read began.
	 * @param path the entry
	 * @param ticket what {@link #readTicket} gave before the read
	 * @param stored the stored file, as {@code stat} found it before the read
	 * @param content the entry's bytes, which are not changed afterwards
	 * @param since when that {@code stat} began
	 */
	void keep(StoragePath path, long ticket, FileEntry stored, byte[] content, long since) {
		if (ticket < 0 || !keeps(content.length)) {
			return;
		}
		Stripe stripe = stripe(path);
		synchronized (stripe) {
			if (stripe.writing > 0 || stripe.version != ticket) {
				return;
			}
			this.copies.put(path, new Copy(stored, content, since));
		}
	}

	/**
	 * Begins a write: the entry's copy goes, and no read keeps one until the write ends.
	 * @param path the entry
	 * @param length the announced length, or negative if unknown
	 * @return the write, to be ended with {@link #endWrite} whatever happens
	 */
	Write beginWrite(StoragePath path, long length) {
		Stripe stripe = stripe(path);
		long ticket;
		synchronized (stripe) {
			stripe.version++;
			stripe.writing++;
			this.copies.invalidate(path);
			ticket = stripe.version;
		}
		return new Write(path, ticket, keeps(length) ? new byte[(int) length] : null);
	}

	/**
	 * Ends a write: its bytes become the entry's copy if it stored them and no other
	 * write, eviction or forgetting of the entry overlapped it (another write may have
	 * replaced the file after it). Only the first call for a write counts.
	 * @param write the write
	 */
	void endWrite(Write write) {
		if (!write.ended.compareAndSet(false, true)) {
			return;
		}
		Stripe stripe = stripe(write.path);
		synchronized (stripe) {
			boolean alone = stripe.version == write.ticket && stripe.writing == 1;
			stripe.version++;
			stripe.writing--;
			this.copies.invalidate(write.path);
			byte[] content = write.content;
			FileEntry stored = write.stored;
			if (alone && content != null && stored != null && write.filled == content.length) {
				this.copies.put(write.path, new Copy(stored, content, this.clock.millis()));
			}
		}
	}

	/**
	 * Drops an entry's copy, and any a read under way would keep: the entry is being
	 * deleted or was found missing.
	 * @param path the entry
	 */
	void forget(StoragePath path) {
		Stripe stripe = stripe(path);
		synchronized (stripe) {
			stripe.version++;
			this.copies.invalidate(path);
		}
	}

	/** How many copies are held, for tests. */
	long size() {
		this.copies.cleanUp();
		return this.copies.estimatedSize();
	}

	/** Bytes of the copies with their charges, for tests. */
	long bytes() {
		this.copies.cleanUp();
		return this.copies.policy().eviction().orElseThrow().weightedSize().orElseThrow();
	}

	private Stripe stripe(StoragePath path) {
		return this.stripes[Math.floorMod(path.hashCode(), STRIPES)];
	}

	/**
	 * How many copies are kept and for how long.
	 *
	 * @param maxBytes the most bytes of copies, each charged {@link #ENTRY_CHARGE} beyond
	 * its content; 0 keeps none
	 * @param maxEntrySize the largest entry copied
	 * @param revalidateAfter how long a copy is served without a look at the stored file
	 */
	public record Settings(long maxBytes, long maxEntrySize, Duration revalidateAfter) {

		/** No copies. */
		public static final Settings NONE = new Settings(0, 0, Duration.ZERO);

		public Settings {
			Objects.requireNonNull(revalidateAfter, "revalidateAfter");
			if (maxBytes < 0 || maxEntrySize < 0 || revalidateAfter.isNegative()) {
				throw new IllegalArgumentException("Negative bounds for the copies of entries");
			}
		}

	}

	/** A copy of an entry and what the stored file looked like when it was made. */
	static final class Copy {

		private final long storedSize;

		private final Instant modified;

		private final @Nullable FileKey key;

		private final ByteBuffer content;

		private volatile long checkedAt;

		Copy(FileEntry stored, byte[] content, long checkedAt) {
			this.storedSize = stored.size();
			this.modified = stored.lastModified();
			this.key = stored.key();
			this.content = (content.length > 0) ? ByteBuffer.wrap(content).asReadOnlyBuffer() : EMPTY;
			this.checkedAt = checkedAt;
		}

		/** The entry's length as the client stored it. */
		long length() {
			return this.content.remaining();
		}

		/** A read-only view of the entry's bytes, its own position and limit. */
		ByteBuffer view() {
			return this.content.duplicate();
		}

		boolean matches(FileEntry stored) {
			return stored.isFile() && stored.size() == this.storedSize && this.modified.equals(stored.lastModified())
					&& Objects.equals(this.key, stored.key());
		}

		long charge() {
			return this.content.capacity() + ENTRY_CHARGE;
		}

	}

	/** A write under way, and the bytes it stores when they are few enough to copy. */
	static final class Write {

		private final StoragePath path;

		private final long ticket;

		private final byte @Nullable [] content;

		private final AtomicBoolean ended = new AtomicBoolean();

		private int filled;

		private volatile @Nullable FileEntry stored;

		Write(StoragePath path, long ticket, byte @Nullable [] content) {
			this.path = path;
			this.ticket = ticket;
			this.content = content;
		}

		/**
		 * Copies the next buffer of the body, before it is handed on; a body longer than
		 * announced is not copied.
		 */
		void copy(DataBuffer buffer) {
			byte[] into = this.content;
			int count = buffer.readableByteCount();
			if (into == null || this.filled < 0) {
				return;
			}
			if (this.filled + count > into.length) {
				this.filled = -1;
				return;
			}
			buffer.toByteBuffer(buffer.readPosition(), ByteBuffer.wrap(into), this.filled, count);
			this.filled += count;
		}

		/** The body was stored, as this file. */
		void stored(FileEntry file) {
			this.stored = file;
		}

	}

	/** A stripe's version, moved on by every write and forgetting, under its lock. */
	private static final class Stripe {

		private long version;

		private int writing;

	}

}
