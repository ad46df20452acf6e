package dev.wharf.staticfiles.resolve;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import dev.wharf.core.storage.StoragePath;
import dev.wharf.core.web.EntityTags;
import dev.wharf.core.web.HttpDates;
import org.jspecify.annotations.Nullable;

/**
 * One version of one stored file, as the storage described it when it was resolved: a
 * requested file or a precompressed sibling. Carries its bytes when the file is small
 * enough to cache.
 *
 * <p>
 * Immutable apart from the shared channel; safe for concurrent use.
 */
public final class StoredFile {

	private final StoragePath path;

	private final long size;

	private final Instant lastModified;

	private final @Nullable Path localFile;

	private final String etag;

	private final String lastModifiedHeader;

	private final byte @Nullable [] bytes;

	/**
	 * null (not shared), {@link #SHARING}, a {@link SharedChannel}, or {@link #CLOSED}.
	 */
	private final AtomicReference<@Nullable Object> shared = new AtomicReference<>();

	private static final Object SHARING = new Object();

	private static final Object CLOSED = new Object();

	StoredFile(StoragePath path, long size, Instant lastModified, @Nullable Path localFile, byte @Nullable [] bytes) {
		this.path = path;
		this.size = size;
		this.lastModified = lastModified;
		this.localFile = localFile;
		this.etag = EntityTags.of(size, lastModified);
		this.lastModifiedHeader = HttpDates.format(lastModified);
		this.bytes = bytes;
	}

	/** Where it is in its mount. */
	public StoragePath path() {
		return this.path;
	}

	/** Its length. */
	public long size() {
		return this.size;
	}

	/** Its modification time. */
	public Instant lastModified() {
		return this.lastModified;
	}

	/**
	 * The file on this host, for zero-copy transfers, or {@code null} if the storage has
	 * none.
	 */
	public @Nullable Path localFile() {
		return this.localFile;
	}

	/** Its strong entity tag. */
	public String etag() {
		return this.etag;
	}

	/** Its modification time as an HTTP date. */
	public String lastModifiedHeader() {
		return this.lastModifiedHeader;
	}

	/** Its bytes if they are cached, else {@code null}. */
	public byte @Nullable [] bytes() {
		return this.bytes;
	}

	/**
	 * Whether this is the same version of the same file as another: same path, host file,
	 * size and modification time.
	 * @param other the other
	 * @return whether nothing observable changed
	 */
	public boolean sameVersion(@Nullable StoredFile other) {
		return other != null && this.path.equals(other.path) && this.size == other.size
				&& this.lastModified.equals(other.lastModified) && Objects.equals(this.localFile, other.localFile);
	}

	/**
	 * Lets responses share one open channel to the local file (see
	 * {@link SharedChannel}), until {@link #close}. Called by the cache when it keeps
	 * this file; files without a local path or with cached bytes never open one.
	 */
	public void share() {
		if (this.localFile != null && this.bytes == null) {
			this.shared.compareAndSet(null, SHARING);
		}
	}

	/**
	 * The shared channel, opened on first use, with a reference for the caller to
	 * release.
	 * @return the channel, or {@code null} if this file is not shared (or no longer, or
	 * too many are open): the caller then opens the file itself
	 * @throws java.nio.file.NoSuchFileException if the file is gone
	 * @throws SharedChannel.FileChangedException if its length changed
	 * @throws IOException if it cannot be opened
	 */
	public @Nullable SharedChannel acquireChannel() throws IOException {
		while (true) {
			Object state = this.shared.get();
			if (state instanceof SharedChannel channel) {
				if (channel.retain()) {
					return channel;
				}
				continue;
			}
			if (state != SHARING || this.localFile == null) {
				return null;
			}
			SharedChannel opened = SharedChannel.open(this.localFile, this.size);
			if (opened == null) {
				return null;
			}
			opened.retain();
			if (this.shared.compareAndSet(SHARING, opened)) {
				return opened;
			}
			// Closed meanwhile, or another response opened it first.
			opened.release();
			opened.release();
		}
	}

	/**
	 * Stops sharing; the channel closes when the last response using it is done.
	 * Idempotent.
	 */
	public void close() {
		Object previous = this.shared.getAndSet(CLOSED);
		if (previous instanceof SharedChannel channel) {
			channel.release();
		}
	}

	StoredFile withBytes(byte @Nullable [] bytes) {
		return new StoredFile(this.path, this.size, this.lastModified, this.localFile, bytes);
	}

}
