package dev.wharf.core.storage.s3;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import dev.wharf.core.storage.InvalidContentException;
import dev.wharf.core.storage.QuotaExceededException;
import dev.wharf.core.storage.WriteOptions;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import software.amazon.awssdk.core.async.AsyncRequestBody;

/**
 * Cuts an upload's stream of buffers into parts of a fixed size. Each buffer's bytes are
 * copied into heap slabs (growing from 8 KiB to at most 256 KiB) and the buffer is
 * released at once, so an upload holds its parts' bytes and not the (often many, small,
 * pooled) buffers they arrived in, and a small file takes a small slab, not a whole part.
 * A full part is cut only once a byte of the next one arrives, so that the last part of
 * an upload is never empty and a file of exactly one part is still one part.
 *
 * <p>
 * Not thread-safe: one per upload, called in the order of the stream's signals.
 */
final class PartCutter {

	/** S3's most parts in one upload. */
	static final int MAX_PARTS = 10_000;

	private static final int FIRST_SLAB = 8192;

	/**
	 * Below half of G1's smallest region (1 MB): larger arrays are "humongous" and each
	 * takes whole regions, so 1 MiB slabs cost 2 MB of heap each (a 96 MB heap ran out
	 * with one upload's 40 MB of parts).
	 */
	private static final int LARGEST_SLAB = 256 * 1024;

	private final long partSize;

	private final long expectedLength;

	private List<ByteBuffer> slabs = new ArrayList<>();

	private long filled;

	private long total;

	private int parts;

	private List<Part> cut = new ArrayList<>();

	private int nextSlab = FIRST_SLAB;

	/**
	 * Creates a cutter.
	 * @param partSize the size of every part but the last
	 * @param expectedLength the announced length, or {@link WriteOptions#UNKNOWN_LENGTH}
	 */
	PartCutter(long partSize, long expectedLength) {
		this.partSize = partSize;
		this.expectedLength = expectedLength;
	}

	/**
	 * The part size for an upload: the configured one, or larger where an announced
	 * length would need more than {@value #MAX_PARTS} parts.
	 * @param configured the mount's part size
	 * @param expectedLength the announced length, or {@link WriteOptions#UNKNOWN_LENGTH}
	 * @return the part size
	 */
	static long partSize(long configured, long expectedLength) {
		if (expectedLength <= (long) MAX_PARTS * configured) {
			return configured;
		}
		long needed = (expectedLength + MAX_PARTS - 1) / MAX_PARTS;
		long megabyte = 1024 * 1024;
		return (needed + megabyte - 1) / megabyte * megabyte;
	}

	/**
	 * Copies a buffer's bytes in and releases it.
	 * @param buffer the next bytes
	 * @return the parts now complete, usually none
	 * @throws InvalidContentException if the bytes run past the announced length
	 * @throws QuotaExceededException if the upload needs more than {@value #MAX_PARTS}
	 * parts
	 */
	List<Part> add(DataBuffer buffer) {
		try {
			int length = buffer.readableByteCount();
			if (length == 0) {
				return List.of();
			}
			this.total += length;
			if (this.expectedLength != WriteOptions.UNKNOWN_LENGTH && this.total > this.expectedLength) {
				throw new InvalidContentException(
						"The content is longer than the announced " + this.expectedLength + " bytes");
			}
			try (DataBuffer.ByteBufferIterator readable = buffer.readableByteBuffers()) {
				readable.forEachRemaining(this::copy);
			}
			if (this.cut.isEmpty()) {
				return List.of();
			}
			List<Part> done = this.cut;
			this.cut = new ArrayList<>();
			return done;
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

	private void copy(ByteBuffer source) {
		while (source.hasRemaining()) {
			if (this.filled == this.partSize) {
				this.cut.add(cut(false));
			}
			ByteBuffer slab = (this.slabs.isEmpty()) ? null : this.slabs.get(this.slabs.size() - 1);
			if (slab == null || !slab.hasRemaining()) {
				long size = Math.min(Math.min(LARGEST_SLAB, this.partSize - this.filled),
						Math.max(this.nextSlab, source.remaining()));
				slab = ByteBuffer.allocate((int) size);
				this.nextSlab = Math.min(LARGEST_SLAB, 2 * this.nextSlab);
				this.slabs.add(slab);
			}
			int n = Math.min(source.remaining(), slab.remaining());
			ByteBuffer slice = source.duplicate();
			slice.limit(slice.position() + n);
			slab.put(slice);
			source.position(source.position() + n);
			this.filled += n;
		}
	}

	/**
	 * The end of the stream.
	 * @return the last part: the bytes since the last full part (none only for an empty
	 * upload)
	 * @throws InvalidContentException if the content is shorter than the announced length
	 */
	Part finish() {
		if (this.expectedLength != WriteOptions.UNKNOWN_LENGTH && this.total != this.expectedLength) {
			throw new InvalidContentException(
					"The content ended after " + this.total + " of the announced " + this.expectedLength + " bytes");
		}
		return cut(true);
	}

	/** Bytes seen so far. */
	long total() {
		return this.total;
	}

	private Part cut(boolean last) {
		if (this.parts == MAX_PARTS) {
			throw new QuotaExceededException("The file is larger than " + MAX_PARTS + " parts of " + this.partSize
					+ " bytes, the most one S3 upload can hold; raise the mount's part-size");
		}
		this.parts++;
		List<ByteBuffer> bytes = this.slabs;
		bytes.forEach(ByteBuffer::flip);
		Part part = new Part(this.parts, bytes, this.filled, last);
		this.slabs = new ArrayList<>();
		this.filled = 0;
		return part;
	}

	/**
	 * One part's bytes, ready to send (and to send again if the SDK retries).
	 *
	 * @param number its number in the upload, from 1
	 * @param slabs its bytes, each buffer positioned at its start
	 * @param size how many bytes
	 * @param last whether it is the upload's last part
	 */
	record Part(int number, List<ByteBuffer> slabs, long size, boolean last) {

		/** The request body: the slabs as they are, without copying. */
		AsyncRequestBody body() {
			return AsyncRequestBody.fromByteBuffersUnsafe(this.slabs.toArray(ByteBuffer[]::new));
		}

	}

}
