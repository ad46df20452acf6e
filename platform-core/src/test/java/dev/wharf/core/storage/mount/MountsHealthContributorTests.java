package dev.wharf.core.storage.mount;

import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;

import dev.wharf.core.storage.BackendUnavailableException;
import dev.wharf.core.storage.ForwardingStorage;
import dev.wharf.core.storage.memory.MemoryStorage;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MountsHealthContributor}: a mount that fails its check is down, and
 * the error detail never carries more than a storage error's own message, so no host path
 * reaches a health answer.
 */
class MountsHealthContributorTests {

	private static final String HOST_PATH = "/srv/wharf/secret-root/data";

	@Test
	void aHealthyMountIsUpWithItsType() {
		Health health = health(Mono.empty());
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("type", "memory");
	}

	@Test
	void aStorageErrorIsShownByItsOwnMessage() {
		Health health = health(Mono.error(new BackendUnavailableException("the mount's folder is missing")));
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("error", "the mount's folder is missing");
	}

	@Test
	void anyOtherErrorIsShownByItsKindOnlyNeverItsMessage() {
		Health health = health(Mono.error(new UncheckedIOException(new NoSuchFileException(HOST_PATH))));
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("error", "UncheckedIOException");
		assertThat(health.getDetails().toString()).doesNotContain(HOST_PATH);
	}

	@Test
	void aMountThatDoesNotAnswerIsDown() {
		Health health = health(Mono.never());
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("error", "no answer in time");
	}

	private static Health health(Mono<Void> check) {
		ForwardingStorage storage = new ForwardingStorage(new MemoryStorage("data", 1024)) {

			@Override
			public Mono<Void> checkHealth() {
				return check;
			}

		};
		var contributor = MountsHealthContributor.of(MountRegistry.of(new Mount("data", "memory", storage)),
				Duration.ofMillis(200));
		return ((ReactiveHealthIndicator) contributor.getContributor("data")).health().block(Duration.ofSeconds(10));
	}

}
