package dev.wharf.core.storage;

/**
 * Which bytes of a file to read: from an offset, for a length or to the end. A range past
 * the end of the file yields fewer bytes (or none); callers that must answer
 * "unsatisfiable" compare with the size first.
 *
 * @param offset first byte, 0 or more
 * @param length how many bytes, or {@link #TO_END}
 */
public record ByteRange(long offset, long length) {

	/** Length meaning "up to the end of the file". */
	public static final long TO_END = -1;

	private static final ByteRange ALL = new ByteRange(0, TO_END);

	public ByteRange {
		if (offset < 0) {
			throw new IllegalArgumentException("offset must not be negative");
		}
		if (length < 0 && length != TO_END) {
			throw new IllegalArgumentException("length must not be negative");
		}
	}

	/** The whole file. */
	public static ByteRange all() {
		return ALL;
	}

	/**
	 * From an offset to the end.
	 * @param offset first byte
	 * @return the range
	 */
	public static ByteRange from(long offset) {
		return new ByteRange(offset, TO_END);
	}

	/**
	 * A fixed slice.
	 * @param offset first byte
	 * @param length how many bytes
	 * @return the range
	 */
	public static ByteRange of(long offset, long length) {
		return new ByteRange(offset, length);
	}

	/** Whether the range reads to the end of the file. */
	public boolean isToEnd() {
		return this.length == TO_END;
	}

	/** Whether this is the whole file. */
	public boolean isAll() {
		return this.offset == 0 && this.length == TO_END;
	}

	/**
	 * How many bytes this range covers in a file of the given size.
	 * @param size the file's size
	 * @return the number of bytes, 0 if the offset is past the end
	 */
	public long lengthIn(long size) {
		if (this.offset >= size) {
			return 0;
		}
		long available = size - this.offset;
		return isToEnd() ? available : Math.min(available, this.length);
	}

}
