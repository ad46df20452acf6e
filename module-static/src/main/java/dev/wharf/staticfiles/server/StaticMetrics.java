package dev.wharf.staticfiles.server;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.wharf.staticfiles.site.Site;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Counts static responses per site and status ({@code wharf.static.requests}, tags
 * {@code site} and {@code status}). Static requests bypass Spring's request observation
 * (they are answered before it, for speed), so this is their metric.
 *
 * <p>
 * Thread-safe; a count is one map lookup and an atomic add.
 */
final class StaticMetrics {

	private final @Nullable MeterRegistry registry;

	private final Map<Site, Counter[]> counters = new ConcurrentHashMap<>();

	/**
	 * @param registry where counters go, or {@code null} to count nothing
	 */
	StaticMetrics(@Nullable MeterRegistry registry) {
		this.registry = registry;
	}

	void record(Site site, int status) {
		MeterRegistry registry = this.registry;
		if (registry == null || status < 100 || status > 599) {
			return;
		}
		Counter[] bySite = this.counters.computeIfAbsent(site, key -> new Counter[600]);
		Counter counter = bySite[status];
		if (counter == null) {
			counter = Counter.builder("wharf.static.requests")
				.description("Responses of the static file server")
				.tag("site", site.name())
				.tag("status", Integer.toString(status))
				.register(registry);
			bySite[status] = counter;
		}
		counter.increment();
	}

}
