package dev.wharf.filemanager.thumbnail;

import java.io.IOException;

import javax.imageio.stream.ImageInputStreamImpl;

/**
 * An image input stream that reads a byte array in place. ImageIO's own streams over an
 * {@link java.io.InputStream} keep a second copy of every byte read (in memory, or in a
 * cache file), which doubled the memory a thumbnail's source takes. Closing lets go of
 * the array. Not thread-safe, as no image stream is.
 */
final class ByteArrayImageInputStream extends ImageInputStreamImpl {

	private static final byte[] NONE = new byte[0];

	private byte[] bytes;

	ByteArrayImageInputStream(byte[] bytes) {
		this.bytes = bytes;
	}

	@Override
	public int read() {
		this.bitOffset = 0;
		return (this.streamPos < this.bytes.length) ? this.bytes[(int) this.streamPos++] & 0xFF : -1;
	}

	@Override
	public int read(byte[] buffer, int offset, int length) {
		if (offset < 0 || length < 0 || offset + length > buffer.length) {
			throw new IndexOutOfBoundsException(
					"offset " + offset + ", length " + length + ", buffer " + buffer.length);
		}
		this.bitOffset = 0;
		if (length == 0) {
			return 0;
		}
		int left = this.bytes.length - (int) Math.min(this.streamPos, this.bytes.length);
		if (left == 0) {
			return -1;
		}
		int count = Math.min(length, left);
		System.arraycopy(this.bytes, (int) this.streamPos, buffer, offset, count);
		this.streamPos += count;
		return count;
	}

	@Override
	public long length() {
		return this.bytes.length;
	}

	/**
	 * Closes the stream and lets go of its array. ImageIO's streams have a finalizer (JDK
	 * 17 and 25), so a closed stream stays reachable until the finalizer thread has run
	 * after a collection: until then it would keep a whole image file, which in a small
	 * heap (p128's 48 MB) is old-generation space the next collections cannot reclaim.
	 */
	@Override
	public void close() throws IOException {
		super.close();
		this.bytes = NONE;
	}

}
