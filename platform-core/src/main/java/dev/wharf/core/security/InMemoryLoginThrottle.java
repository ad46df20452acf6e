package dev.wharf.core.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The {@link LoginThrottle} in this process's memory: the default for one replica.
 * Everything runs on the subscribing thread in microseconds; memory is bounded by a cap
 * on the number of buckets. Thread-safe.
 */
public final class InMemoryLoginThrottle implements LoginThrottle {

	private final Clock clock;

	private final Cache<String, Failures> buckets;

	/** Creates a throttle on the system clock. */
	public InMemoryLoginThrottle() {
		this(Clock.systemUTC());
	}

	/**
	 * Creates a throttle on a clock of its own, so tests can let a lock run out without
	 * waiting.
	 * @param clock the time source
	 */
	public InMemoryLoginThrottle(Clock clock) {
		this.clock = clock;
		this.buckets = Caffeine.newBuilder()
			.maximumSize(200_000)
			.expireAfterWrite(FORGET_AFTER)
			.ticker(() -> TimeUnit.MILLISECONDS.toNanos(clock.millis()))
			.build();
	}

	@Override
	public Mono<Duration> retryAfter(String account, @Nullable String address) {
		return Mono.fromSupplier(() -> retryAfterAtHand(account, address));
	}

	/** The buckets are in memory: always at hand. */
	@Override
	public Duration retryAfterAtHand(String account, @Nullable String address) {
		if (this.buckets.estimatedSize() == 0) {
			// No failure anywhere, so no bucket is locked: no key is built or looked up,
			// as on most logins. A failure counted at this moment is as if it had come
			// just after this check.
			return Duration.ZERO;
		}
		Instant now = this.clock.instant();
		Duration wait = Duration.ZERO;
		for (Bucket bucket : Bucket.of(address)) {
			Failures failures = this.buckets.getIfPresent(bucket.key(account, address));
			if (failures != null && failures.lockedUntil().isAfter(now)) {
				Duration remaining = Duration.between(now, failures.lockedUntil());
				if (remaining.compareTo(wait) > 0) {
					wait = remaining;
				}
			}
		}
		return wait;
	}

	@Override
	public Mono<Void> failed(String account, @Nullable String address) {
		return Mono.fromRunnable(() -> {
			Instant now = this.clock.instant();
			for (Bucket bucket : Bucket.of(address)) {
				this.buckets.asMap().compute(bucket.key(account, address), (key, previous) -> {
					int count = (previous != null) ? previous.count() + 1 : 1;
					Instant lockedUntil = (previous != null) ? previous.lockedUntil() : Instant.MIN;
					if (count > bucket.free()) {
						lockedUntil = now.plus(LoginThrottle.lock(count - bucket.free()));
					}
					return new Failures(count, lockedUntil);
				});
			}
		});
	}

	@Override
	public Mono<Void> succeeded(String account, @Nullable String address) {
		return Mono.fromRunnable(() -> {
			List<Bucket> cleared = (address != null) ? List.of(Bucket.ACCOUNT, Bucket.ACCOUNT_AND_ADDRESS)
					: List.of(Bucket.ACCOUNT);
			cleared.forEach(bucket -> this.buckets.invalidate(bucket.key(account, address)));
		});
	}

	private record Failures(int count, Instant lockedUntil) {
	}

}
