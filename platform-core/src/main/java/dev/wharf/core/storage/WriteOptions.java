package dev.wharf.core.storage;

import java.util.Objects;

/**
 * How to write a file.
 *
 * @param mode what to do with an existing file
 * @param expectedLength the exact length the content must have, or
 * {@link #UNKNOWN_LENGTH}; content that ends short or runs over fails with
 * {@link InvalidContentException} and nothing is kept
 */
public record WriteOptions(WriteMode mode, long expectedLength) {

	/** No announced length. */
	public static final long UNKNOWN_LENGTH = -1;

	public WriteOptions {
		Objects.requireNonNull(mode, "mode");
		if (expectedLength < 0 && expectedLength != UNKNOWN_LENGTH) {
			throw new IllegalArgumentException("expectedLength must not be negative");
		}
	}

	/** Replace any existing file, length unknown. */
	public static WriteOptions replace() {
		return new WriteOptions(WriteMode.REPLACE, UNKNOWN_LENGTH);
	}

	/** Create a new file, failing if one exists, length unknown. */
	public static WriteOptions createNew() {
		return new WriteOptions(WriteMode.CREATE_NEW, UNKNOWN_LENGTH);
	}

	/** Append to the file, length unknown. */
	public static WriteOptions append() {
		return new WriteOptions(WriteMode.APPEND, UNKNOWN_LENGTH);
	}

	/**
	 * The same options with an announced length.
	 * @param length the exact number of bytes the content will have
	 * @return new options
	 */
	public WriteOptions withExpectedLength(long length) {
		return new WriteOptions(this.mode, length);
	}

	/** Whether a length was announced. */
	public boolean hasExpectedLength() {
		return this.expectedLength != UNKNOWN_LENGTH;
	}

}
