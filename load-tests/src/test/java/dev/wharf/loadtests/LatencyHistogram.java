package dev.wharf.loadtests;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts latencies in microseconds in log-linear buckets (32 per power of two, so a
 * percentile is within about 3 %), without locks, up to about 18 minutes. Enough for a
 * benchmark table; no third-party histogram needed.
 *
 * <p>
 * Thread-safe: many virtual users record at once.
 */
public final class LatencyHistogram {

	private static final int SUB_BITS = 5;

	private static final int SUB_BUCKETS = 1 << SUB_BITS;

	private static final int BUCKETS = (40 - SUB_BITS + 1) * SUB_BUCKETS;

	private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

	/**
	 * Counts one latency.
	 * @param micros the latency in microseconds; negative values count as 0
	 */
	public void record(long micros) {
		this.counts.incrementAndGet(index(Math.max(0, micros)));
	}

	/**
	 * The latency below which the given share of the recorded latencies fall.
	 * @param percentile from 0 to 100
	 * @return the upper bound of the bucket holding that latency, in microseconds; 0 when
	 * nothing was recorded
	 */
	public long percentile(double percentile) {
		long total = 0;
		for (int i = 0; i < BUCKETS; i++) {
			total += this.counts.get(i);
		}
		if (total == 0) {
			return 0;
		}
		long rank = Math.max(1, (long) Math.ceil(total * percentile / 100.0));
		long seen = 0;
		for (int i = 0; i < BUCKETS; i++) {
			seen += this.counts.get(i);
			if (seen >= rank) {
				return upperBound(i);
			}
		}
		return upperBound(BUCKETS - 1);
	}

	static int index(long value) {
		if (value < SUB_BUCKETS) {
			return (int) value;
		}
		int magnitude = 63 - Long.numberOfLeadingZeros(value);
		int shift = magnitude - SUB_BITS;
		int bucket = (shift + 1) * SUB_BUCKETS + (int) ((value >>> shift) - SUB_BUCKETS);
		return Math.min(bucket, BUCKETS - 1);
	}

	static long upperBound(int index) {
		if (index < SUB_BUCKETS) {
			return index;
		}
		int shift = index / SUB_BUCKETS - 1;
		long sub = index % SUB_BUCKETS + SUB_BUCKETS;
		return ((sub + 1) << shift) - 1;
	}

}
