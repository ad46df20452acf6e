package dev.wharf.core.storage.mount;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import dev.wharf.core.storage.StorageException;
import org.springframework.boot.health.contributor.CompositeReactiveHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import reactor.core.publisher.Mono;

/**
 * Health of every mount, one entry each, under {@code /actuator/health/mounts}. A backend
 * that does not answer within the timeout is reported down. The error detail is a storage
 * error's own message (which names mount paths only) or just the kind of error: other
 * messages may name host paths or credentials.
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
			indicators.put(mount.name(),
					() -> mount.storage()
						.checkHealth()
						.timeout(timeout)
						.then(Mono.fromCallable(() -> Health.up().withDetail("type", mount.type()).build()))
						.onErrorResume(error -> Mono.just(Health.down()
							.withDetail("type", mount.type())
							.withDetail("error", errorDetail(error))
							.build())));
		}
		return CompositeReactiveHealthContributor.fromMap(indicators);
	}

	/**
	 * What a health detail may say about a backend's failure.
	 * @param error the failure
	 * @return a {@link StorageException}'s message, which names mount paths only;
	 * otherwise the kind of error
	 */
	public static String errorDetail(Throwable error) {
		if (error instanceof StorageException storage) {
			return storage.getMessage();
		}
		if (error instanceof TimeoutException) {
			return "no answer in time";
		}
		return error.getClass().getSimpleName();
	}

}
