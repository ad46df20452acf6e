package dev.wharf.staticfiles.server;

import dev.wharf.staticfiles.resolve.SharedChannel;
import io.netty.channel.DefaultFileRegion;

/**
 * A region of a shared channel for one response: gives its reference back when written
 * (or dropped) instead of closing the channel, which other responses may be using.
 */
final class SharedRegion extends DefaultFileRegion {

	private final SharedChannel shared;

	/**
	 * @param shared a channel on which the caller holds a reference, handed over to this
	 * region
	 * @param offset first byte
	 * @param length how many bytes
	 */
	SharedRegion(SharedChannel shared, long offset, long length) {
		super(shared.channel(), offset, length);
		this.shared = shared;
	}

	@Override
	protected void deallocate() {
		this.shared.release();
	}

}
