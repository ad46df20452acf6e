package dev.wharf.core.storage;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.buffer.UnpooledByteBufAllocator;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;

/**
 * A buffer factory that remembers every reference-counted buffer it made, so a test can
 * check that a consumer released all of them and see the most it held unreleased at once.
 */
public final class TrackedBuffers extends NettyDataBufferFactory {

	private final ConcurrentLinkedQueue<NettyDataBuffer> live = new ConcurrentLinkedQueue<>();

	private final AtomicInteger peak = new AtomicInteger();

	public TrackedBuffers() {
		super(new UnpooledByteBufAllocator(false));
	}

	@Override
	public NettyDataBuffer allocateBuffer(int initialCapacity) {
		NettyDataBuffer buffer = super.allocateBuffer(initialCapacity);
		this.live.add(buffer);
		this.peak.accumulateAndGet(unreleased(), Math::max);
		return buffer;
	}

	@Override
	public NettyDataBuffer allocateBuffer() {
		return allocateBuffer(256);
	}

	/** Buffers made and not yet released. */
	public int unreleased() {
		int count = 0;
		for (Iterator<NettyDataBuffer> it = this.live.iterator(); it.hasNext();) {
			if (it.next().isAllocated()) {
				count++;
			}
			else {
				it.remove();
			}
		}
		return count;
	}

	/** The most buffers unreleased at once, counted each time one was made. */
	public int peakUnreleased() {
		return this.peak.get();
	}

	/** Releases whatever a test left, so a failed test does not leak into others. */
	public void releaseAll() {
		for (DataBuffer buffer : this.live) {
			while (((NettyDataBuffer) buffer).isAllocated()) {
				((NettyDataBuffer) buffer).release();
			}
		}
		this.live.clear();
	}

}
