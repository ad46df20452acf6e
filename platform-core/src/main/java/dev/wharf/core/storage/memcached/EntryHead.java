package dev.wharf.core.storage.memcached;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

/**
 * The item stored under a file's key: a small binary header (format mark, size, time, the
 * file's path and, for a file stored in chunks, the write's id and chunk size) followed,
 * for a small file, by its content. The path is kept so that a read checks it got the
 * file it asked for. A file larger than a chunk has its content in separate items named
 * after the write's id (see {@link MemcachedKeys#chunk}), so a replacing write never
 * mixes with the one it replaces: the head is switched last, in one {@code set}.
 *
 * <p>
 * Immutable; {@link #decode} never trusts the item: anything malformed is rejected, not
 * repaired.
 */
final class EntryHead {

	private static final int MAGIC = 0x574d4831; // "WMH1"

	private static final byte INLINE = 0;

	private static final byte CHUNKED = 1;

	/** Bytes before the path: magic, kind, size, time, path length. */
	private static final int FIXED = 4 + 1 + 8 + 8 + 2;

	private final String path;

	private final long size;

	private final long modified;

	private final @Nullable UUID writeId;

	private final int chunkSize;

	private final byte[] item;

	private final int dataOffset;

	private EntryHead(String path, long size, long modified, @Nullable UUID writeId, int chunkSize, byte[] item,
			int dataOffset) {
		this.path = path;
		this.size = size;
		this.modified = modified;
		this.writeId = writeId;
		this.chunkSize = chunkSize;
		this.item = item;
		this.dataOffset = dataOffset;
	}

	/**
	 * Encodes a small file whose content is in the head.
	 * @param path the file's path
	 * @param modified when it was written
	 * @param data the content
	 * @param length how many bytes of {@code data}
	 * @return the item
	 */
	static byte[] inline(String path, Instant modified, byte[] data, int length) {
		byte[] name = path.getBytes(StandardCharsets.UTF_8);
		ByteBuffer buffer = ByteBuffer.allocate(FIXED + name.length + length);
		header(buffer, INLINE, length, modified, name);
		buffer.put(data, 0, length);
		return buffer.array();
	}

	/**
	 * Encodes the head of a file stored in chunks.
	 * @param path the file's path
	 * @param size its length
	 * @param modified when it was written
	 * @param writeId the write's id, which names its chunks
	 * @param chunkSize the length of every chunk but the last
	 * @return the item
	 */
	static byte[] chunked(String path, long size, Instant modified, UUID writeId, int chunkSize) {
		byte[] name = path.getBytes(StandardCharsets.UTF_8);
		ByteBuffer buffer = ByteBuffer.allocate(FIXED + name.length + 16 + 4);
		header(buffer, CHUNKED, size, modified, name);
		buffer.putLong(writeId.getMostSignificantBits());
		buffer.putLong(writeId.getLeastSignificantBits());
		buffer.putInt(chunkSize);
		return buffer.array();
	}

	private static void header(ByteBuffer buffer, byte kind, long size, Instant modified, byte[] name) {
		buffer.putInt(MAGIC);
		buffer.put(kind);
		buffer.putLong(size);
		buffer.putLong(modified.toEpochMilli());
		buffer.putShort((short) name.length);
		buffer.put(name);
	}

	/**
	 * Decodes an item.
	 * @param item the bytes memcached returned
	 * @return the head, or {@code null} if the item is not one Wharf wrote
	 */
	static @Nullable EntryHead decode(byte[] item) {
		if (item.length < FIXED) {
			return null;
		}
		ByteBuffer buffer = ByteBuffer.wrap(item);
		if (buffer.getInt() != MAGIC) {
			return null;
		}
		byte kind = buffer.get();
		long size = buffer.getLong();
		long modified = buffer.getLong();
		int nameLength = Short.toUnsignedInt(buffer.getShort());
		if (size < 0 || nameLength > buffer.remaining()) {
			return null;
		}
		String path = new String(item, buffer.position(), nameLength, StandardCharsets.UTF_8);
		buffer.position(buffer.position() + nameLength);
		if (kind == INLINE) {
			if (buffer.remaining() != size) {
				return null;
			}
			return new EntryHead(path, size, modified, null, 0, item, buffer.position());
		}
		if (kind != CHUNKED || buffer.remaining() != 20) {
			return null;
		}
		UUID writeId = new UUID(buffer.getLong(), buffer.getLong());
		int chunkSize = buffer.getInt();
		if (chunkSize <= 0) {
			return null;
		}
		return new EntryHead(path, size, modified, writeId, chunkSize, item, buffer.position());
	}

	/** The path the file was written under. */
	String path() {
		return this.path;
	}

	/** The file's length. */
	long size() {
		return this.size;
	}

	/** When the file was written. */
	Instant modified() {
		return Instant.ofEpochMilli(this.modified);
	}

	/** Whether the content is in separate chunk items. */
	boolean isChunked() {
		return this.writeId != null;
	}

	/** The write's id, for a chunked file. */
	UUID writeId() {
		if (this.writeId == null) {
			throw new IllegalStateException("Not a chunked entry");
		}
		return this.writeId;
	}

	/** The length of every chunk but the last, for a chunked file. */
	int chunkSize() {
		return this.chunkSize;
	}

	/** How many chunks a chunked file has. */
	long chunkCount() {
		return (this.size + this.chunkSize - 1) / this.chunkSize;
	}

	/** The length of one chunk of a chunked file. */
	int chunkLength(long index) {
		return (int) Math.min(this.chunkSize, this.size - index * this.chunkSize);
	}

	/** The array holding a small file's content, from {@link #dataOffset()}. */
	byte[] item() {
		return this.item;
	}

	/** Where a small file's content starts in {@link #item()}. */
	int dataOffset() {
		return this.dataOffset;
	}

}
