package dev.wharf.filemanager.thumbnail;

import java.util.Arrays;

import org.springframework.core.io.buffer.DataBuffer;

/**
 * An image file's bytes gathered from the buffers of a read into one array, sized up
 * front from the file's listed size so that the usual read makes no copy but its own. A
 * file that changed meanwhile still reads whole: the array grows (up to the most a
 * thumbnail reads) or is cut to what came. Not thread-safe: a read's buffers come one
 * after the other.
 */
final class SourceBytes {

	private final long max;

	private byte[] bytes;

	private int length;

	/**
	 * @param expected the file's size as listed
	 * @param max the most bytes kept; what comes after is dropped, as the read asks for
	 * no more
	 */
	SourceBytes(long expected, long max) {
		this.max = Math.min(max, Integer.MAX_VALUE - 8);
		this.bytes = new byte[(int) Math.max(0, Math.min(expected, this.max))];
	}

	/** Copies a buffer's readable bytes in; the caller releases it. */
	void append(DataBuffer buffer) {
		int count = (int) Math.min(buffer.readableByteCount(), this.max - this.length);
		if (this.length + count > this.bytes.length) {
			long grown = Math.max(this.length + (long) count, 2L * this.bytes.length);
			this.bytes = Arrays.copyOf(this.bytes, (int) Math.min(grown, this.max));
		}
		buffer.read(this.bytes, this.length, count);
		this.length += count;
	}

	/** The bytes gathered: the array itself when the file was as large as listed. */
	byte[] bytes() {
		return (this.length == this.bytes.length) ? this.bytes : Arrays.copyOf(this.bytes, this.length);
	}

}
