package dev.wharf.core.storage.memcached;

import net.spy.memcached.CachedData;
import net.spy.memcached.transcoders.Transcoder;

/**
 * Stores and loads raw {@code byte[]} and nothing else. spymemcached's default transcoder
 * deserialises Java objects and gunzips values whenever an item's flags say so, so anyone
 * who can write to memcached could make Wharf run a deserialisation gadget or inflate a
 * compression bomb; this one ignores the flags and hands back the bytes exactly as
 * memcached sent them. Decoding runs on the I/O thread (never asynchronously), it only
 * wraps an array that spymemcached already holds.
 */
final class BytesTranscoder implements Transcoder<byte[]> {

	/** The flags every item Wharf stores carries. */
	static final int FLAGS = 0x5746; // "WF"

	/** The transcoder. */
	static final BytesTranscoder INSTANCE = new BytesTranscoder();

	private BytesTranscoder() {
	}

	@Override
	public boolean asyncDecode(CachedData data) {
		return false;
	}

	@Override
	public CachedData encode(byte[] value) {
		return new CachedData(FLAGS, value, getMaxSize());
	}

	@Override
	public byte[] decode(CachedData data) {
		return data.getData();
	}

	/**
	 * No limit of its own: by the time spymemcached checks this, it has already read the
	 * item (which the server's own item limit bounds), and a failing check would break
	 * the connection instead of the one read. Wharf never stores items larger than its
	 * chunk size plus a header.
	 */
	@Override
	public int getMaxSize() {
		return Integer.MAX_VALUE - 8;
	}

}
