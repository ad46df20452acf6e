package dev.wharf.ftp.engine;

import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts control connections, in total and per client address, against the configured
 * limits. Thread-safe.
 */
final class ConnectionLimits {

	private final int total;

	private final int perAddress;

	private final AtomicInteger open = new AtomicInteger();

	private final Map<InetAddress, AtomicInteger> byAddress = new ConcurrentHashMap<>();

	/**
	 * Creates the counters.
	 * @param total most connections at once
	 * @param perAddress most connections at once from one address
	 */
	ConnectionLimits(int total, int perAddress) {
		this.total = total;
		this.perAddress = perAddress;
	}

	/**
	 * Counts a new connection if the limits allow it.
	 * @param address the client's address
	 * @return whether it is allowed (and counted); a refused one must not be
	 * {@linkplain #release released}
	 */
	boolean tryOpen(InetAddress address) {
		if (this.open.incrementAndGet() > this.total) {
			this.open.decrementAndGet();
			return false;
		}
		boolean[] allowed = new boolean[1];
		this.byAddress.compute(address, (key, count) -> {
			AtomicInteger current = (count != null) ? count : new AtomicInteger();
			allowed[0] = current.get() < this.perAddress;
			if (allowed[0]) {
				current.incrementAndGet();
			}
			return (current.get() == 0) ? null : current;
		});
		if (!allowed[0]) {
			this.open.decrementAndGet();
		}
		return allowed[0];
	}

	/**
	 * Forgets a connection that {@link #tryOpen} allowed.
	 * @param address the client's address
	 */
	void release(InetAddress address) {
		this.open.decrementAndGet();
		this.byAddress.computeIfPresent(address, (key, count) -> (count.decrementAndGet() <= 0) ? null : count);
	}

	/** How many connections are open. */
	int open() {
		return this.open.get();
	}

}
