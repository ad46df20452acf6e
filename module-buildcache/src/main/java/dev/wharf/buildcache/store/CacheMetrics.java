package dev.wharf.buildcache.store;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

/**
 * The build cache's meters, tagged with the mount and its backend type:
 * {@code wharf.buildcache.hits}, {@code .misses}, {@code .puts}, {@code .bytes}
 * ({@code direction} in/out), {@code .evictions} ({@code reason} size/age/space),
 * {@code .rejections} ({@code reason}) and, for indexed backends, the gauges
 * {@code .entries} and {@code .size}. Thread-safe.
 */
public final class CacheMetrics {

	private final MeterRegistry registry;

	private final Tags tags;

	private final Counter hits;

	private final Counter misses;

	private final Counter puts;

	private final Counter bytesIn;

	private final Counter bytesOut;

	private final Map<String, Counter> evictions = new ConcurrentHashMap<>();

	private final Map<String, Counter> rejections = new ConcurrentHashMap<>();

	/**
	 * Registers the meters.
	 * @param registry where meters go
	 * @param mount the mount's name
	 * @param backend the mount's type, such as {@code memory}
	 */
	public CacheMetrics(MeterRegistry registry, String mount, String backend) {
		this.registry = registry;
		this.tags = Tags.of("mount", mount, "backend", backend);
		this.hits = counter("wharf.buildcache.hits", "Entries found", Tags.empty());
		this.misses = counter("wharf.buildcache.misses", "Entries not found", Tags.empty());
		this.puts = counter("wharf.buildcache.puts", "Entries stored", Tags.empty());
		this.bytesIn = counter("wharf.buildcache.bytes", "Entry bytes received and sent", Tags.of("direction", "in"));
		this.bytesOut = counter("wharf.buildcache.bytes", "Entry bytes received and sent", Tags.of("direction", "out"));
	}

	private Counter counter(String name, String description, Tags extra) {
		return Counter.builder(name).description(description).tags(this.tags).tags(extra).register(this.registry);
	}

	void hit() {
		this.hits.increment();
	}

	void miss() {
		this.misses.increment();
	}

	void put() {
		this.puts.increment();
	}

	void bytesIn(long bytes) {
		this.bytesIn.increment(bytes);
	}

	void bytesOut(long bytes) {
		this.bytesOut.increment(bytes);
	}

	void evicted(String reason, int count) {
		if (count > 0) {
			this.evictions
				.computeIfAbsent(reason,
						r -> counter("wharf.buildcache.evictions", "Entries removed to bound the cache",
								Tags.of("reason", r)))
				.increment(count);
		}
	}

	/**
	 * Counts a refused request.
	 * @param reason such as {@code unauthorized}, {@code forbidden}, {@code throttled},
	 * {@code too-large}, {@code unavailable}, {@code full}, {@code invalid-key}
	 */
	public void rejected(String reason) {
		this.rejections
			.computeIfAbsent(reason.toLowerCase(Locale.ROOT),
					r -> counter("wharf.buildcache.rejections", "Requests refused", Tags.of("reason", r)))
			.increment();
	}

	void gauges(CacheIndex index) {
		this.registry.gauge("wharf.buildcache.entries", this.tags, index, CacheIndex::entries);
		this.registry.gauge("wharf.buildcache.size", this.tags, index, CacheIndex::bytes);
	}

}
