package dev.wharf.core.storage.mount;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.health.contributor.CompositeReactiveHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import reactor.core.publisher.Mono;

/**
 * Health of every mount, one entry each, under {@code /actuator/health/mounts}. A backend that does not
 * answer within the timeout is reported down; the error's message is shown, never credentials.
 */
public final class MountsHealthContributor {

	private MountsHealthContributor() {
	}

	/**
	 * Builds the contributor.
	 * @param registry the mounts
	 * @param timeout how long a check may take
	 * @return one indicator per mount
	 */
	public static CompositeReactiveHealthContributor of(MountRegistry registry, Duration timeout) {
		Map<String, ReactiveHealthIndicator> indicators = new LinkedHashMap<>();
		for (Mount mount : registry.all()) {
			indicators.put(mount.name(), () -> mount.storage()
				.checkHealth()
				.timeout(timeout)
				.then(Mono.fromCallable(() -> Health.up().withDetail("type", mount.type()).build()))
				.onErrorResume(error -> Mono.just(Health.down()
					.withDetail("type", mount.type())
					.withDetail("error", String.valueOf(error.getMessage()))
					.build())));
		}
		return CompositeReactiveHealthContributor.fromMap(indicators);
	}

}
